//! The regulation's figures (G-1 … G-8) and the shape of the game they fix: the format id, the
//! official game id, block size, prices, prize table, grid and symbol bounds.

/// The `format` value a game rules file must carry.
pub const FORMAT: &str = "urne-game-rules-v1";

/// Game id of "Le Noël de la chance" (from 30 November 2015).
pub const OFFICIAL_GAME_ID: &str = "noel-de-la-chance-2015";

/// G-1: units per block.
pub const G1_BLOCK_SIZE: u32 = 800_000;
/// G-2: price points, in cents.
pub const G2_PRICES_CENTS: [u64; 3] = [50, 100, 200];
/// G-3: (symbols matched, units per block, prize in cents at €0.50); ×2 at €1, ×4 at €2.
pub const G3_TABLE: [(u8, u32, u64); 7] = [
    (10, 1, 250_000),
    (9, 1, 25_000),
    (8, 200, 5_000),
    (7, 11_000, 1_000),
    (6, 14_100, 250),
    (5, 99_000, 100),
    (4, 46_000, 50),
];
/// G-3: winning units per block.
pub const G3_WINNING_UNITS: u32 = 170_302;
/// G-3: total prizes per block, in cents, at each G-2 price (€280,000 / €560,000 / €1,120,000).
pub const G3_TOTAL_PRIZES_CENTS: [u64; 3] = [28_000_000, 56_000_000, 112_000_000];

/// G-4: rows of the grid.
pub const GRID_ROWS: usize = 3;
/// G-4: cells per row.
pub const GRID_COLUMNS: usize = 6;
/// G-4: cells per grid.
pub const GRID_CELLS: usize = GRID_ROWS * GRID_COLUMNS;
/// G-6: symbols offered to the player.
pub const OFFERED_SYMBOLS: usize = 3;
/// G-7: the fewest matches that win; G-8: at most `MIN_WINNING_MATCHES - 1` is a loss.
pub const MIN_WINNING_MATCHES: u8 = 4;
/// G-3/G-7: the most matches that win (the top prize).
pub const MAX_WINNING_MATCHES: u8 = 10;
/// Tier of a losing unit (G-8). A winning unit's tier is its number of matches (4..=10).
pub const LOSING_TIER: u8 = 0;
/// How many times any symbol other than the chosen one may appear in a grid, and how many times
/// the chosen one may appear in a losing grid (G-6, G-8): one less than a win.
pub const MAX_OTHER_SYMBOL: usize = MIN_WINNING_MATCHES as usize - 1;
/// Fewest symbols that satisfy the grid construction (spec/formats.md §5.B5): a losing grid draws 18 cards
/// from 3 copies of every symbol (3m >= 18), a tier-4 grid draws 14 from 3 copies of the other
/// m-1 (3(m-1) >= 14).
pub const MIN_SYMBOLS: usize = 6;
/// Most symbols: each is written as one letter `A`..`Z` in the tickets file.
pub const MAX_SYMBOLS: usize = 26;

/// Is `tier` a valid ticket tier: 0 (losing, G-8) or 4..=10 matches (G-7)?
pub fn is_tier(tier: u8) -> bool {
    tier == LOSING_TIER || (MIN_WINNING_MATCHES..=MAX_WINNING_MATCHES).contains(&tier)
}

pub(crate) use crate::values::is_slug;
