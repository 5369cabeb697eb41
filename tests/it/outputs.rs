//! Outputs appear whole or not at all (issue 10 item 9, spec/appliance.md §4.7, §5.B9): nothing planted in
//! an output folder is followed or overwritten, and a kill -9 at any moment of `urne block
//! generate` or `urne draw` leaves no final-named file without its valid signature, no
//! commitment without its production file, and a state the next run resumes from.
//! `URNE_KILL_RUNS` sets the number of kills per command ([`DEFAULT_KILL_RUNS`] by default;
//! `scripts/crash` runs more and prints the figures).

use crate::block_cli::small_rules;
use crate::common::*;
use crate::draws::{seal, simulate};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub(crate) const GAME: &str = "test-small-game";

/// The folder standing for the separate secret medium of the output folder `out` in these
/// tests: `OUT-secret`, beside it (`urne verify` of a folder of outputs skips it: it holds no
/// output of its own).
pub(crate) fn secret_of(out: &str) -> String {
    format!("{out}-secret")
}

/// `urne block generate` of one block (number `first`) into `out`, its production file on
/// [`secret_of`]`(out)`.
pub(crate) fn generate_args<'a>(rules: &'a Path, first: &'a str, out: &'a str) -> Vec<&'a str> {
    // A few bytes per call, for the life of the test process: the callers keep `&str` slices.
    let secret: &'static str = Box::leak(secret_of(out).into_boxed_str());
    vec![
        "block",
        "generate",
        "--rules",
        rules.to_str().unwrap(),
        "--unofficial-rules",
        "--price",
        "100",
        "--emission",
        "t1",
        "--first",
        first,
        "--blocks",
        "1",
        "--out",
        out,
        "--secret-out",
        secret,
    ]
}

pub(crate) fn count(env: &Env, kind: &str) -> usize {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.query_row("SELECT COUNT(*) FROM events WHERE kind = ?1", [kind], |r| {
        r.get::<_, i64>(0)
    })
    .map(|n| usize::try_from(n).unwrap())
    .unwrap()
}

pub(crate) fn last_payload(env: &Env, kind: &str) -> serde_json::Value {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let p: String = c
        .query_row(
            "SELECT payload FROM events WHERE kind = ?1 ORDER BY seq DESC LIMIT 1",
            [kind],
            |r| r.get(0),
        )
        .unwrap();
    serde_json::from_str(&p).unwrap()
}

/// Every final-named file (not a `.sig`, a public key or a hidden staging entry) has its `.sig`,
/// which verifies under the result key; every commitment has its production file on the secret
/// folder beside `dir` ([`secret_of`]), whole and signed, and never one in `dir`. Returns the
/// number of final-named signed files of `dir`.
pub(crate) fn assert_whole(dir: &Path, result_pub: &Path) -> usize {
    let secret = PathBuf::from(secret_of(&dir.display().to_string()));
    let Ok(rd) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut n = 0;
    for e in rd {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name.ends_with(".sig") || name.ends_with(".pem") {
            continue;
        }
        let sig = dir.join(format!("{name}.sig"));
        assert!(
            sig.exists(),
            "{name} without its signature in {}",
            dir.display()
        );
        assert!(
            openssl_verify(result_pub, &dir.join(&name), &sig),
            "{name}'s signature does not verify"
        );
        assert!(
            !name.ends_with(".tickets.csv"),
            "a production file {name} in the public folder {}",
            dir.display()
        );
        if let Some(stem) = name.strip_suffix(".commit.json") {
            let csv = secret.join(format!("{stem}.tickets.csv"));
            assert!(
                csv.exists(),
                "commitment {name} without its production file on {}",
                secret.display()
            );
            let sig = secret.join(format!("{stem}.tickets.csv.sig"));
            assert!(
                openssl_verify(result_pub, &csv, &sig),
                "{} signature",
                csv.display()
            );
        }
        n += 1;
    }
    // The secret folder holds production files only, each with its valid signature.
    for e in std::fs::read_dir(&secret).into_iter().flatten() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name.ends_with(".sig") {
            continue;
        }
        assert!(
            name.ends_with(".tickets.csv"),
            "{name} on {}",
            secret.display()
        );
        let sig = secret.join(format!("{name}.sig"));
        assert!(
            sig.exists(),
            "{name} without its signature on {}",
            secret.display()
        );
        assert!(openssl_verify(result_pub, &secret.join(&name), &sig));
    }
    n
}

/// A small deterministic generator for the kill delays (its seed is printed).
pub(crate) struct Delays(u64);

impl Delays {
    pub(crate) fn new() -> Delays {
        use std::hash::{BuildHasher, Hasher};
        let t = std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish();
        eprintln!("kill delays seed {t}");
        Delays(t | 1)
    }
    pub(crate) fn below(&mut self, max_ms: u64) -> Duration {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        Duration::from_millis(self.0 % max_ms.max(1))
    }
}

/// `URNE_KILL_RUNS`, or [`DEFAULT_KILL_RUNS`] kills per command when it is not set.
pub(crate) fn kill_runs() -> usize {
    std::env::var("URNE_KILL_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_KILL_RUNS)
}

/// Kills per command in `cargo test` (`scripts/crash` runs more).
pub(crate) const DEFAULT_KILL_RUNS: usize = 8;

/// Every file of the token folder, by path, with its bytes.
fn token_files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = vec![];
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().map(Result::unwrap) {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((p.clone(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// `urne hsm info`, once the killed command's last process has let the trail go: a busy trail
/// (`error[busy]`, the killed command's child still exiting, on a loaded machine) is waited for,
/// up to 10 s, never taken for an unusable token.
fn hsm_info_once_free(env: &Env) -> std::process::Output {
    let mut tries = 0;
    loop {
        let o = env.urne(&["hsm", "info"]);
        if o.status.success()
            || !String::from_utf8_lossy(&o.stderr).contains("error[busy]")
            || tries == 200
        {
            return o;
        }
        tries += 1;
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// SoftHSM 2.6 rewrites its token files in place, not atomically (truncate, then write): its
/// `token.object` (label, PINs, flags) when a session logs in, each object's file when it is
/// created. A kill inside such a write can leave a token SoftHSM no longer lists ("tokens
/// present: none") or cannot log in to: SoftHSM's storage failing, which a real HSM's does not,
/// and outside what these tests are about. So when, after a kill, `urne hsm info` (module,
/// token by label, login) fails, the token folder is put back as it was before the kill; a
/// token that still works is kept exactly as the kill left it, with every mark the killed
/// command made (and any empty object file a kill inside a creation leaves, which no search by
/// label finds). Putting the folder back deletes every object the killed command created in
/// the token: its marks (and, for `keys init`, its keys and the trail's identity). The trail
/// is then longer than the token's last mark, which urne accepts as it accepts a kill between
/// an append and its mark (spec/appliance.md §6.6), so a put-back never makes a command refuse; but it
/// does hide whether those marks were right, so it is counted, and counted apart when the
/// killed command had appended to the trail (since SoftHSM breaks the token only while logging
/// in, which every command does before anything else, that count is expected to stay 0).
fn restore_token_if_unusable(env: &Env, before: &[(PathBuf, Vec<u8>)]) -> bool {
    if hsm_info_once_free(env).status.success() {
        return false;
    }
    let tokens = env.path("tokens");
    // The killed command's reader of the token's marks (a child process of its own) may still
    // be finishing in the token's folder for a moment.
    let mut tries = 0;
    while let Err(e) = std::fs::remove_dir_all(&tokens) {
        tries += 1;
        assert!(tries < 100, "{}: {e}", tokens.display());
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    for (p, bytes) in before {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    let o = hsm_info_once_free(env);
    assert!(
        o.status.success(),
        "the token folder put back does not work: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    true
}

/// The number of events in the env's trail (0 when there is no database yet).
fn trail_size(env: &Env) -> usize {
    if !env.db().exists() {
        return 0;
    }
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.query_row("SELECT COUNT(*) FROM events", [], |r| r.get::<_, i64>(0))
        .map_or(0, |n| usize::try_from(n).unwrap())
}

/// Kills one command (SIGKILL) at random moments of its run and keeps the figures that
/// `scripts/crash` prints, one `kill figures:` line per command.
pub(crate) struct Killer {
    command: &'static str,
    seed: u64,
    delays: Delays,
    span_ms: u64,
    /// Kills made.
    pub(crate) runs: usize,
    /// Kills that came after the command had exited (the others landed mid-command).
    pub(crate) finished: usize,
    /// Re-runs after a kill that completed the command.
    pub(crate) resumed: usize,
    /// Re-runs after a kill refused (exit 4) because the killed run had done the work.
    pub(crate) done: usize,
    /// Kills after which the token folder was put back (see [`restore_token_if_unusable`]).
    pub(crate) restored: usize,
    /// ... of which after the killed command had appended to the trail (its marks lost).
    pub(crate) restored_after_append: usize,
}

impl Killer {
    /// A killer of `command`, whose whole run takes `took`: the kills fall within 1.2 times it.
    pub(crate) fn new(command: &'static str, took: Duration) -> Killer {
        let delays = Delays::new();
        Killer {
            command,
            seed: delays.0,
            delays,
            span_ms: u64::try_from(took.as_millis()).unwrap() * 12 / 10,
            runs: 0,
            finished: 0,
            resumed: 0,
            done: 0,
            restored: 0,
            restored_after_append: 0,
        }
    }

    /// Spawns urne with `args`, kills it after a random delay, puts the token folder back if
    /// the kill left it unusable; true when the command had finished before the kill. A run
    /// that finished first moves the span halfway to 1.2 times its length (the timing run may
    /// have been slow), so that the kills keep falling inside the command.
    pub(crate) fn kill(&mut self, env: &Env, args: &[&str]) -> bool {
        let delay = self.delays.below(self.span_ms);
        self.kill_after(env, args, delay)
    }

    /// [`Killer::kill`] in the last `percent` of the span only (where a command places and
    /// records its output).
    pub(crate) fn kill_late(&mut self, env: &Env, args: &[&str], percent: u64) -> bool {
        let from = self.span_ms * (100 - percent) / 100;
        let delay = Duration::from_millis(from) + self.delays.below(self.span_ms - from);
        self.kill_after(env, args, delay)
    }

    fn kill_after(&mut self, env: &Env, args: &[&str], delay: Duration) -> bool {
        self.kill_by(env, |_| spawn_and_kill(env, args, delay))
    }

    /// [`Killer::kill`] of a run that `spawn_and_kill` starts and kills itself (e.g. on a
    /// pseudo-terminal, at a moment it picks with the delays it is given); it returns how long
    /// the command ran when it had exited before the kill.
    pub(crate) fn kill_by(
        &mut self,
        env: &Env,
        spawn_and_kill: impl FnOnce(&mut Delays) -> Option<Duration>,
    ) -> bool {
        let token = token_files(&env.path("tokens"));
        let size = trail_size(env);
        let exited = spawn_and_kill(&mut self.delays);
        if let Some(took) = exited {
            self.span_ms = u64::midpoint(
                self.span_ms,
                u64::try_from(took.as_millis()).unwrap() * 12 / 10,
            );
        }
        let finished = exited.is_some();
        self.runs += 1;
        self.finished += usize::from(finished);
        if restore_token_if_unusable(env, &token) {
            self.restored += 1;
            self.restored_after_append += usize::from(trail_size(env) > size);
        }
        finished
    }

    /// Runs urne with `args` to its end (the re-run after a kill); one that succeeds moves the
    /// span halfway to 1.2 times its length, as the command's length grows with the trail.
    pub(crate) fn run(&mut self, env: &Env, args: &[&str]) -> std::process::Output {
        let t = Instant::now();
        let o = env.urne(args);
        if o.status.success() {
            self.span_ms = u64::midpoint(
                self.span_ms,
                u64::try_from(t.elapsed().as_millis()).unwrap() * 12 / 10,
            );
        }
        o
    }

    /// Counts a re-run: `refused` when it was refused as already done.
    pub(crate) fn rerun(&mut self, refused: bool) {
        if refused {
            self.done += 1;
        } else {
            self.resumed += 1;
        }
    }

    /// Prints the figures, then what the test found besides (`more`).
    pub(crate) fn report(&self, more: &str) {
        eprintln!(
            "kill figures: {}: {} runs, {} killed mid-command ({} after it had exited), {} re-runs \
             resumed, {} refused as already done, token folder put back after {} kills ({} of \
             them after the command had appended); {more} (kill delays seed {})",
            self.command,
            self.runs,
            self.runs - self.finished,
            self.finished,
            self.resumed,
            self.done,
            self.restored,
            self.restored_after_append,
            self.seed
        );
    }
}

/// Spawns urne with `args`, kills it (SIGKILL) after `delay`; when it had exited before, how
/// long it ran (to the millisecond).
fn spawn_and_kill(env: &Env, args: &[&str], delay: Duration) -> Option<Duration> {
    let t = Instant::now();
    let mut child = env
        .command_for(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    while t.elapsed() < delay {
        if child.try_wait().unwrap().is_some() {
            return Some(t.elapsed());
        }
        std::thread::sleep(Duration::from_millis(1).min(delay.saturating_sub(t.elapsed())));
    }
    if child.try_wait().unwrap().is_some() {
        return Some(t.elapsed());
    }
    kill_child(&mut child);
    None
}

/// A staging folder a kill left holds no file under an output's name (issue 23: it held a
/// signed `result.json` a reader could take for an output): every file is staged as
/// `<name>.staged` (spec/formats.md §4.7), so nothing in it is an output to either verifier.
fn staging_holds_no_output(dir: &Path) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.filter_map(std::result::Result::ok) {
        if !e
            .file_name()
            .to_string_lossy()
            .starts_with(".urne-staging-")
        {
            continue;
        }
        for f in std::fs::read_dir(e.path())
            .unwrap()
            .filter_map(std::result::Result::ok)
        {
            let name = f.file_name().to_string_lossy().into_owned();
            assert!(
                name.ends_with(".staged"),
                "{}: a staged file under an output's name: {name}",
                e.path().display()
            );
        }
    }
}

/// Whether `dir` holds anything but staging folders (a file moved into place).
fn placed_any(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|rd| {
        rd.filter_map(std::result::Result::ok).any(|e| {
            !e.file_name()
                .to_string_lossy()
                .starts_with(".urne-staging-")
        })
    })
}

fn has_staging(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|rd| {
        rd.filter_map(std::result::Result::ok).any(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(".urne-staging-")
        })
    })
}

#[test]
fn a_kill_at_any_moment_of_block_generate_leaves_only_whole_outputs_and_resumes() {
    let env = Env::new();
    let rules = small_rules(&env);
    env.ok(&["keys", "export", "--out", "keys"]);
    let result_pub = env.path("keys/result.pub.pem");
    // How long one whole generation takes: the kills fall inside it.
    let t = Instant::now();
    env.ok(&generate_args(&rules, "1000", "timing"));
    let mut k = Killer::new("block generate", t.elapsed());
    let (mut staged, mut partial, mut whole) = (0, 0, 0);
    let runs = kill_runs();
    let (out, secret) = (env.path("out"), env.path(&secret_of("out")));
    for i in 0..runs {
        let first = (1 + i).to_string();
        let id = format!("{GAME}/100/t1/{first}");
        let args = generate_args(&rules, &first, "out");
        let entropy_before = count(&env, "block.entropy");
        k.kill(&env, &args);
        staged += usize::from(has_staging(&out) || has_staging(&secret));
        staging_holds_no_output(&out);
        staging_holds_no_output(&secret);
        assert_whole(&out, &result_pub);
        let mine = format!("{GAME}_100_t1_{first}.");
        // This block's files in place, on either folder (production file first, on the secret one).
        let before: usize = [&out, &secret]
            .iter()
            .map(|d| {
                std::fs::read_dir(d).map_or(0, |rd| {
                    rd.filter_map(std::result::Result::ok)
                        .filter(|e| e.file_name().to_string_lossy().starts_with(&mine))
                        .count()
                })
            })
            .sum();
        let entropy = count(&env, "block.entropy") > entropy_before;
        let recorded = entropy.then(|| last_payload(&env, "block.entropy"));
        let published = count(&env, "block.published");
        let committed = env.path("out").join(format!("{mine}commit.json")).exists();
        whole += usize::from(committed && published < i + 2);
        if before > 0 && !committed {
            // Part of the block is in place (its commitment comes last): never verified.
            let o = env.urne(&["verify", "out", "--keys", "keys"]);
            let v = String::from_utf8_lossy(&o.stdout);
            assert!(
                !o.status.success() || !v.lines().any(|l| l.contains(&format!("{id}: "))),
                "a partial block verified: {v}"
            );
        }
        let o = k.run(&env, &args);
        if published == i + 2 {
            assert_fails(&o, 4, "block-already-generated"); // the block was out before the kill: generated once
            k.rerun(true);
        } else {
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            partial += usize::from(before > 0 && !committed);
            k.rerun(false);
        }
        assert_eq!(count(&env, "block.published"), i + 2);
        assert_eq!(
            count(&env, "block.entropy"),
            entropy_before + 1,
            "one entropy"
        );
        if let Some(p) = recorded {
            // The entropy recorded before the kill is the block's: the same block came out.
            assert_eq!(last_payload(&env, "block.entropy"), p);
        }
        assert!(
            !has_staging(&out) && !has_staging(&secret),
            "the re-run removed the leftovers"
        );
        assert_whole(&out, &result_pub);
    }
    assert_eq!(count(&env, "block.entropy"), runs + 1);
    let v = env.ok(&["verify", "out", "--keys", "keys"]);
    assert_eq!(v.matches(": signed commitment").count(), runs, "{v}");
    k.report(&format!(
        "{staged} left a staging folder, {partial} left part of a block in place (every file \
         signed, never verified as a block), {whole} left the whole block in place unrecorded; \
         every re-run resumed with the recorded entropy and the folder verifies"
    ));
}

#[test]
fn a_kill_at_any_moment_of_a_draw_leaves_only_whole_outputs_and_resumes() {
    let env = Env::new();
    let export = simulate(&env, "2018-12-03", 400, 21, &[]);
    seal(&env, &export);
    env.ok(&["keys", "export", "--out", "keys"]);
    let result_pub = env.path("keys/result.pub.pem");
    let draw = |out: &str| -> Vec<String> {
        ["draw", "--day", "2018-12-03", "--out", out]
            .map(String::from)
            .to_vec()
    };
    let t = Instant::now();
    let a = draw("timing");
    env.ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let mut k = Killer::new("draw", t.elapsed());
    let (mut staged, mut partial, mut whole, mut drawn) = (0, 0, 0, 0);
    let runs = kill_runs();
    for i in 0..runs {
        // A new attempt of the day each time: void the last one, seal again.
        env.ok(&["void", "--day", "2018-12-03", "--reason", "kill test run"]);
        seal(&env, &export);
        let out = format!("out{i}");
        let a = draw(&out);
        let args: Vec<&str> = a.iter().map(String::as_str).collect();
        let entropy_before = count(&env, "draw.entropy");
        let results_before = count(&env, "draw.result");
        k.kill(&env, &args);
        let dir = env.path(&out);
        staged += usize::from(has_staging(&dir));
        staging_holds_no_output(&dir);
        let n = assert_whole(&dir, &result_pub);
        if count(&env, "draw.published") == i + 2 {
            // The draw was out before the kill: refused as drawn, the folder verifies.
            assert_fails(&k.run(&env, &args), 4, "day-already-drawn");
            k.rerun(true);
            env.ok(&["verify", &out, "--keys", "keys"]);
            continue;
        }
        // Anything in place, a public key or a signature alone included (they are moved first):
        // a part of the output unless it is whole (spec/appliance.md §6.7).
        if n > 0 || placed_any(&dir) {
            // Part of the folder is in place, each file signed: it verifies only once whole
            // (manifest.json comes last), unrecorded as published. Whole, the re-run records it
            // as published (spec/appliance.md §6.7); a part is refused, then moved aside and drawn again.
            let complete = dir.join("manifest.json").exists();
            let o = env.urne(&["verify", &out, "--keys", "keys"]);
            assert_eq!(
                o.status.success(),
                complete,
                "a partial draw folder verified"
            );
            partial += usize::from(!complete);
            whole += usize::from(complete);
            if !complete {
                assert_fails(&k.run(&env, &args), 4, "output-conflict");
                std::fs::rename(&dir, env.path(&format!("aside{i}"))).unwrap();
            }
        }
        let recorded = count(&env, "draw.entropy") > entropy_before;
        let result = (count(&env, "draw.result") > results_before)
            .then(|| last_payload(&env, "draw.result"));
        drawn += usize::from(result.is_some());
        let o = k.run(&env, &args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        k.rerun(false);
        assert_eq!(count(&env, "draw.entropy"), entropy_before + 1);
        assert_eq!(count(&env, "draw.result"), results_before + 1);
        let r: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join("result.json")).unwrap()).unwrap();
        assert_eq!(
            r["entropy_commitment"],
            last_payload(&env, "draw.entropy")["entropy_commitment"]
        );
        if let Some(p) = result {
            // The result recorded before the kill is the one published: the same winner.
            assert_eq!(r["winner"]["leaf"], p["winner"]["leaf"]);
            assert_eq!(r["winner"]["entry"], p["winner"]["entry"]);
        }
        assert!(!recorded || r["attempt"] == i as u64 + 2);
        assert!(!has_staging(&dir));
        assert_whole(&dir, &result_pub);
        env.ok(&["verify", &out, "--keys", "keys"]);
    }
    k.report(&format!(
        "{staged} left a staging folder, {partial} left part of a folder (every file signed, \
         none verified), {whole} the whole folder unrecorded (it verified), {drawn} had recorded \
         the result; every re-run drew with the recorded entropy and the recorded winner"
    ));
}

/// A file outside `--out` that must never change, and a symlink to it.
fn victim(env: &Env) -> PathBuf {
    let v = env.path("victim.txt");
    std::fs::write(&v, b"precious\n").unwrap();
    v
}

#[test]
fn a_symlink_planted_under_an_output_name_is_never_followed() {
    let env = Env::new();
    let rules = small_rules(&env);
    let v = victim(&env);
    let stem = format!("{GAME}_100_t1_1");
    let (out, secret) = (env.path("out"), env.path(&secret_of("out")));
    std::fs::create_dir(&out).unwrap();
    std::fs::create_dir(&secret).unwrap();
    let dangling = env.path("never-created");
    let planted = [
        secret.join(format!("{stem}.tickets.csv")),
        out.join(format!("{stem}.commit.json.sig")),
    ];
    for (at, target) in planted.iter().zip([&v, &dangling]) {
        for p in &planted {
            let _ = std::fs::remove_file(p);
        }
        std::os::unix::fs::symlink(target, at).unwrap();
        let o = env.urne(&generate_args(&rules, "1", "out"));
        assert_fails(&o, 4, "output-conflict");
        assert_eq!(std::fs::read(&v).unwrap(), b"precious\n");
        assert!(
            !dangling.exists(),
            "nothing written through a dangling symlink"
        );
        assert!(!out.join(format!("{stem}.commit.json")).exists());
        // Refused before any entropy was asked for (spec/formats.md §5.B9).
        assert_eq!(count(&env, "block.entropy"), 0);
    }
    // A draw folder holding a planted symlink is refused before anything is drawn.
    let export = simulate(&env, "2018-12-05", 300, 5, &[]);
    seal(&env, &export);
    std::fs::create_dir(env.path("d")).unwrap();
    std::os::unix::fs::symlink(&v, env.path("d/result.json")).unwrap();
    let o = env.draw("2018-12-05", "d");
    assert_fails(&o, 4, "output-folder-not-empty");
    assert_eq!(std::fs::read(&v).unwrap(), b"precious\n");
    assert_eq!(count(&env, "draw.entropy"), 0);
}

#[test]
fn a_symlink_named_like_a_staging_folder_is_left_alone_and_never_written_through() {
    let env = Env::new();
    let rules = small_rules(&env);
    let v = victim(&env);
    let outside = env.path("outside");
    std::fs::create_dir(&outside).unwrap();
    std::fs::write(outside.join("keep"), b"keep\n").unwrap();
    let out = env.path("out");
    std::fs::create_dir(&out).unwrap();
    // Planted under staging names (a dead pid's, and every counter of pid 1, whose /proc entry
    // exists: not a leftover) and under the old temporary-file name pattern.
    std::os::unix::fs::symlink(&outside, out.join(".urne-staging-4000000-0")).unwrap();
    std::os::unix::fs::symlink(&v, out.join(".urne-staging-1-0")).unwrap();
    std::os::unix::fs::symlink(&v, out.join(".rules.json.tmp-1")).unwrap();
    // A real leftover of a killed run: removed, and said so.
    std::fs::create_dir(out.join(".urne-staging-4000001-3")).unwrap();
    std::fs::write(out.join(".urne-staging-4000001-3/x.commit.json"), b"half").unwrap();
    // And one on the secret medium.
    let secret = env.path(&secret_of("out"));
    std::fs::create_dir_all(secret.join(".urne-staging-4000003-0")).unwrap();
    std::fs::write(
        secret.join(".urne-staging-4000003-0/x.tickets.csv"),
        b"half",
    )
    .unwrap();
    let o = env.urne(&generate_args(&rules, "1", "out"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    // The leftover removed is named; what was planted stays in place.
    assert_names(&err, &[".urne-staging-4000001-3"]);
    for planted in [
        ".urne-staging-4000000-0",
        ".urne-staging-1-0",
        ".rules.json.tmp-1",
    ] {
        assert!(out.join(planted).is_symlink(), "{planted} left in place");
    }
    assert!(!out.join(".urne-staging-4000001-3").exists());
    assert!(!secret.join(".urne-staging-4000003-0").exists());
    assert_eq!(std::fs::read(&v).unwrap(), b"precious\n");
    assert_eq!(std::fs::read(outside.join("keep")).unwrap(), b"keep\n");
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 1);
    // urne verify names a staging folder and does not treat its files as outputs.
    std::fs::create_dir(out.join(".urne-staging-4000002-0")).unwrap();
    std::fs::write(out.join(".urne-staging-4000002-0/junk.commit.json"), b"{}").unwrap();
    env.ok(&["keys", "export", "--out", "keys"]);
    let o = env.urne(&["verify", "out", "--keys", "keys"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.lines()
            .any(|l| l.starts_with("note: ") && l.contains(".urne-staging-4000002-0")),
        "{err}"
    );
}

/// Issue 26 item 3: a block's manifest is staged with its commitment and moved into place after
/// it (spec/appliance.md §5.B9), every file made durable together before the first is placed.
/// After the command: the manifest in place, signed, each file it lists in place (the
/// production file on the secret medium) with its size and SHA-256, the publication record
/// naming the manifest's SHA-256, and no staging folder left on either medium.
#[test]
fn a_generated_blocks_manifest_lists_every_file_in_place_and_no_staging_is_left() {
    let env = Env::new();
    let rules = small_rules(&env);
    env.ok(&["keys", "export", "--out", "keys"]);
    let result_pub = env.path("keys/result.pub.pem");
    env.ok(&generate_args(&rules, "1", "out"));
    let (out, secret) = (env.path("out"), env.path(&secret_of("out")));
    let m_name = format!("{GAME}_100_t1_1.manifest.json");
    let m_bytes = std::fs::read(out.join(&m_name)).unwrap();
    assert!(crate::kills_outputs::signed(
        &out.join(&m_name),
        &result_pub
    ));
    let m: serde_json::Value = serde_json::from_slice(&m_bytes).unwrap();
    let listed = m["files"].as_array().unwrap();
    assert_eq!(listed.len(), 3, "{m}");
    for f in listed {
        let name = f["name"].as_str().unwrap();
        let dir = if f["audience"] == "production" {
            &secret
        } else {
            &out
        };
        let bytes = std::fs::read(dir.join(name)).unwrap();
        assert_eq!(f["size"], bytes.len(), "{name}");
        assert_eq!(f["sha256"], crate::kills::hex_sha256(&bytes), "{name}");
        assert!(
            crate::kills_outputs::signed(&dir.join(name), &result_pub),
            "{name}"
        );
    }
    let published = last_payload(&env, "block.published");
    assert_eq!(
        published["files"][&m_name],
        crate::kills::hex_sha256(&m_bytes),
        "{published}"
    );
    assert!(!has_staging(&out) && !has_staging(&secret));
    assert_whole(&out, &result_pub);
}

/// The state and current system call of process `pid` (`/proc/PID/stat`'s third field, and
/// `/proc/PID/syscall`'s first two words: the call's number and first argument), if it exists.
fn state_and_syscall(pid: u32) -> Option<(String, String)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let state = stat
        .rsplit(')')
        .next()?
        .split_whitespace()
        .next()?
        .to_string();
    let call = std::fs::read_to_string(format!("/proc/{pid}/syscall")).unwrap_or_default();
    let call = call
        .split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    Some((state, call))
}

/// A command's reader of the token's marks dies with the command (`PR_SET_PDEATHSIG`, checked
/// from its parent's side): killed, the command leaves no process behind that would hold the
/// trail (`error[busy]` for the next command). The reader is started here by a shell, as urne
/// starts it, and left blocked reading its request on standard input (which this test keeps
/// open); the shell is then killed. Without the death signal the reader would wait for ever.
#[test]
fn a_killed_commands_reader_of_the_token_marks_dies_with_it() {
    let mut sh = std::process::Command::new("sh")
        .arg("-c")
        // (An asynchronous command of sh reads /dev/null unless given another descriptor.)
        .arg(format!(
            "exec 3<&0; {URNE} --internal-read-token-marks <&3 & echo $!; wait"
        ))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(sh.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let reader: u32 = line.trim().parse().unwrap();
    // Held open to the end (`Child::wait` would close it): the reader never reads an end.
    let input = sh.stdin.take();
    // Blocked in read(0, …): past its start, so past the prctl that comes first. The reader is
    // non-dumpable: only root reads its /proc/PID/syscall (CI runs as root).
    let start = Instant::now();
    loop {
        let (state, call) = state_and_syscall(reader).expect("the reader ended before it read");
        if state == "S" && call == "0 0x0" {
            break;
        }
        if call.is_empty() {
            eprintln!("/proc/{reader}/syscall is unreadable here (root is needed): skipped");
            let _ = sh.kill();
            let _ = sh.wait();
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the reader never blocked on its input: {state} {call}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    sh.kill().unwrap();
    sh.wait().unwrap();
    let start = Instant::now();
    while let Some((state, _)) = state_and_syscall(reader) {
        if state == "Z" {
            break; // gone, waiting for the init process to collect it
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the reader {reader} outlived the command that started it by 10 s"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    drop(input);
}
