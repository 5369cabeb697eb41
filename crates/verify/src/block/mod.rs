//! Instant-game blocks (spec/formats.md §5; rules G-1 … G-8): the
//! pure core of the block pipeline. A block is a deck of outcomes with exactly the G-3 counts,
//! shuffled by a DRBG seeded from HSM entropy (the draw); each ticket gets offered symbols and
//! grids derived from the same seed; the whole ordered block is committed by an RFC 6962 root.
//! Nothing here opens a file, talks to the HSM, reads the clock or touches a database.
//!
//! - [`id`]: block identity, seed, seed commitment, grid key (spec/formats.md §5.B2, §5.B3)
//! - [`shuffle`]: canonical deck and Fisher–Yates (spec/formats.md §5.B4)
//! - [`grid`]: offered symbols and grids of one ticket (spec/formats.md §5.B5)
//! - [`tickets`]: row encoding, leaves, the `tickets.csv` reader/validator (spec/formats.md §5.B6–§5.B8)
//! - [`generate`]: a whole block on several threads, same bytes whatever the thread count, and
//!   its regeneration after the reveal (spec/formats.md §5.B8 steps 7–8)
//! - [`counts`]: the tier counts a commitment lists (G-3)
//! - [`files`]: the commitment, the reveal and the ticket proof as files (spec/formats.md §5.B9)
//! - [`records`]: what a block records in the audit trail, and the block's state read back
//!   from it (spec/formats.md §6.2)

pub mod counts;
pub mod files;
pub mod generate;
pub mod grid;
pub mod id;
pub mod records;
pub mod shuffle;
pub mod tickets;

pub use generate::{
    Block, Regenerated, RevealError, default_threads, generate_block, verify_reveal,
};
pub use grid::{TicketGrid, ticket_grid};
pub use id::{BlockId, BlockIdError, Seed, block_seed, block_seed_of, grid_key, seed_commitment};
pub use shuffle::shuffled_tiers;
pub use tickets::{
    CSV_HEADER, CsvError, CsvSummary, verify_ticket_inclusion, verify_tickets_bytes,
};
