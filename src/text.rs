//! What the screen says, and how: the language of the texts the commissaire reads (French by
//! default, English with `--lang en` or a `LANG` that starts with `en`), amounts in euros,
//! counts with thousands separators, dates in words, and hashes in groups of four hex digits on
//! lines that fit an 80-column console ([`Screen`]). Error and hint lines stay in English (they
//! are for the operator and the logs); what the commissaire copies or signs is in the sitting's
//! language.
//!
//! Use: `let lang = Lang::resolve(arg)`, then `lang.t("français", "English")` for a text,
//! [`eur`] for an amount, and a [`Screen`] for a page of labelled values:
//!
//! ```
//! use urne::text::{Lang, Screen};
//! let mut s = Screen::new(Lang::Fr);
//! s.hash("Graine du tirage", &"ab".repeat(32));
//! assert!(s.lines().iter().all(|l| l.chars().count() <= 80));
//! ```

use chrono::{Datelike, NaiveDate};

/// The width every screen line fits in: an 80-column console.
pub const WIDTH: usize = 80;

/// How many 4-digit groups a hash line holds (8: 32 hex digits, a SHA-256 on two lines).
const GROUPS_PER_LINE: usize = 8;

/// The indent of a value under its label.
const INDENT: &str = "    ";

pub use crate::msg::{Lang, lang, pause_words, set_lang};

/// Whether this process works on a rehearsal token (spec/appliance.md §6.10): set once the token
/// said so, when it was opened (`Ctx::hsm`).
static REHEARSAL: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Marks this process's screens as a rehearsal's ([`rehearsal_mark`]).
pub fn set_rehearsal() {
    REHEARSAL.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// The mark every screen heading of a rehearsal bears (spec/appliance.md §6.10), in `lang`:
/// `None` off a rehearsal token.
pub fn rehearsal_mark(lang: Lang) -> Option<&'static str> {
    REHEARSAL
        .load(std::sync::atomic::Ordering::Relaxed)
        .then(|| urne_ceremony::minutes::html::rehearsal_mark(lang.core()))
}

/// `n` with thousands separators: `20 000` (French, a no-break space), `20,000` (English).
pub fn count(n: u64, lang: Lang) -> String {
    urne_ceremony::minutes::words::number(n, lang.core())
}

/// An amount in cents, in euros: `5 000,00 €` (French), `€5,000.00` (English).
pub fn eur(cents: u64, lang: Lang) -> String {
    let (euros, rest) = (count(cents / 100, lang), cents % 100);
    match lang {
        Lang::Fr => format!("{euros},{rest:02}\u{a0}€"),
        Lang::En => format!("€{euros}.{rest:02}"),
    }
}

/// A date in words: `11 décembre 2018`, `11 December 2018`.
pub fn date(d: NaiveDate, lang: Lang) -> String {
    urne_ceremony::minutes::words::date(d, lang.core())
}

/// A span of days in words, as short as it reads: `1–24 December 2018`, `28 November – 3
/// December 2018`, `31 December 2018 – 2 January 2019`.
pub fn days(first: NaiveDate, last: NaiveDate, lang: Lang) -> String {
    if first.year() != last.year() {
        format!("{} – {}", date(first, lang), date(last, lang))
    } else if first.month() != last.month() {
        // The first date without its year.
        let first = date(first, lang);
        let no_year = first.rsplit_once(' ').map_or(first.as_str(), |(d, _)| d);
        format!("{no_year} – {}", date(last, lang))
    } else {
        format!("{}–{}", first.day(), date(last, lang))
    }
}

/// `hex` in groups of four characters, separated by spaces: `ab12 cd34 …`.
pub fn groups(hex: &str) -> String {
    let chars: Vec<char> = hex.chars().collect();
    chars
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `hex` in groups of four, [`GROUPS_PER_LINE`] groups a line.
pub fn hash_lines(hex: &str) -> Vec<String> {
    let chars: Vec<char> = hex.chars().collect();
    chars
        .chunks(4 * GROUPS_PER_LINE)
        .map(|c| groups(&c.iter().collect::<String>()))
        .collect()
}

/// `text` cut into lines of at most `width` characters, at spaces where it can be (a word
/// longer than the line is cut where it must).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![];
    let mut line = String::new();
    for word in text.split(' ') {
        let mut word: Vec<char> = word.chars().collect();
        while word.len() > width {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            lines.push(word.drain(..width).collect());
        }
        let word: String = word.into_iter().collect();
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// What an attempt's entropy commitment is shown under: `jour du 2018-12-01 tentative 1
/// (événement d'audit n° 17)` / `day 2018-12-01 attempt 1 (audit event #17)`, `what` being the
/// subject's noun in French and English (`("jour du", "day")`, `("bloc", "block")`).
pub fn attempt_label(
    what: (&str, &str),
    subject: &dyn std::fmt::Display,
    attempt: urne_verify::values::Attempt,
    seq: u64,
) -> String {
    let lang = lang();
    format!(
        "{} {subject} {} {attempt} ({}{seq})",
        lang.t(what.0, what.1),
        lang.t("tentative", "attempt"),
        lang.t("événement d'audit n°\u{a0}", "audit event #")
    )
}

/// The label of a seal's commitment, as the screens of the seal and of the draw print it.
pub fn commitment_label(seq: u64, lang: Lang) -> String {
    format!(
        "{} ({} {})",
        lang.t(
            "Engagement : racine de Merkle des participations, scellée",
            "Commitment: Merkle root of the entries, sealed"
        ),
        lang.t("événement d'audit", "audit event"),
        number(seq, lang)
    )
}

/// "n° 12" (French, a no-break space) or "no. 12" (English).
pub fn number(n: impl std::fmt::Display, lang: Lang) -> String {
    match lang {
        Lang::Fr => format!("n°\u{a0}{n}"),
        Lang::En => format!("no. {n}"),
    }
}

/// A page for the screen: headings, labelled values and hashes, every line within [`WIDTH`]
/// columns, each value printed once under the label the minutes give it.
#[derive(Debug)]
pub struct Screen {
    /// The page's language.
    pub lang: Lang,
    lines: Vec<String>,
    /// Where each group of lines begins (a heading and what follows it, up to the next):
    /// printed in one piece, so that a paced console shows it whole (spec/appliance.md §9.4).
    groups: Vec<usize>,
    /// Every hash printed so far, with its label: a value is printed once.
    printed: Vec<(String, String)>,
}

impl Screen {
    /// An empty page in `lang`.
    pub fn new(lang: Lang) -> Screen {
        Screen {
            lang,
            lines: vec![],
            groups: vec![],
            printed: vec![],
        }
    }

    /// A line of text, wrapped to the width.
    pub fn line(&mut self, text: &str) {
        self.lines.extend(wrap(text, WIDTH));
    }

    /// A line laid out by the caller (columns of a table), kept as it is when it fits the
    /// width, wrapped otherwise.
    pub fn laid_out(&mut self, line: &str) {
        if line.chars().count() <= WIDTH {
            self.lines.push(line.to_string());
        } else {
            self.line(line);
        }
    }

    /// A line of text indented by `indent` spaces, wrapped under itself.
    pub fn indented(&mut self, indent: usize, text: &str) {
        let pad = " ".repeat(indent);
        for l in wrap(text, WIDTH - indent) {
            self.lines.push(format!("{pad}{l}"));
        }
    }

    /// An empty line, then a heading: a new group of lines.
    pub fn heading(&mut self, text: &str) {
        self.groups.push(self.lines.len());
        if !self.lines.is_empty() {
            self.lines.push(String::new());
        }
        self.line(text);
    }

    /// The heading of the values the commissaire writes by hand at this moment, because no
    /// later print can show they were on the screen then (the entropy commitment before the
    /// contribution, the winner as drawn: spec/appliance.md §9.4), and `why` under it when given.
    pub fn by_hand(&mut self, why: &str) {
        self.kind_of_values(crate::msg::catalogue::SCR_BY_HAND.words(self.lang), why);
    }

    /// The heading of the values the commissaire checks on the printed minutes, where they
    /// tick each (nothing to copy: spec/appliance.md §9.4), and `why` under it when given.
    pub fn to_check(&mut self, why: &str) {
        self.kind_of_values(crate::msg::catalogue::SCR_TO_CHECK.words(self.lang), why);
    }

    /// The heading of what is shown for information only (spec/appliance.md §9.4), and `why`
    /// under it when given.
    pub fn for_information(&mut self, why: &str) {
        self.kind_of_values(
            crate::msg::catalogue::SCR_FOR_INFORMATION.words(self.lang),
            why,
        );
    }

    /// A heading of values, the rehearsal's mark beside it.
    fn kind_of_values(&mut self, title: &str, why: &str) {
        match rehearsal_mark(self.lang) {
            Some(mark) => self.heading(&format!("{title} — {mark}")),
            None => self.heading(title),
        }
        if !why.is_empty() {
            self.indented(2, why);
        }
    }

    /// A short value on its label's line when both fit (label padded to 40 columns), else the
    /// value wrapped under its label.
    pub fn field(&mut self, label: &str, value: &str) {
        let (l, v) = (label.chars().count(), value.chars().count());
        if l <= 38 && 2 + 40 + v <= WIDTH {
            self.lines.push(format!("  {label:<40}{value}"));
        } else {
            self.indented(2, label);
            self.indented(INDENT.len() + 2, value);
        }
    }

    /// A hash (or any hex value) under its label, in groups of four digits, two lines for a
    /// SHA-256; a value already on the page is not printed again: the label then names the one
    /// it is the same as.
    pub fn hash(&mut self, label: &str, hex: &str) {
        if let Some((_, first)) = self.printed.iter().find(|(h, _)| h == hex) {
            let same = format!(
                "{label} : {} « {first} »",
                self.lang.t("le même que", "the same as")
            );
            self.indented(2, &same);
            return;
        }
        self.printed.push((hex.to_string(), label.to_string()));
        self.indented(2, label);
        for l in hash_lines(hex) {
            self.lines.push(format!("  {INDENT}{l}"));
        }
    }

    /// The page's lines.
    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    /// The page's groups of lines: each heading with what follows it, up to the next.
    pub fn groups(&self) -> Vec<&[String]> {
        let mut starts = vec![0];
        starts.extend(self.groups.iter().copied().filter(|&g| g > 0));
        starts.push(self.lines.len());
        starts.dedup();
        starts.windows(2).map(|w| &self.lines[w[0]..w[1]]).collect()
    }

    /// The page as its writes: each group of lines as one piece (a paced console pauses before
    /// it rather than inside it: a heading is never left on the screen before its values), a
    /// group longer than a screen line by line.
    pub fn pieces(&self) -> Vec<String> {
        let mut out = vec![];
        for g in self.groups() {
            // The longest group printed in one piece is what the console shows whole; longer,
            // a group is printed line by line.
            if g.len() <= crate::out::whole_lines() {
                out.push(g.join("\n"));
            } else {
                out.extend(g.iter().cloned());
            }
        }
        out
    }

    /// Writes the page to standard output.
    pub fn print(&self) {
        for p in self.pieces() {
            say!("{p}");
        }
    }

    /// Writes the page to standard error (what a command says on the way, before its result).
    pub fn note(&self) {
        for p in self.pieces() {
            note!("{p}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn amounts_are_in_euros_in_either_language() {
        assert_eq!(eur(500, Lang::Fr), "5,00\u{a0}€");
        assert_eq!(eur(500, Lang::En), "€5.00");
        assert_eq!(eur(500_000, Lang::Fr), "5\u{202f}000,00\u{a0}€");
        assert_eq!(eur(123_456_789, Lang::En), "€1,234,567.89");
        assert_eq!(eur(5, Lang::En), "€0.05");
        assert_eq!(count(999, Lang::En), "999");
        assert_eq!(count(1000, Lang::En), "1,000");
        assert_eq!(count(0, Lang::Fr), "0");
    }

    #[test]
    fn the_language_is_french_unless_english_is_asked_for() {
        assert_eq!(Lang::from_env(None), Lang::Fr);
        assert_eq!(Lang::from_env(Some("fr_FR.UTF-8")), Lang::Fr);
        assert_eq!(Lang::from_env(Some("C.UTF-8")), Lang::Fr);
        assert_eq!(Lang::from_env(Some("en_GB.UTF-8")), Lang::En);
        assert_eq!(Lang::resolve(Some(Lang::En)), Lang::En);
        assert_eq!(Lang::En.t("oui", "yes"), "yes");
    }

    #[test]
    fn dates_and_spans_of_days_read_as_words() {
        assert_eq!(date(d("2018-12-11"), Lang::Fr), "11 décembre 2018");
        assert_eq!(
            days(d("2018-12-01"), d("2018-12-24"), Lang::En),
            "1–24 December 2018"
        );
        assert_eq!(
            days(d("2018-11-28"), d("2018-12-03"), Lang::Fr),
            "28 novembre – 3 décembre 2018"
        );
        assert_eq!(
            days(d("2018-12-31"), d("2019-01-02"), Lang::En),
            "31 December 2018 – 2 January 2019"
        );
    }

    #[test]
    fn hashes_are_in_groups_of_four_two_lines_for_a_sha256() {
        let h = "0123456789abcdef".repeat(4);
        assert_eq!(groups("0123456789"), "0123 4567 89");
        let lines = hash_lines(&h);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0], "0123 4567 89ab cdef 0123 4567 89ab cdef");
        assert_eq!(hash_lines(&"a".repeat(96)).len(), 3);
        // Each digit once, in order.
        assert_eq!(lines.concat().replace(' ', ""), h);
    }

    #[test]
    fn every_line_of_a_screen_fits_80_columns() {
        let mut s = Screen::new(Lang::Fr);
        s.heading(&"Un titre très long ".repeat(10));
        s.field("Mises enregistrées dans l'export", "20\u{a0}000");
        s.field(&"Un libellé plus long que la colonne ".repeat(2), "valeur");
        s.field("court", &"une valeur très longue ".repeat(6));
        s.hash(
            "Engagement sur l'aléa du HSM, fixé avant la contribution (événement d'audit n° 12)",
            &"f".repeat(96),
        );
        s.line(&"x".repeat(200));
        for l in s.lines() {
            assert!(l.chars().count() <= WIDTH, "{l:?}");
        }
        assert!(
            s.lines()
                .iter()
                .any(|l| l == "  Mises enregistrées dans l'export        20\u{a0}000")
        );
        assert_eq!(wrap("", 10), vec![String::new()]);
        // A value is printed once; the second label names the first.
        let mut s = Screen::new(Lang::En);
        s.hash("rules (SHA-256)", &"ab".repeat(32));
        s.hash("rules.json", &"ab".repeat(32));
        assert_eq!(s.lines().len(), 4);
        assert_eq!(
            s.lines()[3],
            "  rules.json : the same as « rules (SHA-256) »"
        );
        assert_eq!(number(12, Lang::Fr), "n°\u{a0}12");
        assert_eq!(wrap("ab cd ef", 5), vec!["ab cd", "ef"]);
        let mut s = Screen::new(Lang::Fr);
        s.by_hand("");
        s.to_check("");
        assert_eq!(
            s.lines(),
            [
                "▶ À ÉCRIRE À LA MAIN, MAINTENANT",
                "",
                "[ ] À VÉRIFIER SUR LES MINUTES IMPRIMÉES"
            ]
        );
    }

    #[test]
    fn the_process_language_is_the_one_set_else_the_environments() {
        // The only test that sets it (tests run in threads of one process).
        set_lang(Lang::En);
        assert_eq!(lang(), Lang::En);
        set_lang(Lang::Fr);
        assert_eq!(lang(), Lang::Fr);
    }
}
