use super::Msg;
use super::catalogue::all;
use crate::text::Lang;

#[test]
fn every_id_is_unique_kebab_case_and_says_what_it_is_for() {
    let mut seen = std::collections::BTreeSet::new();
    for m in all() {
        assert!(seen.insert(m.id), "{} twice", m.id);
        let (kind, rest) = m.id.split_once('-').unwrap_or(("", ""));
        assert!(
            ["err", "rec", "scr", "ask"].contains(&kind),
            "{}: err-, rec-, scr- or ask-",
            m.id
        );
        assert!(
            !rest.is_empty()
                && rest.split('-').all(|w| !w.is_empty()
                    && w.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())),
            "{}: kebab-case",
            m.id
        );
    }
}

#[test]
fn both_languages_name_the_same_values_and_differ() {
    for m in all() {
        let mut fr = Msg::placeholders(m.fr);
        let mut en = Msg::placeholders(m.en);
        fr.sort_unstable();
        en.sort_unstable();
        assert_eq!(fr, en, "{}: the same values in both languages", m.id);
        assert!(
            !m.fr.trim().is_empty() && !m.en.trim().is_empty(),
            "{}",
            m.id
        );
        assert_ne!(m.fr, m.en, "{}: not translated", m.id);
    }
}

#[test]
fn values_are_filled_by_name_and_the_fixed_words_are_what_is_between() {
    let m = Msg {
        id: "err-test",
        fr: "le jour {day} est déjà tiré (tentative {attempt})",
        en: "day {day} was already drawn (attempt {attempt})",
    };
    let day = "2018-12-04";
    assert_eq!(
        m.fill(Lang::Fr, &[("day", &day), ("attempt", &2)]),
        "le jour 2018-12-04 est déjà tiré (tentative 2)"
    );
    assert_eq!(
        m.fill(Lang::En, &[("attempt", &2), ("day", &day)]),
        "day 2018-12-04 was already drawn (attempt 2)"
    );
    assert_eq!(Msg::placeholders(m.fr), ["day", "attempt"]);
    assert_eq!(
        m.fixed(Lang::En),
        ["day", "was already drawn (attempt", ")"]
    );
}
