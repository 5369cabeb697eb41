//! Tests of the operation rules loader: the shipped file, and each kind of broken file refused.

use chrono::NaiveDate;

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
        .map(|p| {
            p.prize_cents * (u64::try_from((p.last_day - p.first_day).num_days()).unwrap() + 1)
        })
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
