//! Records the source revision the binary is built from, so every result can name the exact
//! software that made it (design principle 6). In order: the `URNE_SOURCE_REVISION` environment
//! variable, the `SOURCE_REVISION` file `scripts/release` writes into the source archive (which
//! has no `.git`; docs/release.md), then git in a checkout (`-modified` if tracked files differ
//! from the commit). Falls back to "unknown" when none of them says.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// A revision as given by the environment or the archive: one line of printable ASCII.
fn checked(rev: &str, from: &str) -> String {
    let rev = rev.trim();
    assert!(
        !rev.is_empty() && rev.bytes().all(|b| b.is_ascii_graphic()),
        "{from}: not a source revision: {rev:?}"
    );
    rev.to_string()
}

fn from_git() -> String {
    let rev = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".to_string());
    let dirty =
        git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    // Where git keeps them (`.git` is a file in a worktree): rerun on a commit or a checkout.
    for p in ["HEAD", "index", "refs", "packed-refs"] {
        if let Some(path) = git(&["rev-parse", "--git-path", p]).filter(|p| Path::new(p).exists()) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    if dirty {
        format!("{rev}-modified")
    } else {
        rev
    }
}

fn main() {
    println!("cargo:rerun-if-env-changed=URNE_SOURCE_REVISION");
    println!("cargo:rerun-if-changed=build.rs");
    let file = Path::new("SOURCE_REVISION");
    let rev = if let Some(v) = std::env::var_os("URNE_SOURCE_REVISION").filter(|v| !v.is_empty()) {
        checked(&v.to_string_lossy(), "URNE_SOURCE_REVISION")
    } else if file.exists() {
        // Only in a source archive (.gitignore keeps it out of a checkout).
        println!("cargo:rerun-if-changed=SOURCE_REVISION");
        let text = std::fs::read_to_string(file).expect("SOURCE_REVISION: unreadable");
        checked(&text, "SOURCE_REVISION")
    } else {
        from_git()
    };
    println!("cargo:rustc-env=URNE_SOURCE_REVISION={rev}");
}
