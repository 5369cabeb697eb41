//! A kill -9 at any moment of `urne seal`, `urne block reveal`, `urne void` or `urne keys init`
//! (issue 10, "Done when", second bullet; the same for `block generate` and `draw` is in
//! `outputs`): the trail still verifies, the next run completes or is refused as already done
//! (exit 4), and what comes out is what an unkilled run gives: one seal per attempt with the
//! export's commitment, one reveal per block that matches its commitment, one void per attempt,
//! announced by one recorded void notice, after which the day is sealed and drawn again, one trail and one key pair per role in a token
//! whose `keys init` was killed. `URNE_KILL_RUNS` sets the number of kills per command
//! (`outputs::DEFAULT_KILL_RUNS` by default; `scripts/crash` runs more and prints the figures).

use crate::block_cli::small_rules;
use crate::common::*;
use crate::draws::{seal, simulate};
use crate::outputs::*;
use std::path::Path;
use std::time::Instant;

/// The trail passes `urne audit verify` (exit 0).
pub(crate) fn audit_ok(env: &Env) {
    anchor(env);
    env.ok(&["audit", "verify", "--keys", "audit-keys"]);
}

/// How many events of `kind` have `field` equal to `value` in their payload.
pub(crate) fn count_where(env: &Env, kind: &str, field: &str, value: &serde_json::Value) -> usize {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let mut st = c
        .prepare("SELECT payload FROM events WHERE kind = ?1")
        .unwrap();
    st.query_map([kind], |r| r.get::<_, String>(0))
        .unwrap()
        .map(|p| serde_json::from_str::<serde_json::Value>(&p.unwrap()).unwrap())
        .filter(|v| &v[field] == value)
        .count()
}

/// Re-runs `args` after a kill: it completes, or is refused as already done (exit 4) when
/// `done` says the kill came after the command's work was recorded. True when refused.
fn rerun(k: &mut Killer, env: &Env, args: &[&str], done: bool) -> bool {
    let o = k.run(env, args);
    if done && o.status.code() == Some(4) {
        return true;
    }
    assert!(
        o.status.success(),
        "urne {args:?} after a kill ({:?}): {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    false
}

const DAY: &str = "2018-12-04";

fn seal_args(export: &str) -> Vec<String> {
    let rules = root().join("rules/chanceux-noel-2018.json");
    [
        "seal",
        "--rules",
        rules.to_str().unwrap(),
        "--entries",
        export,
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn a_kill_at_any_moment_of_a_seal_leaves_one_seal_with_the_same_commitment() {
    let env = Env::new();
    let export = simulate(&env, DAY, 3000, 31, &[]);
    let a = seal_args(export.to_str().unwrap());
    let args: Vec<&str> = a.iter().map(String::as_str).collect();
    let t = Instant::now();
    env.ok(&args);
    let mut k = Killer::new("seal", t.elapsed());
    let commitment = last_payload(&env, "draw.seal")["commitment"].clone();
    let mut sealed = 0;
    let runs = kill_runs();
    for i in 0..runs {
        let attempt = serde_json::json!(i + 2);
        env.ok(&["void", "--day", DAY, "--reason", "kill test run"]);
        k.kill(&env, &args);
        audit_ok(&env);
        let before = count_where(&env, "draw.seal", "attempt", &attempt);
        sealed += before;
        let refused = rerun(&mut k, &env, &args, before == 1);
        k.rerun(refused);
        audit_ok(&env);
        assert_eq!(count_where(&env, "draw.seal", "attempt", &attempt), 1);
        assert_eq!(count(&env, "draw.seal"), i + 2, "one seal per attempt");
        let p = last_payload(&env, "draw.seal");
        assert_eq!(p["attempt"], attempt);
        assert_eq!(p["commitment"], commitment, "the export's commitment");
    }
    assert_eq!(count(&env, "draw.entropy"), 0, "a seal asks for no entropy");
    env.draw_ok(DAY, "out");
    k.report(&format!(
        "{sealed} had recorded the seal; every attempt sealed once with the same commitment and \
         the trail verified after every kill"
    ));
}

#[test]
fn a_kill_at_any_moment_of_a_void_leaves_one_void_and_the_day_sealed_and_drawn_again() {
    let env = Env::new();
    let export = simulate(&env, DAY, 400, 32, &[]);
    seal(&env, &export);
    let args = ["void", "--day", DAY, "--reason", "kill test run"];
    // The timing void, and the attempt it opens.
    let t = Instant::now();
    env.ok(&args);
    let mut k = Killer::new("void", t.elapsed());
    seal(&env, &export);
    let mut voided = 0;
    let runs = kill_runs();
    for i in 0..runs {
        let attempt = serde_json::json!(i + 2);
        if i % 2 == 1 {
            // Every other attempt is drawn before its void.
            env.draw_ok(DAY, &format!("d{i}"));
        }
        k.kill(&env, &args);
        audit_ok(&env);
        let before = count_where(&env, "draw.void", "attempt", &attempt);
        voided += before;
        // Every other re-run is given another folder (issue 22, item 4): refused (exit 4) when
        // the killed run had recorded where it was placing the notice, then run as before.
        let new_out = format!("void-new-{i}");
        let refused = if i % 2 == 1 {
            let alt = [&args[..], &["--out", &new_out]].concat();
            let o = k.run(&env, &alt);
            if o.status.success() {
                false
            } else {
                assert_eq!(
                    o.status.code(),
                    Some(4),
                    "{}",
                    String::from_utf8_lossy(&o.stderr)
                );
                rerun(&mut k, &env, &args, before == 1)
            }
        } else {
            rerun(&mut k, &env, &args, before == 1)
        };
        k.rerun(refused);
        audit_ok(&env);
        assert_eq!(count_where(&env, "draw.void", "attempt", &attempt), 1);
        assert_eq!(count(&env, "draw.void"), i + 2, "one void per attempt");
        // Its notice is in place, in one folder only, and recorded once (written, or recorded
        // as the kill left it).
        let notice = format!("void-{DAY}-attempt-{}/void-notice.json", i + 2);
        let elsewhere = env.path(&new_out).join("void-notice.json");
        assert!(
            env.path(&notice).exists() != elsewhere.exists(),
            "{notice}: one notice, in one folder"
        );
        let file = serde_json::json!(notice);
        assert_eq!(count_where(&env, "output.published", "file", &file), 1);
        seal(&env, &export);
        assert_eq!(last_payload(&env, "draw.seal")["attempt"], i + 3);
    }
    let r = env.draw_ok(DAY, "last");
    let res: serde_json::Value =
        serde_json::from_slice(&std::fs::read(env.path("last/result.json")).unwrap()).unwrap();
    assert_eq!(res["attempt"], runs + 2, "{r}");
    env.ok(&["keys", "export", "--out", "keys"]);
    env.ok(&["verify", "last", "--keys", "keys"]);
    // Every draw and every void notice of the run, together: one linear history, no gap.
    let all = env.ok(&["verify", env.dir.path().to_str().unwrap(), "--keys", "keys"]);
    assert!(all.contains("one linear history"), "{all}");
    k.report(&format!(
        "{voided} had recorded the void; every attempt voided once with one recorded notice, then sealed and drawn \
         again, the trail verified after every kill"
    ));
}

#[test]
fn a_kill_at_any_moment_of_a_reveal_leaves_one_reveal_that_matches_the_commitment() {
    let env = Env::new();
    let rules = small_rules(&env);
    env.ok(&["keys", "export", "--out", "keys"]);
    let result_pub = env.path("keys/result.pub.pem");
    let runs = kill_runs();
    let blocks = (runs + 1).to_string();
    let mut g = generate_args(&rules, "1", "out");
    let n = g.iter().position(|a| *a == "--blocks").unwrap();
    g[n + 1] = &blocks;
    env.ok(&g);
    let id = |n: usize| format!("{GAME}/100/t1/{n}");
    let t = Instant::now();
    let (last, closed) = (id(runs + 1), sales_close(&env, &id(runs + 1)));
    env.ok(&[
        "block",
        "reveal",
        "--block",
        &last,
        "--sales-closed-at",
        &closed,
        "--out",
        "out",
    ]);
    let mut k = Killer::new("block reveal", t.elapsed());
    let (mut recorded, mut partial) = (0, 0);
    for i in 1..=runs {
        let b = id(i);
        let closed = sales_close(&env, &b);
        let args = [
            "block",
            "reveal",
            "--block",
            &b,
            "--sales-closed-at",
            &closed,
            "--out",
            "out",
        ];
        k.kill(&env, &args);
        audit_ok(&env);
        assert_whole(&env.path("out"), &result_pub);
        let name = format!("{}.reveal.json", b.replace('/', "_"));
        let file = env.path("out").join(&name);
        partial += usize::from(!file.exists() && has_any(&env, &name));
        let bv = serde_json::json!(b);
        let before = count_where(&env, "block.revealed", "block", &bv);
        let revealed = (before == 1).then(|| last_payload(&env, "block.revealed"));
        recorded += before;
        let refused = rerun(&mut k, &env, &args, file.exists());
        k.rerun(refused);
        audit_ok(&env);
        assert_eq!(count_where(&env, "block.revealed", "block", &bv), 1);
        let rv: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        let p = last_payload(&env, "block.revealed");
        assert_eq!((&rv["entropy"], &rv["seed"]), (&p["entropy"], &p["seed"]));
        if let Some(r) = revealed {
            assert_eq!(
                r, p,
                "the reveal recorded before the kill is the one published"
            );
        }
        assert_whole(&env.path("out"), &result_pub);
    }
    assert_eq!(count(&env, "block.revealed"), runs + 1);
    let v = env.ok(&["verify", "out", "--keys", "keys"]);
    // Every block recomputed from its revealed seed (the production files are on the secret
    // medium, not beside the commitments).
    assert_eq!(
        v.matches("revealed: every ticket recomputed from the seed")
            .count(),
        runs + 1,
        "{v}"
    );
    k.report(&format!(
        "{recorded} had recorded the reveal, {partial} left a staged reveal file; every re-run \
         wrote the recorded seed once and the folder verifies"
    ));
}

/// A staging folder under `out` holds `name`.
fn has_any(env: &Env, name: &str) -> bool {
    std::fs::read_dir(env.path("out")).is_ok_and(|rd| {
        rd.filter_map(std::result::Result::ok)
            .any(|e| e.path().is_dir() && e.path().join(name).exists())
    })
}

/// The databases `keys init` builds under a temporary name (`.audit.db.init-<pid>`, and their
/// journals) left in the env's folder.
pub(crate) fn temporaries(env: &Env) -> Vec<String> {
    std::fs::read_dir(env.dir.path())
        .unwrap()
        .filter_map(std::result::Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".audit.db.init-"))
        .collect()
}

/// pkcs11-tool, logged in to the env's token; `None` when it is not installed (it is OpenSC's,
/// not one of scripts/test's dependencies).
pub(crate) fn pkcs11_tool(env: &Env, args: &[&str]) -> Option<std::process::Output> {
    let cfg: serde_json::Value =
        serde_json::from_slice(&std::fs::read(env.path("urne.json")).unwrap()).unwrap();
    let mut c = std::process::Command::new("pkcs11-tool");
    scrub(&mut c);
    let o = c
        .args(["--module", cfg["module"].as_str().unwrap()])
        .args(["--token-label", cfg["token_label"].as_str().unwrap()])
        .args(["--login", "--pin", &env.pin()])
        .args(args)
        .env("SOFTHSM2_CONF", env.path("softhsm2.conf"))
        .output();
    match o {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => panic!("pkcs11-tool: {e}"),
        Ok(o) => {
            assert!(
                o.status.success(),
                "pkcs11-tool {args:?}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            Some(o)
        }
    }
}

/// The token's objects as pkcs11-tool lists them, `(kind, label)` with kind `pubkey`,
/// `privkey`, `data` or `other` (its `--type` names); `None` without pkcs11-tool.
pub(crate) fn token_objects(env: &Env) -> Option<Vec<(String, String)>> {
    let o = pkcs11_tool(env, &["--list-objects"])?;
    let mut objects: Vec<(String, String)> = vec![];
    for line in String::from_utf8_lossy(&o.stdout).lines() {
        if !line.starts_with(' ') {
            let kind = if line.starts_with("Public Key Object") {
                "pubkey"
            } else if line.starts_with("Private Key Object") {
                "privkey"
            } else if line.starts_with("Data object") {
                "data"
            } else {
                "other"
            };
            objects.push((kind.into(), String::new()));
        } else if let Some(l) = line.trim().strip_prefix("label:")
            && let Some(last) = objects.last_mut()
        {
            last.1 = l.trim().trim_matches('\'').to_string();
        }
    }
    Some(objects)
}

/// How many of `objects` are of `kind` with `label`.
pub(crate) fn how_many(objects: &[(String, String)], kind: &str, label: &str) -> usize {
    objects
        .iter()
        .filter(|(k, l)| k == kind && l == label)
        .count()
}

/// An initialised token and its trail: one key pair per role, each bound to the token (`urne
/// hsm info` shows a role's key only when it is one public and one private key); one trail
/// object and at least one mark (counted by pkcs11-tool when installed; `keys export` refuses a
/// token with more than one trail object); the database in place, verifying, with nothing left
/// under a temporary name; the keys exported are those the trail recorded.
pub(crate) fn assert_initialised(env: &Env, out: &Path) {
    let info = env.ok(&["hsm", "info"]);
    assert_eq!(
        info.matches("generated in the token; can never leave it")
            .count(),
        2,
        "{info}"
    );
    if let Some(objects) = token_objects(env) {
        for label in ["urne-result", "urne-audit"] {
            assert_eq!(how_many(&objects, "pubkey", label), 1, "{objects:?}");
            assert_eq!(how_many(&objects, "privkey", label), 1, "{objects:?}");
        }
        assert_eq!(how_many(&objects, "other", "urne-seal"), 1, "{objects:?}");
        assert_eq!(how_many(&objects, "data", "urne-trail"), 1, "{objects:?}");
        assert!(how_many(&objects, "data", "urne-mark") >= 1, "{objects:?}");
    }
    assert!(env.db().exists());
    audit_ok(env);
    assert_eq!(
        temporaries(env),
        Vec::<String>::new(),
        "left under a temporary name"
    );
    let out = out.to_str().unwrap();
    env.ok(&["keys", "export", "--out", out]);
    let listed: serde_json::Value =
        serde_json::from_slice(&std::fs::read(Path::new(out).join("keys.json")).unwrap()).unwrap();
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let p: String = c
        .query_row(
            "SELECT payload FROM events WHERE kind = 'keys.generated'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let generated: serde_json::Value = serde_json::from_str(&p).unwrap();
    assert_eq!(generated["keys"][0]["key_id"], listed["result"]["key_id"]);
    assert_eq!(generated["keys"][1]["key_id"], listed["audit"]["key_id"]);
    assert_eq!(generated["seal_key"]["label"], "urne-seal", "{generated}");
}

/// The figures of the kills of `keys init` beyond [`Killer`]'s: what the re-run found, and what
/// each token that still needs its security officer held (spec/appliance.md §6.6, [M-281]).
#[derive(Debug, Default)]
pub(crate) struct InitKills {
    /// Re-runs that finished the initialisation (or were refused as already done).
    pub(crate) finished: usize,
    /// ... that took a whole key pair an interrupted run had generated.
    pub(crate) adopted: usize,
    /// ... that removed what a kill inside the token's generation of a key pair left and
    /// generated the pair.
    pub(crate) cut: usize,
    /// What each of those removed, as `keys init` named it: (role and objects, how many).
    pub(crate) cut_states: std::collections::BTreeMap<String, usize>,
    /// ... that marked a database already in place.
    pub(crate) placed: usize,
    /// Kills that left a database under its temporary name.
    pub(crate) leftovers: usize,
    /// The re-runs refused because only the token's security officer can take the token back
    /// (exit 4): the refusal's first line each.
    pub(crate) officer: Vec<String>,
}

/// Kills `keys init` `runs` times, each on a new token, and runs it again after each kill.
fn keys_init_kills(runs: usize) -> (Killer, InitKills) {
    // Its length varies most (it syncs a new database): the shortest of three runs.
    let took = (0..3)
        .map(|_| {
            let env = Env::without_keys();
            let t = Instant::now();
            env.ok(&["keys", "init"]);
            t.elapsed()
        })
        .min()
        .unwrap();
    let mut k = Killer::new("keys init", took);
    let mut f = InitKills::default();
    for i in 0..runs {
        let env = Env::without_keys();
        k.kill(&env, &["keys", "init"]);
        f.leftovers += usize::from(!temporaries(&env).is_empty());
        let o = k.run(&env, &["keys", "init"]);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        // Which recovery path ran is told by its note on the screen: the words are what is tested.
        if o.status.success() {
            k.rerun(false);
            f.adopted += usize::from(err.contains("initialising with it"));
            f.cut += usize::from(err.contains("removing it and generating the pair"));
            for line in err.lines() {
                if let Some((_, rest)) = line.split_once("generation of the ")
                    && let Some((what, _)) = rest.split_once("; no trail names it")
                {
                    *f.cut_states.entry(what.to_string()).or_default() += 1;
                }
            }
            f.placed += usize::from(err.contains("checking it and marking it"));
        } else {
            // A state no urne can finish (`keys_left` in src/cmd/keys.rs): refused for the
            // token's security officer, by its id (seal-key-cut); an older urne under test
            // refuses the states it cannot finish so in its hint, whatever their id.
            let cut = err.contains("error[seal-key-cut]: ");
            if cut || hint_of(&o).contains("security officer") {
                let id = if cut { "seal-key-cut" } else { "keys-exist" };
                let e = assert_fails(&o, 4, id);
                // Nothing made.
                assert!(!env.db().exists() && temporaries(&env).is_empty(), "{e}");
                f.officer.push(format!("{id}: {e}"));
                continue;
            }
            // The kill came after the mark: the token is initialised (its own id, not
            // keys-exist, which is keys already there without a trail).
            assert_fails(&o, 4, "token-initialised");
            k.rerun(true);
        }
        f.finished += 1;
        assert_initialised(&env, &env.path(&format!("keys{i}")));
    }
    (k, f)
}

fn report_init_kills(k: &Killer, f: &InitKills) {
    k.report(&format!(
        "{} finished by urne's re-run ({} took a whole key pair the killed run had generated, {} \
         removed what a kill inside the token's generation of a key pair left and generated the \
         pair{}, {} marked a database in place; {} kills left a database under its temporary \
         name), {} need the token's security officer{}; each token urne finished ended with one \
         trail and one key pair per role{}",
        f.finished,
        f.adopted,
        f.cut,
        if f.cut_states.is_empty() {
            String::new()
        } else {
            let states: Vec<String> = f
                .cut_states
                .iter()
                .map(|(what, n)| format!("{n} × {what}"))
                .collect();
            format!(": {}", states.join("; "))
        },
        f.placed,
        f.leftovers,
        f.officer.len(),
        if f.officer.is_empty() {
            String::new()
        } else {
            format!(": {}", f.officer.join(" | "))
        },
        if pkcs11_tool_installed() {
            " (counted by pkcs11-tool)"
        } else {
            ""
        }
    ));
}

/// Whether OpenSC's pkcs11-tool is installed (it counts the token's objects).
fn pkcs11_tool_installed() -> bool {
    std::process::Command::new("pkcs11-tool")
        .arg("--help")
        .output()
        .is_ok()
}

/// The one state a kill can leave that urne does not finish: the sealing key cut inside its
/// generation (it is neither destroyable nor modifiable, spec/appliance.md §6.9), by its id.
const SEAL_KEY_CUT: &str = "seal-key-cut: ";

/// Its positive control: `URNE_UNDER_TEST=<older urne> URNE_EXPECT_OFFICER=1` expects tokens
/// left needing the security officer in states urne could finish (docs/testing.md, "keys init
/// killed").
// MUST: M-280
#[test]
fn a_kill_at_any_moment_of_keys_init_leaves_a_token_that_keys_init_finishes() {
    let (k, f) = keys_init_kills(kill_runs());
    report_init_kills(&k, &f);
    let finishable: Vec<&String> = f
        .officer
        .iter()
        .filter(|e| !e.starts_with(SEAL_KEY_CUT))
        .collect();
    if std::env::var_os("URNE_EXPECT_OFFICER").is_some() {
        assert!(!finishable.is_empty(), "the control found none: {f:?}");
    } else {
        assert!(
            finishable.is_empty(),
            "states urne should finish: {finishable:?}"
        );
    }
}

/// Deletes from SoftHSM's folder the file of the one object of `kind` labelled `label`, found
/// by taking each object file out and asking pkcs11-tool what is gone (private objects' labels
/// are encrypted in their files): the token as if that object had never been created, which is
/// what a kill just before its creation leaves.
pub(crate) fn delete_object_file(env: &Env, kind: &str, label: &str) {
    let objects = token_objects(env).unwrap();
    let n = how_many(&objects, kind, label);
    assert_eq!(n, 1, "{objects:?}");
    let dir = std::fs::read_dir(env.path("tokens"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir())
        .unwrap();
    let aside = env.path("object-aside");
    for e in std::fs::read_dir(&dir).unwrap().map(Result::unwrap) {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".object") || name == "token.object" {
            continue;
        }
        std::fs::rename(e.path(), &aside).unwrap();
        if how_many(&token_objects(env).unwrap(), kind, label) == 0 {
            std::fs::remove_file(&aside).unwrap();
            let _ = std::fs::remove_file(dir.join(name.replace(".object", ".lock")));
            return;
        }
        std::fs::rename(&aside, e.path()).unwrap();
    }
    panic!("no file holds the {kind} object {label:?}");
}

/// A token initialised, then taken back to where an interrupted `keys init` stopped: the
/// objects of `undo` (kind, label) as never created, the database removed unless `keep_db`.
pub(crate) fn interrupted_init(undo: &[(&str, &str)], keep_db: bool) -> Env {
    let env = Env::without_keys();
    env.ok(&["keys", "init"]);
    for (kind, label) in undo {
        delete_object_file(&env, kind, label);
    }
    if !keep_db {
        std::fs::remove_file(env.db()).unwrap();
    }
    env
}

/// `keys init` run again on `env`: succeeds, says `said` on standard error; the token and trail
/// are then initialised. Returns the trail's events.
pub(crate) fn init_again(env: &Env, said: &str) -> i64 {
    let o = env.urne(&["keys", "init"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    // The recovery path's note on the screen: its words are what is tested.
    assert!(err.contains(said), "{err}");
    assert_initialised(env, &env.path("keys-after"));
    event_total(env) - 2 // keys export's software.start and keys.exported
}

#[test]
fn keys_init_finishes_from_each_step_an_interrupted_run_stops_at() {
    if token_objects(&Env::without_keys()).is_none() {
        eprintln!("skipped: this test takes SoftHSM's objects apart with pkcs11-tool (OpenSC)");
        return;
    }
    // Linked into place, not marked (and the temporary name not yet removed): the database is
    // checked as every command checks it, marked, and the run is reported finished.
    let env = interrupted_init(&[("data", "urne-mark")], true);
    let trail = last_payload(&env, "trail.created")["trail"].clone();
    std::fs::hard_link(env.db(), env.path(".audit.db.init-4000000")).unwrap();
    assert_eq!(init_again(&env, "checking it and marking it"), 4);
    assert_eq!(last_payload(&env, "trail.created")["trail"], trail);
    // The identity written, the database built in part under its temporary name only: removed,
    // and built again for the same trail.
    let env = interrupted_init(&[("data", "urne-mark")], true);
    let trail = last_payload(&env, "trail.created")["trail"].clone();
    std::fs::rename(env.db(), env.path(".audit.db.init-4000001")).unwrap();
    assert_eq!(init_again(&env, "removing"), 3);
    assert_eq!(last_payload(&env, "trail.created")["trail"], trail);
    // Both key pairs and the sealing key generated, the identity not yet written: the keys are
    // taken (they are bound to the token, and no trail names them), a trail is made for them.
    let env = interrupted_init(&[("data", "urne-mark"), ("data", "urne-trail")], false);
    let before = env.ok(&["hsm", "info"]);
    assert_eq!(init_again(&env, "initialising with it"), 3);
    let after = env.ok(&["hsm", "info"]);
    assert_eq!(
        before
            .lines()
            .filter(|l| l.contains("key id"))
            .collect::<Vec<_>>(),
        after
            .lines()
            .filter(|l| l.contains("key id"))
            .collect::<Vec<_>>(),
        "the same keys"
    );
    // Both key pairs generated, not yet the sealing key: it is generated, and the keys taken.
    let env = interrupted_init(
        &[
            ("data", "urne-mark"),
            ("data", "urne-trail"),
            ("other", "urne-seal"),
        ],
        false,
    );
    assert_eq!(init_again(&env, "initialising with it"), 3);
    // Another trail's database in place while the token's trail has no mark: refused, and left
    // as it was.
    let env = interrupted_init(&[("data", "urne-mark")], false);
    let other = Env::new();
    std::fs::copy(other.db(), env.db()).unwrap();
    let before = std::fs::read(env.db()).unwrap();
    assert_fails(&env.urne(&["keys", "init"]), 7, "trail-not-tokens");
    assert_eq!(std::fs::read(env.db()).unwrap(), before);
    // What a kill inside the token's generation of a key pair leaves: tests/it/kills_keys.rs.
}

/// What the media hold after the draw's kills (issue 22, item 4).
#[derive(Debug, Default)]
#[expect(
    clippy::struct_field_names,
    reason = "`orphans` is the count the report is named for; the other fields qualify it"
)]
pub(crate) struct Orphans {
    /// Complete signed draw outputs found (a `bundle.json` whose signature verifies, with its
    /// manifest).
    pub(crate) outputs: usize,
    /// ... whose `bundle.json` no `draw.published` of the trail names.
    pub(crate) orphans: usize,
    /// ... beyond the first of a day's attempt: a second output for one attempt.
    pub(crate) second: usize,
    /// Kills that left a whole folder in place and unrecorded (the window of item 4).
    pub(crate) window: usize,
}

/// Every complete signed draw output under `env`'s folder (a folder holding `bundle.json`, its
/// valid `.sig` and `manifest.json`), counted against the trail's `draw.published` records;
/// each is copied into `pub` for `urne verify pub`.
fn orphans(env: &Env, result_pub: &Path) -> Orphans {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let mut st = c
        .prepare("SELECT payload FROM events WHERE kind = 'draw.published'")
        .unwrap();
    let published: Vec<String> = st
        .query_map([], |r| r.get::<_, String>(0))
        .unwrap()
        .map(|p| serde_json::from_str::<serde_json::Value>(&p.unwrap()).unwrap())
        .map(|v| v["files"]["bundle.json"].as_str().unwrap_or("").to_string())
        .collect();
    let (mut f, mut seen) = (Orphans::default(), std::collections::BTreeSet::new());
    let public = env.path("pub");
    std::fs::create_dir_all(&public).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(env.path("."))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('d') || n.starts_with("aside"))
        .collect();
    names.sort();
    for name in names {
        let dir = env.path(&name);
        let (bundle, sig) = (dir.join("bundle.json"), dir.join("bundle.json.sig"));
        if !dir.join("manifest.json").exists()
            || !bundle.exists()
            || !openssl_verify(result_pub, &bundle, &sig)
        {
            continue;
        }
        let bytes = std::fs::read(&bundle).unwrap();
        let b: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        f.outputs += 1;
        let sha = hex_sha256(&bytes);
        f.orphans += usize::from(!published.contains(&sha));
        // The draw core's members are the bundle's own (spec/formats.md §4.7).
        let attempt = format!("{}/{}", b["day"], b["attempt"]);
        assert!(b["day"].is_string() && b["attempt"].is_u64(), "{name}");
        f.second += usize::from(!seen.insert(attempt));
        let copy = public.join(&name);
        std::fs::create_dir_all(&copy).unwrap();
        for e in std::fs::read_dir(&dir).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_file() {
                std::fs::copy(e.path(), copy.join(e.file_name())).unwrap();
            }
        }
    }
    f
}

pub(crate) fn hex_sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(bytes))
}

/// Kills `urne draw` at random moments, `runs` times, each on a new attempt of the day; re-runs
/// it half the time into the same folder, half into a new one, as an operator would after a
/// kill: when refused (exit 4) and not drawn, into the folder the first run was given, and when
/// refused again, with that folder moved aside (what the README said before item 4). Returns
/// the figures of what the media hold, and whether `urne verify pub` said `fork`.
fn draw_kills(runs: usize) -> (Killer, Orphans, bool) {
    let env = Env::new();
    let export = simulate(&env, DAY, 400, 41, &[]);
    seal(&env, &export);
    env.ok(&["keys", "export", "--out", "keys"]);
    let result_pub = env.path("keys/result.pub.pem");
    let draw = |out: &str| -> Vec<String> {
        ["draw", "--day", DAY, "--out", out]
            .map(String::from)
            .to_vec()
    };
    let t = Instant::now();
    let a = draw("d-timing");
    env.ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let mut k = Killer::new("draw (re-run into the same or a new folder)", t.elapsed());
    let mut window = 0;
    for i in 0..runs {
        env.ok(&["void", "--day", DAY, "--reason", "kill test run"]);
        seal(&env, &export);
        let first = format!("d{i:03}");
        let a = draw(&first);
        let args: Vec<&str> = a.iter().map(String::as_str).collect();
        let attempt = serde_json::json!(i + 2);
        // Half the kills anywhere, half in the last half of the run, where the folder is
        // placed and recorded.
        if i % 4 < 2 {
            k.kill(&env, &args);
        } else {
            k.kill_late(&env, &args, 50);
        }
        audit_ok(&env);
        let drawn = |env: &Env| count_where(env, "draw.published", "attempt", &attempt) == 1;
        window += usize::from(!drawn(&env) && env.path(&first).join("manifest.json").exists());
        if drawn(&env) {
            assert_fails(&k.run(&env, &args), 4, "day-already-drawn");
            k.rerun(true);
            continue;
        }
        let again = if i % 2 == 0 {
            first.clone()
        } else {
            format!("d{i:03}-new")
        };
        let mut tries = vec![again, first.clone()];
        tries.dedup();
        let mut done = false;
        for (n, out) in tries.iter().chain([&first]).enumerate() {
            if n == tries.len() {
                // Refused in the first folder too: moved aside, as the hint says.
                std::fs::rename(env.path(&first), env.path(&format!("aside{i:03}"))).unwrap();
            }
            let a = draw(out);
            let o = k.run(&env, &a.iter().map(String::as_str).collect::<Vec<_>>());
            if o.status.success() {
                done = true;
                break;
            }
            assert_eq!(
                o.status.code(),
                Some(4),
                "{}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
        assert!(done, "run {i}: the draw never completed after its kill");
        k.rerun(false);
        assert!(drawn(&env));
        audit_ok(&env);
    }
    let figures = orphans(&env, &result_pub);
    let o = env.urne(&["verify", "pub", "--keys", "keys"]);
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (k, Orphans { window, ..figures }, said.contains("fork"))
}

fn report_draw_kills(k: &Killer, f: &Orphans, fork: bool) {
    k.report(&format!(
        "{} kills left a whole folder unrecorded; {} complete signed outputs on the media, {} orphans (no draw.published names them), {} \
         second outputs of one attempt; urne verify over every folder {}",
        f.window,
        f.outputs,
        f.orphans,
        f.second,
        if fork { "said fork" } else { "said no fork" }
    ));
}

#[test]
fn a_kill_at_any_moment_of_a_draw_leaves_no_orphan_and_no_second_output() {
    let (k, f, fork) = draw_kills(kill_runs().min(6));
    report_draw_kills(&k, &f, fork);
    assert_eq!((f.orphans, f.second, fork), (0, 0, false), "{f:?}");
}

/// The long run (at least 30 kills; `URNE_KILL_RUNS` more), and its positive control:
/// `URNE_UNDER_TEST=<older urne> URNE_EXPECT_ORPHANS=1` expects orphans or second outputs
/// (scripts/kill-outputs runs both).
#[test]
#[ignore = "long: scripts/kill-outputs"]
fn thirty_kills_of_a_draw_leave_no_orphan_and_no_second_output() {
    let (k, f, fork) = draw_kills(kill_runs().max(30));
    report_draw_kills(&k, &f, fork);
    if std::env::var_os("URNE_EXPECT_ORPHANS").is_some() {
        assert!(f.orphans + f.second > 0, "the control found none: {f:?}");
    } else {
        assert_eq!((f.orphans, f.second, fork), (0, 0, false), "{f:?}");
    }
}
