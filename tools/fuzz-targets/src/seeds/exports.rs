//! Seeds of the `export` target: small exports written here, one per feature of the format
//! (spec/formats.md §4.1.1) and one per way to break it, each a few hundred bytes.

use crate::keys;
use urne_verify::crypto::keys::key_id;

const A: &str = "8fa6a03c3ec9478f2a150aefc8f4950bd3e98040be5c0e43b138c2a8c1c8eddc";
const B: &str = "64ddd05e1282573c67ca66b2e064c6f78f7cfd3a877b039a71ae7e2a211065f9";
const C: &str = "00000000000000000000000000000000000000000000000000000000000000ff";

fn header(day: &str, plays: u64, exclusions: u64, extra: &str) -> String {
    let producer = key_id(&keys::public(keys::producer()));
    format!(
        r#"{{"format":"draw-entries","version":1,"operation":"chanceux-noel-2018","day":"{day}","producer":"{producer}","generated_at":"2018-12-26T07:30:00+01:00","status_as_of":"2018-12-26T07:30:00+01:00","plays":{plays},"exclusions":{exclusions}{extra}}}"#
    )
}

fn play(id: &str, account: &str, at: &str, stake: &str, channel: &str, sub: &str) -> String {
    format!(
        r#"{{"type":"play","id":"{id}","account":"{account}","at":"{at}","stake_cents":{stake},"channel":"{channel}","game":"keno","subscription":{sub}}}"#
    )
}

fn excl(account: &str, reason: &str) -> String {
    format!(r#"{{"type":"exclusion","account":"{account}","reason":"{reason}"}}"#)
}

fn file(day: &str, records: &[String], extra: &str) -> Vec<u8> {
    let plays = records.iter().filter(|r| r.contains(r#""play""#)).count() as u64;
    let excl = records.len() as u64 - plays;
    let mut s = header(day, plays, excl, extra);
    s.push('\n');
    for r in records {
        s.push_str(r);
        s.push('\n');
    }
    s.into_bytes()
}

fn at(day: &str, time: &str) -> String {
    format!("{day}T{time}+01:00")
}

/// A day's usual plays: two accounts, online, one retail, one subscription.
fn usual(day: &str) -> Vec<String> {
    let sub_in = r#"{"subscribed_at":"2018-12-01T08:00:00+01:00","plan":"ABO+"}"#;
    vec![
        play("p-1", A, &at(day, "10:00:00"), "2500", "web", "null"),
        play("p-2", A, &at(day, "11:00:00"), "600", "mobile", "null"),
        play("p-3", B, &at(day, "12:30:00"), "1000", "retail", "null"),
        play("p-4", B, &at(day, "23:59:59"), "1500", "app", sub_in),
        play("p-5", C, &at(day, "00:00:00"), "99999", "tablet", "null"),
    ]
}

/// Valid exports: (name, bytes).
fn valid() -> Vec<(String, Vec<u8>)> {
    let d = "2018-12-05";
    let sub_out = r#"{"subscribed_at":"2018-11-30T23:59:59+01:00"}"#;
    let mut v = vec![
        ("empty-day".to_string(), file(d, &[], "")),
        ("usual-p1".into(), file(d, &usual(d), "")),
        (
            "usual-p4".into(),
            file("2018-12-22", &usual("2018-12-22"), ""),
        ),
        (
            "last-day".into(),
            file("2018-12-24", &usual("2018-12-24"), ""),
        ),
    ];
    let mut r = usual(d);
    r.push(excl(B, "minor"));
    r.insert(0, excl(C, "fraud"));
    v.push(("exclusions".into(), file(d, &r, "")));
    let retail_only = vec![
        play("r-1", B, &at(d, "09:00:00"), "5000", "retail", "null"),
        play("o-1", A, &at(d, "09:00:00"), "5000", "web", sub_out),
        excl(B, "closed"),
        excl(A, "fraud"),
    ];
    v.push(("excluded-retail-only".into(), file(d, &retail_only, "")));
    let odd = vec![
        r#"{"\u0074ype":"play","id":"p\u002d1","account":"ACC","at":"2018-12-05t10:00:00z","stake_cents":1000,"channel":"web","game":"Loto é 🎲","subscription":null,"x":[1,2.5e3,{"y":[[]]}],"z":{"a":"b","c":null}}"#
            .replace("ACC", A),
        play("p.2:_-", B, "2018-12-05T09:00:00.123456789-00:00", "1000", "web", "null"),
        play("p3", C, "2018-12-06T22:30:00+23:59", "1000", "web", "null"),
        play("p4", C, "2018-12-05T00:00:00Z", "1000", "web", "null"),
        format!("  {}\t", play("p5", A, &at(d, "10:00:00"), "1", "web", "null")),
    ];
    v.push((
        "unusual-forms".into(),
        file(d, &odd, r#","note":{"k":[true,false]}"#),
    ));
    v
}

/// Invalid exports, one record wrong: (name, bytes).
#[expect(
    clippy::too_many_lines,
    reason = "a table, one seed per entry; cutting it would only split the table"
)]
fn broken() -> Vec<(String, Vec<u8>)> {
    let d = "2018-12-05";
    let t = at(d, "10:00:00");
    let one = |record: String| file(d, &[record], "");
    let v = vec![
        (
            "dup-key".to_string(),
            one(play(
                "p1",
                A,
                &t,
                "1000",
                "web",
                r#"{"subscribed_at":"2018-12-01T08:00:00Z","subscribed_at":"2018-12-01T08:00:00Z"}"#,
            )),
        ),
        (
            "stake-fraction".into(),
            one(play("p1", A, &t, "1000.0", "web", "null")),
        ),
        (
            "stake-exponent".into(),
            one(play("p1", A, &t, "1e3", "web", "null")),
        ),
        (
            "stake-zero".into(),
            one(play("p1", A, &t, "0", "web", "null")),
        ),
        (
            "stake-max".into(),
            one(play("p1", A, &t, "100000001", "web", "null")),
        ),
        (
            "leap-second".into(),
            one(play("p1", A, &at(d, "23:59:60"), "1000", "web", "null")),
        ),
        (
            "hour-24".into(),
            one(play(
                "p1",
                A,
                "2018-12-05T24:00:00+01:00",
                "1000",
                "web",
                "null",
            )),
        ),
        (
            "space-separator".into(),
            one(play(
                "p1",
                A,
                "2018-12-05 10:00:00+01:00",
                "1000",
                "web",
                "null",
            )),
        ),
        (
            "offset-24".into(),
            one(play(
                "p1",
                A,
                "2018-12-05T10:00:00+24:00",
                "1000",
                "web",
                "null",
            )),
        ),
        (
            "next-day".into(),
            one(play(
                "p1",
                A,
                &at("2018-12-06", "00:00:00"),
                "1000",
                "web",
                "null",
            )),
        ),
        (
            "upper-account".into(),
            one(play("p1", &A.to_uppercase(), &t, "1000", "web", "null")),
        ),
        (
            "channel".into(),
            one(play("p1", A, &t, "1000", "kiosk", "null")),
        ),
        (
            "id-chars".into(),
            one(play("p 1", A, &t, "1000", "web", "null")),
        ),
        ("unknown-type".into(), one(r#"{"type":"refund"}"#.into())),
        ("reason".into(), one(excl(A, "banned"))),
        (
            "deep-64".into(),
            one(format!(
                "{{\"type\":\"exclusion\",\"account\":\"{A}\",\"reason\":\"minor\",\"x\":{}1{}}}",
                "[".repeat(63),
                "]".repeat(63)
            )),
        ),
        (
            "deep-65".into(),
            one(format!(
                "{{\"type\":\"exclusion\",\"account\":\"{A}\",\"reason\":\"minor\",\"x\":{}1{}}}",
                "[".repeat(64),
                "]".repeat(64)
            )),
        ),
        (
            "surrogate".into(),
            one(format!(
                "{{\"type\":\"exclusion\",\"account\":\"{A}\",\"reason\":\"minor\",\"x\":\"\\ud800\"}}"
            )),
        ),
        (
            "big-number".into(),
            one(format!(
                "{{\"type\":\"exclusion\",\"account\":\"{A}\",\"reason\":\"minor\",\"x\":1e400}}"
            )),
        ),
    ];
    v
}

/// Invalid exports whose fault is in the file, not in one record: (name, bytes).
fn broken_files() -> Vec<(String, Vec<u8>)> {
    let d = "2018-12-05";
    let t = at(d, "10:00:00");
    let mut v = vec![];
    let two = |a: String, b: String| file(d, &[a, b], "");
    v.push((
        "dup-id".into(),
        two(
            play("p1", A, &t, "1000", "web", "null"),
            play("p1", B, &t, "1000", "web", "null"),
        ),
    ));
    v.push((
        "dup-exclusion".into(),
        two(excl(A, "minor"), excl(A, "fraud")),
    ));
    let mut f = file(d, &usual(d), "");
    f.pop();
    v.push(("no-final-lf".into(), f));
    let mut f = file(d, &usual(d), "");
    f.extend_from_slice(b"\n");
    v.push(("blank-line".into(), f));
    let mut f = b"\xef\xbb\xbf".to_vec();
    f.extend(file(d, &usual(d), ""));
    v.push(("bom".into(), f));
    v.push((
        "crlf".into(),
        file(d, &usual(d), "")
            .iter()
            .flat_map(|&b| {
                if b == b'\n' {
                    vec![b'\r', b'\n']
                } else {
                    vec![b]
                }
            })
            .collect(),
    ));
    v.push((
        "cr-inside".into(),
        file(d, &usual(d), "")
            .iter()
            .flat_map(|&b| {
                if b == b',' {
                    vec![b'\r', b',']
                } else {
                    vec![b]
                }
            })
            .collect(),
    ));
    v.push((
        "count-mismatch".into(),
        format!("{}\n", header(d, 2, 0, "")).into_bytes(),
    ));
    v.push((
        "version-float".into(),
        format!("{}\n", header(d, 0, 0, ""))
            .replace(r#""version":1"#, r#""version":1.0"#)
            .into_bytes(),
    ));
    v.push(("day-outside".into(), file("2018-11-30", &[], "")));
    v.push((
        "not-utf8".into(),
        [file(d, &[], ""), b"\xff\n".to_vec()].concat(),
    ));
    v
}

/// Every seed of the `export` target: (name, bytes).
pub fn seeds() -> Vec<(String, Vec<u8>)> {
    let mut v = valid();
    v.extend(broken());
    v.extend(broken_files());
    v
}
