//! The operation rules file as written, before validation. Unknown fields are refused: a typo in
//! a rules file must not be silently ignored.

use serde::Deserialize;

/// The whole file.
#[derive(Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct RawRules {
    pub(super) operation: String,
    pub(super) title: String,
    pub(super) time_zone: String,
    pub(super) participation: RawParticipation,
    pub(super) periods: Vec<RawPeriod>,
    pub(super) daily_cap: u64,
    pub(super) online_channels: Vec<String>,
    pub(super) exclusion_reasons: Vec<String>,
    pub(super) reserves: RawReserves,
    pub(super) draw_grace_days: u64,
    #[allow(dead_code)]
    pub(super) clauses: Option<Vec<String>>,
}

/// `participation`: local civil times in the operation's time zone (D-5).
#[derive(Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct RawParticipation {
    pub(super) start: String,
    pub(super) end: String,
    #[allow(dead_code)]
    pub(super) note: Option<String>,
}

/// One entry of `periods` (D-2, D-3, D-8, D-10).
#[derive(Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct RawPeriod {
    pub(super) id: String,
    pub(super) first_day: String,
    pub(super) last_day: String,
    pub(super) tranche_cents: u64,
    pub(super) prize_cents: u64,
    pub(super) draw_date: String,
}

/// `reserves`.
#[derive(Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct RawReserves {
    pub(super) per_day: i64,
    #[allow(dead_code)]
    pub(super) note: Option<String>,
}
