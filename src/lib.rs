//! urne: the draw appliance. See README.md for what it does and SPEC.md for the normative
//! algorithms. The pure core (`crypto`, `entries`, `rules`, `draw`, `block`, audit-chain hashing,
//! `verify`) touches no file, HSM, database or clock; the edges (`hsm`, `audit` storage, `cmd`,
//! `cli`, `fsio`) call into it.

pub mod block;
pub mod crypto;
pub mod entries;
pub mod rules;
