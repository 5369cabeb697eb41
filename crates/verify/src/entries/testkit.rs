//! Test helpers for the entries modules: well-formed exports built from records, and pass 2 run
//! on them alone.

use super::error::ExportError;
use super::results::{DayTally, VerifiedExport};
use super::tally::{TallyOptions, tally_export_with};
use crate::rules::draw::DrawRules;

pub(crate) const PRODUCER: &str = "0123456789abcdef";

pub(crate) fn acct(n: u8) -> String {
    format!("{n:064x}")
}

pub(crate) fn play(id: &str, account: u8, at: &str, stake: u64, channel: &str) -> String {
    format!(
        r#"{{"type":"play","id":"{id}","account":"{}","at":"{at}","stake_cents":{stake},"channel":"{channel}","game":"loto","subscription":null}}"#,
        acct(account)
    )
}

pub(crate) fn sub_play(id: &str, account: u8, at: &str, stake: u64, subscribed_at: &str) -> String {
    format!(
        r#"{{"type":"play","id":"{id}","account":"{}","at":"{at}","stake_cents":{stake},"channel":"web","game":"loto","subscription":{{"subscribed_at":"{subscribed_at}"}}}}"#,
        acct(account)
    )
}

pub(crate) fn excl(account: u8, reason: &str) -> String {
    format!(
        r#"{{"type":"exclusion","account":"{}","reason":"{reason}"}}"#,
        acct(account)
    )
}

/// A well-formed export of `day` holding `records` (header counts computed from them).
pub(crate) fn export(day: &str, records: &[String]) -> Vec<u8> {
    let plays = records
        .iter()
        .filter(|r| r.contains(r#""type":"play""#))
        .count();
    let exclusions = records.len() - plays;
    let mut s = format!(
        r#"{{"format":"draw-entries","version":1,"operation":"chanceux-noel-2018","day":"{day}","producer":"{PRODUCER}","generated_at":"2018-12-26T07:30:00+01:00","status_as_of":"2018-12-26T07:30:00+01:00","plays":{plays},"exclusions":{exclusions}}}"#
    );
    s.push('\n');
    for r in records {
        s.push_str(r);
        s.push('\n');
    }
    s.into_bytes()
}

/// Pass 2 alone (pass 1's result stated directly: the signature is not what is tested here).
pub(crate) fn tally(bytes: &[u8]) -> Result<DayTally, ExportError> {
    tally_with(bytes, &DrawRules::chanceux_noel_2018(), 1)
}

/// [`tally`] under `rules`, on `threads` parsing threads.
pub(crate) fn tally_with(
    bytes: &[u8],
    rules: &DrawRules,
    threads: usize,
) -> Result<DayTally, ExportError> {
    let v = VerifiedExport {
        sha256: crate::crypto::sha256(bytes).0,
        size: bytes.len() as u64,
        key: [0; 32],
        key_id: PRODUCER.parse().unwrap(),
    };
    tally_export_with(|| Ok(bytes), &v, rules, &TallyOptions { threads })
}

/// The shipped rules with `online_channels` replaced by `online` (D-3).
pub(crate) fn rules_with_online(online: &[&str]) -> DrawRules {
    let mut v: serde_json::Value =
        serde_json::from_slice(crate::rules::draw::CHANCEUX_NOEL_2018).unwrap();
    v["online_channels"] = serde_json::json!(online);
    DrawRules::from_json(serde_json::to_string(&v).unwrap().as_bytes()).unwrap()
}

/// A play on 2018-12-05 on `channel`, whose `subscription` is taken out at `subscribed_at`, or
/// `null`.
pub(crate) fn channel_play(
    id: &str,
    account: u8,
    stake: u64,
    channel: &str,
    subscribed_at: Option<&str>,
) -> String {
    let sub = subscribed_at.map_or("null".to_string(), |t| {
        format!(r#"{{"subscribed_at":"{t}"}}"#)
    });
    format!(
        r#"{{"type":"play","id":"{id}","account":"{}","at":"2018-12-05T10:00:00+01:00","stake_cents":{stake},"channel":"{channel}","game":"loto","subscription":{sub}}}"#,
        acct(account)
    )
}

pub(crate) fn entries_of(t: &DayTally, account: u8) -> u8 {
    let a = crate::crypto::parse_hex32(&acct(account)).unwrap();
    t.entries
        .iter()
        .find(|e| e.account == a)
        .map_or(0, |e| e.entries)
}

pub(crate) fn refusal(bytes: &[u8]) -> ExportError {
    tally(bytes).expect_err("must be refused")
}

/// A tiny deterministic generator for test data (splitmix64).
pub(crate) fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
