// A room's table, for a seat (its token in this tab's sessionStorage) or a spectator: the seats (a player's with their
// rating in the game), the game's public state, the seat's hand, whose turn it is with the turn clock, the events, the
// legal moves as buttons, refusals and the outcome. A signed-in player who holds a seat of the room but whose tab has
// no token for it takes the seat up (a fresh seat token) unless the address says to watch. Updates come from the
// room's event stream (a stream ticket opens a seat's own); the view is asked for after each update. What is drawn of
// a game is its table module's (games/); this file knows no game. The deal's commitment, and once the game is over
// the page's own check of its secret, are deal.js's panel.

import { api, hostedGames, Problem, seatTokens, statusName } from "./api.js";
import { SeatBook } from "./book.js";
import { chatMode, chatPanel } from "./chat.js";
import { dealPanel } from "./deal.js";
import { fill, h, plural } from "./dom.js";
import { roomEventText, seatResults } from "./events.js";
import { invitePanel, roomFor, watchLinkPanel } from "./invite.js";
import { rematchPanel } from "./rematch.js";
import { wholeReplay } from "./replay.js";
import { ClockRing } from "./ring.js";
import { dressCard, loadFaces } from "./games/faces.js";
import { moveLabel, pick, tableFor } from "./games/index.js";
import { knownPlayer, lookUpPlayer, myPlayerId, ratingIn, ratingText, takeUpSeat } from "./session.js";

const MAX_FEED = 2000; // event lines kept on the page
const SEAT_MARK = { won: "winner", shared_win: "shared win", drawn: "draw" }; // each seat's result in the list of seats

export function roomTable(root, roomId, { watch = false, link = "" } = {}) {
  const held = watch ? null : seatTokens.get(roomId);
  link = watch ? link : ""; // (a watch link's token: sent with each read of an unlisted room)
  const token = held?.token || null;
  const s = {
    viewer: held ? held.seat : null,
    book: new SeatBook([], held ? held.seat : null),
    game: "",
    version: 0, // the last update shown
    known: 0, // the newest version known to exist (a view or the room may be ahead of the stream)
    status: "",
    toAct: [],
    clocks: [], // [{seat, left (seconds at `at`), total}]
    clockAt: 0,
    view: null,
    viewVersion: -1,
    viewBusy: false,
    viewAgain: false,
    moves: [],
    picking: {}, // what a game's move picker keeps between drawings (a Soker selection)
    movesVersion: -1,
    movesSerial: 0,
    drawnSerial: -1, // the movesSerial of the moves drawn last (drawMoves keeps the focus while they are the same)
    busy: false,
    requests: 0,
    outcome: null,
    tournament: "", // the tournament whose game the room is (its tournament makes the next game: no rematch)
    rematch: null, // the rematch part of the outcome (a seat's, once the game is over)
    deal: null, // the room's deal (Room.deal as JSON): its commitment, seeds and, once the game is over, its secret
    dealAsked: false, // the finished room was read again for its secret
    endSecret: "", // the secret the game's end brought on the stream (shown if the room cannot be read)
    mode: "", // "online" or "solo", and ", rated", once the room is read
    source: null,
    ended: false,
    stopped: false,
    retries: 0,
    timers: new Set(),
    asked: new Set(), // the players looked up for their ratings
  };

  // -- the page ----------------------------------------------------------------------------------------------------
  const title = h("h1", { testid: "room-title" }, "Room ", h("code", {}, roomId));
  const role = h("p", { class: "role", testid: "role" });
  const connection = h("p", { class: "connection", testid: "connection", role: "status" });
  const turn = h("p", { class: "turn", testid: "turn", role: "status" }, "Loading…");
  const clock = h("div", { class: "clock", testid: "clock", role: "group", "aria-label": "Turn clock" });
  const ring = new ClockRing();
  const mute = h("button", {
    type: "button",
    class: "mute",
    testid: "mute",
    "aria-pressed": ring.muted ? "true" : "false",
    onclick: () => {
      ring.muted = !ring.muted;
      mute.setAttribute("aria-pressed", ring.muted ? "true" : "false");
      mute.textContent = ring.muted ? "Sound off" : "Sound on";
    },
  }, ring.muted ? "Sound off" : "Sound on");
  const seats = h("ul", { class: "seats", testid: "seats", "aria-label": "Seats" });
  const state = h("div", { class: "game-state", testid: "game-state" });
  const hand = h("div", { class: "hand", testid: "hand" });
  const refusal = h("p", { class: "refusal", testid: "refusal", role: "alert", hidden: true });
  const moves = h("ul", { class: "moves", testid: "moves", "aria-label": "Your legal moves" });
  const outcome = h("section", { class: "outcome", testid: "outcome", "aria-label": "Outcome", hidden: true });
  const announce = h("p", { class: "announce", testid: "announce", role: "status", hidden: true });
  const feed = h("ol", { class: "feed", testid: "feed", "aria-label": "Events", tabindex: 0 });
  const seatOnly = (node) => (token ? node : null);
  const invite = token ? invitePanel(roomId, held) : null; // (a waiting room's link and invitations)
  const watchLink = token ? watchLinkPanel(roomId, held) : null; // (an unlisted room's link to watch it)
  const deal = dealPanel(roomId, () => wholeReplay(roomId));
  // The events and the chat, beside the table (below it on a narrow screen: after the hand and the moves).
  const side = h(
    "div",
    { class: "side" },
    h("aside", { class: "events panel", testid: "events", "aria-labelledby": "events-h" }, h("h2", { id: "events-h" }, "Events"), feed),
  );
  let chat = null; // (the room's chat panel, once the room is read: none when its chat is off)
  const room = h(
    "div",
    { class: "room", testid: "room", data: { room: roomId, viewer: s.viewer ?? "", status: "", version: 0 } },
    h(
      "section",
      { class: "table", testid: "table", "aria-label": "Table" },
      h("header", { class: "table-head" }, title, role, h("a", { href: "#", class: "back" }, "Back to the lobby"), connection),
      h("div", { class: "turn-bar" }, turn, clock, mute),
      announce,
      outcome,
      invite?.element,
      watchLink?.element,
      h("div", { class: "table-grid" },
        h("section", { class: "panel", "aria-labelledby": "seats-h" }, h("h2", { id: "seats-h" }, "Seats"), seats),
        h("section", { class: "panel", "aria-labelledby": "state-h" }, h("h2", { id: "state-h" }, "On the table"), state),
      ),
      seatOnly(h("section", { class: "panel", "aria-labelledby": "hand-h" }, h("h2", { id: "hand-h" }, "Your hand"), hand)),
      seatOnly(
        h("section", { class: "panel", "aria-labelledby": "moves-h" }, h("h2", { id: "moves-h" }, "Your moves"), refusal, moves),
      ),
      deal.element,
    ),
    side,
  );
  root.append(room);
  role.textContent = token ? `You play seat ${s.viewer}.` : "You are watching as a spectator.";

  // `over`: the game has ended, so nothing says whose turn it is any more.
  // `view`: the game's view now (a move's label may depend on it: who has the ball).
  const ctx = () => ({ book: s.book, viewer: s.viewer, toAct: s.toAct, over: s.status === "finished", view: pick(s.view)[1] });

  /** What is wrong with the connection, by what it concerns ("stream", "view", "moves"...); "" when it is fine. */
  const notices = new Map();
  function notice(kind, text = "") {
    if (text) notices.set(kind, text);
    else notices.delete(kind);
    connection.textContent = [...notices.values()].join(" ");
  }

  /** Tells listeners (tests, embedding pages) that the page shows a new version. */
  function rendered() {
    Object.assign(room.dataset, {
      version: s.version,
      viewVersion: s.viewVersion,
      status: s.status,
      movesSerial: s.movesSerial,
      movesVersion: s.movesVersion,
    });
    room.dispatchEvent(
      new CustomEvent("kickoff:render", {
        bubbles: true,
        detail: { room: roomId, version: s.version, viewVersion: s.viewVersion, status: s.status },
      }),
    );
  }

  // -- drawing -----------------------------------------------------------------------------------------------------
  /** The rating of the player holding a seat in this room's game ("unrated" before their first rated game); "" for a
   * seat without a player, and until (or unless) the player could be looked up. */
  function seatRating(seat) {
    const playerId = s.book.seats.get(seat)?.playerId;
    if (!playerId || !s.game) return "";
    const player = knownPlayer(playerId);
    if (!player) {
      if (!s.asked.has(playerId)) {
        s.asked.add(playerId);
        lookUpPlayer(playerId).then((found) => found && !s.stopped && drawSeats());
      }
      return "";
    }
    const rating = ratingIn(player, s.game);
    return rating ? `rating ${ratingText(rating)}` : "unrated";
  }

  function drawSeats() {
    const [table, body] = pick(s.view);
    const count = Math.max(s.book.count, body?.handSizes?.length || 0, body?.seats?.length || 0);
    const results = seatResults(s.outcome);
    fill(
      seats,
      Array.from({ length: count }, (_, seat) => {
        const acting = s.toAct.includes(seat);
        const info = table && body ? table.seatInfo(body, seat, ctx()) : "";
        const rating = seatRating(seat);
        return h(
          "li",
          { class: `seat${acting ? " acting" : ""}${seat === s.viewer ? " mine" : ""}`, testid: "seat", data: { seat } },
          h("span", { class: "seat-marker", "aria-hidden": "true" }, acting ? "▶" : ""),
          h("span", { class: "seat-name" }, `${seat}. ${s.book.title(seat)}`),
          rating ? h("span", { class: "seat-rating", testid: "seat-rating" }, rating) : null,
          s.book.hasTeams ? h("span", { class: "seat-team" }, `team ${s.book.team(seat)}`) : null,
          acting ? h("span", { class: "seat-acting" }, "to act") : null,
          s.book.seats.get(seat)?.standIn
            ? h("span", { class: "seat-stand-in", testid: "seat-stand-in" }, `${s.book.seats.get(seat).standIn} stand-in`)
            : null,
          SEAT_MARK[results[seat]]
            ? h("strong", { class: "seat-winner", testid: "seat-result" }, SEAT_MARK[results[seat]])
            : null,
          info ? h("span", { class: "seat-info" }, info) : null,
        );
      }),
    );
  }

  function drawView() {
    const [table, body] = pick(s.view);
    room.dataset.game = table ? table.member : "";
    if (!table) {
      fill(state, h("p", {}, s.status === "waiting" ? "The game starts when every seat is taken." : "Nothing on the table yet."));
      fill(hand);
    } else {
      fill(state, table.state(body, ctx()));
      const groups = table.hand(body, ctx()).filter((group) => group.cards.length || group.label);
      fill(
        hand,
        groups.length
          ? groups.map((group) =>
              h(
                "div",
                { class: "hand-group" },
                group.label ? h("h3", {}, group.label) : null,
                h(
                  "ul",
                  { class: "cards", testid: "hand-cards", "aria-label": group.label || "Your cards" },
                  group.cards.map((card) => dressCard(h("li", { class: `card ${table.cardClass?.(card) || ""}`.trim() }, card), card)),
                ),
              ),
            )
          : h("p", { class: "empty" }, "No cards."),
      );
    }
    drawSeats();
  }

  function drawTurn() {
    if (s.status === "finished") turn.textContent = "Game over.";
    else if (s.status === "waiting") {
      const free = [...s.book.seats.values()].filter((seat) => !seat.taken).length;
      turn.textContent = `Waiting for players: ${plural(free, "free seat")}.`;
    } else if (!s.toAct.length) turn.textContent = "…";
    else if (s.viewer !== null && s.toAct.includes(s.viewer)) {
      const others = s.toAct.filter((seat) => seat !== s.viewer);
      turn.textContent = others.length ? `Your move (with ${s.book.names(others)}).` : "Your turn.";
      const standIn = s.book.seats.get(s.viewer)?.standIn;
      if (standIn) turn.textContent += ` A ${standIn} system player is playing for you: move to take your seat back.`;
    } else turn.textContent = `Waiting for ${s.book.names(s.toAct)}.`;
    room.classList.toggle("my-turn", s.viewer !== null && s.toAct.includes(s.viewer) && s.status === "playing");
  }

  // Redrawing the moves (a view that arrives after them, a Soker selection) keeps a keyboard user's place: the control
  // focused before is focused again, found by its position among the moves' controls, while the moves are the same.
  function drawMoves() {
    if (!token) return;
    const controls = () => [...moves.querySelectorAll("button, input, select, [tabindex]")];
    const focused = moves.contains(document.activeElement) ? controls().indexOf(document.activeElement) : -1;
    const same = s.drawnSerial === s.movesSerial; // (the list drawn last time is the one drawn now)
    s.drawnSerial = s.movesSerial;
    fillMoves();
    if (focused >= 0 && same && !moves.contains(document.activeElement)) controls()[focused]?.focus();
  }

  function fillMoves() {
    const list = s.status === "playing" ? s.moves : [];
    const [table] = pick(s.view);
    if (list.length && table?.picker) {
      s.picking.redraw = drawMoves;
      fill(moves, table.picker(list, ctx(), play, { busy: s.busy, memory: s.picking }));
      return;
    }
    fill(
      moves,
      list.length
        ? list.map((move, index) =>
            h(
              "li",
              {},
              h(
                "button",
                { type: "button", class: "move", testid: "move", data: { index }, disabled: s.busy, onclick: () => play(move) },
                moveLabel(move, ctx()),
              ),
            ),
          )
        : h("li", { class: "empty" }, s.status === "finished" ? "The game is over." : "Nothing to do now."),
    );
  }

  function tickClock() {
    if (!s.clocks.length || s.status !== "playing") {
      fill(clock);
      ring.clear();
      return;
    }
    const elapsed = (performance.now() - s.clockAt) / 1000;
    const first = s.clocks[0];
    const firstLeft = Math.max(0, first.left - elapsed);
    const mine = first.seat === s.viewer;
    const around = mine ? state.closest(".panel") : seats.querySelector(`[data-seat="${first.seat}"]`);
    ring.show(around, firstLeft, first.total, mine);
    fill(
      clock,
      s.clocks.map((entry) => {
        const left = Math.max(0, Math.ceil(entry.left - elapsed));
        const bar = h("span", { class: "clock-bar" });
        bar.style.width = `${entry.total ? Math.min(100, (100 * Math.max(0, entry.left - elapsed)) / entry.total) : 0}%`;
        return h(
          "p",
          { class: `clock-line${left <= 5 ? " low" : ""}`, testid: "clock-line", data: { seat: entry.seat, left } },
          h("span", {}, `${entry.seat === s.viewer ? "Your clock" : s.book.name(entry.seat)}: ${left} s`),
          h("span", { class: "clock-track", "aria-hidden": "true" }, bar),
        );
      }),
    );
  }

  function drawOutcome() {
    const o = s.outcome;
    if (!o) {
      outcome.hidden = true;
      return;
    }
    outcome.hidden = false;
    const winners = o.winners || [];
    if (o.reason === "expired") {
      outcome.className = "outcome";
      fill(outcome, h("h2", {}, "The room closed unplayed (nobody joined in time)."));
      return;
    }
    // Each seat's result is the server's (Outcome.results): an Age of Soccer game ended on the turn limit with the
    // shields level lists every seat a winner, and that is a draw; several winners who are not one team share the win.
    const results = seatResults(o);
    const mine = s.viewer === null ? "" : results[s.viewer] || "";
    const named = (seat) => `${s.book.title(seat)} (seat ${seat})`;
    const sharing = results.flatMap((each, seat) => (each === "shared_win" ? [seat] : []));
    const everyDrawn = results.length > 0 && results.every((each) => each === "drawn");
    // A seat that lost to a shared win is told it lost; the sharing seats and anyone watching see who shares it.
    const shared = sharing.length > 0 && mine !== "lost";
    const result = everyDrawn ? "draw" : shared ? "shared" : { won: "won", lost: "lost" }[mine] || "over";
    const level = winners.length > 0;
    const [mark, headline] = {
      over: ["", "Game over."],
      won: ["✓", "You won!"],
      lost: ["✗", "You lost."],
      draw: ["=", level ? "A draw: every seat finished level." : "A draw: nobody won."],
      shared: ["=", `Shared win: ${sharing.map(named).join(", ")}`],
    }[result];
    outcome.className = `outcome ${result}`;
    outcome.dataset.result = result;
    fill(
      outcome,
      h("h2", { testid: "outcome-headline" }, mark ? h("span", { class: "outcome-mark", "aria-hidden": "true" }, mark) : null, headline),
      h("p", { testid: "outcome-winners" }, `Winners: ${winners.map(named).join(", ") || "nobody"}`),
      h("p", { testid: "outcome-reason" }, `Reason: ${(o.reason || "-").replace(/_/g, " ")}`),
      (o.points || []).length
        ? h(
            "ul",
            { class: "points", testid: "outcome-points", "aria-label": "Points" },
            o.points.map((points, seat) => h("li", { data: { seat } }, `${named(seat)}: ${plural(points ?? 0, "point")}`)),
          )
        : null,
      s.book.hasTeams && (o.teamPoints || []).length
        ? h(
            "p",
            { testid: "outcome-teams" },
            `Teams: ${o.teamPoints.map((points, team) => `team ${team} ${points ?? 0}`).join(", ")}` +
              (o.winningTeams?.length ? `; winning team ${o.winningTeams.join(", ")}` : ""),
          )
        : null,
      // (the replay view reads no watch link: an unlisted room's replay is its seated people's)
      link ? null : h("p", {}, h("a", { class: "button", testid: "outcome-replay", href: `#replay=${encodeURIComponent(roomId)}` }, "Watch the replay")),
      rematchPart(),
    );
  }

  /** A seat's rematch (none for a spectator or a tournament's game), started the first time the outcome is shown. */
  function rematchPart() {
    if (!token || s.tournament) return null;
    if (!s.rematch) {
      s.rematch = rematchPanel(roomId, held, (seat) => s.book.name(seat));
      s.rematch.start();
    }
    return s.rematch.element;
  }

  function drawRole() {
    if (!token) return;
    const team = s.book.hasTeams ? `, for team ${s.book.team(s.viewer)} (with ${s.book.names(s.book.teammates(s.viewer))})` : "";
    role.textContent = `You play seat ${s.viewer}${s.mode ? ` (${s.mode})` : ""}${team}.`;
  }

  function drawAll() {
    if (invite && s.status !== "waiting") invite.element.hidden = true;
    if (watchLink && s.status === "finished") watchLink.element.hidden = true;
    drawRole();
    drawTurn();
    drawView();
    drawMoves();
    drawOutcome();
    drawDeal();
    tickClock();
    rendered();
  }

  /** The deal's panel; once the game is over, the room is read for the deal as it stands (Room.deal, the secret
   * revealed), which the panel checks; the secret the stream brought stands in if the room cannot be read. */
  function drawDeal() {
    const mySeed = s.viewer === null ? "" : s.book.seats.get(s.viewer)?.seed || "";
    deal.update({ deal: s.deal, game: s.game, mySeed });
    if (s.status === "finished" && s.deal?.commitment && !s.deal.secret && !s.dealAsked) {
      s.dealAsked = true;
      roomFor(roomId, token, link)
        .then((answer) => {
          if (s.stopped) return;
          applyRoom(answer);
          if (!s.deal?.secret && s.endSecret) s.deal = { ...s.deal, secret: s.endSecret };
          drawDeal();
        })
        .catch(() => {
          if (s.stopped || !s.endSecret) return;
          s.deal = { ...s.deal, secret: s.endSecret };
          drawDeal();
        });
    }
  }

  // -- events ------------------------------------------------------------------------------------------------------
  function eventText(event) {
    if (event.gameEnded) s.outcome = event.gameEnded.outcome || {};
    if (event.gameStarted?.deal?.commitment) s.deal = { ...s.deal, ...event.gameStarted.deal };
    if (event.gameEnded?.dealSecret) s.endSecret = event.gameEnded.dealSecret;
    return roomEventText(event, ctx());
  }

  function onUpdate(update) {
    const version = Number(update.version || 0);
    if (version <= s.version) return; // seen already (a reconnection resends nothing, but be sure)
    s.version = version;
    s.known = Math.max(s.known, version);
    s.status = statusName(update.status);
    s.toAct = update.toAct || [];
    const clocks = update.clocks?.length ? update.clocks : update.clock ? [update.clock] : [];
    const now = Date.parse(update.time || "") || 0;
    // Counted down from the deadline as the server saw it when it made the update, so the page's own clock may differ.
    s.clocks = clocks.map((entry) => ({
      seat: entry.seat ?? 0,
      left: Math.max(0, (Date.parse(entry.deadline) - now) / 1000),
      total: entry.turnSeconds || 0,
    }));
    s.clockAt = performance.now();
    const called = [];
    for (const event of update.events || []) {
      feed.append(h("li", { data: { version } }, eventText(event)));
      const [table, body] = event.game ? pick(event.game) : [null, null];
      const said = table?.announce?.(body, ctx());
      if (said) called.push(said);
    }
    if (called.length || update.events?.some((event) => event.game)) {
      announce.textContent = called.join(" "); // (what the table calls out: shown until the next game event)
      announce.hidden = !called.length;
    }
    while (feed.children.length > MAX_FEED) feed.firstElementChild.remove();
    feed.lastElementChild?.scrollIntoView?.({ block: "nearest" });
    if (token && version >= s.known) setMoves(update.legalMoves || [], version);
    drawAll();
    refreshView();
  }

  function setMoves(list, version) {
    s.picking = {}; // (a selection is made among the moves it was made from)
    s.moves = list;
    s.movesVersion = version;
    s.movesSerial += 1;
    s.busy = false;
  }

  async function refreshView() {
    if (s.viewBusy) {
      s.viewAgain = true;
      return;
    }
    s.viewBusy = true;
    try {
      do {
        s.viewAgain = false;
        const answer = await api.view(roomId, token, link);
        if (s.stopped) return;
        const version = Number(answer.version || 0);
        if (version < s.viewVersion) continue;
        s.viewVersion = version;
        s.view = answer.view || {};
        s.known = Math.max(s.known, version);
        if (version > s.version) s.toAct = answer.toAct || []; // the stream is behind: its update is coming
        if (token && version > s.movesVersion && s.moves.length && version > s.version) {
          s.moves = []; // listed for an older version: the next update brings this one's
        }
        drawAll();
      } while (s.viewAgain && !s.stopped);
      notice("view");
    } catch (error) {
      notice("view", `The view could not be loaded (${error.text || error.message}); trying again…`);
      later(2000, refreshView);
    } finally {
      s.viewBusy = false;
    }
  }

  // -- moves -------------------------------------------------------------------------------------------------------
  async function play(move) {
    if (s.busy || !token) return;
    s.busy = true;
    const version = s.movesVersion;
    moves.querySelectorAll("button").forEach((button) => (button.disabled = true));
    refusal.hidden = true;
    s.requests += 1;
    const requestId = `web-${s.viewer}-${version}-${s.requests}-${Math.random().toString(36).slice(2, 8)}`;
    try {
      await api.submit(roomId, token, { move, requestId, expectedVersion: String(version) });
      // Accepted: the update it caused comes on the stream, with the next legal moves.
    } catch (error) {
      const problem = error instanceof Problem ? error : new Problem(0, { detail: String(error) });
      refusal.textContent = `Refused: ${problem.text}`;
      refusal.hidden = false;
      await reloadMoves();
    }
  }

  async function reloadMoves() {
    try {
      const answer = await api.legalMoves(roomId, token);
      const version = Number(answer.version || 0);
      if (version >= s.movesVersion) setMoves(answer.moves || [], version);
      notice("moves");
    } catch (error) {
      notice("moves", `The legal moves could not be loaded: ${error.text || error.message}`);
      s.busy = false;
    }
    drawMoves();
    rendered();
  }

  // -- the stream --------------------------------------------------------------------------------------------------
  async function openStream() {
    if (s.stopped || s.ended) return;
    let ticket = "";
    if (token) {
      try {
        ticket = (await api.ticket(roomId, token)).ticket;
      } catch (error) {
        if (error instanceof Problem && (error.status === 401 || error.status === 403)) {
          s.ended = true; // this tab's seat token is no good here: retrying will not help
          notice("stream", `Your seat's token was refused (${error.text}); you can still watch the room.`);
          return;
        }
        throw error;
      }
    }
    if (s.stopped) return;
    const source = new EventSource(api.roomEvents(roomId, s.version, ticket, link));
    s.source = source;
    source.addEventListener("open", () => {
      s.retries = 0;
      notice("stream");
    });
    source.addEventListener("update", (message) => onUpdate(JSON.parse(message.data)));
    source.addEventListener("end", () => {
      source.close();
      s.ended = true;
      finished();
    });
    source.addEventListener("problem", (message) => {
      // The server ended the stream for good (the seat was given back: seat_released): coming back would be refused.
      source.close();
      s.ended = true;
      notice("stream", `The room's stream ended: ${JSON.parse(message.data).detail}.`);
    });
    source.addEventListener("error", () => {
      // Still CONNECTING: the browser retries by itself (with Last-Event-ID). CLOSED: a refusal (an expired ticket)
      // or 204 (nothing left): ask again with a new ticket, from the last version seen.
      if (source.readyState === EventSource.CLOSED) reconnectLater();
      else notice("stream", "Connection lost; reconnecting…");
    });
  }

  function later(ms, action) {
    const timer = setTimeout(() => {
      s.timers.delete(timer);
      action();
    }, ms);
    s.timers.add(timer);
  }

  function reconnectLater() {
    s.source?.close();
    s.source = null;
    if (s.stopped || s.ended) return;
    const delay = Math.min(10000, 500 * 2 ** s.retries);
    s.retries += 1;
    notice("stream", `Connection lost; reconnecting in ${Math.ceil(delay / 1000)} s…`);
    later(delay, async () => {
      try {
        const answer = await roomFor(roomId, token, link);
        applyRoom(answer);
        if (statusName(answer.status) === "finished" && Number(answer.version || 0) <= s.version) {
          s.ended = true; // every update is here: nothing to resume
          finished();
          return;
        }
      } catch {
        // the server is away: try again later
      }
      openStream().catch(reconnectLater);
    });
  }

  /** The updates are over: the outcome is shown (from the room if the stream did not bring it). */
  async function finished() {
    notice("stream");
    if (!s.outcome) {
      try {
        const answer = await roomFor(roomId, token, link);
        applyRoom(answer);
        s.outcome = answer.outcome || null;
      } catch (error) {
        notice("outcome", `The outcome could not be loaded: ${error.text || error.message}`);
      }
    }
    s.status = s.status || "finished";
    drawAll();
  }

  function applyRoom(answer) {
    (answer.seats || []).forEach((seat) => s.book.take(seat));
    if (answer.deal?.commitment) s.deal = answer.deal;
    s.known = Math.max(s.known, Number(answer.version || 0));
    s.game = answer.game || s.game;
    s.tournament = answer.tournamentId || s.tournament;
  }

  async function start() {
    try {
      const [answer, games] = await Promise.all([roomFor(roomId, token, link), hostedGames().catch(() => new Map())]);
      if (s.stopped) return;
      if (!watch && !token && (await takeMySeatUp(answer))) return;
      applyRoom(answer);
      const info = games.get(answer.game);
      fill(title, info?.title || answer.game, " ", h("small", {}, "room ", h("code", {}, roomId)));
      document.title = `${info?.title || answer.game} - kickoff`;
      s.status = statusName(answer.status);
      const mode = (answer.mode === "ROOM_MODE_SOLO" ? "solo" : "online") + (answer.rated ? ", rated" : "");
      s.mode = mode;
      invite?.update(answer, s.status === "waiting");
      watchLink?.update(answer, s.status);
      await loadFaces(answer.game);
      if (!token) role.textContent = `You are watching as a spectator (${mode}).`;
      if (chatMode(answer) !== "off" && !chat) {
        chat = chatPanel(roomId, answer, held, (seat) => s.book.title(seat), link);
        side.append(chat.element);
        chat.start();
      }
      drawAll();
      await openStream();
    } catch (error) {
      const problem = error instanceof Problem ? error : new Problem(0, { detail: String(error) });
      notice("stream", `This room cannot be shown: ${problem.text}`);
      if (problem.status !== 404) reconnectLater();
    }
  }

  /** Takes the signed-in player's seat of the room up in this tab, and draws the table again as that seat; false when
   * the player holds none (or it could not be taken up: the table is a spectator's). */
  async function takeMySeatUp(answer) {
    const me = myPlayerId();
    if (!me || !(answer.seats || []).some((seat) => seat.playerId === me)) return false;
    try {
      await takeUpSeat(roomId);
    } catch {
      return false;
    }
    if (!s.stopped) window.dispatchEvent(new Event("kickoff:reroute"));
    return true;
  }

  const ticking = setInterval(tickClock, 250);
  start();

  return {
    stop() {
      s.stopped = true;
      s.source?.close();
      clearInterval(ticking);
      s.timers.forEach(clearTimeout);
      s.rematch?.stop();
      chat?.stop();
    },
  };
}
