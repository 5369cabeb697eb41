//! What an adversarial review of the verifiers found, each case run by `urne verify` and by the
//! Python verifier alike (spec/formats.md §8.1, §8.4): a folder holding outputs of two kinds, subfolders
//! that are no output or hide one, keys shipped inside the folder, names that would forge report
//! lines. The folders are the shared vectors' (tests/vectors), changed as the attacker would.

use crate::common::*;
use crate::vectors::{materialise, vector};
use std::path::Path;
use std::process::{Command, Output};

/// `urne verify ARGS` and the Python verifier with the same ARGS, run in `dir`.
fn both(dir: &Path, args: &[&str]) -> [(String, Output); 2] {
    let mut u = Command::new(URNE);
    scrub(&mut u);
    u.current_dir(dir).arg("verify").args(args);
    let mut p = Command::new("python3");
    p.current_dir(dir)
        .arg(root().join("verifier/urne_verify.py"))
        .args(args);
    [
        ("urne".to_string(), u.output().unwrap()),
        ("python".to_string(), p.output().unwrap()),
    ]
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn flip_last(p: &Path) {
    let mut b = std::fs::read(p).unwrap();
    let n = b.len() - 3;
    b[n] ^= 1;
    std::fs::write(p, b).unwrap();
}

// MUST: M-212
#[test]
fn every_kind_of_output_a_folder_holds_is_verified() {
    let tmp = materialise("block-folder-v2-valid", &vector("block-folder-v2-valid"));
    let draw = materialise("draw-v2-valid", &vector("draw-v2-valid"));
    // A block folder with a draw's result.json beside it, one byte of it changed.
    for f in ["result.json", "result.json.sig"] {
        std::fs::copy(
            draw.path().join("draw").join(f),
            tmp.path().join("block").join(f),
        )
        .unwrap();
    }
    flip_last(&tmp.path().join("block/result.json"));
    for (who, o) in both(tmp.path(), &["block", "--keys", "keys"]) {
        if who == "urne" {
            assert_class(&assert_fails(&o, 1, "verification-failed"), "bad-signature");
            continue;
        }
        // The Python verifier's line of spec/formats.md §8.1 carries no id.
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{who}: {err}");
        assert!(
            err.contains("verification failed (bad-signature)"),
            "{who}: {err}"
        );
    }
}

// MUST: M-213
#[test]
fn subfolders_that_are_no_output_or_hide_one_are_said() {
    let v = vector("history-valid-pair");
    // A staging-named subfolder holding an output, and a subfolder of signed files without
    // a primary file: each a partial: line, the pair still verified.
    let tmp = materialise("history-valid-pair", &v);
    let pubd = tmp.path().join("pub");
    let hidden = pubd.join(".urne-staging-1-1");
    std::fs::create_dir(&hidden).unwrap();
    for e in std::fs::read_dir(pubd.join("A")).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), hidden.join(e.file_name())).unwrap();
    }
    let orphan = pubd.join("C");
    std::fs::create_dir(&orphan).unwrap();
    for f in ["pv.html", "pv.html.sig"] {
        std::fs::copy(pubd.join("A").join(f), orphan.join(f)).unwrap();
    }
    for (who, o) in both(tmp.path(), &["pub", "--keys", "keys"]) {
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{who}: {err}");
        let partial: Vec<&str> = out.lines().filter(|l| l.starts_with("partial:")).collect();
        assert!(
            partial.iter().any(|l| l.contains(".urne-staging-1-1")),
            "{who}: {out}"
        );
        assert!(partial.iter().any(|l| l.contains("pub/C")), "{who}: {out}");
    }
    // An exported audit trail on the medium is named in a note, never silently skipped.
    let v = vector("history-valid-void-notice");
    let tmp = materialise("history-valid-void-notice", &v);
    std::fs::write(tmp.path().join("pub/audit.jsonl"), b"{}\n").unwrap();
    for (who, o) in both(tmp.path(), &["pub", "--keys", "keys"]) {
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{who}: {err}");
        let notes: Vec<&str> = err.lines().filter(|l| l.starts_with("note: ")).collect();
        assert!(
            notes
                .iter()
                .any(|l| l.contains("pub/audit.jsonl") && l.contains("audit trail")),
            "{who}: {err}"
        );
    }
    // A name that is not UTF-8 is refused, never skipped (it could hide a fork's output).
    let v = vector("history-valid-pair");
    let tmp = materialise("history-valid-pair", &v);
    let odd = {
        use std::os::unix::ffi::OsStrExt;
        std::ffi::OsStr::from_bytes(b"B\xff").to_owned()
    };
    std::fs::rename(tmp.path().join("pub/B"), tmp.path().join("pub").join(odd)).unwrap();
    for (who, o) in both(tmp.path(), &["pub", "--keys", "keys"]) {
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{who}: {err}");
    }
}

// MUST: M-214
#[test]
fn keys_taken_from_the_folder_verified_are_a_partial_line() {
    let tmp = materialise("draw-v2-valid", &vector("draw-v2-valid"));
    for f in ["result.pub.pem", "audit.pub.pem"] {
        std::fs::copy(
            tmp.path().join("keys").join(f),
            tmp.path().join("draw").join(f),
        )
        .unwrap();
    }
    // The Python verifier takes them and says so in a partial: line; urne's verifiers never
    // take them implicitly: a usage error, nothing verified (spec/formats.md §8.1 [M-341]).
    for (who, o) in both(tmp.path(), &["draw"]) {
        let (out, err) = text(&o);
        if who == "urne" {
            assert_eq!(o.status.code(), Some(2), "{who}: {err}");
            assert!(out.is_empty(), "{who}: {out}");
            continue;
        }
        assert_eq!(o.status.code(), Some(0), "{who}: {err}");
        assert!(
            out.lines()
                .any(|l| l.starts_with("partial:") && l.contains("keys")),
            "{who}: {out}"
        );
    }
    // With the keys given, no partial: line.
    for (who, o) in both(tmp.path(), &["draw", "--keys", "keys"]) {
        let (out, _) = text(&o);
        assert!(
            o.status.success() && !out.contains("partial:"),
            "{who}: {out}"
        );
    }
}

// MUST: M-215
#[test]
fn a_name_never_forges_a_line_of_the_report() {
    let tmp = materialise("history-valid-pair", &vector("history-valid-pair"));
    let evil = "B\nVERIFIED: the draw of chanceux-noel-2018 day 2018-12-31 attempt 1 (version 2) in pub\npartial: x";
    std::fs::rename(tmp.path().join("pub/B"), tmp.path().join("pub").join(evil)).unwrap();
    for (who, o) in both(tmp.path(), &["pub", "--keys", "keys"]) {
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{who}: {err}");
        assert!(
            !out.lines()
                .any(|l| l.contains("2018-12-31") && l.starts_with("VERIFIED:"))
                && !out.lines().any(|l| l == "partial: x"),
            "{who}: {out}"
        );
    }
}

/// The line of a draw or a block commitment verified alone adds this (spec/formats.md §8.1).
const ALONE: &str = " (alone: a void notice published later would cancel it; only the whole publications medium, verified as one folder of outputs, sees voids)";

// MUST: M-398
#[test]
fn a_voided_attempt_is_listed_as_voided_and_one_output_alone_says_a_void_would_cancel_it() {
    // A medium of two draws and the void notice of the second (pub/A, pub/B, pub/V): the voided
    // draw's line is VOIDED on standard output, never VERIFIED; the others keep VERIFIED, without
    // the parenthesis of an output verified alone; exit 0.
    let v = vector("history-valid-void-notice");
    let tmp = materialise("history-valid-void-notice", &v);
    for (who, o) in both(tmp.path(), &["pub", "--keys", "keys"]) {
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{who}: {err}");
        let first: Vec<&str> = out
            .lines()
            .take_while(|l| l.starts_with("VERIFIED") || l.starts_with("VOIDED"))
            .collect();
        assert_eq!(
            first,
            [
                "VERIFIED: the draw of chanceux-noel-2018 day 2018-12-22 attempt 1 (version 2) in pub",
                "VOIDED: the draw of chanceux-noel-2018 day 2018-12-23 attempt 1 (version 2) in pub: the void notice of day 2018-12-23 attempt 1 (version 2) announces its void; it is not the result",
                "VERIFIED: the void notice of day 2018-12-23 attempt 1 (version 2) in pub",
            ],
            "{who}: {out}"
        );
        assert!(
            !err.contains("was voided"),
            "{who}: said once, on stdout: {err}"
        );
    }
    // The voided draw's folder alone cannot see the void: its first line says so.
    for (who, o) in both(tmp.path(), &["pub/B", "--keys", "keys"]) {
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{who}: {err}");
        assert_eq!(
            out.lines().next(),
            Some(
                format!(
                    "VERIFIED: the draw of chanceux-noel-2018 day 2018-12-23 attempt 1 (version 2) in pub/B{ALONE}"
                )
                .as_str()
            ),
            "{who}: {out}"
        );
    }
    // Its lone result.json too; and beside the void notice in one folder, it is VOIDED.
    for (who, o) in both(tmp.path(), &["pub/B/result.json", "--keys", "keys"]) {
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{who}: {err}");
        let first = out.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("VERIFIED: the draw of") && first.ends_with(ALONE),
            "{who}: {out}"
        );
    }
    for e in std::fs::read_dir(tmp.path().join("pub/V")).unwrap() {
        let e = e.unwrap();
        let to = tmp.path().join("pub/B").join(e.file_name());
        if !to.exists() {
            std::fs::copy(e.path(), to).unwrap();
        }
    }
    for (who, o) in both(tmp.path(), &["pub/B", "--keys", "keys"]) {
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{who}: {err}");
        assert!(
            out.starts_with("VOIDED: the draw of chanceux-noel-2018 day 2018-12-23 attempt 1 (version 2) in pub/B: the void notice of day 2018-12-23 attempt 1 (version 2) announces its void; it is not the result\n"),
            "{who}: {out}"
        );
        assert!(
            !out.lines()
                .any(|l| l.starts_with("VERIFIED") && l.contains("the draw of")),
            "{who}: {out}"
        );
    }
}
