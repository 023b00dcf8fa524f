// The rematch at the end of a game, for a person seated in it (this tab holds the seat's token): propose one, accept
// or decline one proposed, see who has answered, and once it is made go to the new table. The page holds no rule of
// it: the server says what the rematch is (Room.rematch) and refuses what cannot be done.
//
// The finished room's event stream has ended, so the rematch is read from the room (GET /v1/rooms/{id}): at once when
// the signed-in player's inbox brings a `rematch.proposed` for the room (inbox.js announces each new item), and every
// few seconds while it can still change. Going to the new table: a signed-in player takes their seat there up
// (/my-seat); anyone else sends their acceptance again, and its answer carries the new seat's token.

import { api, Problem, seatTokens } from "./api.js";
import { fill, h } from "./dom.js";
import { roomFor } from "./invite.js";
import { currentSession, takeUpSeat } from "./session.js";

const POLL_MS = 5000;

const shortName = (value, prefix) => String(value || "").replace(prefix, "").toLowerCase();

/** The rematch part of a finished room's outcome: {element, start(), stop()}. `held`: this tab's seat of the room
 * ({seat, token, name, player}); `nameOf(seat)`: a seat's name as the table shows it. */
export function rematchPanel(roomId, held, nameOf) {
  let rematch = null; // Room.rematch as last read (null: none proposed)
  let timer = null;
  let stopped = false;
  let busy = false;
  let read = false; // the room was read once: until then nothing is offered

  const status = h("p", { testid: "rematch-status", "aria-live": "polite" });
  const actions = h("p", { class: "rematch-actions" });
  const element = h(
    "section",
    { class: "rematch", testid: "rematch", "aria-labelledby": "rematch-h", data: { status: "" } },
    h("h2", { id: "rematch-h" }, "Rematch"),
    status,
    actions,
  );

  const button = (testid, text, onclick) => h("button", { type: "button", testid, disabled: busy, onclick }, text);

  function draw(message = "") {
    const state = rematch ? shortName(rematch.status, "REMATCH_STATUS_") : "";
    element.dataset.status = state;
    const seats = rematch?.seats || [];
    const mine = seats.find((seat) => (seat.seat ?? 0) === held.seat);
    const myAnswer = shortName(mine?.answer, "REMATCH_ANSWER_");
    const waiting = seats.filter((seat) => shortName(seat.answer, "REMATCH_ANSWER_") === "waiting");
    let text = "";
    let buttons = [];
    if (!read) {
      text = "Looking for a rematch…";
    } else if (!state) {
      text = "Play the same people again, at the same seats, with a new deal.";
      buttons = [button("rematch-propose", "Propose a rematch", () => act(() => api.proposeRematch(roomId, held.token)))];
    } else if (state === "open") {
      const by = (rematch.proposedBy ?? 0) === held.seat ? "You proposed a rematch" : `${nameOf(rematch.proposedBy ?? 0)} proposed a rematch`;
      text = waiting.length ? `${by}: waiting for ${waiting.map((seat) => nameOf(seat.seat ?? 0)).join(", ")}.` : `${by}.`;
      if (myAnswer === "waiting") {
        buttons = [
          button("rematch-accept", "Accept the rematch", () => answer(true)),
          button("rematch-decline", "Decline", () => answer(false)),
        ];
      }
    } else if (state === "made") {
      text = "The rematch is ready.";
      buttons = [button("rematch-go", "Go to the rematch", () => go())];
    } else if (state === "refused") {
      const why = { declined: "someone declined", no_answer: "not everyone answered in time" }[rematch.reason] || rematch.reason;
      text = `No rematch: ${why || "it was refused"}.`;
    }
    status.textContent = message ? `${text} ${message}` : text;
    fill(actions, buttons);
  }

  function problemText(error) {
    return error instanceof Problem ? error.text : String(error?.message || error);
  }

  async function act(call) {
    if (busy) return null;
    busy = true;
    draw();
    try {
      const answer = await call();
      rematch = answer?.room?.rematch || rematch;
      read = read || Boolean(answer?.room);
      busy = false;
      draw();
      later();
      return answer;
    } catch (error) {
      busy = false;
      draw(`(${problemText(error)})`);
      return null;
    }
  }

  async function answer(accept) {
    const answered = await act(() => api.answerRematch(roomId, accept, held.token));
    keepSeat(answered);
  }

  /** The new room's seat token from an acceptance's answer, kept for this tab. */
  function keepSeat(answered) {
    const newRoom = answered?.room?.rematch?.roomId;
    if (!newRoom || !answered.seatToken) return false;
    seatTokens.set(newRoom, { seat: answered.seat ?? 0, token: answered.seatToken, name: held.name, player: held.player });
    return true;
  }

  async function go() {
    const newRoom = rematch?.roomId;
    if (!newRoom) return;
    if (!seatTokens.get(newRoom)) {
      try {
        if (held.player && held.player === currentSession()?.player.playerId) await takeUpSeat(newRoom);
        else if (!keepSeat(await api.answerRematch(roomId, true, held.token))) throw new Error("no seat was given");
      } catch (error) {
        draw(`Your seat could not be taken: ${problemText(error)}`);
        return;
      }
    }
    location.hash = `room=${encodeURIComponent(newRoom)}`;
  }

  async function refresh() {
    clearTimeout(timer);
    timer = null;
    try {
      const room = await roomFor(roomId, held.token);
      if (stopped) return;
      rematch = room.rematch || null;
      read = true;
      if (!busy) draw();
    } catch {
      // the server is away: asked again below
    }
    later();
  }

  /** Asks again in a while, as long as the rematch can still change. */
  function later() {
    clearTimeout(timer);
    const state = rematch ? shortName(rematch.status, "REMATCH_STATUS_") : "";
    if (stopped || state === "made" || state === "refused") return;
    timer = setTimeout(refresh, POLL_MS);
  }

  function onInbox(event) {
    const item = event.detail || {};
    if (item.kind === "rematch.proposed" && item.data?.room_id === roomId) refresh();
  }

  return {
    element,
    start() {
      window.addEventListener("kickoff:inbox", onInbox);
      draw();
      refresh();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener("kickoff:inbox", onInbox);
    },
  };
}
