//! The seed corpora, `fuzz/corpus/<target>/seed-*` (`urne-fuzz-seeds` writes them; they are
//! committed, and the fuzzer's own finds are added beside them by `scripts/fuzz`): the files of
//! the test vectors (`tests/vectors/*.json`) for `outputs`, `checkpoint` and `folder`, blocks of
//! the reduced rules for `tickets`, and small exports for `export` ([`exports`]).

pub mod exports;

use crate::checkpoint;
use crate::folder::{self, Files, Kind};
use crate::outputs::selector;
use crate::{keys, tickets};
use std::collections::BTreeMap;
use std::path::Path;
use urne_verify::audit::chain::{checkpoint_body, origin};
use urne_verify::block::{BlockId, generate_block};
use urne_verify::crypto::Hash32;

/// Seeds by target: target name -> (seed name -> bytes).
pub type Seeds = BTreeMap<&'static str, BTreeMap<String, Vec<u8>>>;

/// One vector's files, by path, decoded (`{"utf8": text}` or `{"hex": hex}`).
fn vector_files(v: &serde_json::Value) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for (path, f) in v["files"].as_object().into_iter().flatten() {
        let bytes = match (f.get("utf8"), f.get("hex")) {
            (Some(t), _) => t.as_str().unwrap_or_default().as_bytes().to_vec(),
            (_, Some(h)) => hex::decode(h.as_str().unwrap_or_default()).unwrap_or_default(),
            _ => continue,
        };
        out.insert(path.clone(), bytes);
    }
    out
}

/// The reader of the `outputs` target for a file named `name` holding `bytes`, if any.
#[expect(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "output names are exact (spec/formats.md §4.7): a name ending `.JSON` is none of them"
)]
fn reader_of(name: &str, bytes: &[u8]) -> Option<&'static str> {
    let text = String::from_utf8_lossy(bytes);
    Some(match name {
        "bundle.json" => "bundle",
        "result.json" => "result",
        "void-notice.json" => "void-notice",
        "keys.json" => "keys",
        "rules.json" if text.contains("\"format\"") => "game-rules",
        "rules.json" => "draw-rules",
        _ if name.ends_with(".commit.json") => "commit",
        _ if name.ends_with(".reveal.json") => "reveal",
        _ if name.ends_with(".json") && text.contains("urne-ticket-proof") => "ticket-proof",
        _ if name.ends_with(".json") && text.contains("urne-inclusion-proof") => "proof",
        _ => return None,
    })
}

/// The folder of `files` under `dir/` (the `.sig` files left out: the target signs).
#[expect(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "output names are exact (spec/formats.md §4.7): a name ending `.JSON` is none of them"
)]
fn folder_under(files: &BTreeMap<String, Vec<u8>>, dir: &str) -> Files {
    files
        .iter()
        .filter_map(|(p, b)| {
            let name = p.strip_prefix(dir)?.strip_prefix('/')?;
            (!name.contains('/') && !name.ends_with(".sig")).then(|| (name.to_string(), b.clone()))
        })
        .collect()
}

#[expect(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "output names are exact (spec/formats.md §4.7): a name ending `.JSON` is none of them"
)]
fn add_vector(seeds: &mut Seeds, stem: &str, v: &serde_json::Value) {
    let files = vector_files(v);
    for (path, bytes) in &files {
        let name = path.rsplit('/').next().unwrap_or(path);
        if let Some(r) = reader_of(name, bytes) {
            let input = [&[selector(r)][..], bytes].concat();
            seeds
                .entry("outputs")
                .or_default()
                .insert(format!("{r}-{stem}"), input);
        }
        if name.ends_with(".note") {
            let input = [b"\x01", &bytes[..]].concat();
            seeds
                .entry("checkpoint")
                .or_default()
                .insert(format!("{stem}-{name}"), input);
        }
        if name.ends_with("audit.jsonl") {
            for (i, line) in bytes.split(|&b| b == b'\n').take(3).enumerate() {
                let input = [&[selector("audit-event")][..], line].concat();
                seeds
                    .entry("outputs")
                    .or_default()
                    .insert(format!("audit-event-{stem}-{i}"), input);
            }
        }
    }
    let path = v["args"]["path"].as_str().unwrap_or_default();
    let kind = match path {
        "block" => Kind::Block,
        "draw" if v["args"].get("export").is_some() => Kind::DrawAuditor,
        "draw" => Kind::Draw,
        _ => return,
    };
    let mut folder = folder_under(&files, path);
    if let Some(e) = v["args"]["export"].as_str() {
        let name = e.rsplit('/').next().unwrap_or(e);
        folder.insert(name.to_string(), files.get(e).cloned().unwrap_or_default());
    }
    let input = folder::encode(kind, &folder);
    seeds
        .entry("folder")
        .or_default()
        .insert(stem.to_string(), input);
}

/// Void notices' folders: the subfolders of the vectors' folders of outputs that hold one.
fn add_void_notices(seeds: &mut Seeds, stem: &str, v: &serde_json::Value) {
    let files = vector_files(v);
    for path in files.keys().filter(|p| p.ends_with("/void-notice.json")) {
        let dir = path.strip_suffix("/void-notice.json").expect("suffix");
        let input = folder::encode(Kind::Void, &folder_under(&files, dir));
        seeds
            .entry("folder")
            .or_default()
            .insert(format!("{stem}-void"), input);
    }
}

fn tickets_seeds(seeds: &mut Seeds) {
    let rules = tickets::rules();
    let s = seeds.entry("tickets").or_default();
    for (i, &price) in rules.prices_cents().iter().enumerate() {
        let id = BlockId::new(tickets::GAME, price, "e1", 1).expect("an id");
        let b = generate_block(rules, &id, &Hash32([u8::try_from(i).unwrap_or(0); 32]), 1)
            .expect("a block");
        let csv = b.csv_bytes();
        let which = u8::try_from(i).expect("few prices");
        s.insert(format!("block-{price}"), [&[which][..], &csv].concat());
        let text = String::from_utf8(csv.clone()).expect("ASCII");
        let mut lines: Vec<&str> = text.lines().collect();
        let edits: Vec<(&str, String)> = vec![
            ("no-final-lf", text.trim_end_matches('\n').to_string()),
            ("cut", lines[..9].join("\n") + "\n"),
            ("crlf", text.replace('\n', "\r\n")),
            ("leading-zero", text.replacen("\n1,", "\n01,", 1)),
            (
                "extra-row",
                format!("{text}{}\n", lines[2].replacen('1', "16", 1)),
            ),
        ];
        for (name, t) in edits {
            s.insert(
                format!("block-{price}-{name}"),
                [&[which][..], t.as_bytes()].concat(),
            );
        }
        lines.swap(3, 7);
        let swapped = lines.join("\n") + "\n";
        s.insert(
            format!("block-{price}-swapped"),
            [&[which][..], swapped.as_bytes()].concat(),
        );
    }
}

fn checkpoint_seeds(seeds: &mut Seeds) {
    let pk = keys::public(keys::audit());
    let root = Hash32([7; 32]);
    let good = checkpoint_body(&pk, 5, &root);
    let o = origin(&pk);
    let b64 = good.lines().nth(2).expect("a root line").to_string();
    let bodies: Vec<(&str, String)> = vec![
        ("size-1", checkpoint_body(&pk, 1, &root)),
        ("size-5", good.clone()),
        ("size-max", checkpoint_body(&pk, u64::MAX, &root)),
        ("plus-5", format!("{o}\n+5\n{b64}\n")),
        ("size-007", format!("{o}\n007\n{b64}\n")),
        ("size-0", format!("{o}\n0\n{b64}\n")),
        (
            "size-overflow",
            format!("{o}\n18446744073709551616\n{b64}\n"),
        ),
        ("size-space", format!("{o}\n 5\n{b64}\n")),
        ("crlf", good.replace('\n', "\r\n")),
        ("extension-line", format!("{good}extension\n")),
        (
            "no-padding",
            format!("{o}\n5\n{}\n", b64.trim_end_matches('=')),
        ),
        (
            "other-origin",
            good.replacen("urne-audit/", "urne-audit/0", 1),
        ),
        ("no-final-lf", good.trim_end_matches('\n').to_string()),
    ];
    let s = seeds.entry("checkpoint").or_default();
    for (name, body) in bodies {
        s.insert(format!("body-{name}"), [b"\x00", body.as_bytes()].concat());
    }
    let more = "\u{2014} other-log AAAA\n";
    s.insert(
        "body-more-sigs".into(),
        [b"\x00", good.as_bytes(), b"\x00", more.as_bytes()].concat(),
    );
    let note = checkpoint::signed(&good, "");
    s.insert("note-signed".into(), [b"\x01", note.as_bytes()].concat());
}

/// Every seed, from the repository at `root`.
///
/// # Panics
/// If the vectors cannot be read.
pub fn all(root: &Path) -> Seeds {
    let mut seeds = Seeds::new();
    let mut paths: Vec<_> = std::fs::read_dir(root.join("tests/vectors"))
        .expect("tests/vectors")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    for p in paths {
        let stem = p
            .file_stem()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(&std::fs::read(&p).expect("read"))
        else {
            continue;
        };
        add_vector(&mut seeds, &stem, &v);
        add_void_notices(&mut seeds, &stem, &v);
    }
    for r in [
        "rules/chanceux-noel-2018.json",
        "rules/noel-de-la-chance-2015.json",
    ] {
        let bytes = std::fs::read(root.join(r)).expect("a rules file");
        let name = if r.contains("2015") {
            "game-rules"
        } else {
            "draw-rules"
        };
        let input = [&[selector(name)][..], &bytes].concat();
        seeds
            .entry("outputs")
            .or_default()
            .insert(format!("{name}-shipped"), input);
    }
    let reduced = [&[selector("game-rules")][..], &tickets::rules_json()].concat();
    seeds
        .entry("outputs")
        .or_default()
        .insert("game-rules-reduced".into(), reduced);
    tickets_seeds(&mut seeds);
    checkpoint_seeds(&mut seeds);
    seeds.insert("export", exports::seeds().into_iter().collect());
    for (target, s) in &mut seeds {
        trim(target, s);
    }
    seeds
}

/// Keeps a corpus small (a few dozen files): one file per content, and at most [`PER_KIND`]
/// seeds of a kind (the kind of an `outputs` seed is its reader; of a `folder` seed, its
/// vector's kind (draw, block, history) and whether it is valid or the failure class it expects; of a `checkpoint` seed, made here or a vector's note).
fn trim(target: &str, s: &mut BTreeMap<String, Vec<u8>>) {
    let mut seen = std::collections::HashSet::new();
    s.retain(|_, b| seen.insert(b.clone()));
    let kind = |name: &str| -> String {
        match target {
            "outputs" => crate::outputs::READERS
                .iter()
                .map(|(r, _)| *r)
                .filter(|r| name.starts_with(&format!("{r}-")))
                .max_by_key(|r| r.len())
                .unwrap_or("")
                .to_string(),
            "folder" => {
                let class = [
                    "valid",
                    "signature",
                    "malformed",
                    "mismatch",
                    "inconsistent",
                    "void",
                ]
                .into_iter()
                .find(|k| name.contains(k))
                .unwrap_or("other");
                format!("{}-{class}", name.split('-').next().unwrap_or(""))
            }
            "checkpoint" if !name.starts_with("body-") => "vector-note".to_string(),
            _ => name.to_string(),
        }
    };
    let mut per_kind: BTreeMap<String, usize> = BTreeMap::new();
    s.retain(|name, _| {
        let n = per_kind.entry(kind(name)).or_default();
        *n += 1;
        *n <= PER_KIND
    });
}

/// At most this many seeds of one kind (see [`trim`]).
const PER_KIND: usize = 3;
