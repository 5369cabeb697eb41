//! What `urne ceremony` is given, once the command line is read.

use std::path::PathBuf;

/// What `urne ceremony` is given.
#[derive(Debug, Default)]
pub struct CeremonyArgs {
    /// The publications folder: each output goes into its own folder under it.
    pub out: PathBuf,
    /// `fr` or `en` (default: French, or English when `LANG` starts with `en`).
    pub lang: Option<crate::text::Lang>,
    /// The place, the commissaire's name and office, the persons present (`Name, role`):
    /// given ahead, shown and confirmed; else asked.
    pub place: Option<String>,
    /// The town the minutes are made in (`Fait à <town>`).
    pub town: Option<String>,
    /// The commissaire de justice's name, as the minutes state it.
    pub commissaire: Option<String>,
    /// The commissaire de justice's office (étude), as the minutes state it.
    pub office: Option<String>,
    /// The other persons present, each `Name, role`, in the order given.
    pub present: Vec<String>,
    /// The operation's rules file, for draws.
    pub rules: Option<PathBuf>,
    /// Whether rules (draws' and blocks') that are not an official regulation may be used
    /// (`--unofficial-rules`): the commissaire then types their id back at the opening.
    pub admission: urne_verify::rules::official::Admission,
    /// The folder holding production's signed exports (`entries-<operation>-<day>.jsonl`).
    pub exports: Option<PathBuf>,
    /// Production's keys: pinned at the key ceremony when the trail pins none; for a seal,
    /// each must be pinned (default: the pinned ones).
    pub producer_keys: Vec<PathBuf>,
    /// The days to draw (default: those the rules schedule for today, D-8).
    pub days: Vec<String>,
    /// The key ceremony: the keys generated, the trail created, the public keys exported
    /// into `keys/` under the publications folder.
    pub key_ceremony: bool,
    /// The blocks to reveal, and when their sales closed (RFC 3339).
    pub reveals: Vec<String>,
    /// When the sales of the blocks in `reveals` closed, as production states it.
    pub sales_closed_at: String,
    /// An emission's blocks to generate.
    pub blocks: Option<BlocksArgs>,
}

/// An emission's blocks, as `urne block generate` takes them.
#[derive(Debug)]
pub struct BlocksArgs {
    /// The game's rules file.
    pub rules: PathBuf,
    /// The blocks' price point in cents (G-2).
    pub price: u64,
    /// The emission the blocks belong to.
    pub emission: String,
    /// The number of the first block generated.
    pub first: u32,
    /// How many consecutive blocks are generated.
    pub count: u32,
    /// The folder on the separate secret medium that alone receives the production files.
    pub secret_out: PathBuf,
}
