//! A release's manifest and the judgement of the outputs' software (spec/formats.md §8.8).

use super::*;
use crate::verify::folder::MemFolder;
use crate::verify::{Report, Value, Verified};
use ed25519_dalek::{Signer, SigningKey};

const COMMIT: &str = "0123456789abcdef0123456789abcdef01234567";
const OTHER: &str = "89abcdef0123456789abcdef0123456789abcdef";

fn h(b: u8) -> Hash32 {
    Hash32([b; 32])
}

/// A manifest's text of `lines` `(hash byte, name)`, in the order given.
fn text(lines: &[(u8, &str)]) -> String {
    use std::fmt::Write as _;
    lines.iter().fold(String::new(), |mut s, (b, n)| {
        let _ = writeln!(s, "{}  {n}", h(*b));
        s
    })
}

/// A well-formed manifest of `commit` whose bin/urne has the hash `urne`.
fn manifest_text(commit: &str, urne: u8) -> String {
    text(&[
        (1, "BUILDINFO"),
        (urne, "bin/urne"),
        (3, "bin/urne-import"),
        (4, "bin/urne-verify"),
        (5, "deb/urne_0.1.0_amd64.deb"),
        (6, &format!("urne-src-{commit}.tar.gz")),
    ])
}

fn signer(seed: u8) -> (SigningKey, [u8; 32]) {
    let sk = SigningKey::from_bytes(&[seed; 32]);
    let pk = sk.verifying_key().to_bytes();
    (sk, pk)
}

/// A folder holding `SHA256SUMS` and, when given, its signature by `by`.
fn folder(manifest: &str, by: Option<&SigningKey>) -> MemFolder {
    let mut files = vec![("SHA256SUMS".to_string(), manifest.as_bytes().to_vec())];
    if let Some(sk) = by {
        files.push((
            "SHA256SUMS.sig".into(),
            sk.sign(manifest.as_bytes()).to_bytes().to_vec(),
        ));
    }
    MemFolder::of(files)
}

fn software(revision: &str, exe: u8) -> SoftwareIdentity {
    SoftwareIdentity {
        name: "urne".into(),
        version: "0.1.0".into(),
        source_revision: revision.into(),
        executable_sha256: h(exe),
    }
}

fn release(commit: &str, urne: u8) -> Release {
    Release {
        path: format!("r-{commit}/SHA256SUMS"),
        key: KeyId::of(&[9; 32]),
        manifest: parse_manifest(manifest_text(commit, urne).as_bytes()).unwrap(),
    }
}

#[test]
fn a_manifest_names_its_source_revision_and_its_binaries_and_ignores_other_files() {
    let m = parse_manifest(manifest_text(COMMIT, 2).as_bytes()).unwrap();
    assert_eq!(m.commit.as_str(), COMMIT);
    assert_eq!(m.urne, h(2));
    assert_eq!(m.files.len(), 6);
    // The bare minimum: the archive and the three binaries.
    let bare = text(&[
        (2, "bin/urne"),
        (3, "bin/urne-import"),
        (4, "bin/urne-verify"),
        (6, &format!("urne-src-{COMMIT}.tar.gz")),
    ]);
    assert_eq!(parse_manifest(bare.as_bytes()).unwrap().urne, h(2));
}

// MUST: M-409
#[test]
fn a_malformed_manifest_is_refused_with_what_is_wrong() {
    let good = manifest_text(COMMIT, 2);
    let archive = format!("urne-src-{COMMIT}.tar.gz");
    let line = |f: &str| match parse_manifest(f.as_bytes()).unwrap_err() {
        ManifestError::Line { fault, .. } => fault,
        e => panic!("{f:?}: {e}"),
    };
    // The shape of a line: lowercase hex, two spaces, a name.
    assert_eq!(
        parse_manifest(good.trim_end().as_bytes()),
        Err(ManifestError::NoFinalLf)
    );
    assert_eq!(parse_manifest(b""), Err(ManifestError::NoFinalLf));
    for bad in [
        good.replacen("01", "0A", 1),
        good.replacen("  ", " ", 1),
        good.replacen("  ", "\t", 1),
        format!("{good}\n"),
        good.replacen("0101", "01", 1),
    ] {
        assert_eq!(line(&bad), LineFault::Shape, "{bad:?}");
    }
    // A CR ends no line: it is a byte of the name.
    assert_eq!(
        line(&good.replacen('\n', "\r\n", 1)),
        LineFault::Name("BUILDINFO\r".into())
    );
    // Names relative to the root, never climbing out of it.
    for name in [
        "/bin/urne",
        "bin/../urne",
        "./x",
        "bin//urne",
        "a\\b",
        "a b",
        "bin/",
    ] {
        let f = format!("{}{}  {name}\n", good, h(7));
        assert!(
            matches!(line(&f), LineFault::Name(n) if n == name),
            "{name:?}"
        );
    }
    // Sorted bytewise, each name once.
    let unsorted = text(&[(2, "bin/urne"), (1, "BUILDINFO")]);
    assert!(matches!(line(&unsorted), LineFault::Order { .. }));
    let twice = text(&[(1, "BUILDINFO"), (2, "BUILDINFO")]);
    assert_eq!(line(&twice), LineFault::Twice("BUILDINFO".into()));
    // Exactly one source archive, named by its commit.
    let without = text(&[
        (2, "bin/urne"),
        (3, "bin/urne-import"),
        (4, "bin/urne-verify"),
    ]);
    assert_eq!(
        parse_manifest(without.as_bytes()),
        Err(ManifestError::NoArchive)
    );
    let two = format!("{good}{}  urne-src-{OTHER}.tar.gz\n", h(8));
    assert!(matches!(
        parse_manifest(two.as_bytes()),
        Err(ManifestError::TwoArchives(a, b)) if a == archive && b.contains(OTHER)
    ));
    let upper = good.replace(
        &archive,
        &archive.to_uppercase().replace("URNE-SRC-", "urne-src-"),
    );
    assert!(matches!(
        parse_manifest(upper.as_bytes()),
        Err(ManifestError::ArchiveName(_))
    ));
    // Every bare binary.
    for bin in BINARIES {
        let without: String = good
            .split_inclusive('\n')
            .filter(|l| !l.ends_with(&format!("  {bin}\n")))
            .collect();
        assert_eq!(
            parse_manifest(without.as_bytes()),
            Err(ManifestError::MissingBinary(bin))
        );
    }
}

// MUST: M-410
#[test]
fn a_manifest_is_parsed_only_once_its_signature_holds_under_a_release_key_given() {
    let (sk, pk) = signer(1);
    let (other_sk, other) = signer(2);
    let good = manifest_text(COMMIT, 2);
    let read =
        |f: &MemFolder, keys: &[[u8; 32]]| read_release(f, "SHA256SUMS", "r/SHA256SUMS", keys);
    // Under the key given, or any of the keys given.
    let r = read(&folder(&good, Some(&sk)), &[other, pk]).unwrap();
    assert_eq!(
        (r.key.clone(), r.manifest.commit.as_str()),
        (KeyId::of(&pk), COMMIT)
    );
    assert_eq!(r.path, "r/SHA256SUMS");
    // No signature, another key's, another size: bad-signature.
    let class = |f: &MemFolder| read(f, &[pk]).unwrap_err().class();
    assert_eq!(class(&folder(&good, None)), FailureClass::BadSignature);
    assert_eq!(
        class(&folder(&good, Some(&other_sk))),
        FailureClass::BadSignature
    );
    let mut long = folder(&good, Some(&sk));
    long.files.get_mut("SHA256SUMS.sig").unwrap().push(0);
    assert_eq!(class(&long), FailureClass::BadSignature);
    // A manifest that does not parse is malformed once signed, bad-signature before.
    let broken = good.replacen("  ", " ", 1);
    assert!(matches!(
        read(&folder(&broken, Some(&sk)), &[pk]),
        Err(ReleaseError::Malformed { .. })
    ));
    let mut tampered = folder(&good, Some(&sk));
    tampered
        .files
        .insert("SHA256SUMS".into(), broken.into_bytes());
    assert_eq!(class(&tampered), FailureClass::BadSignature);
    // Nothing at the path.
    assert!(matches!(
        read(&MemFolder::default(), &[pk]),
        Err(ReleaseError::Missing { .. })
    ));
}

// MUST: M-413
#[test]
fn two_releases_of_one_revision_must_list_one_binary() {
    assert!(
        Releases::new(vec![
            release(COMMIT, 2),
            release(COMMIT, 2),
            release(OTHER, 3)
        ])
        .is_ok()
    );
    let e = Releases::new(vec![
        release(COMMIT, 2),
        release(OTHER, 3),
        release(COMMIT, 4),
    ])
    .unwrap_err();
    assert_eq!(e.class(), FailureClass::Inconsistent);
    assert!(matches!(e, ReleaseError::Disagree { commit, .. } if commit.as_str() == COMMIT));
}

// MUST: M-414
#[test]
fn a_software_record_is_released_built_another_way_or_not_released() {
    let releases = Releases::new(vec![release(OTHER, 3), release(COMMIT, 2)]).unwrap();
    let commit: Commit = COMMIT.parse().unwrap();
    assert_eq!(
        releases.judge(&software(COMMIT, 2)),
        Standing::Released {
            commit: commit.clone()
        }
    );
    assert_eq!(
        releases.judge(&software(COMMIT, 7)),
        Standing::BuiltAnotherWay {
            commit,
            released: h(2)
        }
    );
    // Compared byte for byte: a modified tree, another spelling, or no revision is not released.
    for rev in [
        &format!("{COMMIT}-modified")[..],
        &COMMIT.to_uppercase(),
        "unknown",
        "",
        &COMMIT[..39],
    ] {
        assert_eq!(
            releases.judge(&software(rev, 2)),
            Standing::NotReleased,
            "{rev}"
        );
    }
}

fn trail(events: u64, started: Vec<Started>) -> Verified {
    Verified {
        words: format!("the audit trail of {events} events"),
        value: Value::AuditTrail {
            events,
            software: started,
        },
    }
}

// MUST: M-415
#[test]
fn an_exported_trail_states_each_distinct_software_once_with_its_events() {
    let start = |seq, exe| Started {
        seq,
        software: Ok(software(COMMIT, exe)),
    };
    let report = Report {
        subjects: vec![trail(
            9,
            vec![start(2, 2), start(4, 2), start(6, 7), start(8, 2)],
        )],
        ..Report::default()
    };
    let s = stated(&report).unwrap();
    assert_eq!(
        s.iter().map(|x| x.what.as_str()).collect::<Vec<_>>(),
        [
            "3 software.start events from seq 2 to 8 of the audit trail of 9 events",
            "1 software.start event from seq 6 to 6 of the audit trail of 9 events",
        ]
    );
    assert_eq!(s[1].software.executable_sha256, h(7));
    // A payload that does not parse is malformed, for a release's check only.
    let broken = Report {
        subjects: vec![trail(
            3,
            vec![Started {
                seq: 3,
                software: Err("missing field `software`".into()),
            }],
        )],
        ..Report::default()
    };
    let f = stated(&broken).unwrap_err();
    assert_eq!(f.class, FailureClass::Malformed);
    assert!(f.what.contains("event 3 (software.start)"), "{}", f.what);
}

// MUST: M-416, M-417
#[test]
fn any_record_not_released_is_the_class_not_released_and_none_checks_nothing() {
    let releases = Releases::new(vec![release(COMMIT, 2)]).unwrap();
    let start = |seq, rev: &str, exe| Started {
        seq,
        software: Ok(software(rev, exe)),
    };
    let all = |started| Report {
        subjects: vec![trail(5, started)],
        ..Report::default()
    };
    let judged = judge_all(&all(vec![start(2, COMMIT, 2)]), &releases).unwrap();
    assert_eq!(not_released(&judged), None);
    for (started, words) in [
        (
            vec![start(2, COMMIT, 2), start(3, COMMIT, 9)],
            "built another way than release",
        ),
        (vec![start(2, OTHER, 2)], "which no release given is"),
    ] {
        let judged = judge_all(&all(started), &releases).unwrap();
        let f = not_released(&judged).unwrap();
        assert_eq!(f.class, FailureClass::NotReleased);
        assert_eq!(f.class.name(), "not-released");
        assert!(f.what.contains(words), "{}", f.what);
        assert!(f.what.starts_with("1 of the "), "{}", f.what);
    }
    // Outputs that state no software: nothing judged, nothing failed.
    let none = judge_all(&Report::default(), &releases).unwrap();
    assert!(none.is_empty());
    assert_eq!(not_released(&none), None);
}

#[test]
fn a_commit_is_forty_lowercase_hex_digits() {
    assert!(COMMIT.parse::<Commit>().is_ok());
    for bad in [
        &COMMIT.to_uppercase()[..],
        &COMMIT[..39],
        "unknown",
        &format!("{COMMIT}0"),
    ] {
        assert!(bad.parse::<Commit>().is_err(), "{bad}");
    }
}
