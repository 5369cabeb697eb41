//! What the verification tests build their folders with: a shared vector's file tree in memory
//! (`tests_vectors`), a JSON file of it changed and re-signed with the vectors' own test keys
//! (`verifier/make_vectors.py`: `sha256("urne test vector key: NAME")`), and the verification
//! of its draw folder as `urne verify DIR --keys keys` runs it.

use super::folder::MemFolder;
use super::signed::{self, Keys};
use super::tests_vectors::{at, tree, vector};
use super::{Report, VResult};
use ed25519_dalek::Signer;

/// The vectors' test key `name` (`result`, `audit`, `producer`).
pub(crate) fn key(name: &str) -> ed25519_dalek::SigningKey {
    let seed = crate::crypto::sha256(format!("urne test vector key: {name}").as_bytes());
    ed25519_dalek::SigningKey::from_bytes(&seed.0)
}

/// The tree of the vector `name`.
pub(crate) fn load(name: &str) -> MemFolder {
    tree(&vector(name))
}

/// The keys of the tree's `keys` folder.
pub(crate) fn keys(root: &MemFolder) -> Keys {
    signed::load_keys(at(root, "keys")).unwrap()
}

/// The subfolder `dir` of `root`, to change.
pub(crate) fn dir<'a>(root: &'a mut MemFolder, dir: &str) -> &'a mut MemFolder {
    root.folders.get_mut(dir).unwrap()
}

/// Replaces the file `name` of `f` by `bytes`, signed by the result key.
pub(crate) fn put_signed(f: &mut MemFolder, name: &str, bytes: Vec<u8>) {
    let sig = key("result").sign(&bytes).to_bytes().to_vec();
    f.files.insert(name.into(), bytes);
    f.files.insert(format!("{name}.sig"), sig);
}

/// The JSON file `name` of `f` as a value.
pub(crate) fn json(f: &MemFolder, name: &str) -> serde_json::Value {
    serde_json::from_slice(&f.files[name]).unwrap()
}

/// Changes the JSON file `name` of `f` with `edit`, writes it as urne does (two-space indent,
/// final LF, spec/formats.md §1.5) and re-signs it.
pub(crate) fn edit(f: &mut MemFolder, name: &str, edit: impl FnOnce(&mut serde_json::Value)) {
    let mut v = json(f, name);
    edit(&mut v);
    let mut bytes = serde_json::to_vec_pretty(&v).unwrap();
    bytes.push(b'\n');
    put_signed(f, name, bytes);
}

/// `urne verify draw --keys keys` on the tree.
pub(crate) fn verify_draw(root: &MemFolder) -> VResult<Report> {
    super::draw_folder::verify_draw_folder(at(root, "draw"), &keys(root), None)
}
