//! `urne block …` and `urne ticket show` (instant-game blocks).

use super::verify::VerifyArgs;
use crate::error::{Error, Result};

/// `urne verify DIR` on a folder that holds block outputs.
pub fn verify_dir(a: &VerifyArgs) -> Result<()> {
    Err(Error::bad_input(
        format!(
            "{} holds no urne outputs (no bundle.json, no block commitment)",
            a.path.display()
        ),
        "give the --out folder of `urne draw` or `urne block generate`",
    ))
}
