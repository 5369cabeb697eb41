//! A validated operation: [`DrawRules`] and its [`Period`]s, and what the rest of the appliance
//! asks of them (which period a day is in, the day's bounds, which plays can count).

use chrono::NaiveDate;
use chrono_tz::Tz;

use super::time::day_start;
use super::vocabulary::{Channel, ExclusionReason};

/// One period of the operation (D-2), with its tranche (D-3), prize (D-10) and draw date (D-8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Period {
    /// The period's id in the rules file (`P1` …).
    pub id: String,
    /// Its first day (D-2).
    pub first_day: NaiveDate,
    /// Its last day, included (D-2).
    pub last_day: NaiveDate,
    /// The counting stakes in cents that make one entry (D-3).
    pub tranche_cents: u64,
    /// The prize of each of its days' draws, in cents (D-10).
    pub prize_cents: u64,
    /// The planned date of its days' draws (D-8).
    pub draw_date: NaiveDate,
}

impl Period {
    /// True if `day` is one of the period's days (both ends included, D-2).
    pub fn contains(&self, day: NaiveDate) -> bool {
        self.first_day <= day && day <= self.last_day
    }
}

/// A validated operation rules file (a value exists only if it passed
/// [`DrawRules::from_json`]).
#[derive(Clone, Debug)]
pub struct DrawRules {
    pub(super) operation: String,
    pub(super) title: String,
    pub(super) tz: Tz,
    pub(super) participation_start: i64,
    pub(super) participation_end: i64,
    pub(super) periods: Vec<Period>,
    pub(super) daily_cap: u8,
    pub(super) online: Vec<Channel>,
    pub(super) exclusion_reasons: Vec<ExclusionReason>,
    pub(super) reserves_per_day: u32,
    pub(super) draw_grace_days: u32,
    pub(super) sha256: [u8; 32],
}

impl DrawRules {
    /// The operation id (`chanceux-noel-2018`), as the export header must name it.
    pub fn operation(&self) -> &str {
        &self.operation
    }

    /// A human title, for screens and minutes.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The operation's time zone (D-1).
    pub fn time_zone(&self) -> Tz {
        self.tz
    }

    /// All periods, sorted and contiguous (D-2).
    pub fn periods(&self) -> &[Period] {
        &self.periods
    }

    /// The period holding `day`, if `day` is a day of the operation.
    pub fn period_for(&self, day: NaiveDate) -> Option<&Period> {
        self.periods.iter().find(|p| p.contains(day))
    }

    /// Entries per account per day at most (D-4).
    pub fn daily_cap(&self) -> u8 {
        self.daily_cap
    }

    /// Start of the participation period (D-5), Unix seconds, inclusive.
    pub fn participation_start(&self) -> i64 {
        self.participation_start
    }

    /// End of the participation period (D-5), Unix seconds, exclusive.
    pub fn participation_end(&self) -> i64 {
        self.participation_end
    }

    /// True if the instant (Unix seconds) is in the participation period (D-5).
    pub fn in_participation(&self, unix_seconds: i64) -> bool {
        self.participation_start <= unix_seconds && unix_seconds < self.participation_end
    }

    /// True if plays on `channel` can count (D-3: online only).
    pub fn counts_channel(&self, channel: Channel) -> bool {
        self.online.contains(&channel)
    }

    /// The online channels (D-3).
    pub fn online_channels(&self) -> &[Channel] {
        &self.online
    }

    /// The exclusion reasons an export may give (D-6, D-13).
    pub fn exclusion_reasons(&self) -> &[ExclusionReason] {
        &self.exclusion_reasons
    }

    /// Ordered reserves drawn after each day's winner (operator's choice: the regulation is silent).
    pub fn reserves_per_day(&self) -> u32 {
        self.reserves_per_day
    }

    /// Days after the planned draw date within which a postponed draw must happen (D-8).
    pub fn draw_grace_days(&self) -> u32 {
        self.draw_grace_days
    }

    /// SHA-256 of the rules file's exact bytes (bound into every result).
    pub fn sha256(&self) -> [u8; 32] {
        self.sha256
    }

    /// The day's bounds `[start, end)` in Unix seconds: local midnight to the next local midnight
    /// in the operation's time zone (D-1). None if a midnight does not exist there.
    pub fn day_bounds(&self, day: NaiveDate) -> Option<(i64, i64)> {
        Some((
            day_start(self.tz, day)?,
            day_start(self.tz, day.succ_opt()?)?,
        ))
    }
}
