//! The errors and hints raised at the edges (`src/edge/`): the HSM, the store, the files,
//! the configuration, the process.

use crate::msg::message::Msg;

/// Every message of this file, for the catalogue's tests.
pub(super) const ALL: &[&Msg] = &[];
