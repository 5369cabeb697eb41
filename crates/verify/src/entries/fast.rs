//! A fast path for the play line as producers write it: the members in the usual order, no
//! whitespace, no escapes, ASCII only:
//!
//! ```text
//! {"type":"play","id":"…","account":"…","at":"…","stake_cents":N,"channel":"…","game":"…","subscription":null}
//! {"type":"play",…,"subscription":{"subscribed_at":"…"}}
//! ```
//!
//! [`play`] either returns the same field values the general reader (`json` + `parse_record`)
//! would have found and accepted, or declines (`None`) and the line goes to the general reader,
//! which then accepts it or reports exactly why not. So it never decides a refusal itself: every
//! field it cannot vouch for (an out-of-range stake, an unknown channel, a timestamp
//! `rfc3339::parse_unix` refuses, any unusual byte or layout) makes it decline. Every byte of the
//! line is checked: fixed text against the template, and each value against its own byte class,
//! all of them ASCII (so the line is valid UTF-8) without '"', '\\' or control characters (so no
//! string has an escape and JSON strings are the bytes themselves). The keys are fixed and
//! distinct, so a duplicate key cannot occur.
//!
//! The D-1 day check and everything after it are shared with the general path.

use super::fields::{MAX_STAKE_CENTS, hex32_lower};
use super::rfc3339;
use crate::rules::draw::Channel;

/// A play line's fields, validated as `parse_record` validates them (except D-1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct FastPlay<'a> {
    /// `id`, unescaped (1-64 bytes of [A-Za-z0-9._:-]).
    pub id: &'a [u8],
    /// `account`, decoded from its 64 lowercase hex digits.
    pub account: [u8; 32],
    /// `at` as written (ASCII on the fast path; from a `&str` on the general one).
    pub at_s: &'a [u8],
    /// `at` in Unix seconds (fraction dropped).
    pub at: i64,
    /// `stake_cents`, in 1 ..= `MAX_STAKE_CENTS`.
    pub stake: u64,
    /// `channel`, one of the five the format names.
    pub channel: Channel,
    /// `subscription.subscribed_at` in Unix seconds, or `None` for `"subscription":null`.
    pub subscribed_at: Option<i64>,
}

/// Bytes of a play id: [A-Za-z0-9._:-].
const ID: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        // Exact: c < 256 (the loop bound).
        #[allow(clippy::cast_possible_truncation)]
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || b == b':' || b == b'-';
        c += 1;
    }
    t
};

/// Bytes that may appear in a string value on the fast path: printable ASCII except '"' and '\\'.
const PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0x20;
    while c < 0x7f {
        t[c] = c != b'"' as usize && c != b'\\' as usize;
        c += 1;
    }
    t
};

/// A cursor over a play line: the line and the position of the next byte to read.
struct Cur<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Cur<'a> {
    /// Consumes `lit` if it comes next.
    fn lit<const N: usize>(&mut self, lit: &[u8; N]) -> Option<()> {
        let next: &[u8; N] = self.b.get(self.pos..self.pos + N)?.try_into().ok()?;
        if next == lit {
            self.pos += N;
            Some(())
        } else {
            None
        }
    }

    /// The bytes up to the next '"' (not consumed), all in `class`.
    fn run(&mut self, class: &[bool; 256]) -> Option<&'a [u8]> {
        let start = self.pos;
        let rest = self.b.get(start..)?;
        let n = rest.iter().position(|&c| !class[usize::from(c)])?;
        if rest[n] != b'"' {
            return None;
        }
        self.pos += n;
        Some(&rest[..n])
    }

    /// An RFC 3339 timestamp string body (quotes not included).
    fn instant(&mut self) -> Option<(&'a [u8], i64)> {
        let s = self.run(&PLAIN)?;
        Some((s, rfc3339::parse_unix_bytes(s)?))
    }
}

/// The fields of `line` if it is a play line in the usual layout that the general reader accepts
/// field by field; `None` otherwise (the general reader then decides).
pub(super) fn play(line: &[u8]) -> Option<FastPlay<'_>> {
    let mut c = Cur { b: line, pos: 0 };
    c.lit(br#"{"type":"play","id":""#)?;
    let id = c.run(&ID)?;
    if id.is_empty() || id.len() > 64 {
        return None;
    }
    c.lit(br#"","account":""#)?;
    let account = hex32_lower(line.get(c.pos..c.pos + 64)?)?;
    c.pos += 64;
    c.lit(br#"","at":""#)?;
    let (at_s, at) = c.instant()?;
    c.lit(br#"","stake_cents":"#)?;
    // An integer without sign, fraction, exponent or leading zero, in 1 ..= 100,000,000.
    let digits = line.get(c.pos..)?;
    let n = digits
        .iter()
        .take(10)
        .take_while(|b| b.is_ascii_digit())
        .count();
    if n == 0 || n > 9 || digits[0] == b'0' {
        return None;
    }
    let stake = digits[..n]
        .iter()
        .fold(0u64, |v, &d| v * 10 + u64::from(d - b'0'));
    if stake > MAX_STAKE_CENTS {
        return None;
    }
    c.pos += n;
    c.lit(br#","channel":""#)?;
    let ch = c.run(&PLAIN)?;
    // As `Channel::parse`, on bytes.
    let channel = Channel::ALL
        .into_iter()
        .find(|c| c.as_str().as_bytes() == ch)?;
    c.lit(br#"","game":""#)?;
    let game = c.run(&PLAIN)?;
    if game.is_empty() || game.len() > 64 {
        return None;
    }
    c.lit(br#"","subscription":"#)?;
    let subscribed_at = if c.lit(b"null}").is_some() {
        None
    } else {
        c.lit(br#"{"subscribed_at":""#)?;
        let (_, t) = c.instant()?;
        c.lit(br#""}}"#)?;
        Some(t)
    };
    (c.pos == line.len()).then_some(FastPlay {
        id,
        account,
        at_s,
        at,
        stake,
        channel,
        subscribed_at,
    })
}
