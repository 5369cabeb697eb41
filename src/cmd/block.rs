//! `urne block generate | reveal | void`, `urne ticket show`, `urne proof --block`, and
//! `urne verify` on block folders: the instant game "Le Noël de la chance" (G-1 … G-8, design
//! principles 1–4). Entropy is requested once per block and recorded (as a secret, by hash)
//! before use; the seed stays inside the appliance until the reveal.

use super::Ctx;
use super::verify::{load_keys, read_signed};
use crate::edge::fsio;
use crate::edge::hsm::KeyRole;
use crate::error::{Error, Exit, Result};
use serde_json::json;
use std::path::{Path, PathBuf};
use urne_core::block::files::{
    self, COMMIT_FORMAT, CommitFile, REVEAL_FORMAT, RevealFile, TICKET_PROOF_FORMAT,
    TicketProofFile, TierCount,
};
use urne_core::block::{self, BlockId};
use urne_core::crypto::{Hash32, keys, parse_hex32, sha256};
use urne_core::rules::game::GameRules;
use urne_core::verify::{Failure, FailureClass as C, fail};

/// Bytes of HSM entropy per block: 384 bits (SPEC.md §3.1).
pub const ENTROPY_BYTES: usize = 48;
/// Worker threads for generation and verification (the output never depends on it, §5.B5).
fn threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(1, 8)
}

const ENTROPY: &str = "block.entropy";
const GENERATED: &str = "block.generated";
const PUBLISHED: &str = "block.published";
const REVEALED: &str = "block.revealed";
const VOID: &str = "block.void";

/// The state of one block identity, derived from the trail.
#[derive(Default, Debug)]
struct BlockState {
    attempt: u32,
    voided: Vec<(u32, String, u64)>,
    entropy_sha256: Option<String>,
    generated: Option<serde_json::Value>,
    published: bool,
    revealed: bool,
}

fn block_state(events: &[urne_core::audit::Event], id: &str) -> BlockState {
    let mut st = BlockState {
        attempt: 1,
        ..Default::default()
    };
    for e in events {
        if !e.kind.starts_with("block.") {
            continue;
        }
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&e.payload) else {
            continue;
        };
        if v["block"] != id {
            continue;
        }
        let attempt = v["attempt"].as_u64().unwrap_or(0) as u32;
        if e.kind == VOID {
            st.voided.push((
                attempt,
                v["reason"].as_str().unwrap_or("").to_string(),
                e.seq,
            ));
            st = BlockState {
                attempt: attempt + 1,
                voided: std::mem::take(&mut st.voided),
                ..Default::default()
            };
            continue;
        }
        if attempt != st.attempt {
            continue;
        }
        match e.kind.as_str() {
            ENTROPY => st.entropy_sha256 = v["entropy_sha256"].as_str().map(String::from),
            GENERATED => st.generated = Some(v),
            PUBLISHED => st.published = true,
            REVEALED => st.revealed = true,
            _ => {}
        }
    }
    st
}

fn load_rules(path: &Path) -> Result<(GameRules, Vec<u8>)> {
    let bytes = fsio::read(path)?;
    let rules = GameRules::from_json(&bytes).map_err(|e| {
        Error::bad_input(
            format!("game rules {} refused: {e}", path.display()),
            "use the game's rules file shipped in rules/ (rules/noel-de-la-chance-2015.json)",
        )
    })?;
    Ok((rules, bytes))
}

fn block_id(rules: &GameRules, price: u64, emission: &str, number: u32) -> Result<BlockId> {
    let id = BlockId::new(rules.game(), price, emission, number).map_err(|e| {
        Error::bad_input(
            format!("bad block identity: {e}"),
            "--emission is 1-32 of a-z 0-9 - (not starting with -)",
        )
    })?;
    id.check_rules(rules).map_err(|e| {
        Error::bad_input(
            format!("{e}"),
            format!(
                "--price must be one of the game's price points (G-2): {:?} cents",
                rules.prices_cents()
            ),
        )
    })?;
    Ok(id)
}

fn tier_counts(rules: &GameRules, price: u64, tiers: &[u8]) -> Vec<TierCount> {
    let idx = rules.price_index(price).expect("checked price");
    let mut counts = [0u32; 11];
    for &t in tiers {
        counts[t as usize] += 1;
    }
    let mut out = vec![];
    for t in (4..=10u8).rev().chain([0u8]) {
        out.push(TierCount {
            tier: t,
            units: counts[t as usize],
            prize_cents: rules.prize_cents(t, idx).unwrap_or(0),
        });
    }
    out
}

fn expected_counts(rules: &GameRules, price: u64) -> Vec<TierCount> {
    let idx = rules.price_index(price).expect("checked price");
    (4..=10u8)
        .rev()
        .chain([0u8])
        .map(|t| TierCount {
            tier: t,
            units: rules.units_of_tier(t),
            prize_cents: rules.prize_cents(t, idx).unwrap_or(0),
        })
        .collect()
}

fn progress(i: usize, n: usize, what: &str) {
    if n > 1 {
        let w = 30;
        let done = (i * w) / n;
        eprint!(
            "\r[{}{}] {i}/{n} blocks {what}   ",
            "#".repeat(done),
            "-".repeat(w - done)
        );
        if i == n {
            eprintln!();
        }
    }
}

pub struct GenerateArgs {
    pub rules: PathBuf,
    pub price: u64,
    pub emission: String,
    pub first: u32,
    pub blocks: u32,
    pub out: PathBuf,
}

/// `urne block generate`.
pub fn generate(ctx: &mut Ctx, a: GenerateArgs) -> Result<()> {
    ctx.audit()?;
    let (rules, rules_bytes) = load_rules(&a.rules)?;
    if a.blocks == 0 {
        return Err(Error::bad_input("--blocks must be at least 1", ""));
    }
    let last = a.first.checked_add(a.blocks - 1).ok_or_else(|| {
        Error::bad_input("block numbers overflow", "use smaller --first/--blocks")
    })?;
    // Every identity is checked before any entropy is requested: a block is generated once.
    let events = ctx.audit()?.events()?;
    let mut ids = vec![];
    for n in a.first..=last {
        let id = block_id(&rules, a.price, &a.emission, n)?;
        let st = block_state(&events, &id.canonical());
        if st.published {
            return Err(Error::refused(
                format!(
                    "block {} was already generated (attempt {}); a block identity is generated once",
                    id.canonical(),
                    st.attempt
                ),
                "nothing was changed. Choose other numbers with --first, or void the block with `urne block void --block ID --reason …` first",
            ));
        }
        ids.push(id);
    }
    fsio::ensure_dir(&a.out)?;
    publish_rules(ctx, &a.out, &rules_bytes)?;
    let n = ids.len();
    for (i, id) in ids.iter().enumerate() {
        progress(i, n, "generated");
        generate_one(ctx, &rules, id, &a.out)?;
    }
    progress(n, n, "generated");
    ctx.checkpoint()?;
    Ok(())
}

/// Writes the game rules (signed) into the output folder once.
fn publish_rules(ctx: &mut Ctx, out: &Path, rules_bytes: &[u8]) -> Result<()> {
    let p = out.join("rules.json");
    if p.exists() {
        if fsio::read(&p)? != rules_bytes {
            return Err(Error::refused(
                format!("{} holds other rules", p.display()),
                "use one output folder per game rules file",
            ));
        }
        return Ok(());
    }
    let sig = ctx.hsm()?.sign(KeyRole::Result, rules_bytes)?;
    fsio::write_atomic(&p, rules_bytes, false)?;
    fsio::write_atomic(&out.join("rules.json.sig"), &sig, false)?;
    Ok(())
}

fn generate_one(ctx: &mut Ctx, rules: &GameRules, id: &BlockId, out: &Path) -> Result<()> {
    let canonical = id.canonical();
    let events = ctx.audit()?.events()?;
    let st = block_state(&events, &canonical);
    // Entropy: once per block and attempt, recorded (as a secret blob named by its hash) before
    // anything is computed from it; a run interrupted after that point resumes with it.
    let entropy = match &st.entropy_sha256 {
        Some(h) => {
            eprintln!(
                "resuming block {canonical} with the entropy already recorded; no new entropy is requested"
            );
            ctx.audit()?
                .blob(&parse_hex32(h).expect("recorded as hex"))?
        }
        None => {
            let (log, hsm) = ctx.both()?;
            let entropy = hsm.random(ENTROPY_BYTES)?;
            let eh = hex::encode(sha256(&entropy));
            let seen = events.iter().any(|e| e.payload.contains(&eh));
            log.append_with_blobs(
                ENTROPY,
                &json!({"block": canonical, "attempt": st.attempt, "rules_sha256": hex::encode(rules.sha256()), "entropy_sha256": eh}),
                &[&entropy],
            )?;
            if seen {
                return Err(Error::new(
                    Exit::Hsm,
                    "the HSM returned entropy already used",
                    "the token's generator is faulty or replaying: stop, void this block, use another HSM",
                ));
            }
            entropy
        }
    };
    let seed = block::block_seed(id, rules.sha256(), &entropy);
    let blk = block::generate_block(rules, id, &seed, threads())
        .map_err(|e| Error::internal(format!("block generation failed: {e}"), ""))?;
    let counts = tier_counts(rules, id.price_cents(), blk.tiers());
    if counts != expected_counts(rules, id.price_cents()) {
        return Err(Error::internal(
            "the generated block's tier counts differ from G-3",
            "this is a defect; nothing was published",
        ));
    }
    let csv = blk.csv_bytes();
    let csv_sha = hex::encode(sha256(&csv));
    let root = hex::encode(blk.outcomes_root());
    let sc = hex::encode(block::seed_commitment(&seed));
    if st.generated.is_none() {
        ctx.audit()?.append(
            GENERATED,
            &json!({"block": canonical, "attempt": st.attempt, "outcomes_root": root, "seed_commitment": sc, "tickets_sha256": csv_sha}),
        )?;
    }
    let checkpoint = ctx.checkpoint()?;
    let software = ctx.software()?;
    let hsm = ctx.hsm()?;
    let rk = hsm.public_key(KeyRole::Result)?;
    let ak = hsm.public_key(KeyRole::Audit)?;
    let stem = files::stem(&canonical);
    let commit = CommitFile {
        format: COMMIT_FORMAT.into(),
        version: 1,
        block: canonical.clone(),
        game: id.game().into(),
        price_cents: id.price_cents(),
        emission: id.emission().into(),
        number: id.number(),
        attempt: st.attempt,
        rules_sha256: hex::encode(rules.sha256()),
        block_size: rules.block_size(),
        tiers: counts,
        outcomes_root: root.clone(),
        seed_commitment: sc,
        tickets_file: format!("{stem}.tickets.csv"),
        tickets_sha256: csv_sha.clone(),
        generated_at: crate::edge::clock::now_rfc3339(),
        audit_checkpoint: checkpoint,
        result_key_id: keys::key_id(&rk),
        audit_key_id: keys::key_id(&ak),
        software,
    };
    let commit_bytes = urne_core::draw::files::to_bytes(&commit);
    let outputs: Vec<(&str, Vec<u8>)> = vec![];
    let _ = outputs;
    let commit_name = format!("{stem}.commit.json");
    let csv_name = format!("{stem}.tickets.csv");
    let written = crate::cmd::day::write_signed(
        ctx,
        out,
        &[
            (commit_name.as_str(), commit_bytes),
            (csv_name.as_str(), csv),
        ],
        &rk,
        &ak,
    )?;
    ctx.audit()?.append_evidence(
        PUBLISHED,
        &json!({"block": canonical, "attempt": st.attempt, "out": out.display().to_string(), "files": written}),
    )?;
    if std::env::var_os("URNE_QUIET_BLOCKS").is_none() {
        println!("GENERATED: block {canonical} (attempt {})", st.attempt);
        println!("  outcomes root    {root}");
        println!("  tickets.csv      sha256 {csv_sha} (SECRET until the block closes)");
        println!("  commitment       {}", out.join(&commit_name).display());
    }
    Ok(())
}

/// `urne block reveal`.
pub fn reveal(ctx: &mut Ctx, block_arg: &str, out: &Path) -> Result<()> {
    let id = BlockId::parse(block_arg).map_err(|e| {
        Error::bad_input(
            format!("{e}"),
            "give the block's canonical id, e.g. noel-de-la-chance-2015/100/E1/1",
        )
    })?;
    let canonical = id.canonical();
    let events = ctx.audit()?.events()?;
    let st = block_state(&events, &canonical);
    let Some(g) = st.generated.clone().filter(|_| st.published) else {
        return Err(Error::refused(
            format!("block {canonical} has not been generated"),
            "only a generated block can be revealed",
        ));
    };
    let eh = st
        .entropy_sha256
        .clone()
        .expect("generated implies entropy");
    let entropy = ctx.audit()?.blob(&parse_hex32(&eh).expect("hex"))?;
    let rules_sha = events
        .iter()
        .filter(|e| e.kind == ENTROPY)
        .filter_map(|e| serde_json::from_str::<serde_json::Value>(&e.payload).ok())
        .find(|v| v["block"] == canonical.as_str() && v["entropy_sha256"] == eh.as_str())
        .and_then(|v| v["rules_sha256"].as_str().map(String::from))
        .expect("recorded with the entropy");
    let seed = block::block_seed(&id, &parse_hex32(&rules_sha).expect("hex"), &entropy);
    if !st.revealed {
        ctx.audit()?.append(
            REVEALED,
            &json!({"block": canonical, "attempt": st.attempt, "entropy": hex::encode(&entropy), "seed": hex::encode(seed)}),
        )?;
    }
    let checkpoint = ctx.checkpoint()?;
    let hsm = ctx.hsm()?;
    let rk = hsm.public_key(KeyRole::Result)?;
    let ak = hsm.public_key(KeyRole::Audit)?;
    let r = RevealFile {
        format: REVEAL_FORMAT.into(),
        version: 1,
        block: canonical.clone(),
        rules_sha256: rules_sha,
        entropy: hex::encode(&entropy),
        seed: hex::encode(seed),
        seed_commitment: g["seed_commitment"].as_str().unwrap_or("").into(),
        outcomes_root: g["outcomes_root"].as_str().unwrap_or("").into(),
        revealed_at: crate::edge::clock::now_rfc3339(),
        audit_checkpoint: checkpoint,
        result_key_id: keys::key_id(&rk),
    };
    let name = format!("{}.reveal.json", files::stem(&canonical));
    crate::cmd::day::write_signed(
        ctx,
        out,
        &[(name.as_str(), urne_core::draw::files::to_bytes(&r))],
        &rk,
        &ak,
    )?;
    ctx.checkpoint()?;
    println!("REVEALED: block {canonical}");
    println!("  entropy  {}", r.entropy);
    println!("  seed     {}", r.seed);
    println!("  written  {}", out.join(&name).display());
    println!(
        "anyone can now recompute the block: urne verify {}",
        out.display()
    );
    Ok(())
}

/// `urne block void`.
pub fn void(ctx: &mut Ctx, block_arg: &str, reason: &str) -> Result<()> {
    let id = BlockId::parse(block_arg)
        .map_err(|e| Error::bad_input(format!("{e}"), "give the block's canonical id"))?;
    if reason.trim().len() < 5 {
        return Err(Error::bad_input("a void needs a reason", "--reason \"…\""));
    }
    let canonical = id.canonical();
    let events = ctx.audit()?.events()?;
    let st = block_state(&events, &canonical);
    if st.entropy_sha256.is_none() {
        return Err(Error::refused(
            format!("block {canonical} has nothing to void"),
            "only a generated (or interrupted) block can be voided",
        ));
    }
    let ev = ctx.audit()?.append(
        VOID,
        &json!({"block": canonical, "attempt": st.attempt, "reason": reason}),
    )?;
    ctx.checkpoint()?;
    println!(
        "VOIDED: block {canonical}, attempt {} (audit event #{}); it may be generated again as attempt {}",
        st.attempt,
        ev.seq,
        st.attempt + 1
    );
    Ok(())
}

fn find_row(csv: &Path, position: u32) -> Result<String> {
    use std::io::BufRead;
    let f = std::fs::File::open(csv).map_err(|e| crate::error::io_error("read", csv, e))?;
    let prefix = format!("{position},");
    for line in std::io::BufReader::with_capacity(1 << 20, f)
        .lines()
        .skip(1)
    {
        let line = line.map_err(|e| crate::error::io_error("read", csv, e))?;
        if line.starts_with(&prefix) {
            return Ok(line);
        }
    }
    Err(Error::bad_input(
        format!("no ticket at position {position} in {}", csv.display()),
        "positions are 0-based and below the block size",
    ))
}

/// `urne ticket show`: a ticket's grid for one choice, from the block's signed files (and,
/// after the reveal, recomputed from the seed) — what a player or the regulator uses in a
/// dispute (G-5).
pub fn ticket_show(
    keys_dir: Option<&Path>,
    dir: &Path,
    block_arg: &str,
    position: u32,
    choice: u8,
) -> Result<()> {
    let id = BlockId::parse(block_arg)
        .map_err(|e| Error::bad_input(format!("{e}"), "give the block's canonical id"))?;
    if !(1..=3).contains(&choice) {
        return Err(Error::bad_input(
            "--choice is 1, 2 or 3",
            "the player picks one of three offered symbols (G-6)",
        ));
    }
    let k = load_keys(keys_dir, dir)?;
    let stem = files::stem(&id.canonical());
    let vf = |f: Failure| {
        Error::verification(
            format!("{} ({})", f.what, f.class.name()),
            "the block's files are not as urne signed them",
        )
    };
    let rules_bytes = read_signed(dir, "rules.json", &k.result).map_err(vf)?;
    let rules = GameRules::from_json(&rules_bytes)
        .map_err(|e| Error::bad_input(format!("rules.json: {e}"), ""))?;
    let commit: CommitFile =
        parse(&read_signed(dir, &format!("{stem}.commit.json"), &k.result).map_err(vf)?)
            .map_err(vf)?;
    // The production file's signature covers every row (it is checked whole).
    let csv_name = format!("{stem}.tickets.csv");
    read_signed(dir, &csv_name, &k.result).map_err(vf)?;
    let row = find_row(&dir.join(&csv_name), position)?;
    let t = block::tickets::parse_row(row.as_bytes(), rules.symbols().len())
        .map_err(|e| Error::verification(format!("ticket row: {e}"), ""))?;
    let reveal_name = format!("{stem}.reveal.json");
    let mut recomputed = "not yet revealed: shown from the signed production file";
    if dir.join(&reveal_name).exists() {
        let r: RevealFile =
            parse(&read_signed(dir, &reveal_name, &k.result).map_err(vf)?).map_err(vf)?;
        let seed = parse_hex32(&r.seed).ok_or_else(|| Error::verification("bad seed", ""))?;
        if block::seed_commitment(&seed) != parse_hex32(&commit.seed_commitment).unwrap_or([0; 32])
        {
            return Err(Error::verification(
                "the revealed seed is not the committed one",
                "",
            ));
        }
        let g = block::ticket_grid(&block::grid_key(&seed), position, t.tier, &rules);
        if g != t.grid {
            return Err(Error::verification(
                "the production file's grid differs from the one recomputed from the revealed seed",
                "",
            ));
        }
        recomputed = "recomputed from the revealed seed: identical";
    }
    let c = (choice - 1) as usize;
    let sym = |i: u8| rules.symbols()[i as usize].clone();
    let chosen = t.grid.offered[c];
    println!(
        "block {}  ticket {position}  choice {choice}",
        id.canonical()
    );
    println!(
        "offered symbols: {}",
        t.grid
            .offered
            .iter()
            .map(|&s| sym(s))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!("chosen symbol:   {}", sym(chosen));
    let w = rules.symbols().iter().map(|s| s.len()).max().unwrap_or(1);
    for r in 0..3 {
        let cells: Vec<String> = (0..6)
            .map(|col| {
                let s = t.grid.cells[c][r * 6 + col];
                let name = sym(s);
                if s == chosen {
                    format!("[{name:^w$}]")
                } else {
                    format!(" {name:^w$} ")
                }
            })
            .collect();
        println!("  {}", cells.join(" "));
    }
    let count = t.grid.cells[c].iter().filter(|&&s| s == chosen).count();
    println!("chosen symbol appears {count} times");
    println!(
        "outcome: {}",
        if t.tier == 0 {
            "losing ticket (G-8)".to_string()
        } else {
            format!(
                "WINS {} cents ({} matches, G-3, G-7); the same whatever the choice (G-6)",
                t.prize_cents, t.tier
            )
        }
    );
    println!("grid: {recomputed}");
    Ok(())
}

fn parse<T: serde::de::DeserializeOwned>(b: &[u8]) -> std::result::Result<T, Failure> {
    serde_json::from_slice(b).map_err(|e| fail(C::Malformed, format!("{e}")))
}

/// `urne proof --block ID --position P --out FILE`.
pub fn ticket_proof(
    ctx: &mut Ctx,
    dir: &Path,
    block_arg: &str,
    position: u32,
    out: &Path,
) -> Result<()> {
    let id = BlockId::parse(block_arg)
        .map_err(|e| Error::bad_input(format!("{e}"), "give the block's canonical id"))?;
    let stem = files::stem(&id.canonical());
    // The appliance signs a proof only against a commitment it signed itself: the commitment's
    // signature is checked with the token's own result key before anything is read from it.
    let rk = ctx.hsm()?.public_key(KeyRole::Result)?;
    let commit_bytes = read_signed(dir, &format!("{stem}.commit.json"), &rk).map_err(|f| {
        Error::bad_input(
            format!("block commitment: {} ({})", f.what, f.class.name()),
            "give the folder `urne block generate` wrote for this block",
        )
    })?;
    let commit: CommitFile = serde_json::from_slice(&commit_bytes)
        .map_err(|e| Error::bad_input(format!("commitment: {e}"), ""))?;
    if commit.block != id.canonical() {
        return Err(Error::bad_input(
            "the commitment in that folder is another block's",
            "check --block and --dir",
        ));
    }
    let csv = dir.join(format!("{stem}.tickets.csv"));
    let row = find_row(&csv, position)?;
    // The leaves of every ticket, recomputed from the production file, must give the committed root.
    let leaves: Vec<Hash32> = {
        use std::io::BufRead;
        let f = std::fs::File::open(&csv).map_err(|e| crate::error::io_error("read", &csv, e))?;
        std::io::BufReader::with_capacity(1 << 20, f)
            .lines()
            .skip(1)
            .map(|l| l.map(|l| block::tickets::ticket_leaf(l.as_bytes())))
            .collect::<std::io::Result<_>>()
            .map_err(|e| crate::error::io_error("read", &csv, e))?
    };
    if hex::encode(urne_core::crypto::merkle::root(&leaves)) != commit.outcomes_root {
        return Err(Error::verification(
            "the production file does not match the block's commitment",
            "",
        ));
    }
    let path = urne_core::crypto::merkle::inclusion_path(position as usize, &leaves);
    let p = TicketProofFile {
        format: TICKET_PROOF_FORMAT.into(),
        version: 1,
        block: id.canonical(),
        position,
        row,
        block_size: commit.block_size,
        outcomes_root: commit.outcomes_root.clone(),
        path: path.iter().map(hex::encode).collect(),
        result_key_id: keys::key_id(&rk),
    };
    let bytes = urne_core::draw::files::to_bytes(&p);
    let sig = ctx.hsm()?.sign(KeyRole::Result, &bytes)?;
    fsio::write_atomic(out, &bytes, false)?;
    fsio::write_atomic(
        &PathBuf::from(format!("{}.sig", out.display())),
        &sig,
        false,
    )?;
    ctx.audit()?.append_evidence(
        "block.proof",
        &json!({"block": p.block, "position": position, "file_sha256": hex::encode(sha256(&bytes))}),
    )?;
    ctx.checkpoint()?;
    println!(
        "ticket proof for {} position {position} written to {}",
        p.block,
        out.display()
    );
    Ok(())
}
