//! This tool's own statement of the operation's rules (D-1 … D-5) and of the vocabulary of the
//! plays it writes. It does not read `urne_verify::rules`: the oracle is an independent reading.

/// The operation id the export header names.
pub(crate) const OPERATION: &str = "chanceux-noel-2018";
/// (first day, last day, tranche in cents) per period, as (month-day of December 2018): D-2, D-3.
pub(crate) const PERIODS: [(u32, u32, u64); 4] =
    [(1, 7, 1000), (8, 14, 1000), (15, 21, 1000), (22, 24, 1500)];
/// D-4.
pub(crate) const DAILY_CAP: u64 = 3;
/// Europe/Paris is UTC+1 for all of December 2018 (no change of offset in the operation), D-1.
pub(crate) const PARIS_OFFSET: i64 = 3600;
/// 2018-12-01 00:00 Paris, as Unix seconds: start of the participation period (D-5).
pub(crate) const PERIOD_START: i64 = 1_543_618_800;
/// 2018-12-25 00:00 Paris: end of the participation period, exclusive (D-5).
pub(crate) const PERIOD_END: i64 = PERIOD_START + 24 * 86_400;
/// The online channels (D-3); a play's channel index 4 is retail.
pub(crate) const ONLINE: [&str; 4] = ["web", "mobile", "tablet", "app"];
/// Stakes in cents a play is drawn from (repeats make a value likelier).
pub(crate) const STAKES: [u32; 15] = [
    50, 100, 150, 200, 250, 300, 500, 500, 1000, 1000, 1500, 2000, 2500, 3000, 5000,
];
/// Games a play is drawn from (the game never matters to the rules).
pub(crate) const GAMES: [&str; 7] = [
    "loto",
    "euromillions",
    "keno",
    "joker-plus",
    "illiko-cash",
    "bingo-live",
    "super-jackpot",
];
/// Exclusion reasons an exclusion is drawn from (D-6, D-13; `closed` three times likelier).
pub(crate) const REASONS: [&str; 5] = ["closed", "closed", "closed", "minor", "fraud"];
