//! SHA-256 (FIPS 180-4) and the tagged hash of SPEC.md §1.2, and the hex form of digests.

use sha2::{Digest, Sha256};

/// A SHA-256 digest.
pub type Hash32 = [u8; 32];

/// SHA-256 of `data` (the sha2 crate, the core's one SHA-256 backend: see core/Cargo.toml).
pub fn sha256(data: &[u8]) -> Hash32 {
    Sha256::digest(data).into()
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
    fn sha256_passes_the_fips_180_examples() {
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
                &[b'a'; 1_000_000],
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
}
