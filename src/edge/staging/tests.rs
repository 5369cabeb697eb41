use super::*;
use std::fs;

#[test]
fn the_fallback_without_hard_links_never_replaces_a_name() {
    let d = tempfile::tempdir().unwrap();
    let dir = Dir::open(d.path()).unwrap();
    let fin = d.path().join("result.json");
    fs::write(d.path().join("result.json.new"), b"new").unwrap();
    fs::create_dir(d.path().join("st")).unwrap();
    fs::rename(
        d.path().join("result.json.new"),
        d.path().join("st/result.json.staged"),
    )
    .unwrap();
    let st = dir.sub("st").unwrap();
    // Something already has the name: a file, or a (dangling) symlink: refused, untouched.
    fs::write(&fin, b"old").unwrap();
    assert_eq!(
        rename_if_absent(&st, &dir, "result.json").unwrap_err().kind,
        crate::error::Kind::OutputExists
    );
    assert_eq!(fs::read(&fin).unwrap(), b"old");
    fs::remove_file(&fin).unwrap();
    std::os::unix::fs::symlink(d.path().join("elsewhere"), &fin).unwrap();
    assert!(rename_if_absent(&st, &dir, "result.json").is_err());
    assert!(!d.path().join("elsewhere").exists());
    fs::remove_file(&fin).unwrap();
    // The name is free: the staged file moves there.
    assert_eq!(
        rename_if_absent(&st, &dir, "result.json").unwrap(),
        Placed::Moved
    );
    assert_eq!(fs::read(&fin).unwrap(), b"new");
    assert!(!d.path().join("st/result.json.staged").exists());
}

/// Issue 23 item 3: what a kill leaves in a staging folder is never under an output's name
/// (no `result.json` beside its `.sig` for a reader or a verifier to take); the final names
/// appear in the output folder only, when the files are placed.
#[test]
fn a_staging_folder_holds_no_file_under_an_outputs_name() {
    let d = tempfile::tempdir().unwrap();
    let dir = Dir::open(d.path()).unwrap();
    let mut st = Staging::new(&dir).unwrap();
    st.write("result.json.sig", b"sig").unwrap();
    st.write("result.json", b"{}").unwrap();
    let folder = d.path().join(&st.name);
    let mut inside: Vec<String> = fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    inside.sort();
    assert_eq!(inside, ["result.json.sig.staged", "result.json.staged"]);
    st.publish(&["result.json.sig", "result.json"]).unwrap();
    assert_eq!(fs::read(d.path().join("result.json")).unwrap(), b"{}");
    assert_eq!(fs::read(d.path().join("result.json.sig")).unwrap(), b"sig");
    assert!(!folder.exists());
}

#[test]
fn leftovers_swapped_for_a_link_are_never_followed() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    fs::create_dir_all(p.join("out/.urne-staging-4000000-0")).unwrap();
    fs::write(p.join("out/.urne-staging-4000000-0/f"), b"staged").unwrap();
    fs::create_dir(p.join("sentinel")).unwrap();
    fs::write(p.join("sentinel/key"), b"secret").unwrap();
    std::os::unix::fs::symlink(p.join("sentinel"), p.join("out/.urne-staging-4000001-0")).unwrap();
    let out = Dir::open(&p.join("out")).unwrap();
    assert_eq!(
        staging_leftovers(&out),
        [".urne-staging-4000000-0", ".urne-staging-4000001-0"]
    );
    clear_leftovers(&out);
    // The real leftover is gone; the link is left, and what it names untouched.
    assert_eq!(staging_leftovers(&out), [".urne-staging-4000001-0"]);
    assert_eq!(fs::read(p.join("sentinel/key")).unwrap(), b"secret");
    // A staging folder is made, written, published and removed relative to `out`.
    let mut st = Staging::new(&out).unwrap();
    st.write("a", b"A").unwrap();
    st.write("a.sig", b"S").unwrap();
    st.publish(&["a.sig", "a"]).unwrap();
    assert_eq!(fs::read(p.join("out/a")).unwrap(), b"A");
    assert!(exists_other_than(&out, "a", b"B"));
    assert!(!exists_other_than(&out, "a", b"A"));
    assert!(exists_other_than(&out, ".urne-staging-4000001-0", b""));
    assert!(!exists_other_than(&out, "absent", b""));
    assert_eq!(fs::read_dir(p.join("sentinel")).unwrap().count(), 1);
}

#[test]
fn a_file_system_that_cannot_move_without_overwriting_is_said_so() {
    let fin = Path::new("/media/usb/result.json");
    let e = exists_or_io(fin, std::io::Error::from_raw_os_error(libc::EINVAL));
    assert_eq!(e.kind, crate::error::Kind::NoSafeRename);
    assert!(e.hint.contains("ext4"), "{}", e.hint);
    // An existing name and other errors keep their own wording.
    let e = exists_or_io(fin, std::io::Error::from_raw_os_error(libc::EEXIST));
    assert_eq!(e.kind, crate::error::Kind::OutputExists);
    let e = exists_or_io(fin, std::io::Error::from_raw_os_error(libc::EIO));
    let publish = crate::msg::catalogue::edge::ERR_FILE_PUBLISH.fixed(crate::msg::lang());
    assert!(e.message.starts_with(publish[0]), "{}", e.message);
}

#[test]
fn a_staging_folder_is_accepted_only_as_urne_made_it() {
    let d = libc::S_IFDIR;
    assert!(made_by(1000, d | 0o700, 1000));
    assert!(made_by(1000, d | 0o500, 1000), "a umask only removes bits");
    assert!(made_by(1000, d | 0o755, 1000), "FAT mounted with dmask=022");
    // Someone else's folder, or one group or others may write in, or not a folder.
    assert!(!made_by(1001, d | 0o700, 1000));
    assert!(!made_by(1000, d | 0o770, 1000));
    assert!(!made_by(1000, d | 0o703, 1000));
    assert!(!made_by(1000, d | 0o1777, 1000));
    assert!(!made_by(1000, libc::S_IFREG | 0o600, 1000));
    // Made in a folder: urne's, 0700, under an unpredictable name.
    let tmp = tempfile::tempdir().unwrap();
    let out = Dir::open(tmp.path()).unwrap();
    let (a, b) = (Staging::new(&out).unwrap(), Staging::new(&out).unwrap());
    assert!(check_made(&a.dir).is_ok());
    assert_ne!(a.name, b.name);
    let tail = a.name.rsplit('-').next().unwrap();
    assert_eq!(tail.len(), 16, "{}", a.name);
    // A folder others may write in, at a staging name (as a swap could leave), is refused.
    out.mkdir("other", 0o777).unwrap();
    std::fs::set_permissions(
        tmp.path().join("other"),
        std::os::unix::fs::PermissionsExt::from_mode(0o777),
    )
    .unwrap();
    let e = check_made(&out.sub("other").unwrap()).unwrap_err();
    assert_eq!(e.kind, crate::error::Kind::StagingRefused);
}

#[test]
fn a_file_system_without_hard_links_is_recognised() {
    // What link(2) answers on FAT and exFAT (EPERM) and elsewhere (ENOTSUP); an existing
    // name is not such a case.
    assert!(no_hard_links(&std::io::Error::from_raw_os_error(1)));
    assert!(no_hard_links(&std::io::Error::from_raw_os_error(95)));
    assert!(!no_hard_links(&std::io::Error::from_raw_os_error(17)));
}

#[test]
fn a_staging_folder_dropped_unpublished_leaves_nothing_and_a_rerun_keeps_identical_files() {
    let d = tempfile::tempdir().unwrap();
    let out = Dir::open(d.path()).unwrap();
    let mut st = Staging::new(&out).unwrap();
    st.write("a", b"A").unwrap();
    drop(st);
    assert!(
        out.names().unwrap().is_empty(),
        "the staged file and its folder removed"
    );
    // Published once; published again with the same bytes (a resumed run): kept as is. A
    // lone signature a kill left is replaced; other bytes under a final name are refused.
    for _ in 0..2 {
        let mut st = Staging::new(&out).unwrap();
        st.write("a", b"A").unwrap();
        st.publish(&["a"]).unwrap();
    }
    fs::write(d.path().join("b.sig"), b"old signature").unwrap();
    let mut st = Staging::new(&out).unwrap();
    st.write("b.sig", b"S").unwrap();
    st.write("b", b"B").unwrap();
    st.publish(&["b.sig", "b"]).unwrap();
    assert_eq!(fs::read(d.path().join("b.sig")).unwrap(), b"S");
    let mut st = Staging::new(&out).unwrap();
    st.write("a", b"other").unwrap();
    let e = st.publish(&["a"]).unwrap_err();
    assert_eq!(e.kind, crate::error::Kind::OutputExists);
    assert_eq!(fs::read(d.path().join("a")).unwrap(), b"A");
    assert_eq!(
        out.names().unwrap(),
        ["a", "b", "b.sig"].map(std::ffi::OsString::from)
    );
}

/// Issue 26 item 3: an output's files are written first, their write-back started, and made
/// durable together when it is published, every one before the first is moved into place; the
/// staging folder's removal is not synced. After publication every file is in place whole (its
/// SHA-256 the one written) and the folder is gone; an empty staging folder (what a power cut
/// after that unsynced removal can bring back) is a leftover as any other, cleared by the next
/// staging in the folder as is one a kill left with its files.
#[test]
fn an_output_is_made_durable_together_before_it_is_placed_and_an_empty_leftover_is_cleared() {
    use urne_verify::crypto::sha256;
    let d = tempfile::tempdir().unwrap();
    let out = Dir::open(d.path()).unwrap();
    // A draw's sixteen files, one of them large.
    let files: Vec<(String, Vec<u8>)> = (0..16u8)
        .map(|i| {
            let len = if i == 2 {
                3 << 20
            } else {
                100 + 700 * usize::from(i)
            };
            (
                format!("f{i:02}"),
                (0..len)
                    .map(|j| u8::try_from(j % 251).unwrap() ^ i)
                    .collect(),
            )
        })
        .collect();
    let mut st = Staging::new(&out).unwrap();
    for (n, b) in &files {
        st.write(n, b).unwrap();
    }
    // Written, not yet waited for, and nothing under a final name.
    assert_eq!(st.unsynced.len(), files.len());
    assert_eq!(out.names().unwrap().len(), 1, "the staging folder only");
    let order: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    st.publish(&order).unwrap();
    for (n, b) in &files {
        let placed = fs::read(d.path().join(n)).unwrap();
        assert_eq!(sha256(&placed), sha256(b), "{n}");
    }
    assert!(staging_leftovers(&out).is_empty());
    // Leftovers: an empty staging folder, and one a kill left with a staged file.
    fs::create_dir(d.path().join(".urne-staging-4000002-0")).unwrap();
    fs::create_dir(d.path().join(".urne-staging-4000003-1")).unwrap();
    fs::write(d.path().join(".urne-staging-4000003-1/g.staged"), b"g").unwrap();
    let mut st = Staging::new(&out).unwrap();
    assert_eq!(staging_leftovers(&out), [st.name.clone()]);
    st.write("g", b"G").unwrap();
    st.publish(&["g"]).unwrap();
    assert!(staging_leftovers(&out).is_empty());
    assert_eq!(fs::read(d.path().join("g")).unwrap(), b"G");
    assert_eq!(out.names().unwrap().len(), files.len() + 1);
}

#[test]
fn a_folder_moved_or_replaced_at_the_path_after_staging_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("out");
    fs::create_dir(&out).unwrap();
    let st = Staging::new(&Dir::open(&out).unwrap()).unwrap();
    st.check_still_at(&out).unwrap();
    // Moved away, and another folder put at its path: the output would land in the moved one.
    fs::rename(&out, d.path().join("moved")).unwrap();
    assert_eq!(
        st.check_still_at(&out).unwrap_err().kind,
        crate::error::Kind::OutputConflict
    );
    fs::create_dir(&out).unwrap();
    assert_eq!(
        st.check_still_at(&out).unwrap_err().kind,
        crate::error::Kind::OutputConflict
    );
    // A link at the path to the folder staged in is refused too (never followed).
    fs::remove_dir(&out).unwrap();
    std::os::unix::fs::symlink(d.path().join("moved"), &out).unwrap();
    assert!(st.check_still_at(&out).is_err());
}
