// kickoff in a browser: one page, four views chosen by the address's fragment -
//   #room=ID          the room's table, as this tab's seat if it holds one (or the signed-in player's, taken up),
//                     else as a spectator
//   #room=ID&watch    the room's table as a spectator
//   #replay=ID        the room's game again, version by version
//   #tournament=ID    a tournament's standings, live
//   #leaderboard=GAME a game's leaderboard
//   #join=TOKEN       an invitation link: a seat of its (private) room taken with it, then the table
//   #watch=TOKEN      a watch link (an invitation link's token): its (private) room's table as a spectator
//   anything else     the lobby
// The page holds no game rules: it draws the views and legal moves the server sends, and the server judges every move.

import { h } from "./dom.js";
import { inboxPanel } from "./inbox.js";
import { leaderboardView } from "./leaderboard.js";
import { joinByLink, linkRoom } from "./invite.js";
import { lobby } from "./lobby.js";
import { replayView } from "./replay.js";
import { roomTable } from "./table.js";
import { tournamentView } from "./tournament.js";

const main = document.getElementById("app");
let shown = null;

function route() {
  const params = new URLSearchParams(location.hash.slice(1));
  shown?.stop();
  main.replaceChildren();
  document.title = "kickoff";
  if (params.get("join")) {
    shown = null;
    joinByLink(main, params.get("join")); // (an invitation link: a seat taken, then the table)
  } else if (params.get("watch")) {
    const token = params.get("watch");
    const roomId = linkRoom(token);
    if (roomId) shown = roomTable(main, roomId, { watch: true, link: token });
    else {
      shown = null;
      main.append(h("p", { testid: "watch-status", role: "alert" }, "This watch link is not one this page can read."));
    }
  } else if (params.get("room")) shown = roomTable(main, params.get("room"), { watch: params.has("watch") });
  else if (params.get("replay")) shown = replayView(main, params.get("replay"));
  else if (params.get("tournament")) shown = tournamentView(main, params.get("tournament"));
  else if (params.get("leaderboard")) shown = leaderboardView(main, params.get("leaderboard"));
  else shown = lobby(main);
  main.focus?.();
}

window.addEventListener("hashchange", route);
window.addEventListener("kickoff:reroute", route); // a view's seat changed (a table took the player's seat up)
route();
inboxPanel(document.querySelector("header.site")); // the signed-in player's inbox, on every view
