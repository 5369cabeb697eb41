//! The exported audit trail (`urne audit export`, spec/formats.md §6.4), parsed strictly: JSON Lines,
//! each line ending in LF; one `{"type":"event", seq, ts, kind, payload, prev_hash, hash}` per
//! event, then one `{"type":"checkpoint", size, note}` per stored checkpoint. A line that does
//! not parse, has a duplicate key, an unknown field or type, or misses a field is `malformed`;
//! so is an event after the checkpoints. The chain and the checkpoints are then checked by
//! [`super::trail::verify_trail`], exactly as for the appliance's database.

use super::trail::{AuditKey, TrailFailure, TrailReport, verify_trail};
use super::{FailureClass, VResult, fail};
use crate::audit::Event;
use crate::crypto::Hash32;
use crate::events::kinds::Kind;
use crate::software::{SoftwareIdentity, Started};
use std::path::PathBuf;

/// An exported trail: its events in file order and its stored checkpoints `(size, note)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrailExport {
    /// The events, in the order of the file.
    pub events: Vec<Event>,
    /// The checkpoints, in the order of the file: `size` as the line gives it, and the note.
    pub checkpoints: Vec<(u64, String)>,
}

/// One line, every field of either type optional; which ones are required depends on `type`.
/// Unknown fields and duplicate keys are refused by the parser.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    #[serde(rename = "type")]
    tag: String,
    seq: Option<u64>,
    ts: Option<String>,
    kind: Option<String>,
    payload: Option<String>,
    prev_hash: Option<Hash32>,
    hash: Option<Hash32>,
    size: Option<u64>,
    note: Option<String>,
}

fn required<T>(v: Option<T>, field: &str, at: &str) -> VResult<T> {
    v.ok_or_else(|| {
        fail(
            FailureClass::Malformed,
            format!("{at}: missing field `{field}`"),
        )
    })
}

fn event(l: Line, at: &str) -> VResult<Event> {
    if l.size.is_some() || l.note.is_some() {
        return Err(fail(
            FailureClass::Malformed,
            format!("{at}: an event line with a checkpoint field"),
        ));
    }
    Ok(Event {
        seq: required(l.seq, "seq", at)?,
        ts: required(l.ts, "ts", at)?,
        kind: required(l.kind, "kind", at)?,
        payload: required(l.payload, "payload", at)?,
        prev_hash: required(l.prev_hash, "prev_hash", at)?,
        hash: required(l.hash, "hash", at)?,
    })
}

fn checkpoint(l: Line, at: &str) -> VResult<(u64, String)> {
    if l.seq.is_some()
        || l.ts.is_some()
        || l.kind.is_some()
        || l.payload.is_some()
        || l.prev_hash.is_some()
        || l.hash.is_some()
    {
        return Err(fail(
            FailureClass::Malformed,
            format!("{at}: a checkpoint line with an event field"),
        ));
    }
    Ok((required(l.size, "size", at)?, required(l.note, "note", at)?))
}

/// The longest line of an exported trail, its LF excluded (spec/formats.md §1.6).
pub const MAX_LINE: usize = 1_048_576;

/// Parses an exported trail (spec/formats.md §6.4). `name` names the file in messages.
///
/// # Errors
///
/// A `malformed` [`super::Failure`] naming the first line that does not parse.
pub fn parse_trail_export(name: &str, bytes: &[u8]) -> VResult<TrailExport> {
    if !bytes.is_empty() && !bytes.ends_with(b"\n") {
        return Err(fail(
            FailureClass::Malformed,
            format!("{name}: the last line does not end in LF"),
        ));
    }
    let mut out = TrailExport {
        events: vec![],
        checkpoints: vec![],
    };
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let no_event = || {
        fail(
            FailureClass::Malformed,
            format!(
                "{name}: holds no event: an audit trail begins with its first event, so an export of one is never empty (spec/formats.md §6.4)"
            ),
        )
    };
    if bytes.is_empty() {
        return Err(no_event());
    }
    for (i, raw) in body.split(|&b| b == b'\n').enumerate() {
        let at = format!("{name} line {}", i + 1);
        if raw.len() > MAX_LINE {
            return Err(fail(
                FailureClass::Malformed,
                format!("{at}: longer than {MAX_LINE} bytes (spec/formats.md §1.6)"),
            ));
        }
        let l: Line = serde_json::from_slice(raw)
            .map_err(|e| fail(FailureClass::Malformed, format!("{at}: {e}")))?;
        match l.tag.as_str() {
            "event" if out.checkpoints.is_empty() => out.events.push(event(l, &at)?),
            "event" => {
                return Err(fail(
                    FailureClass::Malformed,
                    format!("{at}: an event after the checkpoints"),
                ));
            }
            "checkpoint" => out.checkpoints.push(checkpoint(l, &at)?),
            other => {
                return Err(fail(
                    FailureClass::Malformed,
                    format!("{at}: unknown type {other:?} (neither an event nor a checkpoint)"),
                ));
            }
        }
    }
    if out.events.is_empty() {
        return Err(no_event());
    }
    Ok(out)
}

/// Verifies an exported trail file's bytes (spec/formats.md §6.4): parses it strictly, then checks the chain,
/// the key and every stored and `held` checkpoint as [`verify_trail`] does; with `strict`, events
/// after the last checkpoint are a failure too.
///
/// # Errors
///
/// The first [`super::Failure`], with its class (`malformed`, `inconsistent`, `bad-signature`).
pub fn verify_trail_export(
    name: &str,
    bytes: &[u8],
    held: &[(PathBuf, String)],
    audit_key: AuditKey,
    strict: bool,
) -> VResult<TrailReport> {
    let t = parse_trail_export(name, bytes)?;
    let mut report = verify_trail(&t.events, &t.checkpoints, held, audit_key)
        .map_err(TrailFailure::into_failure)?;
    if strict {
        report.check_strict().map_err(TrailFailure::into_failure)?;
    }
    report.software = software_started(&t.events);
    Ok(report)
}

/// The software records of the `software.start` events of `events`, in order (spec/formats.md
/// §6.2, §8.8): a payload that does not parse is kept as the parser's words, which only a
/// release's check reads (an exported trail's payloads are otherwise not parsed, §6.4).
fn software_started(events: &[Event]) -> Vec<Started> {
    events
        .iter()
        .filter(|e| e.kind == Kind::SoftwareStart.name())
        .map(|e| Started {
            seq: e.seq,
            software: serde_json::from_str::<Stating>(&e.payload)
                .map(|p| p.software)
                .map_err(|err| err.to_string()),
        })
        .collect()
}

/// What a release's check reads of a `software.start` payload: its `software`, the object of
/// spec/formats.md §4.7 parsed strictly; its other members are not read (spec/formats.md §8.8).
#[derive(serde::Deserialize)]
struct Stating {
    software: SoftwareIdentity,
}

#[cfg(test)]
mod tests {
    use super::*;

    const EV: &str = r#"{"type":"event","seq":1,"ts":"t","kind":"k","payload":"{}","prev_hash":"0000000000000000000000000000000000000000000000000000000000000000","hash":"0000000000000000000000000000000000000000000000000000000000000000"}"#;

    fn class(text: &str) -> FailureClass {
        parse_trail_export("a", text.as_bytes()).unwrap_err().class
    }

    #[test]
    fn a_well_formed_export_parses() {
        let t = format!("{EV}\n{}\n", r#"{"type":"checkpoint","size":1,"note":"n"}"#);
        let x = parse_trail_export("a", t.as_bytes()).unwrap();
        assert_eq!((x.events.len(), x.checkpoints.len()), (1, 1));
        // No event: an empty file, or checkpoints alone [M-261].
        for empty in ["", "{\"type\":\"checkpoint\",\"size\":1,\"note\":\"n\"}\n"] {
            let e = parse_trail_export("a", empty.as_bytes()).unwrap_err();
            assert_eq!(e.class, FailureClass::Malformed);
            assert!(e.what.contains("holds no event"), "{}", e.what);
        }
    }

    #[test]
    fn an_event_line_with_either_checkpoint_field_is_malformed() {
        for field in [r#","size":1}"#, r#","note":"n"}"#] {
            let line = format!("{}{field}\n", &EV[..EV.len() - 1]);
            let e = parse_trail_export("a", line.as_bytes()).unwrap_err();
            assert_eq!(e.class, FailureClass::Malformed, "{field}");
            assert!(e.what.contains("with a checkpoint field"), "{}", e.what);
        }
    }

    #[test]
    fn every_deviation_is_malformed() {
        let m = FailureClass::Malformed;
        assert_eq!(class(EV), m, "no final LF");
        assert_eq!(class(&format!("{EV}\n\n")), m, "empty line");
        assert_eq!(
            class(&format!(
                "{}\n",
                EV.replace("\"seq\":1", "\"seq\":1,\"seq\":1")
            )),
            m
        );
        assert_eq!(class(&format!("{}\n", EV.replace("\"ts\":\"t\",", ""))), m);
        assert_eq!(
            class(&format!("{}\n", EV.replace("\"ts\"", "\"extra\":1,\"ts\""))),
            m
        );
        assert_eq!(
            class(&format!("{}\n", EV.replace("\"event\"", "\"other\""))),
            m
        );
        assert_eq!(class(&format!("{}\n", EV.replace("0000\"", "000A\""))), m);
        let cp = r#"{"type":"checkpoint","size":1,"note":"n"}"#;
        assert_eq!(
            class(&format!("{cp}\n{EV}\n")),
            m,
            "event after checkpoints"
        );
        assert_eq!(
            class(&format!("{}\n", cp.replace("\"size\":1", "\"seq\":1"))),
            m
        );
    }
}
