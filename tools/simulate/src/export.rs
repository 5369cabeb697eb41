//! Writing one day's export: generate the records, frame them (header, break), render the body,
//! sign it, write it with its signature, then the oracle beside it.

use std::path::PathBuf;

use ed25519_dalek::{Signer, SigningKey};

use urne_verify::crypto::keys::key_id;

use crate::args::{Args, Break};
use crate::breaks::{self, Framing};
use crate::generate::{Generated, generate};
use crate::operation::{OPERATION, PERIOD_START};
use crate::oracle::write_oracle;
use crate::progress::Progress;
use crate::record::{Record, render};

/// Writes `entries-…-DAY.jsonl`, its `.sig` and its `.expected.json` into `a.out`; returns the
/// export's path. `day` is the day of December 2018, `tranche` its period's tranche (D-3).
pub(crate) fn write_export(
    a: &Args,
    day: u32,
    tranche: u64,
    n_accounts: u64,
    n_excl: u64,
    producer: &SigningKey,
) -> std::io::Result<PathBuf> {
    let progress = Progress::new(a.plays);
    let day_start = PERIOD_START + i64::from(day - 1) * 86_400;
    // 2., 3. Plays and exclusions, shuffled.
    let g = generate(a.seed, a.plays, n_accounts, n_excl, day_start, &progress);

    // 4. Render, applying the requested break exactly as gen-entries does.
    let framing = breaks::framing(a, day_start, &g);
    let day_iso = format!("2018-12-{day:02}");
    let body = render_body(a, &day_iso, producer, &framing, &g, &progress);

    // 5. Sign the exact bytes (the wrong key for `wrong-key`), then break what follows signing.
    let path = sign_and_write(a, producer, body, &day_iso, &progress)?;

    // 6. The oracle.
    write_oracle(a, &path, &day_iso, tranche, &g)?;
    progress.say("done");
    Ok(path)
}

/// The export's bytes: the header, the records, the extra lines, every break applied.
#[expect(
    clippy::cast_possible_truncation,
    reason = "a capacity hint from the play count, at most 2,000,000,000 (checked by `run`)"
)]
fn render_body(
    a: &Args,
    day_iso: &str,
    producer: &SigningKey,
    framing: &Framing,
    g: &Generated,
    progress: &Progress,
) -> Vec<u8> {
    let producer_id = key_id(&producer.verifying_key().to_bytes());
    let Framing {
        header_plays,
        header_exclusions,
        operation,
        ..
    } = framing;
    let (generated_at, status_as_of) = (&a.generated_at, &a.status_as_of);
    let header = format!(
        r#"{{"format":"draw-entries","version":1,"operation":"{operation}","day":"{day_iso}","producer":"{producer_id}","generated_at":"{generated_at}","status_as_of":"{status_as_of}","plays":{header_plays},"exclusions":{header_exclusions}}}"#
    );
    let mut body: Vec<u8> = Vec::with_capacity((a.plays as usize + 16) * 240);
    if a.brk != Some(Break::NoHeader) {
        body.extend_from_slice(header.as_bytes());
        body.push(b'\n');
    }
    let n_records = g.records.len();
    for (i, r) in g.records.iter().enumerate() {
        let start = body.len();
        render(&mut body, r, a.seed, &g.accounts, &g.strangers);
        let is_play = matches!(r, Record::Play(_));
        breaks::edit_record_line(a.brk, &mut body, start, i, is_play, n_records);
        body.push(b'\n');
        if progress.big() && i > 0 && i % 1_000_000 == 0 {
            progress.say(&format!("{i} records written"));
        }
    }
    for line in &framing.extra {
        body.extend_from_slice(line.as_bytes());
        body.push(b'\n');
    }
    breaks::edit_body(a.brk, &mut body);
    body
}

/// Signs `body`, applies the breaks that follow signing, and writes the export and its `.sig`.
fn sign_and_write(
    a: &Args,
    producer: &SigningKey,
    mut body: Vec<u8>,
    day_iso: &str,
    progress: &Progress,
) -> std::io::Result<PathBuf> {
    progress.say("signing");
    let signer = breaks::signer(a.brk, producer);
    let mut sig = signer.sign(&body).to_bytes();
    breaks::edit_signed(a.brk, &mut body, &mut sig);
    let path = a.out.join(format!("entries-{OPERATION}-{day_iso}.jsonl"));
    std::fs::write(&path, &body)?;
    std::fs::write(format!("{}.sig", path.display()), sig)?;
    Ok(path)
}
