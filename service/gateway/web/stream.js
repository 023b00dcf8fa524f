// Server-sent events read with fetch, for the streams that take the player's access token (a matchmaking ticket's):
// a browser's EventSource cannot send the Authorization header, and the token must not travel in the address. The
// answer is read as the SSE format says (events split by a blank line, `event:`, `id:` and `data:` fields, comment
// lines skipped); the caller comes back after a break with the last event's id, as an EventSource would.

import { Problem, readBody } from "./api.js";

/**
 * Reads the event stream at `path` (as the player of `token`, resuming after `lastId` when given), calling
 * `onEvent({event, id, data})` with each event's data parsed. Resolves with how the answer ended: "ended" (an `end`
 * or `problem` event came, or 204: nothing is left), "broken" (the connection broke off: come back later) or
 * "stopped" (`signal` aborted it). A refusal (401, 404...) rejects with its Problem before any event; `onOpen()` is
 * called once the server accepted the stream, before its first event.
 */
export async function readEvents(path, { token = "", lastId = "", signal, onEvent, onOpen }) {
  const headers = { Accept: "text/event-stream" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (lastId) headers["Last-Event-ID"] = String(lastId);
  let response;
  try {
    response = await fetch(path, { headers, signal, cache: "no-store" });
  } catch {
    return signal?.aborted ? "stopped" : "broken";
  }
  if (response.status === 204) return "ended";
  if (!response.ok) throw new Problem(response.status, (await readBody(response)) || {});
  onOpen?.();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let event = { event: "", id: "", data: [] };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return "broken"; // over without an `end` event: the stream broke off (a node went away)
      buffer += value;
      for (;;) {
        const at = buffer.search(/\r\n|\r|\n/);
        if (at < 0 || (buffer[at] === "\r" && at === buffer.length - 1)) break; // (a \r\n may be cut in two)
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + (buffer.startsWith("\r\n", at) ? 2 : 1));
        if (line) {
          field(event, line);
          continue;
        }
        const last = dispatch(event, onEvent);
        event = { event: "", id: "", data: [] };
        if (last) {
          reader.cancel().catch(() => {});
          return "ended";
        }
      }
    }
  } catch (error) {
    if (signal?.aborted) return "stopped";
    if (error instanceof Problem) throw error;
    return "broken";
  }
}

/** One line of an event: a field, or a comment (ignored). */
function field(event, line) {
  if (line.startsWith(":")) return;
  const colon = line.indexOf(":");
  const name = colon < 0 ? line : line.slice(0, colon);
  const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
  if (name === "event") event.event = value;
  else if (name === "id") event.id = value;
  else if (name === "data") event.data.push(value);
}

/** Hands an event with data on; true when it is the stream's last (`end` or `problem`). */
function dispatch(event, onEvent) {
  if (!event.data.length) return false; // (the `retry:` line and comments make no event)
  let data;
  try {
    data = JSON.parse(event.data.join("\n"));
  } catch {
    return false;
  }
  const name = event.event || "message";
  onEvent({ event: name, id: event.id, data });
  return name === "end" || name === "problem";
}
