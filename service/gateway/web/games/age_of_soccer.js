// Age of Soccer's table: every seat's team board (GK, DF, MF, AT), attack and defence, shields, cards held; the turn's
// phase, the decks and discards, and the challenge, match, shot, answer window or transfer window under way.
// Player cards are TEAM-POS (VIK-AT); action cards are faces (SHOOT, AGENT-VIK).

import { h, plural } from "../dom.js";
import { capital, cardList, eventWords, kindLabel, line, only } from "./common.js";
import { dressCard, labelOf, nameOf as cardName } from "./faces.js";

/** Cards by their names where the catalogue has them: "Viking Attacker (VIK-AT)". */
function named(codes) {
  return codes.map(labelOf);
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

/** A card's name in words, its code left out (a panel that names the card on the discard pile again must not show
 * its code twice): "Super Shot (Aztecs)". */
function nameOf(code) {
  return cardName(code, "a shot");
}

/** What answers the shot under way, as the rulebook has it. */
function answersTo(shot) {
  return shot.activated
    ? "an activated Super Shot: only an Offside, or the defender's own activated Super Save, stops it"
    : "an Offside or a Counter Attack from anyone, or the defender's Save or Super Save, answers it";
}

function stat(testid, label, value, detail) {
  return h("span", { class: `aos-stat ${testid}`, testid, data: { value } }, h("strong", {}, `${label} ${value}`), detail ? ` (${detail})` : "");
}

/** The challenge, the match, the shot and the answers under way, drawn as they happen: the numbers the challenge
 * compares (each Eagle Eye +4 attack, each Park the Bus +4 defence, a Cup Run makes it stand), who boosts next, the
 * attacker and defender, the shot and what may answer it, and each seat's answer in the order they count. */
function matchPanel(view, book) {
  const c = view.challenge;
  const m = view.match;
  if (!c && !m) return null;
  const parts = [];
  let stage;
  if (c) {
    stage = "challenge";
    const challenger = view.active ?? 0;
    const target = c.target ?? 0;
    const eagles = c.eagles ?? 0;
    const buses = c.buses ?? 0;
    const board = { attack: side(view, challenger).attack ?? 0, defence: side(view, target).defence ?? 0 };
    const attack = board.attack + 4 * eagles;
    const defence = board.defence + 4 * buses;
    const stands = Boolean(c.cuprun) || attack >= defence;
    parts.push(
      h("h3", { class: "aos-match-title" }, `Challenge: ${book.name(challenger)} challenges ${book.name(target)}`),
      h(
        "p",
        { class: "aos-versus" },
        stat("aos-challenge-attack", "Attack", attack, eagles ? `board ${board.attack}, ${plural(eagles, "Eagle Eye")} +${4 * eagles}` : ""),
        " against ",
        stat("aos-challenge-defence", "Defence", defence, buses ? `board ${board.defence}, ${plural(buses, "Park the Bus", "Park the Buses")} +${4 * buses}` : ""),
      ),
      h(
        "p",
        { testid: "aos-challenge-verdict", data: { stands: stands ? "yes" : "no" } },
        c.cuprun
          ? "A Cup Run was played: the challenge stands whatever the numbers."
          : stands
            ? "As it stands, the challenge stands (the attack at least equals the defence)."
            : "As it stands, the challenge falls (the attack is below the defence).",
      ),
      h("p", {}, `${capital(book.name(c.mover ?? target))} to boost or pass; two passes in a row settle it.`),
    );
  } else {
    const attacker = m.attacker ?? 0;
    const defender = m.defender ?? 0;
    stage = view.window ? "answers" : "shot";
    parts.push(
      h(
        "h3",
        { class: "aos-match-title" },
        `Match: ${book.name(attacker)} attacks ${book.name(defender)}${m.counter ? " on a counter attack" : ""}`,
      ),
      h("p", {}, `${plural(m.shots ?? 0, "shot")} so far; a goal wins a shield from the defender.`),
    );
    if (view.shot) {
      parts.push(
        h(
          "p",
          { testid: "aos-shot", data: { super: view.shot.super ? "yes" : "no", activated: view.shot.activated ? "yes" : "no" } },
          `The shot: ${nameOf(view.actionDiscardTop)}, ${answersTo(view.shot)}.`,
        ),
      );
    } else {
      const may = m.shots && !m.counter ? "shoot again or stop" : "shoot";
      parts.push(h("p", {}, `${capital(book.name(attacker))} to ${may}.`));
    }
    if (view.window) {
      const passed = new Set(view.window.passed || []);
      const answered = new Set(view.window.answered || []);
      parts.push(
        h("p", {}, "Answers, in the order they count (the first seat that has not passed decides; if all pass, it is a goal):"),
        h(
          "ol",
          { class: "aos-answers", testid: "aos-answers" },
          (view.window.order || []).map((seat) => {
            const state = passed.has(seat) ? "passed" : answered.has(seat) ? "answered" : "waiting";
            const said = { passed: "passed", answered: "has answered, face down", waiting: "to answer or pass" }[state];
            const role = seat === defender ? " (the defender)" : "";
            return h("li", { testid: "aos-answer", data: { seat, state } }, `${book.name(seat)}${role}: ${said}`);
          }),
        ),
      );
    }
  }
  return h("section", { class: "aos-match", testid: "aos-match", role: "group", "aria-label": "The match under way", data: { stage } }, parts);
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
    const panel = matchPanel(view, book);
    if (panel) lines.push(panel);
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

  // The moments of a match the table calls out as they happen.
  announce(event, { book }) {
    const who = book.name(event.seat ?? 0);
    const target = book.name(event.target ?? 0);
    switch (event.kind) {
      case "challenge_stands":
        return `The challenge on ${target} stands: attack ${event.attack ?? 0} against defence ${event.defence ?? 0}.`;
      case "challenge_falls":
        return `The challenge on ${target} falls: attack ${event.attack ?? 0} against defence ${event.defence ?? 0}.`;
      case "countered":
        return `Counter attack! ${who} attacks ${target}.`;
      case "stopped":
        return `${who} stops the shot.`;
      case "scored":
        return `GOAL! ${who} scores against ${target}.`;
      case "shield":
        return `${who} wins a shield from ${target}.`;
      case "draw":
        return "The match is a draw.";
      default:
        return "";
    }
  },

  moveLabel(move, ctx) {
    const { book } = ctx;
    const [kind, body] = only(move);
    switch (kind) {
      case "pick":
        return body.player ? "Pick a player card" : "Pick two action cards";
      case "pass": {
        const phase = ctx?.view?.phase;
        if (phase === "challenge") return "Pass: no boost (two passes in a row settle the challenge)";
        if (phase === "window") return "Pass: no answer to the shot";
        return "Pass: do nothing more, the next player goes on";
      }
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
