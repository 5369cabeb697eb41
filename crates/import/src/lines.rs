//! The import said as JSON Lines (crates/import/README.md, "JSON Lines"): one object a line,
//! for those who load elsewhere than `PostgreSQL`. Each line has a `kind`: `day` (every day: its
//! status, the attempt that counts with its winner and reserves, the attempts voided), `block`
//! (every block attempt: its status, what its commitment binds, whether its production file was
//! checked), `alert` (a result or block the database held as payable or on sale, now void) and
//! last `import` (the checkpoint, whether the database changed).

use crate::Plan;
use crate::db::{Alert, Loaded};
use crate::state::{BlockStatus, DayStatus};
use serde_json::{Value, json};

/// The lines of `plan`, and of what `loaded` did when it was loaded.
#[must_use]
pub fn lines(plan: &Plan, loaded: Option<&Loaded>) -> Vec<Value> {
    let mut out: Vec<Value> = plan.state.days.iter().map(day_line).collect();
    out.extend(plan.state.blocks.iter().map(|b| block_line(plan, b)));
    if let Some(l) = loaded {
        out.extend(l.alerts.iter().map(alert_line));
    }
    out.push(json!({
        "kind": "import",
        "checkpoint_size": plan.state.checkpoint.as_ref().map(|(s, _)| *s),
        "database": loaded.is_some(),
        "changed": loaded.map(|l| l.changed),
        "import_id": loaded.and_then(|l| l.import),
        "rows": loaded.map(|l| l.rows.iter().map(|(t, n)| (t.to_string(), json!(n))).collect::<serde_json::Map<_, _>>()),
    }));
    out
}

fn day_line(d: &crate::state::DayState) -> Value {
    {
        let (status, attempt) = match d.status {
            DayStatus::Drawn(a) => ("drawn", Some(a.get())),
            DayStatus::Voided => ("voided", None),
            DayStatus::NotDrawn => ("not-drawn", None),
        };
        let counts = d.counts();
        let placed = |rank_is_winner: bool| -> Vec<Value> {
            counts
                .into_iter()
                .flat_map(|c| c.placed.iter())
                .filter(|p| (p.rank == 0) == rank_is_winner)
                .map(|p| {
                    json!({
                        "rank": p.rank,
                        "account": p.account.to_string(),
                        "pseudonym": p.pseudonym.to_string(),
                        "entries": p.entries,
                    })
                })
                .collect()
        };
        json!({
            "kind": "day",
            "operation": d.operation,
            "day": d.day.to_string(),
            "status": status,
            "attempt": attempt,
            "export_sha256": counts.map(|c| c.export_sha256.to_string()),
            "prize_cents": counts.map(|c| c.prize_cents),
            "winner": placed(true).into_iter().next(),
            "reserves": placed(false),
            "voided_attempts": d.voids.iter().map(|(a, v)| json!({"attempt": a.get(), "reason": v.reason})).collect::<Vec<_>>(),
        })
    }
}

fn block_line(plan: &Plan, b: &crate::state::BlockState) -> Value {
    {
        let status = match b.status {
            BlockStatus::Committed => "committed",
            BlockStatus::Revealed => "revealed",
            BlockStatus::Void => "void",
        };
        let checked = plan
            .tickets
            .iter()
            .any(|t| t.block == b.block && t.attempt == b.attempt);
        json!({
            "kind": "block",
            "block": b.block.to_string(),
            "attempt": b.attempt.get(),
            "status": status,
            "tickets_sha256": b.commitment.tickets_sha256.to_string(),
            "outcomes_root": b.commitment.outcomes_root.to_string(),
            "seed": b.reveal.as_ref().map(|r| r.seed.to_string()),
            "production_file_checked": checked,
            "void_reason": b.void.as_ref().map(|v| v.reason.clone()),
        })
    }
}

fn alert_line(a: &Alert) -> Value {
    match a {
        Alert::DrawVoided {
            operation,
            day,
            attempt,
            reason,
        } => json!({
            "kind": "alert",
            "alert": "payable-result-voided",
            "operation": operation,
            "day": day,
            "attempt": attempt,
            "reason": reason,
        }),
        Alert::BlockVoided {
            block,
            attempt,
            reason,
        } => json!({
            "kind": "alert",
            "alert": "block-on-sale-voided",
            "block": block,
            "attempt": attempt,
            "reason": reason,
        }),
    }
}
