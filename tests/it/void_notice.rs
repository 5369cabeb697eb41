//! The void notice (spec/formats.md §4.6, §5.B9, §6.7), with the real binary, a real SoftHSM token and
//! the Python verifier: a void of a day or a block writes a signed `void-notice.json` that both
//! verifiers accept alone and in the one linear history of a folder of outputs (the next output
//! names it as its predecessor); a flipped byte is bad-signature for both; a void recorded by a
//! run killed before its notice was written, or after it was placed but before it was recorded,
//! is announced by running the void again, and nothing else is done until then.

use crate::block_cli::small_rules;
use crate::common::*;
use crate::draws::{seal, simulate};
use crate::outputs::{GAME, count, generate_args, last_payload};
use std::path::Path;
use std::process::Output;

const DAY: &str = "2018-12-04";
const NOTICE: &str = "void-notice.json";

/// `python3 verifier/urne_verify.py ARGS` in the env's folder.
fn python(env: &Env, args: &[&str]) -> Output {
    std::process::Command::new("python3")
        .arg(root().join("verifier/urne_verify.py"))
        .args(args)
        .current_dir(env.dir.path())
        .output()
        .expect("python3 (with the package cryptography) runs the independent verifier")
}

/// Both verifiers on `args`: each exits with `code`, and on failure names `class`.
fn both(env: &Env, args: &[&str], code: i32, class: &str) {
    let mut urne_args = vec!["verify"];
    urne_args.extend_from_slice(args);
    for (who, o) in [
        ("urne", env.urne(&urne_args)),
        ("python", python(env, args)),
    ] {
        if who == "urne" && code != 0 {
            assert_class(&assert_fails(&o, code, "verification-failed"), class);
            continue;
        }
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            o.status.code(),
            Some(code),
            "{who} verify {args:?}:\n{}{err}",
            String::from_utf8_lossy(&o.stdout)
        );
        if code != 0 {
            // The Python verifier's line of spec/formats.md §8.1 carries no id.
            assert!(err.contains(&format!("({class})")), "{who}: {err}");
        }
    }
}

fn json(p: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

fn sha_hex(p: &Path) -> String {
    urne_verify::crypto::sha256(&std::fs::read(p).unwrap()).to_string()
}

/// The `output.published` events recording `file`, as (sha256, `checkpoint_size`).
fn recorded(env: &Env, file: &str) -> Vec<(String, u64)> {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let mut st = c
        .prepare("SELECT payload FROM events WHERE kind = 'output.published'")
        .unwrap();
    st.query_map([], |r| r.get::<_, String>(0))
        .unwrap()
        .map(|p| serde_json::from_str::<serde_json::Value>(&p.unwrap()).unwrap())
        .filter(|v| v["file"] == file)
        .map(|v| {
            (
                v["sha256"].as_str().unwrap().to_string(),
                v["checkpoint_size"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// The seq of the last event of `kind`.
fn last_seq(env: &Env, kind: &str) -> u64 {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.query_row("SELECT max(seq) FROM events WHERE kind = ?1", [kind], |r| {
        r.get::<_, i64>(0)
    })
    .unwrap()
    .cast_unsigned()
}

/// A copy of `from` with byte `at` of `file` flipped, as `to`.
fn flipped(env: &Env, from: &str, to: &str, file: &str, at: usize) {
    let (src, dst) = (env.path(from), env.path(to));
    std::fs::create_dir_all(&dst).unwrap();
    for e in std::fs::read_dir(&src).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dst.join(e.file_name())).unwrap();
    }
    let mut b = std::fs::read(dst.join(file)).unwrap();
    b[at] ^= 1;
    std::fs::write(dst.join(file), b).unwrap();
}

/// A sealed and drawn day (folder `d1`), its keys exported to `keys`.
fn drawn() -> (Env, std::path::PathBuf) {
    let env = Env::new();
    let export = simulate(&env, DAY, 300, 41, &[]);
    seal(&env, &export);
    env.draw_ok(DAY, "d1");
    env.ok(&["keys", "export", "--out", "keys"]);
    (env, export)
}

#[test]
fn a_voided_draw_writes_a_notice_both_verifiers_accept_and_the_redraw_names_it() {
    let (env, export) = drawn();
    let out = env.ok(&["void", "--day", DAY, "--reason", "power cut, minutes 12"]);
    let folder = format!("void-{DAY}-attempt-1");
    let path = env.path(&folder).join(NOTICE);
    // The path and the SHA-256 (in groups of four digits) are printed for the minutes.
    let sha = sha_hex(&path);
    assert!(out.contains(&format!("{folder}/{NOTICE}")), "{out}");
    assert!(grouped(&out, &sha), "{out}");
    let n = json(&path);
    let void_seq = last_seq(&env, "draw.void");
    assert_eq!(n["format"], "urne-void-notice");
    assert_eq!(n["version"], 2);
    assert_eq!(n["operation"], "chanceux-noel-2018");
    assert_eq!(
        (&n["day"], &n["block"]),
        (&DAY.into(), &serde_json::Value::Null)
    );
    assert_eq!(n["attempt"], 1);
    assert_eq!(n["reason"], "power cut, minutes 12");
    assert_eq!(n["stage"], "drawn and published");
    assert_eq!(n["void_seq"], void_seq);
    // Its predecessor is the draw it voided; the trail records it as the next one's.
    let bundle_sha = sha_hex(&env.path("d1/bundle.json"));
    assert_eq!(n["history"]["predecessor"]["sha256"], bundle_sha.as_str());
    let rec = recorded(&env, &format!("{folder}/{NOTICE}"));
    assert_eq!(rec.len(), 1);
    assert_eq!(rec[0].0, sha);
    assert!(rec[0].1 >= void_seq, "its checkpoint covers the void");
    both(&env, &[&folder, "--keys", "keys"], 0, "");
    // A flipped byte of the notice or of its signature: bad-signature for both.
    flipped(&env, &folder, "t1", NOTICE, 40);
    both(&env, &["t1", "--keys", "keys"], 1, "bad-signature");
    flipped(&env, &folder, "t2", &format!("{NOTICE}.sig"), 3);
    both(&env, &["t2", "--keys", "keys"], 1, "bad-signature");
    // The redraw names the notice as its predecessor; the three outputs are one history.
    seal(&env, &export);
    env.draw_ok(DAY, "d2");
    let b2 = json(&env.path("d2/bundle.json"));
    assert_eq!(b2["history"]["predecessor"]["sha256"], sha.as_str());
    assert_eq!(b2["voided_attempts"][0]["audit_seq"], void_seq);
    let all = env.path("all");
    std::fs::create_dir(&all).unwrap();
    for f in ["d1", folder.as_str(), "d2"] {
        std::fs::rename(env.path(f), all.join(f)).unwrap();
    }
    both(&env, &["all", "--keys", "keys"], 0, "");
    // The checkpoint the notice carries (as copied into the minutes) lies on that history.
    let held = env.path("held.note");
    std::fs::write(&held, n["audit_checkpoint"].as_str().unwrap()).unwrap();
    both(
        &env,
        &["all", "--keys", "keys", "--checkpoint", "held.note"],
        0,
        "",
    );
    // Without the notice, the redraw's predecessor is missing from the whole publication.
    std::fs::rename(all.join(&folder), env.path(&folder)).unwrap();
    both(&env, &["all", "--keys", "keys"], 1, "inconsistent");
    // A second void of the now drawn attempt 2 writes its own notice; nothing to void after it.
    env.ok(&[
        "void",
        "--day",
        DAY,
        "--reason",
        "second void test",
        "--out",
        "n2",
    ]);
    assert_eq!(json(&env.path("n2").join(NOTICE))["attempt"], 2);
    let o = env.urne(&["void", "--day", DAY, "--reason", "a third time"]);
    assert_fails(&o, 4, "nothing-to-void");
}

#[test]
fn a_voided_block_writes_a_notice_and_the_regenerated_block_names_it() {
    let env = Env::new();
    let rules = small_rules(&env);
    env.ok(&["keys", "export", "--out", "keys"]);
    env.ok(&generate_args(&rules, "1", "out"));
    let block = format!("{GAME}/100/t1/1");
    let out = env.ok(&[
        "block",
        "void",
        "--block",
        &block,
        "--reason",
        "printer jam",
    ]);
    let folder = format!("void-{GAME}_100_t1_1-attempt-1");
    let path = env.path(&folder).join(NOTICE);
    let sha = sha_hex(&path);
    assert!(grouped(&out, &sha) && out.contains(&folder), "{out}");
    let n = json(&path);
    assert_eq!(
        (&n["day"], &n["block"]),
        (&serde_json::Value::Null, &block.as_str().into())
    );
    assert_eq!(n["operation"], GAME);
    assert_eq!(n["stage"], "generated and published");
    assert_eq!(n["void_seq"], last_seq(&env, "block.void"));
    let commit = env.path(&format!("out/{GAME}_100_t1_1.commit.json"));
    assert_eq!(
        n["history"]["predecessor"]["sha256"],
        sha_hex(&commit).as_str()
    );
    assert_eq!(recorded(&env, &format!("{folder}/{NOTICE}")).len(), 1);
    both(&env, &[&folder, "--keys", "keys"], 0, "");
    flipped(&env, &folder, "t1", NOTICE, 100);
    both(&env, &["t1", "--keys", "keys"], 1, "bad-signature");
    // Generated again as attempt 2: its commitment names the notice.
    env.ok(&generate_args(&rules, "1", "out2"));
    let c2 = json(&env.path(&format!("out2/{GAME}_100_t1_1.commit.json")));
    assert_eq!(c2["attempt"], 2);
    assert_eq!(c2["history"]["predecessor"]["sha256"], sha.as_str());
    let all = env.path("all");
    std::fs::create_dir(&all).unwrap();
    for f in ["out", folder.as_str(), "out2"] {
        std::fs::rename(env.path(f), all.join(f)).unwrap();
    }
    both(&env, &["all", "--keys", "keys"], 0, "");
}

#[test]
fn a_void_whose_notice_was_never_written_is_announced_first_by_running_it_again() {
    let (env, export) = drawn();
    // What a kill between the void and its notice leaves: the void recorded (through urne's own
    // append path, with its checkpoint and mark), no notice.
    let appended = append_as_urne(
        &env,
        &[(
            "draw.void",
            serde_json::json!({"day": DAY, "attempt": 1, "reason": "power cut, minutes 12",
                "stage": "drawn and published"}),
        )],
    );
    let void_seq = appended[0]["seq"].as_u64().unwrap();
    // Nothing else is done until the void is announced.
    let o = env.urne(&[
        "seal",
        "--rules",
        &crate::draws::rules(),
        "--entries",
        export.to_str().unwrap(),
    ]);
    let err = assert_fails(&o, 4, "not-published");
    // The void without its notice, by its event.
    assert_names(&err, &[&format!("#{void_seq}")]);
    let rules = small_rules(&env);
    assert_fails(
        &env.urne(&generate_args(&rules, "1", "b")),
        4,
        "not-published",
    );
    assert!(!env.path("b").exists());
    let o = env.urne(&[
        "block",
        "void",
        "--block",
        &format!("{GAME}/100/t1/1"),
        "--reason",
        "other subject",
    ]);
    let err = assert_fails(&o, 4, "not-published");
    assert_names(&err, &[&format!("#{void_seq}")]);
    // A foreign file where the notice goes is refused and left as it is.
    let folder = format!("void-{DAY}-attempt-1");
    std::fs::create_dir(env.path(&folder)).unwrap();
    std::fs::write(env.path(&folder).join(NOTICE), b"{}\n").unwrap();
    let o = env.urne(&["void", "--day", DAY, "--reason", "power cut, minutes 12"]);
    let err = assert_fails(&o, 4, "output-conflict");
    assert_names(&err, &[&format!("{folder}/{NOTICE}")]);
    assert_eq!(
        std::fs::read(env.path(&folder).join(NOTICE)).unwrap(),
        b"{}\n"
    );
    // Run again (elsewhere): the notice of the recorded void is written, nothing else is voided.
    let o = env.urne(&[
        "void",
        "--day",
        DAY,
        "--reason",
        "power cut, minutes 12",
        "--out",
        "n",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    // The note on the screen: its words are what is tested (the notice itself is read below).
    assert!(err.contains("announcing it now"), "{err}");
    assert_eq!(count(&env, "draw.void"), 1, "nothing else voided");
    let n = json(&env.path("n").join(NOTICE));
    assert_eq!(
        (n["void_seq"].as_u64(), &n["stage"]),
        (Some(void_seq), &"drawn and published".into())
    );
    assert_eq!(recorded(&env, &format!("{folder}/{NOTICE}")).len(), 1);
    both(&env, &["n", "--keys", "keys"], 0, "");
    // Announced: the day goes on (sealed and drawn again, naming the notice); void has nothing.
    let o = env.urne(&["void", "--day", DAY, "--reason", "power cut, minutes 12"]);
    assert_fails(&o, 4, "nothing-to-void");
    seal(&env, &export);
    env.draw_ok(DAY, "d2");
    let b2 = json(&env.path("d2/bundle.json"));
    assert_eq!(
        b2["history"]["predecessor"]["sha256"],
        sha_hex(&env.path("n").join(NOTICE)).as_str()
    );
}

#[test]
fn a_notice_placed_by_a_killed_run_is_recorded_as_it_is_by_running_the_void_again() {
    let (env, export) = drawn();
    // A run killed after it placed the notice, before it recorded it.
    let o = env
        .cmd_of(&std::env::current_exe().unwrap())
        .args([
            "void_notice::place_only_child_hook",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("URNE_TEST_VOID_PLACE_ONLY", DAY)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let folder = format!("void-{DAY}-attempt-1");
    let path = env.path(&folder).join(NOTICE);
    let placed = std::fs::read(&path).unwrap();
    assert_eq!(count(&env, "draw.void"), 1);
    assert!(
        recorded(&env, &format!("{folder}/{NOTICE}")).is_empty(),
        "placed, not recorded"
    );
    let o = env.draw(DAY, "x");
    let err = assert_fails(&o, 4, "not-published");
    assert_names(&err, &[&format!("#{}", last_seq(&env, "draw.void"))]);
    // Run again into another folder (issue 22, item 4): refused, naming the recorded folder;
    // nothing recorded, no second notice.
    let before = count(&env, "output.published");
    let total = event_total(&env);
    let o = env.urne(&[
        "void",
        "--day",
        DAY,
        "--reason",
        "power cut, minutes 12",
        "--out",
        "elsewhere",
    ]);
    let err = assert_fails(&o, 4, "output-conflict");
    assert_names(&err, &[&folder]);
    assert_eq!(count(&env, "output.published"), before);
    assert_eq!(event_total(&env), total, "the refusal records nothing");
    assert!(!env.path("elsewhere").join(NOTICE).exists());
    // Run again: the notice in place is this void's, so it is recorded as it is.
    let o = env.urne(&["void", "--day", DAY, "--reason", "power cut, minutes 12"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    // The note on the screen: its words are what is tested.
    assert!(err.contains("already in place"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), placed, "not rewritten");
    assert_eq!(count(&env, "output.published"), before + 1);
    let sha = sha_hex(&path);
    assert_eq!(
        last_payload(&env, "output.published")["sha256"],
        sha.as_str()
    );
    assert_eq!(count(&env, "draw.void"), 1);
    both(&env, &[&folder, "--keys", "keys"], 0, "");
    // Once: run again, there is nothing to void; the redraw names the adopted notice.
    let o = env.urne(&["void", "--day", DAY, "--reason", "power cut, minutes 12"]);
    assert_fails(&o, 4, "nothing-to-void");
    seal(&env, &export);
    env.draw_ok(DAY, "d2");
    let b2 = json(&env.path("d2/bundle.json"));
    assert_eq!(b2["history"]["predecessor"]["sha256"], sha.as_str());
    let all = env.path("all");
    std::fs::create_dir(&all).unwrap();
    for f in ["d1", folder.as_str(), "d2"] {
        std::fs::rename(env.path(f), all.join(f)).unwrap();
    }
    both(&env, &["all", "--keys", "keys"], 0, "");
}

/// The child side of the test above: records the void of the day `URNE_TEST_VOID_PLACE_ONLY`
/// and places its notice through urne's own code, without recording it (what a kill between
/// the two leaves); does nothing unless that variable is set.
#[test]
fn place_only_child_hook() {
    let Ok(day) = std::env::var("URNE_TEST_VOID_PLACE_ONLY") else {
        return;
    };
    let mut ctx = begun("void");
    let events = ctx.audit().unwrap().events().unwrap();
    let st = urne_ceremony::state::day_state(&events, day.parse().unwrap()).unwrap();
    let ev = ctx
        .record(urne_verify::draw::records::VoidRecord {
            day: day.parse().unwrap(),
            attempt: st.attempt,
            reason: "power cut, minutes 12".into(),
            stage: st.stage().into(),
        })
        .map_err(|e| e.message)
        .unwrap();
    let events = ctx.audit().unwrap().events().unwrap();
    let v = urne_ceremony::void_statement::voided(&events, ev.seq).unwrap();
    let dir = std::path::PathBuf::from(v.subject.default_folder(v.attempt));
    urne::cmd::void_notice::place(&mut ctx, &v, &dir)
        .map_err(|e| e.message)
        .unwrap();
}

/// `dir` holding `notice` re-signed with a throwaway result key, whose public key is in `keys/`
/// of that folder's sibling `<dir>-keys` (with the real audit key).
fn resigned(env: &Env, dir: &str, notice: &serde_json::Value) {
    use ed25519_dalek::Signer;
    let sk = ed25519_dalek::SigningKey::from_bytes(&[7u8; 32]);
    let d = env.path(dir);
    std::fs::create_dir_all(&d).unwrap();
    let mut bytes = serde_json::to_vec_pretty(notice).unwrap();
    bytes.push(b'\n');
    std::fs::write(d.join(NOTICE), &bytes).unwrap();
    std::fs::write(d.join(format!("{NOTICE}.sig")), sk.sign(&bytes).to_bytes()).unwrap();
    let k = env.path(&format!("{dir}-keys"));
    std::fs::create_dir_all(&k).unwrap();
    let pem = urne_verify::crypto::keys::public_key_to_pem(&sk.verifying_key().to_bytes());
    std::fs::write(k.join("result.pub.pem"), pem).unwrap();
    std::fs::copy(env.path("keys/audit.pub.pem"), k.join("audit.pub.pem")).unwrap();
}

#[test]
fn a_notice_is_checked_member_by_member_with_the_classes_of_the_spec() {
    let (env, _) = drawn();
    env.ok(&[
        "void",
        "--day",
        DAY,
        "--reason",
        "power cut, minutes 12",
        "--out",
        "n",
    ]);
    let n = json(&env.path("n").join(NOTICE));
    let fake_id = urne_verify::crypto::keys::key_id(
        &ed25519_dalek::SigningKey::from_bytes(&[7u8; 32])
            .verifying_key()
            .to_bytes(),
    );
    let mut ours = n.clone();
    ours["result_key_id"] = fake_id.into();
    // Control: re-signed as it is, under the throwaway key it names, it verifies.
    resigned(&env, "ok", &ours);
    both(&env, &["ok", "--keys", "ok-keys"], 0, "");
    let edit = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = ours.clone();
        f(&mut v);
        v
    };
    let cases: Vec<(&str, serde_json::Value, &str)> = vec![
        (
            "no-history",
            edit(&|v| drop(v.as_object_mut().unwrap().remove("history"))),
            "malformed",
        ),
        ("version-1", edit(&|v| v["version"] = 1.into()), "malformed"),
        (
            "no-block",
            edit(&|v| drop(v.as_object_mut().unwrap().remove("block"))),
            "malformed",
        ),
        ("added", edit(&|v| v["software"] = "x".into()), "malformed"),
        (
            "both-set",
            edit(&|v| v["block"] = format!("{GAME}/100/t1/1").into()),
            "malformed",
        ),
        (
            "bad-day",
            edit(&|v| v["day"] = "2018-12-4".into()),
            "malformed",
        ),
        (
            "not-its-game",
            edit(&|v| {
                v["day"] = serde_json::Value::Null;
                v["block"] = format!("{GAME}/100/t1/1").into();
            }),
            "inconsistent",
        ),
        (
            "checkpoint",
            edit(&|v| {
                let cp = v["audit_checkpoint"]
                    .as_str()
                    .unwrap()
                    .replace("— urne-audit/", "— urne-audit/x");
                v["audit_checkpoint"] = cp.into();
            }),
            "bad-signature",
        ),
        ("real-key-id", n.clone(), "inconsistent"),
        (
            "after-checkpoint",
            edit(&|v| v["void_seq"] = 100_000.into()),
            "inconsistent",
        ),
        (
            "fork",
            edit(&|v| {
                let h = v["history"]["consistency"][0].as_str().unwrap();
                let flipped = format!("{}{}", if h.starts_with('0') { "1" } else { "0" }, &h[1..]);
                v["history"]["consistency"][0] = flipped.into();
            }),
            "fork",
        ),
    ];
    for (name, v, class) in cases {
        resigned(&env, name, &v);
        both(&env, &[name, "--keys", &format!("{name}-keys")], 1, class);
    }
}

/// Whether `out` shows the hex value `hex` in groups of four digits, as every screen prints a
/// hash (its lines may break between groups).
fn grouped(out: &str, hex: &str) -> bool {
    let groups: Vec<&str> = hex
        .as_bytes()
        .chunks(4)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect();
    let shown: Vec<&str> = out.split_whitespace().collect();
    shown.windows(groups.len()).any(|w| w == groups.as_slice())
}
