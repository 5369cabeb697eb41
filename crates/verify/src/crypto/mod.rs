//! Pure cryptographic building blocks: SHA-256 and the tagged hash (spec/formats.md §1.2), key ids and
//! strict Ed25519 verification (spec/formats.md §1.3, §1.4), the `HMAC_DRBG` of NIST SP 800-90A and unbiased
//! bounded integers (spec/formats.md §2.1-§2.3), and RFC 6962 Merkle trees (spec/formats.md §2.4). Nothing here touches a file,
//! the HSM, the clock or the OS random generator.

pub mod drbg;
pub mod ed25519;
mod hash;
pub mod keys;
pub mod merkle;

pub(crate) use hash::HmacPads;
pub use hash::{Hash32, hex32, parse_hex32, sha256, tagged_hash};
