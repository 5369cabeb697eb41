// urne-check: the player's page (spec/formats.md §1.2-§1.4, §4.7-§4.8, §5.B5-§5.B9, §8.1, §8.3).
// Everything runs here, in this one file: no network, no other file. Source:
// verifier/web/src/check.js in the urne repository; verifier/web/build.py assembles the page.
//
// window.urneCheck(files) -> Promise<{ok, class, outcome, steps, keyId}>
//   files: an object mapping file names (the base name decides each file's role) to their bytes
//   (Uint8Array or ArrayBuffer) or their text (a string, taken as UTF-8). Roles:
//     *.pem                      the appliance's result key (result.pub.pem; audit.pub.pem is ignored)
//     NAME.sig                   the raw 64-byte signature of NAME
//     bundle.json, result.json   a published draw (§4.7), each with its .sig
//     S.commit.json, S.reveal.json, rules.json   a block's commitment, reveal and rules (§5.B9)
//     any other name             the player's proof: a signed §4.8 inclusion proof or §5.B9 ticket
//                                proof (with NAME.sig); or, with no NAME.sig, an unsigned proof
//                                (§8.3 [M-400]): an inclusion proof as one line of JSON Lines, or a
//                                ticket proof derived after the reveal (§5.B9 [M-404], any layout).
//                                An unsigned proof is checked by every step but its own signature,
//                                and only with the signed output it stands on given (bundle.json or
//                                result.json; the block's S.commit.json), else "usage"
//   ok: every check made holds. class: null when ok, else the failure class of spec/formats.md
//   §8.1 (bad-signature, malformed, commitment-mismatch, draw-mismatch, inconsistent, rehearsal),
//   or "usage" (files missing or ambiguous: nothing was verified), or "self-test" (the page's own
//   self-test failed at load: it checks nothing). outcome (when ok): {kind: "winner" | "reserve" |
//   "neither" | "ticket", rank, prize_cents, tier, ...}. steps: [{status: "ok" | "fail" | "info" |
//   "warn", fr, en}], in the order checked.

// ---------------------------------------------------------------------------------------------
// Bytes, hex, text

const enc = new TextEncoder();
const utf8 = (s) => enc.encode(s);
function hex(b) {
  let s = "";
  for (const x of b) s += x.toString(16).padStart(2, "0");
  return s;
}
function unhex(s) {
  if (typeof s !== "string" || !/^(?:[0-9a-f]{2})*$/.test(s)) throw new Error("not lowercase hex");
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.substr(2 * i, 2), 16);
  return out;
}
function concat(...parts) {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}
function equalBytes(a, b) {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a[i] ^ b[i];
  return d === 0;
}
function u32be(x) { const b = new Uint8Array(4); new DataView(b.buffer).setUint32(0, x); return b; }
function u64be(x) { const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, BigInt(x)); return b; }
const utf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

// ---------------------------------------------------------------------------------------------
// Hashes (§1.2): SHA-256 by WebCrypto; the tagged hash H; RFC 6962 / RFC 9162 Merkle paths (§2.4).

async function sha256(data) { return new Uint8Array(await crypto.subtle.digest("SHA-256", data)); }
async function sha512(data) { return new Uint8Array(await crypto.subtle.digest("SHA-512", data)); }
async function tagged(label, ...parts) {
  const chunks = [utf8(label), new Uint8Array([0])];
  for (let p of parts) {
    if (typeof p === "string") p = utf8(p);
    chunks.push(u64be(p.length), p);
  }
  return sha256(concat(...chunks));
}
const leafHash = (d) => sha256(concat(new Uint8Array([0]), d));
const nodeHash = (l, r) => sha256(concat(new Uint8Array([1]), l, r));

// RFC 9162 §2.1.3.2, as verifier/vcore.py verify_inclusion.
async function verifyInclusion(index, size, leafData, path, root) {
  let fn = BigInt(index), sn = BigInt(size) - 1n;
  if (fn > sn) return false;
  let r = await leafHash(leafData);
  for (const p of path) {
    if (sn === 0n) return false;
    if ((fn & 1n) === 1n || fn === sn) {
      r = await nodeHash(p, r);
      if ((fn & 1n) === 0n) while ((fn & 1n) === 0n && fn !== 0n) { fn >>= 1n; sn >>= 1n; }
    } else {
      r = await nodeHash(r, p);
    }
    fn >>= 1n; sn >>= 1n;
  }
  return sn === 0n && equalBytes(r, root);
}

// ---------------------------------------------------------------------------------------------
// Ed25519, strict (§1.4): S < L; A and R canonical encodings; neither A nor R of small order;
// then the cofactorless equation, checked here by recomputing R = [S]B - [k]A and comparing its
// encoding byte for byte, AND by WebCrypto; both must accept. The strict checks run before
// WebCrypto is called: Chromium accepts A = identity, R = identity, S = 0 for any message.

const P = 2n ** 255n - 19n;
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
function md(a) { const r = a % P; return r >= 0n ? r : r + P; }
function powmod(b, e) {
  let r = 1n;
  b = md(b);
  while (e > 0n) { if (e & 1n) r = r * b % P; b = b * b % P; e >>= 1n; }
  return r;
}
const D = md(-121665n * powmod(121666n, P - 2n));
const SQRT_M1 = powmod(2n, (P - 1n) / 4n);
function leInt(b) { let x = 0n; for (let i = b.length - 1; i >= 0; i--) x = (x << 8n) | BigInt(b[i]); return x; }
function leBytes(x, n) { const o = new Uint8Array(n); for (let i = 0; i < n; i++) { o[i] = Number(x & 255n); x >>= 8n; } return o; }

// RFC 8032 §5.1.3 decoding; null if the encoding is not canonical or not a point.
function decodePoint(s) {
  if (s.length !== 32) return null;
  let y = leInt(s);
  const sign = y >> 255n;
  y &= (1n << 255n) - 1n;
  if (y >= P) return null;
  const u = md(y * y - 1n), v = md(D * y * y + 1n);
  let x = md(u * powmod(v, 3n) * powmod(u * powmod(v, 7n), (P - 5n) / 8n));
  const vxx = md(v * x * x);
  if (vxx !== u) {
    if (vxx !== md(-u)) return null;
    x = x * SQRT_M1 % P;
  }
  if (x === 0n && sign === 1n) return null;
  if ((x & 1n) !== sign) x = P - x;
  return [x, y, 1n, x * y % P];
}
function padd(p, q) {
  const [x1, y1, z1, t1] = p, [x2, y2, z2, t2] = q;
  const a = md((y1 - x1) * (y2 - x2)), b = md((y1 + x1) * (y2 + x2));
  const c = md(2n * t1 * t2 * D), d = md(2n * z1 * z2);
  const e = b - a, f = d - c, g = d + c, h = b + a;
  return [md(e * f), md(g * h), md(f * g), md(e * h)];
}
function smallOrder(p) {
  for (let i = 0; i < 3; i++) p = padd(p, p);
  return md(p[0]) === 0n && md(p[1] - p[2]) === 0n;
}
function pmul(k, p) {
  let q = [0n, 1n, 1n, 0n];
  while (k > 0n) { if (k & 1n) q = padd(q, p); p = padd(p, p); k >>= 1n; }
  return q;
}
function pencode(p) {
  const zi = powmod(p[2], P - 2n);
  const x = p[0] * zi % P, y = p[1] * zi % P;
  return leBytes(y | ((x & 1n) << 255n), 32);
}
const BASE = decodePoint(unhex("58" + "66".repeat(31)));

// The strict checks and the equation in JS: {ok, why}.
async function ed25519Js(pub, sig, msg) {
  if (pub.length !== 32) return { ok: false, why: "key-length" };
  if (sig.length !== 64) return { ok: false, why: "sig-length" };
  const s = leInt(sig.subarray(32));
  if (s >= L) return { ok: false, why: "S>=L" };
  const a = decodePoint(pub);
  if (a === null) return { ok: false, why: "A-not-canonical" };
  if (smallOrder(a)) return { ok: false, why: "A-small-order" };
  const r = decodePoint(sig.subarray(0, 32));
  if (r === null) return { ok: false, why: "R-not-canonical" };
  if (smallOrder(r)) return { ok: false, why: "R-small-order" };
  const k = leInt(await sha512(concat(sig.subarray(0, 32), pub, msg))) % L;
  const minusA = [md(-a[0]), a[1], a[2], md(-a[3])];
  const rr = pencode(padd(pmul(s, BASE), pmul(k, minusA)));
  return equalBytes(rr, sig.subarray(0, 32)) ? { ok: true, why: "" } : { ok: false, why: "equation" };
}
async function ed25519WebCrypto(pub, sig, msg) {
  try {
    const key = await crypto.subtle.importKey("raw", pub, { name: "Ed25519" }, false, ["verify"]);
    return await crypto.subtle.verify({ name: "Ed25519" }, key, sig, msg);
  } catch (e) {
    return false;
  }
}
// Strict verification: {ok, why, js, webcrypto}. WebCrypto is asked only once the strictness
// checks hold (js.why is then "" or "equation"); both verdicts must agree and accept.
async function ed25519Verify(pub, sig, msg) {
  const js = await ed25519Js(pub, sig, msg);
  if (!js.ok && js.why !== "equation") return { ok: false, why: js.why, js: false, webcrypto: null };
  const wc = await ed25519WebCrypto(pub, sig, msg);
  if (wc !== js.ok) return { ok: false, why: "engines-disagree", js: js.ok, webcrypto: wc };
  return { ok: js.ok, why: js.why, js: js.ok, webcrypto: wc };
}

// ---------------------------------------------------------------------------------------------
// Failures and messages. Every step and failure is said in French and in English.

class Fail extends Error {
  constructor(cls, fr, en) { super(en); this.cls = cls; this.fr = fr; this.en = en; }
}
const euros = (cents, lang) => {
  const c = BigInt(cents);
  const e = (c / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, lang === "fr" ? "\u202f" : ",");
  const r = (c % 100n).toString().padStart(2, "0");
  return lang === "fr" ? `${e},${r} €` : `€${e}.${r}`;
};

// ---------------------------------------------------------------------------------------------
// Strict JSON (§1.5): RFC 8259, duplicate keys refused, integers kept exact, `-0` and numbers
// with a fraction or an exponent are no integers, lone surrogates refused.

class JNum { constructor(text) { this.text = text; } }
function parseJson(bytes, what) {
  let text;
  try { text = utf8Decoder.decode(bytes); } catch (e) {
    throw new Fail("malformed", `${what} : ce n'est pas de l'UTF-8`, `${what}: not UTF-8`);
  }
  let i = 0;
  const n = text.length;
  const bad = (en) => { throw new Fail("malformed", `${what} : JSON invalide (${en}, position ${i})`, `${what}: invalid JSON (${en}, at ${i})`); };
  const ws = () => { while (i < n && " \t\n\r".includes(text[i])) i++; };
  const NUM = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
  function str() {
    i++;
    let out = "";
    for (;;) {
      if (i >= n) bad("unterminated string");
      const c = text.charCodeAt(i);
      if (c === 0x22) { i++; return out; }
      if (c < 0x20) bad("control character in a string");
      if (c === 0x5c) {
        const e = text[i + 1];
        const simple = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
        if (e in simple) { out += simple[e]; i += 2; continue; }
        if (e !== "u") bad("bad escape");
        const h = text.substr(i + 2, 4);
        if (!/^[0-9a-fA-F]{4}$/.test(h)) bad("bad \\u escape");
        const cu = parseInt(h, 16);
        i += 6;
        if (cu >= 0xdc00 && cu <= 0xdfff) bad("lone surrogate");
        if (cu >= 0xd800 && cu <= 0xdbff) {
          const h2 = text.substr(i + 2, 4);
          if (text[i] !== "\\" || text[i + 1] !== "u" || !/^[0-9a-fA-F]{4}$/.test(h2)) bad("lone surrogate");
          const lo = parseInt(h2, 16);
          if (lo < 0xdc00 || lo > 0xdfff) bad("lone surrogate");
          out += String.fromCharCode(cu, lo);
          i += 6;
          continue;
        }
        out += String.fromCharCode(cu);
        continue;
      }
      out += text[i];
      i++;
    }
  }
  function value(depth) {
    if (depth > 64) bad("nested deeper than 64");
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const o = Object.create(null);
      ws();
      if (text[i] === "}") { i++; return o; }
      for (;;) {
        ws();
        if (text[i] !== '"') bad("expected a key");
        const k = str();
        if (Object.prototype.hasOwnProperty.call(o, k)) bad(`duplicate key ${JSON.stringify(k)}`);
        ws();
        if (text[i] !== ":") bad("expected ':'");
        i++;
        o[k] = value(depth + 1);
        ws();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "}") { i++; return o; }
        bad("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      const a = [];
      ws();
      if (text[i] === "]") { i++; return a; }
      for (;;) {
        a.push(value(depth + 1));
        ws();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "]") { i++; return a; }
        bad("expected ',' or ']'");
      }
    }
    if (c === '"') return str();
    if (text.startsWith("true", i)) { i += 4; return true; }
    if (text.startsWith("false", i)) { i += 5; return false; }
    if (text.startsWith("null", i)) { i += 4; return null; }
    NUM.lastIndex = i;
    const m = NUM.exec(text);
    if (!m) bad("unexpected character");
    i += m[0].length;
    if (m[1] || m[2] || m[0] === "-0") return new JNum(m[0]);
    const b = BigInt(m[0]);
    return (b <= BigInt(Number.MAX_SAFE_INTEGER) && b >= -BigInt(Number.MAX_SAFE_INTEGER)) ? Number(b) : b;
  }
  const v = value(1);
  ws();
  if (i !== n) bad("trailing data");
  return v;
}

// Member checkers, as verifier/vjson.py: each returns the value or throws Fail("malformed").
const J = {
  bad(what, fr, en) { throw new Fail("malformed", `${what} : ${fr}`, `${what}: ${en}`); },
  uint(lo = 0n, hi = 2n ** 64n - 1n) {
    return (v, w) => {
      const ok = (typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint";
      if (!ok || BigInt(v) < BigInt(lo) || BigInt(v) > BigInt(hi)) J.bad(w, `entier de ${lo} à ${hi} attendu`, `expected an integer in [${lo}, ${hi}]`);
      return v;
    };
  },
  string(v, w) { if (typeof v !== "string") J.bad(w, "texte attendu", "expected a string"); return v; },
  hexbytes(n) {
    return (v, w) => {
      if (typeof v !== "string" || !/^(?:[0-9a-f]{2})*$/.test(v) || (n !== undefined && v.length !== 2 * n))
        J.bad(w, `${n === undefined ? "" : n + " octets en "}hexadécimal minuscule attendu`, `expected ${n === undefined ? "" : n + " bytes of "}lowercase hex`);
      return unhex(v);
    };
  },
  keyid(v, w) { if (typeof v !== "string" || !/^[0-9a-f]{16}$/.test(v)) J.bad(w, "identifiant de clé attendu", "expected a key id (16 lowercase hex digits)"); return v; },
  day(v, w) { if (typeof v !== "string" || !/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(v)) J.bad(w, "date AAAA-MM-JJ attendue", "expected YYYY-MM-DD"); return v; },
  constant(c) { return (v, w) => { if (v !== c) J.bad(w, `${JSON.stringify(c)} attendu`, `expected ${JSON.stringify(c)}`); return v; }; },
  any(v) { return v; },
  list(check) {
    return (v, w) => {
      if (!Array.isArray(v)) J.bad(w, "liste attendue", "expected a list");
      return v.map((x, k) => check(x, `${w}[${k}]`));
    };
  },
  obj(fields) {
    return (v, w) => {
      if (v === null || typeof v !== "object" || Array.isArray(v) || v instanceof JNum) J.bad(w, "objet attendu", "expected an object");
      for (const k of Object.keys(fields)) if (!(k in v)) J.bad(w, `membre ${JSON.stringify(k)} manquant`, `missing member ${JSON.stringify(k)}`);
      for (const k of Object.keys(v)) if (!(k in fields)) J.bad(w, `membre inconnu ${JSON.stringify(k)}`, `unknown member ${JSON.stringify(k)}`);
      const out = {};
      for (const [k, check] of Object.entries(fields)) out[k] = check(v[k], `${w}.${k}`);
      return out;
    };
  },
};
const h32 = J.hexbytes(32), U = J.uint(), U32 = J.uint(0, 2 ** 32 - 1), ATTEMPT = J.uint(1, 2 ** 32 - 1);

// §4.8 inclusion proof (one format version, 1).
const PROOF = J.obj({
  format: J.constant("urne-inclusion-proof"), version: J.constant(1), operation: J.string, day: J.day,
  attempt: ATTEMPT, account: h32, salt: h32, pseudonym: h32, entries: J.uint(1, 255), leaf: U,
  commitment: J.obj({ root: h32, leaves: U, entries: U }), path: J.list(h32), result_key_id: J.keyid,
});
// §5.B9 ticket proof.
const TICKET_PROOF = J.obj({
  format: J.constant("urne-ticket-proof"), version: J.constant(1), block: J.string, position: U32,
  row: J.string, block_size: U32, outcomes_root: h32, path: J.list(h32), result_key_id: J.keyid,
});

// §4.7 result.json and bundle.json, as verifier/vdraw.py reads them; the members this page does
// not use (`fixed`, `history`, `entropy_refused`, `pkcs11`) are checked for their JSON type only.
const COUNTS3 = J.obj({ closed: U, minor: U, fraud: U });
const SOFTWARE = J.obj({ name: J.string, version: J.string, source_revision: J.string, executable_sha256: h32 });
const ANY_OBJ = (v, w) => { if (v === null || typeof v !== "object" || Array.isArray(v)) J.bad(w, "objet attendu", "expected an object"); return v; };
const ANY_LIST = J.list(J.any);
function coreOf(version) {
  const core = {
    operation: J.string, day: J.day, attempt: ATTEMPT,
    voided_attempts: J.list(J.obj({ attempt: U32, reason: J.string, audit_seq: J.uint(1) })),
    rules_sha256: h32, export: J.obj({ sha256: h32, size: U, producer_key_id: J.keyid }),
    figures: J.obj({
      period: J.string, tranche_cents: U, plays: U, counting_plays: U, retail_plays: U,
      subscription_plays_refused: U, accounts_with_counting_plays: U, exclusion_records: COUNTS3,
      excluded_accounts_with_plays: COUNTS3, accounts_with_entries: U, entries: U,
    }),
    commitment: J.obj({ root: h32, leaves: U, entries: U }),
  };
  if (version === 1) core.witness = J.string;
  else { core.entropy_commitment = h32; core.contribution = J.string; }
  Object.assign(core, { entropy: J.hexbytes(), seed: h32, prize_cents: U, reserves_wanted: U32 });
  if (version === 2) { core.entropy_refused = ANY_LIST; core.fixed = ANY_OBJ; core.history = ANY_OBJ; }
  return core;
}
const PICK = { rank: U32, pseudonym: h32, entries: J.uint(0, 255), entry: U, leaf: U };
function drawSchema(kind, version) {
  const head = { format: J.constant(kind === "bundle" ? "urne-draw-bundle" : "urne-draw-result"), version: J.any };
  const tail = { drawn_at: J.string, audit_checkpoint: J.string, result_key_id: J.keyid, audit_key_id: J.keyid, software: SOFTWARE };
  if (version === 2) tail.pkcs11 = ANY_OBJ;
  const pick = kind === "bundle" ? J.obj(PICK) : J.obj(Object.assign({}, PICK, { account: h32 }));
  const middle = kind === "bundle"
    ? { leaves_file: J.string, leaves_sha256: h32, winner: pick, reserves: J.list(pick) }
    : { entries: U, accounts: U, winner: pick, reserves: J.list(pick) };
  return J.obj(Object.assign(head, coreOf(version), middle, tail));
}
// §5.B9 block commitment and reveal.
function commitSchema(version) {
  const f = {
    format: J.constant("urne-block-commitment"), version: J.any, block: J.string, game: J.string,
    price_cents: U, emission: J.string, number: U32, attempt: ATTEMPT, rules_sha256: h32, block_size: U32,
    tiers: J.list(J.obj({ tier: J.uint(0, 255), units: U32, prize_cents: U })),
    outcomes_root: h32, seed_commitment: h32,
  };
  if (version === 2) Object.assign(f, { entropy_commitment: h32, contribution: J.string, entropy_refused: ANY_LIST, fixed: ANY_OBJ });
  Object.assign(f, {
    tickets_file: J.string, tickets_sha256: h32, generated_at: J.string, audit_checkpoint: J.string,
    result_key_id: J.keyid, audit_key_id: J.keyid, software: SOFTWARE,
  });
  if (version === 2) Object.assign(f, { pkcs11: ANY_OBJ, history: ANY_OBJ });
  return J.obj(f);
}
function revealSchema(version) {
  const f = {
    format: J.constant("urne-block-reveal"), version: J.any, block: J.string, rules_sha256: h32,
    entropy: J.hexbytes(), seed: h32, seed_commitment: h32, outcomes_root: h32,
  };
  if (version === 2) f.sales_closed_at = J.string;
  Object.assign(f, { revealed_at: J.string, audit_checkpoint: J.string, result_key_id: J.keyid });
  if (version === 2) f.history = ANY_OBJ;
  return J.obj(f);
}
// A published output parsed: `version` 1 or 2 (another: malformed), the optional
// `unofficial_rules` (§7.4: `true`, version 2 only) taken out first.
function parseVersioned(doc, what, schemaOf) {
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) J.bad(what, "objet attendu", "expected an object");
  const version = doc.version;
  if (version !== 1 && version !== 2) J.bad(`${what}.version`, "1 ou 2 attendu", "expected 1 or 2 (§7.2)");
  const d = Object.assign(Object.create(null), doc);
  let unofficial = false;
  if ("unofficial_rules" in d) {
    if (d.unofficial_rules !== true) J.bad(`${what}.unofficial_rules`, "true attendu", "true when present (§7.4)");
    if (version === 1) J.bad(`${what}.unofficial_rules`, "membre de la version 2 seulement", "a member of version 2 only");
    delete d.unofficial_rules;
    unofficial = true;
  }
  const out = schemaOf(version)(d, what);
  out.unofficial_rules = unofficial;
  return out;
}

// ---------------------------------------------------------------------------------------------
// The result key (§1.3, §1.4): a SubjectPublicKeyInfo PEM (RFC 8410) of an Ed25519 key.

function parsePem(bytes, name) {
  let text;
  try { text = utf8Decoder.decode(bytes); } catch (e) { text = ""; }
  const m = /^-----BEGIN PUBLIC KEY-----\r?\n([A-Za-z0-9+/=\r\n]+)-----END PUBLIC KEY-----\r?\n?$/.exec(text);
  let der = null;
  if (m) {
    try { der = Uint8Array.from(atob(m[1].replace(/[\r\n]/g, "")), (c) => c.charCodeAt(0)); } catch (e) { der = null; }
  }
  const prefix = unhex("302a300506032b6570032100");
  if (!der || der.length !== 44 || !equalBytes(der.subarray(0, 12), prefix))
    throw new Fail("usage", `${name} n'est pas une clé publique Ed25519 (PEM SubjectPublicKeyInfo)`,
      `${name} is not an Ed25519 public key (SubjectPublicKeyInfo PEM)`);
  return der.slice(12);
}

// ---------------------------------------------------------------------------------------------
// §5.B5 ticket grids, recomputed from the grid key, the position and the tier (as
// verifier/vblock.py TicketMaker). The ticket stream: HMAC-SHA256 by WebCrypto.

const TWO64 = 1n << 64n;
function batchPlan(ranges) {
  const plan = [];
  let cur = [], p = 1n;
  for (const r0 of ranges) {
    const r = BigInt(r0);
    if (cur.length && p * r > (1n << 48n)) { plan.push([p, TWO64 - TWO64 % p, cur]); cur = []; p = 1n; }
    cur.push(r);
    p *= r;
  }
  if (cur.length) plan.push([p, TWO64 - TWO64 % p, cur]);
  return plan;
}
class OutOfStream extends Error {}
async function ticketStream(gridKey, position, blocks) {
  const key = await crypto.subtle.importKey("raw", gridKey, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const words = [];
  for (let j = 0; j < blocks; j++) {
    const msg = concat(utf8("urne/v1/block-grid"), new Uint8Array([0]), u32be(position), u32be(j));
    const b = new Uint8Array(await crypto.subtle.sign("HMAC", key, msg));
    const dv = new DataView(b.buffer);
    for (let k = 0; k < 4; k++) words.push(dv.getBigUint64(8 * k));
  }
  let at = 0;
  return () => { if (at >= words.length) throw new OutOfStream(); return words[at++]; };
}
function digits(plan, next) {
  const out = [];
  for (const [p, limit, ranges] of plan) {
    let x = next();
    while (x >= limit) x = next();
    x %= p;
    for (const r of ranges) { out.push(Number(x % r)); x /= r; }
  }
  return out;
}
// The ticket's row (§5.B6) for position p, tier t, m symbols, prize `prize`.
async function ticketRow(gridKey, p, t, m, prize) {
  for (let blocks = 4; ; blocks *= 2) {
    const next = await ticketStream(gridKey, p, blocks);
    try {
      const e = digits(batchPlan([m, m - 1, m - 2]), next);
      const a = [...Array(m).keys()];
      const offered = [];
      for (let s = 0; s < 3; s++) { const i = m - 1 - s; [a[i], a[e[s]]] = [a[e[s]], a[i]]; offered.push(a[i]); }
      const k = t, first = t === 0 ? 0 : 1;
      const cards = [];
      for (let role = first; role < m; role++) cards.push(role, role, role);
      const dl = cards.length;
      const ranges = [];
      for (let r = 18; r > 18 - k; r--) ranges.push(r);
      for (let r = dl; r > dl - (18 - k); r--) ranges.push(r);
      const f = digits(batchPlan(ranges), next);
      const roles = new Array(18).fill(null);
      const cells = [...Array(18).keys()];
      for (let s = 0; s < k; s++) { const i = 17 - s; [cells[i], cells[f[s]]] = [cells[f[s]], cells[i]]; roles[cells[i]] = 0; }
      const empty = [];
      for (let c = 0; c < 18; c++) if (roles[c] === null) empty.push(c);
      for (let s = 0; s < 18 - k; s++) { const i = dl - 1 - s, d = f[k + s]; [cards[i], cards[d]] = [cards[d], cards[i]]; roles[empty[s]] = cards[i]; }
      const rest = [];
      for (let x = 0; x < m; x++) if (!offered.includes(x)) rest.push(x);
      const letter = (x) => String.fromCharCode(65 + x);
      const grid = (c) => {
        const others = offered.filter((_, i) => i !== c);
        const byRole = [offered[c], ...others, ...rest];
        return roles.map((r) => letter(byRole[r])).join("");
      };
      return `${p},${t},${prize},${offered.map(letter).join("")},${grid(0)},${grid(1)},${grid(2)}`;
    } catch (err) {
      if (!(err instanceof OutOfStream)) throw err;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Self-test at load: every Ed25519 vector (tests/vectors/ed25519-*.json and the negative cases
// the build adds), verified by the strict rule with both engines; and the hashing, Merkle and
// ticket computations of tests/vectors/block-small.json and draw-valid-public.json.

async function selfTest(V) {
  const failures = [];
  for (const c of V.ed25519) {
    let got;
    try {
      const r = await ed25519Verify(unhex(c.public_key), unhex(c.signature), unhex(c.message));
      got = r.ok ? "valid" : "invalid";
      if (r.why === "engines-disagree") got += " (engines disagree)";
    } catch (e) { got = "error " + e.message; }
    if (got !== c.expect) failures.push(`${c.id}: ${got}, expected ${c.expect}`);
  }
  const b = V.block;
  const seed = await tagged("urne/v1/block-seed", b.block_id, unhex(b.rules_sha256), unhex(b.entropy));
  if (hex(seed) !== b.seed) failures.push("block-small: seed");
  if (hex(await tagged("urne/v1/block-seed-commitment", seed)) !== b.seed_commitment) failures.push("block-small: seed commitment");
  const gk = await tagged("urne/v1/block-grid-key", seed);
  if (hex(gk) !== b.grid_key) failures.push("block-small: grid key");
  const ip = b.inclusion_proof;
  if (!await verifyInclusion(ip.position, b.block_size, utf8(ip.row), ip.path.map(unhex), unhex(b.outcomes_root)))
    failures.push("block-small: inclusion proof");
  if (await verifyInclusion(ip.position + 1, b.block_size, utf8(ip.row), ip.path.map(unhex), unhex(b.outcomes_root)))
    failures.push("block-small: inclusion proof at another position accepted");
  for (const row of b.rows) {
    const [p, t, prize] = row.split(",");
    if (await ticketRow(gk, Number(p), Number(t), b.symbols, prize) !== row) { failures.push(`block-small: row ${p}`); break; }
  }
  const key = await tagged("urne/v1/pseudonym-key", unhex(V.draw.list_digest));
  if (hex(key) !== V.draw.pseudonym_key) failures.push("draw: pseudonym key");
  for (const a of V.draw.accounts)
    if (hex(await tagged("urne/v1/pseudonym", unhex(a.salt), unhex(a.account))) !== a.pseudonym) failures.push(`draw: pseudonym of ${a.account}`);
  return { ok: failures.length === 0, failures, count: V.ed25519.length };
}

// ---------------------------------------------------------------------------------------------
// The check.

const SIG_LEN = 64;
function toBytes(v) {
  if (typeof v === "string") return utf8(v);
  if (v instanceof Uint8Array) return v;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  throw new Fail("usage", "contenu de fichier illisible", "unreadable file content");
}
const IGNORED = /(^|\.)(manifest\.json|tickets\.csv|leaves\.bin|checkpoint\.note|pv\.html|keys\.json|audit\.pub\.pem)$/;

class Checker {
  constructor(files) {
    this.steps = [];
    this.files = new Map();
    for (const [name0, v] of Object.entries(files || {})) {
      const name = String(name0).split(/[\\/]/).pop();
      if (this.files.has(name)) throw new Fail("usage", `deux fichiers nommés ${name}`, `two files named ${name}`);
      this.files.set(name, toBytes(v));
    }
  }
  step(status, fr, en) { this.steps.push({ status, fr, en }); }
  ok(fr, en) { this.step("ok", fr, en); }
  info(fr, en) { this.step("info", fr, en); }
  warn(fr, en) { this.step("warn", fr, en); }

  // §1.4: a file's signature under the result key, before it is parsed [bad-signature].
  async signed(name) {
    const sig = this.files.get(name + ".sig");
    if (sig === undefined)
      throw new Fail("bad-signature", `${name}.sig manque : la signature de ${name} ne peut être vérifiée`,
        `${name}.sig is missing: the signature of ${name} cannot be checked`);
    if (sig.length !== SIG_LEN)
      throw new Fail("bad-signature", `${name}.sig fait ${sig.length} octets au lieu de 64`, `${name}.sig is ${sig.length} bytes, not 64`);
    const r = await ed25519Verify(this.key, sig, this.files.get(name));
    if (!r.ok) {
      const why = {
        "S>=L": ["S ≥ L : signature non canonique", "S ≥ L: a non-canonical signature"],
        "R-small-order": ["R d'ordre petit", "R of small order"],
        "R-not-canonical": ["R non canonique", "R not canonical"],
        "A-small-order": ["la clé est d'ordre petit", "the key is of small order"],
        "A-not-canonical": ["la clé n'est pas canonique", "the key is not canonical"],
        "engines-disagree": ["les deux vérifications (JavaScript et WebCrypto) divergent", "the two verifications (JavaScript and WebCrypto) disagree"],
      }[r.why] || ["signature fausse", "wrong signature"];
      throw new Fail("bad-signature", `la signature de ${name} ne vérifie pas sous la clé ${this.keyId} (${why[0]})`,
        `the signature of ${name} does not verify under the key ${this.keyId} (${why[1]})`);
    }
    this.ok(`Signature de ${name} vérifiée (Ed25519 strict, deux fois : JavaScript et WebCrypto)`,
      `Signature of ${name} verified (strict Ed25519, twice: JavaScript and WebCrypto)`);
    return this.files.get(name);
  }

  async run() {
    const names = [...this.files.keys()];
    // The key.
    const pems = names.filter((n) => n.endsWith(".pem") && n !== "audit.pub.pem");
    const keyName = pems.includes("result.pub.pem") ? "result.pub.pem" : pems.length === 1 ? pems[0] : null;
    if (keyName === null)
      throw new Fail("usage", pems.length ? "plusieurs clés données : donnez result.pub.pem" : "la clé publique de l'appareil (result.pub.pem) manque",
        pems.length ? "several keys given: give result.pub.pem" : "the appliance's public key (result.pub.pem) is missing");
    this.key = parsePem(this.files.get(keyName), keyName);
    this.keyId = hex(await sha256(this.key)).slice(0, 16);
    this.step("key", `Clé de résultat ${keyName} : identifiant ${this.keyId}. Comparez-le avec celui du procès-verbal de la cérémonie des clés.`,
      `Result key ${keyName}: key id ${this.keyId}. Compare it with the one in the key ceremony's minutes.`);
    // The proof: the one file that is none of the others.
    const known = (n) => n.endsWith(".sig") || n.endsWith(".pem") || n === "bundle.json" || n === "result.json" ||
      n === "rules.json" || n.endsWith(".commit.json") || n.endsWith(".reveal.json") || IGNORED.test(n);
    const proofs = names.filter((n) => !known(n));
    if (proofs.length !== 1)
      throw new Fail("usage", proofs.length ? `plusieurs fichiers pourraient être la preuve : ${proofs.join(", ")}` : "la preuve (le fichier de votre participation ou de votre ticket) manque",
        proofs.length ? `several files could be the proof: ${proofs.join(", ")}` : "the proof (the file of your entry or ticket) is missing");
    const name = proofs[0];
    const bytes = this.files.get(name);
    let doc;
    if (this.files.has(name + ".sig")) {
      await this.signed(name);
      doc = parseJson(bytes, name);
      this.signedProof = true;
    } else {
      this.signedProof = false;
      // An unsigned ticket proof (§5.B9 [M-404]: as `urne-verify BLOCKDIR --ticket-proof P` prints it
      // after the reveal, a JSON object of any layout); else the unsigned form of an inclusion proof,
      // one line of JSON Lines. Either stands only on the signed published output (§8.3 [M-400]).
      let whole = null;
      try { whole = parseJson(bytes, name); } catch (e) { if (!(e instanceof Fail)) throw e; }
      const isTicket = whole !== null && typeof whole === "object" && !Array.isArray(whole) && whole.format === "urne-ticket-proof";
      // Without the signed output it would stand on, nothing is verified: a usage mistake, as the
      // verifier's without --published [M-400].
      if (isTicket && !names.some((n) => n.endsWith(".commit.json")))
        throw new Fail("usage", `${name} n'a pas de signature : une preuve de ticket non signée ne vaut que par l'engagement publié et signé de son bloc (S.commit.json avec sa .sig), à donner aussi`,
          `${name} has no signature: an unsigned ticket proof holds only against its block's signed published commitment (S.commit.json with its .sig), to be given too`);
      if (!isTicket && !this.files.has("bundle.json") && !this.files.has("result.json"))
        throw new Fail("usage", `${name} n'a pas de signature : une preuve non signée ne vaut que par le résultat publié et signé (result.json ou bundle.json, avec sa .sig), à donner aussi`,
          `${name} has no signature: an unsigned proof holds only against the signed published result (result.json or bundle.json, with its .sig), to be given too`);
      if (isTicket) {
        this.info(`${name} : preuve de ticket non signée (dérivée après la révélation). Elle ne vaut que par l'engagement du bloc publié et signé, vérifié plus bas.`,
          `${name}: unsigned ticket proof (derived after the reveal). It stands only on the block's signed published commitment, checked below.`);
        return this.ticket(name, whole);
      }
      let text;
      try { text = utf8Decoder.decode(bytes); } catch (e) { text = null; }
      const line = text !== null && text.endsWith("\n") ? text.slice(0, -1) : text;
      if (line === null || line.includes("\n") || line.includes("\r") || line.trim() === "")
        throw new Fail("bad-signature", `${name}.sig manque, et ${name} n'est pas une preuve non signée (une seule ligne JSON)`,
          `${name}.sig is missing, and ${name} is not an unsigned proof (one JSON line)`);
      doc = parseJson(bytes, name);
      this.info(`${name} : preuve non signée (une ligne JSON). Elle ne vaut que par le résultat publié et signé, vérifié plus bas.`,
        `${name}: unsigned proof (one JSON line). It stands only on the signed published result, checked below.`);
    }
    const format = doc && typeof doc === "object" && !Array.isArray(doc) ? doc.format : undefined;
    if (format === "urne-ticket-proof") return this.ticket(name, doc);
    return this.draw(name, doc);
  }

  // §4.8, §8.3: an inclusion proof against the published draw.
  async draw(name, doc) {
    const pr = PROOF(doc, name);
    this.ok(`${name} se lit : participation du ${pr.day} (${pr.operation}, tentative ${pr.attempt})`,
      `${name} reads: entry of ${pr.day} (${pr.operation}, attempt ${pr.attempt})`);
    if (pr.result_key_id !== this.keyId)
      throw new Fail("inconsistent", `${name} nomme la clé ${pr.result_key_id}, pas la clé donnée ${this.keyId}`,
        `${name} names the key ${pr.result_key_id}, not the key given ${this.keyId}`);
    if (!equalBytes(await tagged("urne/v1/pseudonym", pr.salt, pr.account), pr.pseudonym))
      throw new Fail("commitment-mismatch", "le pseudonyme ne se recalcule pas à partir du compte et du sel",
        "the pseudonym does not recompute from the account and the salt");
    this.ok(`Le pseudonyme ${hex(pr.pseudonym).slice(0, 16)}… est celui du compte ${hex(pr.account)} (vérifiez que c'est le vôtre)`,
      `The pseudonym ${hex(pr.pseudonym).slice(0, 16)}… is that of account ${hex(pr.account)} (check it is yours)`);
    const c = pr.commitment;
    if (!await verifyInclusion(pr.leaf, c.leaves, concat(pr.pseudonym, new Uint8Array([pr.entries])), pr.path, c.root))
      throw new Fail("commitment-mismatch", "le chemin de preuve ne mène pas à la racine de l'engagement",
        "the audit path does not lead to the commitment's root");
    this.ok(`Votre ligne (${pr.entries} participation${pr.entries > 1 ? "s" : ""}) est la feuille ${pr.leaf} de la liste engagée de ${c.leaves} comptes (racine ${hex(c.root).slice(0, 16)}…)`,
      `Your line (${pr.entries} entr${pr.entries > 1 ? "ies" : "y"}) is leaf ${pr.leaf} of the committed list of ${c.leaves} accounts (root ${hex(c.root).slice(0, 16)}…)`);
    // The published draw: bundle.json or, without one, result.json (signature checked).
    const pubs = ["bundle.json", "result.json"].filter((n) => this.files.has(n));
    if (pubs.length === 0)
      throw new Fail("commitment-mismatch", "le résultat publié (result.json ou bundle.json, avec sa signature) manque : l'engagement n'est pas montré publié",
        "the published result (result.json or bundle.json, with its signature) is missing: the commitment is not shown to be published");
    const published = [];
    for (const pn of pubs) {
      const raw = await this.signed(pn);
      const b = parseVersioned(parseJson(raw, pn), pn, (v) => drawSchema(pn === "bundle.json" ? "bundle" : "result", v));
      if (b.result_key_id !== pr.result_key_id)
        throw new Fail("inconsistent", `${pn} nomme une autre clé de résultat que la preuve`, `${pn} names another result key than the proof`);
      for (const k of ["operation", "day", "attempt"])
        if (b[k] !== pr[k])
          throw new Fail("commitment-mismatch", `${k} de la preuve n'est pas celui de ${pn} : preuve d'un autre tirage`,
            `the proof's ${k} is not ${pn}'s: a proof of another draw`);
      if (!equalBytes(b.commitment.root, c.root) || b.commitment.leaves !== c.leaves || b.commitment.entries !== c.entries)
        throw new Fail("commitment-mismatch", `l'engagement de la preuve n'est pas celui de ${pn} : preuve d'un autre tirage`,
          `the proof's commitment is not ${pn}'s: a proof of another draw`);
      const origin = b.audit_checkpoint.split("\n")[0];
      if (b.audit_checkpoint.startsWith("urne-rehearsal/"))
        throw new Fail("rehearsal", `${pn} vient d'une répétition (${origin}) : RÉPÉTITION — SANS VALEUR, la preuve aussi`,
          `${pn} comes from a rehearsal (${origin}): REHEARSAL — NO VALUE, so does the proof`);
      this.ok(`${pn} : le tirage du ${b.day} (version ${b.version}) publie cet engagement`,
        `${pn}: the draw of ${b.day} (version ${b.version}) publishes this commitment`);
      if (b.unofficial_rules)
        this.warn(`${pn} : règlement non officiel (tirage d'essai ou de démonstration)`, `${pn}: unofficial rules (a test or demonstration draw)`);
      published.push([pn, b]);
    }
    if (published.length === 2) {
      const [[, x], [, y]] = published;
      for (const k of ["seed", "rules_sha256"])
        if (!equalBytes(x[k], y[k])) throw new Fail("inconsistent", `bundle.json et result.json ne sont pas le même tirage (${k})`, `bundle.json and result.json are not the same draw (${k})`);
    }
    // Where the proof's pseudonym is among the picks (§4.5, §4.7: rank 0 the winner, then the reserves).
    let outcome = null;
    for (const [pn, b] of published) {
      let found = { kind: "neither" };
      const picks = [b.winner, ...b.reserves];
      picks.forEach((pk, i) => {
        if (pk.rank !== i)
          throw new Fail("inconsistent", `${pn} : le rang ${pk.rank} est à la place ${i}`, `${pn}: rank ${pk.rank} in place ${i}`);
        const samePs = equalBytes(pk.pseudonym, pr.pseudonym), sameLeaf = pk.leaf === pr.leaf;
        if (samePs !== sameLeaf || (samePs && pk.entries !== pr.entries) || (samePs && pk.account && !equalBytes(pk.account, pr.account)))
          throw new Fail("inconsistent", `${pn} : le tirage au rang ${i} ne décrit pas la feuille ${pr.leaf} comme la preuve`,
            `${pn}: the pick of rank ${i} does not describe leaf ${pr.leaf} as the proof does`);
        if (samePs) found = i === 0 ? { kind: "winner", rank: 0, prize_cents: b.prize_cents } : { kind: "reserve", rank: i };
      });
      if (outcome !== null && (outcome.kind !== found.kind || outcome.rank !== found.rank))
        throw new Fail("inconsistent", "bundle.json et result.json ne désignent pas les mêmes gagnant et réserves",
          "bundle.json and result.json do not name the same winner and reserves");
      outcome = found;
    }
    const b = published[0][1];
    Object.assign(outcome, { day: b.day, operation: b.operation, attempt: b.attempt, account: hex(pr.account), reserves: b.reserves.length });
    this.info("Cette page ne refait pas le tirage : la sélection se recalcule avec le vérificateur complet (urne verify, verifier/urne_verify.py) sur le dossier publié. Un avis d'annulation publié plus tard annulerait ce tirage.",
      "This page does not redo the draw: the selection is recomputed by the full verifier (urne verify, verifier/urne_verify.py) on the published folder. A void notice published later would cancel this draw.");
    return outcome;
  }

  // §5.B9: a ticket proof against the block's commitment; after the reveal, the reveal too.
  async ticket(name, doc) {
    const pr = TICKET_PROOF(doc, name);
    const m = /^([a-z0-9][a-z0-9-]{0,63})\/(0|[1-9][0-9]*)\/([a-z0-9][a-z0-9-]{0,31})\/(0|[1-9][0-9]*)$/.exec(pr.block);
    if (!m || BigInt(m[4]) >= 2n ** 32n || BigInt(m[2]) >= 2n ** 64n)
      throw new Fail("malformed", `${name} : ${JSON.stringify(pr.block)} n'est pas un identifiant de bloc canonique`,
        `${name}: ${JSON.stringify(pr.block)} is not a canonical block id (§5.B2)`);
    this.ok(`${name} se lit : ticket n° ${pr.position} du bloc ${pr.block}`, `${name} reads: ticket ${pr.position} of block ${pr.block}`);
    if (pr.result_key_id !== this.keyId)
      throw new Fail("inconsistent", `${name} nomme la clé ${pr.result_key_id}, pas la clé donnée ${this.keyId}`,
        `${name} names the key ${pr.result_key_id}, not the key given ${this.keyId}`);
    const stem = pr.block.replace(/\//g, "_");
    const cn = stem + ".commit.json";
    if (!this.files.has(cn))
      throw new Fail("commitment-mismatch", `l'engagement publié du bloc (${cn}, avec sa signature) manque`,
        `the block's published commitment (${cn}, with its signature) is missing`);
    const c = parseVersioned(parseJson(await this.signed(cn), cn), cn, commitSchema);
    if (c.block !== pr.block || !equalBytes(c.outcomes_root, pr.outcomes_root) || c.block_size !== pr.block_size)
      throw new Fail("commitment-mismatch", `${name} : outcomes_root ou block_size n'est pas celui de l'engagement publié`,
        `${name}: outcomes_root or block_size is not the published commitment's`);
    if (c.audit_checkpoint.startsWith("urne-rehearsal/"))
      throw new Fail("rehearsal", `${cn} vient d'une répétition : RÉPÉTITION — SANS VALEUR, la preuve aussi`,
        `${cn} comes from a rehearsal: REHEARSAL — NO VALUE, so does the proof`);
    if (c.result_key_id !== this.keyId)
      throw new Fail("inconsistent", `${cn} nomme une autre clé de résultat que la clé donnée`, `${cn} names another result key than the key given`);
    this.ok(`${cn} : l'engagement du bloc (tentative ${c.attempt}, ${c.block_size} tickets) publie cette racine`,
      `${cn}: the block's commitment (attempt ${c.attempt}, ${c.block_size} tickets) publishes this root`);
    if (c.unofficial_rules)
      this.warn(`${cn} : règlement non officiel (bloc d'essai ou de démonstration)`, `${cn}: unofficial rules (a test or demonstration block)`);
    const row = pr.row;
    if (!row.startsWith(`${pr.position},`))
      throw new Fail("malformed", `${name} : la ligne ne commence pas par sa position`, `${name}: the row does not begin with its position`);
    if (!await verifyInclusion(pr.position, pr.block_size, utf8(row), pr.path, pr.outcomes_root))
      throw new Fail("commitment-mismatch", `${name} : le chemin de preuve ne mène pas à outcomes_root`, `${name}: the audit path does not lead to outcomes_root`);
    this.ok(`Votre ticket est la ligne ${pr.position} du bloc engagé : ${row}`, `Your ticket is row ${pr.position} of the committed block: ${row}`);
    if (!this.signedProof)
      this.ok(`${name} n'est pas signée : elle vaut par ${cn}, signé et vérifié ci-dessus, dont elle mène à la racine`,
        `${name} is unsigned: it stands on ${cn}, signed and checked above, whose root its path leads to`);
    // The row (§5.B6) and its prize (the commitment's tiers at the block's price).
    const f = row.split(",");
    const dec = /^(0|[1-9][0-9]*)$/;
    const tier = Number(f[1]);
    const grid = /^[A-Z]{18}$/;
    if (f.length !== 7 || !dec.test(f[1]) || !dec.test(f[2]) || !/^[A-Z]{3}$/.test(f[3]) || !grid.test(f[4]) || !grid.test(f[5]) || !grid.test(f[6]))
      throw new Fail("commitment-mismatch", `${name} : la ligne n'a pas la forme de tickets.csv`, `${name}: the row is not in the form of tickets.csv (§5.B6)`);
    const tierRow = c.tiers.find((x) => x.tier === tier);
    if (!tierRow || String(tierRow.prize_cents) !== f[2])
      throw new Fail("commitment-mismatch", `${name} : le gain ${f[2]} n'est pas celui du rang ${tier} dans l'engagement`,
        `${name}: the prize ${f[2]} is not that of tier ${tier} in the commitment`);
    const outcome = { kind: "ticket", block: pr.block, position: pr.position, tier, prize_cents: tierRow.prize_cents,
      offered: f[3], grids: [f[4], f[5], f[6]], revealed: false, recomputed: false };
    // The rules file, if given: its SHA-256 is the commitment's rules_sha256; its symbols name the letters.
    let symbols = null;
    if (this.files.has("rules.json")) {
      const rb = this.files.get("rules.json");
      if (!equalBytes(await sha256(rb), c.rules_sha256))
        throw new Fail("inconsistent", `rules.json n'est pas le règlement de l'engagement (SHA-256)`, `rules.json is not the commitment's rules file (SHA-256)`);
      const rules = parseJson(rb, "rules.json");
      symbols = J.list(J.string)(rules && rules.symbols, "rules.json.symbols");
      if (symbols.length < 6 || symbols.length > 26) J.bad("rules.json.symbols", "6 à 26 symboles", "6 to 26 symbols (§5.B1)");
      outcome.symbols = symbols;
      this.ok(`rules.json est le règlement de l'engagement (${symbols.length} symboles)`, `rules.json is the commitment's rules file (${symbols.length} symbols)`);
    }
    // The reveal (§5.B10 step 4, as far as one ticket goes).
    const rn = stem + ".reveal.json";
    if (!this.files.has(rn)) {
      this.info("Pas de révélation donnée : le ticket est celui engagé avant la vente ; après la révélation, la page recalcule ses grilles.",
        "No reveal given: the ticket is the one committed before the sale; after the reveal, the page recomputes its grids.");
      return outcome;
    }
    const r = parseVersioned(parseJson(await this.signed(rn), rn), rn, revealSchema);
    if (r.version !== c.version)
      throw new Fail("inconsistent", `${rn} : version ${r.version}, l'engagement est en version ${c.version}`, `${rn}: version ${r.version}, the commitment's is ${c.version}`);
    if (r.block !== c.block || !equalBytes(r.rules_sha256, c.rules_sha256) || r.unofficial_rules !== c.unofficial_rules)
      throw new Fail("inconsistent", `${rn} : block, rules_sha256 ou unofficial_rules n'est pas celui de l'engagement`, `${rn}: block, rules_sha256 or unofficial_rules is not the commitment's`);
    if (!equalBytes(r.seed_commitment, c.seed_commitment) || !equalBytes(r.outcomes_root, c.outcomes_root))
      throw new Fail("inconsistent", `${rn} : seed_commitment ou outcomes_root n'est pas celui de l'engagement`, `${rn}: seed_commitment or outcomes_root is not the commitment's`);
    if (r.result_key_id !== this.keyId)
      throw new Fail("inconsistent", `${rn} nomme une autre clé de résultat`, `${rn}: result_key_id is not the id of the key given`);
    checkSalesClose(rn, r, c);
    if (r.entropy.length < 32)
      throw new Fail("inconsistent", `${rn} : entropie de ${r.entropy.length} octets, moins de 32`, `${rn}: entropy of ${r.entropy.length} bytes, fewer than 32 (§5.B3)`);
    if (c.version === 2 && !equalBytes(await tagged("urne/v2/entropy-commitment", r.entropy), c.entropy_commitment))
      throw new Fail("draw-mismatch", `${rn} : l'entropie révélée n'est pas celle annoncée par l'engagement`, `${rn}: the revealed entropy is not the one the commitment's entropy_commitment names`);
    if (r.audit_checkpoint.startsWith("urne-rehearsal/"))
      throw new Fail("rehearsal", `${rn} vient d'une répétition : RÉPÉTITION — SANS VALEUR`, `${rn} comes from a rehearsal: REHEARSAL — NO VALUE`);
    const seed = c.version === 2
      ? await tagged("urne/v2/block-seed", c.block, c.rules_sha256, c.contribution, r.entropy)
      : await tagged("urne/v1/block-seed", c.block, c.rules_sha256, r.entropy);
    if (!equalBytes(await tagged("urne/v1/block-seed-commitment", seed), c.seed_commitment))
      throw new Fail("draw-mismatch", `bloc ${c.block} : la graine tirée de l'entropie révélée ne correspond pas à l'engagement`,
        `block ${c.block}: the seed from the revealed entropy does not match seed_commitment`);
    this.ok("La révélation correspond à l'engagement : même racine des tickets, et la graine recalculée de l'entropie révélée a l'empreinte engagée avant la vente",
      "The reveal matches the commitment: same outcomes root, and the seed recomputed from the revealed entropy has the fingerprint committed before the sale");
    outcome.revealed = true;
    if (symbols) {
      const want = await ticketRow(await tagged("urne/v1/block-grid-key", seed), pr.position, tier, symbols.length, f[2]);
      if (want !== row)
        throw new Fail("draw-mismatch", `bloc ${c.block} : les grilles recalculées de la graine ne sont pas celles du ticket (${want})`,
          `block ${c.block}: the grids recomputed from the seed are not the ticket's (${want})`);
      outcome.recomputed = true;
      this.ok("Les symboles proposés et les trois grilles du ticket se recalculent de la graine révélée, de sa position et de son rang",
        "The ticket's offered symbols and three grids recompute from the revealed seed, its position and its tier");
    } else {
      this.info("Grilles non recalculées : donnez aussi rules.json (le règlement du bloc) pour les recalculer.",
        "Grids not recomputed: give rules.json (the block's rules) too to recompute them.");
    }
    if (!equalBytes(r.seed, seed))
      throw new Fail("inconsistent", `${rn} : seed n'est pas celle qui découle de l'entropie`, `${rn}: seed is not the one derived from entropy`);
    this.info("Cette page ne refait pas le mélange du bloc entier : le vérificateur complet (urne verify) le recalcule.",
      "This page does not redo the whole block's shuffle: the full verifier (urne verify) recomputes it.");
    return outcome;
  }
}

// §6.1 urne's one time format, YYYY-MM-DDTHH:MM:SS.ffffffZ, a real date and time of day.
function oneTimeFormat(ts) {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})\.[0-9]{6}Z$/.exec(ts);
  if (!m) return false;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= days[mo - 1] && h <= 23 && mi <= 59 && s <= 59;
}
function checkSalesClose(rn, r, c) {
  const bad = (fr, en) => { throw new Fail("inconsistent", `${rn} : ${fr}`, `${rn}: ${en}`); };
  if (r.version === 1) {
    if (!oneTimeFormat(r.revealed_at)) bad("revealed_at n'est pas au format de l'appareil", "revealed_at is not in urne's time format (§6.1)");
    return;
  }
  for (const [k, ts] of [["sales_closed_at", r.sales_closed_at], ["revealed_at", r.revealed_at], ["generated_at", c.generated_at]])
    if (!oneTimeFormat(ts)) bad(`${k} n'est pas au format de l'appareil`, `${k} is not in urne's time format (§6.1)`);
  if (r.sales_closed_at > r.revealed_at) bad("la vente a fermé après la révélation", "the sales closed after the reveal");
  if (r.sales_closed_at < c.generated_at) bad("la vente a fermé avant la génération du bloc", "the sales closed before the block was generated");
}

// ---------------------------------------------------------------------------------------------
// The API and the page.

let selfTestResult = null;
const selfTestDone = (async () => {
  try { selfTestResult = await selfTest(URNE_VECTORS); } catch (e) {
    selfTestResult = { ok: false, failures: ["self-test error: " + e.message], count: 0 };
  }
  return selfTestResult;
})();

async function urneCheck(files) {
  const st = await selfTestDone;
  if (!st.ok) {
    return { ok: false, class: "self-test", outcome: null, keyId: null, steps: [{ status: "fail",
      fr: `L'auto-test de la page a échoué : elle refuse de vérifier (${st.failures.join("; ")})`,
      en: `The page's self-test failed: it refuses to check (${st.failures.join("; ")})` }] };
  }
  const steps = [{ status: "ok", fr: `Auto-test réussi : ${st.count} vecteurs Ed25519 (dont la contrefaçon à clé identité) et les calculs de référence`,
    en: `Self-test passed: ${st.count} Ed25519 vectors (the identity-key forgery among them) and the reference computations` }];
  let ch = null;
  try {
    ch = new Checker(files);
    ch.steps = steps;
    const outcome = await ch.run();
    return { ok: true, class: null, outcome, keyId: ch.keyId, steps };
  } catch (e) {
    const f = e instanceof Fail ? e : new Fail("usage", `erreur inattendue : ${e && e.message}`, `unexpected error: ${e && e.message}`);
    steps.push({ status: "fail", fr: f.fr, en: f.en });
    return { ok: false, class: f.cls, outcome: null, keyId: ch ? ch.keyId || null : null, steps };
  }
}
window.urneCheck = urneCheck;

// ---- The page: file inputs, drag and drop, the report in French or English. ----

const UI = {
  fr: {
    title: "Vérifier mon tirage ou mon ticket", lang: "English", print: "Imprimer", clear: "Effacer",
    pick: "Choisir les fichiers…", drop: "… ou déposez-les ici",
    files: "Fichiers donnés", none: "Aucun fichier.", check: "Vérifier",
    selftest: "Auto-test en cours…", selfok: "Auto-test réussi : la page est prête.",
    selfbad: "Auto-test échoué : cette page refuse de vérifier.",
    verdict_ok: "Vérification réussie", verdict_bad: "Vérification refusée", klass: "classe",
    help: "Donnez : votre preuve (et sa signature .sig si elle en a une), le résultat publié (result.json ou bundle.json avec sa .sig ; pour un ticket : l'engagement du bloc S.commit.json, puis après la révélation S.reveal.json et rules.json, chacun avec sa .sig) et la clé publique de l'appareil result.pub.pem.",
  },
  en: {
    title: "Check my draw or my ticket", lang: "Français", print: "Print", clear: "Clear",
    pick: "Choose the files…", drop: "… or drop them here",
    files: "Files given", none: "No file.", check: "Check",
    selftest: "Self-test running…", selfok: "Self-test passed: the page is ready.",
    selfbad: "Self-test failed: this page refuses to check.",
    verdict_ok: "Check passed", verdict_bad: "Check refused", klass: "class",
    help: "Give: your proof (and its .sig signature if it has one), the published result (result.json or bundle.json with its .sig; for a ticket: the block's commitment S.commit.json, then after the reveal S.reveal.json and rules.json, each with its .sig) and the appliance's public key result.pub.pem.",
  },
};

function conclusion(o, lang) {
  const fr = lang === "fr";
  if (o.kind === "winner")
    return fr ? `Cette participation a GAGNÉ le tirage du ${o.day} (${euros(o.prize_cents, lang)}).`
      : `This entry WON the draw of ${o.day} (${euros(o.prize_cents, lang)}).`;
  if (o.kind === "reserve")
    return fr ? `Cette participation est la réserve n° ${o.rank} du tirage du ${o.day} (sur ${o.reserves}).`
      : `This entry is reserve number ${o.rank} of the draw of ${o.day} (of ${o.reserves}).`;
  if (o.kind === "neither")
    return fr ? `Cette participation était bien dans le tirage du ${o.day}, mais n'a été ni gagnante ni réserve.`
      : `This entry was in the draw of ${o.day}, but is neither the winner nor a reserve.`;
  if (o.tier === 0)
    return fr ? `Ticket n° ${o.position} du bloc ${o.block} : perdant (aucun gain).`
      : `Ticket ${o.position} of block ${o.block}: a losing ticket (no prize).`;
  return fr ? `Ticket n° ${o.position} du bloc ${o.block} : GAGNANT, ${o.tier} symboles trouvés, gain ${euros(o.prize_cents, lang)}.`
    : `Ticket ${o.position} of block ${o.block}: a WINNING ticket, ${o.tier} matches, prize ${euros(o.prize_cents, lang)}.`;
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

if (typeof document !== "undefined" && document.getElementById("app")) {
  let lang = "fr";
  const given = new Map();
  let last = null;
  const $ = (id) => document.getElementById(id);
  function render() {
    const t = UI[lang];
    document.documentElement.lang = lang;
    document.title = "urne — " + t.title;
    $("title").textContent = t.title;
    $("lang").textContent = t.lang;
    $("print").textContent = t.print;
    $("clear").textContent = t.clear;
    $("pick-label").textContent = t.pick;
    $("drop").textContent = t.drop;
    $("help").textContent = t.help;
    $("files-title").textContent = t.files;
    $("selftest").textContent = selfTestResult === null ? t.selftest : selfTestResult.ok ? t.selfok : t.selfbad;
    $("selftest").className = selfTestResult === null ? "pending" : selfTestResult.ok ? "good" : "bad";
    const list = $("files");
    list.replaceChildren();
    if (given.size === 0) list.append(el("li", "muted", t.none));
    for (const [n, b] of [...given.entries()].sort()) list.append(el("li", null, `${n} (${b.length} ${lang === "fr" ? "o" : "B"})`));
    const out = $("report");
    out.replaceChildren();
    if (last) {
      const v = el("div", last.ok ? "verdict good" : "verdict bad");
      v.id = "verdict";
      v.append(el("strong", null, last.ok ? t.verdict_ok : t.verdict_bad));
      if (!last.ok) v.append(el("span", "class", ` (${t.klass} : ${last.class})`));
      out.append(v);
      if (last.ok && last.outcome) {
        const c = el("p", "conclusion " + last.outcome.kind + (last.outcome.kind === "ticket" && last.outcome.tier ? " won" : ""), conclusion(last.outcome, lang));
        c.id = "conclusion";
        out.append(c);
        if (last.outcome.kind === "ticket") out.append(gridsOf(last.outcome));
      }
      const ol = el("ol", "steps");
      for (const s of last.steps) ol.append(el("li", s.status, (s.status === "fail" ? "✗ " : s.status === "ok" ? "✓ " : s.status === "warn" ? "⚠ " : s.status === "key" ? "→ " : "• ") + s[lang]));
      out.append(ol);
    }
  }
  function gridsOf(o) {
    const box = el("div", "grids");
    o.grids.forEach((g, c) => {
      const fig = el("figure", "grid");
      const sym = o.offered[c];
      const name = o.symbols ? ` (${o.symbols[sym.charCodeAt(0) - 65]})` : "";
      fig.append(el("figcaption", null, (lang === "fr" ? `Grille ${c + 1}, symbole choisi ${sym}` : `Grid ${c + 1}, chosen symbol ${sym}`) + name));
      const tb = el("table");
      for (let r = 0; r < 3; r++) {
        const tr = el("tr");
        for (let k = 0; k < 6; k++) { const x = g[6 * r + k]; tr.append(el("td", x === sym ? "hit" : null, x)); }
        tb.append(tr);
      }
      fig.append(tb);
      box.append(fig);
    });
    return box;
  }
  async function check() {
    if (given.size === 0) { last = null; render(); return; }
    last = await urneCheck(Object.fromEntries(given));
    render();
  }
  async function add(fileList) {
    for (const f of fileList) given.set(f.name, new Uint8Array(await f.arrayBuffer()));
    await check();
  }
  $("pick").addEventListener("change", (e) => add(e.target.files));
  $("lang").addEventListener("click", () => { lang = lang === "fr" ? "en" : "fr"; render(); });
  $("print").addEventListener("click", () => window.print());
  $("clear").addEventListener("click", () => { given.clear(); last = null; $("pick").value = ""; render(); });
  for (const ev of ["dragenter", "dragover"])
    document.addEventListener(ev, (e) => { e.preventDefault(); $("drop").classList.add("over"); });
  document.addEventListener("dragleave", () => $("drop").classList.remove("over"));
  document.addEventListener("drop", (e) => { e.preventDefault(); $("drop").classList.remove("over"); add(e.dataTransfer.files); });
  render();
  selfTestDone.then(() => { render(); if (!selfTestResult.ok) { last = { ok: false, class: "self-test", steps: [{ status: "fail", fr: selfTestResult.failures.join("; "), en: selfTestResult.failures.join("; ") }] }; render(); } });
}
