//! `urne-fuzz-export-verdicts DIR`: the strict export reader's verdict on every file of DIR (the
//! export target's corpus, `fuzz/corpus/export`), one JSON line each: `{"file": NAME,
//! "accepted": BOOL}`. Each file is signed with the test producer key, as the target does, so
//! the verdict is the parser's (spec/formats.md §4.1.1). `verifier/test_schemas.py --verdicts`
//! checks that every line of an export the reader accepts validates against the published
//! export schemas (schemas/entry-export-v1.*): the schemas are never stricter than the reader.

#![forbid(unsafe_code)]

use std::io::Write;

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("error: no corpus folder given");
        eprintln!("hint: urne-fuzz-export-verdicts fuzz/corpus/export");
        std::process::exit(2);
    };
    let mut names: Vec<_> = match std::fs::read_dir(&dir) {
        Ok(d) => d.filter_map(Result::ok).map(|e| e.path()).collect(),
        Err(e) => {
            eprintln!("error: {dir}: {e}");
            eprintln!("hint: name the export target's corpus folder");
            std::process::exit(2);
        }
    };
    names.retain(|p| p.is_file());
    names.sort();
    let mut out = std::io::stdout().lock();
    for p in names {
        let Ok(data) = std::fs::read(&p) else {
            eprintln!("error: {} cannot be read", p.display());
            std::process::exit(1);
        };
        let accepted = urne_fuzz_targets::export::accepts(&data);
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
        let line = serde_json::json!({ "file": name, "accepted": accepted });
        if writeln!(out, "{line}").is_err() {
            std::process::exit(1);
        }
    }
}
