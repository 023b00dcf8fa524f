// A player's session, kept in localStorage (every tab of this browser shares it): signing in as a guest, calls made
// with the access token, the token refreshed before it expires (and once on a 401 token_expired), signing out.
//
// A refresh token is good once: presenting one already used revokes the whole session (refresh_reused). So the page
// never sends the same refresh token twice, also not from two tabs at once: each refresh re-reads the stored session
// first (another tab may have refreshed it), and a tab spends a refresh token only while it holds the Web Lock named
// after that token, which it keeps a while after storing the new pair; a tab that finds the lock taken waits for the
// new pair to reach its storage instead. A refused refresh (reused, revoked, expired) forgets the session: signed out.
//
// Also here: whether the server knows players at all (without a store of players it answers 501), the players seen
// at tables (asked once per page load) and how a rating is shown.

import { api, hostedGames, Problem, seatTokens } from "./api.js";

const KEY = "kickoff:session";
const DEVICE_KEY = "kickoff:device";
const EARLY_MS = 60_000; // refresh this long before the access token expires
const RETRY_MS = 30_000; // after a refresh that could not reach the server
const HOLD_MS = 60_000; // how long a tab keeps the lock of a refresh token it spent (its new pair reaches other tabs)
const WAIT_MS = 10_000; // how long a tab waits for another tab's new pair
const LOOKUP_RETRY_MS = 60_000; // a player who could not be looked up is asked again after this

const listeners = new Set();
let timer = null;
let inFlight = null;
let served = null;

// -- the stored session ----------------------------------------------------------------------------------------------

/** The stored session, or null: {accessToken, refreshToken, accessExpireTime, refreshExpireTime, player: {playerId,
 * name}, receivedAt (this browser's clock), lifetime (ms the access token lives)}. */
export function currentSession() {
  try {
    const held = JSON.parse(localStorage.getItem(KEY) || "null");
    const good =
      held &&
      typeof held.accessToken === "string" &&
      typeof held.refreshToken === "string" &&
      typeof held.player?.playerId === "string" &&
      Number.isFinite(held.receivedAt) &&
      Number.isFinite(held.lifetime);
    return good ? held : null;
  } catch {
    return null;
  }
}

/** The signed-in player's id, or "". */
export function myPlayerId() {
  return currentSession()?.player.playerId || "";
}

/** Calls `listener(session, reason)` whenever the session changes (here or in another tab); returns its remover. */
export function onSessionChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed(held, reason = "") {
  schedule(held);
  listeners.forEach((listener) => listener(held, reason));
}

/** How long an access token lives, by its own claims (exp - iat, both the server's clock: the page's own clock may
 * be set differently); else by its expiry time against this browser's clock. */
function lifetimeOf(session, now) {
  try {
    const part = session.accessToken.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const claims = JSON.parse(atob(part.padEnd(part.length + ((4 - (part.length % 4)) % 4), "=")));
    const seconds = claims.exp - claims.iat;
    if (Number.isFinite(seconds) && seconds > 0) return seconds * 1000;
  } catch {
    // not a JWT we can read: use the expiry time
  }
  const left = Date.parse(session.accessExpireTime || "") - now;
  return Number.isFinite(left) && left > 0 ? left : 5 * 60_000;
}

function store(session) {
  const now = Date.now();
  const player = session.player || {};
  const held = {
    accessToken: session.accessToken,
    accessExpireTime: session.accessExpireTime || "",
    refreshToken: session.refreshToken,
    refreshExpireTime: session.refreshExpireTime || "",
    player: { playerId: player.playerId || "", name: player.name || "" },
    receivedAt: now,
    lifetime: lifetimeOf(session, now),
  };
  localStorage.setItem(KEY, JSON.stringify(held));
  changed(held);
  return held;
}

function forget(reason) {
  const held = currentSession();
  localStorage.removeItem(KEY);
  seatTokens.dropPlayer(held?.player.playerId);
  changed(null, reason);
}

window.addEventListener("storage", (event) => {
  if (event.storageArea !== localStorage || (event.key !== KEY && event.key !== null)) return;
  const held = currentSession();
  if (!held) {
    try {
      seatTokens.dropPlayer(JSON.parse(event.oldValue || "null")?.player?.playerId);
    } catch {
      // nothing readable was there
    }
  }
  changed(held, held ? "" : "signed_out_elsewhere");
});

/** This browser's guest device id (a random secret kept in localStorage: the same guest signs in again with it). */
function deviceId() {
  let id = localStorage.getItem(DEVICE_KEY) || "";
  if (!/^[0-9a-f]{32}$/.test(id)) {
    id = Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}

// -- signing in and out ----------------------------------------------------------------------------------------------

/** Signs in as this browser's guest (a new one the first time) with `name`; the stored session. */
export async function signInAsGuest(name) {
  const body = { deviceId: deviceId() };
  if (name) body.name = name;
  const answer = await api.signInAsGuest(body);
  let held = store(answer.session);
  if (!answer.created && name && name !== held.player.name) {
    // The device's guest again, under a new name: the name given is the one wanted.
    try {
      const player = await api.rename(held.accessToken, name);
      held = store({ ...held, player: { ...held.player, name: player.name || name } });
    } catch {
      // keeps the old name
    }
  }
  return held;
}

/** Ends the session on the server (by its refresh token, which an expired access token does not stop) and forgets
 * it here whatever the server answers. */
export async function signOut() {
  const held = currentSession();
  if (!held) return;
  try {
    await api.signOut(held.refreshToken);
  } finally {
    if (currentSession()?.refreshToken === held.refreshToken) forget("signed_out");
  }
}

// -- calls with the access token -------------------------------------------------------------------------------------

/** `request(accessToken)` for the signed-in player. On 401 token_expired the session is refreshed and the request made
 * once more; any other 401 means the session is over, and it is forgotten. */
export async function asPlayer(request) {
  const held = currentSession();
  if (!held) throw new Problem(401, { detail: "you are not signed in", reason: "no_session" });
  try {
    return await request(held.accessToken);
  } catch (error) {
    if (!(error instanceof Problem) || error.status !== 401) throw error;
    if (error.reason !== "token_expired") {
      if (currentSession()?.accessToken === held.accessToken) forget(error.reason);
      throw error;
    }
    const fresh = await refreshSession(held.accessToken);
    if (!fresh) throw error;
    return request(fresh.accessToken);
  }
}

/** A new pair for the session whose access token was `seen` (none: whatever is stored); the stored session after it,
 * or null when it was refused and forgotten. One refresh at a time in a tab. */
export function refreshSession(seen = currentSession()?.accessToken) {
  inFlight ??= rotate(seen).finally(() => {
    inFlight = null;
  });
  return inFlight;
}

const BUSY = Symbol("busy");

async function rotate(seen) {
  const held = currentSession();
  if (!held) return null;
  if (seen && held.accessToken !== seen) return held; // refreshed already, here or in another tab
  const spent = held.refreshToken;
  const outcome = await spendOnce(spent, async () => {
    const now = currentSession(); // again, under the lock
    if (!now) return null;
    if (now.refreshToken !== spent) return now;
    try {
      const fresh = (await api.refreshSession(spent)).session;
      return store(fresh.player?.playerId ? fresh : { ...fresh, player: now.player });
    } catch (error) {
      if (error instanceof Problem && error.status === 401) {
        if (currentSession()?.refreshToken === spent) forget(error.reason);
        return null;
      }
      throw error;
    }
  });
  return outcome === BUSY ? rotatedElsewhere(spent) : outcome;
}

/** Runs `spend` holding the lock named after the refresh token (kept HOLD_MS after), or answers BUSY when another
 * tab holds it. Without Web Locks (a page not served over https or from localhost) it just runs `spend`. */
function spendOnce(refreshToken, spend) {
  if (!navigator.locks?.request) return spend();
  return new Promise((resolve, reject) => {
    navigator.locks
      .request(`kickoff:refresh:${refreshToken.slice(-16)}`, { ifAvailable: true }, async (lock) => {
        if (!lock) {
          resolve(BUSY);
          return;
        }
        try {
          resolve(await spend());
        } catch (error) {
          reject(error);
          return;
        }
        await new Promise((done) => setTimeout(done, HOLD_MS));
      })
      .catch(reject);
  });
}

/** The session once another tab's refresh of `spent` reaches this tab's storage (null: it was forgotten). */
function rotatedElsewhere(spent) {
  return new Promise((resolve, reject) => {
    const check = () => {
      const held = currentSession();
      if (held?.refreshToken === spent) return false;
      finish();
      resolve(held);
      return true;
    };
    const poll = setInterval(check, 200);
    const giveUp = setTimeout(() => {
      finish();
      reject(new Problem(0, { detail: "the session is being refreshed in another tab", reason: "refresh_pending" }));
    }, WAIT_MS);
    const remove = onSessionChange(check);
    function finish() {
      clearInterval(poll);
      clearTimeout(giveUp);
      remove();
    }
    check();
  });
}

/** The refresh before the access token expires (every tab sets one; the first to run refreshes, the others find the
 * new pair stored). */
function schedule(held) {
  clearTimeout(timer);
  timer = null;
  if (!held) return;
  const due = held.receivedAt + Math.max(held.lifetime / 2, held.lifetime - EARLY_MS);
  timer = setTimeout(
    () => {
      timer = null;
      refreshSession(held.accessToken).catch((error) => {
        // The server could not be reached: try again later (a server without players, 501, never will do it).
        if (!(error instanceof Problem && error.status === 501)) {
          timer = setTimeout(() => schedule(currentSession()), RETRY_MS);
        }
      });
    },
    Math.min(2 ** 31 - 1, Math.max(0, due - Date.now())),
  );
}

schedule(currentSession());

// -- seats of the player ---------------------------------------------------------------------------------------------

/** Takes the signed-in player's seat of a room up in this tab: a fresh seat token (another device's seat goes on). */
export async function takeUpSeat(roomId) {
  const answer = await asPlayer((token) => api.takeSeat(roomId, token));
  const held = currentSession();
  seatTokens.set(roomId, {
    seat: answer.seat ?? 0,
    token: answer.seatToken,
    name: held?.player.name || "",
    player: held?.player.playerId || "",
  });
  return answer;
}

// -- whether the server knows players ---------------------------------------------------------------------------------

/** Whether the server serves players (asked once per page load: a game's leaderboard, 501 without players). */
export async function playersServed() {
  served ??= hostedGames()
    .then((games) => {
      const first = games.keys().next().value;
      return first ? api.leaderboard(first, "", 1) : null;
    })
    .then(
      () => true,
      (error) => {
        if (error instanceof Problem && error.status === 501) return false;
        served = null; // could not tell (the server is away): ask again next time
        return true;
      },
    );
  return served;
}

// -- players seen at tables, and ratings -----------------------------------------------------------------------------

const people = new Map(); // player id -> {player, promise, failedAt}

/** The player, if already looked up (else null). */
export function knownPlayer(playerId) {
  return people.get(playerId)?.player || null;
}

/** Looks a player up (once per page load; a failed look-up is tried again after a while): the player, or null. */
export function lookUpPlayer(playerId) {
  const entry = people.get(playerId);
  if (entry?.player) return Promise.resolve(entry.player);
  if (entry?.promise) return entry.promise;
  if (entry && Date.now() - entry.failedAt < LOOKUP_RETRY_MS) return Promise.resolve(null);
  const asked = { player: null, failedAt: 0, promise: null };
  asked.promise = api.player(playerId).then(
    (player) => {
      asked.player = player || null;
      asked.promise = null;
      asked.failedAt = player ? 0 : Date.now();
      return asked.player;
    },
    () => {
      asked.promise = null;
      asked.failedAt = Date.now();
      return null;
    },
  );
  people.set(playerId, asked);
  return asked.promise;
}

/** A player's rating in a game, or null. */
export function ratingIn(player, game) {
  return (player?.ratings || []).find((rating) => rating.game === game) || null;
}

/** A rating as shown: its display figure (mu - 3 sigma) to one decimal. */
export function ratingText(rating) {
  const value = Math.round(Number(rating?.display || 0) * 10) / 10;
  return (Object.is(value, -0) ? 0 : value).toFixed(1);
}
