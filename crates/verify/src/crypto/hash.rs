//! SHA-256 (FIPS 180-4) and the tagged hash of spec/formats.md §1.2, and [`Hash32`], the 32-byte value
//! every file format and trail record writes as 64 lowercase hex digits (spec/formats.md §1.1).

use sha2::{Digest, Sha256};
use std::fmt;

/// A 32-byte value that the formats write as 64 lowercase hex digits (spec/formats.md §1.1): a SHA-256
/// digest or tagged hash (spec/formats.md §1.2), a Merkle root (spec/formats.md §2.4), a pseudonym, salt or account id (spec/formats.md §4.2), a
/// seed or seed commitment (spec/formats.md §4.4, §5.B3).
///
/// It serialises as that hex string and deserialises only from exactly 64 lowercase hex digits,
/// so a value in a parsed file or record is well formed by construction: nothing re-parses it
/// later. It dereferences to its bytes as a slice (what hashing, Merkle trees and encodings
/// take); order, equality and hashing are those of the bytes.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Hash32(pub [u8; 32]);

impl Hash32 {
    /// 32 zero bytes: the `prev_hash` of the first audit event (spec/formats.md §6.1).
    pub const ZERO: Hash32 = Hash32([0; 32]);

    /// The 32 bytes.
    pub const fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The 32 bytes as a slice.
    pub const fn as_slice(&self) -> &[u8] {
        &self.0
    }

    /// Parses exactly 64 lowercase hex digits (spec/formats.md §1.1); `None` for anything else.
    pub fn from_hex(s: &str) -> Option<Hash32> {
        parse_hex32(s).map(Hash32)
    }

    /// Writes the 64 lowercase hex digits into `buf` and returns them as text.
    fn encode<'a>(&self, buf: &'a mut [u8; 64]) -> &'a str {
        // Invariant: 32 bytes encode to exactly 64 ASCII hex digits, so neither step can fail.
        hex::encode_to_slice(self.0, buf).expect("32 bytes fill 64 hex digits");
        std::str::from_utf8(buf).expect("hex digits are ASCII")
    }
}

impl From<[u8; 32]> for Hash32 {
    fn from(bytes: [u8; 32]) -> Hash32 {
        Hash32(bytes)
    }
}

impl From<Hash32> for [u8; 32] {
    fn from(h: Hash32) -> [u8; 32] {
        h.0
    }
}

impl TryFrom<&[u8]> for Hash32 {
    type Error = std::array::TryFromSliceError;

    /// The slice's bytes, when it is exactly 32 bytes long.
    fn try_from(s: &[u8]) -> Result<Hash32, Self::Error> {
        <[u8; 32]>::try_from(s).map(Hash32)
    }
}

impl std::ops::Deref for Hash32 {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl AsRef<[u8]> for Hash32 {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Display for Hash32 {
    /// The 64 lowercase hex digits (width and alignment flags apply, as for a string).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.encode(&mut [0u8; 64]))
    }
}

impl fmt::Debug for Hash32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hash32({self})")
    }
}

/// Its JSON Schema (schemas/, generated in the tests): 64 lowercase hex digits.
#[cfg(test)]
impl schemars::JsonSchema for Hash32 {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Hash32".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^[0-9a-f]{64}$",
            "description": "32 bytes as 64 lowercase hex digits (spec/formats.md §1.2)."
        })
    }
}

impl serde::Serialize for Hash32 {
    /// As the string of its 64 lowercase hex digits.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.encode(&mut [0u8; 64]))
    }
}

impl<'de> serde::Deserialize<'de> for Hash32 {
    /// From a string of exactly 64 lowercase hex digits; anything else is an error.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Hash32, D::Error> {
        d.deserialize_str(HexVisitor)
    }
}

/// Accepts a string of exactly 64 lowercase hex digits. Its messages are those the audit
/// event's hex fields have always given (`expected a string`, `expected 64 hex digits`).
struct HexVisitor;

impl serde::de::Visitor<'_> for HexVisitor {
    type Value = Hash32;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Hash32, E> {
        Hash32::from_hex(v).ok_or_else(|| E::custom("expected 64 hex digits"))
    }
}

/// SHA-256 of `data` (the sha2 crate, the core's one SHA-256 backend: see crates/verify/Cargo.toml).
pub fn sha256(data: &[u8]) -> Hash32 {
    Hash32(Sha256::digest(data).into())
}

/// SHA-256's initial hash value (FIPS 180-4 §5.3.3).
const SHA256_IV: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];

/// A SHA-256 state's words as the digest's bytes (big-endian, FIPS 180-4 §6.2.2 step 4).
fn state_bytes(state: &[u32; 8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (o, w) in out.chunks_exact_mut(4).zip(state) {
        o.copy_from_slice(&w.to_be_bytes());
    }
    out
}

/// HMAC-SHA256 (RFC 2104) under a 32-byte key, its pad states precomputed: the SHA-256 states
/// after the key XOR ipad and the key XOR opad blocks. A MAC of a message that fits one block
/// with its padding is then two compressions of blocks padded by hand (FIPS 180-4 §5.1.1), for
/// the millions of MACs of a block's grid streams and its shuffle's DRBG.
#[derive(Clone)]
pub(crate) struct HmacPads {
    inner: [u32; 8],
    outer: [u32; 8],
}

impl HmacPads {
    /// The pad states of `key` (shorter than SHA-256's block: RFC 2104 pads it with zeros).
    pub(crate) fn new(key: &[u8; 32]) -> HmacPads {
        let pad = |byte: u8| {
            let mut block = [byte; 64];
            for (b, k) in block.iter_mut().zip(key) {
                *b ^= k;
            }
            let mut state = SHA256_IV;
            sha2::block_api::compress256(&mut state, &[block]);
            state
        };
        HmacPads {
            inner: pad(0x36),
            outer: pad(0x5c),
        }
    }

    /// `HMAC(key, message)` for a `message` of at most 55 bytes given already padded as the
    /// inner hash's second block (its bit length counting the 64-byte key block).
    pub(crate) fn mac_padded(&self, message: &[u8; 64]) -> [u8; 32] {
        let mut inner = self.inner;
        sha2::block_api::compress256(&mut inner, &[*message]);
        let mut block = [0u8; 64];
        block[..32].copy_from_slice(&state_bytes(&inner));
        block[32] = 0x80;
        block[56..].copy_from_slice(&((64u64 + 32) * 8).to_be_bytes());
        let mut outer = self.outer;
        sha2::block_api::compress256(&mut outer, &[block]);
        state_bytes(&outer)
    }

    /// `HMAC(key, message)` for a 32-byte `message`.
    pub(crate) fn mac32(&self, message: &[u8; 32]) -> [u8; 32] {
        let mut block = [0u8; 64];
        block[..32].copy_from_slice(message);
        block[32] = 0x80;
        block[56..].copy_from_slice(&((64u64 + 32) * 8).to_be_bytes());
        self.mac_padded(&block)
    }
}

/// Longest message [`sha256_short`] hashes in its stack buffer (three blocks, less the padding).
const SHORT_MAX: usize = 3 * 64 - 9;

/// SHA-256 of the concatenation of `parts`: the same digest as [`sha256`], for the millions of
/// short messages of a block (ticket leaves, tree nodes) padded by hand (FIPS 180-4 §5.1.1) into
/// a stack buffer and compressed in one call, without the streaming hasher's buffering. Longer
/// messages go to the streaming hasher.
pub(crate) fn sha256_short(parts: &[&[u8]]) -> Hash32 {
    let total: usize = parts.iter().map(|p| p.len()).sum();
    if total > SHORT_MAX {
        let mut h = Sha256::new();
        for p in parts {
            h.update(p);
        }
        return Hash32(h.finalize().into());
    }
    let mut blocks = [[0u8; 64]; 3];
    let flat = blocks.as_flattened_mut();
    let mut n = 0;
    for p in parts {
        flat[n..n + p.len()].copy_from_slice(p);
        n += p.len();
    }
    flat[n] = 0x80;
    let used = (n + 9).div_ceil(64);
    // n <= SHORT_MAX: the bit length fits a u64 and the padding fits the buffer.
    flat[used * 64 - 8..used * 64].copy_from_slice(&((n as u64) * 8).to_be_bytes());
    let mut state = SHA256_IV;
    sha2::block_api::compress256(&mut state, &blocks[..used]);
    Hash32(state_bytes(&state))
}

/// Domain-separated SHA-256 (spec/formats.md §1.2): `SHA-256(label || 0x00 || for each part: u64be(len) || part)`.
/// The label names the purpose, so a hash made for one purpose can never stand for another, and
/// the length prefixes make the concatenation unambiguous.
pub fn tagged_hash(label: &str, parts: &[&[u8]]) -> Hash32 {
    let mut h = Sha256::new();
    h.update(label.as_bytes());
    h.update([0u8]);
    for p in parts {
        h.update((p.len() as u64).to_be_bytes());
        h.update(p);
    }
    Hash32(h.finalize().into())
}

/// Lowercase hex of a digest (its [`Display`](fmt::Display) form).
pub fn hex32(h: &Hash32) -> String {
    h.to_string()
}

/// Parses exactly 64 lowercase hex digits into 32 bytes ([`Hash32::from_hex`] for the typed
/// value).
pub fn parse_hex32(s: &str) -> Option<[u8; 32]> {
    // One pass over the bytes, lowercase only (every record's hashes are decoded this way: a
    // year's trail holds tens of thousands of them).
    fn nibble(b: u8) -> Option<u8> {
        match b {
            b'0'..=b'9' => Some(b - b'0'),
            b'a'..=b'f' => Some(b - b'a' + 10),
            _ => None,
        }
    }
    let bytes = s.as_bytes();
    if bytes.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (o, pair) in out.iter_mut().zip(bytes.chunks_exact(2)) {
        *o = nibble(pair[0])? * 16 + nibble(pair[1])?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The messages a hex field's refusal gives (they reach the reader of a `malformed` failure).
    #[test]
    fn a_hash_field_is_refused_with_its_messages() {
        let e = serde_json::from_str::<Hash32>("5").unwrap_err().to_string();
        assert!(e.contains("expected a string"), "{e}");
        let e = serde_json::from_str::<Hash32>("\"zz\"")
            .unwrap_err()
            .to_string();
        assert!(e.contains("expected 64 hex digits"), "{e}");
        let h = "ab".repeat(32);
        assert_eq!(
            serde_json::from_str::<Hash32>(&format!("\"{h}\"")).unwrap(),
            Hash32::from_hex(&h).unwrap()
        );
    }

    #[test]
    fn the_padded_hmac_is_hmac() {
        use hmac::{KeyInit, Mac};
        type HmacSha256 = hmac::Hmac<Sha256>;
        for k in 0..20u8 {
            let key = [k.wrapping_mul(37); 32];
            let msg = [k.wrapping_mul(11).wrapping_add(5); 32];
            let mut m = <HmacSha256 as KeyInit>::new_from_slice(&key).unwrap();
            m.update(&msg);
            let want: [u8; 32] = m.finalize().into_bytes().into();
            assert_eq!(HmacPads::new(&key).mac32(&msg), want);
        }
    }

    #[test]
    fn the_short_sha256_is_sha256_at_every_length_and_cut() {
        let data: Vec<u8> = (0..400u32).map(|i| (i * 7 + 3).to_le_bytes()[0]).collect();
        for len in 0..=data.len() {
            let m = &data[..len];
            assert_eq!(sha256_short(&[m]), sha256(m), "{len} bytes");
            let cut = len / 3;
            assert_eq!(
                sha256_short(&[&m[..cut], &[], &m[cut..]]),
                sha256(m),
                "{len} bytes cut at {cut}"
            );
        }
    }

    #[test]
    fn sha256_passes_the_fips_180_examples() {
        let million_a = vec![b'a'; 1_000_000];
        for (msg, digest) in [
            (
                &b"abc"[..],
                "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            ),
            (
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
            ),
            (
                &million_a[..],
                "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
            ),
        ] {
            assert_eq!(hex32(&sha256(msg)), digest);
        }
    }

    #[test]
    fn tagged_hash_separates_labels_and_boundaries() {
        assert_ne!(tagged_hash("a", &[b"bc"]), tagged_hash("a", &[b"b", b"c"]));
        assert_ne!(tagged_hash("a", &[b"x"]), tagged_hash("b", &[b"x"]));
    }

    #[test]
    fn parse_hex32_is_strict() {
        assert!(parse_hex32(&"ab".repeat(32)).is_some());
        assert!(parse_hex32(&"AB".repeat(32)).is_none());
        assert!(parse_hex32(&"ab".repeat(31)).is_none());
    }

    #[test]
    fn hash32_is_lowercase_hex_in_text_and_json() {
        let h = Hash32(std::array::from_fn(|i| u8::try_from(i * 8).unwrap() | 0x0a));
        let hex = hex::encode(h.0);
        assert_eq!(h.to_string(), hex);
        assert_eq!(format!("{h:<70}|"), format!("{hex:<70}|"));
        assert_eq!(format!("{h:?}"), format!("Hash32({hex})"));
        assert_eq!(
            serde_json::to_string(&h).unwrap(),
            serde_json::to_string(&hex).unwrap()
        );
        assert_eq!(
            serde_json::from_str::<Hash32>(&format!("\"{hex}\"")).unwrap(),
            h
        );
        assert_eq!(
            serde_json::from_value::<Hash32>(serde_json::Value::String(hex.clone())).unwrap(),
            h
        );
        assert_eq!(Hash32::from_hex(&hex), Some(h));
    }

    #[test]
    fn hash32_deserialises_strictly() {
        let good = "ab".repeat(32);
        for bad in [
            good.to_uppercase(),
            "ab".repeat(31),
            "ab".repeat(33),
            format!("{}g", &good[..63]),
            format!(" {}", &good[..63]),
            String::new(),
        ] {
            let e = serde_json::from_str::<Hash32>(&format!("\"{bad}\"")).unwrap_err();
            assert!(
                e.to_string().contains("expected 64 hex digits"),
                "{bad}: {e}"
            );
        }
        for not_a_string in ["12", "null", "[1,2]", "{}"] {
            assert!(serde_json::from_str::<Hash32>(not_a_string).is_err());
        }
    }

    #[test]
    fn hash32_converts_to_and_from_its_bytes() {
        let b = [7u8; 32];
        let h = Hash32::from(b);
        assert_eq!(<[u8; 32]>::from(h), b);
        assert_eq!(*h, b[..]);
        assert_eq!(h.as_bytes(), &b);
        assert_eq!(h.as_ref(), &b[..]);
        assert_eq!(Hash32::try_from(&b[..]).unwrap(), h);
        assert!(Hash32::try_from(&b[..31]).is_err());
        assert!(Hash32([1; 32]) < Hash32([2; 32]));
        assert_eq!(Hash32::ZERO, Hash32::default());
    }
}
