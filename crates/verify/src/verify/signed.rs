//! The public keys a verification trusts, and reading a published file only once its detached
//! signature (spec/formats.md §1.4) holds: inputs are verified before they are parsed.

use super::folder::{Folder, limits, read_bounded};
use super::{FailureClass as C, VResult, fail};
use crate::crypto::{Hash32, keys, sha256};

/// The public keys a verification trusts: the appliance's result key (signs every output) and
/// audit key (signs the trail's checkpoints, spec/formats.md §6.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keys {
    /// The result key, raw 32-byte Ed25519.
    pub result: [u8; 32],
    /// The audit key, raw 32-byte Ed25519.
    pub audit: [u8; 32],
    /// Where the keys were read from, for messages (`result.pub.pem` in it).
    pub source: String,
}

/// Reads the PEM public key `name` of `folder` (as `urne keys export` writes it). A missing,
/// unreadable or malformed key file is a usage error (the keys are the user's input).
pub fn load_key(folder: &dyn Folder, name: &str) -> VResult<[u8; 32]> {
    let usage = |what: String| fail(C::Usage, what);
    let bytes = read_bounded(folder, name, limits::PEM)
        .map_err(|f| usage(f.what))?
        .ok_or_else(|| usage(format!("{} is missing", folder.show(name))))?;
    let pem = String::from_utf8(bytes)
        .map_err(|_| usage(format!("{} is not a PEM file", folder.show(name))))?;
    keys::public_key_from_pem(&pem).map_err(|e| usage(format!("{}: {e}", folder.show(name))))
}

/// Reads `result.pub.pem`, then `audit.pub.pem`, from `folder`.
pub fn load_keys(folder: &dyn Folder) -> VResult<Keys> {
    Ok(Keys {
        result: load_key(folder, "result.pub.pem")?,
        audit: load_key(folder, "audit.pub.pem")?,
        source: folder.show("result.pub.pem"),
    })
}

/// The bytes of `name` once its detached signature `name.sig` verifies under `key` (spec/formats.md §1.4), or
/// `None` when there is no file `name`. The file and its signature are read within their
/// limits (spec/formats.md §1.6); a signature that is missing or not 64 bytes is `bad-signature`.
///
/// A signature that fails while the file (read without trusting it) names a `result_key_id`
/// other than `key`'s, and no other signed file of the folder verifies under `key`, is a usage
/// error naming both ids: the keys given are not the ones of the appliance these outputs name
/// (nothing is believed from the file: it is not verified). When another file verifies, the
/// keys are right and the file was altered: `bad-signature`.
pub fn read_signed_opt(
    folder: &dyn Folder,
    name: &str,
    key: &[u8; 32],
) -> VResult<Option<Vec<u8>>> {
    let Some((bytes, sig)) = read_with_sig(folder, name)? else {
        return Ok(None);
    };
    check_signature(folder, name, key, &bytes, &sig)?;
    Ok(Some(bytes))
}

/// [`read_signed_opt`] for a large file whose bytes are not kept: its size and SHA-256 once its
/// signature verifies, the hash computed on another thread while the signature is checked (a
/// block's 58 MB production file: the two take about as long).
///
/// # Panics
/// Only if the hashing thread panicked, which hashing a slice cannot.
pub fn read_signed_hashed_opt(
    folder: &dyn Folder,
    name: &str,
    key: &[u8; 32],
) -> VResult<Option<(u64, Hash32)>> {
    let Some((bytes, sig)) = read_with_sig(folder, name)? else {
        return Ok(None);
    };
    let (checked, sha) = std::thread::scope(|s| {
        let h = s.spawn(|| sha256(&bytes));
        let checked = check_signature(folder, name, key, &bytes, &sig);
        (checked, h.join().expect("hashing thread"))
    });
    checked?;
    Ok(Some((bytes.len() as u64, sha)))
}

/// The bytes of `name` and of its signature `name.sig`, each within its limit (spec/formats.md
/// §1.6), or `None` when there is no file `name`; a signature that is missing or not 64 bytes is
/// `bad-signature`.
fn read_with_sig(folder: &dyn Folder, name: &str) -> VResult<Option<(Vec<u8>, Vec<u8>)>> {
    let Some(bytes) = read_bounded(folder, name, limits::of(name))? else {
        return Ok(None);
    };
    let sig_name = format!("{name}.sig");
    let sig = match read_bounded(folder, &sig_name, limits::SIG) {
        Ok(Some(s)) => s,
        Ok(None) => {
            return Err(fail(
                C::BadSignature,
                format!("{name} has no signature file {sig_name}"),
            ));
        }
        // A signature of another size is bad-signature (spec/formats.md §1.4); one that is not a regular file
        // (a FIFO, a symbolic link) stays malformed (spec/formats.md §1.6).
        Err(f) if f.class == C::Malformed && is_file(folder, &sig_name) => {
            return Err(fail(C::BadSignature, f.what));
        }
        Err(f) => return Err(f),
    };
    Ok(Some((bytes, sig)))
}

/// The signature `sig` of `name`'s `bytes` verifies under `key` (see [`read_signed_opt`] for
/// the failure's class).
fn check_signature(
    folder: &dyn Folder,
    name: &str,
    key: &[u8; 32],
    bytes: &[u8],
    sig: &[u8],
) -> VResult<()> {
    if !keys::verify(key, bytes, sig) {
        let given = keys::key_id(key);
        let named = named_result_key(bytes).filter(|n| *n != given);
        if let Some(named) = named.filter(|_| !another_verifies(folder, name, key)) {
            return Err(fail(
                C::Usage,
                format!(
                    "{name} does not verify under the result key given ({given}); it names result key {named}: these outputs are another appliance's (or were altered)"
                ),
            )
            .with_hint(format!(
                "nothing was verified: give the public keys of the appliance whose result key id is {named} (--keys DIR), obtained independently; the key given is {given}"
            )));
        }
        return Err(fail(
            C::BadSignature,
            format!("the signature of {name} does not verify under the result key {given}"),
        ));
    }
    Ok(())
}

/// Whether `name` is a regular file of `folder` (of any size).
pub(super) fn is_file(folder: &dyn Folder, name: &str) -> bool {
    matches!(folder.entry(name), super::folder::Entry::File(_))
}

/// [`read_signed_opt`] for a file that must be there (missing: `malformed`).
pub fn read_signed(folder: &dyn Folder, name: &str, key: &[u8; 32]) -> VResult<Vec<u8>> {
    read_signed_opt(folder, name, key)?
        .ok_or_else(|| fail(C::Malformed, format!("{} is missing", folder.show(name))))
}

/// Whether another signed file of the folder (of at most the minutes' size) verifies under
/// `key`: then the keys are the right ones, and the file `name` was altered.
fn another_verifies(folder: &dyn Folder, name: &str, key: &[u8; 32]) -> bool {
    let Ok(names) = folder.names() else {
        return false;
    };
    // Only the names outputs have (at most a draw's files, and a few block files), so the
    // check costs a bounded time whatever the folder holds.
    let ours = |n: &str| {
        crate::manifest::DRAW_FILES.iter().any(|(d, _)| *d == n)
            || n == crate::manifest::DRAW_FILE
            || n == crate::void_notice::FILE_NAME
            || n == crate::sitting::FILE_NAME
            || n == crate::sitting::MINUTES
            || [".commit.json", ".manifest.json", ".reveal.json"]
                .iter()
                .any(|s| n.strip_suffix(s).is_some())
    };
    names
        .iter()
        .filter(|n| *n != name && ours(n))
        .take(8)
        .any(|n| {
            let sig = format!("{n}.sig");
            matches!(folder.entry(n), super::folder::Entry::File(size) if size <= limits::MINUTES)
                && matches!(
                    (
                        read_bounded(folder, n, limits::MINUTES),
                        read_bounded(folder, &sig, limits::SIG)
                    ),
                    (Ok(Some(b)), Ok(Some(s))) if keys::verify(key, &b, &s)
                )
        })
}

/// The `result_key_id` an unverified JSON file names, if it is a JSON object naming one (only
/// to word an error: never believed).
fn named_result_key(bytes: &[u8]) -> Option<String> {
    let v: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let id = v.get("result_key_id")?.as_str()?;
    (id.len() == 16
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
    .then(|| id.to_string())
}
