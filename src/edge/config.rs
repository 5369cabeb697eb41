//! Configuration edge: where the HSM is and what urne calls things in it (`hsm-config/urne.json`),
//! overridden by the environment (`URNE_HSM_MODULE`, `URNE_HSM_TOKEN`), and where the user PIN
//! comes from (`URNE_PIN`, `--pin-file`, or a prompt; never the command line, never logged).
//! Everything is resolved and validated here, before any command starts work. The module's hash
//! may be pinned (`module_sha256`); the pin applies to whichever module is named, the
//! environment's included.

use crate::error::{Error, Kind, Result};
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
                        format!("cannot read configuration {}: {e}", p.display()),
                        "pass --config FILE or set URNE_CONFIG to urne's configuration (see hsm-config/README.md)",
                    )
                })?;
                serde_json::from_slice::<ConfigFile>(&bytes).map_err(|e| {
                    Error::new(
                        Kind::ConfigInvalid,
                        format!("configuration {} is invalid: {e}", p.display()),
                        "compare it with hsm-config/urne.json and hsm-config/README.md",
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
                    format!("the key label {label:?} begins like a rehearsal token's"),
                    "the labels urne-rehearsal-… are a rehearsal token's, never configured: give the keys other labels",
                ));
            }
        }
        if cfg.result_key_label == cfg.audit_key_label {
            return Err(Error::new(
                Kind::ConfigInvalid,
                "result_key_label and audit_key_label are the same",
                "one key, one use: give the result key and the audit key different labels",
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
            format!(
                "configuration {}: module_sha256 {h:?} is not 64 lowercase hex digits",
                path.map(|p| p.display().to_string()).unwrap_or_default()
            ),
            "give the SHA-256 of the PKCS#11 module as `sha256sum` prints it, or remove the member",
        )
    })
}

fn env_nonempty(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The PIN prompt, worded so that it cannot be taken for the commissaire's contribution prompt
/// (in the language of the screens, `text::lang()`; nothing typed is shown).
fn pin_prompt() -> &'static str {
    crate::text::lang().t(
        "Opérateur : code PIN de l'HSM (ne s'affiche pas), puis Entrée : ",
        "Operator: the HSM user PIN (not shown), then Enter: ",
    )
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
    /// What to do about a PIN the token refused, for the PIN from this source.
    pub fn refused_hint(&self) -> String {
        match self {
            PinSource::File(p) => format!(
                "check the PIN in the --pin-file {} (its first line)",
                p.display()
            ),
            PinSource::Env => "check the PIN in URNE_PIN".to_string(),
            PinSource::Prompt => {
                "run the command again and type the user PIN again, carefully".to_string()
            }
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
                format!("cannot read the PIN file {}: {e}", p.display()),
                "give a readable file holding the user PIN on its first line",
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
                    format!("cannot read the PIN: {e}"),
                    "type the PIN at the prompt",
                )
            })?;
            crate::out::typed();
            // The sitting held the echo off until now (`tty::hold_echo`): the answers that
            // follow are shown as typed.
            crate::edge::tty::release_echo();
            if !pin.is_empty() {
                return Ok((SecretString::from(pin), PinSource::Prompt));
            }
            note!(
                "{}",
                crate::text::lang().t(
                    "Aucun code PIN tapé (aucun essai n'est compté) ; tapez-le :",
                    "No PIN typed (no try is counted); type it:"
                )
            );
        }
        return Err(Error::new(
            Kind::PinMissing,
            "no HSM user PIN was typed at the prompt",
            "type the PIN at the prompt, then Enter",
        ));
    }
    Err(Error::new(
        Kind::PinMissing,
        "no HSM user PIN was given",
        "set URNE_PIN, pass --pin-file FILE, or run interactively to be prompted (never on the command line)",
    ))
}
