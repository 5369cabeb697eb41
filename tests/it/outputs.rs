//! Outputs appear whole or not at all (issue 10 item 9, SPEC.md §4.7, §5.B9): nothing planted in
//! an output folder is followed or overwritten, and a kill -9 at any moment of `urne block
//! generate` or `urne draw` leaves no final-named file without its valid signature, no
//! commitment without its production file, and a state the next run resumes from.
//! `URNE_KILL_RUNS` sets the number of kills per command (15 by default; `scripts/crash` runs
//! more and prints the figures).

use crate::block_cli::small_rules;
use crate::common::*;
use crate::draws::{seal, simulate};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub(crate) const GAME: &str = "test-small-game";

pub(crate) fn generate_args<'a>(rules: &'a Path, first: &'a str, out: &'a str) -> Vec<&'a str> {
    vec![
        "block",
        "generate",
        "--rules",
        rules.to_str().unwrap(),
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
    ]
}

pub(crate) fn count(env: &Env, kind: &str) -> usize {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.query_row("SELECT COUNT(*) FROM events WHERE kind = ?1", [kind], |r| {
        r.get::<_, i64>(0)
    })
    .unwrap() as usize
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
/// which verifies under the result key; every commitment has its production file. Returns the
/// number of final-named signed files.
pub(crate) fn assert_whole(dir: &Path, result_pub: &Path) -> usize {
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
        assert!(sig.exists(), "{name} without its signature in {dir:?}");
        assert!(
            openssl_verify(result_pub, &dir.join(&name), &sig),
            "{name}'s signature does not verify"
        );
        if let Some(stem) = name.strip_suffix(".commit.json") {
            let csv = dir.join(format!("{stem}.tickets.csv"));
            assert!(
                csv.exists(),
                "commitment {name} without its production file"
            );
        }
        n += 1;
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

pub(crate) fn kill_runs() -> usize {
    kill_runs_or(15)
}

/// `URNE_KILL_RUNS`, or `default` kills when it is not set.
pub(crate) fn kill_runs_or(default: usize) -> usize {
    std::env::var("URNE_KILL_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

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

/// SoftHSM 2.6 rewrites its token files in place (not atomically) when a session logs in, so a
/// kill can catch it mid-write and leave a token it no longer lists ("tokens present: none"):
/// that is SoftHSM's storage, outside what these tests are about (urne's outputs and trail). The
/// commands killed here create no token object, so the token folder is put back as it was
/// whenever a kill changed it; how often is printed.
fn restore_token_if_changed(env: &Env, before: &[(PathBuf, Vec<u8>)]) -> bool {
    let tokens = env.path("tokens");
    if token_files(&tokens) == before {
        return false;
    }
    std::fs::remove_dir_all(&tokens).unwrap();
    for (p, bytes) in before {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    true
}

/// How many kills changed SoftHSM's token folder (see [`restore_token_if_changed`]).
pub(crate) static TOKEN_RESTORES: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

/// Spawns urne with `args`, kills it (SIGKILL) after `delay`; true when it had finished already.
pub(crate) fn run_and_kill(env: &Env, args: &[&str], delay: Duration) -> bool {
    let token = token_files(&env.path("tokens"));
    let finished = spawn_and_kill(env, args, delay);
    if restore_token_if_changed(env, &token) {
        TOKEN_RESTORES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    finished
}

fn spawn_and_kill(env: &Env, args: &[&str], delay: Duration) -> bool {
    let mut child = env
        .cmd()
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(delay);
    let finished = child.try_wait().unwrap().is_some();
    let _ = child.kill();
    let _ = child.wait();
    finished
}

fn has_staging(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|rd| {
        rd.filter_map(|e| e.ok()).any(|e| {
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
    let span = t.elapsed().as_millis() as u64 * 12 / 10;
    let mut d = Delays::new();
    let (mut staged, mut partial, mut done) = (0, 0, 0);
    let runs = kill_runs();
    for i in 0..runs {
        let first = (1 + i).to_string();
        let args = generate_args(&rules, &first, "out");
        let entropy_before = count(&env, "block.entropy");
        if run_and_kill(&env, &args, d.below(span)) {
            done += 1;
        }
        staged += usize::from(has_staging(&env.path("out")));
        assert_whole(&env.path("out"), &result_pub);
        let mine = format!("{GAME}_100_t1_{first}.");
        let before = std::fs::read_dir(env.path("out")).map_or(0, |rd| {
            rd.filter_map(|e| e.ok())
                .filter(|e| e.file_name().to_string_lossy().starts_with(&mine))
                .count()
        });
        let published = count(&env, "block.published");
        let o = env.urne(&args);
        if published == i + 2 {
            assert_fails(&o, 4); // the block was out before the kill: generated once
        } else {
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            partial += usize::from(before > 0);
        }
        assert_eq!(count(&env, "block.published"), i + 2);
        assert_eq!(
            count(&env, "block.entropy"),
            entropy_before + 1,
            "one entropy"
        );
        assert!(
            !has_staging(&env.path("out")),
            "the re-run removed the leftover"
        );
        assert_whole(&env.path("out"), &result_pub);
    }
    assert_eq!(count(&env, "block.entropy"), runs + 1);
    env.ok(&["verify", "out", "--keys", "keys"]);
    eprintln!(
        "block generate: {runs} kills; {staged} left a staging folder, {partial} left part of an \
         output (every file signed), {done} had finished; every re-run resumed with the recorded \
         entropy and the folder verifies; SoftHSM's token folder put back after {} kills so far",
        TOKEN_RESTORES.load(std::sync::atomic::Ordering::Relaxed)
    );
}

#[test]
fn a_kill_at_any_moment_of_a_draw_leaves_only_whole_outputs_and_resumes() {
    let env = Env::new();
    let export = simulate(&env, "2018-12-03", 400, 21, &[]);
    seal(&env, &export);
    env.ok(&["keys", "export", "--out", "keys"]);
    let result_pub = env.path("keys/result.pub.pem");
    let draw = |out: &str| -> Vec<String> {
        [
            "draw",
            "--day",
            "2018-12-03",
            "--witness",
            "w",
            "--out",
            out,
        ]
        .map(String::from)
        .to_vec()
    };
    let t = Instant::now();
    let a = draw("timing");
    env.ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let span = t.elapsed().as_millis() as u64 * 12 / 10;
    let mut d = Delays::new();
    let (mut staged, mut partial, mut done) = (0, 0, 0);
    let runs = kill_runs();
    for i in 0..runs {
        // A new attempt of the day each time: void the last one, seal again.
        env.ok(&["void", "--day", "2018-12-03", "--reason", "kill test run"]);
        seal(&env, &export);
        let out = format!("out{i}");
        let a = draw(&out);
        let args: Vec<&str> = a.iter().map(String::as_str).collect();
        let entropy_before = count(&env, "draw.entropy");
        if run_and_kill(&env, &args, d.below(span)) {
            done += 1;
        }
        let dir = env.path(&out);
        staged += usize::from(has_staging(&dir));
        let n = assert_whole(&dir, &result_pub);
        if count(&env, "draw.published") == i + 2 {
            continue; // the draw was out before the kill
        }
        if n > 0 {
            // Part of the folder is in place (each file signed): moved aside, drawn again.
            partial += 1;
            std::fs::rename(&dir, env.path(&format!("aside{i}"))).unwrap();
        }
        let recorded = count(&env, "draw.entropy") > entropy_before;
        let o = env.urne(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(count(&env, "draw.entropy"), entropy_before + 1);
        let r: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join("result.json")).unwrap()).unwrap();
        assert_eq!(r["entropy"], last_payload(&env, "draw.entropy")["entropy"]);
        assert!(!recorded || r["attempt"] == i as u64 + 2);
        assert!(!has_staging(&dir));
        assert_whole(&dir, &result_pub);
        env.ok(&["verify", &out, "--keys", "keys"]);
    }
    eprintln!(
        "draw: {runs} kills; {staged} left a staging folder, {partial} left part of a folder \
         (every file signed), {done} had finished; every re-run drew with the recorded entropy; \
         SoftHSM's token folder put back after {} kills so far",
        TOKEN_RESTORES.load(std::sync::atomic::Ordering::Relaxed)
    );
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
    std::fs::create_dir(env.path("out")).unwrap();
    let dangling = env.path("never-created");
    for (name, target) in [
        (format!("{stem}.tickets.csv"), &v),
        (format!("{stem}.commit.json.sig"), &dangling),
    ] {
        let out = env.path("out");
        let _ = std::fs::remove_file(out.join(format!("{stem}.tickets.csv")));
        let _ = std::fs::remove_file(out.join(format!("{stem}.commit.json.sig")));
        std::os::unix::fs::symlink(target, out.join(&name)).unwrap();
        let o = env.urne(&generate_args(&rules, "1", "out"));
        let err = assert_fails(&o, 4);
        assert!(err.contains("already exists"), "{err}");
        assert_eq!(std::fs::read(&v).unwrap(), b"precious\n");
        assert!(
            !dangling.exists(),
            "nothing written through a dangling symlink"
        );
        assert!(!out.join(format!("{stem}.commit.json")).exists());
    }
    // A draw folder holding a planted symlink is refused before anything is drawn.
    let export = simulate(&env, "2018-12-05", 300, 5, &[]);
    seal(&env, &export);
    std::fs::create_dir(env.path("d")).unwrap();
    std::os::unix::fs::symlink(&v, env.path("d/result.json")).unwrap();
    let o = env.urne(&[
        "draw",
        "--day",
        "2018-12-05",
        "--witness",
        "w",
        "--out",
        "d",
    ]);
    assert_fails(&o, 4);
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
    std::fs::write(out.join(".urne-staging-4000001-3/x.tickets.csv"), b"half").unwrap();
    let o = env.urne(&generate_args(&rules, "1", "out"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("left untouched"), "{err}");
    assert!(
        err.contains("removed") && err.contains(".urne-staging-4000001-3"),
        "{err}"
    );
    assert!(!out.join(".urne-staging-4000001-3").exists());
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
