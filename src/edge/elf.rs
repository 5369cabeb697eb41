//! The dynamic section of a shared object, as the loader reads it: the libraries it needs
//! (`DT_NEEDED`), its own name (`DT_SONAME`) and where it asks for them to be found
//! (`DT_RUNPATH`, `DT_RPATH`). Read from the file's bytes through its program headers
//! (`PT_DYNAMIC`, and the `PT_LOAD` segments that place the string table), never by running
//! anything. 64-bit little-endian ELF only (x86-64, AArch64): anything else is `None`, and
//! every offset is checked against the bytes.

/// What a shared object's dynamic section says of its dependencies.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Dynamic {
    /// The libraries it needs loaded first (`DT_NEEDED`), in order.
    pub needed: Vec<String>,
    /// The name it goes by for the loader (`DT_SONAME`), when it gives one.
    pub soname: Option<String>,
    /// `DT_RUNPATH` and `DT_RPATH`, split at `:`, as written (`$ORIGIN` not expanded).
    pub search: Vec<String>,
}

const PT_LOAD: u32 = 1;
const PT_DYNAMIC: u32 = 2;
const DT_NULL: u64 = 0;
const DT_NEEDED: u64 = 1;
const DT_STRTAB: u64 = 5;
const DT_STRSZ: u64 = 10;
const DT_SONAME: u64 = 14;
const DT_RPATH: u64 = 15;
const DT_RUNPATH: u64 = 29;

fn u16_at(b: &[u8], off: usize) -> Option<u16> {
    Some(u16::from_le_bytes(
        b.get(off..off.checked_add(2)?)?.try_into().ok()?,
    ))
}
fn u32_at(b: &[u8], off: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        b.get(off..off.checked_add(4)?)?.try_into().ok()?,
    ))
}
fn u64_at(b: &[u8], off: usize) -> Option<u64> {
    Some(u64::from_le_bytes(
        b.get(off..off.checked_add(8)?)?.try_into().ok()?,
    ))
}
fn usize_of(v: u64) -> Option<usize> {
    usize::try_from(v).ok()
}

/// One program header: type, file offset, virtual address, size in the file.
struct Segment {
    kind: u32,
    offset: u64,
    vaddr: u64,
    filesz: u64,
}

/// Reads `len` bytes at offset `off` of the object, `None` past its end.
pub type ReadAt<'a> = &'a dyn Fn(u64, usize) -> Option<Vec<u8>>;

/// The largest program header table, dynamic section and string table read (far above any real
/// object's): a corrupt size is refused, never allocated.
const MAX_READ: usize = 16 << 20;

fn read_bounded(read: ReadAt, off: u64, len: u64) -> Option<Vec<u8>> {
    let len = usize_of(len)?;
    (len <= MAX_READ).then_some(())?;
    read(off, len)
}

fn segments(read: ReadAt) -> Option<Vec<Segment>> {
    let b = read(0, 0x40)?;
    // e_ident: magic, ELFCLASS64 (2), ELFDATA2LSB (1).
    if b.get(..6)? != b"\x7fELF\x02\x01" {
        return None;
    }
    let phoff = u64_at(&b, 0x20)?;
    let phentsize = usize::from(u16_at(&b, 0x36)?);
    let phnum = usize::from(u16_at(&b, 0x38)?);
    if phentsize < 0x38 {
        return None;
    }
    let table = read_bounded(
        read,
        phoff,
        u64::try_from(phentsize.checked_mul(phnum)?).ok()?,
    )?;
    table
        .chunks_exact(phentsize)
        .map(|p| {
            Some(Segment {
                kind: u32_at(p, 0)?,
                offset: u64_at(p, 0x08)?,
                vaddr: u64_at(p, 0x10)?,
                filesz: u64_at(p, 0x20)?,
            })
        })
        .collect()
}

/// The file offset of a virtual address, through the `PT_LOAD` segment that maps it.
fn file_offset(segs: &[Segment], vaddr: u64) -> Option<u64> {
    segs.iter()
        .filter(|s| s.kind == PT_LOAD)
        .find(|s| vaddr >= s.vaddr && vaddr - s.vaddr < s.filesz)
        .map(|s| vaddr - s.vaddr + s.offset)
}

/// The NUL-terminated string at `off` in the string table `table`.
fn string_at(table: &[u8], off: u64) -> Option<String> {
    let rest = table.get(usize_of(off)?..)?;
    let end = rest.iter().position(|&c| c == 0)?;
    String::from_utf8(rest[..end].to_vec()).ok()
}

/// The dynamic section of the shared object `bytes` ([`dynamic_from`]).
pub fn dynamic(bytes: &[u8]) -> Option<Dynamic> {
    dynamic_from(&|off, n| {
        let start = usize_of(off)?;
        bytes.get(start..start.checked_add(n)?).map(<[u8]>::to_vec)
    })
}

/// The dynamic section of the shared object whose bytes `read` gives (only the headers, the
/// dynamic section and its string table are read); `None` if it is not a 64-bit little-endian
/// ELF object with a well-formed dynamic section.
pub fn dynamic_from(read: ReadAt) -> Option<Dynamic> {
    let segs = segments(read)?;
    let dynseg = segs.iter().find(|s| s.kind == PT_DYNAMIC)?;
    let entries = read_bounded(read, dynseg.offset, dynseg.filesz)?;
    let mut tags = vec![];
    let (mut strtab, mut strsz) = (None, None);
    for e in entries.chunks_exact(16) {
        let (tag, val) = (u64_at(e, 0)?, u64_at(e, 8)?);
        match tag {
            DT_NULL => break,
            DT_STRTAB => strtab = Some(val),
            DT_STRSZ => strsz = Some(val),
            DT_NEEDED | DT_SONAME | DT_RPATH | DT_RUNPATH => tags.push((tag, val)),
            _ => {}
        }
    }
    let table = read_bounded(read, file_offset(&segs, strtab?)?, strsz?)?;
    let mut d = Dynamic::default();
    for (tag, val) in tags {
        let s = string_at(&table, val)?;
        match tag {
            DT_NEEDED => d.needed.push(s),
            DT_SONAME => d.soname = Some(s),
            _ => d
                .search
                .extend(s.split(':').filter(|p| !p.is_empty()).map(str::to_string)),
        }
    }
    Some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal ELF image: one `PT_LOAD` mapping the whole file at vaddr 0x1000, one `PT_DYNAMIC`,
    /// a string table, and the given dynamic entries (string offsets into `strings`).
    fn image(strings: &[u8], entries: &[(u64, u64)]) -> Vec<u8> {
        let mut b = vec![0u8; 0x40];
        b[..6].copy_from_slice(b"\x7fELF\x02\x01");
        b[0x20..0x28].copy_from_slice(&0x40u64.to_le_bytes());
        b[0x36..0x38].copy_from_slice(&0x38u16.to_le_bytes());
        b[0x38..0x3a].copy_from_slice(&2u16.to_le_bytes());
        let str_at: u64 = 0x40 + 2 * 0x38;
        let dyn_at = str_at + strings.len() as u64;
        let mut all: Vec<(u64, u64)> = vec![
            (DT_STRTAB, 0x1000 + str_at),
            (DT_STRSZ, strings.len() as u64),
        ];
        all.extend_from_slice(entries);
        all.push((DT_NULL, 0));
        let total = dyn_at + 16 * all.len() as u64;
        let ph = |kind: u32, offset: u64, vaddr: u64, filesz: u64| {
            let mut p = vec![0u8; 0x38];
            p[..4].copy_from_slice(&kind.to_le_bytes());
            p[0x08..0x10].copy_from_slice(&offset.to_le_bytes());
            p[0x10..0x18].copy_from_slice(&vaddr.to_le_bytes());
            p[0x20..0x28].copy_from_slice(&filesz.to_le_bytes());
            p
        };
        b.extend(ph(PT_LOAD, 0, 0x1000, total));
        b.extend(ph(
            PT_DYNAMIC,
            dyn_at,
            0x1000 + dyn_at,
            16 * all.len() as u64,
        ));
        b.extend_from_slice(strings);
        for (t, v) in all {
            b.extend_from_slice(&t.to_le_bytes());
            b.extend_from_slice(&v.to_le_bytes());
        }
        b
    }

    #[test]
    fn needed_soname_and_search_paths_are_read_through_the_program_headers() {
        let strings = b"\0libfoo.so.1\0libbar.so.2\0libme.so.3\0$ORIGIN/../lib:/opt/x\0";
        let img = image(
            strings,
            &[
                (DT_NEEDED, 1),
                (DT_NEEDED, 13),
                (DT_SONAME, 25),
                (DT_RUNPATH, 36),
            ],
        );
        assert_eq!(
            dynamic(&img),
            Some(Dynamic {
                needed: vec!["libfoo.so.1".into(), "libbar.so.2".into()],
                soname: Some("libme.so.3".into()),
                search: vec!["$ORIGIN/../lib".into(), "/opt/x".into()],
            })
        );
    }

    #[test]
    fn anything_malformed_is_none_never_a_panic() {
        let strings = b"\0libfoo.so.1\0";
        let good = image(strings, &[(DT_NEEDED, 1)]);
        assert!(dynamic(&good).is_some());
        // A string offset past the table, a 32-bit class, a truncated file at every length.
        assert!(dynamic(&image(strings, &[(DT_NEEDED, 99)])).is_none());
        let mut class32 = good.clone();
        class32[4] = 1;
        assert!(dynamic(&class32).is_none());
        for n in 0..good.len() {
            let _ = dynamic(&good[..n]);
        }
        assert!(dynamic(b"not an object").is_none());
    }

    #[test]
    fn softhsm_needs_libstdcxx_and_libcrypto() {
        let Ok(bytes) = std::fs::read(crate::edge::config::DEFAULT_MODULE) else {
            note!("SoftHSM is not installed: skipped");
            return;
        };
        let d = dynamic(&bytes).expect("SoftHSM's module is a 64-bit ELF object");
        assert!(
            d.needed.iter().any(|n| n.starts_with("libstdc++.so")),
            "{d:?}"
        );
        assert!(
            d.needed.iter().any(|n| n.starts_with("libcrypto.so")),
            "{d:?}"
        );
        assert_eq!(d.soname.as_deref(), Some("libsofthsm2.so"));
    }
}
