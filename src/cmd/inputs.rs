//! What the commands read before they act: the operation's rules file, the trusted producer
//! keys, production's signed export (verified, then tallied), a day argument, a sealed set kept
//! in the trail, and one row of a block's production file.

use super::ctx::Ctx;
use crate::edge::fsio;
use crate::error::{Error, Kind, Result};
use crate::msg::catalogue as m;
use crate::msg::catalogue::cmd as mc;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use urne_ceremony::state::{self, day::DayState};
use urne_verify::audit::Event;
use urne_verify::crypto::{Hash32, keys};
use urne_verify::draw::SealedSet;
use urne_verify::draw::records::SealRecord;
use urne_verify::entries::{self, DayTally, VerifiedExport};
use urne_verify::events::payloads::{InputRejected, PinnedKey};
use urne_verify::rules::draw::DrawRules;
use urne_verify::rules::official::{Admission, Standing};
use urne_verify::values::{Attempt, Day};

/// The operation's rules file, parsed, and its exact bytes (they are sealed and published);
/// refused when it is not an official regulation and `admit` does not say it may be.
pub fn load_rules(path: &Path, admit: Admission) -> Result<(DrawRules, Vec<u8>)> {
    let bytes = fsio::read(path)?;
    let rules = DrawRules::from_json(&bytes).map_err(|e| {
        Error::new(
            Kind::RulesRefused,
            crate::msg!(
                mc::ERR_INPUT_RULES_REFUSED,
                path = path.display(),
                e = rules_error_words(&e, crate::msg::lang())
            ),
            crate::msg!(mc::REC_INPUT_RULES_REFUSED),
        )
    })?;
    check_official(path, rules.operation(), &bytes, admit)?;
    Ok((rules, bytes))
}

/// A hash on standard error under the line that names it, in groups of four digits as every
/// screen prints one.
fn note_hash(hex: &str) {
    for l in crate::text::hash_lines(hex) {
        note!("      {l}");
    }
}

/// A rules file declaring an official operation or game id must be the official file, whose
/// SHA-256 is fixed in the appliance (spec/rationale.md §7.3 item 2); one of another id is refused unless
/// `admit` says unofficial rules may be used (`--unofficial-rules`, spec/appliance.md §7.4 [M-290]), and
/// is then said not to be official. Returns the file's standing.
pub fn check_official(path: &Path, id: &str, bytes: &[u8], admit: Admission) -> Result<Standing> {
    use urne_verify::rules::official::standing;
    let sha = urne_verify::crypto::sha256(bytes);
    match standing(id, &sha) {
        Standing::Official => {
            note!("{}", crate::msg!(m::SCR_RULES_OFFICIAL, id = id));
            note_hash(&sha.to_string());
            Ok(Standing::Official)
        }
        Standing::Unofficial if admit == Admission::OfficialOnly => Err(Error::new(
            Kind::RulesNotOfficial,
            crate::msg!(
                mc::ERR_INPUT_RULES_UNOFFICIAL,
                path = path.display(),
                id = id,
                sha = sha
            ),
            crate::msg!(mc::REC_INPUT_RULES_UNOFFICIAL),
        )),
        Standing::Unofficial => {
            note!(
                "{}",
                crate::msg!(m::SCR_RULES_UNOFFICIAL, path = path.display(), id = id)
            );
            note_hash(&sha.to_string());
            Ok(Standing::Unofficial)
        }
        Standing::Doctored(pinned) => Err(Error::new(
            Kind::RulesNotOfficial,
            crate::msg!(
                mc::ERR_INPUT_RULES_DOCTORED,
                path = path.display(),
                id = id,
                sha = sha,
                pinned = pinned
            ),
            crate::msg!(mc::REC_INPUT_RULES_DOCTORED),
        )),
    }
}

/// The producer key files to read: those given, else the configuration's `producer_keys`.
fn producer_key_paths(ctx: &Ctx, given: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let paths = if given.is_empty() {
        ctx.config()?.producer_keys
    } else {
        given.to_vec()
    };
    if paths.is_empty() {
        return Err(Error::new(
            Kind::NoProducerKey,
            crate::msg!(mc::ERR_INPUT_NO_PRODUCER_KEY),
            crate::msg!(mc::REC_INPUT_NO_PRODUCER_KEY),
        ));
    }
    Ok(paths)
}

/// The producer keys in key files: those given, else the configuration's, for pinning them in
/// the trail ([`key_set`]); a seal trusts only the keys pinned in the trail ([`pinned_keys`]).
pub fn trusted_keys(ctx: &Ctx, given: &[PathBuf]) -> Result<Vec<[u8; 32]>> {
    key_files(&producer_key_paths(ctx, given)?)
}

/// The Ed25519 public keys of PEM files (production's keys), in order.
pub fn key_files(paths: &[PathBuf]) -> Result<Vec<[u8; 32]>> {
    paths
        .iter()
        .map(|p| {
            let pem = fsio::read(p)?;
            keys::public_key_from_pem(&String::from_utf8_lossy(&pem)).map_err(|e| {
                Error::new(
                    Kind::ProducerKeyInvalid,
                    crate::msg!(
                        mc::ERR_INPUT_PRODUCER_KEY,
                        path = p.display(),
                        e = key_error_words(&e, crate::msg::lang())
                    ),
                    crate::msg!(mc::REC_INPUT_PRODUCER_KEY),
                )
            })
        })
        .collect()
}

/// The producer keys of key files (those given, else the configuration's) as the set a
/// `producer.keys` event pins (spec/formats.md §6.2): by key id, each once.
pub fn key_set(ctx: &Ctx, given: &[PathBuf]) -> Result<Vec<PinnedKey>> {
    let mut set: Vec<PinnedKey> = trusted_keys(ctx, given)?
        .into_iter()
        .map(|k| PinnedKey {
            key_id: urne_verify::values::KeyId::of(&k),
            public_key: Hash32(k),
        })
        .collect();
    set.sort_by(|a, b| a.key_id.cmp(&b.key_id));
    set.dedup_by(|a, b| a.key_id == b.key_id);
    Ok(set)
}

/// The pinned set in words: each key id in groups of four, comma-separated.
pub fn pin_words(ids: &[urne_verify::values::KeyId]) -> String {
    ids.iter()
        .map(|k| crate::text::groups(k.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The producer keys a seal trusts (spec/formats.md §4.3, §6.2): those the trail's last
/// `producer.keys` pins, never a key file alone (the configuration and the command line are
/// files anyone at the machine can change). A key given with --producer-key must be one of
/// them; none pinned is refused.
pub fn pinned_keys(ctx: &mut Ctx, given: &[PathBuf]) -> Result<Vec<[u8; 32]>> {
    let events = ctx.audit()?.events()?;
    let trail =
        urne_ceremony::state::Trail::from_events(&events).map_err(|m| altered(&m.to_string()))?;
    let Some(pinned) = trail.producer_keys() else {
        return Err(Error::new(
            Kind::ProducerKeyNotPinned,
            crate::msg!(mc::ERR_INPUT_NOT_PINNED),
            crate::msg!(mc::REC_INPUT_NOT_PINNED),
        ));
    };
    if !given.is_empty() {
        for k in key_set(ctx, given)? {
            if !pinned.keys.contains(&k) {
                return Err(Error::new(
                    Kind::ProducerKeyNotPinned,
                    crate::msg!(
                        mc::ERR_INPUT_KEY_UNPINNED,
                        key = k.key_id,
                        pinned = urne_verify::values::KeyId::join(&pinned.ids())
                    ),
                    crate::msg!(mc::REC_INPUT_KEY_UNPINNED),
                ));
            }
        }
    }
    Ok(pinned.public_keys())
}

fn file_sha256(path: &Path) -> Option<Hash32> {
    use sha2::{Digest, Sha256};
    use std::io::Read;
    let mut f = std::fs::File::open(path).ok()?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf).ok()?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Some(Hash32(h.finalize().into()))
}

fn open(path: &Path) -> Result<BufReader<std::fs::File>> {
    std::fs::File::open(path)
        .map(|f| BufReader::with_capacity(1 << 20, f))
        .map_err(|e| crate::error::io_error(crate::error::Io::Read, path, e))
}

/// Records a refused export (with the file's hash and `reason`, as the trail words it) in the
/// trail; returns the error to stop on (exit 2), its words in the screens' language: `shown`
/// (the reason in those words) and `hint`.
pub fn reject(
    ctx: &mut Ctx,
    kind: Kind,
    path: &Path,
    reason: String,
    shown: &str,
    hint: String,
) -> Result<Error> {
    reject_hashed(ctx, kind, path, file_sha256(path), reason, shown, hint)
}

/// [`reject`], with the refused file's hash already known (`sha256`, of the bytes refused),
/// which is recorded without reading the file again.
fn reject_hashed(
    ctx: &mut Ctx,
    kind: Kind,
    path: &Path,
    sha256: Option<Hash32>,
    reason: String,
    shown: &str,
    hint: String,
) -> Result<Error> {
    let message = crate::msg!(
        mc::ERR_INPUT_EXPORT_REFUSED,
        path = path.display(),
        reason = shown
    );
    ctx.record_evidence(InputRejected {
        file: path.display().to_string(),
        sha256,
        reason,
    })?;
    Ok(Error::new(kind, message, hint))
}

/// Verifies and tallies a signed export: the signature first, then every line. Records the
/// refusal (with the file's hash) in the trail when the file is refused.
pub fn read_export(
    ctx: &mut Ctx,
    path: &Path,
    rules: &DrawRules,
    trusted: &[[u8; 32]],
) -> Result<(VerifiedExport, DayTally)> {
    let verified = verify_export(ctx, path, trusted)?;
    let lang = crate::text::lang();
    note!(
        "{}",
        lang.t(
            "lecture et contrôle de chaque ligne …",
            "reading and checking every line …"
        )
    );
    let t0 = std::time::Instant::now();
    // The file is opened again for each pass (a third only when two play ids may be equal).
    match entries::tally_export(|| std::fs::File::open(path), &verified, rules) {
        Ok(t) => {
            note!(
                "  {} {} {:.1} s",
                crate::text::count(t.plays, lang),
                lang.t("mises contrôlées en", "plays checked in"),
                t0.elapsed().as_secs_f64()
            );
            Ok((verified, t))
        }
        Err(e) => Err(reject(
            ctx,
            Kind::ExportMalformed,
            path,
            e.to_string(),
            &super::export_refusal::words(&e, crate::msg::lang()),
            crate::msg!(mc::REC_INPUT_EXPORT_MALFORMED),
        )?),
    }
}

/// The export's detached signature, checked over the whole file before any line is read.
fn verify_export(ctx: &mut Ctx, path: &Path, trusted: &[[u8; 32]]) -> Result<VerifiedExport> {
    let sig_path = PathBuf::from(format!("{}.sig", path.display()));
    if !path.is_file() {
        return Err(crate::error::io_error(
            crate::error::Io::Read,
            path,
            std::io::Error::from(std::io::ErrorKind::NotFound),
        ));
    }
    // A FIFO, a device or a file over the export's limit is refused from its metadata, never
    // read (spec/formats.md §1.6); the signature is read within its own limit.
    if let Err((reason, shown)) = std::fs::metadata(path)
        .map_err(|e| (e.to_string(), e.to_string()))
        .and_then(|m| {
            entries::check_export_metadata(&m).map_err(|e| {
                (
                    e.to_string(),
                    super::export_refusal::words(&e, crate::msg::lang()),
                )
            })
        })
    {
        return Err(reject(
            ctx,
            Kind::ExportMalformed,
            path,
            reason,
            &shown,
            crate::msg!(mc::REC_INPUT_EXPORT_NOT_FILE),
        )?);
    }
    // The signature: at most one byte more than a signature, whatever the file is (the
    // operator's own input; a test pauses a seal on a FIFO here).
    let Ok(sig) = std::fs::File::open(&sig_path).and_then(|f| {
        use std::io::Read;
        let mut b = vec![];
        f.take(65).read_to_end(&mut b).map(|_| b)
    }) else {
        return Err(reject(
            ctx,
            Kind::ExportUnsigned,
            path,
            format!("its signature {} is missing", sig_path.display()),
            &crate::msg!(mc::ERR_INPUT_WHY_UNSIGNED, sig = sig_path.display()),
            crate::msg!(mc::REC_INPUT_EXPORT_UNSIGNED),
        )?);
    };
    let lang = crate::text::lang();
    note!(
        "{} {} …",
        lang.t(
            "contrôle de la signature du producteur sur",
            "checking the producer's signature over"
        ),
        path.display()
    );
    let t0 = std::time::Instant::now();
    match entries::verify_export_hashing(open(path)?, &sig, trusted) {
        Ok(v) => {
            note!(
                "  {} {} {} {:.1} s",
                lang.t("signature vérifiée :", "signature verified:"),
                v.size / 1_000_000,
                lang.t("Mo en", "MB in"),
                t0.elapsed().as_secs_f64()
            );
            Ok(v)
        }
        // The signature refused over the whole file: its hash is the one pass 1 computed over
        // the bytes it read (the file is not read again); refused before that, the file's.
        Err(r) => {
            let sha256 = r.sha256.map(Hash32).or_else(|| file_sha256(path));
            Err(reject_hashed(
                ctx,
                Kind::ExportBadSignature,
                path,
                sha256,
                r.error.to_string(),
                &super::export_refusal::words(&r.error, crate::msg::lang()),
                crate::msg!(mc::REC_INPUT_EXPORT_BAD_SIGNATURE),
            )?)
        }
    }
}

/// A day argument: exactly `YYYY-MM-DD` (four, two and two digits) and a date of the calendar;
/// checked before anything else (no PIN asked, nothing recorded).
pub fn check_day(day: &str) -> Result<Day> {
    day.parse::<Day>().map_err(|_| {
        Error::new(
            Kind::BadDate,
            crate::msg!(mc::ERR_INPUT_BAD_DATE, day = format!("{day:?}")),
            crate::msg!(mc::REC_INPUT_BAD_DATE),
        )
    })
}

/// The fewest characters (spec/formats.md §1.1, after trimming spaces) a reason may hold: the reason of
/// a void (`urne void`, `urne block void`) and of a trail restart (`urne trail restart`), in
/// words the commissaire signs.
pub const MIN_REASON: usize = 10;

/// A reason for `what` ("void", "restart", "clock correction") of at least [`MIN_REASON`]
/// characters (exit 2).
pub fn check_reason(reason: &str, what: &str) -> Result<()> {
    let n = reason.trim().chars().count();
    if n < MIN_REASON {
        let short = match what {
            "restart" => mc::ERR_INPUT_REASON_RESTART,
            "clock correction" => mc::ERR_INPUT_REASON_CLOCK,
            _ => mc::ERR_INPUT_REASON_VOID,
        };
        return Err(Error::new(
            Kind::ReasonTooShort,
            crate::msg!(short, min = MIN_REASON, n = n),
            crate::msg!(mc::REC_INPUT_REASON),
        ));
    }
    Ok(())
}

/// A block id that the code accepts, for hints and help (spec/formats.md §5.B2: the emission is
/// lowercase letters, digits and `-`).
pub const BLOCK_ID_EXAMPLE: &str = "noel-de-la-chance-2015/100/e2015-01/1";

/// A block argument: its canonical id (exit 2 otherwise, with an example that parses).
pub fn parse_block(arg: &str) -> Result<urne_verify::block::id::BlockId> {
    urne_verify::block::id::BlockId::parse(arg).map_err(|e| {
        Error::new(
            Kind::BadBlockId,
            block_id_words(&e, crate::msg::lang()),
            crate::msg!(mc::REC_INPUT_BLOCK_ID, example = BLOCK_ID_EXAMPLE),
        )
    })
}

/// Why the operation's rules file is refused, in `lang` (in English, the core error's own words;
/// what is wrong with a field is said in them in both).
fn rules_error_words(e: &urne_verify::rules::draw::RulesError, lang: crate::msg::Lang) -> String {
    use urne_verify::rules::draw::RulesError as R;
    match e {
        R::Json(j) => mc::ERR_INPUT_RULES_JSON.fill(lang, &[("e", j)]),
        R::Invalid { field, reason } => {
            mc::ERR_INPUT_RULES_FIELD.fill(lang, &[("field", field), ("reason", reason)])
        }
    }
}

/// Why a public key file is refused, in `lang` (in English, the core error's own words).
pub fn key_error_words(e: &keys::KeyError, lang: crate::msg::Lang) -> String {
    use keys::KeyError as K;
    match e {
        K::NotPem(label) => mc::ERR_INPUT_KEY_NOT_PEM.fill(lang, &[("label", label)]),
        K::BadBase64 => mc::ERR_INPUT_KEY_BASE64.words(lang).to_string(),
        K::NotEd25519 => mc::ERR_INPUT_KEY_NOT_ED25519.words(lang).to_string(),
        K::BadPoint => mc::ERR_INPUT_KEY_POINT.words(lang).to_string(),
    }
}

/// Why a block id is refused, in `lang` (in English, the core error's own words).
fn block_id_words(e: &urne_verify::block::id::BlockIdError, lang: crate::msg::Lang) -> String {
    use urne_verify::block::id::BlockIdError as B;
    let quoted = |s: &String| format!("{s:?}");
    match e {
        B::Syntax(id) => mc::ERR_INPUT_BLOCK_SYNTAX.fill(lang, &[("id", &quoted(id))]),
        B::Emission(x) => mc::ERR_INPUT_BLOCK_EMISSION.fill(lang, &[("emission", &quoted(x))]),
        B::Game(g) => mc::ERR_INPUT_BLOCK_GAME.fill(lang, &[("game", &quoted(g))]),
        B::WrongGame { found, rules } => mc::ERR_INPUT_BLOCK_WRONG_GAME.fill(
            lang,
            &[("found", &quoted(found)), ("rules", &quoted(rules))],
        ),
        B::Price(cents) => mc::ERR_INPUT_BLOCK_PRICE.fill(lang, &[("cents", cents)]),
    }
}

/// A value in the trail that is not as urne records it (`what` says which, and how): the
/// database was altered, and the command stops.
pub fn altered(what: &str) -> Error {
    Error::new(
        Kind::TrailBroken,
        crate::msg!(mc::ERR_INPUT_ALTERED, what = what),
        crate::msg!(crate::msg::catalogue::edge::REC_STORE_ALTERED),
    )
}

/// Logs in, checks the trail, and gives the current attempt of `day` and its seal; a day not
/// sealed is refused (spec/formats.md §4.8: a proof leads to a seal's commitment; `urne proof`).
pub fn sealed_day(ctx: &mut Ctx, day: Day) -> Result<(Attempt, SealRecord)> {
    ctx.begin()?;
    let events = ctx.audit()?.events()?;
    let st = day_state(&events, day)?;
    let Some((_, seal)) = st.seal else {
        return Err(Error::new(
            Kind::DayNotSealed,
            crate::msg!(mc::ERR_PROOF_NOT_SEALED, day = day),
            crate::msg!(mc::REC_PROOF_NOT_SEALED),
        ));
    };
    Ok((st.attempt, seal))
}

/// The state of `day` read from the trail's `events`; a record that does not parse stops the
/// command. A day the trail holds nothing of must be a day of the operation (exit 2 otherwise,
/// [`check_day_of_operation`]).
pub fn day_state(events: &[Event], day: Day) -> Result<DayState> {
    let st = day_state_any(events, day)?;
    if st == DayState::new() {
        check_day_of_operation(events, day)?;
    }
    Ok(st)
}

/// The state of `day` read from the trail's `events`, whatever the day (for `urne seal`, whose
/// rules file says which days are the operation's).
pub fn day_state_any(events: &[Event], day: Day) -> Result<DayState> {
    state::day_state(events, day).map_err(|e| altered(&e.to_string()))
}

/// The official draw rules the appliance ships (rules/, pinned by `rules::official`): what a day
/// argument is judged against.
const OFFICIAL_DRAW_RULES: &[&[u8]] = &[include_bytes!("../../rules/chanceux-noel-2018.json")];

/// The official draw operations whose rules are embedded, parsed (a file that is not the pinned
/// one is left out).
fn official_operations() -> Vec<DrawRules> {
    use urne_verify::rules::official::standing;
    OFFICIAL_DRAW_RULES
        .iter()
        .filter_map(|b| DrawRules::from_json(b).ok())
        .filter(|r| standing(r.operation(), &Hash32(r.sha256())) == Standing::Official)
        .collect()
}

/// `day` is a day of the operations the trail seals (or, before any seal, of the appliance's
/// official operations): a day outside them is refused as such rather than as "not sealed". A
/// trail that seals an operation whose rules the appliance does not ship is not judged here.
pub fn check_day_of_operation(events: &[Event], day: Day) -> Result<()> {
    use urne_verify::events::kinds::{self, Record};
    let date = day.date();
    let mut named = std::collections::BTreeSet::new();
    for e in events {
        match kinds::parse(e) {
            Ok(Record::DrawSeal(r)) => {
                named.insert(r.operation);
            }
            Ok(Record::TrailRestarted(r)) => named.extend(r.days.into_iter().map(|d| d.operation)),
            _ => {}
        }
    }
    let official = official_operations();
    if named
        .iter()
        .any(|n| official.iter().all(|o| o.operation() != n))
    {
        return Ok(());
    }
    let judged: Vec<&DrawRules> = official
        .iter()
        .filter(|o| named.is_empty() || named.contains(o.operation()))
        .collect();
    if judged.is_empty() || judged.iter().any(|o| o.period_for(date).is_some()) {
        return Ok(());
    }
    let lang = crate::text::lang();
    let spans: Vec<String> = judged
        .iter()
        .map(|o| {
            let first = o.periods().iter().map(|p| p.first_day).min();
            let last = o.periods().iter().map(|p| p.last_day).max();
            match (first, last) {
                (Some(f), Some(l)) => {
                    format!("{} ({})", o.operation(), crate::text::days(f, l, lang))
                }
                _ => o.operation().to_string(),
            }
        })
        .collect();
    Err(Error::new(
        Kind::DayNotInOperation,
        crate::msg!(
            mc::ERR_INPUT_DAY_NOT_IN_OPERATION,
            day = day,
            spans = spans.join(lang.t(" ou ", " or "))
        ),
        crate::msg!(mc::REC_INPUT_DAY_NOT_IN_OPERATION),
    ))
}

/// The sealed set of a seal, read back from the trail and checked against its recorded hash.
pub fn sealed_set(ctx: &mut Ctx, seal: &SealRecord) -> Result<SealedSet> {
    // Built as the stored set is read, in pieces (never a second whole copy of it in memory),
    // and used only once the whole blob has its recorded hash.
    let mut reader = urne_verify::draw::SealedSetReader::new(
        usize::try_from(seal.commitment.leaves).unwrap_or(0),
    );
    ctx.audit()?
        .blob_pieces(&seal.set_sha256, |piece| reader.push(piece))?;
    reader.finish().ok_or_else(|| {
        Error::new(
            Kind::RecordUnreadable,
            crate::msg!(mc::ERR_INPUT_SEALED_SET),
            crate::msg!(mc::REC_INPUT_SEALED_SET),
        )
    })
}

/// The row of the ticket at `position` in a block's production file (`tickets.csv`).
pub fn find_row(csv: &Path, position: u32) -> Result<String> {
    use std::io::BufRead;
    let f = std::fs::File::open(csv)
        .map_err(|e| crate::error::io_error(crate::error::Io::Read, csv, e))?;
    let prefix = format!("{position},");
    for line in std::io::BufReader::with_capacity(1 << 20, f)
        .lines()
        .skip(1)
    {
        let line = line.map_err(|e| crate::error::io_error(crate::error::Io::Read, csv, e))?;
        if line.starts_with(&prefix) {
            return Ok(line);
        }
    }
    Err(Error::new(
        Kind::NoSuchTicket,
        crate::msg!(
            mc::ERR_INPUT_NO_TICKET,
            position = position,
            path = csv.display()
        ),
        crate::msg!(mc::REC_INPUT_NO_TICKET),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use urne_verify::block::id::BlockIdError as B;

    #[test]
    fn a_refused_block_id_is_said_in_english_as_the_core_says_it_and_in_french() {
        let all = [
            B::Syntax("a/b".into()),
            B::Emission("-x".into()),
            B::Game("A".into()),
            B::WrongGame {
                found: "a".into(),
                rules: "b".into(),
            },
            B::Price(150),
        ];
        for e in all {
            assert_eq!(block_id_words(&e, crate::msg::Lang::En), e.to_string());
            assert_ne!(block_id_words(&e, crate::msg::Lang::Fr), e.to_string());
        }
    }

    #[test]
    fn a_refused_key_or_rules_file_is_said_in_english_as_the_core_says_it_and_in_french() {
        use keys::KeyError as K;
        use urne_verify::rules::draw::RulesError as R;
        for e in [
            K::NotPem("PUBLIC KEY"),
            K::BadBase64,
            K::NotEd25519,
            K::BadPoint,
        ] {
            assert_eq!(key_error_words(&e, crate::msg::Lang::En), e.to_string());
            assert_ne!(key_error_words(&e, crate::msg::Lang::Fr), e.to_string());
        }
        for e in [
            R::Json("expected value at line 1 column 1".into()),
            R::Invalid {
                field: "periods[1].first_day".into(),
                reason: "is after last_day".into(),
            },
        ] {
            assert_eq!(rules_error_words(&e, crate::msg::Lang::En), e.to_string());
            assert_ne!(rules_error_words(&e, crate::msg::Lang::Fr), e.to_string());
        }
    }
}
