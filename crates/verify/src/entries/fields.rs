//! Field helpers shared by the header and record readers: each required field by type, with the
//! exact refusal for each way it can be wrong, and the SWAR reader of the 64-hex-digit account id
//! that every play line holds.

use super::error::ExportErrorKind;
use super::json::{JsonError, Val};
use super::rfc3339;

/// Largest stake of one play, in cents (spec/formats.md §4.1.1).
pub(super) const MAX_STAKE_CENTS: u64 = 100_000_000;

/// A JSON reader error as the export error it is.
pub(super) fn json_err(e: JsonError) -> ExportErrorKind {
    match e {
        JsonError::Syntax { column, reason } => ExportErrorKind::InvalidJson { column, reason },
        JsonError::DuplicateKey(k) => ExportErrorKind::DuplicateKey(k),
    }
}

/// No CR anywhere in a line (spec/formats.md §4.1.1): [`ExportErrorKind::Crlf`] for one right before
/// the LF, [`ExportErrorKind::CarriageReturn`] for the first one elsewhere (between JSON tokens
/// included). `line` is the line without its LF.
pub(super) fn no_cr(line: &[u8]) -> Result<(), ExportErrorKind> {
    match memchr::memchr(b'\r', line) {
        None => Ok(()),
        Some(i) if i + 1 == line.len() => Err(ExportErrorKind::Crlf),
        Some(i) => Err(ExportErrorKind::CarriageReturn(i + 1)),
    }
}

/// The value of a required field.
pub(super) fn req<'a>(v: Option<Val<'a>>, field: &'static str) -> Result<Val<'a>, ExportErrorKind> {
    v.ok_or(ExportErrorKind::MissingField(field))
}

/// The value of a required string field.
pub(super) fn req_str<'a>(
    v: Option<Val<'a>>,
    field: &'static str,
) -> Result<std::borrow::Cow<'a, str>, ExportErrorKind> {
    match req(v, field)? {
        Val::Str(s) => Ok(s),
        other => Err(ExportErrorKind::WrongType {
            field,
            expected: "a string",
            found: other.type_name(),
        }),
    }
}

/// `OutOfRange` for `field`.
pub(super) fn out_of_range(field: &'static str, reason: String) -> ExportErrorKind {
    ExportErrorKind::OutOfRange { field, reason }
}

/// A JSON integer (no fraction, no exponent) as i128, for range checks with exact messages.
pub(super) fn req_int(v: Option<Val<'_>>, field: &'static str) -> Result<i128, ExportErrorKind> {
    match req(v, field)? {
        Val::Num(t) => {
            if t.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
                return Err(ExportErrorKind::WrongType {
                    field,
                    expected: "an integer",
                    found: "a number with a fraction or exponent",
                });
            }
            // Up to 38 digits fit in i128; longer is out of range anyway.
            t.parse::<i128>()
                .map_err(|_| out_of_range(field, format!("{t} is far too large")))
        }
        other => Err(ExportErrorKind::WrongType {
            field,
            expected: "an integer",
            found: other.type_name(),
        }),
    }
}

/// Exactly 64 lowercase hex digits (as `crypto::parse_hex32`), eight digits at a time: every
/// play line has one, so this is on the hot path.
pub(super) fn hex32_lower(s: &[u8]) -> Option<[u8; 32]> {
    let b: &[u8; 64] = s.try_into().ok()?;
    let mut out = [0u8; 32];
    for (o, d) in out.chunks_exact_mut(4).zip(b.chunks_exact(8)) {
        let x = u64::from_le_bytes(d.try_into().expect("8 digits"));
        o.copy_from_slice(&hex8(x)?.to_le_bytes());
    }
    Some(out)
}

/// Eight lowercase hex digits (one per byte of `x`, first digit in the lowest byte) as the four
/// bytes they spell (first byte in the lowest byte), or `None` if any byte is not in [0-9a-f].
///
/// Each byte b is classified without carries between bytes (b < 0x80 is checked first, so
/// b + 0x50 and 0xB9 - b stay inside the byte): bit 7 of (b + 0x50) & (0xB9 - b) is set iff
/// 0x30 <= b <= 0x39, and bit 7 of (b + 0x1F) & (0xE6 - b) iff 0x61 <= b <= 0x66.
fn hex8(x: u64) -> Option<u32> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x80 * ONES;
    if x & HIGH != 0 {
        return None;
    }
    let digit = (x + 0x50 * ONES) & (0xB9 * ONES - x) & HIGH;
    let letter = (x + 0x1F * ONES) & (0xE6 * ONES - x) & HIGH;
    if digit | letter != HIGH {
        return None;
    }
    // Nibble values: the low four bits, plus 9 for a letter ('a' = 0x61 -> 1 + 9).
    let v = (x & (0x0F * ONES)) + (letter >> 7) * 9;
    // Bytes 0, 2, 4, 6 are high nibbles, 1, 3, 5, 7 low ones: pair them in 16-bit lanes ...
    let pairs = ((v & 0x00FF_00FF_00FF_00FF) << 4) | ((v >> 8) & 0x00FF_00FF_00FF_00FF);
    // ... then pack the four lanes' low bytes together: the four bytes end up in the low 32 bits,
    // and the cast keeps exactly those (the truncation is the point).
    let p = (pairs | (pairs >> 8)) & 0x0000_FFFF_0000_FFFF;
    #[allow(clippy::cast_possible_truncation)]
    let bytes = (p | (p >> 16)) as u32;
    Some(bytes)
}

/// A required `account` field: 64 lowercase hex digits.
pub(super) fn req_account(v: Option<Val<'_>>) -> Result<[u8; 32], ExportErrorKind> {
    let s = req_str(v, "account")?;
    hex32_lower(s.as_bytes())
        .ok_or_else(|| out_of_range("account", format!("{s:?} is not 64 lowercase hex digits")))
}

/// A required RFC 3339 date-time with offset, as Unix seconds and as written.
pub(super) fn req_instant(
    v: Option<Val<'_>>,
    field: &'static str,
) -> Result<(i64, String), ExportErrorKind> {
    let s = req_str(v, field)?;
    match rfc3339::parse_unix(&s) {
        Some(t) => Ok((t, s.into_owned())),
        None => Err(out_of_range(
            field,
            format!("{s:?} is not an RFC 3339 date-time with offset"),
        )),
    }
}

/// A play id: 1-64 characters of [A-Za-z0-9._:-].
pub(super) fn valid_play_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entries::testkit::splitmix;

    #[test]
    fn hex32_lower_agrees_with_parse_hex32_on_every_byte_in_every_place() {
        let good: Vec<u8> = b"0123456789abcdef".repeat(4);
        let expected = crate::crypto::parse_hex32(std::str::from_utf8(&good).unwrap());
        assert_eq!(hex32_lower(&good), expected);
        assert_eq!(
            hex::encode(hex32_lower(&good).unwrap()),
            String::from_utf8(good.clone()).unwrap()
        );
        for place in 0..64 {
            for byte in 0..=255u8 {
                let mut s = good.clone();
                s[place] = byte;
                let as_str = std::str::from_utf8(&s).ok();
                let reference = as_str.and_then(crate::crypto::parse_hex32);
                assert_eq!(hex32_lower(&s), reference, "byte {byte:#04x} at {place}");
            }
        }
        // Random strings mostly of hex digits and their neighbours in ASCII.
        let alphabet = b"0123456789abcdef0123456789abcdef/:@`gAF\x80\xff";
        let mut st = 7u64;
        for _ in 0..100_000 {
            let s: Vec<u8> = (0..64)
                .map(|_| {
                    let r = splitmix(&mut st);
                    if r.is_multiple_of(50) {
                        alphabet[(r >> 8) as usize % alphabet.len()]
                    } else {
                        good[(r >> 8) as usize % 16]
                    }
                })
                .collect();
            let reference = std::str::from_utf8(&s)
                .ok()
                .and_then(crate::crypto::parse_hex32);
            assert_eq!(hex32_lower(&s), reference, "{s:?}");
        }
        assert_eq!(hex32_lower(&good[..63]), None);
        assert_eq!(hex32_lower(&[b'0'; 65]), None);
    }
}
