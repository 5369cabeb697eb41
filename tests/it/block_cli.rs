//! Instant-game blocks through the real binary and a real SoftHSM token: generate, verify,
//! reveal, ticket show, proofs, refusals and tampering (G-1 … G-8, design principles 1–4). The
//! production files go to the folder standing for the separate secret medium (`OUT-secret`,
//! [`secret_of`]); a test that needs one beside its commitment copies it there, as production
//! or a regulator holding the medium would.
//! Blocks here use a reduced prize table under another game id (every tier present, 2,000
//! tickets) so the debug test run stays short; the full 800,000-ticket block is exercised by
//! the unit tests, the vectors, the demo and the benchmark.

use crate::common::*;
use crate::outputs::secret_of;
use std::path::{Path, PathBuf};

const GAME: &str = "test-small-game";

/// A reduced rules file in the env's folder.
pub(crate) fn small_rules(env: &Env) -> PathBuf {
    let official = urne_verify::rules::game::GameRules::from_json(
        &std::fs::read(root().join("rules/noel-de-la-chance-2015.json")).unwrap(),
    )
    .unwrap();
    let bytes = urne_verify::rules::game::reduced_rules_json(
        &official,
        GAME,
        2000,
        [1, 1, 5, 40, 60, 250, 150],
    );
    let p = env.path("small-rules.json");
    std::fs::write(&p, bytes).unwrap();
    p
}

pub(crate) fn generate(
    env: &Env,
    rules: &Path,
    price: &str,
    first: &str,
    blocks: &str,
    out: &str,
) -> std::process::Output {
    env.urne(&[
        "block",
        "generate",
        "--rules",
        rules.to_str().unwrap(),
        "--unofficial-rules",
        "--price",
        price,
        "--emission",
        "t1",
        "--first",
        first,
        "--blocks",
        blocks,
        "--out",
        out,
        "--secret-out",
        &secret_of(out),
    ])
}

/// Copies the production file of block `stem` (and its signature) from the secret medium of
/// `out` into `out`.
pub(crate) fn bring_production_file(env: &Env, out: &str, stem: &str) {
    for ext in ["tickets.csv", "tickets.csv.sig"] {
        let name = format!("{stem}.{ext}");
        std::fs::copy(
            env.path(&secret_of(out)).join(&name),
            env.path(out).join(&name),
        )
        .unwrap();
    }
}

fn id(price: u64, n: u32) -> String {
    format!("{GAME}/{price}/t1/{n}")
}

fn stem(price: u64, n: u32) -> String {
    id(price, n).replace('/', "_")
}

#[test]
fn blocks_at_every_price_verify_with_exact_counts() {
    use std::os::unix::fs::PermissionsExt;
    let env = Env::new();
    let rules = small_rules(&env);
    env.ok(&["keys", "export", "--out", "keys"]);
    for price in ["50", "100", "200"] {
        let o = generate(&env, &rules, price, "1", "2", "out");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    env.ok(&["verify", "out", "--keys", "keys"]);
    let c: serde_json::Value = serde_json::from_slice(
        &std::fs::read(env.path(&format!("out/{}.commit.json", stem(200, 2)))).unwrap(),
    )
    .unwrap();
    let units: u64 = c["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["units"].as_u64().unwrap())
        .sum();
    assert_eq!(units, 2000);
    assert_eq!(c["tiers"][0]["tier"], 10);
    assert_eq!(c["tiers"][0]["units"], 1);
    assert_eq!(c["tiers"][0]["prize_cents"], 1_000_000); // G-3: EUR 10,000 at EUR 2
    // The production file is on the secret medium only, readable by its owner only, signed and
    // openssl-verifiable.
    assert!(
        !env.path(&format!("out/{}.tickets.csv", stem(50, 1)))
            .exists()
    );
    let csv = env.path(&format!("out-secret/{}.tickets.csv", stem(50, 1)));
    let mode = std::fs::metadata(&csv).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    assert!(openssl_verify(
        &env.path("keys/result.pub.pem"),
        &csv,
        &PathBuf::from(format!("{}.sig", csv.display()))
    ));
    env.ok(&["audit", "verify", "--keys", "audit-keys", "--strict"]);
}

#[test]
fn a_block_identity_cannot_be_generated_twice_unless_voided() {
    let env = Env::new();
    let rules = small_rules(&env);
    assert!(
        generate(&env, &rules, "100", "1", "1", "a")
            .status
            .success()
    );
    let n_entropy = count_kind(&env, "block.entropy");
    let o = generate(&env, &rules, "100", "1", "1", "b");
    assert_fails(&o, 4, "block-already-generated");
    assert!(!env.path("b").exists(), "nothing written");
    assert_eq!(
        count_kind(&env, "block.entropy"),
        n_entropy,
        "no entropy requested"
    );
    // A range overlapping a generated block is refused as a whole, before any entropy.
    let o = generate(&env, &rules, "100", "1", "3", "d");
    assert_fails(&o, 4, "block-already-generated");
    env.ok(&[
        "block",
        "void",
        "--block",
        &id(100, 1),
        "--reason",
        "printer jam during transfer",
    ]);
    assert!(
        generate(&env, &rules, "100", "1", "1", "e")
            .status
            .success()
    );
    let c: serde_json::Value = serde_json::from_slice(
        &std::fs::read(env.path(&format!("e/{}.commit.json", stem(100, 1)))).unwrap(),
    )
    .unwrap();
    assert_eq!(c["attempt"], 2);
}

fn count_kind(env: &Env, kind: &str) -> i64 {
    rusqlite::Connection::open(env.db())
        .unwrap()
        .query_row("SELECT COUNT(*) FROM events WHERE kind = ?1", [kind], |r| {
            r.get(0)
        })
        .unwrap()
}

#[test]
fn a_generated_record_altered_in_the_database_is_an_error_not_a_panic() {
    // Someone with write access to the database (triggers dropped) breaks the outcomes root
    // recorded in the block.generated event (uppercase hex): the chain no longer verifies, so the
    // reveal and the void stop before they record or decide anything (exit 5), and nothing is
    // revealed.
    let env = Env::new();
    let rules = small_rules(&env);
    assert!(
        generate(&env, &rules, "100", "1", "1", "out")
            .status
            .success()
    );
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let payload: String = c
        .query_row(
            "SELECT payload FROM events WHERE kind = 'block.generated'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&payload).unwrap();
    let root = v["outcomes_root"].as_str().unwrap().to_string();
    drop(c);
    tamper_payload(&env, "block.generated", &root, &root.to_uppercase());
    let before = event_total(&env);
    let closed = "2015-12-31T23:59:59+01:00";
    let o = env.urne(&[
        "block",
        "reveal",
        "--block",
        &id(100, 1),
        "--sales-closed-at",
        closed,
        "--out",
        "rv",
    ]);
    let err = assert_fails(&o, 7, "trail-broken");
    assert_event(&err, seq_of(&env, "block.generated"));
    assert_eq!(count_kind(&env, "block.revealed"), 0, "nothing revealed");
    assert!(!env.path("rv").exists());
    let o = env.urne(&[
        "block",
        "void",
        "--block",
        &id(100, 1),
        "--reason",
        "printer jam during transfer",
    ]);
    let err = assert_fails(&o, 7, "trail-broken");
    assert_event(&err, seq_of(&env, "block.generated"));
    assert_eq!(count_kind(&env, "block.void"), 0, "nothing voided");
    assert_eq!(
        event_total(&env),
        before,
        "nothing was recorded on the altered trail"
    );
}

#[test]
fn reveal_lets_anyone_recompute_the_block_and_tampering_fails() {
    let env = Env::new();
    let rules = small_rules(&env);
    env.ok(&["keys", "export", "--out", "keys"]);
    assert!(
        generate(&env, &rules, "100", "1", "1", "out")
            .status
            .success()
    );
    let b = id(100, 1);
    let closed = sales_close(&env, &b);
    env.ok(&[
        "block",
        "reveal",
        "--block",
        &b,
        "--sales-closed-at",
        &closed,
        "--out",
        "out",
    ]);
    let v = env.ok(&["verify", "out", "--keys", "keys"]);
    assert!(v.contains("revealed: every ticket recomputed"), "{v}");
    // With the production file brought from the secret medium: identical to the recomputed block.
    bring_production_file(&env, "out", &stem(100, 1));
    let v = env.ok(&["verify", "out", "--keys", "keys"]);
    assert!(v.contains("recomputed from the revealed seed"), "{v}");
    // ticket show agrees with the production file, for every choice.
    let csv =
        std::fs::read_to_string(env.path(&format!("out/{}.tickets.csv", stem(100, 1)))).unwrap();
    let winner = csv
        .lines()
        .skip(1)
        .find(|l| l.split(',').nth(1) == Some("10"))
        .unwrap();
    let pos = winner.split(',').next().unwrap();
    for choice in ["1", "2", "3"] {
        let s = env.ok(&[
            "ticket",
            "show",
            "--block",
            &b,
            "--position",
            pos,
            "--choice",
            choice,
            "--dir",
            "out",
            "--keys",
            "keys",
            "--lang",
            "en",
        ]);
        assert!(s.contains("chosen symbol appears 10 times"), "{s}");
        assert!(s.contains("wins €5,000.00"), "{s}");
        assert!(s.contains("identical"), "{s}");
    }
    // A proof of that ticket verifies against the published commitment.
    env.ok(&[
        "proof",
        "--block",
        &b,
        "--position",
        pos,
        "--dir",
        "out",
        "--out",
        "t.json",
    ]);
    env.ok(&["verify", "t.json", "--keys", "keys", "--published", "out"]);
    // The appliance never signs a proof against a commitment it did not sign.
    let cp = env.path(&format!("out/{}.commit.json", stem(100, 1)));
    let orig = std::fs::read(&cp).unwrap();
    let mut forged = orig.clone();
    let i = forged.len() / 2;
    forged[i] ^= 0x01;
    std::fs::write(&cp, &forged).unwrap();
    let o = env.urne(&[
        "proof",
        "--block",
        &b,
        "--position",
        pos,
        "--dir",
        "out",
        "--out",
        "t2.json",
    ]);
    assert_fails(&o, 2, "commitment-invalid");
    assert!(!env.path("t2.json").exists());
    std::fs::write(&cp, &orig).unwrap();
    // Tampering: one byte of any file fails.
    let names: Vec<String> = std::fs::read_dir(env.path("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".pem"))
        .collect();
    for n in names {
        let p = env.path("out").join(&n);
        let orig = std::fs::read(&p).unwrap();
        let mut bad = orig.clone();
        let i = bad.len() / 3;
        bad[i] ^= 0x04;
        std::fs::write(&p, &bad).unwrap();
        assert_fails(
            &env.urne(&["verify", "out", "--keys", "keys"]),
            1,
            "verification-failed",
        );
        std::fs::write(&p, &orig).unwrap();
    }
    env.ok(&["verify", "out", "--keys", "keys"]);
}

#[test]
fn a_reordered_production_file_fails_even_if_re_signed() {
    use ed25519_dalek::Signer;
    let env = Env::new();
    let rules = small_rules(&env);
    assert!(
        generate(&env, &rules, "50", "1", "1", "out")
            .status
            .success()
    );
    bring_production_file(&env, "out", &stem(50, 1));
    let csv_p = env.path(&format!("out/{}.tickets.csv", stem(50, 1)));
    let csv = std::fs::read_to_string(&csv_p).unwrap();
    let mut lines: Vec<String> = csv.lines().map(String::from).collect();
    // Swap the tickets at positions 0 and 1 (keeping the position column in order).
    let rest = |l: &str| l.split_once(',').unwrap().1.to_string();
    let (a, b) = (rest(&lines[1]), rest(&lines[2]));
    assert_ne!(a, b);
    lines[1] = format!("0,{b}");
    lines[2] = format!("1,{a}");
    let forged = lines.join("\n") + "\n";
    // The attacker makes a whole output of it under their own key: the commitment names their
    // key and the forged file's SHA-256, the manifest lists both, everything is re-signed. Only
    // the rows themselves can then betray it (spec/formats.md §5.B8).
    let sk = ed25519_dalek::SigningKey::from_bytes(&[7u8; 32]);
    let fake_id = urne_verify::crypto::keys::key_id(&sk.verifying_key().to_bytes());
    let sha = |b: &[u8]| hex::encode(urne_verify::crypto::sha256(b));
    let s = stem(50, 1);
    let read_json = |n: &str| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(env.path(&format!("out/{n}"))).unwrap()).unwrap()
    };
    let pretty = |v: &serde_json::Value| {
        serde_json::to_vec_pretty(v)
            .unwrap()
            .into_iter()
            .chain([b'\n'])
            .collect::<Vec<u8>>()
    };
    let mut commit = read_json(&format!("{s}.commit.json"));
    commit["result_key_id"] = fake_id.clone().into();
    commit["tickets_sha256"] = sha(forged.as_bytes()).into();
    let commit_bytes = pretty(&commit);
    let mut manifest = read_json(&format!("{s}.manifest.json"));
    manifest["result_key_id"] = fake_id.into();
    for f in manifest["files"].as_array_mut().unwrap() {
        let (size, h) = match f["name"].as_str().unwrap() {
            n if n.ends_with(".commit.json") => (commit_bytes.len(), sha(&commit_bytes)),
            n if n.ends_with(".tickets.csv") => (forged.len(), sha(forged.as_bytes())),
            _ => continue,
        };
        f["size"] = size.into();
        f["sha256"] = h.into();
    }
    let fake = env.path("fake");
    std::fs::create_dir_all(&fake).unwrap();
    for e in std::fs::read_dir(env.path("out")).unwrap() {
        let e = e.unwrap();
        let n = e.file_name().to_string_lossy().into_owned();
        if n.ends_with(".sig") || n.ends_with(".pem") {
            continue;
        }
        let bytes = if e.path() == csv_p {
            forged.clone().into_bytes()
        } else if n.ends_with(".commit.json") {
            commit_bytes.clone()
        } else if n.ends_with(".manifest.json") {
            pretty(&manifest)
        } else {
            std::fs::read(e.path()).unwrap()
        };
        std::fs::write(fake.join(&n), &bytes).unwrap();
        std::fs::write(fake.join(format!("{n}.sig")), sk.sign(&bytes).to_bytes()).unwrap();
    }
    std::fs::write(
        fake.join("result.pub.pem"),
        urne_verify::crypto::keys::public_key_to_pem(&sk.verifying_key().to_bytes()),
    )
    .unwrap();
    std::fs::copy(env.path("out/audit.pub.pem"), fake.join("audit.pub.pem")).unwrap();
    let o = env.urne(&["verify", "fake", "--keys", "fake"]);
    let err = assert_fails(&o, 1, "verification-failed");
    assert_class(&err, "commitment-mismatch");
}

#[test]
fn bad_block_arguments_are_input_errors() {
    let env = Env::new();
    let rules = small_rules(&env);
    assert_fails(
        &generate(&env, &rules, "75", "1", "1", "o"),
        2,
        "bad-block-id",
    ); // G-2: not a price point
    let o = env.urne(&[
        "block",
        "generate",
        "--rules",
        rules.to_str().unwrap(),
        "--unofficial-rules",
        "--price",
        "100",
        "--emission",
        "Bad Id",
        "--out",
        "o",
        "--secret-out",
        "o-secret",
    ]);
    assert_fails(&o, 2, "bad-block-id");
    assert_fails(
        &env.urne(&[
            "block",
            "reveal",
            "--block",
            &id(100, 9),
            "--sales-closed-at",
            "2015-12-31T23:59:59+01:00",
            "--out",
            "o",
        ]),
        4,
        "block-not-generated",
    );
    assert_fails(
        &env.urne(&[
            "block",
            "reveal",
            "--block",
            "not/an/id",
            "--sales-closed-at",
            "2015-12-31T23:59:59+01:00",
            "--out",
            "o",
        ]),
        2,
        "bad-block-id",
    );
    // A prize table that does not add up is refused at load.
    let mut r: serde_json::Value = serde_json::from_slice(&std::fs::read(&rules).unwrap()).unwrap();
    r["prize_table"][0]["units"] = 2.into();
    std::fs::write(env.path("bad.json"), serde_json::to_vec(&r).unwrap()).unwrap();
    let o = env.urne(&[
        "block",
        "generate",
        "--rules",
        "bad.json",
        "--price",
        "100",
        "--emission",
        "t1",
        "--out",
        "o",
        "--secret-out",
        "o-secret",
    ]);
    assert_fails(&o, 2, "rules-refused");
}
