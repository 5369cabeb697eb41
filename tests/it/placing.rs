//! Every output recorded or adopted, never twice (issue 22 item 4, spec/appliance.md §6.7 [M-253]): a
//! block generation stopped after it recorded where its commitment goes (`output.placing`) and
//! before recording it published is taken up in that folder only; a re-run into another output
//! folder is refused (exit 4) and records nothing.

use crate::common::*;
use crate::outputs::{count, generate_args, secret_of};
use std::os::unix::process::CommandExt;

const OFFICIAL: &str = "rules/noel-de-la-chance-2015.json";

/// Runs `urne ARGS` (at the pseudo-terminal the tests type at) with files limited to `bytes`:
/// the first write past it stops urne (SIGXFSZ), a kill at a known point.
fn run_with_file_limit(env: &Env, args: &[&str], bytes: u64) -> std::process::Output {
    let mut c = env.command_for(args);
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        c.pre_exec(move || {
            let l = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &raw const l) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    c.output().unwrap()
}

fn files_in(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir).map_or(vec![], |rd| {
        rd.filter_map(std::result::Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect()
    });
    v.sort();
    v
}

#[test]
fn a_block_whose_commitment_was_being_placed_is_taken_up_in_that_folder_only() {
    let env = Env::new();
    env.ok(&["keys", "export", "--out", "keys"]);
    let rules = root().join(OFFICIAL);
    let args = generate_args(&rules, "1", "first");
    // The production file (about 58 MB) is the first file past 32 MB urne writes: the run stops
    // while staging it, after `output.placing` was recorded and before anything was placed.
    let o = run_with_file_limit(&env, &args, 32 << 20);
    assert!(!o.status.success(), "the run was to stop at the limit");
    assert_eq!(
        count(&env, "output.placing"),
        1,
        "where it goes was recorded"
    );
    assert_eq!(count(&env, "block.published"), 0);
    let placing = crate::outputs::last_payload(&env, "output.placing");
    assert_eq!(
        placing["subject"]["block"]["block"],
        "noel-de-la-chance-2015/100/t1/1"
    );
    assert!(placing["out"].as_str().unwrap().ends_with("first"));
    // Run again into another output folder: refused, naming the recorded one, before anything
    // is recorded (spec/appliance.md §6.7 [M-256]); nothing is written there.
    let before = event_total(&env);
    let o = env.urne(&generate_args(&rules, "1", "second"));
    assert_fails(&o, 4, "output-conflict");
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(said.contains("again with --out first"), "{said}");
    assert_eq!(event_total(&env), before, "nothing recorded");
    assert_eq!(count(&env, "output.placing"), 1);
    assert_eq!(count(&env, "block.published"), 0);
    assert!(
        files_in(&env.path("second"))
            .iter()
            .all(|n| !n.contains(".commit.json")),
        "no commitment in the other folder"
    );
    // Run again into the recorded folder: the block, recomputed from its recorded entropy, is
    // published there, once.
    env.ok(&args);
    assert_eq!(count(&env, "block.published"), 1);
    assert_eq!(count(&env, "block.entropy"), 1, "one entropy");
    let commits: Vec<String> = ["first", "second"]
        .iter()
        .flat_map(|d| files_in(&env.path(d)))
        .filter(|n| n.ends_with(".commit.json"))
        .collect();
    assert_eq!(commits.len(), 1, "{commits:?}");
    let v = env.ok(&["verify", "first", "--keys", "keys"]);
    assert_eq!(v.matches(": signed commitment").count(), 1, "{v}");
    assert!(
        env.path(&secret_of("first"))
            .join("noel-de-la-chance-2015_100_t1_1.tickets.csv")
            .exists()
    );
}
