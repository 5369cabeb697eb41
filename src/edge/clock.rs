//! The appliance clock: the only place urne reads the time (clippy's `disallowed-methods` forbids
//! it everywhere else, and the core crate has no `clock` feature of chrono at all). The sitting's
//! clock decides whether a day has ended and dates the audit events and outputs.

/// The current time, UTC.
#[allow(clippy::disallowed_methods)]
pub fn now_utc() -> chrono::DateTime<chrono::Utc> {
    chrono::Utc::now()
}

/// [`now_utc`] in urne's one time format ([`rfc3339`]).
pub fn now_rfc3339() -> String {
    rfc3339(now_utc())
}

/// A time in urne's one format (spec/formats.md §6.1): RFC 3339, UTC, with microseconds.
pub fn rfc3339(t: chrono::DateTime<chrono::Utc>) -> String {
    t.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string()
}
