//! The audit trail's pure half (design principle 6, SPEC.md §6): event hashing, the chain,
//! checkpoints signed with the HSM's audit key, the history outputs state, the token's objects
//! and sealed secrets. The registry of event kinds and their payloads (§6.2) is `crate::events`,
//! above the records of draws, blocks and sittings it names. The `SQLite` store is the
//! appliance's.

pub mod chain;
pub mod history;
pub mod sealed;
pub mod token;

pub use chain::Event;
