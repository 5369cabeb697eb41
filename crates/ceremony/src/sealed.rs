//! Secrets sealed by the token (spec/appliance.md §6.9): what the trail keeps of a secret it must not hold
//! in clear (a block's entropy, its seed). The token's sealing key, a non-extractable AES-256
//! key, encrypts the secret with AES-256-GCM; the trail keeps only the [`SealedBox`]: which key,
//! the IV, the ciphertext and its tag. The additional authenticated data ([`aad`]) names the
//! trail and what the secret is for, so a box copied to another trail or another purpose does
//! not open.
//!
//! This file is pure: the box's encodings and the additional data. Sealing and opening are the
//! token's (`src/edge/hsm/aead.rs`).

use serde::{Deserialize, Serialize};

use urne_verify::crypto::Hash32;

/// The label of the sealing key in the token.
pub const SEAL_KEY_LABEL: &str = "urne-seal";
/// The algorithm every box names.
pub const ALG: &str = "AES-256-GCM";
/// Bytes of the IV (96 bits, NIST SP 800-38D §8.2.2: random).
pub const IV_LEN: usize = 12;
/// Bytes of the GCM tag (128 bits), which ends the ciphertext.
pub const TAG_LEN: usize = 16;
/// Bytes of a sealing key's id (its `CKA_ID`), written as 16 lowercase hex digits.
pub const KEY_ID_LEN: usize = 8;
/// The longest purpose, in bytes.
pub const PURPOSE_MAX: usize = 128;
/// The first line of the additional authenticated data.
pub const AAD_TAG: &str = "urne/v2/sealed";

/// A secret sealed by the token's key: AES-256-GCM under the key named by `key_id`, with `iv`;
/// `ciphertext_and_tag` is the ciphertext (as long as the secret) followed by the 16-byte tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealedBox {
    /// The sealing key's id: its `CKA_ID` (written as 16 lowercase hex digits).
    pub key_id: [u8; KEY_ID_LEN],
    /// The IV, from the token's generator, unique per box.
    pub iv: [u8; IV_LEN],
    /// The ciphertext, then the tag.
    pub ciphertext_and_tag: Vec<u8>,
}

/// Why bytes or a JSON value are not a box urne writes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a sealed box: {0}")]
pub struct BoxError(pub String);

fn is_lower_hex(s: &str) -> bool {
    s.bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// A key id as a box and the trail write it: 16 lowercase hex digits.
pub fn is_key_id(s: &str) -> bool {
    s.len() == 2 * KEY_ID_LEN && is_lower_hex(s)
}

/// A key id written as 16 lowercase hex digits, as bytes.
pub fn parse_key_id(s: &str) -> Result<[u8; KEY_ID_LEN], BoxError> {
    let mut id = [0u8; KEY_ID_LEN];
    if !is_key_id(s) || hex::decode_to_slice(s, &mut id).is_err() {
        return Err(BoxError(format!(
            "key id {s:?} is not 16 lowercase hex digits"
        )));
    }
    Ok(id)
}

impl SealedBox {
    /// A box, checked: a key id of 16 lowercase hex digits, a ciphertext at least as long as
    /// its tag.
    pub fn new(
        key_id: &str,
        iv: [u8; IV_LEN],
        ciphertext_and_tag: Vec<u8>,
    ) -> Result<SealedBox, BoxError> {
        let key_id = parse_key_id(key_id)?;
        if ciphertext_and_tag.len() < TAG_LEN {
            return Err(BoxError(format!(
                "{} bytes of ciphertext: shorter than the {TAG_LEN}-byte tag",
                ciphertext_and_tag.len()
            )));
        }
        Ok(SealedBox {
            key_id,
            iv,
            ciphertext_and_tag,
        })
    }

    /// The key id as the trail writes it: 16 lowercase hex digits.
    pub fn key_id_hex(&self) -> String {
        hex::encode(self.key_id)
    }

    /// The length of the secret it holds.
    pub fn secret_len(&self) -> usize {
        self.ciphertext_and_tag.len().saturating_sub(TAG_LEN)
    }

    /// The byte form (spec/appliance.md §6.9): `key id (8 bytes) || iv (12) || ciphertext || tag (16)`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(KEY_ID_LEN + IV_LEN + self.ciphertext_and_tag.len());
        out.extend_from_slice(&self.key_id);
        out.extend_from_slice(&self.iv);
        out.extend_from_slice(&self.ciphertext_and_tag);
        out
    }

    /// Parses the byte form.
    pub fn from_bytes(b: &[u8]) -> Result<SealedBox, BoxError> {
        if b.len() < KEY_ID_LEN + IV_LEN + TAG_LEN {
            return Err(BoxError(format!("{} bytes: too short", b.len())));
        }
        let (id, rest) = b.split_at(KEY_ID_LEN);
        let (iv, ct) = rest.split_at(IV_LEN);
        let iv = <[u8; IV_LEN]>::try_from(iv).map_err(|_| BoxError("no IV".into()))?;
        SealedBox::new(&hex::encode(id), iv, ct.to_vec())
    }
}

/// The JSON form, members in this order (spec/appliance.md §6.9).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Wire {
    alg: String,
    key_id: String,
    iv: String,
    ct: String,
}

impl Serialize for SealedBox {
    /// `{"alg":"AES-256-GCM","key_id":<16 hex>,"iv":<24 hex>,"ct":<hex of ciphertext || tag>}`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Wire {
            alg: ALG.to_string(),
            key_id: self.key_id_hex(),
            iv: hex::encode(self.iv),
            ct: hex::encode(&self.ciphertext_and_tag),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for SealedBox {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<SealedBox, D::Error> {
        let w = Wire::deserialize(d)?;
        from_wire(&w).map_err(serde::de::Error::custom)
    }
}

fn from_wire(w: &Wire) -> Result<SealedBox, BoxError> {
    if w.alg != ALG {
        return Err(BoxError(format!("alg {:?}, not {ALG:?}", w.alg)));
    }
    let hex_of = |what: &str, s: &str| {
        if !is_lower_hex(s) || !s.len().is_multiple_of(2) {
            return Err(BoxError(format!("{what} is not lowercase hex")));
        }
        hex::decode(s).map_err(|e| BoxError(format!("{what}: {e}")))
    };
    let iv: [u8; IV_LEN] = hex_of("iv", &w.iv)?
        .try_into()
        .map_err(|_| BoxError(format!("iv is not {IV_LEN} bytes")))?;
    SealedBox::new(&w.key_id, iv, hex_of("ct", &w.ct)?)
}

/// Why a purpose cannot name a sealed secret.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("purpose {0:?} is not 1 to 128 printable ASCII characters")]
pub struct PurposeError(pub String);

/// The additional authenticated data of a box (spec/appliance.md §6.9): the UTF-8 bytes of
///
/// ```text
/// urne/v2/sealed\n<trail: 64 lowercase hex digits>\n<purpose>\n
/// ```
///
/// `purpose` (what the secret is, e.g. `block noel-de-la-chance-2015/100/2015-12/1 attempt 1
/// entropy`) is 1 to 128 characters of printable ASCII (0x20 to 0x7E), so the text has one
/// reading.
pub fn aad(trail: &Hash32, purpose: &str) -> Result<Vec<u8>, PurposeError> {
    if purpose.is_empty()
        || purpose.len() > PURPOSE_MAX
        || !purpose.bytes().all(|b| (0x20..=0x7e).contains(&b))
    {
        return Err(PurposeError(purpose.to_string()));
    }
    Ok(format!("{AAD_TAG}\n{trail}\n{purpose}\n").into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> SealedBox {
        SealedBox::new("0123456789abcdef", [7; IV_LEN], (0..40).collect()).unwrap()
    }

    #[test]
    fn the_json_form_is_the_documented_one_and_reads_back() {
        let b = sample();
        let json = serde_json::to_string(&b).unwrap();
        assert_eq!(
            json,
            format!(
                r#"{{"alg":"AES-256-GCM","key_id":"0123456789abcdef","iv":"{}","ct":"{}"}}"#,
                "07".repeat(12),
                hex::encode((0..40).collect::<Vec<u8>>())
            )
        );
        assert_eq!(serde_json::from_str::<SealedBox>(&json).unwrap(), b);
        assert_eq!(b.secret_len(), 24);
    }

    #[test]
    fn a_json_box_urne_does_not_write_is_refused() {
        let good = serde_json::to_value(sample()).unwrap();
        let variants = [
            ("alg", serde_json::json!("AES-128-GCM")),
            ("key_id", serde_json::json!("0123456789ABCDEF")),
            ("key_id", serde_json::json!("0123")),
            ("iv", serde_json::json!("07".repeat(11))),
            (
                "iv",
                serde_json::json!("07".repeat(12).to_uppercase() + "x"),
            ),
            ("ct", serde_json::json!("00".repeat(15))),
            ("ct", serde_json::json!("abc")),
            ("extra", serde_json::json!(1)),
        ];
        for (k, v) in variants {
            let mut j = good.clone();
            j[k] = v;
            assert!(serde_json::from_value::<SealedBox>(j).is_err(), "{k}");
        }
        let mut j = good;
        j.as_object_mut().unwrap().remove("iv");
        assert!(serde_json::from_value::<SealedBox>(j).is_err());
    }

    #[test]
    fn the_byte_form_is_key_id_iv_then_ciphertext_and_tag() {
        let b = sample();
        let bytes = b.to_bytes();
        assert_eq!(bytes.len(), 8 + 12 + 40);
        assert_eq!(&bytes[..8], &hex::decode("0123456789abcdef").unwrap()[..]);
        assert_eq!(&bytes[8..20], &[7; 12]);
        assert_eq!(SealedBox::from_bytes(&bytes).unwrap(), b);
        assert!(SealedBox::from_bytes(&bytes[..8 + 12 + 15]).is_err());
    }

    #[test]
    fn the_additional_data_names_the_trail_and_the_purpose() {
        let t = Hash32([0xab; 32]);
        assert_eq!(
            aad(&t, "block x attempt 1 entropy").unwrap(),
            format!(
                "urne/v2/sealed\n{}\nblock x attempt 1 entropy\n",
                "ab".repeat(32)
            )
            .into_bytes()
        );
        for bad in ["", "a\nb", "é", &"x".repeat(129), "tab\there"] {
            assert!(aad(&t, bad).is_err(), "{bad:?}");
        }
        assert!(aad(&t, &"x".repeat(128)).is_ok());
    }
}
