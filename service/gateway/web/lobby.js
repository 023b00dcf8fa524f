// The lobby: the games the server hosts, its rooms (join, watch, or go back to a seat this tab holds), its
// tournaments, and a form that creates a room and takes a seat in it.

import { api, hostedGames, Problem, seatTokens, statusName } from "./api.js";
import { field, fill, h, plural } from "./dom.js";

const NAME_KEY = "kickoff:name";

export function lobby(root) {
  let stopped = false;
  let rulesAsked = 0;
  let games = new Map();

  const status = h("p", { class: "lobby-status", testid: "lobby-status", role: "alert" });
  const name = h("input", {
    id: "name",
    testid: "name",
    name: "name",
    maxlength: 32,
    autocomplete: "nickname",
    placeholder: "your name",
    value: sessionStorage.getItem(NAME_KEY) || "",
  });
  const gameList = h("ul", { class: "games", testid: "games", "aria-label": "Games" });
  const roomList = h("tbody", { testid: "rooms" });
  const tournamentList = h("ul", { class: "tournaments", testid: "tournaments", "aria-label": "Tournaments" });

  // -- the create form -----------------------------------------------------------------------------------------------
  const game = h("select", { testid: "create-game", name: "game", onchange: () => gameChosen() });
  const seats = h("select", { testid: "create-seats", name: "seats", onchange: () => seatsChosen() });
  const mode = h(
    "select",
    { testid: "create-mode", name: "mode", onchange: () => seatsChosen() },
    h("option", { value: "solo" }, "Solo: you and system players"),
    h("option", { value: "online" }, "Online: people, with the clock"),
  );
  const system = h("input", { testid: "create-system", name: "system", type: "number", min: 0, value: 0 });
  const kind = h(
    "select",
    { testid: "create-system-kind", name: "systemPlayer" },
    h("option", { value: "heuristic" }, "heuristic"),
    h("option", { value: "random" }, "random"),
  );
  const think = h("input", {
    testid: "create-think",
    name: "thinkSeconds",
    type: "number",
    min: 0,
    max: 60,
    step: "any",
    placeholder: "0.8-2 s at random",
  });
  const choice = h("input", { testid: "create-choice", name: "choice", maxlength: 16 });
  const choiceField = field("Your choice", choice);
  const options = h("div", { class: "options", testid: "create-options" });
  const createForm = h(
    "form",
    { class: "create", testid: "create-form", onsubmit: (event) => create(event) },
    h("h2", {}, "Create a room"),
    field("Game", game),
    field("Seats", seats),
    field("Mode", mode),
    field("System players", system, "Seats the server plays; solo: every seat but yours."),
    field("System players' kind", kind),
    field("System players' think time (seconds)", think),
    choiceField,
    h("fieldset", {}, h("legend", {}, "Game options"), options),
    h("button", { type: "submit", testid: "create-submit" }, "Create and take a seat"),
  );

  const roomId = h("input", { testid: "room-id", name: "room", placeholder: "room id", maxlength: 32 });
  const byId = h(
    "form",
    { class: "by-id", onsubmit: (event) => (event.preventDefault(), joinRoom(roomId.value.trim())) },
    field("Room id", roomId),
    h("button", { type: "submit", testid: "join-by-id" }, "Join"),
    h("button", { type: "button", testid: "watch-by-id", onclick: () => watchRoom(roomId.value.trim()) }, "Watch"),
  );

  fill(
    root,
    h(
      "div",
      { class: "lobby", testid: "lobby" },
      h(
        "section",
        { class: "panel", "aria-labelledby": "you-h" },
        h("h2", { id: "you-h" }, "You"),
        field("Name", name, "Shown to the other players when you take a seat."),
        status,
      ),
      h("section", { class: "panel", "aria-labelledby": "games-h" }, h("h2", { id: "games-h" }, "Games"), gameList),
      h("section", { class: "panel" }, createForm),
      h(
        "section",
        { class: "panel wide", "aria-labelledby": "rooms-h" },
        h("h2", { id: "rooms-h" }, "Rooms"),
        h("button", { type: "button", testid: "refresh", onclick: () => refresh() }, "Refresh"),
        h(
          "table",
          { class: "rooms" },
          h("thead", {}, h("tr", {}, ["Game", "Status", "Mode", "Seats", ""].map((text) => h("th", { scope: "col" }, text)))),
          roomList,
        ),
        byId,
      ),
      h(
        "section",
        { class: "panel wide", "aria-labelledby": "tournaments-h" },
        h("h2", { id: "tournaments-h" }, "Tournaments"),
        tournamentList,
      ),
    ),
  );

  function say(text) {
    status.textContent = text;
  }

  function problem(error) {
    return error instanceof Problem ? error.text : String(error?.message || error);
  }

  function playerName() {
    const text = name.value.trim();
    sessionStorage.setItem(NAME_KEY, text);
    return text;
  }

  // -- games and the form --------------------------------------------------------------------------------------------
  async function loadGames() {
    games = await hostedGames();
    fill(
      gameList,
      [...games.values()].map((info) =>
        h(
          "li",
          { testid: "game", data: { game: info.name } },
          h("strong", {}, info.title || info.name),
          ` (${(info.seatCounts || []).join(", ")} seats): `,
          info.summary || "",
        ),
      ),
    );
    fill(game, [...games.values()].map((info) => h("option", { value: info.name }, info.title || info.name)));
    gameChosen();
  }

  function gameChosen() {
    const info = games.get(game.value);
    if (!info) return;
    const counts = info.seatCounts || [];
    const wanted = Number(seats.value) || 0;
    fill(seats, counts.map((count) => h("option", { value: count }, String(count))));
    seats.value = String(counts.includes(wanted) ? wanted : counts[0] ?? "");
    choiceField.hidden = !info.seatChoice;
    choice.placeholder = info.seatChoice || "";
    choice.value = "";
    seatsChosen();
    loadRules(info.name);
  }

  function seatsChosen() {
    const count = Number(seats.value) || 1;
    system.max = String(count - 1);
    if (mode.value === "solo") {
      system.value = String(count - 1);
      system.disabled = true;
    } else {
      system.disabled = false;
      system.value = String(Math.min(Number(system.value) || 0, count - 1));
    }
  }

  async function loadRules(gameName) {
    const asked = ++rulesAsked;
    fill(options, h("p", {}, "Loading the rules…"));
    try {
      const rules = await api.rules(gameName);
      if (asked !== rulesAsked || stopped) return; // another game was chosen meanwhile
      fill(
        options,
        (rules.options || []).map((option) => {
          const standard = option.defaultValue ?? option.value;
          const attributes = { testid: `option-${option.name}`, name: option.name, data: { standard: JSON.stringify(standard) } };
          let input;
          if (typeof standard === "boolean") {
            input = h("input", { ...attributes, type: "checkbox", checked: standard });
          } else if (typeof standard === "number") {
            input = h("input", {
              ...attributes,
              type: "number",
              value: String(standard),
              min: option.minimum ?? null,
              max: option.maximum ?? null,
            });
          } else {
            input = h("input", { ...attributes, type: "text", value: standard ?? "" });
          }
          return field(option.name.replace(/_/g, " "), input, option.description || "");
        }),
      );
    } catch (error) {
      if (asked === rulesAsked) fill(options, h("p", {}, `The rules could not be loaded: ${problem(error)}`));
    }
  }

  /** The options the form changed from their defaults. */
  function chosenOptions() {
    const chosen = {};
    for (const input of options.querySelectorAll("input")) {
      const standard = JSON.parse(input.dataset.standard);
      let value;
      if (input.type === "checkbox") value = input.checked;
      else if (input.type === "number") value = input.value === "" ? standard : Number(input.value);
      else value = input.value;
      if (value !== standard) chosen[input.name] = value;
    }
    return chosen;
  }

  async function create(event) {
    event.preventDefault();
    const body = {
      game: game.value,
      mode: mode.value === "solo" ? "ROOM_MODE_SOLO" : "ROOM_MODE_ONLINE",
      seats: Number(seats.value),
      systemPlayers: Number(system.value) || 0,
      systemPlayer: kind.value,
    };
    if (think.value !== "") body.thinkSeconds = Number(think.value);
    const chosen = chosenOptions();
    if (Object.keys(chosen).length) body.options = chosen;
    say("Creating the room…");
    try {
      const room = await api.createRoom(body);
      await takeSeat(room.roomId, choice.value.trim());
    } catch (error) {
      say(`The room was not created: ${problem(error)}`);
    }
  }

  async function takeSeat(id, chosen = "") {
    const body = { name: playerName() };
    if (chosen) body.choice = chosen;
    const joined = await api.join(id, body);
    seatTokens.set(id, { seat: joined.seat ?? 0, token: joined.seatToken, name: body.name });
    location.hash = `room=${encodeURIComponent(id)}`;
  }

  async function joinRoom(id) {
    if (!id) return say("Which room? Give its id.");
    if (seatTokens.get(id)) {
      location.hash = `room=${encodeURIComponent(id)}`;
      return;
    }
    say("Taking a seat…");
    try {
      await takeSeat(id);
    } catch (error) {
      say(`No seat was taken: ${problem(error)}`);
    }
  }

  function watchRoom(id) {
    if (!id) return say("Which room? Give its id.");
    location.hash = `room=${encodeURIComponent(id)}&watch`;
  }

  // -- rooms and tournaments -----------------------------------------------------------------------------------------
  function roomRow(room) {
    const id = room.roomId;
    const roomSeats = room.seats || [];
    const free = roomSeats.filter((seat) => !seat.taken).length;
    const mine = seatTokens.get(id);
    const roomStatus = statusName(room.status);
    const names = roomSeats.map((seat) => (seat.taken ? seat.name || "?" : "(free)")).join(", ");
    return h(
      "tr",
      { testid: "room-row", data: { room: id, status: roomStatus } },
      h("td", {}, games.get(room.game)?.title || room.game, " ", h("code", { class: "room-id" }, id)),
      h("td", {}, roomStatus),
      h("td", {}, room.mode === "ROOM_MODE_SOLO" ? "solo" : "online"),
      h("td", {}, `${names}${free ? ` - ${plural(free, "free seat")}` : ""}`),
      h(
        "td",
        { class: "actions" },
        mine
          ? h("button", { type: "button", testid: "resume", onclick: () => joinRoom(id) }, "Back to my seat")
          : roomStatus === "waiting" && free
            ? h("button", { type: "button", testid: "join", onclick: () => joinRoom(id) }, "Join")
            : null,
        h("button", { type: "button", testid: "watch", onclick: () => watchRoom(id) }, "Watch"),
      ),
    );
  }

  async function refresh() {
    try {
      const [rooms, tournaments] = await Promise.all([api.rooms(), api.tournaments()]);
      if (stopped) return;
      const list = rooms.rooms || [];
      fill(roomList, list.length ? list.map(roomRow) : h("tr", {}, h("td", { colspan: 5 }, "No rooms yet: create one.")));
      const cups = tournaments.tournaments || [];
      fill(
        tournamentList,
        cups.length
          ? cups.map((cup) =>
              h(
                "li",
                { testid: "tournament-row", data: { tournament: cup.tournamentId } },
                h("a", { href: `#tournament=${encodeURIComponent(cup.tournamentId)}` }, `${games.get(cup.game)?.title || cup.game} tournament`),
                ` ${cup.tournamentId}: ${statusName(cup.status)}, ${cup.gamesPlayed ?? 0} of ${cup.games ?? 0} games played`,
              ),
            )
          : h("li", {}, "No tournaments yet."),
      );
    } catch (error) {
      say(`The lobby could not be loaded: ${problem(error)}`);
    }
  }

  loadGames()
    .then(refresh)
    .catch((error) => say(`The games could not be loaded: ${problem(error)}`));

  return {
    stop() {
      stopped = true;
    },
  };
}
