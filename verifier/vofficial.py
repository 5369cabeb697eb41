"""The official rules files, pinned (spec/rationale.md §7.3 item 2, spec/formats.md §7.4): the operation or game id each
declares and the SHA-256 of its bytes, the same table as urne's crates/verify/src/rules/official.rs (a test
there reads this file). The one place of the Python verifier that knows them."""

OFFICIAL = {
    "chanceux-noel-2018": "4219ce2a0d422719e3288cf9603b4732d516544f05f8b0ba090426be0025f410",
    "noel-de-la-chance-2015": "1a86436de6b84c4e799371906e36f27b30f2229b593196f587394127adc5274e",
}

OFFICIAL_, UNOFFICIAL, DOCTORED = "official", "unofficial", "doctored"


def standing(rules_id, sha256_hex):
    """`official` (the pinned file of that id), `unofficial` (an id no official file has) or
    `doctored` (an official id, other bytes)."""
    pinned = OFFICIAL.get(rules_id)
    if pinned is None:
        return UNOFFICIAL
    return OFFICIAL_ if pinned == sha256_hex else DOCTORED


# spec/formats.md §7.4, §8.1: what the verdict's first line says when any output verified was made under rules
# that are not an official regulation, before their ids.
WORDS = "règlement non officiel / unofficial rules"
MEMBER = "unofficial_rules"


def take(doc, what):
    """(doc without its member `unofficial_rules`, True or None): the member is `true` when
    present [malformed otherwise] (spec/formats.md §7.4)."""
    if not isinstance(doc, dict) or MEMBER not in doc:
        return doc, None
    doc = dict(doc)
    if doc.pop(MEMBER) is not True:
        from vcore import Failure
        raise Failure("malformed", f"{what}.{MEMBER}: true when present (§7.4)")
    return doc, True


def check(what, rules_id, sha256, version, member):
    """spec/formats.md §7.4: the standing the output's rules id and rules_sha256 give, against its member. An
    official id with other bytes [inconsistent] [M-293]; a version-2 output under unofficial
    rules without the member, or under official rules with it [inconsistent] [M-294]; the member
    in version 1 [malformed] [M-295]. Returns the id when the rules are unofficial, else None."""
    from vcore import Failure
    if version == 1 and member is not None:
        raise Failure("malformed", f"{what}: {MEMBER} is a member of version 2 only")
    sha = sha256.hex() if isinstance(sha256, (bytes, bytearray)) else sha256
    s = standing(rules_id, sha)
    if s == DOCTORED:
        raise Failure("inconsistent", f"{what}: {rules_id} is an official regulation whose rules file has SHA-256 "
                                      f"{OFFICIAL[rules_id]}, and the output was made under other rules "
                                      f"(rules_sha256 {sha})")
    if s == UNOFFICIAL and version >= 2 and member is None:
        raise Failure("inconsistent", f"{what}: {rules_id} is not an official regulation, and the output does not "
                                      f"say so (no \"{MEMBER}\": true)")
    if s == OFFICIAL_ and member is not None:
        raise Failure("inconsistent", f"{what}: says {MEMBER}, but {rules_id} with rules_sha256 {sha} is the "
                                      "official regulation")
    return rules_id if s == UNOFFICIAL else None


def first_mark(about):
    """The words the first VERIFIED line carries after `VERIFIED`: ` (règlement non officiel /
    unofficial rules: ID, …): ` when any output verified (`about`) was made under unofficial
    rules, else `: ` (spec/formats.md §8.1 [M-296])."""
    ids = []
    for x in about:
        u = x.get("unofficial")
        if u and u not in ids:
            ids.append(u)
    return f" ({WORDS}: {', '.join(ids)}): " if ids else ": "
