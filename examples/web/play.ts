// One game of Soker in a browser against a system player, through the TypeScript client that @hey-api/openapi-ts
// generates from the gateway's OpenAPI document (clients/typescript). The page creates a solo room, takes its seat,
// follows the seat's event stream, offers the seat's legal moves as buttons and, at the end, shows each seat's result.
// Nothing here knows Soker's rules: the server sends the legal moves and judges every move.

import { client } from '../../clients/typescript/src/client.gen.js';
import {
  createRoom,
  joinRoom,
  streamEvents,
  submitMove,
  type Move,
  type Outcome,
  type ProblemDetails,
  type RoomEvent,
  type RoomUpdate,
  type SeatResult,
} from '../../clients/typescript/src/index.js';

/** The seat this page holds: its room, its number, its token and every seat's name. */
type Seat = { roomId: string; number: number; token: string; names: string[] };

const form = document.getElementById('start') as HTMLFormElement;
const status = document.getElementById('status') as HTMLElement;
const moves = document.getElementById('moves') as HTMLElement;
const results = document.getElementById('results') as HTMLElement;
const log = document.getElementById('log') as HTMLElement;

const HEADLINES: Record<SeatResult, string> = {
  SEAT_RESULT_WON: 'You won!',
  SEAT_RESULT_LOST: 'You lost.',
  SEAT_RESULT_DRAWN: 'A draw.',
  SEAT_RESULT_SHARED_WIN: 'You share the win.',
  SEAT_RESULT_UNSPECIFIED: 'Game over.',
};
const RESULTS: Record<SeatResult, string> = {
  SEAT_RESULT_WON: 'won',
  SEAT_RESULT_LOST: 'lost',
  SEAT_RESULT_DRAWN: 'drew',
  SEAT_RESULT_SHARED_WIN: 'shared the win',
  SEAT_RESULT_UNSPECIFIED: 'no result',
};

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const fields = new FormData(form);
  form.hidden = true;
  play(String(fields.get('gateway')), String(fields.get('name'))).catch(fail);
});

async function play(baseUrl: string, name: string): Promise<void> {
  client.setConfig({ baseUrl });
  status.textContent = 'Creating a room...';
  // A solo room: two seats, one of them a system player, which plays its own turns.
  const { data: room } = await createRoom({
    body: { game: 'soker', mode: 'ROOM_MODE_SOLO', seats: 2, systemPlayers: 1 },
    throwOnError: true,
  });
  const { data: joined } = await joinRoom({ path: { room_id: room.roomId }, body: { name }, throwOnError: true });
  const names = (joined.room?.seats ?? []).map((each) => each.name);
  const seat: Seat = { roomId: room.roomId, number: joined.seat, token: joined.seatToken, names };
  // The seat's event stream: a RoomUpdate per change (with the seat's legal moves), then the StreamEnd. The generated
  // reader uses fetch, so the seat token goes in the Authorization header as for any other call.
  const { stream } = await streamEvents({ path: { room_id: seat.roomId }, auth: seat.token });
  for await (const data of stream) {
    if (!data) continue;
    if ('events' in data) show(data, seat);
    else if ('status' in data) throw data; // ProblemDetails: the server ended the stream
    else return; // the StreamEnd: the game is over
  }
}

function show(update: RoomUpdate, seat: Seat): void {
  for (const event of update.events) {
    if (event.gameEnded?.outcome) return end(event.gameEnded.outcome, seat);
    const line = describe(event, seat);
    if (line) log.append(item(line));
  }
  const mine = update.toAct.includes(seat.number);
  const others = update.toAct.map((n) => who(n, seat)).join(', ');
  status.textContent = mine ? 'Your move.' : others ? `Waiting for ${others}.` : 'Waiting.';
  moves.replaceChildren(...(mine ? update.legalMoves : []).map((move) => button(move, update.version, seat)));
}

function button(move: Move, version: string, seat: Seat): HTMLButtonElement {
  const button = document.createElement('button');
  button.textContent = label(move);
  button.addEventListener('click', () => {
    moves.querySelectorAll('button').forEach((each) => (each.disabled = true));
    // expectedVersion: the move was listed for this version; the server refuses it if the room has moved on.
    const body = { move, expectedVersion: version };
    submitMove({ path: { room_id: seat.roomId }, body, auth: seat.token, throwOnError: true }).catch(fail);
  });
  return button;
}

function end(outcome: Outcome, seat: Seat): void {
  moves.replaceChildren();
  status.textContent = `${HEADLINES[outcome.results[seat.number] ?? 'SEAT_RESULT_UNSPECIFIED']} (${outcome.reason})`;
  results.replaceChildren(
    ...outcome.results.map((result, n) => item(`${who(n, seat)}: ${RESULTS[result]}, ${outcome.points[n]} points`)),
  );
}

function label(move: Move): string {
  if (move.soker?.play) return `Play ${(move.soker.play.cards ?? []).join(' ')}`;
  if (move.soker?.draw) return 'Draw a card';
  if (move.soker?.endTurn) return 'End your turn';
  return JSON.stringify(move);
}

function describe(event: RoomEvent, seat: Seat): string {
  const soker = event.game?.soker;
  if (event.gameStarted) return `The game began. First to move: ${who(event.gameStarted.firstSeat, seat)}`;
  if (soker?.played) {
    const { cards, link } = soker.played;
    return `${who(soker.played.seat, seat)} played ${cards.join(' ')}${link ? ' (LINK!)' : ''}`;
  }
  if (soker?.drew) return `${who(soker.drew.seat, seat)} drew ${soker.drew.card || `${soker.drew.count} card(s)`}`;
  if (soker?.skipped) return `Skipped: ${soker.skipped.seats.map((n) => who(n, seat)).join(', ')}`;
  return '';
}

function who(number: number, seat: Seat): string {
  return number === seat.number ? 'You' : seat.names[number] || `Seat ${number}`;
}

function item(text: string): HTMLLIElement {
  const li = document.createElement('li');
  li.textContent = text;
  return li;
}

function fail(error: unknown): void {
  const problem = error as Partial<ProblemDetails>;
  status.textContent = `Refused: ${problem.detail ?? problem.title ?? String(error)}`;
}
