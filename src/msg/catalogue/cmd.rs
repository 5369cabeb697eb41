//! The errors and hints raised by the commands (`src/cmd/`), but those of a sitting's
//! blocks and ceremony (`sitting`).

use crate::msg::message::Msg;

/// Every message of this file, for the catalogue's tests.
pub(super) const ALL: &[&Msg] = &[];
