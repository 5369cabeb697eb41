//! `urne-fuzz-seeds [ROOT]`: writes the seed corpora (`fuzz/corpus/<target>/seed-*`) from the
//! repository at ROOT (default: the current folder), replacing the earlier `seed-*` files and
//! leaving the fuzzer's own finds alone. Deterministic: the same repository gives the same files.
//! A seed its target fails on goes to `fuzz/crashes-found/<target>/` instead (said on stderr):
//! the corpus replayed by `cargo test` holds only inputs that pass.

#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

/// Removes the `seed-*` files of `dir`.
fn clear_seeds(dir: &Path) -> std::io::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let p = e?.path();
        if p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("seed-"))
        {
            std::fs::remove_file(p)?;
        }
    }
    Ok(())
}

fn main() -> std::io::Result<()> {
    let root = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| ".".into()));
    let targets: std::collections::BTreeMap<_, _> =
        urne_fuzz_targets::TARGETS.into_iter().collect();
    std::panic::set_hook(Box::new(|_| {}));
    for (target, seeds) in urne_fuzz_targets::seeds::all(&root) {
        let corpus = root.join("fuzz/corpus").join(target);
        let crashes = root.join("fuzz/crashes-found").join(target);
        for d in [&corpus, &crashes] {
            std::fs::create_dir_all(d)?;
            clear_seeds(d)?;
        }
        let run = targets[target];
        let mut failing = 0;
        for (name, bytes) in &seeds {
            let dir = if std::panic::catch_unwind(|| run(bytes)).is_ok() {
                &corpus
            } else {
                eprintln!(
                    "{target}: seed-{name} fails: written to {}",
                    crashes.display()
                );
                failing += 1;
                &crashes
            };
            std::fs::write(dir.join(format!("seed-{name}")), bytes)?;
        }
        if std::fs::read_dir(&crashes)?.next().is_none() {
            std::fs::remove_dir(&crashes)?;
        }
        println!("{target}: {} seeds ({failing} failing)", seeds.len());
    }
    Ok(())
}
