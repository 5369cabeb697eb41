//! `urne show --day D` / `urne show --block ID`: a day's result or a block's commitment on the
//! screen again, as at the ceremony, read from the trail: each value once, labelled in the words
//! of the minutes (`pv.html`, `urne_ceremony::minutes::pv`), hashes in groups of four digits on lines
//! that fit 80 columns, winner and reserves by pseudonym only (what the public minutes show).
//! With `--dir`, every file the trail records as published is checked in that folder against its
//! recorded SHA-256. Appends nothing; logs in and checks the trail as `urne status` does.

use super::ctx::Ctx;
use super::inputs;
use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::cmd as mc;
use crate::text::{Lang, Screen, count, eur, number};
use std::collections::BTreeMap;
use std::path::Path;
use urne_ceremony::state::Trail;
use urne_ceremony::state::block::BlockState;
use urne_ceremony::state::day::DayState;
use urne_verify::block::BlockId;
use urne_verify::crypto::Hash32;
use urne_verify::draw::files::Figures;
use urne_verify::rules::draw::DrawRules;
use urne_verify::values::Attempt;

/// What to show.
pub enum Subject {
    /// A day, `YYYY-MM-DD`.
    Day(String),
    /// A block.
    Block(BlockId),
}

impl Subject {
    /// The day or the block given, checked before anything else (exit 2).
    pub fn of(day: Option<String>, block: Option<String>) -> Result<Subject> {
        match (day, block) {
            (Some(d), None) => {
                inputs::check_day(&d)?;
                Ok(Subject::Day(d))
            }
            (None, Some(b)) => Ok(Subject::Block(inputs::parse_block(&b)?)),
            _ => Err(Error::new(
                Kind::Usage,
                crate::msg!(mc::ERR_SHOW_USAGE),
                crate::msg!(mc::REC_SHOW_USAGE),
            )),
        }
    }
}

/// `urne show (--day D | --block ID) [--dir DIR] [--lang fr|en]`.
pub fn run(ctx: &mut Ctx, what: Subject, dir: Option<&Path>, lang: Lang) -> Result<()> {
    if let Some(d) = dir
        && !d.is_dir()
    {
        return Err(crate::error::no_such_file(d));
    }
    ctx.check_to_read()?;
    let events = ctx.audit()?.events()?;
    let mut s = Screen::new(lang);
    match what {
        Subject::Day(day) => {
            let st = inputs::day_state(&events, inputs::check_day(&day)?)?;
            show_day(ctx, &mut s, &day, &st, dir)?;
        }
        Subject::Block(id) => {
            let st = Trail::from_events(&events)
                .map_err(|e| inputs::altered(&e.to_string()))?
                .block_state(&id);
            show_block(&mut s, (&id, &events), &st, dir)?;
        }
    }
    ctx.finish()?;
    s.print();
    Ok(())
}

/// "(événement d'audit n° 12)".
fn event(seq: u64, lang: Lang) -> String {
    format!(
        "({} {})",
        lang.t("événement d'audit", "audit event"),
        number(seq, lang)
    )
}

/// The title, the stage and the voided attempts of a day or block.
fn head(s: &mut Screen, title: &str, stage: &str, voids: &[(u32, u64, String)]) {
    let lang = s.lang;
    s.line(title);
    s.line(&format!("{} {stage}", lang.t("État :", "State:")));
    if !voids.is_empty() {
        s.line(lang.t("Tentatives annulées :", "Voided attempts:"));
        for (attempt, seq, reason) in voids {
            s.indented(
                2,
                &format!(
                    "{} {} {} {} : {reason}",
                    lang.t("tentative", "attempt"),
                    number(attempt, lang),
                    lang.t("annulée", "voided"),
                    event(*seq, lang)
                ),
            );
        }
    }
}

/// A day: its seal's figures, the outcome by pseudonym, the hashes to copy.
fn show_day(
    ctx: &mut Ctx,
    s: &mut Screen,
    day: &str,
    st: &DayState,
    dir: Option<&Path>,
) -> Result<()> {
    let lang = s.lang;
    let voids: Vec<_> = st
        .voided
        .iter()
        .map(|v| (v.attempt, v.audit_seq, v.reason.clone()))
        .collect();
    let Some((_, seal)) = &st.seal else {
        if voids.is_empty() {
            return Err(Error::new(
                Kind::DayNotSealed,
                crate::msg!(mc::ERR_SHOW_DAY_UNKNOWN, day = day),
                crate::msg!(mc::REC_SHOW_DAY_UNKNOWN),
            ));
        }
        let title = format!("{} {day}", lang.t("Jour", "Day"));
        let stage = format!(
            "{} {} {}",
            lang.t("tentative", "attempt"),
            number(st.attempt, lang),
            lang.t("à sceller", "to seal")
        );
        head(s, &title, &stage, &voids);
        return Ok(());
    };
    let rules = DrawRules::from_json(&ctx.audit()?.blob(&seal.rules_sha256)?)
        .map_err(|e| inputs::altered(&crate::msg!(mc::ERR_SHOW_RULES, day = day, e = e)))?;
    let title = format!(
        "{} {}, {} {day} ({} {})",
        lang.t(
            "Tirage électronique, opération",
            "Electronic draw, operation"
        ),
        seal.operation,
        lang.t("jour", "day"),
        lang.t("tentative", "attempt"),
        number(st.attempt, lang)
    );
    head(s, &title, &stage_words(st, lang), &voids);
    if let Some(d) = dir {
        voided_folder(ctx, s, day, st, d)?;
    }
    figures(s, &seal.figures);
    outcome(ctx, s, day, st, &rules)?;
    seal_hashes(s, seal);
    randomness(s, st, dir);
    if let Some((_, p)) = &st.published {
        files(s, &p.files, dir);
    }
    Ok(())
}

/// Says so when `dir` is the folder of a voided attempt of `day`: a file in it is the one that
/// attempt's `draw.published` records, and not the current attempt's. Its files then differ
/// from the current result's, and are not the result.
fn voided_folder(
    ctx: &mut Ctx,
    s: &mut Screen,
    day: &str,
    st: &DayState,
    dir: &Path,
) -> Result<()> {
    use urne_verify::events::kinds::{self, Record};
    let current = st.published.as_ref().map(|(_, p)| &p.files);
    let events = ctx.audit()?.events()?;
    let found = events.iter().find_map(|e| match kinds::parse(e) {
        Ok(Record::DrawPublished(p))
            if p.day.to_string() == day
                && p.attempt != st.attempt
                && holds_files_of(dir, &p.files, current) =>
        {
            Some(p.attempt)
        }
        _ => None,
    });
    if let Some(attempt) = found {
        let void = st
            .voided
            .iter()
            .find(|v| v.attempt == attempt.get())
            .map(|v| v.audit_seq);
        let lang = s.lang;
        let later = lang.t(", pas encore tirée.", ", not drawn yet.");
        say_voided(
            s,
            dir,
            attempt,
            void,
            st.attempt,
            st.published.is_some(),
            later,
        );
    }
    Ok(())
}

/// [`voided_folder`] for a block: `dir` holds a file a voided attempt's `block.published`
/// records, and not the current attempt's.
fn voided_block_folder(
    s: &mut Screen,
    events: &[urne_verify::audit::Event],
    id: &BlockId,
    st: &BlockState,
    dir: &Path,
) {
    use urne_verify::events::kinds::{self, Record};
    let current = st.published.as_ref().map(|p| &p.files);
    let found = events.iter().find_map(|e| match kinds::parse(e) {
        Ok(Record::BlockPublished(p))
            if p.block == *id
                && p.attempt != st.attempt
                && holds_files_of(dir, &p.files, current) =>
        {
            Some(p.attempt)
        }
        _ => None,
    });
    if let Some(attempt) = found {
        let void = st
            .voided
            .iter()
            .find(|(_, v)| v.attempt == attempt)
            .map(|(seq, _)| *seq);
        let lang = s.lang;
        let later = lang.t(", pas encore généré.", ", not generated yet.");
        say_voided(
            s,
            dir,
            attempt,
            void,
            st.attempt,
            st.published.is_some(),
            later,
        );
    }
}

/// Whether `dir` holds one of `files` as recorded, and that file is not the same in `current`
/// (the current attempt's files).
fn holds_files_of(
    dir: &Path,
    files: &BTreeMap<String, Hash32>,
    current: Option<&BTreeMap<String, Hash32>>,
) -> bool {
    files.iter().any(|(name, sha)| {
        file_sha256(&dir.join(name)) == Some(*sha) && current.and_then(|c| c.get(name)) != Some(sha)
    })
}

/// "The folder is that of attempt N, voided (event n): its files are not the current result,
/// attempt M's", before the files it finds different. `later` ends the line when the current
/// attempt is not published yet.
fn say_voided(
    s: &mut Screen,
    dir: &Path,
    attempt: Attempt,
    void: Option<u64>,
    current: Attempt,
    published: bool,
    later: &str,
) {
    let lang = s.lang;
    let void = void
        .map(|q| format!(" {}", event(q, lang)))
        .unwrap_or_default();
    s.heading(&format!(
        "{} {} {} {}{void}{}",
        lang.t("ATTENTION : le dossier", "NOTE: the folder"),
        dir.display(),
        lang.t("est celui de la tentative", "is that of attempt"),
        number(attempt, lang),
        lang.t(", ANNULÉE :", ", VOIDED:")
    ));
    let now = if published {
        lang.t(
            " ; les fichiers marqués DIFFÉRENT ci-dessous sont ceux de la tentative annulée.",
            "; the files marked DIFFERENT below are the voided attempt's.",
        )
    } else {
        later
    };
    s.indented(
        2,
        &format!(
            "{} {}{now}",
            lang.t(
                "ses fichiers ne sont pas le résultat en vigueur, qui est celui de la tentative",
                "its files are not the current result, which is that of attempt"
            ),
            number(current, lang),
        ),
    );
}

/// Section 3, the hashes to copy that the seal fixed: the export, its producer key, the
/// rules, the commitment.
fn seal_hashes(s: &mut Screen, seal: &urne_verify::draw::records::SealRecord) {
    let lang = s.lang;
    s.heading(lang.t("3. Empreintes à recopier", "3. Hashes to copy"));
    s.hash(
        lang.t(
            "Export de production (SHA-256)",
            "Production's export (SHA-256)",
        ),
        &seal.export.sha256.to_string(),
    );
    s.field(
        lang.t(
            "Clé du producteur de l'export",
            "Producer key of the export",
        ),
        // Grouped as the seal's screen and the minutes print it.
        &crate::text::groups(&seal.export.producer_key_id),
    );
    s.hash(
        lang.t(
            "Règlement de l'opération (SHA-256)",
            "Operation's rules (SHA-256)",
        ),
        &seal.rules_sha256.to_string(),
    );
    s.hash(
        lang.t(
            "Engagement (racine de Merkle des participations)",
            "Commitment (Merkle root of the entries)",
        ),
        &seal.commitment.root.to_string(),
    );
}

/// The stage of a day's current attempt, in words.
fn stage_words(st: &DayState, lang: Lang) -> String {
    let s = if st.published.is_some() {
        lang.t("tiré et publié", "drawn and published")
    } else if st.result.is_some() {
        lang.t("tiré, sorties non écrites", "drawn, outputs not written")
    } else if st.entropy.is_some() {
        lang.t("tirage interrompu", "draw interrupted")
    } else {
        lang.t("scellé, pas encore tiré", "sealed, not drawn yet")
    };
    s.to_string()
}

/// 1. The figures of the seal (D-2 … D-6, D-13), in the minutes' words.
fn figures(s: &mut Screen, f: &Figures) {
    let lang = s.lang;
    let n = |v: u64| count(v, lang);
    let by_reason = |r: &urne_verify::draw::files::ReasonCounts| {
        format!(
            "{} {} ; {} {} ; {} {}",
            lang.t("clôturé :", "closed:"),
            r.closed,
            lang.t("mineur :", "minor:"),
            r.minor,
            lang.t("fraude :", "fraud:"),
            r.fraud
        )
    };
    let tranche = format!(
        "{}, {} {}",
        f.period,
        eur(f.tranche_cents, lang),
        lang.t("par participation (D-2, D-3)", "per entry (D-2, D-3)")
    );
    s.heading(lang.t("1. Participations", "1. Entries"));
    for (fr, en, v) in [
        ("Période, tranche", "Period, tranche", tranche),
        (
            "Mises enregistrées dans l'export",
            "Plays in the export",
            n(f.plays),
        ),
        (
            "Mises prises en compte (en ligne, D-3, D-5)",
            "Counting plays (online, D-3, D-5)",
            n(f.counting_plays),
        ),
        (
            "Mises en point de vente, non prises en compte (D-3)",
            "Retail plays, not counted (D-3)",
            n(f.retail_plays),
        ),
        (
            "Mises d'abonnement souscrit hors période, non prises en compte (D-5)",
            "Plays of a subscription taken out outside the period, not counted (D-5)",
            n(f.subscription_plays_refused),
        ),
        (
            "Comptes ayant des mises prises en compte",
            "Accounts with counting plays",
            n(f.accounts_with_counting_plays),
        ),
        (
            "Comptes exclus ayant joué, par motif (D-6, D-13)",
            "Excluded accounts that played, by reason (D-6, D-13)",
            by_reason(&f.excluded_accounts_with_plays),
        ),
        (
            "Exclusions transmises, par motif",
            "Exclusions received, by reason",
            by_reason(&f.exclusion_records),
        ),
        (
            "Participants (comptes ayant au moins une participation)",
            "Participants (accounts with at least one entry)",
            n(f.accounts_with_entries),
        ),
        (
            "Participations au tirage (plafond de 3 par jour, D-4)",
            "Entries in the draw (at most 3 a day, D-4)",
            n(f.entries),
        ),
    ] {
        s.field(lang.t(fr, en), &v);
    }
}

/// 2. The anonymised outcome: winner and reserves by pseudonym (D-10, D-14, D-15).
fn outcome(
    ctx: &mut Ctx,
    s: &mut Screen,
    day: &str,
    st: &DayState,
    rules: &DrawRules,
) -> Result<()> {
    let lang = s.lang;
    let (Some((_, r)), Some((_, seal))) = (&st.result, &st.seal) else {
        return Ok(());
    };
    let set = inputs::sealed_set(ctx, seal)?;
    let pseudonym = |leaf: u64| {
        usize::try_from(leaf)
            .ok()
            .and_then(|i| set.leaves.get(i))
            .map(|l| hex::encode(l.pseudonym))
            .ok_or_else(|| inputs::altered(&crate::msg!(mc::ERR_SHOW_LEAF, day = day)))
    };
    let prize = chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d")
        .ok()
        .and_then(|d| rules.period_for(d))
        .map_or(0, |p| p.prize_cents);
    s.heading(lang.t("2. Résultat anonymisé", "2. Anonymised result"));
    s.hash(
        &format!(
            "{} {}{}",
            lang.t("Gagnant (lot de", "Winner (prize of"),
            eur(prize, lang),
            ", D-10)"
        ),
        &pseudonym(r.winner.leaf)?,
    );
    for (i, p) in r.reserves.iter().enumerate() {
        s.hash(
            &format!("{} {}", lang.t("Suppléant", "Reserve"), number(i + 1, lang)),
            &pseudonym(p.leaf)?,
        );
    }
    Ok(())
}

/// The entropy commitment, the contribution and the seed, with the events that fixed them; the
/// HSM's entropy from the published bundle when `dir` holds it as recorded.
fn randomness(s: &mut Screen, st: &DayState, dir: Option<&Path>) {
    let lang = s.lang;
    fixed(
        s,
        st.entropy
            .as_ref()
            .map(|(q, e)| (*q, &e.entropy_commitment)),
        st.contribution
            .as_ref()
            .map(|(q, c)| (*q, c.contribution.as_str())),
    );
    if let (Some(d), Some((_, p))) = (dir, &st.published)
        && let Some(entropy) = bundle_entropy(d, &p.files)
    {
        s.hash(
            lang.t(
                "Aléa du module matériel (HSM)",
                "The hardware module's (HSM) entropy",
            ),
            &entropy,
        );
    }
    if let Some((_, r)) = &st.result {
        s.hash(lang.t("Graine du tirage", "Draw seed"), &r.seed.to_string());
    }
}

/// The entropy commitment, then the contribution, each with the audit event that fixed it
/// (spec/formats.md §3.3), in the minutes' words.
fn fixed(s: &mut Screen, entropy: Option<(u64, &Hash32)>, contribution: Option<(u64, &str)>) {
    let lang = s.lang;
    if let Some((seq, ec)) = entropy {
        let label = lang.t(
            "Engagement sur l'aléa du HSM, fixé avant la contribution",
            "Commitment to the HSM's entropy, fixed before the contribution",
        );
        s.hash(&format!("{label} {}", event(seq, lang)), &ec.to_string());
    }
    if let Some((seq, c)) = contribution {
        let label = lang.t(
            "Contribution du commissaire de justice, saisie ensuite",
            "Contribution of the commissaire de justice, typed next",
        );
        s.field(&format!("{label} {}", event(seq, lang)), &format!("«{c}»"));
    }
}

/// The HSM's entropy as `bundle.json` in `dir` states it, when that file is the one the trail
/// recorded as published.
fn bundle_entropy(dir: &Path, files: &BTreeMap<String, Hash32>) -> Option<String> {
    let want = files.get("bundle.json")?;
    let path = dir.join("bundle.json");
    (file_sha256(&path)? == *want).then_some(())?;
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).ok()?).ok()?;
    v.get("entropy")?.as_str().map(str::to_string)
}

/// The SHA-256 of a regular file (never a FIFO or a device: `None` then, or when unreadable).
fn file_sha256(path: &Path) -> Option<Hash32> {
    use sha2::{Digest, Sha256};
    use std::io::Read;
    if !std::fs::symlink_metadata(path).ok()?.is_file() {
        return None;
    }
    let mut f = std::fs::File::open(path).ok()?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf).ok()?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Some(Hash32(h.finalize().into()))
}

/// Every published file with its SHA-256; with `dir`, whether it is there as recorded.
fn files(s: &mut Screen, files: &BTreeMap<String, Hash32>, dir: Option<&Path>) {
    let lang = s.lang;
    s.heading(lang.t("Fichiers publiés (SHA-256)", "Published files (SHA-256)"));
    for (name, sha) in files {
        s.hash(name, &sha.to_string());
        let Some(d) = dir else { continue };
        let path = d.join(name);
        let found = file_sha256(&path);
        let secret = name.ends_with(".tickets.csv");
        let what = match found {
            Some(h) if h == *sha => lang.t("identique dans", "identical in").to_string(),
            Some(h) => format!(
                "{} {} :",
                lang.t("DIFFÉRENT, SHA-256", "DIFFERENT, SHA-256"),
                crate::text::groups(&h.to_string())
            ),
            None if secret => lang
                .t(
                    "absent (fichier SECRET, sur le support secret) de",
                    "missing (a SECRET file, on the secret medium) from",
                )
                .to_string(),
            None => lang.t("ABSENT de", "MISSING from").to_string(),
        };
        s.indented(6, &format!("{what} {}", d.display()));
    }
}

/// A block: its commitment, the contribution, its files, and after the reveal its entropy and
/// seed.
fn show_block(
    s: &mut Screen,
    (block, events): (&BlockId, &[urne_verify::audit::Event]),
    st: &BlockState,
    dir: Option<&Path>,
) -> Result<()> {
    let lang = s.lang;
    let canonical = block.canonical();
    let id = canonical.as_str();
    let voids: Vec<_> = st
        .voided
        .iter()
        .map(|(seq, v)| (v.attempt.get(), *seq, v.reason.clone()))
        .collect();
    if st.entropy.is_none() && voids.is_empty() && !st.carried {
        return Err(Error::new(
            Kind::BlockNotGenerated,
            crate::msg!(mc::ERR_SHOW_BLOCK_UNKNOWN, id = id),
            crate::msg!(mc::REC_SHOW_BLOCK_UNKNOWN),
        ));
    }
    let title = format!(
        "{} {id} ({} {})",
        lang.t("Bloc", "Block"),
        lang.t("tentative", "attempt"),
        number(st.attempt, lang)
    );
    head(s, &title, lang.t(block_stage_fr(st), st.stage()), &voids);
    if let Some(d) = dir {
        voided_block_folder(s, events, block, st, d);
    }
    if let Some((_, e)) = &st.entropy {
        s.hash(
            lang.t("Règles du jeu (SHA-256)", "Game rules (SHA-256)"),
            &e.rules_sha256.to_string(),
        );
    }
    fixed(
        s,
        st.entropy
            .as_ref()
            .map(|(q, e)| (*q, &e.entropy_commitment)),
        st.contribution.as_ref().map(|(q, c)| (*q, c.as_str())),
    );
    if let Some(g) = &st.generated {
        s.heading(lang.t("Engagement du bloc", "The block's commitment"));
        s.hash(
            lang.t(
                "Racine des issues (outcomes_root)",
                "Outcomes root (outcomes_root)",
            ),
            &g.outcomes_root.to_string(),
        );
        s.hash(
            lang.t(
                "Engagement sur la graine (seed_commitment)",
                "Seed commitment (seed_commitment)",
            ),
            &g.seed_commitment.to_string(),
        );
        s.hash(
            lang.t(
                "Fichier de production tickets.csv (SHA-256), SECRET jusqu'à la révélation",
                "Production file tickets.csv (SHA-256), SECRET until the reveal",
            ),
            &g.tickets_sha256.to_string(),
        );
    }
    if let Some(r) = &st.revealed {
        s.heading(lang.t("Révélation", "Reveal"));
        s.hash(
            lang.t(
                "Aléa du module matériel (HSM)",
                "The hardware module's (HSM) entropy",
            ),
            &r.entropy,
        );
        s.hash(lang.t("Graine du bloc", "Block seed"), &r.seed.to_string());
    }
    if let (Some(d), Some(p)) = (dir, &st.published) {
        tiers(s, id, d, &p.files);
    }
    if let Some(p) = &st.published {
        files(s, &p.files, dir);
    }
    Ok(())
}

/// The block's prize counts (G-3), from its commitment in `dir` when that file is the one the
/// trail recorded as published.
fn tiers(s: &mut Screen, id: &str, dir: &Path, files: &BTreeMap<String, Hash32>) {
    let lang = s.lang;
    let name = format!("{}.commit.json", urne_verify::block::files::stem(id));
    let path = dir.join(&name);
    let Some(want) = files.get(&name) else { return };
    if file_sha256(&path).as_ref() != Some(want) {
        return;
    }
    let Some(commit) = std::fs::read(&path)
        .ok()
        .and_then(|b| serde_json::from_slice::<urne_verify::block::files::CommitFile>(&b).ok())
    else {
        return;
    };
    s.heading(lang.t("Lots du bloc (G-3)", "The block's prizes (G-3)"));
    for t in &commit.tiers {
        let what = if t.tier == 0 {
            lang.t("perdants", "losing").to_string()
        } else {
            format!(
                "{} {} ({} {})",
                lang.t("gagnants de", "winning"),
                eur(t.prize_cents, lang),
                t.tier,
                lang.t("symboles", "matches")
            )
        };
        s.field(&what, &count(u64::from(t.units), lang));
    }
    s.field(
        lang.t("Tickets du bloc", "Tickets in the block"),
        &count(u64::from(commit.block_size), lang),
    );
}

/// A block's stage in French (the English is the trail's own, `BlockState::stage`).
fn block_stage_fr(st: &BlockState) -> &'static str {
    if st.carried {
        "généré sous le journal remplacé"
    } else if st.revealed.is_some() {
        "révélé"
    } else if st.published.is_some() {
        "généré et publié"
    } else if st.generated.is_some() {
        "généré (sorties non écrites)"
    } else if st.entropy.is_some() {
        "génération interrompue"
    } else {
        "à générer"
    }
}
