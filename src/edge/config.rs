//! Configuration edge: where the HSM is and what urne calls things in it (`hsm-config/urne.json`),
//! overridden by the environment (`URNE_HSM_MODULE`, `URNE_HSM_TOKEN`), and where the user PIN
//! comes from (`URNE_PIN`, `--pin-file`, or a prompt; never the command line, never logged).
//! Everything is resolved and validated here, before any command starts work. The module's hash
//! may be pinned (`module_sha256`); the pin applies to whichever module is named, the
//! environment's included.

use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::edge as m;
use secrecy::SecretString;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use urne_verify::crypto::Hash32;

/// The configuration file used when neither `--config` nor `URNE_CONFIG` names one.
pub const DEFAULT_CONFIG: &str = "hsm-config/urne.json";
/// Debian's SoftHSM module; a production appliance names its HSM vendor's module instead.
pub const DEFAULT_MODULE: &str = "/usr/lib/softhsm/libsofthsm2.so";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    comment: Option<String>,
    module: Option<String>,
    /// The SHA-256 the module's bytes must have (64 lowercase hex digits); absent: not pinned.
    #[serde(default)]
    module_sha256: Option<String>,
    token_label: Option<String>,
    result_key_label: Option<String>,
    audit_key_label: Option<String>,
    /// PEM files of the production export keys urne trusts (paths relative to the config file).
    #[serde(default)]
    producer_keys: Vec<String>,
    /// Environment variables the PKCS#11 module itself reads (SoftHSM: `SOFTHSM2_CONF`), given
    /// back to it from urne's environment; every other variable is removed (`edge::process`).
    #[serde(default)]
    module_env: Vec<String>,
}

/// The resolved configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where the configuration came from (`None`: built-in defaults).
    pub source: Option<PathBuf>,
    /// The PKCS#11 module (shared object) loaded to reach the token.
    pub module: PathBuf,
    /// The module's pinned SHA-256 (`module_sha256`): a module whose bytes hash otherwise is
    /// refused before it is loaded. `None`: not pinned (the module's hash is still recorded).
    pub module_sha256: Option<Hash32>,
    /// The label of the token urne uses (the slot is found by it).
    pub token_label: String,
    /// The label of the key pair that signs results.
    pub result_key_label: String,
    /// The label of the key pair that signs audit checkpoints.
    pub audit_key_label: String,
    /// Production's public key files (PEM), pinned at the key ceremony when the trail pins none.
    pub producer_keys: Vec<PathBuf>,
    /// The variables given back to the module (`module_env`), by name.
    pub module_env: Vec<String>,
}

impl Config {
    /// Loads `explicit` (from `--config`/`URNE_CONFIG`), else [`DEFAULT_CONFIG`] if present, else
    /// defaults; then applies `URNE_HSM_MODULE` and `URNE_HSM_TOKEN`.
    pub fn load(explicit: Option<&Path>) -> Result<Config> {
        let path = match explicit {
            Some(p) => Some(p.to_path_buf()),
            None if Path::new(DEFAULT_CONFIG).is_file() => Some(PathBuf::from(DEFAULT_CONFIG)),
            None => None,
        };
        let file = match &path {
            Some(p) => {
                let bytes = std::fs::read(p).map_err(|e| {
                    Error::new(
                        Kind::ConfigInvalid,
                        crate::msg!(m::ERR_CONFIG_READ, path = p.display(), e = e),
                        crate::msg!(m::REC_CONFIG_READ),
                    )
                })?;
                serde_json::from_slice::<ConfigFile>(&bytes).map_err(|e| {
                    Error::new(
                        Kind::ConfigInvalid,
                        crate::msg!(m::ERR_CONFIG_INVALID, path = p.display(), e = e),
                        crate::msg!(m::REC_CONFIG_INVALID),
                    )
                })?
            }
            None => ConfigFile {
                comment: None,
                module: None,
                module_sha256: None,
                token_label: None,
                result_key_label: None,
                audit_key_label: None,
                producer_keys: vec![],
                module_env: vec![],
            },
        };
        let _ = &file.comment;
        let base = path
            .as_ref()
            .and_then(|p| p.parent())
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let module = env_nonempty("URNE_HSM_MODULE")
            .or(file.module)
            .unwrap_or_else(|| DEFAULT_MODULE.to_string());
        let module_sha256 = pinned_hash(file.module_sha256.as_deref(), path.as_deref())?;
        let token_label = env_nonempty("URNE_HSM_TOKEN")
            .or(file.token_label)
            .unwrap_or_else(|| "urne".to_string());
        let cfg = Config {
            source: path,
            module: PathBuf::from(module),
            module_sha256,
            token_label,
            result_key_label: file
                .result_key_label
                .unwrap_or_else(|| "urne-result".to_string()),
            audit_key_label: file
                .audit_key_label
                .unwrap_or_else(|| "urne-audit".to_string()),
            producer_keys: file.producer_keys.iter().map(|p| base.join(p)).collect(),
            module_env: file.module_env,
        };
        // A rehearsal token is told by its keys' labels (spec/appliance.md §6.10): an official
        // configuration never names one.
        for label in [&cfg.result_key_label, &cfg.audit_key_label] {
            if label.starts_with(urne_verify::audit::chain::REHEARSAL_LABEL_PREFIX) {
                return Err(Error::new(
                    Kind::ConfigInvalid,
                    crate::msg!(
                        m::ERR_CONFIG_REHEARSAL_LABEL,
                        label = format_args!("{label:?}")
                    ),
                    crate::msg!(m::REC_CONFIG_REHEARSAL_LABEL),
                ));
            }
        }
        if cfg.result_key_label == cfg.audit_key_label {
            return Err(Error::new(
                Kind::ConfigInvalid,
                crate::msg!(m::ERR_CONFIG_SAME_LABELS),
                crate::msg!(m::REC_CONFIG_SAME_LABELS),
            ));
        }
        Ok(cfg)
    }
}

/// The configuration's `module_sha256`, parsed (exit 2 if it is not a SHA-256 in hex).
fn pinned_hash(value: Option<&str>, path: Option<&Path>) -> Result<Option<Hash32>> {
    let Some(h) = value else {
        return Ok(None);
    };
    Hash32::from_hex(h).map(Some).ok_or_else(|| {
        Error::new(
            Kind::ConfigInvalid,
            crate::msg!(
                m::ERR_CONFIG_MODULE_SHA,
                path = path.map(|p| p.display().to_string()).unwrap_or_default(),
                value = format_args!("{h:?}")
            ),
            crate::msg!(m::REC_CONFIG_MODULE_SHA),
        )
    })
}

fn env_nonempty(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The PIN prompt, worded so that it cannot be taken for the commissaire's contribution prompt
/// (in the language of the screens, `text::lang()`; nothing typed is shown).
fn pin_prompt() -> String {
    crate::msg!(m::ASK_PIN)
}

/// Where the user PIN came from, so that a refused PIN's hint names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PinSource {
    /// The first line of the `--pin-file` given.
    File(std::path::PathBuf),
    /// The environment's `URNE_PIN`.
    Env,
    /// Typed at the prompt.
    Prompt,
}

impl PinSource {
    /// What to do about a PIN the token refused, for the PIN from this source (and that
    /// repeated failures lock the token).
    pub fn refused_hint(&self) -> String {
        match self {
            PinSource::File(p) => crate::msg!(m::REC_PIN_FILE, path = p.display()),
            PinSource::Env => crate::msg!(m::REC_PIN_ENV),
            PinSource::Prompt => crate::msg!(m::REC_PIN_PROMPT),
        }
    }
}

/// How many empty lines the PIN prompt takes before it gives up (none is a try of the token's).
const EMPTY_PINS: usize = 10;

/// Discards what was typed at the terminal and not yet read, before the PIN prompt turns its
/// echo off: a PIN typed ahead was echoed as it was typed, and is never taken for the PIN (the
/// operator types it again, unseen, at the prompt).
fn discard_typed_ahead() {
    use std::os::fd::AsRawFd;
    let stdin = std::io::stdin();
    // SAFETY: tcflush on standard input, a terminal; no memory is passed. A failure leaves
    // the typed-ahead text to be read as it would have been.
    let _ = unsafe { libc::tcflush(stdin.as_raw_fd(), libc::TCIFLUSH) };
}

/// Where the user PIN comes from, in order: `--pin-file`, `URNE_PIN`, an interactive prompt.
pub fn read_pin(pin_file: Option<&Path>) -> Result<SecretString> {
    read_pin_from(pin_file).map(|(pin, _)| pin)
}

/// The user PIN ([`read_pin`]) and where it came from.
pub fn read_pin_from(pin_file: Option<&Path>) -> Result<(SecretString, PinSource)> {
    use std::io::IsTerminal;
    if let Some(p) = pin_file {
        let s = std::fs::read_to_string(p).map_err(|e| {
            Error::new(
                Kind::PinFileUnreadable,
                crate::msg!(m::ERR_PIN_FILE, path = p.display(), e = e),
                crate::msg!(m::REC_PIN_FILE_UNREADABLE),
            )
        })?;
        let pin = s.lines().next().unwrap_or("").to_string();
        return Ok((SecretString::from(pin), PinSource::File(p.to_path_buf())));
    }
    if let Some(pin) = std::env::var("URNE_PIN").ok().filter(|p| !p.is_empty()) {
        return Ok((SecretString::from(pin), PinSource::Env));
    }
    if std::io::stdin().is_terminal() {
        // An empty line is no PIN: asked again, and never given to the token (whose tries it
        // would use up). A terminal that gives nothing but empty lines ends the command.
        for _ in 0..EMPTY_PINS {
            discard_typed_ahead();
            let pin = rpassword::prompt_password(pin_prompt()).map_err(|e| {
                Error::new(
                    Kind::PinMissing,
                    crate::msg!(m::ERR_PIN_READ, e = e),
                    crate::msg!(m::REC_PIN_READ),
                )
            })?;
            crate::out::typed();
            // The sitting held the echo off until now (`tty::hold_echo`): the answers that
            // follow are shown as typed.
            crate::edge::tty::release_echo();
            if !pin.is_empty() {
                return Ok((SecretString::from(pin), PinSource::Prompt));
            }
            note!("{}", crate::msg!(m::SCR_PIN_EMPTY));
        }
        return Err(Error::new(
            Kind::PinMissing,
            crate::msg!(m::ERR_PIN_NONE_TYPED),
            crate::msg!(m::REC_PIN_NONE_TYPED),
        ));
    }
    Err(Error::new(
        Kind::PinMissing,
        crate::msg!(m::ERR_PIN_NONE),
        crate::msg!(m::REC_PIN_NONE),
    ))
}
