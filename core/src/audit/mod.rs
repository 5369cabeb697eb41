//! The audit trail's pure half (design principle 6, SPEC.md §6): event hashing, the chain, and
//! checkpoints signed with the HSM's audit key. The `SQLite` store is the appliance's.

pub mod chain;

pub use chain::Event;
