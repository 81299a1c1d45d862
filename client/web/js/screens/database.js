// #/database: the open game database (issue 32): every month exported, newest first, each file
// with its download link, its size, its number of games and its SHA-256, the licence (CC0 1.0)
// and how to verify a game of a file. The listing and the files need no sign-in.

import { apiUrl } from "../api.js";
import { fill, h } from "../dom.js";
import { formatNumber, t, tn } from "../i18n.js";
import { boardTabs } from "./boards.js";

const size = (bytes) => bytes >= 1_048_576
  ? t("{size} MB", { size: formatNumber(bytes / 1_048_576, { maximumFractionDigits: 1 }) })
  : t("{size} kB", { size: formatNumber(Math.max(bytes / 1024, 0.1), { maximumFractionDigits: 1 }) });

export const screen = {
  id: "database",
  path: "/database",
  get title() { return t("Game database"); },
  nav: false,
  async show(root, params, ctx) {
    const error = h("p", { class: "error", id: "database-error", role: "alert" });
    const list = h("div", { id: "database-months" }, h("p", { class: "hint" }, t("Loading…")));
    const licence = h("p", { id: "database-licence" });
    fill(root, h("h2", {}, t("Game database")), boardTabs("database"),
      h("p", { class: "hint" }, t("Every finished public game, one file a month: the rules, the players' nicknames, the moves and the dice with their revealed seed. Anyone may download, use and share them.")),
      licence, error, list);
    try {
      const view = await ctx.http("GET", "/database");
      fill(licence, t("Licence:"), " ", h("a", { href: view.licence.url, target: "_blank", rel: "noopener license", id: "database-licence-link" }, view.licence.name),
        " · ", h("a", { href: await apiUrl(view.readme), id: "database-readme" }, t("What a line holds")));
      fill(list, await months(view));
    } catch (problem) {
      error.textContent = problem.message;
      fill(list);
    }
  },
};

async function months(view) {
  const verify = h("p", { class: "hint", id: "database-verify" },
    t("To verify every game of a file, every die from its revealed seed:"), " ", h("code", {}, view.verify));
  if (!view.months.length) return [h("p", { class: "hint", id: "database-empty" }, t("No month has been published yet: the first file appears once a month has ended.")), verify];
  const rows = [];
  for (const month of view.months) {
    for (const file of month.files) {
      rows.push(h("tr", { dataset: { month: month.month } },
        h("td", {}, month.month),
        h("td", {}, h("a", { href: await apiUrl(file.url), download: file.name, class: "database-file" }, file.name)),
        h("td", {}, size(file.bytes)),
        h("td", {}, tn("{count} game", "{count} games", file.games)),
        h("td", {}, h("code", { class: "sha256" }, file.sha256))));
    }
  }
  return [h("div", { class: "sheet-scroll" }, h("table", { class: "board-table", id: "database-table" },
    h("thead", {}, h("tr", {}, [t("Month"), t("File"), t("Size"), t("Games"), t("SHA-256")].map((head) => h("th", { scope: "col" }, head)))),
    h("tbody", {}, rows))), verify];
}
