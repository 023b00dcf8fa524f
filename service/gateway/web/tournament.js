// A tournament: its seats, its games (each a room to watch), and the standings, kept live by the tournament's event
// stream (no ticket needed) until the last game ends.

import { api, hostedGames, Problem, statusName } from "./api.js";
import { fill, h, words } from "./dom.js";
import { outcomeSummary } from "./events.js";

const capitalised = (name) => words(name).replace(/^./, (first) => first.toUpperCase());

export function tournamentView(root, tournamentId) {
  const s = { version: 0, source: null, stopped: false, ended: false, retries: 0, timer: null, tournament: null };
  const title = h("h1", { testid: "tournament-title" }, "Tournament ", h("code", {}, tournamentId));
  const summary = h("p", { class: "turn", testid: "tournament-summary", role: "status" }, "Loading…");
  const connection = h("p", { class: "connection", testid: "connection", role: "status" });
  const caption = h("caption", { testid: "standings-caption" }, "Standings");
  const lines = h("tbody", {});
  const standings = h("table", { class: "standings", testid: "standings" }, caption, h("thead"), lines);
  // A duplicate tournament's comparison (Standings.hands): each hand of each deal, and what everyone who held it scored.
  const handLines = h("tbody", {});
  const hands = h(
    "table",
    { class: "standings", testid: "hands", hidden: true },
    h("caption", {}, "Hands compared: the same cards, each player's points with them"),
    h("thead", {}, h("tr", {}, ["Deal", "Table seat", "Played by"].map((text) => h("th", { scope: "col" }, text)))),
    handLines,
  );
  const gameList = h("ul", { class: "tournament-games", testid: "tournament-games" });
  const feed = h("ol", { class: "feed", testid: "feed", "aria-label": "Events" });
  const page = h(
    "div",
    { class: "room", testid: "tournament", data: { tournament: tournamentId, version: 0, gamesPlayed: 0, final: "false" } },
    h(
      "section",
      { class: "table", "aria-label": "Tournament" },
      h("header", { class: "table-head" }, title, h("a", { href: "#", class: "back" }, "Back to the lobby"), connection),
      summary,
      h("section", { class: "panel" }, standings, hands),
      h("section", { class: "panel", "aria-labelledby": "games-h" }, h("h2", { id: "games-h" }, "Games"), gameList),
    ),
    h("aside", { class: "events panel", "aria-labelledby": "events-h" }, h("h2", { id: "events-h" }, "Events"), feed),
  );
  root.append(page);

  /** Seat -> name ("heuristic bot (seat 2)" where several seats share a name). */
  function names(tournament) {
    const seats = new Map((tournament.seats || []).map((seat) => [seat.seat ?? 0, seat.name || ""]));
    const counts = new Map();
    seats.forEach((name) => counts.set(name, (counts.get(name) || 0) + 1));
    return (seat) => {
      const name = seats.get(seat ?? 0);
      if (!name) return `seat ${seat ?? 0}`;
      return counts.get(name) > 1 ? `${name} (seat ${seat ?? 0})` : name;
    };
  }

  function draw(tournament) {
    s.tournament = tournament;
    const name = names(tournament);
    const table = tournament.standings || {};
    const final = Boolean(table.final);
    const played = tournament.gamesPlayed ?? 0;
    const status = statusName(tournament.status);
    summary.textContent =
      status === "finished"
        ? `Finished: all ${tournament.games ?? 0} games played.`
        : status === "waiting"
          ? "Waiting for players to take the free seats."
          : `Playing: ${played} of ${tournament.games ?? 0} games played.`;
    caption.textContent = final ? "Final standings" : `Standings after ${played} of ${tournament.games ?? 0} games`;
    const tallyNames = [...new Set((table.lines || []).flatMap((entry) => (entry.tallies || []).map((tally) => tally.name)))];
    fill(
      standings.tHead,
      h(
        "tr",
        {},
        ["Place", "Player", "Seat", "Points", "Games won", ...tallyNames.map(capitalised)].map((text) => h("th", { scope: "col" }, text)),
      ),
    );
    fill(
      lines,
      (table.lines || []).map((entry) =>
        h(
          "tr",
          { testid: "standing", data: { seat: entry.seat ?? 0 } },
          h("td", {}, String(entry.place ?? 0)),
          h("th", { scope: "row" }, entry.name || name(entry.seat)),
          h("td", {}, String(entry.seat ?? 0)),
          h("td", {}, String(entry.points ?? 0)),
          h("td", {}, String(entry.gamesWon ?? 0)),
          tallyNames.map((tally) => h("td", {}, String((entry.tallies || []).find((item) => item.name === tally)?.value ?? 0))),
        ),
      ),
    );
    hands.hidden = !(table.hands || []).length;
    fill(
      handLines,
      (table.hands || []).map((hand) =>
        h(
          "tr",
          { testid: "hand", data: { deal: hand.deal ?? 0, tableSeat: hand.tableSeat ?? 0 } },
          h("td", {}, String((hand.deal ?? 0) + 1)),
          h("td", {}, String(hand.tableSeat ?? 0)),
          h(
            "td",
            {},
            (hand.plays || [])
              .map((play) => {
                const won = play.won ? ", won" : "";
                return `${play.name || name(play.seat)}: ${play.points ?? 0} points (game ${(play.game ?? 0) + 1}${won})`;
              })
              .join("; "),
          ),
        ),
      ),
    );
    fill(
      gameList,
      (tournament.gameList || []).map((game) => {
        const gameStatus = statusName(game.status);
        return h(
          "li",
          { testid: "tournament-game", data: { room: game.roomId, status: gameStatus } },
          `Game ${(game.index ?? 0) + 1}, ${name(game.firstSeat)} first: `,
          gameStatus === "finished" ? `${outcomeSummary(game.outcome, listed(name))} ` : `${gameStatus} `,
          h("a", { href: `#room=${encodeURIComponent(game.roomId)}&watch` }, gameStatus === "finished" ? "replay" : "watch"),
        );
      }),
    );
    Object.assign(page.dataset, { version: s.version, gamesPlayed: played, final: String(final), status });
    page.dispatchEvent(
      new CustomEvent("kickoff:render", { bubbles: true, detail: { tournament: tournamentId, gamesPlayed: played, final } }),
    );
  }

  function eventText(event, name) {
    if (event.seatTaken) return `${event.seatTaken.seat?.name || "someone"} took seat ${event.seatTaken.seat?.seat ?? 0}`;
    if (event.seatLeft) return `seat ${event.seatLeft.seat ?? 0} is free again`;
    if (event.gameStarted) return `game ${(event.gameStarted.game?.index ?? 0) + 1} started`;
    if (event.gameEnded) {
      const game = event.gameEnded.game || {};
      return `game ${(game.index ?? 0) + 1} ended: ${outcomeSummary(game.outcome, listed(name))}`;
    }
    if (event.standingsChanged) return "the standings changed";
    if (event.tournamentEnded) return "the tournament is over";
    return Object.keys(event)[0] || "event";
  }

  function onUpdate(update) {
    const version = Number(update.version || 0);
    if (version <= s.version) return;
    s.version = version;
    const tournament = update.tournament || {};
    const name = names(tournament);
    for (const event of update.events || []) feed.append(h("li", { data: { version } }, eventText(event, name)));
    feed.lastElementChild?.scrollIntoView?.({ block: "nearest" });
    draw(tournament);
  }

  function open() {
    if (s.stopped || s.ended) return;
    const source = new EventSource(api.tournamentEvents(tournamentId, s.version));
    s.source = source;
    source.addEventListener("open", () => {
      s.retries = 0;
      connection.textContent = "";
    });
    source.addEventListener("update", (message) => onUpdate(JSON.parse(message.data)));
    source.addEventListener("end", () => {
      source.close();
      s.ended = true;
    });
    source.addEventListener("error", () => {
      if (source.readyState !== EventSource.CLOSED) return; // the browser retries by itself
      source.close();
      if (!s.version && s.tournament) draw(s.tournament); // nothing from the stream yet: show what the server said
      if (statusName(s.tournament?.status) === "finished") {
        s.ended = true; // 204: nothing left to send
        return;
      }
      const delay = Math.min(10000, 500 * 2 ** s.retries++);
      connection.textContent = `Connection lost; reconnecting in ${Math.ceil(delay / 1000)} s…`;
      s.timer = setTimeout(open, delay);
    });
  }

  async function start() {
    try {
      const [tournament, games] = await Promise.all([api.tournament(tournamentId), hostedGames().catch(() => new Map())]);
      const game = games.get(tournament.game);
      fill(title, `${game?.title || tournament.game} tournament `, h("small", {}, h("code", {}, tournamentId)));
      document.title = `${game?.title || tournament.game} tournament - kickoff`;
      s.tournament = tournament;
      // The stream starts from the beginning: the events show every game, and the standings are drawn as each game
      // ended, up to now (drawing this answer first would show the newest standings, then older ones).
      if (!Number(tournament.version || 0)) draw(tournament);
      open();
    } catch (error) {
      const problem = error instanceof Problem ? error : new Problem(0, { detail: String(error) });
      connection.textContent = `This tournament cannot be shown: ${problem.text}`;
    }
  }

  start();
  return {
    stop() {
      s.stopped = true;
      s.source?.close();
      clearTimeout(s.timer);
    },
  };
}

/** What outcomeSummary needs of a seat book, from a tournament's own way of naming a seat. */
function listed(name) {
  return { names: (seats) => (seats || []).map(name).join(", ") || "nobody" };
}
