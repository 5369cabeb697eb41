//! A command line that does not parse, said in the screens' language through the catalogue
//! (`crate::msg`): one `error[usage]:` line and one `hint:` line, exit 2 (spec/appliance.md §10).
//! The values (the argument, the value given, the usage) are clap's; the words are urne's.
//! `--help` and `--version`, and the help clap prints for a command given without its
//! subcommand, are no mistake of this kind: `None`, and clap prints them.

use crate::msg::Msg;
use crate::msg::catalogue as m;
use crate::text::Lang;
use clap::error::{ContextKind, ContextValue, ErrorKind};

/// The message and the hint of the parse error `e` in `lang`, or `None` when clap prints it
/// itself (help, version).
pub fn words(e: &clap::Error, lang: Lang) -> Option<(String, String)> {
    if !e.use_stderr() || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        return None;
    }
    let ctx = |k: ContextKind| -> String {
        match e.get(k) {
            Some(ContextValue::String(s)) => s.clone(),
            Some(ContextValue::Strings(v)) => v.join(", "),
            Some(other) => other.to_string(),
            None => String::new(),
        }
    };
    let (arg, value) = (ctx(ContextKind::InvalidArg), ctx(ContextKind::InvalidValue));
    let one = |msg: &Msg, name: &str, v: &str| msg.fill(lang, &[(name, &v)]);
    let message = match e.kind() {
        ErrorKind::UnknownArgument if !arg.is_empty() => one(&m::ERR_USAGE_UNKNOWN, "arg", &arg),
        ErrorKind::InvalidSubcommand if !ctx(ContextKind::InvalidSubcommand).is_empty() => one(
            &m::ERR_USAGE_NO_SUCH_COMMAND,
            "arg",
            &ctx(ContextKind::InvalidSubcommand),
        ),
        ErrorKind::MissingRequiredArgument if !arg.is_empty() => {
            one(&m::ERR_USAGE_MISSING, "args", &arg)
        }
        ErrorKind::InvalidValue | ErrorKind::ValueValidation if !arg.is_empty() => {
            m::ERR_USAGE_VALUE.fill(lang, &[("arg", &arg), ("value", &value)])
        }
        ErrorKind::ArgumentConflict if !arg.is_empty() => {
            let other = ctx(ContextKind::PriorArg);
            m::ERR_USAGE_CONFLICT.fill(lang, &[("arg", &arg), ("other", &other)])
        }
        _ => m::ERR_USAGE_OTHER.words(lang).to_string(),
    };
    let usage = ctx(ContextKind::Usage);
    let usage = usage
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(|l| l.strip_prefix("Usage:").unwrap_or(l).trim().to_string());
    let hint = match usage {
        Some(u) if !u.is_empty() => m::REC_USAGE.fill(lang, &[("usage", &u)]),
        _ => m::REC_USAGE_HELP.words(lang).to_string(),
    };
    Some((message, hint))
}

#[cfg(test)]
mod tests {
    use super::words;
    use crate::text::Lang;
    use clap::Parser;

    fn said(args: &[&str], lang: Lang) -> (String, String) {
        let e = crate::cli::Cli::try_parse_from(args).unwrap_err();
        words(&e, lang).unwrap()
    }

    #[test]
    fn each_mistake_is_said_in_the_screens_language_with_clap_s_values() {
        let (m, h) = said(&["urne", "draw", "--day", "2018-12-04"], Lang::Fr);
        assert_eq!(m, "il manque --out <DIR>");
        assert!(h.starts_with("usage : urne draw "), "{h}");
        let (m, _) = said(&["urne", "draw", "--day", "2018-12-04"], Lang::En);
        assert_eq!(m, "missing --out <DIR>");
        let (m, _) = said(&["urne", "status", "--bogus"], Lang::Fr);
        assert_eq!(m, "urne ne connaît pas l'argument --bogus");
        let (m, _) = said(&["urne", "nope"], Lang::Fr);
        assert_eq!(m, "urne n'a pas de commande nope");
        let (m, _) = said(
            &[
                "urne",
                "verify",
                "o",
                "--keys",
                "k",
                "--expect-day",
                "2018-13-01",
            ],
            Lang::Fr,
        );
        assert_eq!(
            m,
            "--expect-day <YYYY-MM-DD> n'accepte pas la valeur « 2018-13-01 »"
        );
    }

    #[test]
    fn help_and_version_are_printed_by_clap() {
        for args in [&["urne", "--help"][..], &["urne", "--version"], &["urne"]] {
            let e = crate::cli::Cli::try_parse_from(args).unwrap_err();
            assert!(words(&e, Lang::Fr).is_none(), "{args:?}");
        }
    }
}
