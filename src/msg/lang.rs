//! The language of the screens and prompts: the one a sitting set, else the environment's.
//! Below the messages (`super::message`), which are filled in it, and the screens' layout
//! (`crate::text`), which re-exports it.

use std::sync::atomic::{AtomicU8, Ordering};

/// The language of the screens (and of the minutes a sitting writes, spec/appliance.md §9.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    /// French, the default: the commissaire de justice reads and signs in French.
    Fr,
    /// English.
    En,
}

impl Lang {
    /// The language given (`--lang`), else English when the environment's `LANG` starts with
    /// `en`, else French.
    pub fn resolve(given: Option<Lang>) -> Lang {
        given.unwrap_or_else(|| Self::from_env(std::env::var("LANG").ok().as_deref()))
    }

    /// The language a `LANG` value asks for: English when it starts with `en`, else French.
    pub fn from_env(lang: Option<&str>) -> Lang {
        match lang {
            Some(l) if l.starts_with("en") => Lang::En,
            _ => Lang::Fr,
        }
    }

    /// The text in this language: `fr` or `en`.
    pub fn t<'a>(self, fr: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Fr => fr,
            Lang::En => en,
        }
    }

    /// The same language as the core's minutes name it (one wording of numbers and dates for
    /// the screens and the minutes).
    pub fn core(self) -> urne_ceremony::minutes::Lang {
        urne_ceremony::minutes::Lang::from_code(self.code())
    }

    /// The code as spec/appliance.md §9.1 records it: `fr` or `en`.
    pub fn code(self) -> &'static str {
        self.t("fr", "en")
    }
}

/// The language this process's screens were set to (0: not set; 1: French; 2: English).
static PROCESS_LANG: AtomicU8 = AtomicU8::new(0);

/// Sets the language of every screen this process prints from now on: `urne ceremony` sets
/// the sitting's language (its `--lang`, or the one its opening recorded), so that the seals,
/// draws, blocks and confirmations it runs speak as the sitting does. Other commands do not
/// call it, and [`lang`] then follows `LANG`. Through [`super::set_lang`], which also sets the
/// pause's words.
pub(super) fn store(lang: Lang) {
    PROCESS_LANG.store(
        match lang {
            Lang::Fr => 1,
            Lang::En => 2,
        },
        Ordering::Relaxed,
    );
}

/// The language of this process's screens and prompts: the one [`set_lang`] set, else the
/// environment's (`Lang::resolve(None)`: English when `LANG` starts with `en`, else French).
pub fn lang() -> Lang {
    match PROCESS_LANG.load(Ordering::Relaxed) {
        1 => Lang::Fr,
        2 => Lang::En,
        _ => Lang::resolve(None),
    }
}
