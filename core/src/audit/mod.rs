//! The audit trail's pure half (design principle 6, SPEC.md §6): event hashing, the chain, and
//! checkpoints signed with the HSM's audit key; the registry of event kinds and their payloads
//! (§6.2). The `SQLite` store is the appliance's.

pub mod chain;
pub mod history;
pub mod kinds;
pub mod payloads;
pub mod sealed;
pub mod token;

pub use chain::Event;
