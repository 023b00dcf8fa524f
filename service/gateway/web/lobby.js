// The lobby: the games the server hosts (with their leaderboards), its rooms (join, watch, or go back to a seat this
// tab holds), its tournaments, and a form that creates a room and takes a seat in it. Where the server knows players:
// signing in as a guest (session.js keeps the session), the signed-in player's games, each taken up in this tab (a
// second device picks the game up), and "Play now" beside each game: matchmaking finds the table (matchmaking.js),
// and the search is shown here with its wait and a way to cancel it. Signed out, every seat is an anonymous one, as
// before players.

import { api, hostedGames, Problem, seatTokens, statusName } from "./api.js";
import { newSeatSeed } from "./deal.js";
import { field, fill, h, plural } from "./dom.js";
import { friendsPanel } from "./friends.js";
import { cancelSearch, currentSearch, onSearchChange, playNow, searching } from "./matchmaking.js";
import {
  asPlayer,
  currentSession,
  myPlayerId,
  onSessionChange,
  playersServed,
  signInAsGuest,
  signOut,
  takeUpSeat,
} from "./session.js";

const NAME_KEY = "kickoff:name";

export function lobby(root) {
  let stopped = false;
  let rulesAsked = 0;
  let games = new Map();
  let playersOn = false; // the server knows players (until asked: as if not, unless a session is stored)
  let myRoomsAsked = 0;
  let myRoomsNext = "";

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
  const nameField = field("Name", name, "Shown to the other players when you take a seat.");
  const playerShown = h("strong", { testid: "player-name" });
  const signedIn = h(
    "div",
    { class: "signed-in", testid: "signed-in", hidden: true },
    h("p", {}, "Signed in as ", playerShown, "."),
    h("button", { type: "button", testid: "sign-out", onclick: () => leave() }, "Sign out"),
  );
  const signIn = h(
    "div",
    { class: "sign-in", testid: "sign-in", hidden: true },
    h("button", { type: "button", testid: "sign-in-guest", onclick: () => enter() }, "Sign in as guest"),
    h("small", {}, "With the name above: your games and ratings, kept in this browser."),
  );
  const gameList = h("ul", { class: "games", testid: "games", "aria-label": "Games" });
  // The search "Play now" started: its state in a live region (announced as it changes), the wait beside it (not
  // announced: it changes every second), and what can be done about it.
  const searchStatus = h("p", { class: "search-status", testid: "search-status", role: "status" });
  const searchWait = h("p", { class: "search-wait", testid: "search-wait", hidden: true });
  const searchCancel = h(
    "button",
    { type: "button", testid: "search-cancel", hidden: true, onclick: () => cancelSearch() },
    "Cancel search",
  );
  const searchAgain = h(
    "button",
    { type: "button", testid: "search-again", hidden: true, onclick: () => playAgain() },
    "Try again",
  );
  const searchBox = h(
    "div",
    { class: "search", testid: "search", data: { phase: "", ticket: "" } },
    searchStatus,
    searchWait,
    h("p", { class: "search-actions" }, searchCancel, searchAgain),
  );
  const myRoomList = h("tbody", { testid: "my-rooms" });
  const myRoomsMore = h(
    "button",
    { type: "button", testid: "my-rooms-more", hidden: true, onclick: () => loadMyRooms(true) },
    "More of my games",
  );
  const myGames = h(
    "section",
    { class: "panel wide", testid: "my-games", "aria-labelledby": "my-games-h", hidden: true },
    h("h2", { id: "my-games-h" }, "My games"),
    h("button", { type: "button", testid: "my-rooms-refresh", onclick: () => loadMyRooms() }, "Refresh"),
    h(
      "table",
      { class: "rooms", "aria-labelledby": "my-games-h" },
      h("thead", {}, h("tr", {}, ["Game", "Status", "Seat", "Players", ""].map((text) => h("th", { scope: "col" }, text)))),
      myRoomList,
    ),
    myRoomsMore,
  );
  const roomList = h("tbody", { testid: "rooms" });
  // The rooms: every waiting room first (a page of them, then more on asking), then the others, newest first, paged.
  const rooms = { waiting: [], others: [], waitingToken: "", othersToken: "" };
  const roomsMore = h(
    "button",
    { type: "button", testid: "rooms-more", hidden: true, onclick: () => moreRooms() },
    "More rooms",
  );
  const tournamentList = h("ul", { class: "tournaments", testid: "tournaments", "aria-label": "Tournaments" });
  const social = friendsPanel(); // (shown signed in)

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
    h("option", { value: "normal" }, "normal"),
    h("option", { value: "hard" }, "hard (searches)"),
    h("option", { value: "easy" }, "easy"),
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
  const standIns = h("input", { testid: "create-stand-ins", name: "standIns", type: "checkbox" });
  const unlisted = h("input", { testid: "create-unlisted", name: "unlisted", type: "checkbox" });
  const chat = h(
    "select",
    { testid: "create-chat", name: "chat" },
    h("option", { value: "CHAT_MODE_ON" }, "On: messages and quick reactions"),
    h("option", { value: "CHAT_MODE_REACTIONS" }, "Quick reactions only"),
    h("option", { value: "CHAT_MODE_OFF" }, "Off"),
  );
  const teamChat = h("input", { testid: "create-team-chat", name: "teamChat", type: "checkbox" });
  const teamChatField = field("Team chat", teamChat, "Each team gets a channel of its own. Off by default: partners who talk can tell each other their hands.");
  teamChatField.hidden = true; // (until a team game's table size is chosen)
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
    field(
      "Stand-ins",
      standIns,
      "Online: once the clock plays for a person twice in a row, a normal system player plays for them until they move.",
    ),
    field(
      "Private table",
      unlisted,
      "Signed in: the room is in nobody's lobby; invite people with its link, or invite a friend, at the table.",
    ),
    field("Chat", chat),
    teamChatField,
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
        signedIn,
        nameField,
        signIn,
        status,
      ),
      social.element,
      h(
        "section",
        { class: "panel", "aria-labelledby": "games-h" },
        h("h2", { id: "games-h" }, "Games"),
        gameList,
        searchBox,
      ),
      h("section", { class: "panel" }, createForm),
      myGames,
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
        roomsMore,
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
    drawGames();
    fill(game, [...games.values()].map((info) => h("option", { value: info.name }, info.title || info.name)));
    gameChosen();
  }

  function drawGames() {
    fill(
      gameList,
      [...games.values()].map((info) =>
        h(
          "li",
          { testid: "game", data: { game: info.name } },
          h("strong", {}, info.title || info.name),
          ` (${(info.seatCounts || []).join(", ")} seats): `,
          info.summary || "",
          playersOn
            ? [
                " ",
                h(
                  "a",
                  { href: `#leaderboard=${encodeURIComponent(info.name)}`, testid: "leaderboard-link" },
                  `${info.title || info.name} leaderboard`,
                ),
                " ",
                h(
                  "button",
                  {
                    type: "button",
                    class: "play-now",
                    testid: "play-now",
                    "aria-label": `Play now: ${info.title || info.name}`,
                    disabled: searching(),
                    onclick: () => playNow(info.name, info.title || info.name, playerName()),
                  },
                  "Play now",
                ),
              ]
            : null,
        ),
      ),
    );
  }

  // -- "Play now" ----------------------------------------------------------------------------------------------------
  function searchText(search) {
    const title = search.title;
    const seat = search.ticket?.table?.takeUpTime;
    switch (search.phase) {
      case "starting":
        return search.message || `Joining the ${title} queue…`;
      case "forming":
        return `Waiting for your party to join the ${title} search…`;
      case "searching":
        return search.ticket?.reason === "not_taken_up"
          ? `Back in the ${title} queue (the seat was not taken up in time): searching for a table…`
          : `Searching for a ${title} table…`;
      case "proposed":
        return seat
          ? `A ${title} table is found: taking your seat…`
          : `A ${title} table is found: waiting for the other players to take their seats…`;
      case "matched":
        return `A ${title} table is ready: going to it…`;
      case "cancelled":
        return `The ${title} search was cancelled.`;
      case "expired":
        return `Nobody was found in time: the ${title} search ended.`;
      default:
        return search.message;
    }
  }

  function drawSearch() {
    const search = currentSearch();
    const live = searching(search);
    Object.assign(searchBox.dataset, { phase: search?.phase || "", ticket: search?.ticketId || "" });
    const text = search ? searchText(search) : "";
    const extra = search && search.phase !== "failed" && search.phase !== "starting" ? search.message : "";
    searchStatus.textContent = extra ? `${text} ${extra}` : text;
    searchCancel.hidden = !live;
    searchCancel.disabled = !search?.ticketId || Boolean(search?.cancelling);
    searchAgain.hidden = !search || live;
    searchAgain.setAttribute("aria-label", search ? `Try again: play ${search.title} now` : "Try again");
    gameList.querySelectorAll('[data-testid="play-now"]').forEach((button) => (button.disabled = live));
    drawWait();
  }

  /** How long the search has waited, by this browser's clock: "Waiting: 0:07". */
  function drawWait() {
    const search = currentSearch();
    searchWait.hidden = !searching(search);
    if (searchWait.hidden) return;
    const seconds = Math.max(0, Math.floor((Date.now() - search.startedAt) / 1000));
    searchWait.textContent = `Waiting: ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  }

  function playAgain() {
    const search = currentSearch();
    if (search) playNow(search.game, search.title, playerName());
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
    // Team chat is for a table whose seats play in teams (the server lists those sizes: GameInfo.teamSeatCounts).
    teamChatField.hidden = !(games.get(game.value)?.teamSeatCounts || []).includes(count);
    if (teamChatField.hidden) teamChat.checked = false;
    system.max = String(count - 1);
    if (mode.value === "solo") {
      system.value = String(count - 1);
      system.disabled = true;
      standIns.checked = false;
      standIns.disabled = true; // (a solo room has no clock)
    } else {
      system.disabled = false;
      standIns.disabled = false;
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
    if (standIns.checked) body.standIns = true;
    if (unlisted.checked) body.unlisted = true; // (signed out, the server refuses it: unlisted_needs_player)
    if (chat.value !== "CHAT_MODE_ON") body.chat = chat.value;
    if (teamChat.checked && !teamChatField.hidden) body.teamChat = true;
    const changed = chosenOptions();
    if (Object.keys(changed).length) body.options = changed;
    say("Creating the room…");
    const chosen = choice.value.trim();
    try {
      if (await actingAsPlayer()) {
        // The player is seated by creating it, in the first person's seat, with their choice.
        if (chosen) body.choice = chosen;
        body.seed = newSeatSeed(); // (the creator's seat's seed for the fair deal: they are seated by creating it)
        const answer = await asPlayer((token) => api.createRoom(body, token));
        const room = answer.room || answer;
        if (answer.seatToken) {
          keepSeat(room.roomId, answer.seat ?? 0, answer.seatToken, currentSession()?.player.name || "");
          open(room.roomId);
        } else {
          await takeUp(room.roomId);
        }
      } else {
        // Anyone else takes a seat of the room made, with their choice.
        const room = await api.createRoom(body);
        await takeSeat(room.roomId, chosen);
      }
    } catch (error) {
      say(`The room was not created: ${problem(error)}`);
    }
  }

  /** Whether the page acts for a player: signed in, on a server that knows players. */
  function signedInHere() {
    return playersOn && Boolean(currentSession());
  }

  /** The same, once the server was asked whether it knows players (asked once per page load). */
  async function actingAsPlayer() {
    playersOn = await playersServed();
    return signedInHere();
  }

  function keepSeat(id, seat, token, seatName) {
    seatTokens.set(id, { seat, token, name: seatName, player: myPlayerId() || undefined });
  }

  function open(id) {
    location.hash = `room=${encodeURIComponent(id)}`;
  }

  async function takeSeat(id, chosen = "") {
    if (await actingAsPlayer()) {
      const body = chosen ? { choice: chosen } : {};
      let joined;
      try {
        joined = await asPlayer((token) => api.join(id, body, token));
      } catch (error) {
        if (error instanceof Problem && error.reason === "already_seated") return takeUp(id);
        throw error;
      }
      keepSeat(id, joined.seat ?? 0, joined.seatToken, currentSession()?.player.name || "");
      open(id);
      return;
    }
    const body = { name: playerName() };
    if (chosen) body.choice = chosen;
    const joined = await api.join(id, body);
    seatTokens.set(id, { seat: joined.seat ?? 0, token: joined.seatToken, name: body.name });
    open(id);
  }

  /** The player's seat of a room, taken up in this tab (a fresh seat token), and its table opened. */
  async function takeUp(id) {
    await takeUpSeat(id);
    open(id);
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
    const me = signedInHere() ? myPlayerId() : "";
    const tabHolds = Boolean(seatTokens.get(id));
    const mine = tabHolds || (me && roomSeats.some((seat) => seat.playerId === me));
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
          ? h(
              "button",
              { type: "button", testid: "resume", onclick: () => (tabHolds ? joinRoom(id) : pickUp(id)) },
              "Back to my seat",
            )
          : roomStatus === "waiting" && free
            ? h("button", { type: "button", testid: "join", onclick: () => joinRoom(id) }, "Join")
            : null,
        roomStatus === "finished"
          ? h("a", { class: "button", testid: "replay", href: `#replay=${encodeURIComponent(id)}` }, "Replay")
          : h("button", { type: "button", testid: "watch", onclick: () => watchRoom(id) }, "Watch"),
      ),
    );
  }

  function drawRooms() {
    const seen = new Set();
    const list = [...rooms.waiting, ...rooms.others].filter((room) => !seen.has(room.roomId) && seen.add(room.roomId));
    fill(roomList, list.length ? list.map(roomRow) : h("tr", {}, h("td", { colspan: 5 }, "No rooms yet: create one.")));
    roomsMore.hidden = !rooms.waitingToken && !rooms.othersToken;
  }

  /** The next page: of the waiting rooms while there are more, then of the others (a room waiting is shown once). */
  async function moreRooms() {
    try {
      if (rooms.waitingToken) {
        const page = await api.rooms("waiting", rooms.waitingToken);
        rooms.waiting.push(...(page.rooms || []));
        rooms.waitingToken = page.nextPageToken || "";
      } else if (rooms.othersToken) {
        const page = await api.rooms("", rooms.othersToken);
        rooms.others.push(...othersOf(page));
        rooms.othersToken = page.nextPageToken || "";
      }
      if (!stopped) drawRooms();
    } catch (error) {
      say(`More rooms could not be loaded: ${problem(error)}`);
    }
  }

  function othersOf(page) {
    return (page.rooms || []).filter((room) => statusName(room.status) !== "waiting");
  }

  async function refresh() {
    try {
      const [waiting, others, tournaments] = await Promise.all([
        api.rooms("waiting"),
        api.rooms(""),
        api.tournaments(),
      ]);
      if (stopped) return;
      Object.assign(rooms, {
        waiting: waiting.rooms || [],
        waitingToken: waiting.nextPageToken || "",
        others: othersOf(others),
        othersToken: others.nextPageToken || "",
      });
      drawRooms();
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

  // -- the player ----------------------------------------------------------------------------------------------------
  function drawPlayer() {
    const held = playersOn ? currentSession() : null;
    signedIn.hidden = !held;
    nameField.hidden = Boolean(held);
    signIn.hidden = !playersOn || Boolean(held);
    playerShown.textContent = held?.player.name || "";
    myGames.hidden = !held;
    social.start(playersOn && Boolean(held));
  }

  async function enter() {
    say("Signing in…");
    try {
      await signInAsGuest(playerName());
      say("");
    } catch (error) {
      say(`You were not signed in: ${problem(error)}`);
    }
  }

  async function leave() {
    try {
      if (searching()) await cancelSearch(); // (signed out, the search could no longer be cancelled: it would wait on)
      await signOut();
      say("");
    } catch (error) {
      say(`Signed out here (the server could not be told: ${problem(error)}).`);
    }
  }

  async function pickUp(id) {
    say("Taking your seat up…");
    try {
      await takeUp(id);
    } catch (error) {
      say(`Your seat could not be taken up: ${problem(error)}`);
    }
  }

  function myRoomRow(mine) {
    const room = mine.room || {};
    const id = room.roomId;
    const roomStatus = statusName(room.status);
    const names = (room.seats || []).map((seat) => (seat.taken ? seat.name || "?" : "(free)")).join(", ");
    return h(
      "tr",
      { testid: "my-room", data: { room: id, status: roomStatus, myTurn: String(Boolean(mine.myTurn)) } },
      h(
        "td",
        {},
        mine.myTurn ? [h("strong", { class: "my-turn-mark", testid: "my-turn" }, "Your turn"), " "] : null,
        games.get(room.game)?.title || room.game,
        " ",
        h("code", { class: "room-id" }, id),
      ),
      h("td", {}, room.rated ? `${roomStatus}, rated` : roomStatus),
      h("td", {}, String(mine.seat ?? 0)),
      h("td", {}, names),
      h(
        "td",
        { class: "actions" },
        h(
          "button",
          { type: "button", testid: "take-up", onclick: () => pickUp(id) },
          roomStatus === "finished" ? "Open" : "Play",
        ),
      ),
    );
  }

  /** The player's rooms (their turn first, as the server orders them), a page at a time. */
  async function loadMyRooms(more = false) {
    if (!signedInHere()) return;
    const asked = ++myRoomsAsked;
    try {
      const answer = await asPlayer((token) => api.myRooms(token, more ? myRoomsNext : ""));
      if (stopped || asked !== myRoomsAsked) return;
      const rows = (answer.rooms || []).map(myRoomRow);
      if (more) myRoomList.append(...rows);
      else fill(myRoomList, rows.length ? rows : h("tr", {}, h("td", { colspan: 5 }, "No games yet: create or join one.")));
      myRoomsNext = answer.nextPageToken || "";
      myRoomsMore.hidden = !myRoomsNext;
    } catch (error) {
      if (!stopped && asked === myRoomsAsked && currentSession()) say(`Your games could not be loaded: ${problem(error)}`);
    }
  }

  // A new pair of tokens changes nothing here; signing in or out (here or in another tab) does.
  let shownPlayer = myPlayerId();
  const unsubscribe = onSessionChange((held, reason) => {
    if (stopped) return;
    drawPlayer();
    const now = held?.player.playerId || "";
    if (now === shownPlayer) return;
    shownPlayer = now;
    fill(myRoomList);
    myRoomsMore.hidden = true;
    if (!held && reason && reason !== "signed_out") say(`You were signed out (${reason.replace(/_/g, " ")}).`);
    loadMyRooms();
    refresh();
  });

  const unfollow = onSearchChange(() => stopped || drawSearch());
  const waiting = setInterval(drawWait, 1000);
  drawSearch();
  drawPlayer();
  loadGames()
    .then(async () => {
      playersOn = await playersServed();
      if (stopped) return;
      drawGames();
      drawPlayer();
      loadMyRooms();
      await refresh();
    })
    .catch((error) => say(`The games could not be loaded: ${problem(error)}`));

  return {
    stop() {
      stopped = true;
      unsubscribe();
      unfollow();
      clearInterval(waiting);
      social.stop();
    },
  };
}
