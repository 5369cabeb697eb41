//! The stable replay (docs/testing.md, "Fuzzing"): every committed corpus file,
//! `fuzz/corpus/<target>/*`, through the same target function the fuzzer runs, on the stable
//! toolchain and without libFuzzer. A panic names the file; `cargo test` runs this with the
//! workspace (scripts/test).

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};
use urne_fuzz_targets::TARGETS;

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// The files of `dir`, sorted (none if it does not exist).
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.expect("an entry").path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.is_file());
    v.sort();
    v
}

/// Runs every file of `dir` through `target`; the names of those that panic.
fn replay(dir: &Path, target: fn(&[u8])) -> (usize, Vec<String>) {
    let paths = files(dir);
    let mut failed = vec![];
    for p in &paths {
        let data = std::fs::read(p).expect("a corpus file");
        if std::panic::catch_unwind(|| target(&data)).is_err() {
            failed.push(p.display().to_string());
        }
    }
    (paths.len(), failed)
}

#[test]
fn every_corpus_file_replays_without_a_failure() {
    for (name, target) in TARGETS {
        let (n, failed) = replay(&fuzz_dir().join("corpus").join(name), target);
        assert!(
            n >= 10,
            "fuzz/corpus/{name} holds {n} files: the seeds are missing"
        );
        assert!(failed.is_empty(), "target {name}: {failed:#?}");
    }
}

/// The inputs the fuzzer found failures with, in code other owners fix (docs/testing.md): run
/// with `cargo test -p urne-fuzz-targets -- --ignored` to see which still fail; once all pass,
/// move them into the corpus and drop the `ignore`.
#[test]
#[ignore = "failures found by fuzzing, fixed elsewhere (docs/testing.md, Fuzzing)"]
fn crashes_found_are_fixed() {
    let mut failed = vec![];
    for (name, target) in TARGETS {
        failed.extend(replay(&fuzz_dir().join("crashes-found").join(name), target).1);
    }
    assert!(failed.is_empty(), "still failing: {failed:#?}");
}
