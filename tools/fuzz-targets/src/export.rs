//! Target `export`, differential: production's export reader (`urne_verify::entries`:
//! `verify_export` then `tally_export_with`, spec/formats.md §4.1.1) against the reference reader of
//! [`oracle`] (`serde_json`, chrono, chrono-tz).
//!
//! Input: the export file itself. The target signs it with the test producer key, so the
//! signature check passes and every input reaches the parser.
//!
//! Properties: the same outcome on one parsing thread as on three (the tally, or the same error
//! message); where the reference decides ([`oracle::Verdict`]), the same decision; and when both
//! accept, the same tally (header, period, every figure, the canonical entry list).

pub mod json;
pub mod oracle;

use crate::keys;
use oracle::{ExcludedRule, Mode, Rules, Tally, Verdict};
use std::sync::OnceLock;
use urne_verify::entries::{DayTally, TallyOptions, tally_export_with, verify_export};
use urne_verify::rules::draw::{CHANCEUX_NOEL_2018, DrawRules};

/// `false`: the reference reads as SPEC.md says (spec/formats.md §4.1.1: no CR anywhere in an export; spec/formats.md §4.7: the
/// excluded accounts with a play of any class), the rules the reader follows since issue 12.
/// `true` makes it follow the reader's former rules on these two points (a file with a CR is not
/// compared, the excluded accounts figure counts those with a counting play): only to replay,
/// against an old reader, what was found before the fixes.
pub const ENTRIES_FIXES_PENDING: bool = false;

/// How the reference reads (see [`ENTRIES_FIXES_PENDING`]).
pub const MODE: Mode = if ENTRIES_FIXES_PENDING {
    Mode {
        cr_refused: false,
        excluded: ExcludedRule::CountingPlay,
    }
} else {
    Mode {
        cr_refused: true,
        excluded: ExcludedRule::AnyPlay,
    }
};

fn rules() -> &'static (DrawRules, Rules) {
    static R: OnceLock<(DrawRules, Rules)> = OnceLock::new();
    R.get_or_init(|| {
        (
            DrawRules::chanceux_noel_2018(),
            Rules::from_json(CHANCEUX_NOEL_2018),
        )
    })
}

/// urne's tally in the reference's terms.
fn as_reference(t: &DayTally, excluded: [u64; 3]) -> Tally {
    Tally {
        header: [
            t.operation.clone(),
            t.day.format("%Y-%m-%d").to_string(),
            t.producer.clone(),
            t.generated_at.clone(),
            t.status_as_of.clone(),
        ],
        announced: (t.header_plays, t.header_exclusions),
        period: (t.period_id.clone(), t.tranche_cents),
        plays: [
            t.plays,
            t.counting_plays,
            t.retail_plays,
            t.subscription_plays_refused,
        ],
        accounts_with_counting_plays: t.accounts_with_counting_plays,
        exclusions_by_reason: t.exclusions_by_reason,
        excluded_accounts_with_plays: excluded,
        entries: t.entries.iter().map(|e| (e.account, e.entries)).collect(),
        total_entries: t.total_entries,
    }
}

/// Whether the strict reader accepts `data` as an export (signed with the test producer key),
/// under the official rules: verified, then tallied.
pub fn accepts(data: &[u8]) -> bool {
    let key = keys::producer();
    let sig = keys::sign(key, data);
    let Ok(verified) = verify_export(data, &sig, &[keys::public(key)]) else {
        return false;
    };
    let (urne_rules, _) = rules();
    tally_export_with(
        || Ok(data),
        &verified,
        urne_rules,
        &TallyOptions { threads: 1 },
    )
    .is_ok()
}

/// The target.
///
/// # Panics
/// When a property above does not hold.
pub fn export(data: &[u8]) {
    let key = keys::producer();
    let sig = keys::sign(key, data);
    let verified =
        verify_export(data, &sig, &[keys::public(key)]).expect("signed by the one trusted key");
    let (urne_rules, reference_rules) = rules();
    let tally = |threads| {
        tally_export_with(
            || Ok(data),
            &verified,
            urne_rules,
            &TallyOptions { threads },
        )
        .map_err(|e| e.to_string())
    };
    let got = tally(1);
    assert_eq!(tally(3), got, "three parsing threads, another outcome");
    let want = oracle::read(data, verified.key_id.as_str(), reference_rules, MODE);
    match (want, got) {
        (Verdict::Undefined(_), _) | (Verdict::Refuse(_), Err(_)) => {}
        (Verdict::Refuse(why), Ok(_)) => {
            panic!("urne accepted an export the reference refuses ({why})")
        }
        (Verdict::Accept(_), Err(e)) => {
            panic!("urne refused an export the reference accepts: {e}")
        }
        (Verdict::Accept(want), Ok(t)) => {
            let got = as_reference(&t, t.excluded_accounts_with_plays_by_reason);
            assert_eq!(*want, got, "the tallies differ");
            assert_eq!(t.sha256, urne_verify::crypto::sha256(data).0);
            assert_eq!(t.size, data.len() as u64);
        }
    }
}
