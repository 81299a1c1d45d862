// #/boards: the leaderboards (product R1-R2) with their filters in the address
// (#/boards?columns=1&period=week), so that a board can be linked and reloaded. Each row names
// its players (their pages) and its games (their replays); the player's own row is marked, and
// shown below when it is not among the rows.

import { tagBadge } from "../clubs.js";
import { fill, h } from "../dom.js";
import { formatDate, formatNumber, t, tn } from "../i18n.js";

// Built when the screen is shown, in the page's language.
const filters = () => [
  { name: "format", label: t("Format"), options: [["individual", t("Individual")], ["pairs", t("Pairs (2 vs 2)")]] },
  { name: "columns", label: t("Columns"), options: [["main", t("Main board (best of each preset)")],
    ...[1, 2, 3, 4, 5, 6, 7].map((n) => [String(n), t("Preset {number}", { number: n })])] },
  { name: "side", label: t("Score"), options: [["best", t("Best game")], ["sum", t("Sum of games")]] },
  { name: "period", label: t("Period"), options: [["all", t("All time")], ["month", t("This month")], ["week", t("This week")]] },
  { name: "kind", label: t("Players"), options: [["all", t("Everyone")], ["favorites", t("My favourites")], ["clubs", t("My clubs")]] },
];

export const screen = {
  id: "boards",
  path: "/boards",
  get title() { return t("Leaderboards"); },
  nav: true,
  async show(root, params, ctx) {
    const FILTERS = filters();
    const chosen = Object.fromEntries(FILTERS.map((f) => [f.name, params.query.get(f.name) || f.options[0][0]]));
    const error = h("p", { class: "error", id: "boards-error", role: "alert" });
    const table = h("div", { id: "board" }, h("p", { class: "hint" }, t("Loading…")));
    const form = h("form", { class: "board-filters", id: "board-filters", onchange: () => {
      const query = new URLSearchParams();
      for (const filter of FILTERS) {
        const value = form.elements[filter.name].value;
        if (value !== filter.options[0][0]) query.set(filter.name, value);
      }
      const text = query.toString();
      ctx.navigate(`#/boards${text ? `?${text}` : ""}`);
    } }, FILTERS.map((filter) => h("label", { class: "field" },
      h("span", { class: "label" }, filter.label),
      h("select", { name: filter.name, id: `board-${filter.name}` },
        filter.options.map(([value, label]) => h("option", { value, selected: value === chosen[filter.name] }, label))))));
    fill(root, h("h2", {}, t("Leaderboards")), boardTabs("boards"), form, error, table);
    const query = new URLSearchParams(Object.entries(chosen).filter(([name, value]) =>
      value !== FILTERS.find((f) => f.name === name).options[0][0]));
    try {
      const view = await ctx.http("GET", `/boards${query.toString() ? `?${query}` : ""}`);
      fill(table, board(view));
    } catch (problem) {
      const slot = problem.field && root.querySelector(`#board-${CSS.escape(problem.field)}`);
      error.textContent = problem.message;
      if (slot) slot.setAttribute("aria-invalid", "true");
      fill(table);
    }
  },
};

/** The two kinds of board side by side: best scores and skill ratings (issue 32). */
export function boardTabs(current) {
  const tab = (id, href, label) => h("a", { href, id: `${current}-tab-${id}`, class: current === id ? "tab current" : "tab",
    "aria-current": current === id ? "page" : null }, label);
  return h("nav", { class: "board-tabs", "aria-label": t("Boards") },
    tab("boards", "#/boards", t("Best scores")), " · ", tab("ratings", "#/ratings", t("Skill ratings")),
    " · ", tab("database", "#/database", t("Game database")));
}

function board(view) {
  const ends = view.periodEndsAt
    ? h("p", { class: "hint", id: "board-ends" }, t("This period ends {date}; its prizes are paid then.", { date: formatDate(view.periodEndsAt, "short") }))
    : null;
  const prizes = view.prizes.length
    ? h("p", { class: "hint", id: "board-prizes" }, t("Prizes: {list} tokens", { list: view.prizes.map((p) => formatNumber(p)).join(" · ") }))
    : null;
  if (!view.rows.length) return [ends, prizes, h("p", { class: "hint", id: "board-empty" }, t("Nobody is on this board yet."))];
  const rows = view.rows.map(row);
  if (view.mine && !view.rows.some((r) => r.me)) rows.push(h("tr", { class: "gap" }, h("td", { colspan: 5 }, "…")), row(view.mine));
  return [ends, prizes, h("div", { class: "sheet-scroll" }, h("table", { class: "board-table" },
    h("thead", {}, h("tr", {}, [t("Place"), t("Players"), t("Score"), t("Games"), t("Prize")].map((head) => h("th", { scope: "col" }, head)))),
    h("tbody", {}, rows)))];
}

function row(entry) {
  const names = entry.names.map((name, index) => [index ? " & " : "",
    h("a", { href: `#/players/${encodeURIComponent(name)}` }, name),
    entry.tags?.[index] ? [" ", tagBadge(entry.tags[index])] : null]);
  const games = entry.gameIds.map((id, index) => [index ? ", " : "",
    h("a", { href: `#/replay/${id}`, class: "replay-link", "aria-label": t("Replay of game {number}", { number: index + 1 }) },
      t("Game {number}", { number: index + 1 }))]);
  return h("tr", { class: entry.me ? "me" : "", dataset: { place: entry.place } },
    h("td", {}, formatNumber(entry.place)), h("td", {}, names), h("td", { class: "score" }, formatNumber(entry.score)),
    h("td", {}, games), h("td", {}, entry.prize ? tn("{count} token", "{count} tokens", entry.prize) : ""));
}
