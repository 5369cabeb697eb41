//! The breaks (`--break`), applied exactly as gen-entries applies them: before the records are
//! written (header counts, extra lines), on a record line, after the body is complete, and
//! around signing.

use ed25519_dalek::SigningKey;
use sha2::{Digest, Sha256};

use crate::args::{Args, Break};
use crate::generate::Generated;
use crate::operation::OPERATION;
use crate::record::{Record, render};
use crate::stamp::{Stamp, stamp_string};

/// What the header declares and what follows the shuffled records, once the break is applied.
pub(crate) struct Framing {
    /// The header's `plays`.
    pub(crate) header_plays: u64,
    /// The header's `exclusions`.
    pub(crate) header_exclusions: u64,
    /// The header's `operation`.
    pub(crate) operation: &'static str,
    /// Raw lines appended after the shuffled records.
    pub(crate) extra: Vec<String>,
}

impl Framing {
    /// One more play line after the records, counted in the header.
    fn add_play(&mut self, line: String) {
        self.extra.push(line);
        self.header_plays += 1;
    }
}

/// The header counts and extra lines for `a.brk`, for the day starting at `day_start`.
pub(crate) fn framing(a: &Args, day_start: i64, g: &Generated) -> Framing {
    let mut f = Framing {
        header_plays: a.plays,
        header_exclusions: g.n_exclusion_records as u64,
        operation: OPERATION,
        extra: Vec::new(),
    };
    let acct0 = std::str::from_utf8(&g.accounts[0])
        .expect("hex")
        .to_string();
    let day_start_s = stamp_string(day_start, Stamp::Paris);
    match a.brk {
        Some(Break::CountMismatch) => f.header_plays += 1,
        Some(Break::WrongOperation) => f.operation = "chanceux-noel-2019",
        Some(Break::DuplicateId) if a.plays > 0 => f.add_play(middle_play_again(a, g)),
        Some(Break::DuplicateExclusion) => {
            let line = match g.first_exclusion_record {
                Some(r) => line_of(&r, a.seed, g),
                None => format!(r#"{{"type":"exclusion","account":"{acct0}","reason":"closed"}}"#),
            };
            f.extra.push(line.clone());
            f.extra.push(line);
            f.header_exclusions = g.n_exclusion_records as u64 + 2;
        }
        Some(Break::WrongDay) => {
            // One play a second after midnight that ends the day.
            let nxt = stamp_string(day_start + 86_401, Stamp::Paris);
            f.add_play(format!(
                r#"{{"type":"play","id":"p-late","account":"{acct0}","at":"{nxt}","stake_cents":1000,"channel":"web","game":"loto","subscription":null}}"#
            ));
        }
        Some(Break::NegativeStake) if !matches!(g.records.first(), Some(Record::Play(_))) => {
            f.add_play(format!(
                r#"{{"type":"play","id":"p-neg","account":"{acct0}","at":"{day_start_s}","stake_cents":-1000,"channel":"web","game":"loto","subscription":null}}"#
            ));
        }
        Some(Break::UnknownType) => {
            f.extra
                .push(format!(r#"{{"type":"bonus","account":"{acct0}"}}"#));
        }
        Some(Break::BadAccount) => {
            let bad = format!("{}Z", acct0[..63].to_uppercase());
            f.add_play(format!(
                r#"{{"type":"play","id":"p-bad-acct","account":"{bad}","at":"{day_start_s}","stake_cents":1000,"channel":"web","game":"loto","subscription":null}}"#
            ));
        }
        Some(Break::MissingField) => {
            f.add_play(format!(
                r#"{{"type":"play","id":"p-no-stake","account":"{acct0}","at":"{day_start_s}","channel":"web","game":"loto","subscription":null}}"#
            ));
        }
        _ => {}
    }
    f
}

/// duplicate-id: the middle play, written again (same id).
fn middle_play_again(a: &Args, g: &Generated) -> String {
    let mid = g
        .records
        .iter()
        .find_map(|r| match r {
            Record::Play(p) if u64::from(p.n) == a.plays / 2 => Some(*r),
            _ => None,
        })
        .expect("the middle play exists");
    line_of(&mid, a.seed, g)
}

/// The line of record `r` (without its LF).
fn line_of(r: &Record, seed: u64, g: &Generated) -> String {
    let mut buf = Vec::new();
    render(&mut buf, r, seed, &g.accounts, &g.strangers);
    String::from_utf8(buf).expect("ascii")
}

/// Breaks one record line: record `i` (a play when `is_play`), whose line is `body[start..]`
/// (without its LF), of `n_records`. negative-stake: the first record, if a play, gets a
/// negative stake; bad-json: the middle record loses its closing brace (no other break appends
/// lines then).
pub(crate) fn edit_record_line(
    brk: Option<Break>,
    body: &mut Vec<u8>,
    start: usize,
    i: usize,
    is_play: bool,
    n_records: usize,
) {
    if i == 0 && brk == Some(Break::NegativeStake) && is_play {
        let line = String::from_utf8(body[start..].to_vec()).expect("ascii");
        let line = line.replacen("\"stake_cents\":", "\"stake_cents\":-", 1);
        body.truncate(start);
        body.extend_from_slice(line.as_bytes());
    }
    if brk == Some(Break::BadJson) && i == n_records / 2 {
        body.pop(); // drop the closing brace
    }
}

/// Breaks of the complete body: crlf (every LF becomes CRLF), bad-utf8 (two bytes that are not
/// UTF-8 inside the first game name).
pub(crate) fn edit_body(brk: Option<Break>, body: &mut Vec<u8>) {
    if brk == Some(Break::Crlf) {
        let mut crlf = Vec::with_capacity(body.len() + body.len() / 100);
        for &b in body.iter() {
            if b == b'\n' {
                crlf.push(b'\r');
            }
            crlf.push(b);
        }
        *body = crlf;
    }
    if brk == Some(Break::BadUtf8)
        && let Some(i) = memchr::memmem::find(body, b"\"game\":\"")
    {
        let cut = i + 8;
        body.splice(cut..cut, [0xff, 0xfe]);
    }
}

/// The key that signs: the producer's, or for wrong-key one nobody trusts.
pub(crate) fn signer(brk: Option<Break>, producer: &SigningKey) -> SigningKey {
    if brk == Some(Break::WrongKey) {
        SigningKey::from_bytes(&Sha256::digest(b"urne-simulate: a key nobody trusts").into())
    } else {
        producer.clone()
    }
}

/// Breaks after signing: truncated (signed whole, then cut short in transit), bad-signature (one
/// bit of the signature flipped).
pub(crate) fn edit_signed(brk: Option<Break>, body: &mut Vec<u8>, sig: &mut [u8; 64]) {
    if brk == Some(Break::Truncated) {
        body.truncate(body.len() * 2 / 3); // signed whole, then cut short in transit
    }
    if brk == Some(Break::BadSignature) {
        sig[5] ^= 0x01;
    }
}
