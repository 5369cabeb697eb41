//! The strict verifier against ed25519-dalek's `verify_strict`, and each check of spec/formats.md §1.4
//! on its own.

use super::*;
use curve25519_dalek::constants::EIGHT_TORSION;
use ed25519_dalek::{Signer, SigningKey, VerifyingKey};

const TEST_PUB: &str = include_str!("../../../../../tests/fixtures/keys/test-producer.pub.pem");
const TEST_KEY: &str = include_str!("../../../../../tests/fixtures/keys/test-producer.key.pem");

/// A tiny deterministic generator for test data (splitmix64).
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The message fed to the streaming verifier in 7-byte pieces (as `verify_export` feeds blocks).
fn verify_in_pieces(key: &[u8; 32], sig: &[u8; 64], msg: &[u8]) -> bool {
    match StrictVerifier::new(key, sig) {
        None => false,
        Some(mut v) => {
            for c in msg.chunks(7) {
                v.update(c);
            }
            v.finish()
        }
    }
}

/// ed25519-dalek's strict verification, plus the check it leaves out: `A` canonical.
fn dalek_strict(key: &[u8; 32], sig: &[u8; 64], msg: &[u8]) -> bool {
    let Ok(vk) = VerifyingKey::from_bytes(key) else {
        return false;
    };
    y_is_canonical(key)
        && vk
            .verify_strict(msg, &ed25519_dalek::Signature::from_bytes(sig))
            .is_ok()
}

/// The encoding of y = p + `k` (non-canonical for y mod p = k), x's sign bit set if `negative`.
fn y_above_p(k: u8, negative: bool) -> [u8; 32] {
    let mut b = [0xffu8; 32];
    b[0] = 0xed + k;
    b[31] = if negative { 0xff } else { 0x7f };
    b
}

/// A non-canonical encoding (y >= p) of a point that is not of small order, which
/// ed25519-dalek's `VerifyingKey::from_bytes` accepts.
fn non_canonical_key() -> [u8; 32] {
    (2..=18u8)
        .map(|k| y_above_p(k, false))
        .find(|b| {
            VerifyingKey::from_bytes(b).is_ok()
                && !CompressedEdwardsY(*b)
                    .decompress()
                    .unwrap()
                    .is_small_order()
        })
        .expect("some y in p+2 ..= p+18 is on the curve")
}

#[test]
fn pem_round_trips_and_matches_the_private_key() {
    let raw = public_key_from_pem(TEST_PUB).unwrap();
    assert_eq!(public_key_from_pem(&public_key_to_pem(&raw)).unwrap(), raw);
    let seed = private_seed_from_pem(TEST_KEY).unwrap();
    let sk = SigningKey::from_bytes(&seed);
    assert_eq!(sk.verifying_key().to_bytes(), raw);
}

#[test]
fn signatures_verify_only_over_the_exact_bytes() {
    let sk = SigningKey::from_bytes(&private_seed_from_pem(TEST_KEY).unwrap());
    let pk = sk.verifying_key().to_bytes();
    let sig = sk.sign(b"hello").to_bytes();
    assert!(verify(&pk, b"hello", &sig));
    assert!(!verify(&pk, b"hellp", &sig));
    assert!(!verify(&pk, b"hello", &sig[..63]));
}

#[test]
fn rejects_non_ed25519_pem() {
    assert_eq!(
        public_key_from_pem("nothing"),
        Err(KeyError::NotPem("PUBLIC KEY"))
    );
}

#[test]
// The test generator cuts its 64-bit outputs (and the loop index, below 300) to the bytes and
// indices it needs, on purpose.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn one_shot_streamed_and_dalek_agree() {
    let mut st = 7u64;
    for i in 0..300 {
        let mut seed = [0u8; 32];
        for b in &mut seed {
            *b = splitmix(&mut st) as u8;
        }
        let sk = SigningKey::from_bytes(&seed);
        let pk = sk.verifying_key().to_bytes();
        let len = (splitmix(&mut st) % 600) as usize;
        let mut msg: Vec<u8> = (0..len).map(|_| splitmix(&mut st) as u8).collect();
        let mut sig = sk.sign(&msg).to_bytes();
        assert!(dalek_strict(&pk, &sig, &msg));
        assert!(verify_strict(&pk, &sig, &msg));
        assert!(verify_in_pieces(&pk, &sig, &msg));
        // Tamper with the message, the signature or the key: all must agree, every time.
        match i % 4 {
            0 if !msg.is_empty() => {
                let j = (splitmix(&mut st) as usize) % msg.len();
                msg[j] ^= 1 << (i % 8);
            }
            1 => sig[(splitmix(&mut st) as usize) % 64] ^= 0x20,
            2 => msg.push(0),
            _ => sig[63] |= 0xf0, // S >= L: non-canonical
        }
        let other = SigningKey::from_bytes(&[i as u8; 32])
            .verifying_key()
            .to_bytes();
        for key in [pk, other] {
            let want = dalek_strict(&key, &sig, &msg);
            assert_eq!(verify_strict(&key, &sig, &msg), want, "case {i}");
            assert_eq!(verify(&key, &msg, &sig), want, "case {i}");
            assert_eq!(verify_in_pieces(&key, &sig, &msg), want, "case {i}");
        }
        assert!(!verify_strict(&pk, &sig, &msg) || i % 4 == 0 && msg.is_empty());
    }
}

#[test]
fn a_non_canonical_key_encoding_is_refused_everywhere() {
    // ed25519-dalek decodes y >= p (as y mod p): its `from_bytes` accepts this key, and the
    // one-shot path used to take it from there.
    let a = non_canonical_key();
    assert!(VerifyingKey::from_bytes(&a).is_ok());
    assert!(!y_is_canonical(&a));
    assert_eq!(
        public_key_from_pem(&public_key_to_pem(&a)),
        Err(KeyError::BadPoint)
    );
    // The same point, canonically encoded, is a valid key.
    let canonical = CompressedEdwardsY(a)
        .decompress()
        .unwrap()
        .compress()
        .to_bytes();
    assert!(y_is_canonical(&canonical));
    assert!(public_key_from_pem(&public_key_to_pem(&canonical)).is_ok());
    assert!(StrictVerifier::new(&a, &[0u8; 64]).is_none());
    let sig = SigningKey::from_bytes(&[1u8; 32]).sign(b"m").to_bytes();
    assert!(StrictVerifier::new(&a, &sig).is_none());
    assert!(!verify(&a, b"m", &sig));
    // Both signs of x, and the edges of the canonical range.
    let mut neg = a;
    neg[31] |= 0x80;
    assert!(!y_is_canonical(&neg));
    assert!(decode_point(&neg).is_none());
    assert!(!y_is_canonical(&y_above_p(0, false))); // y = p
    assert!(!y_is_canonical(&y_above_p(1, true))); // y = p + 1, x negative
    let mut p_minus_1 = y_above_p(0, false);
    p_minus_1[0] = 0xec;
    assert!(y_is_canonical(&p_minus_1));
}

#[test]
fn a_non_canonical_r_is_refused() {
    let sk = SigningKey::from_bytes(&[2u8; 32]);
    let pk = sk.verifying_key().to_bytes();
    let mut sig = sk.sign(b"m").to_bytes();
    sig[..32].copy_from_slice(&non_canonical_key());
    assert!(StrictVerifier::new(&pk, &sig).is_none());
    assert!(!verify(&pk, b"m", &sig));
}

#[test]
// The byte-wise addition keeps the low byte of each 16-bit sum, on purpose.
#[allow(clippy::cast_possible_truncation)]
fn s_at_or_above_l_is_refused_though_the_equation_holds() {
    // S + L satisfies [S]B - [k]A = R as well as S does: only the check S < L refuses it.
    let sk = SigningKey::from_bytes(&[3u8; 32]);
    let pk = sk.verifying_key().to_bytes();
    let sig = sk.sign(b"m").to_bytes();
    let s = Scalar::from_canonical_bytes(sig[32..].try_into().unwrap()).unwrap();
    let mut wide = [0u8; 33];
    // L = 2^252 + 27742317777372353535851937790883648493, little-endian.
    let l: [u8; 32] =
        hex::decode("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010")
            .unwrap()
            .try_into()
            .unwrap();
    let mut carry = 0u16;
    for i in 0..32 {
        let v = u16::from(s.to_bytes()[i]) + u16::from(l[i]) + carry;
        wide[i] = v as u8;
        carry = v >> 8;
    }
    wide[32] = carry as u8;
    assert_eq!(wide[32], 0, "S + L < 2^256");
    let s_plus_l: [u8; 32] = wide[..32].try_into().unwrap();
    assert_eq!(Scalar::from_bytes_mod_order(s_plus_l), s);
    let mut bad = sig;
    bad[32..].copy_from_slice(&wide[..32]);
    assert!(verify(&pk, b"m", &sig));
    assert!(!verify(&pk, b"m", &bad));
    assert!(!verify_in_pieces(&pk, &bad, b"m"));
    assert!(!dalek_strict(&pk, &bad, b"m"));
}

#[test]
fn small_order_keys_and_r_are_refused() {
    // The identity point (y = 1) as key, and as R, with S = 0: this "signature" satisfies the
    // cofactorless equation for every message under the identity key; strict checks refuse it.
    let mut identity = [0u8; 32];
    identity[0] = 1;
    let mut sig = [0u8; 64];
    sig[..32].copy_from_slice(&identity);
    assert!(!verify_in_pieces(&identity, &sig, b"anything"));
    assert!(!verify(&identity, b"anything", &sig));
    let sk = SigningKey::from_bytes(&[9u8; 32]);
    assert!(!verify_in_pieces(
        &sk.verifying_key().to_bytes(),
        &sig,
        b"x"
    ));
    // Every point of order dividing 8, as key.
    for t in EIGHT_TORSION {
        let a = t.compress().to_bytes();
        assert!(StrictVerifier::new(&a, &sk.sign(b"x").to_bytes()).is_none());
        assert!(!verify(&a, b"anything", &sig));
    }
}

/// One case of a `tests/vectors/ed25519-*.json` file: id, key, signature, message, and whether
/// it is valid.
type VectorCase = (String, [u8; 32], Vec<u8>, Vec<u8>, bool);

/// The cases of one `tests/vectors/ed25519-*.json` file.
fn vector_cases(text: &str) -> Vec<VectorCase> {
    let v: serde_json::Value = serde_json::from_str(text).unwrap();
    let hex_of = |c: &serde_json::Value, k: &str| hex::decode(c[k].as_str().unwrap()).unwrap();
    v["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let expect = c["expect"].as_str().unwrap();
            assert!(["valid", "invalid"].contains(&expect));
            (
                c["id"].as_str().unwrap().to_string(),
                hex_of(c, "public_key").try_into().unwrap(),
                hex_of(c, "signature"),
                hex_of(c, "message"),
                expect == "valid",
            )
        })
        .collect()
}

#[test]
fn the_edge_vectors_give_the_expected_outcome() {
    // "Taming the many EdDSAs" (12 cases) and a Wycheproof selection: spec/formats.md §1.4's strict,
    // cofactorless rule on each, one-shot and streamed alike.
    let files = [
        include_str!("../../../../../tests/vectors/ed25519-taming.json"),
        include_str!("../../../../../tests/vectors/ed25519-wycheproof.json"),
    ];
    let mut valid = 0;
    for (id, key, sig, msg, want) in files.iter().flat_map(|f| vector_cases(f)) {
        assert_eq!(verify(&key, &msg, &sig), want, "{id}");
        if let Ok(sig) = <[u8; 64]>::try_from(sig.as_slice()) {
            assert_eq!(verify_in_pieces(&key, &sig, &msg), want, "{id} (streamed)");
        }
        valid += usize::from(want);
    }
    // taming-3 and the 19 valid Wycheproof signatures.
    assert_eq!(valid, 20);
}

#[test]
fn a_negative_zero_x_is_not_a_canonical_encoding() {
    // The points of order 1 and 2 (x = 0) with the sign bit set: curve25519-dalek decodes them,
    // RFC 8032 §5.1.3 does not (x = 0 cannot be negative).
    let mut identity = [0u8; 32];
    identity[0] = 1;
    let mut minus_one = y_above_p(0, false);
    minus_one[0] = 0xec; // y = p - 1
    for canonical in [identity, minus_one] {
        assert!(decode_point(&canonical).is_some());
        let mut negative = canonical;
        negative[31] |= 0x80;
        assert!(CompressedEdwardsY(negative).decompress().is_some());
        assert!(decode_point(&negative).is_none());
        assert_eq!(
            public_key_from_pem(&public_key_to_pem(&negative)),
            Err(KeyError::BadPoint)
        );
    }
}

#[test]
fn a_key_of_the_right_length_but_another_algorithm_is_not_ed25519() {
    // An X25519 SubjectPublicKeyInfo (OID 1.3.101.110) is 44 bytes too.
    let mut spki = SPKI_PREFIX.to_vec();
    spki[8] = 0x6e;
    spki.extend_from_slice(&[9u8; 32]);
    let pem = pem_wrap("PUBLIC KEY", &spki);
    assert_eq!(public_key_from_pem(&pem), Err(KeyError::NotEd25519));
    // And an X25519 PKCS#8 private key is 48 bytes, as an Ed25519 one.
    let mut pkcs8 = PKCS8_PREFIX.to_vec();
    pkcs8[11] = 0x6e;
    pkcs8.extend_from_slice(&[9u8; 32]);
    let pem = pem_wrap("PRIVATE KEY", &pkcs8);
    assert_eq!(private_seed_from_pem(&pem), Err(KeyError::NotEd25519));
}
