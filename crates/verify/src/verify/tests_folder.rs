//! `verify_draw_folder` (spec/formats.md §8.2) on a vector's folder with one file changed and re-signed:
//! the manifest (step 9), the signatures (step 1, a usage mistake told apart from an altered
//! file), the rules (step 7) and the version's members, each with the class SPEC gives.

use super::FailureClass as C;
use super::folder::MemFolder;
use super::signed::{Keys, read_signed_opt};
use super::tests_kit::{dir, edit, json, key, keys, load, put_signed, verify_draw};
use super::tests_vectors::at;
use crate::crypto::keys as k;
use serde_json::json;

fn class(root: &MemFolder) -> (C, String) {
    let f = verify_draw(root).unwrap_err();
    (f.class, f.what)
}

fn v2_with(name: &str, change: impl FnOnce(&mut serde_json::Value)) -> MemFolder {
    let mut root = load("draw-v2-valid");
    edit(dir(&mut root, "draw"), name, change);
    root
}

#[test]
fn the_genuine_folders_verify_completely() {
    let r = verify_draw(&load("draw-v2-valid")).unwrap();
    assert!(r.partial.is_empty(), "{:?}", r.partial);
    assert_eq!(
        r.subjects
            .iter()
            .map(|s| s.words.as_str())
            .collect::<Vec<_>>(),
        ["the draw of chanceux-noel-2018 day 2018-12-22 attempt 1 (version 2)"]
    );
    assert!(
        matches!(&r.subjects[0].voidable(), Some(super::Publishes::Draw { day, attempt: 1, .. }) if day == "2018-12-22"),
        "a draw is what a void notice cancels"
    );
    // Its values, verified: the bundle and the result, as parsed.
    let super::Value::Draw { bundle, result } = &r.subjects[0].value else {
        panic!("a draw folder's value is a draw: {:?}", r.subjects[0].value);
    };
    assert_eq!(bundle.core.day, "2018-12-22");
    assert_eq!(
        result.as_ref().map(|r| r.winner.leaf),
        Some(bundle.winner.leaf),
        "the result beside the bundle, with the same winner"
    );
    assert_eq!(r.days, ["2018-12-22"]);
    assert_eq!(r.outputs.len(), 1);
    // The output carries what it is, so that one history holding the same draw twice is a
    // fork (spec/formats.md §8.4).
    assert_eq!(
        r.outputs[0]
            .subject
            .as_ref()
            .map(ToString::to_string)
            .as_deref(),
        Some("the draw of chanceux-noel-2018 day 2018-12-22 attempt 1")
    );
    assert_eq!(r.outputs[0].name, "bundle.json");
    assert!(
        r.checks
            .iter()
            .any(|c| c == "manifest.json: every file present is the one listed (size and SHA-256)")
    );
    let r = verify_draw(&load("draw-valid-public")).unwrap();
    assert!(r.partial.is_empty() && r.outputs.is_empty());
    assert_eq!(
        r.checks[0], "bundle.json and leaves.bin signatures",
        "{:?}",
        r.checks
    );
}

#[test]
fn a_manifest_of_another_draw_or_key_is_inconsistent() {
    let changes: [(&str, serde_json::Value); 4] = [
        ("operation", json!("other-op")),
        ("day", json!("2018-12-23")),
        ("attempt", json!(2)),
        ("result_key_id", json!("0000000000000000")),
    ];
    for (member, value) in changes {
        let root = v2_with("manifest.json", |m| m[member] = value);
        let (c, what) = class(&root);
        assert_eq!(c, C::Inconsistent, "{member}");
        assert!(
            what.starts_with("manifest.json is not the manifest of"),
            "{what}"
        );
    }
}

#[test]
fn a_manifest_that_is_not_one_is_malformed() {
    let changes: [fn(&mut serde_json::Value); 4] = [
        |m| m["format"] = json!("urne-other"),
        |m| m["version"] = json!(1),
        |m| m["block"] = json!("b"),
        |m| m["day"] = json!(null),
    ];
    for (i, change) in changes.iter().enumerate() {
        assert_eq!(
            class(&v2_with("manifest.json", change)).0,
            C::Malformed,
            "{i}"
        );
    }
    // Missing from a version-2 folder, present in a version-1 folder.
    let mut root = load("draw-v2-valid");
    let d = dir(&mut root, "draw");
    d.files.remove("manifest.json");
    d.files.remove("manifest.json.sig");
    assert_eq!(class(&root).0, C::Malformed);
    let mut root = load("draw-valid-public");
    let m = at(&load("draw-v2-valid"), "draw").files["manifest.json"].clone();
    put_signed(dir(&mut root, "draw"), "manifest.json", m);
    assert_eq!(class(&root).0, C::Malformed);
}

#[test]
fn a_manifest_that_lists_other_files_is_inconsistent() {
    let changes: [fn(&mut serde_json::Value); 4] = [
        |m| {
            m["files"].as_array_mut().unwrap().remove(3);
        },
        |m| m["files"][0]["size"] = json!(1),
        |m| m["files"][2]["sha256"] = json!("00".repeat(32)),
        |m| m["files"][5]["name"] = json!("rules2.json"),
    ];
    for (i, change) in changes.iter().enumerate() {
        assert_eq!(
            class(&v2_with("manifest.json", change)).0,
            C::Inconsistent,
            "{i}"
        );
    }
    let (_, what) = class(&v2_with("manifest.json", |m| {
        m["files"][1]["size"] = json!(1);
    }));
    assert_eq!(
        what,
        "checkpoint.note is not the file manifest.json lists (size or SHA-256 differ): it is another output's"
    );
}

#[test]
fn a_listed_file_absent_is_partial_when_public_and_a_note_for_production() {
    let mut root = load("draw-v2-valid");
    let d = dir(&mut root, "draw");
    d.files.remove("pv.html");
    d.files.remove("pv.html.sig");
    let r = verify_draw(&root).unwrap();
    assert_eq!(
        r.partial,
        ["pv.html (listed in manifest.json) is not in the folder: not checked"]
    );
    let mut root = load("draw-v2-valid");
    let d = dir(&mut root, "draw");
    d.files.remove("result.json");
    d.files.remove("result.json.sig");
    let r = verify_draw(&root).unwrap();
    assert!(r.partial.is_empty(), "{:?}", r.partial);
    assert!(
        r.notes.iter().any(|n| n
            == "result.json (for production, listed in manifest.json) is not here: not checked"),
        "{:?}",
        r.notes
    );
}

#[test]
fn pkcs11_belongs_to_version_2_only() {
    let root = v2_with("bundle.json", |b| {
        b.as_object_mut().unwrap().remove("pkcs11");
    });
    assert_eq!(class(&root).0, C::Malformed);
    let root = {
        let mut root = load("draw-valid-public");
        let p = json(at(&load("draw-v2-valid"), "draw"), "bundle.json")["pkcs11"].clone();
        edit(dir(&mut root, "draw"), "bundle.json", |b| {
            b.as_object_mut().unwrap().insert("pkcs11".into(), p);
        });
        root
    };
    let (c, what) = class(&root);
    assert_eq!(c, C::Malformed);
    assert!(what.contains("pkcs11"), "{what}");
}

#[test]
fn versions_and_formats_this_verifier_does_not_know_are_malformed() {
    for version in [0, 3] {
        let mut root = load("draw-valid-public");
        edit(dir(&mut root, "draw"), "bundle.json", |b| {
            b["version"] = json!(version);
        });
        assert_eq!(
            class(&root),
            (
                C::Malformed,
                format!("bundle.json: version {version} is not one this verifier knows (1, 2)")
            )
        );
    }
    let mut root = load("draw-valid-public");
    edit(dir(&mut root, "draw"), "bundle.json", |b| {
        b["format"] = json!("urne-draw-result");
    });
    assert_eq!(class(&root).0, C::Malformed);
    let mut root = load("draw-valid-public");
    edit(dir(&mut root, "draw"), "bundle.json", |b| {
        b["leaves_file"] = json!("leaves2.bin");
    });
    assert_eq!(class(&root).0, C::Malformed);
    let mut root = load("draw-valid-public");
    edit(dir(&mut root, "draw"), "result.json", |r| {
        r["format"] = json!("urne-draw-bundle");
    });
    assert_eq!(class(&root).0, C::Malformed);
    let mut root = load("draw-valid-public");
    edit(dir(&mut root, "draw"), "result.json", |r| {
        r["version"] = json!(2);
    });
    assert_eq!(class(&root).0, C::Inconsistent);
}

#[test]
fn rules_that_do_not_give_the_draw_are_inconsistent() {
    // The rules' hash is checked first: any change to rules.json is another rules file.
    let mut root = load("draw-valid-public");
    let d = dir(&mut root, "draw");
    let mut rules = d.files["rules.json"].clone();
    rules.push(b' ');
    put_signed(d, "rules.json", rules);
    assert_eq!(
        class(&root),
        (
            C::Inconsistent,
            "rules.json is not the rules file the draw was bound to (rules_sha256)".into()
        )
    );
    // Without rules.json, nothing of step 7 is checked (public mode).
    let mut root = load("draw-valid-public");
    let d = dir(&mut root, "draw");
    d.files.remove("rules.json");
    d.files.remove("rules.json.sig");
    let r = verify_draw(&root).unwrap();
    assert!(
        !r.checks.iter().any(|c| c.contains("(D-10)")),
        "{:?}",
        r.checks
    );
}

#[test]
fn a_signature_that_fails_is_bad_unless_the_keys_are_another_appliance_s() {
    let root = load("draw-valid-public");
    let f = at(&root, "draw");
    let ks = keys(&root);
    assert!(
        read_signed_opt(f, "result.json", &ks.result)
            .unwrap()
            .is_some()
    );
    assert_eq!(read_signed_opt(f, "absent.json", &ks.result), Ok(None));
    // result.json altered, the other files verify: bad-signature.
    let mut altered = f.clone();
    altered.files.get_mut("result.json").unwrap()[10] ^= 1;
    let e = read_signed_opt(&altered, "result.json", &ks.result).unwrap_err();
    assert_eq!(e.class, C::BadSignature);
    // A signature missing or not 64 bytes: bad-signature.
    let mut no_sig = f.clone();
    no_sig.files.remove("result.json.sig");
    assert_eq!(
        read_signed_opt(&no_sig, "result.json", &ks.result)
            .unwrap_err()
            .what,
        "result.json has no signature file result.json.sig"
    );
    let mut long = f.clone();
    long.files.get_mut("result.json.sig").unwrap().push(0);
    assert_eq!(
        read_signed_opt(&long, "result.json", &ks.result)
            .unwrap_err()
            .class,
        C::BadSignature
    );
    // Another appliance's result key: every file fails, and result.json names its own key.
    let other = key("other result").verifying_key().to_bytes();
    let e = read_signed_opt(f, "result.json", &other).unwrap_err();
    assert_eq!(e.class, C::Usage);
    assert!(e.what.contains(&k::key_id(&ks.result)), "{}", e.what);
    assert!(e.what.contains(&k::key_id(&other)), "{}", e.what);
    // ... but leaves.bin names no key: bad-signature.
    assert_eq!(
        read_signed_opt(f, "leaves.bin", &other).unwrap_err().class,
        C::BadSignature
    );
    // A file naming an id that is not 16 hex digits is not believed to name a key.
    for id in ["8bfd44b21061c29", "8bfd44b21061c2990", "8bfd44b21061c29z"] {
        let mut g = f.clone();
        let text = String::from_utf8(g.files["result.json"].clone()).unwrap();
        let real = k::key_id(&ks.result);
        g.files
            .insert("result.json".into(), text.replace(&real, id).into_bytes());
        assert_eq!(
            read_signed_opt(&g, "result.json", &other)
                .unwrap_err()
                .class,
            C::BadSignature,
            "{id}"
        );
    }
    // The whole folder under another appliance's keys: a usage mistake.
    let wrong = Keys {
        result: other,
        ..ks.clone()
    };
    assert_eq!(
        super::draw_folder::verify_draw_folder(f, &wrong, None)
            .unwrap_err()
            .class,
        C::Usage
    );
}

#[test]
fn a_result_json_that_is_not_the_one_the_manifest_lists_is_inconsistent() {
    // The same draw told in other bytes (compact JSON), validly signed: step 6 holds, the
    // manifest's size and SHA-256 do not.
    let mut root = load("draw-v2-valid");
    let d = dir(&mut root, "draw");
    let compact = serde_json::to_vec(&json(d, "result.json")).unwrap();
    put_signed(d, "result.json", compact);
    let (c, what) = class(&root);
    assert_eq!(c, C::Inconsistent);
    assert!(
        what.starts_with("result.json is not the file manifest.json lists"),
        "{what}"
    );
}

#[test]
fn a_lone_result_of_another_format_or_version_is_malformed() {
    use super::lone::verify_lone_result;
    let root = load("draw-valid-public");
    let ks = keys(&root);
    let r = verify_lone_result(at(&root, "draw"), "result.json", &ks).unwrap();
    assert_eq!(r.days, ["2018-12-22"]);
    assert_eq!(r.partial.len(), 1, "{:?}", r.partial);
    let changes: [fn(&mut serde_json::Value); 3] = [
        |r| r["format"] = json!("urne-draw-bundle"),
        |r| r["version"] = json!(0),
        |r| r["version"] = json!(3),
    ];
    for (i, change) in changes.iter().enumerate() {
        let mut root = load("draw-valid-public");
        edit(dir(&mut root, "draw"), "result.json", change);
        let e = verify_lone_result(at(&root, "draw"), "result.json", &ks).unwrap_err();
        assert_eq!(
            (e.class, e.what.as_str()),
            (
                C::Malformed,
                "result.json is not an urne-draw-result version 1 or 2"
            ),
            "{i}"
        );
    }
}

/// A folder in which reading one file fails (it was there when listed).
struct Failing {
    inner: MemFolder,
    name: &'static str,
}

impl super::folder::Folder for Failing {
    fn names(&self) -> Result<Vec<String>, super::folder::ReadError> {
        self.inner.names()
    }
    fn entry(&self, name: &str) -> super::folder::Entry {
        self.inner.entry(name)
    }
    fn read(&self, name: &str, limit: u64) -> Result<Vec<u8>, super::folder::ReadError> {
        if name == self.name {
            return Err(super::folder::ReadError(format!(
                "{name}: input/output error"
            )));
        }
        self.inner.read(name, limit)
    }
    fn open(&self, name: &str) -> std::io::Result<Box<dyn std::io::Read + Send + '_>> {
        self.inner.open(name)
    }
    fn sub(&self, name: &str) -> Option<Box<dyn super::folder::Folder + '_>> {
        self.inner.sub(name)
    }
    fn show(&self, name: &str) -> String {
        self.inner.show(name)
    }
}

#[test]
fn a_signature_that_cannot_be_read_is_unreadable_and_one_that_is_no_file_malformed() {
    let root = load("draw-valid-public");
    let ks = keys(&root);
    let f = Failing {
        inner: at(&root, "draw").clone(),
        name: "result.json.sig",
    };
    assert_eq!(
        read_signed_opt(&f, "result.json", &ks.result)
            .unwrap_err()
            .class,
        C::Unreadable
    );
    let mut g = at(&root, "draw").clone();
    g.files.remove("result.json.sig");
    g.folders
        .insert("result.json.sig".into(), MemFolder::default());
    // Not a regular file: malformed, as any file of the outputs (spec/formats.md §1.6), and as the
    // Python verifier says; only a missing one or one of another size is bad-signature (spec/formats.md §1.4).
    assert_eq!(
        read_signed_opt(&g, "result.json", &ks.result)
            .unwrap_err()
            .class,
        C::Malformed
    );
    let mut h = at(&root, "draw").clone();
    h.files.insert("result.json.sig".into(), vec![0; 65]);
    assert_eq!(
        read_signed_opt(&h, "result.json", &ks.result)
            .unwrap_err()
            .class,
        C::BadSignature
    );
}

#[test]
fn a_file_naming_another_key_is_altered_when_another_file_verifies() {
    let root = load("draw-valid-public");
    let ks = keys(&root);
    let real = k::key_id(&ks.result);
    // result.json edited to name another appliance's key, not re-signed; bundle.json and the
    // rest still verify under the key given: the keys are right, the file was altered.
    let mut f = at(&root, "draw").clone();
    let text = String::from_utf8(f.files["result.json"].clone()).unwrap();
    f.files.insert(
        "result.json".into(),
        text.replace(&real, "0123456789abcdef").into_bytes(),
    );
    let e = read_signed_opt(&f, "result.json", &ks.result).unwrap_err();
    assert_eq!(e.class, C::BadSignature, "{}", e.what);
    // Under another appliance's key nothing verifies: a usage mistake, even beside a signature
    // file that is itself signed under that key (signature files are never the other file).
    let other = key("other result");
    let mut g = at(&root, "draw").clone();
    let sig = ed25519_dalek::Signer::sign(&other, b"z")
        .to_bytes()
        .to_vec();
    let sig_sig = ed25519_dalek::Signer::sign(&other, &sig)
        .to_bytes()
        .to_vec();
    g.files.insert("z.sig".into(), sig);
    g.files.insert("z.sig.sig".into(), sig_sig);
    let e = read_signed_opt(&g, "result.json", &other.verifying_key().to_bytes()).unwrap_err();
    assert_eq!(e.class, C::Usage, "{}", e.what);
}
