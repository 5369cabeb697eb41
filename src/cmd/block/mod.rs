//! `urne block generate | reveal | void`: the instant game "Le Noël de la chance" (G-1 … G-8,
//! design principles 1–4). Entropy is requested once per block and recorded (sealed by the
//! token) before use; the seed stays inside the appliance until the reveal, and the production
//! file goes only to the separate secret medium (`--secret-out`), never beside the public
//! commitment.

mod common;
mod folders;
mod outputs;
mod randomness;
pub mod reveal;
pub mod void;

use common::{Made, block_state};
use folders::Folders;

use super::ctx::Ctx;
use crate::cli::BlockCommand;
use crate::edge::hsm::KeyRole;
use crate::edge::{fsio, publish};
use crate::error::{Error, Kind, Result};
use crate::msg;
use crate::msg::catalogue::sitting as S;
use std::path::{Path, PathBuf};
use urne_verify::block::counts::{expected_counts, tier_counts};
use urne_verify::block::files;
use urne_verify::block::records::GeneratedRecord;
use urne_verify::block::{self, BlockId};
use urne_verify::crypto::{Hash32, sha256};
use urne_verify::rules::game::GameRules;
use urne_verify::rules::official::{Admission, Standing};

/// The game's rules file, parsed, and its exact bytes; refused when it is not an official
/// regulation and `admit` does not say it may be (spec/appliance.md §7.4 [M-290]).
fn load_rules(path: &Path, admit: Admission) -> Result<(GameRules, Vec<u8>)> {
    let bytes = fsio::read(path)?;
    let rules = GameRules::from_json(&bytes).map_err(|e| {
        Error::new(
            Kind::RulesRefused,
            msg!(S::ERR_BLOCK_RULES_REFUSED, path = path.display(), e = e),
            msg!(S::REC_BLOCK_RULES_REFUSED),
        )
    })?;
    crate::cmd::inputs::check_official(path, rules.game(), &bytes, admit)?;
    Ok((rules, bytes))
}

/// The game id a rules file declares and its standing, checked as a generation checks it
/// (before the PIN is asked, at a sitting's plan).
pub fn rules_standing(path: &Path, admit: Admission) -> Result<(String, Standing)> {
    let (rules, bytes) = load_rules(path, admit)?;
    let standing = urne_verify::rules::official::standing(rules.game(), &sha256(&bytes));
    Ok((rules.game().to_string(), standing))
}

fn block_id(rules: &GameRules, price: u64, emission: &str, number: u32) -> Result<BlockId> {
    let id = BlockId::new(rules.game(), price, emission, number).map_err(|e| {
        Error::new(
            Kind::BadBlockId,
            msg!(S::ERR_BLOCK_BAD_ID, e = e),
            msg!(S::REC_BLOCK_EMISSION),
        )
    })?;
    id.check_rules(rules).map_err(|e| {
        Error::new(
            Kind::BadBlockId,
            format!("{e}"),
            msg!(
                S::REC_BLOCK_PRICE,
                prices = format!("{:?}", rules.prices_cents())
            ),
        )
    })?;
    Ok(id)
}

/// The progress of a generation of `n` blocks, `i` done: a bar redrawn in place on its line,
/// the line ended when the generation is done, and before each block's report when one follows
/// (`reports`), so that no output runs into it.
fn progress(i: usize, n: usize, reports: bool) {
    if n > 1 {
        let w = 30;
        let done = (i * w) / n;
        note_raw!(
            "\r[{}{}] {}",
            "#".repeat(done),
            "-".repeat(w - done),
            crate::msg!(
                crate::msg::catalogue::SCR_PROGRESS_BLOCKS,
                done = i,
                total = n
            )
        );
        if i == n || reports {
            note!();
        }
    }
}

/// Whether each generated block is reported on its own lines (not for `URNE_QUIET_BLOCKS`).
fn reports() -> bool {
    std::env::var_os("URNE_QUIET_BLOCKS").is_none()
}

/// What `urne block generate` is given.
pub struct GenerateArgs {
    /// The game's rules file.
    pub rules: PathBuf,
    /// The price point of the blocks, in cents (G-2).
    pub price: u64,
    /// The emission the blocks belong to.
    pub emission: String,
    /// The number of the first block.
    pub first: u32,
    /// How many consecutive blocks to generate.
    pub blocks: u32,
    /// The public output folder: the signed commitments and rules.json.
    pub out: PathBuf,
    /// The separate secret medium: the signed production files, and nothing else.
    pub secret_out: PathBuf,
    /// Whether rules that are not an official regulation may be used (`--unofficial-rules`).
    pub admission: Admission,
}

/// `urne block generate | reveal | void`.
pub fn run(ctx: &mut Ctx, c: BlockCommand) -> Result<()> {
    match c {
        BlockCommand::Generate {
            rules,
            price,
            emission,
            first,
            blocks,
            out,
            secret_out,
            unofficial_rules,
        } => generate(
            ctx,
            &GenerateArgs {
                rules,
                price,
                emission,
                first,
                blocks,
                out,
                secret_out,
                admission: Admission::from_option(unofficial_rules),
            },
        ),
        BlockCommand::Reveal {
            block,
            sales_closed_at,
            out,
        } => reveal::reveal(ctx, &block, &sales_closed_at, &out),
        BlockCommand::Void { block, reason, out } => {
            void::void(ctx, &block, &reason, out.as_deref())
        }
    }
}

/// `urne block generate`: the two folders apart -> load the rules -> check every identity ->
/// both folders usable and free -> publish the signed rules -> each block's randomness fixed
/// -> each block in turn (shuffle, record, publish) -> checkpoint. Nothing that can be checked
/// on the folders is left until after the entropy was drawn.
fn generate(ctx: &mut Ctx, a: &GenerateArgs) -> Result<()> {
    precheck(ctx, a)?;
    ctx.begin_checked(|events| refuse_out(events, a))?;
    generate_begun(ctx, a)
}

/// A block whose commitment a stopped run was placing in another output folder is refused
/// (exit 4) before anything is recorded (spec/appliance.md §6.7 [M-256]); rules that do not load are left
/// to the generation, which refuses them.
fn refuse_out(events: &[urne_verify::audit::Event], a: &GenerateArgs) -> Result<()> {
    let Ok((rules, _)) = load_rules(&a.rules, a.admission) else {
        return Ok(());
    };
    let f = Folders {
        out: a.out.clone(),
        secret: a.secret_out.clone(),
    };
    let last = a.first.saturating_add(a.blocks.saturating_sub(1));
    for n in a.first..=last {
        if let Ok(id) = block_id(&rules, a.price, &a.emission, n) {
            f.check_placing(events, &id)?;
        }
    }
    Ok(())
}

/// What `urne block generate` checks before it logs in: the two folders apart.
pub fn precheck(ctx: &Ctx, a: &GenerateArgs) -> Result<()> {
    Folders {
        out: a.out.clone(),
        secret: a.secret_out.clone(),
    }
    .check_apart(&ctx.global.db, false)
}

/// The generation, on a trail already begun (`urne block generate`, or a step of
/// `urne ceremony`).
pub fn generate_begun(ctx: &mut Ctx, a: &GenerateArgs) -> Result<()> {
    let f = Folders {
        out: a.out.clone(),
        secret: a.secret_out.clone(),
    };
    f.check_apart(&ctx.global.db, true)?;
    let (rules, rules_bytes) = load_rules(&a.rules, a.admission)?;
    if a.blocks == 0 {
        return Err(Error::new(Kind::Usage, msg!(S::ERR_BLOCK_COUNT_ZERO), ""));
    }
    let last = a.first.checked_add(a.blocks - 1).ok_or_else(|| {
        Error::new(
            Kind::Usage,
            msg!(S::ERR_BLOCK_NUMBERS_OVERFLOW),
            msg!(S::REC_BLOCK_NUMBERS_OVERFLOW),
        )
    })?;
    // Staging leftovers of a killed run are cleared even when this run is then refused.
    f.clear_leftovers();
    let ids = check_identities(ctx, &rules, a, last)?;
    f.check_usable()?;
    f.check_free(&ctx.audit()?.events()?, &ids)?;
    publish_rules(ctx, &f.out, &rules_bytes)?;
    let fixed = randomness::fix(ctx, &rules, &ids)?;
    let n = ids.len();
    let compute = |i: usize| {
        let (id, r) = (&ids[i], &fixed[i]);
        let seed = block::block_seed_of(id, rules.sha256(), Some(&r.contribution), &r.entropy);
        make_block(&rules, id, &seed)
    };
    let compute = &compute;
    // Each block is computed while the one before it is recorded and published (which mostly
    // waits on the disk and the token); what is recorded, placed and shown, and in which order,
    // is as when each block is computed in its turn. At most two blocks are in memory.
    std::thread::scope(|s| {
        let mut ahead = None;
        for i in 0..n {
            progress(i, n, reports());
            let made = match ahead.take() {
                Some(h) => join_block(h),
                None => compute(i),
            };
            let done = made.and_then(|made| {
                if i + 1 < n {
                    ahead = Some(s.spawn(move || compute(i + 1)));
                }
                generate_one(ctx, &rules, &ids[i], &fixed[i], &f, made)
            });
            if let Err(e) = done {
                if n > 1 && !reports() {
                    note!(); // the bar's line ends before the error is printed
                }
                return Err(e);
            }
        }
        Ok(())
    })?;
    progress(n, n, false);
    Ok(())
}

/// Every identity is checked before any entropy is requested: a block is generated once.
fn check_identities(
    ctx: &mut Ctx,
    rules: &GameRules,
    a: &GenerateArgs,
    last: u32,
) -> Result<Vec<BlockId>> {
    let events = ctx.audit()?.events()?;
    crate::cmd::void_notice::refuse_if_unannounced(&events)?;
    let mut ids = vec![];
    for n in a.first..=last {
        let id = block_id(rules, a.price, &a.emission, n)?;
        let st = block_state(&events, &id)?;
        if st.published.is_some() || st.carried {
            return Err(Error::new(
                Kind::BlockAlreadyGenerated,
                msg!(
                    S::ERR_BLOCK_ALREADY_GENERATED,
                    block = id.canonical(),
                    attempt = st.attempt
                ),
                msg!(S::REC_BLOCK_ALREADY_GENERATED),
            ));
        }
        ids.push(id);
    }
    Ok(ids)
}

/// Writes the game rules (signed) into the output folder once.
fn publish_rules(ctx: &mut Ctx, out: &Path, rules_bytes: &[u8]) -> Result<()> {
    let p = out.join("rules.json");
    if fsio::name_taken(out, "rules.json")? {
        if fsio::read_in(out, "rules.json")? != rules_bytes {
            return Err(Error::new(
                Kind::RulesDiffer,
                msg!(S::ERR_BLOCK_OTHER_RULES, path = p.display()),
                msg!(S::REC_BLOCK_OTHER_RULES),
            ));
        }
        return Ok(());
    }
    let sig = ctx.hsm()?.sign(KeyRole::Result, rules_bytes)?;
    publish::write_with_sig(&p, rules_bytes, &sig)
}

/// Records the block `made` (`block.generated`), or, for a generation taken up again, checks it
/// is the block recorded: it publishes that block or nothing (exit 5).
fn record_or_check(
    ctx: &mut Ctx,
    st: &urne_ceremony::state::block::BlockState,
    id: &BlockId,
    made: &Made,
) -> Result<()> {
    match &st.generated {
        None => {
            // Nothing is shown or placed before its commitment's placing is recorded, marked
            // and read back (`placing::record`).
            ctx.record_as(
                GeneratedRecord {
                    block: id.clone(),
                    attempt: st.attempt,
                    outcomes_root: made.root,
                    seed_commitment: made.seed_commitment,
                    tickets_sha256: made.csv_sha,
                },
                crate::edge::store::Vouch::Later,
            )?;
        }
        // A generation taken up again publishes the block it recorded, or nothing.
        Some(g)
            if g.outcomes_root != made.root
                || g.seed_commitment != made.seed_commitment
                || g.tickets_sha256 != made.csv_sha =>
        {
            return Err(Error::new(
                Kind::SelfCheckFailed,
                msg!(S::ERR_BLOCK_RECOMPUTED_OTHER, block = id),
                msg!(S::REC_BLOCK_RECOMPUTED_OTHER),
            ));
        }
        Some(_) => {}
    }
    Ok(())
}

/// One block, its randomness fixed and recorded and the block computed from it (`made`: shuffle,
/// grids, checks) -> record -> outputs and publish (the production file on the secret medium,
/// then the signed commitment).
fn generate_one(
    ctx: &mut Ctx,
    rules: &GameRules,
    id: &BlockId,
    r: &randomness::Fixed,
    f: &Folders,
    made: Made,
) -> Result<()> {
    let canonical = id.canonical();
    let events = ctx.audit()?.events()?;
    let st = block_state(&events, id)?;
    record_or_check(ctx, &st, id, &made)?;
    let (root, csv_sha, seed_c) = (made.root, made.csv_sha, made.seed_commitment);
    let commit_name = outputs::publish_block(ctx, rules, (id, st.attempt, r), made, f)?;
    if reports() {
        let csv_name = format!("{}.tickets.csv", files::stem(&canonical));
        let lang = crate::text::lang();
        let mut sc = crate::text::Screen::new(lang);
        sc.line(&format!(
            "{} {canonical} ({} {})",
            lang.t("BLOC GÉNÉRÉ :", "GENERATED: block"),
            lang.t("tentative", "attempt"),
            crate::text::number(st.attempt, lang)
        ));
        sc.to_check("");
        sc.hash(
            lang.t(
                "Racine des résultats des tickets (outcomes_root)",
                "Root of the tickets' outcomes (outcomes_root)",
            ),
            &root.to_string(),
        );
        sc.hash(
            lang.t(
                "Engagement sur la graine (seed_commitment)",
                "Seed commitment (seed_commitment)",
            ),
            &seed_c.to_string(),
        );
        sc.hash(
            lang.t(
                "Fichier de production tickets.csv, secret (SHA-256), SECRET jusqu'à la clôture du bloc",
                "Production file tickets.csv, secret (SHA-256), SECRET until the block closes",
            ),
            &csv_sha.to_string(),
        );
        sc.field(
            lang.t(
                "Fichier de production (support secret, pour la production)",
                "The production file, on the secret medium (for production)",
            ),
            &f.secret.join(&csv_name).display().to_string(),
        );
        sc.field(
            lang.t("Engagement publié", "Commitment published"),
            &f.out.join(&commit_name).display().to_string(),
        );
        sc.print();
    }
    Ok(())
}

/// The block a thread computed ahead ([`make_block`]).
fn join_block(h: std::thread::ScopedJoinHandle<'_, Result<Made>>) -> Result<Made> {
    // make_block returns its failures as values: a panic there is a defect, passed on.
    h.join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Compute: the shuffle and every ticket from the seed, its tier counts checked against G-3.
fn make_block(rules: &GameRules, id: &BlockId, seed: &Hash32) -> Result<Made> {
    let blk = block::generate_block(rules, id, seed, block::default_threads()).map_err(|e| {
        Error::new(
            Kind::SelfCheckFailed,
            msg!(S::ERR_BLOCK_GENERATION_FAILED, e = e),
            msg!(S::REC_BLOCK_GENERATION_FAILED),
        )
    })?;
    let counts = tier_counts(rules, id.price_cents(), blk.tiers());
    if counts != expected_counts(rules, id.price_cents()) {
        return Err(Error::new(
            Kind::SelfCheckFailed,
            msg!(S::ERR_BLOCK_TIER_COUNTS),
            msg!(S::REC_BLOCK_DEFECT),
        ));
    }
    // The file's hash was computed as its chunks were made; the file itself is moved, not copied.
    let (csv_sha, root) = (blk.csv_sha256(), *blk.outcomes_root());
    Ok(Made {
        counts,
        csv_sha,
        csv: blk.into_csv(),
        root,
        seed_commitment: block::seed_commitment(seed),
    })
}
