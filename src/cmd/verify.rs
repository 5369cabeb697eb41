//! `urne verify PATH`: third-party verification of published outputs (SPEC.md §8). Needs no
//! HSM, no PIN, no audit trail and no private key, and writes nothing: it can never produce a
//! result (design principle 2).

use super::Ctx;
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};
use urne_core::audit::chain;
use urne_core::crypto::{keys, sha256};
use urne_core::draw::files::{BundleFile, ProofFile, ResultFile};
use urne_core::rules::draw::DrawRules;
use urne_core::verify::{Failure, FailureClass as C, fail};

pub struct VerifyArgs {
    pub path: PathBuf,
    pub keys: Option<PathBuf>,
    pub export: Option<PathBuf>,
    pub producer_keys: Vec<PathBuf>,
    pub published: Option<PathBuf>,
}

/// The public keys a verification trusts.
pub struct Keys {
    pub result: [u8; 32],
    pub audit: [u8; 32],
    pub source: PathBuf,
}

fn load_key(dir: &Path, name: &str) -> Result<[u8; 32]> {
    let p = dir.join(name);
    let pem = std::fs::read_to_string(&p).map_err(|e| {
        Error::bad_input(
            format!("cannot read {}: {e}", p.display()),
            "pass --keys DIR holding result.pub.pem and audit.pub.pem (from `urne keys export`)",
        )
    })?;
    keys::public_key_from_pem(&pem).map_err(|e| {
        Error::bad_input(
            format!("{}: {e}", p.display()),
            "give the PEM files `urne keys export` wrote",
        )
    })
}

pub fn load_keys(keys_dir: Option<&Path>, fallback: &Path) -> Result<Keys> {
    let dir = keys_dir.unwrap_or(fallback);
    if keys_dir.is_none() {
        eprintln!(
            "note: using the public keys found in {}; pass --keys DIR with keys obtained independently to rule out a substituted key",
            dir.display()
        );
    }
    Ok(Keys {
        result: load_key(dir, "result.pub.pem")?,
        audit: load_key(dir, "audit.pub.pem")?,
        source: dir.to_path_buf(),
    })
}

fn to_error(f: Failure) -> Error {
    Error::verification(
        format!("verification failed ({}): {}", f.class.name(), f.what),
        "do not use these outputs; keep them as evidence and compare their hashes with the minutes",
    )
}

/// Reads a file and checks its detached signature by the result key BEFORE returning its bytes
/// (inputs are verified before they are parsed).
pub fn read_signed(
    dir: &Path,
    name: &str,
    key: &[u8; 32],
) -> std::result::Result<Vec<u8>, Failure> {
    let p = dir.join(name);
    let bytes = std::fs::read(&p)
        .map_err(|e| fail(C::Malformed, format!("cannot read {}: {e}", p.display())))?;
    let sig = std::fs::read(dir.join(format!("{name}.sig"))).map_err(|_| {
        fail(
            C::BadSignature,
            format!("{name} has no signature file {name}.sig"),
        )
    })?;
    if !keys::verify(key, &bytes, &sig) {
        return Err(fail(
            C::BadSignature,
            format!(
                "the signature of {name} does not verify under the result key {}",
                keys::key_id(key)
            ),
        ));
    }
    Ok(bytes)
}

fn parse<T: serde::de::DeserializeOwned>(
    name: &str,
    bytes: &[u8],
) -> std::result::Result<T, Failure> {
    serde_json::from_slice(bytes).map_err(|e| fail(C::Malformed, format!("{name}: {e}")))
}

pub fn run(ctx: &mut Ctx, a: VerifyArgs) -> Result<()> {
    if a.path.is_file() {
        return verify_proof_file(&a);
    }
    if !a.path.is_dir() {
        return Err(Error::bad_input(
            format!(
                "{} is neither a folder of outputs nor a proof file",
                a.path.display()
            ),
            "give the --out folder of `urne draw` or `urne block generate`, or a proof file",
        ));
    }
    if a.path.join("bundle.json").exists() {
        return verify_draw_dir(ctx, &a);
    }
    crate::cmd::block::verify_dir(&a)
}

fn verify_draw_dir(ctx: &mut Ctx, a: &VerifyArgs) -> Result<()> {
    let dir = &a.path;
    let keys = load_keys(a.keys.as_deref(), dir)?;
    let mut done: Vec<String> = vec![];
    let r = (|| -> std::result::Result<(), Failure> {
        // Step 1: every signature, before anything is parsed.
        let bundle_bytes = read_signed(dir, "bundle.json", &keys.result)?;
        done.push("bundle.json signature".into());
        let result_bytes = if dir.join("result.json").exists() {
            let b = read_signed(dir, "result.json", &keys.result)?;
            done.push("result.json signature".into());
            Some(b)
        } else {
            None
        };
        let rules_bytes = if dir.join("rules.json").exists() {
            let b = read_signed(dir, "rules.json", &keys.result)?;
            done.push("rules.json signature".into());
            Some(b)
        } else {
            None
        };
        for other in ["pv.html", "checkpoint.note"] {
            if dir.join(other).exists() {
                read_signed(dir, other, &keys.result)?;
                done.push(format!("{other} signature"));
            }
        }
        // Step 2 … 5: the bundle recomputes.
        let bundle: BundleFile = parse("bundle.json", &bundle_bytes)?;
        if bundle.format != urne_core::draw::files::BUNDLE_FORMAT || bundle.version != 1 {
            return Err(fail(
                C::Malformed,
                "bundle.json is not an urne-draw-bundle version 1",
            ));
        }
        if bundle.result_key_id != keys::key_id(&keys.result) {
            return Err(fail(
                C::Inconsistent,
                "bundle.json names another result key",
            ));
        }
        if bundle.leaves_file != urne_core::draw::files::LEAVES_FILE {
            return Err(fail(
                C::Malformed,
                "bundle.json names an unexpected leaves file",
            ));
        }
        let leaves_bytes = read_signed(dir, &bundle.leaves_file, &keys.result)?;
        done.push(format!("{} signature", bundle.leaves_file));
        let leaves = urne_core::verify::draw::verify_leaves(&bundle, &leaves_bytes)?;
        urne_core::verify::draw::verify_outcome(&bundle, &leaves)?;
        done.push(format!(
            "commitment, seed and selection recomputed from {} leaves ({} entries)",
            leaves.len(),
            bundle.core.commitment.entries
        ));
        // The audit checkpoint shipped with the result is signed by the audit key.
        chain::verify_note(&bundle.audit_checkpoint, &keys.audit)
            .map_err(|e| fail(C::BadSignature, format!("audit checkpoint: {e}")))?;
        done.push("audit checkpoint signature".into());
        // Step 6: result.json tells the same draw.
        let result: Option<ResultFile> = match &result_bytes {
            Some(b) => {
                let r: ResultFile = parse("result.json", b)?;
                urne_core::verify::draw::verify_result_against_bundle(&r, &bundle)?;
                done.push("result.json agrees with bundle.json".into());
                Some(r)
            }
            None => None,
        };
        // The rules the draw was bound to.
        let rules = match &rules_bytes {
            Some(b) => {
                if hex::encode(sha256(b)) != bundle.core.rules_sha256 {
                    return Err(fail(
                        C::Inconsistent,
                        "rules.json is not the rules file the draw was bound to",
                    ));
                }
                let rules = DrawRules::from_json(b)
                    .map_err(|e| fail(C::Malformed, format!("rules.json: {e}")))?;
                let day = chrono::NaiveDate::parse_from_str(&bundle.core.day, "%Y-%m-%d")
                    .map_err(|_| fail(C::Malformed, "day"))?;
                let period = rules
                    .period_for(day)
                    .ok_or_else(|| fail(C::Inconsistent, "the day is in no period of the rules"))?;
                if period.prize_cents != bundle.core.prize_cents
                    || rules.reserves_per_day() != bundle.core.reserves_wanted
                    || rules.operation() != bundle.core.operation
                {
                    return Err(fail(
                        C::Inconsistent,
                        "prize, reserves or operation differ from the rules file",
                    ));
                }
                done.push("prize and reserves match the rules (D-10)".into());
                Some(rules)
            }
            None => None,
        };
        // Step 7 (auditor mode): recompute the entries from the signed export.
        if let Some(export) = &a.export {
            let rules = rules
                .ok_or_else(|| fail(C::Malformed, "auditor mode needs rules.json in the folder"))?;
            let trusted = crate::cmd::inputs::trusted_keys(ctx, &a.producer_keys)
                .map_err(|e| fail(C::Malformed, e.message))?;
            let sig = std::fs::read(format!("{}.sig", export.display()))
                .map_err(|_| fail(C::BadSignature, "the export has no .sig beside it"))?;
            let f = std::fs::File::open(export)
                .map_err(|e| fail(C::Malformed, format!("{}: {e}", export.display())))?;
            let v = urne_core::entries::verify_export(
                std::io::BufReader::with_capacity(1 << 20, f),
                &sig,
                &trusted,
            )
            .map_err(|e| fail(C::BadSignature, format!("export: {e}")))?;
            done.push(format!("export signature by producer key {}", v.key_id));
            if hex::encode(v.sha256) != bundle.core.export.sha256
                || v.key_id != bundle.core.export.producer_key_id
            {
                return Err(fail(
                    C::Inconsistent,
                    "this export is not the one the draw was sealed from",
                ));
            }
            let t = urne_core::entries::tally_export(|| std::fs::File::open(export), &v, &rules)
                .map_err(|e| fail(C::Malformed, format!("export: {e}")))?;
            let list = urne_core::draw::figures::list_of_tally(&t);
            if urne_core::draw::figures::figures_of_tally(&t) != bundle.core.figures {
                return Err(fail(
                    C::CommitmentMismatch,
                    "the figures recomputed from the export differ from the sealed ones",
                ));
            }
            urne_core::verify::draw::verify_against_entries(
                &list,
                &leaves,
                &bundle,
                result.as_ref(),
            )?;
            done.push(
                "entries, pseudonyms and commitment recomputed from the export (auditor mode)"
                    .into(),
            );
        }
        Ok(())
    })();
    match r {
        Ok(()) => {
            println!("VERIFIED: {}", dir.display());
            for d in &done {
                println!("  ok  {d}");
            }
            Ok(())
        }
        Err(f) => Err(to_error(f)),
    }
}

fn verify_proof_file(a: &VerifyArgs) -> Result<()> {
    let file = &a.path;
    let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let keys = load_keys(a.keys.as_deref(), a.published.as_deref().unwrap_or(&dir))?;
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let bytes = read_signed(&dir, &name, &keys.result).map_err(to_error)?;
    let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
    if v["format"] == urne_core::block::files::TICKET_PROOF_FORMAT {
        let p = crate::cmd::block::verify_ticket_proof_file(&bytes, a.published.as_deref(), &keys)
            .map_err(to_error)?;
        println!(
            "VERIFIED: ticket {} of block {} is in the committed outcomes (root {}): {}",
            p.position, p.block, p.outcomes_root, p.row
        );
        return Ok(());
    }
    let r = (|| -> std::result::Result<ProofFile, Failure> {
        let p: ProofFile = parse(&name, &bytes)?;
        if p.format != urne_core::draw::files::PROOF_FORMAT {
            return Err(fail(C::Malformed, "not an urne inclusion proof"));
        }
        let published = match &a.published {
            Some(d) => {
                let b = read_signed(d, "bundle.json", &keys.result)
                    .or_else(|_| read_signed(d, "result.json", &keys.result))?;
                let v: serde_json::Value = parse("published result", &b)?;
                let c: urne_core::draw::files::CommitmentRef =
                    serde_json::from_value(v["commitment"].clone())
                        .map_err(|e| fail(C::Malformed, format!("published commitment: {e}")))?;
                Some(c)
            }
            None => None,
        };
        urne_core::verify::draw::verify_proof(&p, published.as_ref())?;
        Ok(p)
    })();
    match r {
        Ok(p) => {
            println!(
                "VERIFIED: account {} had {} entr{} in the sealed draw of {} (leaf {} of {}, commitment {}){}",
                p.account,
                p.entries,
                if p.entries == 1 { "y" } else { "ies" },
                p.day,
                p.leaf,
                p.commitment.leaves,
                p.commitment.root,
                if a.published.is_some() {
                    ", the published one"
                } else {
                    ""
                }
            );
            Ok(())
        }
        Err(f) => Err(to_error(f)),
    }
}
