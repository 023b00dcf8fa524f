// What the table modules share: card lists, state lines, and texts made from a message's fields.

import { compact, h, shorten, words } from "../dom.js";
import { dressCard } from "./faces.js";

/** A list of cards (faces as the server wrote them); `classOf` gives each card's extra CSS class. */
export function cardList(cards, { testid, label, classOf } = {}) {
  return h(
    "ul",
    { class: "cards", testid, "aria-label": label },
    (cards || []).map((card) => dressCard(h("li", { class: `card ${classOf ? classOf(card) : ""}`.trim() }, card), card)),
  );
}

/** One line of the table's state: "Top card: JUV-GKP" with the value in a span (or any node). */
/** "you to shoot" -> "You to shoot" (a sentence that starts with a seat's name, which may be "you"). */
export function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function line(label, value, testid) {
  return h("p", { class: "state-line", testid }, h("span", { class: "state-label" }, `${label}: `), value);
}

/** Whether a field's value says nothing: "", false, [] or {} (the gateway sends every field, zero values included;
 * a number is kept, since 0 may be a seat). */
export function blank(value) {
  if (value === "" || value === false || value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && Object.keys(value).length === 0;
}

/** The fields of a message that say something: blank values left out, and 0 in the `zeroes` fields (plain numbers
 * whose 0 means none: a count, a value). */
export function said(fields, zeroes = []) {
  return Object.fromEntries(
    Object.entries(fields || {}).filter(([key, value]) => !blank(value) && !(value === 0 && zeroes.includes(key))),
  );
}

/** A move's text from its message: the kind's words, then its fields (text and cards bare, flags by name, seats by
 * name, numbers with their field's words): "play AGENT-VIK on bob positions 2, 1", "call heads". */
export function kindLabel(kind, fields, book) {
  const parts = [words(kind)];
  for (const [key, value] of Object.entries(said(fields))) {
    if (typeof value === "boolean") {
      if (value) parts.push(words(key));
    } else if (typeof value === "string") {
      parts.push(value);
    } else if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
      parts.push(value.join(" "));
    } else if (["target", "seat"].includes(key) && typeof value === "number") {
      parts.push(`on ${book ? book.name(value) : `seat ${value}`}`);
    } else if (key === "recipient" && typeof value === "number") {
      parts.push(`to ${book ? book.name(value) : `seat ${value}`}`);
    } else {
      parts.push(`${words(key)} ${compact(value)}`);
    }
  }
  return shorten(parts.join(" "));
}

/** The only member of a oneof in its JSON form: ["play", {...}] of {"play": {...}}. */
export function only(oneof) {
  const entries = Object.entries(oneof || {});
  return entries.length ? entries[0] : [null, {}];
}

/** Per-team numbers as a score: [1, 3] -> "1-3". */
export function score(values) {
  return (values || []).map((value) => value ?? 0).join("-") || "0-0";
}

/** A template's {fields} filled in; a field not given is blank, and the spaces it leaves are tidied. */
export function phrase(template, fields) {
  return template
    .replace(/\{(\w+)\}/g, (_, name) => (fields[name] === undefined || fields[name] === null ? "" : String(fields[name])))
    .replace(/\s+/g, " ")
    .replace(/ \)/g, ")")
    .replace(/ \(\)/g, "")
    .replace(/ :/g, ":")
    .trim();
}

/** An event of a game whose events carry a kind, seats and cards (Age of Soccer, Carta): the game's phrase for the
 * kind where it has one, then any field the phrase did not use as "(key value)"; else the kind's words and fields.
 * Blank fields and 0 in the `zeroes` fields say nothing and are left out. */
export function eventWords(sent, phrases, book, used = [], zeroes = []) {
  const event = said(sent, zeroes);
  const { kind = "event", seat, target, cards = [], privateCards = [], count = 0 } = event;
  const shown = [cards.join(" "), privateCards.length ? `[${privateCards.join(" ")}]` : ""].filter(Boolean).join(" ");
  const fields = {};
  for (const [key, value] of Object.entries(event)) {
    if (Array.isArray(value) && value.every((item) => typeof item === "number")) fields[key] = score(value);
    else fields[key] = typeof value === "string" ? value.replace(/_/g, " ") : compact(value);
  }
  Object.assign(fields, {
    who: seat === undefined ? "the table" : book.name(seat),
    target: target === undefined ? "" : book.name(target),
    on_target: target === undefined ? "" : `on ${book.name(target)}`,
    cards: shown || `${count || "a"} card${count === 1 || !count ? "" : "s"}`,
  });
  const template = phrases[kind];
  const skip = new Set(["kind", "seat", "target", "cards", "privateCards", "count", ...used]);
  let text;
  if (template) {
    text = phrase(template, fields);
    for (const name of template.match(/\{(\w+)\}/g) || []) skip.add(name.slice(1, -1));
  } else {
    text = `${fields.who} ${words(kind)}${shown ? ` ${shown}` : ""}${fields.target ? ` -> ${fields.target}` : ""}`;
  }
  if (event.other === target) skip.add("other"); // a Greedy Agent's victim: named already
  const extra = Object.entries(event)
    .filter(([key]) => !skip.has(key))
    .map(([key, value]) => `${words(key)} ${key === "other" ? book.name(value) : compact(value)}`);
  return extra.length ? `${text} (${extra.join(", ")})` : text;
}
