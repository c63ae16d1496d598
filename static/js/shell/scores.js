// End-of-round and end-of-game score tables, from a game-neutral description:
// {columns: [name], rows: [{label, cells: [{value, detail}]}], totals: [n], winners: [seat]}.
import { h } from "../dom.js";
import { num, t } from "../i18n.js";

export function scoreTable(data) {
  const winners = new Set(data.winners || []);
  const head = h("tr", {}, h("th", { scope: "col" }, t("scores.round")),
    data.columns.map((name, i) => h("th", { scope: "col", class: winners.has(i) ? "win" : null },
      name, winners.has(i) ? h("span", { class: "crown", "aria-label": t("scores.winner") }, " ★") : null)));
  const body = data.rows.map((row) => h("tr", {}, h("th", { scope: "row" }, row.label),
    row.cells.map((cell) => h("td", {}, h("strong", {}, typeof cell.value === "number" ? num(cell.value) : cell.value), cell.detail ? h("small", {}, cell.detail) : null))));
  const foot = h("tr", { class: "total" }, h("th", { scope: "row" }, t("scores.total")),
    data.totals.map((n, i) => h("td", { class: winners.has(i) ? "win" : null }, h("strong", {}, typeof n === "number" ? num(n) : n))));
  return h("div", { class: "score-wrap" },
    h("table", { class: "score-table" }, h("thead", {}, head), h("tbody", {}, body), h("tfoot", {}, foot)));
}
