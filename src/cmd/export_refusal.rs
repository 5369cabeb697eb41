//! Why production's export is refused, in the screens' language: the core's [`ExportError`]
//! said per rule from the catalogue (in English, the core's own words; a unit test checks
//! them). What the trail records of a refusal stays the core's words.

use crate::msg::Lang;
use crate::msg::catalogue::cmd as mc;
use std::fmt::Display;
use urne_verify::entries::{ExportError, ExportErrorKind as K};

/// `e` in `lang`, with its line when it has one.
pub(super) fn words(e: &ExportError, lang: Lang) -> String {
    let why = kind_words(&e.kind, lang);
    match e.line {
        Some(l) => mc::ERR_EXPORT_LINE.fill(lang, &[("line", &l), ("why", &why)]),
        None => why,
    }
}

/// The rule `k` broke, in `lang`.
#[expect(
    clippy::too_many_lines,
    reason = "one match, one arm per rule of the format: one thing"
)]
fn kind_words(k: &K, lang: Lang) -> String {
    let q = |s: &str| format!("{s:?}");
    let fill = |m: &crate::msg::Msg, v: &[(&str, &dyn Display)]| m.fill(lang, v);
    match k {
        K::Io(e) => fill(&mc::ERR_EXPORT_IO, &[("e", e)]),
        K::SignatureLength(n) => fill(&mc::ERR_EXPORT_SIGNATURE_LENGTH, &[("n", n)]),
        K::NoTrustedKey => fill(&mc::ERR_EXPORT_NO_TRUSTED_KEY, &[]),
        K::BadSignature => fill(&mc::ERR_EXPORT_BAD_SIGNATURE, &[]),
        K::FileChanged {
            expected,
            expected_size,
            found,
            found_size,
        } => fill(
            &mc::ERR_EXPORT_FILE_CHANGED,
            &[
                ("found", found),
                ("found_size", found_size),
                ("expected", expected),
                ("expected_size", expected_size),
            ],
        ),
        K::TooManyLines => fill(&mc::ERR_EXPORT_TOO_MANY_LINES, &[]),
        K::TooLarge => fill(
            &mc::ERR_EXPORT_TOO_LARGE,
            &[("max", &urne_verify::entries::MAX_EXPORT_BYTES)],
        ),
        K::NotAFile => fill(&mc::ERR_EXPORT_NOT_A_FILE, &[]),
        K::TooManyAccountsWithEntries(n) => fill(
            &mc::ERR_EXPORT_TOO_MANY_ACCOUNTS,
            &[
                ("n", n),
                ("max", &urne_verify::entries::MAX_ACCOUNTS_WITH_ENTRIES),
            ],
        ),
        K::NotUtf8 => fill(&mc::ERR_EXPORT_NOT_UTF8, &[]),
        K::Crlf => fill(&mc::ERR_EXPORT_CRLF, &[]),
        K::CarriageReturn(c) => fill(&mc::ERR_EXPORT_CARRIAGE_RETURN, &[("column", c)]),
        K::MissingFinalNewline => fill(&mc::ERR_EXPORT_FINAL_NEWLINE, &[]),
        K::LineTooLong(max) => fill(&mc::ERR_EXPORT_LINE_TOO_LONG, &[("max", max)]),
        K::InvalidJson { column, reason } => fill(
            &mc::ERR_EXPORT_INVALID_JSON,
            &[("reason", reason), ("column", column)],
        ),
        K::DuplicateKey(key) => fill(&mc::ERR_EXPORT_DUPLICATE_KEY, &[("key", &q(key))]),
        K::MissingField(field) => fill(&mc::ERR_EXPORT_MISSING_FIELD, &[("field", field)]),
        K::WrongType {
            field,
            expected,
            found,
        } => fill(
            &mc::ERR_EXPORT_WRONG_TYPE,
            &[("field", field), ("expected", expected), ("found", found)],
        ),
        K::OutOfRange { field, reason } => fill(
            &mc::ERR_EXPORT_OUT_OF_RANGE,
            &[("field", field), ("reason", reason)],
        ),
        K::Empty => fill(&mc::ERR_EXPORT_EMPTY, &[]),
        K::MissingHeader => fill(&mc::ERR_EXPORT_MISSING_HEADER, &[]),
        K::WrongFormat(f) => fill(&mc::ERR_EXPORT_WRONG_FORMAT, &[("found", &q(f))]),
        K::WrongVersion(v) => fill(&mc::ERR_EXPORT_WRONG_VERSION, &[("found", v)]),
        K::WrongOperation { expected, found } => fill(
            &mc::ERR_EXPORT_WRONG_OPERATION,
            &[("found", &q(found)), ("expected", &q(expected))],
        ),
        K::DayNotInOperation(day) => fill(&mc::ERR_EXPORT_DAY_NOT_IN_OPERATION, &[("day", day)]),
        K::WrongProducer { expected, found } => fill(
            &mc::ERR_EXPORT_WRONG_PRODUCER,
            &[("found", &q(found)), ("expected", &q(expected))],
        ),
        K::CountMismatch {
            record,
            header,
            found,
        } => fill(
            &mc::ERR_EXPORT_COUNT_MISMATCH,
            &[("header", header), ("record", record), ("found", found)],
        ),
        K::UnknownType(t) => fill(&mc::ERR_EXPORT_UNKNOWN_TYPE, &[("found", &q(t))]),
        K::DuplicatePlayId { id, first_line } => match id {
            Some(id) => fill(
                &mc::ERR_EXPORT_DUPLICATE_PLAY,
                &[("id", &q(id)), ("line", first_line)],
            ),
            None => fill(
                &mc::ERR_EXPORT_DUPLICATE_PLAY_HASHED,
                &[("line", first_line)],
            ),
        },
        K::DuplicateExclusion {
            account,
            first_line,
        } => fill(
            &mc::ERR_EXPORT_DUPLICATE_EXCLUSION,
            &[("account", account), ("line", first_line)],
        ),
        K::PlayNotOnDay { at, day, tz } => fill(
            &mc::ERR_EXPORT_PLAY_NOT_ON_DAY,
            &[("at", at), ("day", day), ("tz", tz)],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[expect(
        clippy::too_many_lines,
        reason = "one value of every rule of the format, then one check of each"
    )]
    fn every_refusal_is_said_in_english_as_the_core_says_it_and_in_french() {
        let day = chrono::NaiveDate::from_ymd_opt(2018, 12, 4).unwrap();
        let all = [
            K::Io("denied".into()),
            K::SignatureLength(3),
            K::NoTrustedKey,
            K::BadSignature,
            K::FileChanged {
                expected: "ab".into(),
                expected_size: 1,
                found: "cd".into(),
                found_size: 2,
            },
            K::TooManyLines,
            K::TooLarge,
            K::NotAFile,
            K::TooManyAccountsWithEntries(20_000_000),
            K::NotUtf8,
            K::Crlf,
            K::CarriageReturn(7),
            K::MissingFinalNewline,
            K::LineTooLong(1 << 20),
            K::InvalidJson {
                column: 3,
                reason: "expected a value",
            },
            K::DuplicateKey("a\"b".into()),
            K::MissingField("account"),
            K::WrongType {
                field: "stake_cents",
                expected: "an integer",
                found: "a string",
            },
            K::OutOfRange {
                field: "account",
                reason: "not 64 hex digits".into(),
            },
            K::Empty,
            K::MissingHeader,
            K::WrongFormat("x".into()),
            K::WrongVersion("1.0".into()),
            K::WrongOperation {
                expected: "a".into(),
                found: "b".into(),
            },
            K::DayNotInOperation("2018-12-40".into()),
            K::WrongProducer {
                expected: "a".into(),
                found: "b".into(),
            },
            K::CountMismatch {
                record: "play",
                header: 3,
                found: 2,
            },
            K::UnknownType("bet".into()),
            K::DuplicatePlayId {
                id: Some("p1".into()),
                first_line: 4,
            },
            K::DuplicatePlayId {
                id: None,
                first_line: 4,
            },
            K::DuplicateExclusion {
                account: "ab".repeat(32),
                first_line: 5,
            },
            K::PlayNotOnDay {
                at: "2018-12-05T00:00:00+01:00".into(),
                day,
                tz: "Europe/Paris",
            },
        ];
        for kind in all {
            for line in [None, Some(9)] {
                let e = ExportError {
                    line,
                    kind: kind.clone(),
                };
                assert_eq!(words(&e, Lang::En), e.to_string());
                assert_ne!(words(&e, Lang::Fr), e.to_string());
            }
        }
    }
}
