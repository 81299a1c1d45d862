// #/ratings: the skill ratings' boards (issue 32) beside the score boards, their pool in the
// address (#/ratings?family=yamb-3&format=pairs). A row names its player (their page) with the
// main club's tag; the player's own rating is marked, or shown below when not among the rows.

import { tagBadge } from "../clubs.js";
import { fill, h } from "../dom.js";
import { formatNumber, t } from "../i18n.js";
import { families, ratingBadge } from "../ratings.js";
import { boardTabs } from "./boards.js";

const filters = () => [
  { name: "family", label: t("Game"), options: families() },
  { name: "format", label: t("Format"), options: [["individual", t("Individual")], ["pairs", t("Pairs (2 vs 2)")]] },
];

export const screen = {
  id: "ratings",
  path: "/ratings",
  get title() { return t("Ratings"); },
  nav: false,
  async show(root, params, ctx) {
    const FILTERS = filters();
    const chosen = Object.fromEntries(FILTERS.map((f) => [f.name, params.query.get(f.name) || f.options[0][0]]));
    const error = h("p", { class: "error", id: "ratings-error", role: "alert" });
    const table = h("div", { id: "rating-board" }, h("p", { class: "hint" }, t("Loading…")));
    const form = h("form", { class: "board-filters", id: "rating-filters", onchange: () => {
      const query = new URLSearchParams();
      for (const filter of FILTERS) {
        const value = form.elements[filter.name].value;
        if (value !== filter.options[0][0]) query.set(filter.name, value);
      }
      const text = query.toString();
      ctx.navigate(`#/ratings${text ? `?${text}` : ""}`);
    } }, FILTERS.map((filter) => h("label", { class: "field" },
      h("span", { class: "label" }, filter.label),
      h("select", { name: filter.name, id: `rating-${filter.name}` },
        filter.options.map(([value, label]) => h("option", { value, selected: value === chosen[filter.name] }, label))))));
    fill(root, h("h2", {}, t("Ratings")), boardTabs("ratings"),
      h("p", { class: "hint" }, t("A skill rating for each game, from every ranked game against people. A rating with a “?” is provisional: it settles after a few more games.")),
      form, error, table);
    try {
      const view = await ctx.http("GET", `/ratings?family=${encodeURIComponent(chosen.family)}&format=${encodeURIComponent(chosen.format)}`);
      fill(table, board(view));
    } catch (problem) {
      const slot = problem.field && root.querySelector(`#rating-${CSS.escape(problem.field)}`);
      error.textContent = problem.message;
      if (slot) slot.setAttribute("aria-invalid", "true");
      fill(table);
    }
  },
};

function board(view) {
  const mine = view.mine
    ? h("p", { id: "rating-mine" }, t("Your rating here:"), " ", ratingBadge(view.mine))
    : null;
  if (!view.rows.length) return [h("p", { class: "hint", id: "rating-empty" }, t("Nobody has a rating here yet: play a ranked game to be the first.")), mine];
  return [h("div", { class: "sheet-scroll" }, h("table", { class: "board-table" },
    h("thead", {}, h("tr", {}, [t("Place"), t("Player"), t("Rating"), t("Games")].map((head) => h("th", { scope: "col" }, head)))),
    h("tbody", {}, view.rows.map((row) => h("tr", { class: row.me ? "me" : "", dataset: { place: row.place } },
      h("td", {}, formatNumber(row.place)),
      h("td", {}, h("a", { href: `#/players/${encodeURIComponent(row.name)}` }, row.name), row.tag ? [" ", tagBadge(row.tag)] : null),
      h("td", { class: "score" }, ratingBadge(row)),
      h("td", {}, formatNumber(row.games))))))), mine];
}
