//! Auditor mode's export (spec/formats.md §8.2 step 8, spec/formats.md §1.6) on `draw-valid-auditor`: read as a stream
//! only (never whole), its size decided from the metadata before anything is read, a missing
//! export a usage mistake, a read that fails unreadable.

use super::FailureClass as C;
use super::draw_folder::{Auditor, verify_draw_folder};
use super::folder::{Entry, Folder, MemFolder, ReadError, limits};
use super::tests_kit::{key, keys, load};
use super::tests_vectors::at;
use std::io::Read;

const EXPORT: &str = "entries-chanceux-noel-2018-2018-12-22.jsonl";

/// The export's folder, with what its metadata says and how its stream reads changed.
struct Export {
    inner: MemFolder,
    /// The size `entry` reports for the export (its real size when `None`).
    size: Option<u64>,
    /// The stream fails after the first bytes.
    failing: bool,
    /// What the metadata says the export's `.sig` is, when not the file itself.
    sig: Option<Entry>,
}

struct Failing<'a>(&'a [u8]);

impl Read for Failing<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.0.is_empty() {
            return Err(std::io::Error::other("the disk went away"));
        }
        let n = self.0.len().min(buf.len()).min(10);
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

impl Folder for Export {
    fn names(&self) -> Result<Vec<String>, ReadError> {
        self.inner.names()
    }
    fn entry(&self, name: &str) -> Entry {
        match (name == EXPORT, self.size, &self.sig) {
            (true, Some(size), _) => Entry::File(size),
            (false, _, Some(sig)) if name == format!("{EXPORT}.sig") => sig.clone(),
            _ => self.inner.entry(name),
        }
    }
    fn read(&self, name: &str, limit: u64) -> Result<Vec<u8>, ReadError> {
        assert_ne!(name, EXPORT, "the export is never read whole");
        self.inner.read(name, limit)
    }
    fn open(&self, name: &str) -> std::io::Result<Box<dyn Read + Send + '_>> {
        if self.failing && name == EXPORT {
            return Ok(Box::new(Failing(&self.inner.files[name])));
        }
        self.inner.open(name)
    }
    fn sub(&self, name: &str) -> Option<Box<dyn Folder + '_>> {
        self.inner.sub(name)
    }
    fn show(&self, name: &str) -> String {
        self.inner.show(name)
    }
}

fn audit(e: &Export) -> super::VResult<super::Report> {
    let root = load("draw-valid-auditor");
    let a = Auditor {
        folder: e,
        name: EXPORT.into(),
        producer_keys: vec![key("producer").verifying_key().to_bytes()],
    };
    verify_draw_folder(at(&root, "draw"), &keys(&root), Some(&a))
}

fn export() -> Export {
    Export {
        inner: at(&load("draw-valid-auditor"), "export").clone(),
        size: None,
        failing: false,
        sig: None,
    }
}

#[test]
fn the_export_is_streamed_never_read_whole() {
    let r = audit(&export()).unwrap();
    assert!(
        r.checks
            .iter()
            .any(|c| c.starts_with("export signature by producer key")),
        "{:?}",
        r.checks
    );
}

#[test]
fn an_export_over_its_limit_is_malformed_from_its_metadata() {
    let e = Export {
        size: Some(limits::EXPORT + 1),
        ..export()
    };
    let f = audit(&e).unwrap_err();
    assert_eq!(f.class, C::Malformed);
    assert!(f.what.contains("it is not read"), "{}", f.what);
    // At the limit, it is read (as a stream): here the real bytes, which verify.
    let e = Export {
        size: Some(limits::EXPORT),
        ..export()
    };
    assert!(audit(&e).is_ok());
}

#[test]
fn a_missing_export_is_a_usage_mistake_and_a_failing_read_unreadable() {
    let mut e = export();
    e.inner.files.remove(EXPORT);
    let f = audit(&e).unwrap_err();
    assert_eq!(
        (f.class, f.what.as_str()),
        (
            C::Usage,
            format!("the export {EXPORT} does not exist").as_str()
        )
    );
    let e = Export {
        failing: true,
        ..export()
    };
    assert_eq!(audit(&e).unwrap_err().class, C::Unreadable);
    // Its signature missing: bad-signature.
    let mut e = export();
    e.inner.files.remove(&format!("{EXPORT}.sig"));
    assert_eq!(audit(&e).unwrap_err().class, C::BadSignature);
}

/// spec/formats.md §1.4, §1.6: the export's `.sig` of another size than 64 bytes is bad-signature; one
/// that is not a regular file (a FIFO, a link) is malformed, never read.
#[test]
fn an_export_signature_of_another_size_is_bad_signature_and_one_that_is_no_file_malformed() {
    let mut e = export();
    e.inner.files.insert(format!("{EXPORT}.sig"), vec![7; 65]);
    assert_eq!(audit(&e).unwrap_err().class, C::BadSignature);
    for not_a_file in [Entry::Other("a FIFO"), Entry::Link] {
        let e = Export {
            sig: Some(not_a_file),
            ..export()
        };
        assert_eq!(audit(&e).unwrap_err().class, C::Malformed);
    }
}
