//! Loading an operation rules file: [`DrawRules::from_json`], one named step per clause checked,
//! in the order the checks have always run (the first refusal is the one reported).

use chrono::NaiveDate;
use chrono_tz::Tz;

use super::error::{RulesError, invalid};
use super::operation::{DrawRules, Period};
use super::schema::{RawParticipation, RawPeriod, RawRules};
use super::time::{day_start, local_instant, parse_day};
use super::vocabulary::{Channel, ExclusionReason};

/// The rules file shipped with the appliance for the 2018 operation.
pub const CHANCEUX_NOEL_2018: &[u8] =
    include_bytes!("../../../../../rules/chanceux-noel-2018.json");

impl DrawRules {
    /// The rules shipped with the appliance for "Chanceux Noël" 2018.
    ///
    /// # Panics
    /// Never in a tested build: the shipped file is compiled in, and the unit test
    /// `shipped_rules_file_loads` loads it.
    pub fn chanceux_noel_2018() -> DrawRules {
        // Invariant: the shipped file is validated by the unit test `shipped_rules_file_loads`.
        DrawRules::from_json(CHANCEUX_NOEL_2018).expect("the shipped rules file is valid")
    }

    /// Parses and validates an operation rules file.
    pub fn from_json(bytes: &[u8]) -> Result<DrawRules, RulesError> {
        let raw: RawRules =
            serde_json::from_slice(bytes).map_err(|e| RulesError::Json(e.to_string()))?;
        check_operation_id(&raw.operation)?;
        let tz = parse_time_zone(&raw.time_zone)?;
        let periods = parse_periods(&raw.periods)?;
        let daily_cap = check_daily_cap(raw.daily_cap)?;
        let (participation_start, participation_end) =
            parse_participation(tz, &raw.participation, &periods)?;
        let online = parse_online_channels(&raw.online_channels)?;
        let exclusion_reasons = parse_exclusion_reasons(&raw.exclusion_reasons)?;
        let reserves_per_day = check_reserves_per_day(raw.reserves.per_day)?;
        let draw_grace_days = check_draw_grace_days(raw.draw_grace_days)?;
        Ok(DrawRules {
            operation: raw.operation,
            title: raw.title,
            tz,
            participation_start,
            participation_end,
            periods,
            daily_cap,
            online,
            exclusion_reasons,
            reserves_per_day,
            draw_grace_days,
            sha256: crate::crypto::sha256(bytes).0,
        })
    }
}

/// The operation id: non-empty, lowercase letters, digits and `-`.
fn check_operation_id(operation: &str) -> Result<(), RulesError> {
    if operation.is_empty()
        || !operation
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return Err(invalid(
            "operation",
            "must be non-empty, lowercase letters, digits and '-'",
        ));
    }
    Ok(())
}

/// D-1: the operation's time zone, from the IANA database compiled into chrono-tz.
fn parse_time_zone(name: &str) -> Result<Tz, RulesError> {
    name.parse().map_err(|_| {
        invalid(
            "time_zone",
            format!("{name:?} is not an IANA time zone name"),
        )
    })
}

/// D-2, D-3, D-8, D-10: the periods, at least one, sorted, contiguous and not overlapping.
fn parse_periods(raw: &[RawPeriod]) -> Result<Vec<Period>, RulesError> {
    if raw.is_empty() {
        return Err(invalid("periods", "at least one period is needed"));
    }
    let mut periods: Vec<Period> = Vec::with_capacity(raw.len());
    for (i, p) in raw.iter().enumerate() {
        let period = parse_period(i, p, &periods)?;
        periods.push(period);
    }
    Ok(periods)
}

/// Period `i`, checked on its own (D-2 days in order, D-8 draw date after them, D-3 tranche and
/// D-10 prize positive) and against the periods before it (`earlier`).
fn parse_period(i: usize, p: &RawPeriod, earlier: &[Period]) -> Result<Period, RulesError> {
    let f = |name: &str| format!("periods[{i}].{name}");
    if p.id.is_empty() || earlier.iter().any(|q| q.id == p.id) {
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
    if let Some(prev) = earlier.last() {
        check_follows(&f("first_day"), first_day, prev)?;
    }
    Ok(Period {
        id: p.id.clone(),
        first_day,
        last_day,
        tranche_cents: p.tranche_cents,
        prize_cents: p.prize_cents,
        draw_date,
    })
}

/// D-2: a period starts the day after the previous one ends (sorted, no overlap, no gap).
fn check_follows(field: &str, first_day: NaiveDate, prev: &Period) -> Result<(), RulesError> {
    if first_day <= prev.last_day {
        return Err(invalid(
            field,
            format!(
                "{first_day} overlaps or precedes period {} (periods must be sorted and not overlap)",
                prev.id
            ),
        ));
    }
    if prev.last_day.succ_opt() != Some(first_day) {
        return Err(invalid(
            field,
            format!(
                "{first_day} leaves a gap after period {} ending {} (periods must be contiguous)",
                prev.id, prev.last_day
            ),
        ));
    }
    Ok(())
}

/// D-4: the daily cap of entries per account.
fn check_daily_cap(daily_cap: u64) -> Result<u8, RulesError> {
    match u8::try_from(daily_cap) {
        Ok(cap) if cap > 0 => Ok(cap),
        _ => Err(invalid("daily_cap", "must be between 1 and 255 (D-4)")),
    }
}

/// D-5: the participation period `[start, end)` in Unix seconds; it must cover every day of
/// every period.
fn parse_participation(
    tz: Tz,
    raw: &RawParticipation,
    periods: &[Period],
) -> Result<(i64, i64), RulesError> {
    let start = local_instant(tz, "participation.start", &raw.start)?;
    let end = local_instant(tz, "participation.end", &raw.end)?;
    if end <= start {
        return Err(invalid(
            "participation.end",
            "must be after participation.start",
        ));
    }
    let first = day_start(tz, periods[0].first_day)
        .ok_or_else(|| invalid("periods[0].first_day", "midnight does not exist"))?;
    let last = periods[periods.len() - 1].last_day;
    let after_last = last
        .succ_opt()
        .and_then(|d| day_start(tz, d))
        .ok_or_else(|| invalid("periods", "the last day has no following midnight"))?;
    if start > first || end < after_last {
        return Err(invalid(
            "participation",
            "must cover every day of every period (D-5)",
        ));
    }
    Ok((start, end))
}

/// D-3: the online channels, at least one, none repeated. Retail never counts.
fn parse_online_channels(names: &[String]) -> Result<Vec<Channel>, RulesError> {
    let mut online = Vec::new();
    for name in names {
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
    Ok(online)
}

/// D-6, D-13: the exclusion reasons an export may give, none repeated.
fn parse_exclusion_reasons(names: &[String]) -> Result<Vec<ExclusionReason>, RulesError> {
    let mut reasons = Vec::new();
    for name in names {
        let r = ExclusionReason::parse(name).ok_or_else(|| {
            invalid(
                "exclusion_reasons",
                format!("{name:?} is not a reason of the export format"),
            )
        })?;
        if reasons.contains(&r) {
            return Err(invalid(
                "exclusion_reasons",
                format!("{name:?} is repeated"),
            ));
        }
        reasons.push(r);
    }
    Ok(reasons)
}

/// Reserves drawn after each day's winner: 0 to 1000.
fn check_reserves_per_day(per_day: i64) -> Result<u32, RulesError> {
    u32::try_from(per_day)
        .ok()
        .filter(|&n| n <= 1000)
        .ok_or_else(|| invalid("reserves.per_day", "must be between 0 and 1000"))
}

/// D-8 ("within 30 days"): the days a postponed draw may wait, at most 366.
fn check_draw_grace_days(days: u64) -> Result<u32, RulesError> {
    u32::try_from(days)
        .ok()
        .filter(|&n| n <= 366)
        .ok_or_else(|| invalid("draw_grace_days", "must be between 0 and 366 (D-8)"))
}
