// A score sheet as a table: the grid's rows down, the sheet's columns across, a total row after
// each section. The cells that can be written now carry their score and a button.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { columnLabel, rowLabel } from "./labels.js";

const sectionTotals = () => ({ upper: t("Σ upper"), middle: t("Σ middle"), lower: t("Σ lower") });

/**
 * sheet: a SheetView; grid: the catalog's grid; columns: the column ids;
 * turn: {legal, pending, proposal, opened, directedRow, announcement, hinted} for this sheet or
 * null (hinted: the cell a hint names);
 * onCell(cell): called with a legal cell when clicked (null: not clickable);
 * announcing: the columns whose empty cells a click announces (onAnnounce), or null.
 */
export function sheetTable({ sheet, grid, columns, title, turn, onCell, onAnnounce, announcing }) {
  const legal = new Map((turn?.legal || []).map((cell) => [`${cell.column}/${cell.row}`, cell]));
  const opened = new Set((turn?.opened || []).map((cell) => `${cell.column}/${cell.row}`));
  const key = (column, row) => `${column}/${row}`;
  // The corner names the row labels' column for screen readers (an empty header is a defect).
  const head = h("tr", {}, h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("Row"))),
    columns.map((column) => h("th", { scope: "col", dataset: { column } }, columnLabel(column))));
  const body = [];
  let section = grid.rows[0].section;
  const totalRow = (name) => h("tr", { class: "totals" },
    h("th", { scope: "row" }, sectionTotals()[name]),
    columns.map((column) => {
      const totals = sheet.totals[column];
      if (!totals) return h("td", {}, "");
      const bonus = name === "upper" && totals.bonus ? ` +${totals.bonus}` : "";
      return h("td", {}, `${totals[name]}${bonus}`);
    }));
  for (const row of grid.rows) {
    if (row.section !== section) {
      body.push(totalRow(section));
      section = row.section;
    }
    const cells = columns.map((column) => {
      const value = sheet.cells[column]?.[row.id];
      const id = key(column, row.id);
      const classes = ["cell"];
      const data = { column, row: row.id };
      if (turn?.directedRow === row.id && column === "directed") classes.push("directed");
      if (turn?.announcement && key(turn.announcement.column, turn.announcement.row) === id) {
        classes.push("announced");
      }
      if (opened.has(id)) classes.push("opened");
      if (turn?.hinted && key(turn.hinted.column, turn.hinted.row) === id) classes.push("hinted");
      if (value !== undefined) return h("td", { class: `${classes.join(" ")} written`, dataset: data }, String(value));
      const proposal = turn?.proposal && key(turn.proposal.column, turn.proposal.row) === id;
      if (proposal) classes.push("proposal");
      const pending = turn?.pending && key(turn.pending.column, turn.pending.row) === id;
      if (pending) classes.push("pending");
      const cell = legal.get(id);
      if (announcing && announcing.includes(column) && onAnnounce) {
        return h("td", { class: classes.join(" "), dataset: data },
          h("button", { class: "announce-cell", title: t("Announce {row}", { row: rowLabel(row.id) }),
            "aria-label": t("Announce {row} in {column}", { row: rowLabel(row.id), column: columnLabel(column) }),
            onclick: () => onAnnounce({ column, row: row.id }) }, "📣"));
      }
      if (cell) {
        classes.push("legal");
        const announced = classes.includes("announced");
        const label = announced
          ? t("{row} in {column}, the announced cell: write {score}", { row: rowLabel(row.id), column: columnLabel(column), score: cell.score })
          : t("{row} in {column}: write {score}", { row: rowLabel(row.id), column: columnLabel(column), score: cell.score });
        return h("td", { class: classes.join(" "), dataset: data },
          onCell
            ? h("button", { class: "write-cell", "aria-label": label, onclick: () => onCell(cell) }, String(cell.score))
            : h("span", { class: "candidate" }, String(cell.score)));
      }
      if (proposal) return h("td", { class: classes.join(" "), dataset: data }, `(${turn.proposal.score})`);
      return h("td", { class: classes.join(" "), dataset: data }, "");
    });
    body.push(h("tr", { dataset: { row: row.id } }, h("th", { scope: "row" }, rowLabel(row.id)), cells));
  }
  body.push(totalRow(section));
  if (columns.some((column) => sheet.totals[column]?.extra)) {
    body.push(h("tr", { class: "totals" }, h("th", { scope: "row" }, t("Bonuses")),
      columns.map((column) => h("td", {}, String(sheet.totals[column]?.extra || 0)))));
  }
  body.push(h("tr", { class: "totals grand" }, h("th", { scope: "row" }, t("Total")),
    columns.map((column) => h("td", {}, String(sheet.totals[column]?.total ?? 0)))));
  // While its player chooses, the cells that can be written now stand out and the rest fade.
  const choosing = Boolean(onCell) && legal.size > 0;
  return h("section", { class: `sheet${choosing ? " choosing" : ""}`, dataset: { player: sheet.playerId } },
    h("h3", {}, title, " ", h("span", { class: "sheet-total" }, String(sheet.total))),
    h("div", { class: "sheet-scroll" }, h("table", {}, h("thead", {}, head), h("tbody", {}, body))));
}
