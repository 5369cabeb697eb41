//! The HTML the minutes are written in: escaping, table rows, grouped hashes, numbered
//! sections, and the style sheet (A4 pages numbered `page N / M`, the end kept together).

use super::Lang;
use super::words;
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use std::fmt::Write;

/// The page of the style sheet: A4, the minutes' title in the top margin of every page (a
/// margin box of the page's own also keeps a browser from printing its header there, a date and
/// a URL, spec/appliance.md §9.2), page numbers in the bottom margin, and beside them a box for
/// the initials (paraphes) of the signatories on every page (CSS page-margin boxes, which
/// Chromium prints on each page).
pub(super) fn page_style(running: &str, initials: &str) -> String {
    let css = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    format!(
        "@page{{size:A4;margin:17mm 16mm 20mm;\
@top-left{{content:\"{}\";font:8pt serif;color:#333;vertical-align:bottom;padding-bottom:3mm}}\
@bottom-center{{content:\"page \" counter(page) \" / \" counter(pages);font:9pt serif}}\
@bottom-right{{content:\"{}\";font:8pt serif;text-align:left;vertical-align:top;\
border:1px solid #000;width:52mm;height:11mm;padding:1mm 2mm;margin-top:3mm}}}}",
        css(running),
        css(initials)
    )
}

/// The style sheet after the page ([`page_style`]): tables that never grow wider than the page,
/// hashes that break only between their groups (and begin on their label's line), and the
/// checkpoint kept on one page with the signatures. A hash is at most 8 groups a line (39 of its
/// characters), so that its lines are the same on paper and on screen.
pub(super) const STYLE: &str = "\
html{font-family:\"DejaVu Serif\",Georgia,serif;font-size:10pt;line-height:1.3;color:#000}\
body{max-width:48em;margin:1.5em auto;padding:0 1em}\
@media print{body{max-width:none;margin:0;padding:0}}\
h1{font-size:1.45em;text-align:center;margin:0 0 .4em}\
h2{font-size:1.15em;margin:1.1em 0 .4em;border-bottom:1px solid #444;break-after:avoid}\
h3{font-size:1.02em;margin:.9em 0 .3em;break-after:avoid}\
p{margin:.35em 0}\
table{border-collapse:collapse;width:100%;table-layout:fixed;margin:.3em 0 .7em}\
th,td{border:1px solid #777;padding:.22em .45em;text-align:left;vertical-align:top;overflow-wrap:anywhere}\
th{width:36%;font-weight:normal;background:#f1f1f1}\
tr,li{break-inside:avoid}\
table.files th{width:46%}\
code{font-family:\"DejaVu Sans Mono\",monospace;font-size:.88em}\
code.h{display:inline-block;vertical-align:top;max-width:39.9ch;overflow-wrap:normal;word-break:normal;white-space:normal}\
pre.note{white-space:pre-wrap;overflow-wrap:anywhere;font-size:.82em;border:1px solid #777;padding:.4em;margin:.3em 0}\
.tick{float:right;width:.85em;height:.85em;border:1px solid #000;margin:.1em 0 0 .5em}\
.fill{display:inline-block;min-width:16em;border-bottom:1px dotted #000}\
.end{break-inside:avoid}\
.obs{border:1px solid #000;min-height:90mm;margin:.3em 0 .8em}\
.sha{margin:.3em 0 .8em;line-height:2.2}\
.sha span{display:inline-block;width:4.4ch;height:1.5em;border-bottom:1px solid #000;margin-right:1.2ch;vertical-align:bottom}\
.sig{display:grid;grid-template-columns:1fr 1fr;gap:1.2em 2em;margin-top:.8em}\
.sig div{border-top:1px solid #000;padding-top:.3em;min-height:5.5em;break-inside:avoid}";

/// Escapes text for HTML.
pub(super) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A hash (or any hex value) in groups of four, breakable only between groups.
pub(super) fn hash<T: std::fmt::Display + ?Sized>(h: &T) -> String {
    format!(
        "<code class=\"h\">{}</code>",
        esc(&words::grouped(&h.to_string()))
    )
}

/// Text as code (ids, file names, commands).
pub(super) fn code<T: std::fmt::Display + ?Sized>(s: &T) -> String {
    format!("<code>{}</code>", esc(&s.to_string()))
}

/// The document being written, in one language and time zone, with its sections numbered.
pub(super) struct Html {
    /// The text so far.
    pub s: String,
    /// Its language.
    pub lang: Lang,
    /// The time zone of its dates.
    pub tz: Tz,
    section: u32,
}

impl Html {
    /// An empty document.
    pub(super) fn new(lang: Lang, tz: Tz) -> Html {
        Html {
            s: String::new(),
            lang,
            tz,
            section: 0,
        }
    }

    /// `fr` or `en`.
    pub(super) fn t<'a>(&self, fr: &'a str, en: &'a str) -> &'a str {
        self.lang.pick(fr, en)
    }

    /// Appends HTML as is.
    pub(super) fn raw(&mut self, html: &str) {
        self.s.push_str(html);
    }

    /// A numbered section heading.
    pub(super) fn h2(&mut self, fr: &str, en: &str) {
        self.section += 1;
        let title = esc(self.lang.pick(fr, en));
        let _ = writeln!(self.s, "<h2>{}. {title}</h2>", self.section);
    }

    /// A sub-heading (escaped).
    pub(super) fn h3(&mut self, text: &str) {
        let _ = writeln!(self.s, "<h3>{}</h3>", esc(text));
    }

    /// A paragraph of HTML.
    pub(super) fn p(&mut self, html: &str) {
        let _ = writeln!(self.s, "<p>{html}</p>");
    }

    /// Opens a table of label and value rows.
    pub(super) fn table(&mut self) {
        self.s.push_str("<table>\n");
    }

    /// Closes a table.
    pub(super) fn end_table(&mut self) {
        self.s.push_str("</table>\n");
    }

    /// A row: the label (escaped) and the value (HTML). A value the screen showed (a hash, an
    /// id, the contribution: what is set in code; a figure) has a box the commissaire ticks
    /// once it is checked against the screen, or against their handwriting (spec/appliance.md
    /// §9.4).
    pub(super) fn row(&mut self, label: &str, value: &str) {
        let figure = !value.is_empty()
            && value.chars().all(|c| {
                c.is_ascii_digit() || matches!(c, ' ' | '\u{a0}' | '\u{202f}' | ',' | '.')
            });
        let tick = if value.contains("<code") || figure {
            TICK
        } else {
            ""
        };
        let _ = writeln!(
            self.s,
            "<tr><th>{}</th><td>{tick}{value}</td></tr>",
            esc(label)
        );
    }

    /// A row of a value the commissaire wrote by hand at the sitting (spec/appliance.md §9.4):
    /// its label says so, as the screen did.
    pub(super) fn row_by_hand(&mut self, (fr, en): (&str, &str), at: super::Stamp, value: &str) {
        let fr = format!("{fr} — écrit à la main");
        let en = format!("{en} — written by hand");
        self.row_at((&fr, &en), at, value);
    }

    /// A bulleted list of HTML items (nothing when empty).
    pub(super) fn list(&mut self, items: &[String]) {
        if items.is_empty() {
            return;
        }
        self.s.push_str("<ul>\n");
        for i in items {
            let _ = writeln!(self.s, "<li>{i}</li>");
        }
        self.s.push_str("</ul>\n");
    }

    /// An instant in words (`le 11 décembre 2018 à 10 h 02`).
    pub(super) fn when(&self, at: DateTime<Utc>) -> String {
        words::date_time(at, self.tz, self.lang)
    }

    /// A number with its thousands separated.
    pub(super) fn n(&self, n: u64) -> String {
        words::number(n, self.lang)
    }

    /// An amount in euros.
    pub(super) fn eur(&self, cents: u64) -> String {
        words::eur(cents, self.lang)
    }

    /// `event no. N` in words.
    pub(super) fn event(&self, seq: u64) -> String {
        format!(
            "{}\u{a0}{}",
            self.t("événement d'audit n°", "audit event no."),
            self.n(seq)
        )
    }

    /// A row whose label is `fr` or `en`.
    pub(super) fn rowt(&mut self, fr: &str, en: &str, value: &str) {
        let label = self.lang.pick(fr, en);
        self.row(label, value);
    }

    /// A row whose label is `fr` or `en`, followed by the event `seq` (and its time).
    pub(super) fn row_at(&mut self, (fr, en): (&str, &str), at: super::Stamp, value: &str) {
        let label = format!(
            "{} ({}, {})",
            self.lang.pick(fr, en),
            self.event(at.seq),
            self.when(at.at)
        );
        self.row(&label, value);
    }

    /// A paragraph `label`, then a table of files and their SHA-256.
    pub(super) fn files(
        &mut self,
        label: &str,
        files: &std::collections::BTreeMap<String, urne_verify::crypto::Hash32>,
    ) {
        self.p(&esc(label));
        self.s.push_str("<table class=\"files\">\n");
        for (name, sha) in files {
            self.row(name, &hash(sha));
        }
        self.end_table();
    }

    /// The label of a list of files, with the event that published them.
    pub(super) fn published(&self, at: Option<super::Stamp>) -> String {
        match at {
            Some(p) => format!(
                "{} ({}) :",
                self.t("Fichiers publiés", "Files published"),
                self.event(p.seq)
            ),
            None => self.t("Fichiers publiés :", "Files published:").to_string(),
        }
    }
}

/// The box beside a value, ticked once the value is checked.
const TICK: &str = "<span class=\"tick\"></span>";

/// A line to fill in by hand.
pub(super) const FILL: &str = "<span class=\"fill\">&nbsp;</span>";

impl Html {
    /// `yes` or `no`.
    pub(super) fn yes(&self, b: bool) -> &'static str {
        if b {
            self.t("oui", "yes")
        } else {
            self.t("non", "no")
        }
    }
}
