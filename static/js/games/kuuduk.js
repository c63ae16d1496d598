// The Kuuduk table: every player's six-slot k-u-u-d-u-k row (gaps shown), your hand of up to
// three, the draw and discard piles, the two steps of a turn, swipes with their target, Switch
// and the direction of play, round scores and the match to the target.
// The server is the referee: every button comes from the view's `legal` list; an empty slot of
// the card's letter may still be tried, and the server's reject (a toast) says why it is not allowed.
import { h, loadStyle, setAttr, setKids, setText, show, toggle } from "../dom.js";
import { addStrings, signed, t } from "../i18n.js";

loadStyle("/static/css/games/kuuduk.css");

addStrings("en", {
  "kuuduk.colour.G": "green",
  "kuuduk.colour.O": "orange",
  "kuuduk.colour.P": "purple",
  "kuuduk.card": { one: "{colour} {letter}, {n} dot", other: "{colour} {letter}, {n} dots" },
  "kuuduk.black.swipe_left": "Swipe Left",
  "kuuduk.black.swipe_right": "Swipe Right",
  "kuuduk.black.swipe_any": "Swipe Any",
  "kuuduk.black.switch": "Switch",
  "kuuduk.rowLabel": "{name}'s row",
  "kuuduk.slot": "Slot {n} ({letter})",
  "kuuduk.slotEmpty": "slot {n} ({letter}): empty",
  "kuuduk.slotGap": "slot {n} ({letter}): gap left by a swipe",
  "kuuduk.slotCard": "slot {n}: {card}",
  "kuuduk.gap": "gap",
  "kuuduk.hand": "Your hand",
  "kuuduk.handEmpty": "Your hand is empty.",
  "kuuduk.new": "new",
  "kuuduk.drawPile": { one: "Draw pile: {n} card", other: "Draw pile: {n} cards" },
  "kuuduk.discardPile": { one: "Discard pile: {n} card", other: "Discard pile: {n} cards" },
  "kuuduk.discardEmpty": "The discard pile is empty",
  "kuuduk.draw": "Draw",
  "kuuduk.drawLabel": "Draw a card ({n} left)",
  "kuuduk.pickUp": "Pick up",
  "kuuduk.pickUpLabel": "Pick up {card} from the discard pile",
  "kuuduk.pass": "Pass",
  "kuuduk.discard": "Discard",
  "kuuduk.switch": "Play Switch",
  "kuuduk.swipeNone": "Discard without taking",
  "kuuduk.cancel": "Cancel",
  "kuuduk.lay": "Lay {card} in slot {n}",
  "kuuduk.layMoves": "Lay {card} in slot {n}, moving {moves}",
  "kuuduk.move": "{card} to slot {n}",
  "kuuduk.try": "Try {card} in slot {n} (not listed as allowed)",
  "kuuduk.take": "Take {card} from {name}'s slot {n}",
  "kuuduk.preview": "Your row after this lay:",
  "kuuduk.rule": "Each card needs the same colour or the same number of dots as each neighbour.",
  "kuuduk.goalPoints": "First to {target} points",
  "kuuduk.goalSingle": "One round: the first to win a round wins the game",
  "kuuduk.tiebreak": "Tie-break round: the winner takes the game",
  "kuuduk.dir.cw": "Play goes to the left ↻",
  "kuuduk.dir.ccw": "Play goes to the right ↺",
  "kuuduk.next": "next: {name}",
  "kuuduk.dealer": "dealer",
  "kuuduk.turn": "▶ to play",
  "kuuduk.left": "your left",
  "kuuduk.right": "your right",
  "kuuduk.out": "sits out",
  "kuuduk.laid": { one: "{n} laid", other: "{n} laid" },
  "kuuduk.st.acquire": "Your turn: draw, pick up from the discard pile, or pass.",
  "kuuduk.st.restarted": "Switch! Your turn starts again: draw a card.",
  "kuuduk.st.play": "Now lay a card in your row, discard one, or play a black card.",
  "kuuduk.st.playEmpty": "Your hand is empty.",
  "kuuduk.st.pickSlot": "Choose where {card} goes in your row.",
  "kuuduk.st.pickVictim": "{card}: choose the card to take, or discard it without taking.",
  "kuuduk.st.pickSwiped": "Lay {card} in your row at once: choose its slot.",
  "kuuduk.st.black": "{card}: play it or discard it.",
  "kuuduk.st.wait": "{name} is drawing or picking up…",
  "kuuduk.st.waitPlay": "{name} is playing a card…",
  "kuuduk.st.roundWon": "{name} spells k-u-u-d-u-k and wins round {round}!",
  "kuuduk.st.roundVoid": "Round {round} is void: too long without a card laid. New deal.",
  "kuuduk.st.gameOver": "{names} won the game!",
  "kuuduk.st.gameOverVoid": "{n} void rounds in a row end the game: {names} won on the scores as they stood.",
  "kuuduk.voidStreak": "Void rounds in a row: {n} of {max}",
  "kuuduk.st.scoreLine": "{name} {score} ({laid} laid, {held} held)",
  "kuuduk.keys": "Keys: Tab to a card, Enter to pick it, Esc to cancel.",
  "kuuduk.ev.deal": "Round {round}: {dealer} deals; {name} starts.",
  "kuuduk.ev.draw": "{name} draws a card.",
  "kuuduk.ev.pass": "{name} passes.",
  "kuuduk.ev.take": "{name} picks up {card} from the discard pile and lays it in slot {slot}.",
  "kuuduk.ev.lay": "{name} lays {card} in slot {slot}.",
  "kuuduk.ev.moved": "{name} rearranged the row.",
  "kuuduk.ev.discard": "{name} discards {card}.",
  "kuuduk.ev.swipe": "{name} plays {black}: takes {card} from {victim}'s slot {from} and lays it in slot {slot}.",
  "kuuduk.ev.swipeNone": "{name} discards {black} without taking a card.",
  "kuuduk.ev.switch": "{name} plays Switch: play now goes to the {side}, and {name} starts the turn again.",
  "kuuduk.side.cw": "left",
  "kuuduk.side.ccw": "right",
  "kuuduk.ev.refill": { one: "The discards are shuffled into a new draw pile ({n} card).", other: "The discards are shuffled into a new draw pile ({n} cards)." },
  "kuuduk.ev.timeout": "{name}'s time ran out.",
  "kuuduk.ev.won": "{name} completes k-u-u-d-u-k and wins round {round}: {list}.",
  "kuuduk.ev.void": "Round {round} is void after {n} turns without a card laid.",
  "kuuduk.ev.over": "Game over: {names} won.",
  "kuuduk.sc.detail": "{laid} laid − {held} held",
  "kuuduk.sc.void": "void",
  "kuuduk.sc.tiebreak": "tie-break",
  "kuuduk.cd.turn": "{name}'s turn ends in",
  "kuuduk.cd.yourTurn": "Your turn ends in",
  "kuuduk.cd.next": "Next deal in",
  "opt.kuuduk.mode": "Game length",
  "opt.kuuduk.mode.points": "Play to a target score",
  "opt.kuuduk.mode.single_round": "One round",
  "opt.kuuduk.target": "Target score",
  "opt.kuuduk.max_rounds": "Most scored rounds",
  "opt.kuuduk.void_rounds": "End the game after this many void rounds in a row",
  "opt.kuuduk.stall_turns": "Void a round after this many turns without a card laid (0 = 10 per player)",
  "opt.kuuduk.turn_ms": "Turn timer (ms, 0 = none)",
  "opt.kuuduk.round_pause_ms": "Round result stays on screen (ms)",
  "opt.kuuduk.first_dealer": "First dealer",
  "opt.kuuduk.first_dealer.random": "Random",
  "opt.kuuduk.first_dealer.n": "Seat {n}",
});

const WORD = "kuuduk";
const SYM = { G: "▲", O: "●", P: "■" };
const BLACK_SYM = { swipe_left: "←", swipe_right: "→", swipe_any: "↔", switch: "⇄" };
const isLetter = (id) => "kud".includes(id[0]);
const blackKind = (id) => id.replace(/-\d+$/, "");

export function cardName(id) {
  if (!id) return "";
  if (!isLetter(id)) return t(`kuuduk.black.${blackKind(id)}`);
  return t("kuuduk.card", { colour: t(`kuuduk.colour.${id[1]}`), letter: id[0], n: Number(id[2]) });
}

/** A face-up card: letter, colour (with its own symbol) and dots; black cards show their kind. */
export function cardFace(id, extra = "") {
  if (!isLetter(id)) {
    const kind = blackKind(id);
    return h("div", { class: `kd-card kd-black ${extra}`.trim(), role: "img", "aria-label": cardName(id), "data-card": id },
      h("span", { class: "kd-bsym", "aria-hidden": "true" }, BLACK_SYM[kind] || "?"),
      h("span", { class: "kd-bname", "aria-hidden": "true" }, t(`kuuduk.black.${kind}`)));
  }
  const dots = Number(id[2]);
  return h("div", { class: `kd-card kd-${id[1]} ${extra}`.trim(), role: "img", "aria-label": cardName(id), "data-card": id },
    h("span", { class: "kd-sym", "aria-hidden": "true" }, SYM[id[1]]),
    h("span", { class: "kd-letter", "aria-hidden": "true" }, id[0]),
    h("span", { class: "kd-dots", "aria-hidden": "true" }, Array.from({ length: dots }, () => h("i"))));
}

function listNames(seats, names) {
  const list = seats.map((s) => names[s]);
  if (list.length <= 1) return list.join("");
  return t("list.and", { first: list.slice(0, -1).join(", "), last: list[list.length - 1] });
}

/** The seat after `seat` among the playing seats, going up (cw) or down (ccw). */
function stepSeat(g, seat, up) {
  const n = g.seats.length;
  for (let k = 1; k <= n; k++) {
    const s = (seat + (up ? k : n - k)) % n;
    if (g.seats[s].playing) return s;
  }
  return seat;
}

const placementSlot = (placement, card) => (typeof placement === "number" ? placement : placement.indexOf(card) + 1);

class Row {
  constructor(seat, mine, onSlot) {
    this.seat = seat;
    this.key = "";
    this.el = h("ol", { class: `kd-row${mine ? " mine" : ""}` });
    this.slots = Array.from({ length: 6 }, (_, i) => {
      const box = h("div", { class: "kd-box" });
      const btn = h("button", { type: "button", class: "kd-target", hidden: true, "data-slot": i + 1,
        onclick: () => onSlot(seat, i + 1) });
      const li = h("li", { class: "kd-slot", "data-slot": i + 1, "data-letter": WORD[i] },
        h("span", { class: "kd-ghost", "aria-hidden": "true" }, WORD[i]), box, btn);
      this.el.append(li);
      return { li, box, btn, card: undefined };
    });
  }

  update(cards, gaps) {
    cards.forEach((card, i) => {
      const s = this.slots[i];
      if (s.card !== card) {
        s.card = card;
        s.box.replaceChildren(card ? cardFace(card) : h("span", { class: "kd-empty", "aria-hidden": "true" }));
        setAttr(s.li, "data-card", card);
      }
      const gap = !card && Boolean(gaps[i]);
      toggle(s.li, "gap", gap);
      const empty = s.box.querySelector(".kd-empty");
      if (empty) setText(empty, gap ? t("kuuduk.gap") : "");
      const n = i + 1;
      const label = card ? t("kuuduk.slotCard", { n, card: cardName(card) })
        : t(gap ? "kuuduk.slotGap" : "kuuduk.slotEmpty", { n, letter: WORD[i] });
      setAttr(s.li, "aria-label", label);
    });
  }

  /** marks: {slot: {label, kind: "lay"|"move"|"try"|"take"}} */
  mark(marks) {
    this.slots.forEach((s, i) => {
      const m = marks[i + 1];
      show(s.btn, Boolean(m));
      toggle(s.li, "targeted", Boolean(m) && m.kind !== "try");
      if (!m) return;
      setAttr(s.btn, "aria-label", m.label);
      setAttr(s.btn, "title", m.label);
      setAttr(s.btn, "data-kind", m.kind);
      setText(s.btn, m.kind === "move" ? "⇄" : m.kind === "try" ? "?" : m.kind === "take" ? "↑" : "+");
    });
  }
}

class KuudukTable {
  constructor(ctx) {
    this.ctx = ctx;
    this.g = null;
    this.sel = null; // {kind: "hand", card} | {kind: "pile", card}
    this.swiped = null; // {victim, slot, card} chosen for the selected swipe card
    this.busy = false;
    this.seats = Array.from({ length: ctx.count }, (_, i) => {
      const mine = i === ctx.you;
      const row = new Row(i, mine, (seat, slot) => this.onSlot(seat, slot));
      const backs = h("div", { class: "kd-backs", "aria-hidden": "true" });
      const root = h("div", { class: "kd-seat" }, row.el, mine ? null : backs);
      return { root, row, backs, hand: -1 };
    });
    this.preview = h("div", { class: "kd-preview", hidden: true });
    this.handList = h("div", { class: "kd-hand", role: "group", "aria-label": t("kuuduk.hand") });
    this.handEmpty = h("p", { class: "kd-muted", hidden: true }, t("kuuduk.handEmpty"));
    if (ctx.you !== null && ctx.you !== undefined && this.seats[ctx.you]) {
      this.seats[ctx.you].root.append(this.preview, this.handList, this.handEmpty);
    }
    this.handKey = "";

    this.status = h("p", { class: "kd-status" });
    this.spoken = "";
    this.goal = h("p", { class: "kd-goal" });
    this.direction = h("p", { class: "kd-dir" });
    this.drawBtn = h("button", { type: "button", class: "kd-pile kd-draw",
      onclick: () => this.legal((a) => a.type === "draw").length && this.send({ type: "draw" }) },
      h("span", { class: "kd-card kd-back", "aria-hidden": "true" }), h("span", { class: "kd-pile-n" }));
    this.discardBtn = h("button", { type: "button", class: "kd-pile kd-discard", onclick: (e) => this.pickUp(e) });
    this.discardKey = undefined;
    this.actions = h("div", { class: "kd-actions" });
    this.buttons = {
      draw: h("button", { type: "button", class: "btn primary", onclick: () => this.send({ type: "draw" }) }, t("kuuduk.draw")),
      pickUp: h("button", { type: "button", class: "btn", onclick: (e) => this.pickUp(e) }, t("kuuduk.pickUp")),
      pass: h("button", { type: "button", class: "btn", onclick: () => this.send({ type: "pass" }) }, t("kuuduk.pass")),
      discard: h("button", { type: "button", class: "btn", onclick: () => this.sel && this.send({ type: "discard", card: this.sel.card }) }, t("kuuduk.discard")),
      switch: h("button", { type: "button", class: "btn primary", onclick: () => this.sel && this.send({ type: "switch", card: this.sel.card }) }, t("kuuduk.switch")),
      swipeNone: h("button", { type: "button", class: "btn", onclick: () => this.sel && this.send({ type: "swipe", card: this.sel.card }) }, t("kuuduk.swipeNone")),
      cancel: h("button", { type: "button", class: "btn small", onclick: () => this.select(null) }, t("kuuduk.cancel")),
    };
    this.actions.append(...Object.values(this.buttons));
    this.result = h("div", { class: "kd-result", hidden: true });
    this.rule = h("p", { class: "kd-rule" }, t("kuuduk.rule"));
    this.keys = h("p", { class: "kd-keys" }, t("kuuduk.keys"));
    // The step's buttons go with the player's row and hand, in the seat that stays on screen.
    const mine = ctx.you !== null && ctx.you !== undefined && this.seats[ctx.you];
    if (mine) this.handList.before(this.actions);
    this.center = h("div", { class: "kd" },
      h("div", { class: "kd-info" }, this.goal, this.direction),
      h("div", { class: "kd-piles" }, this.drawBtn, this.discardBtn),
      this.status, mine ? null : this.actions, this.result, this.rule, this.keys);
    this.onKey = (e) => {
      if (e.key === "Escape" && this.sel && !document.querySelector("dialog[open]")) this.select(null);
    };
    document.addEventListener("keydown", this.onKey);
  }

  seat(i) {
    return this.seats[i].root;
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
  }

  // -- what the view allows --------------------------------------------------------------

  legal(pred) {
    return (this.g?.legal || []).filter(pred);
  }

  mine() {
    const g = this.g;
    return Boolean(g && g.you !== null && g.you !== undefined && g.phase === "TURN" && g.turn === g.you);
  }

  // -- input ---------------------------------------------------------------------------------

  async send(action) {
    if (this.busy) return;
    this.busy = true;
    this.sel = null;
    this.swiped = null;
    try {
      await this.ctx.act(action);
    } finally {
      this.busy = false;
      if (this.g) this.render();
    }
  }

  /** Keyboard users (a click without a pointer) go on to the first marked slot. */
  select(sel, e = null) {
    this.sel = sel;
    this.swiped = null;
    this.render();
    if (sel && e && e.detail === 0) {
      this.center.closest(".felt")?.querySelector(".kd-target:not([hidden]):not([data-kind=try])")?.focus();
    }
  }

  pickUp(e) {
    if (!this.legal((a) => a.type === "take_discard").length) return;
    this.select(this.sel?.kind === "pile" ? null : { kind: "pile", card: this.g.discard_top }, e);
  }

  onHand(card, e) {
    if (!this.mine() || this.g.step !== "PLAY") return;
    this.select(this.sel?.card === card && this.sel.kind === "hand" ? null : { kind: "hand", card }, e);
  }

  onSlot(seat, slot) {
    const g = this.g;
    if (!g || !this.sel) return;
    if (seat !== g.you) { // a swipe's victim card
      const card = g.seats[seat].layout[slot - 1];
      this.swiped = { victim: seat, slot, card };
      this.render();
      this.seats[g.you]?.row.slots.find((s) => !s.btn.hidden)?.btn.focus();
      return;
    }
    const mark = this.targets()[slot];
    if (mark) this.send(mark.action);
  }

  /** Own-row targets for the current selection: {slot: {action, label, kind, row}}. */
  targets() {
    const g = this.g;
    const out = {};
    const sel = this.sel;
    if (!sel || !this.mine()) return out;
    const own = g.seats[g.you].layout;
    const add = (card, actions, tryAction) => {
      for (const a of actions) {
        const slot = placementSlot(a.placement, card);
        const moves = [];
        if (Array.isArray(a.placement)) {
          a.placement.forEach((c, i) => {
            if (c && c !== card && own[i] !== c) moves.push(t("kuuduk.move", { card: cardName(c), n: i + 1 }));
          });
        }
        out[slot] = moves.length
          ? { action: a, kind: "move", row: a.placement, label: t("kuuduk.layMoves", { card: cardName(card), n: slot, moves: moves.join(", ") }) }
          : { action: a, kind: "lay", label: t("kuuduk.lay", { card: cardName(card), n: slot }) };
      }
      if (!tryAction) return;
      for (let i = 0; i < 6; i++) {
        if (WORD[i] === card[0] && !own[i] && !out[i + 1]) {
          out[i + 1] = { action: tryAction(i + 1), kind: "try", label: t("kuuduk.try", { card: cardName(card), n: i + 1 }) };
        }
      }
    };
    if (sel.kind === "pile" && g.step === "ACQUIRE") {
      add(sel.card, this.legal((a) => a.type === "take_discard"), (n) => ({ type: "take_discard", placement: n }));
    } else if (sel.kind === "hand" && g.step === "PLAY" && isLetter(sel.card)) {
      add(sel.card, this.legal((a) => a.type === "lay" && a.card === sel.card), (n) => ({ type: "lay", card: sel.card, placement: n }));
    } else if (sel.kind === "hand" && this.swiped) {
      const sw = this.swiped;
      add(sw.card, this.legal((a) => a.type === "swipe" && a.card === sel.card && a.victim === sw.victim && a.slot === sw.slot), null);
    }
    return out;
  }

  // -- drawing -------------------------------------------------------------------------------

  update(view) {
    const g = view.game;
    this.g = g;
    // A selection lives only while the view still allows it.
    if (this.sel) {
      const ok = this.mine() && (this.sel.kind === "pile"
        ? g.step === "ACQUIRE" && g.discard_top === this.sel.card
        : g.step === "PLAY" && g.hand.includes(this.sel.card));
      if (!ok) { this.sel = null; this.swiped = null; }
    }
    if (this.swiped && g.seats[this.swiped.victim]?.layout[this.swiped.slot - 1] !== this.swiped.card) this.swiped = null;
    this.render();
    // Screen readers hear the log; on top of it, what the player is asked to do when that changes.
    const ask = this.mine() ? `${g.round}/${g.turn}/${g.step}/${g.restarted}` : "";
    if (ask && ask !== this.spoken) this.ctx.announce(this.status.textContent);
    this.spoken = ask;
  }

  render() {
    const g = this.g;
    const names = this.ctx.names();
    const you = g.you;
    const mine = this.mine();
    setAttr(this.center, "data-phase", g.phase);
    setAttr(this.center, "data-step", g.step);
    setAttr(this.center, "data-turn", g.turn);
    setAttr(this.center, "data-round", g.round);
    setAttr(this.center, "data-direction", g.direction);
    setAttr(this.center, "data-legal", JSON.stringify(g.legal || []));
    setAttr(this.center, "data-busy", this.busy ? "true" : null);

    // Rows of every seat, and the backs of the others' hands.
    g.seats.forEach((s, i) => {
      const el = this.seats[i];
      if (!el) return;
      el.row.update(s.layout, s.gaps);
      setAttr(el.row.el, "aria-label", t("kuuduk.rowLabel", { name: names[i] }));
      toggle(el.root, "out", !s.playing);
      if (i !== you && el.hand !== s.hand) {
        el.hand = s.hand;
        el.backs.replaceChildren(...Array.from({ length: s.hand }, () => h("span", { class: "kd-card kd-back mini" })));
      }
    });

    // Marks: own-row targets, and a swipe's possible victims.
    const targets = this.targets();
    const victimMarks = {};
    const sel = this.sel;
    if (mine && sel?.kind === "hand" && !isLetter(sel.card) && blackKind(sel.card) !== "switch" && !this.swiped) {
      for (const a of this.legal((x) => x.type === "swipe" && x.card === sel.card && x.victim !== undefined)) {
        const marks = victimMarks[a.victim] || (victimMarks[a.victim] = {});
        const card = g.seats[a.victim].layout[a.slot - 1];
        marks[a.slot] = { kind: "take", label: t("kuuduk.take", { card: cardName(card), name: names[a.victim], n: a.slot }) };
      }
    }
    this.seats.forEach((el, i) => {
      if (i === you) el.row.mark(targets);
      else el.row.mark(victimMarks[i] || {});
      toggle(el.root, "victim", Boolean(victimMarks[i]));
      if (this.swiped) toggle(el.root, "victim", i === this.swiped.victim);
    });
    if (this.swiped) {
      const s = this.seats[this.swiped.victim].row.slots[this.swiped.slot - 1];
      toggle(s.li, "taking", true);
    }
    this.seats.forEach((el, i) => el.row.slots.forEach((s, k) => {
      toggle(s.li, "taking", Boolean(this.swiped && this.swiped.victim === i && this.swiped.slot === k + 1));
    }));
    this.renderPreview(targets);
    this.renderHand(g, mine);
    this.renderCenter(g, names, mine);
  }

  renderPreview(targets) {
    const moving = Object.entries(targets).filter(([, m]) => m.kind === "move");
    show(this.preview, moving.length > 0);
    if (!moving.length) { this.previewKey = ""; return; }
    const key = JSON.stringify(moving.map(([s, m]) => [s, m.row]));
    if (key === this.previewKey) return;
    this.previewKey = key;
    setKids(this.preview, moving.map(([slot, m]) => h("div", { class: "kd-prev" },
      h("span", { class: "kd-muted" }, t("kuuduk.preview"), " ", t("kuuduk.slot", { n: slot, letter: WORD[slot - 1] })),
      h("ol", { class: "kd-row tiny", "aria-hidden": "true" }, m.row.map((c, i) => h("li", { class: `kd-slot${Number(slot) === i + 1 ? " new" : ""}` },
        c ? cardFace(c) : h("span", { class: "kd-empty" })))))));
  }

  renderHand(g, mine) {
    const hand = g.hand || [];
    const playing = mine && g.step === "PLAY";
    const usable = new Set(playing ? (g.legal || []).filter((a) => a.card && a.type !== "discard").map((a) => a.card) : []);
    const key = JSON.stringify([hand, g.drawn, playing, [...usable], this.sel?.card, this.sel?.kind]);
    show(this.handEmpty, g.you !== null && g.you !== undefined && hand.length === 0 && g.phase === "TURN");
    if (key === this.handKey) return;
    this.handKey = key;
    const focused = document.activeElement?.closest?.(".kd-hcard")?.dataset.card;
    const buttons = hand.map((card) => {
      const pressed = this.sel?.kind === "hand" && this.sel.card === card;
      const btn = h("button", {
        type: "button", class: `kd-hcard${usable.has(card) ? " usable" : ""}${card === g.drawn ? " drawn" : ""}`,
        "data-card": card, "aria-pressed": String(pressed), "aria-disabled": playing ? "false" : "true",
        "aria-label": cardName(card) + (card === g.drawn ? ` (${t("kuuduk.new")})` : ""),
        onclick: (e) => this.onHand(card, e),
      }, cardFace(card), card === g.drawn ? h("span", { class: "kd-new", "aria-hidden": "true" }, t("kuuduk.new")) : null);
      return btn;
    });
    setKids(this.handList, buttons);
    if (focused) this.handList.querySelector(`[data-card="${focused}"]`)?.focus();
  }

  renderCenter(g, names, mine) {
    const you = g.you;
    const streak = g.void_streak && g.void_rounds && g.phase !== "GAME_OVER"
      ? ` · ${t("kuuduk.voidStreak", { n: g.void_streak, max: g.void_rounds })}` : "";
    setText(this.goal, (g.tiebreak ? t("kuuduk.tiebreak")
      : g.mode === "single_round" ? t("kuuduk.goalSingle") : t("kuuduk.goalPoints", { target: g.target })) + streak);
    const turnSeat = g.turn ?? null;
    const next = turnSeat === null ? null : stepSeat(g, turnSeat, g.direction === "cw");
    setText(this.direction, t(`kuuduk.dir.${g.direction}`) + (next !== null && g.phase === "TURN" ? ` · ${t("kuuduk.next", { name: names[next] })}` : ""));
    setAttr(this.direction, "data-direction", g.direction);

    // The piles.
    const draw = this.legal((a) => a.type === "draw").length > 0;
    const takes = this.legal((a) => a.type === "take_discard").length > 0;
    setText(this.drawBtn.lastChild, g.draw_pile);
    setAttr(this.drawBtn, "aria-label", draw ? t("kuuduk.drawLabel", { n: g.draw_pile }) : t("kuuduk.drawPile", { n: g.draw_pile }));
    setAttr(this.drawBtn, "aria-disabled", draw ? "false" : "true");
    toggle(this.drawBtn, "legal", draw);
    if (this.discardKey !== g.discard_top) {
      this.discardKey = g.discard_top;
      this.discardBtn.replaceChildren(g.discard_top ? cardFace(g.discard_top) : h("span", { class: "kd-card kd-none" }),
        h("span", { class: "kd-pile-n" }));
    }
    setText(this.discardBtn.lastChild, g.discard_size);
    setAttr(this.discardBtn, "aria-label", takes ? t("kuuduk.pickUpLabel", { card: cardName(g.discard_top) })
      : g.discard_top ? `${t("kuuduk.discardPile", { n: g.discard_size })}: ${cardName(g.discard_top)}` : t("kuuduk.discardEmpty"));
    setAttr(this.discardBtn, "aria-disabled", takes ? "false" : "true");
    setAttr(this.discardBtn, "aria-pressed", takes ? String(this.sel?.kind === "pile") : null);
    toggle(this.discardBtn, "legal", takes);

    // The buttons of this moment.
    const sel = this.sel;
    const b = this.buttons;
    const acquire = mine && g.step === "ACQUIRE";
    show(b.draw, acquire && draw);
    show(b.pickUp, acquire && takes && sel?.kind !== "pile");
    show(b.pass, acquire && this.legal((a) => a.type === "pass").length > 0);
    const card = sel?.kind === "hand" ? sel.card : null;
    show(b.discard, Boolean(card) && this.legal((a) => a.type === "discard" && a.card === card).length > 0 && !this.swiped);
    setText(b.discard, card ? `${t("kuuduk.discard")}: ${cardName(card)}` : t("kuuduk.discard"));
    show(b.switch, Boolean(card) && this.legal((a) => a.type === "switch" && a.card === card).length > 0);
    // A swipe without a target does what a discard does: one button, whichever is listed.
    const plainDiscard = this.legal((a) => a.type === "discard" && a.card === card).length > 0;
    show(b.swipeNone, Boolean(card) && !plainDiscard && !this.swiped
      && this.legal((a) => a.type === "swipe" && a.card === card && a.victim === undefined).length > 0);
    show(b.cancel, Boolean(sel));
    for (const btn of Object.values(b)) setAttr(btn, "aria-disabled", this.busy ? "true" : null);

    setText(this.status, this.statusText(g, names, mine));
    const playing = g.phase === "TURN";
    show(this.rule, playing);
    show(this.keys, playing && you !== null && you !== undefined);
    this.renderResult(g, names);
  }

  statusText(g, names, mine) {
    const sel = this.sel;
    if (g.phase === "GAME_OVER") {
      const last = g.rounds[g.rounds.length - 1];
      const key = last?.void ? "kuuduk.st.gameOverVoid" : "kuuduk.st.gameOver";
      return t(key, { names: listNames(g.winners, names), n: g.void_streak ?? 1 });
    }
    if (g.phase === "ROUND_END") {
      const r = g.rounds[g.rounds.length - 1];
      if (!r) return "";
      return r.void ? t("kuuduk.st.roundVoid", { round: r.round }) : t("kuuduk.st.roundWon", { name: names[r.winner], round: r.round });
    }
    const who = names[g.turn];
    if (!mine) return t(g.step === "ACQUIRE" ? "kuuduk.st.wait" : "kuuduk.st.waitPlay", { name: who });
    if (g.step === "ACQUIRE") {
      if (sel?.kind === "pile") return t("kuuduk.st.pickSlot", { card: cardName(sel.card) });
      return t(g.restarted ? "kuuduk.st.restarted" : "kuuduk.st.acquire");
    }
    if (!g.hand.length) return t("kuuduk.st.playEmpty");
    if (!sel) return t("kuuduk.st.play");
    if (isLetter(sel.card)) return t("kuuduk.st.pickSlot", { card: cardName(sel.card) });
    if (this.swiped) return t("kuuduk.st.pickSwiped", { card: cardName(this.swiped.card) });
    if (blackKind(sel.card) === "switch") return t("kuuduk.st.black", { card: cardName(sel.card) });
    return t("kuuduk.st.pickVictim", { card: cardName(sel.card) });
  }

  renderResult(g, names) {
    const r = g.phase !== "TURN" ? g.rounds[g.rounds.length - 1] : null;
    const key = r ? JSON.stringify([r, g.phase]) : "";
    if (key === this.resultKey) return;
    this.resultKey = key;
    show(this.result, Boolean(r) && !r.void);
    if (!r || r.void) return;
    setKids(this.result, [h("ul", { class: "kd-scores" }, r.seats.map((s) => h("li", { class: s === r.winner ? "win" : null },
      t("kuuduk.st.scoreLine", { name: names[s], score: signed(r.scores[s]), laid: r.laid[s], held: r.held[s] }))))]);
  }
}

function eventText(e, g, names) {
  const name = names[e.seat] ?? "";
  switch (e.type) {
    case "deal": return t("kuuduk.ev.deal", { round: e.count, dealer: name, name: names[g.turn] ?? "" });
    case "draw": return t("kuuduk.ev.draw", { name });
    case "pass": return t("kuuduk.ev.pass", { name });
    case "take_discard":
      return t("kuuduk.ev.take", { name, card: cardName(e.card), slot: e.slot }) + (e.rearranged ? ` ${t("kuuduk.ev.moved", { name })}` : "");
    case "lay":
      return t("kuuduk.ev.lay", { name, card: cardName(e.card), slot: e.slot }) + (e.rearranged ? ` ${t("kuuduk.ev.moved", { name })}` : "");
    case "discard": return t("kuuduk.ev.discard", { name, card: cardName(e.card) });
    case "swipe":
      if (e.victim === null || e.victim === undefined) return t("kuuduk.ev.swipeNone", { name, black: cardName(e.card) });
      return t("kuuduk.ev.swipe", { name, black: cardName(e.card), card: cardName(e.taken), victim: names[e.victim], from: e.from_slot, slot: e.slot })
        + (e.rearranged ? ` ${t("kuuduk.ev.moved", { name })}` : "");
    case "switch": return t("kuuduk.ev.switch", { name, side: t(`kuuduk.side.${e.direction}`) });
    case "refill": return t("kuuduk.ev.refill", { n: e.count });
    case "timeout": return t("kuuduk.ev.timeout", { name });
    case "round_won": {
      const r = g.rounds[g.rounds.length - 1];
      const list = r ? r.seats.map((s) => `${names[s]} ${signed(r.scores[s])}`).join(", ") : "";
      return t("kuuduk.ev.won", { name, round: r?.round ?? g.round, list });
    }
    case "round_void": return t("kuuduk.ev.void", { round: g.round, n: e.count });
    case "game_over": return t("kuuduk.ev.over", { names: listNames(g.winners, names) });
    default: return "";
  }
}

export default {
  id: "kuuduk",
  basicOptions: ["mode", "target"],
  layout: "open",

  createTable(ctx) {
    return new KuudukTable(ctx);
  },

  stats(g, seat) {
    const s = g.seats[seat];
    if (!s) return {};
    const bits = [t("kuuduk.laid", { n: s.laid })];
    if (g.dealer === seat) bits.push(t("kuuduk.dealer"));
    if (!s.playing) bits.push(t("kuuduk.out"));
    const you = g.you;
    if (you !== null && you !== undefined && seat !== you && g.seats[you]?.playing && s.playing) {
      if (stepSeat(g, you, true) === seat) bits.push(t("kuuduk.left"));
      if (stepSeat(g, you, false) === seat) bits.push(t("kuuduk.right"));
    }
    return { count: s.hand, score: g.scores[seat], turn: g.phase === "TURN" && g.turn === seat, extra: bits.join(" · "),
      turnLabel: t("kuuduk.turn") };
  },

  timers(g, names) {
    if (g.deadline === null || g.deadline === undefined) return [];
    if (g.phase === "TURN") {
      const label = g.turn === g.you ? t("kuuduk.cd.yourTurn") : t("kuuduk.cd.turn", { name: names[g.turn] });
      return [{ key: "turn", at: g.deadline, label }];
    }
    if (g.phase === "ROUND_END") return [{ key: "next", at: g.deadline, label: t("kuuduk.cd.next") }];
    return [];
  },

  events(prev, g, names) {
    if (!prev) return [];
    const key = JSON.stringify(g.last);
    if (key === JSON.stringify(prev.last) && g.round === prev.round && g.phase === prev.phase) return [];
    return (g.last || []).map((e) => eventText(e, g, names)).filter(Boolean);
  },

  scores(g, names) {
    if (!g.rounds.length) return null;
    return {
      columns: names,
      rows: g.rounds.map((r) => ({
        label: `${t("scores.roundN", { n: r.round })}${r.void ? ` (${t("kuuduk.sc.void")})` : r.tiebreak ? ` (${t("kuuduk.sc.tiebreak")})` : ""}`,
        cells: names.map((_, s) => (r.seats.includes(s) && !r.void
          ? { value: signed(r.scores[s]), detail: t("kuuduk.sc.detail", { laid: r.laid[s], held: r.held[s] }) }
          : { value: "—" })),
      })),
      totals: g.scores,
      winners: g.winners,
      show: g.phase === "ROUND_END" || g.phase === "GAME_OVER",
      final: g.phase === "GAME_OVER",
    };
  },
};
