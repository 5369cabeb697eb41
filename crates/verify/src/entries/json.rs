//! A small strict JSON (RFC 8259, without CR) reader for one line of an export: it hands out the members of
//! the line's top-level object as borrowed values, validates everything else (nested values of
//! unknown fields included), and refuses an object that has the same key twice, at any depth.
//!
//! Why not `serde_json`: `Value` silently keeps the last of two duplicate keys, and a typed struct
//! that ignores unknown fields never sees a duplicated unknown key. The format says a line with
//! the same key twice in one object is invalid, so keys are tracked here, and this reader also
//! avoids allocating per line (strings without escapes are borrowed).

use std::borrow::Cow;

use super::limits::MAX_DEPTH;

/// A JSON value as the export reader needs it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Val<'a> {
    /// A string, with escapes decoded (borrowed when it had none).
    Str(Cow<'a, str>),
    /// A number, as its exact text (grammar already checked).
    Num(&'a str),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// An object (already validated, duplicate keys refused), as its exact text.
    Object(&'a str),
    /// An array (already validated), as its exact text.
    Array(&'a str),
}

impl Val<'_> {
    /// The JSON type's name, for "wrong type" messages.
    pub(super) fn type_name(&self) -> &'static str {
        match self {
            Val::Str(_) => "a string",
            Val::Num(_) => "a number",
            Val::Bool(_) => "a boolean",
            Val::Null => "null",
            Val::Object(_) => "an object",
            Val::Array(_) => "an array",
        }
    }
}

/// Why a line is not acceptable JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum JsonError {
    /// Not JSON (RFC 8259), with what was wrong and the byte column (1-based).
    Syntax {
        /// 1-based byte offset in the line where reading stopped.
        column: usize,
        /// What the reader expected or found, in words.
        reason: &'static str,
    },
    /// The same key twice in one object.
    DuplicateKey(String),
}

/// Bytes that end the fast scan of a string: '"', '\\' and control characters.
const STRING_SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// A cheap fingerprint of a key (its length, first six and last bytes): keys are compared in
/// full only when fingerprints are equal.
fn fingerprint(k: &str) -> u64 {
    let b = k.as_bytes();
    let mut w = [0u8; 8];
    let n = b.len().min(6);
    w[..n].copy_from_slice(&b[..n]);
    w[6] = b.last().copied().unwrap_or(0);
    // The length modulo 256 (truncation intended): the fingerprint only has to be equal for
    // equal keys.
    #[allow(clippy::cast_possible_truncation)]
    let len = b.len() as u8;
    w[7] = len;
    u64::from_le_bytes(w)
}

/// Keys seen in one object. Fixed inline storage for the usual handful of keys, a Vec beyond.
struct KeySet<'a> {
    inline: [(u64, &'a str); 12],
    n: usize,
    more: Vec<Cow<'a, str>>,
}

impl<'a> KeySet<'a> {
    fn new() -> Self {
        KeySet {
            inline: [(0, ""); 12],
            n: 0,
            more: Vec::new(),
        }
    }

    /// Adds `k`; false if it was already there.
    #[allow(clippy::ptr_arg)] // borrowed keys are stored inline, owned ones in `more`
    fn insert(&mut self, k: &Cow<'a, str>) -> bool {
        let s: &str = k;
        let fp = fingerprint(s);
        if self.inline[..self.n]
            .iter()
            .any(|(f, x)| *f == fp && *x == s)
            || self.more.iter().any(|m| m == s)
        {
            return false;
        }
        match k {
            Cow::Borrowed(b) if self.n < self.inline.len() => {
                self.inline[self.n] = (fp, b);
                self.n += 1;
            }
            _ => self.more.push(k.clone()),
        }
        true
    }
}

struct Parser<'a> {
    s: &'a str,
    b: &'a [u8],
    pos: usize,
}

type R<T> = Result<T, JsonError>;

impl<'a> Parser<'a> {
    fn err<T>(&self, reason: &'static str) -> R<T> {
        Err(JsonError::Syntax {
            column: self.pos + 1,
            reason,
        })
    }

    /// Whitespace between tokens: RFC 8259's, without CR (no CR is allowed anywhere in an
    /// export, spec/appliance.md §4.1.1; the line readers refuse one before this reader sees the line).
    fn ws(&mut self) {
        while let Some(&c) = self.b.get(self.pos) {
            if c == b' ' || c == b'\t' || c == b'\n' {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn expect(&mut self, c: u8, reason: &'static str) -> R<()> {
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            self.err(reason)
        }
    }

    fn hex4(&mut self) -> R<u32> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(c @ b'0'..=b'9') => c - b'0',
                Some(c @ b'a'..=b'f') => c - b'a' + 10,
                Some(c @ b'A'..=b'F') => c - b'A' + 10,
                _ => return self.err("bad \\u escape"),
            };
            v = v * 16 + u32::from(d);
            self.pos += 1;
        }
        Ok(v)
    }

    /// The character of a `\u` escape, a surrogate pair taken together; `pos` is just after
    /// the `u`.
    fn unicode_escape(&mut self) -> R<char> {
        let hi = self.hex4()?;
        let cp = if (0xD800..0xDC00).contains(&hi) {
            if self.b.get(self.pos..self.pos + 2) != Some(b"\\u") {
                return self.err("unpaired surrogate in \\u escape");
            }
            self.pos += 2;
            let lo = self.hex4()?;
            if !(0xDC00..0xE000).contains(&lo) {
                return self.err("unpaired surrogate in \\u escape");
            }
            0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
        } else if (0xDC00..0xE000).contains(&hi) {
            return self.err("unpaired surrogate in \\u escape");
        } else {
            hi
        };
        // Invariant: surrogates were excluded above, so cp is a scalar value.
        Ok(char::from_u32(cp).expect("not a surrogate"))
    }

    /// A string; the opening quote is at `pos`.
    fn string(&mut self) -> R<Cow<'a, str>> {
        self.pos += 1;
        let start = self.pos;
        // Fast scan to the next byte that needs a look: '"', '\\' or a control character.
        let mut i = self.pos;
        while i < self.b.len() && !STRING_SPECIAL[usize::from(self.b[i])] {
            i += 1;
        }
        self.pos = i;
        match self.peek() {
            None => return self.err("unterminated string"),
            Some(b'"') => {
                let s = &self.s[start..self.pos];
                self.pos += 1;
                return Ok(Cow::Borrowed(s));
            }
            Some(b'\\') => {}
            // The scan stops only at '"', '\\' or a control character.
            Some(_) => return self.err("control character in string"),
        }
        // Slow path: the string has escapes.
        let mut out = String::from(&self.s[start..self.pos]);
        loop {
            match self.peek() {
                None => return self.err("unterminated string"),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(Cow::Owned(out));
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let c = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.pos += 1;
                            out.push(self.unicode_escape()?);
                            continue;
                        }
                        _ => return self.err("bad escape in string"),
                    };
                    out.push(c);
                    self.pos += 1;
                }
                Some(c) if c < 0x20 => return self.err("control character in string"),
                Some(_) => {
                    // Copy one UTF-8 character (the input is a &str, so boundaries are valid).
                    let ch_start = self.pos;
                    self.pos += 1;
                    while self.pos < self.b.len() && !self.s.is_char_boundary(self.pos) {
                        self.pos += 1;
                    }
                    out.push_str(&self.s[ch_start..self.pos]);
                }
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.pos - start
    }

    fn number(&mut self) -> R<&'a str> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return self.err("bad number"),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return self.err("bad number: no digit after '.'");
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return self.err("bad number: no digit in exponent");
            }
        }
        Ok(&self.s[start..self.pos])
    }

    fn literal(&mut self, word: &'static [u8], v: Val<'a>) -> R<Val<'a>> {
        if self.b.get(self.pos..self.pos + word.len()) == Some(word) {
            self.pos += word.len();
            Ok(v)
        } else {
            self.err("unexpected character")
        }
    }

    fn value(&mut self, depth: usize) -> R<Val<'a>> {
        match self.peek() {
            Some(b'"') => Ok(Val::Str(self.string()?)),
            Some(b'{') => {
                let start = self.pos;
                self.object(depth + 1, &mut |_, _| Ok(()))?;
                Ok(Val::Object(&self.s[start..self.pos]))
            }
            Some(b'[') => {
                let start = self.pos;
                self.array(depth + 1)?;
                Ok(Val::Array(&self.s[start..self.pos]))
            }
            Some(b't') => self.literal(b"true", Val::Bool(true)),
            Some(b'f') => self.literal(b"false", Val::Bool(false)),
            Some(b'n') => self.literal(b"null", Val::Null),
            Some(b'-' | b'0'..=b'9') => Ok(Val::Num(self.number()?)),
            None => self.err("unexpected end of line"),
            Some(_) => self.err("unexpected character"),
        }
    }

    fn array(&mut self, depth: usize) -> R<()> {
        if depth > MAX_DEPTH {
            return self.err("nesting deeper than 64 levels (the line's object is level 1)");
        }
        self.pos += 1;
        self.ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            self.ws();
            self.value(depth)?;
            self.ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return self.err("expected ',' or ']'"),
            }
        }
    }

    /// An object at `pos`; calls `member` for each of its members, in order.
    fn object(&mut self, depth: usize, member: &mut dyn FnMut(&str, Val<'a>) -> R<()>) -> R<()> {
        if depth > MAX_DEPTH {
            return self.err("nesting deeper than 64 levels (the line's object is level 1)");
        }
        self.expect(b'{', "expected '{'")?;
        let mut keys = KeySet::new();
        self.ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return self.err("expected a key string");
            }
            let key = self.string()?;
            if !keys.insert(&key) {
                return Err(JsonError::DuplicateKey(key.into_owned()));
            }
            self.ws();
            self.expect(b':', "expected ':'")?;
            self.ws();
            let v = self.value(depth)?;
            member(&key, v)?;
            self.ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return self.err("expected ',' or '}'"),
            }
        }
    }
}

/// Parses `text` as exactly one JSON object (surrounding whitespace allowed) and calls `member`
/// for each member of it. Nested values are fully validated; duplicate keys are refused at any
/// depth.
pub(super) fn for_each_member<'a>(
    text: &'a str,
    member: &mut dyn FnMut(&str, Val<'a>) -> R<()>,
) -> R<()> {
    let mut p = Parser {
        s: text,
        b: text.as_bytes(),
        pos: 0,
    };
    p.ws();
    if p.peek() != Some(b'{') {
        return if p.peek().is_none() {
            p.err("empty line")
        } else {
            p.err("a line must be one JSON object")
        };
    }
    p.object(1, member)?;
    p.ws();
    if p.pos != p.b.len() {
        return p.err("text after the object");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members(s: &str) -> R<Vec<(String, Val<'_>)>> {
        let mut v = Vec::new();
        for_each_member(s, &mut |k, val| {
            v.push((k.to_string(), val));
            Ok(())
        })?;
        Ok(v)
    }

    #[test]
    fn reads_members_borrowed() {
        let m = members(r#"{"a":"x","b":12,"c":null,"d":{"e":[1,2.5e3,true]}}"#).unwrap();
        assert_eq!(m.len(), 4);
        assert!(matches!(&m[0].1, Val::Str(Cow::Borrowed("x"))));
        assert_eq!(m[1].1, Val::Num("12"));
        assert_eq!(m[3].1, Val::Object(r#"{"e":[1,2.5e3,true]}"#));
        // A number's text is kept exactly, an exponent's sign included.
        let m = members(r#"{"a":1e+5,"b":-2E-3,"c":0.5e7}"#).unwrap();
        let nums: Vec<&Val> = m.iter().map(|(_, v)| v).collect();
        assert_eq!(
            nums,
            [&Val::Num("1e+5"), &Val::Num("-2E-3"), &Val::Num("0.5e7")]
        );
    }

    #[test]
    fn duplicate_key_in_one_object_is_refused_at_any_depth() {
        assert_eq!(
            members(r#"{"a":1,"b":2,"a":3}"#),
            Err(JsonError::DuplicateKey("a".into()))
        );
        assert_eq!(
            members(r#"{"x":{"k":1,"k":2}}"#),
            Err(JsonError::DuplicateKey("k".into()))
        );
        // The same key written with an escape is still the same key.
        assert_eq!(
            members(r#"{"type":1,"\u0074ype":2}"#),
            Err(JsonError::DuplicateKey("type".into()))
        );
        // Many keys (beyond the inline storage) are still all tracked.
        let many: Vec<String> = (0..20).map(|i| format!("\"k{i}\":0")).collect();
        let line = format!("{{{},\"k3\":1}}", many.join(","));
        assert_eq!(members(&line), Err(JsonError::DuplicateKey("k3".into())));
        // The same key in two different objects is fine.
        assert!(members(r#"{"k":{"k":1}}"#).is_ok());
    }

    #[test]
    fn escapes_are_decoded() {
        let m = members(r#"{"a":"p\u002d1\n\ud83d\ude00"}"#).unwrap();
        assert_eq!(m[0].1, Val::Str(Cow::Owned("p-1\n\u{1F600}".into())));
        // Hex digits in either case (RFC 8259 §7), each digit's value in place.
        let m = members(r#"{"a":"\u00C9\u00e9\uABCD\uD83D\uDE00"}"#).unwrap();
        assert_eq!(
            m[0].1,
            Val::Str(Cow::Owned("\u{c9}\u{e9}\u{abcd}\u{1F600}".into()))
        );
    }

    #[test]
    fn invalid_json_is_refused() {
        for bad in [
            "",
            "[]",
            "{",
            r#"{"a":1"#,
            r#"{"a":1,}"#,
            r#"{"a":01}"#,
            r#"{"a":1.}"#,
            r#"{"a":+1}"#,
            r#"{"a":"\x"}"#,
            "{\"a\":\"\u{1}\"}",
            r#"{"a":"\ud800"}"#,
            r#"{"a":tru}"#,
            r#"{"a":1} x"#,
            r"{a:1}",
            r#"{"a":1}{}"#,
        ] {
            assert!(
                matches!(members(bad), Err(JsonError::Syntax { .. })),
                "accepted {bad:?}"
            );
        }
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(100), "]".repeat(100));
        assert!(members(&deep).is_err());
    }

    #[test]
    fn every_escape_of_rfc_8259_is_decoded_and_text_after_one_copied_whole() {
        let m = members(r#"{"a":"\"\\\/\b\f\n\r\t"}"#).unwrap();
        assert_eq!(m[0].1, Val::Str(Cow::Owned("\"\\/\u{8}\u{c}\n\r\t".into())));
        // After an escape, characters of one to four bytes are copied as they are.
        let m = members("{\"a\":\"\\nAé€😀z\"}").unwrap();
        assert_eq!(m[0].1, Val::Str(Cow::Owned("\nAé€😀z".into())));
    }

    #[test]
    fn a_control_character_is_refused_before_and_after_an_escape() {
        for line in [
            "{\"a\":\"x\u{1f}\"}",
            "{\"a\":\"\\n\u{1f}\"}",
            "{\"a\":\"\\n\t\"}",
        ] {
            assert_eq!(
                members(line),
                Err(JsonError::Syntax {
                    column: line.len() - 2,
                    reason: "control character in string"
                }),
                "{line:?}"
            );
        }
        // A space and DEL are not control characters for JSON (RFC 8259 §7: U+0000 to U+001F).
        assert!(members("{\"a\":\"\\n \u{7f}\"}").is_ok());
    }

    #[test]
    fn keys_that_share_a_fingerprint_are_still_two_keys() {
        // The same length, first six bytes and last byte: the same fingerprint, other keys.
        assert_eq!(fingerprint("abcdefXg"), fingerprint("abcdefYg"));
        let m = members(r#"{"abcdefXg":1,"abcdefYg":2}"#).unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(
            members(r#"{"abcdefXg":1,"abcdefYg":2,"abcdefXg":3}"#),
            Err(JsonError::DuplicateKey("abcdefXg".into()))
        );
    }

    #[test]
    fn a_syntax_error_names_its_1_based_byte_column() {
        // The reader stops at the closing brace (0-based byte 7), where a key should be.
        assert_eq!(
            members(r#"{"a":1,}"#),
            Err(JsonError::Syntax {
                column: 8,
                reason: "expected a key string"
            })
        );
        assert!(matches!(
            members("  "),
            Err(JsonError::Syntax { column: 3, .. })
        ));
    }

    #[test]
    fn each_value_names_its_json_type_in_words() {
        let m = members(r#"{"s":"x","n":1,"b":true,"z":null,"o":{},"a":[]}"#).unwrap();
        let names: Vec<&str> = m.iter().map(|(_, v)| v.type_name()).collect();
        assert_eq!(
            names,
            [
                "a string",
                "a number",
                "a boolean",
                "null",
                "an object",
                "an array"
            ]
        );
    }
}
