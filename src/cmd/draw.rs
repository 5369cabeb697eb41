//! `urne draw`: draws a sealed day's winner and reserves at the ceremony, or completes an
//! interrupted draw (design principles 1–3, rules D-1, D-7 … D-10). Phases, in this order and
//! once: load the sealed day from the trail -> checks (the day has ended, D-8 timing, the sealed
//! set against its hash) -> randomness (the commitment shown, then the commissaire's witness,
//! then the HSM's entropy, requested once and recorded before use) -> compute (seed, winner and
//! reserves, recorded) -> outputs (result, bundle, minutes, checked by the verifier before
//! signing) -> publish (the folder whole or not at all, then its record).

use super::ctx::Ctx;
use super::inputs;
use crate::edge::fsio;
use crate::edge::hsm::KeyRole;
use crate::edge::publish;
use crate::error::{Error, Exit, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use urne_core::audit::Event;
use urne_core::audit::kinds::Kind;
use urne_core::audit::payloads::EntropyRefused;
use urne_core::crypto::{Hash32, keys, sha256};
use urne_core::draw::files::{self, BundleFile, DrawCore, Placed, PublicPlaced, ResultFile};
use urne_core::draw::pv::{self, DrawDay};
use urne_core::draw::records::{
    EntropyRecord, LateRecord, PublishedRecord, ResultRecord, SealRecord,
};
use urne_core::draw::{self, Commitment, SealedSet, SeedInputs};
use urne_core::rules::draw::{DrawRules, Period};
use urne_core::state::day::DayState;

/// Bytes of HSM entropy per draw: 384 bits (SPEC.md §3.1).
const ENTROPY_BYTES: usize = 48;

/// What `urne draw` is given.
pub struct DrawArgs {
    /// The day to draw (YYYY-MM-DD).
    pub day: String,
    /// The commissaire's contribution; prompted for on a terminal when absent.
    pub witness: Option<String>,
    /// The folder the signed outputs are published into.
    pub out: PathBuf,
}

/// A sealed, not yet published day as the trail holds it, with its sealed rules.
struct Sealed {
    day: String,
    /// The trail as read before the draw recorded anything.
    events: Vec<Event>,
    st: DayState,
    seal: SealRecord,
    rules_hash: Hash32,
    rules_bytes: Vec<u8>,
    rules: DrawRules,
    period: Period,
}

/// The sealed set and the commitment the seal recorded for it.
struct Committed {
    set: SealedSet,
    c: Commitment,
}

/// The computed draw: its seed and the recorded outcome.
struct Drawn {
    seed: Hash32,
    result: ResultRecord,
}

/// The files of the result folder, built and checked, not yet written.
struct Outputs {
    /// The checkpoint the result and the bundle carry.
    checkpoint: String,
    files: Vec<(&'static str, Vec<u8>)>,
    leaves_bytes: Vec<u8>,
    leaves_sig: Vec<u8>,
    result_key: [u8; 32],
    audit_key: [u8; 32],
    placed: Vec<Placed>,
}

/// `urne draw`.
pub fn run(ctx: &mut Ctx, a: DrawArgs) -> Result<()> {
    let dayd = inputs::check_day(&a.day)?;
    // Checked before anything happens: the outputs will need an empty folder.
    fsio::check_empty_or_absent(&a.out)?;
    ctx.begin()?;
    let s = load_state(ctx, &a.day, dayd)?;
    let anomalies = check_clock(ctx, &s, dayd)?;
    let k = load_set(ctx, &s)?;
    let entropy = randomness(ctx, &s, a.witness.as_deref())?;
    let drawn = compute(ctx, &s, &k, &entropy)?;
    let out = outputs(ctx, &s, &k, &entropy, &drawn, &anomalies)?;
    let written = publish(ctx, &s, &a.out, &out)?;
    // Nothing is reported as drawn unless the trail is still the one it was recorded in.
    ctx.finish()?;
    print_draw(&s, &k, &entropy, &drawn, &out, &a.out, &written);
    Ok(())
}

/// Load state: the day's seal (refused unless sealed and not yet published) and its rules,
/// read back from the trail.
fn load_state(ctx: &mut Ctx, day: &str, dayd: chrono::NaiveDate) -> Result<Sealed> {
    let events = ctx.audit()?.events()?;
    crate::cmd::void_notice::refuse_if_unannounced(&events)?;
    let st = inputs::day_state(&events, day)?;
    if st.carried {
        return Err(Error::refused(
            format!(
                "day {day} was drawn (attempt {}) under the trail this one replaced; a day is drawn once",
                st.attempt
            ),
            "its published result stands; only a void in front of the commissaire opens another attempt",
        ));
    }
    let Some((_, seal)) = st.seal.clone() else {
        return Err(Error::refused(
            format!("day {} is not sealed (attempt {})", day, st.attempt),
            "seal the day's export first: urne seal --rules FILE --entries FILE.jsonl",
        ));
    };
    if st.published.is_some() || st.carried {
        return Err(Error::refused(
            format!(
                "day {} has already been drawn (attempt {}); a day is drawn once",
                day, st.attempt
            ),
            "nothing was changed. If the draw must be annulled, `urne void --day DAY --reason …` records it in front of the commissaire; a new attempt then needs a new seal",
        ));
    }
    let rules_hash = seal.rules_sha256;
    let rules_bytes = ctx.audit()?.blob(&rules_hash)?;
    let rules = DrawRules::from_json(&rules_bytes)
        .map_err(|e| Error::internal(format!("the sealed rules no longer load: {e}"), ""))?;
    let period = rules
        .period_for(dayd)
        .ok_or_else(|| Error::internal("the sealed day is in no period", ""))?
        .clone();
    Ok(Sealed {
        day: day.to_string(),
        events,
        st,
        seal,
        rules_hash,
        rules_bytes,
        rules,
        period,
    })
}

/// Checks by the ceremony's clock: the day must have ended in Paris time (D-1); a draw late
/// against its draw date is recorded (D-8). Returns the minutes' anomalies.
fn check_clock(ctx: &mut Ctx, s: &Sealed, dayd: chrono::NaiveDate) -> Result<Vec<String>> {
    let now = crate::edge::clock::now_utc();
    let (_, day_end) = s
        .rules
        .day_bounds(dayd)
        .ok_or_else(|| Error::internal("the sealed day is in no period", ""))?;
    if now.timestamp() < day_end {
        return Err(Error::refused(
            format!("day {} has not ended yet in {}", s.day, s.rules.time_zone()),
            "a day is drawn only after its last play could have been made; wait until midnight, Paris time",
        ));
    }
    let when = DrawDay {
        today: now.with_timezone(&s.rules.time_zone()).date_naive(),
        draw_date: s.period.draw_date,
        grace_days: s.rules.draw_grace_days(),
    };
    if when.is_late() {
        eprintln!(
            "warning: drawn on {}, after the draw date {} + {} days (D-8)",
            when.today, when.draw_date, when.grace_days
        );
        if s.st.entropy.is_none() {
            ctx.record(LateRecord {
                day: s.day.clone(),
                attempt: s.st.attempt,
                draw_date: when.draw_date.to_string(),
                today: when.today.to_string(),
            })?;
        }
    }
    Ok(pv::anomalies(&when, &s.st.voided))
}

/// Checks: the sealed set, against the hash the seal recorded (the commitment was computed from
/// exactly these bytes at the seal); a day without entries has nothing to draw.
fn load_set(ctx: &mut Ctx, s: &Sealed) -> Result<Committed> {
    let set = inputs::sealed_set(ctx, &s.seal)?;
    let c = Commitment {
        root: s.seal.commitment.root,
        leaves: s.seal.commitment.leaves,
        entries: s.seal.commitment.entries,
    };
    if c.entries == 0 {
        return Err(Error::refused(
            format!("day {} has no entries: there is nothing to draw", s.day),
            "record the fact in the minutes; void the seal if a corrected export is expected",
        ));
    }
    Ok(Committed { set, c })
}

/// Randomness: the witness, then the entropy, recorded before anything is computed from them;
/// or, when a draw was interrupted after its entropy was recorded, exactly those values again.
fn randomness(ctx: &mut Ctx, s: &Sealed, witness: Option<&str>) -> Result<EntropyRecord> {
    match s.st.entropy.clone() {
        Some((seq, r)) => {
            eprintln!(
                "resuming the interrupted draw of {} with the entropy recorded at audit event #{seq}; no new entropy is requested",
                s.day
            );
            if let Some(w) = witness
                && w != r.witness
            {
                eprintln!(
                    "note: the witness contribution recorded then is used, not the one given now"
                );
            }
            Ok(r)
        }
        None => fresh_randomness(ctx, s, witness),
    }
}

/// The commitment shown, the commissaire's witness taken, then the HSM's entropy requested once
/// and recorded (refused afterwards if the trail had seen it already).
fn fresh_randomness(ctx: &mut Ctx, s: &Sealed, witness: Option<&str>) -> Result<EntropyRecord> {
    println!(
        "commitment for {} (attempt {}): {}",
        s.day, s.st.attempt, s.seal.commitment.root
    );
    let witness = read_witness(witness.map(String::from), &s.seal.commitment.root)?;
    let (log, hsm) = ctx.both()?;
    let entropy = hsm.random(ENTROPY_BYTES)?;
    let ehex = hex::encode(&entropy);
    let r = EntropyRecord {
        operation: s.seal.operation.clone(),
        day: s.day.clone(),
        attempt: s.st.attempt,
        commitment_root: s.seal.commitment.root,
        witness,
        entropy: ehex.clone(),
    };
    // Compared with every entropy the trail has seen, draws and blocks alike, by SHA-256: a
    // replay is recorded as refused, by its hash, and never becomes this attempt's entropy.
    let seen = urne_core::state::entropy_hashes(&s.events)
        .map_err(|m| super::inputs::altered(&m.to_string()))?;
    let eh = urne_core::crypto::sha256(&entropy);
    if seen.contains(&eh) {
        log.record_evidence(
            hsm,
            EntropyRefused {
                purpose: format!("day {}", s.day),
                attempt: s.st.attempt,
                entropy_sha256: eh,
                reason: "the token returned entropy the trail had already seen".into(),
            },
        )?;
        return Err(Error::new(
            Exit::Hsm,
            format!(
                "the HSM returned entropy the trail had already seen (SHA-256 {eh}); it was refused and not used"
            ),
            "the token's generator is faulty or replaying: stop the ceremony and use another HSM",
        ));
    }
    log.record(hsm, r.clone())?;
    Ok(r)
}

/// The commissaire's contribution: given, or typed at the terminal after the commitment is shown.
fn read_witness(given: Option<String>, commitment: &Hash32) -> Result<String> {
    let w = match given {
        Some(w) => w,
        None => {
            use std::io::IsTerminal;
            if !std::io::stdin().is_terminal() {
                return Err(Error::bad_input(
                    "no witness contribution",
                    "pass --witness TEXT (the commissaire's own input: dice rolls, a phrase typed at the ceremony)",
                ));
            }
            eprintln!("The commitment is {commitment}.");
            eprintln!("Commissaire: type your contribution (dice rolls, a phrase), then Enter:");
            let mut s = String::new();
            std::io::stdin()
                .read_line(&mut s)
                .map_err(|e| Error::bad_input(format!("cannot read the witness: {e}"), ""))?;
            s.trim_end_matches(['\n', '\r']).to_string()
        }
    };
    if w.trim().is_empty() || w.chars().count() > 256 || w.chars().any(|c| c.is_control()) {
        return Err(Error::bad_input(
            "the witness contribution must be 1 to 256 printable characters",
            "type dice rolls or a short phrase, on one line",
        ));
    }
    Ok(w)
}

/// Compute: the seed, then the winner and the reserves, recorded once (a resumed draw must
/// recompute exactly the recorded outcome).
fn compute(ctx: &mut Ctx, s: &Sealed, k: &Committed, e: &EntropyRecord) -> Result<Drawn> {
    let entropy =
        hex::decode(&e.entropy).map_err(|_| inputs::altered("the recorded entropy is not hex"))?;
    let export_hash = s.seal.export.sha256;
    let seed = draw::draw_seed(&SeedInputs {
        operation: &s.seal.operation,
        day: &s.day,
        attempt: s.st.attempt,
        rules_sha256: &s.rules_hash,
        export_sha256: &export_hash,
        commitment: &k.c,
        witness: &e.witness,
        entropy: &entropy,
    });
    let reserves_wanted = s.rules.reserves_per_day();
    let sel = draw::select(&k.set.leaves, &seed, reserves_wanted as usize).expect("entries > 0");
    let result = match s.st.result.clone() {
        Some((_, r)) => {
            if r.seed != seed || r.winner != sel.winner || r.reserves != sel.reserves {
                return Err(Error::internal(
                    "recomputing the recorded draw gives another outcome",
                    "stop: the software or the trail changed since the draw; run `urne audit verify`",
                ));
            }
            r
        }
        None => {
            let seed_hex = seed.to_string();
            let seed_seen = s
                .events
                .iter()
                .any(|e| e.kind != Kind::DrawEntropy.name() && e.payload.contains(&seed_hex));
            if seed_seen {
                return Err(Error::new(
                    Exit::Hsm,
                    "this seed was already used by an earlier draw",
                    "stop the ceremony; void this attempt",
                ));
            }
            let r = ResultRecord {
                operation: s.seal.operation.clone(),
                day: s.day.clone(),
                attempt: s.st.attempt,
                seed,
                winner: sel.winner,
                reserves: sel.reserves.clone(),
            };
            ctx.record(r.clone())?;
            r
        }
    };
    Ok(Drawn { seed, result })
}

/// Outputs: `result.json`, `bundle.json` (checked with the third-party verifier before anything
/// is signed), the minutes `pv.html`, the sealed rules and the checkpoint, and `leaves.bin` with
/// the signature the seal made.
fn outputs(
    ctx: &mut Ctx,
    s: &Sealed,
    k: &Committed,
    e: &EntropyRecord,
    d: &Drawn,
    anomalies: &[String],
) -> Result<Outputs> {
    let checkpoint = ctx.checkpoint()?;
    let history = ctx.history()?;
    let software = ctx.software()?;
    let hsm = ctx.hsm()?;
    let result_key = hsm.public_key(KeyRole::Result)?;
    let audit_key = hsm.public_key(KeyRole::Audit)?;
    let core = DrawCore {
        operation: s.seal.operation.clone(),
        day: s.day.clone(),
        attempt: s.st.attempt,
        voided_attempts: s.st.voided.clone(),
        rules_sha256: s.seal.rules_sha256,
        export: s.seal.export.clone(),
        figures: s.seal.figures.clone(),
        commitment: s.seal.commitment.clone(),
        witness: e.witness.clone(),
        entropy: e.entropy.clone(),
        seed: d.seed,
        prize_cents: s.period.prize_cents,
        reserves_wanted: s.rules.reserves_per_day(),
        history: Some(history),
    };
    let placed = placed(&k.set, &d.result);
    let public: Vec<PublicPlaced> = placed.iter().map(public_placed).collect();
    let drawn_at = crate::edge::clock::now_rfc3339();
    let result = ResultFile {
        format: files::RESULT_FORMAT.into(),
        version: 2,
        core: core.clone(),
        entries: k.c.entries,
        accounts: k.c.leaves,
        winner: placed[0].clone(),
        reserves: placed[1..].to_vec(),
        drawn_at: drawn_at.clone(),
        audit_checkpoint: checkpoint.clone(),
        result_key_id: keys::key_id(&result_key),
        audit_key_id: keys::key_id(&audit_key),
        software: software.clone(),
    };
    let bundle = BundleFile {
        format: files::BUNDLE_FORMAT.into(),
        version: 2,
        core,
        leaves_file: files::LEAVES_FILE.into(),
        leaves_sha256: s.seal.leaves_sha256,
        winner: public[0].clone(),
        reserves: public[1..].to_vec(),
        drawn_at,
        audit_checkpoint: checkpoint.clone(),
        result_key_id: keys::key_id(&result_key),
        audit_key_id: keys::key_id(&audit_key),
        software,
    };
    self_check(&bundle, &result, &k.set)?;
    let files = folder_files(s, &result, &bundle, anomalies, checkpoint);
    let (leaves_bytes, leaves_sig) = leaves_file(s, &k.set)?;
    Ok(Outputs {
        checkpoint: result.audit_checkpoint.clone(),
        files,
        leaves_bytes,
        leaves_sig,
        result_key,
        audit_key,
        placed,
    })
}

/// The winner, then the reserves in rank order, as production needs them (with accounts).
fn placed(set: &SealedSet, r: &ResultRecord) -> Vec<Placed> {
    std::iter::once(r.winner)
        .chain(r.reserves.iter().copied())
        .enumerate()
        .map(|(rank, p)| {
            let leaf = &set.leaves[p.leaf as usize];
            Placed {
                rank: rank as u32,
                account: Hash32(set.accounts[p.leaf as usize]),
                pseudonym: leaf.pseudonym,
                entries: leaf.entries,
                entry: p.entry,
                leaf: p.leaf,
            }
        })
        .collect()
}

/// A winner or reserve as the public sees it (no account id; D-14, D-15).
fn public_placed(p: &Placed) -> PublicPlaced {
    PublicPlaced {
        rank: p.rank,
        pseudonym: p.pseudonym,
        entries: p.entries,
        entry: p.entry,
        leaf: p.leaf,
    }
}

/// The appliance checks its own outputs with the third-party verifier before signing them.
/// (The leaves' root was computed at the seal from the very bytes the seal's hash binds.)
fn self_check(bundle: &BundleFile, result: &ResultFile, set: &SealedSet) -> Result<()> {
    urne_core::verify::draw::verify_outcome(bundle, &set.leaves)
        .and_then(|_| urne_core::verify::draw::verify_result_against_bundle(result, bundle))
        .map_err(|f| {
            Error::internal(
                format!("self-check of the outputs failed: {}", f.what),
                "this is a defect; nothing was published",
            )
        })
}

/// The signed files of the folder, in the order they appear (after every signature): the sealed
/// rules, the checkpoint, the minutes (which name the result's and the bundle's hashes), the
/// result, and the public bundle last.
fn folder_files(
    s: &Sealed,
    result: &ResultFile,
    bundle: &BundleFile,
    anomalies: &[String],
    checkpoint: String,
) -> Vec<(&'static str, Vec<u8>)> {
    let result_bytes = files::to_bytes(result);
    let bundle_bytes = files::to_bytes(bundle);
    let minutes = pv::render(
        result,
        &pv::PvFiles {
            result_sha256: &hex::encode(sha256(&result_bytes)),
            bundle_sha256: &hex::encode(sha256(&bundle_bytes)),
            rules_sha256: &s.seal.rules_sha256.to_string(),
        },
        anomalies,
        &pv::checks(&s.seal.export.producer_key_id),
    );
    vec![
        ("rules.json", s.rules_bytes.clone()),
        ("checkpoint.note", checkpoint.into_bytes()),
        ("pv.html", minutes.into_bytes()),
        ("result.json", result_bytes),
        ("bundle.json", bundle_bytes),
    ]
}

/// `leaves.bin`, cut from the sealed set (checked against its hash above): it must be the very
/// bytes the seal signed; the seal's event (in the hash chain) holds that signature.
fn leaves_file(s: &Sealed, set: &SealedSet) -> Result<(Vec<u8>, Vec<u8>)> {
    let leaves_bytes = draw::encode_leaves(&set.leaves);
    if urne_core::crypto::sha256(&leaves_bytes) != s.seal.leaves_sha256 {
        return Err(Error::internal(
            "the sealed set does not give the leaves file the seal signed",
            "run `urne audit verify` and investigate before publishing",
        ));
    }
    let leaves_sig = hex::decode(&s.seal.leaves_sig)
        .map_err(|_| inputs::altered("the seal's leaves_sig is not hex"))?;
    Ok((leaves_bytes, leaves_sig))
}

/// Publish: every file is staged inside the folder, then moved into place, the signatures first
/// (`publish::write_signed`: a kill leaves no signed file without its signature, and a kill
/// while staging leaves only a staging folder, which the re-run removes); then recorded, and a
/// checkpoint signed. Returns each file's SHA-256.
fn publish(
    ctx: &mut Ctx,
    s: &Sealed,
    out_dir: &Path,
    out: &Outputs,
) -> Result<BTreeMap<String, Hash32>> {
    fsio::check_empty_or_absent(out_dir)?;
    let hsm = ctx.hsm()?;
    let leaves = publish::Presigned {
        name: files::LEAVES_FILE,
        bytes: &out.leaves_bytes,
        sig: &out.leaves_sig,
    };
    let mut written = publish::write_signed(
        hsm,
        out_dir,
        &out.files,
        &[leaves],
        (&out.result_key, &out.audit_key),
    )?;
    written.insert(files::LEAVES_FILE.to_string(), s.seal.leaves_sha256);
    let output = match written.get(files::BUNDLE_FILE_NAME).copied() {
        Some(sha) => Some(ctx.output_record(files::BUNDLE_FILE_NAME, sha, &out.checkpoint)?),
        None => None,
    };
    ctx.record_evidence(PublishedRecord {
        day: s.day.clone(),
        attempt: s.st.attempt,
        out: out_dir.display().to_string(),
        files: written.clone(),
        output,
    })?;
    Ok(written)
}

/// What the ceremony sees once the folder is published.
fn print_draw(
    s: &Sealed,
    k: &Committed,
    e: &EntropyRecord,
    d: &Drawn,
    out: &Outputs,
    out_dir: &Path,
    written: &BTreeMap<String, Hash32>,
) {
    println!(
        "DRAWN: {} day {} (attempt {})",
        s.seal.operation, s.day, s.st.attempt
    );
    println!("  commitment   {}", s.seal.commitment.root);
    println!("  witness      {}", e.witness);
    println!("  HSM entropy  {}", e.entropy);
    println!("  seed         {}", d.seed);
    println!("  entries      {} ({} accounts)", k.c.entries, k.c.leaves);
    let placed = &out.placed;
    println!(
        "  WINNER       {} (pseudonym {})",
        placed[0].account, placed[0].pseudonym
    );
    for p in &placed[1..] {
        println!(
            "  reserve {}    {} (pseudonym {})",
            p.rank, p.account, p.pseudonym
        );
    }
    println!("outputs in {}:", out_dir.display());
    for (name, h) in written {
        println!("  {name:<18} sha256 {h}");
    }
}
