//! The values the formats name by a few characters, as types: a day (`YYYY-MM-DD`), a key id
//! (spec/formats.md §1.3) and an attempt (from 1, spec/formats.md §4.7 [M-312]). Each is checked
//! once, where the verification step that checks it today does (so that every failure keeps its
//! class and words, spec/formats.md §8.1), and is typed from there on; `Display` gives the
//! format's spelling, and a day and a key id are serialised as that string.

mod block_id;

pub(crate) use block_id::is_slug;
pub use block_id::{BlockId, BlockIdError};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// A calendar day, exactly `YYYY-MM-DD` (four, two and two ASCII digits; a date of the
/// proleptic Gregorian calendar). Ordered as time goes, which is also the order of its spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(chrono::NaiveDate);

/// Why a string is not a [`Day`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DayError {
    /// Not four, two and two ASCII digits joined by `-`.
    #[error("{0:?} is not a date YYYY-MM-DD")]
    Shape(String),
    /// The right shape, but no such date (e.g. `2018-02-30`).
    #[error("{0:?} is not a calendar date")]
    NoSuchDate(String),
}

impl Day {
    /// The date `d` as a day; `None` for a year outside 0000–9999, which `YYYY-MM-DD` cannot
    /// spell.
    pub fn of(d: chrono::NaiveDate) -> Option<Day> {
        use chrono::Datelike;
        (0..=9999).contains(&d.year()).then_some(Day(d))
    }

    /// The day as a date, for the rules' periods and bounds.
    pub fn date(self) -> chrono::NaiveDate {
        self.0
    }
}

impl FromStr for Day {
    type Err = DayError;

    fn from_str(s: &str) -> Result<Day, DayError> {
        let b = s.as_bytes();
        let shape = b.len() == 10
            && b.iter().enumerate().all(|(i, c)| {
                if i == 4 || i == 7 {
                    *c == b'-'
                } else {
                    c.is_ascii_digit()
                }
            });
        if !shape {
            return Err(DayError::Shape(s.into()));
        }
        let n = |r: std::ops::Range<usize>| s[r].parse::<u32>().ok();
        n(0..4)
            .and_then(|y| i32::try_from(y).ok())
            .zip(n(5..7))
            .zip(n(8..10))
            .and_then(|((y, m), d)| chrono::NaiveDate::from_ymd_opt(y, m, d))
            .map(Day)
            .ok_or_else(|| DayError::NoSuchDate(s.into()))
    }
}

impl fmt::Display for Day {
    /// `YYYY-MM-DD`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use chrono::Datelike;
        let d = self.0;
        let text = format!("{:04}-{:02}-{:02}", d.year(), d.month(), d.day());
        f.pad(&text)
    }
}

impl PartialEq<String> for Day {
    /// A day as a file states it (a string, typed where its step checks it) is this day: the
    /// spelling `YYYY-MM-DD` is the only one, so no other string states it.
    fn eq(&self, other: &String) -> bool {
        other.parse::<Day>().is_ok_and(|d| d == *self)
    }
}

impl PartialEq<Day> for String {
    fn eq(&self, other: &Day) -> bool {
        other == self
    }
}

impl PartialEq<str> for Day {
    fn eq(&self, other: &str) -> bool {
        other.parse::<Day>().is_ok_and(|d| d == *self)
    }
}

impl Serialize for Day {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Day {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Day, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The key id of an Ed25519 public key (spec/formats.md §1.3): the first 16 hex digits
/// (lowercase, as written) of the SHA-256 of its raw 32 bytes.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KeyId(String);

/// Why a string is not a [`KeyId`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a key id (16 lowercase hex digits, spec/formats.md §1.3)")]
pub struct KeyIdError(String);

impl KeyId {
    /// The key id of the raw Ed25519 public key `raw` (spec/formats.md §1.3).
    pub fn of(raw: &[u8; 32]) -> KeyId {
        KeyId(crate::crypto::keys::key_id(raw))
    }

    /// The 16 hex digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for KeyId {
    type Err = KeyIdError;

    fn from_str(s: &str) -> Result<KeyId, KeyIdError> {
        if is_lower_hex(s, 16) {
            Ok(KeyId(s.into()))
        } else {
            Err(KeyIdError(s.into()))
        }
    }
}

/// Whether `s` is exactly `len` lowercase hex digits.
fn is_lower_hex(s: &str, len: usize) -> bool {
    s.len() == len && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// A release's source revision: a git commit, exactly 40 lowercase hex digits (spec/formats.md
/// §8.8). An output's `software.source_revision` is one only when its build was of a commit
/// (not `…-modified`, not `unknown`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Commit(String);

/// Why a string is not a [`Commit`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a commit (40 lowercase hex digits)")]
pub struct CommitError(String);

impl FromStr for Commit {
    type Err = CommitError;

    fn from_str(s: &str) -> Result<Commit, CommitError> {
        if is_lower_hex(s, 40) {
            Ok(Commit(s.into()))
        } else {
            Err(CommitError(s.into()))
        }
    }
}

impl Commit {
    /// The 40 hex digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Commit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.0)
    }
}

impl KeyId {
    /// `ids` in words: their 16 hex digits, joined by `, `.
    pub fn join(ids: &[KeyId]) -> String {
        ids.iter().map(KeyId::as_str).collect::<Vec<_>>().join(", ")
    }
}

impl fmt::Display for KeyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.0)
    }
}

impl PartialEq<KeyId> for String {
    /// A key id as a file states it (a string, checked against the key given: spec/formats.md
    /// §8.2 step 5, `inconsistent`) is the same as `other`.
    fn eq(&self, other: &KeyId) -> bool {
        *self == other.0
    }
}

impl PartialEq<KeyId> for str {
    fn eq(&self, other: &KeyId) -> bool {
        *self == other.0
    }
}

impl PartialEq<String> for KeyId {
    fn eq(&self, other: &String) -> bool {
        self.0 == *other
    }
}

impl PartialEq<str> for KeyId {
    fn eq(&self, other: &str) -> bool {
        self.0 == *other
    }
}

impl Serialize for KeyId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for KeyId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<KeyId, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// An attempt at a day's draw or a block's generation: they count from 1 (spec/formats.md §4.7,
/// attempt 0 is `malformed` [M-312]). A file states it as a number; the step that checks it makes
/// this value with [`Attempt::new`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct Attempt(std::num::NonZeroU32);

impl Attempt {
    /// The first attempt.
    pub const FIRST: Attempt = Attempt(std::num::NonZeroU32::MIN);

    /// `n` as an attempt; `None` for 0.
    pub fn new(n: u32) -> Option<Attempt> {
        std::num::NonZeroU32::new(n).map(Attempt)
    }

    /// The number.
    pub fn get(self) -> u32 {
        self.0.get()
    }

    /// The attempt after this one (a void opens it); `None` past `u32::MAX`.
    pub fn next(self) -> Option<Attempt> {
        self.0.checked_add(1).map(Attempt)
    }
}

impl PartialEq<u32> for Attempt {
    /// An attempt as a file states it (a number, typed where its step checks it) is this one.
    fn eq(&self, other: &u32) -> bool {
        self.get() == *other
    }
}

impl PartialEq<Attempt> for u32 {
    fn eq(&self, other: &Attempt) -> bool {
        *self == other.get()
    }
}

impl FromStr for Attempt {
    type Err = String;

    /// A decimal number from 1, as the command line gives it.
    fn from_str(s: &str) -> Result<Attempt, String> {
        s.parse::<u32>()
            .ok()
            .filter(|_| s.bytes().all(|b| b.is_ascii_digit()))
            .and_then(Attempt::new)
            .ok_or_else(|| format!("{s:?} is not an attempt (a number from 1)"))
    }
}

impl fmt::Display for Attempt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl<'de> Deserialize<'de> for Attempt {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Attempt, D::Error> {
        Attempt::new(u32::deserialize(d)?)
            .ok_or_else(|| serde::de::Error::custom("attempts count from 1"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_is_exactly_yyyy_mm_dd_and_a_calendar_date() {
        for s in ["2018-12-05", "2016-02-29", "0001-01-01", "9999-12-31"] {
            let d: Day = s.parse().unwrap();
            assert_eq!(d.to_string(), s);
            let json = serde_json::to_string(&d).unwrap();
            assert_eq!(json, format!("\"{s}\""));
            assert_eq!(serde_json::from_str::<Day>(&json).unwrap(), d);
        }
        for s in [
            "2018-1-01",
            " 2018-01-01",
            "2018-01-01 ",
            "2018-01-1",
            "20180101",
            "2018/01/01",
            "+018-01-01",
            "2018-01-0a",
            "",
        ] {
            assert_eq!(s.parse::<Day>(), Err(DayError::Shape(s.into())), "{s:?}");
        }
        for s in [
            "2018-02-30",
            "2017-02-29",
            "2018-13-01",
            "2018-00-10",
            "2018-04-31",
        ] {
            assert_eq!(
                s.parse::<Day>(),
                Err(DayError::NoSuchDate(s.into())),
                "{s:?}"
            );
        }
        assert!(serde_json::from_str::<Day>("\"2018-02-30\"").is_err());
        assert!(serde_json::from_str::<Day>("20181205").is_err());
        let (a, b): (Day, Day) = ("2018-12-31".parse().unwrap(), "2019-01-01".parse().unwrap());
        assert!(a < b);
        assert_eq!(
            a.date(),
            chrono::NaiveDate::from_ymd_opt(2018, 12, 31).unwrap()
        );
    }

    #[test]
    fn a_key_id_is_sixteen_lowercase_hex_digits() {
        let raw = [7u8; 32];
        let id = KeyId::of(&raw);
        assert_eq!(id.as_str(), crate::crypto::keys::key_id(&raw));
        assert_eq!(id.to_string().parse::<KeyId>(), Ok(id.clone()));
        let stated: String = id.to_string();
        assert!(stated == id && *stated.as_str() == id);
        assert!(*"a85e805b452ccee7" != id);
        assert_eq!(
            serde_json::to_string(&id).unwrap(),
            format!("\"{}\"", id.as_str())
        );
        assert_eq!(
            serde_json::from_str::<KeyId>("\"a85e805b452ccee7\"").unwrap(),
            "a85e805b452ccee7".parse::<KeyId>().unwrap()
        );
        for s in [
            "A85E805B452CCEE7",
            "a85e805b452ccee",
            "a85e805b452ccee70",
            "ed25519:a85e805b452ccee7",
            " a85e805b452ccee7",
            "g85e805b452ccee7",
            "",
        ] {
            assert!(s.parse::<KeyId>().is_err(), "{s:?}");
            assert!(serde_json::from_value::<KeyId>(s.into()).is_err(), "{s:?}");
        }
    }

    #[test]
    fn attempts_count_from_one() {
        assert_eq!(Attempt::new(0), None);
        assert_eq!(Attempt::new(1), Some(Attempt::FIRST));
        let a = Attempt::new(3).unwrap();
        assert_eq!((a.get(), a.to_string()), (3, "3".to_string()));
        assert_eq!("3".parse(), Ok(a));
        for s in ["0", "-1", "+1", " 1", "x", "", "4294967296"] {
            assert!(s.parse::<Attempt>().is_err(), "{s:?}");
        }
        assert_eq!(serde_json::to_string(&a).unwrap(), "3");
        assert_eq!(serde_json::from_str::<Attempt>("3").unwrap(), a);
        assert!(serde_json::from_str::<Attempt>("0").is_err());
        assert!(serde_json::from_str::<Attempt>("-1").is_err());
        assert!(Attempt::FIRST < a);
    }
}

/// The values' JSON Schemas (schemas/, generated in the tests): each the grammar its parser
/// accepts, as far as a pattern can say it (a day's calendar check is the reader's).
#[cfg(test)]
mod json_schemas {
    use std::borrow::Cow;

    macro_rules! string_schema {
        ($t:ty, $name:literal, $pattern:literal, $description:literal) => {
            impl schemars::JsonSchema for $t {
                fn schema_name() -> Cow<'static, str> {
                    $name.into()
                }

                fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                    schemars::json_schema!({
                        "type": "string",
                        "pattern": $pattern,
                        "description": $description
                    })
                }
            }
        };
    }

    string_schema!(
        super::Day,
        "Day",
        "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$",
        "A day, exactly YYYY-MM-DD, a calendar date (spec/formats.md §4.1.2)."
    );
    string_schema!(
        super::KeyId,
        "KeyId",
        "^[0-9a-f]{16}$",
        "A key id: 16 lowercase hex digits (spec/formats.md §1.3)."
    );
    string_schema!(
        super::block_id::BlockId,
        "BlockId",
        "^[a-z0-9][a-z0-9-]{0,63}/(0|[1-9][0-9]*)/[a-z0-9][a-z0-9-]{0,31}/(0|[1-9][0-9]*)$",
        "A block id in its one canonical spelling game/price_cents/emission/number (spec/formats.md §5.B2)."
    );

    impl schemars::JsonSchema for super::Attempt {
        fn schema_name() -> Cow<'static, str> {
            "Attempt".into()
        }

        fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
            schemars::json_schema!({
                "type": "integer",
                "minimum": 1,
                "maximum": u32::MAX,
                "description": "An attempt number, from 1 (spec/formats.md §4.6)."
            })
        }
    }
}
