// Building the page: elements from plain data, text always as text (names and cards come from other people, so
// nothing the server sends is ever parsed as HTML).

/**
 * h("button", {testid: "move", onclick: f, class: "x", "aria-label": "..."}, "text", child, ...)
 * `testid` sets data-testid, `data` an object of data-* attributes, `on<event>` a listener; false, null and
 * undefined attributes and children are left out.
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "testid") element.dataset.testid = value;
    else if (name === "data") Object.entries(value).forEach(([key, item]) => (element.dataset[key] = item));
    else if (name.startsWith("on") && typeof value === "function") element.addEventListener(name.slice(2), value);
    else if (name === "value" || name === "checked" || name === "disabled" || name === "hidden") element[name] = value;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === false || child === null || child === undefined || child === "") continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/** A labelled form field: <label>text <input></label>, the input's testid given. */
export function field(label, input, hint = "") {
  return h("label", { class: "field" }, h("span", { class: "field-label" }, label), input, hint && h("small", {}, hint));
}

/** "turnBegan" -> "turn began", "end_turn" -> "end turn". */
export function words(name) {
  return String(name)
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .toLowerCase();
}

/** A short text of a JSON value: lists joined with commas, objects as "key value" pairs. */
export function compact(value) {
  if (Array.isArray(value)) return value.length ? value.map(compact).join(", ") : "-";
  if (value === null || value === undefined) return "-";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "object") {
    return Object.entries(value)
      .map(([key, item]) => `${words(key)} ${compact(item)}`)
      .join("; ");
  }
  return String(value);
}

export function shorten(text, limit = 80) {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}
