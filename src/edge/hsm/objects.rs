//! urne's data objects in the token (spec/appliance.md §6.6): the trail's identity and its marks, private,
//! non-modifiable and non-destroyable; the [`Token`] side of every append; and the marks read
//! back afresh, by a new process of urne's executable, after each mark ([`FreshMarks`]).

use super::{Hsm, KeyRole, hsm_err};
use crate::edge::config::Config;
use crate::edge::store::{FreshMarks, Token, TokenMarks};
use crate::error::{Error, Exit, Kind, Result};
use crate::msg::catalogue::edge as m;
use cryptoki::object::{Attribute, AttributeType, ObjectClass, ObjectHandle};
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use urne_ceremony::token::{APPLICATION, MARK_LABEL, Mark, TRAIL_LABEL, TrailObject};

impl Hsm {
    /// The values of urne's data objects labelled `label` (spec/appliance.md §6.6): private token objects
    /// of application `urne`, which only a logged-in session can create or read. Each must be
    /// non-modifiable, and non-destroyable unless it is a mark (a mark rolls: urne destroys the
    /// ones a later mark of the same history replaces, M-397); one that is not as urne makes it
    /// was written by someone else with the PIN, and is refused rather than believed.
    pub fn data_objects(&self, label: &str) -> Result<Vec<Vec<u8>>> {
        Ok(self
            .data_objects_held(label)?
            .into_iter()
            .map(|(_, v, _)| v)
            .collect())
    }

    /// The values of every mark, and of the marks the token keeps (the anchors: non-destroyable).
    pub fn marks_and_anchors(&self) -> Result<(Values, Values)> {
        let held = self.data_objects_held(MARK_LABEL)?;
        let anchors = held
            .iter()
            .filter(|(_, _, destroyable)| !destroyable)
            .map(|(_, v, _)| v.clone())
            .collect();
        Ok((held.into_iter().map(|(_, v, _)| v).collect(), anchors))
    }

    /// [`Hsm::data_objects`] with each object's handle in this session and whether it can be
    /// destroyed.
    fn data_objects_held(&self, label: &str) -> Result<Vec<(ObjectHandle, Vec<u8>, bool)>> {
        let hits = self
            .s()
            .find_objects(&[
                Attribute::Class(ObjectClass::DATA),
                Attribute::Token(true),
                Attribute::Private(true),
                Attribute::Label(label.as_bytes().to_vec()),
            ])
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_FIND_OBJECTS), e))?;
        let may_destroy = label == MARK_LABEL;
        let mut out = Vec::with_capacity(hits.len());
        // An object urne made cannot change: one read (and check) per object and session is
        // enough, so reading the marks back after every mark stays cheap.
        let mut cache = self
            .objects
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for h in hits {
            if let Some((_, v, d)) = cache.iter().find(|(k, _, _)| *k == h) {
                out.push((h, v.clone(), *d));
                continue;
            }
            let attrs = self
                .s()
                .get_attributes(
                    h,
                    &[
                        AttributeType::Application,
                        AttributeType::Private,
                        AttributeType::Modifiable,
                        AttributeType::Destroyable,
                        AttributeType::Value,
                    ],
                )
                .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_READ_OBJECT), e))?;
            let (mut app, mut private, mut fixed, mut kept, mut value) =
                (false, false, true, true, None);
            for a in attrs {
                match a {
                    Attribute::Application(v) => app = v == APPLICATION.as_bytes(),
                    Attribute::Private(v) => private = v,
                    Attribute::Modifiable(v) => fixed = !v,
                    Attribute::Destroyable(v) => kept = !v,
                    Attribute::Value(v) => value = Some(v),
                    _ => {}
                }
            }
            if !(app && private && fixed && (kept || may_destroy)) {
                return Err(Error::new(
                    Kind::TokenTampered,
                    crate::msg!(
                        if app {
                            &m::ERR_TOKEN_FOREIGN_OBJECT
                        } else {
                            &m::ERR_TOKEN_FOREIGN_OBJECT_APP
                        },
                        label = format_args!("{label:?}"),
                        private = private,
                        modifiable = !fixed,
                        destroyable = !kept
                    ),
                    crate::msg!(m::REC_TOKEN_TAMPERED),
                ));
            }
            let value = value.unwrap_or_default();
            cache.push((h, value.clone(), !kept));
            out.push((h, value, !kept));
        }
        Ok(out)
    }

    /// Creates one of urne's data objects: a private token object of application `urne`,
    /// non-modifiable, and non-destroyable unless `rolls` (a mark that a later one replaces,
    /// spec/appliance.md §6.6), then reads it back: a token that does not keep those attributes
    /// is refused (it could not keep the trail's marks). A token that keeps a rolling mark
    /// non-destroyable is taken: that mark stays, as an anchor does.
    pub fn create_data_object(&self, label: &str, value: &[u8], rolls: bool) -> Result<()> {
        let h = self
            .s()
            .create_object(&[
                Attribute::Class(ObjectClass::DATA),
                Attribute::Token(true),
                Attribute::Private(true),
                Attribute::Modifiable(false),
                Attribute::Destroyable(rolls),
                Attribute::Label(label.as_bytes().to_vec()),
                Attribute::Application(APPLICATION.as_bytes().to_vec()),
                Attribute::Value(value.to_vec()),
            ])
            .map_err(|e| {
                hsm_err(
                    crate::msg!(m::ERR_P11_CREATE_OBJECT, label = format_args!("{label:?}")),
                    e,
                )
            })?;
        let attrs = self
            .s()
            .get_attributes(
                h,
                &[
                    AttributeType::Modifiable,
                    AttributeType::Destroyable,
                    AttributeType::Value,
                ],
            )
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_READ_OBJECT_BACK), e))?;
        let destroyable = attrs
            .iter()
            .any(|a| matches!(a, Attribute::Destroyable(true)));
        let ok = attrs.iter().all(|a| match a {
            Attribute::Modifiable(v) => !v,
            Attribute::Destroyable(v) => rolls || !v,
            Attribute::Value(v) => v == value,
            _ => true,
        }) && attrs.len() == 3;
        if !ok {
            return Err(Error::trail(
                Kind::HsmMisbehaves,
                crate::msg!(
                    m::ERR_HSM_OBJECT_NOT_FIXED,
                    label = format_args!("{label:?}")
                ),
                crate::msg!(m::REC_HSM_OBJECT_NOT_FIXED),
            ));
        }
        self.objects
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push((h, value.to_vec(), destroyable));
        Ok(())
    }

    /// Destroys the marks of `older` that this session finds in the token (spec/appliance.md
    /// §6.6, M-397): marks of this command's history that a later mark replaces. A mark the
    /// token keeps (an anchor, or one it made non-destroyable) stays; a mark another process
    /// destroyed first is gone already. Each object's value and `CKA_DESTROYABLE` are read
    /// again just before it is destroyed, not taken from the session's cache: a token may give
    /// the handle of an object another process destroyed to a new object (a fork's mark,
    /// which must stay). A mark that cannot be destroyed only takes room: the others are
    /// still tried, and the next command tries it again.
    fn retire(&self, older: &[Mark]) -> Result<()> {
        let values: Vec<Vec<u8>> = older.iter().map(Mark::encode).collect();
        for (h, cached, destroyable) in self.data_objects_held(MARK_LABEL)? {
            if !destroyable || !values.contains(&cached) {
                continue;
            }
            let now = self
                .s()
                .get_attributes(h, &[AttributeType::Destroyable, AttributeType::Value])
                .unwrap_or_default();
            let same = now
                .iter()
                .any(|a| matches!(a, Attribute::Value(v) if *v == cached))
                && now
                    .iter()
                    .any(|a| matches!(a, Attribute::Destroyable(true)));
            if same {
                let _ = self.s().destroy_object(h);
            }
            self.objects
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .retain(|(k, _, _)| *k != h);
        }
        Ok(())
    }
}

impl Token for Hsm {
    fn sign_checkpoint(&self, body: &[u8]) -> Result<[u8; 64]> {
        self.sign(KeyRole::Audit, body)
    }

    fn create_mark(&self, mark: &Mark, anchor: bool) -> Result<()> {
        self.create_data_object(MARK_LABEL, &mark.encode(), !anchor)
    }

    fn retire_marks(&self, older: &[Mark]) -> Result<()> {
        self.retire(older)
    }

    fn marks(&self) -> Result<TokenMarks> {
        let (marks, anchors) = self.marks_and_anchors()?;
        Ok(TokenMarks {
            marks: marks.iter().map(|v| parse_mark(v)).collect::<Result<_>>()?,
            anchors: anchors
                .iter()
                .map(|v| parse_mark(v))
                .collect::<Result<_>>()?,
            trails: self
                .data_objects(TRAIL_LABEL)?
                .iter()
                .map(|v| parse_trail(v))
                .collect::<Result<_>>()?,
        })
    }
}

/// The one argument that makes urne's executable read the token's marks for its parent
/// ([`Hsm::serve_fresh_read`]); not a command of the command line.
const FRESH_READ_ARG: &str = "--internal-read-token-marks";

/// Set by urne's `main`: this process is urne's executable, so `/proc/self/exe` can read the
/// token's marks afresh for it.
static FRESH_READS: AtomicBool = AtomicBool::new(false);

/// What the parent tells the reader (standard input, one JSON line, then the PIN on a line).
#[derive(Serialize, Deserialize)]
struct ReadRequest {
    module: PathBuf,
    /// The SHA-256 of the module this command loaded (from its descriptor): the reader loads
    /// the module under that pin, so a module file swapped while the command runs is refused
    /// before it could be handed the PIN.
    module_sha256: urne_verify::crypto::Hash32,
    token_label: String,
    result_key_label: String,
    audit_key_label: String,
    /// The configuration's `module_env`: the reader gives the module the same variables.
    module_env: Vec<String>,
    /// The language of the command's screens (`fr` or `en`), which may be a sitting's rather
    /// than the environment's: the reader's failure is said in it.
    lang: String,
}

/// What the reader answers (standard output, one JSON object).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ReadAnswer {
    /// The token's serial number and the value of every mark and every `urne-trail` object,
    /// in hex.
    Marks {
        serial: String,
        marks: Vec<String>,
        trails: Vec<String>,
        /// The marks the token keeps (non-destroyable), also among `marks`.
        anchors: Vec<String>,
    },
    /// The error that stopped the reader, as it would have stopped a command.
    Failed {
        /// The failure's [`Kind`] id (spec/appliance.md §10).
        id: String,
        message: String,
        hint: String,
    },
}

/// The token's marks read afresh (spec/appliance.md §6.6): by a new process of urne's own executable,
/// which loads the PKCS#11 module, finds the token, logs in and reads every mark, all after the
/// mark just made was created. Why a new process: SoftHSM 2.6 keeps one index of the token's
/// objects per process and re-reads the token's folder only when the token's generation
/// counter differs from the one the process last saw; creating an object sets that to the value
/// it writes, which absorbs the increment of another process's object created just before, so
/// that object stays invisible to the process for the rest of its life (docs/threat-model.md).
/// A new instance of the module lists the whole folder when it starts. With a real HSM, a new
/// process finds every object whose creation had returned, as any session would.
struct FreshReader {
    request: ReadRequest,
    pin: SecretString,
    /// The token's serial number as the command's own session reads it: the reader must have
    /// read the same token.
    serial: String,
}

impl Hsm {
    /// Called first by urne's `main`: records that this process is urne's executable (so that
    /// [`Hsm::fresh_reader`] can start it again), and when the command line is the reader's
    /// argument, reads the token's marks for the parent and returns the exit code.
    pub fn serve_fresh_read() -> Option<i32> {
        FRESH_READS.store(true, Ordering::SeqCst);
        let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
        if args.len() != 1 || args[0] != FRESH_READ_ARG {
            return None;
        }
        // The reader dies with the command that started it (a kill of the command ends both):
        // a parent already gone before this is seen as a parent changed.
        let parent = std::os::unix::process::parent_id();
        if !crate::edge::process::die_with_parent() || std::os::unix::process::parent_id() != parent
        {
            return Some(Exit::Internal as i32);
        }
        let answer = match read_for_parent() {
            Ok((serial, (marks, anchors), trails)) => ReadAnswer::Marks {
                serial,
                marks: marks.iter().map(hex::encode).collect(),
                trails: trails.iter().map(hex::encode).collect(),
                anchors: anchors.iter().map(hex::encode).collect(),
            },
            Err(e) => ReadAnswer::Failed {
                id: e.kind.id().to_string(),
                message: e.message,
                hint: e.hint,
            },
        };
        let code = match &answer {
            ReadAnswer::Marks { .. } => 0,
            ReadAnswer::Failed { id, .. } => kind_of(id).exit() as i32,
        };
        let json = serde_json::to_string(&answer).unwrap_or_default();
        let mut out = std::io::stdout().lock();
        if writeln!(out, "{json}").and_then(|()| out.flush()).is_err() {
            return Some(Exit::Internal as i32);
        }
        Some(code)
    }

    /// A reader of the token's marks afresh for this session's token, logging in with `pin`
    /// ([`FreshReader`]); `None` in a process that is not urne's executable (the library
    /// embedded in a test), which then reads the marks back in its own session.
    pub fn fresh_reader(&self, pin: SecretString) -> Result<Option<Box<dyn FreshMarks>>> {
        if !FRESH_READS.load(Ordering::SeqCst) {
            return Ok(None);
        }
        let serial = self.identity()?.serial;
        Ok(Some(Box::new(FreshReader {
            request: ReadRequest {
                module: self.cfg.module.clone(),
                module_sha256: self.module().sha256,
                token_label: self.cfg.token_label.clone(),
                result_key_label: self.cfg.result_key_label.clone(),
                audit_key_label: self.cfg.audit_key_label.clone(),
                module_env: self.cfg.module_env.clone(),
                lang: crate::msg::lang().code().to_string(),
            },
            pin,
            serial,
        })))
    }
}

/// The values of a token's objects of one label.
pub(crate) type Values = Vec<Vec<u8>>;

/// The reader's side: the request and the PIN from standard input, a new session on the token,
/// every mark's and `urne-trail` object's value (checked as [`Hsm::data_objects`] checks urne's
/// objects).
fn read_for_parent() -> Result<(String, (Values, Values), Values)> {
    let bad = |what: String| {
        Error::new(
            Kind::FreshReadFailed,
            crate::msg!(m::ERR_READER_FAILED, what = what),
            crate::msg!(m::REC_DEFECT_REPORT),
        )
    };
    let mut input = std::io::stdin().lock();
    let mut line = String::new();
    input.read_line(&mut line).map_err(|e| bad(e.to_string()))?;
    let req: ReadRequest = serde_json::from_str(&line).map_err(|e| bad(e.to_string()))?;
    crate::msg::set_lang(crate::msg::Lang::from_env(Some(&req.lang)));
    let mut pin = String::new();
    input.read_line(&mut pin).map_err(|e| bad(e.to_string()))?;
    pin.truncate(pin.trim_end_matches('\n').len());
    let pin = SecretString::from(pin);
    let cfg = Config {
        source: None,
        module: req.module,
        module_sha256: Some(req.module_sha256),
        token_label: req.token_label,
        result_key_label: req.result_key_label,
        audit_key_label: req.audit_key_label,
        producer_keys: vec![],
        module_env: req.module_env,
    };
    let hsm = Hsm::open(&cfg, &pin)?;
    let serial = hsm.identity()?.serial;
    Ok((
        serial,
        hsm.marks_and_anchors()?,
        hsm.data_objects(TRAIL_LABEL)?,
    ))
}

impl FreshReader {
    /// Starts the reader, gives it the request and the PIN (on a pipe: never on its command line
    /// or in its environment), and takes its answer.
    fn run(&self) -> Result<ReadAnswer> {
        let mut child = std::process::Command::new("/proc/self/exe")
            .arg(FRESH_READ_ARG)
            .env_remove("URNE_PIN")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| read_back_failed(&crate::msg!(m::ERR_READER_START, e = e)))?;
        if let Some(mut stdin) = child.stdin.take() {
            let request = serde_json::to_string(&self.request).unwrap_or_default();
            // A reader that stops early says why in its answer.
            let _ = writeln!(stdin, "{request}")
                .and_then(|()| stdin.write_all(self.pin.expose_secret().as_bytes()))
                .and_then(|()| stdin.write_all(b"\n"));
        }
        let out = child
            .wait_with_output()
            .map_err(|e| read_back_failed(&crate::msg!(m::ERR_READER_WAIT, e = e)))?;
        serde_json::from_slice(&out.stdout).map_err(|_| {
            read_back_failed(&crate::msg!(
                m::ERR_READER_ANSWER,
                status = out.status,
                stderr = String::from_utf8_lossy(&out.stderr).trim()
            ))
        })
    }
}

impl FreshMarks for FreshReader {
    fn marks_afresh(&self) -> Result<TokenMarks> {
        let (serial, marks, trails, anchors) = match self.run()? {
            ReadAnswer::Marks {
                serial,
                marks,
                trails,
                anchors,
            } => (serial, marks, trails, anchors),
            ReadAnswer::Failed { id, message, hint } => {
                return Err(Error::trail(
                    kind_of(&id),
                    crate::msg!(m::ERR_READER_REPORTED, message = message),
                    hint,
                ));
            }
        };
        if serial != self.serial {
            return Err(read_back_failed(&crate::msg!(
                m::ERR_READER_SERIAL,
                found = format_args!("{serial:?}"),
                ours = format_args!("{:?}", self.serial)
            )));
        }
        let bytes = |h: &String| {
            hex::decode(h).map_err(|_| read_back_failed(&crate::msg!(m::ERR_READER_HEX)))
        };
        Ok(TokenMarks {
            marks: marks
                .iter()
                .map(|h| parse_mark(&bytes(h)?))
                .collect::<Result<_>>()?,
            anchors: anchors
                .iter()
                .map(|h| parse_mark(&bytes(h)?))
                .collect::<Result<_>>()?,
            trails: trails
                .iter()
                .map(|h| parse_trail(&bytes(h)?))
                .collect::<Result<_>>()?,
        })
    }
}

/// The marks could not be read back after a mark: the command stops, recording nothing more.
fn read_back_failed(what: &str) -> Error {
    Error::trail(
        Kind::MarksNotReadBack,
        crate::msg!(m::ERR_READER_NOT_READ_BACK, what = what),
        crate::msg!(m::REC_READER_NOT_READ_BACK),
    )
}

/// A mark's value as urne writes it, or a refusal: someone else wrote it.
fn parse_mark(value: &[u8]) -> Result<Mark> {
    Mark::parse(value).map_err(|e| {
        Error::new(
            Kind::TokenTampered,
            e.to_string(),
            crate::msg!(m::REC_TOKEN_TAMPERED_STOP),
        )
    })
}

/// An `urne-trail` object's value as urne writes it, or a refusal: someone else wrote it.
fn parse_trail(value: &[u8]) -> Result<TrailObject> {
    TrailObject::parse(value).map_err(|e| {
        Error::new(
            Kind::TokenTampered,
            e.to_string(),
            crate::msg!(m::REC_TOKEN_TAMPERED_STOP),
        )
    })
}

/// The failure a reader reported by its id, as the command's (one it does not know is the
/// reader's own failure).
fn kind_of(id: &str) -> Kind {
    Kind::from_id(id).unwrap_or(Kind::FreshReadFailed)
}
