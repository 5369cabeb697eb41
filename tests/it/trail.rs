//! The trail bound to its token (spec/ §6.3–§6.6; issue 10, "Done when"), against real SoftHSM
//! tokens and real SQLite files. The attacker of tier (a) has every file but the token's folder
//! (`tokens/`): the database, the configuration, the environment, the working directory; tier
//! (b) also has the PIN. Each test gives the attacker only files (tier (b): the token's PKCS#11
//! interface too, in `token`), and checks the exact exit code, a distinctive part of the
//! message, and that nothing was recorded, no output written and no entropy asked for.

mod during;
mod schema;
mod token;

use crate::common::*;
use crate::draws::{rules, seal, simulate};
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use urne_verify::audit::chain::{event_hash, tree_root};
use urne_verify::crypto::Hash32;

pub(crate) const DAY: &str = "2018-12-04";
pub(crate) const BLOCK: &str = "noel-de-la-chance-2015/100/e1/1";

/// A token with its trail, and `DAY` sealed from a small export.
pub(crate) fn sealed() -> (Env, PathBuf) {
    let env = Env::new();
    let export = simulate(&env, DAY, 300, 41, &[]);
    seal(&env, &export);
    (env, export)
}

/// [`sealed`], then `DAY` drawn into `out`.
pub(crate) fn drawn() -> (Env, PathBuf) {
    let (env, export) = sealed();
    env.ok(&draw_args("out"));
    (env, export)
}

pub(crate) fn draw_args(out: &str) -> [&str; 5] {
    ["draw", "--day", DAY, "--out", out]
}

pub(crate) fn seal_args(export: &Path) -> Vec<String> {
    let e = export.display().to_string();
    ["seal", "--rules", &rules(), "--entries", &e]
        .map(String::from)
        .to_vec()
}

/// Every command that changes anything, with arguments that pass their own checks, and the
/// outputs each would write (relative to the env's folder).
fn changing_commands(export: &Path) -> Vec<(Vec<String>, Option<&'static str>)> {
    let game = root().join("rules/noel-de-la-chance-2015.json");
    let v = |a: &[&str]| {
        a.iter()
            .map(std::string::ToString::to_string)
            .collect::<Vec<_>>()
    };
    let zero = "00".repeat(32);
    vec![
        (seal_args(export), None),
        (v(&draw_args("out-refused")), Some("out-refused")),
        (
            v(&["void", "--day", DAY, "--reason", "trail refusal test"]),
            None,
        ),
        (
            v(&["proof", "--day", DAY, "--account", &zero, "--out", "p.json"]),
            Some("p.json"),
        ),
        (
            v(&["keys", "export", "--out", "keys-refused"]),
            Some("keys-refused"),
        ),
        (
            v(&[
                "block",
                "generate",
                "--rules",
                game.to_str().unwrap(),
                "--price",
                "100",
                "--emission",
                "e1",
                "--out",
                "blocks-refused",
                "--secret-out",
                "blocks-refused-secret",
            ]),
            Some("blocks-refused"),
        ),
        (
            v(&[
                "block",
                "reveal",
                "--block",
                BLOCK,
                "--sales-closed-at",
                "2015-12-31T23:59:59+01:00",
                "--out",
                "reveal-refused",
            ]),
            Some("reveal-refused"),
        ),
        (
            v(&[
                "block",
                "void",
                "--block",
                BLOCK,
                "--reason",
                "trail refusal test",
            ]),
            None,
        ),
    ]
}

/// The database's bytes (reading never changes them: a refused command leaves them as they are).
pub(crate) fn bytes(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap()
}

/// How many rows of `kind` (an event kind) the database at `db` holds.
pub(crate) fn kind_count(db: &Path, kind: &str) -> i64 {
    let c = Connection::open(db).unwrap();
    c.query_row("SELECT count(*) FROM events WHERE kind = ?1", [kind], |r| {
        r.get(0)
    })
    .unwrap()
}

/// Every changing command, on the env's trail as it is now, exits `code` with an error line
/// of `id` naming each of the values `want`, prints nothing on stdout, writes no output and leaves the database
/// byte for byte as it was (no event, no checkpoint, no entropy).
#[track_caller]
pub(crate) fn all_refused(env: &Env, export: &Path, code: i32, id: &str, want: &[&str]) {
    let before = bytes(&env.db());
    for (args, output) in changing_commands(export) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = env.urne_direct(&args);
        let err = assert_fails(&o, code, id);
        assert_names(&err, want);
        assert!(o.stdout.is_empty(), "{args:?} printed on stdout");
        if let Some(out) = output {
            assert!(!env.path(out).exists(), "{args:?} wrote {out}");
        }
        assert!(bytes(&env.db()) == before, "{args:?} changed the database");
    }
}

/// `urne audit verify` (no key, no --strict) exits 1 naming the value `want`.
pub(crate) fn verify_fails(env: &Env, want: &str) {
    let err = assert_fails(
        &env.urne(&["audit", "verify", "--keys", "audit-keys"]),
        1,
        "trail-verification-failed",
    );
    assert_names(&err, &[want]);
}

/// The trail's identity (its `trail.created` event) and its event hashes.
pub(crate) fn trail_of(db: &Path) -> (String, Vec<Hash32>) {
    let c = Connection::open(db).unwrap();
    let p: String = c
        .query_row("SELECT payload FROM events WHERE seq = 1", [], |r| r.get(0))
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&p).unwrap();
    let mut st = c.prepare("SELECT hash FROM events ORDER BY seq").unwrap();
    let hashes = st
        .query_map([], |r| r.get::<_, Vec<u8>>(0))
        .unwrap()
        .map(|h| Hash32::try_from(h.unwrap().as_slice()).unwrap())
        .collect();
    (v["trail"].as_str().unwrap().to_string(), hashes)
}

/// The database with the named triggers dropped (an insider with write access to the file), put
/// back when the connection closes or with [`Insider::restore`].
pub(crate) fn without_triggers(db: &Path, triggers: &[&str]) -> Insider {
    let c = Insider::open(db);
    for t in triggers {
        c.execute_batch(&format!("DROP TRIGGER IF EXISTS {t}"))
            .unwrap();
    }
    c
}

#[test]
fn a_second_database_on_the_same_token_is_refused_and_never_created() {
    let (env, export) = drawn();
    let (trail, _) = trail_of(&env.db());
    let before = bytes(&env.db());
    let seal = seal_args(&export);
    let seal: Vec<&str> = seal.iter().map(String::as_str).collect();
    for args in [&seal[..], &draw_args("out2")[..]] {
        let o = env
            .cmd()
            .env("URNE_DB", "other.db")
            .args(args)
            .output()
            .unwrap();
        let err = assert_fails(&o, 7, "trail-missing");
        assert_names(&err, &["other.db", &trail]);
        assert!(!env.path("other.db").exists(), "no other.db was created");
    }
    // From another working directory, with the default --db (urne-audit.db there).
    let elsewhere = env.path("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    for args in [&seal[..], &draw_args("out2")[..]] {
        let o = env
            .cmd()
            .env_remove("URNE_DB")
            .current_dir(&elsewhere)
            .args(args)
            .output()
            .unwrap();
        let err = assert_fails(&o, 7, "trail-missing");
        assert_names(&err, &["urne-audit.db"]);
        assert_eq!(
            std::fs::read_dir(&elsewhere).unwrap().count(),
            0,
            "nothing created"
        );
    }
    assert!(!env.path("out2").exists());
    assert!(bytes(&env.db()) == before, "the real trail is untouched");
}

#[test]
fn an_older_copy_put_back_or_a_truncated_trail_is_refused() {
    let (env, export) = sealed();
    std::fs::copy(env.db(), env.path("backup.db")).unwrap();
    env.ok(&draw_args("out"));
    let drawn = bytes(&env.db());
    // The copy taken after the seal, put back: the day could be drawn again from it.
    std::fs::copy(env.path("backup.db"), env.db()).unwrap();
    assert_fails(&env.urne(&draw_args("out2")), 7, "trail-older");
    all_refused(&env, &export, 7, "trail-older", &[]);
    assert_eq!(kind_count(&env.db(), "draw.entropy"), 0, "no new entropy");
    // The drawn trail, its draw removed from its end with the checkpoints (triggers dropped).
    std::fs::write(env.db(), &drawn).unwrap();
    let sealed_at: i64 = {
        let c = without_triggers(&env.db(), &["events_no_delete", "checkpoints_no_delete"]);
        let s: i64 = c
            .query_row("SELECT seq FROM events WHERE kind = 'draw.seal'", [], |r| {
                r.get(0)
            })
            .unwrap();
        c.execute("DELETE FROM events WHERE seq > ?1", [s]).unwrap();
        c.execute("DELETE FROM checkpoints WHERE size > ?1", [s])
            .unwrap();
        s
    };
    let (_, hashes) = trail_of(&env.db());
    assert_eq!(i64::try_from(hashes.len()).unwrap(), sealed_at);
    // How many events the trail holds.
    let holds = format!("{sealed_at} events");
    let err = assert_fails(&env.urne(&draw_args("out2")), 7, "trail-older");
    assert_names(&err, &[&holds]);
    all_refused(&env, &export, 7, "trail-older", &[&holds]);
    assert_eq!(kind_count(&env.db(), "draw.entropy"), 0, "no new entropy");
    assert!(!env.path("out2").exists());
}

#[test]
fn a_deleted_database_is_refused_naming_the_tokens_trail_and_last_mark() {
    let (env, export) = sealed();
    let (trail, hashes) = trail_of(&env.db());
    std::fs::remove_file(env.db()).unwrap();
    let err = assert_fails(&env.urne(&draw_args("out")), 7, "trail-missing");
    // The token's trail and its last mark.
    let mark = [
        trail,
        format!("{} events", hashes.len()),
        tree_root(&hashes).to_string(),
    ];
    let mark: Vec<&str> = mark.iter().map(String::as_str).collect();
    assert_names(&err, &mark);
    assert!(!env.db().exists() && !env.path("out").exists());
    let seal = seal_args(&export);
    let seal: Vec<&str> = seal.iter().map(String::as_str).collect();
    let err = assert_fails(&env.urne(&seal), 7, "trail-missing");
    assert_names(&err, &mark);
    assert!(!env.db().exists(), "never created");
}

#[test]
fn a_chained_row_inserted_with_sqlite_has_no_checkpoint_and_is_refused() {
    let (env, export) = drawn();
    // A void of the drawn day, chained exactly as urne chains (the triggers let it in): with
    // it, the day could be sealed and drawn again.
    let c = Connection::open(env.db()).unwrap();
    let (seq, prev): (i64, Vec<u8>) = c
        .query_row(
            "SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let (seq, prev) = (
        seq.cast_unsigned() + 1,
        Hash32::try_from(prev.as_slice()).unwrap(),
    );
    let ts = "2018-12-26T09:00:00.000000Z";
    let payload = format!(
        r#"{{"day":"{DAY}","attempt":1,"reason":"witnessed annulment","stage":"drawn and published"}}"#
    );
    let hash = event_hash(&prev, seq, ts, "draw.void", &payload);
    c.execute(
        "INSERT INTO events (seq, ts, kind, payload, prev_hash, hash) VALUES (?1, ?2, 'draw.void', ?3, ?4, ?5)",
        rusqlite::params![seq.cast_signed(), ts, payload, prev.as_slice(), hash.as_slice()],
    )
    .unwrap();
    drop(c);
    // The event without a checkpoint of its own.
    let at = format!("event {seq}:");
    all_refused(&env, &export, 7, "trail-broken", &[&at]);
    assert_eq!(kind_count(&env.db(), "draw.entropy"), 1, "no new entropy");
    verify_fails(&env, &at);
}

/// A file at the trail's path that is not an SQLite database, or whose header urne did not leave
/// so, is an incident (exit 7), not a failing disk (exit 5) [M-273].
#[test]
fn a_trail_that_is_not_an_sqlite_database_is_an_incident() {
    let (env, export) = sealed();
    let mut b = std::fs::read(env.db()).unwrap();
    // SQLite's header string, the first 16 bytes, overwritten.
    b[..16].copy_from_slice(b"not urne's trail");
    std::fs::write(env.db(), &b).unwrap();
    // The file at the trail's path.
    all_refused(&env, &export, 7, "trail-broken", &["audit.db"]);
}

/// A row planted at the end of the trail, dated in the future, is an altered trail (exit 7), not
/// a clock set back (exit 5): the clock is checked only against a trail known to be the token's
/// (spec/appliance.md §6.6) [M-135].
#[test]
fn a_future_dated_event_planted_at_the_end_is_an_incident_not_a_clock_set_back() {
    let (env, export) = sealed();
    let c = Connection::open(env.db()).unwrap();
    let (seq, prev): (i64, Vec<u8>) = c
        .query_row(
            "SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    c.execute(
        "INSERT INTO events (seq, ts, kind, payload, prev_hash, hash) VALUES (?1, '2099-01-01T00:00:00.000000Z', 'software.start', '{}', ?2, ?3)",
        rusqlite::params![seq + 1, prev, vec![7u8; 32]],
    )
    .unwrap();
    drop(c);
    let at = format!("event {}:", seq + 1);
    all_refused(&env, &export, 7, "trail-broken", &[&at]);
}

#[test]
fn an_edited_trail_is_refused_by_every_command_before_any_entropy() {
    let (env, export) = sealed();
    let c = Connection::open(env.db()).unwrap();
    let (seq, p): (i64, String) = c
        .query_row(
            "SELECT seq, payload FROM events WHERE kind = 'draw.seal'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    drop(c);
    let v: serde_json::Value = serde_json::from_str(&p).unwrap();
    // Another commitment, and fewer entries, as an insider would write them.
    let root = v["commitment"]["root"].as_str().unwrap();
    tamper_payload(
        &env,
        "draw.seal",
        root,
        &root.chars().rev().collect::<String>(),
    );
    let entries = format!("\"entries\":{}", v["commitment"]["entries"]);
    let c = without_triggers(&env.db(), &["events_no_update"]);
    let n = c
        .execute(
            "UPDATE events SET payload = replace(payload, ?1, '\"entries\":1') WHERE seq = ?2",
            rusqlite::params![entries, seq],
        )
        .unwrap();
    assert_eq!(n, 1);
    drop(c);
    let at = format!("event {seq}:");
    all_refused(&env, &export, 7, "trail-broken", &[&at]);
    assert_eq!(
        kind_count(&env.db(), "draw.entropy"),
        0,
        "no entropy asked for"
    );
    verify_fails(&env, &at);
}

/// [`drawn`], then a sitting's close anchored in the token (a close left unmarked, and a keys
/// export, whose mark over it is an anchor): the check before acting then reads the trail's
/// hashes and only the events after that anchor (spec/appliance.md §6.6 [M-136], [M-397]).
fn anchored_after_a_draw() -> (Env, PathBuf) {
    let (env, export) = drawn();
    crate::anchors::close_left_unmarked(&env);
    env.ok(&["keys", "export", "--out", "keys-anchored"]);
    (env, export)
}

#[test]
fn an_event_edited_behind_the_last_mark_is_refused_by_the_first_command_that_reads_it() {
    // spec/appliance.md §6.6 [M-136]: a trail as the token last marked it is checked from its
    // links; an event's content edited with its hash left as stored is found by whatever reads
    // that event, before anything is decided from it, and is never taken for a trail rewritten
    // while the command ran. (The seal's start is edited; the draw's output and a sitting's
    // anchored close come after it, so the check reads only the trail's hashes and its end.)
    let (env, export) = anchored_after_a_draw();
    let c = without_triggers(&env.db(), &["events_no_update"]);
    let seq: i64 = c
        .query_row(
            "SELECT min(seq) FROM events WHERE kind = 'software.start' AND seq > 2",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let n = c
        .execute(
            "UPDATE events SET payload = payload || ' ' WHERE seq = ?1",
            [seq],
        )
        .unwrap();
    assert_eq!(n, 1);
    drop(c);
    let entropies = kind_count(&env.db(), "draw.entropy");
    let before = bytes(&env.db());
    // What reads the trail's state before it records anything records nothing.
    for args in [
        vec!["status".to_string()],
        draw_args("out-again")
            .iter()
            .map(ToString::to_string)
            .collect(),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let err = assert_fails(&env.urne_direct(&args), 7, "trail-broken");
        assert_event(&err, seq);
        assert!(bytes(&env.db()) == before, "{args:?} changed the database");
    }
    // A seal records its start, then reads the day's state, and stops there.
    let args = seal_args(&export);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let err = assert_fails(&env.urne_direct(&args), 7, "trail-broken");
    assert_event(&err, seq);
    assert_eq!(kind_count(&env.db(), "draw.entropy"), entropies);
    assert_eq!(kind_count(&env.db(), "draw.seal"), 1, "no seal recorded");
    verify_fails(&env, &format!("event {seq}"));
}

#[test]
fn a_deleted_blob_stops_the_draw_and_fails_audit_verify() {
    let (env, export) = sealed();
    let c = without_triggers(&env.db(), &["blobs_no_delete"]);
    let (seq, p): (i64, String) = c
        .query_row(
            "SELECT seq, payload FROM events WHERE kind = 'draw.seal'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&p).unwrap();
    let set = v["set_sha256"].as_str().unwrap().to_string();
    let gone = c
        .execute(
            "DELETE FROM blobs WHERE sha256 = ?1",
            [hex::decode(&set).unwrap()],
        )
        .unwrap();
    assert_eq!(gone, 1, "the sealed set deleted");
    drop(c);
    let err = assert_fails(&env.urne(&draw_args("out")), 7, "trail-broken");
    // The event and the data missing.
    let at = format!("event {seq}:");
    assert_names(&err, &[&at, &set]);
    assert!(!env.path("out").exists());
    all_refused(&env, &export, 7, "trail-broken", &[&at, &set]);
    assert_eq!(
        kind_count(&env.db(), "draw.entropy"),
        0,
        "no entropy asked for"
    );
    verify_fails(&env, &at);
    verify_fails(&env, &set);
}

#[test]
fn a_deleted_checkpoint_in_the_middle_or_at_the_end_is_refused() {
    let (env, export) = sealed();
    let (_, hashes) = trail_of(&env.db());
    let n = i64::try_from(hashes.len()).unwrap();
    for size in [n / 2, n] {
        let c = without_triggers(&env.db(), &["checkpoints_no_delete"]);
        let note: String = c
            .query_row(
                "SELECT note FROM checkpoints WHERE size = ?1",
                [size],
                |r| r.get(0),
            )
            .unwrap();
        c.execute("DELETE FROM checkpoints WHERE size = ?1", [size])
            .unwrap();
        c.restore();
        // The event without a checkpoint of its own.
        let want = format!("event {size}:");
        all_refused(&env, &export, 7, "trail-broken", &[&want]);
        verify_fails(&env, &want);
        // Put back, the trail is accepted again: nothing was recorded.
        c.execute(
            "INSERT INTO checkpoints (size, note) VALUES (?1, ?2)",
            rusqlite::params![size, note],
        )
        .unwrap();
        env.ok(&["audit", "verify", "--keys", "audit-keys", "--strict"]);
    }
    assert_eq!(kind_count(&env.db(), "draw.entropy"), 0);
    env.ok(&draw_args("out"));
}

/// An insider rewrites the whole trail under their own key: every `from` replaced by its `to` in
/// every payload, every hash recomputed, every checkpoint re-signed by `sk` (named for its key).
fn rewrite(db: &Path, replace: &[(String, String)], sk: &ed25519_dalek::SigningKey) {
    use ed25519_dalek::Signer;
    use urne_verify::audit::chain::{checkpoint_body, signed_note};
    let c = without_triggers(db, &["events_no_update", "checkpoints_no_delete"]);
    let mut st = c
        .prepare("SELECT seq, ts, kind, payload FROM events ORDER BY seq")
        .unwrap();
    let rows: Vec<(i64, String, String, String)> = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    drop(st);
    let (mut prev, mut hashes) = (Hash32::ZERO, vec![]);
    for (seq, ts, kind, payload) in rows {
        let payload = replace
            .iter()
            .fold(payload, |p, (from, to)| p.replace(from, to));
        let h = event_hash(&prev, seq.cast_unsigned(), &ts, &kind, &payload);
        c.execute(
            "UPDATE events SET payload = ?1, prev_hash = ?2, hash = ?3 WHERE seq = ?4",
            rusqlite::params![payload, prev.as_slice(), h.as_slice(), seq],
        )
        .unwrap();
        hashes.push(h);
        prev = h;
    }
    c.execute("DELETE FROM checkpoints", []).unwrap();
    let named = sk.verifying_key().to_bytes();
    for size in 1..=hashes.len() {
        let body = checkpoint_body(&named, size as u64, &tree_root(&hashes[..size]));
        let note = signed_note(&named, &body, &sk.sign(body.as_bytes()).to_bytes());
        c.execute(
            "INSERT INTO checkpoints (size, note) VALUES (?1, ?2)",
            rusqlite::params![size.cast_signed(), note],
        )
        .unwrap();
    }
}

#[test]
fn a_trail_rewritten_end_to_end_under_another_key_is_refused() {
    use urne_verify::crypto::keys::key_id;
    let (env, export) = drawn();
    env.ok(&["keys", "export", "--out", "keys"]);
    let real = keys_pub(&env);
    let sk = ed25519_dalek::SigningKey::from_bytes(&[9u8; 32]);
    let fake = sk.verifying_key().to_bytes();
    // The realistic rewrite keeps the trail's identity (the token's, recorded in event 1) and
    // records the insider's key in its place, with another winner.
    let winner = {
        let c = Connection::open(env.db()).unwrap();
        let p: String = c
            .query_row(
                "SELECT payload FROM events WHERE kind = 'draw.result'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        let v: serde_json::Value = serde_json::from_str(&p).unwrap();
        v["winner"]["leaf"].to_string()
    };
    let replace = [
        (hex::encode(real), hex::encode(fake)),
        (key_id(&real), key_id(&fake)),
        (format!("\"leaf\":{winner}"), "\"leaf\":0".to_string()),
    ];
    rewrite(&env.db(), &replace, &sk);
    // Under the key it records, the rewrite is consistent with itself, which `audit verify`
    // without an anchor never calls a success (exit 8, spec/formats.md §6.4 [M-271]); under the token's
    // audit key, nothing accepts it.
    let o = env.urne(&["audit", "verify", "--strict"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(8), "{out}");
    assert!(
        out.starts_with("UNANCHORED: ") && out.contains(&key_id(&fake)),
        "{out}"
    );
    assert_fails(
        &env.urne(&["audit", "verify", "--audit-key", "keys/audit.pub.pem"]),
        1,
        "trail-verification-failed",
    );
    // The audit key the trail records and the one given.
    all_refused(
        &env,
        &export,
        7,
        "trail-broken",
        &["event 1:", &key_id(&fake), &key_id(&real)],
    );
    // Given another identity as well, it is another trail (exit 7).
    let (trail, _) = trail_of(&env.db());
    let other = urne_verify::crypto::sha256(b"another trail").to_string();
    rewrite(&env.db(), &[(trail.clone(), other.clone())], &sk);
    // Both trails, the database's and the token's.
    all_refused(&env, &export, 7, "trail-not-tokens", &[&other, &trail]);
}

/// The audit public key `urne keys export` wrote into `keys/`.
pub(crate) fn keys_pub(env: &Env) -> [u8; 32] {
    let pem = std::fs::read_to_string(env.path("keys/audit.pub.pem")).unwrap();
    urne_verify::crypto::keys::public_key_from_pem(&pem).unwrap()
}

/// spec/appliance.md §6.5: a command that records anything checks the trail before it acts. `urne proof
/// --block` signs and writes its proof, then begins the trail (src/cmd/proof.rs, `ticket_proof`):
/// on a refused trail (here deleted) it exits 4, but the signed proof is written all the same,
/// and its issue is recorded nowhere (spec/appliance.md §6.2 `block.proof`).
#[test]
fn a_ticket_proof_on_a_refused_trail_writes_nothing() {
    let env = Env::new();
    let rules = crate::block_cli::small_rules(&env);
    let rules = rules.to_str().unwrap();
    env.ok(&[
        "block",
        "generate",
        "--rules",
        rules,
        "--unofficial-rules",
        "--price",
        "100",
        "--emission",
        "t1",
        "--out",
        "blocks",
        "--secret-out",
        "blocks-secret",
    ]);
    std::fs::remove_file(env.db()).unwrap();
    let o = env.urne(&[
        "proof",
        "--block",
        "test-small-game/100/t1/1",
        "--position",
        "0",
        "--dir",
        "blocks",
        "--out",
        "tp.json",
    ]);
    assert_fails(&o, 7, "trail-missing");
    assert!(!env.db().exists());
    assert!(
        !env.path("tp.json").exists(),
        "a signed proof was written on a refused trail"
    );
}

#[test]
fn an_event_removed_while_a_command_runs_is_refused_not_skipped() {
    // spec/appliance.md §6.6 [M-138]: after a check of the trail's hashes, the history of an
    // output is read back from the head; a row removed meanwhile (and put back before the next
    // append, so that nothing else sees it) is refused, never skipped: else the history would
    // name an older predecessor, or none. Found by the attacker's review of the links-only check.
    let (env, _) = anchored_after_a_draw();
    let out = run_child_hook(
        &env,
        "trail::removed_row_child_hook",
        "URNE_TEST_REMOVED_ROW",
        "1",
    );
    assert!(out.contains("HISTORY REFUSED"), "{out}");
    assert!(!out.contains("PREDECESSOR"), "{out}");
}

/// An event's row as stored: sequence number, time, kind, payload, previous hash, hash.
type EventRow = (i64, String, String, String, Vec<u8>, Vec<u8>);

/// The child side of [`an_event_removed_while_a_command_runs_is_refused_not_skipped`]: does
/// nothing unless `URNE_TEST_REMOVED_ROW` is set.
#[test]
fn removed_row_child_hook() {
    if std::env::var("URNE_TEST_REMOVED_ROW").is_err() {
        return;
    }
    let mut ctx = begun("test append");
    let db = Connection::open(std::env::var("URNE_DB").unwrap()).unwrap();
    // sqlite3's `.dbconfig enable_trigger off`: this connection runs no trigger, and the schema
    // is left exactly as urne made it.
    db.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_TRIGGER,
        false,
    )
    .unwrap();
    let row: EventRow = db
        .query_row(
            "SELECT seq, ts, kind, payload, prev_hash, hash FROM events \
             WHERE kind = 'draw.published' ORDER BY seq DESC LIMIT 1",
            [],
            |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                ))
            },
        )
        .unwrap();
    db.execute("DELETE FROM events WHERE seq = ?1", [row.0])
        .unwrap();
    let h = ctx.history();
    db.execute(
        "INSERT INTO events (seq, ts, kind, payload, prev_hash, hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        rusqlite::params![row.0, row.1, row.2, row.3, row.4, row.5],
    )
    .unwrap();
    match h {
        Err(e) => println!("HISTORY REFUSED {}", e.message),
        Ok(h) => println!("PREDECESSOR {:?}", h.predecessor.map(|p| p.checkpoint_size)),
    }
    println!("CHILD OK");
}
