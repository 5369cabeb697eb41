//! Line 1 of an export, the header (spec/formats.md §4.1.1): read, parsed and checked against the rules
//! and the key that verified the file.

use std::io::Read;

use chrono::NaiveDate;

use super::error::{ExportError, ExportErrorKind};
use super::fields::{json_err, no_cr, out_of_range, req, req_instant, req_int, req_str};
use super::json::{self, Val};
use super::limits::MAX_LINE;
use super::rehash::HashingReader;
use super::results::VerifiedExport;
use super::rfc3339;
use crate::rules::draw::{DrawRules, Period};

/// The header of an export (line 1), checked.
pub(super) struct Header<'r> {
    /// `operation` (equal to the rules' operation id).
    pub(super) operation: String,
    /// `day`.
    pub(super) day: NaiveDate,
    /// The rules' period that contains `day`.
    pub(super) period: &'r Period,
    /// `producer` (equal to the key id of the key that verified the file).
    pub(super) producer: String,
    /// `generated_at`, as written (checked to be an RFC 3339 instant).
    pub(super) generated_at: String,
    /// `status_as_of`, as written (checked to be an RFC 3339 instant).
    pub(super) status_as_of: String,
    /// `plays`: the play records announced.
    pub(super) plays: u64,
    /// `exclusions`: the exclusion records announced.
    pub(super) exclusions: u64,
}

/// Reads and checks line 1; returns the header and the bytes read after it.
pub(super) fn read_header<'r, R: Read>(
    src: &mut HashingReader<R>,
    verified: &VerifiedExport,
    rules: &'r DrawRules,
) -> Result<(Header<'r>, Vec<u8>), ExportError> {
    let mut pending: Vec<u8> = Vec::new();
    let mut first = vec![0u8; 64 << 10];
    let header_end = loop {
        if let Some(i) = memchr::memchr(b'\n', &pending) {
            // The limit holds for the header too, however the reads fell.
            if i > MAX_LINE {
                return Err(ExportError::at(1, ExportErrorKind::LineTooLong(MAX_LINE)));
            }
            break i;
        }
        if pending.len() > MAX_LINE {
            return Err(ExportError::at(1, ExportErrorKind::LineTooLong(MAX_LINE)));
        }
        let n = src.read_into(&mut first)?;
        pending.extend_from_slice(&first[..n]);
        if n == 0 {
            return Err(if pending.is_empty() {
                ExportError::file(ExportErrorKind::Empty)
            } else {
                ExportError::at(1, ExportErrorKind::MissingFinalNewline)
            });
        }
    };
    let header =
        parse_header(&pending[..header_end], verified, rules).map_err(|k| ExportError::at(1, k))?;
    pending.drain(..=header_end);
    Ok((header, pending))
}

/// The header's known members, as found (unknown header fields are ignored).
#[derive(Default)]
struct Members<'a> {
    format: Option<Val<'a>>,
    version: Option<Val<'a>>,
    operation: Option<Val<'a>>,
    day: Option<Val<'a>>,
    producer: Option<Val<'a>>,
    generated_at: Option<Val<'a>>,
    status_as_of: Option<Val<'a>>,
    plays: Option<Val<'a>>,
    exclusions: Option<Val<'a>>,
}

/// The header line's known members (no CR, UTF-8 and the JSON checked first).
fn members(line: &[u8]) -> Result<Members<'_>, ExportErrorKind> {
    no_cr(line)?;
    let text = std::str::from_utf8(line).map_err(|_| ExportErrorKind::NotUtf8)?;
    let mut m = Members::default();
    json::for_each_member(text, &mut |k, v| {
        let slot = match k {
            "format" => &mut m.format,
            "version" => &mut m.version,
            "operation" => &mut m.operation,
            "day" => &mut m.day,
            "producer" => &mut m.producer,
            "generated_at" => &mut m.generated_at,
            "status_as_of" => &mut m.status_as_of,
            "plays" => &mut m.plays,
            "exclusions" => &mut m.exclusions,
            _ => return Ok(()), // unknown header fields are ignored
        };
        *slot = Some(v);
        Ok(())
    })
    .map_err(json_err)?;
    Ok(m)
}

/// `format` and `version`: the header is told apart from a record by its `format` field.
fn check_format(format: Option<Val<'_>>, version: Option<Val<'_>>) -> Result<(), ExportErrorKind> {
    let format = match format {
        None => return Err(ExportErrorKind::MissingHeader),
        Some(f) => req_str(Some(f), "format")?,
    };
    if format != "draw-entries" {
        return Err(ExportErrorKind::WrongFormat(format.into_owned()));
    }
    match req(version, "version")? {
        Val::Num("1") => Ok(()),
        Val::Num(n) => Err(ExportErrorKind::WrongVersion(n.to_string())),
        other => Err(ExportErrorKind::WrongType {
            field: "version",
            expected: "an integer",
            found: other.type_name(),
        }),
    }
}

/// Line 1 (without its LF), field by field in the order of the format; the first field that
/// fails is the one reported.
fn parse_header<'r>(
    line: &[u8],
    verified: &VerifiedExport,
    rules: &'r DrawRules,
) -> Result<Header<'r>, ExportErrorKind> {
    let m = members(line)?;
    check_format(m.format, m.version)?;
    let operation = req_str(m.operation, "operation")?;
    if operation != rules.operation() {
        return Err(ExportErrorKind::WrongOperation {
            expected: rules.operation().to_string(),
            found: operation.into_owned(),
        });
    }
    let day_s = req_str(m.day, "day")?;
    let day = rfc3339::parse_date(&day_s)
        // `parse_date` reads four digits: the year is in 0 ..= 9999, so the conversion holds.
        .and_then(|(y, m, d)| NaiveDate::from_ymd_opt(i32::try_from(y).ok()?, m, d))
        .ok_or_else(|| out_of_range("day", format!("{day_s:?} is not a date YYYY-MM-DD")))?;
    let Some(period) = rules.period_for(day) else {
        return Err(ExportErrorKind::DayNotInOperation(day_s.into_owned()));
    };
    let producer = req_str(m.producer, "producer")?;
    if *producer != verified.key_id {
        return Err(ExportErrorKind::WrongProducer {
            expected: verified.key_id.to_string(),
            found: producer.into_owned(),
        });
    }
    let (_, generated_at) = req_instant(m.generated_at, "generated_at")?;
    let (_, status_as_of) = req_instant(m.status_as_of, "status_as_of")?;
    let count = |v, field| -> Result<u64, ExportErrorKind> {
        let n = req_int(v, field)?;
        u64::try_from(n).map_err(|_| out_of_range(field, format!("{n} is negative")))
    };
    Ok(Header {
        operation: operation.into_owned(),
        day,
        period,
        producer: producer.into_owned(),
        generated_at,
        status_as_of,
        plays: count(m.plays, "plays")?,
        exclusions: count(m.exclusions, "exclusions")?,
    })
}
