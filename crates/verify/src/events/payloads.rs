//! The payloads of the trail's events that belong to no day and no block (spec/appliance.md §6.2): the
//! start of a command, the keys, a failure, a refused input. The `draw.*` and `block.*`
//! payloads are in `draw::records` and `block::records`; the registry (`events::kinds`) names
//! them all. Each payload's fields are in the order they are stored (the bytes are hashed as
//! stored, spec/formats.md §6.1), and a payload with a member its type does not define does not parse.

use crate::crypto::Hash32;
use crate::software::{Pkcs11Identity, SoftwareIdentity};
use serde::{Deserialize, Serialize};

/// The `software.start` record: a command that changes anything has begun, run by this
/// software, with this code answering for the HSM.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoftwareStart {
    /// The command as the trail records it (e.g. `block generate`).
    pub command: String,
    /// The software running it (spec/formats.md §4.7).
    pub software: SoftwareIdentity,
    /// The PKCS#11 module, the token and the files mapped in the process (spec/formats.md §6.2).
    pub pkcs11: Pkcs11Identity,
}

/// What a key is for. One key, one use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KeyRole {
    /// Signs every output file (results, bundles, commitments, reveals).
    Result,
    /// Signs audit-trail checkpoints.
    Audit,
}

impl KeyRole {
    /// Every role, in the order the keys are generated and listed.
    pub const ALL: [KeyRole; 2] = [KeyRole::Result, KeyRole::Audit];

    /// The role's name (`result`, `audit`), as the trail and the key files spell it.
    pub fn name(self) -> &'static str {
        match self {
            KeyRole::Result => "result",
            KeyRole::Audit => "audit",
        }
    }
}

/// The module and token the keys were generated in, as read from PKCS#11.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenRecord {
    /// The PKCS#11 module's path as configured.
    pub module: String,
    /// The library's description (`C_GetInfo`).
    pub library: String,
    /// The library's version.
    pub library_version: String,
    /// The Cryptoki version the library implements.
    pub cryptoki_version: String,
    /// The token's label.
    pub token_label: String,
    /// The token's manufacturer.
    pub manufacturer: String,
    /// The token's model.
    pub model: String,
    /// The token's serial number.
    pub serial: String,
}

/// One generated key as read back from the token, with the attributes that prove where it was
/// made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(clippy::struct_excessive_bools)] // the token's boolean attributes, as PKCS#11 names them
pub struct KeyRecord {
    /// What the key is for.
    pub role: KeyRole,
    /// The key's label in the token.
    pub label: String,
    /// The key id (spec/formats.md §1.4).
    pub key_id: crate::values::KeyId,
    /// The 32-byte Ed25519 public key, hex.
    pub public_key: Hash32,
    /// `CKA_LOCAL`: generated on the token.
    pub local: bool,
    /// `CKA_NEVER_EXTRACTABLE`: never was extractable.
    pub never_extractable: bool,
    /// `CKA_ALWAYS_SENSITIVE`: always was sensitive.
    pub always_sensitive: bool,
    /// `CKA_SENSITIVE`.
    pub sensitive: bool,
    /// `CKA_EXTRACTABLE`.
    pub extractable: bool,
}

/// The token's sealing key (spec/appliance.md §6.9) as read back from it, with the attributes that prove
/// it was generated there, can never leave it, and can only encrypt and decrypt with AES-GCM.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(clippy::struct_excessive_bools)] // the token's boolean attributes, as PKCS#11 names them
pub struct SealKeyRecord {
    /// The key's label in the token (`urne-seal`).
    pub label: String,
    /// Its `CKA_ID`, 16 lowercase hex digits: the `key_id` every box it seals names.
    pub key_id: String,
    /// `CKA_KEY_TYPE`: `AES`.
    pub key_type: String,
    /// `CKA_VALUE_LEN`: 32 (AES-256).
    pub value_len: u64,
    /// `CKA_LOCAL`: generated on the token.
    pub local: bool,
    /// `CKA_NEVER_EXTRACTABLE`.
    pub never_extractable: bool,
    /// `CKA_ALWAYS_SENSITIVE`.
    pub always_sensitive: bool,
    /// `CKA_SENSITIVE`.
    pub sensitive: bool,
    /// `CKA_EXTRACTABLE`.
    pub extractable: bool,
    /// `CKA_ENCRYPT`.
    pub encrypt: bool,
    /// `CKA_DECRYPT`.
    pub decrypt: bool,
    /// `CKA_WRAP`.
    pub wrap: bool,
    /// `CKA_UNWRAP`.
    pub unwrap: bool,
    /// `CKA_MODIFIABLE`.
    pub modifiable: bool,
    /// `CKA_DESTROYABLE`.
    pub destroyable: bool,
    /// `CKA_ALLOWED_MECHANISMS`, as PKCS#11 names them (`CKM_AES_GCM`).
    pub allowed_mechanisms: Vec<String>,
}

impl SealKeyRecord {
    /// True when the attributes prove what spec/appliance.md §6.9 requires: an AES-256 key generated in the
    /// token, always sensitive and never extractable, for AES-GCM encryption and decryption
    /// only, which nobody can change or destroy.
    pub fn is_sound(&self) -> bool {
        self.key_type == "AES"
            && self.value_len == 32
            && self.local
            && self.never_extractable
            && self.always_sensitive
            && self.sensitive
            && !self.extractable
            && self.encrypt
            && self.decrypt
            && !self.wrap
            && !self.unwrap
            && !self.modifiable
            && !self.destroyable
            && self.allowed_mechanisms == ["CKM_AES_GCM"]
    }
}

/// The `keys.generated` record: the token and the keys generated in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeysGenerated {
    /// The module and token.
    pub token: TokenRecord,
    /// The keys, in the order of [`KeyRole::ALL`].
    pub keys: Vec<KeyRecord>,
    /// The sealing key (spec/appliance.md §6.9); absent in trails initialised before urne had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seal_key: Option<SealKeyRecord>,
}

/// One exported public key, as `keys.json` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ExportedKey {
    /// The PEM file's name beside `keys.json`.
    pub file: String,
    /// The key id (spec/formats.md §1.4).
    pub key_id: crate::values::KeyId,
    /// The 32-byte Ed25519 public key, hex.
    pub public_key: Hash32,
    /// The key's label in the token.
    pub label: String,
    /// Whether the token's attributes prove the private key never left it.
    pub hardware_bound: bool,
}

/// The public keys exported: the content of `keys.json`, by role.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ExportedKeys {
    /// The result key.
    pub result: ExportedKey,
    /// The audit key.
    pub audit: ExportedKey,
}

/// The `keys.exported` record: the public keys written into a folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeysExported {
    /// The output folder as the operator gave it.
    pub out: String,
    /// What `keys.json` lists.
    pub keys: ExportedKeys,
}

/// The `command.failed` record: an error that stopped a command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandFailed {
    /// The command as the trail records it.
    pub command: String,
    /// The error's class: the name of its exit code (e.g. `refused`).
    pub class: String,
    /// The error message as shown.
    pub error: String,
}

/// The `input.rejected` record: a refused input file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputRejected {
    /// The file's path as the operator gave it.
    pub file: String,
    /// SHA-256 of the file's bytes; `null` when it could not be read.
    pub sha256: Option<Hash32>,
    /// Why it was refused.
    pub reason: String,
}

/// The `trail.created` record, always event 1 of a version-2 trail (spec/appliance.md §6.6): the trail's
/// identity, which the token keeps in its `urne-trail` object, and the audit key that signs
/// every checkpoint of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrailCreated {
    /// The trail's identity (spec/appliance.md §6.6).
    pub trail: Hash32,
    /// The audit key's id (spec/formats.md §1.3).
    pub audit_key_id: crate::values::KeyId,
    /// The audit public key, hex.
    pub audit_public_key: Hash32,
}

/// A day carried into a restarted trail from the outputs published under the trail it
/// replaces (spec/appliance.md §6.8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CarriedDay {
    /// The rules' operation id the output names.
    pub operation: String,
    /// The day, `YYYY-MM-DD`.
    pub day: crate::values::Day,
    /// The attempt the output names.
    pub attempt: crate::values::Attempt,
    /// `drawn` (a result was published: the attempt may only be voided) or `voided` (a void
    /// notice: the next attempt is open).
    pub stage: String,
    /// The SHA-256 of the output's primary file.
    pub output: Hash32,
}

/// A block carried into a restarted trail (spec/appliance.md §6.8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CarriedBlock {
    /// The block's canonical id.
    pub block: crate::values::BlockId,
    /// The attempt the output names.
    pub attempt: crate::values::Attempt,
    /// `generated`, `revealed` (the attempt may only be voided) or `voided`.
    pub stage: String,
    /// The SHA-256 of the output's primary file.
    pub output: Hash32,
}

/// The `trail.restarted` record, event 1 of a trail made by a witnessed restart (spec/appliance.md §6.8):
/// the new trail's identity, the trail it replaces and the token's last mark of it, the reason
/// given in front of the commissaire, and what the published outputs say was already done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrailRestarted {
    /// The new trail's identity.
    pub trail: Hash32,
    /// The audit key's id.
    pub audit_key_id: crate::values::KeyId,
    /// The audit public key, hex.
    pub audit_public_key: Hash32,
    /// The trail it replaces.
    pub previous_trail: Hash32,
    /// The token's last mark of it: its size.
    pub previous_mark_size: u64,
    /// The token's last mark of it: its root.
    pub previous_mark_root: Hash32,
    /// Why, as typed.
    pub reason: String,
    /// The days the published outputs show drawn or voided.
    pub days: Vec<CarriedDay>,
    /// The blocks the published outputs show generated, revealed or voided.
    pub blocks: Vec<CarriedBlock>,
}

/// The `entropy.refused` record (spec/appliance.md §6.2): the token returned, for a draw or a block,
/// entropy the trail had already seen (the same SHA-256 as any earlier entropy, draws and blocks
/// alike); it is recorded by its hash only and never used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntropyRefused {
    /// What asked for it: `day YYYY-MM-DD` or `block <canonical id>`.
    pub purpose: String,
    /// The attempt it was for.
    pub attempt: u32,
    /// The value's entropy commitment (spec/formats.md §3.2), the one hash by which entropies are
    /// compared.
    pub entropy_commitment: Hash32,
    /// Why, in words.
    pub reason: String,
}

/// One of production's keys pinned in the trail (spec/formats.md §6.2, `producer.keys`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PinnedKey {
    /// The key's id (spec/formats.md §1.3): the first 16 hex digits of the SHA-256 of `public_key`.
    pub key_id: crate::values::KeyId,
    /// The raw Ed25519 public key, hex.
    pub public_key: Hash32,
}

/// The `producer.keys` record (spec/formats.md §6.2, §4.3): the set of production's keys a seal trusts
/// from this event on, and the ids of the set it replaces (empty for the trail's first). A seal
/// trusts these keys only: never a key file named by the configuration or the command line
/// that is not among them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProducerKeys {
    /// The keys, by key id in bytewise order, each once.
    pub keys: Vec<PinnedKey>,
    /// The key ids of the set pinned before (bytewise order), empty for the first.
    pub previous: Vec<crate::values::KeyId>,
}

impl ProducerKeys {
    /// The pinned set's key ids, in order.
    pub fn ids(&self) -> Vec<crate::values::KeyId> {
        self.keys.iter().map(|k| k.key_id.clone()).collect()
    }

    /// The raw public keys.
    pub fn public_keys(&self) -> Vec<[u8; 32]> {
        self.keys.iter().map(|k| k.public_key.0).collect()
    }

    /// Why the record cannot be a set urne pins: empty, out of order or repeated, or a key id
    /// that is not its key's.
    pub fn check(&self) -> Result<(), String> {
        if self.keys.is_empty() {
            return Err("production's pinned keys are an empty set".into());
        }
        for w in self.keys.windows(2) {
            if w[0].key_id >= w[1].key_id {
                return Err("production's pinned keys are not in key id order, each once".into());
            }
        }
        for k in &self.keys {
            if k.key_id != crate::values::KeyId::of(&k.public_key.0) {
                return Err(format!("pinned key id {} is not its key's", k.key_id));
            }
        }
        Ok(())
    }
}

/// The `clock.corrected` record (spec/appliance.md §6.2, spec/formats.md §6.4 (5)): the events before it were dated by a
/// clock set wrong (ahead), and a person at the appliance's console confirmed the true date and
/// time, with which the appliance's clock now agrees. It is the one event that may be dated
/// earlier than the event before it, and only by naming that event's time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockCorrected {
    /// The time of the event before it, exactly as stored: the last time the clock set wrong
    /// gave (urne's one format, spec/formats.md §6.1).
    pub wrong: String,
    /// The date and time confirmed at the terminal (a watch's, typed to the minute in Paris
    /// time), in urne's one format (UTC, seconds and microseconds zero).
    pub confirmed: String,
    /// Why the clock was wrong, as typed (at least 10 characters).
    pub reason: String,
}

/// The `clock.confirmed` record (spec/appliance.md §6.6): the command that records it found the clock more
/// than 31 days after the trail's last event, and a person confirmed the date and time at the
/// terminal before it recorded anything.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockConfirmed {
    /// The time of the trail's last event before the command, as stored.
    pub previous: String,
    /// The date and time confirmed at the terminal (a watch's, typed to the minute in Paris
    /// time), in urne's one format (UTC, seconds and microseconds zero).
    pub confirmed: String,
}
