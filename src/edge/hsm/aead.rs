//! The token's sealing key (spec/appliance.md §6.9): a 256-bit AES key generated inside the token by
//! `urne keys init`, sensitive, never extractable, usable for AES-GCM encryption and decryption
//! only, and neither modifiable nor destroyable. [`Hsm::seal`] encrypts a secret under it with
//! `C_Encrypt` (`CKM_AES_GCM`, a fresh 96-bit IV from `C_GenerateRandom`, a 128-bit tag, the
//! caller's additional data); [`Hsm::unseal`] decrypts with `C_Decrypt`, which checks the tag in
//! the token. The key never leaves the token: what can be read from a disk is the box, which
//! only a logged-in session on this token can open (a PIN holder can, docs/threat-model.md).
//!
//! Facts about SoftHSM 2.6 that shape this file: it takes the IV from the caller for
//! `C_Encrypt` (it generates none), honours `CKA_ALLOWED_MECHANISMS`, `CKA_MODIFIABLE` and
//! `CKA_DESTROYABLE` on secret keys (checked by tests/it/sealing.rs), and answers a tag that does
//! not verify with `CKR_GENERAL_ERROR` (PKCS#11 says `CKR_ENCRYPTED_DATA_INVALID`), which
//! [`Hsm::unseal`] tells from a fault of the token by sealing and opening a probe.

use super::{Hsm, hsm_err};
use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::edge as m;
use cryptoki::context::Function;
use cryptoki::error::{Error as P11Error, RvError};
use cryptoki::mechanism::aead::GcmParams;
use cryptoki::mechanism::{Mechanism, MechanismType};
use cryptoki::object::{Attribute, AttributeType, KeyType, ObjectClass, ObjectHandle};
use std::sync::Mutex;
use urne_ceremony::sealed::{IV_LEN, KEY_ID_LEN, SEAL_KEY_LABEL, TAG_LEN};
use urne_verify::events::payloads::SealKeyRecord;

/// A secret sealed by the token's key, as the trail keeps it (spec/appliance.md §6.9).
pub use urne_ceremony::sealed::SealedBox;

/// The tag length GCM is asked for, in bits.
const TAG_BITS: u64 = (TAG_LEN * 8) as u64;

/// Every IV this process has sealed with: a token that repeats an IV is refused before it is used
/// (GCM under one key and one IV twice gives away the XOR of two secrets and the tag key).
static IVS: Mutex<Vec<[u8; IV_LEN]>> = Mutex::new(Vec::new());

/// The refusal of a box that does not open: what the trail holds was not sealed by this token
/// for this purpose (altered, copied from elsewhere, or another trail's), exit 5 as for any
/// altered data of the trail.
fn not_opened(why: &str) -> Error {
    Error::new(
        Kind::SealBroken,
        crate::msg!(m::ERR_SEAL_NOT_OPENED, why = why),
        crate::msg!(m::REC_SEAL_NOT_OPENED),
    )
}

/// The sealing key's attributes as the token answers them; an attribute the token does not
/// answer keeps the value that fails [`SealKeyRecord::is_sound`].
fn record_of(attrs: Vec<Attribute>) -> SealKeyRecord {
    let mut r = SealKeyRecord {
        label: SEAL_KEY_LABEL.to_string(),
        key_id: String::new(),
        key_type: "unknown".to_string(),
        value_len: 0,
        local: false,
        never_extractable: false,
        always_sensitive: false,
        sensitive: false,
        extractable: true,
        encrypt: false,
        decrypt: false,
        wrap: true,
        unwrap: true,
        modifiable: true,
        destroyable: true,
        allowed_mechanisms: vec![],
    };
    for a in attrs {
        match a {
            Attribute::Id(id) => r.key_id = hex::encode(id),
            Attribute::KeyType(t) if t == KeyType::AES => r.key_type = "AES".to_string(),
            Attribute::KeyType(t) => r.key_type = t.to_string(),
            Attribute::ValueLen(n) => r.value_len = n.into(),
            Attribute::Local(v) => r.local = v,
            Attribute::NeverExtractable(v) => r.never_extractable = v,
            Attribute::AlwaysSensitive(v) => r.always_sensitive = v,
            Attribute::Sensitive(v) => r.sensitive = v,
            Attribute::Extractable(v) => r.extractable = v,
            Attribute::Encrypt(v) => r.encrypt = v,
            Attribute::Decrypt(v) => r.decrypt = v,
            Attribute::Wrap(v) => r.wrap = v,
            Attribute::Unwrap(v) => r.unwrap = v,
            Attribute::Modifiable(v) => r.modifiable = v,
            Attribute::Destroyable(v) => r.destroyable = v,
            Attribute::AllowedMechanisms(m) => {
                r.allowed_mechanisms = m.iter().map(ToString::to_string).collect();
            }
            _ => {}
        }
    }
    r
}

impl Hsm {
    /// Handles of every object, of any class, labelled `urne-seal`.
    fn seal_objects(&self) -> Result<Vec<ObjectHandle>> {
        self.s()
            .find_objects(&[Attribute::Label(SEAL_KEY_LABEL.as_bytes().to_vec())])
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_FIND_OBJECTS), e))
    }

    /// Whether the token holds no key at all (no private key, no secret key): a new token,
    /// which `urne keys init` has not initialised.
    pub fn holds_no_key(&self) -> Result<bool> {
        for class in [ObjectClass::PRIVATE_KEY, ObjectClass::SECRET_KEY] {
            let found = self
                .s()
                .find_objects(&[Attribute::Class(class)])
                .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_FIND_OBJECTS), e))?;
            if !found.is_empty() {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether any object carries the sealing key's label.
    pub fn seal_key_present(&self) -> Result<bool> {
        Ok(!self.seal_objects()?.is_empty())
    }

    /// Whether the token's one secret key labelled `urne-seal` is one whose generation a kill
    /// cut (spec/appliance.md §6.9): the token created it from urne's template, but not yet with the
    /// value and `CKA_LOCAL` its generation's last write gives it.
    pub fn seal_key_cut(&self) -> Result<bool> {
        let keys = self
            .s()
            .find_objects(&[
                Attribute::Class(ObjectClass::SECRET_KEY),
                Attribute::Label(SEAL_KEY_LABEL.as_bytes().to_vec()),
            ])
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_FIND_OBJECTS), e))?;
        let [h] = keys[..] else {
            return Ok(false);
        };
        let attrs = self
            .s()
            .get_attributes(h, &[AttributeType::Local])
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_SEAL_KEY_ATTRIBUTES), e))?;
        Ok(!attrs.iter().any(|a| matches!(a, Attribute::Local(true))))
    }

    /// Generates the sealing key inside the token (spec/appliance.md §6.9) and reads back the attributes
    /// that prove what it is. Refuses if any object already carries its label: urne never
    /// replaces a key.
    pub fn generate_seal_key(&self) -> Result<SealKeyRecord> {
        if self.seal_key_present()? {
            return Err(Error::new(
                Kind::KeysExist,
                crate::msg!(
                    m::ERR_SEAL_KEY_EXISTS,
                    label = format_args!("{SEAL_KEY_LABEL:?}")
                ),
                crate::msg!(m::REC_SEAL_KEY_EXISTS),
            ));
        }
        let mut id = [0u8; KEY_ID_LEN];
        self.s()
            .generate_random_slice(&mut id)
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_GENERATE_RANDOM), e))?;
        let template = [
            Attribute::Class(ObjectClass::SECRET_KEY),
            Attribute::KeyType(KeyType::AES),
            Attribute::ValueLen(32.into()),
            Attribute::Token(true),
            Attribute::Private(true),
            Attribute::Sensitive(true),
            Attribute::Extractable(false),
            Attribute::Encrypt(true),
            Attribute::Decrypt(true),
            Attribute::Wrap(false),
            Attribute::Unwrap(false),
            Attribute::Sign(false),
            Attribute::Verify(false),
            Attribute::Derive(false),
            Attribute::Modifiable(false),
            Attribute::Destroyable(false),
            Attribute::Copyable(false),
            Attribute::AllowedMechanisms(vec![MechanismType::AES_GCM]),
            Attribute::Id(id.to_vec()),
            Attribute::Label(SEAL_KEY_LABEL.as_bytes().to_vec()),
        ];
        self.s()
            .generate_key(&Mechanism::AesKeyGen, &template)
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_GENERATE_AES), e))?;
        Ok(self.seal_key()?.1)
    }

    /// The sealing key's attributes, read back from the token.
    pub fn seal_key_info(&self) -> Result<SealKeyRecord> {
        Ok(self.seal_key()?.1)
    }

    /// [`Hsm::seal_key`], found and checked once per session: the key is neither modifiable nor
    /// destroyable, so what was checked stays true while the session lasts.
    fn seal_key_of_session(&self) -> Result<(ObjectHandle, SealKeyRecord)> {
        let mut cached = self
            .sealing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(k) = cached.as_ref() {
            return Ok(k.clone());
        }
        let k = self.seal_key()?;
        *cached = Some(k.clone());
        Ok(k)
    }

    /// The sealing key: its handle and its attributes, which must be sound
    /// ([`SealKeyRecord::is_sound`]); none (a token initialised by an urne without one), several,
    /// or one that is not what urne generates, exit 3.
    fn seal_key(&self) -> Result<(ObjectHandle, SealKeyRecord)> {
        let keys = self
            .s()
            .find_objects(&[
                Attribute::Class(ObjectClass::SECRET_KEY),
                Attribute::Label(SEAL_KEY_LABEL.as_bytes().to_vec()),
            ])
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_FIND_OBJECTS), e))?;
        let h = match keys[..] {
            [h] => h,
            [] if self.seal_key_present()? => {
                return Err(Error::new(
                    Kind::KeyUnfit,
                    crate::msg!(
                        m::ERR_SEAL_KEY_NOT_SECRET,
                        label = format_args!("{SEAL_KEY_LABEL:?}")
                    ),
                    crate::msg!(m::REC_HSM_ALTERED_CEREMONY),
                ));
            }
            [] if self.holds_no_key()? => {
                return Err(Error::new(
                    Kind::KeyMissing,
                    crate::msg!(m::ERR_SEAL_TOKEN_NEW),
                    crate::msg!(m::REC_SEAL_TOKEN_NEW),
                ));
            }
            [] => {
                return Err(Error::new(
                    Kind::KeyMissing,
                    crate::msg!(m::ERR_SEAL_KEY_MISSING),
                    crate::msg!(m::REC_SEAL_KEY_MISSING),
                ));
            }
            _ => {
                return Err(Error::new(
                    Kind::KeyMissing,
                    crate::msg!(
                        m::ERR_SEAL_KEYS_MANY,
                        n = keys.len(),
                        label = format_args!("{SEAL_KEY_LABEL:?}")
                    ),
                    crate::msg!(m::REC_HSM_ALTERED_CEREMONY),
                ));
            }
        };
        let attrs = self
            .s()
            .get_attributes(
                h,
                &[
                    AttributeType::Id,
                    AttributeType::KeyType,
                    AttributeType::ValueLen,
                    AttributeType::Local,
                    AttributeType::NeverExtractable,
                    AttributeType::AlwaysSensitive,
                    AttributeType::Sensitive,
                    AttributeType::Extractable,
                    AttributeType::Encrypt,
                    AttributeType::Decrypt,
                    AttributeType::Wrap,
                    AttributeType::Unwrap,
                    AttributeType::Modifiable,
                    AttributeType::Destroyable,
                    AttributeType::AllowedMechanisms,
                ],
            )
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_SEAL_KEY_ATTRIBUTES), e))?;
        let r = record_of(attrs);
        if !r.is_sound() || !urne_ceremony::sealed::is_key_id(&r.key_id) {
            return Err(Error::new(
                Kind::KeyUnfit,
                crate::msg!(m::ERR_SEAL_KEY_UNFIT, record = format_args!("{r:?}")),
                crate::msg!(m::REC_SEAL_KEY_UNFIT),
            ));
        }
        Ok((h, r))
    }

    /// Seals `plaintext` (spec/appliance.md §6.9): AES-256-GCM under the token's sealing key, in the token
    /// (`C_Encrypt`), with a fresh IV from the token's generator and `aad` as additional
    /// authenticated data (the caller builds it with `urne_ceremony::sealed::aad`). The box
    /// is opened again before it is returned: a token that seals what it cannot open fails
    /// closed.
    pub fn seal(&self, aad: &[u8], plaintext: &[u8]) -> Result<SealedBox> {
        let (h, key) = self.seal_key_of_session()?;
        let mut iv = [0u8; IV_LEN];
        self.s()
            .generate_random_slice(&mut iv)
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_GENERATE_RANDOM), e))?;
        {
            let mut ivs = IVS
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if iv.iter().all(|&b| b == iv[0]) || ivs.contains(&iv) {
                return Err(Error::new(
                    Kind::HsmHealthCheck,
                    crate::msg!(m::ERR_SEAL_IV),
                    crate::msg!(m::REC_HSM_GENERATOR_FAULTY),
                ));
            }
            ivs.push(iv);
        }
        let mut iv_param = iv;
        let ct = {
            let params = GcmParams::new(&mut iv_param, aad, TAG_BITS.into()).map_err(|e| {
                Error::new(Kind::Defect, crate::msg!(m::ERR_SEAL_PARAMS, e = e), "")
            })?;
            self.s()
                .encrypt(&Mechanism::AesGcm(params), h, plaintext)
                .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_ENCRYPT), e))?
        };
        if ct.len() != plaintext.len() + TAG_LEN {
            return Err(Error::new(
                Kind::HsmMisbehaves,
                crate::msg!(
                    m::ERR_SEAL_LENGTH,
                    len = plaintext.len(),
                    got = ct.len(),
                    want = plaintext.len() + TAG_LEN
                ),
                crate::msg!(m::REC_SEAL_NOT_GCM),
            ));
        }
        let sealed = SealedBox::new(&key.key_id, iv, ct)
            .map_err(|e| Error::new(Kind::Defect, crate::msg!(m::ERR_SEAL_BOX, e = e), ""))?;
        // Opened by the bare call (no probe: a faulty token must not send the probe round again).
        match self.decrypt(h, aad, &sealed) {
            Ok(p) if p == plaintext => Ok(sealed),
            Ok(_) => Err(Error::new(
                Kind::HsmMisbehaves,
                crate::msg!(m::ERR_SEAL_ROUND_TRIP),
                crate::msg!(m::REC_SEAL_ROUND_TRIP),
            )),
            Err(e) => Err(hsm_err(crate::msg!(m::ERR_P11_OPEN_SEALED), e)),
        }
    }

    /// Opens a box sealed by [`Hsm::seal`] with the same `aad` (`C_Decrypt`, the tag checked in
    /// the token). A box naming another key, or whose tag does not verify (altered, or sealed
    /// for another trail or purpose), is refused, exit 5; no sealing key, exit 3.
    pub fn unseal(&self, aad: &[u8], sealed: &SealedBox) -> Result<Vec<u8>> {
        let (h, key) = self.seal_key_of_session()?;
        if sealed.ciphertext_and_tag.len() < TAG_LEN {
            return Err(not_opened(&crate::msg!(m::ERR_SEAL_SHORT)));
        }
        if sealed.key_id_hex() != key.key_id {
            return Err(not_opened(&crate::msg!(
                m::ERR_SEAL_OTHER_KEY,
                named = sealed.key_id_hex(),
                key = key.key_id
            )));
        }
        self.open_with(h, aad, sealed)
    }

    /// `C_Decrypt` of the box under the key `h` with `aad`, as the token answers it.
    fn decrypt(
        &self,
        h: ObjectHandle,
        aad: &[u8],
        sealed: &SealedBox,
    ) -> std::result::Result<Vec<u8>, P11Error> {
        let mut iv = sealed.iv;
        let params = GcmParams::new(&mut iv, aad, TAG_BITS.into())?;
        self.s()
            .decrypt(&Mechanism::AesGcm(params), h, &sealed.ciphertext_and_tag)
    }

    /// Opens the box, telling a tag that does not verify (exit 5) from a fault of the token
    /// (exit 3).
    fn open_with(&self, h: ObjectHandle, aad: &[u8], sealed: &SealedBox) -> Result<Vec<u8>> {
        match self.decrypt(h, aad, sealed) {
            Ok(p) if p.len() == sealed.secret_len() => Ok(p),
            Ok(p) => Err(Error::new(
                Kind::HsmMisbehaves,
                crate::msg!(
                    m::ERR_SEAL_OPENED_LENGTH,
                    len = sealed.ciphertext_and_tag.len(),
                    got = p.len()
                ),
                crate::msg!(m::REC_SEAL_NOT_GCM),
            )),
            Err(P11Error::Pkcs11(
                RvError::EncryptedDataInvalid | RvError::EncryptedDataLenRange,
                Function::Decrypt,
            )) => Err(not_opened(&crate::msg!(m::ERR_SEAL_TAG))),
            // SoftHSM 2.6 answers a tag that does not verify with CKR_GENERAL_ERROR, as it would
            // a fault: a probe sealed and opened now tells them apart.
            Err(P11Error::Pkcs11(RvError::GeneralError, Function::Decrypt)) => {
                match self.seal(PROBE_AAD, &[0u8; 16]) {
                    Ok(_) => Err(not_opened(&crate::msg!(m::ERR_SEAL_TAG))),
                    Err(e) => Err(Error::new(
                        Kind::HsmMisbehaves,
                        crate::msg!(m::ERR_SEAL_PROBE, message = e.message),
                        crate::msg!(m::REC_SEAL_PROBE),
                    )),
                }
            }
            Err(e) => Err(hsm_err(crate::msg!(m::ERR_P11_DECRYPT), e)),
        }
    }
}

/// The additional data of the probe that tells a tag failure from a fault of the token.
const PROBE_AAD: &[u8] = b"urne/v2/sealed\nprobe\n";
