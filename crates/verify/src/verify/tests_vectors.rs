//! Every shared test vector with a file tree (`tests/vectors/*.json`, tests/vectors/README.md)
//! run through the core's verification in memory, as `urne verify` dispatches it
//! (`src/cmd/verify.rs`): so that `cargo test -p urne-verify`, and with it `scripts/mutants`,
//! sees every class the vectors pin (the CLI runs the same vectors on the real binary).

// Names are exact, as `urne verify` compares them (`src/cmd/verify.rs`).
#![allow(clippy::case_sensitive_file_extension_comparisons)]

use super::draw_folder::Auditor;
use super::folder::{Folder, MemFolder};
use super::lone::{verify_lone_commitment, verify_lone_result};
use super::outputs::{check_held, is_output, verify_output, verify_outputs};
use super::proof::verify_proof_file;
use super::signed::{self, Keys};
use super::trail::AuditKey;
use super::trail_export::verify_trail_export;
use super::{Expect, FailureClass, Report, VResult, fail};
use crate::crypto::keys;
use std::path::{Path, PathBuf};

/// The vectors folder of the repository.
pub(crate) fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors")
}

/// A vector by its file name (without `.json`).
pub(crate) fn vector(name: &str) -> serde_json::Value {
    let p = vectors_dir().join(format!("{name}.json"));
    serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap()
}

/// The vector's `files` as a tree of folders in memory.
pub(crate) fn tree(v: &serde_json::Value) -> MemFolder {
    let mut root = MemFolder::default();
    for (rel, content) in v["files"].as_object().unwrap() {
        let bytes = match (content["utf8"].as_str(), content["hex"].as_str()) {
            (Some(t), _) => t.as_bytes().to_vec(),
            (None, Some(h)) => hex::decode(h).unwrap(),
            _ => panic!("{rel}: neither utf8 nor hex"),
        };
        let parts: Vec<&str> = rel.split('/').collect();
        let (file, dirs) = parts.split_last().unwrap();
        let mut f = &mut root;
        for d in dirs {
            f = f.folders.entry((*d).to_string()).or_default();
        }
        f.files.insert((*file).to_string(), bytes);
    }
    root
}

/// The folder at `path` (`/`-separated, `""` or `.` for the root).
pub(crate) fn at<'a>(root: &'a MemFolder, path: &str) -> &'a MemFolder {
    let mut f = root;
    for d in path.split('/').filter(|d| !d.is_empty() && *d != ".") {
        f = f.folders.get(d).unwrap_or_else(|| panic!("no folder {d}"));
    }
    f
}

/// `path`'s parent folder and its last name.
fn split(path: &str) -> (&str, &str) {
    path.rsplit_once('/').unwrap_or(("", path))
}

/// The text of the file at `path`.
fn text(root: &MemFolder, path: &str) -> String {
    let (dir, name) = split(path);
    String::from_utf8(at(root, dir).files[name].clone()).unwrap()
}

/// The class (or `valid` / `partial`) `urne verify` would report for the vector `v`.
pub(crate) fn outcome(v: &serde_json::Value) -> String {
    if v["args"].get("release").is_some() {
        return release_outcome(v);
    }
    match run(v) {
        Ok(r) if r.partial.is_empty() => "valid".into(),
        Ok(_) => "partial".into(),
        Err(f) => f.class.name().into(),
    }
}

/// The outcome of a release's vector (spec/formats.md §8.8), as `urne-verify --release`
/// decides it: the release keys and manifests first (`usage`, `release-<class>`), then the
/// outputs (their class), then their software (`not-released`, or `valid` / `partial`).
fn release_outcome(v: &serde_json::Value) -> String {
    use super::release::{Releases, judge_all, not_released, read_release};
    let root = tree(v);
    let a = &v["args"];
    let names = |k: &str| -> Vec<String> {
        a[k].as_array()
            .map(|x| x.iter().map(|s| s.as_str().unwrap().to_string()).collect())
            .unwrap_or_default()
    };
    let keys: Vec<[u8; 32]> = names("release_keys")
        .iter()
        .map(|p| keys::public_key_from_pem(&text(&root, p)).unwrap())
        .collect();
    if keys.is_empty() {
        return "usage".into();
    }
    let appliance = a["keys"].as_str().map(|k| at(&root, k));
    for role in ["result.pub.pem", "audit.pub.pem"] {
        if appliance.is_some_and(|f| signed::load_key(f, role).is_ok_and(|k| keys.contains(&k))) {
            return "usage".into();
        }
    }
    let given: Result<Vec<_>, _> = names("release")
        .iter()
        .map(|p| {
            let (dir, name) = split(p);
            read_release(at(&root, dir), name, p, &keys)
        })
        .collect();
    let releases = match given.and_then(Releases::new) {
        Ok(r) => r,
        Err(e) => return format!("release-{}", e.class().name()),
    };
    let report = match run(v) {
        Ok(r) => r,
        Err(f) => return f.class.name().into(),
    };
    match judge_all(&report, &releases) {
        Err(f) => f.class.name().into(),
        Ok(j) if not_released(&j).is_some() => "not-released".into(),
        Ok(j) if j.is_empty() || !report.partial.is_empty() => "partial".into(),
        Ok(_) => "valid".into(),
    }
}

/// `urne verify` on the vector's tree with its `args`, as `src/cmd/verify.rs` dispatches.
#[expect(
    clippy::too_many_lines,
    reason = "one dispatch over every kind of path a vector names, each branch a few lines"
)]
pub(crate) fn run(v: &serde_json::Value) -> VResult<Report> {
    let root = tree(v);
    let a = &v["args"];
    let path = a["path"].as_str().unwrap();
    let strs = |k: &str| -> Vec<String> {
        a[k].as_array()
            .map(|x| x.iter().map(|s| s.as_str().unwrap().to_string()).collect())
            .unwrap_or_default()
    };
    // What clap does for `urne-verify`: a value that is not a day or a block id is a usage
    // mistake, before anything is read (spec/formats.md §8.1).
    let expect = Expect {
        day: match a["expect_day"].as_str().map(str::parse) {
            None => None,
            Some(Ok(d)) => Some(d),
            Some(Err(_)) => return Err(fail(FailureClass::Usage, "--expect-day is no day")),
        },
        block: match a["expect_block"]
            .as_str()
            .map(crate::values::BlockId::parse)
        {
            None => None,
            Some(Ok(b)) => Some(b),
            Some(Err(_)) => return Err(fail(FailureClass::Usage, "--expect-block is no block id")),
        },
    };
    if expect.day.is_some() && expect.block.is_some() {
        return Err(fail(FailureClass::Usage, "both expectations"));
    }
    let keys_dir = a["keys"].as_str();
    let keys_of = |fallback: &str| -> VResult<Keys> {
        signed::load_keys(at(&root, keys_dir.unwrap_or(fallback)))
    };
    let held: Vec<(String, String)> = strs("checkpoints")
        .iter()
        .map(|c| (c.clone(), text(&root, c)))
        .collect();
    let (dir, name) = split(path);
    let is_file = at(&root, dir).files.contains_key(name);
    if is_file {
        if name.ends_with(".jsonl") && super::proof::is_proofs_file(at(&root, dir), name) {
            let keys = keys_of(a["published"].as_str().unwrap_or(dir))?;
            let Some(published) = a["published"].as_str().map(|p| at(&root, p)) else {
                return Err(super::proof::unsigned_needs_published(name));
            };
            super::proof::verify_proofs_file(at(&root, dir), name, published, &keys)?;
            return Ok(Report::default());
        }
        if name.ends_with(".jsonl") {
            let key = match keys_dir {
                Some(k) => AuditKey::Given(signed::load_key(at(&root, k), "audit.pub.pem")?),
                None => AuditKey::Recorded,
            };
            let held: Vec<(PathBuf, String)> =
                held.into_iter().map(|(p, t)| (p.into(), t)).collect();
            let strict = a["strict"].as_bool().unwrap_or(false);
            let bytes = &at(&root, dir).files[name];
            let t = verify_trail_export(name, bytes, &held, key, strict)?;
            return Ok(super::verdict::trail_report(&t));
        }
        let keys = keys_of(dir)?;
        if name == "result.json" || name.ends_with(".commit.json") {
            let f = at(&root, dir);
            let r = if name == "result.json" {
                verify_lone_result(f, name, &keys)
            } else {
                verify_lone_commitment(f, name, &keys)
            }?;
            expect.check(&r)?;
            check_held(&r.outputs, &held, &keys)?;
            return Ok(r);
        }
        let keys = keys_of(a["published"].as_str().unwrap_or(dir))?;
        let published = a["published"].as_str().map(|p| at(&root, p));
        verify_proof_file(
            at(&root, dir),
            name,
            published.map(|p| p as &dyn Folder),
            &keys,
        )?;
        return Ok(Report::default());
    }
    let folder = at(&root, path);
    let keys = keys_of(path)?;
    let r = if is_output(folder) {
        let export = a["export"].as_str().map(split);
        let auditor = match export {
            Some((edir, ename)) => {
                let producer_keys = strs("producer_keys")
                    .iter()
                    .map(|p| keys::public_key_from_pem(&text(&root, p)).unwrap())
                    .collect::<Vec<_>>();
                if producer_keys.is_empty() {
                    return Err(fail(FailureClass::Usage, "no producer key"));
                }
                Some(Auditor {
                    folder: at(&root, edir),
                    name: ename.to_string(),
                    producer_keys,
                })
            }
            None => None,
        };
        verify_output(folder, &keys, auditor.as_ref(), &expect)?
    } else {
        if a["export"].is_string() {
            return Err(fail(FailureClass::Usage, "not a draw folder"));
        }
        verify_outputs(folder, &keys, &expect)?
    };
    check_held(&r.outputs, &held, &keys)?;
    Ok(r)
}

#[test]
fn every_vector_gives_the_outcome_it_expects_in_the_core() {
    let mut names: Vec<String> = std::fs::read_dir(vectors_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    let (mut ran, mut wrong) = (0, vec![]);
    for n in names {
        let v = vector(n.trim_end_matches(".json"));
        if v.get("files").is_none() || v.get("expect").is_none() {
            continue;
        }
        let got = outcome(&v);
        if got != v["expect"].as_str().unwrap() {
            wrong.push(format!("{n}: expects {}, got {got}", v["expect"]));
        }
        ran += 1;
    }
    assert!(ran >= 100, "only {ran} vectors with files");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
