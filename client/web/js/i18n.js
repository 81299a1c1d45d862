// Words and numbers in the player's language. Every string a player reads goes through `t`, a
// whole sentence with `{name}` placeholders, so that a translation can reorder it (issue 29 adds
// the catalogues: the English text is the message id, as gettext's msgid). Numbers, dates and
// countdowns go through the browser's Intl, never hand-formatted.

const catalogues = new Map(); // language -> { "English text": "translation" }
let language = "en";

/** The language the page speaks now (a BCP 47 tag such as "fr" or "da"). */
export const currentLanguage = () => language;

/** Switches the page's language; `messages` is that language's catalogue, if already loaded. */
export function setLanguage(tag, messages = null) {
  language = tag || "en";
  if (messages) catalogues.set(language, messages);
  document.documentElement.lang = language;
}

/** "Pay {amount} tokens" with {amount: 5}: the translation of `text`, placeholders filled. */
export function t(text, params = {}) {
  const translated = catalogues.get(language)?.[text] || text;
  return translated.replace(/\{(\w+)\}/g, (whole, name) =>
    name in params ? String(params[name]) : whole);
}

export const formatNumber = (value, options = {}) =>
  new Intl.NumberFormat(language, options).format(value);

/** A date (a Date or an ISO string) as the language writes it; `style` "short" adds the time. */
export function formatDate(value, style = "medium") {
  const date = value instanceof Date ? value : new Date(value);
  const options = style === "short"
    ? { dateStyle: "short", timeStyle: "short" }
    : { dateStyle: style };
  return new Intl.DateTimeFormat(language, options).format(date);
}

/** "in 3 minutes", "2 days ago": the nearest whole unit from now. */
export function formatRelative(value, now = Date.now()) {
  const date = value instanceof Date ? value : new Date(value);
  const seconds = Math.round((date.getTime() - now) / 1000);
  const units = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
  const [unit, size] = units.find(([, size]) => Math.abs(seconds) >= size) || units[3];
  return new Intl.RelativeTimeFormat(language, { numeric: "auto" })
    .format(Math.round(seconds / size), unit);
}
