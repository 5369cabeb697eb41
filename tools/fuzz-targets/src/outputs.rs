//! Target `outputs`: every output file's reader. The first byte picks the reader ([`READERS`],
//! modulo their number), the rest is the file.
//!
//! Properties: no reader panics; for the serde structs, a value parsed, written as urne writes
//! it (`to_bytes`: pretty JSON, final LF, spec/formats.md §1.5) and parsed again is the same value, and
//! writing that value again gives the same bytes. The rules files' loaders (validated types,
//! not written back) must load the same bytes the same way twice.

use serde::Serialize;
use serde::de::DeserializeOwned;
use urne_verify::audit::Event;
use urne_verify::block::files::{CommitFile, RevealFile, TicketProofFile};
use urne_verify::draw::files::{BundleFile, ProofFile, ResultFile, to_bytes};
use urne_verify::events::payloads::ExportedKeys;
use urne_verify::rules::draw::DrawRules;
use urne_verify::rules::game::GameRules;
use urne_verify::void_notice::VoidNotice;

/// A reader: it takes a file's bytes.
pub type Reader = fn(&[u8]);

/// The readers, by the name the seed corpus files start with.
pub const READERS: [(&str, Reader); 11] = [
    ("bundle", round_trip::<BundleFile>),
    ("result", round_trip::<ResultFile>),
    ("proof", round_trip::<ProofFile>),
    ("commit", round_trip::<CommitFile>),
    ("reveal", round_trip::<RevealFile>),
    ("ticket-proof", round_trip::<TicketProofFile>),
    ("void-notice", round_trip::<VoidNotice>),
    ("audit-event", round_trip::<Event>),
    ("keys", round_trip::<ExportedKeys>),
    ("game-rules", game_rules),
    ("draw-rules", draw_rules),
];

/// The selector byte of the reader named `name`.
///
/// # Panics
/// If no reader has that name.
pub fn selector(name: &str) -> u8 {
    let i = READERS
        .iter()
        .position(|(n, _)| *n == name)
        .expect("reader");
    u8::try_from(i).expect("few readers")
}

/// The target.
pub fn outputs(data: &[u8]) {
    let Some((&which, file)) = data.split_first() else {
        return;
    };
    (READERS[usize::from(which) % READERS.len()].1)(file);
}

fn round_trip<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(file: &[u8]) {
    let Ok(v) = serde_json::from_slice::<T>(file) else {
        return;
    };
    let written = to_bytes(&v);
    let again: T = serde_json::from_slice(&written).unwrap_or_else(|e| {
        panic!(
            "{}: a parsed value, written, does not parse again: {e}\n{}",
            std::any::type_name::<T>(),
            String::from_utf8_lossy(&written)
        )
    });
    assert_eq!(
        v,
        again,
        "{}: not the same value",
        std::any::type_name::<T>()
    );
    assert_eq!(to_bytes(&again), written, "written twice, other bytes");
}

fn game_rules(file: &[u8]) {
    let a = GameRules::from_json(file).map_err(|e| e.to_string());
    let b = GameRules::from_json(file).map_err(|e| e.to_string());
    assert_eq!(a.map(|r| r.sha256().0), b.map(|r| r.sha256().0));
}

fn draw_rules(file: &[u8]) {
    let a = DrawRules::from_json(file).map_err(|e| e.to_string());
    let b = DrawRules::from_json(file).map_err(|e| e.to_string());
    assert_eq!(a.map(|r| r.sha256()), b.map(|r| r.sha256()));
}
