//! The simulator's command line, run as the real binary.

use std::path::PathBuf;
use std::process::Command;

fn key() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/keys/test-producer.key.pem")
}

#[test]
fn simulator_refuses_a_day_outside_the_operation_with_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_urne-simulate"))
        .args(["--day", "2018-12-25", "--key"])
        .arg(key())
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error:") && err.contains("hint:"), "{err}");
}

#[test]
fn simulator_writes_a_signed_export_and_its_oracle() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_urne-simulate"))
        .args(["--day", "2018-12-01", "--plays", "50", "--key"])
        .arg(key())
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let export = dir
        .path()
        .join("entries-chanceux-noel-2018-2018-12-01.jsonl");
    for f in [".sig", ".expected.json"] {
        let mut p = export.clone().into_os_string();
        p.push(f);
        assert!(PathBuf::from(p).exists(), "{f} written");
    }
    assert!(export.exists());
}
