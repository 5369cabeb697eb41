//! Production's keys typed by the commissaire (spec/appliance.md §4.1.0, §9.1): the keys a seal will trust
//! are pinned in the trail only once the commissaire has typed their ids from production's
//! written statement, and the ids typed are exactly those of the key files given (the
//! `--producer-key` files production handed over, else the configuration's). The ids are not
//! shown before they are typed: a key file is never trusted on its own word, nor on the screen's.

use crate::cmd::ctx::Ctx;
use crate::cmd::inputs::{self, altered};
use crate::cmd::term::{self, Lang};
use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::cmd as mc;
use urne_ceremony::state::Trail;
use urne_verify::events::payloads::ProducerKeys;

/// At the key ceremony: when the trail pins none, production's keys given (else the
/// configuration's) are pinned once the commissaire typed their ids; a trail that pins them
/// already (a key ceremony taken up again after its pin) is left as it is, and keys given that
/// are not the ones pinned are refused (exit 4).
pub fn at_key_ceremony(ctx: &mut Ctx, given: &[std::path::PathBuf], lang: Lang) -> Result<()> {
    let events = ctx.audit()?.events()?;
    let trail = Trail::from_events(&events).map_err(|m| altered(&m.to_string()))?;
    if let Some(pinned) = trail.producer_keys() {
        let ids = pinned.ids();
        if !given.is_empty()
            && inputs::key_set(ctx, given)?
                .iter()
                .any(|k| !ids.contains(&k.key_id))
        {
            return Err(Error::new(
                Kind::ProducerKeysPinned,
                crate::msg!(mc::ERR_PRODUCER_OTHER, keys = inputs::pin_words(&ids)),
                crate::msg!(mc::REC_PRODUCER_OTHER),
            ));
        }
        return Ok(());
    }
    let none_configured = given.is_empty() && ctx.config()?.producer_keys.is_empty();
    if none_configured {
        note!(
            "{}",
            lang.t(
                "Attention : aucune clé de production n'est donnée (--producer-key) ; aucun scellé ne sera possible avant `urne keys producer`.",
                "Warning: no key of production's is given (--producer-key); no seal is possible before `urne keys producer`."
            )
        );
        return Ok(());
    }
    let record = ProducerKeys {
        keys: inputs::key_set(ctx, given)?,
        previous: vec![],
    };
    typed_ids(lang, &record.ids())?;
    ctx.record(record)?;
    Ok(())
}

/// The commissaire types the ids of production's keys from its written statement, one a line,
/// an empty line to finish (three tries): the set typed must be `want`, the ids of the key files
/// to pin, else nothing is pinned (exit 4).
pub fn typed_ids(lang: Lang, want: &[urne_verify::values::KeyId]) -> Result<()> {
    let mut want: Vec<String> = want.iter().map(ToString::to_string).collect();
    want.sort();
    for _ in 0..3 {
        note!(
            "{}\n{}",
            lang.t(
                "Commissaire : identifiant de la clé de production, ou de chacune,",
                "Commissaire: the id of production's key, or of each,"
            ),
            lang.t(
                "selon sa déclaration écrite (16 caractères), un par ligne, puis Entrée sur une ligne vide :",
                "as production states it in writing (16 characters), one a line, then Enter on an empty line:"
            )
        );
        let mut typed = vec![];
        loop {
            let line: String = term::read_line(lang)?
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect::<String>()
                .to_ascii_lowercase();
            if line.is_empty() {
                break;
            }
            typed.push(line);
        }
        typed.sort();
        typed.dedup();
        if typed == want {
            for id in &want {
                note!(
                    "  {} {}",
                    lang.t(
                        "conforme : clé de production épinglée",
                        "as stated: production's key pinned"
                    ),
                    crate::text::groups(id)
                );
            }
            return Ok(());
        }
        note!(
            "  {}",
            lang.t(
                "refusé : ces identifiants ne sont pas ceux des clés de production données",
                "refused: these ids are not those of the keys of production's given"
            )
        );
    }
    Err(Error::new(
        Kind::ProducerIdsMismatch,
        crate::msg!(mc::ERR_PRODUCER_IDS),
        crate::msg!(mc::REC_PRODUCER_IDS),
    ))
}
