// Private tables on the page: a room read by whoever may see it (an unlisted room answers 404 to anyone else: a
// seated person shows their seat token, a signed-in player their access token), the invitation link a seated person
// makes and copies for a waiting unlisted room, a friend invited to a waiting room, and `/play#join=<token>` opened:
// a seat taken with the link (as the signed-in player, or anonymously under the name this tab was given). Also the
// watch link of an unlisted room (`/play#watch=<token>`: an invitation link's token, in the address's fragment, which
// the browser never sends): whoever opens it watches the table as a spectator, the token sent with each read.

import { api, Problem, seatTokens } from "./api.js";
import { field, fill, h } from "./dom.js";
import { asPlayer, currentSession, myPlayerId } from "./session.js";

/** The room as the caller may see it: asked as anyone first (with the watch link's token, if any), then (on 404) with
 * the seat token, then as the player. */
export async function roomFor(roomId, seatToken = "", link = "") {
  try {
    return await api.room(roomId, undefined, link);
  } catch (error) {
    if (!(error instanceof Problem && error.status === 404)) throw error;
    if (seatToken) {
      try {
        return await api.room(roomId, seatToken);
      } catch (again) {
        if (!(again instanceof Problem && again.status === 404) || !currentSession()) throw again;
      }
    }
    if (!currentSession()) throw error;
    return asPlayer((token) => api.room(roomId, token));
  }
}

/** The room an invitation link's token opens (its `rid` claim: the server checks the token, the page only reads
 * where it leads), or "". */
export function linkRoom(token) {
  try {
    const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const claims = JSON.parse(atob(part.padEnd(part.length + ((4 - (part.length % 4)) % 4), "=")));
    return typeof claims.rid === "string" && /^[A-Za-z0-9_-]{1,32}$/.test(claims.rid) ? claims.rid : "";
  } catch {
    return "";
  }
}

/** A refusal's words for a person: the problem's text, or the error's message. */
const problemText = (error) => (error instanceof Problem ? error.text : String(error?.message || error));

/** Copies the link in `input`, or selects it for the person to copy; says which in `status`. */
async function copyLink(input, status) {
  try {
    await navigator.clipboard.writeText(input.value);
    status.textContent = "The link is copied.";
  } catch {
    input.select();
    status.textContent = "Copy the selected link.";
  }
}

/** Opens `#join=<token>`: takes a seat of the link's room and goes to its table; a refusal is shown in `root`. */
export async function joinByLink(root, token) {
  const status = h("p", { testid: "join-status", role: "alert" }, "Taking a seat with the invitation link…");
  fill(root, h("section", { class: "panel", "aria-labelledby": "join-h" }, h("h1", { id: "join-h" }, "Invitation"), status));
  const roomId = linkRoom(token);
  if (!roomId) {
    status.textContent = "This invitation link is not one this page can read.";
    return;
  }
  if (seatTokens.get(roomId)) {
    location.replace(`#room=${encodeURIComponent(roomId)}`);
    return;
  }
  try {
    let joined;
    const held = currentSession();
    if (held) {
      try {
        joined = await asPlayer((access) => api.join(roomId, { invitationToken: token }, access));
      } catch (error) {
        if (!(error instanceof Problem && error.reason === "already_seated")) throw error;
        location.replace(`#room=${encodeURIComponent(roomId)}`); // (the table takes the player's seat up)
        return;
      }
      seatTokens.set(roomId, { seat: joined.seat ?? 0, token: joined.seatToken, name: held.player.name, player: held.player.playerId });
    } else {
      const name = sessionStorage.getItem("kickoff:name") || "";
      joined = await api.join(roomId, name ? { invitationToken: token, name } : { invitationToken: token });
      seatTokens.set(roomId, { seat: joined.seat ?? 0, token: joined.seatToken, name });
    }
    location.replace(`#room=${encodeURIComponent(roomId)}`);
  } catch (error) {
    status.textContent = `No seat was taken: ${problemText(error)}`;
  }
}

/** A seated person's watch link of an unlisted room, made and copied (while the room is not over). {element,
 * update(room, status)}. The link is an invitation link of one use: while the room waits, its holder could also take a
 * seat with it (`#join=`); watching uses nothing, so it lets any number of people watch. */
export function watchLinkPanel(roomId, held) {
  const text = h("input", { testid: "watch-link", readonly: true, "aria-label": "Watch link", hidden: true, size: 48 });
  const copy = h("button", { type: "button", testid: "watch-link-copy", hidden: true, onclick: () => copyLink(text, status) }, "Copy the link");
  const make = h("button", { type: "button", testid: "watch-link-make", onclick: () => link() }, "Make a watch link");
  const status = h("p", { testid: "watch-link-status", "aria-live": "polite" });
  const element = h(
    "section",
    { class: "panel invite", testid: "watch-link-panel", "aria-labelledby": "watch-link-h", hidden: true },
    h("h2", { id: "watch-link-h" }, "Watch link"),
    h("p", {}, "Whoever opens this link watches the table, seeing what any spectator sees: no hand."),
    make,
    " ",
    text,
    " ",
    copy,
    status,
  );

  async function link() {
    try {
      const answer = await api.createLink(roomId, held.token, { maxUses: 1 });
      text.value = new URL(`/play#watch=${encodeURIComponent(answer.token)}`, location.href).href;
      text.hidden = copy.hidden = false;
      status.textContent = "";
    } catch (error) {
      status.textContent = `No link was made: ${problemText(error)}`;
    }
  }


  return {
    element,
    /** Shown for an unlisted room until its game is over. */
    update(room, status) {
      element.hidden = !room.unlisted || status === "finished";
    },
  };
}

/** A waiting room's invitations, for a person seated there (`held`: this tab's seat): the link of an unlisted room,
 * made and copied, and a friend invited (signed in). {element, update(room)}. */
export function invitePanel(roomId, held) {
  let made = false;
  const linkText = h("input", { testid: "invite-link", readonly: true, "aria-label": "Invitation link", hidden: true, size: 48 });
  const copy = h("button", { type: "button", testid: "invite-link-copy", hidden: true, onclick: () => copyLink(linkText, status) }, "Copy the link");
  const makeLink = h("button", { type: "button", testid: "invite-link-make", onclick: () => link() }, "Make an invitation link");
  const linkPart = h("div", { hidden: true }, h("p", {}, "Whoever opens this link can take a free seat: send it to the people you want to play."), makeLink, " ", linkText, " ", copy);
  const friendChoice = h("select", { testid: "invite-friend", name: "friend" });
  const friendPart = h(
    "form",
    { class: "invite-friend", hidden: true, onsubmit: (event) => (event.preventDefault(), inviteFriend()) },
    field("Invite a friend", friendChoice),
    h("button", { type: "submit", testid: "invite-friend-send" }, "Invite"),
  );
  const status = h("p", { testid: "invite-status", "aria-live": "polite" });
  const element = h(
    "section",
    { class: "panel invite", testid: "invite", "aria-labelledby": "invite-h", hidden: true },
    h("h2", { id: "invite-h" }, "Invite people"),
    linkPart,
    friendPart,
    status,
  );

  async function link() {
    try {
      const answer = await api.createLink(roomId, held.token);
      linkText.value = new URL(answer.url, location.href).href;
      linkText.hidden = copy.hidden = false;
      status.textContent = "";
    } catch (error) {
      status.textContent = `No link was made: ${problemText(error)}`;
    }
  }


  async function loadFriends() {
    try {
      const listed = await asPlayer((token) => api.friends(token));
      const friends = listed.friends || [];
      fill(friendChoice, friends.map((friend) => h("option", { value: friend.playerId }, friend.name || friend.playerId)));
      friendPart.hidden = friends.length === 0;
    } catch {
      friendPart.hidden = true;
    }
  }

  async function inviteFriend() {
    const chosen = friendChoice.selectedOptions[0];
    if (!chosen) return;
    try {
      await asPlayer((token) => api.inviteFriend(roomId, chosen.value, token));
      status.textContent = `${chosen.textContent} is invited.`;
    } catch (error) {
      status.textContent = `${chosen.textContent} was not invited: ${problemText(error)}`;
    }
  }

  return {
    element,
    /** Shown while the room waits for players. */
    update(room, waiting) {
      element.hidden = !waiting;
      if (!waiting || made) return;
      made = true;
      linkPart.hidden = !room.unlisted;
      if (held.player && held.player === myPlayerId()) loadFriends();
    },
  };
}
