"""spec/formats.md §8.8: a release's signed manifest SHA256SUMS, and each output's software judged
against the releases given (released, built another way, not released). Written from the spec alone."""
import json
import os
import re

from vcore import Failure, Usage, ed25519_verify_strict, key_id, load_pub_pem, read_bounded

BINARIES = ("bin/urne", "bin/urne-verify", "bin/urne-import")
COMMIT = re.compile(r"[0-9a-f]{40}")
HEX64 = re.compile(r"[0-9a-f]{64}")
ARCHIVE = re.compile(r"urne-src-([0-9a-f]{40})\.tar\.gz")
NOT_RELEASED_HINT = ("the outputs verified, but the executable that made them is not the released bin/urne of its "
                     "source revision: compare the software lines with the published, signed SHA256SUMS of that "
                     "release, give its manifest (--release) if it was not given, and treat a binary built another "
                     "way as an incident (keep the outputs as evidence)")
REFUSED_HINT = ("give the release's SHA256SUMS as published, with its SHA256SUMS.sig beside it, and the release key it "
                "was signed with (--release-key); nothing was verified")


class Refused(Exception):
    """A release given that is refused (exit 2, spec/formats.md §8.8 [M-412]): its class and what."""

    def __init__(self, cls, what):
        super().__init__(f"release manifest refused ({cls}): {what}")
        self.cls = cls


class NotReleased(Exception):
    """Every output verified, and one's software is not released (exit 9, class not-released)."""


def _is_name(name):
    """A name relative to the release's root: components of bytes 0x21-0x7E other than / and \\, none
    empty, . or .."""
    return all(c not in ("", ".", "..") and all(0x21 <= ord(ch) <= 0x7E and ch != "\\" for ch in c)
               for c in name.split("/"))


def parse(data, path):
    """The manifest's (commit, bin/urne's SHA-256 hex) once its signature held; `malformed` otherwise
    (spec/formats.md §8.8 [M-409])."""
    bad = lambda what: Refused("malformed", f"{path}: {what}")
    if not data.endswith(b"\n"):
        raise bad("it does not end with an LF (or is empty)")
    names, files = [], {}
    for no, raw in enumerate(data[:-1].split(b"\n"), start=1):
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            raise bad(f"line {no}: not `<sha256>  <name>`")
        h, sep, name = text[:64], text[64:66], text[66:]
        if not HEX64.fullmatch(h) or sep != "  ":
            raise bad(f"line {no}: not `<sha256>  <name>` (64 lowercase hex digits, two spaces, a name)")
        if not _is_name(name):
            raise bad(f"line {no}: {name!r} is not a name relative to the release's root")
        if names and names[-1] == name:
            raise bad(f"line {no}: {name!r} is listed twice")
        if names and names[-1].encode() > name.encode():
            raise bad(f"line {no}: {name!r} comes after {names[-1]!r}: the names are not in bytewise order")
        names.append(name)
        files[name] = h
    archives = [n for n in names if n.startswith("urne-src-") and "/" not in n]
    if not archives:
        raise bad("it lists no source archive urne-src-<commit>.tar.gz")
    if len(archives) > 1:
        raise bad(f"it lists two source archives, {archives[0]!r} and {archives[1]!r}")
    m = ARCHIVE.fullmatch(archives[0])
    if not m:
        raise bad(f"{archives[0]!r} is not a source archive's name urne-src-<40 lowercase hex digits>.tar.gz")
    for b in BINARIES:
        if b not in files:
            raise bad(f"it does not list {b}")
    return m.group(1), files["bin/urne"]


def _read(path, kind):
    try:
        return read_bounded(path, kind, follow=kind != "sig")
    except FileNotFoundError:
        return None
    except Failure as f:
        raise Refused("bad-signature", f"{path}: {f.what}")
    except OSError as e:
        raise Refused("unreadable", f"{path}: {e.strerror or e}")


def read_release(path, keys):
    """One release given: SHA256SUMS read (through the links of its path), SHA256SUMS.sig beside it (not
    followed), the signature checked under the release keys before the manifest is parsed [M-410]."""
    data = _read(path, "json")                    # at most 1,048,576 bytes, as a JSON output
    if data is None:
        raise Refused("unreadable", f"{path}: no such file")
    sig = _read(path + ".sig", "sig")
    if sig is None:
        raise Refused("bad-signature", f"{path}: no signature file {os.path.basename(path)}.sig beside it")
    key = next((k for k in keys if ed25519_verify_strict(k, sig, data)), None)
    if key is None:
        raise Refused("bad-signature", f"{path}: its signature {os.path.basename(path)}.sig does not verify under "
                                       f"the release key{'' if len(keys) == 1 else 's'} given "
                                       f"({', '.join(key_id(k) for k in keys)})")
    commit, urne = parse(data, path)
    return {"path": path, "key": key_id(key), "commit": commit, "urne": urne}


def given(a, keys_dir):
    """The releases given (`--release`, `--release-key`), checked before anything is verified; None
    without --release (spec/formats.md §8.8 [M-411], [M-412], [M-413])."""
    if not a.release and not a.release_key:
        return None
    if not a.release:
        raise Usage("--release-key without --release: a release key checks a release's SHA256SUMS",
                    "give the release's manifest with --release SHA256SUMS, or leave out --release-key")
    if not a.release_key:
        raise Usage("--release without --release-key: a release's SHA256SUMS is checked only under a release key "
                    "given explicitly", "pass --release-key PEM, obtained independently of the release")
    keys = []
    appliance = []
    for role in ("result", "audit"):
        p = os.path.join(keys_dir, f"{role}.pub.pem") if keys_dir else None
        if p and os.path.isfile(p):
            try:
                appliance.append((role, load_pub_pem(p)))
            except Usage:
                pass
    for p in a.release_key:
        k = load_pub_pem(p, follow=True)
        for role, ak in appliance:
            if bytes(ak) == bytes(k):
                raise Usage(f"release key {p} is the appliance's {role} key {key_id(k)}: a release is signed by a "
                            "release key, never by an appliance key", "pass --release-key PEM, the release key")
        keys.append(k)
    releases = [read_release(p, keys) for p in a.release]
    for i, r in enumerate(releases):
        for o in releases[:i]:
            if o["commit"] == r["commit"] and o["urne"] != r["urne"]:
                raise Refused("inconsistent", f"{o['path']} and {r['path']} are both of source revision "
                                              f"{r['commit']} and list different bin/urne: one revision is one binary")
    return releases


def _software(v, where):
    """The `software` object of §4.7, parsed strictly (a software.start payload, §6.2)."""
    if (not isinstance(v, dict) or set(v) != {"name", "version", "source_revision", "executable_sha256"}
            or not all(isinstance(v[k], str) for k in v) or not HEX64.fullmatch(v["executable_sha256"])):
        raise Failure("malformed", f"{where}: its payload does not parse: not a software object")
    return v


def stated(about):
    """(what, software) of every output verified that states its software, in the order of the first
    lines; an exported trail's distinct software records, each with its software.start events."""
    import urne_verify
    out = []
    for x in about:
        if x["kind"] == "trail":
            seen = []
            for seq, payload in x["started"]:
                try:
                    p = json.loads(payload)
                except ValueError:
                    p = None
                where = f"event {seq} (software.start) of the audit trail"
                s = _software(p.get("software") if isinstance(p, dict) else None, where)     # §4.7; nothing else read
                hit = next((e for e in seen if e[0] == s), None)
                if hit:
                    hit[1] += 1
                    hit[3] = seq
                else:
                    seen.append([s, 1, seq, seq])
            for s, n, first, last in seen:
                out.append((f"{n} software.start event{'' if n == 1 else 's'} from seq {first} to {last} of the "
                            f"audit trail of {x['events']} events", s))
        elif x.get("software") is not None:
            s = dict(x["software"])          # as the output's parser gives it: the hash may be bytes
            if isinstance(s["executable_sha256"], (bytes, bytearray)):
                s["executable_sha256"] = bytes(s["executable_sha256"]).hex()
            out.append((urne_verify._describe_one(x), s))
    return out


def judge(releases, s):
    """spec/formats.md §8.8 [M-414]: ("released" | "another" | "not", the release's commit, its bin/urne)."""
    r = next((r for r in releases if r["commit"] == s["source_revision"]), None)
    if r is None:
        return "not", None, None
    return ("released" if r["urne"] == s["executable_sha256"] else "another"), r["commit"], r["urne"]


def lines(path, releases, about):
    """The release: and software: lines (spec/formats.md §8.8 [M-415], [M-416]), and the error's words
    when one is not released (else None)."""
    out = [f"release: {r['commit']} in {r['path']}, signed by release key {r['key']}" for r in releases]
    judged = [(what, s, judge(releases, s)) for what, s in stated(about)]
    for what, s, (verdict, commit, urne) in judged:
        words = (f"released (bin/urne of release {commit})" if verdict == "released" else
                 f"NOT RELEASED: built another way (release {commit} lists bin/urne {urne})" if verdict == "another"
                 else f"NOT RELEASED: no release given is of source revision {s['source_revision']}")
        out.append(f"software: {what} in {path}: {s['name']} {s['version']} {s['source_revision']}, "
                   f"executable {s['executable_sha256']}: {words}")
    if not judged:
        out.append("partial: no output verified states its software: --release checked none")
    bad = [j for j in judged if j[2][0] != "released"]
    if not bad:
        return out, None
    what, s, (verdict, commit, _) = bad[0]
    why = (f"built another way than release {commit}" if verdict == "another" else
           f"of source revision {s['source_revision']}, which no release given is")
    n = len(bad)
    return out, (f"{n} of the {len(judged)} software records verified {'is' if n == 1 else 'are'} not the released "
                 f"bin/urne of {'its' if n == 1 else 'their'} source revision; the first, {what}, is {why}")
