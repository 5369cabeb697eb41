//! The published JSON Schemas of the output formats (schemas/*.schema.json, draft 2020-12),
//! generated from the formats' types with schemars (issue 27, item 1): a type changed without its
//! schema fails `the_committed_schemas_are_the_generated_ones`; `scripts/schemas` writes them
//! again (the ignored test `write_the_schemas`). Tests only: the library does not depend on
//! schemars.

use std::path::PathBuf;

/// Each schema's file name under schemas/ and its generated text.
fn generated() -> Vec<(&'static str, String)> {
    vec![(
        "void-notice.schema.json",
        text(&schemars::schema_for!(crate::void_notice::VoidNotice)),
    )]
}

/// `schema` as the committed file holds it: pretty JSON and a final newline, with the id the
/// format's spec names.
fn text(schema: &schemars::Schema) -> String {
    let mut s = serde_json::to_string_pretty(schema).expect("a schema serializes");
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
        let got = std::fs::read_to_string(dir().join(name)).unwrap_or_default();
        assert!(
            got == want,
            "schemas/{name} is not the schema of its type: run scripts/schemas, review and commit it"
        );
    }
}

#[test]
#[ignore = "writes schemas/: run by scripts/schemas"]
fn write_the_schemas() {
    for (name, text) in generated() {
        std::fs::write(dir().join(name), text).unwrap();
    }
}

#[test]
fn a_void_notice_without_a_member_or_with_one_more_does_not_validate() {
    // The schema as generated says what the strict reader says of these (spec/formats.md §4.6):
    // every member required (`day` and `block` present, one of them null), none other allowed.
    let s = serde_json::to_value(schemars::schema_for!(crate::void_notice::VoidNotice)).unwrap();
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
