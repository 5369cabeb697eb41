//! How the minutes write dates, numbers, amounts and hashes (spec/appliance.md §9.2): dates and times in
//! words in the rules' time zone (`le 11 décembre 2018 à 10 h 02`), numbers with a narrow
//! no-break space between thousands (`1 234 567`), amounts in euros (`5 000 €`), hashes in
//! groups of four hex digits.

use super::Lang;
use chrono::{DateTime, Datelike, NaiveDate, Timelike, Utc};
use chrono_tz::Tz;

/// The narrow no-break space French typography puts between groups of thousands.
pub const THIN: char = '\u{202f}';
/// The no-break space before a unit (`€`).
pub const NBSP: char = '\u{a0}';

const MOIS: [&str; 12] = [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A date in words: `1er décembre 2018`, `11 décembre 2018`; `11 December 2018`.
pub fn date(d: NaiveDate, lang: Lang) -> String {
    let m = d.month0() as usize;
    match lang {
        Lang::Fr if d.day() == 1 => format!("1er {} {}", MOIS[m], d.year()),
        Lang::Fr => format!("{} {} {}", d.day(), MOIS[m], d.year()),
        Lang::En => format!("{} {} {}", d.day(), MONTHS[m], d.year()),
    }
}

/// A day in words.
pub fn day_of(d: urne_verify::values::Day, lang: Lang) -> String {
    date(d.date(), lang)
}

/// A day `YYYY-MM-DD` in words, or as given when it is not a date.
pub fn day(iso: &str, lang: Lang) -> String {
    match NaiveDate::parse_from_str(iso, "%Y-%m-%d") {
        Ok(d) if iso.len() == 10 => date(d, lang),
        _ => iso.to_string(),
    }
}

/// A time of day: `10 h 02`, `9 h 05`; `10:02`.
pub fn time(at: DateTime<Utc>, tz: Tz, lang: Lang) -> String {
    let t = at.with_timezone(&tz);
    match lang {
        Lang::Fr => format!("{} h {:02}", t.hour(), t.minute()),
        Lang::En => format!("{:02}:{:02}", t.hour(), t.minute()),
    }
}

/// The date of an instant in `tz`, in words.
pub fn date_of(at: DateTime<Utc>, tz: Tz, lang: Lang) -> String {
    date(at.with_timezone(&tz).date_naive(), lang)
}

/// An instant in words in `tz`: `le 11 décembre 2018 à 10 h 02`; `on 11 December 2018 at
/// 10:02`.
pub fn date_time(at: DateTime<Utc>, tz: Tz, lang: Lang) -> String {
    let (d, t) = (date_of(at, tz, lang), time(at, tz, lang));
    match lang {
        Lang::Fr => format!("le {d} à {t}"),
        Lang::En => format!("on {d} at {t}"),
    }
}

/// An RFC 3339 instant (a sales close) in words in `tz`, or as given when it does not parse.
pub fn instant(rfc3339: &str, tz: Tz, lang: Lang) -> String {
    DateTime::parse_from_rfc3339(rfc3339).map_or_else(
        |_| rfc3339.to_string(),
        |t| date_time(t.with_timezone(&Utc), tz, lang),
    )
}

/// A whole number with its thousands separated: `1 234 567` (narrow no-break spaces) in
/// French, `1,234,567` in English.
pub fn number(n: u64, lang: Lang) -> String {
    let sep = match lang {
        Lang::Fr => THIN,
        Lang::En => ',',
    };
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 * 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(sep);
        }
        out.push(c);
    }
    out
}

/// An amount in cents, in euros: `5 000 €`, `10,50 €`; `€5,000`, `€10.50`.
pub fn eur(cents: u64, lang: Lang) -> String {
    let whole = number(cents / 100, lang);
    let frac = cents % 100;
    match (lang, frac) {
        (Lang::Fr, 0) => format!("{whole}{NBSP}€"),
        (Lang::Fr, f) => format!("{whole},{f:02}{NBSP}€"),
        (Lang::En, 0) => format!("€{whole}"),
        (Lang::En, f) => format!("€{whole}.{f:02}"),
    }
}

/// A hash (or any hex string) in groups of four digits separated by spaces, the only places
/// a line may break: `6e34 0b9c ffb3 …`.
pub fn grouped(hex: &str) -> String {
    let mut out = String::with_capacity(hex.len() + hex.len() / 4);
    for (i, c) in hex.chars().enumerate() {
        if i > 0 && i % 4 == 0 {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// The stage an attempt had reached, as the trail records it (`draw.void`'s `stage`, a void
/// notice's), in the minutes' language: French words for the stages urne writes, the recorded
/// text itself for any other.
pub fn stage(recorded: &str, lang: Lang) -> String {
    let fr = match recorded {
        "sealed" => "scellé",
        "drawn and published" => "tiré et publié",
        "drawn (outputs not yet written)" => "tiré (sorties non encore écrites)",
        "contribution recorded (draw interrupted)" => "contribution inscrite (tirage interrompu)",
        // Not "before the contribution": one may have been typed and its record lost.
        "entropy recorded (draw interrupted; no contribution recorded)" => {
            "aléa inscrit (tirage interrompu ; aucune contribution inscrite)"
        }
        // As trails of an earlier version of urne recorded it.
        "entropy recorded (draw interrupted before the contribution)" => {
            "aléa inscrit (tirage interrompu avant la contribution)"
        }
        "drawn under the trail this one replaced" => "tiré sous le journal que celui-ci remplace",
        "generated and published" => "généré et publié",
        "generated (outputs not yet written)" => "généré (sorties non encore écrites)",
        "revealed" => "révélé",
        "contribution recorded (generation interrupted)" => {
            "contribution inscrite (génération interrompue)"
        }
        "not sealed" => "non scellé",
        "not generated" => "non généré",
        "entropy recorded (generation interrupted; no contribution recorded)" => {
            "aléa inscrit (génération interrompue ; aucune contribution inscrite)"
        }
        "entropy recorded (generation interrupted before the contribution)" => {
            "aléa inscrit (génération interrompue avant la contribution)"
        }
        "generated under the trail this one replaced" => {
            "généré sous le journal que celui-ci remplace"
        }
        other => other,
    };
    match lang {
        Lang::Fr => fr.to_string(),
        Lang::En => recorded.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    const PARIS: Tz = chrono_tz::Europe::Paris;

    #[test]
    fn a_stage_is_said_in_french_and_kept_as_recorded_in_english() {
        assert_eq!(stage("drawn and published", Lang::Fr), "tiré et publié");
        assert_eq!(stage("sealed", Lang::Fr), "scellé");
        // Every stage the trail's state names, in French words.
        for s in [
            "not sealed",
            "not generated",
            "contribution recorded (generation interrupted)",
            "contribution recorded (draw interrupted)",
            "generated (outputs not yet written)",
        ] {
            assert_ne!(stage(s, Lang::Fr), s, "{s}");
        }
        assert_eq!(
            stage("drawn and published", Lang::En),
            "drawn and published"
        );
        assert_eq!(stage("something else", Lang::Fr), "something else");
    }

    #[test]
    fn dates_are_in_words_in_paris_time_across_both_changes_of_hour() {
        let fr = |s| date_time(utc(s), PARIS, Lang::Fr);
        assert_eq!(
            fr("2018-12-11T09:02:41.123456Z"),
            "le 11 décembre 2018 à 10 h 02"
        );
        assert_eq!(fr("2018-12-01T08:05:00Z"), "le 1er décembre 2018 à 9 h 05");
        // Midnight in Paris is still the previous day in UTC.
        assert_eq!(fr("2018-12-24T23:30:00Z"), "le 25 décembre 2018 à 0 h 30");
        // 25 March 2018: at 2 h CET the clocks went to 3 h CEST.
        assert_eq!(fr("2018-03-25T00:59:00Z"), "le 25 mars 2018 à 1 h 59");
        assert_eq!(fr("2018-03-25T01:00:00Z"), "le 25 mars 2018 à 3 h 00");
        // 28 October 2018: at 3 h CEST the clocks went back to 2 h CET; 2 h 30 happens twice.
        assert_eq!(fr("2018-10-28T00:30:00Z"), "le 28 octobre 2018 à 2 h 30");
        assert_eq!(fr("2018-10-28T01:30:00Z"), "le 28 octobre 2018 à 2 h 30");
        assert_eq!(fr("2018-10-28T02:30:00Z"), "le 28 octobre 2018 à 3 h 30");
        assert_eq!(
            date_time(utc("2018-08-01T10:02:00Z"), PARIS, Lang::En),
            "on 1 August 2018 at 12:02"
        );
        assert_eq!(day("2018-12-01", Lang::Fr), "1er décembre 2018");
        assert_eq!(day("2018-02-11", Lang::Fr), "11 février 2018");
        assert_eq!(day("2018-12-1", Lang::Fr), "2018-12-1");
        assert_eq!(
            instant("2015-12-31T22:59:59Z", PARIS, Lang::Fr),
            "le 31 décembre 2015 à 23 h 59"
        );
        assert_eq!(instant("not a time", PARIS, Lang::Fr), "not a time");
    }

    #[test]
    fn numbers_and_amounts_have_their_thousands_separated() {
        assert_eq!(number(0, Lang::Fr), "0");
        assert_eq!(number(999, Lang::Fr), "999");
        assert_eq!(number(1000, Lang::Fr), "1\u{202f}000");
        assert_eq!(number(1_234_567, Lang::Fr), "1\u{202f}234\u{202f}567");
        assert_eq!(number(123_456, Lang::En), "123,456");
        assert_eq!(eur(500_000, Lang::Fr), "5\u{202f}000\u{a0}€");
        assert_eq!(eur(1050, Lang::Fr), "10,50\u{a0}€");
        assert_eq!(eur(99_900, Lang::Fr), "999\u{a0}€");
        assert_eq!(
            eur(123_456_789, Lang::Fr),
            "1\u{202f}234\u{202f}567,89\u{a0}€"
        );
        assert_eq!(eur(2_000_000, Lang::En), "€20,000");
        assert_eq!(eur(5, Lang::En), "€0.05");
    }

    #[test]
    fn hashes_are_grouped_by_four() {
        assert_eq!(grouped(""), "");
        assert_eq!(grouped("abc"), "abc");
        assert_eq!(grouped("abcd"), "abcd");
        assert_eq!(grouped("abcdef01"), "abcd ef01");
        let h = "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d";
        let g = grouped(h);
        assert_eq!(g.split(' ').count(), 16);
        assert!(g.split(' ').all(|p| p.len() == 4));
        assert_eq!(g.replace(' ', ""), h);
        assert!(g.starts_with("6e34 0b9c ffb3 7a98"));
    }
}
