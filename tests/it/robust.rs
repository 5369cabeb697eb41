//! `urne verify` and the Python verifier on hostile paths and streams (spec/formats.md §1.6, §8.1): a
//! closed pipe, a full disk, a FIFO, a device and a 10 GB sparse file as output files, symbolic
//! links below a folder given and in the paths given. Each must end with one clear error, a
//! documented exit code, no panic (no traceback), no hang and bounded memory, and both verifiers
//! alike. The folders are the shared vector `draw-v2-valid`'s (tests/vectors).

use crate::common::*;
use crate::vectors::{materialise, vector};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `urne verify draw --keys keys` in the vector's folder; the Python verifier when `python`.
fn verify(dir: &std::path::Path, python: bool) -> Command {
    verify_args(dir, python, &["draw", "--keys", "keys"])
}

/// `urne verify ARGS` in `dir`; the Python verifier when `python`.
fn verify_args(dir: &std::path::Path, python: bool, args: &[&str]) -> Command {
    let mut c = if python {
        let mut c = Command::new("python3");
        c.arg(root().join("verifier/urne_verify.py"));
        c
    } else {
        let mut c = Command::new(URNE);
        c.arg("verify");
        scrub(&mut c);
        c
    };
    c.current_dir(dir).args(args);
    c
}

/// Runs `c` to its end within 60 s (killed and failed otherwise): (exit code, stderr).
fn bounded(mut c: Command) -> (Option<i32>, String) {
    use std::io::Read;
    let mut child = c
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            return (status.code(), err);
        }
        if start.elapsed() > Duration::from_mins(1) {
            let _ = child.kill();
            panic!("the verifier hangs: {c:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn no_crash(err: &str) {
    assert!(
        !err.contains("panicked") && !err.contains("internal error") && !err.contains("Traceback"),
        "{err}"
    );
}

// MUST: M-155
#[test]
fn a_closed_or_full_standard_output_is_a_clear_error_not_a_panic() {
    let tmp = materialise("draw-v2-valid", &vector("draw-v2-valid"));
    for python in [false, true] {
        // A pipe whose reader is gone before the verifier writes (`urne verify out | true`).
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let mut c = verify(tmp.path(), python);
        c.stdout(writer);
        let (code, err) = bounded(c);
        no_crash(&err);
        assert_eq!(code, Some(2), "python={python} closed pipe: {err}");
        // A full disk (`>/dev/full`).
        let mut c = verify(tmp.path(), python);
        c.stdout(std::fs::File::create("/dev/full").unwrap());
        let (code, err) = bounded(c);
        no_crash(&err);
        if python {
            assert_eq!(code, Some(2), "python={python} /dev/full: {err}");
            // The Python verifier's `error:` line carries no id.
            assert!(err.contains("standard output"), "{err}");
        } else {
            assert_failed(code, &err, 2, "stdout-closed");
        }
        // The same verification to a working standard output holds (the control).
        let mut c = verify(tmp.path(), python);
        c.stdout(Stdio::null());
        assert_eq!(bounded(c).0, Some(0), "python={python} control");
    }
}

// MUST: M-7, M-8
#[test]
fn a_fifo_a_device_a_folder_or_a_huge_file_as_an_output_file_is_malformed_at_once() {
    type Plant = fn(&std::path::Path);
    let v = vector("draw-v2-valid");
    let cases: [(&str, &str, Plant); 5] = [
        ("bundle.json", "a FIFO", |p| {
            assert!(Command::new("mkfifo").arg(p).status().unwrap().success());
        }),
        ("pv.html", "a FIFO", |p| {
            assert!(Command::new("mkfifo").arg(p).status().unwrap().success());
        }),
        ("pv.html", "a device", |p| {
            std::os::unix::fs::symlink("/dev/zero", p).unwrap();
        }),
        ("leaves.bin", "a folder", |p| {
            std::fs::create_dir(p).unwrap();
        }),
        // 10 GB, sparse: nothing is written, and nothing may be read.
        ("pv.html", "10 GB", |p| {
            std::fs::File::create(p).unwrap().set_len(10 << 30).unwrap();
        }),
    ];
    for (file, what, plant) in cases {
        for python in [false, true] {
            let tmp = materialise("draw-v2-valid", &v);
            let p = tmp.path().join("draw").join(file);
            std::fs::remove_file(&p).unwrap();
            plant(&p);
            // Memory bounded: a verifier that read the file would need gigabytes.
            let mut c = Command::new("sh");
            let inner = verify(tmp.path(), python);
            let prog = inner.get_program().to_string_lossy().into_owned();
            let args: Vec<String> = inner
                .get_args()
                .map(|a| format!("'{}'", a.to_string_lossy()))
                .collect();
            c.current_dir(tmp.path())
                .args([
                    "-c",
                    &format!("ulimit -v 4000000; exec '{prog}' {}", args.join(" ")),
                ])
                .stdout(Stdio::null());
            if !python {
                scrub(&mut c);
            }
            let (code, err) = bounded(c);
            no_crash(&err);
            assert_eq!(code, Some(1), "python={python} {file} as {what}: {err}");
            if !python {
                assert_class(
                    &assert_failed(code, &err, 1, "verification-failed"),
                    "malformed",
                );
                continue;
            }
            // The Python verifier's line of spec/formats.md §8.1 carries no id.
            assert!(
                err.contains("verification failed (malformed)"),
                "python={python} {file} as {what}: {err}"
            );
        }
    }
}

/// Issue 23 item 3: a report that cannot be written is no success. Every command that reports on
/// standard output, given a full disk (`>/dev/full`) or a closed pipe, ends with one `error:`
/// line naming standard output and exit 2, never exit 0 having written nothing.
#[test]
fn every_command_whose_report_cannot_be_written_fails_with_exit_2() {
    let env = Env::new();
    env.ok(&["keys", "export", "--out", "keys"]);
    env.ok(&["audit", "export", "--out", "audit.jsonl"]);
    let commands: [&[&str]; 6] = [
        &["audit", "show"],
        &["audit", "show", "--last", "1"],
        &["audit", "verify", "--keys", "audit-keys"],
        &["status"],
        &["hsm", "info"],
        &["verify", "audit.jsonl", "--keys", "keys"],
    ];
    for args in commands {
        let full = env
            .cmd()
            .args(args)
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&full.stderr);
        no_crash(&err);
        assert_fails(&full, 2, "stdout-closed");
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let closed = env
            .cmd()
            .args(args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&closed.stderr);
        no_crash(&err);
        assert_fails(&closed, 2, "stdout-closed");
    }
}

/// What [`both`] expects of a failure: urne's id and the values its `error[<id>]:` line names,
/// and what the Python verifier's standard error says.
#[derive(Default, Clone, Copy)]
struct Failure<'a> {
    id: &'a str,
    names: &'a [&'a str],
    says: &'a [&'a str],
}

/// The vector's folder with `plant` applied (in the folder, given its path), then each verifier
/// with `args`: both end with exit `code`; urne's `error[<id>]:` line is of `id` and names each
/// of `names`, the Python verifier's standard error (no id) holds every one of `says`.
fn both(plant: fn(&std::path::Path), args: &[&str], code: i32, failure: Failure) {
    let Failure { id, names, says } = failure;
    let v = vector("draw-v2-valid");
    for python in [false, true] {
        let tmp = materialise("draw-v2-valid", &v);
        plant(tmp.path());
        let mut c = verify_args(tmp.path(), python, args);
        c.stdout(Stdio::null());
        let (got, err) = bounded(c);
        no_crash(&err);
        assert_eq!(got, Some(code), "python={python} {args:?}: {err}");
        if !python {
            if code != 0 {
                assert_names(&assert_failed(got, &err, code, id), names);
            }
            continue;
        }
        for s in says {
            assert!(
                err.contains(s),
                "python={python} {args:?}: no {s:?} in {err}"
            );
        }
    }
}

/// `at` (relative to `p`) moved to `to`, and a symbolic link to it left at `at`.
fn linked(p: &std::path::Path, at: &str, to: &str) {
    std::fs::rename(p.join(at), p.join(to)).unwrap();
    std::os::unix::fs::symlink(p.join(to), p.join(at)).unwrap();
}

// MUST: M-7
#[test]
fn a_link_below_a_folder_given_is_not_a_regular_file_for_either_verifier() {
    // An output's file behind a link to the same bytes: malformed, never read.
    for (plant, link, name) in [
        (
            (|p| linked(p, "draw/bundle.json", "bundle-copy.json")) as fn(&std::path::Path),
            "draw/bundle.json",
            "bundle.json is a symbolic link, not a regular file",
        ),
        (
            |p| linked(p, "draw/bundle.json.sig", "bundle-copy.json.sig"),
            "draw/bundle.json.sig",
            "bundle.json.sig is a symbolic link, not a regular file",
        ),
        // A dangling link is no missing file: it is there, and not a regular file.
        (
            |p| {
                std::fs::remove_file(p.join("draw/bundle.json")).unwrap();
                std::os::unix::fs::symlink("nowhere", p.join("draw/bundle.json")).unwrap();
            },
            "draw/bundle.json",
            "bundle.json is a symbolic link, not a regular file",
        ),
    ] {
        both(
            plant,
            &["draw", "--keys", "keys"],
            1,
            Failure {
                id: "verification-failed",
                names: &["(malformed)", link],
                says: &["verification failed (malformed)", name],
            },
        );
    }
    // A key of --keys DIR behind a link: the verifier's own trust, a usage mistake (exit 2).
    both(
        |p| linked(p, "keys/result.pub.pem", "result-copy.pub.pem"),
        &["draw", "--keys", "keys"],
        2,
        Failure {
            id: "keys-invalid",
            names: &["keys/result.pub.pem"],
            says: &["result.pub.pem is a symbolic link, not a regular file"],
        },
    );
}

// MUST: M-259
#[test]
fn a_link_in_a_folder_of_outputs_is_malformed_for_both_verifiers_never_followed() {
    // Beside the real draw, a link to a copy of it: where an output folder is expected, a link
    // could hide one (a fork's second draw); neither verifier follows it.
    both(
        |p| {
            std::fs::create_dir(p.join("outs")).unwrap();
            copy_dir(&p.join("draw"), &p.join("copy"));
            std::fs::rename(p.join("draw"), p.join("outs/draw")).unwrap();
            std::os::unix::fs::symlink("../copy", p.join("outs/again")).unwrap();
        },
        &["outs", "--keys", "keys"],
        1,
        Failure {
            id: "verification-failed",
            names: &["(malformed)", "outs/again"],
            says: &[
                "verification failed (malformed)",
                "outs/again is a symbolic link",
            ],
        },
    );
}

// MUST: M-7
#[test]
fn a_path_given_through_a_link_is_followed_by_both_verifiers() {
    // The folder verified, --keys DIR and a --checkpoint note, each reached through a link.
    both(
        |p| {
            std::fs::rename(p.join("draw"), p.join("real-draw")).unwrap();
            std::os::unix::fs::symlink("real-draw", p.join("draw")).unwrap();
            std::fs::rename(p.join("keys"), p.join("real-keys")).unwrap();
            std::os::unix::fs::symlink(p.join("real-keys"), p.join("keys")).unwrap();
            std::fs::copy(p.join("draw/checkpoint.note"), p.join("held.note")).unwrap();
            std::os::unix::fs::symlink("held.note", p.join("note")).unwrap();
        },
        &["draw", "--keys", "keys", "--checkpoint", "note"],
        0,
        Failure::default(),
    );
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// Issue 23 item 3 (spec/formats.md §1.6 [M-8]): a `--checkpoint` that is a FIFO is the user's own input
/// that is not a regular file: a usage mistake, exit 2, in both verifiers, never opened (no hang).
#[test]
fn a_fifo_given_as_checkpoint_is_a_usage_mistake_for_both_verifiers() {
    both(
        |p| {
            assert!(
                Command::new("mkfifo")
                    .arg(p.join("held.note"))
                    .status()
                    .unwrap()
                    .success()
            );
        },
        &["draw", "--keys", "keys", "--checkpoint", "held.note"],
        2,
        Failure {
            id: "not-regular-file",
            names: &["held.note"],
            says: &["held.note", "not a regular file"],
        },
    );
}
