//! Opening a sitting (spec/appliance.md §9.1), after the PIN: the place, the commissaire and those present,
//! given ahead or typed, shown together and confirmed, then `sitting.opened` recorded with the
//! plan. An open sitting is taken up again instead (`sitting.resumed`), its identity as recorded.

use super::args::CeremonyArgs;
use super::plan::Prepared;
use crate::cmd::ctx::Ctx;
use crate::cmd::inputs::altered;
use crate::cmd::term::{self, Lang};
use crate::cmd::watch::LastRefusal;
use crate::error::{Error, Kind, Result};
use crate::msg;
use crate::msg::catalogue::sitting as S;
use urne_ceremony::state::Trail;
use urne_verify::events::kinds::{self, Record};
use urne_verify::sitting::{Commissaire, OpenedRecord, Person, ResumedRecord, SittingKind};

/// Opens the sitting, or takes the open one up again; returns its number, its language, and
/// whether its work goes on (`false`: those present at the opening are not all there, and the
/// sitting taken up again is to be closed at once; a new one is opened by running again).
pub(super) fn open_or_resume(
    ctx: &mut Ctx,
    a: &CeremonyArgs,
    lang: Lang,
    p: &Prepared,
) -> Result<(u32, Lang, bool)> {
    let events = ctx.audit()?.events()?;
    let sittings = Trail::from_events(&events)
        .map_err(|m| altered(&m.to_string()))?
        .sittings();
    if sittings.open {
        let (at, opened) = events
            .iter()
            .rev()
            .find_map(|e| match kinds::parse(e) {
                Ok(Record::SittingOpened(r)) => Some((e.ts.clone(), r)),
                _ => None,
            })
            .ok_or_else(|| altered(&msg!(S::ERR_SITTING_NO_OPENING)))?;
        if opened.kind == SittingKind::KeyCeremony {
            return Err(Error::new(
                Kind::KeySitting,
                msg!(S::ERR_SITTING_KEY_CEREMONY_OPEN),
                msg!(S::REC_SITTING_KEY_CEREMONY_OPEN),
            ));
        }
        let lang = Lang::from_env(Some(&opened.lang));
        let same = resume_screen(lang, &at, &opened)?;
        unofficial_typed_back(lang, &p.unofficial)?;
        let refused = term::check_clock(lang, LastRefusal::Unrecorded)?;
        ctx.record(ResumedRecord {
            number: opened.number,
            plan: if same { p.steps.clone() } else { vec![] },
        })?;
        term::record_refused(ctx, lang, refused)?;
        return Ok((opened.number, lang, same));
    }
    let number = sittings.last + 1;
    show_outside(lang, &events)?;
    unofficial_typed_back(lang, &p.unofficial)?;
    let who = identity(a, lang)?;
    let refused = term::check_clock(lang, LastRefusal::Unrecorded)?;
    ctx.record(OpenedRecord {
        number,
        kind: SittingKind::Sitting,
        place: who.place,
        town: who.town,
        commissaire: who.commissaire,
        present: who.present,
        lang: lang.code().into(),
        plan: p.steps.clone(),
    })?;
    term::record_refused(ctx, lang, refused)?;
    note!(
        "{} {number} {}",
        lang.t("Séance n°", "Sitting no."),
        lang.t(
            "ouverte et inscrite au journal d'audit.",
            "opened and recorded in the audit trail."
        )
    );
    Ok((number, lang, true))
}

/// Rules that are not an official regulation, given with `--unofficial-rules`: shown under a
/// heading, then each id typed back by the commissaire (three tries, else exit 2 and nothing of
/// the sitting recorded: spec/appliance.md §7.4 [M-291], docs/ceremony.md).
fn unofficial_typed_back(lang: Lang, ids: &[String]) -> Result<()> {
    if ids.is_empty() {
        return Ok(());
    }
    term::heading(lang.t(
        "RÈGLEMENT NON OFFICIEL",
        "UNOFFICIAL RULES (RÈGLEMENT NON OFFICIEL)",
    ));
    note!(
        "{}",
        lang.t(
            "Commissaire : les règles suivantes ne sont pas un règlement officiel de cet appareil (--unofficial-rules). Tout ce qui sera produit sous elles le dira : « règlement non officiel ».",
            "Commissaire: the following rules are not an official regulation of this appliance (--unofficial-rules). Everything made under them will say so: \"règlement non officiel\" (unofficial rules)."
        )
    );
    for id in ids {
        note!("  - {id}");
        let prompt = format!(
            "{} ({id}) {}",
            lang.t(
                "Pour confirmer, tapez l'identifiant du règlement non officiel",
                "To confirm, type the id of the unofficial rules"
            ),
            lang.t("puis Entrée :", "then Enter:")
        );
        term::type_back(lang, &prompt, id)?;
    }
    Ok(())
}

/// The acts done outside any sitting since the previous one closed (spec/appliance.md §9.2, M-270): a
/// lone seal, draw, void, generation, reveal or pin of production's keys, each with its time in
/// Paris, its audit event and its output, shown under a heading the commissaire reads before
/// anything of the sitting is confirmed; the minutes state them again.
fn show_outside(lang: Lang, events: &[urne_verify::audit::Event]) -> Result<()> {
    use urne_ceremony::minutes::outside;
    let acts = outside::since_last_sitting(events).map_err(|m| altered(&m.to_string()))?;
    if acts.is_empty() {
        return Ok(());
    }
    term::heading(lang.t(
        "ACTES FAITS HORS SÉANCE DEPUIS LA SÉANCE PRÉCÉDENTE",
        "ACTS DONE OUTSIDE ANY SITTING SINCE THE PREVIOUS ONE",
    ));
    note!(
        "{}",
        lang.t(
            "Commissaire : ces actes ont été inscrits au journal d'audit hors de votre présence ; le procès-verbal de cette séance les mentionnera.",
            "Commissaire: these acts were recorded in the audit trail outside your presence; the minutes of this sitting will state them."
        )
    );
    let mut sc = crate::text::Screen::new(lang);
    for act in &acts {
        sc.indented(
            2,
            &format!(
                "- {}",
                outside::line(act, lang.core(), chrono_tz::Europe::Paris)
            ),
        );
        if let Some(o) = &act.output {
            sc.hash(&format!("{} (SHA-256)", o.file), &o.sha256.to_string());
        }
    }
    sc.note();
    Ok(())
}

/// What a sitting taken up again shows: its number, when it opened, where, and who was present
/// then; the commissaire confirms they are all there (`non`: the sitting is to be closed and a
/// new one opened).
fn resume_screen(lang: Lang, at: &str, opened: &OpenedRecord) -> Result<bool> {
    let when = urne_ceremony::minutes::words::instant(at, chrono_tz::Europe::Paris, lang.core());
    term::heading(&format!(
        "{} {} ({} {when})",
        lang.t("REPRISE DE LA SÉANCE n°", "SITTING TAKEN UP AGAIN: no."),
        opened.number,
        lang.t("ouverte", "opened"),
    ));
    note!(
        "{}",
        lang.t(
            "La séance a été interrompue ; elle reprend ici et ses minutes le mentionneront.",
            "The sitting was interrupted; it goes on here, and its minutes will say so."
        )
    );
    show_identity(
        lang,
        (&opened.place, &opened.town),
        &opened.commissaire,
        &opened.present,
    );
    let same = term::confirm(
        lang,
        lang.t(
            "Commissaire : la séance reprend-elle avec ces mêmes personnes ?",
            "Commissaire: does the sitting go on with these same persons?",
        ),
    )?;
    if !same {
        note!(
            "{}",
            lang.t(
                "La séance reprise est close sans autre opération ; lancez urne ceremony à nouveau pour ouvrir une nouvelle séance avec les personnes présentes.",
                "The sitting taken up again is closed with no other work; run urne ceremony again to open a new sitting with those present."
            )
        );
    }
    Ok(same)
}

/// Where (the place, and the town the minutes are made in), the commissaire and those present,
/// on the screen.
fn show_identity(
    lang: Lang,
    (place, town): (&str, &str),
    commissaire: &Commissaire,
    present: &[Person],
) {
    note!("  {} {place}", lang.t("Lieu :", "Place:"));
    if !town.is_empty() {
        note!(
            "  {} {town}",
            lang.t("Ville (« Fait à … ») :", "Town (\"Done at …\"):")
        );
    }
    note!(
        "  {} {}",
        lang.t("Commissaire de justice :", "Commissaire de justice:"),
        commissaire.name
    );
    note!(
        "  {} {}",
        lang.t("Office (étude) :", "Office:"),
        commissaire.office
    );
    for p in present {
        note!(
            "  {} {}, {}",
            lang.t("Présent :", "Present:"),
            p.name,
            p.role
        );
    }
}

/// Who and where, as the minutes will state it.
pub(super) struct Identity {
    pub place: String,
    pub town: String,
    pub commissaire: Commissaire,
    pub present: Vec<Person>,
}

/// The identity given ahead (checked) or typed, then shown and confirmed (`non` types it all
/// again).
pub(super) fn identity(a: &CeremonyArgs, lang: Lang) -> Result<Identity> {
    let mut given = given(a)?;
    loop {
        let who = match given.take() {
            Some(w) => w,
            None => typed(lang)?,
        };
        term::heading(lang.t("OUVERTURE DE LA SÉANCE", "OPENING OF THE SITTING"));
        show_identity(
            lang,
            (&who.place, &who.town),
            &who.commissaire,
            &who.present,
        );
        if term::confirm(
            lang,
            lang.t(
                "Commissaire : ces mentions sont-elles exactes ?",
                "Commissaire: is this correct?",
            ),
        )? {
            return Ok(who);
        }
    }
}

/// The identity given by options, when all of it is.
fn given(a: &CeremonyArgs) -> Result<Option<Identity>> {
    let (Some(place), Some(town), Some(name), Some(office)) =
        (&a.place, &a.town, &a.commissaire, &a.office)
    else {
        return Ok(None);
    };
    let mut present = vec![];
    for p in &a.present {
        present.push(person(p).ok_or_else(|| {
            Error::new(
                Kind::MinutesTextInvalid,
                msg!(S::ERR_SITTING_PRESENT, value = format!("{p:?}")),
                msg!(S::REC_SITTING_PRESENT),
            )
        })?);
    }
    for t in [place, town, name, office] {
        term::check_text(t).map_err(|why| {
            Error::new(
                Kind::MinutesTextInvalid,
                msg!(S::ERR_SITTING_TEXT, value = format!("{t:?}"), why = why),
                msg!(S::REC_SITTING_TEXT),
            )
        })?;
    }
    Ok(Some(Identity {
        place: place.trim().into(),
        town: town.trim().into(),
        commissaire: Commissaire {
            name: name.trim().into(),
            office: office.trim().into(),
        },
        present,
    }))
}

/// `Name, role` (split at the first comma), both plain text.
fn person(s: &str) -> Option<Person> {
    let (name, role) = s.split_once(',')?;
    let (name, role) = (name.trim(), role.trim());
    (term::check_text(name).is_ok() && term::check_text(role).is_ok()).then(|| Person {
        name: name.into(),
        role: role.into(),
    })
}

/// The identity typed at the terminal.
fn typed(lang: Lang) -> Result<Identity> {
    let place = term::ask_text(lang, lang.t("Lieu de la séance :", "Place of the sitting:"))?;
    let town = term::ask_text(
        lang,
        lang.t(
            "Ville où le procès-verbal est fait (« Fait à … ») :",
            "Town the minutes are made in (\"Done at …\"):",
        ),
    )?;
    let name = term::ask_text(
        lang,
        lang.t(
            "Nom du commissaire de justice :",
            "Name of the commissaire de justice:",
        ),
    )?;
    let office = term::ask_text(
        lang,
        lang.t(
            "Office (étude) du commissaire de justice :",
            "Office of the commissaire de justice:",
        ),
    )?;
    note!(
        "{}",
        lang.t(
            "Autres personnes présentes, une par ligne « Nom, qualité » ; une ligne vide pour finir :",
            "Other persons present, one per line `Name, role`; an empty line to finish:"
        )
    );
    let mut present = vec![];
    loop {
        let line = term::read_line(lang)?;
        if line.trim().is_empty() {
            break;
        }
        match person(&line) {
            Some(p) => present.push(p),
            None => note!(
                "  {}",
                lang.t(
                    "refusé : écrivez « Nom, qualité »",
                    "refused: write `Name, role`"
                )
            ),
        }
    }
    Ok(Identity {
        place,
        town,
        commissaire: Commissaire { name, office },
        present,
    })
}

/// The key ceremony's sitting (spec/appliance.md §9.1): the keys generated and the trail created by
/// `urne keys init` (the PIN asked there, first), then the sitting opened, recorded right after
/// the trail's first events; or, when the trail already exists, its open key ceremony taken up
/// again. Returns the sitting's number and language.
pub(super) fn key_ceremony(ctx: &mut Ctx, a: &CeremonyArgs, lang: Lang) -> Result<(u32, Lang)> {
    if std::fs::symlink_metadata(&ctx.global.db).is_ok() {
        ctx.opening.whole_check = true;
        ctx.begin()?;
        let events = ctx.audit()?.events()?;
        let open_key_ceremony = events.iter().rev().find_map(|e| match kinds::parse(e) {
            Ok(Record::SittingOpened(r)) => Some(r),
            _ => None,
        });
        let sittings = Trail::from_events(&events)
            .map_err(|m| altered(&m.to_string()))?
            .sittings();
        if sittings.last == 0 && only_the_keys(&events)? {
            // Interrupted before its opening (at the identity's questions): opened now, the
            // keys and the trail's creation before it, as in a key ceremony run at once.
            return open_key_ceremony_sitting(a, lang, ctx);
        }
        return match open_key_ceremony {
            Some(r) if sittings.open && r.kind == SittingKind::KeyCeremony => {
                let lang = Lang::from_env(Some(&r.lang));
                let refused = term::check_clock(lang, LastRefusal::Recorded)?;
                ctx.record(ResumedRecord {
                    number: r.number,
                    plan: r.plan.clone(),
                })?;
                term::record_refused(ctx, lang, refused)?;
                Ok((r.number, lang))
            }
            _ => Err(Error::new(
                Kind::KeyCeremonyHeld,
                msg!(S::ERR_SITTING_KEY_CEREMONY_HELD),
                msg!(S::REC_SITTING_KEY_CEREMONY_HELD),
            )),
        };
    }
    crate::cmd::keys::init(ctx)?;
    open_key_ceremony_sitting(a, lang, ctx)
}

/// Whether the trail holds only what a key ceremony records before its sitting is opened (and
/// the refusals of a run interrupted there): nothing of the operation's work.
fn only_the_keys(events: &[urne_verify::audit::Event]) -> Result<bool> {
    for e in events {
        match kinds::parse(e).map_err(|m| altered(&m.to_string()))? {
            Record::TrailCreated(_)
            | Record::SoftwareStart(_)
            | Record::KeysGenerated(_)
            | Record::KeysExported(_)
            | Record::ProducerKeys(_)
            | Record::CommandFailed(_)
            | Record::InputRejected(_)
            | Record::ClockConfirmed(_)
            | Record::ClockCorrected(_) => {}
            _ => return Ok(false),
        }
    }
    Ok(true)
}

/// The key ceremony's sitting opened (number 1): the identity asked, shown and confirmed.
fn open_key_ceremony_sitting(a: &CeremonyArgs, lang: Lang, ctx: &mut Ctx) -> Result<(u32, Lang)> {
    let who = identity(a, lang)?;
    // The keys are already generated, dated by this clock: a watch it disagrees with after the
    // last try is recorded, and the minutes say why the attempt stopped (spec/appliance.md §9.1).
    let refused = term::check_clock(lang, LastRefusal::Recorded)?;
    ctx.record(OpenedRecord {
        number: 1,
        kind: SittingKind::KeyCeremony,
        place: who.place,
        town: who.town,
        commissaire: who.commissaire,
        present: who.present,
        lang: lang.code().into(),
        plan: vec![urne_verify::sitting::Step {
            action: "keys".into(),
            subject: String::new(),
            detail: String::new(),
        }],
    })?;
    term::record_refused(ctx, lang, refused)?;
    Ok((1, lang))
}

/// Whether the trail has a sitting open.
pub(super) fn is_open(ctx: &mut Ctx) -> Result<bool> {
    let events = ctx.audit()?.events()?;
    Ok(Trail::from_events(&events)
        .map_err(|m| altered(&m.to_string()))?
        .sittings()
        .open)
}
