//! What the two passes establish: [`VerifiedExport`] (pass 1) and [`DayTally`] (pass 2), with
//! each account's [`AccountEntries`].

use chrono::NaiveDate;

/// What pass 1 ([`super::verify_export`]) established about an export file: which trusted key
/// signed it, and which exact bytes (by hash and size) pass 2 must read again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifiedExport {
    /// SHA-256 of the file's exact bytes.
    pub sha256: [u8; 32],
    /// Size of the file in bytes.
    pub size: u64,
    /// The trusted producer key that verified the signature (raw 32 bytes).
    pub key: [u8; 32],
    /// Its key id (spec/formats.md §1.3: first 16 hex digits of SHA-256 over the raw key): the header's
    /// `producer` must be this.
    pub key_id: crate::values::KeyId,
}

/// One account's entries in the day's draw (D-3, D-4): an item of the canonical entry list of
/// spec/formats.md §4.1, whose binary form is `account || entries` (33 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AccountEntries {
    /// The pseudonymous account id (64 lowercase hex digits in the export), as its 32 bytes.
    pub account: [u8; 32],
    /// `min(daily_cap, floor(counting_cents / tranche))`: 1 ..= the daily cap (an account with
    /// no entry is not listed).
    pub entries: u8,
}

/// Everything the tally of one day's export established: the header, the day's rules, the
/// figures for the commissaire's minutes, and the entries themselves in canonical order.
///
/// The figures are those `result.json` and `bundle.json` publish in `figures` (spec/formats.md §4.7);
/// the field documented with each counter names it.
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
    /// The id of the rules' period that contains the day (`figures.period`).
    pub period_id: String,
    /// The stake that gives one entry in that period, in cents (D-3; `figures.tranche_cents`).
    pub tranche_cents: u64,
    /// At most this many entries per account and day (D-4).
    pub daily_cap: u8,

    // Figures.
    /// Play records, every class (`figures.plays`).
    pub plays: u64,
    /// Plays that count (spec/formats.md §4.1.1: on one of the rules' `online_channels`, without a
    /// subscription or with one taken out inside the participation period;
    /// `figures.counting_plays`).
    pub counting_plays: u64,
    /// Retail plays: on a channel that is not one of the rules' `online_channels`, which never
    /// count (D-3, spec/formats.md §4.1.1; `figures.retail_plays`).
    pub retail_plays: u64,
    /// Plays on one of the rules' `online_channels` whose subscription was taken out outside the
    /// participation period (D-5; `figures.subscription_plays_refused`).
    pub subscription_plays_refused: u64,
    /// Distinct accounts with at least one counting play, excluded accounts included
    /// (`figures.accounts_with_counting_plays`).
    pub accounts_with_counting_plays: u64,
    /// Exclusion records, by reason (index: [`ExclusionReason::index`], that is closed, minor,
    /// fraud; `figures.exclusion_records`).
    ///
    /// [`ExclusionReason::index`]: crate::rules::draw::ExclusionReason::index
    pub exclusions_by_reason: [u64; 3],
    /// Excluded accounts with at least one play record of any class (counting, retail,
    /// subscription refused), by reason (D-6, D-13, spec/appliance.md §4.7; same index;
    /// `figures.excluded_accounts_with_plays`).
    pub excluded_accounts_with_plays_by_reason: [u64; 3],
    /// Accounts with at least one entry: the length of [`DayTally::entries`]
    /// (`figures.accounts_with_entries`).
    pub accounts_with_entries: u64,
    /// Sum of all entries: the size of the day's draw (`figures.entries`).
    pub total_entries: u64,
    /// The canonical entry list (spec/formats.md §4.1): accounts with at least one entry, sorted
    /// ascending by account bytes.
    pub entries: Vec<AccountEntries>,
}

impl DayTally {
    /// Excluded accounts with at least one play record of any class, every reason.
    pub fn excluded_accounts_with_plays(&self) -> u64 {
        self.excluded_accounts_with_plays_by_reason.iter().sum()
    }
}
