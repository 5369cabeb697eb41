//! Tests that kill the mutants of the audit chain that the first tests let live
//! (`scripts/mutants`, docs/testing.md "Mutation testing"): each states the exact failure (the
//! sequence number and what is wrong) or the exact checkpoint.

use super::*;
use ed25519_dalek::Signer;

const TS: &str = "2026-01-01T00:00:00.000000Z";

/// A genuine chain of `n` events.
fn chain(n: u64) -> Vec<Event> {
    let mut prev = Hash32::ZERO;
    (1..=n)
        .map(|seq| {
            let payload = format!("{{\"n\":{seq}}}");
            let hash = event_hash(&prev, seq, TS, "test", &payload);
            let e = Event {
                seq,
                ts: TS.into(),
                kind: "test".into(),
                payload,
                prev_hash: prev,
                hash,
            };
            prev = hash;
            e
        })
        .collect()
}

/// Event `i` (0-based) made to hash right again after its fields changed.
fn rehash(e: &mut Event) {
    e.hash = event_hash(&e.prev_hash, e.seq, &e.ts, &e.kind, &e.payload);
}

#[test]
fn a_self_consistent_event_that_does_not_link_is_refused_for_its_link() {
    // Event 3 names another previous hash and hashes right over it: only the link check
    // catches it (the hash check holds), at event 3, for its previous-hash.
    let mut c = chain(5);
    c[2].prev_hash = Hash32([7; 32]);
    rehash(&mut c[2]);
    let e = verify_chain(&c).unwrap_err();
    assert_eq!(e.seq, 3);
    assert_eq!(
        e.reason,
        "its previous-hash does not match the hash of the event before it"
    );
    // The first event links to zero, nothing else.
    let mut c = chain(2);
    c[0].prev_hash = Hash32([1; 32]);
    rehash(&mut c[0]);
    assert_eq!(verify_chain(&c).unwrap_err().seq, 1);
}

#[test]
fn an_altered_event_is_refused_for_its_content() {
    let mut c = chain(3);
    c[1].kind = "other".into();
    let e = verify_chain(&c).unwrap_err();
    assert_eq!(e.seq, 2);
    assert_eq!(
        e.reason,
        "its content does not match its hash (the event was altered)"
    );
    // Its successor no longer links either, but the first failure is the one named.
    rehash(&mut c[1]);
    let e = verify_chain(&c).unwrap_err();
    assert_eq!(e.seq, 3);
}

#[test]
fn a_gap_and_a_disorder_are_told_apart() {
    let mut c = chain(5);
    c.remove(1);
    let e = verify_chain(&c).unwrap_err();
    assert_eq!(
        (e.seq, e.reason.as_str()),
        (2, "event 2 is missing (next stored event is 3)")
    );
    let mut c = chain(3);
    c[1].seq = 1;
    let e = verify_chain(&c).unwrap_err();
    assert_eq!(
        (e.seq, e.reason.as_str()),
        (2, "event 1 appears out of order")
    );
    // An event numbered as its own position + 1 is a gap, never "out of order".
    let mut c = chain(1);
    c[0].seq = 2;
    assert_eq!(
        verify_chain(&c).unwrap_err().reason,
        "event 1 is missing (next stored event is 2)"
    );
    assert_eq!(verify_chain(&[]), Ok(()));
}

#[test]
fn a_rewritten_history_is_named_from_the_last_good_event() {
    let c = chain(6);
    let hashes: Vec<Hash32> = c.iter().map(|e| e.hash).collect();
    let roots = PrefixRoots::new(&hashes);
    let cp = Checkpoint {
        size: 4,
        root: Hash32([9; 32]),
    };
    let e = check_against(&cp, &roots, 2).unwrap_err();
    assert_eq!(e.seq, 3);
    assert_eq!(
        e.reason,
        "events 3..4 do not match the signed checkpoint at size 4 (history was rewritten)"
    );
    let truncated = Checkpoint {
        size: 9,
        root: tree_root(&hashes),
    };
    let e = check_against(&truncated, &roots, 0).unwrap_err();
    assert_eq!(e.seq, 7);
    assert_eq!(
        e.reason,
        "the trail holds 6 events but a signed checkpoint covers 9: events 7..9 were removed"
    );
    let good = Checkpoint {
        size: 4,
        root: tree_root(&hashes[..4]),
    };
    assert_eq!(check_against(&good, &roots, 0), Ok(()));
}

#[test]
fn prefix_roots_know_their_length() {
    let empty = PrefixRoots::new(&[]);
    assert!(empty.is_empty());
    assert_eq!(empty.len(), 0);
    assert_eq!(empty.root_at(0), Some(merkle::root(&[])));
    let one = PrefixRoots::new(&[Hash32([3; 32])]);
    assert!(!one.is_empty());
    assert_eq!(one.len(), 1);
    assert_eq!(one.root_at(1), Some(merkle::leaf_hash(&[3; 32])));
    assert_eq!(one.root_at(u64::MAX), None);
}

fn signer(seed: u8) -> (ed25519_dalek::SigningKey, [u8; 32]) {
    let sk = ed25519_dalek::SigningKey::from_bytes(&[seed; 32]);
    let pk = sk.verifying_key().to_bytes();
    (sk, pk)
}

#[test]
fn the_note_key_id_is_c2sp_s() {
    // SHA-256("name" || 0x0A || 0x01 || pk)[..4], computed independently here.
    let (_, pk) = signer(5);
    let mut m = b"urne-audit/x\n\x01".to_vec();
    m.extend_from_slice(&pk);
    let h = crate::crypto::sha256(&m);
    assert_eq!(note_key_id("urne-audit/x", &pk), [h[0], h[1], h[2], h[3]]);
    assert_ne!(note_key_id("urne-audit/x", &pk), [0; 4]);
    assert_ne!(note_key_id("urne-audit/x", &pk), [1; 4]);
}

#[test]
fn a_note_verifies_by_the_audit_keys_line_alone() {
    let (sk, pk) = signer(5);
    let (witness, witness_public) = signer(6);
    let body = checkpoint_body(&pk, 3, &Hash32([1; 32]));
    let sig = sk.sign(body.as_bytes()).to_bytes();
    let genuine = signed_note(&pk, &body, &sig);
    let real_line = genuine.lines().last().unwrap().to_string();
    // A witness's line (another name, a 68-byte blob) and lines of our name that are not ours
    // (another key id, a short blob, not base64, no separator), then ours.
    let name = origin(&pk);
    let mut wrong_id = note_key_id(&name, &witness_public).to_vec();
    wrong_id.extend_from_slice(&witness.sign(body.as_bytes()).to_bytes());
    let mut short = note_key_id(&name, &pk).to_vec();
    short.extend_from_slice(&[0; 10]);
    let mut long = note_key_id(&name, &pk).to_vec();
    long.extend_from_slice(&sig);
    long.push(0);
    let witness = signed_note(
        &witness_public,
        &body,
        &witness.sign(body.as_bytes()).to_bytes(),
    );
    let lines = [
        witness.lines().last().unwrap().to_string(),
        format!("\u{2014} {name} {}", B64.encode(&wrong_id)),
        format!("\u{2014} {name} {}", B64.encode(&short)),
        format!("\u{2014} {name} {}", B64.encode(&long)),
        real_line,
    ];
    // Ours alone verifies.
    let note = format!("{body}\n{}\n", lines[4]);
    assert_eq!(
        verify_note(&note, &pk),
        Ok(Checkpoint {
            size: 3,
            root: Hash32([1; 32])
        })
    );
    // Ours with any other line, before or after it: malformed (spec/formats.md §6.3 [M-258]).
    for other in &lines[..4] {
        for pair in [[other, &lines[4]], [&lines[4], other]] {
            let note = format!("{body}\n{}\n{}\n", pair[0], pair[1]);
            let e = verify_note(&note, &pk).unwrap_err();
            assert_eq!(e.kind, NoteErrorKind::Malformed, "{pair:?}");
            assert!(e.what.contains("exactly one signature line"), "{}", e.what);
        }
    }
    let note = format!("{body}\n{}\n", lines.join("\n"));
    assert_eq!(
        verify_note(&note, &pk).unwrap_err().kind,
        NoteErrorKind::Malformed
    );
    // Each other line alone: no signature by the audit key.
    for other in &lines[..4] {
        let note = format!("{body}\n{other}\n");
        let e = verify_note(&note, &pk).unwrap_err();
        assert_eq!(e.kind, NoteErrorKind::BadSignature, "{other}");
        assert_eq!(e.what, "no signature by the audit key on this checkpoint");
    }
    // Ours without its final LF: malformed.
    let note = format!("{body}\n{}", lines[4]);
    assert_eq!(
        verify_note(&note, &pk).unwrap_err().kind,
        NoteErrorKind::Malformed
    );
    // A line that is no signature line at all makes the note malformed (C2SP signed-note),
    // wherever it stands.
    for bad in [
        format!("\u{2014} {name} !!!"),
        format!("\u{2014} {name}"),
        "not a signature line".to_string(),
    ] {
        let mut with = lines.to_vec();
        with.insert(1, bad.clone());
        let note = format!("{body}\n{}\n", with.join("\n"));
        let e = verify_note(&note, &pk).unwrap_err();
        assert_eq!(e.kind, NoteErrorKind::Malformed, "{bad}");
    }
}

#[test]
fn every_way_a_note_fails_has_its_kind() {
    let (sk, pk) = signer(5);
    let (_, other) = signer(6);
    let body = checkpoint_body(&pk, 3, &Hash32([1; 32]));
    let sig = sk.sign(body.as_bytes()).to_bytes();
    let note = signed_note(&pk, &body, &sig);
    let kind = |n: &str, k: &[u8; 32]| verify_note(n, k).unwrap_err().kind;
    assert_eq!(kind(&note, &other), NoteErrorKind::OtherKey);
    assert_eq!(
        kind(&note.replace("\n\n", "\n"), &pk),
        NoteErrorKind::Malformed
    );
    assert_eq!(
        kind(&note.replace("\n3\n", "\nx\n"), &pk),
        NoteErrorKind::Malformed
    );
    assert_eq!(
        kind(&note.replace("\n3\n", "\n\n"), &pk),
        NoteErrorKind::Malformed
    );
    let b64 = B64.encode([1u8; 32]);
    assert_eq!(
        kind(&note.replace(&b64, "AAAA"), &pk),
        NoteErrorKind::Malformed
    );
    let bad = sk.sign(b"something else").to_bytes();
    let e = verify_note(&signed_note(&pk, &body, &bad), &pk).unwrap_err();
    assert_eq!(e.kind, NoteErrorKind::BadSignature);
    assert_eq!(
        e.what,
        "the checkpoint signature does not verify under the audit key"
    );
    assert_eq!(e.to_string(), e.what);
    // The body signed is the origin, the size and the root, each on its line.
    assert_eq!(
        body,
        format!("urne-audit/{}\n3\n{b64}\n", keys::key_id(&pk))
    );
}

#[test]
fn a_size_line_that_is_not_plain_decimal_is_said_to_be_the_size_line() {
    let (sk, pk) = signer(7);
    // `+3`, `03`, `3 ` and a lone `-` would parse or be caught later by the body check: the
    // size line itself is named (spec/formats.md §6.3: decimal, no sign, no leading zero).
    for size in ["+3", "03", "007", "-", "3a"] {
        let body =
            checkpoint_body(&pk, 3, &Hash32([1; 32])).replacen("\n3\n", &format!("\n{size}\n"), 1);
        let note = signed_note(&pk, &body, &sk.sign(body.as_bytes()).to_bytes());
        let e = verify_note(&note, &pk).unwrap_err();
        assert_eq!(e.kind, NoteErrorKind::Malformed, "{size}");
        assert_eq!(e.what, "bad tree size line", "{size}");
    }
    // `0` is a size (a single digit may be zero).
    let body = checkpoint_body(&pk, 0, &Hash32([1; 32]));
    let note = signed_note(&pk, &body, &sk.sign(body.as_bytes()).to_bytes());
    assert_eq!(verify_note(&note, &pk).unwrap().size, 0);
}

#[test]
fn a_carriage_return_in_the_origin_line_makes_the_note_malformed() {
    // `str::lines` would drop a CR before the line feed: the body is compared whole.
    let (sk, pk) = signer(8);
    let body = checkpoint_body(&pk, 3, &Hash32([1; 32]));
    let sig = sk.sign(body.as_bytes()).to_bytes();
    let note = signed_note(&pk, &body, &sig).replacen('\n', "\r\n", 1);
    let e = verify_note(&note, &pk).unwrap_err();
    assert_eq!(e.kind, NoteErrorKind::Malformed);
}

#[test]
fn a_signature_line_with_no_name_or_a_blob_of_only_a_key_id_is_malformed() {
    let (sk, pk) = signer(9);
    let body = checkpoint_body(&pk, 3, &Hash32([1; 32]));
    let note = signed_note(&pk, &body, &sk.sign(body.as_bytes()).to_bytes());
    let name = origin(&pk);
    for bad in [
        // No name: `— ` then the blob (a whole signature's).
        format!("\u{2014}  {}", B64.encode([7u8; 68])),
        // A blob of 4 bytes: a key hash and no signature.
        format!("\u{2014} {name} {}", B64.encode([7u8; 4])),
    ] {
        // Before the genuine line: the lines are read in order.
        let with = note.replacen("\n\n", &format!("\n\n{bad}\n"), 1);
        let e = verify_note(&with, &pk).unwrap_err();
        assert_eq!(e.kind, NoteErrorKind::Malformed, "{bad}");
    }
    // Five bytes is a (foreign) signature line, well formed: alone, no signature by the audit
    // key; beside the genuine one, a second line (spec/formats.md §6.3 [M-258]).
    let five = format!("\u{2014} {name} {}", B64.encode([7u8; 5]));
    let alone = format!("{body}\n{five}\n");
    let e = verify_note(&alone, &pk).unwrap_err();
    assert_eq!(e.kind, NoteErrorKind::BadSignature);
    let with = note.replacen("\n\n", &format!("\n\n{five}\n"), 1);
    let e = verify_note(&with, &pk).unwrap_err();
    assert!(e.what.contains("exactly one signature line"), "{}", e.what);
}

#[test]
fn a_rehearsals_checkpoint_is_refused_as_official_and_verifies_as_a_rehearsals() {
    let (sk, pk) = signer(7);
    let root = Hash32([2; 32]);
    let body = checkpoint_body_of(Origin::Rehearsal, &pk, 4, &root);
    assert!(body.starts_with(&format!(
        "urne-rehearsal/{}\n",
        crate::crypto::keys::key_id(&pk)
    )));
    let note = signed_note(&pk, &body, &sk.sign(body.as_bytes()).to_bytes());
    assert!(note.contains("\n\u{2014} urne-rehearsal/"), "{note}");
    // As official (every verifier's check of an output): the class of its own, not a bad signature.
    assert_eq!(
        verify_note(&note, &pk).unwrap_err().kind,
        NoteErrorKind::Rehearsal
    );
    // On its own token (the appliance's check of its trail): it verifies.
    assert_eq!(
        verify_note_as(&note, &pk, Origin::Rehearsal),
        Ok(Checkpoint { size: 4, root })
    );
    // An official checkpoint is no rehearsal's, and the reverse.
    let official = checkpoint_body(&pk, 4, &root);
    let official = signed_note(&pk, &official, &sk.sign(official.as_bytes()).to_bytes());
    assert!(verify_note(&official, &pk).is_ok());
    assert_eq!(
        verify_note_as(&official, &pk, Origin::Rehearsal)
            .unwrap_err()
            .kind,
        NoteErrorKind::OtherKey
    );
    // A rehearsal's origin under another key's signature is only a bad signature.
    let (other, _) = signer(8);
    let forged = signed_note(&pk, &body, &other.sign(body.as_bytes()).to_bytes());
    assert_eq!(
        verify_note(&forged, &pk).unwrap_err().kind,
        NoteErrorKind::OtherKey
    );
}

#[test]
fn a_long_chain_is_recomputed_on_two_threads_and_names_its_first_altered_event() {
    // Past 2,000 events the hashes are recomputed in two halves: an event altered in either
    // half, or in both, is named (the first of them), never missed.
    for altered in [[1_500, 3_900], [2_100, 2_200], [3_999, 4_000]] {
        let mut c = chain(4_000);
        for seq in altered {
            c[seq - 1].payload.push(' ');
        }
        let f = verify_chain(&c).unwrap_err();
        assert_eq!(f.seq, altered[0] as u64, "{altered:?}");
        assert!(f.reason.contains("altered"), "{}", f.reason);
    }
    assert_eq!(first_altered(&chain(4_000)), None);
    let mut c = chain(1_999);
    c[1_998].payload.push(' ');
    assert_eq!(first_altered(&c), Some(1_998));
}

#[test]
fn a_broken_link_before_an_altered_event_is_named_first_and_after_it_second() {
    let mut c = chain(6);
    c[1].payload.push(' '); // event 2 altered
    c[4].prev_hash = Hash32([7; 32]); // event 5 links to nothing
    rehash(&mut c[4]);
    let f = verify_chain(&c).unwrap_err();
    assert_eq!((f.seq, f.reason.contains("altered")), (2, true));
    let mut c = chain(6);
    c[1].prev_hash = Hash32([7; 32]); // event 2 links to nothing and is altered
    let f = verify_chain(&c).unwrap_err();
    assert_eq!(f.seq, 2);
    assert!(f.reason.contains("previous-hash"), "{}", f.reason);
    let mut c = chain(6);
    c[3].prev_hash = Hash32([7; 32]); // event 4 links to nothing, event 5 altered
    rehash(&mut c[3]);
    c[4].payload.push(' ');
    let f = verify_chain(&c).unwrap_err();
    assert_eq!(f.seq, 4);
    assert!(f.reason.contains("previous-hash"), "{}", f.reason);
}

#[test]
fn links_alone_check_the_numbers_not_the_contents() {
    let c = chain(5);
    let links: Vec<Link> = c.iter().map(Link::of).collect();
    assert_eq!(verify_numbers(&links), Ok(()));
    // A content edited with its hash kept: no number says so (the reader of the content will).
    let mut edited = c.clone();
    edited[2].payload.push(' ');
    let l: Vec<Link> = edited.iter().map(Link::of).collect();
    assert_eq!(verify_numbers(&l), Ok(()));
    let f = check_content(&edited[2], l.get(2)).unwrap_err();
    assert_eq!(f.seq, 3, "the content read is recomputed");
    assert!(f.reason.contains("altered"), "{}", f.reason);
    assert_eq!(check_content(&c[2], links.get(2)), Ok(()));
    // Another previous hash stated in the content: recomputes another hash.
    let mut relinked = c.clone();
    relinked[2].prev_hash = Hash32([7; 32]);
    assert!(check_content(&relinked[2], links.get(2)).is_err());
    // The link stored at another number, another hash, or none.
    assert!(check_content(&c[2], links.get(1)).is_err());
    let mut other = links[2];
    other.hash = Hash32([1; 32]);
    assert!(check_content(&c[2], Some(&other)).is_err());
    assert!(check_content(&c[2], None).is_err());
    // A gap and a disorder, each at its number.
    let gap: Vec<Link> = links.iter().copied().filter(|l| l.seq != 3).collect();
    let f = verify_numbers(&gap).unwrap_err();
    assert_eq!(f.seq, 3);
    assert!(f.reason.contains("missing"), "{}", f.reason);
    let mut again = links.clone();
    again[2] = links[0];
    let f = verify_numbers(&again).unwrap_err();
    assert_eq!(f.seq, 3);
    assert!(f.reason.contains("out of order"), "{}", f.reason);
    assert_eq!(verify_numbers(&links[1..]).unwrap_err().seq, 1);
}
