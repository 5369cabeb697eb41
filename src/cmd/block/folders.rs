//! Where `urne block generate` writes (spec/appliance.md §5.B9): the public output folder (`--out`: the
//! signed commitments and rules.json) and the separate secret medium (`--secret-out`: the
//! production files, and only them). Both are checked before any entropy is asked for: standing
//! apart, usable, and free of any file a fresh block would have to write over. Each is held by
//! its descriptor while it is examined and cleaned (`edge::dir`: a symbolic link in its path is
//! refused; nothing below it is followed).

use super::common::block_state;
use crate::cmd::placing;
use crate::edge::fsio::{self, Staging};
use crate::error::{Error, Kind, Result};
use crate::msg;
use crate::msg::catalogue::sitting as S;
use std::path::{Path, PathBuf};
use urne_verify::audit::Event;
use urne_verify::block::{BlockId, files};

/// The two folders a generation writes into.
pub(super) struct Folders {
    /// The public output folder: the signed commitments and rules.json.
    pub out: PathBuf,
    /// The separate secret medium: the signed production files only.
    pub secret: PathBuf,
}

impl Folders {
    /// The folders stand apart (checked before anything is opened or recorded): the secret one
    /// is not the output folder, not inside it and does not contain it, and does not hold the
    /// audit database `db` (a folder of the appliance's own disk). Both are compared as the file
    /// system resolves them (symbolic links followed). A secret folder on the file system of
    /// the audit database is not a separate medium either, but urne cannot tell a mounted
    /// medium from a folder on all systems, so that is a warning, not a refusal, printed when
    /// `warn` (once per generation: the check runs before login and again once the trail is
    /// begun).
    pub(super) fn check_apart(&self, db: &Path, warn: bool) -> Result<()> {
        let out = fsio::resolve(&self.out)?;
        let secret = fsio::resolve(&self.secret)?;
        let how = if secret == out {
            Some(&S::ERR_SECRET_OUT_IS_OUT)
        } else if secret.starts_with(&out) {
            Some(&S::ERR_SECRET_OUT_INSIDE_OUT)
        } else if out.starts_with(&secret) {
            Some(&S::ERR_SECRET_OUT_CONTAINS_OUT)
        } else {
            None
        };
        if let Some(how) = how {
            return Err(Error::new(
                Kind::SecretOutMisplaced,
                msg!(
                    how,
                    secret = self.secret.display(),
                    out = self.out.display()
                ),
                msg!(S::REC_SECRET_OUT_MEDIUM),
            ));
        }
        let db = fsio::resolve(db)?;
        let db_dir = db.parent().unwrap_or(&db);
        if db_dir.starts_with(&secret) {
            return Err(Error::new(
                Kind::SecretOutMisplaced,
                msg!(
                    S::ERR_SECRET_OUT_HOLDS_DB,
                    secret = self.secret.display(),
                    db = db.display()
                ),
                msg!(S::REC_SECRET_OUT_MEDIUM),
            ));
        }
        let dev = fsio::device_of(&secret);
        if warn && dev.is_some() && dev == fsio::device_of(db_dir) {
            note!(
                "{}",
                msg!(S::SCR_SECRET_OUT_SAME_DISK, secret = self.secret.display())
            );
        }
        Ok(())
    }

    /// Removes the staging leftovers of a killed run from both folders (even when this run is
    /// then refused); a folder that cannot be opened is left to [`Folders::check_usable`].
    pub(super) fn clear_leftovers(&self) {
        for d in [&self.out, &self.secret] {
            if let Ok(Some(d)) = fsio::existing_folder(d) {
                fsio::clear_leftovers(&d);
            }
        }
    }

    /// Both folders exist (created if missing) and take a staging folder: an unmounted or
    /// read-only medium is refused now, not after the entropy was drawn.
    pub(super) fn check_usable(&self) -> Result<()> {
        let both = [(&self.out, "--out"), (&self.secret, "--secret-out")];
        for (d, flag) in both {
            if std::fs::symlink_metadata(d).is_ok() && !d.is_dir() {
                return Err(Error::new(
                    Kind::OutputConflict,
                    msg!(
                        S::ERR_BLOCK_FOLDER_NOT_FOLDER,
                        flag = flag,
                        path = d.display()
                    ),
                    msg!(S::REC_BLOCK_FOLDER_NOT_FOLDER, flag = flag),
                ));
            }
        }
        for (d, _) in both {
            drop(Staging::new(&fsio::out_folder(d)?)?);
        }
        Ok(())
    }

    /// A run that recorded where it was placing the commitment of `id`'s current attempt and
    /// stopped before recording it published is taken up in that output folder only (spec/appliance.md
    /// §6.7): another `--out` is refused (exit 4).
    pub(super) fn check_placing(&self, events: &[Event], id: &BlockId) -> Result<()> {
        let Ok(st) = block_state(events, id) else {
            return Ok(());
        };
        let subject = placing::Subject::Block {
            block: id.clone(),
            attempt: st.attempt,
        };
        placing::refuse_elsewhere(events, &subject, &self.out)
    }

    /// No file a fresh block of `ids` (one with no entropy recorded for its current attempt)
    /// would write is there already: such a file is not this run's (an earlier attempt's, since
    /// voided, or anything else), and outputs are never written over. A block that resumes
    /// (its entropy recorded) may find its own outputs in place: they are checked when it is
    /// published; but a block whose commitment a stopped run was placing in another output
    /// folder is refused (exit 4): one commitment per attempt, never two.
    pub(super) fn check_free(&self, events: &[Event], ids: &[BlockId]) -> Result<()> {
        for id in ids {
            let canonical = id.canonical();
            let st = block_state(events, id)?;
            if st.entropy.is_some() {
                self.check_placing(events, id)?;
                continue;
            }
            let stem = files::stem(&canonical);
            let names = [
                (&self.out, format!("{stem}.commit.json")),
                (&self.out, format!("{stem}.commit.json.sig")),
                (&self.out, format!("{stem}.manifest.json")),
                (&self.out, format!("{stem}.manifest.json.sig")),
                (&self.secret, format!("{stem}.tickets.csv")),
                (&self.secret, format!("{stem}.tickets.csv.sig")),
            ];
            for (dir, name) in names {
                let p = dir.join(&name);
                if fsio::name_taken(dir, &name)? {
                    return Err(Error::new(
                        Kind::OutputConflict,
                        msg!(
                            S::ERR_BLOCK_OUTPUT_TAKEN,
                            path = p.display(),
                            block = canonical,
                            attempt = st.attempt
                        ),
                        msg!(S::REC_BLOCK_OUTPUT_TAKEN),
                    ));
                }
            }
        }
        Ok(())
    }
}
