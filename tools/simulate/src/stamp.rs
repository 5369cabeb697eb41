//! Instants as producers write them: RFC 3339 local times with one of several offsets.

use std::io::Write;

use crate::operation::PARIS_OFFSET;
use crate::rng::Rng;

/// How an instant is written: the same instant with one of several offsets, as producers do.
#[derive(Clone, Copy)]
pub(crate) enum Stamp {
    Paris,
    Z,
    Utc,
    MinusFive,
}

impl Stamp {
    /// A style drawn at random: mostly Paris time, sometimes UTC or another offset.
    pub(crate) fn pick(rng: &mut Rng) -> Stamp {
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
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "a day of the month (1-31) and a month (1-12), as the algorithm computes them"
)]
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

/// Appends the instant `t` (Unix seconds) written in `style`.
#[expect(
    clippy::many_single_char_names,
    reason = "a date's and a time's fields by their usual letters: y, m, d, s"
)]
pub(crate) fn write_stamp(out: &mut Vec<u8>, t: i64, style: Stamp) {
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

/// The instant `t` written in `style`, as a string.
pub(crate) fn stamp_string(t: i64, style: Stamp) -> String {
    let mut s = Vec::new();
    write_stamp(&mut s, t, style);
    String::from_utf8(s).expect("ascii")
}
