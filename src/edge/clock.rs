//! The appliance clock: the only place urne reads the time (clippy's `disallowed-methods` forbids
//! it everywhere else, and the core crate has no `clock` feature of chrono at all). The sitting's
//! clock decides whether a day has ended and dates the audit events and outputs.
//!
//! A rehearsal (spec/appliance.md §6.10) is held at a time the operator names (`--rehearsal-at`):
//! the *told clock*. It starts at that time when the command starts and advances with the real
//! elapsed time, so the trail stays in time order; every clock rule holds of it as of the real
//! one. Only a rehearsal token takes it: `Ctx::hsm` refuses it on any other.

use std::sync::OnceLock;
use std::time::Instant;

/// The told clock, once told: the time named and the instant it was told at.
static TOLD: OnceLock<(chrono::DateTime<chrono::Utc>, Instant)> = OnceLock::new();

/// Tells the clock the time `at` (a rehearsal's, spec/appliance.md §6.10): from now on the
/// clock reads `at` plus the real time elapsed since. Told once per process; a second telling
/// is ignored.
pub fn tell(at: chrono::DateTime<chrono::Utc>) {
    let _ = TOLD.set((at, Instant::now()));
}

/// Whether the clock was told a time ([`tell`]).
pub fn is_told() -> bool {
    TOLD.get().is_some()
}

/// The current time, UTC: the told clock's in a rehearsal, else the system's.
#[allow(clippy::disallowed_methods)]
pub fn now_utc() -> chrono::DateTime<chrono::Utc> {
    match TOLD.get() {
        Some((at, since)) => {
            let elapsed = chrono::Duration::from_std(since.elapsed()).unwrap_or_default();
            *at + elapsed
        }
        None => chrono::Utc::now(),
    }
}

/// [`now_utc`] in urne's one time format ([`rfc3339`]).
pub fn now_rfc3339() -> String {
    rfc3339(now_utc())
}

/// A time in urne's one format (spec/formats.md §6.1): RFC 3339, UTC, with microseconds.
pub fn rfc3339(t: chrono::DateTime<chrono::Utc>) -> String {
    t.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string()
}

/// Parses a told time as the operator writes it: RFC 3339 with its offset, seconds optional
/// (`2018-12-11T10:00+01:00`, `2018-12-11T09:00:00Z`). `None` when it is not one.
pub fn parse_told(text: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    let t = text.trim();
    chrono::DateTime::parse_from_rfc3339(t)
        .or_else(|_| chrono::DateTime::parse_from_str(t, "%Y-%m-%dT%H:%M%:z"))
        .ok()
        .map(|d| d.with_timezone(&chrono::Utc))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_told_time_is_read_with_its_offset_seconds_optional() {
        let want = parse_told("2018-12-11T09:00:00Z").unwrap();
        assert_eq!(parse_told("2018-12-11T10:00+01:00"), Some(want));
        assert_eq!(parse_told("2018-12-11T10:00:00+01:00"), Some(want));
        assert_eq!(parse_told("2018-12-11 10:00"), None);
        assert_eq!(parse_told("2018-12-11T10:00"), None);
    }
}
