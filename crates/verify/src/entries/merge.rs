//! The end of one read of the file: the workers' findings merged (sums in account order,
//! independent of lines, chunks and threads), the checks that need the whole file (duplicate play
//! ids and exclusions, the header's counts), and the day's entries.

use super::counting::{Ctx, Exclusion, Partial, Sums, entries};
use super::error::{ExportError, ExportErrorKind, LineErr};
use super::header::Header;
use super::limits::MAX_ACCOUNTS_WITH_ENTRIES;
use super::play_ids::{IdLine, Suspects, first_duplicate_id, repeated_fingerprints};
use super::results::DayTally;
use super::sorted::merged;

/// What one read of the file ends with.
pub(super) enum Pass {
    /// The tally (its file hash and size are filled in once the whole file is checked).
    Done(Box<DayTally>),
    /// Fingerprints seen more than once: read again, comparing the ids behind them in full.
    Confirm(Suspects),
}

/// The error on the smallest line among those considered (on a tie, the first considered).
#[derive(Default)]
struct FirstError(Option<LineErr>);

impl FirstError {
    /// Keeps `e` if it is on an earlier line than the error kept so far.
    fn consider(&mut self, e: LineErr) {
        if self.0.as_ref().is_none_or(|(l, _)| e.0 < *l) {
            self.0 = Some(e);
        }
    }
}

/// The workers' findings put together, lists still one per worker.
#[derive(Default)]
struct Gathered {
    first: FirstError,
    plays: u64,
    counting: u64,
    retail: u64,
    subs_refused: u64,
    exclusions_by_reason: [u64; 3],
    id_lists: Vec<Vec<IdLine>>,
    fingerprint_lists: Vec<Vec<u64>>,
    sum_lists: Vec<Sums>,
    uncounted_lists: Vec<Vec<[u64; 4]>>,
    excl: Vec<Exclusion>,
}

/// Adds up the workers' counters and collects their lists (still one per worker).
fn gather(parts: Vec<Partial>) -> Gathered {
    let mut g = Gathered::default();
    for p in parts {
        if let Some(e) = p.err {
            g.first.consider(e);
        }
        g.plays += p.plays;
        g.counting += p.counting;
        g.retail += p.retail;
        g.subs_refused += p.subs_refused;
        for (t, x) in g
            .exclusions_by_reason
            .iter_mut()
            .zip(p.exclusions_by_reason)
        {
            *t += x;
        }
        g.id_lists.push(p.ids.ids);
        g.fingerprint_lists.push(p.ids.fingerprints);
        g.sum_lists.push(p.sums);
        g.uncounted_lists.push(p.uncounted_list);
        g.excl.extend(p.exclusions);
    }
    g
}

/// Merges the workers' findings and finishes the tally, or asks for a confirming pass.
pub(super) fn finish(
    header: Header<'_>,
    ctx: &Ctx<'_>,
    parts: Vec<Partial>,
    tail_err: Option<ExportError>,
) -> Result<Pass, ExportError> {
    let mut g = gather(parts);
    if let Some(e) = tail_err {
        match e.line {
            None => return Err(e),
            Some(l) => g.first.consider((l, e.kind)),
        }
    }
    let (repeated, sums) = merge_lists(g.fingerprint_lists, g.sum_lists, ctx.suspects.is_none());
    // Duplicate play ids: if two fingerprints are equal, read the file again; on that confirming
    // pass, compare the ids kept in full.
    if !repeated.is_empty() {
        return Ok(Pass::Confirm(repeated));
    }
    if let Some(e) = first_duplicate_id(&g.id_lists) {
        g.first.consider(e);
    }
    drop(g.id_lists);
    duplicate_exclusions(&mut g.excl, &mut g.first);
    if let Some((line, kind)) = g.first.0 {
        return Err(ExportError::at(line, kind));
    }
    check_counts(&header, g.plays, &g.exclusions_by_reason)?;

    let cap = ctx.rules.daily_cap();
    let tranche = header.period.tranche_cents;
    let e = entries(&sums, &g.uncounted_lists, &g.excl, cap, tranche);
    check_leaf_count(e.entries.len())?;
    Ok(Pass::Done(Box::new(DayTally {
        operation: header.operation,
        day: header.day,
        producer: header.producer,
        generated_at: header.generated_at,
        status_as_of: header.status_as_of,
        header_plays: header.plays,
        header_exclusions: header.exclusions,
        sha256: [0; 32],
        size: 0,
        period_id: header.period.id.clone(),
        tranche_cents: tranche,
        daily_cap: cap,
        plays: g.plays,
        counting_plays: g.counting,
        retail_plays: g.retail,
        subscription_plays_refused: g.subs_refused,
        accounts_with_counting_plays: sums.len() as u64,
        exclusions_by_reason: g.exclusions_by_reason,
        excluded_accounts_with_plays_by_reason: e.excluded_accounts_with_plays,
        accounts_with_entries: e.entries.len() as u64,
        total_entries: e.total,
        entries: e.entries,
    })))
}

/// Two independent pieces of work, on two threads: the fingerprints seen more than once (on a
/// first pass), and the per-account sums in account order (canonical; independent of lines,
/// chunks and threads): the merge of the workers' sorted lists, equal accounts added up.
fn merge_lists(
    fingerprint_lists: Vec<Vec<u64>>,
    sum_lists: Vec<Sums>,
    first_pass: bool,
) -> (Suspects, Sums) {
    std::thread::scope(|s| {
        let repeated = s.spawn(move || {
            if first_pass {
                repeated_fingerprints(&fingerprint_lists)
            } else {
                Suspects::new()
            }
        });
        let mut sums: Sums = Vec::with_capacity(sum_lists.iter().map(Vec::len).max().unwrap_or(0));
        for (key, cents) in merged(&sum_lists) {
            match sums.last_mut() {
                Some((k, c)) if *k == key => *c += cents,
                _ => sums.push((key, cents)),
            }
        }
        drop(sum_lists);
        // Invariant: the fingerprint merge is pure and does not panic.
        (repeated.join().expect("fingerprint merge"), sums)
    })
}

/// Duplicate exclusions: an account is listed at most once. Sorts `excl` by account (then line).
fn duplicate_exclusions(excl: &mut [Exclusion], first: &mut FirstError) {
    excl.sort_unstable_by_key(|a| (a.0, a.2));
    for w in excl.windows(2) {
        if w[0].0 == w[1].0 {
            first.consider((
                w[1].2,
                ExportErrorKind::DuplicateExclusion {
                    account: hex::encode(w[0].0),
                    first_line: w[0].2,
                },
            ));
        }
    }
}

/// At most [`MAX_ACCOUNTS_WITH_ENTRIES`] accounts with entries: the leaves one day's
/// `leaves.bin` may hold.
fn check_leaf_count(accounts_with_entries: usize) -> Result<(), ExportError> {
    let n = accounts_with_entries as u64;
    if n > MAX_ACCOUNTS_WITH_ENTRIES {
        return Err(ExportError::file(
            ExportErrorKind::TooManyAccountsWithEntries(n),
        ));
    }
    Ok(())
}

/// The header's counts must be the records found.
fn check_counts(
    header: &Header<'_>,
    plays: u64,
    exclusions_by_reason: &[u64; 3],
) -> Result<(), ExportError> {
    let n_excl: u64 = exclusions_by_reason.iter().sum();
    if plays != header.plays {
        return Err(ExportError::file(ExportErrorKind::CountMismatch {
            record: "play",
            header: header.plays,
            found: plays,
        }));
    }
    if n_excl != header.exclusions {
        return Err(ExportError::file(ExportErrorKind::CountMismatch {
            record: "exclusion",
            header: header.exclusions,
            found: n_excl,
        }));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_two_to_the_24_accounts_with_entries() {
        assert!(check_leaf_count(1 << 24).is_ok());
        let e = check_leaf_count((1 << 24) + 1).unwrap_err();
        assert_eq!(
            (e.line, e.kind),
            (
                None,
                ExportErrorKind::TooManyAccountsWithEntries((1 << 24) + 1)
            )
        );
    }

    #[test]
    fn the_first_error_is_the_one_on_the_smallest_line_the_first_considered_on_a_tie() {
        // The workers' errors come in any order; the file is refused at its first bad line.
        let mut f = FirstError::default();
        f.consider((9, ExportErrorKind::MissingFinalNewline));
        f.consider((5, ExportErrorKind::LineTooLong(1)));
        f.consider((5, ExportErrorKind::LineTooLong(2)));
        f.consider((7, ExportErrorKind::LineTooLong(3)));
        assert_eq!(f.0, Some((5, ExportErrorKind::LineTooLong(1))));
    }
}
