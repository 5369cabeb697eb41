//! `urne ticket show`: a ticket's grid for one choice, from the block's signed files (and, after
//! the reveal, recomputed from the seed), drawn on the terminal: what a player or the regulator
//! uses in a dispute (G-5 … G-8). Reads signed files only; needs no HSM and records nothing.

use super::inputs;
use super::verify::load_keys;
use crate::edge::folder::DiskFolder;
use crate::error::{Error, Kind, Result};
use crate::msg;
use crate::msg::catalogue::cmd as mc;
use crate::msg::catalogue::sitting as S;
use crate::text::{Lang, eur};
use std::path::Path;
use urne_verify::block::files::{self, CommitFile, RevealFile};
use urne_verify::block::tickets::TicketRow;
use urne_verify::block::{self, BlockId};
use urne_verify::rules::game::GameRules;
use urne_verify::verify::signed::read_signed;
use urne_verify::verify::{Failure, FailureClass as C, fail};

/// `urne ticket …`.
pub fn run(c: crate::cli::TicketCommand) -> Result<()> {
    let crate::cli::TicketCommand::Show {
        block,
        position,
        choice,
        dir,
        keys,
        lang,
    } = c;
    show(
        keys.as_deref(),
        &dir,
        &block,
        position,
        choice,
        Lang::resolve(lang),
    )
}

/// `urne ticket show --block ID --position P --choice C --dir DIR [--lang fr|en]`.
pub fn show(
    keys_dir: Option<&Path>,
    dir: &Path,
    block_arg: &str,
    position: u32,
    choice: u8,
    lang: Lang,
) -> Result<()> {
    let id = inputs::parse_block(block_arg)?;
    if !(1..=3).contains(&choice) {
        return Err(Error::new(
            Kind::Usage,
            crate::msg!(mc::ERR_TICKET_CHOICE),
            crate::msg!(mc::REC_TICKET_CHOICE),
        ));
    }
    if keys_dir.is_none() {
        note!("{}", msg!(S::SCR_TICKET_KEYS_BESIDE, path = dir.display()));
    }
    let k = load_keys(keys_dir.unwrap_or(dir))?;
    let stem = files::stem(&id.canonical());
    let rules_bytes =
        read_signed(&DiskFolder::open(dir), "rules.json", &k.result).map_err(refused)?;
    let rules = GameRules::from_json(&rules_bytes).map_err(|e| {
        Error::new(
            Kind::RulesRefused,
            crate::msg!(mc::ERR_TICKET_RULES, e = e),
            "",
        )
    })?;
    let commit: CommitFile = signed_json(dir, &format!("{stem}.commit.json"), &k.result)?;
    // The production file's signature covers every row (it is checked whole).
    let csv_name = format!("{stem}.tickets.csv");
    read_signed(&DiskFolder::open(dir), &csv_name, &k.result).map_err(refused)?;
    let row = inputs::find_row(&dir.join(&csv_name), position)?;
    let t = block::tickets::parse_row(row.as_bytes(), rules.symbols().len()).map_err(|e| {
        Error::new(
            Kind::TicketMismatch,
            crate::msg!(mc::ERR_TICKET_ROW, e = e),
            "",
        )
    })?;
    let reveal_name = format!("{stem}.reveal.json");
    let mut recomputed = lang.t(
        "grille : pas encore révélée, montrée d'après le fichier de production signé",
        "grid: not yet revealed: shown from the signed production file",
    );
    if dir.join(&reveal_name).exists() {
        let r: RevealFile = signed_json(dir, &reveal_name, &k.result)?;
        check_against_reveal(&r, &commit, &rules, position, &t)?;
        recomputed = lang.t(
            "grille : recalculée d'après la graine révélée : identique",
            "grid: recomputed from the revealed seed: identical",
        );
    }
    render(&id, &rules, &t, (position, choice), lang);
    say!("{recomputed}");
    Ok(())
}

/// A signed file that is not as urne signed it.
#[expect(
    clippy::needless_pass_by_value,
    reason = "an error conversion, as `map_err` hands the error over: by value, like `From`"
)]
fn refused(f: Failure) -> Error {
    Error::new(
        Kind::TicketMismatch,
        crate::msg!(
            mc::ERR_TICKET_REFUSED,
            what = f.what,
            class = f.class.name()
        ),
        crate::msg!(mc::REC_TICKET_REFUSED),
    )
}

/// A signed JSON file of the block's folder, its signature checked before it is parsed.
fn signed_json<T: serde::de::DeserializeOwned>(
    dir: &Path,
    name: &str,
    key: &[u8; 32],
) -> Result<T> {
    let bytes = read_signed(&DiskFolder::open(dir), name, key).map_err(refused)?;
    serde_json::from_slice(&bytes).map_err(|e| refused(fail(C::Malformed, format!("{e}"))))
}

/// After the reveal: the revealed seed must be the committed one, and the production file's
/// grid the one recomputed from it.
fn check_against_reveal(
    r: &RevealFile,
    commit: &CommitFile,
    rules: &GameRules,
    position: u32,
    t: &TicketRow,
) -> Result<()> {
    let seed = r.seed;
    if block::seed_commitment(&seed) != commit.seed_commitment {
        return Err(Error::new(
            Kind::TicketMismatch,
            crate::msg!(mc::ERR_TICKET_SEED),
            crate::msg!(mc::REC_TICKET_SEED),
        ));
    }
    let g = block::ticket_grid(&block::grid_key(&seed), position, t.tier, rules);
    if g != t.grid {
        return Err(Error::new(
            Kind::TicketMismatch,
            crate::msg!(mc::ERR_TICKET_GRID),
            crate::msg!(mc::REC_TICKET_GRID),
        ));
    }
    Ok(())
}

/// The terminal rendering: the offered symbols, the grid of the chosen one (its cells marked),
/// and the outcome, the prize in euros.
fn render(
    id: &BlockId,
    rules: &GameRules,
    t: &TicketRow,
    (position, choice): (u32, u8),
    lang: Lang,
) {
    let c = (choice - 1) as usize;
    let sym = |i: u8| rules.symbols()[i as usize].clone();
    let chosen = t.grid.offered[c];
    say!(
        "{} {}  {} {position}  {} {choice}",
        lang.t("bloc", "block"),
        id.canonical(),
        lang.t("ticket", "ticket"),
        lang.t("choix", "choice"),
    );
    say!(
        "{} {}",
        lang.t("symboles proposés :", "offered symbols:"),
        t.grid
            .offered
            .iter()
            .map(|&s| sym(s))
            .collect::<Vec<_>>()
            .join(", ")
    );
    say!(
        "{} {}",
        lang.t("symbole choisi :   ", "chosen symbol:   "),
        sym(chosen)
    );
    let w = rules.symbols().iter().map(String::len).max().unwrap_or(1);
    for r in 0..3 {
        let cells: Vec<String> = (0..6)
            .map(|col| {
                let s = t.grid.cells[c][r * 6 + col];
                let name = sym(s);
                if s == chosen {
                    format!("[{name:^w$}]")
                } else {
                    format!(" {name:^w$} ")
                }
            })
            .collect();
        say!("  {}", cells.join(" "));
    }
    let count = t.grid.cells[c].iter().filter(|&&s| s == chosen).count();
    match lang {
        Lang::Fr => say!("le symbole choisi apparaît {count} fois"),
        Lang::En => say!("chosen symbol appears {count} times"),
    }
    let prize = eur(t.prize_cents, lang);
    let tier = t.tier;
    say!(
        "{}",
        match (tier, lang) {
            (0, Lang::Fr) => "résultat : ticket perdant (G-8)".to_string(),
            (0, Lang::En) => "outcome: losing ticket (G-8)".to_string(),
            (_, Lang::Fr) => format!(
                "résultat : gagne {prize} ({tier} symboles identiques, G-3, G-7) ; le même quel que soit le choix (G-6)"
            ),
            (_, Lang::En) => format!(
                "outcome: wins {prize} ({tier} matches, G-3, G-7); the same whatever the choice (G-6)"
            ),
        }
    );
}
