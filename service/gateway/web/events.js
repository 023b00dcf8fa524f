// One readable line for one event of a room: the room's own (seats, the start, stand-ins, the end) or the game's, by
// its table module. The seat book follows the seats the events take (a name, a stand-in) as it goes.

import { pick } from "./games/index.js";

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
    return `game over (${(outcome.reason || "-").replace(/_/g, " ")}): won by ${book.names(outcome.winners)}`;
  }
  if (event.game) {
    const [table, body] = pick(event.game);
    return table ? table.eventText(body, ctx) : "(empty event)";
  }
  return Object.keys(event)[0] || "(empty event)";
}
