//! `urne verify FILE`: an account's inclusion proof in a sealed draw (spec/formats.md §8.3) or a
//! ticket's proof in a block's committed outcomes (spec/formats.md §5.B9), each checked in the
//! order the spec gives, optionally against the published folder; a proof with no signature
//! beside it (a line of the file of every proof of a day, a ticket proof derived after the
//! reveal) only against it; and the file of every proof of a day, line by line.

use super::draw::{PublishedSeal, published_is_the_proofs, verify_proof};
use super::folder::{Entry, Folder, limits};
use super::signed::{Keys, read_signed_opt};
use super::{FailureClass as C, VResult, fail, parse, parse_named};
use crate::block::files::{self, CommitFile, TICKET_PROOF_FORMAT, TicketProofFile};
use crate::block::tickets::verify_ticket_inclusion;
use crate::crypto::Hash32;
use crate::draw::files::{BundleFile, PROOF_FORMAT, ProofFile, ResultFile};
use crate::values::BlockId;
use crate::values::KeyId;
use std::io::{BufRead, Read};

/// A proof file that verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proven {
    /// A ticket's proof in a block (spec/formats.md §5.B9); `signed` false for a proof with no
    /// signature beside it, verified against the published commitment alone.
    Ticket {
        /// The proof.
        proof: TicketProofFile,
        /// Whether its signature was there and verified.
        signed: bool,
    },
    /// An account's inclusion proof in a sealed draw (spec/formats.md §8.3).
    Draw {
        /// The proof.
        proof: ProofFile,
        /// Whether its signature was there and verified (else the published draw vouches).
        signed: bool,
        /// What the account is in the published draw, when it was given.
        standing: Option<Standing>,
    },
    /// The file of every proof of a day (spec/formats.md §4.8), every line verified.
    All(AllProven),
}

/// What an account whose proof verified is in the published draw (spec/formats.md §8.1): found
/// by its pseudonym among the published picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// The day's winner (rank 0).
    Winner,
    /// Reserve number `n` (rank `n`, from 1).
    Reserve(u32),
    /// Neither the winner nor a reserve.
    Neither,
}

/// The file of every proof of a day, verified: how many lines, of which draw, and at which
/// lines (from 1) the published picks are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllProven {
    /// The number of lines, each a proof that verified.
    pub count: u64,
    /// The draw's operation.
    pub operation: String,
    /// Its day.
    pub day: String,
    /// Its attempt.
    pub attempt: u32,
    /// The number of leaves of its commitment.
    pub leaves: u64,
    /// The line of each published pick found in the file, by rank (0 the winner).
    pub picks: Vec<(u32, u64)>,
    /// The number of picks the published draw has.
    pub picks_published: usize,
}

/// What the published draw says that a proof is checked against.
struct Published {
    seal: PublishedSeal,
    note: String,
    name: &'static str,
    /// The picks' pseudonyms by rank (0 the winner).
    picks: Vec<(u32, Hash32)>,
}

impl Published {
    fn standing(&self, pseudonym: &Hash32) -> Standing {
        match self.picks.iter().find(|(_, p)| p == pseudonym) {
            Some((0, _)) => Standing::Winner,
            Some((r, _)) => Standing::Reserve(*r),
            None => Standing::Neither,
        }
    }
}

/// Whether `name` has its signature beside it in `f` (anything of the name `name.sig`: what is
/// not a regular file then fails as a signature).
pub fn has_signature(f: &dyn Folder, name: &str) -> bool {
    !matches!(f.entry(&format!("{name}.sig")), Entry::Missing)
}

/// Verifies the proof file `name` of `f` under `keys`: its signature first (the `.sig` beside
/// it), then as a ticket proof or an inclusion proof according to its `format`; with
/// `published` (the draw or block folder), against the published commitment. A proof with no
/// `.sig` beside it is verified against `published` alone, which it then needs (spec/formats.md
/// §8.3: a usage mistake without it).
pub fn verify_proof_file(
    f: &dyn Folder,
    name: &str,
    published: Option<&dyn Folder>,
    keys: &Keys,
) -> VResult<Proven> {
    let signed = has_signature(f, name);
    let bytes = if signed {
        super::signed::read_signed(f, name, &keys.result)?
    } else {
        if published.is_none() {
            return Err(unsigned_needs_published(&f.show(name)));
        }
        super::folder::read_bounded(f, name, limits::JSON)?
            .ok_or_else(|| fail(C::Malformed, format!("{} is missing", f.show(name))))?
    };
    let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
    if v["format"] == TICKET_PROOF_FORMAT {
        return verify_ticket_proof_file(&bytes, published, keys)
            .map(|proof| Proven::Ticket { proof, signed });
    }
    let p: ProofFile = parse_named(name, &bytes)?;
    if p.format != PROOF_FORMAT {
        return Err(fail(C::Malformed, format!("{name} is not an urne proof")));
    }
    // The proof's own steps first, then the published folder (spec/formats.md §8.3's order).
    verify_proof(&p, &KeyId::of(&keys.result))?;
    let standing = match published {
        Some(d) => {
            let pb = published_draw(d, keys)?;
            published_is_the_proofs(&p, &pb.seal)?;
            not_a_rehearsal(&pb.note, pb.name)?;
            Some(pb.standing(&p.pseudonym))
        }
        None => None,
    };
    Ok(Proven::Draw {
        proof: p,
        signed,
        standing,
    })
}

/// The refusal of a proof with no signature verified without the published folder: nothing
/// vouches for it then (spec/formats.md §8.3, a usage mistake, exit 2).
pub fn unsigned_needs_published(shown: &str) -> super::Failure {
    fail(
        C::Usage,
        format!(
            "{shown} has no signature beside it: an unsigned proof holds only against the published signed output (--published DIR)"
        ),
    )
}

/// Whether the file `name` of `f` is a file of every proof of a day (spec/formats.md §4.8): its
/// first line (at most one JSON output's size) is a JSON object whose `format` is
/// `urne-inclusion-proof`. Anything else (an exported trail) is not.
pub fn is_proofs_file(f: &dyn Folder, name: &str) -> bool {
    let Ok(r) = f.open(name) else {
        return false;
    };
    let mut first = Vec::new();
    if std::io::BufReader::new(r)
        .take(limits::JSON + 1)
        .read_until(b'\n', &mut first)
        .is_err()
    {
        return false;
    }
    serde_json::from_slice::<serde_json::Value>(&first).is_ok_and(|v| v["format"] == PROOF_FORMAT)
}

/// Verifies the file `name` of `f`, every proof of a day (spec/formats.md §4.8, §8.3): each
/// line, in order, as an unsigned proof against the published draw `published`, read once.
/// Each line is read within one JSON output's size and ends with LF; the file holds at most as
/// many lines as a day has leaves at most (spec/formats.md §1.6). Failures name their line.
pub fn verify_proofs_file(
    folder: &dyn Folder,
    name: &str,
    published: &dyn Folder,
    keys: &Keys,
) -> VResult<AllProven> {
    let reader = folder
        .open(name)
        .map_err(|e| fail(C::Unreadable, format!("{}: {e}", folder.show(name))))?;
    let mut r = std::io::BufReader::with_capacity(1 << 20, reader);
    let key_id = KeyId::of(&keys.result);
    let mut pb: Option<Published> = None;
    let mut all: Option<AllProven> = None;
    let mut line = Vec::with_capacity(4096);
    let mut n: u64 = 0;
    loop {
        line.clear();
        let got = (&mut r)
            .take(limits::JSON + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| fail(C::Unreadable, format!("{}: {e}", folder.show(name))))?;
        if got == 0 {
            break;
        }
        n += 1;
        let at = |what: String| format!("{} line {n}: {what}", folder.show(name));
        if n > limits::MAX_LEAVES {
            return Err(fail(
                C::Malformed,
                at(format!(
                    "more lines than a day has leaves at most ({})",
                    limits::MAX_LEAVES
                )),
            ));
        }
        if line.last() != Some(&b'\n') {
            return Err(fail(
                C::Malformed,
                at("not a whole line: longer than a proof may be, or no LF at the end".into()),
            ));
        }
        let p: ProofFile = parse(&line[..line.len() - 1]).map_err(|e| fail(e.class, at(e.what)))?;
        verify_proof(&p, &key_id).map_err(|e| fail(e.class, at(e.what)))?;
        let pd: &Published = match pb {
            Some(ref p) => p,
            None => pb.insert(published_draw(published, keys)?),
        };
        published_is_the_proofs(&p, &pd.seal).map_err(|e| fail(e.class, at(e.what)))?;
        let a = all.get_or_insert_with(|| AllProven {
            count: 0,
            operation: p.operation.clone(),
            day: p.day.clone(),
            attempt: p.attempt,
            leaves: p.commitment.leaves,
            picks: vec![],
            picks_published: pd.picks.len(),
        });
        a.count = n;
        if let Some((rank, _)) = pd.picks.iter().find(|(_, ps)| *ps == p.pseudonym) {
            a.picks.push((*rank, n));
        }
    }
    let (Some(pd), Some(mut a)) = (pb, all) else {
        return Err(fail(
            C::Malformed,
            format!("{} holds no proof (no line)", folder.show(name)),
        ));
    };
    not_a_rehearsal(&pd.note, pd.name)?;
    a.picks.sort_unstable();
    Ok(a)
}

/// What the published draw folder `d` says of its seal: from its `bundle.json`, else its
/// `result.json` (signature checked, parsed); with the checkpoint that file carries, its name,
/// and its picks.
fn published_draw(d: &dyn Folder, keys: &Keys) -> VResult<Published> {
    let (core, key_id, note, name, picks) = if let Some(b) =
        read_signed_opt(d, "bundle.json", &keys.result)?
    {
        let b = parse_named::<BundleFile>("published bundle.json", &b)?;
        let picks = std::iter::once(&b.winner)
            .chain(&b.reserves)
            .map(|p| (p.rank, p.pseudonym))
            .collect();
        (
            b.core,
            b.result_key_id,
            b.audit_checkpoint,
            "bundle.json",
            picks,
        )
    } else if let Some(b) = read_signed_opt(d, "result.json", &keys.result)? {
        let r = parse_named::<ResultFile>("published result.json", &b)?;
        let picks = std::iter::once(&r.winner)
            .chain(&r.reserves)
            .map(|p| (p.rank, p.pseudonym))
            .collect();
        (
            r.core,
            r.result_key_id,
            r.audit_checkpoint,
            "result.json",
            picks,
        )
    } else {
        return Err(fail(
            C::CommitmentMismatch,
            format!(
                "{} holds no published draw (no bundle.json or result.json): the proof's commitment is not shown to be published",
                d.show("")
            ),
        ));
    };
    if key_id != KeyId::of(&keys.result) {
        return Err(fail(
            C::Inconsistent,
            "the published draw names another result key than the one given",
        ));
    }
    let seal = PublishedSeal {
        operation: core.operation,
        day: core.day,
        attempt: core.attempt,
        commitment: core.commitment,
    };
    Ok(Published {
        seal,
        note,
        name,
        picks,
    })
}

/// spec/formats.md §8.3, §5.B9: the published output a proof is checked against is a
/// rehearsal's when the `audit_checkpoint` it carries, signed with it by the result key, has a
/// rehearsal token's origin (§6.10): so is the proof [rehearsal] [M-386].
fn not_a_rehearsal(note: &str, name: &str) -> VResult<()> {
    let prefix = format!("{}/", crate::audit::chain::Origin::Rehearsal.prefix());
    if !note.starts_with(&prefix) {
        return Ok(());
    }
    Err(fail(
        C::Rehearsal,
        format!(
            "the published {name} is a rehearsal token's (its audit_checkpoint's origin is {:?}): RÉPÉTITION — SANS VALEUR / REHEARSAL — NO VALUE, so is the proof",
            note.lines().next().unwrap_or_default()
        ),
    ))
}

/// A ticket proof's format, version and block id (malformed) and result key (inconsistent),
/// checked before the published folder is read (spec/formats.md §5.B9).
fn ticket_proof_header(p: &TicketProofFile, k: &Keys) -> VResult<()> {
    if p.format != TICKET_PROOF_FORMAT || p.version != 1 {
        return Err(fail(C::Malformed, "not an urne ticket proof v1"));
    }
    BlockId::parse(&p.block).map_err(|e| fail(C::Malformed, format!("block: {e}")))?;
    if p.result_key_id != KeyId::of(&k.result) {
        return Err(fail(
            C::Inconsistent,
            format!(
                "the proof names result key {}, the key given is {}",
                p.result_key_id,
                KeyId::of(&k.result)
            ),
        ));
    }
    Ok(())
}

/// Checks a ticket proof (spec/formats.md §5.B9): against the published commitment when given.
pub fn verify_ticket_proof(
    p: &TicketProofFile,
    published: Option<&CommitFile>,
    k: &Keys,
) -> VResult<()> {
    ticket_proof_header(p, k)?;
    if let Some(c) = published
        && (c.outcomes_root != p.outcomes_root
            || c.block_size != p.block_size
            || c.block != p.block)
    {
        return Err(fail(
            C::CommitmentMismatch,
            "the proof's root is not the published commitment's",
        ));
    }
    if !p.row.starts_with(&format!("{},", p.position)) {
        return Err(fail(
            C::Malformed,
            "the row is not the ticket at this position",
        ));
    }
    if !verify_ticket_inclusion(
        p.row.as_bytes(),
        p.position,
        p.block_size,
        &p.path,
        &p.outcomes_root,
    ) {
        return Err(fail(
            C::CommitmentMismatch,
            "the ticket's inclusion path does not lead to the outcomes root",
        ));
    }
    Ok(())
}

/// Parses a ticket proof (already signature-checked) and checks it, against the commitment in
/// the published block folder when given (its signature checked).
pub fn verify_ticket_proof_file(
    bytes: &[u8],
    published: Option<&dyn Folder>,
    k: &Keys,
) -> VResult<TicketProofFile> {
    let p: TicketProofFile = parse(bytes)?;
    ticket_proof_header(&p, k)?;
    let commit = match published {
        Some(d) => {
            let name = format!("{}.commit.json", files::stem(&p.block));
            let Some(bytes) = read_signed_opt(d, &name, &k.result)? else {
                return Err(fail(
                    C::CommitmentMismatch,
                    format!(
                        "{} is not in the published folder: the proof's root is not shown to be published",
                        d.show(&name)
                    ),
                ));
            };
            let c: CommitFile = parse(&bytes)?;
            Some((c, name))
        }
        None => None,
    };
    verify_ticket_proof(&p, commit.as_ref().map(|(c, _)| c), k)?;
    if let Some((c, name)) = &commit {
        not_a_rehearsal(&c.audit_checkpoint, name)?;
    }
    Ok(p)
}
