//! Signed outputs: each output's files and their detached signatures by the HSM's result key
//! (`hsm`) are staged together (`fsio::Staging`) and then moved into place, the public keys and
//! signatures first and the signed files after, in the caller's order: a kill never leaves a
//! signed file without its signature. An output spread over two folders (a block: its secret
//! production file on the secret medium, its public commitment in the output folder) is staged
//! in both ([`stage_signed`]) before either is moved into place, the secret part first, so a
//! commitment never appears before its production file. Every folder is held by its descriptor
//! (`edge::dir`): nothing is written, read or removed through a symbolic link.

use crate::edge::fsio::{self, Staging};
use crate::edge::hsm::{Hsm, KeyRole};
use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::edge as m;
use std::collections::BTreeMap;
use std::path::Path;
use urne_verify::crypto::{Hash32, keys, sha256};

/// A file already signed (its signature made earlier, e.g. at the seal).
pub struct Presigned<'a> {
    /// The name it is published under in the output folder.
    pub name: &'a str,
    /// Its bytes, written as they are.
    pub bytes: &'a [u8],
    /// Its detached signature, written beside it as `<name>.sig`.
    pub sig: &'a [u8],
}

/// Writes each output into `out` with its detached signature by the result key, plus the
/// `presigned` files and the two public keys (when not there yet), as one staged output: the
/// keys and every `.sig` appear first, then the presigned files, then `outputs` in their order
/// (so the last one appears last). Returns each of `outputs`' SHA-256 by name. Refuses before
/// writing anything if an output's name holds anything else than its very bytes already.
pub fn write_signed(
    hsm: &Hsm,
    out: &Path,
    outputs: &[(&str, Vec<u8>)],
    presigned: &[Presigned],
    keys: (&[u8; 32], &[u8; 32]),
) -> Result<BTreeMap<String, Hash32>> {
    refuse_taken(out, outputs, "--out")?;
    stage_signed(hsm, out, outputs, presigned, Some(keys), false)?.publish()
}

/// Refuses (exit 4) when a name of `outputs` in `out` holds anything else than its very bytes
/// (`flag`: the option that named the folder, for the hint).
pub fn refuse_taken(out: &Path, outputs: &[(&str, Vec<u8>)], flag: &str) -> Result<()> {
    let Some(dir) = fsio::existing_folder(out)? else {
        return Ok(());
    };
    for (name, bytes) in outputs {
        if fsio::exists_other_than(&dir, name, bytes) {
            return Err(Error::new(
                Kind::OutputExists,
                crate::msg!(m::ERR_OUTPUT_EXISTS, path = out.join(name).display()),
                crate::msg!(m::REC_OUTPUT_EXISTS_FLAG, flag = flag),
            ));
        }
    }
    Ok(())
}

/// An output staged in its folder, not yet in place: [`Staged::publish`] moves it there.
/// Dropped unpublished, its staged files are removed.
pub struct Staged {
    st: Staging,
    /// The public keys, then every signature, then the presigned files, then the signed files,
    /// then what [`Staged::stage_after`] added (each file's signature before it): the order the
    /// files are moved into place in.
    pems: Vec<String>,
    sigs: Vec<String>,
    pre: Vec<String>,
    files: Vec<String>,
    after: Vec<String>,
    written: BTreeMap<String, Hash32>,
}

impl Staged {
    /// Stages `outputs` too, each with its signature by the result key, among the files staged
    /// so far (their signatures with the other signatures, moved into place before any signed
    /// file, and the files after those staged before, in their order). A draw stages its
    /// presigned `leaves.bin` before the commissaire's contribution and its signed files after
    /// it (spec/appliance.md §4.7). Call [`refuse_taken`] first.
    #[expect(
        clippy::missing_panics_doc,
        reason = "it panics only to pass on a panic of its writer thread, a defect"
    )]
    pub fn stage_signed(&mut self, hsm: &Hsm, outputs: &[(&str, Vec<u8>)]) -> Result<()> {
        for (name, bytes) in outputs {
            // The HSM signs while the file is written, its write-back started and its SHA-256
            // computed, on another thread (a 58 MB production file takes a few tenths of a
            // second to sign, a tenth to write and hash); every staged file is made durable
            // when the output is published.
            let (sig, wrote) = std::thread::scope(|s| {
                let st = &mut self.st;
                let w = s.spawn(move || st.write(name, bytes).map(|()| sha256(bytes)));
                let sig = hsm.sign(KeyRole::Result, bytes);
                (sig, w.join().expect("writer thread"))
            });
            let sha = wrote?;
            self.st.write(&format!("{name}.sig"), &sig?)?;
            self.sigs.push(format!("{name}.sig"));
            self.files.push(name.to_string());
            self.written.insert(name.to_string(), sha);
        }
        Ok(())
    }

    /// Stages `outputs` too, each with its signature by the result key, to be moved into place
    /// after everything staged before (their signatures, then themselves, in their order): a
    /// block's manifest after the commitment it lists (spec/appliance.md §5.B9), in one staging
    /// folder. Call [`refuse_taken`] first.
    pub fn stage_after(&mut self, hsm: &Hsm, outputs: &[(&str, Vec<u8>)]) -> Result<()> {
        for (name, bytes) in outputs {
            let sig = hsm.sign(KeyRole::Result, bytes)?;
            self.st.write(&format!("{name}.sig"), &sig)?;
            self.st.write(name, bytes)?;
            self.after.push(format!("{name}.sig"));
            self.after.push(name.to_string());
            self.written.insert(name.to_string(), sha256(bytes));
        }
        Ok(())
    }

    /// Refuses unless `path` is still the folder the output is staged in (`Staging::check_still_at`).
    pub fn check_still_at(&self, path: &Path) -> Result<()> {
        self.st.check_still_at(path)
    }

    /// Makes every file staged so far durable now (their write-back was started as each was
    /// written): done before a wait for a person, the wait covers it, and publishing finds
    /// them on the medium already.
    pub fn make_durable(&mut self) -> Result<()> {
        self.st.sync_files()
    }

    /// Moves the staged files into place in their order (see [`write_signed`]); returns each
    /// output's SHA-256 by name.
    pub fn publish(self) -> Result<BTreeMap<String, Hash32>> {
        let order: Vec<&str> = [&self.pems, &self.sigs, &self.pre, &self.files, &self.after]
            .into_iter()
            .flatten()
            .map(String::as_str)
            .collect();
        self.st.publish(&order)?;
        Ok(self.written)
    }
}

/// Stages what [`write_signed`] writes, without moving anything into place: the public keys
/// only when `keys` is given, every file with mode 0600 when `private` (a secret output). Call
/// [`refuse_taken`] first.
pub fn stage_signed(
    hsm: &Hsm,
    out: &Path,
    outputs: &[(&str, Vec<u8>)],
    presigned: &[Presigned],
    keys: Option<(&[u8; 32], &[u8; 32])>,
    private: bool,
) -> Result<Staged> {
    let dir = fsio::out_folder(out)?;
    let mut st = Staging::new(&dir)?;
    if private {
        st = st.private();
    }
    let (mut pems, mut sigs, mut pre) = (vec![], vec![], vec![]);
    if let Some(keys) = keys {
        for (name, k) in [("result.pub.pem", keys.0), ("audit.pub.pem", keys.1)] {
            let pem = keys::public_key_to_pem(k);
            if matches!(dir.kind(name), Ok(None)) {
                st.write(name, pem.as_bytes())?;
                pems.push(name.to_string());
            }
        }
    }
    for p in presigned {
        st.write(p.name, p.bytes)?;
        st.write(&format!("{}.sig", p.name), p.sig)?;
        sigs.push(format!("{}.sig", p.name));
        pre.push(p.name.to_string());
    }
    let mut staged = Staged {
        st,
        pems,
        sigs,
        pre,
        files: vec![],
        after: vec![],
        written: BTreeMap::new(),
    };
    staged.stage_signed(hsm, outputs)?;
    Ok(staged)
}

/// Writes `bytes` to `path` and `sig` (already made) to `path.sig` as one staged output: the
/// signature appears first.
pub fn write_with_sig(path: &Path, bytes: &[u8], sig: &[u8]) -> Result<()> {
    let (dir_path, name) = fsio::split(path)?;
    let sig_name = format!("{name}.sig");
    // The file itself must not exist at all, even with these very bytes: a lone signed file (a
    // proof, keys.json) is never "written again". Only its signature may be there already, left
    // by a kill between the two moves, with the same bytes (Ed25519 is deterministic).
    let dir = fsio::out_folder(&dir_path)?;
    if !matches!(dir.kind(&name), Ok(None)) {
        return Err(Error::new(
            Kind::OutputExists,
            crate::msg!(m::ERR_OUTPUT_EXISTS, path = path.display()),
            crate::msg!(m::REC_OUTPUT_EXISTS_CHOOSE),
        ));
    }
    if fsio::exists_other_than(&dir, &sig_name, sig) {
        return Err(Error::new(
            Kind::OutputExists,
            crate::msg!(
                m::ERR_OUTPUT_EXISTS,
                path = dir_path.join(&sig_name).display()
            ),
            crate::msg!(m::REC_OUTPUT_EXISTS_ANOTHER),
        ));
    }
    let mut st = Staging::new(&dir)?;
    st.write(&name, bytes)?;
    st.write(&sig_name, sig)?;
    st.publish(&[sig_name.as_str(), name.as_str()])
}
