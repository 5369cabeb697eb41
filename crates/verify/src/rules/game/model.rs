//! Validated rules of one instant game ([`GameRules`], its [`PrizeRow`]s) and what blocks and
//! tickets ask of them: prices, units and prize of each tier.

use crate::crypto::Hash32;

use super::figures::LOSING_TIER;

/// One row of the prize table (G-3): units per block and the prize at each price point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrizeRow {
    /// Symbols matched (G-7), 4..=10; also the ticket's tier.
    pub matches: u8,
    /// Units per block with this outcome.
    pub units: u32,
    /// Prize in cents at each price point, in the order of [`GameRules::prices_cents`].
    pub prize_cents: Vec<u64>,
}

/// Validated rules of one instant game. Fields are private: a value exists only if it passed
/// [`GameRules::from_json`].
#[derive(Debug, Clone)]
pub struct GameRules {
    pub(super) game: String,
    pub(super) title: String,
    pub(super) prices_cents: Vec<u64>,
    pub(super) block_size: u32,
    /// Ordered by `matches` descending (10 first), exactly one row per tier 10..=4.
    pub(super) table: Vec<PrizeRow>,
    pub(super) symbols: Vec<String>,
    pub(super) sha256: Hash32,
}

impl GameRules {
    /// Game id (a slug, e.g. `noel-de-la-chance-2015`).
    pub fn game(&self) -> &str {
        &self.game
    }
    /// Human title.
    pub fn title(&self) -> &str {
        &self.title
    }
    /// Price points in cents, ascending (G-2).
    pub fn prices_cents(&self) -> &[u64] {
        &self.prices_cents
    }
    /// Units per block (G-1).
    pub fn block_size(&self) -> u32 {
        self.block_size
    }
    /// The prize table (G-3), matches 10 first.
    pub fn table(&self) -> &[PrizeRow] {
        &self.table
    }
    /// Symbol names; a symbol's index is its position here, and its letter `A` + index.
    pub fn symbols(&self) -> &[String] {
        &self.symbols
    }
    /// SHA-256 of the rules file bytes as loaded.
    pub fn sha256(&self) -> &Hash32 {
        &self.sha256
    }
    /// Winning units per block (G-3).
    pub fn winning_units(&self) -> u32 {
        self.table.iter().map(|r| r.units).sum()
    }
    /// Losing units per block (G-8).
    pub fn losing_units(&self) -> u32 {
        self.block_size - self.winning_units()
    }

    /// Index of `price_cents` among the price points, if it is one (G-2).
    pub fn price_index(&self, price_cents: u64) -> Option<usize> {
        self.prices_cents.iter().position(|&p| p == price_cents)
    }

    /// Units of `tier` per block: the G-3 row for 4..=10, the losing units for 0 (G-8), else 0.
    pub fn units_of_tier(&self, tier: u8) -> u32 {
        if tier == LOSING_TIER {
            return self.losing_units();
        }
        self.table
            .iter()
            .find(|r| r.matches == tier)
            .map_or(0, |r| r.units)
    }

    /// Prize in cents of a unit of `tier` at price index `price_idx` (G-3, G-7): 0 for a losing
    /// unit, `None` for a tier that does not exist.
    pub fn prize_cents(&self, tier: u8, price_idx: usize) -> Option<u64> {
        if tier == LOSING_TIER {
            return Some(0);
        }
        self.table
            .iter()
            .find(|r| r.matches == tier)
            .and_then(|r| r.prize_cents.get(price_idx).copied())
    }

    /// Total prizes in cents of one block at price index `price_idx`.
    pub fn total_prizes_cents(&self, price_idx: usize) -> u64 {
        self.table
            .iter()
            .map(|r| u64::from(r.units) * r.prize_cents[price_idx])
            .sum()
    }
}
