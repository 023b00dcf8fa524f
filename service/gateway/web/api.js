// Every call the page makes: the gateway's REST routes (same origin), their refusals as problem details, and the seat
// tokens this tab holds (sessionStorage, one per room). A player's session (its access token) is session.js's; an
// event stream that needs the access token is read by stream.js. Every call that seats a person (joining, a match or
// an invitation accepted, a rematch accepted) sends a seed of the seat's own for the fair deal (deal.js).

/** A refusal: the problem details' detail and reason (RFC 9457), or why the server could not be reached. `until`: when
 * a chat mute ends (RFC 3339, a `muted` refusal's); `retryAfter`: the Retry-After header's seconds (0 without one). */
export class Problem extends Error {
  constructor(status, body = {}, retryAfter = 0) {
    super(body.detail || body.title || `HTTP ${status}`);
    this.status = status;
    this.detail = this.message;
    this.reason = body.reason || "";
    this.field = body.field || "";
    this.until = body.until || "";
    this.retryAfter = Number(retryAfter) || 0;
  }

  /** "It is not your turn (not_your_turn)". */
  get text() {
    return this.reason ? `${this.detail} (${this.reason})` : this.detail;
  }
}

import { newSeatSeed } from "./deal.js";

const enc = encodeURIComponent;
const linked = (sep, link) => (link ? `${sep}invitation_token=${enc(link)}` : "");
const paged = (pageToken) => (pageToken ? `&page_token=${enc(pageToken)}` : "");

export async function call(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    throw new Problem(0, { detail: `the server cannot be reached (${error.message})`, reason: "unreachable" });
  }
  if (response.status === 204) return null;
  const data = await readBody(response);
  if (!response.ok) throw new Problem(response.status, data || {}, response.headers.get("Retry-After"));
  return data;
}

/** An answer's JSON body (a problem's too), or null; text that is not JSON as a detail. */
export async function readBody(response) {
  const text = await response.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return { detail: text.slice(0, 200) };
  }
}

export const api = {
  games: () => call("GET", "/v1/games"),
  rules: (game) => call("GET", `/v1/games/${enc(game)}/rules`),
  cards: (game) => call("GET", `/v1/games/${enc(game)}/cards`),
  // `status`: "waiting", "playing", "finished" or "" (every room), newest first, a page at a time.
  rooms: (status = "", pageToken = "", pageSize = 20) =>
    call("GET", `/v1/rooms?page_size=${pageSize}${status ? `&status=${enc(status)}` : ""}${paged(pageToken)}`),
  // `token`: the room's seat token or a player's access token: whoever sat at the table also gets its chat.
  replay: (id, after = 0, pageSize = 500, token = undefined) =>
    call("GET", `/v1/rooms/${enc(id)}/replay?after_version=${after}&page_size=${pageSize}`, { token }),
  // `token`: an unlisted room's seat or player; `link`: an invitation link's token (a watch link), sent as
  // invitation_token (a query parameter: the gateway keeps it out of its traces).
  room: (id, token, link = "") => call("GET", `/v1/rooms/${enc(id)}${linked("?", link)}`, { token }),
  // `token`: a player's access token (the player is seated); none: an anonymous seat, as before players.
  createRoom: (body, token) => call("POST", "/v1/rooms", { body, token }),
  join: (id, body, token) => call("POST", `/v1/rooms/${enc(id)}/seats`, { body: { seed: newSeatSeed(), ...body }, token }),
  view: (id, token, link = "") => call("GET", `/v1/rooms/${enc(id)}/view${linked("?", link)}`, { token }),
  legalMoves: (id, token) => call("GET", `/v1/rooms/${enc(id)}/legal-moves`, { token }),
  submit: (id, token, body) => call("POST", `/v1/rooms/${enc(id)}/moves`, { body, token }),
  ticket: (id, token) => call("POST", `/v1/rooms/${enc(id)}/stream-tickets`, { token }),
  tournaments: () => call("GET", "/v1/tournaments?page_size=20"),
  tournament: (id) => call("GET", `/v1/tournaments/${enc(id)}`),
  standings: (id) => call("GET", `/v1/tournaments/${enc(id)}/standings`),
  roomEvents: (id, after, ticket, link = "") =>
    `/v1/rooms/${enc(id)}/events?after_version=${after}` + (ticket ? `&ticket=${enc(ticket)}` : "") + linked("&", link),
  tournamentEvents: (id, after) => `/v1/tournaments/${enc(id)}/events?after_version=${after}`,

  // Players (the PlayerService: a server without a store of players answers 501 unimplemented).
  signInAsGuest: (body) => call("POST", "/v1/players/guest", { body }),
  refreshSession: (refreshToken) => call("POST", "/v1/sessions/refresh", { body: { refreshToken } }),
  signOut: (refreshToken) => call("POST", "/v1/sessions/sign-out", { body: { refreshToken } }),
  rename: (token, name) => call("PATCH", "/v1/players/me", { body: { name }, token }),
  player: (id) => call("GET", `/v1/players/${enc(id)}`),
  myRooms: (token, pageToken = "", pageSize = 10) =>
    call("GET", `/v1/players/me/rooms?page_size=${pageSize}${paged(pageToken)}`, { token }),
  takeSeat: (id, token) => call("POST", `/v1/rooms/${enc(id)}/my-seat`, { token }),
  leaderboard: (game, pageToken = "", pageSize = 25) =>
    call("GET", `/v1/games/${enc(game)}/leaderboard?page_size=${pageSize}${paged(pageToken)}`),
  myRank: (game, token) => call("GET", `/v1/games/${enc(game)}/leaderboard/me?neighbours=2`, { token }),

  // Matchmaking (the MatchService: a signed-in player's tickets; each takes the access token).
  enqueue: (body, token) => call("POST", "/v1/tickets", { body, token }),
  myTickets: (token) => call("GET", "/v1/tickets", { token }),
  getTicket: (id, token) => call("GET", `/v1/tickets/${enc(id)}`, { token }),
  acceptMatch: (id, token) => call("POST", `/v1/tickets/${enc(id)}/accept`, { body: { seed: newSeatSeed() }, token }),
  cancelTicket: (id, token) => call("DELETE", `/v1/tickets/${enc(id)}`, { token }),
  ticketEvents: (id) => `/v1/tickets/${enc(id)}/events`, // read with readEvents (stream.js): it takes the token

  // The inbox (InboxService: the signed-in player's items; its events, /v1/inbox/events, are read with readEvents).
  inbox: (token, pageSize = 30) => call("GET", `/v1/inbox?page_size=${pageSize}`, { token }),
  markInboxRead: (body, token) => call("POST", "/v1/inbox/read", { body, token }),

  // Friends (FriendService, the signed-in player's; their presence's events, /v1/presence/events, read with readEvents).
  friendCode: (token) => call("GET", "/v1/friends/code", { token }),
  friends: (token) => call("GET", "/v1/friends?page_size=50", { token }),
  sendFriendRequest: (body, token) => call("POST", "/v1/friends/requests", { body, token }),
  acceptFriend: (id, token) => call("POST", `/v1/friends/requests/${enc(id)}/accept`, { token }),
  declineFriend: (id, token) => call("POST", `/v1/friends/requests/${enc(id)}/decline`, { token }),
  removeFriend: (id, token) => call("DELETE", `/v1/friends/${enc(id)}`, { token }),
  block: (id, token) => call("POST", "/v1/blocks", { body: { playerId: id }, token }),
  // Who sees the player's presence: "PRESENCE_VISIBILITY_FRIENDS" or "PRESENCE_VISIBILITY_NOBODY" (GetPresence's
  // `visibility`; a page of one friend is enough to read it).
  presenceVisibility: (token) => call("GET", "/v1/presence?page_size=1", { token }),
  setPresenceVisibility: (visibility, token) => call("POST", "/v1/presence/visibility", { body: { visibility }, token }),

  // Private tables: a waiting room's invitation link (a seat token), a friend invited (the player's access token).
  createLink: (id, token, body = {}) => call("POST", `/v1/rooms/${enc(id)}/invitation-links`, { body, token }),
  inviteFriend: (id, playerId, token) => call("POST", `/v1/rooms/${enc(id)}/invitations`, { body: { playerId }, token }),
  // The invitations a friend sent the signed-in player ({received, sent}), accepted (a seat: JoinRoom's answer) or
  // declined.
  roomInvitations: (token) => call("GET", "/v1/room-invitations", { token }),
  acceptInvitation: (id, token) =>
    call("POST", `/v1/rooms/${enc(id)}/invitation/accept`, { body: { seed: newSeatSeed() }, token }),
  declineInvitation: (id, token) => call("POST", `/v1/rooms/${enc(id)}/invitation/decline`, { token }),

  // A room's chat (ChatService; its events, chatEvents, are read with readEvents: they take the reader's token).
  // `token`: the seat's token, or a signed-in spectator's access token; `link`: a watch link's token (an unlisted
  // room's spectators' channel).
  sendChat: (id, body, token, link = "") =>
    call("POST", `/v1/rooms/${enc(id)}/chat`, { body: link ? { ...body, invitationToken: link } : body, token }),
  reportChat: (id, seq, reason, token, link = "") =>
    call("POST", `/v1/rooms/${enc(id)}/chat/${enc(seq)}/reports`, {
      body: { ...(reason ? { reason } : {}), ...(link ? { invitationToken: link } : {}) },
      token,
    }),
  chatEvents: (id, link = "") => `/v1/rooms/${enc(id)}/chat/events${linked("?", link)}`,

  // Rematches (a seat token of the finished room, or a seated player's access token).
  proposeRematch: (id, token) => call("POST", `/v1/rooms/${enc(id)}/rematch`, { body: { seed: newSeatSeed() }, token }),
  answerRematch: (id, accept, token) =>
    call("POST", `/v1/rooms/${enc(id)}/rematch/answer`, { body: accept ? { accept, seed: newSeatSeed() } : { accept }, token }),
};

let games = null;

/** The games the server hosts (asked once per page load): name -> GameInfo. */
export async function hostedGames() {
  games ??= api.games().then((answer) => new Map((answer.games || []).map((game) => [game.name, game])));
  try {
    return await games;
  } catch (error) {
    games = null;
    throw error;
  }
}

/** The seat tokens this tab holds, one per room: {seat, token, name, player} (player: the id of the player whose seat
 * it is, when it was taken signed in). */
export const seatTokens = {
  key: (roomId) => `kickoff:seat:${roomId}`,
  get(roomId) {
    try {
      const held = JSON.parse(sessionStorage.getItem(this.key(roomId)) || "null");
      return held && typeof held.token === "string" ? held : null;
    } catch {
      return null;
    }
  },
  set(roomId, held) {
    sessionStorage.setItem(this.key(roomId), JSON.stringify(held));
  },
  /** Forgets the seats this tab took for a player (they signed out): an anonymous seat's token stays. */
  dropPlayer(playerId) {
    if (!playerId) return;
    for (let index = sessionStorage.length - 1; index >= 0; index -= 1) {
      const key = sessionStorage.key(index);
      if (!key?.startsWith("kickoff:seat:")) continue;
      if (this.get(key.slice("kickoff:seat:".length))?.player === playerId) sessionStorage.removeItem(key);
    }
  },
};

/** A room's or tournament's status enum, short: "ROOM_STATUS_PLAYING" -> "playing". */
export function statusName(status) {
  return String(status || "").replace(/^(ROOM|TOURNAMENT)_STATUS_/, "").toLowerCase() || "unknown";
}
