// The signed-in player's friends, in the lobby: their own friend code (to give to a friend, with a copy button), a
// friend added by their code, the requests received (accept or decline) and sent, and the friends with where each is
// (online, at a table, searching, away), followed live from the presence stream (GET /v1/presence/events, read with
// fetch because it takes the access token: stream.js), and a friend removed or blocked. The lists are read again when
// the player's inbox brings a friend's request or acceptance (inbox.js announces each new item). Also who sees where
// the player is: their friends, or nobody (SetPresenceVisibility: every friend then sees them away).

import { api, Problem } from "./api.js";
import { field, fill, h } from "./dom.js";
import { asPlayer, myPlayerId } from "./session.js";
import { readEvents } from "./stream.js";

const RETRY_MS = [500, 1000, 2000, 5000, 10000];

/** Where a friend is, in words (a FriendPresence's state). */
export function presenceText(presence) {
  const state = String(presence?.state || "").replace(/^PRESENCE_STATE_/, "").toLowerCase();
  return { online: "online", at_table: "at a table", searching: "looking for a game", away: "away" }[state] || "away";
}

/** The friends panel: {element, start() (the signed-in player's, again), stop()}. Hidden while nobody is signed in. */
export function friendsPanel() {
  let player = "";
  let controller = null;
  let lists = { friends: [], received: [], sent: [] };
  const presence = new Map(); // player id -> FriendPresence
  let lastCursor = "";

  const code = h("code", { class: "friend-code", testid: "friend-code" });
  const copy = h("button", { type: "button", testid: "friend-code-copy", onclick: () => copyCode() }, "Copy");
  const codeInput = h("input", { testid: "friend-code-input", name: "friendCode", maxlength: 16, autocomplete: "off" });
  const status = h("p", { class: "friends-status", testid: "friends-status", "aria-live": "polite" });
  const received = h("ul", { class: "friend-list", testid: "friend-requests", "aria-label": "Friend requests received" });
  const sent = h("ul", { class: "friend-list", testid: "friend-requests-sent", "aria-label": "Friend requests sent" });
  const friends = h("ul", { class: "friend-list", testid: "friends", "aria-label": "Friends" });
  const visibility = h(
    "select",
    { testid: "presence-visibility", name: "presenceVisibility", disabled: true, onchange: () => setVisibility() },
    h("option", { value: "PRESENCE_VISIBILITY_FRIENDS" }, "Your friends"),
    h("option", { value: "PRESENCE_VISIBILITY_NOBODY" }, "Nobody (your friends see you away)"),
  );
  const element = h(
    "section",
    { class: "panel friends", testid: "friends-panel", "aria-labelledby": "friends-h", hidden: true },
    h("h2", { id: "friends-h" }, "Friends"),
    h("p", {}, "Your friend code: ", code, " ", copy),
    h(
      "form",
      { class: "add-friend", onsubmit: (event) => (event.preventDefault(), add()) },
      field("A friend's code", codeInput),
      h("button", { type: "submit", testid: "friend-add" }, "Send a friend request"),
    ),
    field("Who sees where you are", visibility),
    status,
    h("h3", {}, "Requests to you"),
    received,
    h("h3", {}, "Your requests"),
    sent,
    h("h3", {}, "Your friends"),
    friends,
  );

  const say = (text) => (status.textContent = text);
  const problemText = (error) => (error instanceof Problem ? error.text : String(error?.message || error));

  function draw() {
    fill(
      received,
      lists.received.length
        ? lists.received.map((request) =>
            h(
              "li",
              { testid: "friend-request", data: { player: request.playerId } },
              h("span", {}, request.name || "?"),
              " ",
              h("button", { type: "button", testid: "friend-accept", "aria-label": `Accept ${request.name}`, onclick: () => act(`${request.name} is now your friend.`, (token) => api.acceptFriend(request.playerId, token)) }, "Accept"),
              " ",
              h("button", { type: "button", testid: "friend-decline", "aria-label": `Decline ${request.name}`, onclick: () => act("Declined.", (token) => api.declineFriend(request.playerId, token)) }, "Decline"),
            ),
          )
        : h("li", { class: "empty" }, "None."),
    );
    fill(
      sent,
      lists.sent.length
        ? lists.sent.map((request) => h("li", { testid: "friend-request-sent" }, `${request.name || "?"}: waiting for an answer`))
        : h("li", { class: "empty" }, "None."),
    );
    fill(
      friends,
      lists.friends.length
        ? lists.friends.map((friend) => {
            const seen = presence.get(friend.playerId);
            const where = presenceText(seen);
            return h(
              "li",
              { testid: "friend", data: { player: friend.playerId, presence: where } },
              h("strong", {}, friend.name || "?"),
              " ",
              h("span", { testid: "friend-presence", class: `presence ${where.replace(/ /g, "-")}` }, where),
              seen?.roomId ? [" ", h("a", { href: `#room=${encodeURIComponent(seen.roomId)}&watch`, testid: "friend-watch" }, "Watch")] : null,
              " ",
              h("button", { type: "button", testid: "friend-remove", "aria-label": `Remove ${friend.name}`, onclick: () => act(`${friend.name} is no longer your friend.`, (token) => api.removeFriend(friend.playerId, token)) }, "Remove"),
              " ",
              h("button", { type: "button", testid: "friend-block", "aria-label": `Block ${friend.name}`, onclick: () => act(`${friend.name} is blocked.`, (token) => api.block(friend.playerId, token)) }, "Block"),
            );
          })
        : h("li", { class: "empty" }, "No friends yet: give them your code, or send a request with theirs."),
    );
  }

  async function act(done, call) {
    try {
      await asPlayer(call);
      say(done);
    } catch (error) {
      say(problemText(error));
    }
    await load();
  }

  async function add() {
    const text = codeInput.value.trim();
    if (!text) return say("Whose code? Type a friend's code.");
    try {
      const answer = await asPlayer((token) => api.sendFriendRequest({ friendCode: text }, token));
      codeInput.value = "";
      say(answer?.friend ? `${answer.friend.name} is now your friend.` : `Request sent to ${answer?.request?.name || "them"}.`);
    } catch (error) {
      say(`No request was sent: ${problemText(error)}`);
    }
    await load();
  }

  async function copyCode() {
    try {
      await navigator.clipboard.writeText(code.textContent);
      say("Your friend code is copied.");
    } catch {
      say("Select your friend code and copy it.");
    }
  }

  async function setVisibility() {
    const chosen = visibility.value;
    visibility.disabled = true;
    try {
      const answer = await asPlayer((token) => api.setPresenceVisibility(chosen, token));
      visibility.value = answer?.visibility || chosen;
      say(visibility.value === "PRESENCE_VISIBILITY_NOBODY" ? "Nobody sees where you are now: your friends see you away." : "Your friends see where you are now.");
    } catch (error) {
      say(`Who sees where you are was not changed: ${problemText(error)}`);
      loadVisibility();
    } finally {
      visibility.disabled = false;
    }
  }

  async function loadVisibility() {
    const me = player;
    try {
      const answer = await asPlayer((token) => api.presenceVisibility(token));
      if (me !== player) return;
      visibility.value = answer?.visibility === "PRESENCE_VISIBILITY_NOBODY" ? "PRESENCE_VISIBILITY_NOBODY" : "PRESENCE_VISIBILITY_FRIENDS";
      visibility.disabled = false;
    } catch {
      // (left disabled: the server could not say)
    }
  }

  async function load() {
    const me = player;
    try {
      const [listed, mine] = await Promise.all([
        asPlayer((token) => api.friends(token)),
        code.textContent ? null : asPlayer((token) => api.friendCode(token)),
      ]);
      if (me !== player) return;
      lists = { friends: listed.friends || [], received: listed.received || [], sent: listed.sent || [] };
      if (mine) code.textContent = mine.friendCode || "";
      draw();
    } catch (error) {
      if (me === player) say(`Your friends could not be loaded: ${problemText(error)}`);
    }
  }

  async function follow(mine) {
    let retries = 0;
    while (controller === mine) {
      let outcome;
      try {
        outcome = await asPlayer((token) =>
          readEvents("/v1/presence/events", {
            token,
            lastId: lastCursor,
            signal: mine.signal,
            onEvent: ({ event, id, data }) => {
              if (event !== "update" || controller !== mine) return;
              retries = 0;
              if (Number(id) > Number(lastCursor || 0)) lastCursor = id; // (a hidden friend's is 0)
              if (data.removed) {
                presence.delete(data.playerId);
                load();
                return;
              }
              presence.set(data.playerId, data);
              if (!lists.friends.some((friend) => friend.playerId === data.playerId)) load();
              else draw();
            },
          }),
        );
      } catch (error) {
        if (error instanceof Problem && (error.status === 401 || error.status === 501 || error.status === 404)) return;
        outcome = "broken";
      }
      if (outcome === "stopped" || controller !== mine) return;
      await new Promise((done) => setTimeout(done, RETRY_MS[Math.min(retries, RETRY_MS.length - 1)]));
      retries += 1;
    }
  }

  function onInbox(event) {
    if (String(event.detail?.kind || "").startsWith("friend.")) load();
  }
  window.addEventListener("kickoff:inbox", onInbox);

  return {
    element,
    /** Shows the signed-in player's friends (`on`: the server knows players), or hides the panel. */
    start(on) {
      const now = on ? myPlayerId() : "";
      if (now === player && (controller || !now)) return;
      controller?.abort();
      controller = null;
      player = now;
      presence.clear();
      lastCursor = "";
      code.textContent = "";
      lists = { friends: [], received: [], sent: [] };
      element.hidden = !player;
      if (!player) return;
      draw();
      load();
      visibility.disabled = true;
      loadVisibility();
      controller = new AbortController();
      follow(controller);
    },
    stop() {
      controller?.abort();
      controller = null;
      window.removeEventListener("kickoff:inbox", onInbox);
    },
  };
}
