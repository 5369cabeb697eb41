//! The audit trail's pure half (design principle 6, spec/formats.md §6): event hashing, the chain,
//! checkpoints signed with the HSM's audit key, the history outputs state. The registry of event
//! kinds and their payloads (spec/formats.md §6.2) is `crate::events`, above the records of draws, blocks and
//! sittings it names. The token's objects and sealed secrets, which no verifier reads, are
//! `urne_ceremony::token` and `urne_ceremony::sealed`; the `SQLite` store is the appliance's.

pub mod chain;
pub mod history;

pub use chain::Event;
