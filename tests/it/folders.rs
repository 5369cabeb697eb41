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
        let err = assert_fails(&env.urne(&args), 4);
        assert!(
            err.contains("leads through a symbolic link"),
            "{args:?}: {err}"
        );
        untouched(&s);
    }
    // Beside a link named like a leftover, the output is written; the link is left alone.
    let o = env.urne(&["audit", "export", "--out", "pub/audit.jsonl"]);
    let shown = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{shown}");
    assert!(shown.contains("left untouched"), "{shown}");
    untouched(&s);
}
