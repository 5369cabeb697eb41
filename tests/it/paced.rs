//! A paced screen (spec/appliance.md §9.4, issue 25 item 1): on a console of 80x24, urne waits for
//! Enter before a line would push off the screen what the person has not yet had before their
//! eyes since they last typed; nothing scrolls away unread, and what is asked about is on the
//! screen when it is asked. Driven at a pseudo-terminal of that size (`scripts/pty-type --size
//! 80x24 --screens FILE`), which records the screen each time something is typed.

use crate::common::*;
use crate::draws::{seal, simulate};

/// What a person had on the screen each time they typed, and what they typed.
pub(crate) struct Seen {
    pub(crate) typed: String,
    pub(crate) screen: Vec<String>,
}

/// The screens `scripts/pty-type --screens FILE` recorded in `file`, in order.
pub(crate) fn screens(file: &std::path::Path) -> Vec<Seen> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            Seen {
                typed: v["typed"].as_str().unwrap().to_string(),
                screen: v["screen"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap().to_string())
                    .collect(),
            }
        })
        .collect()
}

/// `urne draw` of `day` at an 80x24 console, the commitment typed back and a contribution
/// typed; the transcript and the screens recorded at each thing typed.
fn draw_at_console(env: &Env, day: &str, out: &str) -> (std::process::Output, Vec<Seen>) {
    let screens = env.path("screens.jsonl");
    let _ = std::fs::remove_file(&screens);
    let o = env
        .cmd_of(&root().join("scripts/pty-type"))
        .args(["--size", "80x24", "--screens"])
        .arg(&screens)
        .args(["--on", TYPE_BACK, "--send-match"])
        .args([
            "--on",
            CONTRIBUTION_PROMPT,
            "--send",
            "3 5 2 6 dés du commissaire",
        ])
        .args(["--on", YES_NO, "--send", "oui", "--"])
        .arg(URNE)
        .args(["draw", "--day", day, "--out", out])
        .output()
        .unwrap();
    let seen = self::screens(&screens);
    (o, seen)
}

/// The lines the transcript `t` shows, each as last redrawn (as `scripts/pty-type` renders them).
pub(crate) fn shown_lines(t: &str) -> Vec<String> {
    t.split('\n')
        .map(|l| {
            l.trim_end_matches('\r')
                .rsplit('\r')
                .next()
                .unwrap_or("")
                .to_string()
        })
        .collect()
}

#[test]
fn a_draw_at_an_80x24_console_pauses_so_that_nothing_scrolls_away_unread() {
    let env = Env::new();
    let export = simulate(&env, "2018-12-04", 300, 3, &[]);
    seal(&env, &export);
    let (o, seen) = draw_at_console(&env, "2018-12-04", "out");
    let t = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "{t}");
    // It paused (a draw prints far more than 24 lines) and every screen fits the console.
    let pauses = seen.iter().filter(|s| s.typed.is_empty()).count();
    assert!(pauses >= 2, "{pauses} pauses:\n{t}");
    for s in &seen {
        assert!(s.screen.len() <= 24);
        assert!(s.screen.iter().all(|l| l.chars().count() <= 80));
    }
    // The commitment typed back was on the screen when it was asked for.
    let back = seen
        .iter()
        .find(|s| s.typed.len() == 9 && s.typed.contains(' '))
        .expect("the commitment's first characters were typed back");
    assert!(
        back.screen.iter().any(|l| l.contains(&back.typed)),
        "{:?}",
        back.screen
    );
    // Nothing scrolled away unread: every line shown is on a screen the person had before their
    // eyes when they typed or pressed Enter, or on the last screen, which stays.
    let lines = shown_lines(&t);
    let last = &lines[lines.len().saturating_sub(24)..];
    for l in lines.iter().filter(|l| !l.trim().is_empty()) {
        let l = if l.chars().count() > 80 {
            l.chars().take(80).collect()
        } else {
            l.clone()
        };
        let on_a_screen = seen.iter().any(|s| s.screen.contains(&l)) || last.contains(&l);
        assert!(
            on_a_screen,
            "never on the screen long enough to read: {l:?}\n{t}"
        );
    }
}
