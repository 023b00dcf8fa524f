// A room's chat at the table (issue 49): the messages of the channels the reader may read, followed live from the
// room's chat stream (/v1/rooms/{id}/chat/events, read with fetch so that it can carry the seat's or player's token)
// and resumed after the last seq seen; a form to write (signed-in players), the quick reactions as buttons, a switch
// between the players' and the team's channel where the room has team chat; "Report" and "Block" on other people's
// messages; the muted state; withdrawn messages blanked. Every message is text: it is put on the page as text nodes
// only, never parsed as HTML.

import { api, Problem } from "./api.js";
import { h } from "./dom.js";
import { asPlayer, myPlayerId } from "./session.js";
import { readEvents } from "./stream.js";

/** The quick reactions, as a client shows them in English (the server sends only the keys). */
export const REACTIONS = [
  ["CHAT_REACTION_GOOD_GAME", "Good game"],
  ["CHAT_REACTION_WELL_PLAYED", "Well played"],
  ["CHAT_REACTION_OOPS", "Oops"],
  ["CHAT_REACTION_THANKS", "Thanks"],
  ["CHAT_REACTION_HURRY_UP", "Hurry up, please"],
  ["CHAT_REACTION_ONE_MORE", "One more?"],
];
const REACTION_TEXT = new Map(REACTIONS);
const CHANNEL_NAME = { CHAT_CHANNEL_PLAYERS: "Players", CHAT_CHANNEL_TEAM: "Team", CHAT_CHANNEL_SPECTATORS: "Spectators" };
const MAX_SHOWN = 200; // messages kept on the page (the server keeps 200 a channel by default)
const MAX_TEXT = 1000; // the contract's bound; the server's own (300 by default) answers message_too_long
const WITHDRAWN = "(message withdrawn)";

/** The room's chat mode, short: "on", "reactions" or "off" (unset is on). */
export function chatMode(room) {
  return { CHAT_MODE_REACTIONS: "reactions", CHAT_MODE_OFF: "off" }[room?.chat] || "on";
}

/**
 * The chat panel of room `roomId` (GetRoom's answer `room`) for this tab's seat `held` (seatTokens' entry), or for a
 * spectator when `held` is null (`link`: the watch link it holds, for an unlisted room). `name(seat)` names a seat as
 * the table does. The panel stays hidden until its stream opens: a server without chat (or a room whose chat the
 * reader may not read) shows none.
 */
export function chatPanel(roomId, room, held, name, link = "") {
  const mode = chatMode(room);
  const seated = Boolean(held);
  const me = seated ? held.player || "" : myPlayerId(); // (a signed-in player's id; "" for an anonymous seat)
  const channels = seated
    ? ["CHAT_CHANNEL_PLAYERS", ...(room.teamChat ? ["CHAT_CHANNEL_TEAM"] : [])]
    : ["CHAT_CHANNEL_SPECTATORS"];
  const canText = mode === "on" && Boolean(me);
  const canReact = seated || Boolean(me);
  const s = { channel: channels[0], last: 0, seen: new Set(), blocked: new Set(), stopped: false, retries: 0 };
  const abort = new AbortController();
  const timers = new Set();

  const list = h("ol", { class: "chat-messages" });
  const log = h("div", { class: "chat-list", testid: "chat-list", role: "log", "aria-label": "Messages", tabindex: 0 }, list);
  const status = h("p", { class: "chat-status", testid: "chat-status", role: "status" });
  const refusal = h("p", { class: "chat-refusal", testid: "chat-refusal", role: "alert" });
  const muted = h("p", { class: "chat-muted", testid: "chat-muted", role: "status" });
  const input = h("input", {
    type: "text",
    testid: "chat-input",
    name: "message",
    maxlength: MAX_TEXT,
    autocomplete: "off",
    "aria-label": "Message",
    placeholder: "Say something to the table",
  });
  const send = h("button", { type: "submit", testid: "chat-send" }, "Send");
  const form = canText
    ? h("form", { class: "chat-form", testid: "chat-form", onsubmit: (event) => (event.preventDefault(), say()) }, input, send)
    : null;
  const reactions = canReact
    ? h(
        "div",
        { class: "chat-reactions", role: "group", "aria-label": "Quick reactions" },
        REACTIONS.map(([key, text]) =>
          h("button", { type: "button", class: "chat-reaction", testid: "chat-reaction", data: { reaction: key }, onclick: () => react(key) }, text),
        ),
      )
    : null;
  const switcher =
    channels.length > 1
      ? h(
          "div",
          { class: "chat-channels", role: "group", "aria-label": "Channel" },
          channels.map((channel) =>
            h(
              "button",
              {
                type: "button",
                class: "chat-channel",
                testid: "chat-channel",
                data: { channel },
                "aria-pressed": channel === s.channel ? "true" : "false",
                onclick: () => choose(channel),
              },
              CHANNEL_NAME[channel],
            ),
          ),
        )
      : null;
  const why = h("p", { class: "chat-why", testid: "chat-why" }, whyNot());
  const element = h(
    "section",
    { class: "chat panel", testid: "chat", "aria-labelledby": "chat-h", hidden: true, data: { channel: s.channel } },
    h("h2", { id: "chat-h" }, seated ? "Table talk" : "Spectators' chat"),
    switcher,
    log,
    status,
    refusal,
    muted,
    form,
    reactions,
    why,
  );

  /** Why the reader cannot write text (or anything), in a line under the form; "" when they can. */
  function whyNot() {
    if (mode === "reactions") return canReact ? "This table takes quick reactions only." : "This table takes quick reactions only, from its players and signed-in spectators.";
    if (canText) return "";
    if (seated) return "Sign in to write messages: an anonymous seat sends quick reactions only.";
    return "Sign in to chat: you can read the spectators' messages.";
  }

  /** Calls `request(token)` as the reader: the seat's token, else the signed-in player's (refreshed when it expired),
   * else none (an anonymous spectator). */
  function asReader(request) {
    if (seated) return request(held.token);
    if (me) return asPlayer(request);
    return request("");
  }

  function later(ms, action) {
    const timer = setTimeout(() => {
      timers.delete(timer);
      action();
    }, ms);
    timers.add(timer);
  }

  // -- the messages ------------------------------------------------------------------------------------------------
  function who(message) {
    if (isMine(message)) return "You";
    const seat = message.seat === undefined ? null : Number(message.seat);
    return message.name || (seat === null ? "A spectator" : name(seat));
  }

  function isMine(message) {
    if (me) return message.playerId === me;
    return seated && message.seat !== undefined && Number(message.seat) === held.seat;
  }

  function add(message) {
    const seq = Number(message.seq || 0);
    if (!seq || s.seen.has(seq)) return; // (a stream that came back resends nothing it sent; be sure)
    s.seen.add(seq);
    s.last = Math.max(s.last, seq);
    if (Number(message.withdrawsSeq || 0)) {
      withdraw(Number(message.withdrawsSeq)); // (a withdrawal shows nothing itself)
      return;
    }
    if (message.playerId && s.blocked.has(message.playerId)) return;
    const channel = message.channel || channels[0];
    const reaction = REACTION_TEXT.has(message.reaction) ? message.reaction : ""; // (unset: the JSON may say UNSPECIFIED)
    const mine = isMine(message);
    const text = h("span", { class: "chat-text", testid: "chat-text" });
    const item = h(
      "li",
      {
        class: `chat-message${mine ? " mine" : ""}`,
        testid: "chat-message",
        data: { seq, channel, player: message.playerId || "", mine: String(mine) },
        hidden: channel !== s.channel,
      },
      h("span", { class: "chat-who", testid: "chat-who" }, who(message)),
      text,
    );
    if (message.withdrawn) blank(item);
    else {
      // Text is put on the page as a text node: `<script>` in a message stays those characters.
      text.textContent = reaction ? REACTION_TEXT.get(reaction) : message.text || "";
      if (reaction) item.classList.add("reaction");
      if (!mine && me && message.playerId) item.append(actions(message, item));
    }
    const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    list.append(item);
    while (list.children.length > MAX_SHOWN) list.firstElementChild.remove();
    if (atEnd) log.scrollTop = log.scrollHeight;
  }

  function blank(item) {
    item.dataset.withdrawn = "true";
    item.querySelector(".chat-actions")?.remove();
    item.querySelector(".chat-report")?.remove();
    const text = item.querySelector(".chat-text");
    text.textContent = WITHDRAWN;
    text.classList.add("withdrawn");
  }

  function withdraw(seq) {
    const item = list.querySelector(`[data-seq="${seq}"]`);
    if (item) blank(item);
  }

  // -- report and block --------------------------------------------------------------------------------------------
  function actions(message, item) {
    const report = h("button", { type: "button", class: "link", testid: "chat-report", onclick: () => openReport(message, item, report) }, "Report");
    const block = h("button", { type: "button", class: "link", testid: "chat-block", onclick: () => blockSender(message, block) }, "Block");
    return h("span", { class: "chat-actions" }, report, block);
  }

  /** The report's form under the message (an optional reason); once filed, "Reported" stands where the button was. */
  function openReport(message, item, button) {
    if (item.querySelector(".chat-report")) return;
    const reason = h("input", { type: "text", testid: "chat-report-reason", maxlength: 200, "aria-label": "Why (optional)", placeholder: "Why (optional)" });
    const said = h("span", { class: "chat-report-said", testid: "chat-report-said", role: "status" });
    const cancel = h("button", { type: "button", class: "link", onclick: () => box.remove() }, "Cancel");
    const box = h(
      "form",
      {
        class: "chat-report",
        testid: "chat-report-form",
        onsubmit: async (event) => {
          event.preventDefault();
          box.querySelectorAll("button, input").forEach((control) => (control.disabled = true));
          try {
            const why = reason.value.trim();
            await asReader((token) => api.reportChat(roomId, message.seq, why, token, link));
            button.replaceWith(h("span", { class: "chat-reported", testid: "chat-reported", role: "status" }, "Reported"));
            box.remove();
          } catch (error) {
            said.textContent = textOf(error);
            box.querySelectorAll("button, input").forEach((control) => (control.disabled = false));
          }
        },
      },
      reason,
      h("button", { type: "submit", testid: "chat-report-send" }, "Send report"),
      cancel,
      said,
    );
    item.append(box);
    reason.focus();
  }

  async function blockSender(message, button) {
    button.disabled = true;
    try {
      await asPlayer((token) => api.block(message.playerId, token));
      s.blocked.add(message.playerId);
      list.querySelectorAll(`[data-player="${CSS.escape(message.playerId)}"]`).forEach((item) => item.remove());
      status.textContent = `You blocked ${message.name || "this player"}: their messages are hidden.`;
    } catch (error) {
      button.disabled = false;
      refusal.textContent = textOf(error);
    }
  }

  // -- writing -----------------------------------------------------------------------------------------------------
  function choose(channel) {
    s.channel = channel;
    element.dataset.channel = channel;
    switcher?.querySelectorAll("button").forEach((button) => button.setAttribute("aria-pressed", String(button.dataset.channel === channel)));
    list.querySelectorAll(".chat-message").forEach((item) => (item.hidden = item.dataset.channel !== channel));
    log.scrollTop = log.scrollHeight;
  }

  function controls() {
    return [...element.querySelectorAll(".chat-form input, .chat-form button, .chat-reaction")];
  }

  async function post(body) {
    if (element.dataset.muted === "true") return false;
    refusal.textContent = "";
    const disabled = controls().filter((control) => !control.disabled);
    disabled.forEach((control) => (control.disabled = true));
    const requestId = `web-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
    try {
      await asReader((token) => api.sendChat(roomId, { ...body, channel: s.channel, requestId }, token, link));
      return true; // (the message comes back on the stream, in its place among the others)
    } catch (error) {
      refused(error);
      return false;
    } finally {
      if (element.dataset.muted !== "true") disabled.forEach((control) => (control.disabled = false));
    }
  }

  async function say() {
    const text = input.value.trim();
    if (!text) return;
    if (await post({ text })) input.value = "";
    input.focus();
  }

  function react(reaction) {
    post({ reaction });
  }

  function refused(error) {
    const problem = error instanceof Problem ? error : new Problem(0, { detail: String(error) });
    if (problem.reason !== "muted") {
      refusal.textContent = problem.detail;
      return;
    }
    const until = problem.until ? new Date(problem.until) : null;
    const when =
      until && !Number.isNaN(until.getTime())
        ? until.toLocaleString([], { dateStyle: "medium", timeStyle: "short" })
        : "an operator ends the mute";
    muted.textContent = `You are muted until ${when}.`;
    element.dataset.muted = "true";
    controls().forEach((control) => (control.disabled = true));
    if (problem.retryAfter) later(problem.retryAfter * 1000, unmute); // (the server's delay: the clocks may differ)
  }

  function unmute() {
    delete element.dataset.muted;
    muted.textContent = "";
    controls().forEach((control) => (control.disabled = false));
  }

  // -- the stream --------------------------------------------------------------------------------------------------
  async function follow() {
    while (!s.stopped) {
      let ended;
      try {
        ended = await asReader((token) =>
          readEvents(api.chatEvents(roomId, link), {
            token,
            lastId: s.last ? String(s.last) : "",
            signal: abort.signal,
            onOpen: () => {
              element.hidden = false;
              s.retries = 0;
              status.textContent = "";
            },
            onEvent: ({ event, data }) => {
              if (event === "update") add(data);
              else if (event === "problem") status.textContent = `The chat ended: ${data.detail || data.title}.`;
            },
          }),
        );
      } catch (error) {
        // Refused: a server without chat (501), a room whose chat is off or that the reader may not read. The panel
        // stays as it is: hidden if it never opened, else with the reason.
        if (!element.hidden) status.textContent = `The chat cannot be read: ${textOf(error)}`;
        return;
      }
      if (ended !== "broken" || s.stopped) return;
      const delay = Math.min(10000, 500 * 2 ** s.retries);
      s.retries += 1;
      status.textContent = "Chat connection lost; reconnecting…";
      await new Promise((resolve) => later(delay, resolve));
    }
  }

  return {
    element,
    start() {
      follow();
    },
    stop() {
      s.stopped = true;
      abort.abort();
      timers.forEach(clearTimeout);
    },
  };
}

function textOf(error) {
  return error instanceof Problem ? error.detail : String(error?.message || error);
}
