//! `urne verify DIR` on a daily draw's folder (spec/formats.md §8.2): one function per numbered step, run
//! in the SPEC's order, each returning the class the SPEC gives; the first failure stops. The
//! step bodies that recompute (leaves, seed, selection, entries) are in [`super::draw`].

use super::draw::{
    recompute_seed, verify_against_entries, verify_fixed, verify_leaves,
    verify_result_against_bundle, verify_selection,
};
use super::folder::{Folder, limits, read_bounded};
use super::history::{self, Output};
use super::manifest_check::{check_manifest, subject};
use super::signed::{Keys, read_signed, read_signed_opt};
use super::{FailureClass as C, Report, VResult, fail, parse_named};
use crate::audit::chain::{self, Checkpoint};
use crate::crypto::{Hash32, sha256};
use crate::draw::Leaf;
use crate::draw::figures::{figures_of_tally, list_of_tally};
use crate::draw::files::{
    BUNDLE_FORMAT, BundleFile, DrawCore, LEAVES_FILE, RESULT_FORMAT, ResultFile,
};
use crate::manifest;
use crate::rules::draw::DrawRules;
use crate::values::KeyId;

/// Auditor mode (spec/formats.md §8.2 step 8): the signed export the draw was sealed from (its `.sig` beside
/// it, in `folder`) and the producer keys trusted for it (at least one: the CLI refuses auditor
/// mode without one, a usage error).
pub struct Auditor<'a> {
    /// The folder holding the export and its signature.
    pub folder: &'a dyn Folder,
    /// The export's name in it.
    pub name: String,
    /// The trusted producer keys.
    pub producer_keys: Vec<[u8; 32]>,
}

/// The signature-checked bytes of the folder's files (step 1).
struct Signed {
    bundle: Vec<u8>,
    leaves: Vec<u8>,
    result: Option<Vec<u8>>,
    rules: Option<Vec<u8>>,
    pv: Option<Vec<u8>>,
    note: Option<Vec<u8>>,
    manifest: Option<Vec<u8>>,
}

impl Signed {
    /// The bytes of the output file `name`, when present.
    fn bytes(&self, name: &str) -> Option<&[u8]> {
        match name {
            "bundle.json" => Some(&self.bundle),
            "leaves.bin" => Some(&self.leaves),
            "result.json" => self.result.as_deref(),
            "rules.json" => self.rules.as_deref(),
            "pv.html" => self.pv.as_deref(),
            "checkpoint.note" => self.note.as_deref(),
            _ => None,
        }
    }
}

/// Verifies the draw folder `f` under `keys` (spec/formats.md §8.2), in auditor mode with `auditor`, as the
/// day drawn recorded for `--expect-day` (spec/formats.md §8.1). Returns what was verified and the checks done, or the
/// first failure. Prints nothing.
///
/// ```
/// use urne_verify::verify::{draw_folder, folder::MemFolder};
/// # let keys = urne_verify::verify::signed::Keys { result: [0; 32], audit: [0; 32], source: String::new() };
/// // A folder without a bundle is not a draw folder's whole output.
/// let f = MemFolder::default();
/// let e = draw_folder::verify_draw_folder(&f, &keys, None).unwrap_err();
/// assert_eq!(e.class.name(), "malformed");
/// ```
pub fn verify_draw_folder(
    f: &dyn Folder,
    keys: &Keys,
    auditor: Option<&Auditor>,
) -> VResult<Report> {
    let mut r = Report::default();
    let signed = step1_signatures(f, keys, &mut r)?;
    let (bundle, leaves) = step2_bundle(&signed, &mut r)?;
    r.days.push(bundle.core.day.clone());
    let seed = step3_seed(
        &bundle.core,
        bundle.version,
        bundle.pkcs11.is_some(),
        "bundle.json",
    )?;
    step4_selection(&bundle, &leaves, &seed, &mut r)?;
    let name = f.show("bundle.json");
    let (_, output) = step5_checkpoint(&header(&bundle), &signed, keys, &name, &mut r)?;
    r.outputs.extend(output);
    let result = step6_result(signed.result.as_deref(), &bundle, &mut r)?;
    let rules = step7_rules(signed.rules.as_deref(), &bundle.core, &mut r)?;
    super::standing::of_draw("bundle.json", &bundle.core, bundle.version, &mut r)?;
    if let Some(a) = auditor {
        step8_auditor(a, rules, &bundle, &leaves, result.as_ref(), &mut r)?;
    }
    step9_manifest(f, &signed, &bundle.core, bundle.version, keys, &mut r)?;
    r.subjects.push(super::Verified {
        words: subject(&bundle.core, bundle.version),
        value: super::Value::Draw {
            bundle: Box::new(bundle),
            result: result.map(Box::new),
        },
    });
    Ok(r)
}

/// Step 1: every output file present is read within its limit (spec/formats.md §1.6) and its signature checked
/// before anything is parsed; `bundle.json` and `leaves.bin` must be there [malformed when
/// missing; bad-signature for a signature missing or failing].
fn step1_signatures(f: &dyn Folder, keys: &Keys, r: &mut Report) -> VResult<Signed> {
    let key = &keys.result;
    for required in ["bundle.json", LEAVES_FILE] {
        if f.entry(required) == super::folder::Entry::Missing {
            return Err(fail(
                C::Malformed,
                format!(
                    "{} is missing: a draw folder has bundle.json and leaves.bin",
                    f.show(required)
                ),
            ));
        }
    }
    let bundle = read_signed(f, "bundle.json", key)?;
    let leaves = read_signed(f, LEAVES_FILE, key)?;
    let mut opt = |name: &str| -> VResult<Option<Vec<u8>>> {
        let b = read_signed_opt(f, name, key)?;
        if b.is_some() {
            r.checks.push(format!("{name} signature"));
        }
        Ok(b)
    };
    let signed = Signed {
        result: opt("result.json")?,
        rules: opt("rules.json")?,
        pv: opt("pv.html")?,
        note: opt("checkpoint.note")?,
        // A version-1 draw has no manifest: its signature is not one of the output's, and one
        // present is malformed at step 9 whatever its signature (spec/formats.md §8.2) [M-317].
        manifest: if declares_version_1(&bundle) {
            read_bounded(f, manifest::DRAW_FILE, limits::of(manifest::DRAW_FILE))?
        } else {
            opt(manifest::DRAW_FILE)?
        },
        bundle,
        leaves,
    };
    r.checks
        .insert(0, "bundle.json and leaves.bin signatures".into());
    Ok(signed)
}

/// spec/formats.md §6.1: every time an output states is in urne's one time format [inconsistent]
/// [M-320].
pub(super) fn one_time_format(what: &str, ts: &str) -> VResult<()> {
    if super::trail::is_one_time_format(ts) {
        return Ok(());
    }
    Err(fail(
        C::Inconsistent,
        format!(
            "{what} {ts:?} is not a date-time in RFC 3339 UTC with microseconds (spec/formats.md §6.1)"
        ),
    ))
}

/// Whether the signed JSON `bytes` (a bundle or a result) says `"version": 1`: read before the
/// parse only to leave a version-1 folder's manifest unsigned-checked (it is malformed anyway).
pub(super) fn declares_version_1(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(bytes).is_ok_and(|v| v["version"] == 1)
}

/// Step 2: `bundle.json` parses as a bundle (spec/formats.md §1.5) (malformed); `leaves.bin` is the leaves file
/// it names (malformed, inconsistent), whole leaves in pseudonym order (malformed), giving the
/// commitment (commitment-mismatch) and the figures' entries and accounts (inconsistent).
fn step2_bundle(s: &Signed, r: &mut Report) -> VResult<(BundleFile, Vec<Leaf>)> {
    let bundle: BundleFile = parse_named("bundle.json", &s.bundle)?;
    if bundle.format != BUNDLE_FORMAT {
        return Err(fail(C::Malformed, "bundle.json is not an urne-draw-bundle"));
    }
    known_version("bundle.json", bundle.version)?;
    if bundle.leaves_file != LEAVES_FILE {
        return Err(fail(
            C::Malformed,
            "bundle.json names a leaves file other than leaves.bin",
        ));
    }
    let leaves = verify_leaves(&bundle, &s.leaves)?;
    r.checks.push(format!(
        "commitment recomputed from {} leaves ({} entries)",
        leaves.len(),
        bundle.core.commitment.entries
    ));
    Ok((bundle, leaves))
}

/// A version this verifier knows (spec/formats.md §7.2) (malformed).
fn known_version(name: &str, version: u32) -> VResult<()> {
    if (1..=2).contains(&version) {
        Ok(())
    } else {
        Err(fail(
            C::Malformed,
            format!("{name}: version {version} is not one this verifier knows (1, 2)"),
        ))
    }
}

/// Step 3: the core has its version's members and a version-2 contribution its grammar
/// (malformed); 48 bytes of entropy (inconsistent) with its commitment (draw-mismatch); the seed
/// recomputes (draw-mismatch). `pkcs11` is a member of version-2 files only (malformed).
fn step3_seed(core: &DrawCore, version: u32, has_pkcs11: bool, name: &str) -> VResult<Hash32> {
    if has_pkcs11 != (version == 2) {
        return Err(fail(
            C::Malformed,
            format!("{name}: pkcs11 is a member of version 2, and only of version 2"),
        ));
    }
    recompute_seed(core, version)
}

/// Step 4: the winner and reserves recompute from the seed and the leaves (draw-mismatch).
fn step4_selection(b: &BundleFile, leaves: &[Leaf], seed: &Hash32, r: &mut Report) -> VResult<()> {
    verify_selection(b, leaves, seed)?;
    r.checks.push(format!(
        "seed and selection recomputed: winner and {} reserves",
        b.reserves.len()
    ));
    Ok(())
}

/// What step 5 reads of a bundle.
fn header(b: &BundleFile) -> Header<'_> {
    Header {
        version: b.version,
        core: &b.core,
        audit_checkpoint: &b.audit_checkpoint,
        result_key_id: &b.result_key_id,
        audit_key_id: &b.audit_key_id,
        drawn_at: &b.drawn_at,
    }
}

/// What step 5 reads of a bundle or a lone result.
pub(super) struct Header<'a> {
    pub(super) version: u32,
    pub(super) core: &'a DrawCore,
    pub(super) audit_checkpoint: &'a str,
    pub(super) result_key_id: &'a str,
    pub(super) audit_key_id: &'a str,
    pub(super) drawn_at: &'a str,
}

/// Step 5: the audit checkpoint verifies under the audit key (bad-signature); the key ids are
/// the keys used and `checkpoint.note` is the checkpoint (inconsistent); the history leads to
/// the checkpoint (malformed, fork); in version 2 the order evidence holds (inconsistent).
fn step5_checkpoint(
    h: &Header<'_>,
    s: &Signed,
    keys: &Keys,
    name: &str,
    r: &mut Report,
) -> VResult<(Checkpoint, Option<Output>)> {
    checkpoint_and_history(h, &s.bundle, s.note.as_deref(), keys, name, r)
}

/// Step 5 on the file `bytes` whose header is `h` (a bundle, or a lone result).
pub(super) fn checkpoint_and_history(
    h: &Header<'_>,
    bytes: &[u8],
    note: Option<&[u8]>,
    keys: &Keys,
    name: &str,
    r: &mut Report,
) -> VResult<(Checkpoint, Option<Output>)> {
    let cp = chain::verify_note(h.audit_checkpoint, &keys.audit).map_err(|e| {
        fail(
            super::note_class(&e, C::BadSignature),
            format!("audit checkpoint: {e}"),
        )
    })?;
    r.checks.push("audit checkpoint signature".into());
    let (rid, aid) = (KeyId::of(&keys.result), KeyId::of(&keys.audit));
    if *h.result_key_id != rid {
        return Err(fail(
            C::Inconsistent,
            format!(
                "result_key_id is {}, the result key given is {rid}",
                h.result_key_id
            ),
        ));
    }
    if *h.audit_key_id != aid {
        return Err(fail(
            C::Inconsistent,
            format!(
                "audit_key_id is {}, the audit key given is {aid}",
                h.audit_key_id
            ),
        ));
    }
    if let Some(n) = note
        && n != h.audit_checkpoint.as_bytes()
    {
        return Err(fail(
            C::Inconsistent,
            "checkpoint.note is not the audit_checkpoint of the draw",
        ));
    }
    one_time_format("drawn_at", h.drawn_at)?;
    let subject = super::draw_publishes(h.core);
    r.published.push(super::Published {
        subject: subject.clone(),
        checkpoint: cp.clone(),
        name: name.to_string(),
    });
    let output = history::versioned_output(name, h.version, bytes, h.core.history.as_ref(), &cp)?
        .map(|o| Output {
            subject: Some(subject),
            ..o
        });
    if output.is_some() {
        r.checks.push(
            "history: its checkpoint extends its predecessor's (RFC 6962 consistency)".into(),
        );
    }
    super::draw::check_voided(h.core, cp.size)?;
    if h.version == 2 {
        verify_fixed(h.core, &cp)?;
        r.checks.push(
            "randomness order: the entropy commitment was recorded before the contribution, both in the checkpoint's trail".into(),
        );
    }
    Ok((cp, output))
}

/// Step 6: `result.json`, when present, is of the bundle's version (inconsistent), parses
/// (malformed) and tells the same draw (inconsistent).
fn step6_result(
    bytes: Option<&[u8]>,
    bundle: &BundleFile,
    r: &mut Report,
) -> VResult<Option<ResultFile>> {
    let Some(b) = bytes else {
        return Ok(None);
    };
    let res: ResultFile = parse_named("result.json", b)?;
    if res.format != RESULT_FORMAT {
        return Err(fail(C::Malformed, "result.json is not an urne-draw-result"));
    }
    if res.version != bundle.version {
        return Err(fail(
            C::Inconsistent,
            "result.json and bundle.json are of different versions (spec/formats.md §7.2)",
        ));
    }
    verify_result_against_bundle(&res, bundle)?;
    r.checks.push("result.json agrees with bundle.json".into());
    Ok(Some(res))
}

/// Step 7: `rules.json`, when present, is the rules file the draw was bound to (its SHA-256
/// compared before it is parsed) (inconsistent); it parses (malformed); the prize, reserves,
/// operation, period and tranche follow from it (D-10) (inconsistent).
pub(super) fn step7_rules(
    bytes: Option<&[u8]>,
    core: &DrawCore,
    r: &mut Report,
) -> VResult<Option<DrawRules>> {
    let Some(b) = bytes else {
        return Ok(None);
    };
    if sha256(b) != core.rules_sha256 {
        return Err(fail(
            C::Inconsistent,
            "rules.json is not the rules file the draw was bound to (rules_sha256)",
        ));
    }
    let rules =
        DrawRules::from_json(b).map_err(|e| fail(C::Malformed, format!("rules.json: {e}")))?;
    let day = core.day.parse::<crate::values::Day>().map_err(|_| {
        fail(
            C::Malformed,
            format!("day {:?} is not YYYY-MM-DD", core.day),
        )
    })?;
    let period = rules
        .period_for(day.date())
        .ok_or_else(|| fail(C::Inconsistent, "the day is in no period of the rules"))?;
    let differs = [
        (period.prize_cents != core.prize_cents, "prize_cents"),
        (
            rules.reserves_per_day() != core.reserves_wanted,
            "reserves_wanted",
        ),
        (rules.operation() != core.operation, "operation"),
        (period.id != core.figures.period, "figures.period"),
        (
            period.tranche_cents != core.figures.tranche_cents,
            "figures.tranche_cents",
        ),
    ];
    if let Some((_, what)) = differs.iter().find(|(d, _)| *d) {
        return Err(fail(
            C::Inconsistent,
            format!("{what} does not follow from the rules file (D-10, D-3)"),
        ));
    }
    r.checks
        .push("prize, reserves, operation, period and tranche follow from the rules (D-10)".into());
    Ok(Some(rules))
}

/// Step 8 (auditor mode): the export's signature under a trusted producer key (bad-signature);
/// its SHA-256, size and key id are the sealed ones, compared before it is parsed
/// (inconsistent); it is valid (malformed); the figures and leaves recompute from it
/// (commitment-mismatch); the accounts behind the picks are the ones named (draw-mismatch).
fn step8_auditor(
    auditor: &Auditor,
    rules: Option<DrawRules>,
    bundle: &BundleFile,
    leaves: &[Leaf],
    result: Option<&ResultFile>,
    report: &mut Report,
) -> VResult<()> {
    let rules =
        rules.ok_or_else(|| fail(C::Usage, "auditor mode needs rules.json in the draw folder"))?;
    let export = signed_export(auditor)?;
    report.checks.push(format!(
        "export signature by producer key {}",
        export.key_id
    ));
    let sealed = &bundle.core.export;
    if Hash32(export.sha256) != sealed.sha256
        || export.size != sealed.size
        || export.key_id != sealed.producer_key_id
    {
        return Err(fail(
            C::Inconsistent,
            format!(
                "this export ({} bytes, SHA-256 {}, producer {}) is not the one the draw was sealed from ({} bytes, SHA-256 {}, producer {})",
                export.size,
                Hash32(export.sha256),
                export.key_id,
                sealed.size,
                sealed.sha256,
                sealed.producer_key_id
            ),
        ));
    }
    let tally =
        crate::entries::tally_export(|| auditor.folder.open(&auditor.name), &export, &rules)
            .map_err(|e| fail(C::Malformed, format!("export: {e}")))?;
    export_dated(&tally, &rules, &bundle.drawn_at)?;
    if figures_of_tally(&tally) != bundle.core.figures {
        return Err(fail(
            C::CommitmentMismatch,
            "the figures recomputed from the export differ from the sealed ones",
        ));
    }
    verify_against_entries(&list_of_tally(&tally), leaves, bundle, result)?;
    report.checks.push(
        "figures, entries, pseudonyms and commitment recomputed from the export (auditor mode)"
            .into(),
    );
    Ok(())
}

/// spec/formats.md §8.2 step 8 [M-321]: the export's `generated_at` and `status_as_of` are each at or
/// after the end of its day (the midnight that ends it in the rules' time zone, D-1: Europe/Paris)
/// and at or before `drawn_at`, in whole seconds (inconsistent): the appliance seals no other
/// (appliance.md §4.3).
fn export_dated(
    tally: &crate::entries::DayTally,
    rules: &DrawRules,
    drawn_at: &str,
) -> VResult<()> {
    let parse = crate::entries::rfc3339::parse_unix;
    let end = rules.day_bounds(tally.day).map(|(_, end)| end);
    let (Some(end), Some(drawn)) = (end, parse(drawn_at)) else {
        return Err(fail(
            C::Inconsistent,
            "the export's day or drawn_at has no instant",
        ));
    };
    for (name, value) in [
        ("generated_at", &tally.generated_at),
        ("status_as_of", &tally.status_as_of),
    ] {
        let t = parse(value).unwrap_or(i64::MIN);
        if t < end || t > drawn {
            return Err(fail(
                C::Inconsistent,
                format!(
                    "the export's {name} {value} is not between the end of its day {} and drawn_at {drawn_at}",
                    tally.day
                ),
            ));
        }
    }
    Ok(())
}

/// The export of auditor mode, read within its limit, its signature checked under a trusted
/// producer key (bad-signature; malformed when over its limit or not a regular file).
fn signed_export(a: &Auditor) -> VResult<crate::entries::VerifiedExport> {
    let show = a.folder.show(&a.name);
    match a.folder.entry(&a.name) {
        super::folder::Entry::File(size) if size <= limits::EXPORT => {}
        super::folder::Entry::Missing => {
            return Err(fail(C::Usage, format!("the export {show} does not exist")));
        }
        _ => {
            read_bounded(a.folder, &a.name, limits::EXPORT)?;
        }
    }
    let sig_name = format!("{}.sig", a.name);
    let sig = read_bounded(a.folder, &sig_name, limits::SIG)
        .map_err(|f| match f.class {
            // Another size is bad-signature (spec/formats.md §1.4); not a regular file, malformed (spec/formats.md §1.6).
            C::Malformed if !super::signed::is_file(a.folder, &sig_name) => f,
            _ => fail(C::BadSignature, f.what),
        })?
        .ok_or_else(|| {
            fail(
                C::BadSignature,
                format!("the export {show} has no .sig beside it"),
            )
        })?;
    let reader = a
        .folder
        .open(&a.name)
        .map_err(|e| fail(C::Unreadable, format!("{show}: {e}")))?;
    crate::entries::verify_export(
        std::io::BufReader::with_capacity(1 << 20, reader),
        &sig,
        &a.producer_keys,
    )
    .map_err(|e| fail(export_class(&e.kind), format!("export: {e}")))
}

/// The class of a refusal of the export's signature check: a read that fails is unreadable; an
/// export that is not a regular file or grew past its limit while read (its metadata said
/// otherwise) is malformed (spec/formats.md §1.6); any other refusal is bad-signature.
pub(super) fn export_class(kind: &crate::entries::ExportErrorKind) -> C {
    use crate::entries::ExportErrorKind as K;
    match kind {
        K::Io(_) => C::Unreadable,
        K::TooLarge | K::NotAFile => C::Malformed,
        _ => C::BadSignature,
    }
}

/// Step 9: the manifest (version 2) is present (malformed), parses (malformed), names this draw
/// and the result key (inconsistent), lists exactly a draw's files (inconsistent), and every
/// listed file present has the listed size and SHA-256 (inconsistent); a listed public file
/// absent makes the verification partial. A version-1 folder has no manifest (malformed).
fn step9_manifest(
    f: &dyn Folder,
    s: &Signed,
    core: &DrawCore,
    version: u32,
    keys: &Keys,
    r: &mut Report,
) -> VResult<()> {
    let name = manifest::DRAW_FILE;
    let Some(bytes) = s.manifest.as_deref() else {
        if version == 2 {
            return Err(fail(
                C::Malformed,
                format!(
                    "{} is missing: a version-2 draw folder has one (spec/formats.md §4.7)",
                    f.show(name)
                ),
            ));
        }
        return Ok(());
    };
    check_manifest(
        name,
        bytes,
        (core, version),
        keys,
        |n| s.bytes(n).map(|b| (b.len() as u64, sha256(b))),
        r,
    )?;
    // Files the manifest does not list are not this draw's: ignored, and said so.
    let listed = |n: &str| n == name || manifest::DRAW_FILES.iter().any(|(l, _)| *l == n);
    let other = |n: &str| {
        matches!(n.rsplit('.').next(), Some("sig" | "pem"))
            || n.starts_with(super::folder::STAGING_PREFIX)
            || n == crate::void_notice::FILE_NAME
    };
    for n in f.names().map_err(|e| fail(C::Unreadable, e.0))? {
        if !listed(&n) && !other(&n) {
            r.notes.push(format!(
                "{} is not a file of this draw (its manifest does not list it): not checked",
                f.show(&n)
            ));
        }
    }
    Ok(())
}
