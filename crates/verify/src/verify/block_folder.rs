//! `urne verify DIR` on a block folder (spec/formats.md §5.B10), step by step: step 1 for the whole
//! folder (orphan files, the rules file, every signature), then steps 2–4 for each block in the
//! bytewise order of the commitments' names (commitment, rules' standing (spec/formats.md §7.4), manifest;
//! production file, spec/formats.md §5.B8 steps 1–6; reveal, block regenerated, 7–9). Stops at the first failure.

use super::block_order::check_randomness;
use super::folder::{Folder, ReadError};
use super::history;
use super::manifest_check::{check_listed, parse_manifest};
use super::signed::{Keys, read_signed, read_signed_hashed_opt, read_signed_opt};
use super::{Failure, FailureClass as C, Report, VResult, fail, parse};
use crate::audit::chain;
use crate::block::counts::{expected_counts, tier_counts};
use crate::block::files::{self, COMMIT_FORMAT, CommitFile, REVEAL_FORMAT, RevealFile};
use crate::block::tickets::verify_tickets_bytes;
use crate::block::{self, BlockId};
use crate::crypto::{Hash32, sha256};
use crate::manifest;
use crate::rules::game::GameRules;
use crate::values::KeyId;

/// The names of the block commitments (`*.commit.json`) in `f`, sorted: the blocks
/// [`verify_block_folder`] checks. Empty when `f` holds no block outputs.
///
/// # Errors
/// The folder cannot be listed.
pub fn block_commitments(f: &dyn Folder) -> Result<Vec<String>, ReadError> {
    Ok(f.names()?
        .into_iter()
        .filter(|n| n.ends_with(".commit.json"))
        .collect())
}

/// One block's files after step 1: signature-checked (the production file's bytes are not kept:
/// only their size and SHA-256, re-checked when step 3 reads it again).
struct SignedBlock {
    name: String,
    commit: Vec<u8>,
    manifest: Option<Vec<u8>>,
    reveal: Option<Vec<u8>>,
    tickets: Option<(u64, Hash32)>,
}

/// Verifies the block folder `f` under `keys` (spec/formats.md §5.B10): step 1 for the folder, then steps 2–4
/// for each of `commitments` (from [`block_commitments`]) in order, each of the block `expect`
/// names when it names one. Returns one line per block saying what was checked, or the first
/// failure. Prints nothing.
pub fn verify_block_folder(f: &dyn Folder, commitments: &[String], keys: &Keys) -> VResult<Report> {
    let (rules_bytes, blocks) = step1_signatures(f, commitments, keys)?;
    let rules_sha256 = sha256(&rules_bytes);
    let mut rules: Option<GameRules> = None;
    let mut r = Report::default();
    for b in blocks {
        let c = parse_commitment(&b.name, &b.commit)?;
        identity(&b.name, &c)?;
        r.blocks.push(c.block.clone());
        super::standing::of_commitment(&b.name, &c, &mut r)?;
        if c.rules_sha256 != rules_sha256 {
            return Err(fail(
                C::Inconsistent,
                format!("{}: not made under rules.json (rules_sha256)", b.name),
            ));
        }
        if rules.is_none() {
            let loaded = GameRules::from_json(&rules_bytes)
                .map_err(|e| fail(C::Malformed, format!("rules.json: {e}")))?;
            rules = Some(loaded);
        }
        let Some(rules) = rules.as_ref() else {
            continue;
        };
        let words = block_words(&c);
        let commitment = Box::new(c.clone());
        let (line, reveal) = verify_block(f, b, c, (rules, &rules_bytes), keys, &mut r)?;
        r.checks.push(line);
        r.subjects.push(super::Verified {
            words,
            value: super::Value::Block {
                commitment,
                reveal: reveal.map(Box::new),
            },
        });
    }
    Ok(r)
}

/// `block B attempt N (version V)`: the words of a block commitment verified (spec/formats.md
/// §8.1).
pub(super) fn block_words(c: &CommitFile) -> String {
    format!(
        "block {} attempt {} (version {})",
        c.block, c.attempt, c.version
    )
}

/// Step 1: every production file, reveal and manifest has its commitment beside it
/// (inconsistent); `rules.json` is there (malformed); every signature holds (bad-signature),
/// before anything is parsed.
fn step1_signatures(
    f: &dyn Folder,
    commitments: &[String],
    keys: &Keys,
) -> VResult<(Vec<u8>, Vec<SignedBlock>)> {
    let names = f.names().map_err(|e| fail(C::Unreadable, e.0))?;
    for n in &names {
        let stem = [".tickets.csv", ".reveal.json", ".manifest.json"]
            .iter()
            .find_map(|suffix| n.strip_suffix(suffix));
        if let Some(stem) = stem
            && !commitments.contains(&format!("{stem}.commit.json"))
        {
            return Err(fail(
                C::Inconsistent,
                format!("{n} has no commitment {stem}.commit.json beside it"),
            ));
        }
    }
    let key = &keys.result;
    let rules = read_signed(f, "rules.json", key)?;
    let mut blocks = vec![];
    for name in commitments {
        let stem = name.trim_end_matches(".commit.json");
        let commit = read_signed(f, name, key)?;
        let manifest = read_signed_opt(f, &manifest::block_file(stem), key)?;
        let tickets = read_signed_hashed_opt(f, &format!("{stem}.tickets.csv"), key)?;
        let reveal = read_signed_opt(f, &format!("{stem}.reveal.json"), key)?;
        blocks.push(SignedBlock {
            name: name.clone(),
            commit,
            manifest,
            reveal,
            tickets,
        });
    }
    Ok((rules, blocks))
}

/// Step 2, the parse: a block commitment of version 1 or 2 with its version's members
/// (malformed).
pub(super) fn parse_commitment(name: &str, bytes: &[u8]) -> VResult<CommitFile> {
    let c: CommitFile = super::block_order::counted_from_1(name, parse(bytes)?)?;
    if c.format != COMMIT_FORMAT || !(1..=2).contains(&c.version) {
        return Err(fail(
            C::Malformed,
            format!("{name}: not an urne block commitment version 1 or 2"),
        ));
    }
    let present = [
        c.entropy_commitment.is_some(),
        c.contribution.is_some(),
        c.entropy_refused.is_some(),
        c.fixed.is_some(),
        c.pkcs11.is_some(),
        c.history.is_some(),
    ];
    let expected = c.version == 2;
    if present.iter().any(|p| *p != expected) {
        return Err(fail(
            C::Malformed,
            format!(
                "{name}: a version-{} commitment {} entropy_commitment, contribution, entropy_refused, fixed, pkcs11 and history",
                c.version,
                if expected { "has" } else { "has none of" }
            ),
        ));
    }
    Ok(c)
}

/// Step 2, the identity: `block` canonical (malformed), agreeing with the file name, `game`,
/// `price_cents`, `emission`, `number` and `tickets_file` (inconsistent).
pub(super) fn identity(name: &str, c: &CommitFile) -> VResult<BlockId> {
    let id = BlockId::parse(&c.block).map_err(|e| fail(C::Malformed, format!("{name}: {e}")))?;
    let stem = files::stem(&c.block);
    let file_name = name.rsplit('/').next().unwrap_or(name);
    if format!("{stem}.commit.json") != file_name
        || id.game() != c.game
        || id.price_cents() != c.price_cents
        || id.emission() != c.emission
        || id.number() != c.number
        || c.tickets_file != format!("{stem}.tickets.csv")
    {
        return Err(fail(
            C::Inconsistent,
            format!("{name}: the file name, the fields or tickets_file disagree with the block id"),
        ));
    }
    Ok(id)
}

/// Step 2, after the rules: the key ids (inconsistent), the audit checkpoint (bad-signature),
/// the contribution (malformed), the order evidence (inconsistent) and the history (fork).
pub(super) fn commitment_evidence(
    name: &str,
    show: &str,
    (bytes, c): (&[u8], &CommitFile),
    k: &Keys,
    published: &mut Vec<super::Published>,
) -> VResult<Option<history::Output>> {
    if c.result_key_id != KeyId::of(&k.result) || c.audit_key_id != KeyId::of(&k.audit) {
        return Err(fail(
            C::Inconsistent,
            format!("{name}: result_key_id or audit_key_id is not the id of the key given"),
        ));
    }
    let cp = chain::verify_note(&c.audit_checkpoint, &k.audit).map_err(|e| {
        fail(
            super::note_class(&e, C::BadSignature),
            format!("{name}: audit checkpoint: {e}"),
        )
    })?;
    check_randomness(name, c, &cp)?;
    let subject = super::Publishes::Commitment {
        block: c.block.clone(),
        attempt: c.attempt,
    };
    published.push(super::Published {
        subject: subject.clone(),
        checkpoint: cp.clone(),
        name: show.to_string(),
    });
    let output = history::versioned_output(show, c.version, bytes, c.history.as_ref(), &cp)?;
    Ok(output.map(|o| history::Output {
        subject: Some(subject),
        ..o
    }))
}

/// A block commitment that passed step 2, with what the later steps need.
struct Committed<'a> {
    dir: &'a dyn Folder,
    rules: &'a GameRules,
    rules_bytes: &'a [u8],
    keys: &'a Keys,
    signed: SignedBlock,
    c: CommitFile,
    id: BlockId,
    root: Hash32,
}

/// A block's signed reveal, checked to be this block's (spec/formats.md §5.B10 step 4, first part).
struct Revealed {
    name: String,
    file: RevealFile,
    entropy: Vec<u8>,
    seed_commitment: Hash32,
    /// Its checkpoint, verified under the audit key.
    checkpoint: chain::Checkpoint,
    /// The reveal as a version-2 output (spec/formats.md §6.7), if it is one.
    output: Option<history::Output>,
}

/// Steps 2 (from the game and price on), 3 and 4 for one block.
fn verify_block(
    folder: &dyn Folder,
    signed: SignedBlock,
    c: CommitFile,
    (rules, rules_bytes): (&GameRules, &[u8]),
    keys: &Keys,
    report: &mut Report,
) -> VResult<(String, Option<RevealFile>)> {
    let name = signed.name.clone();
    let id = BlockId::parse(&c.block).map_err(|e| fail(C::Malformed, format!("{name}: {e}")))?;
    id.check_rules(rules)
        .map_err(|e| fail(C::Inconsistent, format!("{name}: {e}")))?;
    if c.tiers != expected_counts(rules, c.price_cents) || c.block_size != rules.block_size() {
        return Err(fail(
            C::CommitmentMismatch,
            format!("{name}: tier counts differ from the prize table (G-3)"),
        ));
    }
    let output = commitment_evidence(
        &name,
        &folder.show(&name),
        (&signed.commit, &c),
        keys,
        &mut report.published,
    )?;
    report.outputs.extend(output);
    let root = c.outcomes_root;
    let b = Committed {
        dir: folder,
        rules,
        rules_bytes,
        keys,
        signed,
        c,
        id,
        root,
    };
    b.check_manifest(report)?;
    let mut what = format!("{}: signed commitment, G-3 counts", b.c.block);
    let csv_present = b.signed.tickets.is_some();
    let mut revealed = None;
    match b.read_reveal()? {
        Some(rv) => {
            report.outputs.extend(rv.output.clone());
            report.published.push(super::Published {
                subject: super::Publishes::Reveal {
                    block: b.c.block.clone(),
                    seed_commitment: b.c.seed_commitment,
                },
                checkpoint: rv.checkpoint.clone(),
                name: rv.name.clone(),
            });
            b.check_revealed(&rv, csv_present)?;
            what.push_str(if csv_present {
                ", production file identical to the block recomputed from the revealed seed (every grid checked, G-6, G-7, G-8)"
            } else {
                ", revealed: every ticket recomputed from the seed (every grid checked)"
            });
            revealed = Some(rv.file);
        }
        None if csv_present => {
            // Before the reveal (step 3): the production file against the commitment.
            let bytes = b.signed_production_file()?;
            b.rows_against_commitment(&bytes)?;
            what.push_str(", production file (every row, counts, root)");
        }
        None => {}
    }
    Ok((what, revealed))
}

impl Committed<'_> {
    /// Step 4, first part: the reveal, when present, parses (malformed), is of the commitment's
    /// version and of this very block (inconsistent), names the result key (inconsistent), has
    /// lowercase-hex entropy (malformed) of at least 32 bytes (inconsistent) with the committed
    /// entropy commitment (version 2) (draw-mismatch), a checkpoint of the audit key
    /// (bad-signature) and a history leading to it (malformed, fork).
    fn read_reveal(&self) -> VResult<Option<Revealed>> {
        let c = &self.c;
        let rname = format!("{}.reveal.json", files::stem(&c.block));
        let Some(bytes) = self.signed.reveal.as_deref() else {
            return Ok(None);
        };
        let r: RevealFile = parse(bytes)?;
        if r.format != REVEAL_FORMAT || !(1..=2).contains(&r.version) {
            return Err(fail(
                C::Malformed,
                format!("{rname}: not an urne block reveal version 1 or 2"),
            ));
        }
        if r.history.is_some() != (r.version == 2)
            || r.sales_closed_at.is_some() != (r.version == 2)
        {
            return Err(fail(
                C::Malformed,
                format!(
                    "{rname}: a version-2 reveal has a sales close and a history, a version-1 one neither"
                ),
            ));
        }
        self.reveal_is_this_blocks(&rname, &r)?;
        let inconsistent = |what: &str| fail(C::Inconsistent, format!("{rname}: {what}"));
        let entropy = super::draw::lower_hex(&r.entropy).ok_or_else(|| {
            fail(
                C::Malformed,
                format!("{rname}: entropy is not lowercase hex"),
            )
        })?;
        if entropy.len() < crate::block::id::MIN_ENTROPY_BYTES {
            return Err(inconsistent(&format!(
                "the entropy has {} bytes; a block's has at least {} (spec/formats.md §5.B3)",
                entropy.len(),
                crate::block::id::MIN_ENTROPY_BYTES
            )));
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
        let cp = chain::verify_note(&r.audit_checkpoint, &self.keys.audit).map_err(|e| {
            fail(
                super::note_class(&e, C::BadSignature),
                format!("{rname}: audit checkpoint: {e}"),
            )
        })?;
        let path = self.dir.show(&rname);
        let subject = super::Publishes::Reveal {
            block: c.block.clone(),
            seed_commitment: c.seed_commitment,
        };
        let output = history::versioned_output(&path, r.version, bytes, r.history.as_ref(), &cp)?
            .map(|o| history::Output {
                subject: Some(subject),
                ..o
            });
        Ok(Some(Revealed {
            checkpoint: cp,
            name: rname,
            file: r,
            entropy,
            seed_commitment: c.seed_commitment,
            output,
        }))
    }

    /// Step 4: the reveal is of the commitment's version, of this very block, by the result key
    /// given, its sales closed between the generation and the reveal (inconsistent).
    fn reveal_is_this_blocks(&self, rname: &str, r: &RevealFile) -> VResult<()> {
        let c = &self.c;
        let inconsistent = |what: &str| Err(fail(C::Inconsistent, format!("{rname}: {what}")));
        if r.version != c.version {
            return inconsistent("not of its commitment's version (spec/formats.md §7.2)");
        }
        if r.block != c.block
            || r.rules_sha256 != c.rules_sha256
            || r.unofficial_rules != c.unofficial_rules
            || r.seed_commitment != c.seed_commitment
            || r.outcomes_root != c.outcomes_root
        {
            return inconsistent(
                "not this block's reveal (block, rules, unofficial_rules, seed commitment or outcomes root differ)",
            );
        }
        if r.result_key_id != KeyId::of(&self.keys.result) {
            return inconsistent("result_key_id is not the id of the result key given");
        }
        super::block_order::check_sales_close(rname, r, c)
    }

    /// The production file, read again: the bytes whose signature step 1 checked (same size and
    /// SHA-256, else it changed while it was verified), with the SHA-256 the commitment names
    /// (step 3) (commitment-mismatch).
    fn signed_production_file(&self) -> VResult<Vec<u8>> {
        let c = &self.c;
        let bytes =
            super::folder::read_bounded(self.dir, &c.tickets_file, super::folder::limits::TICKETS)?
                .unwrap_or_default();
        let sha = sha256(&bytes);
        if Some((bytes.len() as u64, sha)) != self.signed.tickets {
            return Err(fail(
                C::Unreadable,
                format!(
                    "{} changed while it was verified",
                    self.dir.show(&c.tickets_file)
                ),
            ));
        }
        if sha != c.tickets_sha256 {
            return Err(fail(
                C::CommitmentMismatch,
                format!("{}: SHA-256 differs from the commitment", c.tickets_file),
            ));
        }
        Ok(bytes)
    }

    /// spec/formats.md §5.B8 steps 1-6: every row of a production file, its counts and its root against the
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

    /// spec/formats.md §5.B10 step 4 and spec/formats.md §5.B8 steps 7–9 after the reveal: the block regenerated from the
    /// revealed entropy (steps 7–8, every grid checked as it is made); the production file, when
    /// present, must then be byte-identical to the recomputed one (its SHA-256, computed from the
    /// bytes whose signature step 1 checked, is the commitment's and the recomputed file's), so
    /// re-parsing its rows would prove nothing more. On a failure only, the file is read again
    /// and checked on its own, so that one that does not match its commitment is reported as such.
    fn check_revealed(&self, r: &Revealed, csv_present: bool) -> VResult<()> {
        let c = &self.c;
        // Step 3's first part: the production file's SHA-256 is the commitment's.
        if csv_present && self.signed.tickets.map(|(_, sha)| sha) != Some(c.tickets_sha256) {
            return Err(fail(
                C::CommitmentMismatch,
                format!("{}: SHA-256 differs from the commitment", c.tickets_file),
            ));
        }
        let regen = block::verify_reveal(
            self.rules,
            &self.id,
            (self.c.contribution.as_deref(), &r.entropy),
            &r.seed_commitment,
            &self.root,
            block::default_threads(),
        );
        // On any failure of the recomputation, the production file is first checked on its own
        // (steps 3-6), so a file that does not match its commitment is reported as such.
        let classify = |f: Failure| -> Failure {
            if !csv_present {
                return f;
            }
            match self.signed_production_file() {
                Err(e) => e,
                Ok(bytes) => match self.rows_against_commitment(&bytes) {
                    Err(e) => e,
                    Ok(()) => f,
                },
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

    /// spec/formats.md §5.B10 step 2 (version 2): the block's manifest `S.manifest.json` is present (malformed),
    /// parses (malformed), names this block, attempt and result key and lists exactly the
    /// commitment, the rules file and the production file, the latter with the commitment's
    /// `tickets_sha256` (inconsistent); every listed file present is the one listed
    /// (inconsistent). A version-1 block has no manifest (malformed).
    fn check_manifest(&self, r: &mut Report) -> VResult<()> {
        let c = &self.c;
        let stem = files::stem(&c.block);
        let name = manifest::block_file(&stem);
        let bytes = match (c.version, self.signed.manifest.as_deref()) {
            (1, None) => return Ok(()),
            (1, Some(_)) => {
                return Err(fail(
                    C::Malformed,
                    format!("{name}: a version-1 block has no manifest"),
                ));
            }
            (_, None) => {
                return Err(fail(
                    C::Malformed,
                    format!(
                        "{} is missing: a version-2 block has one (spec/formats.md §5.B9)",
                        self.dir.show(&name)
                    ),
                ));
            }
            (_, Some(b)) => b,
        };
        let m = parse_manifest(&name, bytes)?;
        if m.operation != c.game
            || m.block.as_deref() != Some(c.block.as_str())
            || m.attempt != c.attempt
            || m.result_key_id != KeyId::of(&self.keys.result)
        {
            return Err(fail(
                C::Inconsistent,
                format!(
                    "{name} is not the manifest of block {} attempt {} (or names another result key)",
                    c.block, c.attempt
                ),
            ));
        }
        if !m.lists_exactly(&manifest::block_files(&stem))
            || m.get(&c.tickets_file).map(|l| l.sha256) != Some(c.tickets_sha256)
        {
            return Err(fail(
                C::Inconsistent,
                format!(
                    "{name} does not list exactly the block's commitment, rules file and production file (spec/formats.md §5.B9)"
                ),
            ));
        }
        let commit = (self.signed.commit.len() as u64, sha256(&self.signed.commit));
        let rules = (self.rules_bytes.len() as u64, sha256(self.rules_bytes));
        let commit_name = format!("{stem}.commit.json");
        check_listed(
            &m,
            &name,
            |n| {
                if n == commit_name {
                    Some(commit)
                } else if n == "rules.json" {
                    Some(rules)
                } else if n == c.tickets_file {
                    self.signed.tickets
                } else {
                    None
                }
            },
            r,
        )?;
        r.checks
            .push(format!("{name}: every file present is the one listed"));
        Ok(())
    }
}
