//! `keys init` on a token a kill left inside the token's generation of a key pair (issue 23,
//! item 3; spec/appliance.md §6.6): each such state built by hand on a real SoftHSM token (an initialised
//! token taken apart with pkcs11-tool, and the halves whose generation did not finish created
//! in a child process, [`key_half_child_hook`]), then `keys init` run again. Every state whose
//! keys no trail names is finished [M-280]; the states no `keys init` can finish are refused
//! (exit 4 for a cut sealing key, exit 7 for objects no `keys init` leaves), naming what the token holds and what its security officer must do [M-281]. The
//! kill test itself is `kills::a_kill_at_any_moment_of_keys_init_leaves_a_token_that_keys_init_finishes`.

use crate::common::*;
use crate::kills::{interrupted_init, temporaries, token_objects};
use crate::outputs::last_payload;

/// Runs [`key_half_child_hook`] with `what` (`KIND LABEL`) in a child process on `env`'s token.
fn in_child(env: &Env, what: &str) {
    run_child_hook(
        env,
        "kills_keys::key_half_child_hook",
        "URNE_TEST_KEY_HALF",
        what,
    );
}

/// The child side: does nothing unless `URNE_TEST_KEY_HALF` is set to `KIND LABEL`. Creates
/// under `LABEL` what the token's generation has written when a kill cuts it before its last
/// write (SoftHSM creates each half from the template, then writes what the generation made:
/// the point, the value, `CKA_LOCAL`): `public-cut`, a public key without its point;
/// `private-cut`, a private key without `CKA_LOCAL`, of the `CKA_ID` of the public key labelled
/// `LABEL`; `seal-cut`, a sealing key of urne's template without `CKA_LOCAL`.
#[test]
fn key_half_child_hook() {
    use cryptoki::object::{Attribute, AttributeType, KeyType, ObjectClass};

    let Ok(what) = std::env::var("URNE_TEST_KEY_HALF") else {
        return;
    };
    let (kind, label) = what.split_once(' ').unwrap();
    let label = label.as_bytes().to_vec();
    let s = pin_holder_session();
    let oid = vec![0x06, 0x03, 0x2b, 0x65, 0x70];
    let template = match kind {
        "public-cut" => vec![
            Attribute::Class(ObjectClass::PUBLIC_KEY),
            Attribute::KeyType(KeyType::EC_EDWARDS),
            Attribute::Token(true),
            Attribute::Private(false),
            Attribute::Verify(true),
            Attribute::EcParams(oid),
            Attribute::EcPoint(vec![]),
            Attribute::Label(label),
            Attribute::Id(vec![0x5a; 8]),
        ],
        "private-cut" => {
            let public = s
                .find_objects(&[
                    Attribute::Class(ObjectClass::PUBLIC_KEY),
                    Attribute::Label(label.clone()),
                ])
                .unwrap();
            let id = match &s.get_attributes(public[0], &[AttributeType::Id]).unwrap()[..] {
                [Attribute::Id(id)] => id.clone(),
                other => panic!("{other:?}"),
            };
            vec![
                Attribute::Class(ObjectClass::PRIVATE_KEY),
                Attribute::KeyType(KeyType::EC_EDWARDS),
                Attribute::Token(true),
                Attribute::Private(true),
                Attribute::Sensitive(true),
                Attribute::Extractable(false),
                Attribute::Sign(true),
                Attribute::EcParams(oid),
                Attribute::Value(vec![0x33; 32]),
                Attribute::Label(label),
                Attribute::Id(id),
            ]
        }
        "seal-cut" => vec![
            Attribute::Class(ObjectClass::SECRET_KEY),
            Attribute::KeyType(KeyType::AES),
            Attribute::Token(true),
            Attribute::Private(true),
            Attribute::Sensitive(true),
            Attribute::Extractable(false),
            Attribute::Encrypt(true),
            Attribute::Decrypt(true),
            Attribute::Modifiable(false),
            Attribute::Destroyable(false),
            Attribute::Value(vec![0x44; 32]),
            Attribute::Label(label),
            Attribute::Id(vec![0x11; 8]),
        ],
        other => panic!("unknown child {other}"),
    };
    s.create_object(&template).unwrap();
    println!("CHILD OK");
}

/// The objects of an initialised token removed down to where a kill stopped `keys init`
/// before the trail's identity and the sealing key: every object of `undo` (kind, label) as
/// never created, then `child` (each `KIND LABEL`) made; the database removed. Returns the
/// token and the key ids of the trail it was initialised with (result, audit).
fn cut_token(undo: &[(&str, &str)], child: &[&str]) -> (Env, [String; 2]) {
    let before = [
        ("data", "urne-mark"),
        ("data", "urne-trail"),
        ("other", "urne-seal"),
    ];
    let all: Vec<(&str, &str)> = before.iter().chain(undo).copied().collect();
    let env = interrupted_init(&all, true);
    let ids = key_ids(&env);
    std::fs::remove_file(env.db()).unwrap();
    for c in child {
        in_child(&env, c);
    }
    (env, ids)
}

/// The key ids the trail's `keys.generated` records: result, audit.
fn key_ids(env: &Env) -> [String; 2] {
    let p = last_payload(env, "keys.generated");
    [0, 1].map(|i| p["keys"][i]["key_id"].as_str().unwrap().to_string())
}

/// `keys init` run again on a cut token: it finishes (one trail, one whole pair per role, as
/// `kills::init_again` checks), having said on standard error each of `said`; the role's key
/// kept when `kept` says so for it, else a new one.
fn finishes(env: &Env, ids: &[String; 2], said: &[&str], kept: [bool; 2]) {
    let o = env.urne(&["keys", "init"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    // The recovery path's notes on the screen: their words are what is tested.
    for s in said {
        assert!(err.contains(s), "{s:?} not in: {err}");
    }
    crate::kills::assert_initialised(env, &env.path("keys-after"));
    let now = key_ids(env);
    for (i, role) in ["result", "audit"].iter().enumerate() {
        assert_eq!(now[i] == ids[i], kept[i], "{role} key: {err}");
    }
}

const REMOVED: &str = "removing it and generating the pair";

// MUST: M-280
#[test]
fn keys_init_finishes_every_key_state_a_kill_leaves_before_the_trail() {
    if token_objects(&Env::without_keys()).is_none() {
        eprintln!("skipped: this test takes SoftHSM's objects apart with pkcs11-tool (OpenSC)");
        return;
    }
    let audit_gone = [("privkey", "urne-audit"), ("pubkey", "urne-audit")];
    // The result key pair whole, nothing of the audit key pair: the result key pair is taken,
    // the audit key pair generated.
    let (env, ids) = cut_token(&audit_gone, &[]);
    finishes(
        &env,
        &ids,
        &[
            "result key pair \"urne-result\" and no trail",
            "initialising with it",
        ],
        [true, false],
    );
    // Cut after the audit public key's last write, before its private key: the lone public
    // key is removed and the pair generated.
    let (env, ids) = cut_token(&[("privkey", "urne-audit")], &[]);
    finishes(
        &env,
        &ids,
        &[
            "audit key pair left under \"urne-audit\": a public key without its private key",
            REMOVED,
        ],
        [true, false],
    );
    // Cut before the audit public key's last write (no point yet).
    let (env, ids) = cut_token(&audit_gone, &["public-cut urne-audit"]);
    finishes(
        &env,
        &ids,
        &[
            "a public key whose generation did not finish, without its private key",
            REMOVED,
        ],
        [true, false],
    );
    // Cut before the audit private key's last write (no value, no CKA_LOCAL yet).
    let (env, ids) = cut_token(&[("privkey", "urne-audit")], &["private-cut urne-audit"]);
    finishes(
        &env,
        &ids,
        &[
            "a public key, a private key whose generation did not finish",
            REMOVED,
        ],
        [true, false],
    );
    // A private key whose public key a kill lost (an earlier urne set each key's CKA_ID after
    // generating it, rewriting the public key's file).
    let (env, ids) = cut_token(&[("pubkey", "urne-audit")], &[]);
    finishes(
        &env,
        &ids,
        &["a private key without its public key", REMOVED],
        [true, false],
    );
    // Cut inside the result key pair's generation: it is generated again, then the audit's.
    let (env, ids) = cut_token(
        &[
            ("privkey", "urne-audit"),
            ("pubkey", "urne-audit"),
            ("privkey", "urne-result"),
        ],
        &[],
    );
    finishes(
        &env,
        &ids,
        &[
            "result key pair left under \"urne-result\": a public key without its private key",
            REMOVED,
        ],
        [false, false],
    );
}

// MUST: M-281
#[test]
fn keys_init_refuses_the_key_states_no_keys_init_leaves_exit_7_or_can_finish_exit_4() {
    if token_objects(&Env::without_keys()).is_none() {
        eprintln!("skipped: this test takes SoftHSM's objects apart with pkcs11-tool (OpenSC)");
        return;
    }
    let refused = |env: &Env, code: i32, said: &str| {
        let before = token_objects(env).unwrap();
        let o = env.urne(&["keys", "init"]);
        let id = if code == 4 {
            "seal-key-cut"
        } else {
            "token-tampered"
        };
        let e = assert_fails(&o, code, id);
        // One id (token-tampered) for several findings: the words tell which was found.
        assert!(e.contains(said), "{said:?} not in: {e}");
        let hint = String::from_utf8_lossy(&o.stderr);
        assert!(
            hint.contains("hint: ") && hint.contains("security officer"),
            "{hint}"
        );
        assert!(!env.db().exists() && temporaries(env).is_empty(), "{e}");
        assert_eq!(token_objects(env).unwrap(), before, "nothing changed: {e}");
    };
    // The sealing key cut inside its generation (both key pairs whole): it can be neither
    // removed nor doubled.
    let (env, _) = cut_token(&[], &["seal-cut urne-seal"]);
    refused(&env, 4, "whose generation did not finish (no CKA_LOCAL)");
    // The control: the same token without that object finishes.
    let (env, ids) = cut_token(&[], &[]);
    finishes(&env, &ids, &["initialising with it"], [true, true]);
    // Two public keys under the audit key's label: not what a kill leaves.
    let (env, _) = cut_token(&[("privkey", "urne-audit")], &["public-cut urne-audit"]);
    refused(&env, 7, "more than one key under one of urne's labels");
    // A sealing key beside a key pair cut inside its generation: not what a kill leaves (the
    // sealing key comes after both pairs).
    let env = interrupted_init(
        &[
            ("data", "urne-mark"),
            ("data", "urne-trail"),
            ("privkey", "urne-audit"),
        ],
        false,
    );
    refused(&env, 7, "but not both of urne's key pairs");
}
