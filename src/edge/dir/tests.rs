use super::*;
use std::io::Write;
use std::os::unix::fs::symlink;

fn tmp() -> (tempfile::TempDir, PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let p = std::fs::canonicalize(d.path()).unwrap();
    (d, p)
}

#[test]
fn a_symbolic_link_in_a_folders_path_is_refused_not_followed() {
    let (_d, p) = tmp();
    std::fs::create_dir(p.join("real")).unwrap();
    symlink(p.join("real"), p.join("link")).unwrap();
    for bad in ["link", "link/sub", "link/."] {
        let e = Dir::open_or_create(&p.join(bad)).unwrap_err();
        assert!(is_link_refused(&e), "{bad}: {e}");
    }
    assert!(
        !p.join("real/sub").exists(),
        "nothing made through the link"
    );
    // Real folders, `.` and `..` open; missing ones are made.
    assert!(Dir::open(&p.join("real/../real/.")).is_ok());
    let made = Dir::open_or_create(&p.join("real/a/b")).unwrap();
    assert!(p.join("real/a/b").is_dir());
    assert_eq!(made.path(), p.join("real/a/b"));
    assert_eq!(
        Dir::open(&p.join("absent")).unwrap_err().kind(),
        io::ErrorKind::NotFound
    );
    // A file in the path is no folder.
    std::fs::write(p.join("file"), b"x").unwrap();
    let e = Dir::open(&p.join("file")).unwrap_err();
    assert_eq!(e.raw_os_error(), Some(libc::ENOTDIR), "{e}");
}

#[test]
fn a_root_owned_link_is_followed_only_by_another_user() {
    // /proc/self is root's link on every Linux; it leads to a real folder.
    let r = Dir::open(Path::new("/proc/self/fd"));
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        assert!(is_link_refused(&r.unwrap_err()));
    } else {
        assert_eq!(r.unwrap().kind("0").unwrap(), Some(Kind::Symlink));
    }
}

#[test]
fn names_below_a_folder_are_never_followed() {
    let (_d, p) = tmp();
    let out = Dir::open_or_create(&p.join("out")).unwrap();
    std::fs::create_dir(p.join("sentinel")).unwrap();
    std::fs::write(p.join("sentinel/key"), b"secret").unwrap();
    symlink(p.join("sentinel"), p.join("out/dirlink")).unwrap();
    symlink(p.join("sentinel/key"), p.join("out/filelink")).unwrap();
    symlink(p.join("sentinel/new"), p.join("out/dangling")).unwrap();
    // Opening, creating, reading, listing, removing: none goes through a link.
    assert!(out.sub("dirlink").is_err());
    assert!(out.create_new("dangling", 0o600).is_err());
    assert!(out.create_new("filelink", 0o600).is_err());
    assert!(out.open_regular("filelink").is_err());
    assert!(out.rmdir("dirlink").is_err());
    assert_eq!(out.kind("dirlink").unwrap(), Some(Kind::Symlink));
    assert_eq!(out.kind("nothing").unwrap(), None);
    out.unlink("filelink").unwrap();
    assert!(!p.join("sentinel/new").exists());
    assert_eq!(std::fs::read(p.join("sentinel/key")).unwrap(), b"secret");
    // A name is one component.
    for bad in ["", ".", "..", "a/b", "../sentinel/key"] {
        assert_eq!(
            out.unlink(bad).unwrap_err().kind(),
            io::ErrorKind::InvalidInput
        );
    }
    assert_eq!(std::fs::read(p.join("sentinel/key")).unwrap(), b"secret");
}

#[test]
fn files_are_made_listed_linked_renamed_and_removed_relative_to_the_folder() {
    let (_d, p) = tmp();
    let out = Dir::open_or_create(&p.join("out")).unwrap();
    out.mkdir("st", 0o700).unwrap();
    assert_eq!(
        out.mkdir("st", 0o700).unwrap_err().kind(),
        io::ErrorKind::AlreadyExists
    );
    let st = out.sub("st").unwrap();
    st.create_new("a", 0o600)
        .unwrap()
        .write_all(b"bytes")
        .unwrap();
    assert_eq!(
        st.create_new("a", 0o600).unwrap_err().kind(),
        io::ErrorKind::AlreadyExists
    );
    st.link_into("a", &out, "a").unwrap();
    assert_eq!(
        st.link_into("a", &out, "a").unwrap_err().kind(),
        io::ErrorKind::AlreadyExists
    );
    st.create_new("b", 0o600).unwrap();
    st.rename_noreplace("b", &out, "a").unwrap_err();
    st.rename_noreplace("b", &out, "b").unwrap();
    assert_eq!(out.read("a", 5).unwrap(), b"bytes");
    assert!(out.read("a", 4).is_err(), "past its limit");
    // Listed twice through the same descriptor: the same names each time.
    for _ in 0..2 {
        assert_eq!(out.names().unwrap(), ["a", "b", "st"].map(OsString::from));
    }
    st.unlink("a").unwrap();
    out.rmdir("st").unwrap();
    out.sync().unwrap();
    assert_eq!(out.names().unwrap(), ["a", "b"].map(OsString::from));
}

#[test]
fn a_folder_swapped_after_it_was_opened_is_still_the_one_acted_in() {
    let (_d, p) = tmp();
    let out = Dir::open_or_create(&p.join("out")).unwrap();
    std::fs::create_dir(p.join("sentinel")).unwrap();
    std::fs::write(p.join("sentinel/key"), b"secret").unwrap();
    // The path now names the sentinel; the descriptor still holds the folder opened.
    std::fs::rename(p.join("out"), p.join("moved")).unwrap();
    symlink(p.join("sentinel"), p.join("out")).unwrap();
    out.create_new("x", 0o600).unwrap();
    assert!(p.join("moved/x").exists());
    assert_eq!(out.names().unwrap(), [OsString::from("x")]);
    assert_eq!(std::fs::read_dir(p.join("sentinel")).unwrap().count(), 1);
}

#[test]
fn a_root_link_is_followed_only_from_a_folder_only_root_can_change() {
    // urne not root, the link root's, in root's folder that neither group nor others write in.
    assert!(root_link_followed(0, 0, libc::S_IFDIR | 0o755, 1000));
    assert!(root_link_followed(0, 0, libc::S_IFDIR | 0o555, 1000));
    // Root's link moved into a user's folder, or into a folder others may write in (`/tmp`,
    // sticky or not; a group-writable one): refused.
    assert!(!root_link_followed(0, 1000, libc::S_IFDIR | 0o755, 1000));
    assert!(!root_link_followed(0, 1001, libc::S_IFDIR | 0o700, 1000));
    assert!(!root_link_followed(0, 0, libc::S_IFDIR | 0o1777, 1000));
    assert!(!root_link_followed(0, 0, libc::S_IFDIR | 0o775, 1000));
    assert!(!root_link_followed(0, 0, libc::S_IFDIR | 0o757, 1000));
    // A user's link; urne run as root follows none.
    assert!(!root_link_followed(1000, 0, libc::S_IFDIR | 0o755, 1000));
    assert!(!root_link_followed(0, 0, libc::S_IFDIR | 0o755, 0));
}
