//! `urne keys init` and `urne keys export`.

use super::ctx::Ctx;
use crate::cli::KeysCommand;
use crate::edge::binding::{self, TokenTrail};
use crate::edge::fsio;
use crate::edge::hsm::{Hsm, KeyInfo, KeyRole};
use crate::edge::store::{AuditLog, Binding};
use crate::error::{Error, Exit, Result};
use std::path::Path;
use urne_core::audit::payloads::{
    ExportedKey, ExportedKeys, KeyRecord, KeysExported, KeysGenerated, SoftwareStart, TrailCreated,
};
use urne_core::audit::token::{self, TrailObject};
use urne_core::crypto::{Hash32, keys};

/// `urne keys init | export`.
pub fn run(ctx: &mut Ctx, c: KeysCommand) -> Result<()> {
    match c {
        KeysCommand::Init => init(ctx),
        KeysCommand::Export { out } => export(ctx, &out),
    }
}

/// `urne keys init` (SPEC.md §6.6): the one command that creates a trail. After login: the
/// keys are generated (or, when an earlier run was interrupted, found), the trail's identity is
/// written into the token as a non-modifiable, non-destroyable object, the trail's first events
/// (`trail.created`, `software.start`, `keys.generated`, each with its checkpoint) are written
/// into a new database under a temporary name, which is then linked into place (never over an
/// existing file) and marked in the token. Interrupted anywhere, running it again finishes it; a
/// token whose trail has a mark is initialised, and is refused.
fn init(ctx: &mut Ctx) -> Result<()> {
    let sw = ctx.software()?;
    let db = ctx.global.db.clone();
    let command = ctx.command_name.clone();
    let hsm = ctx.hsm()?;
    let existing = refuse_if_initialised(hsm, &db)?;
    let generated = keys_for_init(hsm, existing.is_some())?;
    let audit_key = hsm.public_key(KeyRole::Audit)?;
    let object = match existing {
        Some(tt) => tt.object,
        None => new_trail_object(hsm, &audit_key)?,
    };
    remove_leftovers(&db);
    let mut log = AuditLog::create(&temporary_name(&db))?;
    log.bind(Binding {
        trail: object.trail,
        audit_key,
        marking: false,
    });
    log.record(
        hsm,
        TrailCreated {
            trail: object.trail,
            audit_key_id: object.audit_key_id.clone(),
            audit_public_key: Hash32(audit_key),
        },
    )?;
    log.record(
        hsm,
        SoftwareStart {
            command,
            software: sw,
        },
    )?;
    log.record(
        hsm,
        KeysGenerated {
            token: hsm.identity()?,
            keys: generated.iter().map(key_record).collect(),
        },
    )?;
    let log = log.place(&db)?;
    log.mark_head(hsm)?;
    let note = log.latest_note()?;
    let events = log.events()?.len();
    ctx.install(log);
    print_keys(&generated);
    println!(
        "audit trail: {} (trail {}, {events} events, bound to this token)",
        db.display(),
        object.trail
    );
    println!("checkpoint signed:\n{note}");
    Ok(())
}

/// A token whose trail has a mark (or whose database is in place) is initialised; a file at the
/// database's path is never replaced. Returns the token's trail of an interrupted
/// initialisation, if any.
fn refuse_if_initialised(hsm: &Hsm, db: &Path) -> Result<Option<TokenTrail>> {
    let existing = binding::read(hsm)?;
    if let Some(tt) = &existing
        && (tt.last_mark()?.is_some() || db.exists())
    {
        return Err(Error::refused(
            format!("this token is already initialised: its {}", tt.describe()),
            "urne never replaces keys or a trail: use `urne keys export` for the public keys; a lost database is recovered as docs/ceremony.md says",
        ));
    }
    if db.exists() {
        return Err(Error::refused(
            format!("a file already exists at {}", db.display()),
            "urne never replaces an audit trail: give another --db, or move that file away if it is not an appliance's trail",
        ));
    }
    Ok(existing)
}

/// The keys: generated, or (`resuming` an interrupted initialisation) found in the token; each
/// must be proven bound to the token by its attributes.
fn keys_for_init(hsm: &Hsm, resuming: bool) -> Result<Vec<KeyInfo>> {
    let generated = if resuming {
        KeyRole::ALL
            .iter()
            .map(|r| hsm.key_info(*r))
            .collect::<Result<Vec<_>>>()?
    } else {
        hsm.generate_keys()?
    };
    for k in &generated {
        if !k.is_hardware_bound() {
            return Err(Error::new(
                Exit::Hsm,
                format!(
                    "the {} key's attributes do not prove it is bound to the token (CKA_LOCAL={}, CKA_NEVER_EXTRACTABLE={}, CKA_ALWAYS_SENSITIVE={})",
                    k.role.name(),
                    k.local,
                    k.never_extractable,
                    k.always_sensitive
                ),
                "do not use this token for ceremonies; use an HSM that generates non-extractable keys",
            ));
        }
    }
    Ok(generated)
}

/// A new trail's identity (SPEC.md §6.6), written into the token.
fn new_trail_object(hsm: &Hsm, audit_key: &[u8; 32]) -> Result<TrailObject> {
    let created = crate::edge::clock::now_rfc3339();
    let nonce = hsm.random(32)?;
    let object = TrailObject {
        trail: token::trail_id(audit_key, &nonce, &created),
        audit_key_id: keys::key_id(audit_key),
        created,
        previous: None,
    };
    hsm.create_data_object(token::TRAIL_LABEL, &object.encode())?;
    Ok(object)
}

fn print_keys(generated: &[KeyInfo]) {
    for k in generated {
        println!(
            "{} key {:?} generated in the token: key id {}",
            k.role.name(),
            k.label,
            k.key_id
        );
        println!("  public key {}", hex::encode(k.public_key));
        println!(
            "  CKA_LOCAL={} CKA_NEVER_EXTRACTABLE={} CKA_ALWAYS_SENSITIVE={}: it can never leave the token",
            k.local, k.never_extractable, k.always_sensitive
        );
    }
}

/// Removes what an interrupted `keys init` left beside the trail: databases under a temporary
/// name, which no mark names (the trail is marked only once in place).
fn remove_leftovers(db: &Path) {
    let Some(name) = db.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return;
    };
    let dir = match db.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let prefix = format!(".{name}.init-");
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with(&prefix) {
                eprintln!(
                    "removing {}, left by an interrupted `urne keys init`",
                    e.path().display()
                );
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
}

/// Where `keys init` builds the trail before linking it into place: beside it, hidden.
fn temporary_name(db: &Path) -> std::path::PathBuf {
    let name = db.file_name().map_or_else(
        || "urne-audit.db".into(),
        |n| n.to_string_lossy().into_owned(),
    );
    db.with_file_name(format!(".{name}.init-{}", std::process::id()))
}

/// A key as `keys.generated` records it.
fn key_record(k: &KeyInfo) -> KeyRecord {
    KeyRecord {
        role: k.role,
        label: k.label.clone(),
        key_id: k.key_id.clone(),
        public_key: Hash32(k.public_key),
        local: k.local,
        never_extractable: k.never_extractable,
        always_sensitive: k.always_sensitive,
        sensitive: k.sensitive,
        extractable: k.extractable,
    }
}

/// File name of a role's exported public key.
pub fn pem_name(role: KeyRole) -> String {
    format!("{}.pub.pem", role.name())
}

fn export(ctx: &mut Ctx, out: &Path) -> Result<()> {
    ctx.begin()?;
    let (_, hsm) = ctx.both()?;
    fsio::ensure_dir(out)?;
    let mut listed = vec![];
    for role in KeyRole::ALL {
        let k = hsm.key_info(role)?;
        let pem = keys::public_key_to_pem(&k.public_key);
        fsio::write_atomic(&out.join(pem_name(role)), pem.as_bytes())?;
        listed.push(ExportedKey {
            file: pem_name(role),
            key_id: k.key_id.clone(),
            public_key: Hash32(k.public_key),
            label: k.label.clone(),
            hardware_bound: k.is_hardware_bound(),
        });
        println!(
            "{} key: {} (key id {})",
            role.name(),
            out.join(pem_name(role)).display(),
            k.key_id
        );
    }
    let [result, audit] = <[ExportedKey; 2]>::try_from(listed).expect("one key per role");
    let listing = ExportedKeys { result, audit };
    let mut text = serde_json::to_string_pretty(&listing).expect("JSON of plain values");
    text.push('\n');
    // keys.json is signed by the result key: a statement, verifiable with the PEM beside it,
    // that these are the appliance's keys.
    let sig = hsm.sign(KeyRole::Result, text.as_bytes())?;
    crate::edge::publish::write_with_sig(&out.join("keys.json"), text.as_bytes(), &sig)?;
    ctx.record(KeysExported {
        out: out.display().to_string(),
        keys: listing,
    })?;
    ctx.checkpoint()?;
    Ok(())
}
