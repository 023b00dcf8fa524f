// A game's fair deal at the table (docs/guides/fair-deals.md): the commitment the server published before the first
// card (short, the whole of it in the panel's details with the seeds and this seat's own seed), and once the game is
// over the page's own check of the revealed secret against it, with WebCrypto's SHA-256 over the bytes the scheme
// names (deals/scheme.py):
//
//     commitment = SHA-256(scheme 0x00 subject 0x00 game 0x00 secret)   (64 hex characters)
//
// with `game` the room's game ("soker") and the secret's 32 bytes. The panel then shows "Deal verified" (or says it is
// not), the commitment, the secret and the seeds, and a button that saves the room's whole replay as
// `kickoff replay --room ID --save FILE` writes it, with the command that deals and plays it again: kickoff verify.

import { fill, h } from "./dom.js";

export const SCHEME = "kickoff-deal-1"; // the scheme this page checks
const SHORT = 12; // the commitment's characters shown during play

/** A seat's own seed for the deal: 16 hex characters from the browser's cryptographic generator. */
export function newSeatSeed() {
  return hexOf(crypto.getRandomValues(new Uint8Array(8)));
}

function hexOf(bytes) {
  return [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * The page's check of a revealed deal: {ok: true} when SHA-256(scheme 0 subject 0 game 0 secret) is the commitment,
 * {ok: false} when it is not, {ok: null, why} when this page cannot tell (another scheme, a browser without WebCrypto
 * here: a page not served over HTTPS or from this machine).
 */
export async function checkDeal(deal, game) {
  const { scheme = "", subject = "", commitment = "", secret = "" } = deal || {};
  if (scheme !== SCHEME) return { ok: null, why: `this page checks the scheme ${SCHEME}, not ${scheme || "none"}` };
  if (!globalThis.crypto?.subtle) return { ok: null, why: "this browser offers no SHA-256 on a page not served over HTTPS" };
  if (!/^[0-9a-f]{64}$/i.test(secret) || [scheme, subject, game].some((part) => part.includes("\0"))) return { ok: false };
  const head = new TextEncoder().encode(`${scheme}\0${subject}\0${game}\0`);
  const bytes = new Uint8Array(head.length + 32);
  bytes.set(head);
  bytes.set(secret.match(/../g).map((pair) => parseInt(pair, 16)), head.length);
  const digest = hexOf(await crypto.subtle.digest("SHA-256", bytes));
  return { ok: digest === commitment.toLowerCase() };
}

/** The file a room's replay is saved to, and the command that checks it. */
export const replayFileName = (roomId) => `kickoff-replay-${roomId}.json`;
export const verifyCommand = (roomId) => `kickoff verify ${replayFileName(roomId)}`;

/**
 * The table's deal panel. `update({deal, game, mySeed})` draws it again (deal: Room.deal as JSON, or null for a room
 * made before fair deals: the panel hides); `save()`: the room's whole replay (GetReplayResponse's JSON), saved when
 * the button is pressed.
 */
export function dealPanel(roomId, save) {
  const s = { deal: null, game: "", mySeed: "", checked: "", verdict: null, saving: false };
  const body = h("div", { class: "deal-body" });
  const saved = h("p", { class: "deal-saved", testid: "deal-saved", role: "status" });
  const element = h(
    "section",
    { class: "panel deal", testid: "deal", "aria-labelledby": "deal-h", hidden: true },
    h("h2", { id: "deal-h" }, "Fair deal"),
    body,
    saved,
  );

  const facts = (rows) =>
    h(
      "dl",
      { class: "deal-facts", testid: "deal-facts" },
      rows.filter(Boolean).flatMap(([term, value, testid]) => [h("dt", {}, term), h("dd", { testid }, value)]),
    );

  function seedRows() {
    const seeds = s.deal.seeds || [];
    return [
      s.mySeed ? ["Your seat's seed", h("code", {}, s.mySeed), "deal-my-seed"] : null,
      ["Seeds", seeds.length ? h("code", {}, seeds.map((seed) => seed || "(none)").join(" ")) : "fixed when the game starts", "deal-seeds"],
    ];
  }

  function draw() {
    const deal = s.deal;
    element.hidden = !deal?.commitment;
    if (element.hidden) return;
    const commitment = deal.commitment;
    if (!deal.secret) {
      fill(
        body,
        h(
          "p",
          { testid: "deal-commitment", data: { commitment } },
          "The deal is committed to ",
          h("code", { title: commitment }, `${commitment.slice(0, SHORT)}…`),
          "; the secret is shown when the game is over.",
        ),
        h(
          "details",
          {},
          h("summary", {}, "The whole commitment and the seeds"),
          facts([["Commitment", h("code", {}, commitment), "deal-commitment-full"], ...seedRows(), ["Scheme", deal.scheme || "", null]]),
        ),
      );
      return;
    }
    const verdict = s.checked === deal.secret ? s.verdict : null;
    const text =
      verdict === null
        ? "Checking the deal…"
        : verdict.ok === true
          ? "Deal verified"
          : verdict.ok === false
            ? "Deal NOT verified: the secret does not match the commitment"
            : `Deal not checked here: ${verdict.why}`;
    const state = verdict === null ? "checking" : verdict.ok === true ? "verified" : verdict.ok === false ? "failed" : "unchecked";
    fill(
      body,
      h("p", { class: `deal-verdict ${state}`, testid: "deal-verdict", data: { state } }, text),
      facts([
        ["Commitment", h("code", {}, commitment), "deal-commitment-full"],
        ["Secret", h("code", {}, deal.secret), "deal-secret"],
        ...seedRows(),
        ["Scheme", deal.scheme || "", null],
        ["Subject", h("code", {}, deal.subject || ""), null],
      ]),
      h(
        "p",
        {},
        h("button", { type: "button", testid: "deal-download", disabled: s.saving, onclick: download }, "Download the replay file"),
        " and deal the whole game again through the engines: ",
        h("code", { testid: "deal-command" }, verifyCommand(roomId)),
      ),
    );
  }

  async function check() {
    const secret = s.deal?.secret;
    if (!secret || s.checked === secret) return;
    s.checked = secret;
    s.verdict = null;
    const verdict = await checkDeal(s.deal, s.game).catch((error) => ({ ok: null, why: String(error.message || error) }));
    if (s.checked !== secret) return; // (another secret came meanwhile: its own check draws it)
    s.verdict = verdict;
    draw();
  }

  async function download() {
    s.saving = true;
    draw();
    saved.textContent = "Fetching the replay…";
    try {
      const whole = await save();
      const url = URL.createObjectURL(new Blob([`${JSON.stringify(whole, null, 1)}\n`], { type: "application/json" }));
      const link = h("a", { href: url, download: replayFileName(roomId), hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      saved.textContent = `Saved as ${replayFileName(roomId)} (${whole.steps?.length || 0} versions).`;
    } catch (error) {
      saved.textContent = `The replay could not be fetched: ${error.text || error.message || error}`;
    } finally {
      s.saving = false;
      draw();
    }
  }

  return {
    element,
    update({ deal, game, mySeed }) {
      s.deal = deal?.commitment ? { ...deal } : null;
      s.game = game || s.game;
      s.mySeed = mySeed || "";
      draw();
      check();
    },
  };
}
