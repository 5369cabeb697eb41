//! Rules of a promotional draw operation ("Chanceux Noël", D-1 … D-15), as data (design
//! principle 8). The operation's rules file (`rules/chanceux-noel-2018.json`) is parsed and
//! validated here; a file that is inconsistent (periods that overlap, a draw date before the end
//! of its period, a zero tranche, an unknown time zone, …) is refused at load with a message that
//! names the field.
//!
//! Instants are handled as Unix seconds (UTC), days as `NaiveDate` in the operation's time zone
//! (D-1): the conversion between the two goes through chrono-tz, never through a fixed offset.

use chrono::{NaiveDate, NaiveDateTime, NaiveTime, TimeZone};
use chrono_tz::Tz;
use serde::Deserialize;

/// The rules file shipped with the appliance for the 2018 operation.
pub const CHANCEUX_NOEL_2018: &[u8] = include_bytes!("../../../rules/chanceux-noel-2018.json");

/// Where a play was made (entry-export-v1 `channel`). Only online channels can count (D-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Channel {
    Web,
    Mobile,
    Tablet,
    App,
    Retail,
}

impl Channel {
    /// Every channel the export format knows, in a fixed order.
    pub const ALL: [Channel; 5] = [
        Channel::Web,
        Channel::Mobile,
        Channel::Tablet,
        Channel::App,
        Channel::Retail,
    ];

    /// The channel's name as the export format spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Web => "web",
            Channel::Mobile => "mobile",
            Channel::Tablet => "tablet",
            Channel::App => "app",
            Channel::Retail => "retail",
        }
    }

    /// Parses a channel name exactly as the export format spells it.
    pub fn parse(s: &str) -> Option<Channel> {
        Channel::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

/// Why an account gets no entry (entry-export-v1 `reason`; D-6 closed account, D-13 minor or fraud).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ExclusionReason {
    Closed,
    Minor,
    Fraud,
}

impl ExclusionReason {
    /// Every reason the export format knows, in a fixed order (the order of `DayTally` figures).
    pub const ALL: [ExclusionReason; 3] = [
        ExclusionReason::Closed,
        ExclusionReason::Minor,
        ExclusionReason::Fraud,
    ];

    /// The reason's name as the export format spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            ExclusionReason::Closed => "closed",
            ExclusionReason::Minor => "minor",
            ExclusionReason::Fraud => "fraud",
        }
    }

    /// Parses a reason exactly as the export format spells it.
    pub fn parse(s: &str) -> Option<ExclusionReason> {
        ExclusionReason::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// Index in `ALL` (for per-reason counters).
    pub fn index(self) -> usize {
        self as usize
    }
}

/// One period of the operation (D-2), with its tranche (D-3), prize (D-10) and draw date (D-8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Period {
    pub id: String,
    pub first_day: NaiveDate,
    pub last_day: NaiveDate,
    pub tranche_cents: u64,
    pub prize_cents: u64,
    pub draw_date: NaiveDate,
}

impl Period {
    /// True if `day` is one of the period's days (both ends included, D-2).
    pub fn contains(&self, day: NaiveDate) -> bool {
        self.first_day <= day && day <= self.last_day
    }
}

/// A validated operation rules file.
#[derive(Clone, Debug)]
pub struct DrawRules {
    operation: String,
    title: String,
    tz: Tz,
    participation_start: i64,
    participation_end: i64,
    periods: Vec<Period>,
    daily_cap: u8,
    online: Vec<Channel>,
    exclusion_reasons: Vec<ExclusionReason>,
    reserves_per_day: u32,
    draw_grace_days: u32,
    sha256: [u8; 32],
}

/// Why a rules file was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RulesError {
    #[error("the rules file is not valid JSON for an operation: {0}")]
    Json(String),
    #[error("field `{field}`: {reason}")]
    Invalid { field: String, reason: String },
}

fn invalid(field: impl Into<String>, reason: impl Into<String>) -> RulesError {
    RulesError::Invalid {
        field: field.into(),
        reason: reason.into(),
    }
}

// The file as written. Unknown fields are refused: a typo in a rules file must not be silently
// ignored.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRules {
    operation: String,
    title: String,
    time_zone: String,
    participation: RawParticipation,
    periods: Vec<RawPeriod>,
    daily_cap: u64,
    online_channels: Vec<String>,
    exclusion_reasons: Vec<String>,
    reserves: RawReserves,
    draw_grace_days: u64,
    #[allow(dead_code)]
    clauses: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParticipation {
    start: String,
    end: String,
    #[allow(dead_code)]
    note: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPeriod {
    id: String,
    first_day: String,
    last_day: String,
    tranche_cents: u64,
    prize_cents: u64,
    draw_date: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReserves {
    per_day: i64,
    #[allow(dead_code)]
    note: Option<String>,
}

fn parse_day(field: &str, s: &str) -> Result<NaiveDate, RulesError> {
    // Exactly YYYY-MM-DD: chrono alone would also accept e.g. "2018-12-1".
    let ok_shape = s.len() == 10
        && s.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    if !ok_shape {
        return Err(invalid(field, format!("{s:?} is not a date YYYY-MM-DD")));
    }
    NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .map_err(|_| invalid(field, format!("{s:?} is not a calendar date")))
}

/// A local civil time in `tz` as Unix seconds; refused if it does not exist or is ambiguous there.
fn local_instant(tz: Tz, field: &str, s: &str) -> Result<i64, RulesError> {
    let naive = NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S").map_err(|_| {
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

impl DrawRules {
    /// The rules shipped with the appliance for "Chanceux Noël" 2018.
    pub fn chanceux_noel_2018() -> DrawRules {
        // Invariant: the shipped file is validated by the unit test `shipped_rules_file_loads`.
        DrawRules::from_json(CHANCEUX_NOEL_2018).expect("the shipped rules file is valid")
    }

    /// Parses and validates an operation rules file.
    pub fn from_json(bytes: &[u8]) -> Result<DrawRules, RulesError> {
        let raw: RawRules =
            serde_json::from_slice(bytes).map_err(|e| RulesError::Json(e.to_string()))?;

        if raw.operation.is_empty()
            || !raw
                .operation
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        {
            return Err(invalid(
                "operation",
                "must be non-empty, lowercase letters, digits and '-'",
            ));
        }

        // D-1: the operation's time zone, from the IANA database compiled into chrono-tz.
        let tz: Tz = raw.time_zone.parse().map_err(|_| {
            invalid(
                "time_zone",
                format!("{:?} is not an IANA time zone name", raw.time_zone),
            )
        })?;

        // D-2, D-3, D-8, D-10: the periods.
        if raw.periods.is_empty() {
            return Err(invalid("periods", "at least one period is needed"));
        }
        let mut periods: Vec<Period> = Vec::with_capacity(raw.periods.len());
        for (i, p) in raw.periods.iter().enumerate() {
            let f = |name: &str| format!("periods[{i}].{name}");
            if p.id.is_empty() || periods.iter().any(|q| q.id == p.id) {
                return Err(invalid(f("id"), format!("{:?} is empty or repeated", p.id)));
            }
            let first_day = parse_day(&f("first_day"), &p.first_day)?;
            let last_day = parse_day(&f("last_day"), &p.last_day)?;
            let draw_date = parse_day(&f("draw_date"), &p.draw_date)?;
            if last_day < first_day {
                return Err(invalid(
                    f("last_day"),
                    format!("{last_day} is before first_day {first_day}"),
                ));
            }
            if draw_date <= last_day {
                return Err(invalid(
                    f("draw_date"),
                    format!("{draw_date} is not after the period's last day {last_day} (D-8)"),
                ));
            }
            if p.tranche_cents == 0 {
                return Err(invalid(f("tranche_cents"), "must be > 0 (D-3)"));
            }
            if p.prize_cents == 0 {
                return Err(invalid(f("prize_cents"), "must be > 0 (D-10)"));
            }
            if let Some(prev) = periods.last() {
                if first_day <= prev.last_day {
                    return Err(invalid(
                        f("first_day"),
                        format!(
                            "{first_day} overlaps or precedes period {} (periods must be sorted and not overlap)",
                            prev.id
                        ),
                    ));
                }
                if prev.last_day.succ_opt() != Some(first_day) {
                    return Err(invalid(
                        f("first_day"),
                        format!(
                            "{first_day} leaves a gap after period {} ending {} (periods must be contiguous)",
                            prev.id, prev.last_day
                        ),
                    ));
                }
            }
            periods.push(Period {
                id: p.id.clone(),
                first_day,
                last_day,
                tranche_cents: p.tranche_cents,
                prize_cents: p.prize_cents,
                draw_date,
            });
        }

        // D-4.
        if raw.daily_cap == 0 || raw.daily_cap > u64::from(u8::MAX) {
            return Err(invalid("daily_cap", "must be between 1 and 255 (D-4)"));
        }

        // D-5: the participation period, end exclusive, must cover every day of every period.
        let participation_start =
            local_instant(tz, "participation.start", &raw.participation.start)?;
        let participation_end = local_instant(tz, "participation.end", &raw.participation.end)?;
        if participation_end <= participation_start {
            return Err(invalid(
                "participation.end",
                "must be after participation.start",
            ));
        }
        let first = day_start(tz, periods[0].first_day)
            .ok_or_else(|| invalid("periods[0].first_day", "midnight does not exist"))?;
        let last = periods[periods.len() - 1].last_day;
        let end = last
            .succ_opt()
            .and_then(|d| day_start(tz, d))
            .ok_or_else(|| invalid("periods", "the last day has no following midnight"))?;
        if participation_start > first || participation_end < end {
            return Err(invalid(
                "participation",
                "must cover every day of every period (D-5)",
            ));
        }

        // D-3: online channels. Retail never counts.
        let mut online = Vec::new();
        for name in &raw.online_channels {
            let c = Channel::parse(name).ok_or_else(|| {
                invalid(
                    "online_channels",
                    format!("{name:?} is not a channel of the export format"),
                )
            })?;
            if c == Channel::Retail {
                return Err(invalid(
                    "online_channels",
                    "retail is never an online channel (D-3)",
                ));
            }
            if online.contains(&c) {
                return Err(invalid("online_channels", format!("{name:?} is repeated")));
            }
            online.push(c);
        }
        if online.is_empty() {
            return Err(invalid("online_channels", "at least one is needed (D-3)"));
        }

        // D-6, D-13.
        let mut exclusion_reasons = Vec::new();
        for name in &raw.exclusion_reasons {
            let r = ExclusionReason::parse(name).ok_or_else(|| {
                invalid(
                    "exclusion_reasons",
                    format!("{name:?} is not a reason of the export format"),
                )
            })?;
            if exclusion_reasons.contains(&r) {
                return Err(invalid(
                    "exclusion_reasons",
                    format!("{name:?} is repeated"),
                ));
            }
            exclusion_reasons.push(r);
        }

        if raw.reserves.per_day < 0 || raw.reserves.per_day > 1000 {
            return Err(invalid("reserves.per_day", "must be between 0 and 1000"));
        }
        // D-8: "within 30 days".
        if raw.draw_grace_days > 366 {
            return Err(invalid(
                "draw_grace_days",
                "must be between 0 and 366 (D-8)",
            ));
        }

        Ok(DrawRules {
            operation: raw.operation,
            title: raw.title,
            tz,
            participation_start,
            participation_end,
            periods,
            daily_cap: raw.daily_cap as u8,
            online,
            exclusion_reasons,
            reserves_per_day: raw.reserves.per_day as u32,
            draw_grace_days: raw.draw_grace_days as u32,
            sha256: crate::crypto::sha256(bytes),
        })
    }

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

/// Unix seconds of local midnight starting `day` in `tz` (None if that midnight is skipped or
/// ambiguous, which never happens in Europe/Paris, whose changes are at 02:00/03:00).
fn day_start(tz: Tz, day: NaiveDate) -> Option<i64> {
    match tz.from_local_datetime(&day.and_time(NaiveTime::MIN)) {
        chrono::LocalResult::Single(t) => Some(t.timestamp()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn shipped_value() -> serde_json::Value {
        serde_json::from_slice(CHANCEUX_NOEL_2018).unwrap()
    }

    fn load(v: &serde_json::Value) -> Result<DrawRules, RulesError> {
        DrawRules::from_json(serde_json::to_string(v).unwrap().as_bytes())
    }

    fn refused_field(v: &serde_json::Value) -> String {
        match load(v) {
            Err(RulesError::Invalid { field, .. }) => field,
            Err(e) => panic!("refused for another reason: {e}"),
            Ok(_) => panic!("a broken rules file was accepted"),
        }
    }

    #[test]
    fn shipped_rules_file_loads() {
        let r = DrawRules::chanceux_noel_2018();
        assert_eq!(r.operation(), "chanceux-noel-2018");
        assert_eq!(r.time_zone(), chrono_tz::Europe::Paris); // D-1
        assert_eq!(r.daily_cap(), 3); // D-4
        assert_eq!(r.reserves_per_day(), 5);
        assert_eq!(r.draw_grace_days(), 30); // D-8
        let ids: Vec<&str> = r.periods().iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["P1", "P2", "P3", "P4"]); // D-2
        // D-3 tranches, D-10 prizes (€270,000 in all over 24 days), D-8 draw dates.
        let total: u64 = r
            .periods()
            .iter()
            .map(|p| p.prize_cents * ((p.last_day - p.first_day).num_days() as u64 + 1))
            .sum();
        assert_eq!(total, 27_000_000);
        assert_eq!(
            r.period_for(day("2018-12-01")).unwrap().draw_date,
            day("2018-12-11")
        );
        assert_eq!(
            r.period_for(day("2018-12-14")).unwrap().draw_date,
            day("2018-12-18")
        );
        assert_eq!(
            r.period_for(day("2018-12-21")).unwrap().draw_date,
            day("2018-12-26")
        );
        assert_eq!(r.period_for(day("2018-12-22")).unwrap().tranche_cents, 1500);
        assert_eq!(r.period_for(day("2018-12-21")).unwrap().tranche_cents, 1000);
        assert!(r.period_for(day("2018-11-30")).is_none());
        assert!(r.period_for(day("2018-12-25")).is_none());
        assert!(r.counts_channel(Channel::App));
        assert!(!r.counts_channel(Channel::Retail)); // D-3
    }

    #[test]
    fn participation_period_is_paris_time_end_exclusive() {
        // D-1, D-5: 2018-12-01 00:00 Paris is 2018-11-30 23:00 UTC.
        let r = DrawRules::chanceux_noel_2018();
        assert_eq!(r.participation_start(), 1_543_618_800);
        assert_eq!(r.participation_end(), 1_543_618_800 + 24 * 86_400);
        assert!(r.in_participation(r.participation_start()));
        assert!(!r.in_participation(r.participation_start() - 1));
        assert!(!r.in_participation(r.participation_end()));
        assert!(r.in_participation(r.participation_end() - 1));
        assert_eq!(
            r.day_bounds(day("2018-12-01")),
            Some((1_543_618_800, 1_543_618_800 + 86_400))
        );
    }

    #[test]
    fn unknown_field_is_refused() {
        let mut v = shipped_value();
        v["daily_kap"] = 3.into();
        assert!(matches!(load(&v), Err(RulesError::Json(m)) if m.contains("daily_kap")));
    }

    #[test]
    fn overlapping_periods_are_refused() {
        let mut v = shipped_value();
        v["periods"][1]["first_day"] = "2018-12-07".into();
        assert_eq!(refused_field(&v), "periods[1].first_day");
    }

    #[test]
    fn a_gap_between_periods_is_refused() {
        let mut v = shipped_value();
        v["periods"][1]["first_day"] = "2018-12-09".into();
        assert_eq!(refused_field(&v), "periods[1].first_day");
    }

    #[test]
    fn unsorted_periods_are_refused() {
        let mut v = shipped_value();
        let p = v["periods"].as_array_mut().unwrap();
        p.swap(0, 1);
        assert_eq!(refused_field(&v), "periods[1].first_day");
    }

    #[test]
    fn draw_date_must_follow_the_period() {
        let mut v = shipped_value();
        v["periods"][0]["draw_date"] = "2018-12-07".into();
        let e = load(&v).unwrap_err();
        assert_eq!(refused_field(&v), "periods[0].draw_date");
        assert!(e.to_string().contains("D-8"), "{e}");
    }

    #[test]
    fn zero_tranche_is_refused() {
        let mut v = shipped_value();
        v["periods"][3]["tranche_cents"] = 0.into();
        assert_eq!(refused_field(&v), "periods[3].tranche_cents");
    }

    #[test]
    fn zero_cap_is_refused() {
        let mut v = shipped_value();
        v["daily_cap"] = 0.into();
        assert_eq!(refused_field(&v), "daily_cap");
    }

    #[test]
    fn unknown_time_zone_is_refused() {
        let mut v = shipped_value();
        v["time_zone"] = "Europe/Pariss".into();
        let e = load(&v).unwrap_err();
        assert_eq!(
            e.to_string(),
            "field `time_zone`: \"Europe/Pariss\" is not an IANA time zone name"
        );
    }

    #[test]
    fn participation_must_cover_the_periods() {
        let mut v = shipped_value();
        v["participation"]["end"] = "2018-12-24T00:00:00".into();
        assert_eq!(refused_field(&v), "participation");
    }

    #[test]
    fn negative_reserves_are_refused() {
        let mut v = shipped_value();
        v["reserves"]["per_day"] = (-1).into();
        assert_eq!(refused_field(&v), "reserves.per_day");
    }

    #[test]
    fn retail_cannot_be_online() {
        let mut v = shipped_value();
        v["online_channels"] = serde_json::json!(["web", "retail"]);
        assert_eq!(refused_field(&v), "online_channels");
    }

    #[test]
    fn malformed_dates_are_refused() {
        let mut v = shipped_value();
        v["periods"][0]["first_day"] = "2018-12-1".into();
        assert_eq!(refused_field(&v), "periods[0].first_day");
    }
}
