//! Every output recorded or adopted, never twice (issue 22, item 4), for `urne block generate`,
//! `urne block reveal` and a sitting's close (the draw's: `kills::draw_kills`): each killed
//! (SIGKILL) at random moments on a new subject each run, then re-run as an operator would, half
//! the time into the same folder and half into a new one (when refused, exit 4, into the first
//! folder; when refused again, with the first folder moved aside, as the hint says). Counted on
//! the media: the complete signed outputs (the primary file with its valid signature under the
//! result key), those no publication record of the trail names (orphans), and the second outputs
//! of one subject; `urne verify` over every folder holding an output must not say `fork`.
//! `scripts/kill-outputs --command generate|reveal|sitting` runs the long variants (at least 30
//! kills), and their positive control with an older build (`URNE_UNDER_TEST`,
//! `URNE_EXPECT_ORPHANS=1`).

use crate::block_cli::small_rules;
use crate::common::*;
use crate::kills::{Orphans, audit_ok, count_where, hex_sha256};
use crate::outputs::*;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The SHA-256 (hex) of every file a publication record of `kinds` names: its `files`, its
/// `output` and its own `sha256` (`output.published`).
fn published_shas(env: &Env, kinds: &[&str]) -> BTreeSet<String> {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let mut set = BTreeSet::new();
    for kind in kinds {
        let mut st = c
            .prepare("SELECT payload FROM events WHERE kind = ?1")
            .unwrap();
        let rows = st.query_map([kind], |r| r.get::<_, String>(0)).unwrap();
        for p in rows {
            let v: Value = serde_json::from_str(&p.unwrap()).unwrap();
            if let Some(m) = v["files"].as_object() {
                set.extend(m.values().filter_map(|s| s.as_str().map(String::from)));
            }
            for s in [&v["output"]["sha256"], &v["sha256"]] {
                set.extend(s.as_str().map(String::from));
            }
        }
    }
    set
}

/// Whether `file` is there with its `.sig`, valid under `result_pub`.
fn signed(file: &Path, result_pub: &Path) -> bool {
    let sig = PathBuf::from(format!("{}.sig", file.display()));
    file.is_file() && sig.is_file() && openssl_verify(result_pub, file, &sig)
}

/// Every complete signed output (a file named `*suffix` with its valid signature) at any depth
/// below the env's output folders (`out-*`, not the secret media `*-secret`), staging folders
/// skipped.
fn signed_outputs(env: &Env, result_pub: &Path, suffix: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, suffix: &str, result_pub: &Path, found: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if name.starts_with('.') || p.is_symlink() {
                continue;
            }
            if p.is_dir() {
                walk(&p, suffix, result_pub, found);
            } else if name.ends_with(suffix) && signed(&p, result_pub) {
                found.push(p);
            }
        }
    }
    let mut found = vec![];
    let mut tops: Vec<PathBuf> = std::fs::read_dir(env.dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            p.is_dir() && n.starts_with("out-") && !n.ends_with("-secret")
        })
        .collect();
    tops.sort();
    for t in tops {
        walk(&t, suffix, result_pub, &mut found);
    }
    found
}

/// The figures of `outputs` (each with the subject it is the output of, e.g. a block's attempt)
/// against the files the trail's publication records name.
fn tally(outputs: &[(String, Vec<u8>)], published: &BTreeSet<String>) -> Orphans {
    let mut f = Orphans::default();
    let mut seen = BTreeSet::new();
    for (subject, bytes) in outputs {
        f.outputs += 1;
        f.orphans += usize::from(!published.contains(&hex_sha256(bytes)));
        f.second += usize::from(!seen.insert(subject.clone()));
    }
    f
}

/// Copies the files (not the folders, nor hidden entries) of `from` into `to` (created), those
/// `keep` accepts.
fn copy_files(from: &Path, to: &Path, keep: &dyn Fn(&str) -> bool) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().map(Result::unwrap) {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') && e.file_type().unwrap().is_file() && keep(&name) {
            std::fs::copy(e.path(), to.join(&name)).unwrap();
        }
    }
}

/// The folder of `pub` for the output folder `dir` of the env: its path below the env, flattened.
fn pub_copy(env: &Env, dir: &Path) -> PathBuf {
    let rel = dir.strip_prefix(env.dir.path()).unwrap();
    env.path("pub")
        .join(rel.to_string_lossy().replace('/', "_"))
}

/// The folder of the output `file`, copied whole into `pub` (for `urne verify pub`).
fn copy_whole(env: &Env, file: &Path) {
    let dir = file.parent().unwrap();
    copy_files(dir, &pub_copy(env, dir), &|_| true);
}

/// What `urne verify pub` said: whether it passed, and whether it said `fork` (then its report).
#[derive(Debug)]
pub(crate) struct Verified {
    pub(crate) ok: bool,
    pub(crate) fork: bool,
    pub(crate) said: String,
}

fn verify_pub(env: &Env) -> Verified {
    std::fs::create_dir_all(env.path("pub")).unwrap();
    let o = env.urne(&["verify", "pub", "--keys", "keys"]);
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    Verified {
        ok: o.status.success(),
        fork: said.contains("fork"),
        said,
    }
}

/// Re-runs a killed command (`run`, given the output folder) as an operator would: into `again`
/// (the first folder `first`, or a new one); when refused (exit 4), into `first`; when refused
/// again, with `first` moved aside to `aside`, as the hint says. Returns how many re-runs were
/// refused; panics when none completes.
fn rerun_until_done(
    env: &Env,
    (first, again, aside): (&str, &str, &str),
    run: &mut dyn FnMut(&str) -> Output,
) -> usize {
    let mut tries = vec![again, first];
    tries.dedup();
    for (n, out) in tries.iter().chain([&first]).enumerate() {
        if n == tries.len() {
            std::fs::rename(env.path(first), env.path(aside)).unwrap();
        }
        let o = run(out);
        if o.status.success() {
            // Every run before this one was refused.
            return n;
        }
        assert_eq!(
            o.status.code(),
            Some(4),
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
    panic!("{first}: the command never completed after its kill");
}

/// The figures of a kill run, and what `urne verify` over every folder said.
pub(crate) struct Figures {
    pub(crate) k: Killer,
    pub(crate) f: Orphans,
    pub(crate) refused: usize,
    pub(crate) v: Verified,
}

impl Figures {
    /// Prints the `kill figures:` line; `what` names the output (singular, plural).
    fn report(&self, (what, whats): (&str, &str)) {
        let f = &self.f;
        self.k.report(&format!(
            "{} kills left a whole {what} unrecorded; {} re-runs refused (exit 4) before one \
             completed; {} complete signed {whats} on the media, {} orphans (no publication \
             record names them), {} second {whats} of one subject; urne verify over every \
             folder {}",
            f.window,
            self.refused,
            f.outputs,
            f.orphans,
            f.second,
            match (self.v.fork, self.v.ok) {
                (true, _) => "said fork",
                (false, true) => "passed (no fork)",
                (false, false) => "failed, without saying fork",
            }
        ));
        if !self.v.ok {
            eprintln!("urne verify pub:\n{}", self.v.said);
        }
    }

    /// None for this code; some for the positive control (`URNE_EXPECT_ORPHANS`).
    fn check(&self) {
        let f = &self.f;
        if std::env::var_os("URNE_EXPECT_ORPHANS").is_some() {
            assert!(f.orphans + f.second > 0, "the control found none: {f:?}");
        } else {
            assert_eq!((f.orphans, f.second, self.v.fork), (0, 0, false), "{f:?}");
        }
    }
}

/// Kills `urne block generate` at random moments `runs` times (half anywhere, half in the last
/// half of its run), each on a new block, and re-runs it into the same or a new `--out`.
fn generate_kills(runs: usize) -> Figures {
    let env = Env::new();
    let rules = small_rules(&env);
    env.ok(&["keys", "export", "--out", "keys"]);
    let result_pub = env.path("keys/result.pub.pem");
    let t = Instant::now();
    env.ok(&generate_args(&rules, "1000", "out-g-timing"));
    let mut k = Killer::new(
        "block generate (re-run into the same or a new folder)",
        t.elapsed(),
    );
    let (mut window, mut refused) = (0, 0);
    for i in 0..runs {
        let first = (i + 1).to_string();
        let block = json!(format!("{GAME}/100/t1/{first}"));
        let out = format!("out-g{i:03}");
        let args = generate_args(&rules, &first, &out);
        if i % 4 < 2 {
            k.kill(&env, &args);
        } else {
            k.kill_late(&env, &args, 50);
        }
        audit_ok(&env);
        let published = |env: &Env| count_where(env, "block.published", "block", &block) > 0;
        let commit = env
            .path(&out)
            .join(format!("{GAME}_100_t1_{first}.commit.json"));
        window += usize::from(!published(&env) && signed(&commit, &result_pub));
        if published(&env) {
            assert_fails(&k.run(&env, &args), 4);
            k.rerun(true);
            continue;
        }
        let again = if i % 2 == 0 {
            out.clone()
        } else {
            format!("{out}-new")
        };
        let aside = format!("out-aside-g{i:03}");
        refused += rerun_until_done(&env, (&out, &again, &aside), &mut |o| {
            k.run(&env, &generate_args(&rules, &first, o))
        });
        k.rerun(false);
        assert!(published(&env), "run {i}");
        audit_ok(&env);
    }
    let published = published_shas(&env, &["block.published"]);
    let mut outputs = vec![];
    for p in signed_outputs(&env, &result_pub, ".commit.json") {
        let bytes = std::fs::read(&p).unwrap();
        let c: Value = serde_json::from_slice(&bytes).unwrap();
        outputs.push((format!("{}/{}", c["block"], c["attempt"]), bytes));
        copy_whole(&env, &p);
    }
    let f = tally(&outputs, &published);
    Figures {
        k,
        f: Orphans { window, ..f },
        refused,
        v: verify_pub(&env),
    }
}

#[test]
fn a_kill_at_any_moment_of_block_generate_leaves_no_orphan_and_no_second_commitment() {
    let r = generate_kills(kill_runs().min(6));
    r.report(("commitment", "commitments"));
    assert_eq!(
        (r.f.orphans, r.f.second, r.v.fork),
        (0, 0, false),
        "{:?}",
        r.f
    );
}

#[test]
#[ignore = "long: scripts/kill-outputs --command generate"]
fn thirty_kills_of_block_generate_leave_no_orphan_and_no_second_commitment() {
    let r = generate_kills(kill_runs().max(30));
    r.report(("commitment", "commitments"));
    r.check();
}

/// Kills `urne block reveal` at random moments `runs` times (half anywhere, half in the last
/// half of its run), each on a new block (all generated first), and re-runs it into the same or
/// a new `--out`.
fn reveal_kills(runs: usize) -> Figures {
    let env = Env::new();
    let rules = small_rules(&env);
    env.ok(&["keys", "export", "--out", "keys"]);
    let result_pub = env.path("keys/result.pub.pem");
    let blocks = (runs + 1).to_string();
    let mut g = generate_args(&rules, "1", "out-gen");
    let n = g.iter().position(|a| *a == "--blocks").unwrap();
    g[n + 1] = &blocks;
    env.ok(&g);
    let id = |n: usize| format!("{GAME}/100/t1/{n}");
    let reveal = |b: &str, closed: &str, out: &str| -> Vec<String> {
        ["block", "reveal", "--block", b, "--sales-closed-at", closed]
            .into_iter()
            .chain(["--out", out])
            .map(String::from)
            .collect()
    };
    let t = Instant::now();
    let last = id(runs + 1);
    let a = reveal(&last, &sales_close(&env, &last), "out-r-timing");
    env.ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let mut k = Killer::new(
        "block reveal (re-run into the same or a new folder)",
        t.elapsed(),
    );
    let (mut window, mut refused) = (0, 0);
    for i in 0..runs {
        let b = id(i + 1);
        let closed = sales_close(&env, &b);
        let out = format!("out-r{i:03}");
        let a = reveal(&b, &closed, &out);
        let args: Vec<&str> = a.iter().map(String::as_str).collect();
        if i % 4 < 2 {
            k.kill(&env, &args);
        } else {
            k.kill_late(&env, &args, 50);
        }
        audit_ok(&env);
        let name = format!("{}.reveal.json", b.replace('/', "_"));
        let published = |env: &Env| count_where(env, "output.published", "file", &json!(name)) > 0;
        let file = env.path(&out).join(&name);
        let recorded = published_shas(&env, &["output.published"]);
        window += usize::from(
            signed(&file, &result_pub)
                && !recorded.contains(&hex_sha256(&std::fs::read(&file).unwrap())),
        );
        if published(&env) {
            // Done before the kill: the re-run says so (revealed already), or refuses.
            let o = k.run(&env, &args);
            assert!(o.status.success() || o.status.code() == Some(4));
            k.rerun(true);
            continue;
        }
        let again = if i % 2 == 0 {
            out.clone()
        } else {
            format!("{out}-new")
        };
        let aside = format!("out-aside-r{i:03}");
        refused += rerun_until_done(&env, (&out, &again, &aside), &mut |o| {
            let a = reveal(&b, &closed, o);
            k.run(&env, &a.iter().map(String::as_str).collect::<Vec<_>>())
        });
        k.rerun(false);
        assert!(published(&env), "run {i}");
        audit_ok(&env);
    }
    let published = published_shas(&env, &["output.published"]);
    let mut outputs = vec![];
    for p in signed_outputs(&env, &result_pub, ".reveal.json") {
        let bytes = std::fs::read(&p).unwrap();
        let r: Value = serde_json::from_slice(&bytes).unwrap();
        outputs.push((r["block"].to_string(), bytes));
        // The reveal verified beside its block's commitment, manifest and rules.
        let stem = r["block"].as_str().unwrap().replace('/', "_");
        let to = pub_copy(&env, p.parent().unwrap());
        let mine = |n: &str| n.starts_with(&format!("{stem}.")) || n.starts_with("rules.json");
        copy_files(&env.path("out-gen"), &to, &|n| {
            mine(n) && !n.contains(".reveal.")
        });
        copy_files(p.parent().unwrap(), &to, &|n| {
            n.starts_with(&format!("{stem}.reveal.json"))
        });
    }
    let f = tally(&outputs, &published);
    Figures {
        k,
        f: Orphans { window, ..f },
        refused,
        v: verify_pub(&env),
    }
}

#[test]
fn a_kill_at_any_moment_of_a_reveal_leaves_no_orphan_and_no_second_reveal() {
    let r = reveal_kills(kill_runs().min(6));
    r.report(("reveal", "reveals"));
    assert_eq!(
        (r.f.orphans, r.f.second, r.v.fork),
        (0, 0, false),
        "{:?}",
        r.f
    );
}

#[test]
#[ignore = "long: scripts/kill-outputs --command reveal"]
fn thirty_kills_of_a_reveal_leave_no_orphan_and_no_second_reveal() {
    let r = reveal_kills(kill_runs().max(30));
    r.report(("reveal", "reveals"));
    r.check();
}

/// The commissaire's watch now, Paris time to the minute (the clock urne reads, as the
/// commissaire's watch would).
#[allow(clippy::disallowed_methods)]
fn watch_now() -> String {
    chrono::Utc::now()
        .with_timezone(&chrono_tz::Europe::Paris)
        .format("%Y-%m-%d %H:%M")
        .to_string()
}

/// `urne ceremony ARGS` on a pseudo-terminal (the PIN typed at its prompt, every question
/// answered yes, the commissaire's watch and contribution typed, the sitting closed once its
/// plan is done: choice 4 among the other operations), in English.
fn ceremony_command(env: &Env, args: &[&str]) -> Command {
    let mut c = env.cmd_of(&root().join("scripts/pty-type"));
    c.env_remove("URNE_PIN")
        .args(["--timeout", "60"])
        .args([
            "--on",
            "(?:HSM user PIN|code PIN de l'HSM)",
            "--send",
            &env.pin(),
        ])
        .args(["--on", "(?:at your watch|à votre montre)", "--send"])
        .arg(watch_now())
        .args(["--on", TYPE_BACK, "--send-match"])
        .args(["--on", CONTRIBUTION_PROMPT, "--send", CONTRIBUTION])
        .args([
            "--on",
            "(?:Type yes or no|Tapez oui ou non)",
            "--send",
            "yes",
        ])
        .args([
            "--on",
            r"(?:Your choice|Votre choix) \(1, 2, 3",
            "--send",
            "4",
        ])
        .arg("--")
        .arg(urne_bin())
        .arg("ceremony")
        .args(args);
    c
}

/// `urne ceremony ARGS` run to its end; what the terminal showed is both outputs.
fn ceremony(env: &Env, args: &[&str]) -> Output {
    let mut o = ceremony_command(env, args).output().unwrap();
    o.stderr = o.stdout.clone();
    o
}

/// A sitting generating block `first` of the reduced game `rules`, its minutes under `out`.
fn sitting_args(rules: &Path, first: &str, out: &str, secret: &str) -> Vec<String> {
    [
        "--out",
        out,
        "--place",
        "Salle des essais, Paris",
        "--commissaire",
        "Maître Claire Dupont",
        "--office",
        "Étude Dupont",
        "--present",
        "Jean Martin, operator",
        "--game-rules",
        rules.to_str().unwrap(),
        "--price",
        "100",
        "--emission",
        "t1",
        "--first",
        first,
        "--blocks",
        "1",
        "--secret-out",
        secret,
    ]
    .map(String::from)
    .to_vec()
}

/// The heading a sitting's close starts with, in English or French.
const CLOSING: &[u8] = "CLOSING OF THE SITTING|CLÔTURE DE LA SÉANCE".as_bytes();

/// Runs the sitting `args` on a pseudo-terminal; once its close begins (its heading shown),
/// waits `after(close started)` and kills it (SIGKILL to urne, through the pty helper). Returns
/// how long the close ran when the command had exited first (or never showed its close).
fn kill_in_close(env: &Env, args: &[&str], after: impl FnOnce() -> Duration) -> Option<Duration> {
    let mut child = ceremony_command(env, args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let (mut seen, mut buf, mut sent) = (Vec::new(), [0u8; 4096], false);
        let rx = regex_lite(CLOSING);
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 {
                break;
            }
            seen.extend_from_slice(&buf[..n]);
            if !sent && rx(&seen) {
                sent = tx.send(Instant::now()).is_ok();
            }
        }
        seen
    });
    let start = match rx.recv_timeout(Duration::from_secs(120)) {
        Ok(t) => t,
        Err(_) => {
            kill_child(&mut child);
            let seen = reader.join().unwrap();
            panic!(
                "the sitting never reached its close:\n{}",
                String::from_utf8_lossy(&seen)
            );
        }
    };
    let delay = after();
    while start.elapsed() < delay {
        if child.try_wait().unwrap().is_some() {
            let _ = reader.join();
            return Some(start.elapsed());
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    if child.try_wait().unwrap().is_some() {
        let _ = reader.join();
        return Some(start.elapsed());
    }
    kill_child(&mut child);
    let _ = reader.join();
    None
}

/// Whether `seen` holds one of the `|`-separated alternatives of `pattern`.
fn regex_lite(pattern: &'static [u8]) -> impl Fn(&[u8]) -> bool {
    move |seen: &[u8]| {
        pattern
            .split(|b| *b == b'|')
            .any(|alt| seen.windows(alt.len()).any(|w| w == alt))
    }
}

/// How long a sitting's close ran in the timing sitting (from its heading to the end).
fn close_span(env: &Env, args: &[&str]) -> Duration {
    let took = kill_in_close(env, args, || Duration::from_secs(300));
    took.expect("the timing sitting ended")
}

/// Kills `urne ceremony` during a sitting's close `runs` times (the sitting generating one
/// block, each run a new sitting), at a random moment from its close's heading to 1.2 times the
/// close's length, and re-runs `urne ceremony --out` into the same or a new publications folder.
fn sitting_kills(runs: usize) -> Figures {
    let env = Env::new();
    let rules = small_rules(&env);
    env.ok(&["keys", "export", "--out", "keys"]);
    let result_pub = env.path("keys/result.pub.pem");
    let a = sitting_args(&rules, "1000", "out-p-timing", "sec-timing");
    let span = close_span(&env, &a.iter().map(String::as_str).collect::<Vec<_>>());
    let mut k = Killer::new(
        "a sitting's close (re-run into the same or a new folder)",
        span,
    );
    let span_ms = span.as_millis() as u64 * 12 / 10;
    let (mut window, mut refused) = (0, 0);
    for i in 0..runs {
        let number = i + 2;
        let (first, out) = ((i + 1).to_string(), format!("out-p{i:03}"));
        let a = sitting_args(&rules, &first, &out, &format!("sec-{i:03}"));
        let args: Vec<&str> = a.iter().map(String::as_str).collect();
        k.kill_by(&env, |delays| {
            let delay = delays.below(span_ms);
            kill_in_close(&env, &args, || delay)
        });
        audit_ok(&env);
        let name = format!("sitting-{number:03}/sitting.json");
        let published = |env: &Env| count_where(env, "output.published", "file", &json!(name)) > 0;
        let file = env.path(&out).join(&name);
        let recorded = published_shas(&env, &["output.published"]);
        window += usize::from(
            signed(&file, &result_pub)
                && !recorded.contains(&hex_sha256(&std::fs::read(&file).unwrap())),
        );
        if published(&env) {
            // Done before the kill: nothing is left to publish, and nothing is planned.
            let o = ceremony(&env, &["--out", &out]);
            assert_eq!(
                o.status.code(),
                Some(2),
                "{}",
                String::from_utf8_lossy(&o.stdout)
            );
            k.rerun(true);
            continue;
        }
        let again = if i % 2 == 0 {
            out.clone()
        } else {
            format!("{out}-new")
        };
        let aside = format!("out-aside-p{i:03}");
        refused += rerun_until_done(&env, (&out, &again, &aside), &mut |o| {
            ceremony(&env, &["--out", o])
        });
        k.rerun(false);
        assert!(published(&env), "run {i}");
        audit_ok(&env);
    }
    let published = published_shas(&env, &["output.published"]);
    let mut outputs = vec![];
    for p in signed_outputs(&env, &result_pub, "sitting.json") {
        let bytes = std::fs::read(&p).unwrap();
        let s: Value = serde_json::from_slice(&bytes).unwrap();
        outputs.push((s["number"].to_string(), bytes));
        copy_whole(&env, &p);
    }
    // The blocks the minutes list, beside them.
    for p in signed_outputs(&env, &result_pub, ".commit.json") {
        copy_whole(&env, &p);
    }
    let f = tally(&outputs, &published);
    Figures {
        k,
        f: Orphans { window, ..f },
        refused,
        v: verify_pub(&env),
    }
}

#[test]
fn a_kill_in_a_sittings_close_leaves_no_orphan_and_no_second_minutes() {
    let r = sitting_kills(kill_runs().min(4));
    r.report(("minutes", "minutes"));
    assert_eq!(
        (r.f.orphans, r.f.second, r.v.fork),
        (0, 0, false),
        "{:?}",
        r.f
    );
}

#[test]
#[ignore = "long: scripts/kill-outputs --command sitting"]
fn thirty_kills_of_a_sittings_close_leave_no_orphan_and_no_second_minutes() {
    let r = sitting_kills(kill_runs().max(30));
    r.report(("minutes", "minutes"));
    r.check();
}
