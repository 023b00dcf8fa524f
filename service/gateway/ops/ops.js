// The operators' page. The operator key is typed in, kept in this tab's sessionStorage and sent as the
// X-Operator-Key header to the gateway's /v1/ops routes (same origin); nothing is fetched from anywhere else. It reads
// the service (nodes, leases, rooms, a room's timeline) and acts only on the chat: a reported message deleted, its
// author muted, a mute ended, a report closed. Every text shown is set as text (never as markup): a chat message is
// what a player typed.

const KEY = "kickoff.operatorKey";
const $ = (id) => document.getElementById(id);
const enc = encodeURIComponent;

class Problem extends Error {
  constructor(status, body = {}) {
    super(body.detail || body.title || `HTTP ${status}`);
    this.status = status;
    this.reason = body.reason || "";
  }
}

function key() {
  return sessionStorage.getItem(KEY) || "";
}

async function call(path, body = undefined) {
  let response;
  const headers = { Accept: "application/json", "X-Operator-Key": key() };
  const init = { headers };
  if (body !== undefined) {
    init.method = "POST";
    if (body !== null) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
  }
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new Problem(0, { detail: `the gateway cannot be reached (${error.message})`, reason: "unreachable" });
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: text.slice(0, 200) };
  }
  if (!response.ok) throw new Problem(response.status, data || {});
  return data;
}

function say(text, problem = false) {
  const status = $("status");
  status.textContent = text;
  status.classList.toggle("problem", problem);
}

function cell(row, text) {
  const td = document.createElement("td");
  td.textContent = text;
  row.append(td);
  return td;
}

function fill(table, rows, columns, empty, append = false) {
  const body = $(table).tBodies[0];
  if (!append) body.replaceChildren();
  if (!rows.length && !append) {
    const row = body.insertRow();
    const td = cell(row, empty);
    td.colSpan = columns;
    td.className = "empty";
    return [];
  }
  return rows.map(() => body.insertRow());
}

const when = (stamp) => (stamp ? new Date(stamp).toLocaleTimeString() : "-");
const status = (name) => (name || "").replace(/^ROOM_STATUS_/, "").toLowerCase();

async function showNodes() {
  const answer = await call("/v1/ops/nodes?page_size=100");
  const nodes = answer.nodes || [];
  fill("nodes", nodes, 5, "no node").forEach((row, index) => {
    const node = nodes[index];
    cell(row, node.nodeId + (node.thisNode ? " (this one)" : ""));
    cell(row, node.address || "-");
    cell(row, node.alive ? "yes" : "no");
    cell(row, String(node.leases));
    cell(row, when(node.expireTime));
  });
  return answer;
}

let leasesToken = "";
async function showLeases(append = false) {
  const answer = await call(`/v1/ops/leases?page_size=50${append && leasesToken ? `&page_token=${enc(leasesToken)}` : ""}`);
  const leases = answer.leases || [];
  fill("leases", leases, 5, "no lease (a single server holds none)", append).forEach((row, index) => {
    const lease = leases[index];
    cell(row, lease.kind);
    cell(row, lease.targetId);
    cell(row, lease.nodeId || "(given back)");
    cell(row, String(lease.epoch));
    cell(row, lease.orphaned ? "yes" : "no");
  });
  leasesToken = answer.nextPageToken;
  $("more-leases").hidden = !leasesToken;
}

let roomsToken = "";
async function showRooms(append = false) {
  const node = $("filter-node").value.trim();
  const game = $("filter-game").value.trim();
  let path = `/v1/ops/rooms?page_size=50`;
  if (node) path += `&node_id=${enc(node)}`;
  if (game) path += `&game=${enc(game)}`;
  if (append && roomsToken) path += `&page_token=${enc(roomsToken)}`;
  const answer = await call(path);
  const rooms = answer.rooms || [];
  fill("rooms", rooms, 6, "no live room", append).forEach((row, index) => {
    const room = rooms[index];
    cell(row, room.roomId);
    cell(row, room.game);
    cell(row, status(room.status));
    cell(row, String(room.seats));
    cell(row, room.nodeId || "-");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Timeline";
    button.setAttribute("aria-label", `Timeline of room ${room.roomId}`);
    button.addEventListener("click", () => {
      $("timeline-room").value = room.roomId;
      showTimeline(room.roomId).catch(failed);
    });
    row.insertCell().append(button);
  });
  roomsToken = answer.nextPageToken;
  $("more-rooms").hidden = !roomsToken;
}

/** One event in words: the room's own events by name, a game's event as the spectator's JSON. */
function describe(event) {
  if (event.seatTaken) return `seat ${event.seatTaken.seat.seat} taken by ${event.seatTaken.seat.name || "someone"}`;
  if (event.seatLeft) return `seat ${event.seatLeft.seat} given back`;
  if (event.gameStarted) return `the game started, seat ${event.gameStarted.firstSeat} first`;
  if (event.standIn) return `a stand-in ${event.standIn.level ? "plays" : "stops playing"} for seat ${event.standIn.seat}`;
  if (event.gameEnded) return `the game ended: ${event.gameEnded.outcome.reason}`;
  if (event.game) return JSON.stringify(event.game);
  return JSON.stringify(event);
}

let timeline = { room: "", after: "0" };
async function showTimeline(room, append = false) {
  const after = append ? timeline.after : "0";
  const answer = await call(`/v1/ops/rooms/${enc(room)}/timeline?after_version=${enc(after)}&page_size=100`);
  const list = $("timeline");
  if (!append) list.replaceChildren();
  const shown = answer.room;
  $("timeline-summary").textContent =
    `Room ${shown.roomId}: ${shown.game}, ${status(shown.status)}, version ${answer.lastVersion}` +
    (shown.outcome ? `, ended: ${shown.outcome.reason}` : "");
  for (const update of answer.updates || []) {
    const item = document.createElement("li");
    const version = document.createElement("span");
    version.className = "version";
    version.textContent = `v${update.version} ${when(update.time)} `;
    item.append(version);
    const events = (update.events || []).map(describe);
    item.append(document.createTextNode(events.length ? events.join("; ") : "(no event: a seat's token was revoked)"));
    list.append(item);
  }
  timeline = { room, after: answer.nextAfterVersion };
  $("more-timeline").hidden = answer.nextAfterVersion === "0" || !answer.nextAfterVersion;
}

// -- the chat's moderation (issue 49) --------------------------------------------------------------------------------

const author = (line) => `${line.name || "(no name)"} (${line.playerId || "an anonymous seat"})`;
const noPlayers = (error) => error.status === 409 && error.reason === "players_off";

let reportsToken = "";
async function showReports(append = false) {
  let answer;
  try {
    answer = await call(`/v1/ops/chat/reports?page_size=50${append && reportsToken ? `&page_token=${enc(reportsToken)}` : ""}`);
  } catch (error) {
    if (!noPlayers(error)) throw error;
    $("reports-off").hidden = false;
    $("reports").hidden = true;
    return;
  }
  const reports = answer.reports || [];
  fill("reports", reports, 7, "no report", append).forEach((row, index) => {
    const report = reports[index];
    cell(row, when(report.createTime));
    cell(row, report.roomId);
    cell(row, author(report.message));
    cell(row, report.message.text);
    cell(row, report.reason || "-");
    cell(row, report.open ? "open" : `closed by ${report.closedBy}`);
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Read";
    button.setAttribute("aria-label", `Read report ${report.reportId}`);
    button.addEventListener("click", () => showReport(report.reportId).catch(failed));
    row.insertCell().append(button);
  });
  reportsToken = answer.nextPageToken;
  $("more-reports").hidden = !reportsToken;
}

let shownReport = null;
async function showReport(reportId) {
  const report = (await call(`/v1/ops/chat/reports/${enc(reportId)}`)).report;
  shownReport = report;
  $("report").hidden = false;
  $("report-summary").textContent =
    `Room ${report.roomId}, reported by ${report.reporterId} at ${when(report.createTime)}` +
    (report.reason ? `: ${report.reason}` : "") +
    (report.open ? "." : `. Closed by key ${report.closedBy}${report.note ? `: ${report.note}` : ""}.`);
  const lines = [...(report.context || []), report.message].sort((a, b) => Number(a.seq) - Number(b.seq));
  const list = $("report-context");
  list.replaceChildren();
  for (const line of lines) {
    const item = document.createElement("li");
    const reported = line.seq === report.message.seq;
    if (reported) item.className = "reported";
    const who = document.createElement("span");
    who.className = "who";
    const channel = String(line.channel || "").replace("CHAT_CHANNEL_", "").toLowerCase();
    who.textContent = `#${line.seq} ${when(line.sendTime)} ${channel} ${author(line)}${reported ? " (reported)" : ""}: `;
    item.append(who, document.createTextNode(line.text));
    if (line.deleted) {
      const gone = document.createElement("span");
      gone.className = "deleted";
      gone.textContent = " (deleted)";
      item.append(gone);
    }
    list.append(item);
  }
  $("delete-message").disabled = Boolean(report.message.deleted);
  $("mute-form").querySelector("button").disabled = !report.message.playerId;
  $("close-form").querySelector("button").disabled = !report.open;
  $("report-heading").focus?.();
}

async function deleteReported() {
  const report = shownReport;
  const answer = await call(`/v1/ops/rooms/${enc(report.roomId)}/chat/${enc(report.message.seq)}/delete`, null);
  say(answer.deleted ? `Message #${report.message.seq} deleted.` : `Message #${report.message.seq} was deleted before.`);
  await showReport(report.reportId);
}

async function muteAuthor() {
  const report = shownReport;
  const choice = $("mute-for").value;
  const body = { reason: $("mute-reason").value.trim() };
  if (choice === "until") body.untilEnded = true;
  else body.seconds = choice;
  const mute = (await call(`/v1/ops/players/${enc(report.message.playerId)}/mute`, body)).mute;
  say(`${author(report.message)} is muted ${mute.until ? `until ${new Date(mute.until).toLocaleString()}` : "until the mute is ended"}.`);
  $("mute-reason").value = "";
  await showMutes();
}

async function closeReport() {
  const report = shownReport;
  await call(`/v1/ops/chat/reports/${enc(report.reportId)}/close`, { note: $("close-note").value.trim() });
  $("close-note").value = "";
  say("The report is closed.");
  await Promise.all([showReport(report.reportId), showReports()]);
}

let mutesToken = "";
async function showMutes(append = false) {
  let answer;
  try {
    answer = await call(`/v1/ops/chat/mutes?page_size=50${append && mutesToken ? `&page_token=${enc(mutesToken)}` : ""}`);
  } catch (error) {
    if (!noPlayers(error)) throw error;
    $("mutes").hidden = true;
    return;
  }
  const mutes = answer.mutes || [];
  fill("mutes", mutes, 5, "nobody is muted", append).forEach((row, index) => {
    const mute = mutes[index];
    cell(row, mute.playerId);
    cell(row, mute.until ? new Date(mute.until).toLocaleString() : "until ended");
    cell(row, mute.reason || "-");
    cell(row, mute.createdBy);
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "End";
    button.setAttribute("aria-label", `End the mute of ${mute.playerId}`);
    button.addEventListener("click", async () => {
      try {
        await call(`/v1/ops/players/${enc(mute.playerId)}/mute/end`, null);
        say(`The mute of ${mute.playerId} is ended.`);
        await showMutes();
      } catch (error) {
        failed(error);
      }
    });
    row.insertCell().append(button);
  });
  mutesToken = answer.nextPageToken;
  $("more-mutes").hidden = !mutesToken;
}

function failed(error) {
  if (error.status === 401 || error.status === 403) {
    $("views").hidden = true;
    say(`Refused: ${error.message}${error.reason ? ` (${error.reason})` : ""}`, true);
  } else {
    say(`${error.message}${error.reason ? ` (${error.reason})` : ""}`, true);
  }
}

async function showAll() {
  if (!key()) {
    $("views").hidden = true;
    say("Type the operator key to see the service.");
    return;
  }
  say("Loading…");
  const nodes = await showNodes();
  await Promise.all([showLeases(), showRooms(), showReports(), showMutes()]);
  $("views").hidden = false;
  say(nodes.cluster ? "A cluster: every node is listed." : "A single server.");
}

$("key-form").addEventListener("submit", (event) => {
  event.preventDefault();
  sessionStorage.setItem(KEY, $("key").value.trim());
  $("key").value = "";
  showAll().catch(failed);
});
$("forget").addEventListener("click", () => {
  sessionStorage.removeItem(KEY);
  $("views").hidden = true;
  say("The key is forgotten.");
});
$("room-filter").addEventListener("submit", (event) => {
  event.preventDefault();
  showRooms().catch(failed);
});
$("timeline-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const room = $("timeline-room").value.trim();
  if (room) showTimeline(room).catch(failed);
});
$("more-leases").addEventListener("click", () => showLeases(true).catch(failed));
$("more-rooms").addEventListener("click", () => showRooms(true).catch(failed));
$("more-timeline").addEventListener("click", () => showTimeline(timeline.room, true).catch(failed));
$("more-reports").addEventListener("click", () => showReports(true).catch(failed));
$("more-mutes").addEventListener("click", () => showMutes(true).catch(failed));
$("delete-message").addEventListener("click", () => deleteReported().catch(failed));
$("mute-form").addEventListener("submit", (event) => {
  event.preventDefault();
  muteAuthor().catch(failed);
});
$("close-form").addEventListener("submit", (event) => {
  event.preventDefault();
  closeReport().catch(failed);
});

showAll().catch(failed);
