//! Nobody chooses (spec/formats.md §3, §4.4.1, §5.B3), the part draws and blocks share: the HSM's
//! entropy requested once, health-checked and compared with every entropy the trail has seen
//! (a refusal is recorded, never used); kept in a blob until its use; its commitment recorded
//! and shown *before* the commissaire's contribution exists; then the contribution typed at the
//! terminal (never on the command line, in a file or in the environment, which exist before the
//! entropy is fixed), shown back, confirmed, and kept durably before anything else happens.

use super::ctx::Ctx;
use crate::error::{Error, Kind, Result};
use crate::msg::catalogue as m;
use crate::msg::catalogue::cmd as mc;
use std::io::{BufRead, IsTerminal};
use urne_ceremony::sealed::SealedBox;
use urne_verify::audit::Event;
use urne_verify::crypto::Hash32;
use urne_verify::draw::files::RefusedEntropy;
use urne_verify::events::kinds::{self, Record};
use urne_verify::events::payloads::EntropyRefused;
use urne_verify::randomness::fixed::{Fixed, FixedEvent};
use urne_verify::randomness::{contribution, entropy_commitment};
use urne_verify::values::Attempt;

/// Bytes of HSM entropy per draw or block: 384 bits (spec/appliance.md §3.1).
pub const ENTROPY_BYTES: usize = 48;

/// How often a contribution that does not follow the grammar may be typed again.
const TRIES: usize = 3;

/// Refuses, before any entropy is requested, a command that will need the commissaire's
/// contribution when standard input is not a terminal: the contribution is typed at the
/// appliance's console, never read from a pipe, a file or the command line (spec/appliance.md §4.4.1).
pub fn need_terminal() -> Result<()> {
    need_terminal_for(
        &crate::msg!(mc::ERR_RANDOMNESS_TERMINAL),
        &crate::msg!(mc::REC_RANDOMNESS_TERMINAL),
    )
}

/// Refused (exit 2) unless standard input is a terminal: `what` is typed there, `hint` says how.
pub fn need_terminal_for(what: &str, hint: &str) -> Result<()> {
    if std::io::stdin().is_terminal() {
        return Ok(());
    }
    Err(Error::new(Kind::NotATerminal, what, hint))
}

/// Fresh entropy for `purpose` (`day YYYY-MM-DD` or `block <id>`) at `attempt`: requested once
/// from the token; refused, recorded as `entropy.refused` and never used when it fails the
/// health check or its commitment is one the trail has seen (draws, blocks and refusals alike,
/// spec/appliance.md §3.1); then the command stops (exit 3), and the next run asks the token again, which
/// is safe because no contribution exists yet.
pub fn fresh_entropy(
    ctx: &mut Ctx,
    events: &[Event],
    purpose: &str,
    attempt: Attempt,
) -> Result<Vec<u8>> {
    let seen = urne_ceremony::state::entropy_hashes(events)
        .map_err(|m| super::inputs::altered(&m.to_string()))?;
    let (log, hsm) = ctx.both()?;
    let entropy = hsm.random_unchecked(ENTROPY_BYTES)?;
    let ec = entropy_commitment(&entropy);
    // The reason as the trail records it, and in the screens' language.
    let why = match crate::edge::hsm::entropy_fault(&entropy, &[]) {
        Some(fault) => Some((
            crate::edge::hsm::health_words(fault, crate::msg::Lang::En),
            crate::edge::hsm::health_words(fault, crate::msg::lang()),
        )),
        None if seen.contains(&ec) => Some((
            mc::ERR_RANDOMNESS_WHY_SEEN
                .words(crate::msg::Lang::En)
                .to_string(),
            crate::msg!(mc::ERR_RANDOMNESS_WHY_SEEN),
        )),
        None => None,
    };
    let Some((reason, shown)) = why else {
        return Ok(entropy);
    };
    log.record_evidence(
        hsm,
        EntropyRefused {
            purpose: purpose.to_string(),
            attempt: attempt.get(),
            entropy_commitment: ec,
            reason: reason.clone(),
        },
    )?;
    let message = if let Some(day) = purpose.strip_prefix("day ") {
        crate::msg!(
            mc::ERR_RANDOMNESS_REFUSED_DAY,
            day = day,
            reason = shown,
            ec = ec
        )
    } else if let Some(block) = purpose.strip_prefix("block ") {
        crate::msg!(
            mc::ERR_RANDOMNESS_REFUSED_BLOCK,
            block = block,
            reason = shown,
            ec = ec
        )
    } else {
        crate::msg!(
            mc::ERR_RANDOMNESS_REFUSED,
            purpose = purpose,
            reason = shown,
            ec = ec
        )
    };
    Err(Error::new(
        Kind::EntropyRefused,
        message,
        crate::msg!(mc::REC_RANDOMNESS_REFUSED),
    ))
}

/// The evidence an output carries of its randomness (spec/appliance.md §3.1, spec/formats.md §3.3), draws and blocks
/// alike: the entropy's and the contribution's events (`entropy_seq`, `contribution_seq`) with
/// their inclusion proofs in the tree of every event so far (the output's checkpoint covers them
/// all: every append signs one), and the refused entropy requests of `purpose` at `attempt`.
pub fn evidence(
    events: &[Event],
    (purpose, attempt): (&str, Attempt),
    (entropy_seq, contribution_seq): (u64, u64),
) -> Result<(Fixed, Vec<RefusedEntropy>)> {
    let hashes: Vec<Hash32> = events.iter().map(|ev| ev.hash).collect();
    let at = |seq: u64| {
        events
            .get(usize::try_from(seq).unwrap_or(usize::MAX).wrapping_sub(1))
            .filter(|ev| ev.seq == seq)
            .ok_or_else(|| {
                super::inputs::altered(&crate::msg!(mc::ERR_RANDOMNESS_EVENT_MISSING, seq = seq))
            })
    };
    let fixed = Fixed {
        entropy: FixedEvent::of(at(entropy_seq)?, &hashes),
        contribution: FixedEvent::of(at(contribution_seq)?, &hashes),
    };
    let refused = events
        .iter()
        .filter_map(|ev| match kinds::parse(ev) {
            Ok(Record::EntropyRefused(r)) if r.purpose == purpose && r.attempt == attempt => {
                Some(RefusedEntropy {
                    audit_seq: ev.seq,
                    entropy_commitment: r.entropy_commitment,
                    reason: r.reason,
                })
            }
            _ => None,
        })
        .collect();
    Ok((fixed, refused))
}

/// The entropy of `purpose` (`day D attempt N`, `block ID attempt N`) recorded in the blob
/// `blob`: opened by the token (spec/appliance.md §3.4, §6.9) and checked against its commitment `ec`.
pub fn recorded_entropy(
    ctx: &mut Ctx,
    purpose: &str,
    blob: &Hash32,
    ec: &Hash32,
) -> Result<Vec<u8>> {
    let bytes = ctx.audit()?.blob(blob)?;
    let sealed = SealedBox::from_bytes(&bytes).map_err(|e| {
        super::inputs::altered(&crate::msg!(
            mc::ERR_RANDOMNESS_NOT_BOX,
            purpose = purpose,
            e = e
        ))
    })?;
    let aad = entropy_aad(ctx, purpose)?;
    let entropy = ctx.hsm()?.unseal(&aad, &sealed)?;
    if entropy_commitment(&entropy) != *ec {
        return Err(super::inputs::altered(&crate::msg!(
            mc::ERR_RANDOMNESS_NOT_COMMITTED
        )));
    }
    Ok(entropy)
}

/// The entropy of `purpose` as kept beside the events: a box sealed by the token's sealing key
/// (AES-256-GCM, the trail and the purpose as additional data: spec/appliance.md §3.4, §6.9), so nothing
/// on the appliance's disk gives it away.
pub fn stored_form(ctx: &mut Ctx, purpose: &str, entropy: &[u8]) -> Result<Vec<u8>> {
    let aad = entropy_aad(ctx, purpose)?;
    Ok(ctx.hsm()?.seal(&aad, entropy)?.to_bytes())
}

/// The additional data of an entropy's box: `<purpose> entropy` under the trail's identity.
fn entropy_aad(ctx: &mut Ctx, purpose: &str) -> Result<Vec<u8>> {
    let trail = ctx.audit()?.trail().ok_or_else(|| {
        Error::new(
            Kind::Defect,
            crate::msg!(mc::ERR_RANDOMNESS_UNCHECKED),
            crate::msg!(crate::msg::catalogue::edge::REC_DEFECT_REPORT),
        )
    })?;
    urne_ceremony::sealed::aad(&trail, &format!("{purpose} entropy")).map_err(|e| {
        Error::new(
            Kind::Defect,
            crate::msg!(mc::ERR_RANDOMNESS_PURPOSE, purpose = format!("{:?}", e.0)),
            crate::msg!(crate::msg::catalogue::edge::REC_DEFECT_NOTHING_RECORDED),
        )
    })
}

/// The commissaire's contribution for each `(purpose, entropy commitment)` of `keys` (a draw's
/// attempt, or each block of a generation), after those commitments were recorded: typed now at the terminal, shown back and confirmed, and kept durably before this
/// returns (and so before any computation or PKCS#11 call that follows). When an interrupted
/// run had kept one, the one typed now must be that one (exit 4 otherwise): the outcome was
/// fixed when it was kept, and the kept copy is never trusted without the commissaire.
pub fn take_contribution(
    ctx: &mut Ctx,
    keys: &[(String, Hash32)],
    shown: &[(String, Hash32)],
) -> Result<String> {
    need_terminal()?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut kept: Vec<String> = vec![];
    for (purpose, ec) in keys {
        if let Some(k) = ctx.audit()?.kept_contribution(purpose, ec)?
            && !kept.contains(&k)
        {
            kept.push(k);
        }
    }
    if !kept.is_empty() {
        // Never shown to be confirmed: the database is not the commissaire's, and what it
        // keeps could have been rewritten. The commissaire types it again from the minutes.
        let lang = crate::text::lang();
        note!(
            "{}",
            lang.t(
                "Le tirage interrompu avant celui-ci avait déjà pris et conservé la contribution du commissaire de justice.",
                "The run interrupted before this one had taken and kept the commissaire's contribution."
            )
        );
        note!(
            "{}",
            lang.t(
                "Commissaire : tapez-la de nouveau, exactement telle que vous l'avez écrite aux minutes.",
                "Commissaire: type it again exactly as you wrote it in the minutes."
            )
        );
        show_commitments(shown);
        type_back(&mut input, shown)?;
        let typed = type_contribution(&mut input)?;
        if kept.len() > 1 || typed != kept[0] {
            return Err(Error::new(
                Kind::ContributionDiffers,
                crate::msg!(mc::ERR_RANDOMNESS_DIFFERS),
                crate::msg!(mc::REC_RANDOMNESS_DIFFERS),
            ));
        }
        return Ok(typed);
    }
    show_commitments(shown);
    type_back(&mut input, shown)?;
    let c = type_contribution(&mut input)?;
    for (purpose, ec) in keys {
        ctx.audit()?.keep_contribution(purpose, ec, &c)?;
    }
    Ok(c)
}

/// The entropy commitments, for the commissaire to copy before typing anything: marked as
/// what is copied, labelled as the minutes label them, in groups of four.
fn show_commitments(shown: &[(String, Hash32)]) {
    let lang = crate::text::lang();
    let mut s = crate::text::Screen::new(lang);
    s.by_hand(lang.t(
        "L'aléa du HSM est fixé. Commissaire : écrivez à la main son engagement (SHA-256, par groupes de 4) avant de rien taper ; il prouve que l'aléa existait avant votre contribution.",
        "The HSM's entropy is fixed. Commissaire: write its commitment by hand (SHA-256, in groups of 4) before typing anything; it proves the entropy existed before your contribution.",
    ));
    for (what, ec) in shown {
        let label = format!(
            "{} — {what}",
            lang.t(
                "Engagement sur l'aléa du HSM, fixé avant la contribution",
                "Commitment to the HSM's entropy, fixed before the contribution"
            )
        );
        s.hash(&label, &ec.to_string());
    }
    note!();
    s.note();
}

/// The commissaire types back the first 8 characters (two groups) of the (first) entropy
/// commitment shown before typing the contribution: nothing typed before the commitment existed
/// can hold it, so text typed ahead on the terminal (before the entropy was fixed) is never
/// taken for the contribution (spec/appliance.md §4.4.1). Spaces are ignored. Three tries.
fn type_back(input: &mut impl BufRead, shown: &[(String, Hash32)]) -> Result<()> {
    let Some((first, ec)) = shown.first() else {
        return Ok(());
    };
    let lang = crate::text::lang();
    let want = ec.to_string()[..8].to_string();
    for _ in 0..TRIES {
        if shown.len() > 1 {
            // Several commitments on screen (a generation's blocks): the one typed back is
            // named, the first shown, by its block and attempt.
            note!(
                "{}",
                lang.t(
                    "Commissaire : pour attester qu'ils étaient à l'écran avant toute saisie,",
                    "Commissaire: to show they were on screen before anything was typed,"
                )
            );
            note!(
                "{}\n  {first}\n{}",
                lang.t(
                    "prenez le PREMIER engagement ci-dessus, celui du",
                    "take the FIRST commitment above, that of the"
                ),
                lang.t(
                    "et tapez ses 8 premiers caractères (ses deux premiers groupes), puis Entrée :",
                    "and type its first 8 characters (its first two groups), then Enter:"
                )
            );
        } else {
            note!(
                "{}",
                lang.t(
                    "Commissaire : pour attester que l'engagement était à l'écran avant toute saisie,",
                    "Commissaire: to show the commitment was on screen before anything was typed,"
                )
            );
            note!(
                "{}",
                lang.t(
                    "tapez ses 8 premiers caractères (ses deux premiers groupes), puis Entrée :",
                    "type its first 8 characters (its first two groups), then Enter:"
                )
            );
        }
        let typed: String = read_line(input)?.split_whitespace().collect();
        if typed.eq_ignore_ascii_case(&want) {
            return Ok(());
        }
        if shown.len() > 1 {
            note!(
                "  {} {first}",
                lang.t(
                    "refusé : ce ne sont pas les 8 premiers caractères de l'engagement du",
                    "refused: those are not the first 8 characters of the commitment of"
                )
            );
        } else {
            note!(
                "  {}",
                lang.t(
                    "refusé : ce ne sont pas les 8 premiers caractères de l'engagement",
                    "refused: those are not the commitment's first 8 characters"
                )
            );
        }
    }
    Err(Error::new(
        Kind::NotConfirmed,
        crate::msg!(mc::ERR_RANDOMNESS_NOT_TYPED_BACK),
        crate::msg!(mc::REC_RANDOMNESS_NOT_TYPED_BACK),
    ))
}

/// Hex in groups of 4, 8 groups to a line (a SHA-256 on two lines within an 80-column console),
/// the lines joined by a line feed.
pub fn grouped(hex: &str) -> String {
    crate::text::hash_lines(hex).join("\n")
}

/// Reads the contribution, checks its grammar (three tries), shows it back and asks for
/// confirmation (a "non" types it again). The prompt names the commissaire and the
/// contribution, never a code: the operator's PIN prompt is the operator's, and comes first.
fn type_contribution(input: &mut impl BufRead) -> Result<String> {
    let lang = crate::text::lang();
    let mut refused = 0;
    loop {
        note!();
        note!(
            "{}",
            lang.t(
                "CONTRIBUTION DU COMMISSAIRE DE JUSTICE",
                "CONTRIBUTION OF THE COMMISSAIRE DE JUSTICE"
            )
        );
        note!(
            "{}",
            lang.t(
                "(ce n'est pas le code PIN : elle s'affiche en clair et figurera aux minutes)",
                "(not the PIN: it is shown as typed and will be in the minutes)"
            )
        );
        note!("{}", crate::msg!(m::SCR_CONTRIBUTION_BY_HAND));
        let (min, max) = (contribution::MIN_CHARS, contribution::MAX_CHARS);
        note!(
            "{}",
            match lang {
                crate::text::Lang::Fr => format!(
                    "Commissaire : tapez votre contribution ({min} à {max} caractères : dés, phrase),"
                ),
                crate::text::Lang::En => format!(
                    "Commissaire: type your contribution ({min} to {max} characters: dice, a phrase),"
                ),
            }
        );
        note!("{}", lang.t("puis Entrée :", "then Enter:"));
        let line = read_line(input)?;
        if let Err(refusal) = contribution::check(&line) {
            refused += 1;
            let why = refusal_words(&refusal);
            note!("  {}", crate::msg!(m::SCR_CONTRIBUTION_REFUSED, why = why));
            if refused >= TRIES {
                return Err(Error::new(
                    Kind::NoValidAnswer,
                    crate::msg!(m::ERR_CONTRIBUTION_TRIES, tries = TRIES, why = why),
                    crate::msg!(m::REC_CONTRIBUTION_TRIES),
                ));
            }
            continue;
        }
        let n = line.chars().count();
        let typed = match lang {
            crate::text::Lang::Fr => {
                format!("Vous avez tapé : «\u{a0}{line}\u{a0}» ({n} caractères).")
            }
            crate::text::Lang::En => format!("You typed: «{line}» ({n} characters)."),
        };
        for l in crate::text::wrap(&typed, crate::text::WIDTH) {
            note!("{l}");
        }
        if confirm(
            input,
            lang.t(
                "Est-ce exactement la contribution que vous avez écrite aux minutes ?",
                "Is this exactly the contribution you wrote in the minutes?",
            ),
        )? {
            return Ok(line);
        }
    }
}

/// Asks a yes/no question; `oui` (or `yes`) is yes, `non` (or `no`) is no; asked again otherwise.
fn confirm(input: &mut impl BufRead, question: &str) -> Result<bool> {
    let lang = crate::text::lang();
    loop {
        note!("{question}");
        note!(
            "{}",
            lang.t(
                "Tapez oui ou non, puis Entrée :",
                "Type yes or no, then Enter:"
            )
        );
        match read_line(input)?.trim().to_lowercase().as_str() {
            "oui" | "yes" => return Ok(true),
            "non" | "no" => return Ok(false),
            _ => note!(
                "  {}",
                lang.t("répondez oui ou non", "please answer yes or no")
            ),
        }
    }
}

/// One line typed at the terminal (`super::confirm::read_line`); a terminal closed before it is
/// `terminal-closed`, the entropy recorded kept.
/// Why a contribution is refused, in the screens' language (spec/formats.md §4.4.1).
fn refusal_words(r: &contribution::Refusal) -> String {
    use contribution::Refusal;
    match r {
        Refusal::Length(n) => crate::msg!(
            m::SCR_CONTRIBUTION_LENGTH,
            n = n,
            min = contribution::MIN_CHARS,
            max = contribution::MAX_CHARS
        ),
        Refusal::Character(c, at) => crate::msg!(
            m::SCR_CONTRIBUTION_CHARACTER,
            at = at,
            code = format!("{:04X}", u32::from(*c))
        ),
        Refusal::EdgeSpace => crate::msg!(m::SCR_CONTRIBUTION_EDGE_SPACE),
        Refusal::DoubleSpace => crate::msg!(m::SCR_CONTRIBUTION_DOUBLE_SPACE),
    }
}

fn read_line(input: &mut impl BufRead) -> Result<String> {
    super::confirm::read_line(input, || {
        Error::new(
            Kind::TerminalClosed,
            crate::msg!(mc::ERR_RANDOMNESS_CLOSED),
            crate::msg!(mc::REC_RANDOMNESS_CLOSED),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_grouped_for_an_80_column_console() {
        let h = "0123456789abcdef".repeat(4);
        assert_eq!(
            grouped(&h),
            "0123 4567 89ab cdef 0123 4567 89ab cdef\n0123 4567 89ab cdef 0123 4567 89ab cdef"
        );
    }

    #[test]
    fn the_commitment_is_typed_back_before_the_contribution() {
        let ec = Hash32([0xab; 32]);
        let shown = [("day".to_string(), ec)];
        let mut i = std::io::Cursor::new("typed ahead 4 2 6\noui\nABAB ABAB\n");
        assert!(type_back(&mut i, &shown).is_ok(), "third try");
        let mut i = std::io::Cursor::new("typed ahead 4 2 6\noui\nx\nabababab\n");
        assert!(type_back(&mut i, &shown).is_err(), "three wrong tries");
    }

    #[test]
    fn a_contribution_is_confirmed_or_typed_again() {
        let mut i =
            std::io::Cursor::new("short\n6 2 5 1 4 4 3 6\nnon\nla lune est pleine\nmaybe\noui\n");
        assert_eq!(type_contribution(&mut i).unwrap(), "la lune est pleine");
        let mut i = std::io::Cursor::new("a\nb\nc\n");
        assert!(type_contribution(&mut i).is_err());
        let mut i = std::io::Cursor::new("6 2 5 1 4 4 3 6\n");
        assert_eq!(
            type_contribution(&mut i).map_err(|e| e.kind),
            Err(Kind::TerminalClosed),
            "closed before confirmation"
        );
    }
}
