//! The export's rules that are limits or single bytes (spec/formats.md §4.1.1 and the file limits): no CR
//! anywhere, every line at most 2^20 bytes without its LF wherever it lies in the file, nesting
//! at most 64 levels, the file at most 2^34 bytes.

use crate::entries::read::BLOCK;
use crate::entries::testkit::{excl, export, play, refusal, tally, tally_with};
use crate::entries::{
    ExportErrorKind, MAX_DEPTH, MAX_EXPORT_BYTES, MAX_LINE, check_export_metadata,
    check_export_size,
};
use crate::rules::draw::DrawRules;

const AT: &str = "2018-12-05T10:00:00+01:00";

/// The bytes of `data` with a CR inserted at `at`.
fn with_cr(data: &[u8], at: usize) -> Vec<u8> {
    let mut d = data.to_vec();
    d.insert(at, b'\r');
    d
}

#[test]
fn a_cr_anywhere_in_a_line_is_refused() {
    let line = play("a", 1, AT, 1000, "web");
    let data = export("2018-12-05", std::slice::from_ref(&line));
    let start = data.len() - line.len() - 1;
    // Every place in the play line: between tokens (after `{`, around `:` and `,`, before `}`),
    // inside strings and numbers, first byte, and before the LF.
    for k in 0..=line.len() {
        let bad = with_cr(&data, start + k);
        let e = refusal(&bad);
        let want = if k == line.len() {
            ExportErrorKind::Crlf
        } else {
            ExportErrorKind::CarriageReturn(k + 1)
        };
        assert_eq!((e.line, e.kind), (Some(2), want), "CR at column {}", k + 1);
    }
    // A layout only the general reader takes: a CR in its whitespace is refused too.
    let spaced = line.replace(',', ", ");
    let data = export("2018-12-05", std::slice::from_ref(&spaced));
    assert_eq!(tally(&data).unwrap().plays, 1);
    let at = data.len() - spaced.len() - 1 + spaced.find(", ").unwrap() + 1;
    let e = refusal(&with_cr(&data, at));
    assert_eq!((e.line, e.kind.name()), (Some(2), "carriage-return"));
    // The header and an exclusion line.
    let data = export("2018-12-05", &[excl(1, "closed")]);
    let e = refusal(&with_cr(&data, 1));
    assert_eq!(
        (e.line, e.kind),
        (Some(1), ExportErrorKind::CarriageReturn(2))
    );
    let colon = data.len() - 20;
    assert_eq!(refusal(&with_cr(&data, colon)).line, Some(2));
    // A CR that is the whole line.
    let mut d = export("2018-12-05", &[]);
    d.extend_from_slice(b"\r\n");
    assert_eq!(refusal(&d).kind, ExportErrorKind::Crlf);
}

#[test]
fn the_json_reader_takes_no_cr_as_whitespace() {
    let mut seen = 0;
    let r = crate::entries::json::for_each_member("{\"a\":\r1}", &mut |_, _| {
        seen += 1;
        Ok(())
    });
    assert!(r.is_err());
    assert!(crate::entries::json::for_each_member("{\"a\": \t1}\n", &mut |_, _| Ok(())).is_ok());
}

/// A play line of exactly `len` bytes (an unknown member `pad` fills it).
fn padded_play(id: &str, account: u8, len: usize) -> String {
    let base = play(id, account, AT, 1000, "web");
    let open = format!("{},\"pad\":\"", &base[..base.len() - 1]);
    let fill = len
        .checked_sub(open.len() + 2)
        .expect("long enough for the play");
    format!("{open}{}\"}}", "x".repeat(fill))
}

/// Play lines that take exactly `total` bytes, LFs included (at least 1,001 bytes or none).
fn filler(total: usize) -> Vec<String> {
    if total == 0 {
        return vec![];
    }
    let n = total / 1001;
    assert!(n >= 1, "filler of {total} bytes");
    let mut v: Vec<String> = (0..n)
        .map(|i| padded_play(&format!("f{i}"), 2, 1000))
        .collect();
    v[n - 1] = padded_play(&format!("f{}", n - 1), 2, 1000 + total - n * 1001);
    v
}

/// The header's length (LF included) of an export of `plays` plays and no exclusion.
fn header_len(plays: usize) -> usize {
    export("2018-12-05", &[]).len() - 1 + plays.to_string().len()
}

/// An export with a record line of `len` bytes starting at byte `start` of the file (filler
/// lines before it, one play after it); returns it and that line's number.
fn long_line_at(start: usize, len: usize) -> (Vec<u8>, u64) {
    // The header's length depends on the number of plays (its digits): settle both.
    let mut n = 0;
    let mut recs = loop {
        let fill = filler(start - header_len(n + 2));
        if fill.len() == n {
            break fill;
        }
        n = fill.len();
    };
    let long = padded_play("long", 3, len);
    recs.push(long.clone());
    recs.push(play("after", 4, AT, 2000, "web"));
    let data = export("2018-12-05", &recs);
    assert_eq!(&data[start..=start + len], format!("{long}\n").as_bytes());
    (data, n as u64 + 2)
}

/// Where reads fall: line 1 is read in 64 KiB blocks, the rest in blocks of `BLOCK` after it.
const HEADER_READ: usize = 64 << 10;

#[test]
fn a_line_of_the_limit_is_read_and_one_byte_more_refused_at_any_offset() {
    let first = HEADER_READ + BLOCK; // the end of the first chunk's read
    let second = first + BLOCK;
    let starts = [
        2_000,                 // in the bytes read with the header
        HEADER_READ - 3,       // straddling the header's read
        300_000,               // inside the first chunk
        first - MAX_LINE - 1,  // its last byte (or LF) at the end of a read
        first - MAX_LINE,      // the LF just after a read
        first - MAX_LINE / 2,  // straddling a read
        first - 1,             // starting at the last byte of a read
        first,                 // starting a read
        second - MAX_LINE / 3, // straddling the second read
    ];
    let rules = DrawRules::chanceux_noel_2018();
    for start in starts {
        for (len, ok) in [
            (MAX_LINE, true),
            (MAX_LINE + 1, false),
            (2 * MAX_LINE, false),
        ] {
            let (data, line) = long_line_at(start, len);
            for threads in [1, 2] {
                let r = tally_with(&data, &rules, threads);
                let what = format!("line of {len} bytes at byte {start}, {threads} threads");
                if ok {
                    let t = r.unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert_eq!(t.plays, line, "{what}");
                } else {
                    let e = r.expect_err(&what);
                    assert_eq!(
                        (e.line, e.kind),
                        (Some(line), ExportErrorKind::LineTooLong(MAX_LINE)),
                        "{what}"
                    );
                }
            }
        }
    }
    // Longer than a whole read too.
    let (data, line) = long_line_at(first - 10, BLOCK + 10);
    assert_eq!(refusal(&data).line, Some(line));
}

/// A last line with no LF: of the limit's length, what is wrong is the missing LF; one byte
/// longer, the length. The rest of the file is read in one piece that holds no LF, so the
/// line's length is weighed at the end of a read, before the end of the file is seen.
#[test]
fn a_last_line_of_the_limit_without_its_lf_lacks_the_lf_one_byte_more_is_too_long() {
    let rules = DrawRules::chanceux_noel_2018();
    for (len, want) in [
        (MAX_LINE, ExportErrorKind::MissingFinalNewline),
        (MAX_LINE + 1, ExportErrorKind::LineTooLong(MAX_LINE)),
    ] {
        let mut data = export("2018-12-05", &[padded_play("long", 3, len)]);
        assert_eq!(data.pop(), Some(b'\n'));
        for threads in [1, 2] {
            let e = tally_with(&data, &rules, threads).expect_err("no final LF");
            assert_eq!((e.line, e.kind), (Some(2), want.clone()), "{len} bytes");
        }
    }
}

#[test]
fn the_header_line_has_the_same_limit() {
    let good = String::from_utf8(export("2018-12-05", &[])).unwrap();
    let header = good.trim_end_matches('\n');
    for (len, ok) in [
        (MAX_LINE, true),
        (MAX_LINE + 1, false),
        (HEADER_READ * 16 + 1, false),
        (3 * MAX_LINE, false),
    ] {
        let open = format!("{},\"pad\":\"", &header[..header.len() - 1]);
        let line = format!("{open}{}\"}}\n", "x".repeat(len - open.len() - 2));
        assert_eq!(line.len(), len + 1);
        match tally(line.as_bytes()) {
            Ok(t) => assert!(ok, "{len}: accepted, {} plays", t.plays),
            Err(e) => {
                assert!(!ok, "{len}: {e}");
                assert_eq!(
                    (e.line, e.kind),
                    (Some(1), ExportErrorKind::LineTooLong(MAX_LINE))
                );
            }
        }
    }
}

/// `depth` levels of nesting in all: the line's object, then objects and arrays inside it.
fn nested(depth: usize) -> String {
    let inner = depth - 1;
    let open: String = (0..inner)
        .map(|i| if i % 2 == 0 { "{\"k\":" } else { "[" })
        .collect();
    let close: String = (0..inner)
        .rev()
        .map(|i| if i % 2 == 0 { "}" } else { "]" })
        .collect();
    let base = play("a", 1, AT, 1000, "web");
    format!("{},\"deep\":{open}0{close}}}", &base[..base.len() - 1])
}

#[test]
fn nesting_of_64_levels_is_read_and_65_refused() {
    assert_eq!(MAX_DEPTH, 64);
    let t = tally(&export("2018-12-05", &[nested(MAX_DEPTH)])).unwrap();
    assert_eq!(t.total_entries, 1);
    let e = refusal(&export("2018-12-05", &[nested(MAX_DEPTH + 1)]));
    assert_eq!((e.line, e.kind.name()), (Some(2), "invalid-json"));
    assert!(e.to_string().contains("nesting deeper than 64"), "{e}");
    // In the header too.
    let good = String::from_utf8(export("2018-12-05", &[])).unwrap();
    for (depth, ok) in [(MAX_DEPTH, true), (MAX_DEPTH + 1, false)] {
        let deep = "[".repeat(depth - 1) + &"]".repeat(depth - 1);
        let h = good.replacen('{', &format!("{{\"x\":{deep},"), 1);
        assert_eq!(tally(h.as_bytes()).is_ok(), ok, "{depth}");
    }
}

#[test]
fn an_export_over_the_size_limit_is_refused_from_its_metadata() {
    assert_eq!(MAX_EXPORT_BYTES, 17_179_869_184);
    assert!(check_export_size(MAX_EXPORT_BYTES).is_ok());
    let e = check_export_size(MAX_EXPORT_BYTES + 1).unwrap_err();
    assert_eq!((e.line, e.kind.clone()), (None, ExportErrorKind::TooLarge));
    assert_eq!(
        e.to_string(),
        "the export holds more than 17179869184 bytes, the most an export may hold"
    );
    // A sparse file one byte over the limit (nothing is written), a small one, a folder.
    let dir = std::env::temp_dir().join(format!("urne-verify-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.jsonl");
    let f = std::fs::File::create(&big).unwrap();
    let sparse = f.set_len(MAX_EXPORT_BYTES + 1).is_ok();
    drop(f);
    let small = dir.join("small.jsonl");
    std::fs::write(&small, export("2018-12-05", &[])).unwrap();
    let meta = |p: &std::path::Path| std::fs::metadata(p).unwrap();
    assert!(check_export_metadata(&meta(&small)).is_ok());
    assert_eq!(
        check_export_metadata(&meta(&dir)).unwrap_err().kind,
        ExportErrorKind::NotAFile
    );
    if sparse {
        assert_eq!(
            check_export_metadata(&meta(&big)).unwrap_err().kind,
            ExportErrorKind::TooLarge
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
