//! Target `tickets`: the `tickets.csv` reader, `urne_verify::block::verify_tickets_bytes` (spec/formats.md
//! §5.B6, §5.B8 steps 1–5), on a reduced rules file of [`BLOCK_SIZE`] tickets (the official
//! game's prices, prizes, grid and symbols; one unit of each winning tier), so that a whole
//! valid file is a few KB and reachable by mutation.
//!
//! Input: a byte that picks the price point (modulo their number), then the file.
//!
//! Properties: no panic; the same outcome (summary or error message) on 1, 2 and 3 threads; an
//! accepted file holds [`BLOCK_SIZE`] rows and its outcomes root is the RFC 6962 root of its
//! rows' leaves, recomputed here; every row that `parse_row` reads is read the same after it is
//! written again with `encode_row` (the writer and the reader agree).

use std::sync::OnceLock;
use urne_verify::block::tickets::{encode_row, parse_row, ticket_leaf};
use urne_verify::block::{CsvSummary, verify_tickets_bytes};
use urne_verify::crypto::merkle;
use urne_verify::rules::game::{GameRules, reduced_rules_json};

/// Tickets in a block of the reduced rules.
pub const BLOCK_SIZE: u32 = 16;
/// The reduced rules' game id.
pub const GAME: &str = "noel-fuzz";
const OFFICIAL: &[u8] = include_bytes!("../../../rules/noel-de-la-chance-2015.json");

/// The reduced rules file, as bytes (seeds are made with it).
///
/// # Panics
/// Never: the official file is compiled in and loads.
pub fn rules_json() -> Vec<u8> {
    let official = GameRules::from_json(OFFICIAL).expect("the official rules file loads");
    reduced_rules_json(&official, GAME, BLOCK_SIZE, [1; 7])
}

/// The reduced rules.
///
/// # Panics
/// Never: [`rules_json`] is valid (the replay test loads it).
pub fn rules() -> &'static GameRules {
    static R: OnceLock<GameRules> = OnceLock::new();
    R.get_or_init(|| GameRules::from_json(&rules_json()).expect("the reduced rules load"))
}

/// The target.
///
/// # Panics
/// When a property above does not hold.
pub fn tickets(data: &[u8]) {
    let Some((&which, csv)) = data.split_first() else {
        return;
    };
    let rules = rules();
    let price = rules.prices_cents()[usize::from(which) % rules.prices_cents().len()];
    let run = |threads| verify_tickets_bytes(csv, rules, price, threads).map_err(|e| e.to_string());
    let one = run(1);
    assert_eq!(run(2), one, "2 threads, another outcome");
    assert_eq!(run(3), one, "3 threads, another outcome");
    if let Ok(summary) = &one {
        check_accepted(csv, summary);
    }
    let m = rules.symbols().len();
    for row in csv.split(|&b| b == b'\n') {
        let Ok(t) = parse_row(row, m) else { continue };
        let mut again = Vec::new();
        encode_row(&mut again, t.position, t.tier, t.prize_cents, &t.grid);
        assert_eq!(
            parse_row(&again, m),
            Ok(t),
            "a row written back reads otherwise"
        );
    }
}

fn check_accepted(csv: &[u8], summary: &CsvSummary) {
    assert_eq!(summary.tickets, BLOCK_SIZE);
    let body = &csv[csv.iter().position(|&b| b == b'\n').expect("a header line") + 1..];
    let rows: Vec<&[u8]> = body.split(|&b| b == b'\n').collect();
    let (last, rows) = rows.split_last().expect("split gives one piece at least");
    assert!(last.is_empty(), "an accepted file ends with LF");
    assert_eq!(rows.len(), BLOCK_SIZE as usize);
    let leaves: Vec<_> = rows.iter().map(|r| ticket_leaf(r)).collect();
    assert_eq!(
        summary.outcomes_root,
        merkle::root(&leaves),
        "outcomes root"
    );
}
