// "How to play": each game's short rules in the page's language, in a dialog over whatever is
// open. At the table nothing underneath is left or rebuilt: the game keeps running and closing
// the dialog puts the player back where they were.
import { h, loadStyle } from "../dom.js";
import { language, t } from "../i18n.js";

const books = {
  en: () => import("../rules/en.js"),
  da: () => import("../rules/da.js"),
  fi: () => import("../rules/fi.js"),
};
/** The games with a rules page, in the order the home page lists them (their names are not translated). */
export const RULE_GAMES = { slap: "Slap", leekha: "Leekha", rummy: "Rummy", uffda: "UFF-DA!", kuuduk: "Kuuduk" };

/** {title, goal, parts: [[heading, [line]]], example: [heading, [line]]} in the page's language. */
export async function rulesOf(game, lang = language()) {
  const book = (await (books[lang] || books.en)()).default;
  return book[game] || null;
}

export async function openRules(game) {
  loadStyle("/static/css/help.css");
  const rules = await rulesOf(game);
  if (!rules) return null;
  const close = h("button", { type: "button", class: "btn", onclick: () => dialog.close() }, t("help.close"));
  const dialog = h("dialog", { class: "rules", "aria-labelledby": "rules-title", "data-game": game },
    h("h2", { id: "rules-title" }, t("help.title", { title: rules.title })),
    h("p", { class: "rules-goal" }, rules.goal),
    rules.parts.map(([head, lines]) => h("section", {}, h("h3", {}, head), h("ul", {}, lines.map((l) => h("li", {}, l))))),
    h("section", { class: "rules-example" }, h("h3", {}, `${t("help.example")}: ${rules.example[0]}`),
      rules.example[1].map((l) => h("p", {}, l))),
    h("div", { class: "row end" }, close));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
  return dialog;
}

/** The "?" at the table (compact) or a "How to play" button (lobby). */
export function helpButton(game, { compact = false } = {}) {
  if (!Object.hasOwn(RULE_GAMES, game)) return null;
  const title = RULE_GAMES[game];
  return h("button", { type: "button", class: compact ? "help-q" : "btn small help-btn", "aria-haspopup": "dialog",
    "aria-label": compact ? t("help.table", { title }) : null, title: compact ? t("help.table", { title }) : null,
    onclick: () => openRules(game) }, compact ? "?" : t("help.open"));
}

/** The home page's panel: one button per game. */
export function rulesPanel() {
  loadStyle("/static/css/help.css");
  return h("section", { class: "panel rules-panel", "aria-labelledby": "rules-panel-title" },
    h("h2", { id: "rules-panel-title" }, t("help.home")),
    h("p", { class: "muted" }, t("help.homeIntro")),
    h("div", { class: "row" }, Object.entries(RULE_GAMES).map(([game, title]) =>
      h("button", { type: "button", class: "btn small", "aria-haspopup": "dialog", "data-game": game,
        onclick: () => openRules(game) }, title))));
}
