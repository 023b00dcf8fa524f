// Soker's table: the top discard, the decks, each seat's cards and points; moves are plays, a draw, or the end of
// the turn. Cards are codes: JUV-GKP (club, position), YELLOW-1, RED-1, JOKER-1.

import { h, plural } from "../dom.js";
import { cardList, line, only } from "./common.js";
import { dressCard, registerDresser } from "./faces.js";

/** Black or white, whichever reads better on `rgb` ("#rrggbb"), by the WCAG relative luminance. */
function ink(rgb) {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = parseInt(rgb.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) ? "#111111" : "#ffffff";
}

// A Soker card as the rulebook draws it: the country's colour as the background (its code too, so colour is never
// the only sign), the position word top left, the club's mark in its coloured ring bottom right, the legend's name
// on hover and focus; Yellow, Red and Joker cards in their own colours with what they do.
registerDresser("soker", (element, face) => {
  const card = face.soker;
  for (const node of [...element.childNodes]) {
    if (node.nodeType === Node.TEXT_NODE && node.textContent.trim()) node.replaceWith(h("span", { class: "soker-code" }, node.textContent));
  }
  element.classList.add("soker-card");
  if (!card?.countryRgb) {
    element.classList.add(`soker-${face.kind}`);
    element.dataset.legend = face.text || face.name;
    return;
  }
  element.style.setProperty("--country", card.countryRgb);
  element.style.setProperty("--country-ink", ink(card.countryRgb));
  element.style.setProperty("--ring", card.ringRgb);
  element.dataset.legend = `${card.legend}, ${card.clubName}`;
  element.title = `${face.name} (${card.country}): ${card.legend}`;
  const button = element.tagName === "BUTTON"; // (a control's name holds its visible text: nothing hidden from it)
  const mark = button ? {} : { "aria-hidden": "true" };
  element.prepend(h("span", { class: "soker-pos", ...mark }, card.position));
  element.append(
    h("span", { class: "soker-country", ...mark }, card.countryCode),
    h("span", { class: "soker-crest", ...mark }, card.club),
  );
  if (button) element.append(h("span", { class: "sr-only" }, `, ${card.legend}`));
  else if (!element.getAttribute("aria-label")?.includes(card.legend)) {
    element.setAttribute("aria-label", `${element.getAttribute("aria-label") || face.code}, ${card.legend}`);
  }
});

function cardClass(card) {
  const kind = card.split("-")[0];
  if (kind === "YELLOW") return "card-yellow";
  if (kind === "RED") return "card-red";
  if (kind === "JOKER") return "card-joker";
  return `card-pos-${(card.split("-")[1] || "").toLowerCase()}`;
}

/** Whether `prefix` starts `cards`. */
function starts(cards, prefix) {
  return prefix.length <= cards.length && prefix.every((card, index) => cards[index] === card);
}

/**
 * The seat's moves as a Soker table offers them (see games/index.js, `picker`): the hand's cards to select in order,
 * each selectable only while the selection so far, with it, begins a legal play (a package in one order, so that its
 * last card becomes the top discard); a double-click plays a card that is legal alone at once; "Play" sends the
 * selection once it is a legal play; "Draw a card" and "End the turn" as they come. `memory` keeps the selection
 * while the moves stay the same.
 */
function dressButton(card, attributes, ...children) {
  return dressCard(h("button", attributes, ...children), card);
}

function picker(moves, ctx, send, { busy, memory }) {
  // (each move as the server sent it, {"soker": {...}}: sent back as it is)
  const plays = moves.filter((move) => move.soker?.play).map((move) => ({ move, cards: move.soker.play.cards || [] }));
  const others = moves.filter((move) => !move.soker?.play);
  const hand = ctx.view?.hand || [];
  memory.picked ||= [];
  const picked = memory.picked;
  const redraw = () => memory.redraw?.();
  const open = (card) => !picked.includes(card) && plays.some((p) => starts(p.cards, [...picked, card]));
  const chosen = plays.find((p) => p.cards.length === picked.length && starts(p.cards, picked));
  const cardButton = (card) => {
    const order = picked.indexOf(card);
    const alone = plays.find((p) => p.cards.length === 1 && p.cards[0] === card);
    const selectable = order >= 0 ? order === picked.length - 1 : open(card);
    return h(
      "li",
      {},
      dressButton(card, {
          type: "button",
          class: `card pick ${cardClass(card)}${order >= 0 ? " picked" : ""}`,
          testid: "pick-card",
          "aria-pressed": order >= 0 ? "true" : "false",
          data: { card, order: order >= 0 ? order + 1 : "", alone: alone ? "yes" : "" },
          disabled: busy || !selectable,
          onclick: () => {
            if (order >= 0) picked.pop();
            else picked.push(card);
            redraw();
          },
          ondblclick: () => {
            if (alone && !busy) {
              memory.picked = [];
              send(alone.move);
            }
          },
        },
        order >= 0 ? h("span", { class: "pick-order" }, String(order + 1)) : null,
        card,
        h("span", { class: "sr-only" }, `${order >= 0 ? ", selected" : ""}${alone ? ", double-click plays it" : ""}`),
      ),
    );
  };
  const top = picked[picked.length - 1];
  return [
    h("li", { class: "pick-hand" }, h("ul", { class: "cards", "aria-label": "Your cards: select a play in order" }, hand.map(cardButton))),
    plays.length
      ? h(
          "li",
          {},
          h(
            "button",
            {
              type: "button",
              class: "move",
              testid: "play-selection",
              disabled: busy || !chosen,
              onclick: () => {
                memory.picked = [];
                send(chosen.move);
              },
            },
            chosen ? `Play ${picked.join(" ")}${picked.length > 1 ? ` (${top} on top)` : ""}` : "Play: select cards",
          ),
        )
      : null,
    picked.length
      ? h("li", {}, h("button", { type: "button", testid: "clear-selection", onclick: () => ((memory.picked = []), redraw()) }, "Clear"))
      : null,
    ...others.map((move) =>
      h("li", {}, h("button", { type: "button", class: "move", testid: "move", disabled: busy, onclick: () => send(move) }, moveLabel(move.soker))),
    ),
  ];
}

function moveLabel(move) {
  const [kind, body] = only(move);
  if (kind === "play") return `Play ${(body.cards || []).join(" ")}`;
  if (kind === "draw") return "Draw a card";
  if (kind === "endTurn") return "End the turn";
  return kind || "(empty move)";
}

export default {
  member: "soker",
  cardClass,
  picker,

  /** What the table calls out as it happens: "LINK!" and who skips. */
  announce(event, { book }) {
    const [kind, body] = only(event);
    if (kind === "played" && body.link) return "LINK!";
    if (kind === "skipped") {
      const seats = body.seats || [];
      const one = seats.length === 1 && seats[0] !== book.viewer;
      return `${book.names(seats)} skip${one ? "s" : ""} a turn.`;
    }
    return "";
  },

  seatInfo(view, seat) {
    const held = view.handSizes?.[seat] ?? 0;
    const points = view.points?.[seat] ?? 0;
    return `${plural(held, "card")}, ${plural(points, "point")}`;
  },

  state(view, { book, over }) {
    const top = view.topCard ? cardList([view.topCard], { testid: "top-card", label: "Top discard", classOf: cardClass }) : "-";
    const current = view.current ?? 0;
    return [
      line("Top card", top),
      view.jokerAsClub ? line("The Joker stands for", view.jokerAsClub) : null,
      line("Deck", `${plural(view.deckSize ?? 0, "card")}, discard pile ${view.discardSize ?? 0}`),
      over ? null : line("Turn", `${book.name(current)}${view.drawn ? " (has drawn)" : ""}`),
      line("Points", "1 a card discarded (special cards too), 3 a win by emptying the hand, 7 a win with four cards of one country", "points-table"),
    ];
  },

  hand(view) {
    return view.hand?.length ? [{ cards: view.hand }] : [];
  },

  eventText(event, { book }) {
    const [kind, body] = only(event);
    const who = book.name(body.seat ?? 0);
    switch (kind) {
      case "turnBegan":
        return `${who}: turn begins`;
      case "played":
        return (
          `${who} played ${(body.cards || []).join(" ")}` +
          (body.jokerAsClub ? ` (Joker as ${body.jokerAsClub})` : "") +
          (body.link ? " - link!" : "")
        );
      case "drew": {
        const card = body.card || (body.count ? "a card" : "nothing");
        const cause = { red: " (red card penalty)", table: " (the clock ran out)" }[body.cause] || "";
        return `${who} drew ${card}${cause}`;
      }
      case "reshuffled":
        return `the discard pile became a new deck of ${body.deckSize ?? 0}`;
      case "skipped": {
        const seats = body.seats || [];
        const one = seats.length === 1 && seats[0] !== book.viewer;
        return `${book.names(seats)} skip${one ? "s" : ""} a turn (${body.cause || "skip"})`;
      }
      case "turnEnded":
        return `${who} ended the turn${body.byTable ? " (the clock ran out)" : ""}`;
      default:
        return kind || "event";
    }
  },

  moveLabel,
};
