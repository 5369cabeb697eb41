//! Every output recorded or adopted, never twice (issue 22, item 4), for `urne block generate`,
//! `urne block reveal` and a sitting's close (the draw's: `kills::draw_kills`): each killed
//! (SIGKILL) at random moments on a new subject each run, then re-run as an operator would, half
//! the time into the same folder and half into a new one (when refused, exit 4, into the first
//! folder; when refused again, with the first folder moved aside, as the hint says). Counted on
//! the media: the complete signed outputs (the primary file with its valid signature under the
//! result key), those no publication record of the trail names (orphans), and the second outputs
//! of one subject; `urne verify` over every folder holding an output must not say `fork`.
//! The sitting's close is killed in `kills_sitting`, with the helpers of this file.
//! `scripts/kill-outputs --command generate|reveal|sitting` runs the long variants (at least 30
//! kills), and their positive control with an older build (`URNE_UNDER_TEST`,
//! `URNE_EXPECT_ORPHANS=1`).

use crate::block_cli::small_rules;
use crate::common::*;
use crate::kills::{Orphans, audit_ok, count_where, hex_sha256};
use crate::outputs::*;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Instant;

/// The SHA-256 (hex) of every file a publication record of `kinds` names: its `files`, its
/// `output` and its own `sha256` (`output.published`).
pub(crate) fn published_shas(env: &Env, kinds: &[&str]) -> BTreeSet<String> {
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
pub(crate) fn signed(file: &Path, result_pub: &Path) -> bool {
    let sig = PathBuf::from(format!("{}.sig", file.display()));
    file.is_file() && sig.is_file() && openssl_verify(result_pub, file, &sig)
}

/// Every complete signed output (a file named `*suffix` with its valid signature) at any depth
/// below the env's output folders (`out-*`, not the secret media `*-secret`), staging folders
/// skipped.
pub(crate) fn signed_outputs(env: &Env, result_pub: &Path, suffix: &str) -> Vec<PathBuf> {
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
pub(crate) fn tally(outputs: &[(String, Vec<u8>)], published: &BTreeSet<String>) -> Orphans {
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
pub(crate) fn copy_whole(env: &Env, file: &Path) {
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

pub(crate) fn verify_pub(env: &Env) -> Verified {
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
pub(crate) fn rerun_until_done(
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
    /// The figures of a kill run: the signed `outputs` found on the media (subject, bytes)
    /// counted against the `published` records, the kills that fell in the placing `window`,
    /// the re-runs `refused`, and `urne verify` over every folder copied into `pub`.
    pub(crate) fn of(
        k: Killer,
        (outputs, published): (&[(String, Vec<u8>)], &BTreeSet<String>),
        (window, refused): (usize, usize),
        env: &Env,
    ) -> Figures {
        let f = tally(outputs, published);
        Figures {
            k,
            f: Orphans { window, ..f },
            refused,
            v: verify_pub(env),
        }
    }

    /// Prints the `kill figures:` line; `what` names the output (singular, plural).
    pub(crate) fn report(&self, (what, whats): (&str, &str)) {
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

    /// No orphan, no second output, no fork (the short runs of `scripts/test`, this code only).
    pub(crate) fn assert_clean(&self) {
        let f = &self.f;
        assert_eq!((f.orphans, f.second, self.v.fork), (0, 0, false), "{f:?}");
    }

    /// None for this code; some for the positive control (`URNE_EXPECT_ORPHANS`).
    pub(crate) fn check(&self) {
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
            assert_fails(&k.run(&env, &args), 4, "block-already-generated");
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
    Figures::of(k, (&outputs, &published), (window, refused), &env)
}

#[test]
fn a_kill_at_any_moment_of_block_generate_leaves_no_orphan_and_no_second_commitment() {
    let r = generate_kills(kill_runs().min(6));
    r.report(("commitment", "commitments"));
    r.assert_clean();
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
    Figures::of(k, (&outputs, &published), (window, refused), &env)
}

#[test]
fn a_kill_at_any_moment_of_a_reveal_leaves_no_orphan_and_no_second_reveal() {
    let r = reveal_kills(kill_runs().min(6));
    r.report(("reveal", "reveals"));
    r.assert_clean();
}

#[test]
#[ignore = "long: scripts/kill-outputs --command reveal"]
fn thirty_kills_of_a_reveal_leave_no_orphan_and_no_second_reveal() {
    let r = reveal_kills(kill_runs().max(30));
    r.report(("reveal", "reveals"));
    r.check();
}
