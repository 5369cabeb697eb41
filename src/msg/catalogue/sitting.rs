//! The errors, hints and screens of the blocks (`src/cmd/block/`) and of the sitting
//! (`src/cmd/ceremony/`), and the screens of `urne keys init` and `urne status`.

use crate::msg::message::Msg;

/// Every message of this file, for the catalogue's tests.
pub(super) const ALL: &[&Msg] = &[];
