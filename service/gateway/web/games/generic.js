// The table of a game without messages of its own: its view is the JSON the game writes (View.generic.data), drawn
// as key/value lines; its events likewise; its moves are text (GenericMove.wire).

import { compact, h, plural, words } from "../dom.js";

const SEAT_KEYS = ["viewer", "hand"];

export default {
  member: "generic",

  data(view) {
    return view?.data || {};
  },

  seatInfo(view, seat) {
    const sizes = this.data(view).hand_sizes;
    return Array.isArray(sizes) && seat < sizes.length ? plural(sizes[seat], "card") : "";
  },

  state(view) {
    const data = this.data(view);
    const keys = Object.keys(data)
      .filter((key) => !SEAT_KEYS.includes(key))
      .sort();
    return [
      h(
        "dl",
        { class: "generic-data", testid: "generic-data" },
        keys.map((key) => h("div", { class: "pair" }, h("dt", {}, key), h("dd", {}, compact(data[key])))),
      ),
    ];
  },

  hand(view) {
    const hand = this.data(view).hand;
    return Array.isArray(hand) ? [{ cards: hand.map(String) }] : [];
  },

  eventText(event, { book }) {
    const data = { ...(event?.data || {}) };
    const kind = data.type || "event";
    const seat = typeof data.seat === "number" ? data.seat : null;
    delete data.type;
    delete data.seat;
    const who = seat === null || seat < 0 ? "" : book.name(seat);
    const rest = Object.entries(data)
      .map(([key, value]) => `${words(key)} ${compact(value)}`)
      .join(", ");
    return [who, words(kind), rest && `(${rest})`].filter(Boolean).join(" ");
  },

  moveLabel(move) {
    return move?.wire || "(empty move)";
  },
};
