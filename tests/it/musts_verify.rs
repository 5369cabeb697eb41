//! MUSTs of SPEC.md about verification that the vector format cannot carry (tests/musts.toml
//! cites each test by its id): inputs of a megabyte and more, written at test time and run by
//! `urne verify` and by the Python verifier alike.

use crate::common::*;
use std::path::Path;
use std::process::{Command, Output};

/// Writes `DIR/<name>/audit.jsonl` for each name: the five-event trail of the audit vectors
/// (`verifier/make_vectors.py`), event 3's payload padded so that its line is `len` bytes
/// without its LF, chained and checkpointed (sizes 2 and 4) as the appliance would; and
/// `DIR/keys/audit.pub.pem`.
fn audit_exports(dir: &Path, cases: &[(&str, usize)]) {
    const SCRIPT: &str = r#"
import json, os, sys
sys.path.insert(0, sys.argv[1])
import make_vectors as MV
import vaudit
out = sys.argv[2]
os.makedirs(os.path.join(out, "keys"), exist_ok=True)
open(os.path.join(out, "keys", "audit.pub.pem"), "w").write(MV.pem(MV.AUDIT))

def trail(pad):
    ev, prev = MV.audit_events(5), b"\x00" * 32
    for e in ev:
        if e["seq"] == 3:
            e["payload"] = json.dumps({"n": 3, "pad": "x" * pad}, separators=(",", ":"))
        e["prev_hash"] = prev.hex()
        prev = vaudit.event_hash(prev, e["seq"], e["ts"], e["kind"], e["payload"])
        e["hash"] = prev.hex()
    return ev

line = lambda e: json.dumps(e, separators=(",", ":"), ensure_ascii=False)
for arg in sys.argv[3:]:
    name, want = arg.split("=")
    base = len(line(trail(0)[2]))
    ev = trail(int(want) - base)
    assert len(line(ev[2]).encode()) == int(want)
    notes = [MV.checkpoint(ev, 2), MV.checkpoint(ev, 4)]
    text = "".join(line(e) + "\n" for e in ev)
    text += "".join(json.dumps({"type": "checkpoint", "size": int(c.split("\n")[1]), "note": c},
                               separators=(",", ":"), ensure_ascii=False) + "\n" for c in notes)
    os.makedirs(os.path.join(out, name), exist_ok=True)
    open(os.path.join(out, name, "audit.jsonl"), "w").write(text)
"#;
    let mut c = Command::new("python3");
    c.args(["-c", SCRIPT]).arg(root().join("verifier")).arg(dir);
    for (name, len) in cases {
        c.arg(format!("{name}={len}"));
    }
    let o = c.output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// `urne verify FILE --keys keys`, or the Python verifier's, in `dir`.
fn verify(dir: &Path, file: &str, python: bool) -> Output {
    let mut c = if python {
        let mut c = Command::new("python3");
        c.arg(root().join("verifier/urne_verify.py"));
        c
    } else {
        let mut c = Command::new(URNE);
        c.arg("verify");
        scrub(&mut c);
        c
    };
    c.current_dir(dir)
        .args([file, "--keys", "keys"])
        .env("URNE_DB", dir.join("unused.db"))
        .output()
        .unwrap()
}

// MUST: M-128
#[test]
fn an_audit_export_line_of_the_limit_is_read_and_one_byte_more_is_malformed_in_both_verifiers() {
    const LIMIT: usize = 1_048_576;
    let tmp = tempfile::tempdir().unwrap();
    audit_exports(tmp.path(), &[("at", LIMIT), ("over", LIMIT + 1)]);
    for python in [false, true] {
        let o = verify(tmp.path(), "at/audit.jsonl", python);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            o.status.code(),
            Some(0),
            "python={python} at the limit: {err}"
        );
        let o = verify(tmp.path(), "over/audit.jsonl", python);
        if !python {
            let err = assert_fails(&o, 1, "trail-verification-failed");
            assert_class(&err, "malformed");
            continue;
        }
        // The Python verifier's line of spec/formats.md §8.1 carries no id.
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            o.status.code(),
            Some(1),
            "python={python} over the limit: {err}"
        );
        assert!(
            err.contains("verification failed (malformed)"),
            "python={python} over the limit: {err}"
        );
    }
}
