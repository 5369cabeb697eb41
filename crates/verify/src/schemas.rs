//! The published JSON Schemas of the output formats (schemas/*.schema.json, draft 2020-12),
//! generated from the formats' types with schemars (issue 27, item 1): a type changed without its
//! schema fails `the_committed_schemas_are_the_generated_ones`; `scripts/schemas` writes them
//! again (the ignored test `write_the_schemas`). Tests only: the library does not depend on
//! schemars.

use std::path::PathBuf;

#[expect(
    clippy::too_many_lines,
    reason = "one table: every format's schema, its constant and its versions' members"
)]
/// Each schema's name (its file is schemas/NAME.schema.json, its `$id` `urn:urne:schema:NAME`)
/// and its generated text.
fn generated() -> Vec<(&'static str, String)> {
    use crate::block::files as block;
    use crate::draw::files as draw;
    // The members of one version only (spec/formats.md §4.7, §5.B9, §7): a version-1 draw has
    // `witness`, a version-2 one the rest; `unofficial_rules` is version 2's under unofficial
    // rules only (§7.4).
    const DRAW_V2: &[&str] = &[
        "entropy_commitment",
        "contribution",
        "entropy_refused",
        "fixed",
        "history",
        "pkcs11",
    ];
    let draw = Versions {
        numbers: &[1, 2],
        v1: &["witness"],
        v2: DRAW_V2,
        v2_optional: &["unofficial_rules"],
    };
    let commitment = Versions {
        numbers: &[1, 2],
        v1: &[],
        v2: DRAW_V2,
        v2_optional: &["unofficial_rules"],
    };
    let reveal = Versions {
        numbers: &[1, 2],
        v1: &[],
        v2: &["sales_closed_at", "history"],
        v2_optional: &["unofficial_rules"],
    };
    let one = |n: u32| Versions::only(n);
    vec![
        output(
            "result",
            written::<draw::ResultFile>(),
            Some(draw::RESULT_FORMAT),
            &draw,
        ),
        output(
            "bundle",
            written::<draw::BundleFile>(),
            Some(draw::BUNDLE_FORMAT),
            &draw,
        ),
        output(
            "inclusion-proof",
            read::<draw::ProofFile>(),
            Some(draw::PROOF_FORMAT),
            &one(1),
        ),
        output(
            "block-commitment",
            read::<block::CommitFile>(),
            Some(block::COMMIT_FORMAT),
            &commitment,
        ),
        output(
            "block-reveal",
            read::<block::RevealFile>(),
            Some(block::REVEAL_FORMAT),
            &reveal,
        ),
        output(
            "ticket-proof",
            read::<block::TicketProofFile>(),
            Some(block::TICKET_PROOF_FORMAT),
            &one(1),
        ),
        output(
            "manifest",
            read::<crate::manifest::Manifest>(),
            Some(crate::manifest::FORMAT),
            &one(2),
        ),
        output(
            "void-notice",
            read::<crate::void_notice::VoidNotice>(),
            Some(crate::void_notice::FORMAT),
            &one(2),
        ),
        output(
            "sitting",
            read::<crate::sitting::SittingFile>(),
            Some(crate::sitting::FORMAT),
            &one(2),
        ),
        (
            "keys",
            text("keys", read::<crate::events::payloads::ExportedKeys>()),
        ),
        (
            "draw-rules",
            text("draw-rules", crate::rules::draw::json_schema()),
        ),
        output(
            "game-rules",
            crate::rules::game::json_schema(),
            Some(crate::rules::game::FORMAT),
            &one(0),
        ),
    ]
}

/// Which versions of a format there are, and the members of one version only.
struct Versions {
    /// The versions.
    numbers: &'static [u32],
    /// Members a version-1 file has and a version-2 file must not.
    v1: &'static [&'static str],
    /// Members a version-2 file has and a version-1 file must not.
    v2: &'static [&'static str],
    /// Members a version-2 file may have and a version-1 file must not.
    v2_optional: &'static [&'static str],
}

impl Versions {
    /// A format with one version, `n`.
    fn only(n: u32) -> Self {
        const NUMBERS: [&[u32]; 3] = [&[], &[1], &[2]];
        Versions {
            numbers: NUMBERS[usize::try_from(n).unwrap_or(0).min(2)],
            v1: &[],
            v2: &[],
            v2_optional: &[],
        }
    }
}

/// An output's schema with what its type cannot say: its `format` (a constant), its `version`
/// (one of those the format has) and the members of one version only.
fn output(
    name: &'static str,
    schema: schemars::Schema,
    format: Option<&str>,
    versions: &Versions,
) -> (&'static str, String) {
    (name, text(name, closed(schema, format, versions)))
}

fn closed(
    mut schema: schemars::Schema,
    format: Option<&str>,
    versions: &Versions,
) -> schemars::Schema {
    use serde_json::json;
    let obj = schema
        .as_object_mut()
        .expect("an output's schema is an object");
    let props = obj
        .get_mut("properties")
        .and_then(|p| p.as_object_mut())
        .expect("an output's schema has properties");
    for (member, value) in [
        ("format", format.map(|f| json!({ "const": f }))),
        ("version", Some(json!({ "enum": versions.numbers }))),
    ] {
        if let (Some(m), Some(v)) = (props.get_mut(member).and_then(|m| m.as_object_mut()), value) {
            m.remove("type");
            m.remove("format");
            m.remove("minimum");
            m.extend(v.as_object().expect("an object").clone());
        }
    }
    // What a file of one version has: `has`, and none of `lacks`.
    let then = |has: &[&str], lacks: Vec<&str>| {
        let mut t = serde_json::Map::new();
        if !has.is_empty() {
            t.insert("required".into(), json!(has));
        }
        if !lacks.is_empty() {
            let any: Vec<_> = lacks.iter().map(|m| json!({ "required": [m] })).collect();
            t.insert("not".into(), json!({ "anyOf": any }));
        }
        t
    };
    if !(versions.v1.is_empty() && versions.v2.is_empty() && versions.v2_optional.is_empty()) {
        let v2_all = versions.v2.iter().chain(versions.v2_optional).copied();
        let v1_then = then(versions.v1, v2_all.collect());
        let v2_then = then(versions.v2, versions.v1.to_vec());
        obj.insert(
            "allOf".into(),
            json!([
                { "if": { "properties": { "version": { "const": 1 } } }, "then": v1_then },
                { "if": { "properties": { "version": { "const": 2 } } }, "then": v2_then }
            ]),
        );
    }
    schema
}

/// Every output's schema is draft 2020-12, and an optional member (one of one format version
/// only) is its type, never also `null` (spec/formats.md §1.5: absent from the other version,
/// never `null`; a member that may be `null` is required, `nullable`). schemars makes an `Option`
/// member nullable: this takes `null` back out of every member that is not required.
fn settings() -> schemars::generate::SchemaSettings {
    schemars::generate::SchemaSettings::draft2020_12().with_transform(absent_is_not_null)
}

fn absent_is_not_null(schema: &mut schemars::Schema) {
    let Some(obj) = schema.as_object_mut() else {
        return;
    };
    let required: Vec<String> = obj
        .get("required")
        .and_then(|r| r.as_array())
        .map(|r| {
            r.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let Some(props) = obj.get_mut("properties").and_then(|p| p.as_object_mut()) else {
        return;
    };
    let null = serde_json::json!({ "type": "null" });
    for (name, member) in props.iter_mut() {
        if required.contains(name) {
            continue;
        }
        let Some(m) = member.as_object_mut() else {
            continue;
        };
        if let Some(any) = m.get("anyOf").and_then(|a| a.as_array()).cloned() {
            let rest: Vec<_> = any.into_iter().filter(|a| *a != null).collect();
            if let [one] = &rest[..] {
                m.remove("anyOf");
                if let Some(o) = one.as_object() {
                    m.extend(o.clone());
                }
            }
        }
        if let Some(types) = m.get("type").and_then(|t| t.as_array()).cloned() {
            let rest: Vec<_> = types.into_iter().filter(|t| t != "null").collect();
            if let [one] = &rest[..] {
                m.insert("type".into(), one.clone());
            }
        }
    }
}

/// The schema of `T` as the reader parses it (schemars' deserialize contract).
fn read<T: schemars::JsonSchema>() -> schemars::Schema {
    settings().into_generator().into_root_schema_for::<T>()
}

/// The schema of `T` as the appliance writes it (schemars' serialize contract): for the two files
/// whose draw core is flattened in (`result.json`, `bundle.json`), which the reader splits off
/// before parsing the rest (`draw::split`), so that the deserialize contract would not see it.
fn written<T: schemars::JsonSchema>() -> schemars::Schema {
    settings()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>()
}

/// `schema` as the committed file holds it: pretty JSON and a final newline, `$schema` then its
/// `$id` (`urn:urne:schema:NAME`, the name spec/formats.md gives the format's schema) first.
fn text(name: &str, schema: schemars::Schema) -> String {
    let serde_json::Value::Object(mut members) = schema.to_value() else {
        unreachable!("a schema is an object")
    };
    let mut head = serde_json::Map::new();
    if let Some(v) = members.remove("$schema") {
        head.insert("$schema".into(), v);
    }
    head.insert("$id".into(), format!("urn:urne:schema:{name}").into());
    head.extend(members);
    let mut s = serde_json::to_string_pretty(&head).expect("a schema serializes");
    s.push('\n');
    s
}

/// A member that must be present, `null` or a `T` (spec/formats.md §1.5: `present`), which
/// schemars' `required` alone would make non-null.
pub(crate) fn nullable<T: schemars::JsonSchema>(
    g: &mut schemars::SchemaGenerator,
) -> schemars::Schema {
    let t = g.subschema_for::<T>();
    schemars::json_schema!({ "anyOf": [t, { "type": "null" }] })
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../schemas")
}

#[test]
fn the_committed_schemas_are_the_generated_ones() {
    for (name, want) in generated() {
        let got =
            std::fs::read_to_string(dir().join(format!("{name}.schema.json"))).unwrap_or_default();
        assert!(
            got == want,
            "schemas/{name}.schema.json is not the schema of its type: run scripts/schemas, review and commit it"
        );
    }
}

#[test]
#[ignore = "writes schemas/: run by scripts/schemas"]
fn write_the_schemas() {
    for (name, text) in generated() {
        std::fs::write(dir().join(format!("{name}.schema.json")), text).unwrap();
    }
}

#[test]
fn a_void_notice_without_a_member_or_with_one_more_does_not_validate() {
    // The schema as generated says what the strict reader says of these (spec/formats.md §4.6):
    // every member required (`day` and `block` present, one of them null), none other allowed.
    let s = serde_json::to_value(read::<crate::void_notice::VoidNotice>()).unwrap();
    let required: Vec<&str> = s["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for m in ["day", "block", "history", "attempt", "void_seq"] {
        assert!(required.contains(&m), "{m} required: {required:?}");
    }
    assert_eq!(s["additionalProperties"], serde_json::json!(false));
}
