//! The token's side: `urne keys init` creates a trail once and never over a file; a database of
//! another token's trail, or one naming no trail, is refused; and what can be written into the
//! token through PKCS#11 (spec/appliance.md §6.6): without the PIN (tier a) only public objects, which urne
//! never reads; with it (tier b) objects urne did not create, which it refuses, and never the
//! removal of the trail's identity.

use super::{all_refused, bytes, draw_args, kind_count, sealed, trail_of, without_triggers};
use crate::common::*;
use std::process::Command;
use urne_verify::audit::chain::event_hash;
use urne_verify::crypto::Hash32;

const MODULE: &str = "/usr/lib/softhsm/libsofthsm2.so";

#[test]
fn keys_init_creates_one_trail_once_and_never_over_a_file() {
    let (env, export) = sealed();
    let before = bytes(&env.db());
    assert_fails(&env.urne(&["keys", "init"]), 4, "token-initialised");
    assert!(bytes(&env.db()) == before, "the trail is untouched");
    // A token without keys, a file at the database's path: refused, the file untouched.
    let fresh = Env::without_keys();
    std::fs::write(fresh.db(), b"not a trail\n").unwrap();
    assert_fails(&fresh.urne(&["keys", "init"]), 4, "output-exists");
    assert_eq!(bytes(&fresh.db()), b"not a trail\n");
    let names: Vec<String> = std::fs::read_dir(fresh.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("audit.db"))
        .collect();
    assert_eq!(names, ["audit.db"], "nothing left beside it");
    // The file moved away, the token initialises (the refusal wrote nothing into it).
    std::fs::rename(fresh.db(), fresh.path("kept")).unwrap();
    assert!(
        fresh
            .ok(&["keys", "init"])
            .contains("3 events, bound to this token")
    );
    // Another token's trail, given with URNE_DB: another trail.
    let (theirs, _) = trail_of(&fresh.db());
    let (ours, _) = trail_of(&env.db());
    std::fs::copy(fresh.db(), env.path("audit.db.theirs")).unwrap();
    std::fs::rename(env.db(), env.path("audit.db.ours")).unwrap();
    std::fs::copy(env.path("audit.db.theirs"), env.db()).unwrap();
    let another = format!("is another trail ({theirs}), not this token's ({ours})");
    all_refused(&env, &export, 7, "trail-not-tokens", &[&another]);
    assert!(
        bytes(&env.db()) == bytes(&fresh.db()),
        "their trail untouched"
    );
    // A trail naming no identity (as version 1 wrote them: keys.generated first).
    let c = without_triggers(&env.db(), &["events_no_delete", "checkpoints_no_delete"]);
    let generated: String = c
        .query_row(
            "SELECT payload FROM events WHERE kind = 'keys.generated'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    c.execute_batch("DELETE FROM events; DELETE FROM checkpoints;")
        .unwrap();
    let ts = "2018-11-30T09:00:00.000000Z";
    let h = event_hash(&Hash32::ZERO, 1, ts, "keys.generated", &generated);
    c.execute(
        "INSERT INTO events VALUES (1, ?1, 'keys.generated', ?2, ?3, ?4)",
        rusqlite::params![ts, generated, Hash32::ZERO.as_slice(), h.as_slice()],
    )
    .unwrap();
    drop(c);
    all_refused(
        &env,
        &export,
        7,
        "trail-not-tokens",
        &["names no trail identity (a version-1 trail"],
    );
    // Our own trail back, the token's commands go on.
    std::fs::rename(env.path("audit.db.ours"), env.db()).unwrap();
    env.ok(&draw_args("out"));
}

/// `pkcs11-tool` on the env's token; `None` when it is not installed (Debian: opensc).
fn pkcs11_tool(env: &Env, args: &[&str]) -> Option<std::process::Output> {
    let mut c = Command::new("pkcs11-tool");
    scrub(&mut c);
    c.env("SOFTHSM2_CONF", env.path("softhsm2.conf"))
        .args(["--module", MODULE, "--token-label", "urne-dev"])
        .args(args)
        .current_dir(env.dir.path());
    match c.output() {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        r => Some(r.unwrap()),
    }
}

fn data_object(env: &Env, file: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "--write-object",
        file,
        "--type",
        "data",
        "--label",
        "urne-mark",
        "--application-label",
        "urne",
    ];
    args.extend_from_slice(extra);
    pkcs11_tool(env, &args).unwrap()
}

#[test]
fn objects_written_into_the_token_outside_urne_are_ignored_or_refused() {
    let (env, export) = sealed();
    if pkcs11_tool(&env, &["--show-info"]).is_none() {
        eprintln!(
            "SKIPPED: pkcs11-tool is not installed (Debian package opensc; scripts/test installs it)"
        );
        return;
    }
    let pin = env.pin();
    let login = ["--login", "--pin", pin.as_str()];
    // Tier (b) cannot destroy the trail's identity: CKA_DESTROYABLE is false (a rolling mark
    // they can, and an anchor they cannot: marks::a_sittings_close_is_an_anchor_no_pin_holder_can_remove).
    let mut args = login.to_vec();
    args.extend(["--delete-object", "--type", "data", "--label", "urne-trail"]);
    let o = pkcs11_tool(&env, &args).unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "urne-trail destroyed");
    assert!(err.contains("C_DestroyObject"), "urne-trail: {err}");
    // Tier (a), no PIN: a public mark of this trail claiming a huge size (believed, it would
    // refuse the trail as an older copy); a private one cannot be written without login.
    let (trail, _) = trail_of(&env.db());
    let huge = format!(
        "urne-mark v2\ntrail {trail}\nsize 999999999999\nroot {}\n",
        "ab".repeat(32)
    );
    std::fs::write(env.path("huge.mark"), huge).unwrap();
    assert!(
        data_object(&env, "huge.mark", &[]).status.success(),
        "a public object"
    );
    let o = data_object(&env, "huge.mark", &["--private"]);
    assert!(!o.status.success(), "a private object without login");
    // urne reads private objects only: the next commands work.
    env.ok(&draw_args("out"));
    env.ok(&["audit", "verify", "--keys", "audit-keys", "--strict"]);
    // Tier (b): a private, modifiable urne-mark is not urne's, and refused.
    let mut args = login.to_vec();
    args.push("--private");
    assert!(
        data_object(&env, "huge.mark", &args).status.success(),
        "a private object"
    );
    let before = kind_count(&env.db(), "draw.entropy");
    all_refused(
        &env,
        &export,
        7,
        "token-tampered",
        &["\"urne-mark\" data object that urne did not create"],
    );
    assert_eq!(kind_count(&env.db(), "draw.entropy"), before);
}
