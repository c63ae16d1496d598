// Cards drawn in CSS (no images). Every colour also has its own symbol and pattern, so the
// four Slap colours stay apart for colour-blind players: Y ● dots, G ▲ stripes, P ■ checks, B ◆ waves.
import { h } from "./dom.js";
import { t } from "./i18n.js";

export const COLOURS = ["Y", "G", "P", "B"];
export const SYMBOL = { Y: "●", G: "▲", P: "■", B: "◆" };

export const colourName = (c) => t(`colour.${c}`);

/** A face-up colour card, e.g. "G07". */
export function colourCard(id, extraClass = "") {
  const colour = id[0];
  const n = String(Number(id.slice(1)));
  const sym = SYMBOL[colour] || "?";
  return h("div", {
    class: `card face c-${colour}${n.length > 1 ? " wide" : ""} ${extraClass}`.trim(),
    role: "img",
    "aria-label": t("card.label", { colour: colourName(colour), n }),
    "data-card": id,
  },
  h("span", { class: "corner tl", "aria-hidden": "true" }, n, h("i", {}, sym)),
  h("span", { class: "num", "aria-hidden": "true" }, n),
  h("span", { class: "corner br", "aria-hidden": "true" }, n, h("i", {}, sym)));
}

export function cardBack(extraClass = "") {
  return h("div", { class: `card back ${extraClass}`.trim(), "aria-hidden": "true" });
}

/** A colour swatch with its symbol (lobby); decorative when the colour is named next to it. */
export function swatch(colour, decorative = false) {
  if (decorative) return h("span", { class: `swatch c-${colour}`, "aria-hidden": "true" }, SYMBOL[colour]);
  return h("span", { class: `swatch c-${colour}`, title: colourName(colour) },
    h("span", { "aria-hidden": "true" }, SYMBOL[colour]), h("span", { class: "sr-only" }, colourName(colour)));
}
