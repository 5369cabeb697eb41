//! `urne keys init` and `urne keys export`.

use super::ctx::Ctx;
use crate::cli::KeysCommand;
use crate::edge::fsio;
use crate::edge::hsm::{KeyInfo, KeyRole};
use crate::error::{Error, Exit, Result};
use std::path::Path;
use urne_core::audit::payloads::{
    ExportedKey, ExportedKeys, KeyRecord, KeysExported, KeysGenerated,
};
use urne_core::crypto::{Hash32, keys};

/// `urne keys init | export`.
pub fn run(ctx: &mut Ctx, c: KeysCommand) -> Result<()> {
    match c {
        KeysCommand::Init => init(ctx),
        KeysCommand::Export { out } => export(ctx, &out),
    }
}

fn init(ctx: &mut Ctx) -> Result<()> {
    ctx.begin()?;
    let (log, hsm) = ctx.both()?;
    let token = hsm.identity()?;
    let generated = hsm.generate_keys()?;
    log.record(KeysGenerated {
        token,
        keys: generated.iter().map(key_record).collect(),
    })?;
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
    let note = ctx.checkpoint()?;
    for k in &generated {
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
    println!("audit trail: {}", ctx.global.db.display());
    println!("checkpoint signed:\n{note}");
    Ok(())
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
    ctx.audit()?.record(KeysExported {
        out: out.display().to_string(),
        keys: listing,
    })?;
    ctx.checkpoint()?;
    Ok(())
}
