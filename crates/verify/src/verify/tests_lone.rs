//! Production's lone files (spec/formats.md §8.5): a lone `result.json` checked against the manifest and
//! the files beside it, and a lone block commitment, each saying exactly what it could not check.

use super::FailureClass as C;
use super::lone::{verify_lone_commitment, verify_lone_result};
use super::tests_kit::{dir, json, keys, load, put_signed};
use super::tests_vectors::at;

const COMMIT: &str = "noel-test_100_2015-12_3.commit.json";
const NOT_RECOMPUTED: &str = "the selection was not recomputed and the commitment not checked against the leaves (no bundle.json and leaves.bin)";

fn absent(name: &str) -> String {
    format!("{name} (listed in manifest.json) is not in the folder: not checked")
}

#[test]
fn a_lone_v2_result_checks_the_files_beside_it_against_its_manifest() {
    let root = load("draw-v2-valid");
    let r = verify_lone_result(at(&root, "draw"), "result.json", &keys(&root)).unwrap();
    // The files beside it are checked against the manifest (leaves.bin and pv.html are here);
    // the bundle, which a lone result stands in place of, is said not checked.
    assert_eq!(
        r.partial,
        [absent("bundle.json"), NOT_RECOMPUTED.to_string()]
    );
    // It joins the publish-once check only, not the chain across outputs (spec/formats.md §8.4).
    assert!(r.outputs.is_empty());
    assert_eq!(r.published.len(), 1);
    // Its value is the result as verified: a draw's attempt, which a void would cancel.
    let super::Value::Result(res) = &r.subjects[0].value else {
        panic!("{:?}", r.subjects[0].value);
    };
    assert_eq!(
        r.subjects[0].voidable(),
        Some(super::draw_publishes(&res.core))
    );
    // Each of those three in other bytes than the manifest lists (validly signed): inconsistent.
    for name in ["result.json", "rules.json", "checkpoint.note"] {
        let mut root = load("draw-v2-valid");
        let d = dir(&mut root, "draw");
        let mut other = d.files[name].clone();
        if name == "result.json" {
            other = serde_json::to_vec(&json(d, name)).unwrap();
        } else {
            other.push(b'\n');
        }
        put_signed(d, name, other);
        let e = verify_lone_result(at(&root, "draw"), "result.json", &keys(&root)).unwrap_err();
        assert_eq!(e.class, C::Inconsistent, "{name}: {}", e.what);
    }
}

#[test]
fn a_lone_result_without_a_manifest_says_so_in_version_2_only() {
    let mut root = load("draw-v2-valid");
    let d = dir(&mut root, "draw");
    d.files.remove("manifest.json");
    d.files.remove("manifest.json.sig");
    let r = verify_lone_result(at(&root, "draw"), "result.json", &keys(&root)).unwrap();
    assert_eq!(r.partial, ["no manifest", NOT_RECOMPUTED]);
    let root = load("draw-valid-public");
    let r = verify_lone_result(at(&root, "draw"), "result.json", &keys(&root)).unwrap();
    assert_eq!(r.partial, [NOT_RECOMPUTED]);
    assert!(r.outputs.is_empty());
}

#[test]
fn a_lone_commitment_says_what_it_could_not_check() {
    let root = load("block-folder-v2-valid");
    let r = verify_lone_commitment(at(&root, "block"), COMMIT, &keys(&root)).unwrap();
    assert_eq!(
        r.partial,
        [
            format!("the rules and the production file were not checked ({COMMIT} alone)"),
            "no manifest".to_string()
        ]
    );
    assert_eq!(r.blocks.len(), 1);
    let super::Value::Commitment(c) = &r.subjects[0].value else {
        panic!("{:?}", r.subjects[0].value);
    };
    assert_eq!(
        r.subjects[0].voidable(),
        Some(super::Publishes::Commitment {
            block: c.block.clone(),
            attempt: c.attempt
        })
    );
    assert_eq!(r.outputs.len(), 1);
    let root = load("block-folder-valid");
    let r = verify_lone_commitment(at(&root, "block"), COMMIT, &keys(&root)).unwrap();
    assert_eq!(
        r.partial,
        [format!(
            "the rules and the production file were not checked ({COMMIT} alone)"
        )]
    );
}

#[test]
fn a_commitment_of_another_format_or_version_is_malformed() {
    for (member, value) in [
        ("format", serde_json::json!("urne-block-reveal")),
        ("version", serde_json::json!(0)),
        ("version", serde_json::json!(3)),
    ] {
        let mut root = load("block-folder-v2-valid");
        super::tests_kit::edit(dir(&mut root, "block"), COMMIT, |c| c[member] = value);
        let e = verify_lone_commitment(at(&root, "block"), COMMIT, &keys(&root)).unwrap_err();
        assert_eq!(
            (e.class, e.what),
            (
                C::Malformed,
                format!("{COMMIT}: not an urne block commitment version 1 or 2")
            ),
            "{member}"
        );
    }
}

#[test]
fn a_commitment_whose_fields_disagree_with_its_block_id_is_inconsistent() {
    use super::block_folder::identity;
    let root = load("block-folder-v2-valid");
    let c: crate::block::files::CommitFile =
        serde_json::from_slice(&at(&root, "block").files[COMMIT]).unwrap();
    assert!(identity(COMMIT, &c).is_ok());
    assert!(identity(&format!("public/{COMMIT}"), &c).is_ok());
    let changes: [fn(&mut crate::block::files::CommitFile); 5] = [
        |c| c.game.push('x'),
        |c| c.price_cents += 1,
        |c| c.emission.push('x'),
        |c| c.number += 1,
        |c| c.tickets_file.push('x'),
    ];
    for (i, change) in changes.iter().enumerate() {
        let mut x = c.clone();
        change(&mut x);
        let e = identity(COMMIT, &x).unwrap_err();
        assert_eq!(e.class, C::Inconsistent, "{i}");
    }
    assert_eq!(
        identity("other.commit.json", &c).unwrap_err().class,
        C::Inconsistent
    );
}

#[test]
fn a_commitment_names_the_keys_given_and_carries_its_subject() {
    let root = load("block-folder-v2-valid");
    let r = verify_lone_commitment(at(&root, "block"), COMMIT, &keys(&root)).unwrap();
    assert_eq!(
        r.outputs[0]
            .subject
            .as_ref()
            .map(ToString::to_string)
            .as_deref(),
        Some("the commitment of block noel-test/100/2015-12/3 attempt 1")
    );
    for member in ["result_key_id", "audit_key_id"] {
        let mut root = load("block-folder-v2-valid");
        super::tests_kit::edit(dir(&mut root, "block"), COMMIT, |c| {
            c[member] = serde_json::json!("0000000000000000");
        });
        let e = verify_lone_commitment(at(&root, "block"), COMMIT, &keys(&root)).unwrap_err();
        assert_eq!(
            (e.class, e.what),
            (
                C::Inconsistent,
                format!("{COMMIT}: result_key_id or audit_key_id is not the id of the key given")
            ),
            "{member}"
        );
    }
}

const TICKETS: &str = "noel-test_100_2015-12_3.tickets.csv";
const REVEAL: &str = "noel-test_100_2015-12_3.reveal.json";

#[test]
fn before_the_reveal_the_production_file_is_checked_against_the_commitment() {
    use super::block_folder::{block_commitments, verify_block_folder};
    let root = load("block-folder-valid-unrevealed");
    let f = at(&root, "block");
    let r = verify_block_folder(f, &block_commitments(f).unwrap(), &keys(&root)).unwrap();
    assert!(
        r.checks
            .iter()
            .any(|c| c.ends_with(", production file (every row, counts, root)")),
        "{:?}",
        r.checks
    );
    // Two rows' outcomes swapped, the file validly signed: not the committed outcomes.
    let mut root = load("block-folder-valid-unrevealed");
    let d = dir(&mut root, "block");
    let text = String::from_utf8(d.files[TICKETS].clone()).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let prize = lines
        .iter()
        .position(|l| l.split(',').nth(1) != Some("0") && !l.starts_with("position"))
        .unwrap();
    let blank = if prize == 1 { 2 } else { 1 };
    let tier = |l: &str| l.split(',').skip(1).take(2).collect::<Vec<_>>().join(",");
    let (tp, tb) = (tier(&lines[prize]), tier(&lines[blank]));
    lines[prize] = lines[prize].replacen(&tp, &tb, 1);
    lines[blank] = lines[blank].replacen(&tb, &tp, 1);
    put_signed(d, TICKETS, format!("{}\n", lines.join("\n")).into_bytes());
    let f = at(&root, "block");
    let e = verify_block_folder(f, &block_commitments(f).unwrap(), &keys(&root)).unwrap_err();
    assert_eq!(
        (e.class, e.what),
        (
            C::CommitmentMismatch,
            format!("{TICKETS}: SHA-256 differs from the commitment")
        )
    );
}

#[test]
fn a_reveal_of_another_format_is_malformed() {
    use super::block_folder::{block_commitments, verify_block_folder};
    let mut root = load("block-folder-valid");
    super::tests_kit::edit(dir(&mut root, "block"), REVEAL, |r| {
        r["format"] = serde_json::json!("urne-block-commitment");
    });
    let f = at(&root, "block");
    let e = verify_block_folder(f, &block_commitments(f).unwrap(), &keys(&root)).unwrap_err();
    assert_eq!(
        (e.class, e.what),
        (
            C::Malformed,
            format!("{REVEAL}: not an urne block reveal version 1 or 2")
        )
    );
}

#[test]
fn a_reveal_of_another_block_in_any_one_thing_is_inconsistent() {
    use super::block_folder::{block_commitments, verify_block_folder};
    let zero = serde_json::json!("00".repeat(32));
    for member in ["block", "rules_sha256", "seed_commitment", "outcomes_root"] {
        let mut root = load("block-folder-valid");
        super::tests_kit::edit(dir(&mut root, "block"), REVEAL, |r| {
            r[member] = if member == "block" {
                serde_json::json!("noel-test/100/2015-12/4")
            } else {
                zero.clone()
            };
        });
        let f = at(&root, "block");
        let e = verify_block_folder(f, &block_commitments(f).unwrap(), &keys(&root)).unwrap_err();
        assert_eq!(
            (e.class, e.what),
            (
                C::Inconsistent,
                format!(
                    "{REVEAL}: not this block's reveal (block, rules, unofficial_rules, seed commitment or outcomes root differ)"
                )
            ),
            "{member}"
        );
    }
}

#[test]
fn a_revealed_block_folder_gives_its_commitment_and_its_reveal_as_values() {
    let root = load("block-folder-v2-valid");
    let f = at(&root, "block");
    let commits = super::block_folder::block_commitments(f).unwrap();
    let r = super::block_folder::verify_block_folder(f, &commits, &keys(&root)).unwrap();
    let super::Value::Block { commitment, reveal } = &r.subjects[0].value else {
        panic!("{:?}", r.subjects[0].value);
    };
    let reveal = reveal.as_ref().expect("the folder holds the reveal");
    assert_eq!(reveal.block, commitment.block);
    assert_eq!(
        r.subjects[0].words,
        super::block_folder::block_words(commitment)
    );
    assert!(r.subjects[0].voidable().is_some());
}
