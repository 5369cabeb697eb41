//! Rehearsals (issue 25, item 5; spec/appliance.md §6.10, spec/formats.md §6.10): a sitting held at
//! a date the operator names (`--rehearsal-at`, a clock urne is told, never a patched binary), on
//! a token initialised as a rehearsal token only. Its screens and minutes say "RÉPÉTITION — SANS
//! VALEUR"; every checkpoint its audit key signs names the origin `urne-rehearsal/<id>`, so both
//! verifiers refuse its outputs as official results (the class `rehearsal`), renamed or alone;
//! an official token refuses a told clock and every rehearsal's behaviour.

use crate::common::*;
use crate::figures::python_verify;
use std::path::Path;
use std::process::{Command, Output};

const RULES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/rules/chanceux-noel-2018.json");

/// The key ceremony's told time: 10 December 2018, 10:00 in Paris.
const KEYS_AT: &str = "2018-12-10T10:00+01:00";
/// Period 1's sitting, on its regulation date (D-8: 11 December 2018), 10:00 in Paris.
const SITTING_AT: &str = "2018-12-11T10:00+01:00";

/// What the commissaire's watch says at a told time (Paris time, to the minute).
pub(crate) fn watch(told: &str) -> String {
    chrono::DateTime::parse_from_str(told, "%Y-%m-%dT%H:%M%:z")
        .unwrap()
        .with_timezone(&chrono_tz::Europe::Paris)
        .format("%Y-%m-%d %H:%M")
        .to_string()
}

/// `urne ceremony ARGS --rehearsal-at TOLD` at a pseudo-terminal, in French, the PIN typed at its
/// prompt and the sitting's questions answered as in tests/it/ceremony.rs; the real binary, the
/// real clock: only the clock urne is told moves the sitting to its date.
fn rehearsed_sitting(env: &Env, told: &str, args: &[&str]) -> Output {
    let who = [
        (
            "Lieu de la séance",
            "Salle des tirages, Boulogne-Billancourt",
        ),
        ("Ville où le procès-verbal", "Boulogne-Billancourt"),
        ("Nom du commissaire", "Maître Claire Dupont"),
        ("Office", "SELARL Dupont, commissaires de justice à Paris"),
        ("ligne vide pour finir", ""),
        ("exactes", "oui"),
    ];
    let mut c = env.cmd_of(&root().join("scripts/pty-type"));
    c.env_remove("URNE_PIN")
        .env("LANG", "fr_FR.UTF-8")
        .args(["--timeout", "180"])
        .args(["--expect", "code PIN de l'HSM", "--send", &env.pin()])
        .args([
            "--on",
            "(?:à votre montre|at your watch)",
            "--send",
            &watch(told),
        ])
        .args([
            "--on",
            PRODUCER_ID_PROMPT,
            "--send",
            &format!("{}\n", test_producer_key_id()),
        ]);
    for (prompt, answer) in who {
        c.args(["--expect", prompt, "--send", answer]);
    }
    c.args(["--on", "Procéder à cette étape", "--send", "oui"])
        .args(["--on", "Votre choix", "--send", "4"])
        .args(["--on", "Clore la séance \\(irréversible", "--send", "oui"])
        .args(["--on", TYPE_BACK, "--send-match"])
        .args([
            "--on",
            CONTRIBUTION_PROMPT,
            "--send",
            "dés 5 2 6 3, répétition",
        ])
        .args(["--on", YES_NO, "--send", "oui"])
        .args(["--on", CONFIRM, "--send-match", "--"])
        .arg(urne_bin())
        .arg("ceremony")
        .args(args)
        .args(["--rehearsal-at", told]);
    let mut o = c.output().unwrap();
    o.stderr = o.stdout.clone();
    o
}

/// Production's export of `day`, made at midnight in Paris as the day ended, in `exports/`.
pub(crate) fn export(env: &Env, day: &str) {
    let d = chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").unwrap();
    let midnight = format!("{}T00:00:00+01:00", d.succ_opt().unwrap());
    let dated = ["--generated-at", &midnight, "--status-as-of", &midnight];
    let made = crate::draws::simulate(env, day, 300, 7, &dated);
    let dir = env.path("exports");
    std::fs::create_dir_all(&dir).unwrap();
    for ext in ["", ".sig"] {
        let from = std::path::PathBuf::from(format!("{}{ext}", made.display()));
        std::fs::rename(&from, dir.join(from.file_name().unwrap())).unwrap();
    }
}

/// Both of urne's verifiers and the Python one refuse `path` with the class `rehearsal` (exit 1).
pub(crate) fn refused_as_rehearsal(env: &Env, path: &Path, keys: &Path) {
    let (p, k) = (path.to_str().unwrap(), keys.to_str().unwrap());
    let ours = env.urne_direct(&["verify", p, "--keys", k]);
    let why = assert_fails(&ours, 1, "verification-failed");
    assert!(why.contains("verification failed (rehearsal)"), "{why}");
    let other = Command::new(crate::verify_cli::exe())
        .args([p, "--keys", k])
        .output();
    if let Ok(other) = other {
        let why = assert_fails(&other, 1, "verification-failed");
        assert!(why.contains("verification failed (rehearsal)"), "{why}");
    }
    let py = python_verify(env, &[p, "--keys", k]);
    let err = String::from_utf8_lossy(&py.stderr);
    assert_eq!(py.status.code(), Some(1), "{p}: {err}");
    assert!(
        err.contains("error: verification failed (rehearsal)"),
        "{p}: {err}"
    );
}

/// The PDF text of `html` as headless Chromium prints it (tests/it/print.rs's flags).
pub(crate) fn printed(dir: &Path, html: &Path) -> String {
    let pdf = dir.join("minutes.pdf");
    let o = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            &format!("--user-data-dir={}", dir.join("chromium").display()),
            &format!("--print-to-pdf={}", pdf.display()),
            "--no-pdf-header-footer",
            &format!("file://{}", html.display()),
        ])
        .output()
        .expect("chromium prints the minutes (scripts/test installs it)");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let t = Command::new("pdftotext")
        .args([pdf.to_str().unwrap(), "-"])
        .output()
        .expect("pdftotext reads the minutes (scripts/test installs it)");
    String::from_utf8(t.stdout).unwrap()
}

#[test]
fn a_rehearsal_sitting_at_its_regulation_date_draws_a_day_that_no_verifier_takes_for_official() {
    let env = Env::without_keys();
    let publ = env.path("pub");
    let p = publ.to_str().unwrap();
    // The key ceremony, rehearsed on 10 December 2018: the token becomes a rehearsal token.
    let o = rehearsed_sitting(&env, KEYS_AT, &["--key-ceremony", "--out", p]);
    let shown = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    assert!(o.status.success(), "the key ceremony failed:\n{shown}");
    assert!(shown.contains("RÉPÉTITION — SANS VALEUR"), "{shown}");
    assert!(shown.contains("urne-rehearsal-audit"), "{shown}");
    // Period 1's sitting on 11 December 2018 (D-8), the day 2018-12-01 drawn on its date.
    export(&env, "2018-12-01");
    let exports = env.path("exports");
    let o = rehearsed_sitting(
        &env,
        SITTING_AT,
        &[
            "--out",
            p,
            "--rules",
            RULES,
            "--exports",
            exports.to_str().unwrap(),
            "--day",
            "2018-12-01",
        ],
    );
    let shown = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    assert!(o.status.success(), "the sitting failed:\n{shown}");
    // Every heading of the sitting's screens (a title between two rules) bears the mark, on
    // the line under its first rule.
    let rule = "─".repeat(72);
    let lines: Vec<&str> = shown.lines().collect();
    let opening: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i] == rule && lines.get(i + 3) == Some(&rule.as_str()))
        .collect();
    assert!(opening.len() > 2, "{shown}");
    assert!(
        shown.contains(
            "RÉPÉTITION — SANS VALEUR (jeton de répétition ; horloge annoncée 2018-12-11 10:0"
        ),
        "{shown}"
    );
    for i in opening {
        assert_eq!(lines[i + 1], "RÉPÉTITION — SANS VALEUR", "{shown}");
    }
    // The day was drawn on its regulation date, by the told clock: not late (no draw.late).
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let (late, drawn): (i64, String) = c
        .query_row(
            "SELECT (SELECT count(*) FROM events WHERE kind = 'draw.late'), \
             (SELECT ts FROM events WHERE kind = 'draw.result')",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(late, 0, "drawn on its date, not late");
    assert!(drawn.starts_with("2018-12-11T09:"), "{drawn}");
    let draw = publ.join("draw-2018-12-01");
    let bundle = std::fs::read_to_string(draw.join("bundle.json")).unwrap();
    assert!(bundle.contains("urne-rehearsal/"), "{bundle}");
    // Both verifiers refuse every output as official: the draw, the same renamed, its lone
    // result.json, the sitting, the key export, and the whole medium.
    let keys = publ.join("keys");
    refused_as_rehearsal(&env, &draw, &keys);
    let renamed = env.path("official-looking");
    std::fs::create_dir(&renamed).unwrap();
    for f in std::fs::read_dir(&draw).unwrap() {
        let f = f.unwrap();
        std::fs::copy(f.path(), renamed.join(f.file_name())).unwrap();
    }
    refused_as_rehearsal(&env, &renamed, &keys);
    let lone = env.path("lone");
    std::fs::create_dir(&lone).unwrap();
    for f in ["result.json", "result.json.sig"] {
        std::fs::copy(draw.join(f), lone.join(f)).unwrap();
    }
    refused_as_rehearsal(&env, &lone.join("result.json"), &keys);
    refused_as_rehearsal(&env, &publ.join("sitting-002"), &keys);
    refused_as_rehearsal(&env, &keys, &keys);
    refused_as_rehearsal(&env, &publ, &keys);
    // The winner's inclusion proof, issued later that day by the told clock: checked against its
    // published draw, a rehearsal's, it is a rehearsal's too.
    let result: serde_json::Value =
        serde_json::from_slice(&std::fs::read(draw.join("result.json")).unwrap()).unwrap();
    let account = result["winner"]["account"].as_str().unwrap().to_string();
    let proof = env.path("proof.json");
    let (proof, draw_dir) = (proof.to_str().unwrap(), draw.to_str().unwrap());
    let at = "2018-12-11T12:00+01:00";
    let args = [
        "proof",
        "--day",
        "2018-12-01",
        "--account",
        &account,
        "--out",
        proof,
    ];
    env.ok(&[&args[..], &["--rehearsal-at", at]].concat());
    let k = keys.to_str().unwrap();
    let ours = env.urne_direct(&["verify", proof, "--keys", k, "--published", draw_dir]);
    let why = assert_fails(&ours, 1, "verification-failed");
    assert!(why.contains("verification failed (rehearsal)"), "{why}");
    let py = python_verify(&env, &[proof, "--keys", k, "--published", draw_dir]);
    assert_eq!(py.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&py.stderr).contains("(rehearsal)"));
    // The minutes, printed: the mark on every page.
    let text = printed(env.dir.path(), &publ.join("sitting-002/minutes.html"));
    let pages: Vec<&str> = text
        .split('\u{c}')
        .filter(|p| !p.trim().is_empty())
        .collect();
    assert!(!pages.is_empty());
    for (i, page) in pages.iter().enumerate() {
        assert!(
            page.contains("RÉPÉTITION — SANS VALEUR"),
            "page {} of the minutes has no mark:\n{page}",
            i + 1
        );
    }
}

#[test]
fn an_official_token_refuses_a_told_clock_and_no_configuration_names_a_rehearsal_label() {
    let env = Env::new();
    let before = event_count(&env);
    // A told clock on an official token: refused before anything, nothing recorded.
    for args in [
        &["status", "--rehearsal-at", SITTING_AT][..],
        &["audit", "show", "--rehearsal-at", SITTING_AT][..],
        &["keys", "init", "--rehearsal"][..],
    ] {
        let o = env.urne_direct(args);
        assert_fails(&o, 4, "rehearsal-official-token");
    }
    // A sitting told a time, at the ceremony's own PIN prompt: refused there, before it opens.
    let publ = env.path("pub");
    let o = rehearsed_sitting(&env, SITTING_AT, &["--out", publ.to_str().unwrap()]);
    let shown = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(4), "{shown}");
    assert!(shown.contains("error[rehearsal-official-token]"), "{shown}");
    assert!(!shown.contains("OUVERTURE DE LA SÉANCE"), "{shown}");
    assert!(!publ.exists());
    assert_eq!(event_count(&env), before, "nothing recorded");
    // The official token's outputs verify as ever: its checkpoints name the official origin.
    let db = env.db();
    let c = rusqlite::Connection::open(&db).unwrap();
    let note: String = c
        .query_row(
            "SELECT note FROM checkpoints ORDER BY size DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(note.starts_with("urne-audit/"), "{note}");
    // A told time that is not one, and a told clock on a command that reads files only.
    assert_fails(
        &env.urne_direct(&["status", "--rehearsal-at", "2018-12-11 10:00"]),
        2,
        "bad-date-time",
    );
    assert_fails(
        &env.urne_direct(&["verify", ".", "--rehearsal-at", SITTING_AT]),
        2,
        "usage",
    ); // A configuration may not name a rehearsal token's label: the token alone says what it is.
    let cfg = std::fs::read_to_string(env.path("urne.json")).unwrap();
    let relabelled = cfg.replace("\"urne-result\"", "\"urne-rehearsal-result\"");
    assert_ne!(cfg, relabelled);
    std::fs::write(env.path("urne.json"), relabelled).unwrap();
    assert_fails(&env.urne_direct(&["status"]), 2, "config-invalid");
}

#[test]
fn a_rehearsal_token_is_told_by_its_keys_and_its_trail_is_marked_from_its_first_checkpoint() {
    let env = Env::without_keys();
    let o = env.urne_direct(&["keys", "init", "--rehearsal"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    every_checkpoint_a_rehearsals(&env);
    // Without an option, the token itself says it is a rehearsal token: `hsm info` shows its
    // keys' labels, and a second init is refused as for any initialised token.
    let info = env.ok(&["hsm", "info"]);
    assert!(info.contains("urne-rehearsal-result"), "{info}");
    let again = env.urne_direct(&["keys", "init"]);
    assert!(!again.status.success());
    // Its trail exported: both verifiers refuse it as a rehearsal's.
    let out = env.path("audit.jsonl");
    env.ok(&["audit", "export", "--out", out.to_str().unwrap()]);
    let keys = env.path("keys");
    env.ok(&["keys", "export", "--out", keys.to_str().unwrap()]);
    let o = env.urne_direct(&[
        "verify",
        out.to_str().unwrap(),
        "--keys",
        keys.to_str().unwrap(),
    ]);
    let why = assert_fails(&o, 1, "trail-verification-failed");
    assert!(why.contains("(rehearsal)"), "{why}");
    let py = python_verify(
        &env,
        &[out.to_str().unwrap(), "--keys", keys.to_str().unwrap()],
    );
    assert_eq!(py.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&py.stderr).contains("(rehearsal)"));
}

fn event_count(env: &Env) -> i64 {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.query_row("SELECT count(*) FROM events", [], |r| r.get(0))
        .unwrap()
}

/// The child side of [`token_keys`]: does nothing unless `URNE_TEST_TOKEN_KEYS` is set to
/// `try-relabel` (tries to change the label and the id of every key object urne's labels name,
/// printing `REFUSED LABEL` or `CHANGED LABEL` for each), `relabel FROM TO` (relabels every key
/// object labelled `FROM-result`/`FROM-audit` to `TO-result`/`TO-audit`) or `old-pairs PREFIX`
/// (generates both key pairs under `PREFIX-result` and `PREFIX-audit` as an urne older than
/// `CKA_MODIFIABLE` false did: modifiable).
#[test]
fn token_keys_child_hook() {
    use cryptoki::mechanism::Mechanism;
    use cryptoki::object::{Attribute, ObjectClass};

    let Ok(spec) = std::env::var("URNE_TEST_TOKEN_KEYS") else {
        return;
    };
    let s = pin_holder_session();
    let keys = |label: &str| {
        let mut found = vec![];
        for class in [ObjectClass::PUBLIC_KEY, ObjectClass::PRIVATE_KEY] {
            found.extend(
                s.find_objects(&[
                    Attribute::Class(class),
                    Attribute::Label(label.as_bytes().to_vec()),
                ])
                .unwrap(),
            );
        }
        found
    };
    let words: Vec<&str> = spec.split(' ').collect();
    match words[..] {
        ["try-relabel"] => {
            for label in [
                "urne-result",
                "urne-audit",
                "urne-rehearsal-result",
                "urne-rehearsal-audit",
            ] {
                for h in keys(label) {
                    let other = Attribute::Label(b"urne-other".to_vec());
                    let relabelled = s.update_attributes(h, &[other]).is_ok();
                    let reid = s
                        .update_attributes(h, &[Attribute::Id(vec![1, 2, 3])])
                        .is_ok();
                    let word = if relabelled || reid {
                        "CHANGED"
                    } else {
                        "REFUSED"
                    };
                    println!("{word} {label}");
                }
            }
        }
        ["relabel", from, to] => {
            for role in ["result", "audit"] {
                let to = format!("{to}-{role}");
                for h in keys(&format!("{from}-{role}")) {
                    s.update_attributes(h, &[Attribute::Label(to.as_bytes().to_vec())])
                        .unwrap();
                }
            }
        }
        ["old-pairs", prefix] => {
            for role in ["result", "audit"] {
                let label = format!("{prefix}-{role}").into_bytes();
                let mut id = vec![0u8; 8];
                s.generate_random_slice(&mut id).unwrap();
                let public = [
                    Attribute::Token(true),
                    Attribute::Private(false),
                    Attribute::Verify(true),
                    Attribute::EcParams(vec![0x06, 0x03, 0x2b, 0x65, 0x70]),
                    Attribute::Label(label.clone()),
                    Attribute::Id(id.clone()),
                ];
                let private = [
                    Attribute::Token(true),
                    Attribute::Private(true),
                    Attribute::Sensitive(true),
                    Attribute::Extractable(false),
                    Attribute::Sign(true),
                    Attribute::Label(label),
                    Attribute::Id(id),
                ];
                s.generate_key_pair(&Mechanism::EccEdwardsKeyPairGen, &public, &private)
                    .unwrap();
            }
        }
        _ => panic!("unknown URNE_TEST_TOKEN_KEYS {spec}"),
    }
    println!("CHILD OK");
}

/// Does `what` ([`token_keys_child_hook`]) to `env`'s token outside urne, as a PIN holder
/// with a PKCS#11 tool would; returns what the child printed.
fn token_keys(env: &Env, what: &str) -> String {
    run_child_hook(
        env,
        "rehearsal::token_keys_child_hook",
        "URNE_TEST_TOKEN_KEYS",
        what,
    )
}

// MUST: M-390
#[test]
fn the_keys_urne_generates_cannot_be_relabelled_by_a_pin_holder() {
    for rehearsal in [false, true] {
        let env = Env::without_keys();
        let init: &[&str] = if rehearsal {
            &["keys", "init", "--rehearsal"]
        } else {
            &["keys", "init"]
        };
        env.ok(init);
        let said = token_keys(&env, "try-relabel");
        assert_eq!(said.matches("REFUSED ").count(), 4, "{said}");
        assert!(!said.contains("CHANGED "), "{said}");
        // The token is what it was: its keys under their labels.
        let info = env.ok(&["hsm", "info"]);
        let label = if rehearsal {
            "urne-rehearsal-audit"
        } else {
            "urne-audit"
        };
        assert!(info.contains(label), "{info}");
    }
}

/// A token initialised by an urne older than `CKA_MODIFIABLE` false (its key pairs modifiable,
/// generated the old way then taken by `urne keys init`), whose keys under `prefix` drew
/// 2018-12-01 into `pub/d01`, their public keys exported to `keys/`.
fn old_token_that_drew(prefix: &str) -> Env {
    let env = Env::without_keys();
    token_keys(&env, &format!("old-pairs {prefix}"));
    env.ok(&["keys", "init"]);
    pin_producer(&env, Path::new(URNE), &[]);
    let export = crate::draws::simulate(&env, "2018-12-01", 50, 1, &[]);
    crate::draws::seal(&env, &export);
    env.draw_ok("2018-12-01", env.path("pub/d01").to_str().unwrap());
    let keys = env.path("keys");
    env.ok(&["keys", "export", "--out", keys.to_str().unwrap()]);
    env
}

/// Every command on `env`'s trail stops before acting (`trail-broken`, exit 7): its stored
/// checkpoints name another origin than the one its token's labels now state.
fn every_command_stops(env: &Env) {
    let export = crate::draws::simulate(env, "2018-12-02", 50, 2, &[]);
    let (rules, entries) = (crate::draws::rules(), export.to_str().unwrap().to_string());
    let keys2 = env.path("keys2");
    for args in [
        &["status"][..],
        &["seal", "--rules", &rules, "--entries", &entries][..],
        &["keys", "export", "--out", keys2.to_str().unwrap()][..],
    ] {
        let why = assert_fails(&env.urne_direct(args), 7, "trail-broken");
        assert!(why.contains("checkpoint origin"), "{why}");
    }
    assert!(!keys2.exists());
}

// MUST: M-391
#[test]
fn an_old_tokens_official_keys_relabelled_a_rehearsals_sign_nothing_official() {
    let env = old_token_that_drew("urne");
    let (keys, d01) = (env.path("keys"), env.path("pub/d01"));
    token_keys(&env, "relabel urne urne-rehearsal");
    // The token now says it is a rehearsal token: its official trail stops every command.
    every_command_stops(&env);
    // The day drawn before the relabelling stays what it was: official.
    let k = keys.to_str().unwrap();
    let o = env.urne_direct(&["verify", d01.to_str().unwrap(), "--keys", k]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // A new trail (the database set aside, the trail restarted) is a rehearsal's: what its
    // keys sign now is refused as official, under the official keys themselves.
    std::fs::rename(env.db(), env.path("set-aside.db")).unwrap();
    env.ok(&[
        "trail",
        "restart",
        "--reason",
        "piste mise de côté pour l'essai",
    ]);
    pin_producer(&env, Path::new(URNE), &[]);
    let e2 = crate::draws::simulate(&env, "2018-12-03", 50, 3, &[]);
    crate::draws::seal(&env, &e2);
    let d03 = env.path("pub/d03");
    env.draw_ok("2018-12-03", d03.to_str().unwrap());
    refused_as_rehearsal(&env, &d03, &keys);
    let relabelled = env.path("keys-relabelled");
    env.ok(&["keys", "export", "--out", relabelled.to_str().unwrap()]);
    refused_as_rehearsal(&env, &relabelled, &relabelled);
}

// MUST: M-391
#[test]
fn an_old_tokens_rehearsal_keys_relabelled_official_sign_nothing_official() {
    let env = old_token_that_drew("urne-rehearsal");
    let (keys, d01) = (env.path("keys"), env.path("pub/d01"));
    token_keys(&env, "relabel urne-rehearsal urne");
    // The token now says it is an official token: the rehearsal's trail stops every command,
    // so its keys sign nothing more on it; what the rehearsal made stays a rehearsal's.
    every_command_stops(&env);
    refused_as_rehearsal(&env, &d01, &keys);
    refused_as_rehearsal(&env, &keys, &keys);
}

// MUST: M-392
#[test]
fn a_rehearsal_trail_restarted_stays_a_rehearsal_and_carries_none_of_its_outputs() {
    let (env, keys) = rehearsal_that_drew("pub/d01");
    // The database is lost. A restart that would carry the rehearsal's outputs is refused
    // before anything is done: they are never checked as official ones.
    std::fs::rename(env.db(), env.path("lost.db")).unwrap();
    let reason = [
        "trail",
        "restart",
        "--reason",
        "disque perdu pendant la répétition",
    ];
    let o = env.urne_direct(&[&reason[..], &["--outputs", "pub"]].concat());
    let why = assert_fails(&o, 2, "not-trail-output");
    assert!(why.contains("this token is a rehearsal token"), "{why}");
    assert!(!env.db().exists());
    // Restarted without them, the new trail is a rehearsal's from its first checkpoint on.
    let out = env.ok(&reason);
    assert!(out.contains("TRAIL RESTARTED"), "{out}");
    every_checkpoint_a_rehearsals(&env);
    // A day drawn under the new trail is marked, and refused as official by every verifier.
    pin_producer(&env, Path::new(URNE), &[]);
    let e2 = crate::draws::simulate(&env, "2018-12-02", 50, 2, &[]);
    crate::draws::seal(&env, &e2);
    let d02 = env.path("pub/d02");
    env.draw_ok("2018-12-02", d02.to_str().unwrap());
    let bundle = std::fs::read_to_string(d02.join("bundle.json")).unwrap();
    assert!(bundle.contains("urne-rehearsal/"), "{bundle}");
    refused_as_rehearsal(&env, &d02, &keys);
}

#[test]
fn a_void_notice_made_in_a_rehearsal_is_refused_as_official_by_every_verifier() {
    let (env, keys) = rehearsal_that_drew("d01");
    let reason = "répétition : panne d'impression";
    env.ok(&["void", "--day", "2018-12-01", "--reason", reason]);
    let folder = env.path("void-2018-12-01-attempt-1");
    let notice = std::fs::read_to_string(folder.join("void-notice.json")).unwrap();
    assert!(notice.contains("urne-rehearsal/"), "{notice}");
    refused_as_rehearsal(&env, &folder, &keys);
}

/// A rehearsal token (`keys init --rehearsal`, production's TEST key pinned), its keys exported
/// into `keys/`, and 2018-12-01 sealed and drawn into `out` (under the test's folder).
fn rehearsal_that_drew(out: &str) -> (Env, std::path::PathBuf) {
    let env = Env::without_keys();
    env.ok(&["keys", "init", "--rehearsal"]);
    pin_producer(&env, Path::new(URNE), &[]);
    let keys = env.path("keys");
    env.ok(&["keys", "export", "--out", keys.to_str().unwrap()]);
    let export = crate::draws::simulate(&env, "2018-12-01", 50, 1, &[]);
    crate::draws::seal(&env, &export);
    env.draw_ok("2018-12-01", env.path(out).to_str().unwrap());
    (env, keys)
}

/// Every checkpoint of `env`'s trail names a rehearsal's origin (`urne-rehearsal/…`), and there
/// is at least one.
fn every_checkpoint_a_rehearsals(env: &Env) {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let notes: Vec<String> = c
        .prepare("SELECT note FROM checkpoints ORDER BY size")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(!notes.is_empty());
    assert!(
        notes.iter().all(|n| n.starts_with("urne-rehearsal/")),
        "{notes:?}"
    );
}
