//! The commissaire's contribution (spec/appliance.md §4.4.1): one grammar for draws and blocks, checked by
//! the appliance when it is typed and by every verifier. It is copied by hand into the signed
//! minutes and typed at a prompt, so the grammar keeps to characters a French keyboard types and
//! a person can copy without ambiguity: every character is precomposed (so the text is its own
//! Unicode NFC form, whatever Unicode version a verifier ships), and none is invisible, a control
//! or a bidirectional or other format character.

/// Fewest characters (Unicode scalar values) a contribution has.
pub const MIN_CHARS: usize = 8;
/// Most characters a contribution has.
pub const MAX_CHARS: usize = 256;

/// Whether `c` may appear in a contribution (spec/formats.md §4.4.1): printable ASCII (U+0020–U+007E),
/// Latin-1 Supplement without the no-break space U+00A0 and the soft hyphen U+00AD
/// (U+00A1–U+00AC, U+00AE–U+00FF), Latin Extended-A (U+0100–U+017F), and the right single
/// quotation mark U+2019 and the euro sign U+20AC.
pub fn allowed(c: char) -> bool {
    matches!(c,
        '\u{20}'..='\u{7e}'
        | '\u{a1}'..='\u{ac}'
        | '\u{ae}'..='\u{17f}'
        | '\u{2019}'
        | '\u{20ac}')
}

/// Why a text is not a contribution, in words for the commissaire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Fewer than [`MIN_CHARS`] or more than [`MAX_CHARS`] characters.
    Length(usize),
    /// A character outside the repertoire of [`allowed`], with its position (from 1).
    Character(char, usize),
    /// A space at the start or the end.
    EdgeSpace,
    /// Two spaces in a row.
    DoubleSpace,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Length(n) => write!(
                f,
                "the contribution has {n} characters; it must have {MIN_CHARS} to {MAX_CHARS}"
            ),
            Refusal::Character(c, at) => write!(
                f,
                "character {at} (U+{:04X}) is not allowed in a contribution: letters, digits, spaces and the punctuation of a French keyboard only",
                u32::from(*c)
            ),
            Refusal::EdgeSpace => write!(f, "the contribution starts or ends with a space"),
            Refusal::DoubleSpace => write!(f, "the contribution has two spaces in a row"),
        }
    }
}

/// Checks `text` against the grammar of spec/formats.md §4.4.1.
pub fn check(text: &str) -> Result<(), Refusal> {
    let n = text.chars().count();
    if !(MIN_CHARS..=MAX_CHARS).contains(&n) {
        return Err(Refusal::Length(n));
    }
    if let Some((i, c)) = text.chars().enumerate().find(|(_, c)| !allowed(*c)) {
        return Err(Refusal::Character(c, i + 1));
    }
    if text.starts_with(' ') || text.ends_with(' ') {
        return Err(Refusal::EdgeSpace);
    }
    if text.contains("  ") {
        return Err(Refusal::DoubleSpace);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn french_phrases_and_dice_are_contributions() {
        for ok in [
            "4 6 1 3 5 2 6 6",
            "Noël à Paris, l’été dernier : 12 €",
            "œuvre «ÇA» ÿ",
            "abcdefgh",
        ] {
            assert_eq!(check(ok), Ok(()), "{ok}");
        }
        assert_eq!(check(&"x".repeat(256)), Ok(()));
    }

    #[test]
    fn invisible_controls_and_lookalikes_are_refused() {
        assert_eq!(check("1234567"), Err(Refusal::Length(7)));
        assert_eq!(check(&"x".repeat(257)), Err(Refusal::Length(257)));
        // A PIN typed at the wrong prompt is still refused when short.
        assert_eq!(check("123456"), Err(Refusal::Length(6)));
        for (bad, c) in [
            ("abc\u{202e}defgh", '\u{202e}'),
            ("abc\u{200b}defgh", '\u{200b}'),
            ("abc\u{a0}defgh", '\u{a0}'),
            ("abc\u{ad}defgh", '\u{ad}'),
            ("abc\tdefgh", '\t'),
            ("abce\u{301}fgh", '\u{301}'),
            ("abc\u{7f}defgh", '\u{7f}'),
            ("abc\u{85}defgh", '\u{85}'),
        ] {
            assert!(
                matches!(check(bad), Err(Refusal::Character(x, 4 | 5)) if x == c),
                "{bad:?}"
            );
        }
        assert_eq!(check(" abcdefgh"), Err(Refusal::EdgeSpace));
        assert_eq!(check("abcdefgh "), Err(Refusal::EdgeSpace));
        assert_eq!(check("abcd  efgh"), Err(Refusal::DoubleSpace));
    }
}
