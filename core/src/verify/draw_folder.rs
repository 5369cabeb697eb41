//! `urne verify DIR` on a daily draw's folder (SPEC.md §8.2): every signature first, then the
//! bundle recomputed (leaves, commitment, seed, selection), the audit checkpoint, `result.json`
//! and `rules.json` when present, and in auditor mode the entries recomputed from the signed
//! export. The steps run in the order of §8.2 and stop at the first failure.

use super::draw::{
    verify_against_entries, verify_leaves, verify_outcome, verify_result_against_bundle,
};
use super::history::{self, Output};
use super::signed::{Keys, read_signed};
use super::{FailureClass as C, Report, VResult, fail, parse_named};
use crate::audit::chain;
use crate::crypto::{keys, sha256};
use crate::draw::Leaf;
use crate::draw::figures::{figures_of_tally, list_of_tally};
use crate::draw::files::{BUNDLE_FORMAT, BundleFile, LEAVES_FILE, ResultFile};
use crate::rules::draw::DrawRules;
use std::path::{Path, PathBuf};

/// Auditor mode (§8.2 step 8): the signed export the draw was sealed from (its `.sig` beside
/// it) and the producer keys trusted for it.
#[derive(Debug, Clone)]
pub struct Auditor {
    /// The export file.
    pub export: PathBuf,
    /// The trusted producer keys, or why there are none: the message is reported (as
    /// `malformed`) only when step 8 is reached, after every public check held.
    pub producer_keys: Result<Vec<[u8; 32]>, String>,
}

/// The signature-checked bytes of the folder's files (step 1).
struct SignedFiles {
    bundle: Vec<u8>,
    result: Option<Vec<u8>>,
    rules: Option<Vec<u8>>,
}

/// Verifies the draw folder `dir` under `keys` (§8.2), in auditor mode with `auditor`. Returns
/// the checks done, or the first failure. Reads the files of `dir` (and the export); prints
/// nothing.
///
/// ```no_run
/// use std::path::Path;
/// use urne_core::verify::{draw_folder, signed};
///
/// // The appliance's public keys, obtained independently of the folder (`urne keys export`).
/// let keys = signed::load_keys(Path::new("keys")).expect("result.pub.pem and audit.pub.pem");
/// match draw_folder::verify_draw_folder(Path::new("downloads/2018-12-24"), &keys, None) {
///     Ok(report) => {
///         for check in &report.checks {
///             println!("ok  {check}");
///         }
///     }
///     Err(f) => eprintln!("verification failed ({}): {}", f.class.name(), f.what),
/// }
/// ```
pub fn verify_draw_folder(dir: &Path, keys: &Keys, auditor: Option<&Auditor>) -> VResult<Report> {
    let mut done: Vec<String> = vec![];
    let signed = check_signatures(dir, keys, &mut done)?;
    let bundle = parse_bundle(&signed.bundle, keys)?;
    let leaves = recompute_bundle(dir, &bundle, keys, &mut done)?;
    // Step 5: the audit checkpoint shipped with the result is signed by the audit key.
    let cp = chain::verify_note(&bundle.audit_checkpoint, &keys.audit)
        .map_err(|e| fail(C::BadSignature, format!("audit checkpoint: {e}")))?;
    done.push("audit checkpoint signature".into());
    if bundle.version == 2 {
        super::draw::verify_fixed(&bundle.core, &cp)?;
        done.push(
            "randomness order: the entropy commitment was recorded before the contribution, both in the checkpoint's trail".into(),
        );
    }
    let name = dir.join("bundle.json").display().to_string();
    let output = history::versioned_output(
        &name,
        bundle.version,
        &signed.bundle,
        bundle.core.history.as_ref(),
        &cp,
    )?
    .map(|o| Output {
        subject: Some(format!(
            "the draw of {} day {} attempt {}",
            bundle.core.operation, bundle.core.day, bundle.core.attempt
        )),
        ..o
    });
    if output.is_some() {
        done.push(
            "history: its checkpoint extends its predecessor's (RFC 6962 consistency)".into(),
        );
    }
    let result = check_result(signed.result.as_deref(), &bundle, &mut done)?;
    let rules = check_rules(signed.rules.as_deref(), &bundle, &mut done)?;
    if let Some(a) = auditor {
        recompute_entries(a, rules, &bundle, &leaves, result.as_ref(), &mut done)?;
    }
    Ok(Report {
        checks: done,
        outputs: output.into_iter().collect(),
    })
}

/// Step 1: every signature, before anything is parsed (`leaves.bin`'s once its name is known).
fn check_signatures(dir: &Path, keys: &Keys, done: &mut Vec<String>) -> VResult<SignedFiles> {
    let bundle = read_signed(dir, "bundle.json", &keys.result)?;
    done.push("bundle.json signature".into());
    let result = if dir.join("result.json").exists() {
        let b = read_signed(dir, "result.json", &keys.result)?;
        done.push("result.json signature".into());
        Some(b)
    } else {
        None
    };
    let rules = if dir.join("rules.json").exists() {
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
    Ok(SignedFiles {
        bundle,
        result,
        rules,
    })
}

/// Step 2, first part: `bundle.json` parses, is a bundle v1, names the result key and the
/// leaves file.
fn parse_bundle(bytes: &[u8], keys: &Keys) -> VResult<BundleFile> {
    let bundle: BundleFile = parse_named("bundle.json", bytes)?;
    if bundle.format != BUNDLE_FORMAT || !(1..=2).contains(&bundle.version) {
        return Err(fail(
            C::Malformed,
            "bundle.json is not an urne-draw-bundle version 1 or 2",
        ));
    }
    if bundle.result_key_id != keys::key_id(&keys.result) {
        return Err(fail(
            C::Inconsistent,
            "bundle.json names another result key",
        ));
    }
    if bundle.leaves_file != LEAVES_FILE {
        return Err(fail(
            C::Malformed,
            "bundle.json names an unexpected leaves file",
        ));
    }
    if bundle.pkcs11.is_some() != (bundle.version == 2) {
        return Err(fail(
            C::Malformed,
            "bundle.json: pkcs11 is a member of version 2, and only of version 2",
        ));
    }
    Ok(bundle)
}

/// Steps 2–4: the signed leaves give the commitment, and the seed and the selection recompute.
fn recompute_bundle(
    dir: &Path,
    bundle: &BundleFile,
    keys: &Keys,
    done: &mut Vec<String>,
) -> VResult<Vec<Leaf>> {
    let leaves_bytes = read_signed(dir, &bundle.leaves_file, &keys.result)?;
    done.push(format!("{} signature", bundle.leaves_file));
    let leaves = verify_leaves(bundle, &leaves_bytes)?;
    verify_outcome(bundle, &leaves)?;
    done.push(format!(
        "commitment, seed and selection recomputed from {} leaves ({} entries)",
        leaves.len(),
        bundle.core.commitment.entries
    ));
    Ok(leaves)
}

/// Step 6: `result.json`, when present, tells the same draw.
fn check_result(
    bytes: Option<&[u8]>,
    bundle: &BundleFile,
    done: &mut Vec<String>,
) -> VResult<Option<ResultFile>> {
    let Some(b) = bytes else {
        return Ok(None);
    };
    let r: ResultFile = parse_named("result.json", b)?;
    if r.version != bundle.version {
        return Err(fail(
            C::Inconsistent,
            "result.json and bundle.json are of different versions (SPEC.md §7.2)",
        ));
    }
    verify_result_against_bundle(&r, bundle)?;
    done.push("result.json agrees with bundle.json".into());
    Ok(Some(r))
}

/// Step 7: `rules.json`, when present, is the rules file the draw was bound to, and the prize,
/// reserves and operation follow from it (D-10).
fn check_rules(
    bytes: Option<&[u8]>,
    bundle: &BundleFile,
    done: &mut Vec<String>,
) -> VResult<Option<DrawRules>> {
    let Some(b) = bytes else {
        return Ok(None);
    };
    if sha256(b) != bundle.core.rules_sha256 {
        return Err(fail(
            C::Inconsistent,
            "rules.json is not the rules file the draw was bound to",
        ));
    }
    let rules =
        DrawRules::from_json(b).map_err(|e| fail(C::Malformed, format!("rules.json: {e}")))?;
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
    Ok(Some(rules))
}

/// Step 8 (auditor mode): the export's signature under a trusted producer key, the export is
/// the sealed one, and the figures, the leaves and the accounts behind the picks recompute.
fn recompute_entries(
    a: &Auditor,
    rules: Option<DrawRules>,
    bundle: &BundleFile,
    leaves: &[Leaf],
    result: Option<&ResultFile>,
    done: &mut Vec<String>,
) -> VResult<()> {
    let export = &a.export;
    let rules =
        rules.ok_or_else(|| fail(C::Malformed, "auditor mode needs rules.json in the folder"))?;
    let trusted = a
        .producer_keys
        .clone()
        .map_err(|message| fail(C::Malformed, message))?;
    let sig = std::fs::read(format!("{}.sig", export.display()))
        .map_err(|_| fail(C::BadSignature, "the export has no .sig beside it"))?;
    let f = std::fs::File::open(export)
        .map_err(|e| fail(C::Malformed, format!("{}: {e}", export.display())))?;
    let v = crate::entries::verify_export(
        std::io::BufReader::with_capacity(1 << 20, f),
        &sig,
        &trusted,
    )
    .map_err(|e| fail(C::BadSignature, format!("export: {e}")))?;
    done.push(format!("export signature by producer key {}", v.key_id));
    if crate::crypto::Hash32(v.sha256) != bundle.core.export.sha256
        || v.key_id != bundle.core.export.producer_key_id
    {
        return Err(fail(
            C::Inconsistent,
            "this export is not the one the draw was sealed from",
        ));
    }
    let t = crate::entries::tally_export(|| std::fs::File::open(export), &v, &rules)
        .map_err(|e| fail(C::Malformed, format!("export: {e}")))?;
    let list = list_of_tally(&t);
    if figures_of_tally(&t) != bundle.core.figures {
        return Err(fail(
            C::CommitmentMismatch,
            "the figures recomputed from the export differ from the sealed ones",
        ));
    }
    verify_against_entries(&list, leaves, bundle, result)?;
    done.push(
        "entries, pseudonyms and commitment recomputed from the export (auditor mode)".into(),
    );
    Ok(())
}
