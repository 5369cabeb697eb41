//! Closing a sitting (spec/formats.md §9.3): `sitting.closed` recorded, then the sitting's output written
//! under the publications folder (`sitting-NNN/`: `minutes.html`, `checkpoint.note`, and last
//! `sitting.json`, each signed, staged and moved into place whole) and recorded by
//! `output.published`. Everything it states is read from the trail, so a sitting closed by a
//! process killed before its output was written is published by the next `urne ceremony`.

use crate::cmd::ctx::Ctx;
use crate::cmd::inputs::altered;
use crate::cmd::placing;
use crate::cmd::term::{self, Lang};
use crate::edge::hsm::KeyRole;
use crate::edge::publish;
use crate::error::Result;
use std::path::Path;
use urne_verify::audit::Event;
use urne_verify::crypto::{ed25519::key_id, sha256};
use urne_verify::events::kinds::{self, Record};
use urne_verify::manifest::{Audience, Listed};
use urne_verify::sitting::{
    self, ClosedRecord, MINUTES, OpenedRecord, SittingFile, SittingOutput, default_folder,
};

/// Closes the open sitting `number` and publishes its output.
pub(super) fn close(ctx: &mut Ctx, number: u32, lang: Lang, out: &Path) -> Result<()> {
    term::heading(lang.t("CLÔTURE DE LA SÉANCE", "CLOSING OF THE SITTING"));
    ctx.record(ClosedRecord { number })?;
    publish_pending(ctx, out).map(|_| ())
}

/// The last sitting, when it is closed and its output not yet recorded (spec/formats.md §9.3).
fn pending(events: &[Event]) -> Result<Option<(Event, OpenedRecord, Event)>> {
    urne_ceremony::state::sittings::unpublished(events).map_err(|m| altered(&m.to_string()))
}

/// Refuses (exit 4, nothing recorded: run on the checked trail before anything is recorded) a
/// publications folder `out` into which the minutes of the sitting closed but not yet published
/// cannot go: its `sitting-NNN` neither new nor empty, or, after a run stopped while placing them,
/// not the recorded folder, or holding part of them (spec/appliance.md §6.7, `placing::decide`).
pub(super) fn refuse_out(events: &[Event], out: &Path) -> Result<()> {
    let Ok(Some((_, r, _))) = pending(events) else {
        return Ok(());
    };
    let subject = placing::Subject::Sitting { number: r.number };
    placing::decide(events, &subject, &out.join(default_folder(r.number))).map(|_| ())
}

/// Publishes the output of a sitting closed but not yet published, if any (`true` if one was).
pub(super) fn publish_pending(ctx: &mut Ctx, out: &Path) -> Result<bool> {
    pending_output(ctx, out, Then::Record)
}

/// What a run of `urne ceremony` killed after the minutes of a closed sitting were placed and
/// before their publication was recorded leaves (spec/appliance.md §6.7): the output of the sitting
/// closed and not yet published made, recorded as placing (`output.placing`) and placed whole
/// under `out`, and not recorded as published. For the tests only (the child hook of
/// tests/it/ceremony.rs, which reaches it through urne's library): no command calls it, and it
/// changes no outcome: the minutes are read from the trail, and what it places the next `urne
/// ceremony` adopts whole or refuses, never replaces.
pub fn place_pending_only(ctx: &mut Ctx, out: &Path) -> Result<bool> {
    pending_output(ctx, out, Then::Stop)
}

/// What is done once the output is placed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Then {
    /// Its publication recorded (`output.published`): what urne does.
    Record,
    /// Nothing: what a run killed there leaves ([`place_pending_only`]).
    Stop,
}

/// The output of the sitting closed but not yet published, if any, placed (or adopted) and, when
/// `then` says so, recorded (`true` if there was one).
fn pending_output(ctx: &mut Ctx, out: &Path, then: Then) -> Result<bool> {
    let events = ctx.audit()?.events()?;
    let Some((opened, r, closed)) = pending(&events)? else {
        return Ok(false);
    };
    let lang = Lang::from_env(Some(&r.lang));
    let name = default_folder(r.number);
    let dir = out.join(&name);
    // A run stopped while placing these minutes recorded their folder (spec/appliance.md §6.7): a whole
    // output there is recorded as it is, never written a second time.
    let subject = placing::Subject::Sitting { number: r.number };
    if let placing::Place::Adopt(p) = placing::decide(&events, &subject, &dir)? {
        return match then {
            Then::Record => adopt(ctx, &p, (&name, r.number), lang),
            Then::Stop => Ok(true),
        };
    }
    let note = ctx.checkpoint()?;
    let history = ctx.history()?;
    let hsm = ctx.hsm()?;
    let rk = hsm.public_key(KeyRole::Result)?;
    let ak = hsm.public_key(KeyRole::Audit)?;
    let html = super::minutes::render(ctx, &events, r.number, &note, (out, lang))?;
    let minutes_sha = sha256(html.as_bytes());
    let files = vec![
        Listed::of("checkpoint.note", note.as_bytes(), Audience::Public),
        Listed::of(MINUTES, html.as_bytes(), Audience::Public),
    ];
    let file = SittingFile {
        format: sitting::FORMAT.into(),
        version: sitting::VERSION,
        number: r.number,
        kind: r.kind,
        place: r.place.clone(),
        commissaire: r.commissaire.clone(),
        present: r.present.clone(),
        opened_seq: opened.seq,
        opened_at: opened.ts.clone(),
        closed_seq: closed.seq,
        closed_at: closed.ts.clone(),
        outputs: outputs_between(&events, opened.seq, closed.seq)?,
        files,
        audit_checkpoint: note.clone(),
        result_key_id: key_id(&rk),
        audit_key_id: key_id(&ak),
        history,
    };
    let bytes = urne_verify::draw::files::to_bytes(&file);
    let sha = sha256(&bytes);
    let placed = [
        (MINUTES.to_string(), minutes_sha),
        ("checkpoint.note".to_string(), sha256(note.as_bytes())),
        (sitting::FILE_NAME.to_string(), sha),
    ]
    .into();
    placing::record(ctx, &dir, subject, sitting::FILE_NAME, &placed)?;
    publish::write_signed(
        ctx.hsm()?,
        &dir,
        &[
            (MINUTES, html.into_bytes()),
            ("checkpoint.note", note.clone().into_bytes()),
            (sitting::FILE_NAME, bytes),
        ],
        &[],
        (&rk, &ak),
    )?;
    if then == Then::Record {
        record(ctx, (&name, sha), &note)?;
        say!(
            "{} {} : {}",
            lang.t("MINUTES DE LA SÉANCE n°", "MINUTES OF SITTING no."),
            r.number,
            dir.join(MINUTES).display()
        );
        print_copied(lang, (&sha, &minutes_sha), &note);
    }
    Ok(true)
}

/// Records the sitting's output in the folder `name`, its `sitting.json` of SHA-256 `sha`
/// carrying the checkpoint `note`, as published (`output.published`).
fn record(
    ctx: &mut Ctx,
    (name, sha): (&str, urne_verify::crypto::Hash32),
    note: &str,
) -> Result<()> {
    let output = ctx.output_record(&format!("{name}/{}", sitting::FILE_NAME), sha, note)?;
    ctx.record_evidence(output)?;
    Ok(())
}

/// The whole output of sitting `number` a stopped run placed (every file as the placing `p`
/// recorded, `sitting.json` signed under the result key): recorded as published as it is.
fn adopt(
    ctx: &mut Ctx,
    p: &urne_verify::audit::history::OutputPlacing,
    (name, number): (&str, u32),
    lang: Lang,
) -> Result<bool> {
    let bytes = placing::primary(ctx, p)?;
    let found: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| {
        altered(&crate::msg!(
            crate::msg::catalogue::sitting::ERR_SITTING_PLACED_UNREADABLE,
            e = e
        ))
    })?;
    let note = found["audit_checkpoint"].as_str().unwrap_or_default();
    let sha = sha256(&bytes);
    record(ctx, (name, sha), note)?;
    note!(
        "{}",
        crate::msg!(
            crate::msg::catalogue::SCR_RESUME_SITTING_PLACED,
            number = number,
            path = p.out
        )
    );
    // What is written by hand on the paper copy, as a close that did not stop shows it: the
    // minutes' SHA-256 as placed (`p` recorded it before they were written).
    if let Some(minutes) = p.files.get(MINUTES) {
        print_copied(lang, (&sha, minutes), note);
    }
    Ok(true)
}

/// What the commissaire copies at the close: the sitting file's SHA-256 and the minutes' (to
/// write on the paper copy: computed here, not by a tool of the appliance's `PATH`), then the
/// checkpoint, said what it is.
fn print_copied(
    lang: Lang,
    (sha, minutes): (&urne_verify::crypto::Hash32, &urne_verify::crypto::Hash32),
    note: &str,
) {
    let mut sc = crate::text::Screen::new(lang);
    // The minutes' SHA-256 by hand, on the paper copy: the print cannot bear its own hash.
    sc.by_hand("");
    sc.hash(
        &format!(
            "{MINUTES} (SHA-256, {})",
            lang.t(
                "à écrire sur l'exemplaire papier",
                "to write on the paper copy"
            )
        ),
        &minutes.to_string(),
    );
    sc.for_information("");
    sc.hash(
        &format!(
            "{} (SHA-256, {})",
            sitting::FILE_NAME,
            lang.t(
                "signé, il liste les sorties et les minutes",
                "signed, it lists the outputs and the minutes"
            )
        ),
        &sha.to_string(),
    );
    sc.to_check(lang.t(
        "Point de contrôle du journal d'audit, ci-dessous : signé par l'HSM, il fixe le journal tel qu'il est à la clôture ; imprimé aux minutes signées, il permet à quiconque de prouver plus tard que ce journal n'a pas été réécrit.",
        "Checkpoint of the audit trail, below: signed by the HSM, it fixes the trail as it stands at the close; printed in the signed minutes, it lets anyone prove later that this trail was not rewritten.",
    ));
    sc.print();
    say!("{note}");
}

/// Every output published between the sitting's opening and its close (spec/formats.md §9.3).
fn outputs_between(events: &[Event], from: u64, to: u64) -> Result<Vec<SittingOutput>> {
    let mut out = vec![];
    for e in events.iter().filter(|e| e.seq > from && e.seq < to) {
        let o = match kinds::parse(e).map_err(|m| altered(&m.to_string()))? {
            Record::DrawPublished(p) => p.output,
            Record::BlockPublished(p) => p.output,
            Record::OutputPublished(p) => Some(p),
            _ => None,
        };
        if let Some(o) = o {
            out.push(SittingOutput {
                audit_seq: e.seq,
                file: o.file,
                sha256: o.sha256,
            });
        }
    }
    Ok(out)
}
