//! What the two passes establish: [`VerifiedExport`] (pass 1) and [`DayTally`] (pass 2), with
//! each account's [`AccountEntries`].

use chrono::NaiveDate;

/// What pass 1 established about an export file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifiedExport {
    /// SHA-256 of the file's exact bytes.
    pub sha256: [u8; 32],
    /// Size of the file in bytes.
    pub size: u64,
    /// The trusted producer key that verified the signature (raw 32 bytes).
    pub key: [u8; 32],
    /// Its key id (first 16 hex digits of SHA-256 over the raw key): the header must name it.
    pub key_id: String,
}

/// One account's entries in the day's draw (D-3, D-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AccountEntries {
    /// The pseudonymous account id (64 hex digits in the export).
    pub account: [u8; 32],
    /// 1 ..= the daily cap.
    pub entries: u8,
}

/// Everything the tally of one day's export established: the header, the day's rules, the
/// figures for the commissaire's minutes, and the entries themselves in canonical order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DayTally {
    // The header, as the file states it.
    /// The operation the header names (equal to the rules' operation).
    pub operation: String,
    /// The day the file's plays were made on (D-1).
    pub day: NaiveDate,
    /// The producer key id the header names (equal to the key that verified the file).
    pub producer: String,
    /// The header's `generated_at` instant (RFC 3339 with offset, as written).
    pub generated_at: String,
    /// The header's `status_as_of` instant (RFC 3339 with offset, as written).
    pub status_as_of: String,
    /// Play records the header announced (equal to the plays found).
    pub header_plays: u64,
    /// Exclusion records the header announced (equal to the exclusions found).
    pub header_exclusions: u64,

    /// SHA-256 of the file (as verified in pass 1 and re-hashed in pass 2).
    pub sha256: [u8; 32],
    /// Size of the file in bytes.
    pub size: u64,

    // The rules that applied to this day.
    /// The id of the rules' period that contains the day.
    pub period_id: String,
    /// The stake that gives one entry in that period, in cents (D-3).
    pub tranche_cents: u64,
    /// At most this many entries per account and day (D-4).
    pub daily_cap: u8,

    // Figures.
    /// Play records (all channels).
    pub plays: u64,
    /// Plays that count (online; subscription taken out inside the participation period).
    pub counting_plays: u64,
    /// Retail plays (never count, D-3).
    pub retail_plays: u64,
    /// Online subscription debits that do not count: subscription taken out outside the
    /// participation period (D-5).
    pub subscription_plays_refused: u64,
    /// Accounts with at least one counting play.
    pub accounts_with_counting_plays: u64,
    /// Exclusion records, by reason (index: `rules::draw::ExclusionReason::index`).
    pub exclusions_by_reason: [u64; 3],
    /// Excluded accounts that had counting plays, by reason (D-6, D-13).
    pub excluded_with_counting_plays_by_reason: [u64; 3],
    /// Accounts with at least one entry.
    pub accounts_with_entries: u64,
    /// Sum of all entries: the size of the day's draw.
    pub total_entries: u64,
    /// Accounts with at least one entry, sorted ascending by account bytes.
    pub entries: Vec<AccountEntries>,
}

impl DayTally {
    /// Excluded accounts that had counting plays, every reason.
    pub fn excluded_accounts_with_counting_plays(&self) -> u64 {
        self.excluded_with_counting_plays_by_reason.iter().sum()
    }
}
