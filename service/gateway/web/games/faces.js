// The game's card catalogue (GET /v1/games/{game}/cards), read once per game, and how each game's cards are dressed
// from it: every card element the page draws shows its face's name on hover and focus, and a game that draws its cards
// its own way (Soker: the country's colour, the position word, the club's ringed mark) registers a dresser for the
// member of CardFace's `game` oneof it reads.

import { api } from "../api.js";
import { h } from "../dom.js";

const catalogues = new Map(); // game -> Promise of Map(code -> CardFace in its JSON form)
const known = new Map(); // code -> CardFace, of every catalogue read so far
const dressers = new Map(); // CardFace's oneof member -> (element, face) => void

/** Reads a game's catalogue (once); a catalogue that cannot be read leaves its cards as their codes. */
export function loadFaces(game) {
  if (!catalogues.has(game)) {
    catalogues.set(
      game,
      api
        .cards(game)
        .then((answer) => {
          for (const face of answer.cards || []) known.set(face.code, face);
          return known;
        })
        .catch(() => known),
    );
  }
  return catalogues.get(game);
}

export function registerDresser(member, dress) {
  dressers.set(member, dress);
}

export function faceOf(code) {
  return known.get(code) || null;
}

/** A card by its name where the catalogue has it, its code after it: "Pass / Intercept 6 (B-PI-6)"; else the code. */
export function labelOf(code) {
  const face = faceOf(code);
  return face ? `${face.name} (${code})` : code;
}

/** A card's name alone, for a panel naming a card shown elsewhere on the table (its code must not show twice);
 * ``fallback`` when there is no card or the catalogue does not know it. */
export function nameOf(code, fallback) {
  const face = code ? faceOf(code) : null;
  return face?.name || fallback;
}

/** Dresses a card element whose text is the card's code: its face's name (and what it does) as its title and in its
 * accessible name, and the game's own drawing where the game has one. */
export function dressCard(element, code) {
  const face = known.get(code);
  if (!face) return element;
  const about = [face.name, face.text].filter(Boolean).join(": ");
  element.title = about;
  element.dataset.card = code;
  // (a control's name holds its visible text, so a button says more in words read aloud only; a list item takes a
  // name of its own; a span or div is a picture of the card, named, since a plain span's name is never read)
  if (element.tagName === "BUTTON") element.append(h("span", { class: "sr-only" }, `, ${about}`));
  else {
    if (element.tagName !== "LI") element.setAttribute("role", "img");
    element.setAttribute("aria-label", element.getAttribute("aria-label") || `${code}, ${about}`);
  }
  for (const [member, dress] of dressers) if (face[member]) dress(element, face);
  return element;
}
