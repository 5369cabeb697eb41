//! MUSTs of SPEC.md that bind the appliance rather than a verifier (tests/musts.toml cites each
//! test by its id): an empty day at `urne draw` (spec/appliance.md §4.5), the sealing key's attributes and the
//! IVs the token gives for sealing (spec/appliance.md §6.9). Real SoftHSM tokens; the forwarding module
//! (`tests/fixtures/pkcs11/forward.c`) answers `C_GenerateRandom` where a test needs a faulty
//! generator. Each test also runs its control, so that it fails when the rule is not applied.

use crate::block_cli::small_rules;
use crate::common::*;
use crate::outputs::secret_of;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Output;

const DAY: &str = "2018-12-05";

fn events(env: &Env, kind: &str) -> i64 {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.query_row("SELECT COUNT(*) FROM events WHERE kind = ?1", [kind], |r| {
        r.get(0)
    })
    .unwrap()
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

fn producer_id() -> String {
    let pem =
        std::fs::read_to_string(root().join("tests/fixtures/keys/test-producer.pub.pem")).unwrap();
    urne_verify::crypto::keys::key_id(
        &urne_verify::crypto::keys::public_key_from_pem(&pem).unwrap(),
    )
}

/// A signed export of [`DAY`] whose plays are `plays` (channel, stake in cents), one account
/// each; returns its path.
fn export_of(env: &Env, plays: &[(&str, u64)]) -> PathBuf {
    let mut s = format!(
        r#"{{"format":"draw-entries","version":1,"operation":"chanceux-noel-2018","day":"{DAY}","producer":"{}","generated_at":"2018-12-06T07:30:00+01:00","status_as_of":"2018-12-06T07:30:00+01:00","plays":{},"exclusions":0}}"#,
        producer_id(),
        plays.len()
    );
    s.push('\n');
    for (i, (channel, stake)) in plays.iter().enumerate() {
        let _ = write!(
            s,
            r#"{{"type":"play","id":"p{i}","account":"{:064x}","at":"{DAY}T10:00:00+01:00","stake_cents":{stake},"channel":"{channel}","game":"loto","subscription":null}}"#,
            i + 1
        );
        s.push('\n');
    }
    let dir = env.path("exports");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("entries-chanceux-noel-2018-{DAY}.jsonl"));
    std::fs::write(&path, &s).unwrap();
    std::fs::write(format!("{}.sig", path.display()), sign(s.as_bytes())).unwrap();
    path
}

fn seal(env: &Env, export: &Path) -> String {
    env.ok(&[
        "seal",
        "--rules",
        &crate::draws::rules(),
        "--entries",
        export.to_str().unwrap(),
    ])
}

// MUST: M-41
#[test]
fn an_empty_day_is_sealed_and_its_draw_refused_exit_4_before_any_entropy() {
    // Only retail plays: no account has an entry. The seal holds (0 leaves, signed).
    let env = Env::new();
    let export = export_of(&env, &[("retail", 5000), ("retail", 1500)]);
    seal(&env, &export);
    assert_eq!(events(&env, "draw.seal"), 1);
    let failed = events(&env, "command.failed");
    // The draw is refused on the terminal, where a day with entries would ask for the entropy
    // and then the contribution.
    let o = env.draw(DAY, "out");
    let shown = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(4), "{shown}");
    screen_error(&shown, "day-empty");
    assert!(!shown.contains("panicked"), "{shown}");
    assert_eq!(
        events(&env, "draw.entropy"),
        0,
        "entropy asked for: {shown}"
    );
    assert_eq!(events(&env, "draw.contribution"), 0, "{shown}");
    assert_eq!(events(&env, "draw.result"), 0, "{shown}");
    assert_eq!(events(&env, "command.failed"), failed + 1, "{shown}");
    // After the day-ended and D-8 checks: 2018-12-05 is drawn long after P1's draw date.
    assert_eq!(events(&env, "draw.late"), 1, "{shown}");
    assert!(!env.path("out").join("bundle.json").exists());
    assert!(!env.path("out").join("result.json").exists());

    // The control: the same day with one counting play is drawn.
    let env = Env::new();
    let export = export_of(&env, &[("retail", 5000), ("web", 1500)]);
    seal(&env, &export);
    env.draw_ok(DAY, "out");
    assert_eq!(events(&env, "draw.entropy"), 1);
    assert!(env.path("out").join("bundle.json").is_file());
}

/// `urne block generate` of `blocks` reduced blocks in `env`, the commissaire typing the
/// contribution, with `C_GenerateRandom` of 12 bytes (a sealing IV) answered by `iv_cmd` (a
/// shell command printing hex; the other requests are SoftHSM's).
fn generate_with_ivs(env: &Env, blocks: &str, iv_cmd: &str) -> Output {
    let rules = small_rules(env);
    let out = "blocks";
    let args = [
        "block",
        "generate",
        "--rules",
        rules.to_str().unwrap(),
        "--unofficial-rules",
        "--price",
        "100",
        "--emission",
        "t1",
        "--first",
        "1",
        "--blocks",
        blocks,
        "--out",
        out,
        "--secret-out",
        &secret_of(out),
    ];
    let mut c = env.command_for(&args);
    c.env(
        "URNE_TEST_FWD_RANDOM_CMD",
        format!(r#"if [ "$URNE_TEST_FWD_LEN" = 12 ]; then {iv_cmd}; fi"#),
    );
    let mut o = c.output().unwrap();
    o.stderr = o.stdout.clone();
    o
}

/// The 12-byte answers the forwarding module gave from the command (`random 12 cmd HEX`).
fn ivs_given(env: &Env) -> Vec<String> {
    env.fwd_log()
        .lines()
        .filter_map(|l| l.strip_prefix("random 12 cmd "))
        .map(str::to_string)
        .collect()
}

// MUST: M-145
#[test]
fn a_sealing_iv_of_one_byte_value_or_repeated_in_the_process_is_refused_exit_3() {
    // One byte value: the first seal is refused.
    let env = Env::forwarding(true);
    let o = generate_with_ivs(&env, "1", "printf '%024d' 0");
    let shown = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(3), "{shown}");
    assert!(shown.contains("IV"), "{shown}");
    assert!(!shown.contains("panicked"), "{shown}");
    assert_eq!(ivs_given(&env), ["0".repeat(24)], "{}", env.fwd_log());
    assert_eq!(events(&env, "block.generated"), 0, "{shown}");

    // The same IV (not one byte value) for the two blocks of one command: the second seal is
    // refused.
    let env = Env::forwarding(true);
    let o = generate_with_ivs(&env, "2", "printf 0102030405060708090a0b0c");
    let shown = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(3), "{shown}");
    assert!(shown.contains("IV"), "{shown}");
    let ivs = ivs_given(&env);
    assert_eq!(ivs.len(), 2, "{}", env.fwd_log());
    assert_eq!(ivs[0], ivs[1]);

    // The control: two different IVs from the same command seal both blocks.
    let env = Env::forwarding(true);
    let counter = env.path("iv-counter");
    let cmd = format!(
        "n=$(cat '{0}' 2>/dev/null || echo 0); n=$((n + 1)); echo $n > '{0}'; printf '0a%022x' $n",
        counter.display()
    );
    let o = generate_with_ivs(&env, "2", &cmd);
    let shown = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{shown}");
    let ivs = ivs_given(&env);
    assert!(ivs.len() >= 2 && ivs[0] != ivs[1], "{}", env.fwd_log());
}

/// The SoftHSM file that holds the token's sealing key (`tokens/<uuid>/<uuid>.object`): the one
/// whose absence takes `urne-seal` from the token's secret keys.
fn seal_key_file(env: &Env) -> PathBuf {
    let listed = |env: &Env| -> bool {
        let cfg: serde_json::Value =
            serde_json::from_slice(&std::fs::read(env.path("urne.json")).unwrap()).unwrap();
        let mut c = std::process::Command::new("pkcs11-tool");
        scrub(&mut c);
        let o = c
            .args(["--module", cfg["module"].as_str().unwrap()])
            .args(["--token-label", cfg["token_label"].as_str().unwrap()])
            .args(["--login", "--pin", &env.pin()])
            .args(["--list-objects", "--type", "secrkey"])
            .env("SOFTHSM2_CONF", env.path("softhsm2.conf"))
            .output()
            .expect("pkcs11-tool (apt-get install opensc; scripts/lib.sh installs it)");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).contains("urne-seal")
    };
    assert!(listed(env));
    let mut files = Vec::new();
    for token in std::fs::read_dir(env.path("tokens")).unwrap() {
        let token = token.unwrap().path();
        if !token.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&token).unwrap() {
            let f = f.unwrap().path();
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            if name.ends_with(".object") && name != "token.object" {
                files.push(f);
            }
        }
    }
    for f in files {
        let away = f.with_extension("away");
        std::fs::rename(&f, &away).unwrap();
        let gone = !listed(env);
        std::fs::rename(&away, &f).unwrap();
        if gone {
            return f;
        }
    }
    panic!("no SoftHSM object file holds urne-seal");
}

/// Replaces the token's sealing key by one generated outside urne with the same label and id
/// and urne's template changed as `variant` says (`sound`: urne's own template): the file of the
/// original is removed (it is not destroyable through PKCS#11, as urne made it), the new key is
/// generated in a child process ([`seal_key_child_hook`]).
fn replace_seal_key(env: &Env, variant: &str) {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let p: String = c
        .query_row(
            "SELECT payload FROM events WHERE kind = 'keys.generated'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let generated: serde_json::Value = serde_json::from_str(&p).unwrap();
    let key_id = generated["seal_key"]["key_id"]
        .as_str()
        .unwrap()
        .to_string();
    std::fs::remove_file(seal_key_file(env)).unwrap();
    run_child_hook(
        env,
        "musts_appliance::seal_key_child_hook",
        "URNE_TEST_SEAL_KEY",
        &format!("{variant} {key_id}"),
    );
}

/// The child side of [`replace_seal_key`]: does nothing unless `URNE_TEST_SEAL_KEY` is set
/// (`VARIANT KEY_ID_HEX`).
#[test]
fn seal_key_child_hook() {
    use cryptoki::mechanism::{Mechanism, MechanismType};
    use cryptoki::object::{Attribute, KeyType, ObjectClass};

    let Ok(spec) = std::env::var("URNE_TEST_SEAL_KEY") else {
        return;
    };
    let (variant, id) = spec.split_once(' ').unwrap();
    let s = pin_holder_session();
    let mechanisms = match variant {
        "another-mechanism" => vec![MechanismType::AES_GCM, MechanismType::AES_ECB],
        _ => vec![MechanismType::AES_GCM],
    };
    let template = [
        Attribute::Class(ObjectClass::SECRET_KEY),
        Attribute::KeyType(KeyType::AES),
        Attribute::ValueLen(32.into()),
        Attribute::Token(true),
        Attribute::Private(true),
        Attribute::Sensitive(true),
        Attribute::Extractable(variant == "extractable"),
        Attribute::Encrypt(true),
        Attribute::Decrypt(true),
        Attribute::Wrap(false),
        Attribute::Unwrap(false),
        Attribute::Sign(false),
        Attribute::Verify(false),
        Attribute::Derive(false),
        Attribute::Modifiable(false),
        Attribute::Destroyable(false),
        Attribute::Copyable(false),
        Attribute::AllowedMechanisms(mechanisms),
        Attribute::Id(hex::decode(id).unwrap()),
        Attribute::Label(b"urne-seal".to_vec()),
    ];
    s.generate_key(&Mechanism::AesKeyGen, &template).unwrap();
    println!("CHILD OK");
}

// MUST: M-144
#[test]
fn a_sealing_key_with_other_attributes_than_urnes_is_never_used_exit_3() {
    // The control: the key replaced by one of urne's own template is used (the block's entropy
    // is sealed under it and the block generated).
    let env = Env::new();
    replace_seal_key(&env, "sound");
    let o = generate_with_ivs(&env, "1", "true");
    let shown = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "sound key: {shown}");
    for variant in ["extractable", "another-mechanism"] {
        let env = Env::new();
        replace_seal_key(&env, variant);
        let o = generate_with_ivs(&env, "1", "true");
        let shown = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(3), "{variant}: {shown}");
        screen_error(&shown, "key-unfit");
        assert_eq!(events(&env, "block.generated"), 0, "{variant}: {shown}");
    }
}

/// `urne draw --day DAY --out out` on the terminal, `C_GenerateRandom` of 48 bytes (the draw's
/// entropy) answered by `cmd` (a shell command printing hex).
fn draw_with_entropy(env: &Env, cmd: &str) -> Output {
    let mut c = env.command_for(&["draw", "--day", DAY, "--out", "out"]);
    c.env(
        "URNE_TEST_FWD_RANDOM_CMD",
        format!(r#"if [ "$URNE_TEST_FWD_LEN" = 48 ]; then {cmd}; fi"#),
    );
    let mut o = c.output().unwrap();
    o.stderr = o.stdout.clone();
    o
}

// MUST: M-12
#[test]
fn entropy_of_one_byte_value_is_refused_recorded_and_never_used_exit_3() {
    let env = Env::forwarding(true);
    seal(&env, &export_of(&env, &[("web", 3000), ("app", 1500)]));
    let o = draw_with_entropy(&env, "printf '%096d' 0 | tr 0 4");
    let shown = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(3), "{shown}");
    // Refused for the day drawn, not used.
    assert_names(&screen_error(&shown, "entropy-refused"), &[DAY]);
    assert_eq!(events(&env, "entropy.refused"), 1, "{shown}");
    assert_eq!(events(&env, "draw.entropy"), 0, "{shown}");
    assert!(!env.path("out").join("bundle.json").exists());
    // The control: 48 bytes that are not one value are taken, and the day drawn from them.
    let env = Env::forwarding(true);
    seal(&env, &export_of(&env, &[("web", 3000), ("app", 1500)]));
    let fixed = hex::encode((1..=48u8).collect::<Vec<u8>>());
    let o = draw_with_entropy(&env, &format!("printf {fixed}"));
    let shown = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{shown}");
    assert_eq!(events(&env, "draw.entropy"), 1, "{shown}");
    let bundle: serde_json::Value =
        serde_json::from_slice(&std::fs::read(env.path("out").join("bundle.json")).unwrap())
            .unwrap();
    assert_eq!(bundle["entropy"], fixed.as_str());
}
