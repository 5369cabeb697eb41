//! What a verification reads: a folder of published files, as names and bounded bytes (spec/formats.md
//! §1.6). The core never opens a file itself: the CLI gives it a [`Folder`] over the disk, the
//! tests and the fuzz targets one in memory ([`MemFolder`]). Every read names the kind's size
//! limit, and a file larger than its limit, or that is not a regular file (a FIFO, a device, a
//! folder), is `malformed` from its metadata alone: it is never read (a FIFO is never opened).

use super::{FailureClass as C, VResult, fail};
use std::collections::BTreeMap;
use std::io::Read;

/// The prefix of an interrupted command's staging folder: never an output (spec/appliance.md §4.7).
pub const STAGING_PREFIX: &str = ".urne-staging-";

/// What a name in a folder is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// Nothing of that name.
    Missing,
    /// A regular file of this many bytes.
    File(u64),
    /// A folder.
    Folder,
    /// A symbolic link, examined itself (spec/formats.md §1.6): never followed, never read, and never a
    /// folder of outputs.
    Link,
    /// Something else (a FIFO, a socket, a device): never an output file.
    Other(&'static str),
}

/// A failure to read what the metadata said was a readable file: not a verification failure
/// (exit 2, "unreadable").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError(pub String);

/// The bytes of `file`, at most `limit` of them: a file that grew past `limit` since its size
/// was examined is an error, never a longer read. `shown` names it in messages. What every
/// [`Folder::read`] does once it has the file open.
///
/// # Errors
/// The file cannot be read, or holds more than `limit` bytes.
pub fn read_at_most(file: impl Read, limit: u64, shown: &str) -> Result<Vec<u8>, ReadError> {
    let mut bytes = vec![];
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError(format!("cannot read {shown}: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(ReadError(format!(
            "{shown} grew past {limit} bytes while it was read"
        )));
    }
    Ok(bytes)
}

/// A folder of published files.
pub trait Folder: Sync {
    /// The names directly in the folder, sorted bytewise (hidden staging folders included: the
    /// callers skip them).
    ///
    /// # Errors
    /// The folder cannot be listed.
    fn names(&self) -> Result<Vec<String>, ReadError>;
    /// What `name` is.
    fn entry(&self, name: &str) -> Entry;
    /// The bytes of the regular file `name`, at most `limit` of them (a file that grew past the
    /// limit since [`Folder::entry`] is an error).
    ///
    /// # Errors
    /// The file cannot be opened or read, is no longer a regular file, or exceeds `limit`.
    fn read(&self, name: &str, limit: u64) -> Result<Vec<u8>, ReadError>;
    /// A reader of the regular file `name`, for files read as a stream (an export).
    ///
    /// # Errors
    /// As [`Folder::read`].
    fn open(&self, name: &str) -> std::io::Result<Box<dyn Read + Send + '_>>;
    /// The subfolder `name`, for a folder of outputs (spec/formats.md §8.4).
    fn sub(&self, name: &str) -> Option<Box<dyn Folder + '_>>;
    /// `name` as the user would write it (for messages).
    fn show(&self, name: &str) -> String;
}

/// Size limits per file kind (spec/formats.md §1.6), in bytes.
pub mod limits {
    /// A detached signature: exactly this many bytes.
    pub const SIG: u64 = 64;
    /// A PEM public key.
    pub const PEM: u64 = 4_096;
    /// A checkpoint note (`checkpoint.note`, a `--checkpoint` note).
    pub const NOTE: u64 = 4_096;
    /// A JSON output (bundle, result, manifest, block commitment, reveal, void notice, proof,
    /// keys.json) and a rules file.
    pub const JSON: u64 = 1_048_576;
    /// Minutes (`pv.html` and every minutes document).
    pub const MINUTES: u64 = 16_777_216;
    /// The most leaves a day can have: 2^24 (the appliance refuses to seal more).
    pub const MAX_LEAVES: u64 = 16_777_216;
    /// `leaves.bin`: 33 bytes a leaf.
    pub const LEAVES: u64 = 33 * MAX_LEAVES;
    /// A block's production file `S.tickets.csv`.
    pub const TICKETS: u64 = 536_870_912;
    /// Production's export.
    pub const EXPORT: u64 = 17_179_869_184;
    /// An exported audit trail.
    pub const AUDIT_EXPORT: u64 = 1_073_741_824;
    /// A release's manifest `SHA256SUMS` (spec/formats.md §8.8).
    pub const RELEASE_MANIFEST: u64 = 1_048_576;

    /// The limit of a file of an output by its name.
    // Output names are exact (spec/formats.md §4.7, §5.B9): `PV.HTML` is not the minutes.
    #[allow(clippy::case_sensitive_file_extension_comparisons)]
    pub fn of(name: &str) -> u64 {
        if name.ends_with(".sig") {
            SIG
        } else if name.ends_with(".pem") {
            PEM
        } else if name.ends_with(".note") {
            NOTE
        } else if name.ends_with(".html") {
            MINUTES
        } else if name == "leaves.bin" {
            LEAVES
        } else if name.ends_with(".csv") {
            TICKETS
        } else if name.ends_with(".jsonl") {
            AUDIT_EXPORT
        } else {
            JSON
        }
    }
}

/// The bytes of `name` when it is a regular file within its kind's limit (spec/formats.md §1.6): `None`
/// when missing; `malformed` when not a regular file or too large (decided without reading);
/// [`FailureClass::Unreadable`](super::FailureClass::Unreadable) when it cannot be read.
pub fn read_bounded(f: &dyn Folder, name: &str, limit: u64) -> VResult<Option<Vec<u8>>> {
    match f.entry(name) {
        Entry::Missing => Ok(None),
        Entry::File(size) if size > limit => Err(fail(
            C::Malformed,
            format!(
                "{} has {size} bytes, more than a {name} can have ({limit}, spec/formats.md §1.6): it is not read",
                f.show(name)
            ),
        )),
        Entry::File(_) => f
            .read(name, limit)
            .map(Some)
            .map_err(|e| fail(C::Unreadable, e.0)),
        Entry::Folder => Err(fail(
            C::Malformed,
            format!("{} is a folder, not a file", f.show(name)),
        )),
        Entry::Link => Err(fail(
            C::Malformed,
            format!(
                "{} is a symbolic link, not a regular file: it is not read",
                f.show(name)
            ),
        )),
        Entry::Other(what) => Err(fail(
            C::Malformed,
            format!(
                "{} is {what}, not a regular file: it is not read",
                f.show(name)
            ),
        )),
    }
}

/// A folder held in memory (tests, fuzzing): files by name, and subfolders.
#[derive(Debug, Clone, Default)]
pub struct MemFolder {
    /// The files, by name.
    pub files: BTreeMap<String, Vec<u8>>,
    /// The subfolders, by name.
    pub folders: BTreeMap<String, MemFolder>,
}

impl MemFolder {
    /// A folder of these files.
    pub fn of(files: impl IntoIterator<Item = (String, Vec<u8>)>) -> Self {
        MemFolder {
            files: files.into_iter().collect(),
            folders: BTreeMap::new(),
        }
    }
}

impl Folder for MemFolder {
    fn names(&self) -> Result<Vec<String>, ReadError> {
        let mut n: Vec<String> = self
            .files
            .keys()
            .chain(self.folders.keys())
            .cloned()
            .collect();
        n.sort();
        Ok(n)
    }
    fn entry(&self, name: &str) -> Entry {
        match (self.files.get(name), self.folders.contains_key(name)) {
            (Some(b), _) => Entry::File(b.len() as u64),
            (None, true) => Entry::Folder,
            (None, false) => Entry::Missing,
        }
    }
    fn read(&self, name: &str, limit: u64) -> Result<Vec<u8>, ReadError> {
        match self.files.get(name) {
            Some(b) if b.len() as u64 <= limit => Ok(b.clone()),
            Some(_) => Err(ReadError(format!("{name} exceeds {limit} bytes"))),
            None => Err(ReadError(format!("{name}: no such file"))),
        }
    }
    fn open(&self, name: &str) -> std::io::Result<Box<dyn Read + Send + '_>> {
        match self.files.get(name) {
            Some(b) => Ok(Box::new(b.as_slice())),
            None => Err(std::io::Error::from(std::io::ErrorKind::NotFound)),
        }
    }
    fn sub(&self, name: &str) -> Option<Box<dyn Folder + '_>> {
        self.folders
            .get(name)
            .map(|f| Box::new(f.clone()) as Box<dyn Folder>)
    }
    fn show(&self, name: &str) -> String {
        name.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_over_its_limit_or_not_regular_is_malformed_without_being_read() {
        let mut f = MemFolder::of([("pv.html".to_string(), vec![b'x'; 10])]);
        f.folders.insert("bundle.json".into(), MemFolder::default());
        assert_eq!(
            read_bounded(&f, "pv.html", 10).unwrap(),
            Some(vec![b'x'; 10])
        );
        assert_eq!(
            read_bounded(&f, "pv.html", 9).unwrap_err().class,
            C::Malformed
        );
        assert_eq!(
            read_bounded(&f, "bundle.json", 9).unwrap_err().class,
            C::Malformed
        );
        assert_eq!(read_bounded(&f, "result.json", 9).unwrap(), None);
    }

    #[test]
    fn limits_by_name() {
        assert_eq!(limits::of("bundle.json.sig"), 64);
        assert_eq!(limits::of("pv.html"), limits::MINUTES);
        assert_eq!(limits::of("leaves.bin"), 553_648_128);
        assert_eq!(limits::of("x_1.tickets.csv"), limits::TICKETS);
        assert_eq!(limits::of("checkpoint.note"), 4096);
        assert_eq!(limits::of("manifest.json"), limits::JSON);
    }
}
