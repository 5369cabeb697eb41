//! What `block generate`, `block reveal` and `block void` share: reading a block's state from
//! the trail, the block argument, and a generated block.

use crate::cmd::inputs::altered;
use crate::error::{Error, Kind, Result};
use urne_ceremony::state::{self, block::BlockState};
use urne_verify::audit::Event;
use urne_verify::block::BlockId;
use urne_verify::block::files::TierCount;
use urne_verify::crypto::Hash32;

/// The state of the block `id` read from the whole trail's `events`: an event that is not a
/// well-formed record, of any kind, day or block, or that cannot follow the ones before it,
/// stops the command.
pub(super) fn block_state(events: &[Event], id: &BlockId) -> Result<BlockState> {
    state::block_state(events, id).map_err(|e| altered(&e.to_string()))
}

/// A block argument: its canonical id.
pub(super) fn parse_block_arg(block_arg: &str, hint: &str) -> Result<BlockId> {
    BlockId::parse(block_arg).map_err(|e| Error::new(Kind::BadBlockId, format!("{e}"), hint))
}

/// A generated block, checked against G-3, with the values its commitment states.
pub(super) struct Made {
    pub counts: Vec<TierCount>,
    pub csv: Vec<u8>,
    pub csv_sha: Hash32,
    pub root: Hash32,
    pub seed_commitment: Hash32,
}
