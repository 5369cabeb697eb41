//! `urne hsm info`.

use super::ctx::Ctx;
use crate::cli::HsmCommand;
use crate::edge::hsm::KeyRole;
use crate::error::Result;
use crate::msg::catalogue as m;
use crate::msg::{Lang, Msg};

/// `urne hsm info` (reads the token; records nothing).
pub fn run(ctx: &mut Ctx, c: &HsmCommand) -> Result<()> {
    match c {
        HsmCommand::Info => info(ctx),
    }
}

/// `present` or `MISSING`, in the screens' language.
fn yes(b: bool, lang: Lang) -> &'static str {
    if b {
        m::SCR_HSM_PRESENT.words(lang)
    } else {
        m::SCR_HSM_MISSING.words(lang)
    }
}

/// A label and its value on one line, the values of a block aligned.
fn row(indent: &str, label: &Msg, value: &str, lang: Lang) {
    say!("{indent}{:<20} {value}", label.words(lang));
}

/// A hash under its label, in groups of four digits as every screen prints one.
fn hash(indent: &str, label: &str, hex: &str) {
    say!("{indent}{label}");
    for l in crate::text::hash_lines(hex) {
        say!("{indent}    {l}");
    }
}

fn info(ctx: &mut Ctx) -> Result<()> {
    let lang = crate::text::lang();
    // A module loaded under a pin has the pinned hash: a mismatch is refused before loading.
    let pinned = ctx.config()?.module_sha256.is_some();
    let hsm = ctx.hsm()?;
    let id = hsm.identity()?;
    let caps = hsm.capabilities()?;
    let module = hsm.module();
    row("", &m::SCR_HSM_MODULE, &id.module, lang);
    let sha_label = if pinned {
        &m::SCR_HSM_MODULE_PINNED
    } else {
        &m::SCR_HSM_MODULE_UNPINNED
    };
    hash("  ", sha_label.words(lang), &module.sha256.to_string());
    row(
        "",
        &m::SCR_HSM_LIBRARY,
        &format!("{} v{}", id.library, id.library_version),
        lang,
    );
    row("", &m::SCR_HSM_VERSION, &id.cryptoki_version, lang);
    row(
        "",
        &m::SCR_HSM_TOKEN,
        &format!("{:?}", id.token_label),
        lang,
    );
    row("  ", &m::SCR_HSM_MANUFACTURER, &id.manufacturer, lang);
    row("  ", &m::SCR_HSM_MODEL, &id.model, lang);
    row("  ", &m::SCR_HSM_SERIAL, &id.serial, lang);
    say!("{}", m::SCR_HSM_MECHANISMS.words(lang));
    for (label, present) in [
        (&m::SCR_HSM_RANDOM, caps.random),
        (&m::SCR_HSM_KEYGEN, caps.ed25519_keygen),
        (&m::SCR_HSM_SIGN, caps.eddsa_sign),
    ] {
        say!("  {} {}", label.words(lang), yes(present, lang));
    }
    print_keys(hsm, lang)
}

/// urne's keys in the token: each key pair with its public key and the attributes that bind it
/// to the token, then the sealing key; a token with no key at all is new.
fn print_keys(hsm: &crate::edge::hsm::Hsm, lang: Lang) -> Result<()> {
    say!("{}", m::SCR_HSM_KEYS.words(lang));
    if hsm.holds_no_key()? {
        // A new token: nothing is missing, nothing was initialised yet.
        say!("  {}", m::SCR_HSM_NEW_TOKEN.words(lang));
        return Ok(());
    }
    for role in KeyRole::ALL {
        match hsm.key_info(role) {
            Ok(k) => {
                say!(
                    "  {}",
                    crate::msg!(
                        m::SCR_HSM_KEY,
                        role = role.name(),
                        label = k.label,
                        id = crate::text::groups(&k.key_id.to_string())
                    )
                );
                hash(
                    "    ",
                    m::SCR_HSM_PUBLIC_KEY.words(lang),
                    &hex::encode(k.public_key),
                );
                say!(
                    "    CKA_LOCAL={} CKA_NEVER_EXTRACTABLE={} CKA_ALWAYS_SENSITIVE={} CKA_SENSITIVE={} CKA_EXTRACTABLE={}",
                    k.local,
                    k.never_extractable,
                    k.always_sensitive,
                    k.sensitive,
                    k.extractable
                );
                let bound = if k.is_hardware_bound() {
                    &m::SCR_HSM_BOUND
                } else {
                    &m::SCR_HSM_NOT_BOUND
                };
                say!("    {}", bound.words(lang));
            }
            Err(e) => say!(
                "  {}",
                crate::msg!(m::SCR_HSM_KEY_ABSENT, role = role.name(), why = e.message)
            ),
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
                "  {}",
                crate::msg!(
                    m::SCR_HSM_SEAL_KEY,
                    label = k.label,
                    id = crate::text::groups(&k.key_id),
                    bits = k.value_len * 8,
                    mechanisms = k.allowed_mechanisms.join(", ")
                )
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
        Err(e) => say!(
            "  {}",
            crate::msg!(m::SCR_HSM_SEAL_KEY_ABSENT, why = e.message)
        ),
    }
}
