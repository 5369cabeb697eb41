// verifier/web/test/test.mjs: the player's page (verifier/web/urne-check.html) in Debian's headless
// Chromium, opened from file://, driven by playwright-core. Run by verifier/web/test.sh.
//
//   node test.mjs [--screenshots DIR]    (DIR: where to write player-page-valid.png and
//                                         player-page-refused.png; docs/ of the repository)
//
// Checks: the page's CSP (present, hashes of its one script and one style, nothing inline allowed
// otherwise) and that Chromium enforces it; the self-test passes; every case of fixtures.json and
// every draw-proof-* and block-proof-* vector of tests/vectors/ gives its expected verdict through
// window.urneCheck (the published folder given only when the vector passes --published; a day's
// file of every proof, never accepted); the file input, drag and drop, the language switch and the print style; a
// test build with a wrong self-test vector refuses to check; no network request is ever made.
import { chromium } from "playwright-core";
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..", "..");
// URNE_CHECK_PAGE: another build of the page to test (mutation checks); default the committed page.
const pagePath = process.env.URNE_CHECK_PAGE || path.join(root, "verifier", "web", "urne-check.html");
const args = process.argv.slice(2);
const shotsDir = args[0] === "--screenshots" ? path.resolve(args[1]) : null;

let failures = 0, passed = 0;
function check(cond, what) {
  if (cond) { passed++; return; }
  failures++;
  console.log(`  FAIL  ${what}`);
}

// ---- 1. The CSP, read from the file. ----
const html = fs.readFileSync(pagePath, "utf8");
const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
check(csp !== null, "the page has a Content-Security-Policy meta element");
const policy = csp ? csp[1] : "";
const directives = Object.fromEntries(policy.split(";").map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
check(JSON.stringify(directives["default-src"]) === `["'none'"]`, "default-src 'none'");
check(JSON.stringify(directives["form-action"]) === `["'none'"]`, "form-action 'none'");
check(JSON.stringify(directives["base-uri"]) === `["'none'"]`, "base-uri 'none'");
check(!policy.includes("unsafe"), "no 'unsafe-*' source in the CSP");
check(!("connect-src" in directives) && !("img-src" in directives), "no connect-src or img-src: default-src 'none' applies");
const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)];
const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)];
check(scripts.length === 1 && (html.match(/<script/g) || []).length === 1, "exactly one script element, inline");
check(styles.length === 1 && (html.match(/<style/g) || []).length === 1, "exactly one style element");
const b64 = (s) => createHash("sha256").update(s, "utf8").digest("base64");
check(scripts.length === 1 && JSON.stringify(directives["script-src"]) === JSON.stringify([`'sha256-${b64(scripts[0][1])}'`]),
  "script-src is exactly the SHA-256 of the inline script");
check(styles.length === 1 && JSON.stringify(directives["style-src"]) === JSON.stringify([`'sha256-${b64(styles[0][1])}'`]),
  "style-src is exactly the SHA-256 of the inline style");
check(!/\s(on[a-z]+|style|src|href)=/i.test(html.replace(scripts[0]?.[1] ?? "", "")), "no event handler, style, src or href attribute");

// ---- The cases. ----
const fixtures = JSON.parse(fs.readFileSync(path.join(here, "fixtures.json"), "utf8")).cases;
const vecDir = path.join(root, "tests", "vectors");
// A vector's files are given to the page as its command line gives them to the verifier: the
// key, the proof, and the published folder's files only when the vector passes --published (an
// unsigned proof without them is a usage mistake, §8.3 [M-400]).
// The file of every proof of a day (§4.8.1 [M-401], a .jsonl of several lines) is the full
// verifier's: the page takes one proof, and only checks that it never accepts such a file.
const ALL_FILE = (v) => v.args.path.endsWith(".jsonl") && /\n./.test(v.files[v.args.path].utf8 ?? "");
const vectorCases = [], allFileVectors = [];
for (const n of fs.readdirSync(vecDir).filter((n) => /^(draw|block)-proof-.*\.json$/.test(n)).sort()) {
  const v = JSON.parse(fs.readFileSync(path.join(vecDir, n), "utf8"));
  const given = new Set([v.args.keys, v.args.published].filter(Boolean));
  const files = {};
  for (const [p, e] of Object.entries(v.files)) {
    const parts = p.split("/"), b = parts.pop();
    if (b === "audit.pub.pem" || (parts.length && !given.has(parts[0]))) continue;
    files[b] = e;
  }
  const ok = v.expect === "valid";
  (ALL_FILE(v) ? allFileVectors : vectorCases).push({ name: "vector " + n, files, expect: ok ? { ok } : { ok, class: v.expect } });
}
check(vectorCases.length >= 30, `the proof vectors of tests/vectors/ are found (${vectorCases.length})`);
check(vectorCases.some((c) => /^vector block-proof-.*unsigned/.test(c.name) && c.expect.ok) &&
  vectorCases.some((c) => /^vector block-proof-.*unsigned/.test(c.name) && c.expect.class === "usage"),
  "the unsigned ticket proof vectors are among them");
check(vectorCases.some((c) => c.expect.ok) && fixtures.some((c) => !c.expect.ok), "valid and refused cases both present");

const browser = await chromium.launch({
  executablePath: process.env.URNE_CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
const context = await browser.newContext({ viewport: { width: 1000, height: 900 }, locale: "fr-FR" });
const requests = [];
const errors = [];
context.on("request", (r) => requests.push(r.url()));
async function open(file) {
  const page = await context.newPage();
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction(() => document.getElementById("selftest").className !== "pending", null, { timeout: 20000 });
  return page;
}
// Files of a case, to the page: {name: {utf8} | {hex}} -> bytes or text.
async function urneCheck(page, files) {
  return page.evaluate(async (files) => {
    const f = {};
    for (const [n, e] of Object.entries(files))
      f[n] = "hex" in e ? Uint8Array.from(e.hex.match(/../g) || [], (h) => parseInt(h, 16)) : e.utf8;
    return window.urneCheck(f);
  }, files);
}
function toPayloads(files) {
  return Object.entries(files).map(([name, e]) => ({
    name, mimeType: "application/octet-stream",
    buffer: "hex" in e ? Buffer.from(e.hex, "hex") : Buffer.from(e.utf8, "utf8"),
  }));
}

const t0 = Date.now();
const page = await open(pagePath);
check(await page.$eval("#selftest", (e) => e.className) === "good", "the self-test passes at load");

// ---- 2. Every case through window.urneCheck. ----
for (const c of [...fixtures, ...vectorCases]) {
  const r = await urneCheck(page, c.files);
  const e = c.expect;
  const last = r.steps[r.steps.length - 1];
  let good = r.ok === e.ok && (e.ok ? r.class === null : r.class === e.class);
  if (e.ok && r.ok) {
    for (const k of ["kind", "rank", "tier", "prize_cents", "revealed", "recomputed"])
      if (k in e && e[k] !== null && r.outcome[k] !== e[k]) good = false;
    if (e.kind === "neither" && r.outcome.rank !== undefined) good = false;
  }
  if (e.message && !(last && last.en.includes(e.message))) good = false;
  if (!r.ok && !(last && last.status === "fail")) good = false;
  check(good, `${c.name}: expected ${JSON.stringify(e)}, got ok=${r.ok} class=${r.class} ` +
    `outcome=${JSON.stringify(r.outcome)} last=${last && last.en}`);
}

{
  const u = await urneCheck(page, fixtures.find((c) => c.name === "block-v2-unsigned-ticket-revealed").files);
  check(u.ok && u.steps.some((s) => s.status === "info" && s.en.includes("unsigned ticket proof")) &&
    u.steps.some((s) => s.status === "ok" && /is unsigned: it stands on .*\.commit\.json, signed and checked above/.test(s.en)) &&
    !u.steps.some((s) => /Signature of ticket\.json/.test(s.en)),
  `an unsigned ticket proof: its steps say it is unsigned and stands on the signed commitment (${JSON.stringify(u.steps.map((s) => s.en))})`);
}
for (const c of allFileVectors) {
  const r = await urneCheck(page, c.files);
  check(!r.ok, `${c.name} (the file of every proof of a day, for urne verify): the page does not accept it (got ${r.class})`);
}

// ---- 3. The strict checks are what refuses the forgery: Chromium's own verify, for the record. ----
const webcryptoAcceptsForgery = await page.evaluate(async () => {
  const a = new Uint8Array(32); a[0] = 1;
  const sig = new Uint8Array(64); sig[0] = 1;
  try {
    const k = await crypto.subtle.importKey("raw", a, { name: "Ed25519" }, false, ["verify"]);
    return await crypto.subtle.verify({ name: "Ed25519" }, k, sig, new TextEncoder().encode("any message"));
  } catch (e) { return "error: " + e.message; }
});
console.log(`  note  Chromium's WebCrypto alone accepts the identity-key forgery: ${webcryptoAcceptsForgery}`);

// ---- 4. The page itself: file input, language, print style, drag and drop, screenshots. ----
const winner = fixtures.find((c) => c.name === "draw-winner-signed");
const forgery = fixtures.find((c) => c.name === "draw-identity-key-forgery");
const ticket = fixtures.find((c) => c.name === "block-v2-tier-5-revealed");
await page.setInputFiles("#pick", toPayloads(winner.files));
await page.waitForSelector("#verdict");
check((await page.textContent("#conclusion")).includes("a GAGNÉ le tirage du 2018-12-22"), "the file input: the winner, in French");
await page.click("#lang");
check((await page.textContent("#conclusion")).includes("This entry WON the draw of 2018-12-22"), "the language switch: English");
check(await page.evaluate(() => document.documentElement.lang) === "en", "the document's language follows the switch");
await page.click("#lang");
await page.emulateMedia({ media: "print" });
check(await page.$eval("#inputs", (e) => getComputedStyle(e).display) === "none", "printed: the inputs are hidden");
check(await page.$eval("#conclusion", (e) => getComputedStyle(e).display) !== "none", "printed: the conclusion is shown");
if (shotsDir) await page.screenshot({ path: path.join(shotsDir, "player-page-valid.png"), fullPage: true });
await page.emulateMedia({ media: "screen" });
await page.click("#clear");
check(await page.$("#verdict") === null, "clear empties the report");
// Drag and drop: files dropped on the page.
await page.evaluate((files) => {
  const dt = new DataTransfer();
  for (const [n, e] of Object.entries(files))
    dt.items.add(new File(["hex" in e ? Uint8Array.from(e.hex.match(/../g) || [], (h) => parseInt(h, 16)) : e.utf8], n));
  document.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
}, ticket.files);
await page.waitForSelector("#verdict");
check((await page.textContent("#conclusion")).includes("GAGNANT, 5 symboles trouvés"), "drag and drop: the winning ticket");
check(await page.$$eval(".grid td.hit", (t) => t.length) === 15, "the ticket's three grids show the chosen symbol 5 times each");
await page.click("#clear");
await page.setInputFiles("#pick", toPayloads(forgery.files));
await page.waitForSelector("#verdict.bad");
check((await page.textContent("#verdict")).includes("bad-signature"), "the forgery is refused on the page (bad-signature)");
if (shotsDir) await page.screenshot({ path: path.join(shotsDir, "player-page-refused.png"), fullPage: true });

// ---- 5. Chromium enforces the CSP: a connection is refused before any request. ----
const errorsBefore = errors.length;
const blocked = await page.evaluate(async () => {
  const seen = [];
  document.addEventListener("securitypolicyviolation", (e) => seen.push(e.violatedDirective));
  let refused = false;
  try { await fetch("http://127.0.0.1:9/x"); } catch (e) { refused = true; }
  await new Promise((r) => setTimeout(r, 100));
  return { refused, seen };
});
check(blocked.refused && blocked.seen.some((d) => d.startsWith("connect-src")), `the CSP refuses a connection (${JSON.stringify(blocked)})`);
check(errors.slice(errorsBefore).every((m) => m.includes("Content Security Policy")), "the refused connection is reported as a CSP violation");
errors.length = errorsBefore;                                   // those are this test's own

// ---- 6. A test build whose self-test has a wrong vector refuses to check. ----
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "urne-check-"));
const broken = path.join(tmp, "urne-check-broken.html");
execFileSync("python3", [path.join(root, "verifier", "web", "build.py"), "--out", broken, "--break-self-test"], { stdio: "ignore" });
const bpage = await open(broken);
check(await bpage.$eval("#selftest", (e) => e.className) === "bad", "the broken build's self-test fails at load");
const br = await urneCheck(bpage, winner.files);
check(!br.ok && br.class === "self-test" && br.steps[0].en.includes("test-build-wrong-vector"),
  `the broken build refuses to check (${br.class}: ${br.steps[0] && br.steps[0].en})`);
check((await bpage.textContent("#report")).includes("test-build-wrong-vector"), "the broken build says why on the page");
await bpage.close();
fs.rmSync(tmp, { recursive: true, force: true });

// ---- 7. No request but the page files themselves. ----
const foreign = requests.filter((u) => !(u === pathToFileURL(pagePath).href || u === pathToFileURL(broken).href));
check(foreign.length === 0, `no network request (saw ${JSON.stringify(foreign)})`);
check(errors.length === 0, `no page error (${JSON.stringify(errors)})`);

await browser.close();
const secs = ((Date.now() - t0) / 1000).toFixed(1);
console.log(`web test: ${passed} passed, ${failures} failed (${fixtures.length} fixtures, ${vectorCases.length} vectors + ${allFileVectors.length} day files, ${secs} s in Chromium)`);
process.exit(failures ? 1 : 0);
