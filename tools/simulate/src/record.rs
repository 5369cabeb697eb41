//! The records of an export (plays and exclusions) as generated, and how each is written as one
//! line of entry-export-v1.

use std::io::Write;

use sha2::{Digest, Sha256};

use crate::operation::{GAMES, ONLINE, REASONS};
use crate::stamp::{Stamp, write_stamp};

/// One play, as generated.
#[derive(Clone, Copy)]
pub(crate) struct Play {
    pub(crate) n: u32,
    pub(crate) account: u32,
    pub(crate) at: i64,
    pub(crate) at_style: Stamp,
    pub(crate) stake: u32,
    /// Index in ONLINE, or 4 for retail.
    pub(crate) channel: u8,
    pub(crate) game: u8,
    pub(crate) subscribed: Option<(i64, Stamp)>,
}

/// One record of the export.
#[derive(Clone, Copy)]
pub(crate) enum Record {
    Play(Play),
    /// An excluded account (index into `accounts`, or into `strangers` when `stranger`).
    Exclusion {
        account: u32,
        stranger: bool,
        reason: u8,
    },
}

/// The account id (64 hex digits) number `i` of kind `label` for `seed`.
pub(crate) fn account_hex(label: &str, seed: u64, i: u64) -> [u8; 64] {
    let h = Sha256::digest(format!("{label}-{seed}-{i}").as_bytes());
    let mut out = [0u8; 64];
    // Invariant: 32 bytes encode to exactly 64 hex digits.
    hex::encode_to_slice(h, &mut out).expect("64 hex digits");
    out
}

/// Appends one record line (without its LF).
pub(crate) fn render(
    out: &mut Vec<u8>,
    r: &Record,
    seed: u64,
    accounts: &[[u8; 64]],
    strangers: &[[u8; 64]],
) {
    match r {
        Record::Play(p) => {
            let channel = if p.channel == 4 {
                "retail"
            } else {
                ONLINE[p.channel as usize]
            };
            out.extend_from_slice(b"{\"type\":\"play\",\"id\":\"");
            write!(out, "p-{seed}-{:09}", p.n).expect("write to Vec");
            out.extend_from_slice(b"\",\"account\":\"");
            out.extend_from_slice(&accounts[p.account as usize]);
            out.extend_from_slice(b"\",\"at\":\"");
            write_stamp(out, p.at, p.at_style);
            write!(
                out,
                "\",\"stake_cents\":{},\"channel\":\"{channel}\",\"game\":\"{}\",\"subscription\":",
                p.stake, GAMES[p.game as usize]
            )
            .expect("write to Vec");
            match p.subscribed {
                None => out.extend_from_slice(b"null}"),
                Some((t, style)) => {
                    out.extend_from_slice(b"{\"subscribed_at\":\"");
                    write_stamp(out, t, style);
                    out.extend_from_slice(b"\"}}");
                }
            }
        }
        Record::Exclusion {
            account,
            stranger,
            reason,
        } => {
            let hexid = if *stranger {
                &strangers[*account as usize]
            } else {
                &accounts[*account as usize]
            };
            out.extend_from_slice(b"{\"type\":\"exclusion\",\"account\":\"");
            out.extend_from_slice(hexid);
            write!(out, "\",\"reason\":\"{}\"}}", REASONS[*reason as usize]).expect("write to Vec");
        }
    }
}
