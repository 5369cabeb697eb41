//! `urne seal`, `urne draw`, `urne void`, `urne proof --day`: the daily promotional draw at the
//! ceremony (design principles 1–3, rules D-1 … D-15). Commit, then take the witness, then ask
//! the HSM for entropy once and record it, then compute: in that order, once.

use super::Ctx;
use crate::edge::fsio;
use crate::edge::hsm::KeyRole;
use crate::error::{Error, Exit, Result};
use serde_json::json;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use urne_core::crypto::{keys, merkle, parse_hex32, sha256};
use urne_core::draw::files::{
    self, BundleFile, CommitmentRef, DrawCore, ExportRef, Figures, Placed, ProofFile, PublicPlaced,
    ReasonCounts, ResultFile,
};
use urne_core::draw::records::{self as rec, DayState, EntropyRecord, ResultRecord, SealRecord};
use urne_core::draw::{self, AccountEntries, SeedInputs};
use urne_core::entries;
use urne_core::rules::draw::DrawRules;

/// Bytes of HSM entropy per draw: 384 bits (SPEC.md §3.1).
pub const ENTROPY_BYTES: usize = 48;

fn load_rules(path: &Path) -> Result<(DrawRules, Vec<u8>)> {
    let bytes = fsio::read(path)?;
    let rules = DrawRules::from_json(&bytes).map_err(|e| {
        Error::bad_input(
            format!("rules file {} is refused: {e}", path.display()),
            "use the operation's rules file shipped in rules/ (e.g. rules/chanceux-noel-2018.json)",
        )
    })?;
    Ok((rules, bytes))
}

/// The producer keys trusted for an export: those given, else the configuration's.
pub fn trusted_keys(ctx: &Ctx, given: &[PathBuf]) -> Result<Vec<[u8; 32]>> {
    let paths = if given.is_empty() {
        ctx.config()?.producer_keys
    } else {
        given.to_vec()
    };
    if paths.is_empty() {
        return Err(Error::bad_input(
            "no trusted producer key",
            "pass --producer-key PEM or list production's key under \"producer_keys\" in the configuration",
        ));
    }
    paths
        .iter()
        .map(|p| {
            let pem = fsio::read(p)?;
            keys::public_key_from_pem(&String::from_utf8_lossy(&pem)).map_err(|e| {
                Error::bad_input(
                    format!("producer key {}: {e}", p.display()),
                    "give production's Ed25519 public key as a PEM SubjectPublicKeyInfo file",
                )
            })
        })
        .collect()
}

fn file_sha256(path: &Path) -> Option<String> {
    use sha2::{Digest, Sha256};
    use std::io::Read;
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
    Some(hex::encode(h.finalize()))
}

fn open(path: &Path) -> Result<BufReader<std::fs::File>> {
    std::fs::File::open(path)
        .map(|f| BufReader::with_capacity(1 << 20, f))
        .map_err(|e| crate::error::io_error("read", path, e))
}

/// Reasons counted in the fixed order closed, minor, fraud.
fn reasons(c: [u64; 3]) -> ReasonCounts {
    ReasonCounts {
        closed: c[0],
        minor: c[1],
        fraud: c[2],
    }
}

pub fn figures_of_tally(t: &entries::DayTally) -> Figures {
    Figures {
        period: t.period_id.clone(),
        tranche_cents: t.tranche_cents,
        plays: t.plays,
        counting_plays: t.counting_plays,
        retail_plays: t.retail_plays,
        subscription_plays_refused: t.subscription_plays_refused,
        accounts_with_counting_plays: t.accounts_with_counting_plays,
        exclusion_records: reasons(t.exclusions_by_reason),
        excluded_accounts_with_plays: reasons(t.excluded_with_counting_plays_by_reason),
        accounts_with_entries: t.accounts_with_entries,
        entries: t.total_entries,
    }
}

pub fn list_of_tally(t: &entries::DayTally) -> Vec<AccountEntries> {
    t.entries
        .iter()
        .map(|a| AccountEntries {
            account: a.account,
            entries: a.entries,
        })
        .collect()
}

/// Verifies and tallies a signed export: the signature first, then every line. Records the
/// refusal (with the file's hash) in the trail when the file is refused.
pub fn read_export(
    ctx: &mut Ctx,
    path: &Path,
    rules: &DrawRules,
    trusted: &[[u8; 32]],
) -> Result<(entries::VerifiedExport, entries::DayTally)> {
    let sig_path = PathBuf::from(format!("{}.sig", path.display()));
    let reject = |ctx: &mut Ctx, reason: String, hint: &str| -> Result<Error> {
        ctx.audit()?.append_evidence(
            rec::REJECTED,
            &json!({
                "file": path.display().to_string(),
                "sha256": file_sha256(path),
                "reason": reason,
            }),
        )?;
        Ok(Error::bad_input(
            format!("export {} refused: {reason}", path.display()),
            hint,
        ))
    };
    if !path.is_file() {
        return Err(crate::error::io_error(
            "read",
            path,
            std::io::Error::from(std::io::ErrorKind::NotFound),
        ));
    }
    let sig = match std::fs::read(&sig_path) {
        Ok(s) => s,
        Err(_) => {
            return Err(reject(
                ctx,
                format!("its signature {} is missing", sig_path.display()),
                "production delivers FILE.jsonl with FILE.jsonl.sig beside it; an unsigned export is never used",
            )?);
        }
    };
    eprintln!(
        "checking the producer's signature over {} …",
        path.display()
    );
    let t0 = std::time::Instant::now();
    let verified = match entries::verify_export(open(path)?, &sig, trusted) {
        Ok(v) => {
            eprintln!(
                "  signature verified: {} MB in {:.1} s",
                v.size / 1_000_000,
                t0.elapsed().as_secs_f64()
            );
            v
        }
        Err(e) => {
            return Err(reject(
                ctx,
                e.to_string(),
                "ask production for a correctly signed export; nothing of this file was used",
            )?);
        }
    };
    eprintln!("reading and checking every line …");
    let t0 = std::time::Instant::now();
    // The file is opened again for each pass (a third only when two play ids may be equal).
    match entries::tally_export(|| std::fs::File::open(path), &verified, rules) {
        Ok(t) => {
            eprintln!(
                "  {} plays checked in {:.1} s",
                t.plays,
                t0.elapsed().as_secs_f64()
            );
            Ok((verified, t))
        }
        Err(e) => Err(reject(
            ctx,
            e.to_string(),
            "the export does not follow entry-export-v1; ask production for a corrected export. Nothing of this file was kept",
        )?),
    }
}

pub struct SealArgs {
    pub rules: PathBuf,
    pub entries: PathBuf,
    pub producer_keys: Vec<PathBuf>,
}

/// `urne seal`: freezes a day's entries and commits to them before any randomness exists.
pub fn seal(ctx: &mut Ctx, a: SealArgs) -> Result<()> {
    ctx.audit()?;
    let (rules, rules_bytes) = load_rules(&a.rules)?;
    let trusted = trusted_keys(ctx, &a.producer_keys)?;
    let (verified, tally) = read_export(ctx, &a.entries, &rules, &trusted)?;
    let day = tally.day.to_string();
    let events = ctx.audit()?.events()?;
    let st = DayState::from_events(&events, &day);
    if st.seal.is_some() {
        return Err(Error::refused(
            format!(
                "day {day} is already sealed (attempt {}, {})",
                st.attempt,
                st.stage()
            ),
            "a sealed day is never re-sealed; if the seal must be replaced, void it with `urne void --day DAY --reason …` in front of the commissaire",
        ));
    }
    eprintln!("computing pseudonyms and the commitment, and recording the seal …");
    let t0 = std::time::Instant::now();
    let list = list_of_tally(&tally);
    // The sealed set as stored, and the public leaves file, which is made and signed now, at
    // the seal: the draw only publishes it.
    let draw::SealEncodings {
        set: blob,
        leaves: leaves_bytes,
    } = draw::seal_encodings(rules.operation(), &day, &list);
    drop(list);
    let mut record: Option<SealRecord> = None;
    let (log, hsm) = ctx.both()?;
    // Three things at once: the token signs leaves.bin, another thread computes the commitment,
    // and the sealed set is written into the trail; the seal event, which needs all three, is
    // appended last in the same transaction (nothing is recorded if any of them fails).
    let ev = std::thread::scope(|s| {
        let to_sign = &leaves_bytes;
        let signer = s.spawn(move || hsm.sign(KeyRole::Result, to_sign));
        let committer = s.spawn(|| draw::commit_encoded(&leaves_bytes));
        log.append_with_blobs_then(rec::SEAL, &[&blob, &rules_bytes], |stored| {
            // Invariant: signing returns errors as values, and the commitment is a pure
            // function that does not panic.
            let leaves_sig = signer.join().expect("signing thread")?;
            let c = committer.join().expect("commitment thread");
            // The hashes the sealed set and the rules are stored under.
            let (set_sha256, rules_sha256) = (stored[0], stored[1]);
            let r = SealRecord {
                operation: rules.operation().to_string(),
                day: day.clone(),
                attempt: st.attempt,
                rules_sha256: hex::encode(rules_sha256),
                export_file: a.entries.display().to_string(),
                export: ExportRef {
                    sha256: hex::encode(verified.sha256),
                    size: verified.size,
                    producer_key_id: verified.key_id.clone(),
                },
                figures: figures_of_tally(&tally),
                commitment: CommitmentRef {
                    root: hex::encode(c.root),
                    leaves: c.leaves,
                    entries: c.entries,
                },
                set_sha256: hex::encode(set_sha256),
                leaves_sha256: hex::encode(sha256(&leaves_bytes)),
                leaves_sig: hex::encode(leaves_sig),
            };
            let v = serde_json::to_value(&r).expect("records serialise");
            record = Some(r);
            Ok(v)
        })
    })?;
    let record = record.expect("set by the append");
    let note = ctx.checkpoint()?;
    eprintln!("  done in {:.1} s", t0.elapsed().as_secs_f64());
    let f = &record.figures;
    println!(
        "SEALED: {} day {} (attempt {})",
        record.operation, day, record.attempt
    );
    println!("  export file           {}", a.entries.display());
    println!("  export SHA-256        {}", record.export.sha256);
    println!("  producer key id       {}", record.export.producer_key_id);
    println!("  rules SHA-256         {}", record.rules_sha256);
    println!(
        "  period / tranche      {} / {} cents",
        f.period, f.tranche_cents
    );
    println!("  plays                 {}", f.plays);
    println!("  counting plays        {}", f.counting_plays);
    println!(
        "  retail plays          {} (never count, D-3)",
        f.retail_plays
    );
    println!(
        "  subscriptions refused {} (taken out outside the period, D-5)",
        f.subscription_plays_refused
    );
    println!("  accounts (counting)   {}", f.accounts_with_counting_plays);
    println!(
        "  excluded with plays   closed {}, minor {}, fraud {} (D-6, D-13)",
        f.excluded_accounts_with_plays.closed,
        f.excluded_accounts_with_plays.minor,
        f.excluded_accounts_with_plays.fraud
    );
    println!("  participants          {}", f.accounts_with_entries);
    println!("  ENTRIES               {}", f.entries);
    println!("  COMMITMENT            {}", record.commitment.root);
    println!("  audit event           #{}", ev.seq);
    println!("audit checkpoint:\n{note}");
    Ok(())
}

pub struct DrawArgs {
    pub day: String,
    pub witness: Option<String>,
    pub out: PathBuf,
}

fn check_day(day: &str) -> Result<chrono::NaiveDate> {
    chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").map_err(|_| {
        Error::bad_input(
            format!("{day:?} is not a day (YYYY-MM-DD)"),
            "write the day as e.g. 2018-12-01",
        )
    })
}

fn read_witness(given: Option<String>, commitment: &str) -> Result<String> {
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

/// The sealed set of a seal, read back from the trail and checked against its recorded hash.
fn sealed_set(ctx: &mut Ctx, seal: &SealRecord) -> Result<draw::SealedSet> {
    let h = parse_hex32(&seal.set_sha256).expect("recorded by seal");
    draw::SealedSet::decode(&ctx.audit()?.blob(&h)?).ok_or_else(|| {
        Error::internal(
            "the sealed set is malformed",
            "run `urne audit verify` and investigate before any draw",
        )
    })
}

/// `urne draw`: draws a sealed day's winner and reserves, or completes an interrupted draw.
pub fn draw_day(ctx: &mut Ctx, a: DrawArgs) -> Result<()> {
    let dayd = check_day(&a.day)?;
    // Checked before anything happens: the outputs will need an empty folder.
    fsio::check_empty_or_absent(&a.out)?;
    ctx.audit()?;
    let events = ctx.audit()?.events()?;
    let st = DayState::from_events(&events, &a.day);
    let Some((_, seal)) = st.seal.clone() else {
        return Err(Error::refused(
            format!("day {} is not sealed (attempt {})", a.day, st.attempt),
            "seal the day's export first: urne seal --rules FILE --entries FILE.jsonl",
        ));
    };
    if st.published.is_some() {
        return Err(Error::refused(
            format!(
                "day {} has already been drawn (attempt {}); a day is drawn once",
                a.day, st.attempt
            ),
            "nothing was changed. If the draw must be annulled, `urne void --day DAY --reason …` records it in front of the commissaire; a new attempt then needs a new seal",
        ));
    }
    let rules_hash = parse_hex32(&seal.rules_sha256).expect("recorded by seal");
    let rules_bytes = ctx.audit()?.blob(&rules_hash)?;
    let rules = DrawRules::from_json(&rules_bytes)
        .map_err(|e| Error::internal(format!("the sealed rules no longer load: {e}"), ""))?;
    let period = rules
        .period_for(dayd)
        .ok_or_else(|| Error::internal("the sealed day is in no period", ""))?
        .clone();

    // The day must have ended in Paris time by the ceremony's clock (D-1).
    let now = crate::edge::clock::now_utc();
    let (_, day_end) = rules
        .day_bounds(dayd)
        .ok_or_else(|| Error::internal("the sealed day is in no period", ""))?;
    if now.timestamp() < day_end {
        return Err(Error::refused(
            format!("day {} has not ended yet in {}", a.day, rules.time_zone()),
            "a day is drawn only after its last play could have been made; wait until midnight, Paris time",
        ));
    }
    let mut anomalies = vec![];
    let today = now.with_timezone(&rules.time_zone()).date_naive();
    let deadline = period.draw_date + chrono::Days::new(rules.draw_grace_days() as u64);
    if today > deadline {
        let msg = format!(
            "drawn on {today}, after the draw date {} + {} days (D-8)",
            period.draw_date,
            rules.draw_grace_days()
        );
        eprintln!("warning: {msg}");
        if st.entropy.is_none() {
            ctx.audit()?.append(
                rec::LATE,
                &json!({"day": a.day, "attempt": st.attempt, "draw_date": period.draw_date.to_string(), "today": today.to_string()}),
            )?;
        }
        anomalies.push(format!(
            "Tirage effectué le {today}, au-delà de la date prévue ({}) augmentée du délai de {} jours (D-8).",
            period.draw_date,
            rules.draw_grace_days()
        ));
    } else if today < period.draw_date {
        anomalies.push(format!(
            "Tirage effectué le {today}, avant la date prévue du {} (D-8).",
            period.draw_date
        ));
    }
    for v in &st.voided {
        anomalies.push(format!(
            "Tentative n° {} annulée (événement d'audit n° {}) : {}",
            v.attempt, v.audit_seq, v.reason
        ));
    }

    // The sealed set, checked against the hash the seal recorded (the commitment was computed
    // from exactly these bytes at the seal).
    let set = sealed_set(ctx, &seal)?;
    let leaves = &set.leaves;
    let c = draw::Commitment {
        root: parse_hex32(&seal.commitment.root).expect("recorded by seal"),
        leaves: seal.commitment.leaves,
        entries: seal.commitment.entries,
    };
    if c.entries == 0 {
        return Err(Error::refused(
            format!("day {} has no entries: there is nothing to draw", a.day),
            "record the fact in the minutes; void the seal if a corrected export is expected",
        ));
    }

    // Witness, then entropy, recorded before anything is computed from them; or, when a draw
    // was interrupted after its entropy was recorded, exactly those values again.
    let entropy_rec = match st.entropy.clone() {
        Some((seq, r)) => {
            eprintln!(
                "resuming the interrupted draw of {} with the entropy recorded at audit event #{seq}; no new entropy is requested",
                a.day
            );
            if let Some(w) = &a.witness
                && w != &r.witness
            {
                eprintln!(
                    "note: the witness contribution recorded then is used, not the one given now"
                );
            }
            r
        }
        None => {
            println!(
                "commitment for {} (attempt {}): {}",
                a.day, st.attempt, seal.commitment.root
            );
            let witness = read_witness(a.witness.clone(), &seal.commitment.root)?;
            let (log, hsm) = ctx.both()?;
            let entropy = hsm.random(ENTROPY_BYTES)?;
            let ehex = hex::encode(&entropy);
            let r = EntropyRecord {
                operation: seal.operation.clone(),
                day: a.day.clone(),
                attempt: st.attempt,
                commitment_root: seal.commitment.root.clone(),
                witness,
                entropy: ehex.clone(),
            };
            let seen = events.iter().any(|e| e.payload.contains(&ehex));
            log.append(rec::ENTROPY, &serde_json::to_value(&r).expect("serialises"))?;
            if seen {
                return Err(Error::new(
                    Exit::Hsm,
                    "the HSM returned entropy already recorded in the trail",
                    "the token's generator is faulty or replaying: stop the ceremony; void this attempt and use another HSM",
                ));
            }
            r
        }
    };
    let entropy = hex::decode(&entropy_rec.entropy).expect("recorded as hex");
    let export_hash = parse_hex32(&seal.export.sha256).expect("recorded by seal");
    let seed = draw::draw_seed(&SeedInputs {
        operation: &seal.operation,
        day: &a.day,
        attempt: st.attempt,
        rules_sha256: &rules_hash,
        export_sha256: &export_hash,
        commitment: &c,
        witness: &entropy_rec.witness,
        entropy: &entropy,
    });
    let seed_hex = hex::encode(seed);
    let reserves_wanted = rules.reserves_per_day();
    let sel = draw::select(leaves, &seed, reserves_wanted as usize).expect("entries > 0");

    let result_rec = match st.result.clone() {
        Some((_, r)) => {
            if r.seed != seed_hex || r.winner != sel.winner || r.reserves != sel.reserves {
                return Err(Error::internal(
                    "recomputing the recorded draw gives another outcome",
                    "stop: the software or the trail changed since the draw; run `urne audit verify`",
                ));
            }
            r
        }
        None => {
            let seed_seen = events
                .iter()
                .any(|e| e.kind != rec::ENTROPY && e.payload.contains(&seed_hex));
            if seed_seen {
                return Err(Error::new(
                    Exit::Hsm,
                    "this seed was already used by an earlier draw",
                    "stop the ceremony; void this attempt",
                ));
            }
            let r = ResultRecord {
                operation: seal.operation.clone(),
                day: a.day.clone(),
                attempt: st.attempt,
                seed: seed_hex.clone(),
                winner: sel.winner,
                reserves: sel.reserves.clone(),
            };
            ctx.audit()?
                .append(rec::RESULT, &serde_json::to_value(&r).expect("serialises"))?;
            r
        }
    };

    // Outputs.
    let checkpoint = ctx.checkpoint()?;
    let software = ctx.software()?;
    let hsm = ctx.hsm()?;
    let result_key = hsm.public_key(KeyRole::Result)?;
    let audit_key = hsm.public_key(KeyRole::Audit)?;
    let core = DrawCore {
        operation: seal.operation.clone(),
        day: a.day.clone(),
        attempt: st.attempt,
        voided_attempts: st.voided.clone(),
        rules_sha256: seal.rules_sha256.clone(),
        export: seal.export.clone(),
        figures: seal.figures.clone(),
        commitment: seal.commitment.clone(),
        witness: entropy_rec.witness.clone(),
        entropy: entropy_rec.entropy.clone(),
        seed: seed_hex.clone(),
        prize_cents: period.prize_cents,
        reserves_wanted,
    };
    let picks: Vec<draw::Pick> = std::iter::once(result_rec.winner)
        .chain(result_rec.reserves.iter().copied())
        .collect();
    let placed: Vec<Placed> = picks
        .iter()
        .enumerate()
        .map(|(rank, p)| {
            let leaf = &leaves[p.leaf as usize];
            Placed {
                rank: rank as u32,
                account: hex::encode(set.accounts[p.leaf as usize]),
                pseudonym: hex::encode(leaf.pseudonym),
                entries: leaf.entries,
                entry: p.entry,
                leaf: p.leaf,
            }
        })
        .collect();
    let public: Vec<PublicPlaced> = placed
        .iter()
        .map(|p| PublicPlaced {
            rank: p.rank,
            pseudonym: p.pseudonym.clone(),
            entries: p.entries,
            entry: p.entry,
            leaf: p.leaf,
        })
        .collect();
    let drawn_at = crate::edge::clock::now_rfc3339();
    let result = ResultFile {
        format: files::RESULT_FORMAT.into(),
        version: 1,
        core: core.clone(),
        entries: c.entries,
        accounts: c.leaves,
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
        version: 1,
        core,
        leaves_file: files::LEAVES_FILE.into(),
        leaves_sha256: seal.leaves_sha256.clone(),
        winner: public[0].clone(),
        reserves: public[1..].to_vec(),
        drawn_at,
        audit_checkpoint: checkpoint.clone(),
        result_key_id: keys::key_id(&result_key),
        audit_key_id: keys::key_id(&audit_key),
        software,
    };
    let result_bytes = files::to_bytes(&result);
    let bundle_bytes = files::to_bytes(&bundle);
    // The appliance checks its own outputs with the third-party verifier before signing them.
    // (The leaves' root was computed at the seal from the very bytes the seal's hash binds.)
    urne_core::verify::draw::verify_outcome(&bundle, leaves)
        .and_then(|_| urne_core::verify::draw::verify_result_against_bundle(&result, &bundle))
        .map_err(|f| {
            Error::internal(
                format!("self-check of the outputs failed: {}", f.what),
                "this is a defect; nothing was published",
            )
        })?;
    let checks = vec![
        format!("Signature Ed25519 de l'export vérifiée avec la clé du producteur {} avant lecture.", seal.export.producer_key_id),
        "Chaque ligne de l'export contrôlée selon le format entry-export-v1 ; règles D-3 à D-6 et D-13 appliquées.".to_string(),
        "Engagement (racine de Merkle) recalculé à partir de la liste scellée avant le tirage.".to_string(),
        "Aléa du HSM contrôlé (non constant, jamais vu) et inscrit au journal d'audit avant tout calcul.".to_string(),
        "Tirage recalculé par le vérificateur intégré à partir de bundle.json avant signature.".to_string(),
        "Chaîne du journal d'audit prolongée et point de contrôle signé par la clé d'audit du HSM.".to_string(),
    ];
    let pv = urne_core::draw::pv::render(
        &result,
        &urne_core::draw::pv::PvFiles {
            result_sha256: &hex::encode(sha256(&result_bytes)),
            bundle_sha256: &hex::encode(sha256(&bundle_bytes)),
            rules_sha256: &seal.rules_sha256,
        },
        &anomalies,
        &checks,
    );
    let outputs: Vec<(&str, Vec<u8>)> = vec![
        ("result.json", result_bytes),
        ("bundle.json", bundle_bytes),
        ("pv.html", pv.into_bytes()),
        ("rules.json", rules_bytes.clone()),
        ("checkpoint.note", checkpoint.clone().into_bytes()),
    ];
    // leaves.bin is cut from the sealed set (checked against its hash above) and must be the very
    // bytes the seal signed; the seal's event (in the hash chain) holds that signature.
    let leaves_bytes = draw::encode_leaves(leaves);
    if hex::encode(openssl::sha::sha256(&leaves_bytes)) != seal.leaves_sha256 {
        return Err(Error::internal(
            "the sealed set does not give the leaves file the seal signed",
            "run `urne audit verify` and investigate before publishing",
        ));
    }
    let leaves_sig = hex::decode(&seal.leaves_sig).expect("recorded as hex");
    // The folder is published whole or not at all: written into a staging folder beside it,
    // then renamed (a kill mid-way leaves no half-written result folder, and re-running the draw
    // completes it).
    let staging = fsio::staging_dir(&a.out)?;
    let mut written = write_signed(ctx, &staging, &outputs, &result_key, &audit_key)?;
    fsio::write_atomic(&staging.join(files::LEAVES_FILE), &leaves_bytes, false)?;
    fsio::write_atomic(
        &staging.join(format!("{}.sig", files::LEAVES_FILE)),
        &leaves_sig,
        false,
    )?;
    fsio::publish_dir(&staging, &a.out)?;
    written.insert(files::LEAVES_FILE.to_string(), seal.leaves_sha256.clone());
    ctx.audit()?.append_evidence(
        rec::PUBLISHED,
        &json!({"day": a.day, "attempt": st.attempt, "out": a.out.display().to_string(), "files": written}),
    )?;
    ctx.checkpoint()?;
    println!(
        "DRAWN: {} day {} (attempt {})",
        seal.operation, a.day, st.attempt
    );
    println!("  commitment   {}", seal.commitment.root);
    println!("  witness      {}", entropy_rec.witness);
    println!("  HSM entropy  {}", entropy_rec.entropy);
    println!("  seed         {seed_hex}");
    println!("  entries      {} ({} accounts)", c.entries, c.leaves);
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
    println!("outputs in {}:", a.out.display());
    for (name, h) in &written {
        println!("  {name:<18} sha256 {h}");
    }
    Ok(())
}

/// Writes each output atomically with its detached signature by the result key, plus the two
/// public keys; returns each file's SHA-256.
pub fn write_signed(
    ctx: &mut Ctx,
    out: &Path,
    outputs: &[(&str, Vec<u8>)],
    result_key: &[u8; 32],
    audit_key: &[u8; 32],
) -> Result<std::collections::BTreeMap<String, String>> {
    fsio::ensure_dir(out)?;
    for (name, _) in outputs {
        if out.join(name).exists() {
            return Err(Error::refused(
                format!("{} already exists", out.join(name).display()),
                "outputs are never overwritten: give an empty --out folder",
            ));
        }
    }
    let hsm = ctx.hsm()?;
    let mut written = std::collections::BTreeMap::new();
    for (name, bytes) in outputs {
        // The HSM signs while the file is written and synced on another thread (a 64 MB
        // production file takes a few tenths of a second each way); if signing fails, the file
        // is removed again, so no unsigned output is left behind.
        let path = out.join(name);
        let (sig, wrote) = std::thread::scope(|s| {
            let w = s.spawn(|| fsio::write_atomic(&path, bytes, false));
            let sig = hsm.sign(KeyRole::Result, bytes);
            (sig, w.join().expect("writer thread"))
        });
        let sig = match (sig, wrote) {
            (Ok(sig), Ok(())) => sig,
            (Err(e), wrote) => {
                if wrote.is_ok() {
                    let _ = std::fs::remove_file(&path);
                }
                return Err(e);
            }
            (Ok(_), Err(e)) => return Err(e),
        };
        fsio::write_atomic(&out.join(format!("{name}.sig")), &sig, false)?;
        written.insert(name.to_string(), hex::encode(sha256(bytes)));
    }
    for (name, k) in [("result.pub.pem", result_key), ("audit.pub.pem", audit_key)] {
        let pem = keys::public_key_to_pem(k);
        let p = out.join(name);
        if !p.exists() {
            fsio::write_atomic(&p, pem.as_bytes(), false)?;
        }
    }
    Ok(written)
}

/// `urne void`: a witnessed annulment of the current attempt of a day.
pub fn void(ctx: &mut Ctx, day: &str, reason: &str) -> Result<()> {
    check_day(day)?;
    if reason.trim().len() < 5 {
        return Err(Error::bad_input(
            "a void needs a reason",
            "say why, in words the commissaire will sign: --reason \"…\"",
        ));
    }
    let events = ctx.audit()?.events()?;
    let st = DayState::from_events(&events, day);
    if st.seal.is_none() {
        return Err(Error::refused(
            format!(
                "day {day} has nothing to void (attempt {} is not sealed)",
                st.attempt
            ),
            "only a sealed or drawn attempt can be voided",
        ));
    }
    let ev = ctx.audit()?.append(
        rec::VOID,
        &json!({"day": day, "attempt": st.attempt, "reason": reason, "stage": st.stage()}),
    )?;
    let note = ctx.checkpoint()?;
    println!(
        "VOIDED: day {day}, attempt {} ({}), audit event #{}",
        st.attempt,
        st.stage(),
        ev.seq
    );
    println!("reason: {reason}");
    println!(
        "the next attempt is {}; it needs its own seal",
        st.attempt + 1
    );
    println!("audit checkpoint:\n{note}");
    Ok(())
}

/// `urne proof --day D --account A --out FILE`.
pub fn proof(ctx: &mut Ctx, day: &str, account: &str, out: &Path) -> Result<()> {
    check_day(day)?;
    let acct = parse_hex32(account).ok_or_else(|| {
        Error::bad_input(
            "the account must be 64 lowercase hex digits",
            "give the pseudonymous account id as production exports it",
        )
    })?;
    let events = ctx.audit()?.events()?;
    let st = DayState::from_events(&events, day);
    let Some((_, seal)) = st.seal.clone() else {
        return Err(Error::refused(
            format!("day {day} is not sealed"),
            "proofs exist for sealed days",
        ));
    };
    let set = sealed_set(ctx, &seal)?;
    let Some(pos) = set.accounts.iter().position(|a| a == &acct) else {
        return Err(Error::bad_input(
            format!("account {account} has no entry on {day}"),
            "only accounts with at least one entry in the sealed set have an inclusion proof",
        ));
    };
    let leaves = &set.leaves;
    let hashes = draw::leaf_hashes(leaves);
    let key = draw::pseudonym_key(&draw::list_digest(&seal.operation, day, &set.list()));
    let salt = draw::account_salt(&key, &acct);
    let (hsm_key, proof) = {
        let hsm = ctx.hsm()?;
        let rk = hsm.public_key(KeyRole::Result)?;
        (
            rk,
            ProofFile {
                format: files::PROOF_FORMAT.into(),
                version: 1,
                operation: seal.operation.clone(),
                day: day.to_string(),
                attempt: st.attempt,
                account: account.to_string(),
                salt: hex::encode(salt),
                pseudonym: hex::encode(leaves[pos].pseudonym),
                entries: leaves[pos].entries,
                leaf: pos as u64,
                commitment: seal.commitment.clone(),
                path: merkle::inclusion_path(pos, &hashes)
                    .iter()
                    .map(hex::encode)
                    .collect(),
                result_key_id: keys::key_id(&rk),
            },
        )
    };
    urne_core::verify::draw::verify_proof(&proof, Some(&seal.commitment))
        .map_err(|f| Error::internal(format!("self-check of the proof failed: {}", f.what), ""))?;
    let bytes = files::to_bytes(&proof);
    let sig = ctx.hsm()?.sign(KeyRole::Result, &bytes)?;
    fsio::write_atomic(out, &bytes, false)?;
    fsio::write_atomic(
        &PathBuf::from(format!("{}.sig", out.display())),
        &sig,
        false,
    )?;
    ctx.audit()?.append_evidence(
        "draw.proof",
        &json!({"day": day, "attempt": st.attempt, "pseudonym": proof.pseudonym, "file_sha256": hex::encode(sha256(&bytes))}),
    )?;
    ctx.checkpoint()?;
    let _ = hsm_key;
    println!(
        "inclusion proof for account {account} on {day}: {} entr{} at leaf {} of {}, written to {}",
        proof.entries,
        if proof.entries == 1 { "y" } else { "ies" },
        pos,
        leaves.len(),
        out.display()
    );
    Ok(())
}
