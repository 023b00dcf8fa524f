// The signed-in player's inbox: a button in the page's header with the unread count (a badge), opening a panel that
// lists the items newest first, each with a way to mark it read (and all of them at once). The panel is the page's,
// not a view's: it stays while the person moves between views. New items come live from the inbox's event stream
// (GET /v1/inbox/events, read with fetch because it takes the access token: stream.js), resumed after the newest item
// heard when the stream breaks. Signed out, or on a server without players, the inbox is hidden.
//
// An item's kind and data are the server's webhook event's; the page says in words the kinds it knows, with a link
// where the item names a room, and shows the others by their kind. A friend's invitation to a room (room.invited) has
// Accept and Decline while it is pending (the player's received invitations, ListRoomInvitations, read again with each
// new one): accepting seats the player (AcceptRoomInvitation) and opens the table; declining
// (DeclineRoomInvitation) takes the buttons away. Either marks the item read; it stays in the inbox, as every item does.

import { api, Problem, seatTokens } from "./api.js";
import { fill, h } from "./dom.js";
import { asPlayer, currentSession, myPlayerId, onSessionChange, playersServed } from "./session.js";
import { readEvents } from "./stream.js";

const RETRY_MS = [500, 1000, 2000, 5000, 10000]; // waits before coming back to a broken stream, one after another
const SHOWN = 30; // items the panel keeps (the newest)

/** What an item says, in words: {text, href} (href: the room or tournament it names, or ""). */
export function itemText(item) {
  const data = item.data || {};
  const room = data.room_id ? `#room=${encodeURIComponent(data.room_id)}` : "";
  const game = data.game || "a";
  switch (item.kind) {
    case "friend.requested":
      return { text: `${data.other_name || "A player"} asked to be your friend.`, href: "" };
    case "friend.accepted":
      return { text: `${data.other_name || "A player"} is now your friend.`, href: "" };
    case "room.invited":
      return { text: `${data.from_name || "A friend"} invited you to a ${game} table.`, href: room };
    case "rematch.proposed":
      return { text: `A rematch of your ${game} game was proposed.`, href: room };
    case "chat.message": {
      const more = data.count > 1 ? ` (${data.count} messages)` : "";
      return { text: `${data.from_name || "A player"} wrote in your ${game} game${more}.`, href: room };
    }
    case "turn.began":
      return { text: `Your turn in a ${game} game.`, href: room };
    case "match.found":
      return { text: `A ${game} table was found for you.`, href: "" };
    case "tournament.game_ready":
      return {
        text: `Your ${game} tournament game is ready.`,
        href: data.tournament_id ? `#tournament=${encodeURIComponent(data.tournament_id)}` : room,
      };
    default:
      return { text: `${item.kind}`, href: room };
  }
}

/** Puts the inbox's button into `header` and its panel after it; returns nothing (it lives as long as the page). */
export function inboxPanel(header) {
  let items = []; // newest first
  let invited = new Set(); // the rooms a friend invited the player to, invitation pending
  let unread = 0;
  let player = "";
  let controller = null;
  let served = false;

  const badge = h("span", { class: "badge", testid: "inbox-unread", "aria-hidden": "true" });
  const button = h(
    "button",
    {
      type: "button",
      class: "inbox-button",
      testid: "inbox-button",
      "aria-expanded": "false",
      "aria-controls": "inbox",
      hidden: true,
      onclick: () => toggle(),
    },
    "Inbox ",
    badge,
  );
  const status = h("p", { class: "inbox-status", testid: "inbox-status", "aria-live": "polite" });
  const list = h("ol", { class: "inbox-items", testid: "inbox-items", "aria-label": "Inbox items, newest first" });
  const markAll = h(
    "button",
    { type: "button", testid: "inbox-mark-all", onclick: () => markRead({ upToItemId: items[0]?.itemId }) },
    "Mark all read",
  );
  const panel = h(
    "aside",
    { id: "inbox", class: "inbox panel", testid: "inbox", "aria-labelledby": "inbox-h", hidden: true },
    h("h2", { id: "inbox-h" }, "Inbox"),
    markAll,
    list,
    status,
  );
  header.append(button);
  header.after(panel);

  function toggle(open = panel.hidden) {
    panel.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
  }

  function draw() {
    badge.textContent = String(unread);
    badge.hidden = unread === 0;
    badge.dataset.count = String(unread);
    button.setAttribute("aria-label", unread ? `Inbox, ${unread} unread` : "Inbox, nothing unread");
    markAll.disabled = unread === 0;
    // Only a room's newest invitation item is answered (an older one, declined, stays without buttons).
    const newest = new Map();
    for (const item of items) if (item.kind === "room.invited" && !newest.has(item.data?.room_id)) newest.set(item.data?.room_id, item.itemId);
    const answerable = (item) => invited.has(item.data?.room_id) && newest.get(item.data?.room_id) === item.itemId;
    fill(
      list,
      items.length
        ? items.map((item) => {
            const { text, href } = itemText(item);
            return h(
              "li",
              { testid: "inbox-item", class: item.read ? "read" : "unread", data: { kind: item.kind, read: String(Boolean(item.read)) } },
              item.read ? null : h("strong", { class: "unread-mark" }, "New: "),
              href ? h("a", { href, testid: "inbox-link" }, text) : text,
              item.kind === "room.invited" && answerable(item) ? answerButtons(item, text) : null,
              item.read
                ? null
                : [
                    " ",
                    h(
                      "button",
                      { type: "button", testid: "inbox-mark-read", "aria-label": `Mark read: ${text}`, onclick: () => markRead({ itemIds: [item.itemId] }) },
                      "Mark read",
                    ),
                  ],
            );
          })
        : h("li", { class: "empty" }, "Nothing here yet."),
    );
  }

  function answerButtons(item, text) {
    return [
      " ",
      h("button", { type: "button", testid: "inbox-accept", "aria-label": `Accept: ${text}`, onclick: () => accept(item) }, "Accept"),
      " ",
      h("button", { type: "button", testid: "inbox-decline", "aria-label": `Decline: ${text}`, onclick: () => decline(item) }, "Decline"),
    ];
  }

  /** Which rooms' invitations are pending (asked again when one comes, or an answer was refused). */
  async function loadInvitations(mine = controller) {
    try {
      const answer = await asPlayer((token) => api.roomInvitations(token));
      if (controller !== mine) return;
      invited = new Set((answer.received || []).map((invitation) => invitation.roomId));
      draw();
    } catch {
      // the items are still shown, without Accept and Decline
    }
  }

  /** Accepts the invitation an item brings: a seat of its room (its token kept as the join link's is), then the table. */
  async function accept(item) {
    const roomId = item.data.room_id;
    try {
      const joined = await asPlayer((token) => api.acceptInvitation(roomId, token));
      const held = currentSession();
      seatTokens.set(roomId, { seat: joined.seat ?? 0, token: joined.seatToken, name: held?.player.name || "", player: held?.player.playerId || "" });
      invited.delete(roomId);
      say("");
      toggle(false);
      if (!item.read) markRead({ itemIds: [item.itemId] });
      else draw();
      const target = `#room=${encodeURIComponent(roomId)}`;
      if (location.hash === target) window.dispatchEvent(new Event("kickoff:reroute")); // (watching it already)
      else location.hash = target;
    } catch (error) {
      say(`The invitation was not accepted: ${problemText(error)}`);
      loadInvitations();
    }
  }

  /** Declines the invitation an item brings (the item is marked read). */
  async function decline(item) {
    const roomId = item.data.room_id;
    try {
      await asPlayer((token) => api.declineInvitation(roomId, token));
      invited.delete(roomId);
      say("The invitation is declined.");
      if (!item.read) markRead({ itemIds: [item.itemId] }, "The invitation is declined.");
      else draw();
    } catch (error) {
      say(`The invitation was not declined: ${problemText(error)}`);
      loadInvitations();
    }
  }

  function say(text) {
    status.textContent = text;
  }

  function problemText(error) {
    return error instanceof Problem ? error.text : String(error?.message || error);
  }

  async function markRead(body, done = "") {
    if (!body.itemIds && !body.upToItemId) return;
    try {
      const answer = await asPlayer((token) => api.markInboxRead(body, token));
      const upTo = body.upToItemId ? BigInt(body.upToItemId) : null;
      for (const item of items) {
        if (body.itemIds?.includes(item.itemId) || (upTo !== null && BigInt(item.itemId) <= upTo)) item.read = true;
      }
      unread = answer?.unreadCount ?? 0;
      say(done);
      draw();
    } catch (error) {
      say(`Could not mark it read: ${problemText(error)}`);
    }
  }

  /** A new item (the stream's): put in its place, counted unread once. */
  function add(item) {
    if (!item?.itemId || items.some((known) => known.itemId === item.itemId)) return;
    items.push(item);
    items.sort((a, b) => (BigInt(b.itemId) > BigInt(a.itemId) ? 1 : -1));
    items = items.slice(0, SHOWN);
    if (!item.read) unread += 1;
    draw();
    if (item.kind === "room.invited") loadInvitations();
    window.dispatchEvent(new CustomEvent("kickoff:inbox", { detail: item })); // (a table waiting on a rematch looks)
  }

  /** Stops following the old player's inbox, and follows the signed-in one's (if any). */
  async function restart() {
    controller?.abort();
    controller = null;
    items = [];
    unread = 0;
    invited = new Set();
    player = served ? myPlayerId() : "";
    button.hidden = !player;
    if (!player) {
      toggle(false);
      return;
    }
    draw();
    const mine = new AbortController();
    controller = mine;
    try {
      const answer = await asPlayer((token) => api.inbox(token, SHOWN));
      if (controller !== mine) return;
      items = answer.items || [];
      unread = answer.unreadCount ?? 0;
      say("");
      draw();
      if (items.some((item) => item.kind === "room.invited")) loadInvitations(mine);
    } catch (error) {
      if (controller !== mine) return;
      if (error instanceof Problem && error.status === 501) {
        button.hidden = true; // (a server whose store is in memory has no inbox)
        return;
      }
      say(`The inbox could not be loaded: ${problemText(error)}`);
    }
    follow(mine);
  }

  async function follow(mine) {
    let retries = 0;
    while (controller === mine) {
      let outcome;
      try {
        outcome = await asPlayer((token) =>
          readEvents("/v1/inbox/events", {
            token,
            lastId: items[0]?.itemId || "",
            signal: mine.signal,
            onEvent: ({ event, data }) => {
              if (event !== "update") return;
              retries = 0;
              add(data.item || data);
            },
          }),
        );
      } catch (error) {
        if (error instanceof Problem && (error.status === 401 || error.status === 501)) return;
        outcome = "broken";
      }
      if (outcome === "stopped" || controller !== mine) return;
      await new Promise((done) => setTimeout(done, RETRY_MS[Math.min(retries, RETRY_MS.length - 1)]));
      retries += 1;
    }
  }

  onSessionChange((held) => {
    if ((held?.player.playerId || "") !== player) restart();
  });
  playersServed().then((known) => {
    served = known;
    restart();
  });
}
