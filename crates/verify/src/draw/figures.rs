//! What the seal and the auditor-mode verifier both take from a day's tally: the figures the
//! commissaire writes down and the canonical entry list (spec/formats.md §4.1). One implementation, so
//! the figures a verifier recomputes are built exactly as the sealed ones were.

use super::AccountEntries;
use super::files::{Figures, ReasonCounts};
use crate::entries::DayTally;

/// Reasons counted in the fixed order closed, minor, fraud.
fn reasons(c: [u64; 3]) -> ReasonCounts {
    ReasonCounts {
        closed: c[0],
        minor: c[1],
        fraud: c[2],
    }
}

/// The figures of a tally (D-3 … D-6, D-13), as `bundle.json` records them.
pub fn figures_of_tally(t: &DayTally) -> Figures {
    Figures {
        period: t.period_id.clone(),
        tranche_cents: t.tranche_cents,
        plays: t.plays,
        counting_plays: t.counting_plays,
        retail_plays: t.retail_plays,
        subscription_plays_refused: t.subscription_plays_refused,
        accounts_with_counting_plays: t.accounts_with_counting_plays,
        exclusion_records: reasons(t.exclusions_by_reason),
        excluded_accounts_with_plays: reasons(t.excluded_accounts_with_plays_by_reason),
        accounts_with_entries: t.accounts_with_entries,
        entries: t.total_entries,
    }
}

/// The canonical entry list of a tally (spec/formats.md §4.1), in the tally's (account byte) order.
pub fn list_of_tally(t: &DayTally) -> Vec<AccountEntries> {
    t.entries
        .iter()
        .map(|a| AccountEntries {
            account: a.account,
            entries: a.entries,
        })
        .collect()
}
