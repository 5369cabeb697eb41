//! The verdict in words (spec/formats.md §8.1): the lines a verifier prints from this library's reports,
//! and the `error:`/`hint:` words of a failure. Shared by `urne verify` (the appliance) and the
//! `urne-verify` binary, so that both print the same verdict for the same outputs. It prints
//! nothing itself: each line says whether it goes to standard output (the verdict) or standard
//! error (a note, which changes nothing).

use super::proof::{AllProven, Proven, Standing};
use super::trail::TrailReport;
use super::{Failure, FailureClass, Report};

/// One line of a verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A line of the verdict, for standard output.
    Out(String),
    /// A note (a remark that changes nothing), for standard error.
    Note(String),
}

/// What an audit export checked against the key it records itself does not prove (exit 8,
/// spec/formats.md §6.4).
pub const UNANCHORED: &str = "its checkpoints verify under the audit key it records, which a trail rewritten end to end under another key would pass too; give the audit key exported at the key ceremony (--keys DIR holding audit.pub.pem, or --audit-key for `urne audit verify`) or a checkpoint held outside (--checkpoint)";

/// `s` with every control character escaped (`\n`, `\u{1b}`…): a path or a name printed can
/// never forge a line of the report (a `VERIFIED:` or `partial:` line of its own).
pub fn printable(s: &str) -> String {
    s.chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<char>>()
            } else {
                vec![c]
            }
        })
        .collect()
}

/// The last line of a verdict: the ids of the keys it was checked against (the result and
/// audit keys of `--keys DIR`, and in auditor mode the producer keys), to compare with the key
/// ceremony's minutes (spec/formats.md §8.1).
pub fn keys_line(keys: &super::signed::Keys, producer: &[[u8; 32]]) -> Line {
    use crate::crypto::keys::key_id;
    use std::fmt::Write as _;
    let mut s = format!(
        "keys: result key {}, audit key {}",
        key_id(&keys.result),
        key_id(&keys.audit)
    );
    for k in producer {
        let _ = write!(s, ", producer key {}", key_id(k));
    }
    let _ = write!(
        s,
        " (from {}): compare them with the key ceremony's minutes",
        keys.source
    );
    Line::Out(printable(&s))
}

/// What the line of a draw or a block commitment verified on its own adds: a void notice
/// published later would cancel it, and what sees voids (spec/formats.md §8.1, M-398).
pub const ALONE: &str = " (alone: a void notice published later would cancel it; only the whole publications medium, verified as one folder of outputs, sees voids)";

/// The verdict on `report` for the output(s) at `path`: one `VERIFIED` line per output verified
/// (`VOIDED` for a draw or a block commitment a void notice among them voids), then the checks,
/// the notes, and what could not be checked (`partial:`). The keys are always given explicitly
/// (spec/formats.md §8.1 [M-341]): the caller adds [`keys_line`]. Every line is printable:
/// names from the folders verified are escaped.
pub fn report_lines(path: &str, report: &Report) -> Vec<Line> {
    let path = printable(path);
    let mut lines = vec![];
    // One first line per output verified: folder names are not signed (spec/formats.md §8.1). The
    // first says when any was made under rules that are not an official regulation (spec/formats.md §7.4).
    let first = printable(&report.first_mark());
    for (i, s) in report.subjects.iter().enumerate() {
        let mark = if i == 0 { first.as_str() } else { ": " };
        let words = printable(&s.words);
        let voidable = s.voidable();
        let void = voidable
            .as_ref()
            .and_then(|p| super::void_of(p, &report.published));
        lines.push(Line::Out(match (void, &voidable) {
            (Some(super::Publishes::Void { of, attempt }), _) => format!(
                "VOIDED{mark}{words} in {path}: the void notice of {} attempt {attempt} (version 2) announces its void; it is not the result",
                printable(&of.to_string())
            ),
            (_, Some(_)) if !report.whole => format!("VERIFIED{mark}{words} in {path}{ALONE}"),
            _ => format!("VERIFIED{mark}{words} in {path}"),
        }));
    }
    if report.subjects.is_empty() {
        lines.push(Line::Out(format!("VERIFIED{first}{path}")));
    }
    for d in &report.checks {
        lines.push(Line::Out(format!("  ok  {}", printable(d))));
    }
    for n in &report.notes {
        lines.push(Line::Note(format!("note: {}", printable(n))));
    }
    for p in &report.partial {
        lines.push(Line::Out(format!("partial: {}", printable(p))));
    }
    lines
}

/// The verdict on the proof file at `path` (spec/formats.md §8.3, §5.B9): its `VERIFIED` line, one per
/// proof kind naming the file as every other line does [M-318] and, for an inclusion proof
/// checked against the published draw, what the account is in it (the winner, reserve N, or
/// neither), then what the proof shows as a check and, when it was not compared with the
/// published output (`published` false), the `partial:` line saying so.
pub fn proof_lines(path: &str, proven: &Proven, published: bool) -> Vec<Line> {
    let unsigned = "the proof carries no signature: what it shows holds against the published output, which is signed";
    let (first, mut shown) = match proven {
        Proven::Ticket { proof: p, signed } => (
            format!(
                "VERIFIED: the ticket proof of position {} of block {} in {path}",
                p.position, p.block
            ),
            vec![format!(
                "ticket {} of block {} is in the committed outcomes (root {}): {}",
                p.position, p.block, p.outcomes_root, p.row
            )]
            .into_iter()
            .chain((!signed).then(|| unsigned.to_string()))
            .collect::<Vec<_>>(),
        ),
        Proven::Draw {
            proof: p,
            signed,
            standing,
        } => (
            format!(
                "VERIFIED: the inclusion proof of leaf {} in the draw of {} day {} attempt {} in {path}{}",
                p.leaf,
                p.operation,
                p.day,
                p.attempt,
                standing
                    .map(|s| format!(": {}", standing_words(s)))
                    .unwrap_or_default()
            ),
            vec![format!(
                "account {} had {} entr{} in the sealed draw (leaf {} of {}, commitment {}){}",
                p.account,
                p.entries,
                if p.entries == 1 { "y" } else { "ies" },
                p.leaf,
                p.commitment.leaves,
                p.commitment.root,
                if published { ", the published one" } else { "" }
            )]
            .into_iter()
            .chain((!signed).then(|| unsigned.to_string()))
            .collect(),
        ),
        Proven::All(a) => all_lines(path, a),
    };
    let mut lines = vec![Line::Out(printable(&first))];
    lines.extend(
        shown
            .drain(..)
            .map(|s| Line::Out(format!("  ok  {}", printable(&s)))),
    );
    if !published {
        lines.push(Line::Out(
            "partial: the proof's commitment was not compared with the published output (give --published DIR)".into(),
        ));
    }
    lines
}

/// The first line and the checks of the file of every proof of a day (spec/formats.md §8.1
/// [M-403]): how many lines, and at which lines the published picks are.
fn all_lines(path: &str, a: &AllProven) -> (String, Vec<String>) {
    let at: String = a
        .picks
        .iter()
        .map(|(rank, line)| match rank {
            0 => format!("; the winner line {line}"),
            r => format!(", reserve {r} line {line}"),
        })
        .collect::<Vec<_>>()
        .concat();
    (
        format!(
            "VERIFIED: {} inclusion proof{} in the draw of {} day {} attempt {} in {path}",
            a.count,
            if a.count == 1 { "" } else { "s" },
            a.operation,
            a.day,
            a.attempt
        ),
        vec![
            format!(
                "every line is an inclusion proof of the published commitment ({} leaves), checked alone",
                a.leaves
            ),
            format!(
                "{} of the {} published picks are in the file{at}",
                a.picks.len(),
                a.picks_published
            ),
        ],
    )
}

/// What an account is in the published draw, in the verdict's words (spec/formats.md §8.1).
pub fn standing_words(s: Standing) -> String {
    match s {
        Standing::Winner => "the winner".into(),
        Standing::Reserve(r) => format!("reserve {r}"),
        Standing::Neither => "neither the winner nor a reserve".into(),
    }
}

/// An exported trail's verdict as a report (spec/formats.md §6.4): the chain, the checkpoints under the
/// audit key, the events not yet covered by a checkpoint.
pub fn trail_report(r: &TrailReport) -> Report {
    let mut checks = vec![format!(
        "{} audit events chained (1..{})",
        r.events, r.events
    )];
    if let Some(k) = r.key {
        checks.push(format!(
            "{} checkpoint(s) verify under the audit key {}",
            r.checkpoints,
            crate::crypto::keys::key_id(&k)
        ));
    }
    if r.covered < r.events {
        checks.push(format!(
            "events {}..{} chained, not yet covered by a checkpoint",
            r.covered + 1,
            r.events
        ));
    }
    Report {
        checks,
        subjects: vec![super::Verified {
            words: format!("the audit trail of {} events", r.events),
            value: super::Value::AuditTrail {
                events: r.events,
                software: r.software.clone(),
            },
        }],
        ..Report::default()
    }
}

/// The verdict on an exported trail at `path` that nothing outside anchors (no key given, no
/// checkpoint held: exit 8, `UNANCHORED:`), then what did hold.
pub fn unanchored_lines(path: &str, r: &TrailReport) -> Vec<Line> {
    let mut lines = vec![Line::Out(format!(
        "UNANCHORED: the audit trail of {} events in {} is consistent with itself only: {UNANCHORED}",
        r.events,
        printable(path)
    ))];
    for d in &trail_report(r).checks {
        lines.push(Line::Out(format!("  ok  {}", printable(d))));
    }
    lines
}

/// The note said whenever no checkpoint is held: a key proves who signed events 1..`events`, not
/// that the trail ends there (spec/formats.md §6.4). A note, for standard error.
pub fn cut_short_note(events: u64) -> String {
    format!(
        "note: a key proves who signed events 1..{events}, not that the trail ends there: a copy cut short verifies too; compare {events} with the size of the last checkpoint you hold (--checkpoint)"
    )
}

/// What to do when an output's software is not the released binary of its source revision
/// (spec/formats.md §8.8, exit 9).
pub const NOT_RELEASED_HINT: &str = "the outputs verified, but the executable that made them is not the released bin/urne of its source revision: compare the software lines with the published, signed SHA256SUMS of that release, give its manifest (--release) if it was not given, and treat a binary built another way as an incident (keep the outputs as evidence)";

/// The lines of a release's check (spec/formats.md §8.8 [M-415], [M-416]), after the
/// `partial:` lines and before the `keys:` line: one `release:` line per release given, then one
/// `software:` line per software record judged, naming `path` as the first lines do; with no
/// record, the `partial:` line that says `--release` checked none.
pub fn release_lines(
    path: &str,
    releases: &super::release::Releases,
    judged: &[super::release::Judged],
) -> Vec<Line> {
    use super::release::Standing;
    let path = printable(path);
    let mut lines: Vec<Line> = releases
        .iter()
        .map(|r| {
            Line::Out(printable(&format!(
                "release: {} in {}, signed by release key {}",
                r.manifest.commit, r.path, r.key
            )))
        })
        .collect();
    for j in judged {
        let s = &j.stated.software;
        let verdict = match &j.standing {
            Standing::Released { commit } => format!("released (bin/urne of release {commit})"),
            Standing::BuiltAnotherWay { commit, released } => format!(
                "NOT RELEASED: built another way (release {commit} lists bin/urne {released})"
            ),
            Standing::NotReleased => format!(
                "NOT RELEASED: no release given is of source revision {}",
                s.source_revision
            ),
        };
        lines.push(Line::Out(format!(
            "software: {} in {path}: {}",
            printable(&j.stated.what),
            printable(&format!(
                "{} {} {}, executable {}: {verdict}",
                s.name, s.version, s.source_revision, s.executable_sha256
            ))
        )));
    }
    if judged.is_empty() {
        lines.push(Line::Out(
            "partial: no output verified states its software: --release checked none".into(),
        ));
    }
    lines
}

/// A failure's `error:` and `hint:` words, and whether it is a verification failure (exit 1)
/// or a usage mistake or an unreadable file (exit 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// A verification failure (exit 1), not a usage mistake or an unreadable input (exit 2).
    pub verification: bool,
    /// The `error:` line's text: for a verification failure, `verification failed (CLASS): …`.
    pub message: String,
    /// The `hint:` line's text.
    pub hint: String,
}

/// The words of `f` (spec/formats.md §8.1): a verification failure names its class; a usage mistake or
/// an unreadable file says nothing was verified.
pub fn refusal(f: Failure) -> Refusal {
    if !f.class.is_verification() {
        let hint = f.hint.unwrap_or_else(|| {
            match f.class {
                FailureClass::Unreadable => {
                    "check the path and its permissions; nothing was verified"
                }
                _ => {
                    "nothing was verified: give the public keys of the appliance that made these outputs (--keys), production's key for --export (--producer-key), and an output folder or file"
                }
            }
            .into()
        });
        return Refusal {
            verification: false,
            message: f.what,
            hint,
        };
    }
    if f.class == FailureClass::NotReleased {
        return Refusal {
            verification: true,
            message: format!("software not released: {}", f.what),
            hint: NOT_RELEASED_HINT.into(),
        };
    }
    let hint = if f.class == FailureClass::Rehearsal {
        "these are a rehearsal's outputs (RÉPÉTITION — SANS VALEUR, spec/formats.md §6.10): never publish, import or pay them as results"
    } else {
        "do not use these outputs; keep them as evidence and compare their hashes with the minutes"
    };
    Refusal {
        verification: true,
        message: format!("verification failed ({}): {}", f.class.name(), f.what),
        hint: hint.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_lines_name_each_output_then_checks_notes_and_partial() {
        let report = Report {
            subjects: vec![
                super::super::Verified::words("the draw of op day 2018-12-04 attempt 1"),
                super::super::Verified::words("b"),
            ],
            checks: vec!["signature ok".into()],
            notes: vec!["file x ignored".into()],
            partial: vec!["the trail\nwas not given".into()],
            ..Report::default()
        };
        let lines = report_lines("out/d\u{1b}", &report);
        assert_eq!(
            lines,
            vec![
                Line::Out(
                    "VERIFIED: the draw of op day 2018-12-04 attempt 1 in out/d\\u{1b}".into()
                ),
                Line::Out("VERIFIED: b in out/d\\u{1b}".into()),
                Line::Out("  ok  signature ok".into()),
                Line::Note("note: file x ignored".into()),
                Line::Out("partial: the trail\\nwas not given".into()),
            ]
        );
    }

    #[test]
    fn a_voidable_output_alone_says_a_void_would_cancel_it_and_a_voided_one_is_voided() {
        use super::super::{Published, Publishes, Value, Verified};
        use crate::subject::Voided;
        let draw = |words: &str, day: &str| {
            let root = super::super::tests_kit::load("draw-valid-public");
            let d = super::super::tests_vectors::at(&root, "draw");
            let mut bundle: crate::draw::files::BundleFile =
                serde_json::from_slice(&d.files["bundle.json"]).unwrap();
            bundle.core.day = day.into();
            bundle.core.attempt = 1;
            Verified {
                words: words.into(),
                value: Value::Draw {
                    bundle: Box::new(bundle),
                    result: None,
                },
            }
        };
        let cp = crate::audit::chain::Checkpoint {
            size: 3,
            root: crate::crypto::Hash32([1; 32]),
        };
        let void = Publishes::Void {
            of: Voided::Day("2018-12-05".parse().unwrap()),
            attempt: crate::values::Attempt::FIRST,
        };
        let mut report = Report {
            subjects: vec![
                draw("D4", "2018-12-04"),
                draw("D5", "2018-12-05"),
                Verified::words("N"),
            ],
            published: vec![Published {
                subject: void,
                checkpoint: cp,
                name: "V/void-notice.json".into(),
            }],
            ..Report::default()
        };
        let voided = "VOIDED: D5 in p: the void notice of day 2018-12-05 attempt 1 (version 2) announces its void; it is not the result";
        assert_eq!(
            report_lines("p", &report),
            vec![
                Line::Out(format!("VERIFIED: D4 in p{ALONE}")),
                Line::Out(voided.into()),
                Line::Out("VERIFIED: N in p".into()),
            ]
        );
        report.whole = true;
        assert_eq!(
            report_lines("p", &report),
            vec![
                Line::Out("VERIFIED: D4 in p".into()),
                Line::Out(voided.into()),
                Line::Out("VERIFIED: N in p".into()),
            ]
        );
        // Unofficial rules are named on the first line only, whatever its first word.
        report.unofficial = vec!["x".into()];
        report.subjects.swap(0, 1);
        let lines = report_lines("p", &report);
        let mark = format!(" ({}: x): ", crate::rules::official::WORDS);
        assert_eq!(
            lines[0],
            Line::Out(voided.replacen(": ", &mark, 1)),
            "{lines:?}"
        );
        assert_eq!(lines[1], Line::Out("VERIFIED: D4 in p".into()));
    }

    #[test]
    fn an_exported_trail_is_named_by_its_events_and_says_what_is_not_yet_covered() {
        let t = super::super::trail::TrailReport {
            events: 7,
            checkpoints: 2,
            covered: 5,
            key: Some([3; 32]),
            trail: None,
            software: vec![],
        };
        let r = trail_report(&t);
        assert_eq!(r.subjects.len(), 1);
        assert_eq!(r.subjects[0].words, "the audit trail of 7 events");
        assert_eq!(
            r.subjects[0].value,
            super::super::Value::AuditTrail {
                events: 7,
                software: vec![]
            }
        );
        assert_eq!(r.subjects[0].voidable(), None);
        assert_eq!(r.checks[0], "7 audit events chained (1..7)");
        assert!(r.checks[1].starts_with("2 checkpoint(s) verify under the audit key "));
        assert_eq!(
            r.checks[2],
            "events 6..7 chained, not yet covered by a checkpoint"
        );
    }

    #[test]
    fn report_lines_without_subjects_name_the_path() {
        let lines = report_lines("x", &Report::default());
        assert_eq!(lines, vec![Line::Out("VERIFIED: x".into())]);
    }
}
