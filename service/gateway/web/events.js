// One readable line for one event of a room: the room's own (seats, the start, stand-ins, the end) or the game's, by
// its table module. The seat book follows the seats the events take (a name, a stand-in) as it goes.

import { pick } from "./games/index.js";

/** Each seat's result as the server decided it (Outcome.results, in seat order): "won", "lost", "drawn" or
 * "shared_win"; "" for a seat it does not name. A client never infers it from the winners: an Age of Soccer game that
 * ended with the shields level lists every seat a winner, and that is a draw. */
export function seatResults(outcome) {
  const name = (result) => String(result).replace(/^SEAT_RESULT_/, "").toLowerCase();
  return (outcome?.results || []).map((result) => (name(result) === "unspecified" ? "" : name(result)));
}

/** The game's result in a few words: "a draw", "a shared win for Ana, Bo" or "won by Ana". */
export function outcomeSummary(outcome, book) {
  const results = seatResults(outcome);
  if (results.length && results.every((result) => result === "drawn")) return "a draw";
  const shared = results.flatMap((result, seat) => (result === "shared_win" ? [seat] : []));
  if (shared.length) return `a shared win for ${book.names(shared)}`;
  return `won by ${book.names(outcome?.winners)}`;
}

/** The line for `event` (a RoomEvent in its JSON form); `ctx` is the table modules' {book, viewer, toAct, over}. */
export function roomEventText(event, ctx) {
  const book = ctx.book;
  if (event.seatTaken) {
    const seat = event.seatTaken.seat || {};
    book.take(seat);
    return `${seat.name || `seat ${seat.seat ?? 0}`} took seat ${seat.seat ?? 0}`;
  }
  if (event.seatLeft) return `seat ${event.seatLeft.seat ?? 0} is free again`;
  if (event.gameStarted) return `the game begins: ${book.name(event.gameStarted.firstSeat ?? 0)} first`;
  if (event.standIn) {
    const seat = event.standIn.seat ?? 0;
    const level = event.standIn.level || "";
    book.standIn(seat, level);
    const who = book.name(seat);
    if (!level) return `${who} ${who === "you" ? "are" : "is"} back`;
    return who === "you"
      ? `a ${level} system player stands in for you: your next move takes your seat back`
      : `a ${level} system player stands in for ${who}`;
  }
  if (event.gameEnded) {
    const outcome = event.gameEnded.outcome || {};
    return `game over (${(outcome.reason || "-").replace(/_/g, " ")}): ${outcomeSummary(outcome, book)}`;
  }
  if (event.game) {
    const [table, body] = pick(event.game);
    return table ? table.eventText(body, ctx) : "(empty event)";
  }
  return Object.keys(event)[0] || "(empty event)";
}
