//! A command line that does not parse, in the words every other refusal uses: one `error[usage]:`
//! line and one `hint:` line on standard error, exit 2 (spec/formats.md §8.1 [M-150],
//! spec/appliance.md §10), rather than clap's own paragraph. `--help` and `--version` print as
//! clap prints them.

/// What a parse error says: the message (clap's first paragraph, on one line) and a hint (clap's
/// tip when it has one, else the command's usage). `None` for `--help` and `--version`, which
/// are no mistake and print as clap prints them.
pub fn words(e: &clap::Error) -> Option<(String, String)> {
    if !e.use_stderr() {
        return None;
    }
    let text = e.render().to_string();
    let mut message = Vec::new();
    let mut tip = None;
    let mut usage = None;
    let mut first_paragraph = true;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            first_paragraph = false;
        } else if first_paragraph {
            message.push(line.strip_prefix("error:").unwrap_or(line).trim());
        } else if let Some(t) = line.strip_prefix("tip:") {
            tip.get_or_insert(t.trim());
        } else if let Some(u) = line.strip_prefix("Usage:") {
            usage.get_or_insert(u.trim());
        }
    }
    let message = if message.is_empty() {
        "the command line does not parse".to_string()
    } else {
        message.join(" ")
    };
    let hint = match (tip, usage) {
        (Some(t), _) => format!("{t}; see --help"),
        (None, Some(u)) => format!("usage: {u}; see --help"),
        (None, None) => "check the command line against --help".into(),
    };
    Some((message, hint))
}

#[cfg(test)]
mod tests {
    use super::words;
    use clap::Parser;

    #[derive(Debug, Parser)]
    #[command(name = "t")]
    struct T {
        path: String,
        #[arg(long, value_parser = clap::value_parser!(u8))]
        n: Option<u8>,
    }

    fn err(args: &[&str]) -> clap::Error {
        T::try_parse_from(args).unwrap_err()
    }

    #[test]
    fn a_missing_argument_is_one_line_and_a_usage_hint() {
        let (m, h) = words(&err(&["t"])).unwrap();
        assert_eq!(
            m,
            "the following required arguments were not provided: <PATH>"
        );
        assert_eq!(h, "usage: t <PATH>; see --help");
    }

    #[test]
    fn a_bad_value_names_the_option() {
        let (m, h) = words(&err(&["t", "p", "--n", "300"])).unwrap();
        assert!(m.starts_with("invalid value '300' for '--n <N>'"), "{m}");
        assert!(!m.contains('\n'));
        assert_eq!(h, "check the command line against --help");
    }

    #[test]
    fn an_unknown_option_keeps_clap_s_tip() {
        let (m, h) = words(&err(&["t", "p", "--bogus"])).unwrap();
        assert_eq!(m, "unexpected argument '--bogus' found");
        assert_eq!(
            h,
            "to pass '--bogus' as a value, use '-- --bogus'; see --help"
        );
    }

    #[test]
    fn help_is_no_mistake() {
        assert!(words(&err(&["t", "--help"])).is_none());
    }
}
