// Carta Fútbol Club's table: the goals, the hand being played, the ball, each team's decks, the card waiting for its
// answer; moves are the toss, the choice of deck, and cards face up or face down. Cards are faces: B-PI-6, G-CANITO.

import { plural } from "../dom.js";
import { cardList, eventWords, line, only, score } from "./common.js";

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
  kick: "{who} took a penalty: scored {scored} of {kicks}",
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
    (view.luckBottom || []).forEach((bottom, team) => {
      if (bottom.cards?.length) lines.push(line(`Team ${team}'s luck cards at the bottom`, cardList(bottom.cards, { classOf: cardClass })));
    });
    const p = view.pending;
    if (p) {
      const card = p.down ? "a card face down" : cardList([p.card], { classOf: cardClass });
      lines.push(line(`Waiting for an answer to ${book.name(p.seat ?? 0)} (${p.action || "play"} ${p.value ?? 0})`, card));
    }
    if (view.offside) {
      lines.push(line(`Off-side by ${book.name(view.offside.caller ?? 0)}, Siga-siga?`, cardList([view.offside.card], { classOf: cardClass })));
    }
    if (view.shootout) {
      lines.push(line("Shootout", `scored ${score(view.shootout.scored)} of ${score(view.shootout.kicks)}`));
    }
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

  moveLabel(move, ctx) {
    const [kind, body] = only(move);
    switch (kind) {
      case "call":
        return `Call ${body.side}`;
      case "choose":
        return body.choice === "kickoff" ? "Choose the kick-off" : `Choose the ${body.choice} deck`;
      case "play":
        return `Play ${body.card}${body.action ? ` as ${body.action}` : ""}`;
      case "down": {
        // The rulebook's face-down plays: in a shootout it is a Shot on Goal 1; with the ball, "Juego tapada" (no
        // attack: any Slide Tackle or Intercept beats it); without, "Paso" (no steal: the attacking team adds a play).
        const view = ctx?.view || {};
        if (view.shootout) return `Lay ${body.card} face down: a kick as a Shot on Goal 1 (it saves nothing)`;
        const attacking = ctx && ctx.viewer !== null && view.ball === ctx.book.team(ctx.viewer);
        return attacking
          ? `Lay ${body.card} face down ("Juego tapada"): no attack, and any Slide Tackle or Intercept takes the ball`
          : `Lay ${body.card} face down ("Paso"): no steal, and the attacking team adds a play`;
      }
      case "decline":
        return "No Siga-siga: let the off-side stand";
      default:
        return kind || "(empty move)";
    }
  },
};
