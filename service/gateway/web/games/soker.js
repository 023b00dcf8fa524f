// Soker's table: the top discard, the decks, each seat's cards and points; moves are plays, a draw, or the end of
// the turn. Cards are codes: JUV-GKP (club, position), YELLOW-1, RED-1, JOKER-1.

import { h, plural } from "../dom.js";
import { cardList, line, only } from "./common.js";

function cardClass(card) {
  const kind = card.split("-")[0];
  if (kind === "YELLOW") return "card-yellow";
  if (kind === "RED") return "card-red";
  if (kind === "JOKER") return "card-joker";
  return `card-pos-${(card.split("-")[1] || "").toLowerCase()}`;
}

export default {
  member: "soker",
  cardClass,

  seatInfo(view, seat) {
    const held = view.handSizes?.[seat] ?? 0;
    const points = view.points?.[seat] ?? 0;
    return `${plural(held, "card")}, ${plural(points, "point")}`;
  },

  state(view, { book, over }) {
    const top = view.topCard ? cardList([view.topCard], { testid: "top-card", label: "Top discard", classOf: cardClass }) : "-";
    const current = view.current ?? 0;
    return [
      line("Top card", top),
      view.jokerAsClub ? line("The Joker stands for", view.jokerAsClub) : null,
      line("Deck", `${plural(view.deckSize ?? 0, "card")}, discard pile ${view.discardSize ?? 0}`),
      over ? null : line("Turn", `${book.name(current)}${view.drawn ? " (has drawn)" : ""}`),
    ];
  },

  hand(view) {
    return view.hand?.length ? [{ cards: view.hand }] : [];
  },

  eventText(event, { book }) {
    const [kind, body] = only(event);
    const who = book.name(body.seat ?? 0);
    switch (kind) {
      case "turnBegan":
        return `${who}: turn begins`;
      case "played":
        return (
          `${who} played ${(body.cards || []).join(" ")}` +
          (body.jokerAsClub ? ` (Joker as ${body.jokerAsClub})` : "") +
          (body.link ? " - link!" : "")
        );
      case "drew": {
        const card = body.card || (body.count ? "a card" : "nothing");
        const cause = { red: " (red card penalty)", table: " (the clock ran out)" }[body.cause] || "";
        return `${who} drew ${card}${cause}`;
      }
      case "reshuffled":
        return `the discard pile became a new deck of ${body.deckSize ?? 0}`;
      case "skipped": {
        const seats = body.seats || [];
        const one = seats.length === 1 && seats[0] !== book.viewer;
        return `${book.names(seats)} skip${one ? "s" : ""} a turn (${body.cause || "skip"})`;
      }
      case "turnEnded":
        return `${who} ended the turn${body.byTable ? " (the clock ran out)" : ""}`;
      default:
        return kind || "event";
    }
  },

  moveLabel(move) {
    const [kind, body] = only(move);
    if (kind === "play") return `Play ${(body.cards || []).join(" ")}`;
    if (kind === "draw") return "Draw a card";
    if (kind === "endTurn") return "End the turn";
    return kind || "(empty move)";
  },
};
