//! SHA-256 (FIPS 180-4) and the tagged hash of SPEC.md §1.2, and the hex form of digests.

use sha2::{Digest, Sha256};

/// A SHA-256 digest.
pub type Hash32 = [u8; 32];

/// SHA-256 of `data`. Large inputs (sealed sets, tickets files: tens of MB) go through
/// OpenSSL's SHA-NI code, about twice the sha2 crate's speed on such sizes; the digest is the same.
pub fn sha256(data: &[u8]) -> Hash32 {
    if data.len() >= 1 << 16 {
        openssl::sha::sha256(data)
    } else {
        Sha256::digest(data).into()
    }
}

/// Domain-separated SHA-256 (SPEC.md §1.2): `SHA-256(label || 0x00 || for each part: u64be(len) || part)`.
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
    h.finalize().into()
}

/// Lowercase hex of a digest.
pub fn hex32(h: &Hash32) -> String {
    hex::encode(h)
}

/// Parses exactly 64 lowercase hex digits into 32 bytes.
pub fn parse_hex32(s: &str) -> Option<Hash32> {
    if s.len() != 64
        || !s
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return None;
    }
    let mut out = [0u8; 32];
    hex::decode_to_slice(s, &mut out).ok()?;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_is_the_same_digest_on_both_sides_of_the_size_switch() {
        let data: Vec<u8> = (0..(1u32 << 17)).map(|i| (i * 31 % 251) as u8).collect();
        for n in [0, 1, 65_535, 65_536, 65_537, 1 << 17] {
            let expected: Hash32 = Sha256::digest(&data[..n]).into();
            assert_eq!(sha256(&data[..n]), expected, "{n} bytes");
        }
        // FIPS 180-2 example: SHA-256("abc").
        assert_eq!(
            hex::encode(sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
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
}
