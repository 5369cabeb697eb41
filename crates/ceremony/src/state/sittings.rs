//! A sitting closed whose output the trail does not yet record (spec/formats.md §9.3): a command killed
//! between `sitting.closed` and the `output.published` of its `sitting.json`. Until it is
//! published, nothing else is sealed, drawn, generated, revealed or voided.

use urne_verify::audit::Event;
use urne_verify::events::kinds::{self, MalformedRecord, Record};
use urne_verify::sitting::{FILE_NAME, OpenedRecord};

/// The last sitting when it is closed and its output not yet recorded: its `sitting.opened`
/// event and record, and its `sitting.closed` event.
///
/// # Errors
/// An event that is not a well-formed record.
pub fn unpublished(
    events: &[Event],
) -> Result<Option<(Event, OpenedRecord, Event)>, MalformedRecord> {
    let mut opened: Option<(Event, OpenedRecord)> = None;
    let mut closed: Option<Event> = None;
    let suffix = format!("/{FILE_NAME}");
    for e in events {
        match kinds::parse(e)? {
            Record::SittingOpened(r) => {
                opened = Some((e.clone(), r));
                closed = None;
            }
            Record::SittingClosed(_) => closed = Some(e.clone()),
            Record::OutputPublished(p) if p.file.ends_with(&suffix) => {
                closed = None;
                opened = None;
            }
            _ => {}
        }
    }
    Ok(match (opened, closed) {
        (Some((o, r)), Some(c)) => Some((o, r, c)),
        _ => None,
    })
}
