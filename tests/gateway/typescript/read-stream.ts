// A front end's TypeScript, against the client @hey-api/openapi-ts generates from the gateway's OpenAPI document:
// it reads a room's event stream with the generated SSE client and tells the updates from the end by the types the
// document gives (tests/gateway/test_generated_typescript_client.py type-checks it with tsc, then runs it with node).
// The SSE client yields each event's data; the event's name and id come to `onSseEvent`.

import { client } from './client/client.gen';
import { streamEvents, type ProblemDetails, type RoomUpdate, type StreamEnd } from './client';

declare const process: { argv: string[] };

async function main(): Promise<void> {
  const [baseUrl, roomId, token] = process.argv.slice(2);
  client.setConfig({ baseUrl, auth: token });
  const events: Array<{ event?: string; id?: string }> = [];
  const { stream } = await streamEvents({
    path: { room_id: roomId },
    sseMaxRetryAttempts: 1,
    onSseEvent: (event) => {
      if (event.data !== undefined) events.push({ event: event.event, id: event.id });
    },
  });
  const updates: RoomUpdate[] = [];
  let end: StreamEnd | undefined;
  let problem: ProblemDetails | undefined;
  for await (const item of stream) {
    if (!item) continue; // (the 204 answer's type: no data)
    if ('events' in item) {
      const version: string = item.version; // a RoomUpdate always has its version and events
      const kinds: string[] = item.events.map((event) => Object.keys(event)[0] ?? '');
      if (!version || kinds.length !== item.events.length) throw new Error('not a RoomUpdate');
      updates.push(item);
    } else if ('status' in item) {
      problem = item; // ProblemDetails: the server refused to go on
    } else {
      end = item;
    }
  }
  console.log(JSON.stringify({ events, updates, end, problem }));
}

main().catch((error: unknown) => {
  console.error(error);
  throw error;
});
