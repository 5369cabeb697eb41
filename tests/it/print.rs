//! The minutes printed by a real browser (spec/appliance.md §9.2, issue 13): headless Chromium prints to
//! PDF the minutes of a sitting (several draws, a void, a block generated and one revealed, an
//! interruption), of a key ceremony, and of a lone day (the `pv.html` of a real `urne draw`);
//! poppler's `pdfinfo` and `pdftotext` then check that every page is A4, that the text is all
//! there (title, names, every day, the grouped hashes, `page 1 / N`), that the last page holds
//! more than the signature block, and that no word runs past the page's margin (nor, on a
//! screen 1,200 px wide, past the text's column).
//!
//! The sitting's and the key ceremony's trails are built from the real trail's payloads (keys
//! generated and exported by SoftHSM, a real seal, draw and checkpoint), composed into sittings
//! and rendered by urne-ceremony; `urne ceremony`, which will write them, is tested on its own.
//! Chromium and poppler-utils are installed by scripts/test; without them this test fails.

use crate::common::*;
use crate::draws::{seal, simulate};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use urne_ceremony::minutes::{Given, Lang, Minutes, html, words};
use urne_verify::audit::Event;
use urne_verify::crypto::Hash32;
use urne_verify::rules::draw::DrawRules;
use urne_verify::rules::game::GameRules;

/// Runs a tool, failing the test with a clear message when it is not installed.
pub(crate) fn run(tool: &str, args: &[&str]) -> Vec<u8> {
    let out = Command::new(tool).args(args).output().unwrap_or_else(|e| {
        panic!(
            "{tool} cannot be run ({e}): the printed minutes cannot be checked. Install it with \
             `apt-get install --no-install-recommends chromium poppler-utils` (scripts/test does)"
        )
    });
    assert!(
        out.status.success(),
        "{tool} {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Prints `html` to a PDF with headless Chromium (the flags of the project's tech notes).
pub(crate) fn print(dir: &Path, name: &str, html: &str) -> PathBuf {
    print_with(dir, name, html, &["--no-pdf-header-footer"])
}

/// [`print`] with `flags` for the page's header and footer (none: Chromium's own, a date and
/// the file's URL, unless the page's own margin boxes take their place).
pub(crate) fn print_with(dir: &Path, name: &str, html: &str, flags: &[&str]) -> PathBuf {
    let page = dir.join(format!("{name}.html"));
    std::fs::write(&page, html).unwrap();
    let pdf = dir.join(format!("{name}.pdf"));
    let profile = dir.join(format!("chromium-{name}"));
    run(
        "chromium",
        &[
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            &format!("--user-data-dir={}", profile.display()),
            &format!("--print-to-pdf={}", pdf.display()),
        ]
        .into_iter()
        .chain(flags.iter().copied())
        .chain([format!("file://{}", page.display()).as_str()])
        .collect::<Vec<_>>(),
    );
    if let Ok(keep) = std::env::var("URNE_PRINT_KEEP") {
        std::fs::copy(&pdf, Path::new(&keep).join(format!("{name}.pdf"))).unwrap();
    }
    pdf
}

/// The sizes of the PDF's pages, in points.
pub(crate) fn page_sizes(pdf: &Path) -> Vec<(f64, f64)> {
    let info = String::from_utf8(run(
        "pdfinfo",
        &["-f", "1", "-l", "9999", pdf.to_str().unwrap()],
    ))
    .unwrap();
    info.lines()
        .filter(|l| l.starts_with("Page ") && l.contains(" size: "))
        .map(|l| {
            let dims: Vec<f64> = l
                .split(" size: ")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect();
            (dims[0], dims[1])
        })
        .collect()
}

/// The text of pages `first..=last`, its whitespace (no-break spaces included) collapsed.
pub(crate) fn text(pdf: &Path, first: usize, last: usize) -> String {
    let (f, l) = (first.to_string(), last.to_string());
    let raw = run(
        "pdftotext",
        &["-f", &f, "-l", &l, pdf.to_str().unwrap(), "-"],
    );
    flat(&String::from_utf8(raw).unwrap())
}

/// `s` with every run of whitespace, no-break spaces included, made one space.
fn flat(s: &str) -> String {
    s.replace(['\u{a0}', '\u{202f}'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `text` holds `e`: as such, or, for a hash in groups of four, every group in order
/// (a table's cell wraps it over lines that the PDF's text may interleave with the next
/// cell's), no group cut.
fn printed(text: &str, e: &str) -> bool {
    let e = flat(e);
    let groups: Vec<&str> = e.split(' ').collect();
    let hex = |g: &str| g.len() == 4 && g.bytes().all(|b| b.is_ascii_hexdigit());
    if text.contains(&e) || groups.len() < 4 || !groups.iter().all(|g| hex(g)) {
        return text.contains(&e);
    }
    let words: Vec<&str> = text.split(' ').collect();
    (0..words.len()).any(|start| {
        let mut want = groups.iter().peekable();
        for w in &words[start..words.len().min(start + 8 * groups.len())] {
            if want.peek() == Some(&w) {
                want.next();
            }
        }
        words[start] == groups[0] && want.peek().is_none()
    })
}

/// The largest right edge of any word of the PDF, in points.
fn rightmost(pdf: &Path) -> f64 {
    let bbox = String::from_utf8(run("pdftotext", &["-bbox", pdf.to_str().unwrap(), "-"])).unwrap();
    bbox.lines()
        .filter(|l| l.trim_start().starts_with("<word"))
        .map(|l| {
            let x = l.split("xMax=\"").nth(1).unwrap();
            x[..x.find('"').unwrap()].parse::<f64>().unwrap()
        })
        .fold(0.0, f64::max)
}

/// Prints `html` and checks it: A4 pages numbered `page N / M`, every `expected` text there,
/// the last page holding the integrity conclusion with the signatures, nothing past the margin.
fn check_printed(dir: &Path, name: &str, html: &str, expected: &[String]) -> usize {
    let pdf = print(dir, name, html);
    let sizes = page_sizes(&pdf);
    let n = sizes.len();
    assert!(n >= 1, "{name}: no page");
    for (i, (w, h)) in sizes.iter().enumerate() {
        assert!(
            (w - 595.0).abs() < 1.0 && (h - 842.0).abs() < 1.0,
            "{name}: page {} is {w} x {h} pt, not A4",
            i + 1
        );
    }
    let all = text(&pdf, 1, n);
    for e in expected {
        assert!(
            printed(&all, e),
            "{name}: {e:?} is not in the printed text:\n{all}"
        );
    }
    for p in 1..=n {
        assert!(
            all.contains(&format!("page {p} / {n}")),
            "{name}: no `page {p} / {n}`"
        );
    }
    // The signatures are kept with the checkpoint before them (the integrity conclusion).
    let last = text(&pdf, n, n);
    let before = ["Point de contrôle : racine", "Checkpoint: root"];
    assert!(
        before.iter().any(|b| last.contains(b)),
        "{name}: the last page holds only the signatures:\n{last}"
    );
    assert!(
        last.contains("Fait à") || last.contains("Done at"),
        "{name}: {last}"
    );
    // A4 is 595 pt wide; the page's right margin is 16 mm (45.4 pt).
    let right = rightmost(&pdf);
    assert!(
        right <= 550.5,
        "{name}: a word ends at {right} pt, past the right margin"
    );
    n
}

/// The same HTML laid out as on a screen 1,200 px wide (one tall page, the screen's style):
/// nothing runs past the text's column (48em of 10.5 pt, centred, plus its padding).
fn check_screen(dir: &Path, name: &str, html: &str) {
    let screen = html
        .replace(
            "@page{size:A4;margin:17mm 16mm 20mm;",
            "@page{size:1200px 40000px;margin:0;",
        )
        .replace("@media print{body{max-width:none;margin:0;padding:0}}", "");
    assert_ne!(screen, html, "the style sheet changed: update this test");
    let pdf = print(dir, &format!("{name}-screen"), &screen);
    // 1,200 px = 900 pt; the column is 48em of 10 pt = 480 pt wide, plus 1em of padding.
    let edge = 450.0 + 240.0 + 10.0;
    let right = rightmost(&pdf);
    assert!(
        right <= edge + 0.5,
        "{name}: at 1,200 px a word ends at {right} pt, past {edge}"
    );
}

/// The env's trail, as stored.
pub(crate) fn events(env: &Env) -> Vec<Event> {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let mut q = c
        .prepare("SELECT seq, ts, kind, payload, prev_hash, hash FROM events ORDER BY seq")
        .unwrap();
    q.query_map([], |r| {
        let h = |b: Vec<u8>| Hash32::try_from(b.as_slice()).unwrap();
        Ok(Event {
            seq: r.get::<_, i64>(0)?.cast_unsigned(),
            ts: r.get(1)?,
            kind: r.get(2)?,
            payload: r.get(3)?,
            prev_hash: h(r.get(4)?),
            hash: h(r.get(5)?),
        })
    })
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

/// The env's latest signed checkpoint.
pub(crate) fn latest_note(env: &Env) -> String {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.query_row(
        "SELECT note FROM checkpoints ORDER BY size DESC LIMIT 1",
        [],
        |r| r.get(0),
    )
    .unwrap()
}

/// The payload of the env's first event of `kind`.
pub(crate) fn payload(events: &[Event], kind: &str) -> Value {
    let e = events
        .iter()
        .find(|e| e.kind == kind)
        .unwrap_or_else(|| panic!("no {kind}"));
    serde_json::from_str(&e.payload).unwrap()
}

/// A trail composed of `(time, kind, payload)`, numbered from 1.
pub(crate) fn compose(records: Vec<(String, &str, Value)>) -> Vec<Event> {
    records
        .into_iter()
        .zip(1u64..)
        .map(|((ts, kind, p), seq)| Event {
            seq,
            ts,
            kind: kind.into(),
            payload: p.to_string(),
            prev_hash: Hash32::ZERO,
            hash: Hash32::ZERO,
        })
        .collect()
}

/// `HH:MM` on 11 December 2018, UTC, as the trail writes times.
pub(crate) fn at(hm: &str) -> String {
    format!("2018-12-11T{hm}:00.000000Z")
}

/// A hash standing for the `n`-th value of the composed trails.
pub(crate) fn h(n: u8) -> String {
    urne_verify::crypto::sha256(&[n]).to_string()
}

pub(crate) fn sitting_opened(kind: &str) -> Value {
    json!({"number": 1, "kind": kind, "place": "Paris, 5 rue de la Paix (siège de la société)",
        "commissaire": {"name": "Maître Claire Dupont", "office": "SELARL Dupont & Associés, commissaires de justice à Paris"},
        "present": [{"name": "Jean Martin", "role": "opérateur"},
                    {"name": "Sophie Bernard", "role": "représentante de la société organisatrice"}],
        "lang": "fr",
        "plan": (1..=7).map(|d| json!({"action": "draw", "subject": format!("2018-12-0{d}"), "detail": ""}))
            .chain([json!({"action": "generate", "subject": BLOCK, "detail": ""}),
                    json!({"action": "reveal", "subject": EARLIER, "detail": "2018-12-10T23:00:00Z"})])
            .collect::<Vec<_>>()})
}

const BLOCK: &str = "noel-de-la-chance-2015/100/2018-12/1";
const EARLIER: &str = "noel-de-la-chance-2015/100/2018-11/1";

/// `template` with its day (and attempt) set, its hashes made those of `day`.
pub(crate) fn for_day(template: &Value, day: u8, attempt: u32, fields: &[&str]) -> Value {
    let mut v = template.clone();
    v["day"] = json!(format!("2018-12-0{day}"));
    v["attempt"] = json!(attempt);
    for f in fields {
        let value = urne_verify::crypto::sha256(format!("{day} {attempt} {f}").as_bytes());
        v[*f] = json!(value.to_string());
    }
    v
}

/// One day's draw, from the real draw's payloads: entropy, contribution, result, published.
pub(crate) fn day_draw(
    real: &[Event],
    day: u8,
    attempt: u32,
    hm: [&str; 4],
) -> Vec<(String, &'static str, Value)> {
    let mut contribution = for_day(
        &payload(real, "draw.contribution"),
        day,
        attempt,
        &["entropy_commitment"],
    );
    contribution["contribution"] = json!(format!("{day} 2 6 1 3 5 5 2"));
    let mut published = for_day(&payload(real, "draw.published"), day, attempt, &[]);
    for (i, (_, v)) in published["files"]
        .as_object_mut()
        .unwrap()
        .iter_mut()
        .enumerate()
    {
        *v = json!(h(0x80 + day * 8 + u8::try_from(i).unwrap()));
    }
    published.as_object_mut().unwrap().remove("output");
    vec![
        (
            at(hm[0]),
            "draw.entropy",
            for_day(
                &payload(real, "draw.entropy"),
                day,
                attempt,
                &["entropy_commitment"],
            ),
        ),
        (at(hm[1]), "draw.contribution", contribution),
        (
            at(hm[2]),
            "draw.result",
            for_day(&payload(real, "draw.result"), day, attempt, &["seed"]),
        ),
        (at(hm[3]), "draw.published", published),
    ]
}

/// A sitting of 11 December 2018: the 7 days of period 1 sealed before it and drawn in it, the
/// 3rd voided and drawn again, the 5th interrupted after its entropy (a new process, the sitting
/// resumed), a block generated and an earlier one revealed, a refused export.
fn sitting(real: &[Event]) -> Vec<Event> {
    let start = payload(real, "software.start");
    let seal = payload(real, "draw.seal");
    let mut r: Vec<(String, &str, Value)> = vec![
        (at("08:00"), "trail.created", payload(real, "trail.created")),
        (at("08:01"), "software.start", start.clone()),
    ];
    for d in 1..=7u8 {
        r.push((
            at(&format!("08:1{d}")),
            "draw.seal",
            for_day(&seal, d, 1, &["set_sha256"]),
        ));
    }
    r.push((at("09:00"), "software.start", start.clone()));
    r.push((at("09:01"), "sitting.opened", sitting_opened("sitting")));
    for d in 1..=4u8 {
        let m = 10 * u32::from(d);
        let hm: Vec<String> = (0..4).map(|i| format!("09:{:02}", m + i)).collect();
        r.extend(day_draw(real, d, 1, [&hm[0], &hm[1], &hm[2], &hm[3]]));
    }
    r.push((at("09:50"), "draw.void", json!({"day": "2018-12-03", "attempt": 1, "reason": "export de production incomplet, constaté par le commissaire de justice", "stage": "drawn"})));
    r.push((at("09:52"), "input.rejected", json!({"file": "/media/usb/entries-2018-12-03.jsonl", "sha256": h(0x4f), "reason": "the export's signature does not verify with the producer key"})));
    r.push((
        at("09:55"),
        "draw.seal",
        for_day(&seal, 3, 2, &["set_sha256"]),
    ));
    r.extend(day_draw(real, 3, 2, ["10:00", "10:01", "10:02", "10:03"]));
    let mut five = day_draw(real, 5, 1, ["10:10", "10:20", "10:21", "10:22"]);
    r.push(five.remove(0));
    r.push((at("10:15"), "software.start", start.clone()));
    r.push((
        at("10:16"),
        "sitting.resumed",
        json!({"number": 1, "plan": [{"action": "draw", "subject": "2018-12-05", "detail": ""}]}),
    ));
    r.extend(five);
    r.extend(day_draw(real, 6, 1, ["10:30", "10:31", "10:32", "10:33"]));
    r.extend(day_draw(real, 7, 1, ["10:40", "10:41", "10:42", "10:43"]));
    r.extend(blocks());
    r.push((at("11:40"), "sitting.closed", json!({"number": 1})));
    compose(r)
}

/// A block generated and an earlier block revealed.
fn blocks() -> Vec<(String, &'static str, Value)> {
    let rules = game().sha256().to_string();
    vec![
        (
            at("11:00"),
            "block.entropy",
            json!({"block": BLOCK, "attempt": 1, "rules_sha256": rules, "entropy_commitment": h(0xb1), "entropy_blob": h(0xb2)}),
        ),
        (
            at("11:01"),
            "block.contribution",
            json!({"blocks": [{"block": BLOCK, "attempt": 1, "entropy_commitment": h(0xb1)}], "contribution": "3 1 4 1 5 2 6 5"}),
        ),
        (
            at("11:10"),
            "block.generated",
            json!({"block": BLOCK, "attempt": 1, "outcomes_root": h(0xb3), "seed_commitment": h(0xb4), "tickets_sha256": h(0xb5)}),
        ),
        (
            at("11:11"),
            "block.published",
            json!({"block": BLOCK, "attempt": 1, "out": "/media/usb/blocks", "files": {"noel-de-la-chance-2015_100_2018-12_1.commit.json": h(0xb6)}}),
        ),
        (
            at("11:20"),
            "block.revealed",
            json!({"block": EARLIER, "attempt": 1, "entropy": "c4".repeat(48), "seed": h(0xb7), "sales_closed_at": "2018-12-10T22:59:59.000000Z"}),
        ),
    ]
}

fn game() -> GameRules {
    GameRules::from_json(&std::fs::read(root().join("rules/noel-de-la-chance-2015.json")).unwrap())
        .unwrap()
}

/// The context of the composed trails: the real rules, a pseudonym for every leaf picked.
pub(crate) fn given(events: &[Event], note: String) -> Given {
    let rules = DrawRules::from_json(&std::fs::read(crate::draws::rules()).unwrap()).unwrap();
    let mut g = Given {
        draw_rules: vec![rules],
        game_rules: vec![game()],
        checkpoint: Some(note),
        ..Given::default()
    };
    let skeleton = Minutes::from_trail(events, 1, &g).unwrap();
    for (i, (set, leaf)) in skeleton.picked_leaves().into_iter().enumerate() {
        let pseudonym = urne_verify::crypto::sha256(format!("pseudonym {i}").as_bytes());
        g.pseudonyms.insert((set, leaf), pseudonym);
    }
    g
}

#[test]
fn the_minutes_of_a_sitting_a_key_ceremony_and_a_lone_day_print_on_a4() {
    let dir = tempfile::tempdir().unwrap();
    let env = Env::new();
    let export = simulate(&env, "2018-12-01", 400, 7, &[]);
    seal(&env, &export);
    env.draw_ok("2018-12-01", "out");
    env.ok(&["keys", "export", "--out", "keys"]);
    let real = events(&env);
    let note = latest_note(&env);

    // A lone day: the real pv.html.
    let pv = std::fs::read_to_string(env.path("out/pv.html")).unwrap();
    let bundle: Value =
        serde_json::from_slice(&std::fs::read(env.path("out/bundle.json")).unwrap()).unwrap();
    let grouped = |v: &Value| words::grouped(v.as_str().unwrap());
    let mut expected: Vec<String> = [
        "Procès-verbal de tirage électronique",
        "Opération : Chanceux Noël",
        "Jour du 1er décembre 2018",
        "Tirage tardif (D-8)",
        "au plus tard 30 jours après, soit le 10 janvier 2019",
        "lot de 5 000 €",
        "Clés de production de confiance",
        "Fait à",
    ]
    .map(String::from)
    .to_vec();
    // The key the seal trusted, pinned in the trail (spec/appliance.md §6.2); pinned here by `urne keys
    // producer`, outside any sitting: an incident (M-241).
    expected.push(format!("identifiant {}", test_producer_key_id()));
    expected.push("Clés de production épinglées hors séance".into());
    expected.extend(
        [
            &bundle["seed"],
            &bundle["winner"]["pseudonym"],
            &bundle["commitment"]["root"],
            &bundle["entropy"],
        ]
        .map(grouped),
    );
    expected.extend(
        bundle["reserves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| grouped(&r["pseudonym"])),
    );
    check_printed(dir.path(), "lone-day", &pv, &expected);

    // A sitting.
    let trail = sitting(&real);
    let g = given(&trail, note.clone());
    let m = Minutes::from_trail(&trail, 1, &g).unwrap();
    let page = html::render(&m, Lang::Fr);
    let mut expected: Vec<String> = [
        "Procès-verbal de la séance n° 1",
        "Opérations : Chanceux Noël ; Le Noël de la chance",
        "Séance tenue à Paris, 5 rue de la Paix (siège de la société), ouverte le 11 décembre 2018 à 10 h 01 et close le 11 décembre 2018 à 12 h 40",
        "Maître Claire Dupont",
        "SELARL Dupont & Associés, commissaires de justice à Paris",
        "Jean Martin",
        "Sophie Bernard",
        "Jour du 3 décembre 2018 — tentative n° 2",
        "Tentative n° 1 annulée",
        "export de production incomplet, constaté par le commissaire de justice",
        "Bloc noel-de-la-chance-2015/100/2018-12/1",
        "Clôture des ventes du bloc le 10 décembre 2018 à 23 h 59",
        "Reprise de la séance après interruption",
        "Tirage interrompu après l'inscription de l'aléa : tirage du jour du 5 décembre 2018",
        "Fichier refusé",
        "1 × 5 000 € (10 symboles trouvés)",
        "629 698 tickets perdants",
        "Fait à Paris, 5 rue de la Paix (siège de la société), le 11 décembre 2018.",
    ]
    .map(String::from)
    .to_vec();
    expected.extend((1..=7).map(|d| {
        format!(
            "Jour du {} décembre 2018",
            if d == 1 {
                "1er".to_string()
            } else {
                d.to_string()
            }
        )
    }));
    expected.extend(
        m.draws
            .iter()
            .map(|d| words::grouped(&d.result.as_ref().unwrap().seed.to_string())),
    );
    expected.push(words::grouped(&"c4".repeat(48)));
    expected.push(words::grouped(&h(0xb3)));
    let pages = check_printed(dir.path(), "sitting", &page, &expected);
    assert!(
        pages >= 3,
        "a sitting of 8 draws and 2 blocks fits in {pages} pages?"
    );
    check_screen(dir.path(), "sitting", &page);

    // A key ceremony, from the real keys and export.
    let ceremony = compose(vec![
        (
            at("08:00"),
            "trail.created",
            payload(&real, "trail.created"),
        ),
        (
            at("08:00"),
            "sitting.opened",
            sitting_opened("key-ceremony"),
        ),
        (
            at("08:01"),
            "software.start",
            payload(&real, "software.start"),
        ),
        (
            at("08:02"),
            "keys.generated",
            payload(&real, "keys.generated"),
        ),
        (
            at("08:10"),
            "keys.exported",
            payload(&real, "keys.exported"),
        ),
        (at("08:15"), "sitting.closed", json!({"number": 1})),
    ]);
    let m = Minutes::from_trail(&ceremony, 1, &given(&ceremony, note)).unwrap();
    let page = html::render(&m, Lang::Fr);
    let keys = payload(&real, "keys.generated");
    let mut expected: Vec<String> = [
        "Procès-verbal de la cérémonie des clés (séance n° 1)",
        "Clés générées dans le jeton",
        "Clés publiques exportées dans",
        "attributs conformes",
        "Maître Claire Dupont",
    ]
    .map(String::from)
    .to_vec();
    for k in keys["keys"].as_array().unwrap() {
        expected.push(k["key_id"].as_str().unwrap().to_string());
        expected.push(grouped(&k["public_key"]));
    }
    expected.push(grouped(&payload(&real, "trail.created")["trail"]));
    check_printed(dir.path(), "key-ceremony", &page, &expected);
}
