// Words and numbers in the player's language (issue 29). Every string a player reads goes
// through `t` (or `tn` when it counts something), a whole sentence with `{name}` placeholders so
// that a translation can reorder it. The English text is the message id, as gettext's msgid:
// `make catalogues` extracts them into client/web/locales/web.pot, merges them into each
// language's .po and compiles locales/<lang>.json, which `useLanguage` loads. Numbers, dates and
// countdowns go through the browser's Intl, never hand-formatted.

export const LANGUAGES = ["en", "fr", "da", "hr"];
// Pseudo-localisation, for tests (`?pseudoLocale` in the address): every word that went
// through the catalogue or Intl is bracketed, so that a screen's text outside brackets is a
// word no catalogue holds (tests/e2e/browser/test_web_client_languages.py walks every screen).
const PSEUDO = new URLSearchParams(location.search).has("pseudoLocale");
const mark = (text) => (PSEUDO ? `⟦${text}⟧` : text);
/** A word the browser's Intl made in the page's language (a country's name): as it is. */
export const fromIntl = mark;
const STORED = "yamb.language";
const catalogues = new Map(); // language -> { plurals: {one: 0, ...}, messages: {id: text | [forms]} }
let language = "en";

/** The language the page speaks now (a BCP 47 tag such as "fr" or "da"). */
export const currentLanguage = () => language;

/** The language to speak before the account says: the one chosen on this device, else the
 * browser's first that we speak, else English. */
export function preferredLanguage() {
  const chosen = localStorage.getItem(STORED);
  if (LANGUAGES.includes(chosen)) return chosen;
  for (const tag of navigator.languages || [navigator.language]) {
    const primary = String(tag || "").toLowerCase().split("-")[0];
    if (LANGUAGES.includes(primary)) return primary;
  }
  return "en";
}

/** Speaks `tag` from now on (its catalogue fetched once; English needs none), kept on this
 * device for the next visit. The page's static words (`data-i18n`) follow at once; a screen
 * redraws itself. */
export async function useLanguage(tag) {
  const wanted = LANGUAGES.includes(tag) ? tag : "en";
  if (wanted !== "en" && !catalogues.has(wanted)) {
    const answer = await fetch(`locales/${wanted}.json`);
    if (!answer.ok) throw new Error(`no catalogue for ${wanted}`);
    catalogues.set(wanted, await answer.json());
  }
  setLanguage(wanted);
  localStorage.setItem(STORED, wanted);
  translatePage();
  return wanted;
}

/** Switches the page's language; `catalogue` is that language's, if already loaded. */
export function setLanguage(tag, catalogue = null) {
  language = tag || "en";
  if (catalogue) catalogues.set(language, catalogue);
  document.documentElement.lang = language;
}

/** The elements the page's HTML marks `data-i18n` say their words in the page's language; those
 * marked `data-i18n-label` or `data-i18n-placeholder`, their aria-label or placeholder
 * (their English text, kept as the attribute's value, is the message id). */
export function translatePage(root = document) {
  for (const element of root.querySelectorAll("[data-i18n]")) {
    if (!element.dataset.i18n) element.dataset.i18n = element.textContent.trim().replace(/\s+/g, " ");
    element.textContent = t(element.dataset.i18n);
  }
  for (const element of root.querySelectorAll("[data-i18n-label]")) {
    if (!element.dataset.i18nLabel) element.dataset.i18nLabel = element.getAttribute("aria-label") || "";
    element.setAttribute("aria-label", t(element.dataset.i18nLabel));
  }
  for (const element of root.querySelectorAll("[data-i18n-placeholder]")) {
    if (!element.dataset.i18nPlaceholder) element.dataset.i18nPlaceholder = element.getAttribute("placeholder") || "";
    element.setAttribute("placeholder", t(element.dataset.i18nPlaceholder));
  }
}

const fill = (text, params) =>
  text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));

/** "Pay {amount} tokens" with {amount: 5}: the translation of `text`, placeholders filled. */
export function t(text, params = {}) {
  const translated = catalogues.get(language)?.messages?.[text];
  return mark(fill(typeof translated === "string" && translated ? translated : text, params));
}

/** A word whose English is ambiguous, told apart by its context: `tc("column", "Free")` (the
 * sheet's column) is not `t("Free")` (a price). */
export function tc(context, text, params = {}) {
  const translated = catalogues.get(language)?.messages?.[`${context}\u0004${text}`];
  return mark(fill(typeof translated === "string" && translated ? translated : text, params));
}

/** A sentence that counts: `tn("{count} token", "{count} tokens", n)` takes the form the
 * language uses for n (Intl.PluralRules: Croatian has three); {count} is n, as the language
 * writes numbers. */
export function tn(singular, plural, count, params = {}) {
  const catalogue = catalogues.get(language);
  const forms = catalogue?.messages?.[singular];
  let text = count === 1 ? singular : plural;
  if (Array.isArray(forms)) {
    const category = new Intl.PluralRules(language).select(count);
    const index = catalogue.plurals?.[category] ?? catalogue.plurals?.other ?? forms.length - 1;
    text = forms[index] || text;
  }
  return mark(fill(text, { count: formatNumber(count), ...params }));
}

export const formatNumber = (value, options = {}) =>
  mark(new Intl.NumberFormat(language, options).format(value));

/** A date (a Date or an ISO string) as the language writes it; `style` "short" adds the time. */
export function formatDate(value, style = "medium") {
  const date = value instanceof Date ? value : new Date(value);
  const options = style === "short"
    ? { dateStyle: "short", timeStyle: "short" }
    : { dateStyle: style };
  return mark(new Intl.DateTimeFormat(language, options).format(date));
}

/** "in 3 minutes", "2 days ago": the nearest whole unit from now. */
export function formatRelative(value, now = Date.now()) {
  const date = value instanceof Date ? value : new Date(value);
  const seconds = Math.round((date.getTime() - now) / 1000);
  const units = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
  const [unit, size] = units.find(([, size]) => Math.abs(seconds) >= size) || units[3];
  return mark(new Intl.RelativeTimeFormat(language, { numeric: "auto" })
    .format(Math.round(seconds / size), unit));
}
