// Players around the table: you at the bottom, the others clockwise from your left (up the
// left side, across the top, down the right side). Each seat shows name, presence, card count,
// score and whose turn it is; the game view fills the seat's body (its piles and cards).
// Your own seat sticks to the bottom of the screen, so your hand and the current step's
// buttons stay in view however many players sit around the table.
import { h, setAttr, setText, show, toggle } from "../dom.js";
import { t } from "../i18n.js";

const SIDES = ["left", "top", "right"];

/** How many of the others sit up the left side, across the top and down the right side. */
function sideCounts(others) {
  if (others <= 0) return [0, 0, 0];
  if (others === 1) return [0, 1, 0];
  if (others === 2) return [1, 0, 1];
  const side = others >= 6 ? 2 : 1;
  return [side, others - 2 * side, side];
}

/** Each seat's place: {side, order}, order counting clockwise from your left (0 = you). */
export function places(count, you) {
  const base = you ?? 0;
  const counts = sideCounts(count - 1);
  return Array.from({ length: count }, (_, seat) => {
    const order = (seat - base + count) % count;
    if (order === 0) return { side: "bottom", order };
    let rest = order - 1;
    for (let k = 0; k < SIDES.length; k++) {
      if (rest < counts[k]) return { side: SIDES[k], order };
      rest -= counts[k];
    }
    return { side: "top", order };
  });
}

/** The side each seat sits on (bottom, left, top or right). */
export function positions(count, you) {
  return places(count, you).map((p) => p.side);
}

export class Ring {
  constructor(felt, count, you, bodyOf) {
    const where = places(count, you);
    const groups = Object.fromEntries(["left", "top", "right", "bottom"].map((side) =>
      [side, h("div", { class: `ring-side ring-${side}` })]));
    felt.prepend(groups.left, groups.top, groups.right);
    felt.append(groups.bottom);
    setAttr(felt, "data-seats", count);
    this.slots = where.map(({ side, order }, seat) => {
      const name = h("span", { class: "name" });
      const dot = h("span", { class: "dot", "aria-hidden": "true" });
      const presence = h("span", { class: "sr-only" });
      const tags = h("span", { class: "tags" });
      const count_ = h("span", { class: "count" });
      const score = h("span", { class: "score" });
      const turn = h("span", { class: "turn" }, t("ring.turn"));
      const extra = h("span", { class: "extra" });
      const el = h("section", { class: `seat pos-${side}`, "data-seat": seat, style: `--ring-order:${order}` },
        seat === you ? h("div", { class: "toast-dock" }) : null,
        h("header", { class: "seat-head" }, dot, presence, name, tags),
        h("div", { class: "seat-stats" }, count_, score, extra, turn),
        bodyOf(seat));
      return { el, name, dot, presence, tags, count: count_, score, turn, extra, side, order };
    });
    // Up the left side means the first seat clockwise sits lowest.
    const ordered = [...this.slots].sort((a, b) => (a.side === "left" ? b.order - a.order : a.order - b.order));
    for (const slot of ordered) groups[slot.side].append(slot.el);
    for (const group of Object.values(groups)) show(group, group.childElementCount > 0);
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
