//! `urne seal`: freezes a day's entries and commits to them before any randomness exists (design
//! principle 1, rules D-3 … D-6, D-13). Phases: load the inputs (rules, trusted keys, the
//! export verified then tallied) -> check the day is not sealed -> compute and record the seal
//! (pseudonyms, commitment, the signed leaves file, one trail event) -> publish (checkpoint and
//! the figures the commissaire writes down).

use super::ctx::Ctx;
use super::inputs;
use crate::edge::hsm::KeyRole;
use crate::error::{Error, Result};
use crate::msg::catalogue::cmd as mc;
use crate::msg::{Lang, Msg};
use std::path::PathBuf;
use urne_ceremony::state::day::DayState;
use urne_verify::audit::Event;
use urne_verify::crypto::{Hash32, sha256};
use urne_verify::draw::figures::figures_of_tally;
use urne_verify::draw::files::{CommitmentRef, ExportRef};
use urne_verify::draw::records::SealRecord;
use urne_verify::draw::{self, Commitment};
use urne_verify::entries::{DayTally, VerifiedExport};
use urne_verify::events::kinds::Kind;
use urne_verify::rules::draw::DrawRules;
use urne_verify::values::{Attempt, Day};

/// What `urne seal` is given.
pub struct SealArgs {
    /// The operation's rules file.
    pub rules: PathBuf,
    /// The day's export (with its `.sig` beside it).
    pub entries: PathBuf,
    /// Producer keys given (PEM): each must be pinned in the trail; empty: the pinned ones.
    pub producer_keys: Vec<PathBuf>,
    /// Whether rules that are not an official regulation may be used (`--unofficial-rules`).
    pub admission: urne_verify::rules::official::Admission,
}

/// The seal's inputs, each checked.
struct Loaded {
    rules: DrawRules,
    rules_bytes: Vec<u8>,
    export_file: PathBuf,
    verified: VerifiedExport,
    tally: DayTally,
    /// The export's day.
    day: Day,
}

/// `urne seal`.
pub fn run(ctx: &mut Ctx, a: SealArgs) -> Result<()> {
    // Files named on the command line are there before the PIN is asked for: one wording for
    // each that is missing (the export's signature is checked, and recorded, after the login).
    for f in [&a.rules, &a.entries] {
        if !f.exists() {
            return Err(crate::error::no_such_file(f));
        }
    }
    ctx.begin()?;
    seal(ctx, a)
}

/// The seal, on a trail already begun (`urne seal`, or a step of `urne ceremony`).
pub fn seal(ctx: &mut Ctx, a: SealArgs) -> Result<()> {
    let input = load(ctx, a)?;
    check_day_ended(&input)?;
    check_export_dated(ctx, &input)?;
    let st = check_not_sealed(ctx, input.day)?;
    let lang = crate::text::lang();
    note!(
        "{}",
        lang.t(
            "calcul des pseudonymes et de l'engagement, inscription du scellé …",
            "computing pseudonyms and the commitment, and recording the seal …"
        )
    );
    let t0 = std::time::Instant::now();
    let (record, ev) = record_seal(ctx, &input, st.attempt)?;
    let note = ctx.checkpoint()?;
    note!(
        "  {} {:.1} s",
        lang.t("fait en", "done in"),
        t0.elapsed().as_secs_f64()
    );
    // Nothing is reported as sealed unless the trail is still the one it was recorded in.
    ctx.finish()?;
    print_seal(&input, &record, ev.seq, &note);
    Ok(())
}

/// Load the inputs: the rules, the trusted keys, and the export (signature, then every line).
fn load(ctx: &mut Ctx, a: SealArgs) -> Result<Loaded> {
    let (rules, rules_bytes) = inputs::load_rules(&a.rules, a.admission)?;
    let trusted = inputs::pinned_keys(ctx, &a.producer_keys)?;
    let (verified, tally) = inputs::read_export(ctx, &a.entries, &rules, &trusted)?;
    Ok(Loaded {
        rules,
        rules_bytes,
        export_file: a.entries,
        verified,
        day: inputs::check_day(&tally.day.to_string())?,
        tally,
    })
}

/// The end of the export's day: the midnight that ends it in the rules' time zone (D-1), in Unix
/// seconds.
fn day_end(input: &Loaded) -> Result<i64> {
    let day = input.day.date();
    let (_, end) = input.rules.day_bounds(day).ok_or_else(|| {
        Error::new(
            crate::error::Kind::DayNotInOperation,
            crate::msg!(mc::ERR_SEAL_NO_BOUNDS, day = day),
            crate::msg!(mc::REC_SEAL_NO_BOUNDS),
        )
    })?;
    Ok(end)
}

/// Check: the export's day has ended, midnight in the rules' time zone (D-1: Europe/Paris), by
/// the appliance's clock: a day's draw is among all of that day's plays (D-7), which an export of
/// a day still running cannot hold.
fn check_day_ended(input: &Loaded) -> Result<()> {
    let day = &input.day;
    if crate::edge::clock::now_utc().timestamp() < day_end(input)? {
        return Err(Error::new(
            crate::error::Kind::DayNotEnded,
            crate::msg!(
                mc::ERR_SEAL_DAY_NOT_ENDED,
                day = day,
                tz = input.rules.time_zone()
            ),
            crate::msg!(mc::REC_SEAL_DAY_NOT_ENDED),
        ));
    }
    Ok(())
}

/// Check (spec/formats.md §4.3; rules D-1, D-7): the export says it was made once its day had ended and
/// not after now. Its `generated_at` and `status_as_of` are each at or after the midnight that
/// ends its day in the rules' time zone (D-1: Europe/Paris; the draw is among all of that day's
/// plays, D-7), and at or before the appliance's clock (whole seconds): an export made
/// before its day ended cannot hold all its plays, whatever the clock says now, and one dated
/// later than the clock means that production's clock or the appliance's is wrong. A refused
/// export is recorded as every refused export is (`input.rejected`, with its hash), exit 2.
fn check_export_dated(ctx: &mut Ctx, input: &Loaded) -> Result<()> {
    let now = crate::edge::clock::now_utc().timestamp();
    let fault = export_date_fault(
        &[
            ("generated_at", &input.tally.generated_at),
            ("status_as_of", &input.tally.status_as_of),
        ],
        &input.day.to_string(),
        day_end(input)?,
        now,
        &input.rules.time_zone(),
    );
    match fault {
        None => Ok(()),
        Some((reason, shown, hint)) => Err(inputs::reject(
            ctx,
            crate::error::Kind::ExportBadDates,
            &input.export_file,
            reason,
            &shown,
            crate::msg!(hint),
        )?),
    }
}

/// What is wrong with the export's instants (`name`, value as written), if anything: the reason
/// recorded (in English, as the trail words it), the same in the screens' language, and the hint.
fn export_date_fault<Z>(
    instants: &[(&str, &str)],
    day: &str,
    day_end: i64,
    now: i64,
    tz: &Z,
) -> Option<(String, String, &'static Msg)>
where
    Z: chrono::TimeZone + std::fmt::Display,
    Z::Offset: std::fmt::Display,
{
    let local = |t: i64| {
        chrono::DateTime::from_timestamp(t, 0)
            .map_or_else(|| t.to_string(), |d| d.with_timezone(tz).to_rfc3339())
    };
    let both = |m: &Msg, values: &[(&str, &dyn std::fmt::Display)]| {
        (m.fill(Lang::En, values), m.fill(crate::msg::lang(), values))
    };
    for (name, value) in instants {
        // The tally checked both are RFC 3339 instants; one that is not is refused all the same.
        let Some(t) = urne_verify::entries::rfc3339::parse_unix(value) else {
            let (reason, shown) = both(
                &mc::ERR_SEAL_WHY_NOT_INSTANT,
                &[("name", name), ("value", &format!("{value:?}"))],
            );
            return Some((reason, shown, &mc::REC_INPUT_EXPORT_MALFORMED));
        };
        if t < day_end {
            let (reason, shown) = both(
                &mc::ERR_SEAL_WHY_EARLY,
                &[
                    ("name", name),
                    ("value", value),
                    ("day", &day),
                    ("end", &local(day_end)),
                    ("tz", tz),
                ],
            );
            return Some((reason, shown, &mc::REC_SEAL_EARLY));
        }
        if t > now {
            let (reason, shown) = both(
                &mc::ERR_SEAL_WHY_FUTURE,
                &[("name", name), ("value", value), ("now", &local(now))],
            );
            return Some((reason, shown, &mc::REC_SEAL_FUTURE));
        }
    }
    None
}

/// Check: a sealed day is never sealed again.
fn check_not_sealed(ctx: &mut Ctx, day: Day) -> Result<DayState> {
    let events = ctx.audit()?.events()?;
    crate::cmd::void_notice::refuse_if_unannounced(&events)?;
    let st = inputs::day_state_any(&events, day)?;
    if st.seal.is_some() || st.carried {
        return Err(Error::new(
            crate::error::Kind::DayAlreadySealed,
            crate::msg!(
                mc::ERR_SEAL_ALREADY,
                day = day,
                attempt = st.attempt,
                stage = urne_ceremony::minutes::words::stage(st.stage(), crate::msg::lang().core())
            ),
            crate::msg!(mc::REC_SEAL_ALREADY),
        ));
    }
    Ok(st)
}

/// Compute and record: the sealed set and the public leaves file, the commitment, the leaves
/// file's signature, and the seal event holding them, in one transaction.
fn record_seal(ctx: &mut Ctx, input: &Loaded, attempt: Attempt) -> Result<(SealRecord, Event)> {
    // The sealed set as stored, and the public leaves file, which is made and signed now, at
    // the seal: the draw only publishes it.
    let draw::SealEncodings {
        set: blob,
        leaves: leaves_bytes,
    } = draw::seal_encodings(
        input.rules.operation(),
        &input.day.to_string(),
        &input.tally.entries,
    );
    let mut record: Option<SealRecord> = None;
    let (log, hsm) = ctx.both()?;
    // Three things at once: the token signs leaves.bin, another thread computes the commitment,
    // and the sealed set is written into the trail; the seal event, which needs all three, is
    // appended last in the same transaction (nothing is recorded if any of them fails).
    let ev = std::thread::scope(|s| {
        let to_sign = &leaves_bytes;
        let signer = s.spawn(move || hsm.sign(KeyRole::Result, to_sign));
        let committer = s.spawn(|| draw::commit_encoded(&leaves_bytes));
        log.record_with_blobs_then(
            hsm,
            Kind::DrawSeal,
            &[&blob, &input.rules_bytes],
            |stored| {
                // Invariant: signing returns errors as values, and the commitment is a pure
                // function that does not panic.
                let leaves_sig = signer.join().expect("signing thread")?;
                let c = committer.join().expect("commitment thread");
                let r = seal_record(input, attempt, &c, stored, &leaves_bytes, &leaves_sig);
                record = Some(r.clone());
                Ok(r.into())
            },
        )
    })?;
    Ok((record.expect("set by the append"), ev))
}

/// The seal's record. `stored` holds the hashes the sealed set and the rules are stored under
/// in the trail.
fn seal_record(
    input: &Loaded,
    attempt: Attempt,
    c: &Commitment,
    stored: &[Hash32],
    leaves_bytes: &[u8],
    leaves_sig: &[u8; 64],
) -> SealRecord {
    let (set_sha256, rules_sha256) = (stored[0], stored[1]);
    SealRecord {
        operation: input.rules.operation().to_string(),
        day: input.day,
        attempt,
        rules_sha256,
        export_file: input.export_file.display().to_string(),
        export: ExportRef {
            sha256: Hash32(input.verified.sha256),
            size: input.verified.size,
            producer_key_id: input.verified.key_id.to_string(),
        },
        figures: figures_of_tally(&input.tally),
        commitment: CommitmentRef {
            root: c.root,
            leaves: c.leaves,
            entries: c.entries,
        },
        set_sha256,
        leaves_sha256: sha256(leaves_bytes),
        leaves_sig: hex::encode(leaves_sig),
    }
}

/// Publish: what the commissaire writes down, in the words of the minutes (spec/appliance.md §9.2), each
/// value once, hashes in groups of four, what is copied marked as such.
fn print_seal(input: &Loaded, record: &SealRecord, seq: u64, note: &str) {
    seal_screen(input, record, seq).print();
    say!("{note}");
}

/// The seal's screen, but the checkpoint's own lines (printed as they are, to be copied).
fn seal_screen(input: &Loaded, record: &SealRecord, seq: u64) -> crate::text::Screen {
    use crate::text::{Screen, eur, number};
    let lang = crate::text::lang();
    let f = &record.figures;
    let mut s = Screen::new(lang);
    s.line(&format!(
        "{} {}, {} {} ({} {})",
        lang.t("SCELLÉ :", "SEALED:"),
        record.operation,
        lang.t("jour du", "day"),
        input.day,
        lang.t("tentative", "attempt"),
        number(record.attempt, lang)
    ));
    s.field(
        lang.t("Fichier d'export", "Export file"),
        &input.export_file.display().to_string(),
    );
    s.hash(
        lang.t(
            "Export de production (SHA-256)",
            "Production export (SHA-256)",
        ),
        &record.export.sha256.to_string(),
    );
    s.field(
        lang.t(
            "signé par la clé du producteur",
            "signed by the producer key",
        ),
        &crate::text::groups(&record.export.producer_key_id),
    );
    s.hash(
        lang.t(
            "Règlement de l'opération (SHA-256)",
            "Operation rules (SHA-256)",
        ),
        &record.rules_sha256.to_string(),
    );
    s.field(
        lang.t("Période / tranche (D-4)", "Period / tranche (D-4)"),
        &format!(
            "{} / {} {}",
            f.period,
            eur(f.tranche_cents, lang),
            lang.t("par participation", "per entry")
        ),
    );
    figures(&mut s, f);
    s.to_check("");
    copied(&mut s, record, seq);
    s
}

/// The figures of the tally, under the minutes' labels.
fn figures(s: &mut crate::text::Screen, f: &urne_verify::draw::files::Figures) {
    use crate::text::count;
    let lang = s.lang;
    let n = |v: u64| count(v, lang);
    let figures = [
        (
            ("Mises enregistrées dans l'export", "Plays in the export"),
            f.plays,
        ),
        (
            (
                "Mises prises en compte (en ligne, D-3, D-5)",
                "Counting plays (online, D-3, D-5)",
            ),
            f.counting_plays,
        ),
        (
            (
                "Mises en point de vente, non prises en compte (D-3)",
                "Retail plays, not counted (D-3)",
            ),
            f.retail_plays,
        ),
        (
            (
                "Mises d'abonnement souscrit hors période, non prises en compte (D-5)",
                "Plays of a subscription taken out outside the period, not counted (D-5)",
            ),
            f.subscription_plays_refused,
        ),
        (
            (
                "Comptes ayant des mises prises en compte",
                "Accounts with counting plays",
            ),
            f.accounts_with_counting_plays,
        ),
    ];
    for ((fr, en), v) in figures {
        s.field(lang.t(fr, en), &n(v));
    }
    let x = &f.excluded_accounts_with_plays;
    s.field(
        lang.t(
            "Comptes exclus ayant joué, par motif (D-6, D-13)",
            "Excluded accounts that played, by reason (D-6, D-13)",
        ),
        &format!(
            "{} {} ; {} {} ; {} {}",
            lang.t("clôturé :", "closed:"),
            n(x.closed),
            lang.t("mineur :", "minor:"),
            n(x.minor),
            lang.t("fraude :", "fraud:"),
            n(x.fraud)
        ),
    );
    s.field(
        lang.t("Comptes participants", "Accounts taking part"),
        &n(f.accounts_with_entries),
    );
    s.field(lang.t("Participations", "Entries"), &n(f.entries));
}

/// What the commissaire copies: the commitment, and what the checkpoint that follows is.
fn copied(s: &mut crate::text::Screen, record: &SealRecord, seq: u64) {
    let lang = s.lang;
    s.hash(
        &crate::text::commitment_label(seq, lang),
        &record.commitment.root.to_string(),
    );
    s.for_information(&format!(
        "{} : {}",
        lang.t(
            "Point de contrôle du journal d'audit, ci-dessous",
            "Checkpoint of the audit trail, below"
        ),
        lang.t(
            "signé par l'HSM, il fixe le journal tel qu'il est à cet instant ; ceux des sorties publiées et celui de la clôture, imprimé aux minutes, le couvrent, et quiconque peut prouver plus tard que ce journal n'a pas été réécrit.",
            "signed by the HSM, it fixes the trail as it stands now; those of the outputs published and the close's, printed in the minutes, cover it, and anyone can prove later that this trail was not rewritten."
        )
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> i64 {
        chrono::DateTime::parse_from_rfc3339(s).unwrap().timestamp()
    }

    #[test]
    fn an_export_is_dated_between_the_end_of_its_day_and_now_both_included() {
        let tz = DrawRules::chanceux_noel_2018().time_zone();
        let end = at("2018-12-06T00:00:00+01:00");
        let now = at("2018-12-06T08:00:00+01:00");
        let fault = |g: &str, s: &str| {
            export_date_fault(
                &[("generated_at", g), ("status_as_of", s)],
                "2018-12-05",
                end,
                now,
                &tz,
            )
            .map(|(r, _, _)| r)
        };
        assert_eq!(fault("2018-12-05T23:00:00Z", "2018-12-06T07:00:00Z"), None);
        assert_eq!(
            fault("2018-12-06T00:00:00.999+01:00", "2018-12-06T08:00:00+01:00"),
            None
        );
        let r = fault("2018-12-05T23:59:59+01:00", "2018-12-06T01:00:00+01:00").unwrap();
        assert!(r.contains("generated_at 2018-12-05T23:59:59+01:00 is before the end of its day 2018-12-05 (2018-12-06T00:00:00+01:00 in Europe/Paris)"), "{r}");
        let r = fault("2018-12-06T01:00:00+01:00", "2018-12-05T22:59:59Z").unwrap();
        assert!(
            r.contains("status_as_of 2018-12-05T22:59:59Z is before"),
            "{r}"
        );
        let r = fault("2018-12-06T08:00:01+01:00", "2018-12-06T01:00:00+01:00").unwrap();
        assert!(
            r.contains("later than the appliance's clock (2018-12-06T08:00:00+01:00)"),
            "{r}"
        );
        let r = fault("2018-12-06T01:00:00+01:00", "2018-12-07T00:00:00+01:00").unwrap();
        assert!(r.starts_with("its status_as_of"), "{r}");
        assert!(fault("yesterday", "2018-12-06T01:00:00+01:00").is_some());
    }
}
