//! `urne hsm info`.

use super::ctx::Ctx;
use crate::cli::HsmCommand;
use crate::edge::hsm::KeyRole;
use crate::error::Result;

/// `urne hsm info` (reads the token; records nothing).
pub fn run(ctx: &mut Ctx, c: &HsmCommand) -> Result<()> {
    match c {
        HsmCommand::Info => info(ctx),
    }
}

fn yes(b: bool) -> &'static str {
    if b { "present" } else { "MISSING" }
}

fn info(ctx: &mut Ctx) -> Result<()> {
    // A module loaded under a pin has the pinned hash: a mismatch is refused before loading.
    let pinned = ctx.config()?.module_sha256.is_some();
    let hsm = ctx.hsm()?;
    let id = hsm.identity()?;
    let caps = hsm.capabilities()?;
    let module = hsm.module();
    say!("module:            {}", id.module);
    say!(
        "  SHA-256:         {}{}",
        module.sha256,
        if pinned {
            " (the configuration's module_sha256)"
        } else {
            " (not pinned: a ceremony's configuration names it in module_sha256)"
        }
    );
    say!("library:           {} v{}", id.library, id.library_version);
    say!("PKCS#11 version:   {}", id.cryptoki_version);
    say!("token:             {:?}", id.token_label);
    say!("  manufacturer:    {}", id.manufacturer);
    say!("  model:           {}", id.model);
    say!("  serial:          {}", id.serial);
    say!("mechanisms urne needs:");
    say!(
        "  random numbers (C_GenerateRandom):   {}",
        yes(caps.random)
    );
    say!(
        "  Ed25519 key generation (CKM_EC_EDWARDS_KEY_PAIR_GEN): {}",
        yes(caps.ed25519_keygen)
    );
    say!(
        "  EdDSA signing (CKM_EDDSA):           {}",
        yes(caps.eddsa_sign)
    );
    say!("keys:");
    if hsm.holds_no_key()? {
        // A new token: nothing is missing, nothing was initialised yet.
        say!(
            "  {}",
            crate::text::lang().t(
                "aucune : le jeton est neuf (pas encore de clé) ; lancez `urne keys init`",
                "none: the token is new (no keys yet); run `urne keys init`"
            )
        );
        return Ok(());
    }
    for role in KeyRole::ALL {
        match hsm.key_info(role) {
            Ok(k) => {
                say!("  {} key {:?}: key id {}", role.name(), k.label, k.key_id);
                say!("    public key:        {}", hex::encode(k.public_key));
                say!(
                    "    CKA_LOCAL={} CKA_NEVER_EXTRACTABLE={} CKA_ALWAYS_SENSITIVE={} CKA_SENSITIVE={} CKA_EXTRACTABLE={}",
                    k.local,
                    k.never_extractable,
                    k.always_sensitive,
                    k.sensitive,
                    k.extractable
                );
                say!(
                    "    {}",
                    if k.is_hardware_bound() {
                        "generated in the token; can never leave it"
                    } else {
                        "WARNING: these attributes do not prove the key is bound to the token"
                    }
                );
            }
            Err(e) => say!("  {} key: absent ({})", role.name(), e.message),
        }
    }
    print_seal_key(hsm);
    Ok(())
}

/// The sealing key (spec/appliance.md §6.9): read back, with the attributes that make it one.
fn print_seal_key(hsm: &crate::edge::hsm::Hsm) {
    match hsm.seal_key_info() {
        Ok(k) => {
            say!(
                "  sealing key {:?}: key id {}, AES-{}, only {}",
                k.label,
                k.key_id,
                k.value_len * 8,
                k.allowed_mechanisms.join(", ")
            );
            say!(
                "    CKA_LOCAL={} CKA_NEVER_EXTRACTABLE={} CKA_SENSITIVE={} CKA_EXTRACTABLE={} CKA_WRAP={} CKA_MODIFIABLE={} CKA_DESTROYABLE={}",
                k.local,
                k.never_extractable,
                k.sensitive,
                k.extractable,
                k.wrap,
                k.modifiable,
                k.destroyable
            );
        }
        Err(e) => say!("  sealing key: absent or unusable ({})", e.message),
    }
}
