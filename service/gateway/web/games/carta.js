// Carta Fútbol Club's table: the goals, the hand being played, the ball, each team's decks, the card waiting for its
// answer; moves are the toss, the choice of deck, and cards face up or face down. Cards are faces: B-PI-6, G-CANITO.

import { h, plural } from "../dom.js";
import { capital, cardList, eventWords, line, only, score } from "./common.js";
import { labelOf as named, nameOf as cardName } from "./faces.js";

/** A card's name alone (a panel naming a card shown elsewhere on the table must not show its code twice). */
function nameOf(code) {
  return cardName(code, "a card");
}

const PHRASES = {
  toss: "{who} called {call}, the coin shows {coin}: team {winner} wins the toss",
  chose: "{who} chose {choice}",
  kick_off: "kick-off by team {team} (decks {colours})",
  dealt: "{who} received {cards}",
  played: "{who} played {cards} ({action} {value})",
  laid_down: "{who} laid a card face down ({action})",
  play_stands: "the play stands ({count} in a row)",
  won_ball: "{who} won the ball for team {team}",
  offside_given: "off-side given against {target}",
  foul: "{who} fouled {target}: {outcome}",
  luck: "{who} showed {cards}",
  goal: "Goal for team {team}! {goals}",
  saved: "{who} saved it for team {team}",
  hand_ended: "hand {count} is over",
  half_time: "half time: {goals}",
  extra_time: "extra time: {goals}",
  extra_time_half: "extra time, second half: {goals}",
  shootout: "penalty shootout: {goals}",
  kick: "{who} took a penalty (goals {scored}, kicks {kicks})",
  coin: "the coin decides: team {winner} wins",
};

// The events' plain numbers whose 0 means none (a count, a value): left out of the text, as they were before the
// gateway sent zero values.
const ZEROES = ["count", "value", "play", "hand"];

/** Which part of the match a hand is (hands 1-3 the first half, 4-6 the second, 7 and 8 extra time). */
function period(hand) {
  if (hand < 1) return "";
  if (hand <= 3) return " (first half)";
  if (hand <= 6) return " (second half)";
  return hand === 7 ? " (extra time, first 15 minutes)" : " (extra time, second 15 minutes)";
}

function cardClass(card) {
  return card.startsWith("B-") ? "card-blue" : card.startsWith("G-") ? "card-green" : "";
}

/** The Luck cards as the rulebook uses them: drawn face up by the shooter when a Shot on Goal ties its Save, and by
 * the taker of a penalty; read aloud, then put at the bottom of the team's Luck deck, where everyone knows them. */
function luckPanel(view) {
  const decks = view.decks || {};
  return h(
    "section",
    { class: "carta-panel carta-luck", testid: "carta-luck", role: "group", "aria-label": "Luck cards" },
    h("h3", {}, "Luck cards"),
    h("p", {}, "A Shot on Goal that ties its Save, and every penalty, is settled by the shooter's Luck card: Goal or No goal."),
    [0, 1].map((team) => {
      const bottom = view.luckBottom?.[team]?.cards || [];
      const last = bottom.length ? `last shown: ${nameOf(bottom[0])}` : "none shown yet";
      return h(
        "div",
        { testid: "carta-luck-team", data: { team, last: bottom[0] || "" } },
        h("p", {}, `Team ${team}: ${plural(decks.luck?.[team] ?? 0, "card")} in the Luck deck, ${last}.`),
        bottom.length ? line("Known at the bottom", cardList(bottom, { classOf: cardClass })) : null,
      );
    }),
  );
}

/** The penalty shootout: each team's kicks and goals, who kicks next, and its rules (five kicks a team, then one more
 * each until one goal of difference; only a Save stops a penalty; with no Shot on Goal, a face-down card is a Shot on
 * Goal 1). */
function shootoutPanel(view, book, mine, over) {
  const { kicks = [], scored = [], sudden = 0 } = view.shootout;
  return h(
    "section",
    { class: "carta-panel carta-shootout", testid: "carta-shootout", role: "group", "aria-label": "Penalty shootout" },
    h("h3", {}, `Penalty shootout${sudden ? `: sudden death, round ${sudden + 1}` : ""}`),
    h(
      "ul",
      { class: "carta-kicks" },
      [0, 1].map((team) =>
        h(
          "li",
          { testid: "carta-kicks", data: { team, kicks: kicks[team] ?? 0, scored: scored[team] ?? 0 } },
          `Team ${team}${team === mine ? " (yours)" : ""}: ${scored[team] ?? 0} scored of ${plural(kicks[team] ?? 0, "kick")}`,
        ),
      ),
    ),
    over || view.actor === undefined ? null : h("p", {}, `${capital(book.name(view.actor))} to act.`),
    h(
      "p",
      {},
      "Five kicks a team, then one more each until one goal of difference; only a Save stops a penalty, and a player " +
        "with no Shot on Goal kicks face down, as a Shot on Goal 1.",
    ),
  );
}

export default {
  member: "carta",
  cardClass,

  seatInfo(view, seat) {
    const entry = (view.seats || []).find((item) => (item.seat ?? 0) === seat) || {};
    return plural(entry.cards ?? 0, "card");
  },

  state(view, { book, over, viewer }) {
    const decks = view.decks || {};
    const teams = Math.max((decks.skill || []).length, (view.goals || []).length, 2);
    const lines = [
      line("Goals", score(view.goals), "goals"),
      line("Hand", `${view.hand ?? 0} of 6${period(view.hand ?? 0)}, phase: ${view.phase || "-"}`, "carta-hand"),
      line("Deck colours", (view.colours || []).map((colour) => colour || "?").join(" / ") || "-"),
    ];
    if (view.coin?.call) {
      lines.push(line("Toss", `called ${view.coin.call}, showed ${view.coin.side}, won by team ${view.coin.winner ?? 0}`));
    }
    const mine = viewer === null || viewer === undefined ? null : book.team(viewer);
    const yours = (team) => (team === mine ? " (yours)" : "");
    const colour = (view.colours || [])[mine];
    if (mine !== null) lines.unshift(line("Your team", `team ${mine}, ${colour ? `the ${colour} deck` : "its deck not chosen yet"}`, "your-team"));
    if (view.ball !== undefined) {
      // (three attacking plays in a row, and then a Shot on Goal may follow)
      const plays = view.count ?? 0;
      const shot = plays >= 3 ? ": a shot on goal may follow" : `: ${3 - plays} more before a shot`;
      lines.push(line("Ball", `team ${view.ball}${yours(view.ball)}, ${plural(plays, "attacking play")}${shot}`, "carta-ball"));
    }
    if (view.actor !== undefined && !over) lines.push(line("To act", book.name(view.actor)));
    const left = [];
    for (let team = 0; team < teams; team += 1) {
      left.push(`team ${team} ${decks.skill?.[team] ?? 0}/${decks.special?.[team] ?? 0}/${decks.luck?.[team] ?? 0}`);
    }
    lines.push(line("Decks (skill/special/luck)", left.join(", ")));
    lines.push(line("Face-down pile", `${view.pile ?? 0}, played ${view.played ?? 0}`));
    lines.push(luckPanel(view));
    const p = view.pending;
    if (p) {
      const card = p.down ? "a card face down" : cardList([p.card], { classOf: cardClass });
      lines.push(line(`Waiting for an answer to ${book.name(p.seat ?? 0)} (${p.action || "play"} ${p.value ?? 0})`, card));
    }
    if (view.offside) {
      lines.push(line(`Off-side by ${book.name(view.offside.caller ?? 0)}, Siga-siga?`, cardList([view.offside.card], { classOf: cardClass })));
    }
    if (view.shootout) lines.push(shootoutPanel(view, book, mine, over));
    return lines;
  },

  hand(view) {
    return view.handCards?.length ? [{ cards: view.handCards }] : [];
  },

  eventText(event, { book }) {
    let text = eventWords(event, PHRASES, book, ["hand", "shootout", "play", "answer", "goal"], ZEROES);
    if (event.kind === "luck" || event.kind === "kick") text += event.goal ? " - goal!" : " - no goal";
    return text;
  },

  // The moments the table calls out as they happen (a card by its name: its code is on the table already).
  announce(event, { book }) {
    switch (event.kind) {
      case "goal":
        return `GOAL for team ${event.team ?? 0}! ${score(event.goals)}`;
      case "saved":
        return `Saved by ${book.name(event.seat ?? 0)}!`;
      case "luck":
        return `Luck card: ${nameOf(event.cards?.[0])}${event.goal ? " - a goal!" : " - no goal."}`;
      case "half_time":
        return `Half time: ${score(event.goals)}.`;
      case "extra_time":
        return `Extra time: ${score(event.goals)}.`;
      case "shootout":
        return `Penalty shootout: ${score(event.goals)}.`;
      case "offside_given":
        return `Off-side given against ${book.name(event.target ?? 0)}.`;
      default:
        return "";
    }
  },

  moveLabel(move, ctx) {
    const [kind, body] = only(move);
    switch (kind) {
      case "call":
        return `Call ${body.side}`;
      case "choose":
        return body.choice === "kickoff" ? "Choose the kick-off" : `Choose the ${body.choice} deck`;
      case "play": {
        // (in a shootout the card is the kick, or the keeper's save: a save below the kick, or level with it and the
        // shooter's Luck card a Goal, lets it in)
        const kick = ctx?.view?.shootout ? ctx.view.pending : undefined;
        if (kick) return `Save with ${named(body.card)} against the kick of ${kick.value ?? 0}`;
        if (ctx?.view?.shootout) return `Kick with ${named(body.card)}`;
        return `Play ${named(body.card)}${body.action ? ` as ${body.action.replace(/_/g, " ")}` : ""}`;
      }
      case "down": {
        // The rulebook's face-down plays: in a shootout it is a Shot on Goal 1; with the ball, "Juego tapada" (no
        // attack: any Slide Tackle or Intercept beats it); without, "Paso" (no steal: the attacking team adds a play).
        const view = ctx?.view || {};
        if (view.shootout && view.pending) return `Lay ${named(body.card)} face down: no save, the penalty is scored`;
        if (view.shootout) return `Lay ${named(body.card)} face down: a kick as a Shot on Goal 1`;
        const attacking = ctx && ctx.viewer !== null && view.ball === ctx.book.team(ctx.viewer);
        return attacking
          ? `Lay ${named(body.card)} face down ("Juego tapada"): no attack, and any Slide Tackle or Intercept takes the ball`
          : `Lay ${named(body.card)} face down ("Paso"): no steal, and the attacking team adds a play`;
      }
      case "decline":
        return "No Siga-siga: let the off-side stand";
      default:
        return kind || "(empty move)";
    }
  },
};
