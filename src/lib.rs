//! urne: the draw appliance. See README.md for what it does and SPEC.md for the normative
//! algorithms. The pure core (`crypto`, `entries`, `rules`, `draw`, `block`, audit-chain hashing,
//! `verify`) touches no file, HSM, database or clock; the edges (`hsm`, `audit` storage, `cmd`,
//! `cli`, `fsio`) call into it.

pub mod audit;
pub mod block;
pub mod cli;
pub mod cmd;
pub mod config;
pub mod crypto;
pub mod draw;
pub mod entries;
pub mod error;
pub mod fsio;
pub mod hsm;
pub mod identity;
pub mod rules;
pub mod verify;
