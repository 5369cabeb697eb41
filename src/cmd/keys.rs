//! `urne keys init` and `urne keys export`.

use super::ctx::Ctx;
use crate::cli::KeysCommand;
use crate::edge::binding::{self, TokenTrail};
use crate::edge::fsio;
use crate::edge::hsm::pairs::{RoleObjects, RoleState};
use crate::edge::hsm::{Hsm, KeyInfo, KeyRole};
use crate::edge::store::{AuditLog, Binding};
use crate::error::{Error, Kind, Result};
use crate::msg;
use crate::msg::catalogue::cmd as mc;
use crate::msg::catalogue::sitting as S;
use std::path::Path;
use urne_ceremony::sealed::SEAL_KEY_LABEL;
use urne_ceremony::token::{self, TrailObject};
use urne_verify::crypto::{Hash32, keys};
use urne_verify::events::payloads::{
    ExportedKey, ExportedKeys, KeyRecord, KeysExported, KeysGenerated, ProducerKeys, SealKeyRecord,
    SoftwareStart, TrailCreated,
};

/// `urne keys init | export`.
pub fn run(ctx: &mut Ctx, c: KeysCommand) -> Result<()> {
    match c {
        KeysCommand::Init { .. } => init(ctx),
        KeysCommand::Export { out } => export(ctx, &out),
        KeysCommand::Producer { producer_keys } => producer(ctx, &producer_keys),
    }
}

/// `urne keys producer` (spec/appliance.md §4.1.0, §6.2): pins the set of production's keys a seal trusts
/// from now on (those given, else the configuration's), recording `producer.keys` with the set
/// it replaces, once the ids of production's written statement, typed at the terminal, are the
/// keys' (spec/appliance.md §4.1.0). Each change is an event of the trail, and an incident in the next
/// sitting's minutes.
fn producer(ctx: &mut Ctx, given: &[std::path::PathBuf]) -> Result<()> {
    let keys = super::inputs::key_set(ctx, given)?;
    super::randomness::need_terminal_for(
        &crate::msg!(mc::ERR_KEYS_PRODUCER_TERMINAL),
        &crate::msg!(mc::REC_KEYS_PRODUCER_TERMINAL),
    )?;
    ctx.begin()?;
    let events = ctx.audit()?.events()?;
    let trail = urne_ceremony::state::Trail::from_events(&events)
        .map_err(|m| super::inputs::altered(&m.to_string()))?;
    let previous = trail
        .producer_keys()
        .map(urne_verify::events::payloads::ProducerKeys::ids)
        .unwrap_or_default();
    let record = ProducerKeys { keys, previous };
    if record.ids() == record.previous {
        return Err(Error::new(
            Kind::ProducerKeysPinned,
            crate::msg!(
                mc::ERR_KEYS_PRODUCER_SAME,
                keys = super::inputs::pin_words(&record.previous)
            ),
            crate::msg!(mc::REC_KEYS_PRODUCER_SAME),
        ));
    }
    super::producer::typed_ids(crate::text::lang(), &record.ids())?;
    let ev = ctx.record(record.clone())?;
    let note = ctx.checkpoint()?;
    ctx.finish()?;
    if !record.previous.is_empty() {
        say!(
            "{}",
            msg!(
                S::SCR_KEYS_PINNED_REPLACED,
                keys = super::inputs::pin_words(&record.previous)
            )
        );
    }
    say!(
        "{}",
        msg!(
            S::SCR_KEYS_PINNED,
            keys = super::inputs::pin_words(&record.ids()),
            seq = ev.seq
        )
    );
    say_checkpoint(&note);
    Ok(())
}

/// `urne keys init` (spec/appliance.md §6.6): the one command that creates a trail. After login: the
/// keys are generated (or, when an earlier run was interrupted, found), the trail's identity is
/// written into the token as a non-modifiable, non-destroyable object, the trail's first events
/// (`trail.created`, `software.start`, `keys.generated`, each with its checkpoint) are written
/// into a new database built in memory, written whole under a temporary name and linked into
/// place (never over an existing file) through the trail folder's descriptor
/// (`AuditLog::place`), and marked in the token. Interrupted anywhere, running it again finishes
/// it (see [`Resume`], [`finish_keys`]), but for the states [`keys_left`] refuses (a kill inside
/// the token's generation of the sealing key); a token whose trail has a mark is initialised,
/// and is refused.
pub fn init(ctx: &mut Ctx) -> Result<()> {
    let sw = ctx.software()?;
    let db = ctx.global.db.clone();
    // The trail's folder, checked before anything changes in the token.
    crate::edge::store::build::trail_folder(&db)?;
    let command = ctx.command_name.clone();
    let hsm = ctx.hsm()?;
    let (object, generated) = match resume_point(hsm, &db)? {
        Resume::Placed(tt) => return finish_placed(ctx, &tt),
        Resume::Object(tt) => (Some(tt.object), keys_for_init(hsm)?),
        Resume::Keys(roles) => (None, finish_keys(hsm, &roles)?),
    };
    let seal_key = seal_key_for_init(hsm)?;
    let audit_key = hsm.public_key(KeyRole::Audit)?;
    let object = match object {
        Some(o) => o,
        None => new_trail_object(hsm, &audit_key)?,
    };
    let mut log = AuditLog::create_in_memory(&db)?;
    log.bind(Binding {
        trail: object.trail,
        audit_key,
        marking: false,
        origin: hsm.origin(),
    })?;
    log.record(
        hsm,
        TrailCreated {
            trail: object.trail,
            audit_key_id: object.audit_key_id.clone(),
            audit_public_key: Hash32(audit_key),
        },
    )?;
    log.record(
        hsm,
        SoftwareStart {
            command,
            software: sw,
            pkcs11: hsm.pkcs11_identity()?,
        },
    )?;
    log.record(
        hsm,
        KeysGenerated {
            token: hsm.identity()?,
            keys: generated.iter().map(key_record).collect(),
            seal_key: Some(seal_key.clone()),
        },
    )?;
    let log = log.place(&db, "init")?;
    log.mark_head(hsm)?;
    let note = log.latest_note()?;
    let events = log.events()?.len();
    ctx.install(log);
    print_keys(&generated);
    print_seal_key(&seal_key);
    say!(
        "{}",
        msg!(
            S::SCR_KEYS_TRAIL,
            path = db.display(),
            trail = object.trail,
            events = events
        )
    );
    say_checkpoint(&note);
    Ok(())
}

/// Where an earlier, interrupted `keys init` stopped, read from the token and the database's
/// path. Each state is what one step leaves, in order: no trail yet, with what the token holds
/// of each role's key pair (nothing, a whole pair, or what a kill inside the token's generation
/// of the pair left) and perhaps the sealing key; the trail's identity written (the database not
/// yet in place, perhaps built in part under its temporary name); the database linked into
/// place (not yet marked).
enum Resume {
    Keys(Vec<RoleObjects>),
    Object(TokenTrail),
    Placed(TokenTrail),
}

/// A token whose trail has a mark is initialised, and a file at the database's path is never
/// replaced (refused, exit 4); otherwise, where to resume (see [`Resume`]). With no trail, the
/// token's keys must be what `keys init` leaves ([`keys_left`]).
fn resume_point(hsm: &Hsm, db: &Path) -> Result<Resume> {
    let Some(tt) = binding::read(hsm)? else {
        if db.exists() {
            return Err(Error::new(
                Kind::OutputExists,
                crate::msg!(mc::ERR_KEYS_DB_EXISTS, path = db.display()),
                crate::msg!(mc::REC_KEYS_DB_EXISTS),
            ));
        }
        return keys_left(hsm).map(Resume::Keys);
    };
    if tt.last_mark()?.is_some() || tt.object.previous.is_some() {
        // A trail that replaced another is made only by `urne trail restart`, which finishes it.
        return Err(Error::new(
            Kind::TokenInitialised,
            crate::msg!(mc::ERR_KEYS_INITIALISED, trail = tt.describe()),
            crate::msg!(mc::REC_KEYS_INITIALISED),
        ));
    }
    Ok(if db.exists() {
        Resume::Placed(tt)
    } else {
        Resume::Object(tt)
    })
}

/// What a token with no trail holds of urne's keys, when it is a state a `keys init` run (or
/// killed) leaves [M-280]: for each role nothing, a whole pair, or what a kill inside the
/// token's generation of the pair left; the sealing key only beside two whole pairs (it is
/// generated after them), and whole. A sealing key whose generation a kill cut is refused
/// (exit 4); objects no `keys init` leaves are an incident (exit 7). Both name what the token
/// holds: only its security officer can take it back to an empty token [M-281].
fn keys_left(hsm: &Hsm) -> Result<Vec<RoleObjects>> {
    let roles = KeyRole::ALL
        .iter()
        .map(|r| hsm.role_objects(*r))
        .collect::<Result<Vec<_>>>()?;
    let held = || {
        roles
            .iter()
            .map(|o| {
                crate::msg!(
                    mc::ERR_KEYS_HELD,
                    role = o.role.name(),
                    label = format!("{:?}", o.label),
                    what = o.describe()
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    if roles.iter().any(|o| o.state() == RoleState::Other) {
        return Err(Error::new(
            Kind::TokenTampered,
            crate::msg!(mc::ERR_KEYS_TWO_UNDER_LABEL, held = held()),
            crate::msg!(mc::REC_KEYS_OFFICER),
        ));
    }
    if hsm.seal_key_present()? {
        if roles.iter().any(|o| o.state() != RoleState::Whole) {
            return Err(Error::new(
                Kind::TokenTampered,
                crate::msg!(
                    mc::ERR_KEYS_SEAL_WITHOUT_PAIRS,
                    label = format!("{SEAL_KEY_LABEL:?}"),
                    held = held()
                ),
                crate::msg!(mc::REC_KEYS_OFFICER_SEAL),
            ));
        }
        if hsm.seal_key_cut()? {
            return Err(Error::new(
                Kind::SealKeyCut,
                crate::msg!(mc::ERR_KEYS_SEAL_CUT, label = format!("{SEAL_KEY_LABEL:?}")),
                crate::msg!(mc::REC_KEYS_OFFICER),
            ));
        }
    }
    Ok(roles)
}

/// The keys of a token with no trail ([`keys_left`]), made whole [M-280]: a role's whole pair
/// is taken (no trail names it, so nothing was signed with it); what a kill inside the token's
/// generation of a role's pair left is removed, named on standard error (it has no private key
/// that could sign, or a half whose partner is lost, and no trail names it), and the role's
/// pair generated; a role with nothing gets its pair. The result key pair first, then the
/// audit key pair, as a run that was not killed makes them.
fn finish_keys(hsm: &Hsm, roles: &[RoleObjects]) -> Result<Vec<KeyInfo>> {
    for o in roles {
        match o.state() {
            RoleState::Whole => note!(
                "{}",
                msg!(
                    S::SCR_KEYS_PAIR_LEFT,
                    key = key_noun(o.role),
                    label = format!("{:?}", o.label)
                )
            ),
            RoleState::Cut => {
                note!(
                    "{}",
                    msg!(
                        S::SCR_KEYS_PAIR_CUT,
                        key = key_noun(o.role),
                        label = format!("{:?}", o.label),
                        what = o.describe()
                    )
                );
                hsm.destroy_cut_pair(o)?;
                hsm.generate_key_pair(o.role)?;
            }
            RoleState::Absent => {
                hsm.generate_key_pair(o.role)?;
            }
            RoleState::Other => {
                return Err(Error::new(
                    Kind::Defect,
                    crate::msg!(mc::ERR_KEYS_UNCHECKED, role = o.role.name()),
                    crate::msg!(mc::REC_KEYS_DEFECT),
                ));
            }
        }
    }
    keys_for_init(hsm)
}

/// The trail an interrupted `keys init` linked into place but did not mark: checked before
/// acting as every command checks it (it must be the token's trail and verify under the token's
/// audit key; the token has no mark for it to extend yet), which marks its head; then reported
/// as a finished initialisation. The trail records this run's `software.start`; a file of
/// another trail, or not a trail, is refused as every command refuses it, and left as it is.
fn finish_placed(ctx: &mut Ctx, tt: &TokenTrail) -> Result<()> {
    note!(
        "{}",
        msg!(S::SCR_KEYS_TRAIL_UNMARKED, trail = tt.describe())
    );
    crate::edge::store::build::clear_temporaries_of(&ctx.global.db);
    ctx.begin()?;
    let hsm = ctx.hsm()?;
    let keys = KeyRole::ALL
        .iter()
        .map(|r| hsm.key_info(*r))
        .collect::<Result<Vec<_>>>()?;
    print_keys(&keys);
    let log = ctx.audit()?;
    let events = log.events()?.len();
    let note = log.latest_note()?;
    say!(
        "{}",
        msg!(
            S::SCR_KEYS_TRAIL,
            path = ctx.global.db.display(),
            trail = tt.object.trail,
            events = events
        )
    );
    say_checkpoint(&note);
    Ok(())
}

/// The keys, read back from the token; each must be proven bound to the token by its
/// attributes.
fn keys_for_init(hsm: &Hsm) -> Result<Vec<KeyInfo>> {
    let generated = KeyRole::ALL
        .iter()
        .map(|r| hsm.key_info(*r))
        .collect::<Result<Vec<_>>>()?;
    for k in &generated {
        if !k.is_hardware_bound() {
            return Err(Error::new(
                Kind::KeyUnfit,
                crate::msg!(
                    mc::ERR_KEYS_NOT_BOUND,
                    role = k.role.name(),
                    local = k.local,
                    never_extractable = k.never_extractable,
                    always_sensitive = k.always_sensitive
                ),
                crate::msg!(mc::REC_KEYS_NOT_BOUND),
            ));
        }
    }
    Ok(generated)
}

/// The sealing key (spec/appliance.md §6.9): generated after the key pairs, or found in the token when an
/// earlier, interrupted `keys init` generated it (no trail names it, so nothing was sealed with
/// it); its attributes must be what spec/appliance.md §6.9 requires (checked as it is read back).
fn seal_key_for_init(hsm: &Hsm) -> Result<SealKeyRecord> {
    if hsm.seal_key_present()? {
        note!("{}", msg!(S::SCR_KEYS_SEAL_LEFT));
        return hsm.seal_key_info();
    }
    hsm.generate_seal_key()
}

fn print_seal_key(k: &SealKeyRecord) {
    say!(
        "{}",
        msg!(
            S::SCR_KEYS_SEAL_GENERATED,
            label = format!("{:?}", k.label),
            bits = k.value_len * 8,
            id = k.key_id
        )
    );
    say!(
        "{}",
        msg!(
            S::SCR_KEYS_SEAL_ATTRIBUTES,
            local = k.local,
            never_extractable = k.never_extractable,
            sensitive = k.sensitive,
            modifiable = k.modifiable,
            destroyable = k.destroyable,
            mechanisms = k.allowed_mechanisms.join(", ")
        )
    );
}

/// A new trail's identity (spec/appliance.md §6.6), written into the token.
fn new_trail_object(hsm: &Hsm, audit_key: &[u8; 32]) -> Result<TrailObject> {
    let created = crate::edge::clock::now_rfc3339();
    let nonce = hsm.random(32)?;
    let object = TrailObject {
        trail: token::trail_id(audit_key, &nonce, &created),
        audit_key_id: urne_verify::values::KeyId::of(audit_key),
        created,
        previous: None,
    };
    hsm.create_data_object(token::TRAIL_LABEL, &object.encode(), false)?;
    Ok(object)
}

fn print_keys(generated: &[KeyInfo]) {
    for k in generated {
        say!(
            "{}",
            msg!(
                S::SCR_KEYS_GENERATED,
                key = key_noun(k.role),
                label = format!("{:?}", k.label),
                id = k.key_id
            )
        );
        say!(
            "{}",
            msg!(S::SCR_KEYS_PUBLIC, hex = hex::encode(k.public_key))
        );
        say!(
            "{}",
            msg!(
                S::SCR_KEYS_ATTRIBUTES,
                local = k.local,
                never_extractable = k.never_extractable,
                always_sensitive = k.always_sensitive
            )
        );
    }
}

/// A key pair's role, named on a screen (`result key`, `audit key`).
fn key_noun(role: KeyRole) -> String {
    msg!(match role {
        KeyRole::Result => &S::SCR_KEY_RESULT,
        KeyRole::Audit => &S::SCR_KEY_AUDIT,
    })
}

/// The checkpoint signed at the end of a command, under its label.
fn say_checkpoint(note: &str) {
    say!("{}\n{note}", msg!(S::SCR_KEYS_CHECKPOINT));
}

/// A key as `keys.generated` records it.
fn key_record(k: &KeyInfo) -> KeyRecord {
    KeyRecord {
        role: k.role,
        label: k.label.clone(),
        key_id: k.key_id.clone(),
        public_key: Hash32(k.public_key),
        local: k.local,
        never_extractable: k.never_extractable,
        always_sensitive: k.always_sensitive,
        sensitive: k.sensitive,
        extractable: k.extractable,
    }
}

/// File name of a role's exported public key.
pub fn pem_name(role: KeyRole) -> String {
    format!("{}.pub.pem", role.name())
}

fn export(ctx: &mut Ctx, out: &Path) -> Result<()> {
    ctx.begin()?;
    export_begun(ctx, out)
}

/// The export, on a trail already begun (`urne keys export`, or the key ceremony's sitting).
#[expect(
    clippy::missing_panics_doc,
    reason = "its `expect`s hold by construction: one key per role, JSON of plain values"
)]
pub fn export_begun(ctx: &mut Ctx, out: &Path) -> Result<()> {
    let (_, hsm) = ctx.both()?;
    fsio::out_folder(out)?;
    let mut listed = vec![];
    for role in KeyRole::ALL {
        let k = hsm.key_info(role)?;
        let pem = keys::public_key_to_pem(&k.public_key);
        fsio::write_atomic(&out.join(pem_name(role)), pem.as_bytes())?;
        listed.push(ExportedKey {
            file: pem_name(role),
            key_id: k.key_id.clone(),
            public_key: Hash32(k.public_key),
            label: k.label.clone(),
            hardware_bound: k.is_hardware_bound(),
        });
        say!(
            "{}",
            msg!(
                S::SCR_KEYS_EXPORTED,
                key = key_noun(role),
                path = out.join(pem_name(role)).display(),
                id = k.key_id
            )
        );
    }
    let [result, audit] = <[ExportedKey; 2]>::try_from(listed).expect("one key per role");
    let listing = ExportedKeys { result, audit };
    let mut text = serde_json::to_string_pretty(&listing).expect("JSON of plain values");
    text.push('\n');
    // keys.json is signed by the result key: a statement, verifiable with the PEM beside it,
    // that these are the appliance's keys.
    let sig = hsm.sign(KeyRole::Result, text.as_bytes())?;
    crate::edge::publish::write_with_sig(&out.join("keys.json"), text.as_bytes(), &sig)?;
    // Marked when the command ends (`Ctx::finish`).
    ctx.record_as(
        KeysExported {
            out: out.display().to_string(),
            keys: listing,
        },
        crate::edge::store::Vouch::Later,
    )?;
    Ok(())
}
