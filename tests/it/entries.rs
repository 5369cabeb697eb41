//! Entry exports end to end: signed fixtures written by production's reference generator
//! (`gen-entries`, copied into tests/fixtures/exports), and exports written by the project's own
//! simulator (`urne-simulate`), read by `urne_verify::entries` exactly as the appliance reads them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use urne_verify::crypto::keys::public_key_from_pem;
use urne_verify::entries::{
    DayTally, ExportError, TallyOptions, VerifiedExport, tally_export_with, verify_export,
};
use urne_verify::rules::draw::DrawRules;

const BREAKS: [&str; 16] = [
    "bad-signature",
    "wrong-key",
    "truncated",
    "count-mismatch",
    "duplicate-id",
    "wrong-day",
    "bad-json",
    "bad-utf8",
    "negative-stake",
    "unknown-type",
    "bad-account",
    "missing-field",
    "duplicate-exclusion",
    "wrong-operation",
    "no-header",
    "crlf",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn trusted() -> [u8; 32] {
    let pem =
        std::fs::read_to_string(root().join("tests/fixtures/keys/test-producer.pub.pem")).unwrap();
    public_key_from_pem(&pem).unwrap()
}

fn exports_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    v.sort();
    v
}

fn sibling(p: &Path, suffix: &str) -> PathBuf {
    PathBuf::from(format!("{}{suffix}", p.display()))
}

/// Both passes, as the appliance runs them: verify the signature, then tally.
fn read_export(path: &Path, threads: usize) -> Result<(VerifiedExport, DayTally), ExportError> {
    let rules = DrawRules::chanceux_noel_2018();
    let sig = std::fs::read(sibling(path, ".sig")).unwrap();
    let v = verify_export(std::fs::File::open(path).unwrap(), &sig, &[trusted()])?;
    let t = tally_export_with(
        || std::fs::File::open(path),
        &v,
        &rules,
        &TallyOptions { threads },
    )?;
    Ok((v, t))
}

fn expected(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(sibling(path, ".expected.json")).unwrap()).unwrap()
}

/// Compares a tally with an `.expected.json` oracle (gen-entries' shape, shared by urne-simulate).
fn assert_matches_oracle(t: &DayTally, exp: &serde_json::Value, what: &str) {
    assert_eq!(exp["valid"], true, "{what}");
    assert_eq!(exp["operation"], t.operation.as_str(), "{what}");
    assert_eq!(exp["day"], t.day.to_string(), "{what}");
    assert_eq!(exp["tranche_cents"], t.tranche_cents, "{what}");
    assert_eq!(exp["plays"], t.plays, "{what}");
    assert_eq!(exp["counting_plays"], t.counting_plays, "{what}");
    assert_eq!(
        exp["accounts_with_counting_plays"], t.accounts_with_counting_plays,
        "{what}"
    );
    assert_eq!(
        exp["excluded_accounts_with_plays"],
        t.excluded_accounts_with_plays(),
        "{what}"
    );
    assert_eq!(
        exp["accounts_with_entries"], t.accounts_with_entries,
        "{what}"
    );
    assert_eq!(exp["entries"], t.total_entries, "{what}");
    if let Some(by) = exp.get("entries_by_account") {
        let want: BTreeMap<String, u64> = by
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
            .collect();
        let got: BTreeMap<String, u64> = t
            .entries
            .iter()
            .map(|e| (hex::encode(e.account), u64::from(e.entries)))
            .collect();
        assert_eq!(got, want, "{what}");
    }
}

#[test]
fn every_valid_fixture_tallies_to_its_oracle() {
    let files = exports_in(&root().join("tests/fixtures/exports/valid"));
    assert!(files.len() >= 6);
    let mut periods = std::collections::BTreeSet::new();
    for f in files {
        let (v, t) = read_export(&f, 2).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert_eq!(t.sha256, v.sha256);
        assert_eq!(t.producer, v.key_id);
        assert!(t.entries.windows(2).all(|w| w[0].account < w[1].account));
        assert_matches_oracle(&t, &expected(&f), &f.display().to_string());
        periods.insert(t.period_id.clone());
    }
    assert_eq!(periods.len(), 4, "fixtures cover every period (D-2)");
}

/// The rule each gen-entries `--break` kind must be refused by (kind name, and field if any).
fn expected_refusal(brk: &str) -> (&'static str, Option<&'static str>) {
    match brk {
        // Signature problems are found before anything is parsed (design principle 5).
        "bad-signature" | "wrong-key" | "truncated" => ("bad-signature", None),
        "count-mismatch" => ("count-mismatch", None),
        "duplicate-id" => ("duplicate-play-id", None),
        "wrong-day" => ("play-not-on-day", None),
        "bad-json" => ("invalid-json", None),
        "bad-utf8" => ("not-utf8", None),
        "negative-stake" => ("out-of-range", Some("stake_cents")),
        "unknown-type" => ("unknown-type", None),
        "bad-account" => ("out-of-range", Some("account")),
        "missing-field" => ("missing-field", Some("stake_cents")),
        "duplicate-exclusion" => ("duplicate-exclusion", None),
        "wrong-operation" => ("wrong-operation", None),
        "no-header" => ("missing-header", None),
        "crlf" => ("crlf", None),
        other => panic!("unknown break {other}"),
    }
}

#[test]
fn every_broken_fixture_is_refused_by_the_rule_it_breaks() {
    use urne_verify::entries::ExportErrorKind as K;
    for brk in BREAKS {
        let dir = root().join(format!("tests/fixtures/exports/break-{brk}"));
        let files = exports_in(&dir);
        assert_eq!(files.len(), 1, "{brk}");
        assert_eq!(expected(&files[0])["break"], brk);
        let err = read_export(&files[0], 2).expect_err(brk);
        let (name, field) = expected_refusal(brk);
        assert_eq!(err.kind.name(), name, "{brk}: {err}");
        match (&err.kind, field) {
            (K::OutOfRange { field: f, .. } | K::MissingField(f), Some(want)) => {
                assert_eq!(*f, want, "{brk}: {err}");
            }
            (_, None) => {}
            (k, Some(_)) => panic!("{brk}: unexpected {k:?}"),
        }
        // Line errors name their line; file-level errors do not.
        let file_level = matches!(name, "bad-signature" | "count-mismatch");
        assert_eq!(err.line.is_none(), file_level, "{brk}: {err}");
    }
}

#[test]
fn a_broken_fixture_error_names_the_line() {
    let f = &exports_in(&root().join("tests/fixtures/exports/break-duplicate-id"))[0];
    let err = read_export(f, 1).unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with(&format!(
            "line {}: duplicate play id \"p-5-",
            err.line.unwrap()
        )),
        "{text}"
    );
}

#[test]
fn tally_does_not_depend_on_thread_count() {
    for f in exports_in(&root().join("tests/fixtures/exports/valid")) {
        let (_, one) = read_export(&f, 1).unwrap();
        for threads in [2, 3, 7] {
            assert_eq!(read_export(&f, threads).unwrap().1, one);
        }
    }
    for brk in BREAKS {
        let f = &exports_in(&root().join(format!("tests/fixtures/exports/break-{brk}")))[0];
        let one = read_export(f, 1).unwrap_err();
        assert_eq!(read_export(f, 4).unwrap_err(), one, "{brk}");
    }
}

/// Signs `data` with the test producer key, as production would.
fn sign(data: &[u8]) -> Vec<u8> {
    use ed25519_dalek::Signer;
    let pem =
        std::fs::read_to_string(root().join("tests/fixtures/keys/test-producer.key.pem")).unwrap();
    let seed = urne_verify::crypto::keys::private_seed_from_pem(&pem).unwrap();
    ed25519_dalek::SigningKey::from_bytes(&seed)
        .sign(data)
        .to_bytes()
        .to_vec()
}

fn tally_bytes(data: &[u8]) -> Result<DayTally, ExportError> {
    let rules = DrawRules::chanceux_noel_2018();
    let v = verify_export(data, &sign(data), &[trusted()])?;
    tally_export_with(|| Ok(data), &v, &rules, &TallyOptions { threads: 2 })
}

#[test]
fn record_order_does_not_change_the_entries() {
    let f = root().join("tests/fixtures/exports/valid/entries-chanceux-noel-2018-2018-12-08.jsonl");
    let data = std::fs::read(&f).unwrap();
    let text = std::str::from_utf8(&data).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let base = tally_bytes(&data).unwrap();
    for round in 0..3 {
        lines[1..].reverse();
        lines[1..].rotate_left(round * 97 + 1);
        let shuffled = lines.join("\n") + "\n";
        let t = tally_bytes(shuffled.as_bytes()).unwrap();
        assert_eq!(t.entries, base.entries);
        assert_eq!(t.total_entries, base.total_entries);
        assert_eq!(t.counting_plays, base.counting_plays);
        assert_ne!(t.sha256, base.sha256);
    }
}

#[test]
fn a_file_changed_between_the_two_passes_is_refused() {
    let f = root().join("tests/fixtures/exports/valid/entries-chanceux-noel-2018-2018-12-01.jsonl");
    let data = std::fs::read(&f).unwrap();
    let v = verify_export(&data[..], &sign(&data), &[trusted()]).unwrap();
    let mut changed = data.clone();
    let n = changed.len();
    changed[n - 3] = b' '; // still valid JSON, but not the verified bytes
    let err = tally_export_with(
        || Ok(&changed[..]),
        &v,
        &DrawRules::chanceux_noel_2018(),
        &TallyOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.kind.name(), "file-changed");
    let mut broken = data.clone();
    broken[40] = b'{'; // a parse error in bytes that were never verified: still "changed"
    let err = tally_export_with(
        || Ok(&broken[..]),
        &v,
        &DrawRules::chanceux_noel_2018(),
        &TallyOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.kind.name(), "file-changed");
}

#[test]
fn an_untrusted_producer_key_is_refused() {
    let f = root().join("tests/fixtures/exports/valid/entries-chanceux-noel-2018-2018-12-01.jsonl");
    let pem =
        std::fs::read_to_string(root().join("tests/fixtures/keys/untrusted.pub.pem")).unwrap();
    let other = public_key_from_pem(&pem).unwrap();
    let sig = std::fs::read(sibling(&f, ".sig")).unwrap();
    let err = verify_export(std::fs::File::open(&f).unwrap(), &sig, &[other]).unwrap_err();
    assert_eq!(err.kind.name(), "bad-signature");
}

// ---- the project's own simulator -------------------------------------------------------------

fn simulate(args: &[&str], out: &Path) -> PathBuf {
    let key = root().join("tests/fixtures/keys/test-producer.key.pem");
    let mut command_line: Vec<std::ffi::OsString> = vec!["urne-simulate".into()];
    command_line.extend(args.iter().map(Into::into));
    command_line.extend(["--key".into(), key.into(), "--out".into(), out.into()]);
    let code = urne_simulate::run(command_line);
    assert_eq!(
        code, 0,
        "urne-simulate {args:?} failed (its error is above)"
    );
    let day = args[args.iter().position(|a| *a == "--day").unwrap() + 1];
    out.join(format!("entries-chanceux-noel-2018-{day}.jsonl"))
}

#[test]
fn simulator_oracle_agrees_with_the_tally_on_every_period() {
    let dir = tempfile::tempdir().unwrap();
    let days = [
        "2018-12-01",
        "2018-12-05",
        "2018-12-07",
        "2018-12-08",
        "2018-12-14",
        "2018-12-15",
        "2018-12-21",
        "2018-12-22",
        "2018-12-23",
        "2018-12-24",
    ];
    for (i, day) in days.iter().enumerate() {
        for seed in 0..3u64 {
            let seed_s = (seed * 1000 + i as u64).to_string();
            let out = dir.path().join(format!("{day}-{seed}"));
            let plays = ["50", "700", "3000"][usize::try_from(seed).unwrap()];
            let f = simulate(&["--day", day, "--plays", plays, "--seed", &seed_s], &out);
            let (_, t) = read_export(&f, 2).unwrap_or_else(|e| panic!("{day} {seed}: {e}"));
            assert_matches_oracle(&t, &expected(&f), &format!("{day} seed {seed}"));
            if day == &"2018-12-22" {
                assert_eq!(t.tranche_cents, 1500, "P4's tranche is 15 euros (D-3)");
            }
        }
    }
}

#[test]
fn simulator_breaks_are_refused_by_the_rule_they_break() {
    let dir = tempfile::tempdir().unwrap();
    for (i, brk) in BREAKS.iter().enumerate() {
        for day in ["2018-12-01", "2018-12-24"] {
            let out = dir.path().join(format!("{brk}-{day}"));
            let seed = (i + 3).to_string();
            let f = simulate(
                &[
                    "--day", day, "--plays", "300", "--seed", &seed, "--break", brk,
                ],
                &out,
            );
            assert_eq!(expected(&f)["break"], *brk);
            assert_eq!(expected(&f)["valid"], false);
            let err = read_export(&f, 2).expect_err(brk);
            assert_eq!(
                err.kind.name(),
                expected_refusal(brk).0,
                "{brk} {day}: {err}"
            );
        }
    }
}

#[test]
fn simulator_output_is_reproducible_from_its_seed() {
    let dir = tempfile::tempdir().unwrap();
    let a = simulate(
        &["--day", "2018-12-10", "--plays", "500", "--seed", "9"],
        &dir.path().join("a"),
    );
    let b = simulate(
        &["--day", "2018-12-10", "--plays", "500", "--seed", "9"],
        &dir.path().join("b"),
    );
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

/// Exports written by production's reference generator into a folder, checked by hand (not
/// part of `cargo test`: the generator is not in this repository):
///
///     gen-entries --day 2018-12-03 --plays 5000 --seed 91 --out DIR   (and --break KIND ...)
///     URNE_ORACLE_DIR=DIR cargo test --test it -- --ignored generated_exports_match_their_oracle
///
/// A valid export must tally to its `.expected.json`, a broken one be refused by the rule its
/// `break` names.
#[test]
#[ignore = "needs exports from gen-entries in URNE_ORACLE_DIR"]
fn generated_exports_match_their_oracle() {
    let dir = PathBuf::from(std::env::var_os("URNE_ORACLE_DIR").expect("URNE_ORACLE_DIR"));
    let files = exports_in(&dir);
    assert!(!files.is_empty(), "no .jsonl in {}", dir.display());
    for f in files {
        let exp = expected(&f);
        let what = f.display().to_string();
        match exp["break"].as_str() {
            None => {
                let (_, t) = read_export(&f, 2).unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_matches_oracle(&t, &exp, &what);
            }
            Some(brk) => {
                let err = read_export(&f, 2).expect_err(&what);
                assert_eq!(err.kind.name(), expected_refusal(brk).0, "{what}: {err}");
            }
        }
        eprintln!("{what}: as its oracle says");
    }
}

/// Benchmark, run by hand in release mode (not part of `cargo test`):
///
///     cargo test --release --test it -- --ignored --nocapture large_export_benchmark
///
/// Uses `URNE_BENCH_EXPORT` (a `.jsonl` with its `.sig`, signed by the test producer key) if set,
/// or writes a 5,000,000-play day with urne-simulate. Prints each pass's wall time and the
/// process's CPU time (user + system, all threads) during it: on a shared machine wall times
/// are noisy, CPU time much less so. For peak memory, run the test binary under
/// `/usr/bin/time -v`.
#[test]
#[ignore = "benchmark: run by hand in release mode"]
fn large_export_benchmark() {
    let dir = tempfile::tempdir().unwrap();
    let path = match std::env::var_os("URNE_BENCH_EXPORT") {
        Some(p) => PathBuf::from(p),
        None => simulate(
            &[
                "--day",
                "2018-12-22",
                "--plays",
                "5000000",
                "--seed",
                "1",
                "--no-detail",
            ],
            dir.path(),
        ),
    };
    let size = std::fs::metadata(&path).unwrap().len();
    let sig = std::fs::read(sibling(&path, ".sig")).unwrap();
    let rules = DrawRules::chanceux_noel_2018();
    let (t0, c0) = (std::time::Instant::now(), cpu_seconds());
    let v = verify_export(std::fs::File::open(&path).unwrap(), &sig, &[trusted()]).unwrap();
    let (t1, c1) = (std::time::Instant::now(), cpu_seconds());
    let t = tally_export_with(
        || std::fs::File::open(&path),
        &v,
        &rules,
        &TallyOptions::default(),
    )
    .unwrap();
    let (t2, c2) = (std::time::Instant::now(), cpu_seconds());
    eprintln!(
        "{} bytes, {} plays, {} accounts with entries, {} entries: verify {:.2} s (CPU {:.2} s), tally {:.2} s (CPU {:.2} s), total {:.2} s (CPU {:.2} s)",
        size,
        t.plays,
        t.accounts_with_entries,
        t.total_entries,
        (t1 - t0).as_secs_f64(),
        c1 - c0,
        (t2 - t1).as_secs_f64(),
        c2 - c1,
        (t2 - t0).as_secs_f64(),
        c2 - c0,
    );
    if std::env::var_os("URNE_BENCH_EXPORT").is_none() {
        assert_matches_oracle(&t, &expected(&path), "benchmark day");
    }
}

/// User + system CPU seconds of this process so far (Linux `/proc/self/stat`, in clock ticks of
/// 1/100 s); NaN where that is not available.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return f64::NAN;
    };
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(vec![], |(_, r)| r.split_whitespace().collect());
    let tick = |i: usize| rest.get(i).and_then(|f| f.parse::<f64>().ok());
    match (tick(11), tick(12)) {
        (Some(u), Some(s)) => (u + s) / 100.0,
        _ => f64::NAN,
    }
}
