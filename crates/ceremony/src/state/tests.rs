//! The state machine's rules, one test each, and a randomised run over thousands of event
//! sequences built from the real kinds.

use super::*;
use serde_json::json;
use urne_verify::crypto::Hash32;
use urne_verify::events::kinds::Kind;

const H0: &str = "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d";
const H1: &str = "4bf5122f344554c53bde2ebb8cd2b7e3d1600ad631c385a5d7cce23c7785459a";
const H2: &str = "dbc1b4c900ffe48d575b5da5c638040125f65db0fe3e24494b76ea986457d986";
const DAY: &str = "2018-12-04";
const ID: &str = "noel-de-la-chance-2015/100/e1/1";

fn d(day: &str) -> urne_verify::values::Day {
    day.parse().unwrap()
}

fn b(id: &str) -> urne_verify::block::BlockId {
    id.parse().unwrap()
}

fn h(hex: &str) -> Hash32 {
    Hash32::from_hex(hex).unwrap()
}

/// A test entropy commitment named by `x`.
fn ec(x: &str) -> String {
    urne_verify::crypto::sha256(x.as_bytes()).to_string()
}

/// Builds events with consecutive sequence numbers.
#[derive(Default)]
struct T(Vec<Event>);

impl T {
    fn raw(mut self, kind: &str, payload: &str) -> T {
        self.0.push(Event {
            seq: self.0.len() as u64 + 1,
            ts: "2018-12-05T09:00:00.000000Z".into(),
            kind: kind.into(),
            payload: payload.into(),
            prev_hash: Hash32::ZERO,
            hash: Hash32::ZERO,
        });
        self
    }
    fn push(self, kind: Kind, v: &serde_json::Value) -> T {
        self.raw(kind.name(), &v.to_string())
    }
    fn seal(self, day: &str, attempt: u32) -> T {
        self.push(Kind::DrawSeal, &seal(day, attempt))
    }
    /// A `draw.entropy` whose entropy commitment is `ec(x)`.
    fn entropy(self, day: &str, attempt: u32, x: &str) -> T {
        self.push(
            Kind::DrawEntropy,
            &json!({"operation": "op", "day": day, "attempt": attempt, "commitment_root": H0,
                "entropy_commitment": ec(x), "entropy_blob": H2}),
        )
    }
    /// A `draw.contribution` following the entropy commitment `ec(x)`.
    fn contributed(self, day: &str, attempt: u32, x: &str) -> T {
        self.push(
            Kind::DrawContribution,
            &json!({"operation": "op", "day": day, "attempt": attempt,
                "entropy_commitment": ec(x), "contribution": "6 2 5 1 4 4 3 6"}),
        )
    }
    /// A `block.contribution` for one block following the entropy commitment `x` (hex).
    fn b_contributed(self, id: &str, attempt: u32, x: &str) -> T {
        self.push(
            Kind::BlockContribution,
            &json!({"blocks": [{"block": id, "attempt": attempt, "entropy_commitment": x}],
                "contribution": "6 2 5 1 4 4 3 6"}),
        )
    }
    fn result(self, day: &str, attempt: u32) -> T {
        self.push(
            Kind::DrawResult,
            &json!({"operation": "op", "day": day, "attempt": attempt, "seed": H1,
                "winner": {"entry": 0, "leaf": 0}, "reserves": []}),
        )
    }
    fn published(self, day: &str, attempt: u32) -> T {
        self.push(
            Kind::DrawPublished,
            &json!({"day": day, "attempt": attempt, "out": "out", "files": {"result.json": H2}}),
        )
    }
    fn void(self, day: &str, attempt: u32) -> T {
        self.push(
            Kind::DrawVoid,
            &json!({"day": day, "attempt": attempt, "reason": "misprint", "stage": "sealed"}),
        )
    }
    fn late(self, day: &str, attempt: u32) -> T {
        self.push(
            Kind::DrawLate,
            &json!({"day": day, "attempt": attempt, "draw_date": DAY, "today": "2018-12-30"}),
        )
    }
    fn proof(self, day: &str, attempt: u32) -> T {
        self.push(
            Kind::DrawProof,
            &json!({"day": day, "attempt": attempt, "pseudonym": H0, "file_sha256": H1}),
        )
    }
    fn b_entropy(self, id: &str, attempt: u32, eh: &str) -> T {
        self.push(
            Kind::BlockEntropy,
            &json!({"block": id, "attempt": attempt, "rules_sha256": H0,
                "entropy_commitment": eh, "entropy_blob": H2}),
        )
    }
    fn b_generated(self, id: &str, attempt: u32) -> T {
        self.push(
            Kind::BlockGenerated,
            &json!({"block": id, "attempt": attempt, "outcomes_root": H0,
                "seed_commitment": H1, "tickets_sha256": H2}),
        )
    }
    fn b_published(self, id: &str, attempt: u32) -> T {
        self.push(
            Kind::BlockPublished,
            &json!({"block": id, "attempt": attempt, "out": "o", "files": {"a.commit.json": H0}}),
        )
    }
    fn b_revealed(self, id: &str, attempt: u32) -> T {
        self.push(
            Kind::BlockRevealed,
            &json!({"block": id, "attempt": attempt, "entropy": "ab", "seed": H1, "sales_closed_at": "2015-12-31T22:59:59.000000Z"}),
        )
    }
    fn b_void(self, id: &str, attempt: u32) -> T {
        self.push(
            Kind::BlockVoid,
            &json!({"block": id, "attempt": attempt, "reason": "misprint"}),
        )
    }
    fn ok(&self) -> Trail {
        Trail::from_events(&self.0).unwrap()
    }
    /// The trail is refused at its last event.
    fn refused(&self) -> MalformedRecord {
        let e = Trail::from_events(&self.0).unwrap_err();
        let last = self.0.last().unwrap();
        assert_eq!(
            (e.seq, e.kind.as_str()),
            (last.seq, last.kind.as_str()),
            "{e}"
        );
        e
    }
}

pub(super) fn seal(day: &str, attempt: u32) -> serde_json::Value {
    json!({"operation": "op", "day": day, "attempt": attempt, "rules_sha256": H0,
        "export_file": "e.jsonl", "export": {"sha256": H1, "size": 10, "producer_key_id": "k"},
        "figures": {"period": "p", "tranche_cents": 1000, "plays": 1, "counting_plays": 1,
            "retail_plays": 0, "subscription_plays_refused": 0, "accounts_with_counting_plays": 1,
            "exclusion_records": {"closed": 0, "minor": 0, "fraud": 0},
            "excluded_accounts_with_plays": {"closed": 0, "minor": 0, "fraud": 0},
            "accounts_with_entries": 1, "entries": 1},
        "commitment": {"root": H2, "leaves": 1, "entries": 1},
        "set_sha256": H0, "leaves_sha256": H1, "leaves_sig": "00"})
}

fn software_start() -> serde_json::Value {
    json!({"command": "seal", "software": {"name": "urne", "version": "0.1.0",
        "source_revision": "unknown", "executable_sha256": H0},
        "pkcs11": {"module_path": "/m.so", "module_sha256": H0, "manufacturer": "m",
        "library": "l", "library_version": "2.6", "cryptoki_version": "2.40",
        "token": {"label": "urne", "manufacturer": "m", "model": "x", "serial": "1",
        "firmware": "2.6"}, "mapped": [{"path": "/m.so", "status": "present", "sha256": H0}]}})
}

#[test]
fn a_day_goes_through_its_stages_and_a_void_starts_the_next_attempt() {
    let t = T::default()
        .push(Kind::SoftwareStart, &software_start())
        .seal(DAY, 1)
        .late(DAY, 1)
        .entropy(DAY, 1, "aa")
        .contributed(DAY, 1, "aa")
        .result(DAY, 1)
        .published(DAY, 1)
        .proof(DAY, 1)
        .seal("2018-12-05", 1);
    let st = t.ok().day_state(d(DAY));
    assert_eq!(st.attempt, 1);
    assert_eq!(st.stage(), "drawn and published");
    assert_eq!(st.entropy.as_ref().unwrap().0, 4);
    assert_eq!(t.ok().day_state(d("2018-12-05")).stage(), "sealed");
    assert_eq!(t.ok().day_state(d("2018-12-06")), day::DayState::new());
    let t = t.void(DAY, 1).proof(DAY, 1).seal(DAY, 2);
    let st = t.ok().day_state(d(DAY));
    assert_eq!((st.attempt.get(), st.stage()), (2, "sealed"));
    // Entropy and no contribution recorded: never said to have stopped "before" it (one may
    // have been typed, and its record lost).
    let e = T::default().seal(DAY, 1).entropy(DAY, 1, "aa");
    assert_eq!(
        e.ok().day_state(d(DAY)).stage(),
        "entropy recorded (draw interrupted; no contribution recorded)"
    );
    let e = e.contributed(DAY, 1, "aa");
    assert_eq!(
        e.ok().day_state(d(DAY)).stage(),
        "contribution recorded (draw interrupted)"
    );
    assert_eq!((st.voided[0].attempt, st.voided[0].audit_seq), (1, 10));
    // A publication recorded after a void (as evidence, whatever happened since) is of the
    // voided attempt, not the current one.
    let t = T::default()
        .seal(DAY, 1)
        .entropy(DAY, 1, "aa")
        .contributed(DAY, 1, "aa")
        .result(DAY, 1)
        .void(DAY, 1)
        .published(DAY, 1);
    let st = t.ok().day_state(d(DAY));
    assert!(st.published.is_none() && st.seal.is_none() && st.attempt == 2);
}

#[test]
fn a_day_event_that_cannot_follow_is_refused() {
    let sealed = || T::default().seal(DAY, 1);
    // Entropy without a seal, or for another attempt, or twice.
    T::default().entropy(DAY, 1, "aa").refused();
    let e = sealed().entropy(DAY, 2, "aa").refused();
    assert!(e.reason.contains("current attempt is 1"), "{e}");
    sealed().entropy(DAY, 0, "aa").refused();
    sealed()
        .entropy(DAY, 1, "aa")
        .entropy(DAY, 1, "bb")
        .refused();
    // A contribution without entropy, naming another commitment, twice, or out of grammar.
    sealed().contributed(DAY, 1, "aa").refused();
    let e = sealed()
        .entropy(DAY, 1, "aa")
        .contributed(DAY, 1, "bb")
        .refused();
    assert!(e.reason.contains("another entropy commitment"), "{e}");
    let contributed = || sealed().entropy(DAY, 1, "aa").contributed(DAY, 1, "aa");
    contributed().contributed(DAY, 1, "aa").refused();
    let e = sealed()
        .entropy(DAY, 1, "aa")
        .push(
            Kind::DrawContribution,
            &json!({"operation": "op", "day": DAY, "attempt": 1,
                "entropy_commitment": ec("aa"), "contribution": "short"}),
        )
        .refused();
    assert!(e.reason.contains("5 characters"), "{e}");
    // A result without entropy, or without a contribution, or twice; a publication without a
    // result.
    sealed().result(DAY, 1).refused();
    sealed().entropy(DAY, 1, "aa").result(DAY, 1).refused();
    contributed().result(DAY, 1).result(DAY, 1).refused();
    sealed().entropy(DAY, 1, "aa").published(DAY, 1).refused();
    sealed().published(DAY, 2).refused();
    // A second seal; a seal of an attempt that does not follow.
    sealed().seal(DAY, 1).refused();
    T::default().seal(DAY, 2).refused();
    sealed().void(DAY, 1).seal(DAY, 3).refused();
    // A void of an unsealed or other attempt; a late draw before the seal or after the entropy.
    T::default().void(DAY, 1).refused();
    sealed().void(DAY, 2).refused();
    sealed().void(DAY, 1).void(DAY, 2).refused();
    T::default().late(DAY, 1).refused();
    sealed().entropy(DAY, 1, "aa").late(DAY, 1).refused();
    // Records of a voided attempt that decide something.
    sealed().void(DAY, 1).entropy(DAY, 1, "aa").refused();
    // A proof of an unsealed or future attempt.
    T::default().proof(DAY, 1).refused();
    sealed().proof(DAY, 2).refused();
}

#[test]
fn a_block_goes_through_its_stages_and_a_void_starts_the_next_attempt() {
    let t = T::default()
        .b_entropy(ID, 1, H0)
        .b_contributed(ID, 1, H0)
        .b_generated(ID, 1)
        .b_published(ID, 1)
        .b_revealed(ID, 1)
        .raw(
            Kind::BlockProof.name(),
            &format!(r#"{{"block":"{ID}","position":3,"file_sha256":"{H1}"}}"#),
        )
        .b_entropy("g/100/e1/9", 1, H1);
    let st = t.ok().block_state(&b(ID));
    assert!(st.generated.is_some() && st.published.is_some() && st.revealed.is_some());
    assert_eq!(st.entropy_rules_sha256(), Some(h(H0)));
    let o = t.ok().block_state(&b("g/100/e1/9"));
    assert!(o.entropy.is_some() && o.generated.is_none());
    let t = t.b_void(ID, 1).b_published(ID, 1);
    let st = t.ok().block_state(&b(ID));
    assert_eq!(
        (st.attempt.get(), st.voided.len(), st.voided[0].0),
        (2, 1, 8)
    );
    assert!(st.entropy.is_none() && st.published.is_none());
    assert!(st.entropy_rules_sha256().is_none());
    let st = t.b_entropy(ID, 2, H2).ok().block_state(&b(ID));
    assert_eq!(st.entropy.unwrap().1.entropy_commitment, h(H2));
}

#[test]
fn a_block_event_that_cannot_follow_is_refused() {
    let with_entropy = || T::default().b_entropy(ID, 1, H0).b_contributed(ID, 1, H0);
    with_entropy().b_entropy(ID, 1, H1).refused();
    T::default().b_entropy(ID, 2, H1).refused();
    T::default().b_generated(ID, 1).refused();
    // A contribution without entropy, naming another commitment, twice, or naming one block
    // twice; a generation without a contribution.
    T::default().b_contributed(ID, 1, H0).refused();
    T::default()
        .b_entropy(ID, 1, H0)
        .b_contributed(ID, 1, H1)
        .refused();
    with_entropy().b_contributed(ID, 1, H0).refused();
    T::default()
        .b_entropy(ID, 1, H0)
        .push(
            Kind::BlockContribution,
            &json!({"blocks": [{"block": ID, "attempt": 1, "entropy_commitment": H0},
                {"block": ID, "attempt": 1, "entropy_commitment": H0}],
                "contribution": "6 2 5 1 4 4 3 6"}),
        )
        .refused();
    T::default()
        .b_entropy(ID, 1, H0)
        .b_generated(ID, 1)
        .refused();
    with_entropy()
        .b_generated(ID, 1)
        .b_generated(ID, 1)
        .refused();
    with_entropy().b_published(ID, 1).refused();
    // A reveal before the block was generated, or before it was published, or twice.
    with_entropy().b_revealed(ID, 1).refused();
    with_entropy()
        .b_generated(ID, 1)
        .b_revealed(ID, 1)
        .refused();
    let done = || with_entropy().b_generated(ID, 1).b_published(ID, 1);
    done().b_revealed(ID, 1).b_revealed(ID, 1).refused();
    done().b_revealed(ID, 2).refused();
    T::default().b_void(ID, 1).refused();
    with_entropy().b_void(ID, 2).refused();
    with_entropy().b_void(ID, 1).b_generated(ID, 1).refused();
}

#[test]
fn an_unknown_or_malformed_event_of_any_day_or_block_is_refused() {
    let t = || T::default().seal(DAY, 1);
    let e = t().raw("draw.unknown", "{}").refused();
    let _ = T::default().b_contributed(ID, 1, H0);
    assert!(e.reason.contains("unknown event kind"), "{e}");
    // Another day's record, another block's record, a payload that is not JSON, a payload of
    // another kind: each stops the state of every day and block.
    let bad = "AB".repeat(32);
    let other_day = T::default()
        .seal("2018-12-09", 1)
        .entropy("2018-12-09", 1, "aa")
        .contributed("2018-12-09", 1, "aa");
    let e = other_day
        .push(
            Kind::DrawResult,
            &json!({"operation": "op", "day": "2018-12-09", "attempt": 1, "seed": bad,
                "winner": {"entry": 0, "leaf": 0}, "reserves": []}),
        )
        .refused();
    assert!(e.reason.contains("expected 64 hex digits"), "{e}");
    t().b_entropy("other", 1, &bad).refused();
    t().raw("software.start", "not a record").refused();
    t().raw("draw.seal", "{").refused();
    t().push(Kind::DrawVoid, &software_start()).refused();
    // A member the type does not define.
    let mut s = seal(DAY, 2);
    s["extra"] = json!(1);
    T::default().push(Kind::DrawSeal, &s).refused();
    let e = day_state(&t().raw("x", "{}").0, d("2018-12-31")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "audit event 2 (x) is not a well-formed record: unknown event kind"
    );
    assert!(block_state(&t().raw("x", "{}").0, &b(ID)).is_err());
}

/// `SplitMix64`: a deterministic generator, enough for test sequences.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u32) -> u32 {
        u32::try_from(self.next() % u64::from(n)).expect("below n")
    }
}

const DAYS: [&str; 2] = ["2018-12-01", "2018-12-02"];
const BLOCKS: [&str; 2] = ["g/100/e1/1", "g/100/e1/2"];

/// Where the generator believes a day or a block stands: its attempt and its stage.
#[derive(Clone, Copy, Default)]
struct Unit {
    attempt: u32,
    stage: u8,
    /// The step number whose entropy the current attempt recorded.
    ent: u64,
}

/// One random event of the real kinds: mostly the next step of a day or a block as the
/// generator believes it stands (so that many sequences are accepted), sometimes any kind at
/// any attempt, an unknown kind, or a payload that does not parse.
fn random_step(rng: &mut Rng, t: T, units: &mut [Unit; 4], n: u64) -> T {
    let i = rng.below(4) as usize;
    let unit = &mut units[i];
    let entropy = format!("{n:096x}");
    let eh = format!("{n:064x}");
    let (recorded, recorded_h) = (format!("{:096x}", unit.ent), format!("{:064x}", unit.ent));
    if rng.below(12) == 0 {
        let (day, id, any) = (DAYS[i % 2], BLOCKS[i % 2], rng.below(4));
        return match rng.below(10) {
            0 => t.seal(day, any),
            1 => t.entropy(day, any, &entropy),
            2 => t.result(day, any),
            3 => t.void(day, any),
            4 => t.b_entropy(id, any, &eh),
            5 => t.b_revealed(id, any),
            6 => t.b_void(id, any),
            7 => t.raw("draw.unknown", "{}"),
            8 => t.raw("block.entropy", "{"),
            _ => t.push(Kind::SoftwareStart, &software_start()),
        };
    }
    let attempt = unit.attempt + 1;
    let void = rng.below(6) == 0 && unit.stage > 0;
    if void {
        *unit = Unit {
            attempt,
            stage: 0,
            ent: 0,
        };
    }
    if i < 2 {
        let day = DAYS[i];
        if void {
            return t.void(day, attempt);
        }
        let (t, next) = match unit.stage {
            0 => (t.seal(day, attempt), 1),
            1 if rng.below(3) == 0 => (t.late(day, attempt), 1),
            1 => {
                unit.ent = n;
                (t.entropy(day, attempt, &entropy), 2)
            }
            2 => (t.contributed(day, attempt, &recorded), 3),
            3 => (t.result(day, attempt), 4),
            _ if rng.below(2) == 0 => (t.proof(day, attempt), 4),
            _ => (t.published(day, attempt), 4),
        };
        unit.stage = next;
        t
    } else {
        let id = BLOCKS[i - 2];
        if void {
            return t.b_void(id, attempt);
        }
        let (t, next) = match unit.stage {
            0 => {
                unit.ent = n;
                (t.b_entropy(id, attempt, &eh), 1)
            }
            1 => (t.b_contributed(id, attempt, &recorded_h), 2),
            2 => (t.b_generated(id, attempt), 3),
            3 => (t.b_published(id, attempt), 4),
            _ => (t.b_revealed(id, attempt), 4),
        };
        unit.stage = next;
        t
    }
}

/// The first entropy recorded for (day or block, attempt) in a sequence, with its event's
/// sequence number, read without the state machine.
fn first_entropies(events: &[Event]) -> BTreeMap<(String, u32), (u64, String)> {
    let mut first = BTreeMap::new();
    for e in events {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&e.payload) else {
            continue;
        };
        let (name, value) = match e.kind.as_str() {
            "draw.entropy" => (&v["day"], &v["entropy_commitment"]),
            "block.entropy" => (&v["block"], &v["entropy_commitment"]),
            _ => continue,
        };
        let (Some(name), Some(a), Some(value)) =
            (name.as_str(), v["attempt"].as_u64(), value.as_str())
        else {
            continue;
        };
        first
            .entry((name.to_string(), u32::try_from(a).unwrap_or(u32::MAX)))
            .or_insert((e.seq, value.to_string()));
    }
    first
}

#[test]
fn random_sequences_never_yield_a_second_or_a_lost_entropy() {
    let mut rng = Rng(20_181_204);
    let (mut accepted, mut refused, mut with_entropy) = (0, 0, 0);
    for _ in 0..5000 {
        let len = 1 + rng.below(24);
        let (mut t, mut units) = (T::default(), [Unit::default(); 4]);
        for n in 0..len {
            t = random_step(&mut rng, t, &mut units, u64::from(n));
        }
        let Ok(trail) = Trail::from_events(&t.0) else {
            refused += 1;
            continue;
        };
        accepted += 1;
        let first = first_entropies(&t.0);
        for day in DAYS {
            let st = trail.day_state(d(day));
            let got = st
                .entropy
                .map(|(seq, r)| (seq, r.entropy_commitment.to_string()));
            if got.is_some() {
                with_entropy += 1;
            }
            assert_eq!(
                got,
                first.get(&(day.to_string(), st.attempt.get())).cloned(),
                "{day}"
            );
        }
        for id in BLOCKS {
            let st = trail.block_state(&b(id));
            let got = st.entropy.map(|(_, r)| r.entropy_commitment.to_string());
            let want = first
                .get(&(id.to_string(), st.attempt.get()))
                .map(|(_, v)| v.clone());
            if got.is_some() {
                with_entropy += 1;
            }
            assert_eq!(got, want, "{id}");
        }
    }
    eprintln!("accepted {accepted}, refused {refused}, states with entropy {with_entropy}");
    // The run means something: many sequences are accepted (many with entropy), many refused.
    assert!(
        accepted > 1000 && refused > 1000 && with_entropy > 1000,
        "accepted {accepted}, refused {refused}, with entropy {with_entropy}"
    );
}

#[test]
fn every_entropy_seen_is_one_set_of_entropy_commitments_draws_blocks_and_refused_alike() {
    use urne_verify::audit::chain::{Event, event_hash};
    use urne_verify::crypto::Hash32;
    let (d, b, r) = (Hash32([1; 32]), Hash32([2; 32]), Hash32([3; 32]));
    let payloads = [
        (
            "draw.entropy",
            format!(
                r#"{{"operation":"op","day":"2018-12-04","attempt":1,"commitment_root":"{}","entropy_commitment":"{d}","entropy_blob":"{}"}}"#,
                Hash32([9; 32]),
                Hash32([8; 32])
            ),
        ),
        (
            "block.entropy",
            format!(
                r#"{{"block":"g/100/e/1","attempt":1,"rules_sha256":"{}","entropy_commitment":"{b}","entropy_blob":"{}"}}"#,
                Hash32([9; 32]),
                Hash32([7; 32])
            ),
        ),
        (
            "entropy.refused",
            format!(
                r#"{{"purpose":"day 2018-12-05","attempt":1,"entropy_commitment":"{r}","reason":"r"}}"#
            ),
        ),
    ];
    let mut prev = Hash32::ZERO;
    let events: Vec<Event> = payloads
        .iter()
        .enumerate()
        .map(|(i, (kind, payload))| {
            let seq = i as u64 + 1;
            let hash = event_hash(&prev, seq, "t", kind, payload);
            let e = Event {
                seq,
                ts: "t".into(),
                kind: (*kind).into(),
                payload: payload.clone(),
                prev_hash: prev,
                hash,
            };
            prev = hash;
            e
        })
        .collect();
    let seen = super::entropy_hashes(&events).unwrap();
    assert!(seen.contains(&d), "a draw's entropy");
    assert!(seen.contains(&b), "a block's");
    assert!(seen.contains(&r), "a refused one");
    assert!(!seen.contains(&Hash32([8; 32])), "not a blob's name");
    assert_eq!(seen.len(), 3);
}
