//! The figures of a day and the export rules they rest on, across implementations: a genuine
//! export holding excluded accounts whose only play is retail or a refused subscription, sealed
//! and drawn by urne on a real SoftHSM token, then verified in auditor mode by `urne verify` and
//! by the Python verifier (spec/formats.md §4.1.1, §4.7: `excluded_accounts_with_plays` counts the
//! excluded accounts with a play record of any class); and urne's export reader against the
//! Python verifier's on the same bytes, rule by rule (retail by `online_channels`, no CR anywhere,
//! the line, nesting and size limits).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};
use urne_verify::draw::figures::figures_of_tally;
use urne_verify::entries::{MAX_EXPORT_BYTES, MAX_LINE, TallyOptions, VerifiedExport};
use urne_verify::rules::draw::DrawRules;

use crate::common::*;

pub(crate) const DAY: &str = "2018-12-05";
const AT: &str = "2018-12-05T10:00:00+01:00";
/// A subscription taken out before the participation period (D-5: never counts).
const OUTSIDE: &str = "2017-06-01T12:00:00Z";
/// One taken out inside it.
const INSIDE: &str = "2018-12-02T00:00:00Z";

pub(crate) fn producer_pub() -> PathBuf {
    root().join("tests/fixtures/keys/test-producer.pub.pem")
}

pub(crate) fn producer_id() -> String {
    let pem = std::fs::read_to_string(producer_pub()).unwrap();
    urne_verify::crypto::keys::key_id(
        &urne_verify::crypto::keys::public_key_from_pem(&pem).unwrap(),
    )
}

/// Signs `data` with the test producer key, as production does.
fn sign(data: &[u8]) -> Vec<u8> {
    use ed25519_dalek::Signer;
    let pem =
        std::fs::read_to_string(root().join("tests/fixtures/keys/test-producer.key.pem")).unwrap();
    let seed = urne_verify::crypto::keys::private_seed_from_pem(&pem).unwrap();
    ed25519_dalek::SigningKey::from_bytes(&seed)
        .sign(data)
        .to_bytes()
        .to_vec()
}

fn account(n: u32) -> String {
    format!("{n:064x}")
}

/// A play of `account` on `channel`, its subscription taken out at `sub` (or `null`).
pub(crate) fn play(id: &str, acct: u32, stake: u64, channel: &str, sub: Option<&str>) -> String {
    let sub = sub.map_or("null".into(), |t| format!(r#"{{"subscribed_at":"{t}"}}"#));
    format!(
        r#"{{"type":"play","id":"{id}","account":"{}","at":"{AT}","stake_cents":{stake},"channel":"{channel}","game":"loto","subscription":{sub}}}"#,
        account(acct)
    )
}

fn excl(acct: u32, reason: &str) -> String {
    format!(
        r#"{{"type":"exclusion","account":"{}","reason":"{reason}"}}"#,
        account(acct)
    )
}

/// An export of `operation` on `DAY` holding `records`, its header's counts theirs.
pub(crate) fn export(operation: &str, producer: &str, records: &[String]) -> Vec<u8> {
    let plays = records.iter().filter(|r| r.contains(r#""play""#)).count();
    let mut s = format!(
        r#"{{"format":"draw-entries","version":1,"operation":"{operation}","day":"{DAY}","producer":"{producer}","generated_at":"2018-12-06T07:30:00+01:00","status_as_of":"2018-12-06T07:30:00+01:00","plays":{plays},"exclusions":{}}}"#,
        records.len() - plays
    );
    s.push('\n');
    for r in records {
        s.push_str(r);
        s.push('\n');
    }
    s.into_bytes()
}

/// Writes `data` and its signature into `dir`; returns the export's path.
pub(crate) fn write_signed(dir: &Path, operation: &str, data: &[u8]) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(format!("entries-{operation}-{DAY}.jsonl"));
    std::fs::write(&path, data).unwrap();
    std::fs::write(format!("{}.sig", path.display()), sign(data)).unwrap();
    path
}

/// The day's records: 20 ordinary players, and the accounts the figures are about.
fn records() -> (Vec<String>, u64) {
    let mut recs = Vec::new();
    let mut cents: BTreeMap<u32, u64> = BTreeMap::new();
    for n in 100..120u32 {
        let stake = 1000 * u64::from(1 + n % 3);
        recs.push(play(&format!("n{n}"), n, stake, "web", None));
        *cents.entry(n).or_default() += stake;
    }
    recs.push(play("app", 100, 1000, "app", None));
    recs.push(play("sub-in", 101, 1000, "mobile", Some(INSIDE)));
    // A layout only the general reader takes (a space after each comma).
    recs.push(play("spaced", 102, 1000, "tablet", None).replace(",\"", ", \""));
    for n in [100, 101, 102] {
        *cents.entry(n).or_default() += 1000;
    }
    recs.extend([
        // Excluded: closed, its only play retail; minor, its only play a refused
        // subscription; fraud, only counting plays; closed, no play at all.
        excl(1, "closed"),
        play("r1", 1, 5000, "retail", None),
        excl(2, "minor"),
        play("s2", 2, 5000, "web", Some(OUTSIDE)),
        excl(3, "fraud"),
        play("c3", 3, 5000, "web", None),
        excl(4, "closed"),
        // Not excluded, and never counting.
        play("r5", 5, 5000, "retail", None),
        play("s6", 6, 5000, "app", Some(OUTSIDE)),
    ]);
    let entries = cents.values().map(|c| (c / 1000).min(3)).sum();
    (recs, entries)
}

pub(crate) fn python_verify(env: &Env, args: &[&str]) -> Output {
    Command::new("python3")
        .arg(root().join("verifier/urne_verify.py"))
        .args(args)
        .current_dir(env.dir.path())
        .output()
        .unwrap()
}

/// Exit 0 with no `partial:` line: everything was checked.
fn assert_verified(o: &Output, who: &str) {
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{who} failed ({:?}):\n{out}{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        !out.lines().any(|l| l.starts_with("partial:")),
        "{who}:\n{out}"
    );
}

/// Seals and draws `export` under `rules` in `env`, then verifies the draw in auditor mode with
/// both verifiers; returns `result.json`.
fn draw_and_verify_both(env: &Env, rules: &str, export: &Path) -> (String, Value) {
    let shown = env.ok(&[
        "seal",
        "--rules",
        rules,
        "--unofficial-rules",
        "--entries",
        export.to_str().unwrap(),
    ]);
    env.draw_ok(DAY, "out");
    env.ok(&["keys", "export", "--out", "keys"]);
    let pem = producer_pub();
    let args = [
        "out",
        "--keys",
        "keys",
        "--export",
        export.to_str().unwrap(),
        "--producer-key",
        pem.to_str().unwrap(),
    ];
    let mut urne_args = vec!["verify"];
    urne_args.extend(args);
    assert_verified(&env.urne_direct(&urne_args), "urne verify");
    assert_verified(&python_verify(env, &args), "urne_verify.py");
    let read = |f: &str| -> Value {
        serde_json::from_slice(&std::fs::read(env.path("out").join(f)).unwrap()).unwrap()
    };
    let (result, bundle) = (read("result.json"), read("bundle.json"));
    assert_eq!(result["figures"], bundle["figures"]);
    (shown, result)
}

#[test]
fn excluded_accounts_whose_only_play_is_retail_or_refused_count_in_both_verifiers() {
    let env = Env::new();
    let (recs, entries) = records();
    let op = "chanceux-noel-2018";
    let export = write_signed(&env.path("exports"), op, &export(op, &producer_id(), &recs));
    let (shown, result) = draw_and_verify_both(&env, &crate::draws::rules(), &export);
    assert_eq!(
        result["figures"],
        json!({
            "period": "P1",
            "tranche_cents": 1000,
            "plays": 28,
            "counting_plays": 24,
            "retail_plays": 2,
            "subscription_plays_refused": 2,
            "accounts_with_counting_plays": 21,
            "exclusion_records": {"closed": 2, "minor": 1, "fraud": 1},
            "excluded_accounts_with_plays": {"closed": 1, "minor": 1, "fraud": 1},
            "accounts_with_entries": 20,
            "entries": entries,
        })
    );
    assert!(shown.contains("closed: 1 ; minor: 1 ; fraud: 1"), "{shown}");
    // No excluded account is among the picks.
    for p in std::iter::once(&result["winner"]).chain(result["reserves"].as_array().unwrap()) {
        let a = p["account"].as_str().unwrap();
        assert!(!(1..=6).any(|n| account(n) == a), "{a}");
    }
}

#[test]
fn a_channel_outside_the_rules_online_channels_is_retail_in_a_genuine_draw() {
    // An operation (not an official one) whose online channels leave out `app`: its app plays
    // are retail (D-3), in urne and in the Python verifier, which reads the folder's rules.json.
    let env = Env::new();
    let op = "noel-test-sans-app";
    let mut rules: Value = serde_json::from_slice(
        &std::fs::read(root().join("rules/chanceux-noel-2018.json")).unwrap(),
    )
    .unwrap();
    rules["operation"] = json!(op);
    rules["online_channels"] = json!(["web", "mobile", "tablet"]);
    let rules_path = env.path("rules-sans-app.json");
    std::fs::write(&rules_path, serde_json::to_vec_pretty(&rules).unwrap()).unwrap();
    let mut recs: Vec<String> = (100..110u32)
        .map(|n| play(&format!("n{n}"), n, 2000, "web", None))
        .collect();
    recs.extend([
        play("a1", 1, 5000, "app", None),
        excl(1, "fraud"),
        play("a2", 2, 5000, "app", Some(OUTSIDE)),
        play("a3", 100, 5000, "app", None),
    ]);
    let export = write_signed(&env.path("exports"), op, &export(op, &producer_id(), &recs));
    let (_, result) = draw_and_verify_both(&env, rules_path.to_str().unwrap(), &export);
    let f = &result["figures"];
    assert_eq!(f["plays"], 13);
    assert_eq!(f["retail_plays"], 3);
    assert_eq!(f["subscription_plays_refused"], 0);
    assert_eq!(f["counting_plays"], 10);
    assert_eq!(
        f["excluded_accounts_with_plays"],
        json!({"closed": 0, "minor": 0, "fraud": 1})
    );
    assert_eq!(f["entries"], 20);
}

// ---- urne's export reader and the Python verifier's, on the same bytes ----------------------

const PRODUCER: &str = "0123456789abcdef";
const OP: &str = "chanceux-noel-2018";

/// A play line of exactly `len` bytes (an unknown member `pad` fills it).
fn padded(line: &str, len: usize) -> String {
    let open = format!("{},\"pad\":\"", &line[..line.len() - 1]);
    format!("{open}{}\"}}", "x".repeat(len - open.len() - 2))
}

/// `depth` levels of nesting in all, the line's object being the first.
fn nested(line: &str, depth: usize) -> String {
    let open: String = (1..depth)
        .map(|i| if i % 2 == 1 { "{\"k\":" } else { "[" })
        .collect();
    let close: String = (1..depth)
        .rev()
        .map(|i| if i % 2 == 1 { "}" } else { "]" })
        .collect();
    format!("{},\"deep\":{open}0{close}}}", &line[..line.len() - 1])
}

/// The bytes of `data` with a CR at `at`.
fn cr_at(data: &[u8], at: usize) -> Vec<u8> {
    let mut d = data.to_vec();
    d.insert(at, b'\r');
    d
}

/// Named exports, each with the rules (as JSON) to read it under, and whether it is valid.
fn cases() -> Vec<(String, Vec<u8>, Value, bool)> {
    let shipped: Value =
        serde_json::from_slice(urne_verify::rules::draw::CHANCEUX_NOEL_2018).unwrap();
    let mut no_app = shipped.clone();
    no_app["online_channels"] = json!(["web", "mobile", "tablet"]);
    let (recs, _) = records();
    let base = export(OP, PRODUCER, &recs);
    let mut v = vec![
        ("classes".to_string(), base.clone(), shipped.clone(), true),
        ("classes without app".into(), base.clone(), no_app, true),
    ];
    // A CR at each place of the first play line (line 2), of the header, and before an LF.
    let header_len = base.iter().position(|&b| b == b'\n').unwrap();
    let line2 = recs[0].len();
    for k in (0..=line2).step_by(7).chain([line2]) {
        let name = format!("CR at column {} of line 2", k + 1);
        v.push((
            name,
            cr_at(&base, header_len + 1 + k),
            shipped.clone(),
            false,
        ));
    }
    for k in [1, 9, 10, header_len / 2, header_len - 1, header_len] {
        let name = format!("CR at column {} of line 1", k + 1);
        v.push((name, cr_at(&base, k), shipped.clone(), false));
    }
    let p = play("p", 7, 1000, "web", None);
    let one = |line: String| export(OP, PRODUCER, &[line]);
    v.push((
        "tab between tokens".into(),
        one(p.replace(',', ",\t")),
        shipped.clone(),
        true,
    ));
    for (len, ok) in [(MAX_LINE, true), (MAX_LINE + 1, false)] {
        v.push((
            format!("record of {len} bytes"),
            one(padded(&p, len)),
            shipped.clone(),
            ok,
        ));
        let h = String::from_utf8(one(p.clone())).unwrap();
        let (header, rest) = h.split_once('\n').unwrap();
        let long_header = format!("{}\n{rest}", padded(header, len));
        v.push((
            format!("header of {len} bytes"),
            long_header.into_bytes(),
            shipped.clone(),
            ok,
        ));
    }
    for (depth, ok) in [(64, true), (65, false)] {
        v.push((
            format!("record nested {depth} deep"),
            one(nested(&p, depth)),
            shipped.clone(),
            ok,
        ));
        let h = String::from_utf8(one(p.clone())).unwrap();
        let (header, rest) = h.split_once('\n').unwrap();
        let deep = format!("{}\n{rest}", nested(header, depth));
        v.push((
            format!("header nested {depth} deep"),
            deep.into_bytes(),
            shipped.clone(),
            ok,
        ));
    }
    // The date-times of spec/formats.md §4.1.2 (M-33), as a subscription's date (any instant is a valid
    // subscribed_at; counting or not depends on the participation period).
    for (t, ok) in [
        ("2018-12-01t10:00:00z", true),
        ("2018-12-01T10:00:00.123456789012Z", true),
        ("2018-12-01T10:00:00-00:00", true),
        ("2018-12-01T10:00:00+23:59", true),
        ("0000-01-01T00:00:00Z", true),
        ("2016-02-29T00:00:00Z", true),
        ("2018-02-29T00:00:00Z", false),
        ("2018-12-01T10:00:60Z", false),
        ("2018-12-01T24:00:00Z", false),
        ("2018-12-01T10:00:00+24:00", false),
        ("2018-12-01T10:00:00", false),
        ("2018-12-01 10:00:00Z", false),
        ("2018-12-1T10:00:00Z", false),
        ("2018-12-01T10:00:00.Z", false),
    ] {
        v.push((
            format!("subscribed_at {t}"),
            one(play("p", 7, 1000, "web", Some(t))),
            shipped.clone(),
            ok,
        ));
    }
    v
}

/// Python's reading of each export of `dir` (`case-N.jsonl` under `case-N.rules.json`): its
/// figures, or its failure's class.
fn python_readings(dir: &Path, n: usize) -> Vec<Value> {
    const SCRIPT: &str = r#"
import json, os, sys
sys.path.insert(0, sys.argv[1])
import vexport
from vcore import Failure
out = []
for i in range(int(sys.argv[3])):
    p = os.path.join(sys.argv[2], f"case-{i}")
    rules = json.load(open(p + ".rules.json"))
    try:
        h, t = vexport.parse_export(open(p + ".jsonl", "rb").read(), rules, sys.argv[4])
        out.append({"figures": vexport.figures_of(t, rules, vexport.entries_of(t, rules))})
    except Failure as e:
        out.append({"failure": e.cls})
print(json.dumps(out))
"#;
    let o = Command::new("python3")
        .args(["-c", SCRIPT])
        .arg(root().join("verifier"))
        .arg(dir)
        .arg(n.to_string())
        .arg(PRODUCER)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn urne_and_the_python_verifier_read_exports_alike() {
    let dir = tempfile::tempdir().unwrap();
    let cases = cases();
    for (i, (_, data, rules, _)) in cases.iter().enumerate() {
        std::fs::write(dir.path().join(format!("case-{i}.jsonl")), data).unwrap();
        let rules = serde_json::to_vec(rules).unwrap();
        std::fs::write(dir.path().join(format!("case-{i}.rules.json")), rules).unwrap();
    }
    let python = python_readings(dir.path(), cases.len());
    for ((name, data, rules, valid), py) in cases.iter().zip(&python) {
        let rules = DrawRules::from_json(&serde_json::to_vec(rules).unwrap()).unwrap();
        let v = VerifiedExport {
            sha256: urne_verify::crypto::sha256(data).0,
            size: data.len() as u64,
            key: [0; 32],
            key_id: PRODUCER.parse().unwrap(),
        };
        let opts = TallyOptions { threads: 2 };
        let urne = urne_verify::entries::tally_export_with(|| Ok(&data[..]), &v, &rules, &opts);
        match urne {
            Ok(t) => {
                assert!(valid, "{name}: urne accepted it");
                let figures = serde_json::to_value(figures_of_tally(&t)).unwrap();
                assert_eq!(py["figures"], figures, "{name}");
            }
            Err(e) => {
                assert!(!valid, "{name}: urne refused it: {e}");
                assert_eq!(py["failure"], "malformed", "{name}: urne says {e}");
            }
        }
    }
    // The retail-only and refused-only excluded accounts, and `app` outside the online channels.
    let figures = |i: usize| &python[i]["figures"];
    assert_eq!(
        figures(0)["excluded_accounts_with_plays"],
        json!({"closed": 1, "minor": 1, "fraud": 1})
    );
    assert_eq!(
        (
            figures(0)["retail_plays"].clone(),
            figures(1)["retail_plays"].clone()
        ),
        (json!(2), json!(4))
    );
}

#[test]
fn both_verifiers_refuse_an_oversized_or_irregular_export_from_its_metadata() {
    const SCRIPT: &str = r#"
import json, sys
sys.path.insert(0, sys.argv[1])
import vexport
from vcore import Failure
try:
    vexport.read_export(sys.argv[2], {}, [])
    print("accepted")
except Failure as e:
    print(e.cls)
"#;
    let dir = tempfile::tempdir().unwrap();
    let sparse = dir.path().join("sparse.jsonl");
    let f = std::fs::File::create(&sparse).unwrap();
    if f.set_len(MAX_EXPORT_BYTES + 1).is_err() {
        return; // a file system without sparse files: nothing to check here
    }
    drop(f);
    std::fs::write(format!("{}.sig", sparse.display()), [0u8; 64]).unwrap();
    let fifo = dir.path().join("fifo.jsonl");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    std::fs::write(format!("{}.sig", fifo.display()), [0u8; 64]).unwrap();
    for (p, kind) in [(&sparse, "too-large"), (&fifo, "not-a-file")] {
        let meta = std::fs::metadata(p).unwrap();
        let e = urne_verify::entries::check_export_metadata(&meta).unwrap_err();
        assert_eq!(e.kind.name(), kind);
    }
    for p in [&sparse, &fifo] {
        let o = Command::new("python3")
            .args(["-c", SCRIPT])
            .arg(root().join("verifier"))
            .arg(p)
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&o.stdout).trim(),
            "malformed",
            "{}",
            p.display()
        );
    }
}
