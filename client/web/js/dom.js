// Building the page without HTML strings: everything another player typed (nicknames, chat)
// reaches the page as text nodes only, so it can never become markup.

/** h("button", {class: "x", onclick: f, dataset: {cell: "a"}}, "Roll") */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") element.className = value;
    else if (name === "dataset") Object.assign(element.dataset, value);
    else if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "value") element.value = value;
    else if (name === "checked") element.checked = Boolean(value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else if (child instanceof Node) element.append(child);
    else element.append(document.createTextNode(String(child)));
  }
}

/** Replaces what `element` holds. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

export const byId = (id) => document.getElementById(id);

/** A translated sentence whose placeholders are nodes (links, a code): `t` leaves a placeholder
 * it is not given as it is, and here it becomes the node, so the sentence stays whole in every
 * language: compose(t("against {players}"), { players: links }). */
export function compose(text, nodes) {
  return text.split(/(\{\w+\})/).filter((part) => part !== "").map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return name && name in nodes ? nodes[name] : part;
  });
}
