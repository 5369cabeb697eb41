//! Rules as data (design principle 8): the operation and game rules files, validated at load and
//! bound into every result by their SHA-256.

pub mod draw;
pub mod game;
pub mod official;
