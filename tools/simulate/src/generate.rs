//! The day's records, drawn from the seed: plays (with this tool's own reading of which count,
//! D-3, D-5), then exclusions (D-6, D-13), then shuffled. The generator is consumed in a fixed
//! order, so the same arguments always give the same records.

use crate::operation::{GAMES, PERIOD_END, PERIOD_START, REASONS, STAKES};
use crate::progress::Progress;
use crate::record::{Play, Record, account_hex};
use crate::rng::Rng;
use crate::stamp::Stamp;

/// What was generated, and what the oracle needs to know of it.
pub(crate) struct Generated {
    /// Account ids of the players, by index.
    pub(crate) accounts: Vec<[u8; 64]>,
    /// Account ids of excluded accounts that did not play that day.
    pub(crate) strangers: Vec<[u8; 64]>,
    /// Every record, in file order (shuffled).
    pub(crate) records: Vec<Record>,
    /// Counting stakes in cents per account (D-3, D-5).
    pub(crate) totals: Vec<u64>,
    /// Plays that count.
    pub(crate) n_counting: u64,
    /// Accounts with counting stakes, ascending.
    pub(crate) players: Vec<u32>,
    /// Players that are excluded, ascending.
    pub(crate) chosen: Vec<u32>,
    /// Per account: excluded (D-6, D-13).
    pub(crate) excluded: Vec<bool>,
    /// Exclusion records written.
    pub(crate) n_exclusion_records: usize,
    /// The first exclusion record generated (before the shuffle), if any.
    pub(crate) first_exclusion_record: Option<Record>,
}

/// Generates the day starting at `day_start` (Unix seconds).
#[expect(
    clippy::cast_possible_truncation,
    reason = "every count is at most 2,000,000,000 (checked by `run`), every reason drawn below the table's length"
)]
pub(crate) fn generate(
    seed: u64,
    plays: u64,
    n_accounts: u64,
    n_excl: u64,
    day_start: i64,
    progress: &Progress,
) -> Generated {
    let mut rng = Rng::new(seed);
    let accounts: Vec<[u8; 64]> = (0..n_accounts)
        .map(|i| account_hex("account", seed, i))
        .collect();

    // 2. Plays, and this tool's own reading of the rules (the oracle).
    let mut totals = vec![0u64; n_accounts as usize]; // counting cents per account (D-3)
    let mut n_counting = 0u64;
    let mut records: Vec<Record> = Vec::with_capacity((plays + n_excl + 16) as usize);
    for n in 0..plays {
        if progress.big() && n > 0 && n % 1_000_000 == 0 {
            progress.say(&format!("{n} plays generated"));
        }
        let play = next_play(&mut rng, n, n_accounts, day_start);
        // D-3 (online only), D-5 (subscription taken out inside the participation period).
        let counts = play.channel != 4
            && play
                .subscribed
                .is_none_or(|(t, _)| (PERIOD_START..PERIOD_END).contains(&t));
        if counts {
            totals[play.account as usize] += u64::from(play.stake);
            n_counting += 1;
        }
        records.push(Record::Play(play));
    }

    // 3. Exclusions (D-6, D-13): some accounts that played, and some that did not play that day.
    let players: Vec<u32> = (0..n_accounts as u32)
        .filter(|&i| totals[i as usize] > 0)
        .collect();
    let chosen = choose_excluded(&mut rng, &players, n_excl);
    let mut excluded = vec![false; n_accounts as usize];
    let n_strangers = if n_excl > 0 { (n_excl / 10).max(1) } else { 0 };
    let strangers: Vec<[u8; 64]> = (0..n_strangers)
        .map(|i| account_hex("stranger", seed, i))
        .collect();
    let first_exclusion = records.len();
    for &acct in &chosen {
        excluded[acct as usize] = true;
        records.push(Record::Exclusion {
            account: acct,
            stranger: false,
            reason: rng.below(REASONS.len() as u64) as u8,
        });
    }
    for i in 0..n_strangers {
        records.push(Record::Exclusion {
            account: i as u32,
            stranger: true,
            reason: rng.below(REASONS.len() as u64) as u8,
        });
    }
    let n_exclusion_records = records.len() - first_exclusion;
    let first_exclusion_record = records.get(first_exclusion).copied();

    shuffle(&mut rng, &mut records);
    progress.say("records shuffled");
    Generated {
        accounts,
        strangers,
        records,
        totals,
        n_counting,
        players,
        chosen,
        excluded,
        n_exclusion_records,
        first_exclusion_record,
    }
}

/// Play number `n` of the day starting at `day_start`.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    reason = "the Pareto draw is floored on purpose; every other value is drawn below a bound that fits (a table's length, the day's seconds, the checked counts)"
)]
fn next_play(rng: &mut Rng, n: u64, n_accounts: u64, day_start: i64) -> Play {
    // A few heavy players, many light ones.
    let account = if rng.f64() < 0.3 {
        let u = 1.0 - rng.f64(); // (0, 1]
        let x = u.powf(-1.0 / 1.2) as u64; // Pareto(1.2), >= 1
        (x - 1).min(n_accounts - 1)
    } else {
        rng.below(n_accounts)
    } as u32;
    let r = rng.f64();
    let seconds = if r < 0.002 {
        0 // first second of the day
    } else if r < 0.004 {
        86_399 // last second of the day
    } else {
        rng.below(86_400) as i64
    };
    let at = day_start + seconds;
    let stake = STAKES[rng.below(STAKES.len() as u64) as usize];
    let channel = if rng.f64() < 0.03 {
        4
    } else {
        rng.below(4) as u8
    };
    let mut subscribed = None;
    if channel != 4 && rng.f64() < 0.05 {
        subscribed = Some(subscription(rng, at));
    }
    Play {
        n: n as u32,
        account,
        at,
        at_style: Stamp::pick(rng),
        stake,
        channel,
        game: rng.below(GAMES.len() as u64) as u8,
        subscribed,
    }
}

/// When the subscription behind a play made at `at` was taken out, and how it is written.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_precision_loss,
    reason = "seconds within the operation, far inside f64's exact integers; the product is floored on purpose"
)]
fn subscription(rng: &mut Rng, at: i64) -> (i64, Stamp) {
    let x = rng.f64();
    let taken = if x < 0.25 {
        // Taken out before the operation: never counts (D-5).
        PERIOD_START - 86_400 * (1 + rng.below(59) as i64) - rng.below(86_400) as i64
    } else if x < 0.30 {
        // The edges of the participation period, start inclusive, end exclusive.
        [PERIOD_START, PERIOD_START - 1, PERIOD_END - 1, PERIOD_END][rng.below(4) as usize]
    } else {
        PERIOD_START + ((at - PERIOD_START) as f64 * rng.f64()) as i64
    };
    (taken, Stamp::pick(rng))
}

/// Up to `n_excl` of the players, drawn without replacement, ascending.
#[expect(
    clippy::cast_possible_truncation,
    reason = "indices into the players held in memory"
)]
fn choose_excluded(rng: &mut Rng, players: &[u32], n_excl: u64) -> Vec<u32> {
    let mut pool = players.to_vec();
    let k = (n_excl as usize).min(pool.len());
    for i in 0..k {
        let j = i + rng.below((pool.len() - i) as u64) as usize;
        pool.swap(i, j);
    }
    let mut chosen: Vec<u32> = pool[..k].to_vec();
    chosen.sort_unstable();
    chosen
}

/// Record order carries no meaning: shuffle (Fisher-Yates).
#[expect(
    clippy::cast_possible_truncation,
    reason = "indices into the records held in memory"
)]
fn shuffle(rng: &mut Rng, records: &mut [Record]) {
    for i in (1..records.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        records.swap(i, j);
    }
}
