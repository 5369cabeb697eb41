//! The reference reader of an export (spec/formats.md §4.1, §4.1.1), written from the SPEC and the
//! reader's documented subsets (`urne_verify::entries`, "How the reader applies spec/formats.md §4.1.1"; its
//! `rfc3339` module) on general-purpose parts: `serde_json` for each line (through
//! [`super::json::J`]), chrono for dates and instants, chrono-tz for Europe/Paris, plain maps
//! and sets for the tally. It does in the simplest way what the appliance's reader does fast,
//! and decides only accept or refuse (not which refusal).
//!
//! [`Verdict::Undefined`]: inputs the two cannot be compared on: a number `serde_json` cannot
//! hold (`1e400`: the export format accepts it in an unknown field, `serde_json` refuses it), and
//! while the contract of issue 12 changes the reader's CR rule, any file holding a CR.

use super::json::{J, get};
use chrono::{DateTime, Days, NaiveDate, NaiveDateTime, TimeZone};
use chrono_tz::Tz;
use std::collections::{BTreeMap, HashMap, HashSet};

/// What the reference decides.
#[derive(Debug)]
pub enum Verdict {
    /// The file is valid; its tally.
    Accept(Box<Tally>),
    /// The file is refused, and why (the first reason met, in the reference's order).
    Refuse(String),
    /// Out of what the reference can decide.
    Undefined(String),
}

/// Why reading stopped.
enum Stop {
    Refuse(String),
    Undefined(String),
}

fn refuse<T>(why: impl Into<String>) -> Result<T, Stop> {
    Err(Stop::Refuse(why.into()))
}

/// Which excluded accounts `excluded_accounts_with_plays` counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExcludedRule {
    /// Those with at least one play record of any class (spec/formats.md §4.7, contract of issue 12).
    AnyPlay,
    /// Those with at least one counting play (what urne did before issue 12).
    CountingPlay,
}

/// How the reference reads, for the rules that issue 12 changes.
#[derive(Debug, Clone, Copy)]
pub struct Mode {
    /// A CR anywhere refuses the file (spec/appliance.md §4.1.1); else a file with a CR is undefined.
    pub cr_refused: bool,
    /// The rule of the excluded-accounts figure.
    pub excluded: ExcludedRule,
}

/// The rules of an operation as the reference reads them from the rules file (spec/formats.md §4.1).
#[derive(Debug, Clone)]
pub struct Rules {
    operation: String,
    tz: Tz,
    /// (first day, last day, id, tranche in cents).
    periods: Vec<(NaiveDate, NaiveDate, String, u64)>,
    cap: u64,
    online: Vec<String>,
    reasons: Vec<String>,
    participation: (i64, i64),
}

fn local(tz: Tz, t: NaiveDateTime) -> i64 {
    tz.from_local_datetime(&t)
        .earliest()
        .expect("a local time")
        .timestamp()
}

impl Rules {
    /// Reads an operation rules file (only what the tally needs).
    ///
    /// # Panics
    /// If the file is not a valid rules file (the shipped one is).
    pub fn from_json(bytes: &[u8]) -> Rules {
        let v: serde_json::Value = serde_json::from_slice(bytes).expect("rules JSON");
        let s = |x: &serde_json::Value| x.as_str().expect("a string").to_string();
        let day = |x: &serde_json::Value| NaiveDate::parse_from_str(&s(x), "%Y-%m-%d").unwrap();
        let tz: Tz = s(&v["time_zone"]).parse().expect("a time zone");
        let at = |x: &serde_json::Value| {
            local(
                tz,
                NaiveDateTime::parse_from_str(&s(x), "%Y-%m-%dT%H:%M:%S").unwrap(),
            )
        };
        let list = |x: &serde_json::Value| x.as_array().unwrap().iter().map(s).collect();
        Rules {
            operation: s(&v["operation"]),
            tz,
            periods: v["periods"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    let tranche = p["tranche_cents"].as_u64().unwrap();
                    (
                        day(&p["first_day"]),
                        day(&p["last_day"]),
                        s(&p["id"]),
                        tranche,
                    )
                })
                .collect(),
            cap: v["daily_cap"].as_u64().unwrap(),
            online: list(&v["online_channels"]),
            reasons: list(&v["exclusion_reasons"]),
            participation: (
                at(&v["participation"]["start"]),
                at(&v["participation"]["end"]),
            ),
        }
    }
}

/// The tally of a valid export, as the reference computes it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Header: operation, day (`YYYY-MM-DD`), producer, `generated_at`, `status_as_of`.
    pub header: [String; 5],
    /// Header: plays and exclusions announced.
    pub announced: (u64, u64),
    /// The day's period id and tranche.
    pub period: (String, u64),
    /// Plays, counting plays, retail plays, subscription plays refused.
    pub plays: [u64; 4],
    /// Distinct accounts with a counting play, excluded ones included.
    pub accounts_with_counting_plays: u64,
    /// Exclusion records by reason: closed, minor, fraud.
    pub exclusions_by_reason: [u64; 3],
    /// Excluded accounts with plays by reason (closed, minor, fraud), by [`Mode::excluded`].
    pub excluded_accounts_with_plays: [u64; 3],
    /// The canonical entry list, ascending by account.
    pub entries: Vec<([u8; 32], u8)>,
    /// The sum of the entries.
    pub total_entries: u64,
}

const CHANNELS: [&str; 5] = ["web", "mobile", "tablet", "app", "retail"];
const REASONS: [&str; 3] = ["closed", "minor", "fraud"];

/// An RFC 3339 `full-date`, exactly `YYYY-MM-DD`.
fn date(s: &str) -> Option<NaiveDate> {
    let b = s.as_bytes();
    let layout = b.len() == 10
        && b.iter().enumerate().all(|(i, &c)| {
            if i == 4 || i == 7 {
                c == b'-'
            } else {
                c.is_ascii_digit()
            }
        });
    if !layout {
        return None;
    }
    NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()
}

/// An RFC 3339 `date-time` in the reader's subset, as Unix seconds: chrono's RFC 3339 parser,
/// less what the subset leaves out and chrono takes (a space for `T`, a leap second `:60`).
pub fn instant(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() < 20 || !matches!(b[10], b'T' | b't') || &b[17..19] == b"60" {
        return None;
    }
    DateTime::parse_from_rfc3339(s).ok().map(|d| d.timestamp())
}

fn string<'a>(m: &'a [(String, J)], k: &str) -> Result<&'a str, Stop> {
    match get(m, k) {
        Some(J::Str(s)) => Ok(s),
        Some(_) => refuse(format!("{k}: not a string")),
        None => refuse(format!("{k}: missing")),
    }
}

fn int(m: &[(String, J)], k: &str) -> Result<i128, Stop> {
    match get(m, k) {
        Some(J::Int(n)) => Ok(*n),
        Some(_) => refuse(format!("{k}: not an integer")),
        None => refuse(format!("{k}: missing")),
    }
}

fn count(m: &[(String, J)], k: &str) -> Result<u64, Stop> {
    u64::try_from(int(m, k)?).or_else(|_| refuse(format!("{k}: out of range")))
}

fn account(m: &[(String, J)]) -> Result<[u8; 32], Stop> {
    let s = string(m, "account")?;
    let lower = s.len() == 64 && s.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'));
    match hex::decode(s) {
        Ok(v) if lower => Ok(v.try_into().expect("32 bytes")),
        _ => refuse("account: not 64 lowercase hex digits"),
    }
}

fn object(line: &str) -> Result<Vec<(String, J)>, Stop> {
    match serde_json::from_str::<J>(line) {
        Ok(j) if j.depth() > 64 => refuse("nested deeper than 64"),
        Ok(J::Obj(m)) => Ok(m),
        Ok(_) => refuse("not a JSON object"),
        Err(e) if e.to_string().contains("number out of range") => {
            Err(Stop::Undefined(format!("serde_json: {e}")))
        }
        Err(e) => refuse(format!("JSON: {e}")),
    }
}

/// What the header says, checked.
struct Header {
    tally: Tally,
    day_bounds: (i64, i64),
}

fn header(m: &[(String, J)], producer_id: &str, rules: &Rules) -> Result<Header, Stop> {
    if get(m, "format").is_none() {
        return refuse("line 1 is not a header");
    }
    if string(m, "format")? != "draw-entries" {
        return refuse("format");
    }
    if get(m, "version") != Some(&J::Int(1)) {
        return refuse("version");
    }
    let operation = string(m, "operation")?;
    if operation != rules.operation {
        return refuse("operation");
    }
    let day_s = string(m, "day")?;
    let day = date(day_s).map_or_else(|| refuse("day: not a date"), Ok)?;
    let Some((_, _, id, tranche)) = rules.periods.iter().find(|p| p.0 <= day && day <= p.1) else {
        return refuse("day: in no period");
    };
    let producer = string(m, "producer")?;
    if producer != producer_id {
        return refuse("producer");
    }
    let generated_at = string(m, "generated_at")?;
    let status_as_of = string(m, "status_as_of")?;
    if instant(generated_at).is_none() || instant(status_as_of).is_none() {
        return refuse("generated_at or status_as_of: not an instant");
    }
    let announced = (count(m, "plays")?, count(m, "exclusions")?);
    let midnight = |d: NaiveDate| local(rules.tz, d.and_hms_opt(0, 0, 0).expect("midnight"));
    let next = day.checked_add_days(Days::new(1)).expect("a next day");
    Ok(Header {
        tally: Tally {
            header: [operation, day_s, producer, generated_at, status_as_of].map(String::from),
            announced,
            period: (id.clone(), *tranche),
            ..Tally::default()
        },
        day_bounds: (midnight(day), midnight(next)),
    })
}

/// The records read so far.
#[derive(Default)]
struct Records {
    ids: HashSet<String>,
    /// Counting cents by account.
    sums: BTreeMap<[u8; 32], u64>,
    /// Accounts with a play of any class.
    played: HashSet<[u8; 32]>,
    /// Excluded accounts, by reason index.
    excluded: HashMap<[u8; 32], usize>,
    /// Plays, counting, retail, subscription refused.
    plays: [u64; 4],
    exclusions_by_reason: [u64; 3],
}

fn play(m: &[(String, J)], h: &Header, rules: &Rules, r: &mut Records) -> Result<(), Stop> {
    let id = string(m, "id")?;
    let id_ok = (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b':' | b'-'));
    if !id_ok {
        return refuse("id");
    }
    let acct = account(m)?;
    let at = instant(string(m, "at")?).map_or_else(|| refuse("at: not an instant"), Ok)?;
    if at < h.day_bounds.0 || at >= h.day_bounds.1 {
        return refuse("at: not on the day");
    }
    let stake = int(m, "stake_cents")?;
    if !(1..=100_000_000).contains(&stake) {
        return refuse("stake_cents: out of range");
    }
    let channel = string(m, "channel")?;
    if !CHANNELS.contains(&channel) {
        return refuse("channel");
    }
    if !(1..=64).contains(&string(m, "game")?.chars().count()) {
        return refuse("game");
    }
    let subscribed_at = match get(m, "subscription") {
        Some(J::Null) => None,
        Some(J::Obj(s)) => Some(
            instant(string(s, "subscribed_at")?)
                .map_or_else(|| refuse("subscribed_at: not an instant"), Ok)?,
        ),
        Some(_) => return refuse("subscription: neither null nor an object"),
        None => return refuse("subscription: missing"),
    };
    if !r.ids.insert(id.to_string()) {
        return refuse("a play id twice");
    }
    r.plays[0] += 1;
    r.played.insert(acct);
    let (start, end) = rules.participation;
    if !rules.online.iter().any(|c| c == channel) {
        r.plays[2] += 1;
    } else if subscribed_at.is_some_and(|t| t < start || t >= end) {
        r.plays[3] += 1;
    } else {
        r.plays[1] += 1;
        *r.sums.entry(acct).or_default() += u64::try_from(stake).expect("in range");
    }
    Ok(())
}

fn exclusion(m: &[(String, J)], rules: &Rules, r: &mut Records) -> Result<(), Stop> {
    let acct = account(m)?;
    let reason = string(m, "reason")?;
    if !rules.reasons.iter().any(|x| x == reason) {
        return refuse("reason");
    }
    let i = REASONS
        .iter()
        .position(|x| *x == reason)
        .expect("a known reason");
    if r.excluded.insert(acct, i).is_some() {
        return refuse("an account excluded twice");
    }
    r.exclusions_by_reason[i] += 1;
    Ok(())
}

fn record(line: &str, h: &Header, rules: &Rules, r: &mut Records) -> Result<(), Stop> {
    let m = object(line)?;
    match string(&m, "type")? {
        "play" => play(&m, h, rules, r),
        "exclusion" => exclusion(&m, rules, r),
        _ => refuse("unknown type"),
    }
}

fn finish(h: Header, r: &Records, rules: &Rules, mode: Mode) -> Result<Tally, Stop> {
    let n_excl: u64 = r.exclusions_by_reason.iter().sum();
    if (r.plays[0], n_excl) != h.tally.announced {
        return refuse("the header's counts");
    }
    let mut t = h.tally;
    t.plays = r.plays;
    t.exclusions_by_reason = r.exclusions_by_reason;
    t.accounts_with_counting_plays = r.sums.len() as u64;
    for (acct, &i) in &r.excluded {
        let counted = match mode.excluded {
            ExcludedRule::AnyPlay => r.played.contains(acct),
            ExcludedRule::CountingPlay => r.sums.contains_key(acct),
        };
        t.excluded_accounts_with_plays[i] += u64::from(counted);
    }
    for (acct, cents) in &r.sums {
        let n = (cents / t.period.1).min(rules.cap);
        if n > 0 && !r.excluded.contains_key(acct) {
            t.entries
                .push((*acct, u8::try_from(n).expect("at most the cap")));
            t.total_entries += n;
        }
    }
    Ok(t)
}

fn read_all(file: &[u8], producer_id: &str, rules: &Rules, mode: Mode) -> Result<Tally, Stop> {
    let Some(body) = file.strip_suffix(b"\n") else {
        return refuse("empty, or no LF after the last line");
    };
    let mut lines = body.split(|&b| b == b'\n').map(std::str::from_utf8);
    let first = lines
        .next()
        .expect("one line")
        .or_else(|_| refuse("not UTF-8"))?;
    let h = header(&object(first)?, producer_id, rules)?;
    let mut r = Records::default();
    for line in lines {
        record(line.or_else(|_| refuse("not UTF-8"))?, &h, rules, &mut r)?;
    }
    finish(h, &r, rules, mode)
}

/// Reads `file`, an export signed by the key of id `producer_id`, under `rules`.
pub fn read(file: &[u8], producer_id: &str, rules: &Rules, mode: Mode) -> Verdict {
    if file.contains(&b'\r') {
        return if mode.cr_refused {
            Verdict::Refuse("a CR (spec/formats.md §4.1.1: no CR anywhere)".into())
        } else {
            Verdict::Undefined("a CR (the rule is changing, contract-12)".into())
        };
    }
    match read_all(file, producer_id, rules, mode) {
        Ok(t) => Verdict::Accept(Box::new(t)),
        Err(Stop::Refuse(why)) => Verdict::Refuse(why),
        Err(Stop::Undefined(why)) => Verdict::Undefined(why),
    }
}
