// The table modules, one per game's messages, chosen by the member of the oneof the server sent (View.game,
// GameEvent.game, Move.game): soker, ageOfSoccer, carta, and generic for any game without messages of its own.
// A new game with messages of its own adds a module here; the page itself does not change.
//
// A module draws, and never judges (the server lists the legal moves and judges every move):
//   member                       the oneof member it draws
//   seatInfo(view, seat, ctx)    what the seat list shows of a seat (cards held, points...): text or a node
//   state(view, ctx)             the game's public state: a list of nodes
//   hand(view, ctx)              the viewer's cards: [{label, cards}] (empty for a spectator)
//   eventText(event, ctx)        one readable line for one of its events
//   moveLabel(move, ctx)         a short text for one of its moves
//   cardClass(card)              (optional) a CSS class for a card
//   announce(event, ctx)         (optional) what the table calls out when the event happens ("LINK!"), or ""
//   picker(moves, ctx, send, {busy, memory})
//                                (optional) the seat's moves drawn the game's way instead of a button each (Soker:
//                                cards selected in order); `send(move)` plays one, `memory` lasts while the moves do
//                                (memory.redraw() draws them again)
// ctx is {book (names and teams), viewer, toAct, over (the game has ended: nothing says whose turn it is)}.

import ageOfSoccer from "./age_of_soccer.js";
import carta from "./carta.js";
import generic from "./generic.js";
import soker from "./soker.js";

export const TABLES = { soker, ageOfSoccer, carta, generic };

/** The module for a oneof's member name (the generic one for a member it does not know). */
export function tableFor(member) {
  return TABLES[member] || generic;
}

/** [module, member's value] for a oneof in its JSON form ({"soker": {...}}); [null, null] when it is empty. */
export function pick(oneof) {
  const member = Object.keys(oneof || {})[0];
  return member ? [tableFor(member), oneof[member]] : [null, null];
}

/** A move's label: the generic form's wire text, else the game module's short text. */
export function moveLabel(move, ctx) {
  const [table, body] = pick(move);
  return table ? table.moveLabel(body, ctx) : "(empty move)";
}
