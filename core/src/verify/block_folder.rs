//! `urne verify DIR` on a block folder (SPEC.md §5.B10): `rules.json`, then every block
//! commitment in name order, each with its production file (§5.B8 steps 1–6) and, after the
//! reveal, the block regenerated from the revealed entropy (steps 7–9). Stops at the first
//! failure.

use super::history;
use super::signed::{Keys, read_signed};
use super::{Failure, FailureClass as C, Report, VResult, fail, parse};
use crate::audit::chain;
use crate::block::counts::{expected_counts, tier_counts};
use crate::block::files::{self, COMMIT_FORMAT, CommitFile, REVEAL_FORMAT, RevealFile};
use crate::block::tickets::verify_tickets_bytes;
use crate::block::{self, BlockId, Regenerated, RevealError};
use crate::crypto::{Hash32, sha256};
use crate::rules::game::GameRules;
use std::path::Path;

/// The names of the block commitments (`*.commit.json`) in `dir`, sorted: the blocks
/// [`verify_block_folder`] checks. Empty when `dir` holds no block outputs.
pub fn block_commitments(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut commits: Vec<String> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".commit.json"))
        .collect();
    commits.sort();
    Ok(commits)
}

/// Verifies the block folder `dir` under `keys` (§5.B10): the signed `rules.json`, then each of
/// `commitments` (from [`block_commitments`]) in order. Returns one line per block saying what
/// was checked, or the first failure. Reads the files of `dir`; prints nothing.
pub fn verify_block_folder(dir: &Path, commitments: &[String], keys: &Keys) -> VResult<Report> {
    let rules_bytes = read_signed(dir, "rules.json", &keys.result)?;
    let rules = GameRules::from_json(&rules_bytes)
        .map_err(|e| fail(C::Malformed, format!("rules.json: {e}")))?;
    let mut checks = vec![];
    let mut outputs = vec![];
    for name in commitments {
        checks.push(verify_block(dir, name, &rules, keys, &mut outputs)?);
    }
    Ok(Report { checks, outputs })
}

/// A block commitment that passed §5.B10 steps 1–2, with what the later steps need.
struct Committed<'a> {
    dir: &'a Path,
    rules: &'a GameRules,
    keys: &'a Keys,
    c: CommitFile,
    id: BlockId,
    root: Hash32,
    /// The commitment as a version-2 output (§6.7), if it is one.
    output: Option<history::Output>,
}

/// A block's signed reveal, checked to be this block's (§5.B10 step 4, first part).
struct Revealed {
    name: String,
    file: RevealFile,
    entropy: Vec<u8>,
    seed_commitment: Hash32,
    /// The reveal as a version-2 output (§6.7), if it is one.
    output: Option<history::Output>,
}

/// One block: its commitment, then its reveal and production file as present.
fn verify_block(
    dir: &Path,
    name: &str,
    rules: &GameRules,
    k: &Keys,
    outputs: &mut Vec<history::Output>,
) -> VResult<String> {
    let b = check_commitment(dir, name, rules, k)?;
    outputs.extend(b.output.clone());
    let mut what = format!("{}: signed commitment, G-3 counts", b.c.block);
    // The reveal (small) is read and checked first, so that regenerating the block (steps 7-9)
    // can run beside the checks of the production file (steps 3-6) on the other core.
    let revealed = b.read_reveal()?;
    if let Some(r) = &revealed {
        outputs.extend(r.output.clone());
    }
    let csv_present = dir.join(&b.c.tickets_file).exists();
    if let Some(r) = &revealed {
        b.check_revealed(r, csv_present)?;
        if csv_present {
            what.push_str(", production file identical to the block recomputed from the revealed seed (every grid checked, G-6, G-7, G-8)");
        } else {
            what.push_str(", revealed: every ticket recomputed from the seed (every grid checked)");
        }
    } else if csv_present {
        // Before the reveal (steps 3-6): the production file against the commitment.
        let bytes = b.signed_production_file()?;
        b.rows_against_commitment(&bytes)?;
        what.push_str(", production file (every row, counts, root)");
    }
    Ok(what)
}

/// §5.B10 steps 1–2: the commitment's signature, its identity, its rules and G-3 counts, and
/// its audit checkpoint.
fn check_commitment<'a>(
    dir: &'a Path,
    name: &str,
    rules: &'a GameRules,
    k: &'a Keys,
) -> VResult<Committed<'a>> {
    // Step 1: signatures first.
    let bytes = read_signed(dir, name, &k.result)?;
    let c: CommitFile = parse(&bytes)?;
    if c.format != COMMIT_FORMAT || !(1..=2).contains(&c.version) {
        return Err(fail(
            C::Malformed,
            format!("{name}: not an urne block commitment version 1 or 2"),
        ));
    }
    let id = BlockId::parse(&c.block).map_err(|e| fail(C::Malformed, format!("{name}: {e}")))?;
    if files::stem(&c.block) + ".commit.json" != name
        || id.game() != c.game
        || id.price_cents() != c.price_cents
        || id.emission() != c.emission
        || id.number() != c.number
    {
        return Err(fail(
            C::Inconsistent,
            format!("{name}: the file name and fields disagree with the block id"),
        ));
    }
    // Step 2: bound to these rules, with exactly the G-3 counts.
    if c.rules_sha256 != *rules.sha256() {
        return Err(fail(
            C::Inconsistent,
            format!("{name}: not made under rules.json"),
        ));
    }
    id.check_rules(rules)
        .map_err(|e| fail(C::Inconsistent, format!("{name}: {e}")))?;
    if c.tiers != expected_counts(rules, c.price_cents) || c.block_size != rules.block_size() {
        return Err(fail(
            C::CommitmentMismatch,
            format!("{name}: tier counts differ from the prize table (G-3)"),
        ));
    }
    let cp = chain::verify_note(&c.audit_checkpoint, &k.audit)
        .map_err(|e| fail(C::BadSignature, format!("{name}: audit checkpoint: {e}")))?;
    check_randomness(name, &c, &cp)?;
    let path = dir.join(name).display().to_string();
    let output =
        history::versioned_output(&path, c.version, &bytes, c.history.as_ref(), &cp)?.map(|o| {
            history::Output {
                subject: Some(format!(
                    "the commitment of block {} attempt {}",
                    c.block, c.attempt
                )),
                ..o
            }
        });
    let root = c.outcomes_root;
    Ok(Committed {
        dir,
        rules,
        keys: k,
        c,
        id,
        root,
        output,
    })
}

impl Committed<'_> {
    /// The signed reveal, when present: this block's, with its entropy decoded.
    fn read_reveal(&self) -> VResult<Option<Revealed>> {
        let c = &self.c;
        let reveal = self
            .dir
            .join(format!("{}.reveal.json", files::stem(&c.block)));
        if !reveal.exists() {
            return Ok(None);
        }
        let rname = reveal
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let bytes = read_signed(self.dir, &rname, &self.keys.result)?;
        let r: RevealFile = parse(&bytes)?;
        if r.format != REVEAL_FORMAT || r.block != c.block || r.rules_sha256 != c.rules_sha256 {
            return Err(fail(
                C::Inconsistent,
                format!("{rname}: not this block's reveal"),
            ));
        }
        let entropy = super::draw::lower_hex(&r.entropy).ok_or_else(|| {
            fail(
                C::Malformed,
                format!("{rname}: entropy is not lowercase hex"),
            )
        })?;
        if entropy.len() < crate::block::id::MIN_ENTROPY_BYTES {
            return Err(fail(
                C::Inconsistent,
                format!(
                    "{rname}: the entropy has {} bytes; a block's has at least {} (SPEC.md §5.B3)",
                    entropy.len(),
                    crate::block::id::MIN_ENTROPY_BYTES
                ),
            ));
        }
        if let Some(ec) = c.entropy_commitment
            && crate::randomness::entropy_commitment(&entropy) != ec
        {
            return Err(fail(
                C::DrawMismatch,
                format!(
                    "{rname}: the revealed entropy is not the one the commitment's entropy commitment names"
                ),
            ));
        }
        let sc = c.seed_commitment;
        let cp = chain::verify_note(&r.audit_checkpoint, &self.keys.audit)
            .map_err(|e| fail(C::BadSignature, format!("{rname}: audit checkpoint: {e}")))?;
        let path = self.dir.join(&rname).display().to_string();
        let output = history::versioned_output(&path, r.version, &bytes, r.history.as_ref(), &cp)?;
        Ok(Some(Revealed {
            name: rname,
            file: r,
            entropy,
            seed_commitment: sc,
            output,
        }))
    }

    /// The production file, signature-checked, with the SHA-256 the commitment names (§5.B10
    /// step 3, first part).
    fn signed_production_file(&self) -> VResult<Vec<u8>> {
        let c = &self.c;
        let bytes = read_signed(self.dir, &c.tickets_file, &self.keys.result)?;
        if sha256(&bytes) != c.tickets_sha256 {
            return Err(fail(
                C::CommitmentMismatch,
                format!("{}: SHA-256 differs from the commitment", c.tickets_file),
            ));
        }
        Ok(bytes)
    }

    /// §5.B8 steps 1-6: every row of a production file, its counts and its root against the
    /// commitment.
    fn rows_against_commitment(&self, bytes: &[u8]) -> VResult<()> {
        let c = &self.c;
        let summary =
            verify_tickets_bytes(bytes, self.rules, c.price_cents, block::default_threads())
                .map_err(|e| fail(C::CommitmentMismatch, format!("{}: {e}", c.tickets_file)))?;
        if summary.outcomes_root != self.root {
            return Err(fail(
                C::CommitmentMismatch,
                format!(
                    "{}: its rows do not give the committed outcomes root",
                    c.tickets_file
                ),
            ));
        }
        Ok(())
    }

    /// Regenerates the block from the revealed entropy (§5.B8 steps 7–8, every grid checked as
    /// it is made) while the production file's signature and hash, when present, are checked on
    /// this thread.
    fn regenerate_beside_file(
        &self,
        r: &Revealed,
        csv_present: bool,
    ) -> (Option<VResult<Vec<u8>>>, Result<Regenerated, RevealError>) {
        let (rules, id, root) = (self.rules, &self.id, &self.root);
        std::thread::scope(|sc| {
            let h = sc.spawn(move || {
                block::verify_reveal(
                    rules,
                    id,
                    (self.c.contribution.as_deref(), &r.entropy),
                    &r.seed_commitment,
                    root,
                    block::default_threads(),
                )
            });
            let file_res = csv_present.then(|| self.signed_production_file());
            (file_res, h.join().expect("block regeneration thread"))
        })
    }

    /// §5.B10 step 4 and §5.B8 steps 7–9 after the reveal: the block regenerated from the
    /// revealed entropy; the production file, when present, must then be byte-identical to the
    /// recomputed one, so re-parsing its rows would prove nothing more.
    fn check_revealed(&self, r: &Revealed, csv_present: bool) -> VResult<()> {
        let c = &self.c;
        let (file_res, regen) = self.regenerate_beside_file(r, csv_present);
        let file = file_res.transpose()?;
        // On any failure of the recomputation, the production file is first checked on its own
        // (steps 3-6), so a file that does not match its commitment is reported as such.
        let classify = |f: Failure| -> Failure {
            match &file {
                Some(bytes) => match self.rows_against_commitment(bytes) {
                    Err(e) => e,
                    Ok(()) => f,
                },
                None => f,
            }
        };
        let (blk, grid_failure) =
            regen.map_err(|e| classify(fail(C::DrawMismatch, format!("{}: {e}", c.block))))?;
        let contribution = c.contribution.as_deref();
        if block::block_seed_of(&self.id, self.rules.sha256(), contribution, &r.entropy)
            != r.file.seed
        {
            return Err(fail(
                C::Inconsistent,
                format!("{}: the seed does not follow from the entropy", r.name),
            ));
        }
        if let Some((pos, why)) = grid_failure {
            return Err(fail(
                C::DrawMismatch,
                format!("{}: ticket {pos}: {why}", c.block),
            ));
        }
        if tier_counts(self.rules, c.price_cents, blk.tiers())
            != expected_counts(self.rules, c.price_cents)
        {
            return Err(fail(
                C::DrawMismatch,
                format!("{}: recomputed tier counts differ from G-3", c.block),
            ));
        }
        if blk.csv_sha256() != c.tickets_sha256 {
            return Err(classify(fail(
                C::DrawMismatch,
                format!(
                    "{}: the recomputed tickets differ from the production file",
                    c.block
                ),
            )));
        }
        Ok(())
    }
}

/// §5.B10 step 2 (version 2): the commitment has the members of its version, its contribution
/// follows §4.4.1, and its randomness became fixed in order (§3.3): the `block.entropy` event
/// of this block and attempt, then a `block.contribution` event naming it, both in the tree of
/// the commitment's checkpoint.
fn check_randomness(name: &str, c: &CommitFile, cp: &chain::Checkpoint) -> VResult<()> {
    use crate::block::records::{ContributionRecord, EntropyRecord};
    let present = [
        c.entropy_commitment.is_some(),
        c.contribution.is_some(),
        c.entropy_refused.is_some(),
        c.fixed.is_some(),
        c.pkcs11.is_some(),
    ];
    let expected = c.version == 2;
    if present.iter().any(|p| *p != expected) {
        return Err(fail(
            C::Malformed,
            format!(
                "{name}: a version-{} commitment {} entropy_commitment, contribution, entropy_refused, fixed and pkcs11",
                c.version,
                if expected { "has" } else { "has none of" }
            ),
        ));
    }
    let (Some(f), Some(contribution), Some(ec)) = (&c.fixed, &c.contribution, c.entropy_commitment)
    else {
        return Ok(());
    };
    crate::randomness::contribution::check(contribution)
        .map_err(|r| fail(C::Malformed, format!("{name}: contribution: {r}")))?;
    let bad = |what: String| fail(C::Inconsistent, format!("{name}: randomness order: {what}"));
    f.check(cp.size, &cp.root, ("block.entropy", "block.contribution"))
        .map_err(bad)?;
    let e: EntropyRecord = serde_json::from_str(&f.entropy.payload)
        .map_err(|err| bad(format!("the entropy event does not parse: {err}")))?;
    let r: ContributionRecord = serde_json::from_str(&f.contribution.payload)
        .map_err(|err| bad(format!("the contribution event does not parse: {err}")))?;
    if e.block != c.block
        || e.attempt != c.attempt
        || e.rules_sha256 != c.rules_sha256
        || e.entropy_commitment != ec
    {
        return Err(bad("the entropy event is not this block's".into()));
    }
    let named = r
        .blocks
        .iter()
        .any(|b| b.block == c.block && b.attempt == c.attempt && b.entropy_commitment == ec);
    if !named || r.contribution != *contribution {
        return Err(bad(
            "the contribution event does not name this block's entropy, or not this contribution"
                .into(),
        ));
    }
    Ok(())
}
