//! The audit trail's events (spec/formats.md §6.2): the registry of event kinds (`kinds`), each with the
//! record its payload must parse as, and the records that belong to no draw, block or sitting
//! (`payloads`). Above `audit` (the chain it hashes) and the draws', blocks' and sittings'
//! records it names; below `state` and `verify`, which read a trail through it.

pub mod kinds;
pub mod payloads;
