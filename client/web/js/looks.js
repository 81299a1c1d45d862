// Cosmetics as the page draws them (product E5): a look is a cosmetic's item id ("sheet-slate",
// "dice-neon", "effect-glow", "frame-gold"), as the game views carry them (SheetView.skin and
// columnEffect, TurnView.diceSkin, SeatView.frame). Each becomes one CSS class, `look-<itemId>`,
// whose colours live in css/looks.css; an item id the page does not know draws nothing, and one
// that is not a plain id (it came from the server, but still) is never turned into a class.

const ITEM_ID = /^[a-z0-9][a-z0-9-]{0,40}$/;

/** The class of one look ("look-sheet-slate"), or null for none or an id that is not plain. */
export function lookClass(itemId) {
  return typeof itemId === "string" && ITEM_ID.test(itemId) ? `look-${itemId}` : null;
}

/**
 * Dresses `element` in the looks given ({sheet, effect, dice, frame}: item ids or null): its
 * `look-*` classes replaced by these, and `data-looks` naming them (for tests and styles).
 * Answers the element.
 */
export function dress(element, looks) {
  for (const name of [...element.classList]) {
    if (name.startsWith("look-")) element.classList.remove(name);
  }
  const worn = Object.values(looks).map(lookClass).filter(Boolean);
  element.classList.add(...worn);
  if (worn.length) element.dataset.looks = worn.map((name) => name.slice(5)).join(" ");
  else delete element.dataset.looks;
  return element;
}
