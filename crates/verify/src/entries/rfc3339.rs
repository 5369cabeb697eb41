//! RFC 3339 timestamps (`date-time` of RFC 3339 §5.6) to Unix seconds, by hand: chrono's parser
//! allocates nothing either but accepts more than RFC 3339, and this one runs once or twice per
//! play.
//!
//! Accepted: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, `T` and `Z` in either case (the note of
//! RFC 3339 §5.6). Refused: anything else, impossible dates (2018-02-30), hour > 23, minute or
//! second above 59 (no leap second occurred in the years this appliance handles), offsets beyond
//! ±23:59.
//! The fraction is dropped (truncated toward the past): day and period bounds are whole seconds,
//! so `t >= bound` and `t < bound` are decided by the whole seconds alone.

/// Days from 1970-01-01 to the given civil date (proleptic Gregorian; Howard Hinnant's algorithm),
/// negative before it. The date is not checked: `m` must be in 1 ..= 12 and `d` a day of that
/// month (as [`parse_date`] guarantees).
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Days in month `m` (1 ..= 12) of year `y`, proleptic Gregorian.
fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        _ => 28,
    }
}

/// The decimal number written with exactly `len` ASCII digits at `b[at..]`.
fn num(b: &[u8], at: usize, len: usize) -> Option<u32> {
    let mut v = 0u32;
    for &c in b.get(at..at + len)? {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + u32::from(c - b'0');
    }
    Some(v)
}

/// Parses an RFC 3339 `full-date` (`YYYY-MM-DD`, exactly ten bytes) into (year, month, day),
/// checking the calendar (leap years included); `None` if it is not one.
pub fn parse_date(s: &str) -> Option<(i64, u32, u32)> {
    parse_date_bytes(s.as_bytes())
}

/// [`parse_date`] over bytes.
fn parse_date_bytes(b: &[u8]) -> Option<(i64, u32, u32)> {
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let y = i64::from(num(b, 0, 4)?);
    let m = num(b, 5, 2)?;
    let d = num(b, 8, 2)?;
    if !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
        return None;
    }
    Some((y, m, d))
}

/// Parses an RFC 3339 `date-time` into Unix seconds (fraction truncated), or `None` if it is not
/// one of the forms the module accepts.
pub fn parse_unix(s: &str) -> Option<i64> {
    parse_unix_bytes(s.as_bytes())
}

/// [`parse_unix`] over bytes (anything that is not ASCII is refused, as it is by `parse_unix`).
// Short names for the fields (y, mo, d, h, mi, se) and the byte index (b, i): the parser reads
// like the fixed layout it checks.
#[allow(clippy::many_single_char_names)]
pub(crate) fn parse_unix_bytes(b: &[u8]) -> Option<i64> {
    if b.len() < 20 {
        return None;
    }
    let (y, mo, d) = parse_date_bytes(&b[..10])?;
    if !matches!(b[10], b'T' | b't') || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let h = num(b, 11, 2)?;
    let mi = num(b, 14, 2)?;
    let se = num(b, 17, 2)?;
    if h > 23 || mi > 59 || se > 59 {
        return None;
    }
    let mut i = 19;
    if b[i] == b'.' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return None;
        }
    }
    let offset: i64 = match b.get(i)? {
        b'Z' | b'z' if i + 1 == b.len() => 0,
        sign @ (b'+' | b'-') if i + 6 == b.len() && b[i + 3] == b':' => {
            let oh = num(b, i + 1, 2)?;
            let om = num(b, i + 4, 2)?;
            if oh > 23 || om > 59 {
                return None;
            }
            let o = i64::from(oh * 3600 + om * 60);
            if *sign == b'-' { -o } else { o }
        }
        _ => return None,
    };
    let local = days_from_civil(y, mo, d) * 86_400
        + i64::from(h) * 3600
        + i64::from(mi) * 60
        + i64::from(se);
    Some(local - offset)
}

/// urne's one time format (spec/formats.md §6.1): RFC 3339 UTC with microseconds,
/// `YYYY-MM-DDTHH:MM:SS.ffffffZ`, 27 characters, digits where digits go, a real date and time of
/// day (proleptic Gregorian, years 0000 to 9999, seconds at most 59); in it, text order is time
/// order. The trail's times are checked
/// against it (spec/formats.md §6.4 (5)), as are a block's reveal's and commitment's (spec/formats.md §5.B10).
#[must_use]
pub fn is_one_time_format(ts: &str) -> bool {
    let b = ts.as_bytes();
    let shape = b.len() == 27
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            10 => *c == b'T',
            13 | 16 => *c == b':',
            19 => *c == b'.',
            26 => *c == b'Z',
            _ => c.is_ascii_digit(),
        });
    shape && parse_unix(ts).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::DateTime;

    #[test]
    fn agrees_with_chrono_on_offsets_and_fractions() {
        for s in [
            "2018-12-01T00:00:00+01:00",
            "2018-11-30T23:00:00Z",
            "2018-11-30T18:00:00-05:00",
            "2018-12-24T23:59:59.999+01:00",
            "2000-02-29T12:34:56.5Z",
            "1969-12-31T23:59:59Z",
            "2018-12-01t00:00:00z",
            "2018-12-01T10:00:00-00:00",
            // Offsets with minutes, and the largest there is: what places a play on its day
            // (D-1, midnight in Europe/Paris).
            "2018-12-01T00:00:00+05:30",
            "2018-12-01T00:00:00-09:45",
            "2018-12-01T00:00:00+23:59",
            "2018-12-01T00:00:00-23:59",
        ] {
            let c = DateTime::parse_from_rfc3339(s).unwrap().timestamp();
            assert_eq!(parse_unix(s), Some(c), "{s}");
        }
        assert_eq!(parse_unix("2018-12-01T00:00:00+01:00"), Some(1_543_618_800));
    }

    #[test]
    fn refuses_what_rfc3339_does_not_allow() {
        for s in [
            "2018-12-01 00:00:00Z",
            "2018-12-01T00:00:00",
            "2018-12-01T00:00:00+0100",
            "2018-12-01T00:00:00+01",
            "2018-12-01T24:00:00Z",
            "2018-12-01T23:60:00Z",
            "2018-12-01T23:59:60Z",
            "2018-02-29T00:00:00Z",
            "2018-13-01T00:00:00Z",
            "2018-12-00T00:00:00Z",
            "2018-12-1T00:00:00Z",
            "2018x12-01T00:00:00Z",
            "2018-12-01T00x00:00Z",
            "2018-12-01T00:00x00Z",
            "2018-12-01T00:00:00+01x00",
            "2018-12-01T00:00:00+01:000",
            "2018-12-01T00:00:00+01:60",
            "2018-12-01T00:00:00-00:60",
            "2018-12x01T00:00:00Z",
            "2018-12-01T00:00:00.Z",
            "2018-12-01T00:00:00Z ",
            "2018-12-01T00:00:00+24:00",
            "+2018-12-01T00:00:00Z",
        ] {
            assert_eq!(parse_unix(s), None, "{s}");
        }
    }

    #[test]
    fn february_has_29_days_in_the_gregorian_leap_years_only() {
        // Every fourth year, but not a century, unless it is a fourth century.
        for (year, leap) in [
            (2016, true),
            (2018, false),
            (2019, false),
            (2000, true),
            (2400, true),
            (1900, false),
            (2100, false),
            (2200, false),
        ] {
            let s = format!("{year}-02-29T12:00:00Z");
            assert_eq!(parse_unix(&s).is_some(), leap, "{s}");
            assert_eq!(
                parse_unix(&s),
                DateTime::parse_from_rfc3339(&s).ok().map(|d| d.timestamp()),
                "{s}"
            );
            assert!(parse_unix(&format!("{year}-02-28T12:00:00Z")).is_some());
        }
    }
}
