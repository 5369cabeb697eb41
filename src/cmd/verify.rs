//! `urne verify PATH`: third-party verification of published outputs (spec/formats.md §8). It is
//! the `urne-verify` binary's command (`urne_verify_cli`): the same arguments, the same rule on
//! keys (`--keys DIR` required, never taken from the folder verified, the appliance's token or its
//! configuration; auditor mode names production's key), the same verdict, error ids and exit
//! codes. Needs no HSM, no PIN, no audit trail and no private key, and writes nothing: it can
//! never produce a result (design principle 2). What the appliance adds is how it reads: folders
//! and files are held by their descriptors ([`DiskFolder`], spec/formats.md §1.6), and its lines
//! go through the appliance's printing (a closed standard output is its `stdout-closed`).

use crate::edge::folder::DiskFolder;
use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::cmd as mc;
use std::path::Path;
use urne_verify::verify::folder::Folder;
use urne_verify::verify::signed;
use urne_verify::verify::verdict::Line;
use urne_verify_cli::{Args, Disk, Refused};

pub use urne_verify::verify::signed::Keys;

/// The appliance's folders: opened once by the path given, held by their descriptors, nothing
/// followed below them.
struct HeldDisk;

impl Disk for HeldDisk {
    fn folder(&self, dir: &Path) -> Box<dyn Folder> {
        Box::new(DiskFolder::open(dir))
    }

    fn file(&self, file: &Path) -> (Box<dyn Folder>, String) {
        let (f, name) = DiskFolder::of_file(file);
        (Box::new(f), name)
    }
}

/// `urne verify PATH`.
pub fn run(a: &Args) -> Result<()> {
    let lines = urne_verify_cli::run(a, &HeldDisk).map_err(to_error)?;
    print_lines(&lines);
    Ok(())
}

/// The verifier's refusal as the appliance's error of the same id, so of the same exit code
/// (a unit test checks every id); the verdict it carries (every output verified, and one's
/// software not released: exit 9, spec/formats.md §8.8) printed first.
fn to_error(r: Refused) -> Error {
    print_lines(&r.lines);
    let kind = Kind::from_id(r.kind.id()).unwrap_or(Kind::VerifyInput);
    Error::new(kind, r.message, r.hint)
}

/// The public keys of `--keys DIR`.
pub fn load_keys(dir: &Path) -> Result<Keys> {
    signed::load_keys(&DiskFolder::open(dir))
        .map_err(|f| Error::new(Kind::KeysInvalid, f.what, crate::msg!(mc::REC_VERIFY_KEYS)))
}

pub use urne_verify::verify::verdict::printable;

/// Prints the lines of a verdict: the verdict on standard output, the notes on standard error.
pub fn print_lines(lines: &[Line]) {
    for l in lines {
        match l {
            Line::Out(s) => say!("{s}"),
            Line::Note(s) => note!("{s}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::error::Kind;

    /// Every refusal of the verifier has the appliance's kind of the same id, and so the same
    /// exit code: `urne verify` and `urne-verify` end alike.
    #[test]
    fn every_verifier_kind_is_an_appliance_kind_of_the_same_exit() {
        for k in urne_verify_cli::Kind::ALL {
            let ours = Kind::from_id(k.id()).unwrap_or_else(|| panic!("{} unknown", k.id()));
            assert_eq!(ours.exit() as u8, k.code(), "{}", k.id());
        }
    }
}
