// The Rummy table: the shared table (the active player's draft, streamed live to everyone, each set
// marked valid or not by the server), your hand, and the turn's controls. A card moves by drag and
// drop (mouse, pen or touch), by tap-to-select then tap-to-place, or by keyboard (Enter picks a card
// up, Enter on a place puts it down, arrows shift it within its set, Escape lets go).
// The server is the referee: every move is a `move` action and the view says what came of it.
import { h, loadStyle, setAttr, setKids, setText, show, toggle } from "../dom.js";
import { addStrings, errorText, signed, t } from "../i18n.js";

loadStyle("/static/css/games/rummy.css");

const P = {
  SET_TOO_SHORT: "needs at least 3 cards",
  NO_NATURAL_CARD: "needs a card that is not a joker",
  KIND_REQUIRED: "has one numbered card: say whether it is a group or a run",
  GROUP_TOO_LONG: "is a group of more than 4 cards",
  GROUP_NUMBER_MISMATCH: "is a group whose cards show different numbers",
  GROUP_DUPLICATE_COLOUR: "is a group with a colour twice",
  RUN_COLOUR_MISMATCH: "is a run of more than one colour",
  RUN_NOT_CONSECUTIVE: "is a run whose numbers do not follow each other in order",
  RUN_OUT_OF_RANGE: "is a run that goes below 1 or above 13 (1 is low only)",
  EMPTY_SET: "is empty",
  UNKNOWN_CARD: "holds a card that does not exist",
  DUPLICATE_CARD: "holds a card twice",
  NOT_IN_HAND: "holds a card that is not yours",
  OPENING_TABLE_CHANGED: "mixes table cards into the first play",
};
const WHOLE = {
  TABLE_CARD_MISSING: "Cards on the table cannot go back to a hand.",
  NO_HAND_CARD_PLAYED: "Play at least one card from your hand, or draw.",
  JOKER_NUMBER_CHANGED: "A joker already on the table must keep the number it stands for.",
  OPENING_TABLE_CHANGED: "The first play may only add new sets of your own cards; leave the rest as it is.",
  OPENING_BELOW_MIN: "The first play must be worth at least {min} points; the new sets make {n}.",
};
const strings = {
  "rummy.colour.R": "Red",
  "rummy.colour.B": "Blue",
  "rummy.colour.Y": "Yellow",
  "rummy.colour.K": "Black",
  "rummy.card": "{colour} {n}",
  "rummy.joker": "Joker",
  "rummy.table": "Table",
  "rummy.hand": "Your hand",
  "rummy.handEmpty": "Your hand is empty.",
  "rummy.noSets": "No sets on the table yet.",
  "rummy.setN": "Set {n}",
  "rummy.setLabel": "Set {n}: {state}",
  "rummy.ok": "valid",
  "rummy.okKind": "valid {kind}, {points} pts",
  "rummy.okPlain": "valid {kind}",
  "rummy.bad": "not valid",
  "rummy.kind.group": "group",
  "rummy.kind.run": "run",
  "rummy.group": "Group",
  "rummy.run": "Run",
  "rummy.declare": "Set {n} is a",
  "rummy.addTo": "Add to set {n}",
  "rummy.newSet": "New set",
  "rummy.toHand": "Back to hand",
  "rummy.commit": "End turn",
  "rummy.draw": "Draw a card",
  "rummy.pass": "Pass (the pool is empty)",
  "rummy.undo": "Undo",
  "rummy.reset": "Start over",
  "rummy.sortNumber": "Sort by number",
  "rummy.sortColour": "Sort by colour",
  "rummy.pool": { one: "Pool: {n} card", other: "Pool: {n} cards" },
  "rummy.opened": "Opened",
  "rummy.notOpened": "Not opened yet",
  "rummy.openingNeed": "Your first play: new sets of your own cards worth at least {min} points.",
  "rummy.openingNow": "Your first play: {n} of {min} points.",
  "rummy.openedYou": "You have opened: rebuild the table freely.",
  "rummy.keys": "Drag cards, or tap a card and then its place. Keys: Enter picks up and puts down, ←/→ move within a set, Esc lets go.",
  "rummy.picked": "{card} picked up: choose where it goes.",
  "rummy.dropped": "{card} let go.",
  "rummy.problems": "Not valid yet:",
  "rummy.controls": "Turn",
  "rummy.yourTurn": "Your turn: lay out sets, then End turn, or draw a card.",
  "rummy.validNow": { one: "The table is valid: End turn to play {n} card.", other: "The table is valid: End turn to play {n} cards." },
  "rummy.theirTurn": "{name}'s turn.",
  "rummy.building": { one: "{name} is building the table: {n} card placed.", other: "{name} is building the table: {n} cards placed." },
  "rummy.rejected": "Not accepted: {message}",
  "rummy.roundOut": "Round {round} is over: {name} went out.",
  "rummy.roundBlocked": "Round {round} is over: nobody could play; {names} had the lowest hand.",
  "rummy.matchOver": "{names} won the match!",
  "rummy.away": "away",
  "rummy.end.out": "went out",
  "rummy.end.blocked": "blocked",
  "rummy.detail": { one: "{n} card left · {value}", other: "{n} cards left · {value}" },
  "rummy.you": "You",
  "rummy.ev.round": "Round {round}: {name} begins.",
  "rummy.ev.commit": { one: "{name} played {n} card{more}.", other: "{name} played {n} cards{more}." },
  "rummy.ev.opened": " and opened",
  "rummy.ev.changes": " ({list})",
  "rummy.ev.newSets": { one: "{n} new set", other: "{n} new sets" },
  "rummy.ev.rebuilt": { one: "{n} set rebuilt", other: "{n} sets rebuilt" },
  "rummy.ev.jokers": { one: "{n} joker exchanged", other: "{n} jokers exchanged" },
  "rummy.ev.draw": "{name} drew a card.",
  "rummy.ev.drewYou": "You drew {cards}.",
  "rummy.ev.pass": "{name} passed: the pool is empty.",
  "rummy.ev.timeoutCommit": { one: "Time ran out: {name}'s table was valid and counts ({n} card played).", other: "Time ran out: {name}'s table was valid and counts ({n} cards played)." },
  "rummy.ev.timeoutSalvage": { one: "Time ran out: {name} keeps the valid sets ({n} card played); {back} go back to the hand.", other: "Time ran out: {name} keeps the valid sets ({n} cards played); {back} go back to the hand." },
  "rummy.ev.timeoutRestore": { one: "Time ran out: the table goes back as it was and {name} draws {n} card.", other: "Time ran out: the table goes back as it was and {name} draws {n} cards." },
  "rummy.ev.timeoutYou": "Time ran out: the table goes back as it was and you draw {cards}.",
  "rummy.ev.timeoutNone": "Time ran out: the table goes back as it was; the pool is empty.",
  "rummy.ev.roundOver": "Round {round} is over ({end}): {list}.",
  "rummy.ev.matchOver": { one: "Match over: {names} won with {n} point.", other: "Match over: {names} won with {n} points." },
  "rummy.cd.you": "Your turn ends in",
  "rummy.cd.turn": "{name}'s turn ends in",
  "rummy.cd.next": "Next turn in",
  "rummy.cd.round": "Next round in",
  "rummy.cd.match": "Match time left",
  "rummy.cd.lastRound": "Match time is up: last round",
  "opt.rummy.rounds": "Rounds",
  "opt.rummy.turn_ms": "Turn length (ms)",
  "opt.rummy.opening_min": "Points needed for the first play",
  "opt.rummy.commit_grace_ms": "Grace after the deadline (ms)",
  "opt.rummy.between_turns_ms": "Pause between turns (ms)",
  "opt.rummy.joker_hand_value": "Minus points for a joker left in hand",
  "opt.rummy.timeout_draw": "Cards drawn when time runs out",
  "opt.rummy.round_end_pause_ms": "Scoreboard between rounds (ms)",
  "opt.rummy.match_minutes": "Match length in minutes (0 = by rounds)",
  "opt.rummy.afk_after": "Timeouts before a player counts as away",
  "opt.rummy.away_turn_ms": "Turn length for an away player (ms)",
};
for (const [code, text] of Object.entries(P)) strings[`rummy.p.${code}`] = text;
for (const [code, text] of Object.entries(WHOLE)) strings[`rummy.w.${code}`] = text;
addStrings("en", strings);

const COLOURS = ["R", "B", "Y", "K"];
const SYMBOL = { R: "●", B: "■", Y: "▲", K: "◆", J: "★" };
const isJoker = (id) => id[0] === "J";
const numberOf = (id) => (isJoker(id) ? 0 : Number(id.slice(1, 3)));
const nameOf = (names, s) => names[s] || t("seat.n", { n: s + 1 });

export function cardName(id) {
  return isJoker(id) ? t("rummy.joker") : t("rummy.card", { colour: t(`rummy.colour.${id[0]}`), n: numberOf(id) });
}

function listNames(seats, names) {
  const list = seats.map((s) => nameOf(names, s));
  if (list.length <= 1) return list.join("");
  return t("list.and", { first: list.slice(0, -1).join(", "), last: list[list.length - 1] });
}

function sortHand(cards, byNumber) {
  const key = (id) => (isJoker(id) ? [99, 9] : [numberOf(id), COLOURS.indexOf(id[0])]);
  return [...cards].sort((a, b) => {
    const [an, ac] = key(a);
    const [bn, bc] = key(b);
    if (isJoker(a) || isJoker(b)) return an - bn || a.localeCompare(b);
    return byNumber ? an - bn || ac - bc || a.localeCompare(b) : ac - bc || an - bn || a.localeCompare(b);
  });
}

class RummyTable {
  constructor(ctx) {
    this.ctx = ctx;
    this.g = null;
    this.selected = null;
    this.byNumber = false;
    this.cards = new Map(); // card id -> element (kept, so focus and drags survive a new view)
    this.setEls = []; // per draft set index: {root, head, state, kinds, cards, end, problems}
    this.drag = null;
    this.clickBlockUntil = 0;

    this.statusEl = h("p", { class: "rummy-status" });
    this.poolEl = h("span", { class: "rummy-pool", role: "img" }, h("span", { class: "rcard back", "aria-hidden": "true" }),
      h("span", { class: "pool-n" }));
    this.problemsEl = h("div", { class: "rummy-problems", hidden: true });
    this.setsEl = h("div", { class: "rummy-sets" });
    this.emptyEl = h("p", { class: "rummy-empty muted" }, t("rummy.noSets"));
    this.newSet = h("button", { type: "button", class: "rummy-new", "data-drop": "new", hidden: true,
      onclick: () => this.place("new") }, h("span", { "aria-hidden": "true" }, "+ "), t("rummy.newSet"));
    this.tableEl = h("section", { class: "rummy-table", "aria-label": t("rummy.table") }, this.setsEl, this.emptyEl, this.newSet);
    this.center = h("div", { class: "rummy" },
      h("div", { class: "rummy-top" }, this.statusEl, this.poolEl), this.problemsEl, this.tableEl);

    // Your seat: the opening line, the controls and the hand.
    const button = (label, onclick, cls = "btn small") => h("button", { type: "button", class: cls, onclick }, label);
    this.commitBtn = button(t("rummy.commit"), () => this.commit(), "btn small primary");
    this.drawBtn = button(t("rummy.draw"), () => this.send("draw"));
    this.undoBtn = button(t("rummy.undo"), () => this.send("undo"));
    this.resetBtn = button(t("rummy.reset"), () => this.send("reset"));
    this.toHandBtn = button(t("rummy.toHand"), () => this.place("hand"));
    this.sortBtn = button(t("rummy.sortNumber"), () => {
      this.byNumber = !this.byNumber;
      this.render();
    }, "link sort");
    this.actions = h("div", { class: "rummy-actions", role: "group", "aria-label": t("rummy.controls") },
      this.commitBtn, this.drawBtn, this.undoBtn, this.resetBtn, this.toHandBtn);
    this.openingEl = h("p", { class: "rummy-opening" });
    this.handEl = h("div", { class: "rummy-hand", "data-drop": "hand", role: "group", "aria-label": t("rummy.hand"),
      onclick: (e) => { if (e.target === this.handEl && this.selected) this.place("hand"); } });
    this.handEmpty = h("p", { class: "muted" }, t("rummy.handEmpty"));
    this.hintEl = h("p", { class: "hint rummy-hint" }, t("rummy.keys"));
    this.me = h("div", { class: "rummy-me" }, this.openingEl, this.actions,
      h("div", { class: "rummy-hand-head" }, h("span", { class: "muted" }, t("rummy.hand")), this.sortBtn), this.handEl, this.hintEl);
    this.others = Array.from({ length: ctx.count }, () => {
      const tag = h("span", { class: "open-tag" });
      return { root: h("div", { class: "rummy-other" }, h("span", { class: "rcard back mini", "aria-hidden": "true" }), tag), tag };
    });

    this.onKey = (e) => this.key(e);
    this.onMove = (e) => this.dragMove(e);
    this.onUp = (e) => this.dragEnd(e, false);
    this.onCancel = (e) => this.dragEnd(e, true);
    document.addEventListener("keydown", this.onKey);
  }

  seat(i) {
    return i === this.ctx.you ? this.me : this.others[i].root;
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    this.stopDrag();
  }

  legal(type) {
    return (this.g?.legal || []).find((a) => a.type === type) || null;
  }

  get mine() {
    return Boolean(this.legal("move"));
  }

  /** The table everyone sees: the live draft during a turn, else the committed table. */
  shownTable() {
    const g = this.g;
    return g.draft ? g.draft.table : g.table;
  }

  // --- actions --------------------------------------------------------------

  async send(type, extra = {}, options = {}) {
    const entry = this.legal(type);
    if (!entry) return null;
    return this.ctx.act({ type, turn_id: entry.turn_id, ...extra }, options);
  }

  /** A rejected commit is explained next to the table (the server's words), not in a passing toast. */
  async commit() {
    const reply = await this.send("commit", {}, { quiet: true });
    if (reply?.type === "reject") {
      this.rejected = errorText(reply.code, reply.message);
      toggle(this.problemsEl, "flash", false);
      void this.problemsEl.offsetWidth; // restart the attention animation
      toggle(this.problemsEl, "flash", true);
      this.render();
    }
  }

  /** Move the selected (or given) card; `to` is "hand", "new" or {set, index}. */
  place(to, card = this.selected) {
    if (!card || !this.mine) return;
    const where = this.locate(card);
    if (to === "hand" && !where) return this.select(null);
    if (typeof to === "object" && where && where.set === to.set && to.index !== null && to.index > where.index) {
      to = { set: to.set, index: to.index - 1 }; // the server counts places once the card has left its old one
    }
    if (typeof to === "object" && to.index === null) to = { set: to.set };
    this.selected = null;
    this.refocus = card;
    this.send("move", { card, to });
    this.render();
  }

  locate(card) {
    const table = this.g ? this.shownTable() : [];
    for (let s = 0; s < table.length; s++) {
      const index = table[s].cards.indexOf(card);
      if (index >= 0) return { set: s, index };
    }
    return null;
  }

  select(card) {
    this.selected = card;
    this.keepSelected = null;
    if (card) this.ctx.announce(t("rummy.picked", { card: cardName(card) }));
    this.render();
  }

  /** A tap, click or Enter on a card. */
  tapCard(card) {
    if (!this.mine || performance.now() < this.clickBlockUntil) return;
    if (this.selected === card) return this.select(null);
    const where = this.locate(card);
    if (this.selected && where) return this.place({ set: where.set, index: where.index }); // before this card
    this.select(card);
  }

  key(e) {
    if (!this.g || e.ctrlKey || e.metaKey || e.altKey || document.querySelector("dialog[open]")) return;
    const target = e.target instanceof Element ? e.target : null;
    if (e.key === "Escape" && this.selected) {
      this.ctx.announce(t("rummy.dropped", { card: cardName(this.selected) }));
      this.select(null);
      return;
    }
    const card = target?.closest?.(".rcard[data-card]")?.dataset.card;
    if (!card || !this.mine) return;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.tapCard(card);
    } else if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && this.selected === card) {
      const where = this.locate(card);
      if (!where) return;
      e.preventDefault();
      const size = this.shownTable()[where.set].cards.length;
      const index = where.index + (e.key === "ArrowLeft" ? -1 : 1);
      if (index < 0 || index >= size) return;
      this.keepSelected = card;
      this.refocus = card;
      this.send("move", { card, to: { set: where.set, index } });
    }
  }

  // --- drag and drop (pointer events: mouse, pen and touch alike) ------------

  dragStart(e, card) {
    if (!this.mine || (e.pointerType === "mouse" && e.button !== 0)) return;
    this.stopDrag();
    this.drag = { card, el: e.currentTarget, x: e.clientX, y: e.clientY, id: e.pointerId, ghost: null, over: null };
    document.addEventListener("pointermove", this.onMove);
    document.addEventListener("pointerup", this.onUp);
    document.addEventListener("pointercancel", this.onCancel);
  }

  dragMove(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    if (!d.ghost) {
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 6) return;
      const rect = d.el.getBoundingClientRect();
      d.dx = d.x - rect.left;
      d.dy = d.y - rect.top;
      d.ghost = d.el.cloneNode(true);
      for (const name of ["data-card", "role", "tabindex", "aria-pressed", "aria-label"]) d.ghost.removeAttribute(name);
      d.ghost.classList.add("ghost");
      d.ghost.setAttribute("aria-hidden", "true");
      document.body.append(d.ghost);
      d.el.classList.add("lifted");
      toggle(this.center, "dragging", true);
      toggle(this.me, "dragging", true);
    }
    e.preventDefault();
    d.ghost.style.transform = `translate(${e.clientX - d.dx}px, ${e.clientY - d.dy}px)`;
    const drop = this.dropAt(e.clientX, e.clientY);
    const over = drop?.el || null;
    if (over !== d.over) {
      d.over?.classList.remove("over");
      over?.classList.add("over");
      d.over = over;
    }
  }

  dragEnd(e, cancelled) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    const dragged = Boolean(d.ghost);
    const drop = dragged && !cancelled ? this.dropAt(e.clientX, e.clientY) : null;
    this.stopDrag();
    if (!dragged) return;
    this.clickBlockUntil = performance.now() + 350; // the click that ends a drag is no tap
    if (drop) this.place(drop.to, d.card);
  }

  stopDrag() {
    const d = this.drag;
    if (!d) return;
    d.ghost?.remove();
    d.el.classList.remove("lifted");
    d.over?.classList.remove("over");
    toggle(this.center, "dragging", false);
    toggle(this.me, "dragging", false);
    document.removeEventListener("pointermove", this.onMove);
    document.removeEventListener("pointerup", this.onUp);
    document.removeEventListener("pointercancel", this.onCancel);
    this.drag = null;
  }

  /** What lies under the pointer: a card in a set (insert before or after it), a set, a new set or the hand. */
  dropAt(x, y) {
    const el = document.elementFromPoint(x, y);
    if (!el) return null;
    const inSet = el.closest(".rummy-set .rcard[data-card]");
    if (inSet) {
      const where = this.locate(inSet.dataset.card);
      if (where) {
        const rect = inSet.getBoundingClientRect();
        return { el: inSet, to: { set: where.set, index: where.index + (x > rect.left + rect.width / 2 ? 1 : 0) } };
      }
    }
    const zone = el.closest("[data-drop]");
    if (!zone) return null;
    const kind = zone.dataset.drop;
    if (kind === "set") return { el: zone, to: { set: Number(zone.dataset.set), index: null } };
    if (kind === "new" || kind === "hand") return { el: zone, to: kind };
    return null;
  }

  // --- drawing --------------------------------------------------------------

  card(id) {
    let el = this.cards.get(id);
    if (!el) {
      const colour = isJoker(id) ? "J" : id[0];
      el = h("div", { class: `rcard c-${colour}`, "data-card": id, "aria-label": cardName(id) },
        h("span", { class: "n", "aria-hidden": "true" }, isJoker(id) ? "J" : String(numberOf(id))),
        h("span", { class: "s", "aria-hidden": "true" }, SYMBOL[colour]));
      el.addEventListener("click", () => this.tapCard(id));
      el.addEventListener("pointerdown", (e) => this.dragStart(e, id));
      this.cards.set(id, el);
    }
    return el;
  }

  paintCard(el, active, extra) {
    setAttr(el, "role", active ? "button" : "img");
    setAttr(el, "tabindex", active ? "0" : null);
    setAttr(el, "aria-pressed", active ? String(this.selected === el.dataset.card) : null);
    toggle(el, "sel", this.selected === el.dataset.card);
    toggle(el, "fresh", Boolean(extra?.fresh));
  }

  setRow(i) {
    let row = this.setEls[i];
    if (!row) {
      const label = h("span", { class: "set-no" }, t("rummy.setN", { n: i + 1 }));
      const state = h("span", { class: "set-state" });
      const group = h("button", { type: "button", class: "kind", onclick: () => this.send("declare", { set: i, kind: "group" }) }, t("rummy.group"));
      const run = h("button", { type: "button", class: "kind", onclick: () => this.send("declare", { set: i, kind: "run" }) }, t("rummy.run"));
      const kinds = h("span", { class: "kinds", role: "group", "aria-label": t("rummy.declare", { n: i + 1 }) }, group, run);
      const cards = h("div", { class: "set-cards" });
      const end = h("button", { type: "button", class: "set-end", "data-drop": "set", "data-set": i,
        "aria-label": t("rummy.addTo", { n: i + 1 }), onclick: () => this.place({ set: i, index: null }) }, "+");
      const problems = h("ul", { class: "set-problems" });
      const root = h("section", { class: "rummy-set", "data-set": i, "data-drop": "set" },
        h("header", {}, label, state, kinds), h("div", { class: "set-body" }, cards, end), problems);
      row = { root, state, kinds, group, run, cards, end, problems };
      this.setEls[i] = row;
    }
    return row;
  }

  update(view) {
    const g = view.game;
    if (this.g && (g.turn_id !== this.g.turn_id || g.phase !== this.g.phase)) {
      this.selected = null;
      this.rejected = null;
    } else if (this.g && g.draft && this.g.draft && JSON.stringify(g.draft.table) !== JSON.stringify(this.g.draft.table)) {
      this.rejected = null; // the draft changed: the old reject no longer describes it
    }
    this.g = g;
    if (this.keepSelected) {
      this.selected = this.keepSelected;
      this.keepSelected = null;
    }
    if (this.selected && !this.locate(this.selected) && !(g.hand || []).includes(this.selected)) this.selected = null;
    if (this.drag && !this.mine) this.stopDrag();
    this.render();
  }

  render() {
    const g = this.g;
    if (!g) return;
    const names = this.ctx.names();
    const mine = this.mine;
    const focusedCard = document.activeElement?.closest?.(".rcard[data-card]")?.dataset.card;
    const refocus = this.refocus || focusedCard;
    this.refocus = null;
    setAttr(this.center, "data-phase", g.phase);
    setAttr(this.center, "data-turn-id", g.turn_id);
    setAttr(this.center, "data-turn", g.turn ?? "");
    toggle(this.center, "mine", mine);
    toggle(this.me, "mine", mine);
    toggle(this.center, "holding", mine && Boolean(this.selected));
    toggle(this.me, "holding", mine && Boolean(this.selected));

    setText(this.statusEl, this.statusText(g, names));
    setText(this.poolEl.lastChild, g.pool);
    setAttr(this.poolEl, "aria-label", t("rummy.pool", { n: g.pool }));
    setAttr(this.poolEl, "title", t("rummy.pool", { n: g.pool }));

    // The table: the live draft during a turn (with the server's verdict per set), else the committed one.
    const table = this.shownTable();
    const onTable = new Set(g.table.flatMap((s) => s.cards));
    const fresh = new Set(g.draft ? [] : g.last?.played || []);
    const draft = g.draft;
    const rows = table.map((set, i) => {
      const row = this.setRow(i);
      const verdict = draft?.sets?.[i];
      const problems = (draft?.problems || []).filter((p) => p.set === i);
      const ok = draft ? Boolean(verdict?.ok) && !problems.length : true;
      const kind = verdict?.kind || set.kind;
      setAttr(row.root, "data-ok", String(ok));
      setAttr(row.root, "data-kind", kind || null);
      const state = ok
        ? (kind ? t(verdict ? "rummy.okKind" : "rummy.okPlain", { kind: t(`rummy.kind.${kind}`), points: verdict?.value })
          : t("rummy.ok"))
        : t("rummy.bad");
      setText(row.state, `${ok ? "✓" : "✗"} ${state}`);
      setAttr(row.root, "aria-label", t("rummy.setLabel", { n: i + 1, state }));
      toggle(row.root, "bad", !ok);
      const naturals = set.cards.filter((c) => !isJoker(c)).length;
      const askKind = mine && (problems.some((p) => p.code === "KIND_REQUIRED") || (set.kind && naturals <= 1));
      show(row.kinds, askKind);
      setAttr(row.group, "aria-pressed", String(set.kind === "group"));
      setAttr(row.run, "aria-pressed", String(set.kind === "run"));
      setKids(row.cards, set.cards.map((c) => {
        const el = this.card(c);
        this.paintCard(el, mine, { fresh: (draft && !onTable.has(c)) || fresh.has(c) });
        return el;
      }));
      show(row.end, mine);
      setAttr(row.end, "aria-disabled", this.selected ? "false" : "true");
      setKids(row.problems, problems.map((p) => h("li", {}, t(`rummy.p.${p.code}`))));
      return row.root;
    });
    setKids(this.setsEl, rows);
    show(this.emptyEl, !table.length);
    show(this.newSet, mine);
    setAttr(this.newSet, "aria-disabled", this.selected ? "false" : "true");
    this.renderProblems(g, names, onTable);

    // Your seat.
    const you = this.ctx.you;
    if (you !== null && you !== undefined) this.renderMe(g, mine, onTable);
    g.seats.forEach((s, i) => {
      if (i === you) return;
      const other = this.others[i];
      setText(other.tag, s.opened ? `✓ ${t("rummy.opened")}` : t("rummy.notOpened"));
      toggle(other.tag, "on", s.opened);
    });

    if (refocus && document.activeElement === document.body) {
      const el = this.cards.get(refocus);
      if (el?.isConnected && el.tabIndex >= 0) el.focus({ preventScroll: true });
    }
  }

  renderProblems(g, names, onTable) {
    const draft = g.draft;
    const whole = draft && g.phase === "TURN" && draft.placed > 0 ? draft.problems.filter((p) => p.set === null) : [];
    const lines = this.rejected ? [] : whole.map((p) => t(`rummy.w.${p.code}`, { min: g.opening_min, n: p.points ?? this.openingPoints(g, onTable) }));
    const showIt = Boolean(lines.length || this.rejected);
    show(this.problemsEl, showIt);
    if (!showIt) return;
    const key = JSON.stringify([lines, this.rejected]);
    if (key === this.problemsKey) return;
    this.problemsKey = key;
    setKids(this.problemsEl, [
      this.rejected ? h("p", { class: "rejected", role: "alert" }, t("rummy.rejected", { message: this.rejected })) : null,
      lines.length ? h("p", { class: "head" }, t("rummy.problems")) : null,
      lines.length ? h("ul", {}, lines.map((l) => h("li", {}, l))) : null,
    ]);
  }

  /** The new sets' worth towards the opening: valid sets made only of cards that were not on the table. */
  openingPoints(g, onTable) {
    if (!g.draft) return 0;
    return g.draft.table.reduce((sum, set, i) => {
      const verdict = g.draft.sets[i];
      return verdict?.ok && !set.cards.some((c) => onTable.has(c)) ? sum + verdict.value : sum;
    }, 0);
  }

  renderMe(g, mine, onTable) {
    const opened = g.seats[this.ctx.you]?.opened;
    setText(this.openingEl, opened ? `✓ ${t("rummy.openedYou")}`
      : mine && g.draft?.placed ? t("rummy.openingNow", { n: this.openingPoints(g, onTable), min: g.opening_min })
        : t("rummy.openingNeed", { min: g.opening_min }));
    toggle(this.openingEl, "on", opened);
    show(this.openingEl, g.phase !== "ROUND_OVER" && g.phase !== "MATCH_OVER");
    show(this.actions, mine);
    show(this.hintEl, mine);
    const valid = Boolean(g.draft?.valid);
    toggle(this.commitBtn, "ready", valid);
    const enable = (btn, ok) => { btn.disabled = !ok; };
    enable(this.commitBtn, Boolean(this.legal("commit")));
    enable(this.drawBtn, Boolean(this.legal("draw")));
    setText(this.drawBtn, g.pool ? t("rummy.draw") : t("rummy.pass"));
    enable(this.undoBtn, Boolean(this.legal("undo")));
    enable(this.resetBtn, Boolean(this.legal("reset")));
    const back = this.selected && this.locate(this.selected) && !onTable.has(this.selected);
    show(this.toHandBtn, Boolean(back));
    setText(this.sortBtn, this.byNumber ? t("rummy.sortColour") : t("rummy.sortNumber"));
    setAttr(this.sortBtn, "aria-pressed", String(this.byNumber));
    const hand = sortHand(g.hand || [], this.byNumber);
    setKids(this.handEl, hand.length ? hand.map((c) => {
      const el = this.card(c);
      this.paintCard(el, mine, null);
      return el;
    }) : [this.handEmpty]);
  }

  statusText(g, names) {
    const you = this.ctx.you;
    switch (g.phase) {
      case "TURN":
        if (g.turn === you) return g.draft?.valid ? t("rummy.validNow", { n: g.draft.placed }) : t("rummy.yourTurn");
        if (g.draft?.placed) return t("rummy.building", { name: nameOf(names, g.turn), n: g.draft.placed });
        return t("rummy.theirTurn", { name: nameOf(names, g.turn) });
      case "TURN_RESULT":
        return g.last ? turnText(g.last, g, names, you) : "";
      case "ROUND_OVER":
      case "MATCH_OVER": {
        const r = g.scores[g.scores.length - 1];
        const round = r ? (r.end === "out"
          ? t("rummy.roundOut", { round: r.round, name: nameOf(names, r.winners[0]) })
          : t("rummy.roundBlocked", { round: r.round, names: listNames(r.winners, names) })) : "";
        return g.phase === "MATCH_OVER" ? `${round} ${t("rummy.matchOver", { names: listNames(g.winners, names) })}` : round;
      }
      default:
        return "";
    }
  }
}

/** One finished turn in words (the log line and the status between turns). */
function turnText(last, g, names, you) {
  const name = nameOf(names, last.seat);
  const n = last.played.length;
  switch (last.end) {
    case "commit": {
      const bits = [];
      if (last.new_sets) bits.push(t("rummy.ev.newSets", { n: last.new_sets }));
      if (last.rebuilt) bits.push(t("rummy.ev.rebuilt", { n: last.rebuilt }));
      if (last.jokers_exchanged) bits.push(t("rummy.ev.jokers", { n: last.jokers_exchanged }));
      return t("rummy.ev.commit", { name, n, more: bits.length ? t("rummy.ev.changes", { list: bits.join(", ") }) : "" });
    }
    case "draw":
      return last.drawn && last.seat === you ? t("rummy.ev.drewYou", { cards: last.drawn.map(cardName).join(", ") })
        : t("rummy.ev.draw", { name });
    case "pass":
      return t("rummy.ev.pass", { name });
    case "timeout_commit":
      return t("rummy.ev.timeoutCommit", { name, n });
    case "timeout_salvage":
      return t("rummy.ev.timeoutSalvage", { name, n, back: last.returned });
    case "timeout_restore":
      if (last.drawn?.length && last.seat === you) return t("rummy.ev.timeoutYou", { cards: last.drawn.map(cardName).join(", ") });
      return last.drew ? t("rummy.ev.timeoutRestore", { name, n: last.drew }) : t("rummy.ev.timeoutNone", { name });
    default:
      return "";
  }
}

export default {
  id: "rummy",
  basicOptions: ["rounds", "turn_ms", "opening_min"],
  layout: "open",

  createTable(ctx) {
    return new RummyTable(ctx);
  },

  stats(g, seat) {
    const s = g.seats[seat];
    if (!s) return {};
    return { count: s.cards, score: g.totals[seat], turn: g.phase === "TURN" && g.turn === seat, extra: s.away ? t("rummy.away") : "" };
  },

  timers(g, names) {
    const out = [];
    if (g.phase === "TURN") {
      out.push({ key: `turn${g.turn_id}`, at: g.deadline,
        label: g.turn === g.you ? t("rummy.cd.you") : t("rummy.cd.turn", { name: nameOf(names, g.turn) }) });
    } else if (g.phase === "ROUND_OVER") {
      out.push({ key: `round${g.round}`, at: g.deadline, label: t("rummy.cd.round") });
    }
    if (g.match_ends_at && g.phase !== "MATCH_OVER") out.push({ key: "match", at: g.match_ends_at, label: t("rummy.cd.match"), minor: true,
      after: t("rummy.cd.lastRound") });
    return out;
  },

  events(prev, g, names) {
    if (!prev) return [];
    const out = [];
    const last = g.last;
    if (last && last.turn_id !== prev.last?.turn_id) {
      let text = turnText(last, g, names, g.you);
      if (last.played.length && !prev.seats[last.seat]?.opened && g.seats[last.seat]?.opened) {
        text = text.replace(/\.$/, `${t("rummy.ev.opened")}.`);
      }
      out.push(text);
    }
    if (g.scores.length > prev.scores.length) {
      const r = g.scores[g.scores.length - 1];
      out.push(t("rummy.ev.roundOver", { round: r.round, end: t(`rummy.end.${r.end}`),
        list: r.scores.map((sc, i) => `${nameOf(names, i)} ${signed(sc)}`).join(", ") }));
    }
    if (g.round !== prev.round && g.phase === "TURN") out.push(t("rummy.ev.round", { round: g.round, name: nameOf(names, g.turn) }));
    if (g.phase === "MATCH_OVER" && prev.phase !== "MATCH_OVER") {
      out.push(t("rummy.ev.matchOver", { names: listNames(g.winners, names), n: g.totals[g.winners[0]] ?? 0 }));
    }
    return out;
  },

  scores(g, names) {
    if (!g.scores.length) return null;
    return {
      columns: names,
      rows: g.scores.map((r) => ({
        label: `${t("scores.roundN", { n: r.round })} (${t(`rummy.end.${r.end}`)})`,
        cells: r.scores.map((sc, i) => ({
          value: signed(sc),
          detail: t("rummy.detail", { n: r.cards[i], value: r.values[i] }),
        })),
      })),
      totals: g.totals,
      winners: g.winners,
      show: g.phase === "ROUND_OVER" || g.phase === "MATCH_OVER",
      final: g.phase === "MATCH_OVER",
    };
  },
};
