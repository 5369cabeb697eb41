//! The minutes of a sitting (spec/appliance.md §9.2), read from the trail by urne-ceremony's `minutes` module;
//! what the trail's payloads do not hold is read here from the appliance's store: the rules
//! sealed with each day (their blobs), the game rules of the blocks (the official file, or a
//! `rules.json` published beside the blocks), the pseudonyms of the picked leaves (the sealed
//! sets' blobs), the entropy of each draw drawn (its sealed box, opened by the token), and the
//! checkpoint covering `sitting.closed`.

use crate::cmd::ctx::Ctx;
use crate::error::{Error, Kind, Result};
use crate::msg;
use crate::msg::catalogue::sitting as S;
use std::path::Path;
use urne_ceremony::minutes::{Given, Lang, Minutes, html};
use urne_verify::audit::Event;
use urne_verify::draw::SealedSet;
use urne_verify::events::kinds::{self, Record};
use urne_verify::rules::draw::DrawRules;
use urne_verify::rules::game::GameRules;

/// The minutes of sitting `number`, as HTML in `lang`, over `events` (the whole trail), with
/// `checkpoint` the note covering its close and `out` the publications folder.
pub(super) fn render(
    ctx: &mut Ctx,
    events: &[Event],
    number: u32,
    checkpoint: &str,
    (out, lang): (&Path, crate::text::Lang),
) -> Result<String> {
    let mut given = Given {
        checkpoint: Some(checkpoint.to_string()),
        ..Given::default()
    };
    for e in events {
        match kinds::parse(e) {
            Ok(Record::DrawSeal(s)) => {
                let bytes = ctx.audit()?.blob(&s.rules_sha256)?;
                if let Ok(r) = DrawRules::from_json(&bytes)
                    && !given.draw_rules.iter().any(|x| x.sha256() == r.sha256())
                {
                    given.draw_rules.push(r);
                }
            }
            Ok(Record::BlockEntropy(b))
                if given
                    .game_rules
                    .iter()
                    .all(|g| *g.sha256() != b.rules_sha256) =>
            {
                if let Some(r) = game_rules(&b.rules_sha256, out) {
                    given.game_rules.push(r);
                }
            }
            _ => {}
        }
    }
    let unreadable = |e: &dyn std::fmt::Display| {
        Error::new(
            Kind::RecordUnreadable,
            msg!(S::ERR_SITTING_MINUTES_UNREADABLE, e = e),
            msg!(S::REC_SITTING_MINUTES_UNREADABLE),
        )
    };
    let first = Minutes::from_trail(events, number, &given).map_err(|e| unreadable(&e))?;
    for (set_sha, leaf) in first.picked_leaves() {
        let bytes = ctx.audit()?.blob(&set_sha)?;
        let set = SealedSet::decode(&bytes)
            .ok_or_else(|| crate::cmd::inputs::altered(&msg!(S::ERR_SITTING_SET_UNDECODABLE)))?;
        if let Some(l) = usize::try_from(leaf).ok().and_then(|i| set.leaves.get(i)) {
            given.pseudonyms.insert((set_sha, leaf), l.pseudonym);
        }
    }
    // The entropy of each draw drawn, opened by the token (the trail keeps it sealed; it is
    // public once the result is): the minutes print it beside the seed, as the screen did.
    for ec in first.drawn_entropy_commitments() {
        let recorded = events.iter().find_map(|e| match kinds::parse(e) {
            Ok(Record::DrawEntropy(r)) if r.entropy_commitment == ec => Some(r),
            _ => None,
        });
        if let Some(r) = recorded {
            let purpose = format!("day {} attempt {}", r.day, r.attempt);
            let entropy = crate::cmd::randomness::recorded_entropy(
                ctx,
                &purpose,
                &r.entropy_blob,
                &r.entropy_commitment,
            )?;
            given.entropies.insert(ec, hex::encode(entropy));
        }
    }
    let m = Minutes::from_trail(events, number, &given).map_err(|e| unreadable(&e))?;
    Ok(html::render(&m, Lang::from_code(lang.code())))
}

/// The game rules of this SHA-256: the official file built into urne, or the `rules.json` the
/// generation published beside its blocks.
fn game_rules(sha: &urne_verify::crypto::Hash32, out: &Path) -> Option<GameRules> {
    let official = include_bytes!("../../../rules/noel-de-la-chance-2015.json");
    [
        Some(official.to_vec()),
        crate::edge::fsio::read_in(&out.join("blocks"), "rules.json").ok(),
    ]
    .into_iter()
    .flatten()
    .filter_map(|b| GameRules::from_json(&b).ok())
    .find(|r| r.sha256() == sha)
}
