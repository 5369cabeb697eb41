//! Folders that cannot be swapped under urne (issue 22, item 3): an output folder reached
//! through a symbolic link is refused (exit 4) and nothing is written, read back or removed in
//! the folder the link names (standing for SoftHSM's token folder), whatever the command.
//! `scripts/race` exchanges the names while urne runs; this is the same, standing still.

use crate::common::*;

/// A folder standing for SoftHSM's token folder, and its files.
fn sentinel(env: &Env) -> std::path::PathBuf {
    let s = env.path("token-folder");
    std::fs::create_dir(&s).unwrap();
    std::fs::write(s.join("key.object"), b"the keys\n").unwrap();
    s
}

fn untouched(s: &std::path::Path) {
    let names: Vec<_> = std::fs::read_dir(s)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["key.object"], "nothing added or removed");
    assert_eq!(std::fs::read(s.join("key.object")).unwrap(), b"the keys\n");
}

#[test]
fn an_output_folder_reached_through_a_symlink_is_refused_and_the_folder_it_names_untouched() {
    let env = Env::new();
    let s = sentinel(&env);
    std::os::unix::fs::symlink(&s, env.path("out")).unwrap();
    // A leftover's name in the folder the link names, as the swapped staging folder was.
    std::fs::create_dir(env.path("pub")).unwrap();
    std::os::unix::fs::symlink(&s, env.path("pub/.urne-staging-4000000-0")).unwrap();
    for args in [
        vec!["audit", "export", "--out", "out/audit.jsonl"],
        vec!["audit", "backup", "--out", "out/backup.db"],
        vec!["audit", "export", "--out", "out/below/audit.jsonl"],
        vec!["keys", "export", "--out", "out"],
    ] {
        assert_fails(&env.urne(&args), 4, "symbolic-link");
        untouched(&s);
    }
    // Beside a link named like a leftover, the output is written; the link is left alone.
    let o = env.urne(&["audit", "export", "--out", "pub/audit.jsonl"]);
    let shown = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{shown}");
    assert!(shown.contains("left untouched"), "{shown}");
    untouched(&s);
}

#[test]
fn a_restart_builds_the_trail_through_its_folder_and_cleans_only_a_killed_runs_temporary_file() {
    let env = Env::new();
    let s = sentinel(&env);
    std::fs::rename(env.db(), env.path("lost.db")).unwrap();
    // The temporary file of a killed restart (its pid gone), and links named like one.
    std::fs::write(env.path(".audit.db.restart-4000000"), b"half a trail").unwrap();
    std::os::unix::fs::symlink(s.join("key.object"), env.path(".audit.db.restart-4000001"))
        .unwrap();
    std::os::unix::fs::symlink(&s, env.path(".audit.db.init-4000002")).unwrap();
    // The trail's folder through a link: refused before the token changes.
    std::os::unix::fs::symlink(&s, env.path("link")).unwrap();
    let db = env.path("link/audit.db");
    let o = env.urne(&[
        "--db",
        db.to_str().unwrap(),
        "trail",
        "restart",
        "--reason",
        "disque perdu pendant la séance",
    ]);
    assert_fails(&o, 4, "symbolic-link");
    untouched(&s);
    let o = env.urne(&[
        "trail",
        "restart",
        "--reason",
        "disque perdu pendant la séance",
    ]);
    let shown = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{shown}");
    assert!(shown.contains("removing"), "{shown}");
    assert!(shown.contains("left untouched"), "{shown}");
    assert!(!env.path(".audit.db.restart-4000000").exists());
    for link in [".audit.db.restart-4000001", ".audit.db.init-4000002"] {
        assert!(env.path(link).symlink_metadata().is_ok(), "{link} left");
    }
    untouched(&s);
    // Nothing else left beside the trail.
    let temporaries: Vec<_> = std::fs::read_dir(env.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".audit.db."))
        .collect();
    assert_eq!(temporaries.len(), 2, "{temporaries:?}");
    env.ok(&["audit", "verify", "--keys", "audit-keys"]);
}

// MUST: M-7, M-259
#[test]
fn verify_follows_links_in_a_path_given_and_no_link_below_it() {
    let tmp =
        crate::vectors::materialise("draw-v2-valid", &crate::vectors::vector("draw-v2-valid"));
    let p = tmp.path();
    let verify = |args: &[&str]| {
        let mut c = std::process::Command::new(URNE);
        scrub(&mut c);
        c.current_dir(p).arg("verify").args(args).output().unwrap()
    };
    // The folder verified and --keys DIR, each given through a link: opened once by the path
    // given, links followed, then held (spec/formats.md §1.6).
    std::fs::rename(p.join("draw"), p.join("real-draw")).unwrap();
    std::os::unix::fs::symlink("real-draw", p.join("draw")).unwrap();
    std::fs::rename(p.join("keys"), p.join("real-keys")).unwrap();
    std::os::unix::fs::symlink("real-keys", p.join("keys")).unwrap();
    let o = verify(&["draw", "--keys", "keys"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // A lone result.json given through a link: the file given is followed, its .sig beside
    // the link is read there, never through a link.
    std::fs::create_dir(p.join("lone")).unwrap();
    std::os::unix::fs::symlink("../draw/result.json", p.join("lone/result.json")).unwrap();
    let err = assert_fails(
        &verify(&["lone/result.json", "--keys", "keys"]),
        1,
        "verification-failed",
    );
    assert_class(&err, "bad-signature");
    assert_names(&err, &["result.json.sig"]);
    std::fs::copy(
        p.join("draw/result.json.sig"),
        p.join("lone/result.json.sig"),
    )
    .unwrap();
    let o = verify(&["lone/result.json", "--keys", "keys"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::remove_file(p.join("lone/result.json.sig")).unwrap();
    std::os::unix::fs::symlink("../draw/result.json.sig", p.join("lone/result.json.sig")).unwrap();
    let err = assert_fails(
        &verify(&["lone/result.json", "--keys", "keys"]),
        1,
        "verification-failed",
    );
    assert_class(&err, "malformed");
    // The link is named (a symbolic link is never followed).
    assert_names(&err, &["lone/result.json.sig"]);
    // A folder of outputs holding a link to an output folder: never followed, malformed.
    std::fs::create_dir(p.join("outs")).unwrap();
    std::os::unix::fs::symlink("../real-draw", p.join("outs/draw")).unwrap();
    let err = assert_fails(
        &verify(&["outs", "--keys", "keys"]),
        1,
        "verification-failed",
    );
    assert_class(&err, "malformed");
    assert_names(&err, &["outs/draw"]);
}

// MUST: M-7
#[test]
fn verify_follows_no_link_below_the_folder_it_is_given() {
    let tmp =
        crate::vectors::materialise("draw-v2-valid", &crate::vectors::vector("draw-v2-valid"));
    let p = tmp.path();
    let verify = || {
        let mut c = std::process::Command::new(URNE);
        scrub(&mut c);
        c.current_dir(p)
            .args(["verify", "draw", "--keys", "keys"])
            .output()
            .unwrap()
    };
    assert!(verify().status.success());
    // The same bytes, now behind a link: not a regular file, never read (malformed, exit 1).
    std::fs::rename(p.join("draw/result.json"), p.join("result.json")).unwrap();
    std::os::unix::fs::symlink(p.join("result.json"), p.join("draw/result.json")).unwrap();
    assert_fails(&verify(), 1, "verification-failed");
    // A key behind a link in --keys: a usage mistake (exit 2), never followed.
    std::fs::remove_file(p.join("draw/result.json")).unwrap();
    std::fs::rename(p.join("result.json"), p.join("draw/result.json")).unwrap();
    std::fs::rename(p.join("keys/result.pub.pem"), p.join("result.pub.pem")).unwrap();
    std::os::unix::fs::symlink(p.join("result.pub.pem"), p.join("keys/result.pub.pem")).unwrap();
    assert_fails(&verify(), 2, "keys-invalid");
}
