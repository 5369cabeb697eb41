//! The record lines of a chunk: each by the fast path for a play line in the usual layout
//! ([`super::fast`]), else by the general reader, which accepts any layout the format allows
//! (spec/formats.md §4.1.1) or names the rule the line breaks. Both give the same result.

use super::counting::{Ctx, Partial, add_exclusion, add_play};
use super::error::{ExportErrorKind, LineErr};
use super::fast::{self, FastPlay};
use super::fields::{
    MAX_STAKE_CENTS, json_err, no_cr, out_of_range, req, req_account, req_instant, req_int,
    req_str, valid_play_id,
};
use super::json::{self, Val};
use super::limits::MAX_LINE;
use super::rfc3339;
use crate::rules::draw::{Channel, ExclusionReason};

/// Field slots of a record line. Each known key can be set once (the JSON reader refuses
/// duplicates); unknown keys are ignored (forward compatibility).
#[derive(Default)]
struct Fields<'a> {
    ty: Option<Val<'a>>,
    id: Option<Val<'a>>,
    account: Option<Val<'a>>,
    at: Option<Val<'a>>,
    stake_cents: Option<Val<'a>>,
    channel: Option<Val<'a>>,
    game: Option<Val<'a>>,
    subscription: Option<Val<'a>>,
    reason: Option<Val<'a>>,
}

/// Parses every line of `bytes` (whole lines, each ending in LF; the first is line
/// `first_line`) into `p`; stops at the first bad line.
pub(super) fn parse_chunk(
    bytes: &[u8],
    first_line: u64,
    ctx: &Ctx<'_>,
    p: &mut Partial,
) -> Result<(), LineErr> {
    let mut line = first_line;
    let mut rest = bytes;
    while let Some(i) = memchr::memchr(b'\n', rest) {
        // The line limit, for every line wherever the chunks were cut (the reading thread only
        // sees the line a chunk ends on).
        if i > MAX_LINE {
            return Err((line, ExportErrorKind::LineTooLong(MAX_LINE)));
        }
        parse_record(&rest[..i], line, ctx, p).map_err(|k| (line, k))?;
        rest = &rest[i + 1..];
        line += 1;
    }
    Ok(())
}

/// One record line: the fast path for a play line in the usual layout, else the general reader.
/// Both give the same result (see `fast`).
fn parse_record(
    raw: &[u8],
    line: u64,
    ctx: &Ctx<'_>,
    p: &mut Partial,
) -> Result<(), ExportErrorKind> {
    match fast::play(raw) {
        Some(play) => add_play(&play, line, ctx, p),
        None => parse_record_general(raw, line, ctx, p),
    }
}

/// Any record line, by the general JSON reader.
fn parse_record_general(
    raw: &[u8],
    line: u64,
    ctx: &Ctx<'_>,
    p: &mut Partial,
) -> Result<(), ExportErrorKind> {
    // The fast path never takes a line with a CR (its byte classes exclude control bytes).
    no_cr(raw)?;
    let text = std::str::from_utf8(raw).map_err(|_| ExportErrorKind::NotUtf8)?;
    let mut f = Fields::default();
    json::for_each_member(text, &mut |k, v| {
        let slot = match k {
            "type" => &mut f.ty,
            "id" => &mut f.id,
            "account" => &mut f.account,
            "at" => &mut f.at,
            "stake_cents" => &mut f.stake_cents,
            "channel" => &mut f.channel,
            "game" => &mut f.game,
            "subscription" => &mut f.subscription,
            "reason" => &mut f.reason,
            _ => return Ok(()), // unknown fields are ignored (forward compatibility)
        };
        *slot = Some(v);
        Ok(())
    })
    .map_err(json_err)?;

    let ty = req_str(f.ty.take(), "type")?;
    match &*ty {
        "play" => play_record(f, line, ctx, p),
        "exclusion" => {
            let account = req_account(f.account)?;
            let r_s = req_str(f.reason, "reason")?;
            let reason = ExclusionReason::parse(&r_s)
                .filter(|r| ctx.rules.exclusion_reasons().contains(r))
                .ok_or_else(|| {
                    out_of_range("reason", format!("{r_s:?} is not closed, minor or fraud"))
                })?;
            add_exclusion(p, account, reason, line);
            Ok(())
        }
        _ => Err(ExportErrorKind::UnknownType(ty.into_owned())),
    }
}

/// A play record's fields, checked one by one in the order of the format, then added.
fn play_record(
    f: Fields<'_>,
    line: u64,
    ctx: &Ctx<'_>,
    p: &mut Partial,
) -> Result<(), ExportErrorKind> {
    let id = req_str(f.id, "id")?;
    if !valid_play_id(&id) {
        return Err(out_of_range(
            "id",
            format!("{id:?} is not 1-64 characters of [A-Za-z0-9._:-]"),
        ));
    }
    let account = req_account(f.account)?;
    let at_s = req_str(f.at, "at")?;
    let at = rfc3339::parse_unix(&at_s).ok_or_else(|| {
        out_of_range(
            "at",
            format!("{at_s:?} is not an RFC 3339 date-time with offset"),
        )
    })?;
    let stake = req_int(f.stake_cents, "stake_cents")?;
    if !(1..=i128::from(MAX_STAKE_CENTS)).contains(&stake) {
        return Err(out_of_range(
            "stake_cents",
            format!("{stake} is not in 1 … {MAX_STAKE_CENTS}"),
        ));
    }
    // Exact: `stake` was just checked to be in 1 ..= MAX_STAKE_CENTS.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let stake = stake as u64;
    let ch_s = req_str(f.channel, "channel")?;
    let channel = Channel::parse(&ch_s).ok_or_else(|| {
        out_of_range(
            "channel",
            format!("{ch_s:?} is not web, mobile, tablet, app or retail"),
        )
    })?;
    let game = req_str(f.game, "game")?;
    if !(1..=64).contains(&game.chars().count()) {
        return Err(out_of_range("game", "must be 1-64 characters".into()));
    }
    let subscribed_at = subscription(f.subscription)?;
    add_play(
        &FastPlay {
            id: id.as_bytes(),
            account,
            at_s: at_s.as_bytes(),
            at,
            stake,
            channel,
            subscribed_at,
        },
        line,
        ctx,
        p,
    )
}

/// A play's `subscription`: `null`, or an object whose `subscribed_at` is an RFC 3339 instant.
fn subscription(v: Option<Val<'_>>) -> Result<Option<i64>, ExportErrorKind> {
    match req(v, "subscription")? {
        Val::Null => Ok(None),
        Val::Object(obj) => {
            let mut sub_at = None;
            json::for_each_member(obj, &mut |k, v| {
                if k == "subscribed_at" {
                    sub_at = Some(v);
                }
                Ok(())
            })
            .map_err(json_err)?;
            Ok(Some(req_instant(sub_at, "subscription.subscribed_at")?.0))
        }
        other => Err(ExportErrorKind::WrongType {
            field: "subscription",
            expected: "null or an object",
            found: other.type_name(),
        }),
    }
}

// Test data: random values reduced modulo small lengths (of a line, a table) before the cast.
#[cfg(test)]
#[allow(clippy::cast_possible_truncation)]
mod tests {
    use super::*;
    use crate::entries::accounts::account_of;
    use crate::entries::testkit::{excl, play, splitmix, sub_play};
    use crate::rules::draw::DrawRules;
    use chrono::NaiveDate;

    /// Everything one record line does to a worker's state.
    type Outcome = (
        Result<(), ExportErrorKind>,
        [u64; 4],
        Vec<u64>,
        Vec<([u8; 32], u64)>,
    );

    fn outcome(raw: &[u8], ctx: &Ctx<'_>, general_only: bool) -> Outcome {
        let mut p = Partial::default();
        let r = if general_only {
            parse_record_general(raw, 7, ctx, &mut p)
        } else {
            parse_record(raw, 7, ctx, &mut p)
        };
        let sums: Vec<([u8; 32], u64)> = p
            .accounts
            .into_sorted()
            .into_iter()
            .map(|(k, c)| (account_of(&k), c))
            .collect();
        (
            r,
            [p.plays, p.counting, p.retail, p.subs_refused],
            p.ids.fingerprints,
            sums,
        )
    }

    /// A random play line in the producer's usual layout, with values often at or beyond the
    /// edges of what is valid.
    fn random_play_line(st: &mut u64) -> String {
        const ID_CHARS: &[u8] = b"abcXYZ019._:-";
        let mut pick = |n: u64| (splitmix(st) % n) as usize;
        let id_len = [1, 5, 13, 15, 16, 64, 65, 0][pick(8)];
        let id: String = (0..id_len)
            .map(|_| char::from(ID_CHARS[pick(ID_CHARS.len() as u64)]))
            .collect();
        let account: String = (0..64)
            .map(|_| char::from(b"0123456789abcdef"[pick(16)]))
            .collect();
        let ts = |pick: &mut dyn FnMut(u64) -> usize| {
            let day = [
                "2018-12-05",
                "2018-12-04",
                "2018-12-06",
                "2018-11-30",
                "2018-12-24",
            ][pick(5)];
            let hms = [
                "00:00:00",
                "22:59:59",
                "23:00:00",
                "10:11:12",
                "23:59:59",
                "12:00:00.5",
            ][pick(6)];
            let off = ["Z", "+01:00", "-05:00", "+00:00", "z", "+14:00"][pick(6)];
            format!("{day}T{hms}{off}")
        };
        let at = ts(&mut pick);
        let stake = [
            "1",
            "100",
            "1500",
            "99999999",
            "100000000",
            "100000001",
            "0",
            "1000000000",
        ][pick(8)];
        let channel = ["web", "mobile", "tablet", "app", "retail", "shop"][pick(6)];
        let game = [
            "loto",
            "bingo-live",
            &"g".repeat(64),
            &"g".repeat(65),
            "é",
            " x ",
        ][pick(6)]
        .to_string();
        let sub = if pick(4) == 0 {
            format!(r#"{{"subscribed_at":"{}"}}"#, ts(&mut pick))
        } else {
            "null".into()
        };
        format!(
            r#"{{"type":"play","id":"{id}","account":"{account}","at":"{at}","stake_cents":{stake},"channel":"{channel}","game":"{game}","subscription":{sub}}}"#
        )
    }

    #[test]
    fn fast_path_and_general_reader_agree_on_generated_and_mutated_lines() {
        const INTERESTING: &[u8] =
            b"\"\\ {}[],:0159aAfFzZtT.+-_nul\x00\x1f\x7f\x80\xc3\xa9\xff\r\n";
        let rules = DrawRules::chanceux_noel_2018();
        let day = NaiveDate::from_ymd_opt(2018, 12, 5).unwrap();
        let (day_start, day_end) = rules.day_bounds(day).unwrap();
        let ctx = Ctx {
            rules: &rules,
            day,
            day_start,
            day_end,
            suspects: None,
        };
        let mut st = 42u64;
        let (mut fast_ok, mut cases) = (0, 0);
        for i in 0..30_000 {
            let mut line = random_play_line(&mut st).into_bytes();
            // Mutate most lines: replace, insert or delete bytes, or move a slice.
            let mutations = if i % 4 == 0 {
                0
            } else {
                1 + splitmix(&mut st) % 3
            };
            for _ in 0..mutations {
                let n = line.len() as u64;
                let at = (splitmix(&mut st) % n) as usize;
                let byte = INTERESTING[(splitmix(&mut st) % INTERESTING.len() as u64) as usize];
                match splitmix(&mut st) % 5 {
                    0 => line[at] = byte,
                    1 => line.insert(at, byte),
                    2 => {
                        line.remove(at);
                    }
                    3 => line[at] = line[at].wrapping_add(1),
                    _ => {
                        let len = (splitmix(&mut st) % 12) as usize;
                        let end = (at + len).min(line.len());
                        let piece: Vec<u8> = line.drain(at..end).collect();
                        let to = (splitmix(&mut st) % (line.len() as u64 + 1)) as usize;
                        line.splice(to..to, piece);
                    }
                }
                if line.is_empty() {
                    line.push(b'{');
                }
            }
            let general = outcome(&line, &ctx, true);
            let both = outcome(&line, &ctx, false);
            assert_eq!(both, general, "{:?}", String::from_utf8_lossy(&line));
            cases += 1;
            if fast::play(&line).is_some() {
                fast_ok += 1;
                assert!(
                    general.0.is_ok()
                        || general.0.as_ref().unwrap_err().name() == "play-not-on-day"
                );
            }
        }
        // The fast path must really have been taken, and declined, many times.
        assert!(fast_ok > cases / 20, "{fast_ok} of {cases}");
        assert!(fast_ok < cases / 2, "{fast_ok} of {cases}");
    }

    #[test]
    fn fast_path_takes_the_usual_lines() {
        for line in [
            play("p-1", 1, "2018-12-05T10:00:00+01:00", 1000, "web"),
            play("a", 200, "2018-12-05T10:00:00Z", 100_000_000, "retail"),
            sub_play(
                "b",
                3,
                "2018-12-05T10:00:00+01:00",
                1,
                "2018-12-02T00:00:00Z",
            ),
        ] {
            assert!(fast::play(line.as_bytes()).is_some(), "{line}");
        }
        let at = "2018-12-05T10:00:00+01:00";
        for line in [
            play("p-1", 1, at, 1000, "web").replace(":1000,", ": 1000,"),
            play("p-1", 1, at, 1000, "web").replace("p-1", "p\\u002d1"),
            play("p-1", 1, at, 1000, "web").replace("loto", "lotô"),
            play("p-1", 1, at, 1000, "web") + " ",
            // A stake of 0, or with a leading zero (not JSON): the general reader refuses them.
            play("p-1", 1, at, 1000, "web").replace(":1000,", ":0,"),
            play("p-1", 1, at, 1000, "web").replace(":1000,", ":01000,"),
            play("p-1", 1, at, 1000, "web").replace(":1000,", ":1000000000,"),
            // No digit at all: the general reader refuses it (not a number).
            play("p-1", 1, at, 1000, "web").replace(":1000,", ":,"),
            // A game empty or longer than 64 bytes: the general reader refuses them.
            play("p-1", 1, at, 1000, "web").replace("\"loto\"", "\"\""),
            play("p-1", 1, at, 1000, "web").replace("loto", &"g".repeat(65)),
            excl(1, "closed"),
        ] {
            assert!(fast::play(line.as_bytes()).is_none(), "{line}");
        }
        // A line that ends where the stake should start: declined, no panic.
        let full = play("p-1", 1, at, 1000, "web");
        let cut = &full[..full.find("1000,").unwrap()];
        assert!(fast::play(cut.as_bytes()).is_none(), "{cut}");
        // A game of 64 bytes is taken.
        let line = play("p-1", 1, at, 1000, "web").replace("loto", &"g".repeat(64));
        assert!(fast::play(line.as_bytes()).is_some(), "{line}");
    }
}
