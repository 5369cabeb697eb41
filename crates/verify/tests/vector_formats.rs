//! urne-verify's file formats against the shared test vectors (`tests/vectors`, spec/formats.md §1.5): every
//! JSON output in a vector that parses as its format (`result.json`, `bundle.json`, proofs,
//! block commitments and reveals) re-serialises to exactly its bytes, and every event of an
//! exported audit trail to exactly its line (spec/formats.md §6.4). The typed fields, `Hash32` among
//! them, write back what the files hold, in the same order and the same lowercase hex.

#![forbid(unsafe_code)]

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::Path;
use urne_verify::audit::Event;
use urne_verify::block::files::{CommitFile, RevealFile, TicketProofFile};
use urne_verify::draw::files::{BundleFile, ProofFile, ResultFile, to_bytes};

/// Every vector with a file tree, by file name.
fn vectors() -> Vec<(String, serde_json::Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors");
    let mut out = vec![];
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
        if v.get("files").is_some() {
            out.push((name, v));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Parses `text` as `T` and checks that writing it back gives the same bytes; `false` when it
/// does not parse as `T`.
fn round_trips<T: Serialize + DeserializeOwned>(name: &str, text: &str) -> bool {
    match serde_json::from_str::<T>(text) {
        Ok(v) => {
            assert_eq!(String::from_utf8(to_bytes(&v)).unwrap(), text, "{name}");
            true
        }
        Err(_) => false,
    }
}

/// Checks each line of a file of every proof of a day (spec/formats.md §4.8.1): parsed as a
/// proof and written back as `urne proof --all` writes it (compact, then LF), it is the line.
/// Returns the number of lines.
fn lines_round_trip(name: &str, text: &str) -> usize {
    let mut n = 0;
    for line in text.split_inclusive('\n') {
        let p: ProofFile = serde_json::from_str(line).unwrap();
        assert_eq!(
            String::from_utf8(urne_verify::draw::proofs::line(&p)).unwrap(),
            line,
            "{name}"
        );
        n += 1;
    }
    n
}

/// Checks each event line of an exported trail: parsed as an [`Event`] and written back as
/// `urne audit export` writes it (the event's fields, then `"type":"event"`), it is the line.
fn events_round_trip(name: &str, jsonl: &str) -> usize {
    let mut n = 0;
    for line in jsonl.lines() {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["type"] != "event" {
            continue;
        }
        v.as_object_mut().unwrap().remove("type");
        let e: Event = serde_json::from_value(v).unwrap();
        let mut back = serde_json::to_value(&e).unwrap();
        back.as_object_mut()
            .unwrap()
            .insert("type".into(), "event".into());
        assert_eq!(serde_json::to_string(&back).unwrap(), line, "{name}");
        n += 1;
    }
    n
}

/// Vectors whose outputs hold a form a verifier accepts but the appliance never writes, so
/// that they do not write back to their bytes: `history.restart` as `null` (urne leaves it out
/// when there is no restart; both mean none, spec/formats.md §6.7 [M-301]).
const NOT_WRITTEN_BY_THE_APPLIANCE: &[&str] = &["draw-v2-valid-restart-null.json"];

#[test]
fn every_output_in_the_vectors_re_serialises_to_its_bytes() {
    let (mut outputs, mut events) = (0, 0);
    for (vector, v) in vectors() {
        if NOT_WRITTEN_BY_THE_APPLIANCE.contains(&vector.as_str()) {
            continue;
        }
        for (rel, content) in v["files"].as_object().unwrap() {
            let Some(text) = content["utf8"].as_str() else {
                continue;
            };
            let name = format!("{vector}: {rel}");
            let file = rel.rsplit('/').next().unwrap();
            let parsed = match file {
                "result.json" => round_trips::<ResultFile>(&name, text),
                "bundle.json" => round_trips::<BundleFile>(&name, text),
                // One line of `urne proof --all` saved alone (spec/formats.md §4.8.1): compact.
                "proof.json" if text.lines().count() == 1 => lines_round_trip(&name, text) == 1,
                "proof.json" => {
                    round_trips::<ProofFile>(&name, text)
                        || round_trips::<TicketProofFile>(&name, text)
                }
                f if Path::new(f).extension().is_some_and(|x| x == "jsonl")
                    && text.starts_with(r#"{"format":"urne-inclusion-proof""#) =>
                {
                    outputs += lines_round_trip(&name, text);
                    continue;
                }
                f if f.ends_with(".commit.json") => round_trips::<CommitFile>(&name, text),
                f if f.ends_with(".reveal.json") => round_trips::<RevealFile>(&name, text),
                f if Path::new(f).extension().is_some_and(|x| x == "jsonl")
                    && v["expect"] != "malformed" =>
                {
                    events += events_round_trip(&name, text);
                    continue;
                }
                _ => continue,
            };
            // Only a vector made to be malformed may hold an output that does not parse.
            assert!(
                parsed || v["expect"] == "malformed",
                "{name} does not parse"
            );
            outputs += usize::from(parsed);
        }
    }
    assert!(outputs >= 90, "only {outputs} outputs checked");
    assert!(events >= 30, "only {events} events checked");
}
