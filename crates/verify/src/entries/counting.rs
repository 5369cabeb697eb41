//! The rules that turn plays into entries (spec/formats.md §4.1): for each play, D-1 (its day), then its
//! class (spec/appliance.md §4.1.1: retail, a channel not among the rules' `online_channels`, D-3; subscription
//! refused, D-5; else counting), added to a worker's [`Partial`]; for each account, D-3 (one entry
//! per complete tranche), D-4 (the daily cap), D-6 and D-13 (an excluded account gets no entry);
//! and the excluded accounts with a play of any class (spec/formats.md §4.7).

use chrono::NaiveDate;

use super::accounts::{AccountSet, AccountSums, account_of, words};
use super::error::{ExportErrorKind, LineErr};
use super::fast::FastPlay;
use super::play_ids::{PlayIds, Suspects};
use super::results::AccountEntries;
use crate::rules::draw::{DrawRules, ExclusionReason};

/// What every worker needs to judge a record.
pub(super) struct Ctx<'r> {
    /// The operation's rules.
    pub(super) rules: &'r DrawRules,
    /// The header's day.
    pub(super) day: NaiveDate,
    /// The day's bounds in Unix seconds, `[day_start, day_end)` (D-1).
    pub(super) day_start: i64,
    /// The first second after the day (see `day_start`).
    pub(super) day_end: i64,
    /// On a confirming pass, the fingerprints whose ids are kept in full.
    pub(super) suspects: Option<&'r Suspects>,
}

/// An exclusion record: (account, reason, line).
pub(super) type Exclusion = ([u8; 32], ExclusionReason, u64);

/// Per-account counting cents: (account as big-endian words, cents), sorted by account.
pub(super) type Sums = Vec<([u64; 4], u64)>;

/// What one worker found in the chunks it parsed.
#[derive(Default)]
pub(super) struct Partial {
    /// Play records.
    pub(super) plays: u64,
    /// Counting plays.
    pub(super) counting: u64,
    /// Retail plays: on a channel that is not one of the rules' online channels (D-3).
    pub(super) retail: u64,
    /// Online plays refused for their subscription (D-5).
    pub(super) subs_refused: u64,
    /// Exclusion records, by `ExclusionReason::index`.
    pub(super) exclusions_by_reason: [u64; 3],
    /// Counting cents per account.
    pub(super) accounts: AccountSums,
    /// The same once the worker is done, sorted.
    pub(super) sums: Sums,
    /// The accounts of the plays that do not count (retail, subscription refused).
    pub(super) uncounted: AccountSet,
    /// The same once the worker is done: sorted, each account once.
    pub(super) uncounted_list: Vec<[u64; 4]>,
    /// The play ids seen, for duplicate detection.
    pub(super) ids: PlayIds,
    /// One per exclusion record.
    pub(super) exclusions: Vec<Exclusion>,
    /// The error on the smallest line this worker saw.
    pub(super) err: Option<LineErr>,
}

impl Partial {
    /// Keeps `e` if it is on an earlier line than the error kept so far.
    pub(super) fn keep_error(&mut self, e: LineErr) {
        if self.err.as_ref().is_none_or(|(l, _)| e.0 < *l) {
            self.err = Some(e);
        }
    }

    /// Once the worker is done: its lists sorted, so that the finish only merges them (the
    /// sorting is spread out over the workers).
    pub(super) fn sort(&mut self) {
        self.ids.sort();
        self.sums = std::mem::take(&mut self.accounts).into_sorted();
        self.uncounted_list = std::mem::take(&mut self.uncounted).into_sorted();
    }
}

/// D-1, then the play's class and its share of the tally (D-3, D-5); shared by both readers.
#[inline]
pub(super) fn add_play(
    play: &FastPlay<'_>,
    line: u64,
    ctx: &Ctx<'_>,
    p: &mut Partial,
) -> Result<(), ExportErrorKind> {
    // D-1: the play must fall on the file's day, midnight to midnight in Europe/Paris.
    if play.at < ctx.day_start || play.at >= ctx.day_end {
        return Err(ExportErrorKind::PlayNotOnDay {
            // Lossless: `at_s` is always valid UTF-8 (ASCII on the fast path).
            at: String::from_utf8_lossy(play.at_s).into_owned(),
            day: ctx.day,
            tz: ctx.rules.time_zone().name(),
        });
    }
    let line32 = u32::try_from(line).map_err(|_| ExportErrorKind::TooManyLines)?;
    p.ids.add(play.id, line32, ctx.suspects);

    p.plays += 1;
    // spec/appliance.md §4.1.1: one class per play, tested in this order. Retail: a channel that is not one
    // of the rules' online channels, whatever its name (D-3). Subscription refused: taken out
    // outside the participation period (D-5). Else counting.
    if !ctx.rules.counts_channel(play.channel) {
        p.retail += 1;
        p.uncounted.add(&play.account);
    } else if play
        .subscribed_at
        .is_some_and(|t| !ctx.rules.in_participation(t))
    {
        p.subs_refused += 1;
        p.uncounted.add(&play.account);
    } else {
        p.counting += 1;
        p.accounts.add(&play.account, play.stake);
    }
    Ok(())
}

/// An exclusion record's share of the tally (its reason already checked against the rules).
pub(super) fn add_exclusion(
    p: &mut Partial,
    account: [u8; 32],
    reason: ExclusionReason,
    line: u64,
) {
    p.exclusions_by_reason[reason.index()] += 1;
    p.exclusions.push((account, reason, line));
}

/// The day's entries, and the excluded accounts that played.
pub(super) struct DayEntries {
    /// Accounts with at least one entry, in account order.
    pub(super) entries: Vec<AccountEntries>,
    /// The sum of their entries.
    pub(super) total: u64,
    /// Excluded accounts with at least one play record of any class, by reason (spec/formats.md §4.7,
    /// `figures.excluded_accounts_with_plays`).
    pub(super) excluded_accounts_with_plays: [u64; 3],
}

/// D-3, D-4, D-6, D-13 over the per-account sums and the exclusions, both sorted by account
/// (so the two lists are walked together); `uncounted` are the workers' sorted lists of the
/// accounts whose plays do not count. The exclusions name each account once.
pub(super) fn entries(
    sums: &Sums,
    uncounted: &[Vec<[u64; 4]>],
    excl: &[Exclusion],
    cap: u8,
    tranche: u64,
) -> DayEntries {
    let mut entries = Vec::new();
    let mut total_entries = 0u64;
    let mut j = 0;
    for (key, cents) in sums {
        let acct = account_of(key);
        while j < excl.len() && excl[j].0 < acct {
            j += 1;
        }
        if j < excl.len() && excl[j].0 == acct {
            // D-6, D-13: an excluded account gets no entry.
            continue;
        }
        // D-3: one entry per complete tranche; D-4: at most `cap` per day. The cast is exact:
        // the value is at most `cap`, a u8.
        #[allow(clippy::cast_possible_truncation)]
        let n = (cents / tranche).min(u64::from(cap)) as u8;
        if n > 0 {
            total_entries += u64::from(n);
            entries.push(AccountEntries {
                account: acct,
                entries: n,
            });
        }
    }
    DayEntries {
        entries,
        total: total_entries,
        excluded_accounts_with_plays: excluded_with_plays(sums, uncounted, excl),
    }
}

/// spec/appliance.md §4.7: the excluded accounts with at least one play record of any class (counting,
/// retail, subscription refused), by reason. Exclusions are few: each is looked up (binary
/// search) in the counting sums and in each worker's list of accounts with uncounted plays.
fn excluded_with_plays(sums: &Sums, uncounted: &[Vec<[u64; 4]>], excl: &[Exclusion]) -> [u64; 3] {
    let mut by_reason = [0u64; 3];
    for (account, reason, _) in excl {
        let key = words(account);
        let played = sums.binary_search_by(|s| s.0.cmp(&key)).is_ok()
            || uncounted.iter().any(|l| l.binary_search(&key).is_ok());
        if played {
            by_reason[reason.index()] += 1;
        }
    }
    by_reason
}
