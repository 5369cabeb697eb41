//! The oracle, `.expected.json`: what the appliance must find in the export, by this tool's own
//! reading of the rules (D-4 cap; D-6, D-13 excluded accounts get nothing).

use std::path::Path;

use clap::ValueEnum;

use crate::args::Args;
use crate::generate::Generated;
use crate::operation::{DAILY_CAP, OPERATION};

/// Writes `PATH.expected.json` for the export at `path`.
pub(crate) fn write_oracle(
    a: &Args,
    path: &Path,
    day_iso: &str,
    tranche: u64,
    g: &Generated,
) -> std::io::Result<()> {
    let mut expected = serde_json::Map::new();
    expected.insert("valid".into(), a.brk.is_none().into());
    expected.insert("operation".into(), OPERATION.into());
    expected.insert("day".into(), day_iso.into());
    expected.insert("tranche_cents".into(), tranche.into());
    if let Some(b) = a.brk {
        let name = b.to_possible_value().expect("named").get_name().to_string();
        expected.insert("break".into(), name.into());
    } else {
        insert_tally(&mut expected, a, tranche, g);
    }
    let mut text = serde_json::to_string_pretty(&serde_json::Value::Object(expected))
        .expect("JSON of plain values");
    text.push('\n');
    std::fs::write(format!("{}.expected.json", path.display()), text)
}

/// The figures of a valid export, and its entries by account unless `--no-detail`.
fn insert_tally(
    expected: &mut serde_json::Map<String, serde_json::Value>,
    a: &Args,
    tranche: u64,
    g: &Generated,
) {
    // D-4 cap; D-6, D-13 excluded accounts get nothing.
    let mut by_account: Vec<(&[u8; 64], u64)> = Vec::new();
    for &i in &g.players {
        let n = if g.excluded[i as usize] {
            0
        } else {
            (g.totals[i as usize] / tranche).min(DAILY_CAP)
        };
        if n > 0 {
            by_account.push((&g.accounts[i as usize], n));
        }
    }
    by_account.sort();
    let total: u64 = by_account.iter().map(|x| x.1).sum();
    expected.insert("plays".into(), a.plays.into());
    expected.insert("counting_plays".into(), g.n_counting.into());
    expected.insert(
        "accounts_with_counting_plays".into(),
        g.players.len().into(),
    );
    expected.insert("excluded_accounts_with_plays".into(), g.chosen.len().into());
    expected.insert("accounts_with_entries".into(), by_account.len().into());
    expected.insert("entries".into(), total.into());
    if !a.no_detail {
        let m: serde_json::Map<String, serde_json::Value> = by_account
            .iter()
            .map(|(k, n)| (String::from_utf8(k.to_vec()).expect("hex"), (*n).into()))
            .collect();
        expected.insert("entries_by_account".into(), m.into());
    }
}
