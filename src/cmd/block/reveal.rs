//! `urne block reveal`: the block's recorded entropy and seed, published once the block's sales
//! closed, at the moment production states (`--sales-closed-at`, recorded and stated), after the
//! block was shown and its id typed back at the terminal.

use super::common::{block_state, parse_block_arg};
use crate::cmd::confirm::{self, Terminal};
use crate::cmd::ctx::Ctx;
use crate::cmd::inputs::altered;
use crate::cmd::placing;
use crate::edge::fsio;
use crate::edge::hsm::KeyRole;
use crate::edge::publish;
use crate::error::{Error, Kind, Result};
use crate::msg;
use crate::msg::catalogue::sitting as S;
use std::path::Path;
use urne_verify::audit::Event;
use urne_verify::block::files::{self, REVEAL_FORMAT, RevealFile};
use urne_verify::block::records::{GeneratedRecord, RevealedRecord};
use urne_verify::block::{self, BlockId};
use urne_verify::crypto::{Hash32, keys, sha256};
use urne_verify::events::kinds::{self, Record};
use urne_verify::values::Attempt;

/// `urne block reveal --block ID --sales-closed-at T --out DIR`.
pub(super) fn reveal(
    ctx: &mut Ctx,
    block_arg: &str,
    sales_closed_at: &str,
    out: &Path,
) -> Result<()> {
    let id = parse_block_arg(block_arg, &msg!(S::REC_BLOCK_ID_EXAMPLE))?;
    sales_close_of(sales_closed_at)?;
    // The reveal's folder is judged before anything is recorded (spec/formats.md §6.7).
    ctx.begin_checked(|events| refuse_out(events, &id, out))?;
    run_in_sitting(ctx, block_arg, sales_closed_at, out, &mut Terminal::Own)
}

/// Refuses (exit 4, nothing recorded: run on the checked trail before anything is recorded)
/// another folder than the one a stopped run recorded while placing this block's reveal (spec/appliance.md
/// §6.7).
fn refuse_out(events: &[Event], id: &BlockId, out: &Path) -> Result<()> {
    let Ok(st) = block_state(events, id) else {
        return Ok(());
    };
    let subject = placing::Subject::Reveal {
        block: id.clone(),
        attempt: st.attempt,
    };
    placing::refuse_elsewhere(events, &subject, out)
}

/// The reveal on a context that has begun (by `urne block reveal`, or by the sitting that runs
/// it with its own `term`): load the block's recorded entropy -> check the sales close -> show
/// the block and have its id typed back -> record the reveal -> publish the signed reveal file.
/// A reveal already recorded (an interrupted run) is published as recorded, asking nothing.
pub fn run_in_sitting(
    ctx: &mut Ctx,
    block_arg: &str,
    sales_closed_at: &str,
    out: &Path,
    term: &mut Terminal,
) -> Result<()> {
    let id = parse_block_arg(block_arg, &msg!(S::REC_BLOCK_ID_EXAMPLE))?;
    let closed = sales_close_of(sales_closed_at)?;
    let mut rv = load_reveal(ctx, &id)?;
    let name = format!("{}.reveal.json", files::stem(&rv.canonical));
    // A run stopped while placing this reveal recorded its folder: only that one (spec/appliance.md §6.7).
    let events = ctx.audit()?.events()?;
    placing::refuse_elsewhere(&events, &rv.subject(), out)?;
    if rv.revealed.is_some() && fsio::name_taken(out, &name)? {
        return adopt_reveal(ctx, &rv, out, &name);
    }
    if let Some(recorded) = rv.revealed.clone() {
        if recorded != closed {
            note!(
                "{}",
                msg!(
                    S::SCR_BLOCK_REVEAL_RECORDED_CLOSE,
                    recorded = recorded,
                    given = closed
                )
            );
        }
    } else {
        let events = ctx.audit()?.events()?;
        let generated = check_sales_close(&events, &rv, &closed)?;
        term.check("reveal")?;
        confirm_reveal(term, &rv, &generated, &closed)?;
        // Marked with its placing, before the reveal's file is placed.
        ctx.record_as(
            RevealedRecord {
                block: rv.id.clone(),
                attempt: rv.attempt,
                entropy: hex::encode(&rv.entropy),
                seed: rv.seed,
                sales_closed_at: closed.clone(),
            },
            crate::edge::store::Vouch::Later,
        )?;
        rv.revealed = Some(closed);
    }
    let canonical = rv.canonical.clone();
    let (r, name) = publish_reveal(ctx, &rv, out)?;
    let lang = crate::text::lang();
    let mut sc = crate::text::Screen::new(lang);
    sc.line(&format!(
        "{} {canonical}",
        lang.t("BLOC RÉVÉLÉ :", "REVEALED: block")
    ));
    sc.field(
        lang.t("Clôture des ventes du bloc", "Close of the block's sales"),
        r.sales_closed_at.as_deref().unwrap_or(""),
    );
    sc.to_check("");
    sc.hash(
        lang.t("Aléa du module matériel (HSM)", "The HSM's entropy"),
        &r.entropy,
    );
    sc.hash(lang.t("Graine du bloc", "Block seed"), &r.seed.to_string());
    sc.field(
        lang.t("Écrit dans", "Written"),
        &out.join(&name).display().to_string(),
    );
    sc.line(&format!(
        "{} urne verify {}",
        lang.t(
            "Chacun peut maintenant recalculer le bloc :",
            "anyone can now recompute the block:"
        ),
        out.display()
    ));
    sc.print();
    Ok(())
}

/// `--sales-closed-at T`: an RFC 3339 date-time with its offset (`Z` or `±HH:MM`), as
/// production states it; returned in urne's one time format (RFC 3339 UTC with microseconds,
/// spec/formats.md §6.1), the form recorded and stated (exit 2 otherwise).
fn sales_close_of(t: &str) -> Result<String> {
    let bad = || {
        Error::new(
            Kind::BadDateTime,
            msg!(S::ERR_BLOCK_SALES_CLOSE_FORMAT, value = format!("{t:?}")),
            msg!(S::REC_BLOCK_SALES_CLOSE_FORMAT),
        )
    };
    if !matches!(t.as_bytes().get(10), Some(b'T' | b't')) {
        return Err(bad());
    }
    let at = chrono::DateTime::parse_from_rfc3339(t).map_err(|_| bad())?;
    let utc = at
        .with_timezone(&chrono::Utc)
        .format("%Y-%m-%dT%H:%M:%S%.6fZ")
        .to_string();
    if !urne_verify::verify::trail::is_one_time_format(&utc) {
        return Err(bad());
    }
    Ok(utc)
}

/// The sales close `closed` (urne's one format) is neither later than the appliance's clock nor
/// earlier than the block's publication, the moment its commitment was published and its
/// tickets could be printed (exit 4, nothing recorded; spec/appliance.md §5.B9). Returns when the block
/// was generated (its `block.published` event's time).
fn check_sales_close(events: &[Event], rv: &Revealing, closed: &str) -> Result<String> {
    let published = events
        .iter()
        .rev()
        .find(|e| {
            matches!(kinds::parse(e), Ok(Record::BlockPublished(p)) if p.block == rv.canonical && p.attempt == rv.attempt)
        })
        .map(|e| e.ts.clone())
        .ok_or_else(|| {
            altered(&msg!(S::ERR_BLOCK_NO_PUBLICATION, block = rv.canonical))
        })?;
    let now = crate::edge::clock::now_rfc3339();
    if closed > now.as_str() {
        return Err(Error::new(
            Kind::SalesCloseInFuture,
            msg!(
                S::ERR_BLOCK_SALES_CLOSE_FUTURE,
                block = rv.canonical,
                closed = closed,
                now = now
            ),
            msg!(S::REC_BLOCK_SALES_CLOSE_FUTURE),
        ));
    }
    if closed < published.as_str() {
        return Err(Error::new(
            Kind::SalesCloseBeforeGeneration,
            msg!(
                S::ERR_BLOCK_SALES_CLOSE_EARLY,
                block = rv.canonical,
                closed = closed,
                published = published
            ),
            msg!(S::REC_BLOCK_SALES_CLOSE_EARLY),
        ));
    }
    Ok(published)
}

/// Shows the block about to be revealed and requires its id typed back at `term` (three tries;
/// otherwise exit 2, nothing recorded).
fn confirm_reveal(
    term: &mut Terminal,
    rv: &Revealing,
    generated: &str,
    closed: &str,
) -> Result<()> {
    let g = &rv.generated;
    let lang = crate::text::lang();
    confirm::typed_back(
        term,
        &confirm::Shown {
            title: lang.t(
                "RÉVÉLATION (l'aléa et la graine secrets du bloc vont être rendus publics) :",
                "ABOUT TO REVEAL (the block's secret entropy and seed are made public):",
            ),
            step: "reveal",
            lines: vec![
                (lang.t("bloc", "block"), rv.canonical.clone()),
                (lang.t("tentative", "attempt"), rv.attempt.to_string()),
                (
                    lang.t("engagement sur la graine", "seed commitment"),
                    crate::cmd::randomness::grouped(&g.seed_commitment.to_string()),
                ),
                (
                    lang.t("racine des résultats", "outcomes root"),
                    crate::cmd::randomness::grouped(&g.outcomes_root.to_string()),
                ),
                (lang.t("généré le", "generated at"), paris(generated, lang)),
                (
                    lang.t("ventes closes le", "sales closed at"),
                    paris(closed, lang),
                ),
            ],
            noun: "the block id",
            want: rv.canonical.clone(),
        },
    )
}

/// An instant recorded in urne's one format (UTC) as the commissaire typed and reads it: Paris
/// time, the rules' time zone, with its offset (`2018-12-10 23:59:59, heure de Paris
/// (UTC+01:00)`); what is recorded stays UTC. A value that does not parse is shown as it is.
fn paris(t: &str, lang: crate::text::Lang) -> String {
    let Ok(at) = chrono::DateTime::parse_from_rfc3339(t) else {
        return t.to_string();
    };
    let at = at.with_timezone(&chrono_tz::Europe::Paris);
    format!(
        "{}, {} (UTC{})",
        at.format("%Y-%m-%d %H:%M:%S"),
        lang.t("heure de Paris", "Paris time"),
        at.format("%:z")
    )
}

/// A reveal whose file is already in place (a run killed after placing it, before recording
/// it as the output the next one names): when it is this block's, with the recorded entropy and
/// a valid signature, it is recorded as it is, once; anything else is refused.
fn adopt_reveal(ctx: &mut Ctx, rv: &Revealing, out: &Path, name: &str) -> Result<()> {
    let rk = ctx.hsm()?.public_key(KeyRole::Result)?;
    let bytes = fsio::read_in(out, name)?;
    let sig = fsio::read_in(out, &format!("{name}.sig")).unwrap_or_default();
    let file: Option<RevealFile> = serde_json::from_slice(&bytes).ok();
    let ours = urne_verify::crypto::ed25519::verify(&rk, &bytes, &sig)
        && file.as_ref().is_some_and(|f| {
            f.block == rv.canonical
                && f.entropy == hex::encode(&rv.entropy)
                && f.seed == rv.seed
                && f.sales_closed_at == rv.revealed
        });
    let Some(file) = file.filter(|_| ours) else {
        return Err(Error::new(
            Kind::OutputConflict,
            msg!(S::ERR_BLOCK_REVEAL_TAKEN, path = out.join(name).display()),
            msg!(S::REC_BLOCK_REVEAL_TAKEN),
        ));
    };
    let sha = sha256(&bytes);
    let events = ctx.audit()?.events()?;
    let recorded = events.iter().any(|e| {
        matches!(kinds::parse(e), Ok(Record::OutputPublished(p)) if p.file == name && p.sha256 == sha)
    });
    if !recorded {
        let output = ctx.output_record(name, sha, &file.audit_checkpoint)?;
        ctx.record_evidence(output)?;
        note!(
            "{}",
            crate::msg!(
                crate::msg::catalogue::SCR_RESUME_REVEAL_PLACED,
                block = rv.canonical
            )
        );
    }
    say!(
        "{}",
        msg!(
            S::SCR_BLOCK_REVEALED_ALREADY,
            block = rv.canonical,
            path = out.join(name).display()
        )
    );
    Ok(())
}

/// A generated block about to be revealed: its recorded entropy and the seed made from it.
struct Revealing {
    id: BlockId,
    /// Its canonical spelling, for the words and the files' names.
    canonical: String,
    attempt: Attempt,
    /// The sales close recorded with the reveal, once it is recorded.
    revealed: Option<String>,
    /// The `block.generated` record.
    generated: GeneratedRecord,
    entropy: Vec<u8>,
    rules_sha: Hash32,
    seed: Hash32,
}

impl Revealing {
    /// What the reveal publishes: the block's attempt revealed.
    fn subject(&self) -> placing::Subject {
        placing::Subject::Reveal {
            block: self.id.clone(),
            attempt: self.attempt,
        }
    }

    /// The reveal's member `unofficial_rules` (spec/formats.md §7.4): the standing of the block's game
    /// under the rules file it was generated with.
    fn unofficial_rules(&self) -> Option<urne_verify::rules::official::UnofficialRules> {
        let game = self.id.game();
        urne_verify::rules::official::standing(game, &self.rules_sha).mark()
    }
}

/// Load state: the block must be generated and published; its entropy and the rules it was
/// generated under, read back from the trail, give the seed.
fn load_reveal(ctx: &mut Ctx, id: &BlockId) -> Result<Revealing> {
    let canonical = id.canonical();
    let events = ctx.audit()?.events()?;
    crate::cmd::void_notice::refuse_if_unannounced(&events)?;
    let st = block_state(&events, id)?;
    if st.carried {
        return Err(Error::new(
            Kind::BlockNotGenerated,
            msg!(S::ERR_BLOCK_CARRIED, block = canonical),
            msg!(S::REC_BLOCK_CARRIED),
        ));
    }
    let Some(g) = st.generated.clone().filter(|_| st.published.is_some()) else {
        return Err(Error::new(
            Kind::BlockNotGenerated,
            msg!(S::ERR_BLOCK_NOT_GENERATED, block = canonical),
            msg!(S::REC_BLOCK_NOT_GENERATED),
        ));
    };
    let (blob, ec) = st
        .entropy
        .as_ref()
        .map(|(_, r)| (r.entropy_blob, r.entropy_commitment))
        .ok_or_else(|| altered(&msg!(S::ERR_BLOCK_NO_ENTROPY, block = canonical)))?;
    let (_, contribution) = st
        .contribution
        .clone()
        .ok_or_else(|| altered(&msg!(S::ERR_BLOCK_NO_CONTRIBUTION, block = canonical)))?;
    let secret = format!("block {canonical} attempt {}", st.attempt);
    let entropy = crate::cmd::randomness::recorded_entropy(ctx, &secret, &blob, &ec)?;
    let rules_sha = st
        .entropy_rules_sha256()
        .ok_or_else(|| altered(&msg!(S::ERR_BLOCK_NO_RULES_HASH, block = canonical)))?;
    let seed = block::block_seed_of(id, &rules_sha, Some(&contribution), &entropy);
    Ok(Revealing {
        id: id.clone(),
        canonical,
        attempt: st.attempt,
        revealed: st.revealed.as_ref().map(|r| r.sales_closed_at.clone()),
        generated: g,
        entropy,
        rules_sha,
        seed,
    })
}

/// Publish: the signed reveal file, then a checkpoint. Returns it and its file name.
fn publish_reveal(ctx: &mut Ctx, rv: &Revealing, out: &Path) -> Result<(RevealFile, String)> {
    let checkpoint = ctx.checkpoint()?;
    let history = ctx.history()?;
    let hsm = ctx.hsm()?;
    let rk = hsm.public_key(KeyRole::Result)?;
    let ak = hsm.public_key(KeyRole::Audit)?;
    let g = &rv.generated;
    let r = RevealFile {
        format: REVEAL_FORMAT.into(),
        version: 2,
        block: rv.canonical.clone(),
        rules_sha256: rv.rules_sha,
        unofficial_rules: rv.unofficial_rules(),
        entropy: hex::encode(&rv.entropy),
        seed: rv.seed,
        seed_commitment: g.seed_commitment,
        outcomes_root: g.outcomes_root,
        sales_closed_at: rv.revealed.clone(),
        revealed_at: crate::edge::clock::now_rfc3339(),
        audit_checkpoint: checkpoint,
        result_key_id: keys::key_id(&rk),
        history: Some(history),
    };
    let name = format!("{}.reveal.json", files::stem(&rv.canonical));
    let bytes = urne_verify::draw::files::to_bytes(&r);
    let sha = sha256(&bytes);
    publish::refuse_taken(out, &[(name.as_str(), bytes.clone())], "--out")?;
    let placed = [(name.clone(), sha)].into();
    placing::record(ctx, out, rv.subject(), &name, &placed)?;
    publish::write_signed(ctx.hsm()?, out, &[(name.as_str(), bytes)], &[], (&rk, &ak))?;
    let output = ctx.output_record(&name, sha, &r.audit_checkpoint)?;
    // Marked when the command ends.
    ctx.record_evidence_as(output, crate::edge::store::Vouch::Later)?;
    Ok((r, name))
}
