//! `/proc/self/maps`, read: the files mapped in the process, each with its address range,
//! device, inode, path and whether it is mapped executable. Used to measure the code in the
//! process (`edge::loader`) and to check it against what urne and its module need
//! (`edge::closure`).

/// One file-backed mapping of `/proc/self/maps`: its address range, device, inode and path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapsEntry {
    /// The address range, as the line writes it (`start-end`, hexadecimal).
    pub range: String,
    /// The device (major, minor) the file lies on.
    pub dev: (u64, u64),
    /// The file's inode on that device.
    pub inode: u64,
    /// The file's path, without the ` (deleted)` mark.
    pub path: String,
    /// The file was deleted (or replaced) since it was mapped: its path no longer names it.
    pub deleted: bool,
    /// Mapped executable (`x` in its permissions): code of this file can run.
    pub exec: bool,
}

/// Parses the file-backed entries of a `/proc/self/maps` image: those with an inode and an
/// absolute path. Pseudo entries (`[heap]`, `[stack]`, `[vdso]`, `anon_inode:…`) and anonymous
/// mappings are skipped; a malformed line is skipped too (the kernel writes this file).
pub fn parse_maps(text: &str) -> Vec<MapsEntry> {
    text.lines().filter_map(parse_maps_line).collect()
}

fn parse_maps_line(line: &str) -> Option<MapsEntry> {
    let mut rest = line;
    let mut fields = [""; 5];
    for f in &mut fields {
        rest = rest.trim_start_matches(' ');
        let end = rest.find(' ')?;
        *f = &rest[..end];
        rest = &rest[end..];
    }
    let path = rest.trim_start_matches(' ');
    let [range, perms, _offset, dev, inode] = fields;
    let inode: u64 = inode.parse().ok()?;
    if inode == 0 || !path.starts_with('/') {
        return None;
    }
    let (major, minor) = dev.split_once(':')?;
    let dev = (
        u64::from_str_radix(major, 16).ok()?,
        u64::from_str_radix(minor, 16).ok()?,
    );
    let (path, deleted) = match path.strip_suffix(" (deleted)") {
        Some(p) => (p, true),
        None => (path, false),
    };
    Some(MapsEntry {
        range: range.to_string(),
        dev,
        inode,
        path: path.to_string(),
        deleted,
        exec: perms.contains('x'),
    })
}

/// glibc's `major()`/`minor()` of a `st_dev`.
pub fn dev_parts(dev: u64) -> (u64, u64) {
    let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & 0xffff_f000);
    let minor = (dev & 0xff) | ((dev >> 12) & 0xffff_ff00);
    (major, minor)
}

/// The executable mappings of a `/proc/self/maps` image that no file backs (anonymous memory,
/// or a pseudo entry) other than the kernel's own `[vdso]` and `[vsyscall]`: code written into
/// memory, such as a library that copied itself there to leave the maps (urne, its module and
/// their libraries make none). Each by its address range and name.
pub fn anonymous_code(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let mut f = line.split_whitespace();
            let (range, perms, _off, _dev, inode) =
                (f.next()?, f.next()?, f.next()?, f.next()?, f.next()?);
            let name: String = f.collect::<Vec<_>>().join(" ");
            let file_backed = inode != "0" && name.starts_with('/');
            let kernel = name == "[vdso]" || name == "[vsyscall]";
            (perms.contains('x') && !file_backed && !kernel).then(|| {
                if name.is_empty() {
                    crate::msg!(
                        crate::msg::catalogue::edge::ERR_CLOSURE_ANONYMOUS,
                        range = range
                    )
                } else {
                    format!("{name} {range}")
                }
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_in_anonymous_memory_is_found_and_the_kernels_pages_are_not() {
        let text = "\
7f00-7f10 r-xp 00000000 fe:00 99 /usr/lib/libc.so.6
7f10-7f20 r-xp 00000000 00:00 0 
7f20-7f30 rwxp 00000000 00:00 0                          [heap]
7f30-7f40 r-xp 00000000 00:00 0                          [vdso]
ff60-ff61 --xp 00000000 00:00 0                          [vsyscall]
7f40-7f50 rw-p 00000000 00:00 0 
";
        assert_eq!(
            anonymous_code(text),
            [
                crate::msg!(
                    crate::msg::catalogue::edge::ERR_CLOSURE_ANONYMOUS,
                    range = "7f10-7f20"
                ),
                "[heap] 7f20-7f30".to_string()
            ]
        );
        let me = std::fs::read_to_string("/proc/self/maps").unwrap();
        assert_eq!(anonymous_code(&me), Vec::<String>::new());
    }

    #[test]
    fn maps_lines_are_parsed_and_pseudo_entries_skipped() {
        let text = "\
55d0c0a00000-55d0c0a21000 r--p 00000000 fe:00 1234                       /usr/bin/urne
7f00-7f10 r-xp 00001000 fe:00 99 /opt/with space/lib.so (deleted)
7f10-7f20 rw-p 00000000 00:00 0 
7f20-7f30 rw-p 00000000 00:00 0                          [heap]
7f30-7f40 r--p 00000000 00:00 0                          [vvar]
7f40-7f50 rw-s 00000000 00:0f 2048                       anon_inode:[io_uring]
7f50-7f60 rw-s 00000000 00:01 4096                       /memfd:x (deleted)
garbage
";
        let e = parse_maps(text);
        assert_eq!(e.len(), 3);
        assert_eq!(
            e[0],
            MapsEntry {
                range: "55d0c0a00000-55d0c0a21000".into(),
                dev: (0xfe, 0),
                inode: 1234,
                path: "/usr/bin/urne".into(),
                deleted: false,
                exec: false,
            }
        );
        assert_eq!(
            (e[1].path.as_str(), e[1].deleted),
            ("/opt/with space/lib.so", true)
        );
        assert_eq!((e[2].path.as_str(), e[2].dev), ("/memfd:x", (0, 1)));
    }

    #[test]
    fn device_numbers_split_as_glibc_does() {
        assert_eq!(dev_parts(0xfe00), (0xfe, 0));
        assert_eq!(dev_parts(0x0803), (8, 3));
        // glibc's makedev(): large numbers (e.g. 4097:65537) use the high bits.
        let makedev = |major: u64, minor: u64| {
            ((major & 0xfff) << 8)
                | ((major & 0xffff_f000) << 32)
                | (minor & 0xff)
                | ((minor & 0xffff_ff00) << 12)
        };
        for (major, minor) in [(259, 0), (4097, 65537), (8, 3)] {
            assert_eq!(dev_parts(makedev(major, minor)), (major, minor));
        }
    }
}
