//! The outputs of a draw (spec/formats.md §4.7): the result, the bundle (checked with the third-party
//! verifier before anything is signed), the minutes, and their publication.

use super::parts::{Committed, Drawn, Outputs, Randomness, Sealed};
use crate::cmd::ctx::Ctx;
use crate::cmd::inputs;
use crate::cmd::placing;
use crate::edge::fsio;
use crate::edge::hsm::KeyRole;
use crate::edge::publish;
use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::cmd as mc;
use crate::text::{Screen, count, eur, number};
use std::collections::BTreeMap;
use std::path::Path;
use urne_ceremony::minutes::pv;
use urne_verify::audit::Event;
use urne_verify::audit::history::{OutputPlacing, OutputPublished};
use urne_verify::crypto::{Hash32, keys, sha256};
use urne_verify::draw::files::{
    self, BundleFile, DrawCore, Placed, PublicPlaced, RefusedEntropy, ResultFile,
};
use urne_verify::draw::records::{PublishedRecord, ResultRecord};
use urne_verify::draw::{self, SealedSet};
use urne_verify::manifest::{self, Audience, Listed, Manifest};
use urne_verify::randomness::fixed::Fixed;
use urne_verify::rules::official;

/// Outputs: `result.json`, `bundle.json` (checked with the third-party verifier before anything
/// is signed), the minutes `pv.html`, the sealed rules and the checkpoint, and `leaves.bin` with
/// the signature the seal made.
pub(super) fn outputs(
    ctx: &mut Ctx,
    s: &Sealed,
    k: &Committed,
    leaves: &LeavesFile,
    (e, d): (&Randomness, &Drawn),
    // The minutes read the D-8 judgement and every interruption from the trail and the rules.
    _anomalies: &[String],
) -> Result<Outputs> {
    let checkpoint = ctx.checkpoint()?;
    let history = ctx.history()?;
    let (fixed, refused, events) = evidence(ctx, s, e)?;
    let software = ctx.software()?;
    let pkcs11 = ctx.pkcs11_identity()?;
    let hsm = ctx.hsm()?;
    let result_key = hsm.public_key(KeyRole::Result)?;
    let audit_key = hsm.public_key(KeyRole::Audit)?;
    let core = draw_core(s, e, d, (fixed, refused, history));
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
        pkcs11: Some(pkcs11.clone()),
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
        pkcs11: Some(pkcs11),
    };
    self_check(&bundle, &result, k)?;
    let mut files = folder_files(s, &k.set, &result, &bundle, (&events, checkpoint))?;
    // The manifest last (spec/formats.md §4.7): it lists every other file, and appears after them.
    let manifest = draw_manifest(&bundle, &files, leaves);
    files.push((manifest::DRAW_FILE, files::to_bytes(&manifest)));
    Ok(Outputs {
        checkpoint: result.audit_checkpoint.clone(),
        files,
        placed,
    })
}

/// The draw core (spec/formats.md §4.7), version 2.
fn draw_core(
    s: &Sealed,
    e: &Randomness,
    d: &Drawn,
    (fixed, refused, history): (
        Fixed,
        Vec<RefusedEntropy>,
        urne_verify::audit::history::History,
    ),
) -> DrawCore {
    DrawCore {
        operation: s.seal.operation.clone(),
        day: s.day.to_string(),
        attempt: s.st.attempt.get(),
        voided_attempts: s.st.voided.clone(),
        rules_sha256: s.seal.rules_sha256,
        unofficial_rules: official::standing(&s.seal.operation, &s.seal.rules_sha256).mark(),
        export: s.seal.export.clone(),
        figures: s.seal.figures.clone(),
        commitment: s.seal.commitment.clone(),
        entropy_commitment: Some(e.record.entropy_commitment),
        witness: None,
        contribution: Some(e.contribution.clone()),
        entropy: hex::encode(&e.entropy),
        seed: d.seed,
        prize_cents: s.period.prize_cents,
        reserves_wanted: s.rules.reserves_per_day(),
        entropy_refused: Some(refused),
        fixed: Some(fixed),
        history: Some(history),
    }
}

/// The randomness evidence, and the trail the minutes are read from.
fn evidence(
    ctx: &mut Ctx,
    s: &Sealed,
    e: &Randomness,
) -> Result<(Fixed, Vec<RefusedEntropy>, crate::edge::store::Events)> {
    let events = ctx.audit()?.events()?;
    let (fixed, refused) = crate::cmd::randomness::evidence(
        &events,
        (&format!("day {}", s.day), s.st.attempt),
        (e.entropy_seq, e.contribution_seq),
    )?;
    Ok((fixed, refused, events))
}

/// The winner, then the reserves in rank order, as production needs them (with accounts).
#[expect(
    clippy::cast_possible_truncation,
    reason = "a leaf is an index into the set held in memory; a rank counts the winner and a few reserves"
)]
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
fn self_check(bundle: &BundleFile, result: &ResultFile, k: &Committed) -> Result<()> {
    use urne_verify::verify::draw::{
        recompute_seed, verify_result_against_bundle, verify_selection_in,
    };
    recompute_seed(&bundle.core, bundle.version)
        .and_then(|seed| verify_selection_in(bundle, &k.set.leaves, &k.ranges, &seed))
        .and_then(|()| verify_result_against_bundle(result, bundle))
        .map_err(|f| {
            Error::new(
                Kind::SelfCheckFailed,
                crate::msg!(mc::ERR_DRAW_SELF_CHECK, what = f.what),
                crate::msg!(mc::REC_DRAW_SELF_CHECK),
            )
        })
}

/// The signed files of the folder, in the order they appear (after every signature): the sealed
/// rules, the checkpoint, the minutes (read from the trail, with the hashes of the folder's
/// other files), the result, and the public bundle last.
fn folder_files(
    s: &Sealed,
    set: &SealedSet,
    result: &ResultFile,
    bundle: &BundleFile,
    (events, checkpoint): (&[Event], String),
) -> Result<Vec<(&'static str, Vec<u8>)>> {
    let result_bytes = files::to_bytes(result);
    let bundle_bytes = files::to_bytes(bundle);
    let lone = pv::LoneDraw {
        rules: &s.rules,
        set: (s.seal.set_sha256, set),
        entropy: &result.core.entropy,
        files: BTreeMap::from([
            ("bundle.json".to_string(), sha256(&bundle_bytes)),
            ("checkpoint.note".to_string(), sha256(checkpoint.as_bytes())),
            (files::LEAVES_FILE.to_string(), s.seal.leaves_sha256),
            ("result.json".to_string(), sha256(&result_bytes)),
            ("rules.json".to_string(), s.seal.rules_sha256),
        ]),
        checkpoint: &checkpoint,
    };
    let minutes = pv::render(events, s.day, s.st.attempt, &lone).map_err(|err| {
        Error::new(
            Kind::RecordUnreadable,
            crate::msg!(mc::ERR_DRAW_MINUTES, e = err),
            crate::msg!(mc::REC_DRAW_INVESTIGATE),
        )
    })?;
    Ok(vec![
        ("rules.json", s.rules_bytes.clone()),
        ("checkpoint.note", checkpoint.into_bytes()),
        ("pv.html", minutes.into_bytes()),
        ("result.json", result_bytes),
        ("bundle.json", bundle_bytes),
    ])
}

/// The draw's manifest (spec/formats.md §4.7): every file of the folder with its size, SHA-256 and
/// audience.
fn draw_manifest(
    bundle: &BundleFile,
    files: &[(&'static str, Vec<u8>)],
    leaves: &LeavesFile,
) -> Manifest {
    let mut listed: Vec<Listed> = files
        .iter()
        .map(|(name, bytes)| Listed::of(name, bytes, audience(name)))
        .collect();
    // Its SHA-256, computed once when it was made from the sealed set (`leaves_file`).
    listed.push(Listed {
        name: files::LEAVES_FILE.to_string(),
        size: leaves.bytes.len() as u64,
        sha256: leaves.sha256,
        audience: Audience::Public,
    });
    let c = &bundle.core;
    Manifest::new(
        &c.operation,
        (Some(&c.day), None),
        c.attempt,
        listed,
        &bundle.result_key_id,
    )
}

/// Who a file of a draw folder is for (spec/formats.md §4.7).
fn audience(name: &str) -> Audience {
    manifest::DRAW_FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(Audience::Public, |(_, a)| *a)
}

/// `leaves.bin` as the draw folder holds it: its bytes, their SHA-256 and the seal's signature.
pub(super) struct LeavesFile {
    bytes: Vec<u8>,
    sha256: Hash32,
    sig: Vec<u8>,
}

/// `leaves.bin`, cut from the sealed set (checked against its hash above): it must be the very
/// bytes the seal signed; the seal's event (in the hash chain) holds that signature.
pub(super) fn leaves_file(s: &Sealed, set: &SealedSet) -> Result<LeavesFile> {
    let leaves_bytes = draw::encode_leaves(&set.leaves);
    let sha256 = urne_verify::crypto::sha256(&leaves_bytes);
    if sha256 != s.seal.leaves_sha256 {
        return Err(Error::new(
            Kind::SelfCheckFailed,
            crate::msg!(mc::ERR_DRAW_LEAVES),
            crate::msg!(mc::REC_DRAW_INVESTIGATE),
        ));
    }
    let leaves_sig = hex::decode(&s.seal.leaves_sig)
        .map_err(|_| inputs::altered(&crate::msg!(mc::ERR_DRAW_LEAVES_SIG)))?;
    Ok(LeavesFile {
        bytes: leaves_bytes,
        sha256,
        sig: leaves_sig,
    })
}

/// Publish: the output's place and files recorded first (`output.placing`, spec/appliance.md §6.7), then
/// every file staged inside the folder and moved into place, the signatures first and the
/// manifest last (`publish::write_signed`: a kill leaves no signed file without its signature
/// and no manifest before the files it lists, and a kill while staging leaves only a staging
/// folder, which the re-run removes); then recorded, and a checkpoint signed. A whole output a
/// stopped run placed (`Placement::Adopt`) is recorded as it is. Returns each file's SHA-256.
pub(super) fn publish(
    ctx: &mut Ctx,
    s: &Sealed,
    (out_dir, place): (&Path, Placement),
    out: &Outputs,
) -> Result<BTreeMap<String, Hash32>> {
    let (written, output) = match place {
        Placement::Adopt(p) => adopt(ctx, s, &p)?,
        Placement::New(early) => place_new(ctx, s, (out_dir, early), out)?,
    };
    // Marked when the command ends (`Ctx::finish`), or with the next event of a sitting.
    ctx.record_evidence_as(
        PublishedRecord {
            day: s.day,
            attempt: s.st.attempt,
            out: out_dir.display().to_string(),
            files: written.clone(),
            output: Some(output),
        },
        crate::edge::store::Vouch::Later,
    )?;
    Ok(written)
}

/// Where a draw's output goes: adopted whole from a stopped run, or placed new from what this
/// run staged (spec/appliance.md §6.7).
pub(super) enum Placement {
    Adopt(OutputPlacing),
    New(Early),
}

/// `leaves.bin` and its signature (made at the seal), with the two public keys, staged in the
/// output folder and made durable before the commissaire's contribution is asked for: they
/// depend on the seal alone, and the wait for the contribution covers their write (24 MB for
/// 5,000,000 plays). Nothing is moved into place here: the output's placing is recorded first
/// ([`place_new`], spec/appliance.md §6.7), and a staging folder a kill leaves is a leftover the
/// next run removes (§4.7). Dropped unplaced (the draw stopped), the staged files are removed
/// (the staging folder's own drop), then the output folder if this run made it and it is still
/// empty (the fields drop in this order).
pub(super) struct Early {
    staged: publish::Staged,
    _folder: MadeFolder,
}

/// The output folder, removed when dropped if this run made it and it is empty then.
struct MadeFolder {
    out_dir: std::path::PathBuf,
    made: bool,
}

impl Drop for MadeFolder {
    fn drop(&mut self) {
        if self.made
            && let Ok((parent, name)) = fsio::split(&self.out_dir)
            && let Ok(Some(parent)) = fsio::existing_folder(&parent)
        {
            // Fails, leaving it, unless it is an empty folder (a placed output is not).
            let _ = parent.rmdir(&name);
        }
    }
}

/// Stages `leaves.bin` in `out_dir` before the contribution (see [`Early`]).
pub(super) fn stage_early(ctx: &mut Ctx, out_dir: &Path, leaves: &LeavesFile) -> Result<Early> {
    fsio::check_empty_or_absent(out_dir)?;
    let folder = MadeFolder {
        out_dir: out_dir.to_path_buf(),
        made: fsio::existing_folder(out_dir)?.is_none(),
    };
    let hsm = ctx.hsm()?;
    let keys = (
        hsm.public_key(KeyRole::Result)?,
        hsm.public_key(KeyRole::Audit)?,
    );
    let presigned = publish::Presigned {
        name: files::LEAVES_FILE,
        bytes: &leaves.bytes,
        sig: &leaves.sig,
    };
    let mut staged = publish::stage_signed(
        hsm,
        out_dir,
        &[],
        &[presigned],
        Some((&keys.0, &keys.1)),
        false,
    )?;
    staged.make_durable()?;
    Ok(Early {
        staged,
        _folder: folder,
    })
}

/// The output just made, recorded as being placed in `out_dir`, then placed: its signed files
/// staged beside `leaves.bin` (staged before the contribution), then every file moved into place.
pub(super) fn place_new(
    ctx: &mut Ctx,
    s: &Sealed,
    (out_dir, early): (&Path, Early),
    out: &Outputs,
) -> Result<(BTreeMap<String, Hash32>, OutputPublished)> {
    fsio::check_empty_or_absent(out_dir)?;
    let mut files: BTreeMap<String, Hash32> = out
        .files
        .iter()
        .map(|(name, bytes)| (name.to_string(), sha256(bytes)))
        .collect();
    files.insert(files::LEAVES_FILE.to_string(), s.seal.leaves_sha256);
    let Early {
        mut staged,
        _folder,
    } = early;
    // Staged before the contribution: the folder at `out_dir` must still be that one, or the
    // output would go where the trail does not say (a folder swapped while the commissaire typed).
    staged.check_still_at(out_dir)?;
    placing::record(ctx, out_dir, s.subject(), files::BUNDLE_FILE_NAME, &files)?;
    let hsm = ctx.hsm()?;
    staged.stage_signed(hsm, &out.files)?;
    let mut written = staged.publish()?;
    written.insert(files::LEAVES_FILE.to_string(), s.seal.leaves_sha256);
    let sha = written[files::BUNDLE_FILE_NAME];
    let output = ctx.output_record(files::BUNDLE_FILE_NAME, sha, &out.checkpoint)?;
    Ok((written, output))
}

/// The whole output a stopped run of this attempt placed: its bundle signed under the result
/// key, of this very day and attempt, every file as recorded before it was placed.
fn adopt(
    ctx: &mut Ctx,
    s: &Sealed,
    p: &OutputPlacing,
) -> Result<(BTreeMap<String, Hash32>, OutputPublished)> {
    let bytes = placing::primary(ctx, p)?;
    let bundle: BundleFile = serde_json::from_slice(&bytes).map_err(|e| {
        Error::new(
            Kind::RecordUnreadable,
            crate::msg!(mc::ERR_DRAW_PLACED_BUNDLE, e = e),
            crate::msg!(mc::REC_DRAW_PLACED_BUNDLE),
        )
    })?;
    if bundle.core.day != s.day || bundle.core.attempt != s.st.attempt {
        return Err(Error::new(
            Kind::RecordUnreadable,
            crate::msg!(mc::ERR_DRAW_PLACED_OTHER),
            crate::msg!(mc::REC_DRAW_PLACED_OTHER),
        ));
    }
    let output = ctx.output_record(
        files::BUNDLE_FILE_NAME,
        sha256(&bytes),
        &bundle.audit_checkpoint,
    )?;
    note!(
        "{}",
        crate::msg!(
            crate::msg::catalogue::SCR_RESUME_DRAW_PLACED,
            day = s.day,
            attempt = s.st.attempt,
            path = p.out
        )
    );
    Ok((p.files.clone(), output))
}

/// The sealed rules and the commitment, under the minutes' labels.
pub(super) fn sealed_lines(sc: &mut Screen, s: &Sealed) {
    let lang = sc.lang;
    sc.hash(
        lang.t(
            "Règlement de l'opération (SHA-256)",
            "Operation rules (SHA-256)",
        ),
        &s.seal.rules_sha256.to_string(),
    );
    let standing =
        match urne_verify::rules::official::standing(&s.seal.operation, &s.seal.rules_sha256) {
            urne_verify::rules::official::Standing::Official => {
                lang.t("le fichier officiel", "the official file")
            }
            _ => lang.t(
                "pas le fichier officiel d'une opération réglementée",
                "not the official file of a regulated operation",
            ),
        };
    sc.indented(6, &format!("({standing})"));
    let seq = s.st.seal.as_ref().map_or(0, |(seq, _)| *seq);
    sc.hash(
        &crate::text::commitment_label(seq, lang),
        &s.seal.commitment.root.to_string(),
    );
}

/// What the ceremony sees once the folder is published: in the words of the minutes, each
/// value once (what this run showed before the contribution is not printed again), hashes in
/// groups of four, the winner and reserves by pseudonym (their accounts are in `result.json`,
/// for production: the minutes and the public files name pseudonyms only).
pub(super) fn draw_screen(
    (s, k, e, d): (&Sealed, &Committed, &Randomness, &Drawn),
    out: &Outputs,
    out_dir: &Path,
    written: &BTreeMap<String, Hash32>,
) -> Screen {
    let lang = crate::text::lang();
    let mut sc = Screen::new(lang);
    sc.line(&format!(
        "{} {}, {} {} ({} {})",
        lang.t("TIRÉ :", "DRAWN:"),
        s.seal.operation,
        lang.t("jour du", "day"),
        s.day,
        lang.t("tentative", "attempt"),
        number(s.st.attempt, lang)
    ));
    sc.field(
        lang.t("Participations", "Entries"),
        &format!(
            "{} ({} {})",
            count(k.c.entries, lang),
            count(k.c.leaves, lang),
            lang.t("comptes participants", "accounts taking part")
        ),
    );
    // The winner first, by hand: the one value of the draw the commissaire writes as it is
    // drawn (spec/appliance.md §9.4); the rest is checked on the printed minutes.
    sc.by_hand("");
    winner(&mut sc, s, &out.placed);
    sc.to_check("");
    let event = |seq: u64| {
        format!(
            "{} {}",
            lang.t("événement d'audit", "audit event"),
            number(seq, lang)
        )
    };
    if e.shown {
        sc.indented(
            2,
            lang.t(
                "Règlement et engagement : ci-dessus, avant la contribution ; engagement sur l'aléa du HSM : écrit à la main ci-dessus.",
                "Rules and commitment: above, before the contribution; commitment to the HSM's entropy: written by hand above.",
            ),
        );
    } else {
        sealed_lines(&mut sc, s);
        sc.hash(
            &format!(
                "{} ({})",
                lang.t(
                    "Engagement sur l'aléa du HSM, fixé avant la contribution",
                    "Commitment to the HSM's entropy, fixed before the contribution"
                ),
                event(e.entropy_seq)
            ),
            &e.record.entropy_commitment.to_string(),
        );
    }
    sc.indented(
        2,
        &format!(
            "{} ({})",
            lang.t(
                "Contribution du commissaire de justice, saisie ensuite — écrite à la main",
                "Contribution of the commissaire de justice, typed next — written by hand"
            ),
            event(e.contribution_seq)
        ),
    );
    sc.indented(6, &format!("«\u{a0}{}\u{a0}»", e.contribution));
    sc.hash(
        lang.t("Aléa du module matériel (HSM)", "The HSM's entropy"),
        &hex::encode(&e.entropy),
    );
    sc.hash(lang.t("Graine du tirage", "Draw seed"), &d.seed.to_string());
    picks(&mut sc, &out.placed);
    published(&mut sc, (s, e), out_dir, written);
    sc
}

/// The winner's label: the prize and the clause that awards it.
fn winner_label(s: &Sealed, lang: crate::text::Lang) -> String {
    format!(
        "{} ({} {}, D-10) — {}",
        lang.t("Gagnant", "Winner"),
        lang.t("lot de", "prize of"),
        eur(s.period.prize_cents, lang),
        lang.t("pseudonyme", "pseudonym")
    )
}

/// The winner by pseudonym, written by hand as drawn.
fn winner(sc: &mut Screen, s: &Sealed, placed: &[files::Placed]) {
    if let Some(p) = placed.iter().find(|p| p.rank == 0) {
        sc.hash(&winner_label(s, sc.lang), &p.pseudonym.to_string());
    }
}

/// The reserves by pseudonym (the winner's is written by hand above), and where production
/// finds their accounts.
fn picks(sc: &mut Screen, placed: &[files::Placed]) {
    let lang = sc.lang;
    for p in placed.iter().filter(|p| p.rank > 0) {
        let label = format!(
            "{}\u{a0}{} — {}",
            lang.t("Suppléant n°", "Reserve no."),
            p.rank,
            lang.t("pseudonyme", "pseudonym")
        );
        sc.hash(&label, &p.pseudonym.to_string());
    }
    sc.indented(
        2,
        lang.t(
            "Pour la production : les comptes du gagnant et des suppléants sont dans result.json (non public) ; ni l'écran ni les minutes ne les montrent.",
            "For production: the accounts of the winner and the reserves are in result.json (not public); neither the screen nor the minutes show them.",
        ),
    );
}

/// The published files, each with its SHA-256 (the rules named when shown before).
fn published(
    sc: &mut Screen,
    (s, e): (&Sealed, &Randomness),
    out_dir: &Path,
    written: &BTreeMap<String, Hash32>,
) {
    let lang = sc.lang;
    sc.heading(&format!(
        "{} {} (SHA-256) :",
        lang.t("Fichiers publiés dans", "Files published in"),
        out_dir.display()
    ));
    let rules_label = lang.t(
        "Règlement de l'opération (SHA-256)",
        "Operation rules (SHA-256)",
    );
    for (name, h) in written {
        if e.shown && *h == s.seal.rules_sha256 {
            // Shown before the contribution, on its own page: named, not printed again.
            let same = lang.t("le même que", "the same as");
            let above = lang.t("ci-dessus", "above");
            sc.indented(2, &format!("{name} : {same} « {rules_label} » {above}"));
        } else {
            sc.hash(name, &h.to_string());
        }
    }
}

/// Prints [`draw_screen`].
pub(super) fn print_draw(
    parts: (&Sealed, &Committed, &Randomness, &Drawn),
    out: &Outputs,
    out_dir: &Path,
    written: &BTreeMap<String, Hash32>,
) {
    draw_screen(parts, out, out_dir, written).print();
}
