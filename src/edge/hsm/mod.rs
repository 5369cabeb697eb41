//! PKCS#11 edge (design principle 5): the token that holds urne's two Ed25519 keys (one signs
//! results, one signs audit checkpoints) and supplies entropy. Keys are generated inside the token
//! as sensitive, non-extractable objects and never leave it. Facts about SoftHSM 2.6 that shape
//! this file: slot ids are not stable (select by label), `CKA_EC_POINT` encodings differ between
//! tokens (accept raw, OCTET STRING and BIT STRING), EdDSA must be called in one part with no
//! parameters (pure Ed25519).

use crate::edge::closure;
use crate::edge::config::Config;
use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::edge as m;
use cryptoki::context::{CInitializeArgs, CInitializeFlags, Function, Pkcs11};
use cryptoki::error::{Error as P11Error, RvError};
use cryptoki::mechanism::eddsa::{EddsaParams, EddsaSignatureScheme};
use cryptoki::mechanism::{Mechanism, MechanismType};
use cryptoki::object::{Attribute, AttributeType, KeyType, ObjectClass, ObjectHandle};
use cryptoki::session::Session;
use cryptoki::slot::Slot;
use secrecy::SecretString;
use serde::Serialize;
use std::sync::{Mutex, MutexGuard};

pub mod aead;
mod errors;
mod login;
mod module;
mod objects;
pub mod pairs;

use errors::hsm_err;

pub use module::ModuleFile;
pub use urne_verify::software::Pkcs11Identity;

/// id-Ed25519 (RFC 8410, OID 1.3.101.112) as DER: the `CKA_EC_PARAMS` PKCS#11 3.x prefers.
const ED25519_OID: [u8; 5] = [0x06, 0x03, 0x2b, 0x65, 0x70];

/// What a key is for (one key, one use): the trail's type, so the trail records it as
/// `keys.generated` defines it.
pub use urne_verify::events::payloads::KeyRole;

/// A key as read back from the token, with the attributes that prove where it was made.
#[derive(Debug, Clone, Serialize)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "the token's boolean attributes, as PKCS#11 names them"
)]
pub struct KeyInfo {
    /// The one use the key is for.
    pub role: KeyRole,
    /// The label it is found by (`CKA_LABEL`), from the configuration.
    pub label: String,
    /// Its key id (spec/formats.md §1.3), computed from the public key.
    pub key_id: urne_verify::values::KeyId,
    /// The Ed25519 public key, read from the token (`CKA_EC_POINT`).
    #[serde(serialize_with = "ser_hex")]
    pub public_key: [u8; 32],
    /// `CKA_LOCAL`: generated on the token.
    pub local: bool,
    /// `CKA_NEVER_EXTRACTABLE`: never was extractable.
    pub never_extractable: bool,
    /// `CKA_ALWAYS_SENSITIVE`: always was sensitive.
    pub always_sensitive: bool,
    /// `CKA_SENSITIVE`: the private key is sensitive now.
    pub sensitive: bool,
    /// `CKA_EXTRACTABLE`: the private key can be exported (must be false).
    pub extractable: bool,
}

impl KeyInfo {
    /// True when the attributes prove the private key was generated in the token and can never
    /// leave it.
    pub fn is_hardware_bound(&self) -> bool {
        self.local
            && self.never_extractable
            && self.always_sensitive
            && self.sensitive
            && !self.extractable
    }
}

fn ser_hex<S: serde::Serializer>(v: &[u8; 32], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&hex::encode(v))
}

/// Identity of the module and token, for `urne hsm info` and the audit trail (the trail's
/// type, as `keys.generated` records it).
pub use urne_verify::events::payloads::TokenRecord as TokenIdentity;

/// The mechanisms urne needs and whether the token has them.
#[derive(Debug, Clone, Serialize)]
pub struct Capabilities {
    /// The token has a random number generator (`CKF_RNG`).
    pub random: bool,
    /// The token generates Ed25519 key pairs (`CKM_EC_EDWARDS_KEY_PAIR_GEN`).
    pub ed25519_keygen: bool,
    /// The token signs with `CKM_EDDSA`.
    pub eddsa_sign: bool,
}

/// An open, logged-in session on urne's token.
pub struct Hsm {
    pkcs11: Pkcs11,
    slot: Slot,
    /// Behind a lock so that one session can serve two threads (the seal signs `leaves.bin` while
    /// the trail is written, and every append signs its checkpoint).
    session: Mutex<Session>,
    cfg: Config,
    /// Earlier entropy requests in this process, to catch a token that repeats itself.
    seen: Mutex<Vec<Vec<u8>>>,
    /// urne's data objects already read and checked in this session, by handle: their value
    /// and whether they can be destroyed (a rolling mark; they are non-modifiable,
    /// spec/appliance.md §6.6).
    objects: Mutex<Vec<(ObjectHandle, Vec<u8>, bool)>>,
    /// The key objects found in this session, one per class and label, and the public keys
    /// read from them: every signature of a command (one per append, one per output file) uses
    /// them without looking the key up in the token again (docs/costs.md).
    keys: Mutex<Vec<FoundKey>>,
    /// The sealing key found and checked in this session (non-modifiable, non-destroyable,
    /// spec/appliance.md §6.9): each seal and unseal uses it without looking it up again.
    sealing: Mutex<Option<(ObjectHandle, urne_verify::events::payloads::SealKeyRecord)>>,
    /// The code answering for the HSM, measured on first use (after `C_Initialize`).
    measured: Mutex<Option<Pkcs11Identity>>,
    /// Whether the token is a rehearsal token (spec/appliance.md §6.10): read from the token, by
    /// the labels of the keys it holds, at login; set by `keys init` on a token without keys that
    /// it initialises as one.
    rehearsal: std::sync::atomic::AtomicBool,
    /// The module's file, open for as long as the module is loaded (it was loaded from this
    /// descriptor, after hashing it). Declared last: dropped after the module is finalised.
    module: ModuleFile,
}

/// A key object a session found: its class and label, its handle, and for a public key the key
/// read from it once.
struct FoundKey {
    class: ObjectClass,
    label: String,
    handle: ObjectHandle,
    public: Option<[u8; 32]>,
}

/// The label of a rehearsal token's key of `role` (spec/appliance.md §6.10): fixed, never the
/// configuration's, which may not begin like it.
pub fn rehearsal_label(role: KeyRole) -> &'static str {
    match role {
        KeyRole::Result => "urne-rehearsal-result",
        KeyRole::Audit => "urne-rehearsal-audit",
    }
}

/// The refusal of a rehearsal's behaviour (a told clock, `keys init --rehearsal`) on an
/// official token (spec/appliance.md §6.10): `what` says what the token is.
pub fn refused_official(what: &str) -> Error {
    Error::new(
        Kind::RehearsalOfficialToken,
        crate::msg!(m::ERR_HSM_REHEARSAL_OFFICIAL, what = what),
        crate::msg!(m::REC_HSM_REHEARSAL_OFFICIAL),
    )
}

/// Parses `CKA_EC_POINT` in any of the encodings tokens use.
pub fn ed25519_from_ec_point(p: &[u8]) -> Option<[u8; 32]> {
    match p {
        [0x04, 0x20, rest @ ..] | [0x03, 0x21, 0x00, rest @ ..] if rest.len() == 32 => {
            rest.try_into().ok()
        }
        raw if raw.len() == 32 => raw.try_into().ok(),
        _ => None,
    }
}

/// Loads the module (issue 11, "Know the code that answers for the HSM"; issue 22, "A clean
/// process"): refuses a process that was started to bring in other code (`edge::loader`), gives
/// the module the variables the configuration names for it (`edge::process::module_env`), opens
/// the module's file once, hashes it from that descriptor, refuses it if the configuration pins
/// another hash, loads it from the same descriptor, and initialises it; then refuses a process
/// in which a file is mapped that neither urne nor the module needs (`edge::closure`). Nothing
/// of the module runs before the pin is checked, and no PIN is read before all of this.
fn load_module(cfg: &Config) -> Result<(Pkcs11, ModuleFile)> {
    crate::edge::loader::check_environment()?;
    crate::edge::process::module_env(&cfg.module_env)?;
    let module = ModuleFile::open(&cfg.module)?;
    module.check_pin(cfg)?;
    let pkcs11 = module.load()?;
    match pkcs11.initialize(CInitializeArgs::new(CInitializeFlags::OS_LOCKING_OK)) {
        Ok(())
        | Err(P11Error::Pkcs11(RvError::CryptokiAlreadyInitialized, Function::Initialize)) => {}
        Err(e) => return Err(hsm_err(crate::msg!(m::ERR_P11_INITIALIZE), e)),
    }
    module.check_mapped(closure::Stage::Initialised)?;
    Ok((pkcs11, module))
}

/// The hint for a token not found: the variables urne removed from its environment, which the
/// module may have needed to find it (SoftHSM's `SOFTHSM2_CONF`) unless the configuration names
/// them in `module_env`.
fn token_hint(cfg: &Config) -> String {
    let removed: Vec<String> = crate::edge::process::removed_names()
        .into_iter()
        .filter(|n| !cfg.module_env.contains(n) && !crate::edge::process::is_code_loading(n))
        .filter(|n| n.contains("HSM") || n.contains("PKCS") || n.contains("P11"))
        .collect();
    match removed.len() {
        0 => crate::msg!(m::REC_HSM_TOKEN_NOT_FOUND),
        1 => crate::msg!(
            m::REC_HSM_TOKEN_NOT_FOUND_REMOVED_ONE,
            names = removed.join(", ")
        ),
        _ => crate::msg!(
            m::REC_HSM_TOKEN_NOT_FOUND_REMOVED_MANY,
            names = removed.join(", ")
        ),
    }
}

fn find_slot(pkcs11: &Pkcs11, cfg: &Config) -> Result<Slot> {
    let label = cfg.token_label.as_str();
    let slots = pkcs11
        .get_slots_with_initialized_token()
        .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_SLOTS), e))?;
    let mut hits = vec![];
    let mut labels = vec![];
    for slot in slots {
        let info = pkcs11
            .get_token_info(slot)
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_TOKEN_INFO), e))?;
        if info.label() == label {
            hits.push(slot);
        }
        labels.push(format!("{:?}", info.label()));
    }
    match hits.len() {
        1 => Ok(hits[0]),
        0 => Err(Error::new(
            Kind::TokenNotFound,
            if labels.is_empty() {
                crate::msg!(m::ERR_HSM_NO_TOKEN_NONE, label = format_args!("{label:?}"))
            } else {
                crate::msg!(
                    m::ERR_HSM_NO_TOKEN,
                    label = format_args!("{label:?}"),
                    labels = labels.join(", ")
                )
            },
            token_hint(cfg),
        )),
        n => Err(Error::new(
            Kind::TokenNotFound,
            crate::msg!(
                m::ERR_HSM_TOKENS_MANY,
                n = n,
                label = format_args!("{label:?}")
            ),
            crate::msg!(m::REC_HSM_TOKENS_MANY),
        )),
    }
}

impl Hsm {
    /// The session (a poisoned lock is taken as is: the session holds no invariant of urne's).
    fn s(&self) -> MutexGuard<'_, Session> {
        self.session
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Loads the module, finds the token by label, opens a read-write session and logs in.
    pub fn open(cfg: &Config, pin: &SecretString) -> Result<Hsm> {
        let source = crate::edge::config::PinSource::Env;
        Self::open_asking(cfg, || Ok((pin.clone(), source.clone()))).map(|(hsm, _)| hsm)
    }

    /// [`Hsm::open`] with the PIN asked for only once the module is loaded and the token found
    /// (a missing token is said before any PIN is typed), by `pin`, which also says where the
    /// PIN came from: a refused PIN's hint names that source (the file, `URNE_PIN`, or the
    /// prompt). A PIN typed at the prompt and refused is asked again, at most
    /// [`login::PIN_TRIES`] times in all and never once the token says its next failure locks it.
    /// Returns the session and the PIN.
    pub fn open_asking(
        cfg: &Config,
        pin: impl FnMut() -> Result<(SecretString, crate::edge::config::PinSource)>,
    ) -> Result<(Hsm, SecretString)> {
        let (pkcs11, module) = load_module(cfg)?;
        let slot = find_slot(&pkcs11, cfg)?;
        let (session, pin) = login::login(&pkcs11, slot, pin)?;
        module.check_mapped(closure::Stage::LoggedIn)?;
        let hsm = Hsm {
            pkcs11,
            slot,
            session: Mutex::new(session),
            cfg: cfg.clone(),
            seen: Mutex::new(vec![]),
            objects: Mutex::new(vec![]),
            keys: Mutex::new(vec![]),
            sealing: Mutex::new(None),
            measured: Mutex::new(None),
            rehearsal: std::sync::atomic::AtomicBool::new(false),
            module,
        };
        hsm.read_rehearsal()?;
        Ok((hsm, pin))
    }

    /// The code that answers for the HSM (spec/formats.md §6.2, `software.start`'s `pkcs11`): the
    /// module's configured path and the SHA-256 of the bytes loaded, `C_GetInfo`, the token's
    /// `C_GetTokenInfo`, and the SHA-256 of every file mapped in the process. Measured once, on
    /// the first call, then the same value for the rest of the command: what a command records
    /// in `software.start` is what its outputs state.
    pub fn pkcs11_identity(&self) -> Result<Pkcs11Identity> {
        let mut m = self
            .measured
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(id) = m.as_ref() {
            return Ok(id.clone());
        }
        let id = module::measure(&self.pkcs11, self.slot, &self.module)?;
        *m = Some(id.clone());
        Ok(id)
    }

    /// The module's file as loaded: its configured path and the SHA-256 of its bytes.
    pub fn module(&self) -> &ModuleFile {
        &self.module
    }

    /// Module and token identity.
    pub fn identity(&self) -> Result<TokenIdentity> {
        let lib = self
            .pkcs11
            .get_library_info()
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_GET_INFO), e))?;
        let tok = self
            .pkcs11
            .get_token_info(self.slot)
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_GET_TOKEN_INFO), e))?;
        Ok(TokenIdentity {
            module: self.cfg.module.display().to_string(),
            library: format!("{} ({})", lib.library_description(), lib.manufacturer_id()),
            library_version: format!("{}", lib.library_version()),
            cryptoki_version: format!("{}", lib.cryptoki_version()),
            token_label: tok.label().to_string(),
            manufacturer: tok.manufacturer_id().to_string(),
            model: tok.model().to_string(),
            serial: tok.serial_number().to_string(),
        })
    }

    /// Which of the mechanisms urne needs are present.
    pub fn capabilities(&self) -> Result<Capabilities> {
        let tok = self
            .pkcs11
            .get_token_info(self.slot)
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_GET_TOKEN_INFO), e))?;
        let mechs = self
            .pkcs11
            .get_mechanism_list(self.slot)
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_MECHANISMS), e))?;
        let has = |m: MechanismType| mechs.contains(&m);
        let eddsa_sign = has(MechanismType::EDDSA)
            && self
                .pkcs11
                .get_mechanism_info(self.slot, MechanismType::EDDSA)
                .is_ok_and(|i| i.sign());
        Ok(Capabilities {
            random: tok.rng(),
            ed25519_keygen: has(MechanismType::ECC_EDWARDS_KEY_PAIR_GEN),
            eddsa_sign,
        })
    }

    fn label(&self, role: KeyRole) -> &str {
        if self.is_rehearsal() {
            return rehearsal_label(role);
        }
        match role {
            KeyRole::Result => &self.cfg.result_key_label,
            KeyRole::Audit => &self.cfg.audit_key_label,
        }
    }

    /// Whether the token is a rehearsal token (spec/appliance.md §6.10): its keys bear the
    /// rehearsal labels. Read from the token itself, never from a file, an option or the
    /// environment.
    pub fn is_rehearsal(&self) -> bool {
        self.rehearsal.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// The origin of the checkpoints this token's audit key signs (spec/formats.md §6.10).
    pub fn origin(&self) -> urne_verify::audit::chain::Origin {
        if self.is_rehearsal() {
            urne_verify::audit::chain::Origin::Rehearsal
        } else {
            urne_verify::audit::chain::Origin::Official
        }
    }

    /// Reads from the token whether it is a rehearsal token: a key object under a rehearsal
    /// label makes it one; one under the configuration's labels too is a token urne never leaves
    /// so (an incident).
    fn read_rehearsal(&self) -> Result<()> {
        let count = |labels: [&str; 2]| -> Result<usize> {
            let mut n = 0;
            for label in labels {
                n += self.find(ObjectClass::PRIVATE_KEY, label)?.len()
                    + self.find(ObjectClass::PUBLIC_KEY, label)?.len();
            }
            Ok(n)
        };
        let rehearsal = count([
            rehearsal_label(KeyRole::Result),
            rehearsal_label(KeyRole::Audit),
        ])?;
        if rehearsal == 0 {
            return Ok(());
        }
        if count([&self.cfg.result_key_label, &self.cfg.audit_key_label])? > 0 {
            return Err(Error::new(
                Kind::TokenTampered,
                crate::msg!(m::ERR_HSM_BOTH_KINDS),
                crate::msg!(m::REC_HSM_BOTH_KINDS),
            ));
        }
        self.rehearsal
            .store(true, std::sync::atomic::Ordering::SeqCst);
        Ok(())
    }

    /// Makes a token without keys a rehearsal token (`urne keys init --rehearsal`, a key
    /// ceremony held at a told time, spec/appliance.md §6.10): the keys it generates from now on
    /// bear the rehearsal labels. Refused (`rehearsal-official-token`) when the token holds an
    /// official token's keys.
    pub fn make_rehearsal(&self) -> Result<()> {
        if self.is_rehearsal() {
            return Ok(());
        }
        let present = self.keys_present()?;
        if !present.is_empty() {
            return Err(refused_official(&crate::msg!(
                m::ERR_HSM_OFFICIAL_KEYS,
                labels = present.join(", ")
            )));
        }
        self.rehearsal
            .store(true, std::sync::atomic::Ordering::SeqCst);
        Ok(())
    }

    fn find(&self, class: ObjectClass, label: &str) -> Result<Vec<ObjectHandle>> {
        self.s()
            .find_objects(&[
                Attribute::Class(class),
                Attribute::Label(label.as_bytes().to_vec()),
            ])
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_FIND_OBJECTS), e))
    }

    fn find_one(&self, class: ObjectClass, role: KeyRole) -> Result<ObjectHandle> {
        let label = self.label(role);
        if let Some(h) = self.cached_key(class, label) {
            return Ok(h);
        }
        let hits = self.find(class, label)?;
        match hits.len() {
            1 => {
                self.keys
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push(FoundKey {
                        class,
                        label: label.to_string(),
                        handle: hits[0],
                        public: None,
                    });
                Ok(hits[0])
            }
            0 => Err(Error::new(
                Kind::KeyMissing,
                crate::msg!(
                    m::ERR_HSM_NO_KEY,
                    role = role.name(),
                    label = format_args!("{label:?}")
                ),
                crate::msg!(m::REC_HSM_NO_KEY),
            )),
            n => Err(Error::new(
                Kind::KeyMissing,
                crate::msg!(
                    m::ERR_HSM_KEYS_MANY,
                    n = n,
                    label = format_args!("{label:?}")
                ),
                crate::msg!(m::REC_HSM_ALTERED_CEREMONY),
            )),
        }
    }

    /// Forgets the key objects found so far: called when this session generates or destroys
    /// key objects (`keys init`).
    pub(super) fn forget_keys(&self) {
        self.keys
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clear();
    }

    /// The key object of `class` labelled `label` this session found already.
    fn cached_key(&self, class: ObjectClass, label: &str) -> Option<ObjectHandle> {
        self.keys
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .find(|k| k.class == class && k.label == label)
            .map(|k| k.handle)
    }

    /// Whether any object (public or private) already carries one of urne's key labels.
    pub fn keys_present(&self) -> Result<Vec<String>> {
        let mut present = vec![];
        for role in KeyRole::ALL {
            let label = self.label(role).to_string();
            let n = self.find(ObjectClass::PRIVATE_KEY, &label)?.len()
                + self.find(ObjectClass::PUBLIC_KEY, &label)?.len();
            if n > 0 {
                present.push(label);
            }
        }
        Ok(present)
    }

    fn read_public(&self, h: ObjectHandle) -> Result<[u8; 32]> {
        let attrs = self
            .s()
            .get_attributes(h, &[AttributeType::EcPoint])
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_EC_POINT), e))?;
        for a in attrs {
            if let Attribute::EcPoint(p) = a {
                return ed25519_from_ec_point(&p).ok_or_else(|| {
                    Error::new(
                        Kind::KeyUnfit,
                        crate::msg!(m::ERR_HSM_EC_POINT_ENCODING, len = p.len()),
                        crate::msg!(m::REC_HSM_NOT_ED25519),
                    )
                });
            }
        }
        Err(Error::new(
            Kind::KeyUnfit,
            crate::msg!(m::ERR_HSM_NO_EC_POINT),
            crate::msg!(m::REC_HSM_NOT_ED25519),
        ))
    }

    /// The raw public key of a role.
    pub fn public_key(&self, role: KeyRole) -> Result<[u8; 32]> {
        let h = self.find_one(ObjectClass::PUBLIC_KEY, role)?;
        let mut keys = self
            .keys
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let slot = keys
            .iter_mut()
            .find(|k| k.class == ObjectClass::PUBLIC_KEY && k.handle == h);
        if let Some(pk) = slot.as_ref().and_then(|k| k.public) {
            return Ok(pk);
        }
        let pk = self.read_public(h)?;
        if let Some(slot) = slot {
            slot.public = Some(pk);
        }
        Ok(pk)
    }

    /// The key of a role, with its private key's attributes read back from the token.
    pub fn key_info(&self, role: KeyRole) -> Result<KeyInfo> {
        let public_key = self.public_key(role)?;
        let privh = self.find_one(ObjectClass::PRIVATE_KEY, role)?;
        let attrs = self
            .s()
            .get_attributes(
                privh,
                &[
                    AttributeType::KeyType,
                    AttributeType::Local,
                    AttributeType::NeverExtractable,
                    AttributeType::AlwaysSensitive,
                    AttributeType::Sensitive,
                    AttributeType::Extractable,
                ],
            )
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_PRIVATE_ATTRIBUTES), e))?;
        let mut info = KeyInfo {
            role,
            label: self.label(role).to_string(),
            key_id: urne_verify::values::KeyId::of(&public_key),
            public_key,
            local: false,
            never_extractable: false,
            always_sensitive: false,
            sensitive: false,
            extractable: true,
        };
        let mut key_type_ok = false;
        for a in attrs {
            match a {
                Attribute::KeyType(t) => key_type_ok = t == KeyType::EC_EDWARDS,
                Attribute::Local(v) => info.local = v,
                Attribute::NeverExtractable(v) => info.never_extractable = v,
                Attribute::AlwaysSensitive(v) => info.always_sensitive = v,
                Attribute::Sensitive(v) => info.sensitive = v,
                Attribute::Extractable(v) => info.extractable = v,
                _ => {}
            }
        }
        if !key_type_ok {
            return Err(Error::new(
                Kind::KeyUnfit,
                crate::msg!(m::ERR_HSM_NOT_EDWARDS, role = role.name()),
                crate::msg!(m::REC_HSM_ALTERED),
            ));
        }
        Ok(info)
    }

    /// Signs `msg` with the role's key (pure Ed25519, one part), then checks the signature with
    /// an independent implementation before returning it: a faulty token fails closed.
    pub fn sign(&self, role: KeyRole, msg: &[u8]) -> Result<[u8; 64]> {
        let privh = self.find_one(ObjectClass::PRIVATE_KEY, role)?;
        let pk = self.public_key(role)?;
        let mech = Mechanism::Eddsa(EddsaParams::new(EddsaSignatureScheme::Pure));
        let sig = self
            .s()
            .sign(&mech, privh, msg)
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_SIGN), e))?;
        let sig: [u8; 64] = sig.as_slice().try_into().map_err(|_| {
            Error::new(
                Kind::HsmMisbehaves,
                crate::msg!(m::ERR_HSM_SIGNATURE_LENGTH, len = sig.len()),
                crate::msg!(m::REC_HSM_SIGNATURE_LENGTH),
            )
        })?;
        if !urne_verify::crypto::ed25519::verify_strict(&pk, &sig, msg) {
            return Err(Error::new(
                Kind::HsmMisbehaves,
                crate::msg!(m::ERR_HSM_SIGNATURE_INVALID),
                crate::msg!(m::REC_HSM_SIGNATURE_INVALID),
            ));
        }
        Ok(sig)
    }

    /// `n` bytes from the token's generator (`C_GenerateRandom`), health-checked: fails closed if
    /// the bytes are all one value or repeat an earlier request of this process.
    pub fn random(&self, n: usize) -> Result<Vec<u8>> {
        let bytes = self.random_unchecked(n)?;
        let mut seen = self
            .seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        check_entropy(&bytes, &seen)?;
        seen.push(bytes.clone());
        Ok(bytes)
    }
}

impl Hsm {
    /// `n` bytes from the token's generator (`C_GenerateRandom`), unchecked: the caller checks
    /// them and records a refusal (the entropy of draws and blocks, spec/appliance.md §3.1).
    pub fn random_unchecked(&self, n: usize) -> Result<Vec<u8>> {
        let len = u32::try_from(n)
            .map_err(|_| Error::new(Kind::Defect, crate::msg!(m::ERR_HSM_ENTROPY_TOO_LARGE), ""))?;
        self.s()
            .generate_random_vec(len)
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_GENERATE_RANDOM), e))
    }
}

/// The obvious-failure checks on entropy (spec/appliance.md §3.1): right length, not all one byte value,
/// not equal to an earlier value. Statistical tests cannot certify randomness; these catch a
/// stuck or replaying generator.
pub fn check_entropy(bytes: &[u8], seen: &[Vec<u8>]) -> Result<()> {
    match entropy_fault(bytes, seen) {
        None => Ok(()),
        Some(why) => Err(Error::new(
            Kind::HsmHealthCheck,
            health_words(why, crate::msg::lang()),
            crate::msg!(m::REC_HSM_GENERATOR_FAULTY),
        )),
    }
}

/// What [`check_entropy`] finds wrong with `bytes`, if anything.
pub fn entropy_fault(bytes: &[u8], seen: &[Vec<u8>]) -> Option<&'static crate::msg::Msg> {
    if bytes.len() < 16 {
        Some(&m::ERR_HSM_HEALTH_SHORT)
    } else if bytes.iter().all(|&b| b == bytes[0]) {
        Some(&m::ERR_HSM_HEALTH_ONE_VALUE)
    } else if seen.iter().any(|s| s == bytes) {
        Some(&m::ERR_HSM_HEALTH_REPEAT)
    } else {
        None
    }
}

/// A failed health check in words of `lang`: English for what the trail records (the same
/// bytes whatever the screens' language), the screens' language for what they show.
pub fn health_words(why: &crate::msg::Msg, lang: crate::msg::Lang) -> String {
    let why = why.words(lang);
    m::ERR_HSM_HEALTH.fill(lang, &[("why", &why)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ec_point_encodings_are_all_accepted() {
        let k = [9u8; 32];
        let mut oct = vec![0x04, 0x20];
        oct.extend_from_slice(&k);
        let mut bit = vec![0x03, 0x21, 0x00];
        bit.extend_from_slice(&k);
        assert_eq!(ed25519_from_ec_point(&oct), Some(k));
        assert_eq!(ed25519_from_ec_point(&bit), Some(k));
        assert_eq!(ed25519_from_ec_point(&k), Some(k));
        assert_eq!(ed25519_from_ec_point(&k[..31]), None);
    }

    #[test]
    fn stuck_or_repeating_entropy_fails_closed() {
        assert!(check_entropy(&[7u8; 48], &[]).is_err());
        let good: Vec<u8> = (0..48).collect();
        assert!(check_entropy(&good, &[]).is_ok());
        assert!(check_entropy(&good, std::slice::from_ref(&good)).is_err());
        assert!(check_entropy(&good[..8], &[]).is_err());
    }
}
