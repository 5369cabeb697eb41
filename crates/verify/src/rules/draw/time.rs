//! Days and instants of the rules file, in the operation's time zone (D-1): the conversion goes
//! through chrono-tz, never through a fixed offset.

use chrono::{NaiveDate, NaiveDateTime, NaiveTime, TimeZone};
use chrono_tz::Tz;

use super::error::{RulesError, invalid};
use crate::values::Day;

/// A day written exactly `YYYY-MM-DD` (a [`Day`]: chrono alone would also accept e.g.
/// "2018-12-1"); `field` names it in the refusal.
pub(super) fn parse_day(field: &str, s: &str) -> Result<NaiveDate, RulesError> {
    s.parse::<Day>()
        .map(Day::date)
        .map_err(|e| invalid(field, e.to_string()))
}

/// A local civil time in `tz` as Unix seconds; refused if it does not exist or is ambiguous there.
pub(super) fn local_instant(tz: Tz, field: &str, s: &str) -> Result<i64, RulesError> {
    // Exactly `YYYY-MM-DDTHH:MM:SS`, seconds 00-59 (spec/formats.md §4.9): chrono's parser alone also
    // takes `2018-12-1T0:0:0`, a sign, a leading space or a leap second.
    let b = s.as_bytes();
    let shape = b.len() == 19
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            10 => *c == b'T',
            13 | 16 => *c == b':',
            _ => c.is_ascii_digit(),
        })
        && &s[17..19] < "60";
    let naive = Some(s)
        .filter(|_| shape)
        .and_then(|s| NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S").ok())
        .ok_or_else(|| {
            invalid(
                field,
                format!("{s:?} is not a local time YYYY-MM-DDTHH:MM:SS"),
            )
        })?;
    match tz.from_local_datetime(&naive) {
        chrono::LocalResult::Single(t) => Ok(t.timestamp()),
        _ => Err(invalid(
            field,
            format!("{s:?} does not exist or is ambiguous in {tz}"),
        )),
    }
}

/// Unix seconds of local midnight starting `day` in `tz` (None if that midnight is skipped or
/// ambiguous, which never happens in Europe/Paris, whose changes are at 02:00/03:00).
pub(super) fn day_start(tz: Tz, day: NaiveDate) -> Option<i64> {
    match tz.from_local_datetime(&day.and_time(NaiveTime::MIN)) {
        chrono::LocalResult::Single(t) => Some(t.timestamp()),
        _ => None,
    }
}
