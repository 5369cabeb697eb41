//! A message of the catalogue: its id, its words in each language, its named values.

use super::lang::Lang;
use std::fmt;

/// A message of the catalogue: its id and its words in French and in English, `{name}` where a
/// value goes (the same names in both).
#[derive(Debug)]
pub struct Msg {
    /// Stable and unique: `err-`, `rec-`, `scr-` or `ask-`, then kebab-case.
    pub id: &'static str,
    /// The words in French.
    pub fr: &'static str,
    /// The words in English.
    pub en: &'static str,
}

impl Msg {
    /// The words in `lang`, placeholders unfilled.
    pub fn words(&self, lang: Lang) -> &'static str {
        lang.t(self.fr, self.en)
    }

    /// The words in `lang` with each `{name}` of `values` replaced by its value; a placeholder
    /// with no value is left as it is (the catalogue's tests make sure none is).
    pub fn fill(&self, lang: Lang, values: &[(&str, &dyn fmt::Display)]) -> String {
        let mut s = self.words(lang).to_string();
        for (name, value) in values {
            s = s.replace(&format!("{{{name}}}"), &value.to_string());
        }
        s
    }

    /// The names of the placeholders of `words`, in order of appearance, each once.
    pub fn placeholders(words: &str) -> Vec<&str> {
        let mut names: Vec<&str> = vec![];
        let mut rest = words;
        while let Some(open) = rest.find('{') {
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else { break };
            let name = &after[..close];
            if !name.is_empty()
                && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
                && !names.contains(&name)
            {
                names.push(name);
            }
            rest = &after[close + 1..];
        }
        names
    }

    /// The fixed words of the message in `lang`: what is left between its placeholders, for a
    /// test that looks for a message of one language on a screen of the other.
    pub fn fixed(&self, lang: Lang) -> Vec<&'static str> {
        let mut parts = vec![];
        let mut rest = self.words(lang);
        loop {
            let Some(open) = rest.find('{') else {
                parts.push(rest);
                break;
            };
            parts.push(&rest[..open]);
            match rest[open..].find('}') {
                Some(close) => rest = &rest[open + close + 1..],
                None => break,
            }
        }
        parts
            .into_iter()
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect()
    }
}
