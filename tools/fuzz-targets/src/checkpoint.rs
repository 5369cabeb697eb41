//! Target `checkpoint`: the checkpoint note parser, `urne_verify::audit::chain::verify_note`
//! (spec/formats.md §6.3, a C2SP tlog-checkpoint signed note).
//!
//! Input: a mode byte, then text. Mode even: the text is a note body (and, after a 0x00 byte,
//! more signature lines); the target signs the body with the test audit key and builds the
//! note `body || "\n" || "— urne-audit/<id> <base64(key hash || signature)>\n" || more`, so the
//! parser goes past the signature check whatever the body says. Mode odd: the text is the whole
//! note, as it is (signatures that verify are then out of reach; the parse is not).
//!
//! Property (strict C2SP and spec/formats.md §6.3): a note that verifies has exactly the body urne
//! writes for the size and root it returned, `urne-audit/<id>\n<n>\n<base64 root>\n`: its size
//! is decimal without sign or leading zeros (`+5`, `007` are not sizes), its lines end in LF
//! alone, the root is canonical base64, and there is no fourth line.

use crate::keys;
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use urne_verify::audit::chain::{checkpoint_body, note_key_id, origin, verify_note};

/// The signed note for `body` (as [`urne_verify::audit::chain::signed_note`] writes it) followed
/// by `more`.
pub fn signed(body: &str, more: &str) -> String {
    let k = keys::audit();
    let pk = keys::public(k);
    let name = origin(&pk);
    let mut blob = note_key_id(&name, &pk).to_vec();
    blob.extend_from_slice(&keys::sign(k, body.as_bytes()));
    format!("{body}\n\u{2014} {name} {}\n{more}", B64.encode(blob))
}

/// The target.
///
/// # Panics
/// When the parser accepts a note whose body is not the canonical one for what it returned.
pub fn checkpoint(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let note = if mode % 2 == 0 {
        let (body, tail) = text.split_once('\0').unwrap_or((text, ""));
        signed(body, tail)
    } else {
        text.to_string()
    };
    let pk = keys::public(keys::audit());
    let Ok(cp) = verify_note(&note, &pk) else {
        return;
    };
    let (body, _) = note
        .split_once("\n\n")
        .expect("a note that verifies has a blank line");
    let canonical = checkpoint_body(&pk, cp.size, &cp.root);
    assert_eq!(
        format!("{body}\n"),
        canonical,
        "verify_note accepted a checkpoint body that is not the canonical one for size {} \
         (spec/formats.md §6.3: <n> decimal without leading zeros, three lines ended by LF)",
        cp.size
    );
}
