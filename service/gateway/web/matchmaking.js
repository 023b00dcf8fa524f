// "Play now": a game's queue joined with one click, and the table found taken at once. The person is signed in as
// this browser's guest if they are not yet (session.js), a ticket is made (POST /v1/tickets) and followed (its event
// stream, read with fetch because it takes the access token: stream.js), the seat found is taken up as soon as the
// ticket is proposed (the person is at the page and asked to play), and once the ticket is matched the page goes to
// the table with the ticket's seat token, kept like any seat this tab holds (api.js seatTokens).
//
// The search is the page's, not a view's: it goes on while the person looks at another view, and a reload of the tab
// picks it up again (the ticket's id is kept in sessionStorage). One search at a time.

import { api, Problem, seatTokens } from "./api.js";
import { asPlayer, currentSession, myPlayerId, onSessionChange, signInAsGuest } from "./session.js";
import { readEvents } from "./stream.js";

const KEY = "kickoff:search";
const RETRY_MS = [500, 1000, 2000, 5000, 10000]; // waits before coming back to a broken stream, one after another
const ENDED = new Set(["matched", "cancelled", "expired", "failed"]);

let search = null;
const listeners = new Set();

/**
 * The search in progress, or how the last one ended (null: none): {game, title, phase, ticketId, ticket (the
 * ticket as last heard), message, startedAt (this browser's clock), cancelling}. Its phase is "starting" (signing in,
 * joining the queue), then the ticket's status ("forming", "searching", "proposed", "matched", "cancelled",
 * "expired"), or "failed" (the search could not start, or its ticket was lost).
 */
export function currentSearch() {
  return search;
}

/** Whether a search is going on (`s`: that one). */
export function searching(s = search) {
  return Boolean(s) && !ENDED.has(s.phase);
}

/** Calls `listener(search)` whenever the search changes; returns its remover. */
export function onSearchChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function publish() {
  listeners.forEach((listener) => listener(search));
}

function problemText(error) {
  return error instanceof Problem ? error.text : String(error?.message || error);
}

function phaseOf(ticket) {
  return String(ticket?.status || "").replace(/^TICKET_STATUS_/, "").toLowerCase() || "searching";
}

function begin(game, title, fields = {}) {
  stop(search);
  search = {
    game,
    title,
    phase: "starting",
    ticketId: "",
    ticket: null,
    version: 0, // the ticket's, as last heard
    message: "",
    startedAt: Date.now(),
    player: "", // whose search it is (once signed in)
    takenUp: "", // the room whose seat was taken up
    cancelling: false,
    cancelWanted: false,
    controller: null, // aborts the stream
    ...fields,
  };
  publish();
  return search;
}

/** Keeps a live search's ticket in this tab (a reload follows it again); forgets an ended one. */
function keep(s) {
  if (s.ticketId && searching(s)) {
    const kept = { ticketId: s.ticketId, game: s.game, title: s.title, startedAt: s.startedAt, player: s.player };
    sessionStorage.setItem(KEY, JSON.stringify(kept));
  } else sessionStorage.removeItem(KEY);
}

function stop(s) {
  s?.controller?.abort();
}

function fail(s, message) {
  if (search !== s) return;
  s.phase = "failed";
  s.message = message;
  stop(s);
  keep(s);
  publish();
}

// -- starting and ending -------------------------------------------------------------------------------------------

/** Joins `game`'s queue (its table sizes: any the game takes) as the signed-in player, signing in as a guest named
 * `name` first if nobody is; then follows the ticket to its table. */
export async function playNow(game, title = game, name = "") {
  if (searching()) return;
  const s = begin(game, title);
  try {
    if (!currentSession()) {
      s.message = "Signing in as a guest…";
      publish();
      await signInAsGuest(name);
    }
    if (search !== s) return;
    s.player = myPlayerId();
    s.message = "";
    let ticket;
    try {
      ticket = (await asPlayer((token) => api.enqueue({ game }, token))).ticket;
    } catch (error) {
      if (!(error instanceof Problem && error.reason === "already_queued")) throw error;
      ticket = await liveTicket(game); // this player's ticket for the game already: another tab's, or an earlier visit's
      if (!ticket) throw error;
    }
    if (search !== s) return;
    s.ticketId = ticket.ticketId;
    apply(s, ticket);
    if (s.cancelWanted) cancelSearch();
    follow(s);
  } catch (error) {
    fail(s, `Play now did not start: ${problemText(error)}`);
  }
}

async function liveTicket(game) {
  const answer = await asPlayer((token) => api.myTickets(token));
  return (answer.tickets || []).find((ticket) => ticket.game === game) || null;
}

/** Ends the search: its ticket is cancelled (it leaves the queue, or the table found). */
export async function cancelSearch() {
  const s = search;
  if (!searching(s)) return;
  if (!s.ticketId) {
    s.cancelWanted = true; // (the ticket is being made: cancelled once it is)
    return;
  }
  s.cancelling = true;
  publish();
  try {
    apply(s, (await asPlayer((token) => api.cancelTicket(s.ticketId, token))).ticket);
  } catch (error) {
    // (room_being_made: everyone took their seat up, the stream brings the table in a moment)
    if (search === s) s.message = `The search could not be cancelled: ${problemText(error)}`;
  } finally {
    s.cancelling = false;
    if (search === s) publish();
  }
}

// -- following the ticket ------------------------------------------------------------------------------------------

/** The ticket as heard (a reply or the stream): drawn, its seat taken up once proposed, its table opened once
 * matched. A reply older than what the stream brought already is left out. */
function apply(s, ticket) {
  if (search !== s || !ticket) return;
  const version = Number(ticket.version || 0);
  if (version < s.version) return;
  s.version = version;
  s.ticket = ticket;
  s.phase = phaseOf(ticket);
  s.message = "";
  keep(s);
  if (s.phase === "proposed") takeUp(s, ticket);
  if (s.phase === "matched" && toTable(s, ticket)) return;
  publish();
}

/** Takes the person's seat up at the table found (once a table: its take-up time says the seat waits for them). */
async function takeUp(s, ticket) {
  const table = ticket.table || {};
  if (!table.roomId || !table.takeUpTime || s.takenUp === table.roomId) return;
  s.takenUp = table.roomId;
  try {
    apply(s, (await asPlayer((token) => api.acceptMatch(s.ticketId, token))).ticket);
  } catch (error) {
    if (search !== s || (error instanceof Problem && error.reason === "not_proposed")) return; // (the stream says why)
    s.takenUp = "";
    s.message = `Your seat could not be taken up: ${problemText(error)}`;
    publish();
  }
}

/** The room is made: its seat token is kept for this tab, and the page goes to the table (false: the ticket has
 * no table to go to). */
function toTable(s, ticket) {
  const table = ticket.table || {};
  if (!table.roomId || !table.seatToken) return false;
  const held = currentSession();
  seatTokens.set(table.roomId, {
    seat: table.seat ?? 0,
    token: table.seatToken,
    name: held?.player.name || "",
    player: held?.player.playerId || "",
  });
  stop(s);
  search = null;
  publish();
  location.hash = `room=${encodeURIComponent(table.roomId)}`;
  return true;
}

/** Reads the ticket's stream until the ticket ends, coming back after each break from the last version heard. */
async function follow(s) {
  s.controller = new AbortController();
  let retries = 0;
  while (search === s && searching(s)) {
    let outcome;
    try {
      outcome = await asPlayer((token) =>
        readEvents(api.ticketEvents(s.ticketId), {
          token,
          lastId: s.version ? String(s.version) : "",
          signal: s.controller.signal,
          onEvent: ({ event, data }) => {
            if (event === "update") {
              retries = 0;
              apply(s, data);
            } else if (event === "problem") fail(s, `The search ended: ${data.detail || data.reason}`);
          },
        }),
      );
    } catch (error) {
      if (error instanceof Problem && (error.status === 404 || error.status === 401)) {
        fail(s, `The search was lost: ${problemText(error)}`);
        return;
      }
      outcome = "broken";
    }
    if (outcome === "stopped" || search !== s || !searching(s)) return;
    if (outcome === "ended") {
      // Nothing newer was left to send (204): the ticket ended while the stream was away. As it stands:
      try {
        apply(s, (await asPlayer((token) => api.getTicket(s.ticketId, token))).ticket);
      } catch {
        // the server is away: come back below
      }
      if (!searching(s) || search !== s) return;
    }
    await new Promise((done) => setTimeout(done, RETRY_MS[Math.min(retries, RETRY_MS.length - 1)]));
    retries += 1;
  }
}

/** The search this tab was following before a reload, followed again (the same player only). */
function resume() {
  let kept = null;
  try {
    kept = JSON.parse(sessionStorage.getItem(KEY) || "null");
  } catch {
    kept = null;
  }
  if (!kept?.ticketId) return;
  if (!kept.player || kept.player !== myPlayerId()) {
    sessionStorage.removeItem(KEY);
    return;
  }
  const s = begin(kept.game, kept.title || kept.game, {
    phase: "searching",
    ticketId: kept.ticketId,
    startedAt: Number(kept.startedAt) || Date.now(),
    player: kept.player,
  });
  follow(s);
}

// Another player signed in, or nobody is any more: their search is not this one's to follow.
onSessionChange((held) => {
  const s = search;
  if (!s?.player || held?.player.playerId === s.player) return;
  stop(s);
  sessionStorage.removeItem(KEY);
  search = null;
  publish();
});

resume();
