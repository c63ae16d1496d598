// Players around the table: you at the bottom, the others clockwise (left, top, right).
// Each seat shows name, presence, card count, score and whose turn it is; the game view
// fills the seat's body (its piles and cards).
import { h, setAttr, setText, show, toggle } from "../dom.js";
import { t } from "../i18n.js";

const LAYOUT = {
  1: ["bottom"],
  2: ["bottom", "top"],
  3: ["bottom", "left", "right"],
  4: ["bottom", "left", "top", "right"],
};

export function positions(count, you) {
  const layout = LAYOUT[count] || LAYOUT[4];
  const base = you ?? 0;
  return Array.from({ length: count }, (_, seat) => layout[(seat - base + count) % count] || "top");
}

export class Ring {
  constructor(felt, count, you, bodyOf) {
    this.slots = positions(count, you).map((pos, seat) => {
      const name = h("span", { class: "name" });
      const dot = h("span", { class: "dot", "aria-hidden": "true" });
      const presence = h("span", { class: "sr-only" });
      const tags = h("span", { class: "tags" });
      const count_ = h("span", { class: "count" });
      const score = h("span", { class: "score" });
      const turn = h("span", { class: "turn" }, t("ring.turn"));
      const extra = h("span", { class: "extra" });
      const el = h("section", { class: `seat pos-${pos}`, "data-seat": seat },
        h("header", { class: "seat-head" }, dot, presence, name, tags),
        h("div", { class: "seat-stats" }, count_, score, extra, turn),
        bodyOf(seat));
      felt.append(el);
      return { el, name, dot, presence, tags, count: count_, score, turn, extra };
    });
  }

  /** stats(seat) -> {count, score, turn, turnLabel, extra, colour} from the game module. */
  update(view, you, stats) {
    const seats = view.room.seats;
    this.slots.forEach((slot, seat) => {
      const who = seats[seat];
      const s = stats(seat) || {};
      setText(slot.name, who ? who.name : t("seat.empty"));
      toggle(slot.dot, "on", who?.connected);
      setText(slot.presence, who?.connected ? t("presence.online") : t("presence.away"));
      setText(slot.tags, [seat === you ? t("tag.you") : "", who && who.player_id === view.room.host ? t("tag.host") : "",
        who?.standin ? t("tag.standin", { name: who.name }) : who?.bot ? t("tag.bot") : ""]
        .filter(Boolean).join(" · "));
      setText(slot.count, s.count === undefined ? "" : t("ring.cards", { n: s.count }));
      setText(slot.score, s.score === undefined ? "" : t("ring.score", { n: s.score }));
      setText(slot.extra, s.extra || "");
      show(slot.extra, Boolean(s.extra));
      show(slot.turn, Boolean(s.turn));
      setText(slot.turn, s.turnLabel || t("ring.turn"));
      toggle(slot.el, "turn", s.turn);
      toggle(slot.el, "me", seat === you);
      toggle(slot.el, "away", who && !who.connected);
      setAttr(slot.el, "aria-label", who ? who.name : t("seat.empty"));
      setAttr(slot.el, "aria-current", s.turn ? "true" : null);
      for (const c of ["Y", "G", "P", "B"]) toggle(slot.el, `c-${c}`, s.colour === c);
    });
  }
}
