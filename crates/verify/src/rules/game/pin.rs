//! The pin for the official game id (`OFFICIAL_GAME_ID`): a file with the regulation's game id must carry the
//! regulation's own figures (G-1, G-2, G-3), so a self-consistent but altered file cannot pass
//! as "Le Noël de la chance".

use super::error::RulesError;
use super::figures::{
    G1_BLOCK_SIZE, G2_PRICES_CENTS, G3_TABLE, G3_TOTAL_PRIZES_CENTS, G3_WINNING_UNITS,
};
use super::model::GameRules;
use super::schema::TotalsFile;

/// Every figure of `rules` (and the file's `totals`) equals the regulation's (G-1, G-2, G-3).
pub(super) fn check_regulation(rules: &GameRules, totals: &TotalsFile) -> Result<(), RulesError> {
    if rules.block_size != G1_BLOCK_SIZE {
        return Err(differs(
            "block_size",
            "G-1",
            rules.block_size.to_string(),
            G1_BLOCK_SIZE.to_string(),
        ));
    }
    if rules.prices_cents != G2_PRICES_CENTS {
        return Err(differs(
            "price_points_cents",
            "G-2",
            format!("{:?}", rules.prices_cents),
            format!("{G2_PRICES_CENTS:?}"),
        ));
    }
    for (row, &(matches, units, prize)) in rules.table.iter().zip(G3_TABLE.iter()) {
        let law: Vec<u64> = G2_PRICES_CENTS.iter().map(|&p| prize * p / 50).collect();
        if row.matches != matches || row.units != units || row.prize_cents != law {
            return Err(differs(
                &format!("prize_table[matches={}]", row.matches),
                "G-3",
                format!("{} units, {:?} cents", row.units, row.prize_cents),
                format!("{units} units, {law:?} cents"),
            ));
        }
    }
    if totals.winning_units != G3_WINNING_UNITS
        || totals.prize_cents != G3_TOTAL_PRIZES_CENTS
        || totals.losing_units != G1_BLOCK_SIZE - G3_WINNING_UNITS
    {
        return Err(differs(
            "totals",
            "G-3",
            format!(
                "{} winning, {} losing, {:?} cents",
                totals.winning_units, totals.losing_units, totals.prize_cents
            ),
            format!(
                "{G3_WINNING_UNITS} winning, {} losing, {G3_TOTAL_PRIZES_CENTS:?} cents",
                G1_BLOCK_SIZE - G3_WINNING_UNITS
            ),
        ));
    }
    Ok(())
}

/// A [`RulesError::NotTheRegulation`]: `field` says `found` where `rule` says `law`.
fn differs(field: &str, rule: &'static str, found: String, law: String) -> RulesError {
    RulesError::NotTheRegulation {
        field: field.into(),
        rule,
        found,
        law,
    }
}
