// The Slap table: each player's face-down pile and flipped card, Nu!, the SLAP target (click,
// touch, space bar), the ruling of every closed flip, penalties and round scores.
// The server is the referee: this view only shows what it sends and sends what the player does.
import { h, setAttr, setKids, setText, show, toggle } from "../dom.js";
import { signed, t } from "../i18n.js";
import { unverified } from "../shell/races.js";
import { COLOURS, SYMBOL, cardBack, colourCard, colourName, swatch } from "../cards.js";

const OPEN = new Set(["FLIP_OPEN", "RACE"]);
const number = (card) => Number(card.slice(1));
const MAX_MS = 2147483647;
const HAND = '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M7 11V5.5a1.5 1.5 0 0 1 3 0V10h.5V3.5a1.5 1.5 0 0 1 3 0V10h.5V4.5a1.5 1.5 0 0 1 3 0V11h.5V7.5a1.5 1.5 0 0 1 3 0V15a7 7 0 0 1-7 7h-1a6.5 6.5 0 0 1-5.2-2.6L2.6 14.3a1.5 1.5 0 0 1 2.3-1.9L7 14.5z"/></svg>';

function icon(svg, cls) {
  const span = h("span", { class: cls, "aria-hidden": "true" });
  span.innerHTML = svg;
  return span;
}

/** The engine's colour assignment (rules 2.2): a seat keeps its choice unless an earlier seat
 * took it; the rest get the first free colour in the order Y, G, P, B. */
export function assignColours(wanted) {
  const taken = new Set();
  const chosen = wanted.map((w) => {
    const c = typeof w === "string" ? w.toUpperCase() : null;
    if (COLOURS.includes(c) && !taken.has(c)) {
      taken.add(c);
      return c;
    }
    return null;
  });
  const free = COLOURS.filter((c) => !taken.has(c));
  return chosen.map((c) => c ?? free.shift());
}

const prefs = {
  label: () => t("slap.colour"),
  preview(roomSeats) {
    const seats = [];
    roomSeats.forEach((s, i) => s && seats.push(i));
    const colours = assignColours(seats.map((i) => roomSeats[i].prefs?.colour));
    const out = roomSeats.map(() => null);
    seats.forEach((seat, k) => { out[seat] = colours[k]; });
    return out;
  },
  badge: (colour) => (colour ? swatch(colour) : null),
  taken(roomSeats, mySeat) {
    return new Set(roomSeats.filter((s, i) => s && i !== mySeat && s.prefs?.colour).map((s) => s.prefs.colour));
  },
  defaults(roomSeats, mySeat) {
    const taken = prefs.taken(roomSeats, mySeat);
    const assigned = prefs.preview(roomSeats).filter((c, i) => c && i !== mySeat);
    const free = COLOURS.find((c) => !taken.has(c) && !assigned.includes(c)) || COLOURS.find((c) => !taken.has(c));
    return free ? { colour: free } : {};
  },
  chooser(current, taken, onPick) {
    return h("div", { class: "colour-pick", role: "group", "aria-label": t("slap.colour") },
      COLOURS.map((c) => h("button", {
        type: "button", class: "swatch-btn", "aria-pressed": String(c === current), disabled: taken.has(c),
        "data-colour": c, onclick: () => onPick({ colour: c }),
      }, swatch(c, true), " ", colourName(c))));
  },
};

class SlapTable {
  constructor(ctx) {
    this.ctx = ctx;
    this.g = null;
    this.shownFlip = null;
    this.shownAt = 0;
    this.pointerAt = -1e9;
    this.keyAt = -1e9;
    this.rulingKey = "";
    this.seatEls = Array.from({ length: ctx.count }, () => {
      const pile = h("div", { class: "pile", "data-pile": "" }, cardBack("b1"), cardBack("b2"), cardBack("b3"),
        h("span", { class: "pile-n" }));
      const slot = h("div", { class: "slot" }, h("div", { class: "card empty", "aria-hidden": "true" }));
      const hand = h("span", { class: "slapped-mark", hidden: true }, icon(HAND, "icon"), t("slap.slapped"));
      const won = h("span", { class: "won-mark", hidden: true });
      const root = h("div", { class: "slap-seat" }, pile, slot, hand, won);
      return { root, pile, slot, hand, won, card: undefined };
    });
    this.cue = h("p", { class: "cue", "aria-hidden": "true" });
    this.status = h("p", { class: "slap-status" });
    this.nu = h("button", { type: "button", class: "btn nu", hidden: true, "aria-keyshortcuts": "N",
      onclick: () => this.callNu(false) }, t("slap.nu"));
    this.target = h("button", { type: "button", class: "slap-target", "aria-keyshortcuts": "Space", "aria-disabled": "true" },
      icon(HAND, "hand"), h("span", { class: "label" }, t("slap.slap")));
    this.ruling = h("div", { class: "ruling", hidden: true, "aria-live": "off" });
    this.hint = h("p", { class: "hint" }, t("slap.keys"));
    // Nu! and the slap target go with the player's seat, which stays on screen.
    const actions = h("div", { class: "slap-actions" }, this.nu, this.target);
    const mine = ctx.you !== null && ctx.you !== undefined && this.seatEls[ctx.you];
    if (mine) mine.root.append(actions);
    this.center = h("div", { class: "slap" }, this.cue, this.status, mine ? null : actions, this.ruling, this.hint);

    this.target.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      this.pointerAt = performance.now();
      this.slap(e, true);
    });
    this.target.addEventListener("click", (e) => {
      // Mouse and touch slapped at pointerdown; a click without a pointer is Enter or assistive tech.
      if (e.detail !== 0 || performance.now() - this.pointerAt < 600 || performance.now() - this.keyAt < 600) return;
      this.slap(e, true);
    });
    this.onKeyDown = (e) => this.key(e);
    this.onKeyUp = (e) => {
      if (e.key === " " && e.target === this.target) e.preventDefault(); // no second slap by click
    };
    document.addEventListener("keydown", this.onKeyDown);
    document.addEventListener("keyup", this.onKeyUp);
  }

  seat(i) {
    return this.seatEls[i].root;
  }

  destroy() {
    document.removeEventListener("keydown", this.onKeyDown);
    document.removeEventListener("keyup", this.onKeyUp);
  }

  key(e) {
    if (e.repeat || e.ctrlKey || e.metaKey || e.altKey || !this.g) return;
    if (document.querySelector("dialog[open]")) return;
    const target = e.target instanceof Element ? e.target : document.body;
    if (target.closest("input, textarea, select, [contenteditable]")) return;
    if (e.key === " ") {
      const onTarget = target === this.target;
      if (!onTarget && target.closest("button, a, summary")) return; // space activates what has focus
      e.preventDefault();
      this.keyAt = performance.now();
      this.slap(e, false);
    } else if (e.key === "n" || e.key === "N") {
      e.preventDefault();
      this.callNu(true);
    }
  }

  legal(type) {
    return (this.g?.legal || []).find((a) => a.type === type) || null;
  }

  /** Button: only when the server lists it. Keyboard: whenever cards are face up, and the server rules. */
  slap(e, fromButton) {
    const g = this.g;
    if (!g || g.you === null || g.you === undefined) return;
    if (fromButton ? !this.legal("slap") : !OPEN.has(g.phase)) return;
    const action = { type: "slap", flip: g.flip };
    if (this.shownFlip === g.flip) {
      action.reaction_ms = Math.min(MAX_MS, Math.max(0, Math.round(e.timeStamp - this.shownAt)));
    }
    this.target.classList.remove("hit");
    void this.target.offsetWidth; // restart the press animation
    this.target.classList.add("hit");
    this.ctx.act(action);
  }

  callNu(fromKey) {
    const g = this.g;
    if (!g || g.you === null || g.you === undefined) return;
    if (fromKey ? g.phase !== "AWAIT_NU" : !this.legal("nu")) return;
    this.ctx.act({ type: "nu" });
  }

  update(view) {
    const g = view.game;
    this.g = g;
    const names = this.ctx.names();
    setAttr(this.center, "data-phase", g.phase);
    setAttr(this.center, "data-flip", g.flip);
    const open = OPEN.has(g.phase);

    // The moment the cards are painted: the animation frame right after the DOM update that
    // shows them (the server allows one frame between receipt and paint; reaction_ms runs
    // from it to the input event's timestamp).
    if (open && this.shownFlip !== g.flip) {
      const flip = g.flip;
      this.shownFlip = flip;
      this.shownAt = performance.now(); // until the frame below has run
      requestAnimationFrame((frame) => {
        if (this.shownFlip === flip) this.shownAt = frame;
      });
    }

    const last = g.last;
    const showWinner = g.phase === "FLIP_RESULT" && last?.kind === "TRICK";
    g.seats.forEach((s, i) => {
      const el = this.seatEls[i];
      if (!el) return;
      setAttr(el.pile, "data-pile", s.pile);
      setText(el.pile.lastChild, s.pile);
      setAttr(el.pile, "aria-label", t("slap.pileLabel", { n: s.pile }));
      setAttr(el.pile, "role", "img");
      for (let d = 1; d <= 3; d++) toggle(el.pile, `d${d}`, s.pile >= (d === 1 ? 1 : d === 2 ? 4 : 8));
      if (el.card !== s.card) {
        const fresh = s.card && !el.card;
        el.slot.replaceChildren(s.card ? colourCard(s.card, fresh ? "flip-in" : "")
          : h("div", { class: "card empty", "aria-hidden": "true" }));
        el.card = s.card;
      }
      show(el.hand, s.slapped && open);
      const won = showWinner && last.winner === i;
      toggle(el.root, "won", won);
      show(el.won, won);
      if (won) setText(el.won, t("slap.takes", { n: g.seats.length }));
    });

    // Centre: the cue, the line under it, Nu!, the SLAP target and the last ruling.
    const starter = names[g.starter] || t("seat.n", { n: g.starter + 1 });
    const cue = { NU_CALLED: t("slap.nu"), RACE: t("slap.slapCue") }[g.phase] || "";
    setText(this.cue, cue);
    toggle(this.cue, "pulse", Boolean(cue));
    setText(this.status, this.statusText(g, names, starter));
    show(this.nu, Boolean(this.legal("nu")));
    const seated = g.you !== null && g.you !== undefined;
    const playing = g.phase !== "ROUND_OVER" && g.phase !== "MATCH_OVER";
    show(this.target, seated && playing);
    show(this.hint, seated && playing);
    setAttr(this.target, "aria-disabled", this.legal("slap") ? "false" : "true");
    toggle(this.target, "armed", open && Boolean(this.legal("slap")));
    this.renderRuling(last, names);
  }

  statusText(g, names, starter) {
    const mine = g.you !== null && g.you === g.starter;
    switch (g.phase) {
      case "AWAIT_NU":
        if (g.nu_mode === "auto") return t("slap.autoNext");
        return mine ? t("slap.yourCall") : t("slap.waitNu", { name: starter });
      case "NU_CALLED":
        return t("slap.getReady");
      case "FLIP_OPEN":
        return t("slap.look");
      case "RACE":
        return t("slap.race");
      case "FLIP_RESULT":
        return headline(g.last, names);
      case "ROUND_OVER":
        return t("slap.roundOver", { round: g.round, rounds: g.rounds });
      case "MATCH_OVER":
        return t("slap.matchOver", { names: listNames(g.winners, names) });
      default:
        return "";
    }
  }

  renderRuling(last, names) {
    const key = last ? JSON.stringify(last) : "";
    if (key === this.rulingKey) return;
    this.rulingKey = key;
    show(this.ruling, Boolean(last));
    if (!last) return;
    const rows = last.claims.map((c, k) => {
      const name = names[c.seat] || t("seat.n", { n: c.seat + 1 });
      const tag = last.kind === "TRICK"
        ? (c.seat === last.winner ? t("slap.claimWon") : "")
        : t("slap.claimFalse");
      const detail = typeof c.claimed === "number"
        ? t("slap.claimDetail", { claimed: c.claimed, credit: c.credit ?? 0 }) : null;
      return h("li", { class: c.seat === last.winner ? "win" : null, title: detail },
        h("span", { class: "who" }, `${k + 1}. ${name}`),
        h("span", { class: "ms" }, t("slap.ms", { ms: c.reaction })),
        tag ? h("span", { class: "tag" }, tag) : null);
    });
    setKids(this.ruling, [
      h("p", { class: "headline" }, t("slap.flipN", { n: last.flip }), " ", headline(last, names)),
      last.pairs.length ? h("p", { class: "pairs" }, t("slap.pairs", { numbers: last.pairs.join(", ") })) : null,
      rows.length ? h("ol", { class: "claims" }, rows) : null,
      last.tied.length > 1 ? h("p", { class: "tie" }, t("slap.tie", { names: listNames(last.tied, names) })) : null,
      ...unverified(last.claims).map((seat) => h("p", { class: "unverified" },
        t("race.unverified", { name: names[seat] || t("seat.n", { n: seat + 1 }) }))),
    ]);
    setAttr(this.ruling, "data-kind", last.kind);
  }
}

function listNames(seats, names) {
  const list = seats.map((s) => names[s] || t("seat.n", { n: s + 1 }));
  if (list.length <= 1) return list.join("");
  return t("list.and", { first: list.slice(0, -1).join(", "), last: list[list.length - 1] });
}

function headline(last, names) {
  if (!last) return "";
  if (last.kind === "TRICK") return t("slap.wonTrick", { name: names[last.winner] || t("seat.n", { n: last.winner + 1 }) });
  if (last.kind === "UNCLAIMED") return t("slap.unclaimed");
  return last.claims.length ? t("slap.noPairFalse") : t("slap.noPair");
}

function rulingEvent(last, names, count) {
  const name = (s) => names[s] || t("seat.n", { n: s + 1 });
  if (last.kind === "TRICK") {
    const first = last.claims.find((c) => c.seat === last.winner) || last.claims[0];
    const ms = first ? first.reaction : "?";
    const parts = [last.tied.length > 1
      ? t("ev.trickTie", { name: name(last.winner), ms, names: listNames(last.tied, names) })
      : t("ev.trick", { name: name(last.winner), ms, n: count })];
    for (const c of last.claims) if (c.seat !== last.winner) parts.push(t("ev.later", { name: name(c.seat), ms: c.reaction }));
    return parts.join(" ");
  }
  if (last.kind === "UNCLAIMED") return t("ev.unclaimed", { numbers: last.pairs.join(", ") });
  if (!last.claims.length) return t("ev.noPair");
  return t("ev.noPairFalse", { names: listNames(last.claims.map((c) => c.seat), names) });
}

export default {
  id: "slap",
  basicOptions: ["rounds", "first_starter", "nu_mode"],
  prefs,

  createTable(ctx) {
    return new SlapTable(ctx);
  },

  stats(g, seat) {
    const s = g.seats[seat];
    if (!s) return {};
    return {
      count: s.pile,
      score: g.totals[seat],
      turn: g.starter === seat && (g.phase === "AWAIT_NU" || g.phase === "NU_CALLED"),
      turnLabel: t("slap.turn"),
      extra: s.penalties ? t("slap.penalties", { n: s.penalties }) : "",
      colour: s.colour,
    };
  },

  timers(g) {
    const out = [];
    if (g.phase === "AWAIT_NU") {
      out.push({ key: "nu", at: g.deadline, label: g.nu_mode === "auto" ? t("cd.nu") : t("cd.autoNu") });
    } else if (g.phase === "NU_CALLED") {
      out.push({ key: "reveal", at: g.reveal_at, label: t("cd.reveal") });
    } else if (g.phase === "FLIP_RESULT") {
      out.push({ key: "next", at: g.deadline, label: t("cd.next") });
    } else if (g.phase === "ROUND_OVER") {
      out.push({ key: "round", at: g.deadline, label: g.round < g.rounds ? t("cd.nextRound") : t("cd.final") });
    }
    if (g.time_limit_at && g.phase !== "ROUND_OVER" && g.phase !== "MATCH_OVER") {
      out.push({ key: "limit", at: g.time_limit_at, label: t("cd.limit"), minor: true });
    }
    return out;
  },

  events(prev, g, names) {
    if (!prev) return [];
    const out = [];
    const name = (s) => names[s] || t("seat.n", { n: s + 1 });
    if (g.round !== prev.round) out.push(t("ev.round", { round: g.round, rounds: g.rounds, name: name(g.starter) }));
    if (g.flip !== prev.flip && g.phase === "NU_CALLED") out.push(t("ev.nu", { n: g.flip }));
    if (OPEN.has(g.phase) && (!OPEN.has(prev.phase) || prev.flip !== g.flip)) {
      const shown = g.seats.map((s, i) => (s.card ? [name(i), number(s.card), s.card[0]] : null)).filter(Boolean);
      out.push({
        text: t("ev.cards", { cards: shown.map(([who, n, c]) => `${who} ${n}${SYMBOL[c]}`).join(", ") }),
        say: t("ev.cards", { cards: shown.map(([who, n, c]) => t("ev.card", { name: who, n, colour: colourName(c) })).join(", ") }),
      });
    }
    if (g.round === prev.round) {
      g.seats.forEach((s, i) => {
        const before = prev.seats[i];
        if (!before) return;
        if (OPEN.has(g.phase) && s.slapped && !before.slapped) out.push(t("ev.slapped", { name: name(i) }));
        if (s.penalties > before.penalties) out.push(t("ev.penalty", { name: name(i), n: s.penalties }));
      });
    }
    if (g.last && (!prev.last || g.last.flip !== prev.last.flip)) out.push(rulingEvent(g.last, names, g.seats.length));
    if (g.scores.length > prev.scores.length) {
      const r = g.scores[g.scores.length - 1];
      out.push(t("ev.roundOver", { round: r.round, list: r.scores.map((sc, i) => `${name(i)} ${signed(sc)}`).join(", ") }));
    }
    if (g.phase === "MATCH_OVER" && prev.phase !== "MATCH_OVER") {
      out.push(t("ev.matchOver", { names: listNames(g.winners, names), n: g.totals[g.winners[0]] ?? 0 }));
    }
    return out;
  },

  scores(g, names) {
    if (!g.scores.length) return null;
    return {
      columns: names,
      rows: g.scores.map((r) => ({
        label: r.end === "NORMAL" ? t("scores.roundN", { n: r.round }) : `${t("scores.roundN", { n: r.round })} (${t(`slap.end.${r.end}`)})`,
        cells: r.scores.map((sc, i) => ({
          value: signed(sc),
          detail: r.penalties[i]
            ? t("slap.detailPen", { cards: r.counts[i], place: r.placement[i], pen: r.penalties[i] })
            : t("slap.detail", { cards: r.counts[i], place: r.placement[i] }),
        })),
      })),
      totals: g.totals,
      winners: g.winners,
      show: g.phase === "ROUND_OVER" || g.phase === "MATCH_OVER",
      final: g.phase === "MATCH_OVER",
    };
  },
};
