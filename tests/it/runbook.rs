//! The runbook run (issue 13): docs/runbook.sh holds the operator's commands in sections, which
//! docs/ceremony.md and README.md quote verbatim. One test checks that every quoted block is its
//! section's text; the other runs every section, in order, on a SoftHSM token under libfaketime
//! (the key ceremony on 10 December 2018, the sitting of period 1's days on 11 December, an
//! emission's block generated and revealed, the end of the day, a day of period 2 drawn alone on
//! 18 December), the placeholders set to temporary folders and real days, every prompt typed at
//! a pseudo-terminal as a person would, each command's exit code checked. So the documented
//! commands and the tested ones cannot drift.

use crate::common::*;
use crate::draws::simulate;
use crate::native::faketime_urne;
use std::path::Path;

/// What a person types at each prompt of the runbook's commands, whatever the order they come
/// in (`scripts/pty-type --on`): the prompt's pattern and the answer. The PIN is typed at its
/// own prompt ([`PIN_PROMPT`]); [`TYPE_BACK`] and [`CONFIRM`] (tests/it/common.rs) type back
/// what the screen shows. One place for the lead to align with the screens' wording.
const ANSWERS: [(&str, &str); 11] = [
    (
        "Lieu de la séance :",
        "Étude Dupont, 12 rue de la Paix, Paris",
    ),
    ("Nom du commissaire de justice :", "Maître Claire Dupont"),
    (
        r"Office \(étude\) du commissaire de justice :",
        "SELARL Dupont, commissaires de justice à Paris",
    ),
    ("une ligne vide pour finir :", ""),
    ("ces mentions sont-elles exactes", "oui"),
    ("Procéder à cette étape", "oui"),
    (r"Votre choix \(1, 2, 3 ou 4\)", "4"),
    (CLOSE_PROMPT, "oui"),
    // The reveal's sales close from production's statement: SALES_CLOSED in Paris time.
    ("clôture des ventes du bloc", "2018-12-11 12:15"),
    (CONTRIBUTION_PROMPT, "dés 5 2 6 3, Maître Dupont"),
    (YES_NO, "oui"),
];

/// The operator's PIN prompt, shown by every command that logs in to the HSM.
const PIN_PROMPT: &str = "code PIN de l'HSM";

/// When each section of the runbook is held (UTC; libfaketime's start): each command of a
/// section starts [`STEP_MINUTES`] after the one before it.
const WHEN: [(&str, &str); 5] = [
    ("key-ceremony", "2018-12-10 09:00:00"),
    ("sitting", "2018-12-11 09:00:00"),
    ("blocks", "2018-12-11 11:00:00"),
    ("end-of-day", "2018-12-11 13:00:00"),
    ("one-day", "2018-12-18 09:00:00"),
];
const STEP_MINUTES: i64 = 30;

const RUNBOOK: &str = "docs/runbook.sh";

/// docs/runbook.sh read: its placeholders and its sections (name, the lines between the
/// section's markers).
struct Runbook {
    placeholders: Vec<String>,
    sections: Vec<(String, Vec<String>)>,
}

fn runbook() -> Runbook {
    let text = std::fs::read_to_string(root().join(RUNBOOK)).unwrap();
    let (mut placeholders, mut sections) = (vec![], vec![]);
    let mut open: Option<(String, Vec<String>)> = None;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("# >>> ") {
            assert!(open.is_none(), "{RUNBOOK}: section {name} inside another");
            open = Some((name.to_string(), vec![]));
        } else if let Some(name) = line.strip_prefix("# <<< ") {
            let s = open.take().expect("a section's end without its start");
            assert_eq!(s.0, name, "{RUNBOOK}: section {} ends as {name}", s.0);
            sections.push(s);
        } else if let Some((_, lines)) = open.as_mut() {
            lines.push(line.to_string());
        } else if sections.is_empty() && !line.starts_with('#') && !line.trim().is_empty() {
            let assignment = line.strip_prefix("export ").unwrap_or(line);
            let (name, _) = assignment
                .split_once('=')
                .unwrap_or_else(|| panic!("{RUNBOOK}: {line:?} is not a placeholder"));
            placeholders.push(name.to_string());
        } else {
            assert!(
                line.starts_with('#') || line.trim().is_empty(),
                "{RUNBOOK}: {line:?} is outside every section"
            );
        }
    }
    assert!(open.is_none(), "{RUNBOOK}: a section is not closed");
    Runbook {
        placeholders,
        sections,
    }
}

/// A section's commands: its lines without comments and blank lines, continuations joined.
fn commands(lines: &[String]) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    let mut pending = String::new();
    for l in lines.iter().filter(|l| !l.trim_start().starts_with('#')) {
        if l.trim().is_empty() {
            continue;
        }
        if let Some(head) = l.strip_suffix('\\') {
            pending.push_str(head);
        } else {
            pending.push_str(l);
            out.push(std::mem::take(&mut pending));
        }
    }
    assert!(pending.is_empty(), "a continued line ends a section");
    out
}

/// The blocks a document quotes: (section, the block's lines), each a fenced `sh` block right
/// after a `<!-- runbook.sh: SECTION -->` line.
fn quoted(doc: &str) -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(root().join(doc)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = vec![];
    for (i, l) in lines.iter().enumerate() {
        let Some(name) = l
            .trim()
            .strip_prefix("<!-- runbook.sh: ")
            .and_then(|r| r.strip_suffix(" -->"))
        else {
            continue;
        };
        assert_eq!(
            lines.get(i + 1).map(|l| l.trim_end()),
            Some("```sh"),
            "{doc}: the quote of section {name} is not followed by a ```sh block"
        );
        let block: Vec<String> = lines[i + 2..]
            .iter()
            .take_while(|l| l.trim_end() != "```")
            .map(|l| (*l).to_string())
            .collect();
        out.push((name.to_string(), block));
    }
    out
}

#[test]
fn the_docs_quote_the_runbook_verbatim() {
    let book = runbook();
    let names: Vec<&str> = book.sections.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(
        names,
        WHEN.map(|w| w.0),
        "{RUNBOOK}'s sections, in order, are the ones the run test holds"
    );
    for doc in ["docs/ceremony.md", "README.md"] {
        let quotes = quoted(doc);
        for (name, _) in &book.sections {
            assert!(
                quotes.iter().any(|q| &q.0 == name),
                "{doc} does not quote section {name} of {RUNBOOK}"
            );
        }
        for (name, block) in quotes {
            let (_, lines) = book
                .sections
                .iter()
                .find(|s| s.0 == name)
                .unwrap_or_else(|| panic!("{doc} quotes a section {name} that {RUNBOOK} lacks"));
            assert_eq!(
                &block, lines,
                "{doc}'s quote of section {name} differs from {RUNBOOK}: copy the section again"
            );
        }
    }
}

/// Production's export of `day`, made at midnight in Paris as the day ended, into `dir`.
fn export(env: &Env, dir: &Path, day: &str, seed: u32) {
    let d = chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").unwrap();
    let midnight = format!("{}T00:00:00+01:00", d.succ_opt().unwrap());
    let dated = ["--generated-at", &midnight, "--status-as-of", &midnight];
    let made = simulate(env, day, 300, seed, &dated);
    std::fs::create_dir_all(dir).unwrap();
    for ext in ["", ".sig"] {
        let from = Path::new(&format!("{}{ext}", made.display())).to_path_buf();
        std::fs::rename(&from, dir.join(from.file_name().unwrap())).unwrap();
    }
}

/// `cmd` (one command of the runbook) run by bash on a pseudo-terminal, its clock started at
/// `when`, `vars` set, every prompt answered ([`ANSWERS`]); returns what the terminal showed.
fn run(env: &Env, vars: &[(&str, String)], when: &str, cmd: &str) -> String {
    let mut c = env.cmd_of(&root().join("scripts/pty-type"));
    // The sitting's screens in French, as the commissaire reads them.
    c.env_remove("URNE_PIN")
        .env("LANG", "fr_FR.UTF-8")
        .env("TZ", "UTC")
        .env("FAKETIME", format!("@{when}"))
        .envs(vars.iter().map(|(k, v)| (k, v)))
        .args(["--timeout", "120", "--on", PIN_PROMPT, "--send", &env.pin()]);
    // The commissaire's watch, Paris time: the command's clock starts at `when`.
    let watch = chrono::NaiveDateTime::parse_from_str(when, "%Y-%m-%d %H:%M:%S")
        .unwrap()
        .and_utc()
        .with_timezone(&chrono_tz::Europe::Paris)
        .format("%Y-%m-%d %H:%M")
        .to_string();
    c.args(["--on", "à votre montre", "--send", &watch]).args([
        "--on",
        PRODUCER_ID_PROMPT,
        "--send",
        &format!("{}\n", test_producer_key_id()),
    ]);
    for (prompt, answer) in ANSWERS {
        c.args(["--on", prompt, "--send", answer]);
    }
    for prompt in [TYPE_BACK, CONFIRM] {
        c.args(["--on", prompt, "--send-match"]);
    }
    c.args(["--", "bash", "-euo", "pipefail", "-c", cmd]);
    let o = c.output().unwrap();
    let screen = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    assert!(
        o.status.success(),
        "runbook command at {when} failed ({:?}): {cmd}\n{screen}{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!screen.contains(&env.pin()), "the PIN was echoed: {cmd}");
    screen
}

#[test]
fn every_section_of_the_runbook_runs_on_a_softhsm_token() {
    let env = Env::without_keys();
    let (publ, exports) = (env.path("usb"), env.path("exports"));
    for (i, d) in (1..=8).map(|d| format!("2018-12-0{d}")).enumerate() {
        export(&env, &exports, &d, 70 + u32::try_from(i).unwrap());
    }
    for m in ["secret", "backup"] {
        std::fs::create_dir_all(env.path(m)).unwrap();
    }
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let vars: Vec<(&str, String)> = vec![
        ("URNE", s(faketime_urne())),
        ("URNE_CONFIG", s(&env.path("urne.json"))),
        ("URNE_DB", s(&env.db())),
        ("PUB", s(&publ)),
        ("SECRET", s(&env.path("secret"))),
        ("EXPORTS", s(&exports)),
        ("BACKUP", s(&env.path("backup"))),
        (
            "PRODUCER_KEY",
            s(&root().join("tests/fixtures/keys/test-producer.pub.pem")),
        ),
        ("RULES", s(&root().join("rules/chanceux-noel-2018.json"))),
        (
            "GAME_RULES",
            s(&root().join("rules/noel-de-la-chance-2015.json")),
        ),
        ("TODAY", "2018-12-11".into()),
        ("SITTING", "sitting-002".into()),
        ("CHECKPOINT", s(&publ.join("sitting-002/checkpoint.note"))),
        ("PRICE", "100".into()),
        ("EMISSION", "noel-2018".into()),
        ("BLOCKS", "1".into()),
        ("BLOCK", "noel-de-la-chance-2015/100/noel-2018/1".into()),
        // After the block's generation at 11:00 UTC, before its reveal at 11:30 UTC.
        ("SALES_CLOSED", "2018-12-11T12:15:00+01:00".into()),
        ("DAY", "2018-12-08".into()),
    ];
    let book = runbook();
    let mut set: Vec<&str> = vars.iter().map(|v| v.0).collect();
    let mut named: Vec<&str> = book.placeholders.iter().map(String::as_str).collect();
    set.sort_unstable();
    named.sort_unstable();
    assert_eq!(
        set, named,
        "the test sets every placeholder of {RUNBOOK}, and only those"
    );
    let mut screens = String::new();
    for (name, lines) in &book.sections {
        let base = WHEN.iter().find(|w| w.0 == name).unwrap().1;
        let base = chrono::NaiveDateTime::parse_from_str(base, "%Y-%m-%d %H:%M:%S").unwrap();
        let cmds = commands(lines);
        assert!(!cmds.is_empty(), "section {name} has no command");
        for (i, cmd) in cmds.iter().enumerate() {
            let when = base + chrono::Duration::minutes(STEP_MINUTES * i64::try_from(i).unwrap());
            screens += &run(
                &env,
                &vars,
                &when.format("%Y-%m-%d %H:%M:%S").to_string(),
                cmd,
            );
        }
    }
    // What the sections made: the key ceremony's and three sittings' minutes, the seven days of
    // period 1 drawn on their draw date, the block revealed, the day drawn alone, the backup.
    for n in 1..=4 {
        let minutes = publ.join(format!("sitting-00{n}/minutes.html"));
        assert!(minutes.is_file(), "{}", minutes.display());
    }
    for d in 1..=7 {
        let day = format!("2018-12-0{d}");
        assert!(
            screens.contains(&format!(
                "TIRÉ : chanceux-noel-2018, jour du {day} (tentative n°\u{a0}1)"
            )),
            "{day} not drawn at the sitting:\n{screens}"
        );
        assert!(publ.join(format!("draw-{day}/bundle.json")).is_file());
    }
    assert!(
        publ.join("blocks/noel-de-la-chance-2015_100_noel-2018_1.reveal.json")
            .is_file()
    );
    assert!(publ.join("draw-2018-12-08/pv.html").is_file());
    assert!(publ.join("audit-2018-12-11.jsonl").is_file());
    assert_eq!(env.path("backup").read_dir().unwrap().count(), 1);
    assert!(screens.contains("one linear history"), "{screens}");
}
