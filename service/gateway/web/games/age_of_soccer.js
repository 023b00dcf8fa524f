// Age of Soccer's table: every seat's team board (GK, DF, MF, AT), attack and defence, shields, cards held; the turn's
// phase, the decks and discards, and the challenge, match, shot, answer window or transfer window under way.
// Player cards are TEAM-POS (VIK-AT); action cards are faces (SHOOT, AGENT-VIK).

import { h, plural } from "../dom.js";
import { cardList, eventWords, kindLabel, line, only } from "./common.js";
import { dressCard, faceOf } from "./faces.js";

/** Cards by their names where the catalogue has them: "Viking Attacker (VIK-AT)". */
function named(codes) {
  return codes.map((code) => {
    const face = faceOf(code);
    return face ? `${face.name} (${code})` : code;
  });
}

const POSITIONS = ["GK", "DF", "MF", "AT"];

const PHRASES = {
  turn_began: "{who}: turn begins",
  missed_turn: "{who} missed the turn (red card)",
  drew: "{who} drew {cards} from the {deck} ({cause})",
  reshuffled: "the {deck} discard pile became a new deck of {count}",
  traded: "{who} traded {cards}",
  played: "{who} played {cards} {on_target}",
  boarded: "{who} boarded {cards}: attack {attack}, defence {defence}",
  benched: "{who} benched {cards}: attack {attack}, defence {defence}",
  trained: "{who} trained",
  discarded: "{who} discarded {cards}",
  dealt: "transfer window opens: {cards}",
  drafted: "{who} drafted {cards}",
  challenged: "{who} challenged {target}",
  boosted: "{who} boosted: {cards}",
  passed: "{who} passed",
  challenge_stands: "the challenge on {target} stands",
  challenge_falls: "the challenge on {target} falls",
  shot: "{who} shot: {cards}",
  answered: "{who} answered: {cards}",
  stopped: "{who} stopped the shot",
  countered: "{who} countered!",
  scored: "{who} scored against {target}",
  shield: "{who} won a shield ({cards}) from {target}",
  draw: "the match is a draw",
  stopped_shooting: "{who} stopped shooting",
  ended_turn: "{who} ended the turn",
  timed_out: "{who} ran out of time",
};

function cardClass(card) {
  return /^[A-Z]{3}-(GK|DF|MF|AT)$/.test(card) ? "card-player" : "card-action";
}

function side(view, seat) {
  return (view.seats || []).find((entry) => (entry.seat ?? 0) === seat) || {};
}

export default {
  member: "ageOfSoccer",
  cardClass,

  // A seat's team board as the rulebook lays it out: its four positions (GK, DF, MF, AT), the red attack and blue
  // defence markers at their values, the shields it holds and has won, and what it holds in hand.
  seatInfo(view, seat) {
    const entry = side(view, seat);
    const won = (entry.won || []).reduce((total, count) => total + (count || 0), 0);
    const marker = (kind, value, word) =>
      h(
        "span",
        { class: `aos-marker aos-${kind}`, testid: `aos-${kind}`, data: { value } },
        h("span", { class: "aos-marker-dot", "aria-hidden": "true" }),
        `${word} ${value}`,
      );
    return h(
      "span",
      { class: "seat-detail aos-board", testid: "aos-board", role: "group", "aria-label": `${entry.team || "?"} team board` },
      h(
        "ul",
        { class: "aos-slots", "aria-label": "Positions" },
        POSITIONS.map((position, index) => {
          const card = entry.board?.[index];
          return h(
            "li",
            { class: `aos-slot${card ? "" : " empty"}`, testid: "aos-slot", data: { position } },
            h("span", { class: "aos-position" }, position),
            card ? dressCard(h("span", { class: "card card-player" }, card), card) : h("span", { class: "aos-vacant" }, "empty"),
          );
        }),
      ),
      h(
        "span",
        { class: "aos-markers" },
        marker("attack", entry.attack ?? 0, "Attack"),
        marker("defence", entry.defence ?? 0, "Defence"),
        h("span", { class: "aos-shields", testid: "aos-shields" }, `${plural(entry.shields ?? 0, "shield")} held, ${won} won`),
      ),
      h(
        "span",
        { class: "aos-held" },
        `${entry.team || "?"}: holds ${plural(entry.playersHeld ?? 0, "player")} and ${plural(entry.actionsHeld ?? 0, "action")}` +
          (entry.redCards ? `, ${plural(entry.redCards, "red card")}` : ""),
      ),
    );
  },

  state(view, { book, over }) {
    const lines = [
      over
        ? line("Turns played", `${view.turn ?? 0}`)
        : line("Turn", `${view.turn ?? 0}: ${book.name(view.active ?? 0)}, ${view.phase || "-"}${view.traded ? " (traded)" : ""}`),
      line(
        "Decks",
        `${plural(view.playerDeck ?? 0, "player card")}, ${plural(view.actionDeck ?? 0, "action card")}; ` +
          `action discard pile ${view.actionDiscardSize ?? 0}`,
      ),
      line("Action discard top", view.actionDiscardTop ? cardList([view.actionDiscardTop], { classOf: cardClass }) : "-"),
    ];
    if (view.playerDiscard?.length) {
      lines.push(line("Player discard", cardList(view.playerDiscard, { classOf: cardClass })));
    }
    if (view.challenged?.length) lines.push(line("Challenged this turn", book.names(view.challenged)));
    const c = view.challenge;
    if (c) {
      lines.push(
        line(
          "Challenge",
          `on ${book.name(c.target ?? 0)}: ${plural(c.eagles ?? 0, "Eagle Eye")}, ${plural(c.buses ?? 0, "Park the Bus", "Park the Buses")}` +
            `${c.cuprun ? ", a Cup Run" : ""}; ${book.name(c.mover ?? 0)} to boost`,
        ),
      );
    }
    const m = view.match;
    if (m) {
      lines.push(
        line(
          "Match",
          `${book.name(m.attacker ?? 0)} attacks ${book.name(m.defender ?? 0)}, ${plural(m.shots ?? 0, "shot")}` +
            `${m.counter ? " (counter attack)" : ""}`,
        ),
      );
    }
    if (view.shot) lines.push(line("Shot", `${view.shot.super ? "super shot" : "shot"}${view.shot.activated ? " (activated)" : ""}`));
    if (view.window) {
      lines.push(line("Answers", `${book.names(view.window.order)}; passed: ${book.names(view.window.passed)}`));
    }
    if (view.draft) lines.push(line("Transfer window", cardList(view.draft.cards, { classOf: cardClass })));
    return lines;
  },

  hand(view) {
    if (!view.hand) return [];
    return [
      { label: "Player cards", cards: view.hand.players || [] },
      { label: "Action cards", cards: view.hand.actions || [] },
    ];
  },

  eventText(event, { book }) {
    return eventWords(event, PHRASES, book, ["activated"], ["count"]);
  },

  moveLabel(move, { book }) {
    const [kind, body] = only(move);
    switch (kind) {
      case "pick":
        return body.player ? "Pick a player card" : "Pick two action cards";
      case "pass":
        return "Pass: do nothing more, the next player goes on";
      case "trade":
        return `Trade ${named(body.cards || []).join(", ")} for a player card from the deck`;
      case "board":
        return `Put ${named([body.player])} on your team board`;
      case "bench":
        return `Take ${named([body.player])} off your team board, back into your hand`;
      case "discard":
        return `Discard ${named([body.card])} (at most seven action cards in hand)`;
      case "draft":
        return `Choose ${named([body.player])} from the transfer window`;
      case "shoot":
        return `Shoot with ${named([body.card])}`;
      case "answer":
        return `Answer with ${named([body.card])}`;
      case "play": {
        const on = body.target !== undefined ? ` on ${book.name(body.target)}` : "";
        const player = body.player ? `, for ${named([body.player])}` : "";
        const to = body.recipient !== undefined ? `, to ${book.name(body.recipient)}` : "";
        return `Play ${named([body.card])}${on}${player}${to}`;
      }
      case "endTurn":
        return "End the turn";
      case "stop":
        return "Stop shooting";
      case "challenge": {
        const extras = [];
        if (body.eagleEyes) extras.push(plural(body.eagleEyes, "Eagle Eye"));
        if (body.cupRun) extras.push("a Cup Run");
        return `Challenge ${book.name(body.target ?? 0)}${extras.length ? ` with ${extras.join(" and ")}` : ""}`;
      }
      case "eagleEye":
        return "Boost: an Eagle Eye";
      case "cupRun":
        return "Boost: a Cup Run";
      case "parkTheBus":
        return "Boost: Park the Bus";
      default:
        return kind ? kindLabel(kind, body, book) : "(empty move)";
    }
  },
};
