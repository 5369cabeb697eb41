//! The audit trail (design principle 6, SPEC.md §6): an append-only, hash-chained log of every
//! ceremony step, anchored by checkpoints signed with the HSM's audit key.

pub mod chain;
pub mod store;

pub use chain::Event;
pub use store::AuditLog;
