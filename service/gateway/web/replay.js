// A room's game again, version by version (GET /v1/rooms/{id}/replay): the table after each version, every seat's hand
// once the game is over (before, what a spectator saw), and the events so far. Step back and forth, jump to a version,
// play at a chosen speed; the keys too (Left and Right, Home and End, Space). Reached from the lobby's finished rooms
// and from the end of every game. What is drawn of a game is its table module's, as at the live table.
// Asked with this tab's seat token of the room, or else as the signed-in player: whoever sat at the table also gets
// its chat, shown beside the events, each message after the last step at or before its time, always as text.

import { api, hostedGames, seatTokens, statusName } from "./api.js";
import { SeatBook } from "./book.js";
import { REACTIONS } from "./chat.js";
import { roomEventText } from "./events.js";
import { fill, h } from "./dom.js";
import { dressCard, loadFaces } from "./games/faces.js";
import { pick } from "./games/index.js";
import { asPlayer, currentSession } from "./session.js";

const SPEEDS = [0.5, 1, 2, 4, 8]; // steps a second
const MAX_STEPS = 100_000; // a replay longer than this is cut (no game of the house comes near)
const REACTION_TEXT = new Map(REACTIONS); // (the words the chat panel shows: the server sends their keys only)

/** A chat message as a line of text: "Ann: good luck", "Ann (team): Thanks", "Ann: (withdrawn)". */
function chatText(message) {
  const said = message.withdrawn ? "(withdrawn)" : message.text || REACTION_TEXT.get(message.reaction) || "(a reaction)";
  const team = message.channel === "CHAT_CHANNEL_TEAM" ? " (team)" : "";
  return `${message.name || "someone"}${team}: ${said}`;
}

/** Each step's chat: a message goes after the last step whose time is at or before its own (the first step when
 * none is); a withdrawal (its message reads as withdrawn already) is left out. */
function placeChat(steps, chat) {
  const times = steps.map((step) => Date.parse(step.update.time || "") || 0);
  const placed = steps.map(() => []);
  for (const message of chat) {
    if (!placed.length || Number(message.withdrawsSeq || 0)) continue;
    const at = Date.parse(message.createTime || "") || 0;
    let index = 0;
    while (index + 1 < times.length && times[index + 1] <= at) index += 1;
    placed[index].push(message);
  }
  return placed;
}

/**
 * A room's whole replay so far, every page's steps in one list: GetReplayResponse's JSON as a replay file holds it
 * (`kickoff replay --room ID --save FILE`; the room as of the last page). Asked with this tab's seat token of the
 * room, else as the signed-in player: whoever sat at the table gets its chat too (the first page's). `stopped()`:
 * whether to stop asking (the view is gone).
 */
export async function wholeReplay(roomId, stopped = () => false) {
  const seat = seatTokens.get(roomId)?.token;
  const ask = (after) =>
    seat || !currentSession() ? api.replay(roomId, after, 500, seat) : asPlayer((token) => api.replay(roomId, after, 500, token));
  const whole = { room: {}, steps: [], revealed: false, lastVersion: "0", chat: [] };
  let after = 0;
  do {
    const page = await ask(after);
    if (stopped()) break;
    if (!after) whole.chat = page.chat || [];
    whole.steps.push(...(page.steps || []));
    Object.assign(whole, { room: page.room || {}, revealed: Boolean(page.revealed), lastVersion: page.lastVersion || "0" });
    if (page.rematchRoomId) whole.rematchRoomId = page.rematchRoomId;
    after = Number(page.nextAfterVersion || 0);
  } while (after && whole.steps.length < MAX_STEPS);
  if (!whole.chat.length) delete whole.chat;
  return whole;
}

export function replayView(root, roomId) {
  const s = { steps: [], lines: [], chat: [], talk: [], book: new SeatBook([], null), room: null, revealed: false, index: 0, timer: null, stopped: false };

  const title = h("h1", { testid: "replay-title" }, "Replay of room ", h("code", {}, roomId));
  const where = h("p", { class: "turn", testid: "replay-position", role: "status" }, "Loading the replay…");
  const first = h("button", { type: "button", testid: "replay-first", onclick: () => go(0) }, "First");
  const back = h("button", { type: "button", testid: "replay-back", onclick: () => go(s.index - 1) }, "Back");
  const next = h("button", { type: "button", testid: "replay-next", onclick: () => go(s.index + 1) }, "Next");
  const last = h("button", { type: "button", testid: "replay-last", onclick: () => go(s.steps.length - 1) }, "Last");
  const play = h("button", { type: "button", testid: "replay-play", "aria-pressed": "false", onclick: () => toggle() }, "Play");
  const slider = h("input", {
    type: "range",
    min: 1,
    max: 1,
    value: 1,
    testid: "replay-slider",
    "aria-label": "Version",
    oninput: () => go(Number(slider.value) - firstVersion()),
  });
  const speed = h(
    "select",
    { testid: "replay-speed", "aria-label": "Speed", onchange: () => s.timer && start() },
    SPEEDS.map((value) => h("option", { value, selected: value === 1 }, `${value} a second`)),
  );
  const seats = h("ul", { class: "seats", testid: "replay-seats", "aria-label": "Seats" });
  const state = h("div", { class: "game-state", testid: "replay-state" });
  const hands = h("div", { class: "hand", testid: "replay-hands" });
  const feed = h("ol", { class: "feed", testid: "replay-feed", "aria-label": "Events so far", tabindex: 0 });
  const talkHeading = h("h2", { id: "replay-chat-h", hidden: true }, "Table talk");
  const talk = h("ol", { class: "feed", testid: "replay-chat", "aria-labelledby": "replay-chat-h", tabindex: 0, hidden: true });
  const view = h(
    "div",
    { class: "room replay", testid: "replay", data: { room: roomId, version: 0, last: 0, revealed: "" } },
    h(
      "section",
      { class: "table", testid: "replay-board", "aria-label": "Replay" },
      h(
        "header",
        { class: "table-head" },
        title,
        h("a", { href: "#", class: "back" }, "Back to the lobby"),
        " ",
        h("a", { href: `#room=${encodeURIComponent(roomId)}&watch`, testid: "replay-table" }, "The room's table"),
      ),
      where,
      h("div", { class: "replay-controls", role: "group", "aria-label": "Replay controls" }, first, back, play, next, last, slider, speed),
      h(
        "div",
        { class: "table-grid" },
        h("section", { class: "panel", "aria-labelledby": "replay-seats-h" }, h("h2", { id: "replay-seats-h" }, "Seats"), seats),
        h("section", { class: "panel", "aria-labelledby": "replay-state-h" }, h("h2", { id: "replay-state-h" }, "On the table"), state),
      ),
      h("section", { class: "panel", "aria-labelledby": "replay-hands-h" }, h("h2", { id: "replay-hands-h" }, "Hands"), hands),
    ),
    h("aside", { class: "events panel", "aria-labelledby": "replay-feed-h" }, h("h2", { id: "replay-feed-h" }, "Events"), feed, talkHeading, talk),
  );
  root.append(view);
  document.title = `kickoff: replay of ${roomId}`;

  const firstVersion = () => Number(s.steps[0]?.update?.version || 1);
  const ctx = (step) => ({
    book: s.book,
    viewer: null,
    toAct: step?.update?.toAct || [],
    over: statusName(step?.update?.status) === "finished",
  });

  function go(index) {
    if (!s.steps.length) return;
    s.index = Math.min(Math.max(index, 0), s.steps.length - 1);
    if (s.index === s.steps.length - 1) stop();
    draw();
  }

  function toggle() {
    if (s.timer) stop();
    else {
      if (s.index === s.steps.length - 1) s.index = 0; // (played to the end: from the start again)
      start();
    }
    draw();
  }

  function start() {
    clearInterval(s.timer);
    s.timer = setInterval(() => go(s.index + 1), 1000 / Number(speed.value));
    play.textContent = "Pause";
    play.setAttribute("aria-pressed", "true");
  }

  function stop() {
    clearInterval(s.timer);
    s.timer = null;
    play.textContent = "Play";
    play.setAttribute("aria-pressed", "false");
  }

  function onKey(event) {
    if (s.stopped || event.target.closest?.("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };
    if (event.key in moves) go(s.index + moves[event.key]);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(s.steps.length - 1);
    else if (event.key === " " && !event.target.closest?.("button, a")) toggle();
    else return;
    event.preventDefault();
  }
  document.addEventListener("keydown", onKey);

  function draw() {
    const step = s.steps[s.index];
    if (!step) return;
    const version = Number(step.update.version || 0);
    const lastVersion = Number(s.steps[s.steps.length - 1].update.version || 0);
    const [table, body] = pick(step.view);
    const context = ctx(step);
    where.textContent =
      `Version ${version} of ${lastVersion}` +
      (s.revealed ? ": every hand shown, the game is over." : ": as a spectator saw it (the game is not over).") +
      (s.timer ? ` Playing at ${speed.value} a second.` : "");
    slider.value = String(version);
    for (const button of [first, back]) button.disabled = s.index === 0;
    for (const button of [next, last]) button.disabled = s.index === s.steps.length - 1;
    const count = Math.max(s.book.count, body?.handSizes?.length || 0, body?.seats?.length || 0);
    fill(
      seats,
      Array.from({ length: count }, (_, seat) => {
        const acting = context.toAct.includes(seat);
        const info = table && body ? table.seatInfo(body, seat, context) : "";
        return h(
          "li",
          { class: `seat${acting ? " acting" : ""}`, testid: "replay-seat", data: { seat } },
          h("span", { class: "seat-marker", "aria-hidden": "true" }, acting ? "▶" : ""),
          h("span", { class: "seat-name" }, `${seat}. ${s.book.title(seat)}`),
          acting ? h("span", { class: "seat-acting" }, "to act") : null,
          info ? h("span", { class: "seat-info" }, info) : null,
        );
      }),
    );
    fill(state, table ? table.state(body, context) : h("p", {}, "The game has not begun."));
    const shown = (step.hands || []).map((hand, seat) => {
      const [handTable, handBody] = pick(hand);
      const groups = handTable ? handTable.hand(handBody, { ...context, viewer: seat }) : [];
      const cards = groups.flatMap((group) => group.cards || []);
      return h(
        "div",
        { class: "hand-group", testid: "replay-hand", data: { seat } },
        h("h3", {}, s.book.title(seat)),
        cards.length
          ? h(
              "ul",
              { class: "cards", "aria-label": `${s.book.title(seat)}'s cards` },
              cards.map((card) => dressCard(h("li", { class: `card ${handTable.cardClass?.(card) || ""}`.trim() }, card), card)),
            )
          : h("p", { class: "empty" }, "No cards."),
      );
    });
    fill(hands, shown.length ? shown : h("p", { class: "empty" }, s.revealed ? "No hands yet." : "Hands are shown once the game is over."));
    fill(
      feed,
      s.lines
        .slice(0, s.index + 1)
        .flatMap((texts, index) => texts.map((text) => h("li", { data: { version: s.steps[index].update.version } }, text))),
    );
    feed.lastElementChild?.scrollIntoView?.({ block: "nearest" });
    fill(
      talk,
      s.talk.slice(0, s.index + 1).flatMap((said, index) =>
        said.map((message) =>
          h("li", { class: message.withdrawn ? "withdrawn" : null, data: { version: s.steps[index].update.version, seq: message.seq } }, chatText(message)),
        ),
      ),
    );
    talk.hidden = talkHeading.hidden = !s.chat.length;
    Object.assign(view.dataset, { version, last: lastVersion, revealed: s.revealed ? "yes" : "" });
    view.dispatchEvent(new CustomEvent("kickoff:render", { bubbles: true, detail: { room: roomId, version } }));
  }

  async function load() {
    try {
      await hostedGames();
      const whole = await wholeReplay(roomId, () => s.stopped);
      if (s.stopped) return;
      s.chat = whole.chat || [];
      s.steps = whole.steps;
      s.room = whole.room;
      s.revealed = Boolean(whole.revealed);
      if (s.room?.game) await loadFaces(s.room.game);
      s.book = new SeatBook([], null);
      s.lines = s.steps.map((step) => (step.update.events || []).map((event) => roomEventText(event, ctx(step))));
      s.talk = placeChat(s.steps, s.chat);
      for (const seat of s.room?.seats || []) s.book.take(seat); // (the names as the room has them now)
      if (!s.steps.length) {
        where.textContent = "Nothing to replay yet: the room has had no update.";
        return;
      }
      slider.min = String(firstVersion());
      slider.max = String(s.steps[s.steps.length - 1].update.version);
      draw();
    } catch (error) {
      where.textContent = `The replay could not be loaded: ${error.message || error}`;
    }
  }
  load();

  return {
    stop() {
      s.stopped = true;
      stop();
      document.removeEventListener("keydown", onKey);
    },
  };
}
