//! The anomalies and incidents of the minutes (spec/appliance.md §9.2): every refusal, every
//! interruption and resume, each draw late or early by D-8; and the plan's steps in words.

use crate::minutes::markup::{Html, code, esc, hash};
use crate::minutes::{Incident, Minutes, Stamp, StepDone, words};
use std::fmt::Write;
use urne_verify::crypto::Hash32;
use urne_verify::sitting::Step;
use urne_verify::values::KeyId;

/// One step of the plan, in words.
pub(super) fn step(h: &Html, s: &Step) -> String {
    match s.action.as_str() {
        "draw" => format!(
            "{} {}",
            h.t("tirage du jour du", "draw of the day of"),
            esc(&words::day(&s.subject, h.lang))
        ),
        "generate" => format!(
            "{} {}",
            h.t("génération du bloc", "generation of block"),
            code(&s.subject)
        ),
        "reveal" => format!(
            "{} {} ({} {})",
            h.t("révélation du bloc", "reveal of block"),
            code(&s.subject),
            h.t("ventes closes", "sales closed"),
            esc(&words::instant(&s.detail, h.tz, h.lang))
        ),
        "void" => format!(
            "{} {} : {}",
            h.t("annulation de", "void of"),
            esc(&s.subject),
            esc(&s.detail)
        ),
        "keys" => h
            .t(
                "génération des clés de l'appareil dans le jeton, épinglage des clés de la production (identifiants tapés par le commissaire de justice d'après sa déclaration écrite) et export des clés publiques",
                "the appliance's keys generated in the token, production's keys pinned (their ids typed by the commissaire de justice from its written statement) and the public keys exported",
            )
            .to_string(),
        other => format!("{} {} {}", esc(other), esc(&s.subject), esc(&s.detail)),
    }
}

/// What became of a step of the plan, in words after it (nothing when done at the sitting:
/// the minutes state it below).
pub(super) fn step_done(h: &Html, d: StepDone) -> String {
    match d {
        StepDone::InSitting => String::new(),
        StepDone::Before { seq, attempt } => format!(
            " — {}{attempt}, {}{seq})",
            h.t(
                "étape trouvée déjà faite avant l'ouverture de la séance, et non refaite (tentative n°\u{a0}",
                "step found already done before the sitting opened, and not done again (attempt no.\u{a0}"
            ),
            h.t("événement du journal n°\u{a0}", "audit event no.\u{a0}")
        ),
        StepDone::NotDone => format!(
            " — {}",
            h.t(
                "étape non effectuée au cours de la séance",
                "step not carried out during the sitting"
            )
        ),
    }
}

/// Anomalies and incidents, in the trail's order, then the draws late or early by D-8
/// (explained with the draw).
pub(super) fn incidents(h: &mut Html, m: &Minutes) {
    h.h2("Anomalies / incidents", "Anomalies / incidents");
    let mut items: Vec<String> = m.incidents.iter().map(|i| incident(h, i)).collect();
    for d in &m.draws {
        let Some(t) = &d.timing else { continue };
        let what = match (t.is_late(), t.is_early()) {
            (true, _) => h.t("tardif", "late"),
            (_, true) => h.t("anticipé", "early"),
            _ => continue,
        };
        items.push(format!(
            "{} {} {what} (D-8) ; {}",
            h.t("Tirage du jour du", "Draw of the day of"),
            esc(&words::day_of(d.day, h.lang)),
            h.t(
                "voir l'explication donnée avec ce tirage.",
                "see the explanation given with this draw."
            )
        ));
    }
    if items.is_empty() {
        let none = h.t(
            "Aucune anomalie ni aucun incident n'a été enregistré.",
            "No anomaly or incident was recorded.",
        );
        h.p(&esc(none));
    } else {
        h.list(&items);
    }
}

/// One incident, in words, with its time and event.
fn incident(h: &Html, i: &Incident) -> String {
    let at = i.at();
    let text = match i {
        Incident::Failed {
            command,
            class,
            error,
            ..
        } => format!(
            "{} {} ({}) ; {}",
            h.t(
                "Commande refusée ou interrompue sur erreur :",
                "Command refused or stopped on an error:"
            ),
            code(command),
            esc(class_words(h, class)),
            recorded(h, h.t("message enregistré", "recorded message"), error)
        ),
        Incident::Rejected {
            file,
            sha256,
            reason,
            ..
        } => format!(
            "{} {}{} ; {}",
            h.t("Fichier refusé :", "File refused:"),
            code(file),
            sha256.map_or(String::new(), |s| format!(" (SHA-256 {})", hash(&s))),
            recorded(h, h.t("motif enregistré", "recorded reason"), reason)
        ),
        Incident::EntropyRefused {
            purpose,
            attempt,
            commitment,
            reason,
            ..
        } => format!(
            "{} ({} {}, {} {attempt}, {} {}) ; {}",
            h.t(
                "Aléa du HSM refusé et jamais utilisé",
                "HSM entropy refused and never used"
            ),
            h.t("pour", "for"),
            esc(purpose),
            h.t("tentative", "attempt"),
            h.t("engagement", "commitment"),
            hash(commitment),
            recorded(h, h.t("motif enregistré", "recorded reason"), reason)
        ),
        Incident::Process { command, .. } => format!(
            "{} {}.",
            h.t(
                "Interruption : un autre processus de l'appareil a démarré, commande",
                "Interruption: another process of the appliance started, command"
            ),
            code(command)
        ),
        Incident::OtherModule {
            path,
            sha256,
            key_ceremony,
            ..
        } => other_module(h, path, sha256, *key_ceremony),
        Incident::ProducerKeys { keys, previous, .. } => producer_keys(h, keys, previous),
        Incident::ClockCorrected { .. }
        | Incident::ClockConfirmed { .. }
        | Incident::ClockJumped { .. } => clock(h, i),
        Incident::KeysBeforeOpening {
            at,
            process,
            opener,
            cause,
        } => keys_before_opening(h, at.seq, *process, *opener, *cause),
        Incident::StoppedBeforeOpening { .. } => esc(h.t(
            "Exécution de urne ceremony arrêtée avant l'ouverture d'une séance, sans rien inscrire d'autre que son démarrage : un refus avant l'ouverture (l'heure à la montre refusée trois fois, une réponse manquante) n'est pas inscrit au journal d'audit.",
            "A run of urne ceremony stopped before it opened a sitting, recording nothing but its start: a refusal before the opening (the time at the watch refused three times, an answer missing) is not recorded in the audit trail.",
        )),
        Incident::Resumed { plan, .. } => resumed_sitting(h, plan),
        Incident::RandomnessResumed { .. } => resumed(h, i),
    };
    format!("{} ({}) — {text}", esc(&h.when(at.at)), h.event(at.seq))
}

/// Words urne recorded in the trail (a refusal's message or reason), quoted under `label`: the
/// language they were recorded in is the one of the command that recorded them (one run
/// outside the sitting, or before this version of urne, recorded English), so the minutes quote
/// them as a recorded value, never as their own words.
fn recorded(h: &Html, label: &str, text: &str) -> String {
    match h.lang {
        crate::minutes::Lang::Fr => format!("{} : «\u{a0}{}\u{a0}»", esc(label), esc(text)),
        crate::minutes::Lang::En => format!("{}: \u{201c}{}\u{201d}", esc(label), esc(text)),
    }
}

/// The class of a `command.failed` (the name of its exit code, spec/formats.md §6.2), in words.
fn class_words<'a>(h: &Html, class: &'a str) -> &'a str {
    match class {
        "verification-failed" => h.t("vérification échouée", "verification failed"),
        "bad-input" => h.t("entrée refusée", "bad input"),
        "hsm" => h.t("HSM", "HSM"),
        "refused" => h.t("refus", "refused"),
        "internal" => h.t("erreur interne", "internal error"),
        other => other,
    }
}

/// The key ceremony's keys generated by a first attempt stopped before its sitting opened
/// (spec/appliance.md §9.1), in words: which process generated them, which one opened the
/// sitting, and why the first stopped when the trail says.
fn keys_before_opening(
    h: &Html,
    keys: u64,
    process: u64,
    opener: u64,
    cause: Option<u64>,
) -> String {
    let why = match cause {
        Some(c) => format!(
            "{} {}{}.",
            h.t("Motif de l'arrêt :", "Why it stopped:"),
            h.t("voir l'", "see "),
            h.event(c)
        ),
        None => esc(h.t(
            "Le motif de l'arrêt n'est pas inscrit au journal d'audit : le processus a été interrompu (arrêt, coupure ou abandon).",
            "Why it stopped is not in the audit trail: the process was interrupted (killed, power cut or abandoned).",
        ))
        ,
    };
    format!(
        "{} ({}) {}{}, {}{}. {why}",
        h.t(
            "Première tentative de la cérémonie arrêtée avant l'ouverture de la séance : les clés décrites ci-dessus ont été générées dans le jeton",
            "A first attempt of the ceremony stopped before the sitting opened: the keys described above were generated in the token"
        ),
        h.event(keys),
        h.t(
            "par un processus démarré à l'",
            "by a process started at "
        ),
        h.event(process),
        h.t(
            "qui s'est arrêté sans ouvrir la séance ; la séance a été ouverte par une nouvelle exécution, démarrée à l'",
            "which stopped without opening the sitting; the sitting was opened by a new run, started at "
        ),
        h.event(opener)
    )
}

/// Production's keys pinned outside any sitting, in words.
fn producer_keys(h: &Html, keys: &[KeyId], previous: &[KeyId]) -> String {
    let ids = |ks: &[KeyId]| {
        ks.iter()
            .map(|k| code(k.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let replaced = if previous.is_empty() {
        String::new()
    } else {
        format!(" {} {}", h.t("à la place de", "instead of"), ids(previous))
    };
    format!(
        "{} {}{replaced}. {}",
        h.t(
            "Clés de production épinglées hors séance (urne keys producer) :",
            "Production's keys pinned outside any sitting (urne keys producer):"
        ),
        ids(keys),
        h.t(
            "Un scellé ne fait confiance qu'à elles : à comparer avec la déclaration écrite de la production.",
            "A seal trusts these only: to be compared with production's written statement."
        )
    )
}

/// The appliance's clock corrected (`urne clock correct`), in words: up to which event a clock
/// set ahead dated the trail, its last time, the time confirmed at the terminal, the reason.
fn clock_corrected(h: &Html, seq: u64, wrong: &str, confirmed: &str, reason: &str) -> String {
    format!(
        "{}{} {} {} ; {} {}. {} {}",
        h.t(
            "Horloge de l'appareil corrigée (urne clock correct) : les événements du journal jusqu'à l'",
            "The appliance's clock corrected (urne clock correct): the trail's events up to "
        ),
        h.event(seq.saturating_sub(1)),
        h.t(
            "ont été datés par une horloge en avance, le dernier",
            "were dated by a clock set ahead, the last one"
        ),
        esc(&words::instant(wrong, h.tz, h.lang)),
        h.t(
            "date et heure confirmées au terminal, à la montre :",
            "date and time confirmed at the terminal, by a watch:"
        ),
        esc(&words::instant(confirmed, h.tz, h.lang)),
        h.t("Motif :", "Reason:"),
        esc(reason)
    )
}

/// A clock far ahead of the trail confirmed at the terminal (`clock.confirmed`), in words.
fn clock_confirmed(h: &Html, previous: &str, confirmed: &str) -> String {
    format!(
        "{} {} ; {} {}.",
        h.t(
            "Horloge de l'appareil plus de 31 jours après le dernier événement du journal, daté",
            "The appliance's clock more than 31 days after the trail's last event, dated"
        ),
        esc(&words::instant(previous, h.tz, h.lang)),
        h.t(
            "date et heure confirmées au terminal, à la montre, avant toute inscription :",
            "date and time confirmed at the terminal, by a watch, before anything was recorded:"
        ),
        esc(&words::instant(confirmed, h.tz, h.lang))
    )
}

/// The clock's incidents (spec/appliance.md §6.6), in words.
fn clock(h: &Html, i: &Incident) -> String {
    match i {
        Incident::ClockCorrected {
            at,
            wrong,
            confirmed,
            reason,
        } => clock_corrected(h, at.seq, wrong, confirmed, reason),
        Incident::ClockConfirmed {
            previous,
            confirmed,
            ..
        } => clock_confirmed(h, previous, confirmed),
        Incident::ClockJumped { at, previous } => clock_jumped(h, at, previous),
        _ => String::new(),
    }
}

/// An event dated more than 31 days after the one before it, unconfirmed, in words.
fn clock_jumped(h: &Html, at: &Stamp, previous: &Stamp) -> String {
    let days = (at.at - previous.at).num_days();
    format!(
        "{} {days} {} {} ({}). {}",
        h.t("Événement daté", "An event dated"),
        h.t(
            "jours après l'événement précédent, daté",
            "days after the event before it, dated"
        ),
        esc(&h.when(previous.at)),
        h.event(previous.seq),
        h.t(
            "Aucune confirmation de l'horloge à la montre n'est enregistrée (spec/appliance.md §6.6) : l'horloge de l'appareil a pu être avancée, ou la confirmation perdue avec un processus interrompu.",
            "No confirmation of the clock at a watch is recorded (spec/appliance.md §6.6): the appliance's clock may have been set ahead, or the confirmation lost with an interrupted process."
        )
    )
}

/// A process whose PKCS#11 module is not the key ceremony's, in words.
fn other_module(h: &Html, path: &str, sha256: &Hash32, (seq, first): (u64, Hash32)) -> String {
    format!(
        "{} {} ({} {}) {} {} ({}). {}",
        h.t(
            "Module PKCS#11 autre que celui du premier processus du journal (la cérémonie des clés, ou le redémarrage témoigné du journal) :",
            "A PKCS#11 module other than the one of the trail's first process (the key ceremony, or the witnessed restart of the trail):"
        ),
        code(path),
        "SHA-256",
        hash(&sha256.to_string()),
        h.t("au lieu de", "instead of"),
        hash(&first.to_string()),
        h.event(seq),
        esc(h.t(
            "Le commissaire vérifie qu'il s'agit du module publié par le fabricant de l'HSM (une mise à jour) : un autre module voit tout ce que l'HSM répond.",
            "The commissaire checks that it is the module the HSM's vendor publishes (an update): another module sees every answer of the HSM."
        ))
    )
}

/// The sitting taken up again, with the work still planned.
fn resumed_sitting(h: &Html, plan: &[Step]) -> String {
    let rest = if plan.is_empty() {
        esc(h.t("aucun.", "none."))
    } else {
        plan.iter()
            .map(|s| step(h, s))
            .collect::<Vec<_>>()
            .join(" ; ")
    };
    format!(
        "{} {rest}",
        h.t(
            "Reprise de la séance après interruption ; travaux restant prévus :",
            "The sitting was resumed after an interruption; work still planned:"
        )
    )
}

/// A draw or a generation finished by a later process with the randomness recorded earlier.
fn resumed(h: &Html, i: &Incident) -> String {
    let Incident::RandomnessResumed {
        block,
        subject,
        attempt,
        entropy_seq,
        contribution_seq,
        before_sitting,
        ..
    } = i
    else {
        return String::new();
    };
    let what = if *block {
        format!(
            "{} {}",
            h.t("Génération du bloc", "Generation of block"),
            code(subject)
        )
    } else {
        format!(
            "{} {}",
            h.t(
                "Tirage interrompu après l'inscription de l'aléa : tirage du jour du",
                "Draw interrupted after its entropy was recorded: draw of the day of"
            ),
            esc(&words::day(subject, h.lang))
        )
    };
    let mut s = format!(
        "{what} ({} {attempt}), {} ({}) {}",
        h.t("tentative", "attempt"),
        h.t("aléa inscrit", "entropy recorded"),
        h.event(*entropy_seq),
        h.t(
            "et repris par un nouveau processus, sans nouvel aléa",
            "and resumed by a new process, with no new entropy"
        )
    );
    if let Some(c) = contribution_seq {
        let _ = write!(
            s,
            " {} ({})",
            h.t(
                "et avec la contribution déjà inscrite",
                "and with the contribution already recorded"
            ),
            h.event(*c)
        );
    }
    if *before_sitting {
        s.push_str(h.t(
            " ; l'aléa avait été inscrit avant l'ouverture de la séance",
            "; the entropy was recorded before the sitting opened",
        ));
    }
    s.push('.');
    s
}
