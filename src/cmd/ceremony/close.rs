//! Closing a sitting (SPEC.md §9.3): `sitting.closed` recorded, then the sitting's output written
//! under the publications folder (`sitting-NNN/`: `minutes.html`, `checkpoint.note`, and last
//! `sitting.json`, each signed, staged and moved into place whole) and recorded by
//! `output.published`. Everything it states is read from the trail, so a sitting closed by a
//! process killed before its output was written is published by the next `urne ceremony`.

use super::term::{self, Lang};
use crate::cmd::ctx::Ctx;
use crate::cmd::inputs::altered;
use crate::edge::hsm::KeyRole;
use crate::edge::publish;
use crate::error::{Error, Result};
use std::path::Path;
use urne_core::audit::Event;
use urne_core::audit::kinds::{self, Record};
use urne_core::crypto::{ed25519::key_id, sha256};
use urne_core::manifest::{Audience, Listed};
use urne_core::sitting::{
    self, ClosedRecord, MINUTES, OpenedRecord, SittingFile, SittingOutput, default_folder,
};

/// Closes the open sitting `number` and publishes its output.
pub fn close(ctx: &mut Ctx, number: u32, lang: Lang, out: &Path) -> Result<()> {
    term::heading(lang.t("CLÔTURE DE LA SÉANCE", "CLOSING OF THE SITTING"));
    ctx.record(ClosedRecord { number })?;
    publish_pending(ctx, out).map(|_| ())
}

/// The last sitting, when it is closed and its output not yet recorded (SPEC.md §9.3).
fn pending(events: &[Event]) -> Result<Option<(Event, OpenedRecord, Event)>> {
    urne_core::state::sittings::unpublished(events).map_err(|m| altered(&m.to_string()))
}

/// Publishes the output of a sitting closed but not yet published, if any (`true` if one was).
pub fn publish_pending(ctx: &mut Ctx, out: &Path) -> Result<bool> {
    let events = ctx.audit()?.events()?;
    let Some((opened, r, closed)) = pending(&events)? else {
        return Ok(false);
    };
    let lang = Lang::from_env(Some(&r.lang));
    let name = default_folder(r.number);
    let dir = out.join(&name);
    if crate::edge::fsio::name_taken(&dir, sitting::FILE_NAME)? {
        return Err(Error::refused(
            format!(
                "{} exists, and the trail does not record it",
                dir.join(sitting::FILE_NAME).display()
            ),
            "an output is never replaced: keep that folder as evidence (it may be the output of a run killed after writing it), move it aside, and run `urne ceremony` again to write the sitting's output anew",
        ));
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
    let bytes = urne_core::draw::files::to_bytes(&file);
    let sha = sha256(&bytes);
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
    let output = ctx.output_record(&format!("{name}/{}", sitting::FILE_NAME), sha, &note)?;
    ctx.record_evidence(output)?;
    say!(
        "{} {} : {}",
        lang.t("MINUTES DE LA SÉANCE n°", "MINUTES OF SITTING no."),
        r.number,
        dir.join(MINUTES).display()
    );
    print_copied(lang, (&sha, &minutes_sha), &note);
    Ok(true)
}

/// What the commissaire copies at the close: the sitting file's SHA-256 and the minutes' (to
/// write on the paper copy: computed here, not by a tool of the appliance's `PATH`), then the
/// checkpoint, said what it is.
fn print_copied(
    lang: Lang,
    (sha, minutes): (&urne_core::crypto::Hash32, &urne_core::crypto::Hash32),
    note: &str,
) {
    let mut sc = crate::text::Screen::new(lang);
    sc.to_copy("");
    sc.hash(
        &format!("{} (SHA-256)", sitting::FILE_NAME),
        &sha.to_string(),
    );
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
    sc.indented(
        2,
        lang.t(
            "Point de contrôle du journal d'audit, ci-dessous : signé par l'HSM, il fixe le journal tel qu'il est à la clôture ; recopié aux minutes signées, il permet à quiconque de prouver plus tard que ce journal n'a pas été réécrit.",
            "Checkpoint of the audit trail, below: signed by the HSM, it fixes the trail as it stands at the close; copied into the signed minutes, it lets anyone prove later that this trail was not rewritten.",
        ),
    );
    for l in sc.lines() {
        say!("{l}");
    }
    say!("{note}");
}

/// Every output published between the sitting's opening and its close (SPEC.md §9.3).
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
