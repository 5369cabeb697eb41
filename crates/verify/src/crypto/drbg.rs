//! `HMAC_DRBG` with SHA-256 (NIST SP 800-90A Rev.1 §10.1.2; spec/formats.md §2.1) and the integer
//! extraction rules of spec/formats.md §2.2-§2.3. This is the only source of randomness for official
//! outcomes: the HSM's entropy goes in (through a seed), and every winner, reserve and shuffle
//! position comes out of here, byte for byte as SPEC.md states.
//!
//! No reseed, no additional input, no prediction resistance: a draw is a single deterministic
//! expansion of one seed, which is what makes it recomputable by third parties.

use super::hash::HmacPads;
use hmac::{KeyInit, Mac};
use sha2::Sha256;

type HmacSha256 = hmac::Hmac<Sha256>;

/// Bytes returned by one `Generate` request of the stream (spec/formats.md §2.2). Fixed: changing it
/// changes every outcome.
pub const STREAM_REQUEST_BYTES: usize = 4096;

/// SP 800-90A limit on one Generate request (2^19 bits).
const MAX_REQUEST_BYTES: usize = 1 << 16;

/// The `HMAC_DRBG` state (Key, V) of SP 800-90A §10.1.2.1.
pub struct HmacDrbg {
    key: [u8; 32],
    v: [u8; 32],
}

/// HMAC-SHA256 (RFC 2104) under one key, the key's inner and outer pad states computed once:
/// each MAC of a 32-byte V then costs two SHA-256 compressions instead of four.
struct Keyed(HmacSha256);

impl Keyed {
    fn new(key: &[u8; 32]) -> Keyed {
        // A 32-byte key is valid for HMAC (any length is): new_from_slice cannot fail.
        Keyed(<HmacSha256 as KeyInit>::new_from_slice(key).expect("HMAC accepts any key length"))
    }

    /// HMAC(key, the concatenation of `head` and `tail`).
    fn mac(&self, head: &[&[u8]], tail: &[&[u8]]) -> [u8; 32] {
        let mut m = self.0.clone();
        for p in head.iter().chain(tail) {
            m.update(p);
        }
        m.finalize().into_bytes().into()
    }
}

impl HmacDrbg {
    /// `HMAC_DRBG_Instantiate` (SP 800-90A §10.1.2.3): `seed_material = entropy_input || nonce ||
    /// personalization`.
    pub fn instantiate(entropy_input: &[u8], nonce: &[u8], personalization: &[u8]) -> Self {
        let mut d = HmacDrbg {
            key: [0u8; 32],
            v: [1u8; 32],
        };
        d.update(&[entropy_input, nonce, personalization]);
        d
    }

    /// `HMAC_DRBG_Update` (SP 800-90A §10.1.2.2) with `provided_data` given as concatenated parts.
    fn update(&mut self, provided: &[&[u8]]) {
        let empty = provided.iter().all(|p| p.is_empty());
        self.key = Keyed::new(&self.key).mac(&[&self.v, &[0x00]], provided);
        self.v = Keyed::new(&self.key).mac(&[&self.v], &[]);
        if empty {
            return;
        }
        self.key = Keyed::new(&self.key).mac(&[&self.v, &[0x01]], provided);
        self.v = Keyed::new(&self.key).mac(&[&self.v], &[]);
    }

    /// `HMAC_DRBG_Generate` (SP 800-90A §10.1.2.5) without additional input: fills `out` (at
    /// most 65536 bytes).
    ///
    /// # Panics
    /// If `out` is longer than 65536 bytes, the SP 800-90A limit of one request (a caller bug:
    /// the stream asks for [`STREAM_REQUEST_BYTES`] at a time).
    pub fn generate(&mut self, out: &mut [u8]) {
        assert!(
            out.len() <= MAX_REQUEST_BYTES,
            "SP 800-90A: a request is at most 2^19 bits"
        );
        // The key does not change until the update below: its pad states are computed once,
        // and each 32 bytes cost two compressions (HmacPads).
        let pads = HmacPads::new(&self.key);
        for chunk in out.chunks_mut(32) {
            self.v = pads.mac32(&self.v);
            chunk.copy_from_slice(&self.v[..chunk.len()]);
        }
        self.update(&[]);
    }
}

/// The DRBG byte stream of spec/formats.md §2.2: the concatenation of successive `Generate` requests of
/// exactly [`STREAM_REQUEST_BYTES`] bytes, consumed in order; integers are read big-endian.
pub struct DrbgStream {
    drbg: HmacDrbg,
    buf: Vec<u8>,
    pos: usize,
}

impl DrbgStream {
    /// A stream over a DRBG instantiated with `entropy_input = seed`, an empty nonce and the
    /// given personalization string, in requests of [`STREAM_REQUEST_BYTES`] (spec/formats.md §2.2).
    pub fn new(seed: &[u8; 32], personalization: &[u8]) -> Self {
        DrbgStream {
            drbg: HmacDrbg::instantiate(seed, &[], personalization),
            buf: vec![0u8; STREAM_REQUEST_BYTES],
            pos: STREAM_REQUEST_BYTES,
        }
    }

    /// Fills `out` with the next bytes of the stream.
    pub fn fill(&mut self, out: &mut [u8]) {
        let mut done = 0;
        while done < out.len() {
            if self.pos == self.buf.len() {
                self.drbg.generate(&mut self.buf[..]);
                self.pos = 0;
            }
            let n = (out.len() - done).min(self.buf.len() - self.pos);
            out[done..done + n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
            self.pos += n;
            done += n;
        }
    }

    /// The next 8 bytes of the stream as a big-endian u64.
    pub fn next_u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        if let Some(next) = self.buf.get(self.pos..self.pos + 8) {
            // The common case: the 8 bytes are in the buffer (as fill would take them).
            b.copy_from_slice(next);
            self.pos += 8;
        } else {
            self.fill(&mut b);
        }
        u64::from_be_bytes(b)
    }

    /// An exactly uniform integer in `[0, n)` (spec/formats.md §2.3): read u64 values `x` and reject those
    /// with `x >= 2^64 - (2^64 mod n)`; return `x mod n` for the first one accepted. Never `% n`
    /// on an unrejected value, so no residue is favoured.
    ///
    /// # Panics
    /// If `n == 0` (a caller bug: there is nothing to choose from).
    pub fn uniform(&mut self, n: u64) -> u64 {
        uniform_from(n, || self.next_u64())
    }
}

/// Rejection sampling over the u64 values `next` gives (spec/formats.md §2.3; the draws' and blocks'
/// streams and the ticket grids' alike): the first `x` below `2^64 - (2^64 mod n)`, reduced mod
/// `n` (every value when `n` divides 2^64), so no residue is favoured.
///
/// # Panics
/// If `n == 0` (a caller bug: there is nothing to choose from).
pub fn uniform_from(n: u64, mut next: impl FnMut() -> u64) -> u64 {
    assert!(n > 0, "uniform(0): empty range");
    loop {
        let x = next();
        // 2^64 mod n < n, so every x below 2^64 - n is below the limit 2^64 - (2^64 mod n):
        // accepted without the division that computes the limit (nearly every x).
        if x < n.wrapping_neg() {
            return x % n;
        }
        // 2^64 mod n computed without overflow: (2^64 - n) mod n == 2^64 mod n.
        let rem = n.wrapping_neg() % n;
        let limit = 0u64.wrapping_sub(rem); // 2^64 - rem, or 0 meaning 2^64 when rem == 0
        if rem == 0 || x < limit {
            return x % n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Vectors {
        vectors: Vec<Vector>,
    }
    #[derive(serde::Deserialize)]
    struct Vector {
        entropy_input: String,
        nonce: String,
        personalization_string: String,
        returned_bits: String,
    }

    #[test]
    fn passes_nist_cavp_hmac_drbg_sha256_vectors() {
        let v: Vectors = serde_json::from_str(include_str!(
            "../../../../tests/vectors/hmac-drbg-sha256.json"
        ))
        .unwrap();
        assert!(!v.vectors.is_empty());
        for t in v.vectors {
            let mut d = HmacDrbg::instantiate(
                &hex::decode(&t.entropy_input).unwrap(),
                &hex::decode(&t.nonce).unwrap(),
                &hex::decode(&t.personalization_string).unwrap(),
            );
            let mut out = vec![0u8; 128];
            d.generate(&mut out);
            d.generate(&mut out);
            assert_eq!(hex::encode(&out), t.returned_bits);
        }
    }

    #[test]
    fn stream_is_the_concatenation_of_fixed_requests() {
        let seed = [7u8; 32];
        let mut s = DrbgStream::new(&seed, b"p");
        let mut a = vec![0u8; STREAM_REQUEST_BYTES + 100];
        s.fill(&mut a[..10]);
        s.fill(&mut a[10..]);
        let mut d = HmacDrbg::instantiate(&seed, &[], b"p");
        let mut b = vec![0u8; 2 * STREAM_REQUEST_BYTES];
        d.generate(&mut b[..STREAM_REQUEST_BYTES]);
        d.generate(&mut b[STREAM_REQUEST_BYTES..]);
        assert_eq!(a[..], b[..a.len()]);
    }

    #[test]
    fn uniform_stays_in_range_and_covers_it() {
        let mut s = DrbgStream::new(&[1u8; 32], b"");
        for n in [1u64, 2, 3, 7, 1000, u64::MAX, (1 << 63) + 1] {
            for _ in 0..200 {
                assert!(s.uniform(n) < n);
            }
        }
        let mut seen = [false; 5];
        for _ in 0..200 {
            seen[usize::try_from(s.uniform(5)).unwrap()] = true;
        }
        assert!(seen.iter().all(|&x| x));
    }

    #[test]
    fn uniform_rejects_the_biased_tail() {
        // With n = 2^63 + 1, 2^64 mod n = 2^63 - 1, so values >= 2^64 - (2^63 - 1) are rejected.
        // Feed a stream and check the mapping against a direct computation on the same bytes.
        let n = (1u64 << 63) + 1;
        let mut a = DrbgStream::new(&[2u8; 32], b"");
        let mut b = DrbgStream::new(&[2u8; 32], b"");
        let limit = 0u64.wrapping_sub(n.wrapping_neg() % n);
        for _ in 0..100 {
            let got = a.uniform(n);
            let want = loop {
                let x = b.next_u64();
                if x < limit {
                    break x % n;
                }
            };
            assert_eq!(got, want);
        }
    }
}
