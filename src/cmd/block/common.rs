//! What `block generate`, `block reveal` and `block void` share: reading a block's state from
//! the trail, and the block argument.

use crate::cmd::inputs::altered;
use crate::error::{Error, Result};
use urne_core::audit::Event;
use urne_core::block::BlockId;
use urne_core::state::{self, block::BlockState};

/// The state of the block `id` read from the whole trail's `events`: an event that is not a
/// well-formed record, of any kind, day or block, or that cannot follow the ones before it,
/// stops the command.
pub(super) fn block_state(events: &[Event], id: &str) -> Result<BlockState> {
    state::block_state(events, id).map_err(|e| altered(&e.to_string()))
}

/// A block argument: its canonical id.
pub(super) fn parse_block_arg(block_arg: &str, hint: &str) -> Result<BlockId> {
    BlockId::parse(block_arg).map_err(|e| Error::bad_input(format!("{e}"), hint))
}
