// A game's leaderboard, at #leaderboard=GAME: its players by rating (the display figure, mu - 3 sigma), best first, a
// page at a time; the rated games a player needs to appear (also in an empty board's one line); and the signed-in
// player's own place with the players just above and below, or, until they have one, their rated games and how many
// more they have to play.

import { api, hostedGames, Problem } from "./api.js";
import { fill, h, plural } from "./dom.js";
import { asPlayer, currentSession, myPlayerId, ratingText } from "./session.js";

const PAGE_SIZE = 25;
const COLUMNS = ["Rank", "Player", "Rating", "Games", "Won"];

export function leaderboardView(root, game) {
  const s = { stopped: false, next: "", asked: 0, title: game };
  const title = h("h1", { testid: "leaderboard-title", id: "leaderboard-h" }, "Leaderboard");
  const status = h("p", { class: "lobby-status", testid: "leaderboard-status", role: "alert" });
  const minimum = h("p", { class: "role", testid: "min-games" });
  const mine = h("div", { class: "my-rank", testid: "my-rank", hidden: true });
  const caption = h("caption", {}, "Players by rating");
  const lines = h("tbody", { testid: "leaderboard-lines" });
  const more = h(
    "button",
    { type: "button", testid: "leaderboard-more", hidden: true, onclick: () => load(true) },
    "More players",
  );
  const others = h("nav", { class: "other-boards", "aria-label": "Other leaderboards" });
  const page = h(
    "div",
    { class: "leaderboard", testid: "leaderboard", data: { game } },
    h(
      "section",
      { class: "table", "aria-labelledby": "leaderboard-h" },
      h(
        "header",
        { class: "table-head" },
        title,
        h("a", { href: "#", class: "back" }, "Back to the lobby"),
        minimum,
        status,
      ),
      mine,
      h(
        "section",
        { class: "panel" },
        h("table", { class: "standings", testid: "leaderboard-table" }, caption, head(), lines),
        more,
      ),
      others,
    ),
  );
  root.append(page);

  function head() {
    return h("thead", {}, h("tr", {}, COLUMNS.map((text) => h("th", { scope: "col" }, text))));
  }

  function problem(error) {
    return error instanceof Problem ? error.text : String(error?.message || error);
  }

  function row(line, testid = "leaderboard-line") {
    const rating = line.rating || {};
    const me = line.playerId && line.playerId === myPlayerId();
    return h(
      "tr",
      { testid, class: me ? "me" : null, "aria-current": me ? "true" : null, data: { player: line.playerId || "" } },
      h("td", {}, String(line.rank ?? "")),
      h("th", { scope: "row" }, line.name || "?", me ? " (you)" : ""),
      h("td", { class: "rating" }, ratingText(rating)),
      h("td", {}, String(rating.games ?? 0)),
      h("td", {}, String(rating.wins ?? 0)),
    );
  }

  // An empty board says what it takes to be on it (a board with nobody on it tells nothing of itself otherwise).
  function nobody(count) {
    return `Nobody yet: a player appears after ${plural(count ?? 0, "rated game")}.`;
  }

  // Off the board: the games played and those still to play (GetRank's ratedGames and gamesToPlay; 0 to play off
  // the board is a player whose count the board has not caught up with: it says the minimum).
  function notYet(answer) {
    const played = answer.ratedGames ?? 0;
    const toPlay = answer.gamesToPlay ?? 0;
    const done = `You have played ${plural(played, "rated game")}`;
    if (toPlay > 0) return `${done}: ${plural(toPlay, "more rated game")} to appear on the leaderboard.`;
    return `${done}: a player appears after ${plural(answer.minGames ?? 0, "rated game")}.`;
  }

  function showMinimum(count) {
    minimum.textContent = `Min ${plural(count ?? 0, "rated game")} to appear.`;
  }

  async function load(next = false) {
    const asked = ++s.asked;
    more.disabled = true;
    try {
      const answer = await api.leaderboard(game, next ? s.next : "", PAGE_SIZE);
      if (s.stopped || asked !== s.asked) return;
      showMinimum(answer.minGames);
      const rows = (answer.lines || []).map((line) => row(line));
      if (next) lines.append(...rows);
      else fill(lines, rows.length ? rows : h("tr", {}, h("td", { colspan: COLUMNS.length }, nobody(answer.minGames))));
      s.next = answer.nextPageToken || "";
      more.hidden = !s.next;
      status.textContent = "";
    } catch (error) {
      if (!s.stopped) status.textContent = `The leaderboard could not be loaded: ${problem(error)}`;
    } finally {
      more.disabled = false;
    }
  }

  async function loadMine() {
    if (!currentSession()) return;
    try {
      const answer = await asPlayer((token) => api.myRank(game, token));
      if (s.stopped) return;
      mine.hidden = false;
      if (!answer.line) {
        fill(mine, h("p", { testid: "my-rank-line" }, notYet(answer)));
        return;
      }
      const line = answer.line;
      fill(
        mine,
        h(
          "p",
          { testid: "my-rank-line" },
          `Your rank: ${line.rank} of ${answer.ranked ?? "?"}, rating ${ratingText(line.rating)}`,
          ` (${plural(line.rating?.games ?? 0, "rated game")}).`,
        ),
        h(
          "table",
          { class: "standings", testid: "my-rank-table" },
          h("caption", {}, "Around you"),
          head(),
          h(
            "tbody",
            {},
            [...(answer.above || []), line, ...(answer.below || [])].map((entry) => row(entry, "my-rank-neighbour")),
          ),
        ),
      );
    } catch {
      mine.hidden = true; // no rank to show (signed out meanwhile, or the server is away): the board itself stands
    }
  }

  async function start() {
    try {
      const games = await hostedGames();
      if (s.stopped) return;
      const info = games.get(game);
      s.title = info?.title || game;
      title.textContent = `${s.title} leaderboard`;
      document.title = `${s.title} leaderboard - kickoff`;
      fill(
        others,
        [...games.values()]
          .filter((other) => other.name !== game)
          .flatMap((other, index) => [
            index ? " · " : "",
            h("a", { href: `#leaderboard=${encodeURIComponent(other.name)}` }, `${other.title || other.name} leaderboard`),
          ]),
      );
    } catch {
      title.textContent = `${game} leaderboard`;
    }
    await Promise.all([load(), loadMine()]);
  }

  start();

  return {
    stop() {
      s.stopped = true;
    },
  };
}
