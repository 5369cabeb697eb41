//! Every payload type serialises to exactly the bytes the appliance's `json!` payloads stored
//! before the registry (the literal texts below), and every kind round-trips through [`parse`].

use super::*;
use crate::crypto::Hash32;
use crate::events::payloads::{
    ExportedKey, ExportedKeys, KeyRecord, KeyRole, SealKeyRecord, TokenRecord,
};
use crate::software::{MappedObject, MappedStatus, Pkcs11Identity, Pkcs11Token, SoftwareIdentity};
use serde_json::json;

const H0: &str = "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d";
const H1: &str = "4bf5122f344554c53bde2ebb8cd2b7e3d1600ad631c385a5d7cce23c7785459a";

fn h(hex: &str) -> Hash32 {
    Hash32::from_hex(hex).unwrap()
}

fn event(seq: u64, kind: &str, payload: &str) -> Event {
    Event {
        seq,
        ts: "2018-12-05T09:00:00.000000Z".into(),
        kind: kind.into(),
        payload: payload.into(),
        prev_hash: Hash32::ZERO,
        hash: Hash32::ZERO,
    }
}

/// `r`'s payload is exactly `expected`, which is what the old `json!` value `old` stored, and
/// the event of that payload parses back to `r`.
fn same_bytes(r: impl Into<Record>, expected: &str, old: &serde_json::Value) {
    let r = r.into();
    assert_eq!(r.payload(), expected, "{}", r.kind());
    assert_eq!(
        serde_json::to_string(old).unwrap(),
        expected,
        "{}",
        r.kind()
    );
    let back = parse(&event(1, r.kind().name(), expected)).unwrap();
    assert_eq!(back, r);
}

fn software() -> SoftwareIdentity {
    SoftwareIdentity {
        name: "urne".into(),
        version: "0.1.0".into(),
        source_revision: "unknown".into(),
        executable_sha256: h(H0),
    }
}

fn pkcs11() -> Pkcs11Identity {
    Pkcs11Identity {
        module_path: "/usr/lib/softhsm/libsofthsm2.so".into(),
        module_sha256: h(H1),
        manufacturer: "SoftHSM".into(),
        library: "Implementation of PKCS11".into(),
        library_version: "2.6".into(),
        cryptoki_version: "2.40".into(),
        token: Pkcs11Token {
            label: "urne".into(),
            manufacturer: "SoftHSM project".into(),
            model: "SoftHSM v2".into(),
            serial: "2b9a1e0c5d3f4a71".into(),
            firmware: "2.6".into(),
        },
        mapped: vec![
            MappedObject {
                path: "/memfd:x".into(),
                status: MappedStatus::Deleted,
                sha256: None,
            },
            MappedObject {
                path: "/usr/lib/softhsm/libsofthsm2.so".into(),
                status: MappedStatus::Present,
                sha256: Some(h(H1)),
            },
        ],
    }
}

#[test]
fn software_start_command_failed_input_rejected_keep_their_bytes() {
    let sw = software();
    let p = pkcs11();
    same_bytes(
        SoftwareStart {
            command: "block generate".into(),
            software: sw.clone(),
            pkcs11: p.clone(),
        },
        &format!(
            concat!(
                r#"{{"command":"block generate","software":{{"name":"urne","version":"0.1.0","source_revision":"unknown","executable_sha256":"{H0}"}},"#,
                r#""pkcs11":{{"module_path":"/usr/lib/softhsm/libsofthsm2.so","module_sha256":"{H1}","manufacturer":"SoftHSM","library":"Implementation of PKCS11","library_version":"2.6","cryptoki_version":"2.40","#,
                r#""token":{{"label":"urne","manufacturer":"SoftHSM project","model":"SoftHSM v2","serial":"2b9a1e0c5d3f4a71","firmware":"2.6"}},"#,
                r#""mapped":[{{"path":"/memfd:x","status":"deleted","sha256":null}},{{"path":"/usr/lib/softhsm/libsofthsm2.so","status":"present","sha256":"{H1}"}}]}}}}"#
            ),
            H0 = H0,
            H1 = H1
        ),
        &json!({ "command": "block generate", "software": sw, "pkcs11": p }),
    );
    same_bytes(
        CommandFailed {
            command: "draw".into(),
            class: "refused".into(),
            error: "day 2018-12-01 is not sealed \"é\"".into(),
        },
        r#"{"command":"draw","class":"refused","error":"day 2018-12-01 is not sealed \"é\""}"#,
        &json!({ "command": "draw", "class": "refused", "error": "day 2018-12-01 is not sealed \"é\"" }),
    );
    for sha in [Some(h(H1)), None] {
        let text = match sha {
            Some(_) => format!(r#"{{"file":"e.jsonl","sha256":"{H1}","reason":"bad"}}"#),
            None => r#"{"file":"e.jsonl","sha256":null,"reason":"bad"}"#.to_string(),
        };
        same_bytes(
            InputRejected {
                file: "e.jsonl".into(),
                sha256: sha,
                reason: "bad".into(),
            },
            &text,
            &json!({ "file": "e.jsonl", "sha256": sha, "reason": "bad" }),
        );
    }
}

fn key(role: KeyRole) -> KeyRecord {
    KeyRecord {
        role,
        label: format!("urne-{}", role.name()),
        key_id: "a85e805b452ccee7".parse().unwrap(),
        public_key: h(H1),
        local: true,
        never_extractable: true,
        always_sensitive: true,
        sensitive: true,
        extractable: false,
    }
}

#[test]
fn keys_records_keep_their_bytes() {
    let token = TokenRecord {
        module: "/usr/lib/softhsm/libsofthsm2.so".into(),
        library: "Implementation of PKCS11 (SoftHSM)".into(),
        library_version: "2.6".into(),
        cryptoki_version: "2.40".into(),
        token_label: "urne".into(),
        manufacturer: "SoftHSM project".into(),
        model: "SoftHSM v2".into(),
        serial: "1234".into(),
    };
    let keys = vec![key(KeyRole::Result), key(KeyRole::Audit)];
    let k = |role: &str| {
        format!(
            r#"{{"role":"{role}","label":"urne-{role}","key_id":"a85e805b452ccee7","public_key":"{H1}","local":true,"never_extractable":true,"always_sensitive":true,"sensitive":true,"extractable":false}}"#
        )
    };
    let old_key = |role: &str| {
        json!({"role": role, "label": format!("urne-{role}"), "key_id": "a85e805b452ccee7",
            "public_key": H1, "local": true, "never_extractable": true,
            "always_sensitive": true, "sensitive": true, "extractable": false})
    };
    // A trail initialised before the sealing key existed: no `seal_key` member, same bytes.
    same_bytes(
        KeysGenerated {
            token: token.clone(),
            keys: keys.clone(),
            seal_key: None,
        },
        &format!(
            r#"{{"token":{{"module":"/usr/lib/softhsm/libsofthsm2.so","library":"Implementation of PKCS11 (SoftHSM)","library_version":"2.6","cryptoki_version":"2.40","token_label":"urne","manufacturer":"SoftHSM project","model":"SoftHSM v2","serial":"1234"}},"keys":[{},{}]}}"#,
            k("result"),
            k("audit")
        ),
        &json!({ "token": token, "keys": [old_key("result"), old_key("audit")] }),
    );
    let ek = |role: &str| ExportedKey {
        file: format!("{role}.pub.pem"),
        key_id: "a85e805b452ccee7".parse().unwrap(),
        public_key: h(H0),
        label: format!("urne-{role}"),
        hardware_bound: true,
    };
    let old_ek = |role: &str| {
        json!({"file": format!("{role}.pub.pem"), "key_id": "a85e805b452ccee7",
            "public_key": H0, "label": format!("urne-{role}"), "hardware_bound": true})
    };
    let listing = ExportedKeys {
        result: ek("result"),
        audit: ek("audit"),
    };
    let mut old_listing = serde_json::Map::new();
    old_listing.insert("result".into(), old_ek("result"));
    old_listing.insert("audit".into(), old_ek("audit"));
    let old_listing = serde_json::Value::Object(old_listing);
    // keys.json is the same object, pretty-printed: the same bytes too.
    assert_eq!(
        serde_json::to_string_pretty(&listing).unwrap(),
        serde_json::to_string_pretty(&old_listing).unwrap()
    );
    same_bytes(
        KeysExported {
            out: "keys".into(),
            keys: listing,
        },
        &format!(
            r#"{{"out":"keys","keys":{{"result":{{"file":"result.pub.pem","key_id":"a85e805b452ccee7","public_key":"{H0}","label":"urne-result","hardware_bound":true}},"audit":{{"file":"audit.pub.pem","key_id":"a85e805b452ccee7","public_key":"{H0}","label":"urne-audit","hardware_bound":true}}}}}}"#
        ),
        &json!({ "out": "keys", "keys": old_listing }),
    );
}

#[test]
fn keys_generated_with_the_sealing_key_keeps_its_bytes() {
    let token = TokenRecord {
        module: "/usr/lib/softhsm/libsofthsm2.so".into(),
        library: "SoftHSM".into(),
        library_version: "2.6".into(),
        cryptoki_version: "2.40".into(),
        token_label: "urne".into(),
        manufacturer: "SoftHSM project".into(),
        model: "SoftHSM v2".into(),
        serial: "1234".into(),
    };
    let keys = vec![key(KeyRole::Result), key(KeyRole::Audit)];
    let old_key = |role: &str| {
        json!({"role": role, "label": format!("urne-{role}"), "key_id": "a85e805b452ccee7",
            "public_key": H1, "local": true, "never_extractable": true,
            "always_sensitive": true, "sensitive": true, "extractable": false})
    };
    // The sealing key (spec/appliance.md §6.9), its member last.
    let seal_key = SealKeyRecord {
        label: "urne-seal".into(),
        key_id: "0011223344556677".parse().unwrap(),
        key_type: "AES".into(),
        value_len: 32,
        local: true,
        never_extractable: true,
        always_sensitive: true,
        sensitive: true,
        extractable: false,
        encrypt: true,
        decrypt: true,
        wrap: false,
        unwrap: false,
        modifiable: false,
        destroyable: false,
        allowed_mechanisms: vec!["CKM_AES_GCM".into()],
    };
    assert!(seal_key.is_sound());
    let old_seal = json!({"label": "urne-seal", "key_id": "0011223344556677", "key_type": "AES",
        "value_len": 32, "local": true, "never_extractable": true, "always_sensitive": true,
        "sensitive": true, "extractable": false, "encrypt": true, "decrypt": true, "wrap": false,
        "unwrap": false, "modifiable": false, "destroyable": false,
        "allowed_mechanisms": ["CKM_AES_GCM"]});
    let with_seal = json!({ "token": token, "keys": [old_key("result"), old_key("audit")],
        "seal_key": old_seal });
    same_bytes(
        KeysGenerated {
            token,
            keys,
            seal_key: Some(seal_key.clone()),
        },
        &serde_json::to_string(&with_seal).unwrap(),
        &with_seal,
    );
    let weak = SealKeyRecord {
        extractable: true,
        ..seal_key.clone()
    };
    assert!(!weak.is_sound());
    assert!(
        !SealKeyRecord {
            allowed_mechanisms: vec![],
            ..seal_key
        }
        .is_sound()
    );
}

#[test]
fn draw_late_proof_void_published_keep_their_bytes() {
    same_bytes(
        draw::LateRecord {
            day: "2018-12-01".parse().unwrap(),
            attempt: crate::values::Attempt::new(1).unwrap(),
            draw_date: "2018-12-02".into(),
            today: "2018-12-20".into(),
        },
        r#"{"day":"2018-12-01","attempt":1,"draw_date":"2018-12-02","today":"2018-12-20"}"#,
        &json!({"day": "2018-12-01", "attempt": 1u32, "draw_date": "2018-12-02", "today": "2018-12-20"}),
    );
    same_bytes(
        draw::ProofRecord {
            day: "2018-12-01".parse().unwrap(),
            attempt: crate::values::Attempt::new(2).unwrap(),
            pseudonym: h(H0),
            file_sha256: h(H1),
        },
        &format!(r#"{{"day":"2018-12-01","attempt":2,"pseudonym":"{H0}","file_sha256":"{H1}"}}"#),
        &json!({"day": "2018-12-01", "attempt": 2u32, "pseudonym": h(H0), "file_sha256": H1}),
    );
    same_bytes(
        block::ProofRecord {
            block: "noel-de-la-chance-2015/100/e1/1".parse().unwrap(),
            position: 7,
            file_sha256: h(H1),
        },
        &format!(
            r#"{{"block":"noel-de-la-chance-2015/100/e1/1","position":7,"file_sha256":"{H1}"}}"#
        ),
        &json!({"block": "noel-de-la-chance-2015/100/e1/1", "position": 7u32, "file_sha256": H1}),
    );
    same_bytes(
        draw::VoidRecord {
            day: "2018-12-01".parse().unwrap(),
            attempt: crate::values::Attempt::new(1).unwrap(),
            reason: "export incomplete".into(),
            stage: "sealed".into(),
        },
        r#"{"day":"2018-12-01","attempt":1,"reason":"export incomplete","stage":"sealed"}"#,
        &json!({"day": "2018-12-01", "attempt": 1u32, "reason": "export incomplete", "stage": "sealed"}),
    );
    let files: std::collections::BTreeMap<String, Hash32> = [
        ("result.json".to_string(), h(H1)),
        ("bundle.json".to_string(), h(H0)),
    ]
    .into();
    same_bytes(
        draw::PublishedRecord {
            day: "2018-12-01".parse().unwrap(),
            attempt: crate::values::Attempt::new(1).unwrap(),
            out: "out".into(),
            files: files.clone(),
            output: None,
        },
        &format!(
            r#"{{"day":"2018-12-01","attempt":1,"out":"out","files":{{"bundle.json":"{H0}","result.json":"{H1}"}}}}"#
        ),
        &json!({"day": "2018-12-01", "attempt": 1u32, "out": "out", "files": files}),
    );
}

#[test]
fn an_output_placing_names_its_folder_its_subject_typed_and_its_files() {
    use crate::audit::history::{OutputPlacing, Subject};
    let files: std::collections::BTreeMap<String, Hash32> =
        [("bundle.json".to_string(), h(H0))].into();
    for (subject, text) in [
        (
            Subject::Draw {
                day: "2018-12-01".parse().unwrap(),
                attempt: crate::values::Attempt::new(2).unwrap(),
            },
            r#"{"draw":{"day":"2018-12-01","attempt":2}}"#,
        ),
        (
            Subject::Block {
                block: "g/100/e1/1".parse().unwrap(),
                attempt: crate::values::Attempt::new(1).unwrap(),
            },
            r#"{"block":{"block":"g/100/e1/1","attempt":1}}"#,
        ),
        (
            Subject::Reveal {
                block: "g/100/e1/1".parse().unwrap(),
                attempt: crate::values::Attempt::new(1).unwrap(),
            },
            r#"{"reveal":{"block":"g/100/e1/1","attempt":1}}"#,
        ),
        (
            Subject::VoidNotice { void_seq: 7 },
            r#"{"void_notice":{"void_seq":7}}"#,
        ),
        (
            Subject::Sitting { number: 3 },
            r#"{"sitting":{"number":3}}"#,
        ),
    ] {
        let r = OutputPlacing {
            out: "out".into(),
            file: "bundle.json".into(),
            subject,
            files: files.clone(),
        };
        let expected = format!(
            r#"{{"out":"out","file":"bundle.json","subject":{text},"files":{{"bundle.json":"{H0}"}}}}"#
        );
        let back = parse(&event(1, "output.placing", &expected)).unwrap();
        assert_eq!(back, Record::OutputPlacing(r.clone()));
        assert_eq!(Record::from(r).payload(), expected);
    }
    for bad in [
        r#"{"out":"o","file":"f","subject":{"draw":{"day":"d"}},"files":{}}"#,
        r#"{"out":"o","file":"f","subject":{"draw":{"day":"d","attempt":1,"x":1}},"files":{}}"#,
        r#"{"out":"o","file":"f","subject":{"other":{}},"files":{}}"#,
        r#"{"out":"o","file":"f","subject":{"sitting":{"number":1}}}"#,
    ] {
        assert!(parse(&event(1, "output.placing", bad)).is_err(), "{bad}");
    }
}

#[test]
fn every_kind_has_one_name() {
    let mut names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(names.len(), 32);
    for k in Kind::ALL {
        assert_eq!(Kind::from_name(k.name()), Some(*k));
    }
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), Kind::ALL.len());
}

#[test]
fn an_unknown_kind_or_a_payload_that_does_not_parse_is_an_error() {
    let e = parse(&event(4, "draw.unknown", "{}")).unwrap_err();
    assert_eq!((e.seq, e.kind.as_str()), (4, "draw.unknown"));
    assert_eq!(
        e.to_string(),
        "audit event 4 (draw.unknown) is not a well-formed record: unknown event kind"
    );
    for (kind, payload) in [
        ("software.start", "not json"),
        ("software.start", r#"{"command":"seal"}"#),
        // Version 2's software.start names the code that answered for the HSM.
        (
            "software.start",
            &format!(
                r#"{{"command":"seal","software":{{"name":"urne","version":"0.1.0","source_revision":"unknown","executable_sha256":"{H0}"}}}}"#
            ),
        ),
        (
            "command.failed",
            r#"{"command":"seal","class":"refused","error":"x","extra":1}"#,
        ),
        (
            "input.rejected",
            r#"{"file":"f","sha256":"AB","reason":"r"}"#,
        ),
        (
            "draw.proof",
            r#"{"day":"d","attempt":-1,"pseudonym":"","file_sha256":""}"#,
        ),
        ("block.proof", "null"),
    ] {
        let e = parse(&event(9, kind, payload)).unwrap_err();
        assert_eq!((e.seq, e.kind.as_str()), (9, kind), "{e}");
    }
}

#[test]
fn only_the_seal_and_the_entropies_name_blobs_and_a_reader_of_blobs_parses_only_them() {
    // A reader that needs only the blobs a trail names (the appliance's check of a trail its
    // token marked, spec/appliance.md §6.6 [M-136]) parses only these kinds' events.
    let naming: Vec<Kind> = Kind::ALL
        .iter()
        .copied()
        .filter(|k| k.names_blobs())
        .collect();
    assert_eq!(
        naming,
        [Kind::DrawSeal, Kind::DrawEntropy, Kind::BlockEntropy]
    );
    let e = event(
        9,
        "draw.entropy",
        &serde_json::json!({"operation": "chanceux-noel-2018", "day": "2018-12-09",
            "attempt": 1, "commitment_root": "00".repeat(32),
            "entropy_commitment": "ab".repeat(32), "entropy_blob": "cd".repeat(32)})
        .to_string(),
    );
    let r = parse(&e).unwrap();
    assert_eq!(r.blobs(), [h(&"cd".repeat(32))]);
}
