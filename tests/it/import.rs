//! Production's import (`urne-import`, crates/import) of real outputs, made by the real binary on
//! a real SoftHSM token, into a real `PostgreSQL` server (a throwaway cluster per test,
//! scripts/pg-throwaway): refusals that load nothing (wrong keys, an export production did not
//! send, a fork, unofficial rules), an import twice that changes nothing, a void imported after
//! the result it voids (marked void, reported), a block's production file checked and loaded.

use crate::common::*;
use crate::draws::{seal, simulate};
use crate::fork::{copy_dir, put_copy_back, take_copy};
use std::path::Path;
use std::process::Command;

const D1: &str = "2018-12-03";
const D2: &str = "2018-12-04";

/// A throwaway `PostgreSQL` cluster, stopped and removed when dropped.
struct Pg {
    dir: String,
    conninfo: String,
}

impl Pg {
    fn start() -> Pg {
        let out = Command::new(root().join("scripts/pg-throwaway"))
            .arg("start")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "scripts/pg-throwaway start failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let mut lines = text.lines();
        Pg {
            dir: lines.next().unwrap().to_string(),
            conninfo: lines.next().unwrap().to_string(),
        }
    }

    /// The same server, another database (created).
    fn another(&self, name: &str) -> Pg {
        self.one(&format!("CREATE DATABASE {name}"));
        Pg {
            dir: String::new(),
            conninfo: self
                .conninfo
                .replace("dbname=postgres", &format!("dbname={name}")),
        }
    }

    /// One value of `sql`, as psql prints it unaligned.
    fn one(&self, sql: &str) -> String {
        let out = Command::new("psql")
            .args([&self.conninfo, "-XAtq", "-v", "ON_ERROR_STOP=1", "-c", sql])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "psql {sql}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    }

    /// Every table of the import's schema, row for row, in one text (what "nothing changed"
    /// compares); empty when there is no schema.
    fn snapshot(&self) -> String {
        if self.one("SELECT to_regclass('urne.imports') IS NULL") == "t" {
            return String::new();
        }
        ["imports", "draws", "placed", "days", "blocks"]
            .iter()
            .map(|t| {
                self.one(&format!(
                    "SELECT coalesce(string_agg(x::text, '|' ORDER BY x::text), '') FROM urne.{t} x"
                ))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl Drop for Pg {
    fn drop(&mut self) {
        if self.dir.is_empty() {
            return; // another database of a server dropped on its own
        }
        let _ = Command::new(root().join("scripts/pg-throwaway"))
            .args(["stop", &self.dir])
            .output();
    }
}

/// What a run of `urne-import` gave.
struct Run {
    code: u8,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

/// `urne-import MEDIUM --keys KEYS --exports EXPORTS [--tickets DIR]… --database PG`, the paths
/// in `env`'s folder: the command's library function, as the binary runs it.
fn import(env: &Env, pg: &Pg, medium: &str, keys: &str, exports: &str, tickets: &[&str]) -> Run {
    let p = |s: &str| env.path(s).display().to_string();
    let mut args = vec![
        "urne-import".to_string(),
        p(medium),
        "--keys".into(),
        p(keys),
    ];
    args.extend([
        "--exports".into(),
        p(exports),
        "--database".into(),
        pg.conninfo.clone(),
    ]);
    for t in tickets {
        args.extend(["--tickets".into(), p(t)]);
    }
    let (mut stdout, mut stderr) = (vec![], vec![]);
    let code = urne_import::cli::run(args, &mut stdout, &mut stderr);
    Run {
        code,
        stdout,
        stderr,
    }
}

/// The JSON lines of standard output.
fn lines(out: &Run) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn line<'a>(
    ls: &'a [serde_json::Value],
    kind: &str,
    key: &str,
    value: &str,
) -> &'a serde_json::Value {
    ls.iter()
        .find(|l| l["kind"] == kind && l[key] == value)
        .unwrap_or_else(|| panic!("no {kind} line with {key} {value}: {ls:?}"))
}

fn code(out: &Run) -> u8 {
    out.code
}

fn stderr(out: &Run) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Production's list of the exports it sent: `sha256sum`'s lines.
fn exports_list(env: &Env, name: &str, exports: &[&Path]) -> String {
    let mut text = String::new();
    for e in exports {
        let h = urne_verify::crypto::sha256(&std::fs::read(e).unwrap());
        let name = e.file_name().unwrap().to_string_lossy();
        text.extend([h.to_string().as_str(), "  ", &name, "\n"]);
    }
    std::fs::write(env.path(name), text).unwrap();
    name.to_string()
}

fn winner_account(env: &Env, folder: &str) -> String {
    let r: serde_json::Value =
        serde_json::from_slice(&std::fs::read(env.path(&format!("{folder}/result.json"))).unwrap())
            .unwrap();
    r["winner"]["account"].as_str().unwrap().to_string()
}

#[test]
fn a_medium_imports_once_a_void_marks_its_result_void_and_a_fork_or_a_stranger_loads_nothing() {
    let env = Env::new();
    env.ok(&["keys", "export", "--out", "keys"]);
    let e1 = simulate(&env, D1, 300, 71, &[]);
    let e2 = simulate(&env, D2, 300, 72, &[]);
    seal(&env, &e1);
    seal(&env, &e2);
    env.draw_ok(D1, "pub/draw-2018-12-03");
    take_copy(&env);
    env.draw_ok(D2, "pub/draw-2018-12-04");
    let both = exports_list(&env, "exports.sha256", &[&e1, &e2]);
    let only_d1 = exports_list(&env, "d1.sha256", &[&e1]);
    let pg = Pg::start();

    // Keys that are not the appliance's: nothing is verified (the outputs name their keys' ids,
    // which the error gives to compare with the key ceremony's minutes), nothing is loaded.
    copy_dir(&env.path("keys"), &env.path("other-keys"));
    std::fs::copy(producer_pub(), env.path("other-keys/result.pub.pem")).unwrap();
    let out = import(&env, &pg, "pub", "other-keys", &both, &[]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("error[usage]:"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains(&test_producer_key_id()),
        "{}",
        stderr(&out)
    );
    assert_eq!(pg.snapshot(), "", "nothing loaded");

    // A result of an export production did not send: refused, nothing loaded.
    let out = import(&env, &pg, "pub", "keys", &only_d1, &[]);
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("error[unknown-export]:"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains(D2), "{}", stderr(&out));
    assert_eq!(pg.snapshot(), "", "nothing loaded");

    // The medium: both days drawn, their winners' accounts, every other day of the operation
    // not drawn.
    let out = import(&env, &pg, "pub", "keys", &both, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let ls = lines(&out);
    let d1 = line(&ls, "day", "day", D1);
    assert_eq!(d1["status"], "drawn");
    assert_eq!(d1["attempt"], 1);
    assert_eq!(
        d1["winner"]["account"],
        winner_account(&env, "pub/draw-2018-12-03")
    );
    assert_eq!(line(&ls, "day", "day", "2018-12-05")["status"], "not-drawn");
    // D-2 at its edges: the operation's days are 1 to 24 December 2018, each once; not the day
    // before the first period opens nor the day after the last one closes.
    assert_eq!(line(&ls, "day", "day", "2018-12-01")["status"], "not-drawn");
    assert_eq!(line(&ls, "day", "day", "2018-12-24")["status"], "not-drawn");
    let days: Vec<&str> = ls
        .iter()
        .filter(|l| l["kind"] == "day")
        .filter_map(|l| l["day"].as_str())
        .collect();
    assert_eq!(days.len(), 24, "{days:?}");
    assert!(
        !days.contains(&"2018-11-30") && !days.contains(&"2018-12-25"),
        "{days:?}"
    );
    assert_eq!(ls.last().unwrap()["changed"], true);
    assert_eq!(
        pg.one("SELECT count(*) FROM urne.draws WHERE status = 'counts'"),
        "2"
    );
    assert_eq!(
        pg.one(&format!(
            "SELECT account FROM urne.placed WHERE day = '{D2}' AND attempt = 1 AND rank = 0"
        )),
        winner_account(&env, "pub/draw-2018-12-04")
    );
    assert_eq!(
        pg.one(&format!(
            "SELECT status || attempt FROM urne.days WHERE day = '{D1}'"
        )),
        "drawn1"
    );
    assert_eq!(pg.one("SELECT count(*) FROM urne.imports"), "1");

    // The same medium again: nothing changes, not even a row of the imports.
    let before = pg.snapshot();
    let out = import(&env, &pg, "pub", "keys", &both, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(lines(&out).last().unwrap()["changed"], false);
    assert_eq!(
        pg.snapshot(),
        before,
        "a second import changed the database"
    );

    // Day 2 voided, sealed again and drawn again: its first result, imported as payable, is
    // now void; the import says so loudly (exit 10, an alert line, a warning).
    env.ok(&[
        "void",
        "--day",
        D2,
        "--reason",
        "import test: attempt 1 voided",
        "--out",
        "pub/void-2018-12-04-attempt-1",
    ]);
    seal(&env, &e2);
    env.draw_ok(D2, "pub/draw-2018-12-04-attempt-2");
    let out = import(&env, &pg, "pub", "keys", &both, &[]);
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    let ls = lines(&out);
    let alert = line(&ls, "alert", "alert", "payable-result-voided");
    assert_eq!(alert["day"], D2);
    assert_eq!(alert["attempt"], 1);
    assert!(stderr(&out).contains("is VOID"), "{}", stderr(&out));
    let d2 = line(&ls, "day", "day", D2);
    assert_eq!(d2["attempt"], 2);
    assert_eq!(d2["voided_attempts"][0]["attempt"], 1);
    assert_eq!(
        pg.one(&format!("SELECT string_agg(attempt || status, ',' ORDER BY attempt) FROM urne.draws WHERE day = '{D2}'")),
        "1void,2counts"
    );
    assert_eq!(
        pg.one(&format!(
            "SELECT status || attempt FROM urne.days WHERE day = '{D2}'"
        )),
        "drawn2"
    );
    // And once more: nothing changes, no alert.
    let before = pg.snapshot();
    let out = import(&env, &pg, "pub", "keys", &both, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(pg.snapshot(), before);

    // The token and trail copied after day 1 put back: day 2 drawn again in another history.
    // Its medium verifies alone, but does not extend what the database holds: refused.
    put_copy_back(&env);
    env.draw_ok(D2, "fork/draw-2018-12-04");
    copy_dir(
        &env.path("pub/draw-2018-12-03"),
        &env.path("forked/draw-2018-12-03"),
    );
    copy_dir(
        &env.path("fork/draw-2018-12-04"),
        &env.path("forked/draw-2018-12-04"),
    );
    env.ok(&["verify", "forked", "--keys", "keys"]);
    let out = import(&env, &pg, "forked", "keys", &both, &[]);
    assert_eq!(code(&out), 5, "{}", stderr(&out));
    assert!(stderr(&out).starts_with("error[fork]:"), "{}", stderr(&out));
    assert_eq!(pg.snapshot(), before, "a fork loaded something");
    // The fork's lone result.json beside the first history's day 1: a lone result takes no part
    // in the linear history (spec/formats.md §8.5), so it is never imported without its draw
    // folder's bundle.
    copy_dir(
        &env.path("pub/draw-2018-12-03"),
        &env.path("lone/draw-2018-12-03"),
    );
    std::fs::create_dir_all(env.path("lone/result-2018-12-04")).unwrap();
    for f in ["result.json", "result.json.sig"] {
        std::fs::copy(
            env.path(&format!("fork/draw-2018-12-04/{f}")),
            env.path(&format!("lone/result-2018-12-04/{f}")),
        )
        .unwrap();
    }
    let out = import(&env, &pg, "lone", "keys", &both, &[]);
    assert_eq!(code(&out), 5, "{}", stderr(&out));
    assert_eq!(pg.snapshot(), before, "a lone result loaded something");
    let fresh = pg.another("fresh");
    let out = import(&env, &fresh, "lone", "keys", &both, &[]);
    assert_eq!(code(&out), 7, "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("error[incomplete]:"),
        "{}",
        stderr(&out)
    );
    assert_eq!(fresh.snapshot(), "", "a lone result loaded something");
    // The two histories on one medium: the verification itself sees the fork.
    copy_dir(
        &env.path("fork/draw-2018-12-04"),
        &env.path("pub/draw-2018-12-04-fork"),
    );
    let out = import(&env, &pg, "pub", "keys", &both, &[]);
    assert_eq!(code(&out), 5, "{}", stderr(&out));
    assert_eq!(pg.snapshot(), before, "a fork loaded something");
}

#[test]
fn a_block_loads_with_its_checked_production_file_and_unofficial_rules_load_nothing() {
    let env = Env::new();
    env.ok(&["keys", "export", "--out", "keys"]);
    std::fs::write(env.path("none.sha256"), "").unwrap();
    let pg = Pg::start();
    // An official block (800,000 tickets), its production file on the secret medium.
    let rules = root().join("rules/noel-de-la-chance-2015.json");
    env.ok(&[
        "block",
        "generate",
        "--rules",
        rules.to_str().unwrap(),
        "--price",
        "100",
        "--emission",
        "2015-12",
        "--first",
        "7",
        "--blocks",
        "1",
        "--out",
        "blocks",
        "--secret-out",
        "secret",
    ]);
    let block = "noel-de-la-chance-2015/100/2015-12/7";
    let csv = env.path("secret/noel-de-la-chance-2015_100_2015-12_7.tickets.csv");
    // A production file whose rows were swapped: not the one committed, nothing loaded.
    let good = std::fs::read(&csv).unwrap();
    let text = String::from_utf8(good.clone()).unwrap();
    let mut rows: Vec<&str> = text.lines().collect();
    rows.swap(1, 2);
    copy_dir(&env.path("secret"), &env.path("bad-secret"));
    std::fs::write(
        env.path("bad-secret/noel-de-la-chance-2015_100_2015-12_7.tickets.csv"),
        rows.join("\n") + "\n",
    )
    .unwrap();
    let out = import(&env, &pg, "blocks", "keys", "none.sha256", &["bad-secret"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("commitment-mismatch"),
        "{}",
        stderr(&out)
    );
    assert_eq!(pg.snapshot(), "");

    // The block and its production file: every row loaded, as committed.
    let out = import(&env, &pg, "blocks", "keys", "none.sha256", &["secret"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let ls = lines(&out);
    let b = line(&ls, "block", "block", block);
    assert_eq!(b["status"], "committed");
    assert_eq!(b["production_file_checked"], true);
    assert_eq!(pg.one("SELECT count(*) FROM urne.tickets"), "800000");
    assert_eq!(
        pg.one("SELECT count(*) FROM urne.tickets WHERE tier > 0"),
        winning_units()
    );
    let fourth = text.lines().nth(4).unwrap().to_string();
    assert_eq!(
        pg.one(&format!(
            "SELECT concat_ws(',', position, tier, prize_cents, offered, grid1, grid2, grid3) FROM urne.tickets WHERE position = 3 AND block = '{block}'"
        )),
        fourth
    );
    // Imported again with its file: nothing changes (the rows are not loaded twice).
    let before = pg.snapshot();
    let out = import(&env, &pg, "blocks", "keys", "none.sha256", &["secret"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(pg.snapshot(), before);
    assert_eq!(pg.one("SELECT count(*) FROM urne.tickets"), "800000");

    // Voided, its void notice imported alone: the block on sale is void, said loudly, and the
    // alert kept until someone acknowledges it.
    env.ok(&[
        "block",
        "void",
        "--block",
        block,
        "--reason",
        "import test: block 7 withdrawn",
        "--out",
        "void-7",
    ]);
    let out = import(&env, &pg, "void-7", "keys", "none.sha256", &[]);
    assert_eq!(code(&out), 10, "{}", stderr(&out));
    assert_eq!(
        line(&lines(&out), "alert", "alert", "block-on-sale-voided")["block"],
        block
    );
    assert!(
        stderr(&out).contains("withdraw its tickets from sale"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        pg.one(&format!(
            "SELECT status FROM urne.blocks WHERE block = '{block}'"
        )),
        "void"
    );
    assert_eq!(
        pg.one("SELECT count(*) FROM urne.alerts WHERE acknowledged_at IS NULL"),
        "1"
    );
    // Into a new database, the block and its void together: the file of a void block is
    // checked, never loaded.
    copy_dir(&env.path("void-7"), &env.path("blocks-medium/void-7"));
    copy_dir(&env.path("blocks"), &env.path("blocks-medium/blocks"));
    let fresh = pg.another("fresh");
    let out = import(
        &env,
        &fresh,
        "blocks-medium",
        "keys",
        "none.sha256",
        &["secret"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        fresh.one("SELECT status || tickets_loaded FROM urne.blocks"),
        "voidfalse"
    );
    assert_eq!(fresh.one("SELECT count(*) FROM urne.tickets"), "0");

    // Another block, its sales closed, its seed revealed: the block is revealed.
    env.ok(&[
        "block",
        "generate",
        "--rules",
        rules.to_str().unwrap(),
        "--price",
        "100",
        "--emission",
        "2015-12",
        "--first",
        "8",
        "--blocks",
        "1",
        "--out",
        "blocks8",
        "--secret-out",
        "secret8",
    ]);
    let block = "noel-de-la-chance-2015/100/2015-12/8";
    let closed = sales_close(&env, block);
    env.ok(&[
        "block",
        "reveal",
        "--block",
        block,
        "--sales-closed-at",
        &closed,
        "--out",
        "blocks8",
    ]);
    let out = import(&env, &pg, "blocks8", "keys", "none.sha256", &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        line(&lines(&out), "block", "block", block)["status"],
        "revealed"
    );
    assert_eq!(
        pg.one(&format!(
            "SELECT status || (seed IS NOT NULL) FROM urne.blocks WHERE block = '{block}'"
        )),
        "revealedtrue"
    );

    // A block of a reduced test game: not the regulation's, never imported.
    let before = pg.snapshot();
    let small = crate::block_cli::small_rules(&env);
    let o = crate::block_cli::generate(&env, &small, "100", "1", "1", "test-blocks");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    let out = import(&env, &pg, "test-blocks", "keys", "none.sha256", &[]);
    assert_eq!(code(&out), 4, "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("error[not-official]:"),
        "{}",
        stderr(&out)
    );
    assert_eq!(pg.snapshot(), before);
}

/// The winning tickets of a block (G-3), as the official rules count them.
fn winning_units() -> String {
    urne_verify::rules::game::G3_WINNING_UNITS.to_string()
}
