//! Test and demo tool (not part of the appliance): writes a signed daily entry export in
//! production's format (entry-export-v1) with a realistic mix of plays, and beside it an
//! `.expected.json` oracle in the shape of production's reference generator (`gen-entries`).
//!
//! The oracle is computed here, from what was generated, by this file's own statement of the rules
//! (D-3 … D-6, D-13): it does not call `urne_core::entries`, so the tests that compare the two are a
//! real cross-check. It never touches the HSM or the audit trail.
//!
//! ```text
//! urne-simulate --day 2018-12-01 --plays 10000 --key test-producer.key.pem --out DIR
//! urne-simulate --day 2018-12-22 --plays 5000000 --key … --out DIR     # benchmark size
//! urne-simulate --day 2018-12-01 --break duplicate-id --key … --out DIR
//! ```
//!
//! Exit codes: 0 written, 2 bad arguments or unreadable key, 1 could not write.

use std::io::Write;
use std::path::PathBuf;

use clap::{Parser, ValueEnum};
use ed25519_dalek::{Signer, SigningKey};
use sha2::{Digest, Sha256};

use urne_core::crypto::keys::{key_id, private_seed_from_pem};

const OPERATION: &str = "chanceux-noel-2018";
/// (first day, last day, tranche in cents) per period, as (month-day of December 2018): D-2, D-3.
const PERIODS: [(u32, u32, u64); 4] = [(1, 7, 1000), (8, 14, 1000), (15, 21, 1000), (22, 24, 1500)];
/// D-4.
const DAILY_CAP: u64 = 3;
/// Europe/Paris is UTC+1 for all of December 2018 (no change of offset in the operation), D-1.
const PARIS_OFFSET: i64 = 3600;
/// 2018-12-01 00:00 Paris, as Unix seconds: start of the participation period (D-5).
const PERIOD_START: i64 = 1_543_618_800;
/// 2018-12-25 00:00 Paris: end of the participation period, exclusive (D-5).
const PERIOD_END: i64 = PERIOD_START + 24 * 86_400;
const ONLINE: [&str; 4] = ["web", "mobile", "tablet", "app"];
const STAKES: [u32; 15] = [
    50, 100, 150, 200, 250, 300, 500, 500, 1000, 1000, 1500, 2000, 2500, 3000, 5000,
];
const GAMES: [&str; 7] = [
    "loto",
    "euromillions",
    "keno",
    "joker-plus",
    "illiko-cash",
    "bingo-live",
    "super-jackpot",
];
const REASONS: [&str; 5] = ["closed", "closed", "closed", "minor", "fraud"];

/// The 16 ways gen-entries can break a file; each must be refused by the appliance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Break {
    BadSignature,
    WrongKey,
    Truncated,
    CountMismatch,
    DuplicateId,
    WrongDay,
    BadJson,
    BadUtf8,
    NegativeStake,
    UnknownType,
    BadAccount,
    MissingField,
    DuplicateExclusion,
    WrongOperation,
    NoHeader,
    Crlf,
}

/// Write a signed daily entry export (entry-export-v1) and its expected tally, for tests, demos
/// and benchmarks. Not part of the appliance.
#[derive(Parser, Debug)]
#[command(name = "urne-simulate", version)]
struct Args {
    /// The day, YYYY-MM-DD, a day of the operation (2018-12-01 … 2018-12-24).
    #[arg(long)]
    day: String,
    /// Distinct accounts [default: plays / 5].
    #[arg(long)]
    accounts: Option<u64>,
    /// Play records to write.
    #[arg(long, default_value_t = 10_000)]
    plays: u64,
    /// Excluded accounts [default: accounts / 200].
    #[arg(long)]
    exclusions: Option<u64>,
    /// Seed of the generator: the same arguments always write the same bytes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Producer private key (PEM PKCS#8 Ed25519), e.g. tests/fixtures/keys/test-producer.key.pem.
    #[arg(long)]
    key: PathBuf,
    /// Folder to write into (created if missing).
    #[arg(long)]
    out: PathBuf,
    /// Write an invalid export of this kind instead.
    #[arg(long = "break", value_enum)]
    brk: Option<Break>,
    /// Leave per-account entries out of .expected.json (for very large days).
    #[arg(long)]
    no_detail: bool,
}

/// xoshiro256** seeded through splitmix64: small, fast, and fixed here, so a seed always gives
/// the same file on every platform. (Test data only: never used for an official outcome.)
struct Rng([u64; 4]);

impl Rng {
    fn new(seed: u64) -> Rng {
        let mut sm = seed;
        let mut next = || {
            sm = sm.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = sm;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        Rng([next(), next(), next(), next()])
    }

    fn next_u64(&mut self) -> u64 {
        let s = &mut self.0;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform in [0, 1).
    fn f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [0, n) (n > 0; the tiny modulo bias is irrelevant for test data).
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// How an instant is written: the same instant with one of several offsets, as producers do.
#[derive(Clone, Copy)]
enum Stamp {
    Paris,
    Z,
    Utc,
    MinusFive,
}

impl Stamp {
    fn pick(rng: &mut Rng) -> Stamp {
        let x = rng.f64();
        if x < 0.70 {
            Stamp::Paris
        } else if x < 0.90 {
            Stamp::Z
        } else if x < 0.95 {
            Stamp::Utc
        } else {
            Stamp::MinusFive
        }
    }
}

/// Civil date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn write_stamp(out: &mut Vec<u8>, t: i64, style: Stamp) {
    let (offset, suffix) = match style {
        Stamp::Paris => (PARIS_OFFSET, "+01:00"),
        Stamp::Z => (0, "Z"),
        Stamp::Utc => (0, "+00:00"),
        Stamp::MinusFive => (-5 * 3600, "-05:00"),
    };
    let local = t + offset;
    let (y, m, d) = civil_from_days(local.div_euclid(86_400));
    let s = local.rem_euclid(86_400);
    // Invariant: writing to a Vec cannot fail.
    write!(
        out,
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}{suffix}",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
    .expect("write to Vec");
}

#[derive(Clone, Copy)]
struct Play {
    n: u32,
    account: u32,
    at: i64,
    at_style: Stamp,
    stake: u32,
    /// Index in ONLINE, or 4 for retail.
    channel: u8,
    game: u8,
    subscribed: Option<(i64, Stamp)>,
}

#[derive(Clone, Copy)]
enum Record {
    Play(Play),
    /// An excluded account (index into `accounts`, or into `strangers` when `stranger`).
    Exclusion {
        account: u32,
        stranger: bool,
        reason: u8,
    },
}

fn fail(error: &str, hint: &str) -> u8 {
    eprintln!("error: {error}\nhint: {hint}");
    2
}

/// Runs the simulator on a command line (`args[0]` is the program name) and returns its exit
/// code: 0 written, 2 bad arguments or unreadable key, 1 could not write. The binary is this
/// function; the integration tests of the appliance call it directly.
pub fn run<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let a = match Args::try_parse_from(args) {
        Ok(a) => a,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };

    // 1. Arguments become a checked configuration before any work.
    let day = match parse_day(&a.day) {
        Some(d) => d,
        None => {
            return fail(
                &format!("--day {:?} is not a day of {OPERATION}", a.day),
                "give a date YYYY-MM-DD from 2018-12-01 to 2018-12-24 (rule D-2)",
            );
        }
    };
    let tranche = PERIODS
        .iter()
        .find(|(f, l, _)| (*f..=*l).contains(&day))
        .map(|p| p.2)
        .expect("day checked");
    if a.plays > u64::from(u32::MAX) / 2 {
        return fail("--plays is too large", "use at most 2,000,000,000 plays");
    }
    let n_accounts = a.accounts.unwrap_or((a.plays / 5).max(1));
    if n_accounts == 0 || n_accounts > u64::from(u32::MAX) / 2 {
        return fail(
            "--accounts must be between 1 and 2,000,000,000",
            "leave it out to use plays / 5",
        );
    }
    let n_excl = a.exclusions.unwrap_or(n_accounts / 200);
    let pem = match std::fs::read_to_string(&a.key) {
        Ok(p) => p,
        Err(e) => {
            return fail(
                &format!("cannot read the key {}: {e}", a.key.display()),
                "give the producer's PEM private key, e.g. tests/fixtures/keys/test-producer.key.pem",
            );
        }
    };
    let producer = match private_seed_from_pem(&pem) {
        Ok(seed) => SigningKey::from_bytes(&seed),
        Err(e) => {
            return fail(
                &format!("{} is not an Ed25519 private key: {e}", a.key.display()),
                "give a PEM 'PRIVATE KEY' (PKCS#8 Ed25519), as `openssl genpkey -algorithm ed25519` writes",
            );
        }
    };
    if let Err(e) = std::fs::create_dir_all(&a.out) {
        return fail(
            &format!("cannot create {}: {e}", a.out.display()),
            "give a folder you can write to",
        );
    }
    match write_export(&a, day, tranche, n_accounts, n_excl, &producer) {
        Ok(path) => {
            println!("{}", path.display());
            0
        }
        Err(e) => {
            eprintln!(
                "error: cannot write the export: {e}\nhint: check free space and permissions in {}",
                a.out.display()
            );
            1
        }
    }
}

/// The day of December 2018 if `s` is YYYY-MM-DD and a day of the operation.
fn parse_day(s: &str) -> Option<u32> {
    let rest = s.strip_prefix("2018-12-")?;
    if rest.len() != 2 || !rest.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let d: u32 = rest.parse().ok()?;
    (1..=24).contains(&d).then_some(d)
}

fn account_hex(label: &str, seed: u64, i: u64) -> [u8; 64] {
    let h = Sha256::digest(format!("{label}-{seed}-{i}").as_bytes());
    let mut out = [0u8; 64];
    // Invariant: 32 bytes encode to exactly 64 hex digits.
    hex::encode_to_slice(h, &mut out).expect("64 hex digits");
    out
}

fn write_export(
    a: &Args,
    day: u32,
    tranche: u64,
    n_accounts: u64,
    n_excl: u64,
    producer: &SigningKey,
) -> std::io::Result<PathBuf> {
    let big = a.plays >= 1_000_000;
    let progress = |what: &str| {
        if big {
            eprintln!("urne-simulate: {what}");
        }
    };
    let mut rng = Rng::new(a.seed);
    let accounts: Vec<[u8; 64]> = (0..n_accounts)
        .map(|i| account_hex("account", a.seed, i))
        .collect();
    let day_start = PERIOD_START + i64::from(day - 1) * 86_400;

    // 2. Plays, and this tool's own reading of the rules (the oracle).
    let mut totals = vec![0u64; n_accounts as usize]; // counting cents per account (D-3)
    let mut n_counting = 0u64;
    let mut records: Vec<Record> = Vec::with_capacity((a.plays + n_excl + 16) as usize);
    for n in 0..a.plays {
        if big && n > 0 && n % 1_000_000 == 0 {
            progress(&format!("{n} plays generated"));
        }
        // A few heavy players, many light ones.
        let account = if rng.f64() < 0.3 {
            let u = 1.0 - rng.f64(); // (0, 1]
            let x = u.powf(-1.0 / 1.2) as u64; // Pareto(1.2), >= 1
            (x - 1).min(n_accounts - 1)
        } else {
            rng.below(n_accounts)
        } as u32;
        let r = rng.f64();
        let seconds = if r < 0.002 {
            0 // first second of the day
        } else if r < 0.004 {
            86_399 // last second of the day
        } else {
            rng.below(86_400) as i64
        };
        let at = day_start + seconds;
        let stake = STAKES[rng.below(STAKES.len() as u64) as usize];
        let channel = if rng.f64() < 0.03 {
            4
        } else {
            rng.below(4) as u8
        };
        let mut subscribed = None;
        if channel != 4 && rng.f64() < 0.05 {
            let x = rng.f64();
            let taken = if x < 0.25 {
                // Taken out before the operation: never counts (D-5).
                PERIOD_START - 86_400 * (1 + rng.below(59) as i64) - rng.below(86_400) as i64
            } else if x < 0.30 {
                // The edges of the participation period, start inclusive, end exclusive.
                [PERIOD_START, PERIOD_START - 1, PERIOD_END - 1, PERIOD_END][rng.below(4) as usize]
            } else {
                PERIOD_START + ((at - PERIOD_START) as f64 * rng.f64()) as i64
            };
            subscribed = Some((taken, Stamp::pick(&mut rng)));
        }
        // D-3 (online only), D-5 (subscription taken out inside the participation period).
        let counts =
            channel != 4 && subscribed.is_none_or(|(t, _)| (PERIOD_START..PERIOD_END).contains(&t));
        if counts {
            totals[account as usize] += u64::from(stake);
            n_counting += 1;
        }
        records.push(Record::Play(Play {
            n: n as u32,
            account,
            at,
            at_style: Stamp::pick(&mut rng),
            stake,
            channel,
            game: rng.below(GAMES.len() as u64) as u8,
            subscribed,
        }));
    }

    // 3. Exclusions (D-6, D-13): some accounts that played, and some that did not play that day.
    let players: Vec<u32> = (0..n_accounts as u32)
        .filter(|&i| totals[i as usize] > 0)
        .collect();
    let mut pool = players.clone();
    let k = (n_excl as usize).min(pool.len());
    for i in 0..k {
        let j = i + rng.below((pool.len() - i) as u64) as usize;
        pool.swap(i, j);
    }
    let mut excluded = vec![false; n_accounts as usize];
    let mut chosen: Vec<u32> = pool[..k].to_vec();
    chosen.sort_unstable();
    let n_strangers = if n_excl > 0 { (n_excl / 10).max(1) } else { 0 };
    let strangers: Vec<[u8; 64]> = (0..n_strangers)
        .map(|i| account_hex("stranger", a.seed, i))
        .collect();
    let first_exclusion = records.len();
    for &acct in &chosen {
        excluded[acct as usize] = true;
        records.push(Record::Exclusion {
            account: acct,
            stranger: false,
            reason: rng.below(REASONS.len() as u64) as u8,
        });
    }
    for i in 0..n_strangers {
        records.push(Record::Exclusion {
            account: i as u32,
            stranger: true,
            reason: rng.below(REASONS.len() as u64) as u8,
        });
    }
    let n_exclusion_records = records.len() - first_exclusion;
    let first_exclusion_record = records.get(first_exclusion).copied();

    // Record order carries no meaning: shuffle (Fisher-Yates).
    for i in (1..records.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        records.swap(i, j);
    }
    progress("records shuffled");

    // 4. Render, applying the requested break exactly as gen-entries does.
    let mut header_plays = a.plays;
    let mut header_exclusions = n_exclusion_records as u64;
    let mut operation = OPERATION;
    let mut extra: Vec<String> = Vec::new(); // raw lines appended after the shuffled records
    let acct0 = std::str::from_utf8(&accounts[0]).expect("hex").to_string();
    let day_iso = format!("2018-12-{day:02}");
    let mut day_start_s = Vec::new();
    write_stamp(&mut day_start_s, day_start, Stamp::Paris);
    let day_start_s = String::from_utf8(day_start_s).expect("ascii");
    let mut render_buf = Vec::new();
    match a.brk {
        Some(Break::CountMismatch) => header_plays += 1,
        Some(Break::WrongOperation) => operation = "chanceux-noel-2019",
        Some(Break::DuplicateId) if a.plays > 0 => {
            // The middle play, written again (same id).
            let mid = records
                .iter()
                .filter_map(|r| match r {
                    Record::Play(p) if u64::from(p.n) == a.plays / 2 => Some(*r),
                    _ => None,
                })
                .next()
                .expect("the middle play exists");
            render_buf.clear();
            render(&mut render_buf, &mid, a.seed, &accounts, &strangers);
            extra.push(String::from_utf8(render_buf.clone()).expect("ascii"));
            header_plays += 1;
        }
        Some(Break::DuplicateExclusion) => {
            let line = match first_exclusion_record {
                Some(r) => {
                    render_buf.clear();
                    render(&mut render_buf, &r, a.seed, &accounts, &strangers);
                    String::from_utf8(render_buf.clone()).expect("ascii")
                }
                None => format!(r#"{{"type":"exclusion","account":"{acct0}","reason":"closed"}}"#),
            };
            extra.push(line.clone());
            extra.push(line);
            header_exclusions = n_exclusion_records as u64 + 2;
        }
        Some(Break::WrongDay) => {
            // One play a second after midnight that ends the day.
            let mut s = Vec::new();
            write_stamp(&mut s, day_start + 86_401, Stamp::Paris);
            let nxt = String::from_utf8(s).expect("ascii");
            extra.push(format!(
                r#"{{"type":"play","id":"p-late","account":"{acct0}","at":"{nxt}","stake_cents":1000,"channel":"web","game":"loto","subscription":null}}"#
            ));
            header_plays += 1;
        }
        Some(Break::NegativeStake) if !matches!(records.first(), Some(Record::Play(_))) => {
            extra.push(format!(
                r#"{{"type":"play","id":"p-neg","account":"{acct0}","at":"{day_start_s}","stake_cents":-1000,"channel":"web","game":"loto","subscription":null}}"#
            ));
            header_plays += 1;
        }
        Some(Break::UnknownType) => {
            extra.push(format!(r#"{{"type":"bonus","account":"{acct0}"}}"#));
        }
        Some(Break::BadAccount) => {
            let bad = format!("{}Z", acct0[..63].to_uppercase());
            extra.push(format!(
                r#"{{"type":"play","id":"p-bad-acct","account":"{bad}","at":"{day_start_s}","stake_cents":1000,"channel":"web","game":"loto","subscription":null}}"#
            ));
            header_plays += 1;
        }
        Some(Break::MissingField) => {
            extra.push(format!(
                r#"{{"type":"play","id":"p-no-stake","account":"{acct0}","at":"{day_start_s}","channel":"web","game":"loto","subscription":null}}"#
            ));
            header_plays += 1;
        }
        _ => {}
    }

    let producer_id = key_id(&producer.verifying_key().to_bytes());
    let header = format!(
        r#"{{"format":"draw-entries","version":1,"operation":"{operation}","day":"{day_iso}","producer":"{producer_id}","generated_at":"2018-12-26T07:30:00+01:00","status_as_of":"2018-12-26T07:30:00+01:00","plays":{header_plays},"exclusions":{header_exclusions}}}"#
    );
    let mut body: Vec<u8> = Vec::with_capacity((a.plays as usize + 16) * 240);
    if a.brk != Some(Break::NoHeader) {
        body.extend_from_slice(header.as_bytes());
        body.push(b'\n');
    }
    let n_records = records.len();
    // bad-json: the middle record loses its closing brace (no other break appends lines then).
    let bad_json_at = n_records / 2;
    for (i, r) in records.iter().enumerate() {
        let start = body.len();
        render(&mut body, r, a.seed, &accounts, &strangers);
        if i == 0 && a.brk == Some(Break::NegativeStake) && matches!(r, Record::Play(_)) {
            let line = String::from_utf8(body[start..].to_vec()).expect("ascii");
            let line = line.replacen("\"stake_cents\":", "\"stake_cents\":-", 1);
            body.truncate(start);
            body.extend_from_slice(line.as_bytes());
        }
        if a.brk == Some(Break::BadJson) && i == bad_json_at {
            body.pop(); // drop the closing brace
        }
        body.push(b'\n');
        if big && i > 0 && i % 1_000_000 == 0 {
            progress(&format!("{i} records written"));
        }
    }
    for line in &extra {
        body.extend_from_slice(line.as_bytes());
        body.push(b'\n');
    }
    if a.brk == Some(Break::Crlf) {
        let mut crlf = Vec::with_capacity(body.len() + body.len() / 100);
        for &b in &body {
            if b == b'\n' {
                crlf.push(b'\r');
            }
            crlf.push(b);
        }
        body = crlf;
    }
    if a.brk == Some(Break::BadUtf8)
        && let Some(i) = memchr::memmem::find(&body, b"\"game\":\"")
    {
        let cut = i + 8;
        body.splice(cut..cut, [0xff, 0xfe]);
    }

    // 5. Sign the exact bytes (the wrong key for `wrong-key`), then break what follows signing.
    progress("signing");
    let signer = if a.brk == Some(Break::WrongKey) {
        SigningKey::from_bytes(&Sha256::digest(b"urne-simulate: a key nobody trusts").into())
    } else {
        producer.clone()
    };
    let mut sig = signer.sign(&body).to_bytes();
    if a.brk == Some(Break::Truncated) {
        body.truncate(body.len() * 2 / 3); // signed whole, then cut short in transit
    }
    if a.brk == Some(Break::BadSignature) {
        sig[5] ^= 0x01;
    }
    let path = a.out.join(format!("entries-{OPERATION}-{day_iso}.jsonl"));
    std::fs::write(&path, &body)?;
    std::fs::write(format!("{}.sig", path.display()), sig)?;

    // 6. The oracle.
    let mut expected = serde_json::Map::new();
    expected.insert("valid".into(), a.brk.is_none().into());
    expected.insert("operation".into(), OPERATION.into());
    expected.insert("day".into(), day_iso.clone().into());
    expected.insert("tranche_cents".into(), tranche.into());
    if let Some(b) = a.brk {
        let name = b.to_possible_value().expect("named").get_name().to_string();
        expected.insert("break".into(), name.into());
    } else {
        // D-4 cap; D-6, D-13 excluded accounts get nothing.
        let mut by_account: Vec<(&[u8; 64], u64)> = Vec::new();
        for &i in &players {
            let n = if excluded[i as usize] {
                0
            } else {
                (totals[i as usize] / tranche).min(DAILY_CAP)
            };
            if n > 0 {
                by_account.push((&accounts[i as usize], n));
            }
        }
        by_account.sort();
        let total: u64 = by_account.iter().map(|x| x.1).sum();
        expected.insert("plays".into(), a.plays.into());
        expected.insert("counting_plays".into(), n_counting.into());
        expected.insert("accounts_with_counting_plays".into(), players.len().into());
        expected.insert("excluded_accounts_with_plays".into(), chosen.len().into());
        expected.insert("accounts_with_entries".into(), by_account.len().into());
        expected.insert("entries".into(), total.into());
        if !a.no_detail {
            let m: serde_json::Map<String, serde_json::Value> = by_account
                .iter()
                .map(|(k, n)| (String::from_utf8(k.to_vec()).expect("hex"), (*n).into()))
                .collect();
            expected.insert("entries_by_account".into(), m.into());
        }
    }
    let mut text = serde_json::to_string_pretty(&serde_json::Value::Object(expected))
        .expect("JSON of plain values");
    text.push('\n');
    std::fs::write(format!("{}.expected.json", path.display()), text)?;
    progress("done");
    Ok(path)
}

/// Appends one record line (without its LF).
fn render(out: &mut Vec<u8>, r: &Record, seed: u64, accounts: &[[u8; 64]], strangers: &[[u8; 64]]) {
    match r {
        Record::Play(p) => {
            let channel = if p.channel == 4 {
                "retail"
            } else {
                ONLINE[p.channel as usize]
            };
            out.extend_from_slice(b"{\"type\":\"play\",\"id\":\"");
            write!(out, "p-{seed}-{:09}", p.n).expect("write to Vec");
            out.extend_from_slice(b"\",\"account\":\"");
            out.extend_from_slice(&accounts[p.account as usize]);
            out.extend_from_slice(b"\",\"at\":\"");
            write_stamp(out, p.at, p.at_style);
            write!(
                out,
                "\",\"stake_cents\":{},\"channel\":\"{channel}\",\"game\":\"{}\",\"subscription\":",
                p.stake, GAMES[p.game as usize]
            )
            .expect("write to Vec");
            match p.subscribed {
                None => out.extend_from_slice(b"null}"),
                Some((t, style)) => {
                    out.extend_from_slice(b"{\"subscribed_at\":\"");
                    write_stamp(out, t, style);
                    out.extend_from_slice(b"\"}}");
                }
            }
        }
        Record::Exclusion {
            account,
            stranger,
            reason,
        } => {
            let hexid = if *stranger {
                &strangers[*account as usize]
            } else {
                &accounts[*account as usize]
            };
            out.extend_from_slice(b"{\"type\":\"exclusion\",\"account\":\"");
            out.extend_from_slice(hexid);
            write!(out, "\",\"reason\":\"{}\"}}", REASONS[*reason as usize]).expect("write to Vec");
        }
    }
}
