//! A real fork of tier (b) (spec/appliance.md §6.6, §6.7, spec/formats.md §8.4): someone with the PIN copies SoftHSM's
//! token folder and the database together, lets the appliance publish, puts both copies back
//! and publishes again. Token and trail agree with each other, so the appliance cannot tell
//! (a real HSM keeps its objects inside); what the published outputs carry proves it: both
//! verifiers reject the outputs together as a fork, and a checkpoint held from the first
//! history (copied into the minutes) is not on the second.

use crate::block_cli::small_rules;
use crate::common::*;
use crate::draws::{seal, simulate};
use crate::outputs::generate_args;
use std::path::Path;
use std::process::{Command, Output};

const D1: &str = "2018-12-22";
const D2: &str = "2018-12-23";

pub(crate) fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().map(Result::unwrap) {
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if src.is_dir() {
            copy_dir(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// The attacker's copy: the token's storage and the database, taken together.
pub(crate) fn take_copy(env: &Env) {
    copy_dir(&env.path("tokens"), &env.path("copy/tokens"));
    std::fs::copy(env.db(), env.path("copy/audit.db")).unwrap();
}

/// Both copies put back: the token and the trail as they were, consistent with each other.
pub(crate) fn put_copy_back(env: &Env) {
    std::fs::remove_dir_all(env.path("tokens")).unwrap();
    copy_dir(&env.path("copy/tokens"), &env.path("tokens"));
    std::fs::copy(env.path("copy/audit.db"), env.db()).unwrap();
}

/// The outputs of both histories side by side, as someone holding every publication sees them.
fn together(env: &Env, dirs: &[(&str, &str)]) {
    for (from, to) in dirs {
        copy_dir(&env.path(from), &env.path(&format!("all/{to}")));
    }
}

fn python(env: &Env, args: &[&str]) -> Output {
    let mut c = Command::new("python3");
    scrub(&mut c);
    c.arg(root().join("verifier/urne_verify.py"))
        .args(args)
        .current_dir(env.dir.path())
        .output()
        .unwrap()
}

/// Exit 1 naming the class `fork`: urne by its `error[verification-failed]:` line, the Python
/// verifier by its line of spec/formats.md §8.1, which carries no id.
fn assert_fork(out: &Output, what: &str) {
    if what.starts_with("urne") {
        assert_class(&assert_fails(out, 1, "verification-failed"), "fork");
        return;
    }
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{what}: expected exit 1:\n{err}"
    );
    assert!(
        err.contains("verification failed (fork)"),
        "{what}: expected the class fork:\n{err}"
    );
}

fn assert_valid(out: &Output, what: &str) {
    assert!(
        out.status.success(),
        "{what}: expected valid:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_day_drawn_again_from_a_copy_of_token_and_trail_is_a_fork_of_the_outputs() {
    let env = Env::new();
    env.ok(&["keys", "export", "--out", "keys"]);
    for (day, seed) in [(D1, 61), (D2, 62)] {
        seal(&env, &simulate(&env, day, 200, seed, &[]));
    }
    let draw = |day: &str, out: &str| env.draw_ok(day, out);
    draw(D1, "pub/d1");
    take_copy(&env);
    draw(D2, "pub/d2");
    put_copy_back(&env);
    // The restored token and trail agree: the appliance draws day 2 a second time.
    draw(D2, "fork/d2");
    let b = |p: &str| std::fs::read(env.path(p)).unwrap();
    assert_ne!(b("pub/d2/bundle.json"), b("fork/d2/bundle.json"));

    // Each history alone verifies.
    assert_valid(&env.urne(&["verify", "pub", "--keys", "keys"]), "urne pub");
    assert_valid(&python(&env, &["pub", "--keys", "keys"]), "python pub");
    assert_valid(
        &env.urne(&["verify", "fork/d2", "--keys", "keys"]),
        "urne fork/d2",
    );
    // Together: two outputs after d1, two histories of one trail.
    together(
        &env,
        &[("pub/d1", "d1"), ("pub/d2", "d2"), ("fork/d2", "d2-fork")],
    );
    let out = env.urne(&["verify", "all", "--keys", "keys"]);
    assert_fork(&out, "urne all");
    assert_fails(&out, 1, "verification-failed");
    assert_fork(&python(&env, &["all", "--keys", "keys"]), "python all");
    // The checkpoint of the first history's day 2, as copied into the minutes: the fork's day 2
    // does not extend it.
    let held = [
        "fork/d2",
        "--keys",
        "keys",
        "--checkpoint",
        "pub/d2/checkpoint.note",
    ];
    let mut args = vec!["verify"];
    args.extend(held);
    assert_fork(&env.urne(&args), "urne fork/d2 --checkpoint");
    assert_fork(&python(&env, &held), "python fork/d2 --checkpoint");
    // The held checkpoint of day 1 is on both histories.
    let d1 = [
        "all/d2-fork",
        "--keys",
        "keys",
        "--checkpoint",
        "pub/d1/checkpoint.note",
    ];
    let mut args = vec!["verify"];
    args.extend(d1);
    assert_valid(&env.urne(&args), "urne d2-fork --checkpoint d1");
    assert_valid(&python(&env, &d1), "python d2-fork --checkpoint d1");
}

/// The audit checkpoint a block folder's commitment carries, written to `note`.
fn commitment_checkpoint(dir: &Path, note: &Path) {
    let c = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".commit.json"))
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(c).unwrap()).unwrap();
    std::fs::write(note, v["audit_checkpoint"].as_str().unwrap()).unwrap();
}

#[test]
fn a_block_generated_again_from_a_copy_of_token_and_trail_is_a_fork_of_the_commitments() {
    let env = Env::new();
    env.ok(&["keys", "export", "--out", "keys"]);
    let rules = small_rules(&env);
    env.ok(&generate_args(&rules, "1", "pub/b1"));
    take_copy(&env);
    env.ok(&generate_args(&rules, "2", "pub/b2"));
    put_copy_back(&env);
    env.ok(&generate_args(&rules, "2", "fork/b2"));

    assert_valid(&env.urne(&["verify", "pub", "--keys", "keys"]), "urne pub");
    assert_valid(&python(&env, &["pub", "--keys", "keys"]), "python pub");
    together(
        &env,
        &[("pub/b1", "b1"), ("pub/b2", "b2"), ("fork/b2", "b2-fork")],
    );
    assert_fork(&env.urne(&["verify", "all", "--keys", "keys"]), "urne all");
    assert_fork(&python(&env, &["all", "--keys", "keys"]), "python all");
    commitment_checkpoint(&env.path("pub/b2"), &env.path("b2.note"));
    let held = ["fork/b2", "--keys", "keys", "--checkpoint", "b2.note"];
    let mut args = vec!["verify"];
    args.extend(held);
    assert_fork(&env.urne(&args), "urne fork/b2 --checkpoint");
    assert_fork(&python(&env, &held), "python fork/b2 --checkpoint");
}
