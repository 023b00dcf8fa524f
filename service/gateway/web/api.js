// Every call the page makes: the gateway's REST routes (same origin), their refusals as problem details, and the seat
// tokens this tab holds (sessionStorage, one per room).

/** A refusal: the problem details' detail and reason (RFC 9457), or why the server could not be reached. */
export class Problem extends Error {
  constructor(status, body = {}) {
    super(body.detail || body.title || `HTTP ${status}`);
    this.status = status;
    this.detail = this.message;
    this.reason = body.reason || "";
    this.field = body.field || "";
  }

  /** "It is not your turn (not_your_turn)". */
  get text() {
    return this.reason ? `${this.detail} (${this.reason})` : this.detail;
  }
}

const enc = encodeURIComponent;

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
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: text.slice(0, 200) };
  }
  if (!response.ok) throw new Problem(response.status, data || {});
  return data;
}

export const api = {
  games: () => call("GET", "/v1/games"),
  rules: (game) => call("GET", `/v1/games/${enc(game)}/rules`),
  rooms: () => call("GET", "/v1/rooms?page_size=50"),
  room: (id) => call("GET", `/v1/rooms/${enc(id)}`),
  createRoom: (body) => call("POST", "/v1/rooms", { body }),
  join: (id, body) => call("POST", `/v1/rooms/${enc(id)}/seats`, { body }),
  view: (id, token) => call("GET", `/v1/rooms/${enc(id)}/view`, { token }),
  legalMoves: (id, token) => call("GET", `/v1/rooms/${enc(id)}/legal-moves`, { token }),
  submit: (id, token, body) => call("POST", `/v1/rooms/${enc(id)}/moves`, { body, token }),
  ticket: (id, token) => call("POST", `/v1/rooms/${enc(id)}/stream-tickets`, { token }),
  tournaments: () => call("GET", "/v1/tournaments?page_size=20"),
  tournament: (id) => call("GET", `/v1/tournaments/${enc(id)}`),
  standings: (id) => call("GET", `/v1/tournaments/${enc(id)}/standings`),
  roomEvents: (id, after, ticket) =>
    `/v1/rooms/${enc(id)}/events?after_version=${after}` + (ticket ? `&ticket=${enc(ticket)}` : ""),
  tournamentEvents: (id, after) => `/v1/tournaments/${enc(id)}/events?after_version=${after}`,
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

/** The seat tokens this tab holds, one per room: {seat, token, name}. */
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
};

/** A room's or tournament's status enum, short: "ROOM_STATUS_PLAYING" -> "playing". */
export function statusName(status) {
  return String(status || "").replace(/^(ROOM|TOURNAMENT)_STATUS_/, "").toLowerCase() || "unknown";
}
