//! Production's keys pinned in the trail (spec/appliance.md §4.1.0, spec/formats.md §6.2 `producer.keys`): a seal trusts
//! the keys the trail pins and never a key file on its own word. An insider who changes the
//! configuration's key file, or names another key on the command line, cannot seal an export
//! they signed themselves (tier a); one with the PIN can pin another key, but only as an event
//! of the trail, with the set it replaces, which the next sitting's minutes show (tier b).

use crate::common::*;
use crate::draws::simulate;
use crate::module::seal_args;
use std::path::PathBuf;

fn fixture(name: &str) -> String {
    root()
        .join("tests/fixtures/keys")
        .join(name)
        .display()
        .to_string()
}

/// An export of `day` signed by the UNTRUSTED key: what an insider with a key of their own
/// makes.
fn forged(env: &Env, day: &str) -> PathBuf {
    let out = env.path("forged");
    let args: Vec<std::ffi::OsString> = [
        "urne-simulate",
        "--day",
        day,
        "--plays",
        "200",
        "--seed",
        "7",
        "--key",
        &fixture("untrusted.key.pem"),
        "--out",
        out.to_str().unwrap(),
    ]
    .iter()
    .map(Into::into)
    .collect();
    assert_eq!(urne_simulate::run(args), 0);
    out.join(format!("entries-chanceux-noel-2018-{day}.jsonl"))
}

fn urne(env: &Env, args: &[String], extra: &[&str]) -> std::process::Output {
    let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
    all.extend_from_slice(extra);
    env.urne(&all)
}

/// The configuration's `producer_keys`, replaced by `keys` (paths).
fn configure(env: &Env, keys: &[String]) {
    let p = env.path("urne.json");
    let mut cfg: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    cfg["producer_keys"] = serde_json::json!(keys);
    std::fs::write(&p, serde_json::to_vec_pretty(&cfg).unwrap()).unwrap();
}

/// `urne keys producer ARGS` on a pseudo-terminal, `typed` typed at its prompt (the ids of
/// production's statement, one a line; an empty line ends them).
fn pin(env: &Env, args: &[&str], typed: &str) -> std::process::Output {
    let mut c = env.cmd_of(&root().join("scripts/pty-type"));
    c.args(["--timeout", "60"])
        .args([
            "--on",
            PRODUCER_ID_PROMPT,
            "--send",
            &format!("{typed}\n"),
            "--",
        ])
        .arg(URNE)
        .args(["keys", "producer"])
        .args(args);
    let mut o = c.output().unwrap();
    o.stderr = o.stdout.clone();
    o
}

fn key_id_of(file: &str) -> String {
    urne_verify::crypto::keys::key_id(
        &urne_verify::crypto::keys::public_key_from_pem(
            &std::fs::read_to_string(fixture(file)).unwrap(),
        )
        .unwrap(),
    )
}

fn pins(env: &Env) -> Vec<serde_json::Value> {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.prepare("SELECT payload FROM events WHERE kind = 'producer.keys' ORDER BY seq")
        .unwrap()
        .query_map([], |r| r.get::<_, String>(0))
        .unwrap()
        .map(|p| serde_json::from_str(&p.unwrap()).unwrap())
        .collect()
}

#[test]
fn a_seal_trusts_only_the_keys_pinned_in_the_trail() {
    let env = Env::new();
    let ours = test_producer_key_id();
    // The development token's key pinned by `urne keys producer` (scripts/dev-hsm).
    let p = pins(&env);
    assert_eq!(p.len(), 1);
    assert_eq!(p[0]["keys"][0]["key_id"], ours.as_str());
    assert_eq!(p[0]["previous"], serde_json::json!([]));
    let forged = forged(&env, "2018-12-01");
    // Tier (a): the configuration's key file names the insider's key: the pin decides.
    configure(&env, &[fixture("untrusted.pub.pem")]);
    let before = event_total(&env);
    let o = urne(&env, &seal_args(&forged), &[]);
    assert_fails(&o, 2, "export-bad-signature");
    assert_eq!(event_total(&env), before + 3, "start, refusal, failure");
    // Or the command line names it: refused before the export is read.
    let o = urne(
        &env,
        &seal_args(&forged),
        &["--producer-key", &fixture("untrusted.pub.pem")],
    );
    let err = assert_fails(&o, 4, "producer-key-not-pinned");
    assert_names(&err, &[&ours]);
    // Production's own export seals, with or without naming the pinned key.
    let genuine = simulate(&env, "2018-12-01", 200, 3, &[]);
    let o = urne(
        &env,
        &seal_args(&genuine),
        &["--producer-key", &fixture("test-producer.pub.pem")],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn keys_producer_pins_another_set_recorded_with_the_set_it_replaces() {
    let env = Env::new();
    let (ours, theirs) = (test_producer_key_id(), key_id_of("untrusted.pub.pem"));
    let untrusted = fixture("untrusted.pub.pem");
    let args = ["--producer-key", untrusted.as_str()];
    // Never without a terminal, where the ids are typed.
    assert_fails(
        &env.urne_direct(&["keys", "producer", "--producer-key", &untrusted]),
        2,
        "not-a-terminal",
    );
    // The ids typed are not the key file's (production's statement names its own key): nothing
    // is pinned.
    let o = pin(&env, &args, &ours);
    assert_eq!(
        o.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("nothing was pinned"));
    assert_eq!(pins(&env).len(), 1);
    // Typed right (grouped, in capitals: as read), the key is pinned with the set it replaces.
    let o = pin(&env, &args, &in_fours(&theirs.to_uppercase()));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{out}");
    assert!(out.contains("production's keys replaced"), "{out}");
    let p = pins(&env);
    assert_eq!(p.len(), 2);
    assert_eq!(p[1]["previous"], serde_json::json!([ours]));
    assert_eq!(p[1]["keys"][0]["key_id"], theirs.as_str());
    // The same set again changes nothing and is said so.
    let o = pin(&env, &args, &theirs);
    assert_eq!(o.status.code(), Some(4));
    assert!(String::from_utf8_lossy(&o.stdout).contains("already the ones pinned"));
    assert_eq!(pins(&env).len(), 2);
    // From now on the pinned key is the only one a seal trusts: production's own is refused.
    let genuine = simulate(&env, "2018-12-01", 200, 3, &[]);
    assert_fails(
        &urne(&env, &seal_args(&genuine), &[]),
        2,
        "export-bad-signature",
    );
    let forged = forged(&env, "2018-12-01");
    let o = urne(&env, &seal_args(&forged), &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn a_trail_that_pins_no_key_refuses_every_seal_until_one_is_pinned() {
    let env = Env::without_keys();
    configure(&env, &[]);
    env.ok(&["keys", "init"]);
    assert!(pins(&env).is_empty(), "keys init pins nothing");
    let genuine = simulate(&env, "2018-12-01", 200, 3, &[]);
    assert_fails(
        &urne(&env, &seal_args(&genuine), &[]),
        4,
        "producer-key-not-pinned",
    );
    // A key file alone is not trusted, even named on the command line.
    let o = urne(
        &env,
        &seal_args(&genuine),
        &["--producer-key", &fixture("test-producer.pub.pem")],
    );
    assert_fails(&o, 4, "producer-key-not-pinned");
    // Nothing to pin: the configuration lists none and none is given.
    assert_fails(&env.urne(&["keys", "producer"]), 2, "no-producer-key");
    let ours = fixture("test-producer.pub.pem");
    let o = pin(&env, &["--producer-key", &ours], &test_producer_key_id());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    let o = urne(&env, &seal_args(&genuine), &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
