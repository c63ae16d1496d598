// The UFF-DA! table: the branches growing from the centre double (open ends, coins, doubles laid
// across), the community branch, the two draw piles, your hand, NEXT and the coin buttons, and the
// shouts: your own UFF-DA! and COIN! / UFF-DA! on a named player, with the rulings and their times.
// The server is the referee: this view marks what the view's `legal` list allows and sends what the
// player does, mistakes included (NEXT with an owed coin, a next-to-last card without UFF-DA!).
import { h, loadStyle, onPress, setAttr, setKids, setText, show, toggle } from "../dom.js";
import { addStrings, num, t } from "../i18n.js";
import { unverified } from "../shell/races.js";

loadStyle("/static/css/games/uffda.css");

addStrings("en", {
  "uffda.card": "Card {a}-{b}",
  "uffda.back": { one: "{n} card in hand", other: "{n} cards in hand" },
  "uffda.centre": "Centre double {c}|{c}",
  "uffda.roundInfo": "Round {round} of {rounds} · going out scores −{bonus}",
  "uffda.branchOf": "{name}’s branch",
  "uffda.yourBranch": "Your branch",
  "uffda.community": "Community branch",
  "uffda.communityInText": "the community branch",
  "uffda.yourBranchInText": "your branch",
  "uffda.communityShut": "opens when every player’s branch has a card",
  "uffda.coinOn": "coin on: open to all",
  "uffda.coinOff": "no coin: owner only",
  "uffda.coinOffShort": "coin off",
  "uffda.end": "Open end {v} on {branch}",
  "uffda.side": "Side {k} of the double {v}|{v} on {branch}",
  "uffda.waiting": "End {v} on {branch}, open once the double is filled",
  "uffda.legalMark": "(you can play here)",
  "uffda.pile": { one: "Draw from pile {p} ({n} card)", other: "Draw from pile {p} ({n} cards)" },
  "uffda.pileShort": "Pile {p}",
  "uffda.next": "NEXT",
  "uffda.placeCoin": "Place coin",
  "uffda.removeCoin": "Remove coin",
  "uffda.say": "Say UFF-DA!",
  "uffda.sayLate": "Say UFF-DA! (late)",
  "uffda.armed": "said with your next card",
  "uffda.unsay": "Take it back",
  "uffda.keys": "Keys: S says UFF-DA!, C calls COIN! on the last player to say NEXT, U calls UFF-DA! on the last player to play or draw.",
  "uffda.shout": "UFF-DA!",
  "uffda.coinShout": "COIN!",
  "uffda.callCoin": "COIN! on {name}",
  "uffda.callUffda": "UFF-DA! on {name}",
  "uffda.give": "Card to give when you catch",
  "uffda.giveAuto": "Highest (automatic)",
  "uffda.hand": "Your hand",
  "uffda.drawn": "drawn",
  "uffda.pick": "Pick a card from your hand first.",
  "uffda.st.OPEN": "Your turn: play a card or draw.",
  "uffda.st.AFTER_DRAW": "Play the card you drew, or say NEXT.",
  "uffda.st.FOLLOW_UP": "Fill your double from your hand, or draw.",
  "uffda.st.FOLLOW_UP_DRAWN": "Fill your double with the card you drew, or say NEXT.",
  "uffda.st.DONE": "Say NEXT.",
  "uffda.stOther": "{name}’s turn.",
  "uffda.stDouble": "The double {v}|{v} waits: only cards that fill it can go.",
  "uffda.stRoundWon": "Round {round} over: {name} went out.",
  "uffda.stRoundBlocked": "Round {round} over: nobody can play.",
  "uffda.stGameOver": "Game over: {names} won.",
  "uffda.firstDraw": "Face-up cards for the deal: {list}. {name} deals and starts.",
  "uffda.rulings": "Calls",
  "uffda.r.caught": "{call} on {target}: {catcher} caught it.",
  "uffda.r.saved": "{call} on {target}: {target} said UFF-DA! in time.",
  "uffda.r.void": "{call} on {target}: no caller had two cards left.",
  "uffda.r.claim": "{name}: {ms} ms",
  "uffda.r.late": "{name} (late UFF-DA!): {ms} ms",
  "uffda.r.after": "after the mistake",
  "uffda.r.tie": "Tie within the margin: {name} sits nearest before {target}.",
  "uffda.r.gave": "{catcher} gives {target} a card.",
  "uffda.r.gaveCard": "{catcher} gives {target} {card}.",
  "uffda.ev.round": "Round {round}: centre double {c}|{c}; {name} starts.",
  "uffda.ev.play": "{name} plays {card} on {branch}.",
  "uffda.ev.double": "{name} lays the double {card} across {branch}.",
  "uffda.ev.fill": "{name} fills the double on {branch} with {card}.",
  "uffda.ev.playYou": "You play {card} on {branch}.",
  "uffda.ev.doubleYou": "You lay the double {card} across {branch}.",
  "uffda.ev.fillYou": "You fill the double on {branch} with {card}.",
  "uffda.ownBranchInText": "your own branch",
  "uffda.ev.uffda": "{name} says UFF-DA!",
  "uffda.ev.draw": "{name} draws from pile {p}.",
  "uffda.ev.drawSeen": "You draw {card} from pile {p}.",
  "uffda.ev.coinOn": "{name} places the coin.",
  "uffda.ev.coinAuto": "{name}’s coin goes on.",
  "uffda.ev.coinOff": "{name} removes the coin.",
  "uffda.ev.next": "{name}: NEXT.",
  "uffda.ev.pass": "{name} cannot play: NEXT.",
  "uffda.ev.call": "{name} shouts {call} at {target}!",
  "uffda.ev.lateUffda": "{name} says UFF-DA! late.",
  "uffda.ev.timeout": "{name} ran out of time.",
  "uffda.ev.roundWon": "Round {round} over: {name} went out ({bonus}); {list}.",
  "uffda.ev.roundBlocked": "Round {round} over, nobody could play: {list}.",
  "uffda.ev.gameOver": "Game over: {names} won.",
  "uffda.cd.turn": "{name}’s turn",
  "uffda.cd.yours": "Your turn",
  "uffda.cd.nextRound": "Next round in",
  "uffda.sc.round": "Round {n} ({c}|{c})",
  "uffda.sc.blocked": "Round {n} ({c}|{c}, blocked)",
  "uffda.sc.won": "went out · bonus −{bonus}",
  "uffda.sc.hand": "{n} in hand",
  "opt.uffda.rounds": "Rounds",
  "opt.uffda.penalties": "COIN! and UFF-DA! penalty calls",
  "opt.uffda.assist": "Beginner help: highlight mistakes that can be caught",
  "opt.uffda.turn_seconds": "Turn timer (s, 0 = none)",
  "opt.uffda.round_end_pause_ms": "Scores stay on screen (ms)",
  "opt.uffda.race_window_ms": "Call race window (ms)",
  "opt.uffda.max_credit_ms": "Most network-delay credit (ms)",
  "opt.uffda.tie_margin_ms": "Tie margin (ms)",
  "opt.uffda.latency_compensation": "Compensate for network delay",
});

const MAX_MS = 2147483647;
const PLAYING = "PLAY";
const halves = (card) => [Number(card[0]), Number(card[2])];
const isDouble = (card) => card[0] === card[2];
const other = (card, v) => { const [a, b] = halves(card); return a === v ? b : a; };
const pileName = (k) => (k === 0 ? "A" : "B");
const seated = (g) => g.you !== null && g.you !== undefined;

function nameOf(names, s) {
  return names[s] || t("seat.n", { n: s + 1 });
}

function listNames(seats, names) {
  const list = seats.map((s) => nameOf(names, s));
  if (list.length <= 1) return list.join("");
  return t("list.and", { first: list.slice(0, -1).join(", "), last: list[list.length - 1] });
}

function branchName(g, b, names, inText = false, actor = null) {
  const owner = g.branches[b]?.owner;
  if (owner === null || owner === undefined) return inText ? t("uffda.communityInText") : t("uffda.community");
  if (owner === g.you && inText && actor === g.you) return t("uffda.ownBranchInText");
  if (owner === g.you) return inText ? t("uffda.yourBranchInText") : t("uffda.yourBranch");
  return t("uffda.branchOf", { name: nameOf(names, owner) });
}

/** A domino face: the number toward the centre first. */
function tile(card, first, extra = "") {
  const [a, b] = halves(card);
  const lo = first ?? a;
  const hi = first === undefined || first === null ? b : other(card, first);
  return h("span", { class: `uf-tile ${isDouble(card) ? "dbl " : ""}${extra}`.trim(), "data-card": card,
    role: "img", "aria-label": t("uffda.card", { a, b }) },
  h("span", { class: "pip", "aria-hidden": "true" }, lo), h("span", { class: "pip", "aria-hidden": "true" }, hi));
}

class UffdaTable {
  constructor(ctx) {
    this.ctx = ctx;
    this.g = null;
    this.selected = null;
    this.armed = false;
    this.painted = new Map(); // event seq -> performance.now() when first shown
    this.shown = []; // recent events, for call reaction times and rulings
    this.rulings = [];
    this.rulingKey = "";
    const you = ctx.you;
    this.seatEls = Array.from({ length: ctx.count }, (_, seat) => this.makeSeat(seat, you));
    this.status = h("p", { class: "uf-status" });
    this.info = h("p", { class: "uf-info" });
    this.first = h("p", { class: "uf-first", hidden: true });
    this.piles = [0, 1].map((k) => h("button", { type: "button", class: "uf-pile", "data-pile": k,
      onclick: () => this.draw(k) }, h("span", { class: "uf-back", "aria-hidden": "true" }),
    h("span", { class: "uf-pile-label" })));
    this.board = h("div", { class: "uf-board" });
    this.ruling = h("section", { class: "uf-rulings", hidden: true, "aria-label": t("uffda.rulings") });
    this.keys = h("p", { class: "uf-keys", hidden: you === null || you === undefined }, t("uffda.keys"));
    this.center = h("div", { class: "uffda" }, this.status,
      h("div", { class: "uf-top" }, h("div", { class: "uf-piles" }, this.piles), this.info),
      this.first, this.board, this.ruling, this.keys);
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
  }

  makeSeat(seat, you) {
    const root = h("div", { class: "uf-seat" });
    const el = { root };
    if (seat === you) {
      el.hand = h("div", { class: "uf-hand", role: "group", "aria-label": t("uffda.hand") });
      el.next = h("button", { type: "button", class: "btn uf-next", onclick: () => this.simple("next") }, t("uffda.next"));
      el.place = h("button", { type: "button", class: "btn uf-coin uf-place", onclick: () => this.simple("place_coin") }, t("uffda.placeCoin"));
      el.remove = h("button", { type: "button", class: "btn uf-coin uf-remove", onclick: () => this.simple("remove_coin") }, t("uffda.removeCoin"));
      el.sayNote = h("small", { class: "uf-armed" }, t("uffda.armed"));
      el.say = h("button", { type: "button", class: "uf-shout uf-say", "aria-pressed": "false", "aria-keyshortcuts": "S" },
        h("span", { class: "big" }, t("uffda.shout")));
      onPress(el.say, () => this.say());
      // A second press keeps UFF-DA! said; taking it back is its own button, never a silent toggle.
      el.unsay = h("button", { type: "button", class: "link uf-unsay", onclick: () => this.setArmed(false) },
        t("uffda.unsay"));
      el.give = h("select", { class: "uf-give" });
      el.giveBox = h("label", { class: "uf-give-box" }, h("span", {}, t("uffda.give")), el.give);
      el.turnBar = h("div", { class: "uf-actions" }, el.next, el.place, el.remove);
      // The note and Take it back keep their room while hidden: your seat sticks to the bottom
      // of the screen, so anything it gained on the press would move the button under the finger.
      root.append(el.hand, el.turnBar, h("div", { class: "uf-calls mine" }, el.say), el.giveBox,
        h("p", { class: "uf-armed-line" }, el.sayNote, " ", el.unsay));
    } else {
      el.backs = h("div", { class: "uf-backs", role: "img" });
      root.append(el.backs);
      if (you !== null && you !== undefined) {
        el.coinCall = h("button", { type: "button", class: "uf-shout coin" }, t("uffda.coinShout"));
        el.uffdaCall = h("button", { type: "button", class: "uf-shout" }, t("uffda.shout"));
        onPress(el.coinCall, (e) => this.call("COIN", seat, e));
        onPress(el.uffdaCall, (e) => this.call("UFFDA", seat, e));
        el.calls = h("div", { class: "uf-calls" }, el.coinCall, el.uffdaCall);
        root.append(el.calls);
      }
    }
    return el;
  }

  seat(i) {
    return this.seatEls[i].root;
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
  }

  /** Escape drops the picked card; S says UFF-DA!, C and U call on the player who last gave cause. */
  key(e) {
    if (e.key === "Escape" && this.selected) { this.select(null); return; }
    if (e.repeat || e.ctrlKey || e.metaKey || e.altKey || !this.g || !seated(this.g)) return;
    if (!this.g.penalties || this.g.phase !== PLAYING) return;
    const target = e.target instanceof Element ? e.target : document.body;
    if (target.closest("input, textarea, select, [contenteditable]") || document.querySelector("dialog[open]")) return;
    const key = e.key.toLowerCase();
    if (key === "s") {
      e.preventDefault();
      this.say();
    } else if (key === "c" || key === "u") {
      const kind = key === "c" ? "COIN" : "UFFDA";
      const seat = this.lastCause(kind);
      if (seat === null) return;
      e.preventDefault();
      const el = this.seatEls[seat];
      this.call(kind, seat, e, kind === "COIN" ? el.coinCall : el.uffdaCall);
    }
  }

  /** The other player whose latest event could be a COIN! (a NEXT) or an UFF-DA! (a release). */
  lastCause(kind) {
    const kinds = kind === "COIN" ? ["next"] : ["play", "draw", "caught"];
    for (let i = this.shown.length - 1; i >= 0; i--) {
      const ev = this.shown[i];
      if (kinds.includes(ev.kind) && ev.seat !== this.g.you && this.seatEls[ev.seat]?.calls) return ev.seat;
    }
    return null;
  }

  legal(match) {
    return (this.g?.legal || []).some((a) => Object.entries(match).every(([k, v]) => a[k] === v));
  }

  // --- actions ---------------------------------------------------------------

  /** A UFF-DA! said in advance rides on the next card released (a play, a penalty card, or the
   * extra draw after a last-card double); the server decides whether it was needed. */
  async send(action, releases = false) {
    if (this.armed && ["play", "draw", "call"].includes(action.type)) action.uffda = true;
    const reply = await this.ctx.act(action);
    if (reply?.type === "ack" && releases && action.uffda) this.setArmed(false);
    return reply;
  }

  simple(type) {
    if (!seated(this.g || {})) return;
    this.send({ type });
  }

  draw(k) {
    if (!this.g || !seated(this.g)) return;
    this.send({ type: "draw", pile: k }, !(this.g.hand || []).length);
  }

  async play(target) {
    if (!this.g || !seated(this.g)) return;
    if (!this.selected) {
      this.ctx.announce(t("uffda.pick"));
      setText(this.status, t("uffda.pick"));
      return;
    }
    const [branch, on, side] = target;
    const reply = await this.send({ type: "play", card: this.selected, branch, on, side }, true);
    if (reply?.type === "ack") this.select(null);
  }

  // The view offers a late declaration after any recent release to one card (it must not tell
  // whether one is owed), so on your own turn with cards to spare the button arms UFF-DA! instead.
  lateDeclaration() {
    const g = this.g;
    if (!g || !this.legal({ type: "declare_uffda" })) return false;
    return g.turn?.seat !== g.you || (g.hand?.length ?? 0) <= 1;
  }

  say() {
    if (!this.g || !seated(this.g)) return;
    if (this.lateDeclaration()) {
      const action = { type: "declare_uffda" };
      const ms = this.reactionTo((ev) => ev.seat === this.g.you && ["play", "draw", "caught"].includes(ev.kind));
      if (ms !== null) action.reaction_ms = ms;
      this.ctx.act(action);
      return;
    }
    this.setArmed(true);
  }

  setArmed(on) {
    this.armed = on;
    const el = this.seatEls[this.ctx.you];
    if (!el?.say) return;
    setAttr(el.say, "aria-pressed", on ? "true" : "false");
    toggle(el.root, "armed", on);
  }

  call(kind, target, e, button = e?.currentTarget) {
    if (!this.g || !seated(this.g)) return;
    const action = { type: "call", kind, target };
    const give = this.seatEls[this.ctx.you].give.value;
    if (give && this.g.hand?.includes(give)) action.give_card = give;
    const kinds = kind === "COIN" ? ["next"] : ["play", "draw", "caught"];
    // Read at the press itself (pointerdown or the key), so finger time is not reaction time.
    const ms = this.reactionTo((ev) => ev.seat === target && kinds.includes(ev.kind));
    if (ms !== null) action.reaction_ms = ms;
    button?.classList.remove("hit");
    void button?.offsetWidth; // restart the press animation
    button?.classList.add("hit");
    this.send(action, true);
  }

  /** Milliseconds from the frame that showed the latest matching event to this input. */
  reactionTo(test, stamp = performance.now()) {
    for (let i = this.shown.length - 1; i >= 0; i--) {
      const ev = this.shown[i];
      if (!test(ev)) continue;
      const at = this.painted.get(ev.seq);
      return at === undefined ? null : Math.min(MAX_MS, Math.max(0, Math.round(stamp - at)));
    }
    return null;
  }

  select(card) {
    this.selected = card;
    if (this.g) this.render(this.g);
  }

  // --- rendering ---------------------------------------------------------------

  update(view) {
    const g = view.game;
    const fresh = (g.last || []).filter((e) => !this.painted.has(e.seq));
    if (fresh.length) {
      const now = performance.now();
      for (const e of fresh) this.painted.set(e.seq, now);
      requestAnimationFrame((frame) => { for (const e of fresh) if (this.painted.get(e.seq) === now) this.painted.set(e.seq, frame); });
      this.shown.push(...fresh);
      if (this.shown.length > 80) this.shown.splice(0, this.shown.length - 80);
      this.collectRulings(fresh, g);
    }
    if (this.g && this.g.round !== g.round) this.setArmed(false);
    this.g = g;
    if (this.selected && !(g.hand || []).includes(this.selected)) this.selected = null;
    this.render(g);
  }

  render(g) {
    const names = this.ctx.names();
    const mine = seated(g);
    const playing = g.phase === PLAYING;
    const myTurn = mine && playing && g.turn.seat === g.you;
    const seqs = (g.last || []).map((e) => e.seq);
    const top = Math.max(Number(this.center.dataset.seq || 0), ...seqs);
    setAttr(this.center, "data-seq", top);
    setAttr(this.center, "data-phase", g.phase);
    setAttr(this.center, "data-round", g.round);
    setAttr(this.center, "data-turn", g.turn.seat);
    setAttr(this.center, "data-step", g.turn.step);
    setAttr(this.center, "data-piles", g.piles.join(","));
    setAttr(this.center, "data-community", g.community_open ? "open" : "closed");
    const d = g.double;
    setAttr(this.center, "data-double", d ? `${d.branch}:${d.on}:${d.value}` : null);
    setText(this.status, this.statusText(g, names));
    setText(this.info, [t("uffda.centre", { c: g.center }), t("uffda.roundInfo", { round: g.round, rounds: g.rounds, bonus: 5 * g.round })].join(" · "));
    const firstDeal = g.round === 1 && g.turn.no <= 1 && g.first_draw?.length > 0;
    show(this.first, firstDeal);
    if (firstDeal) {
      const list = g.first_draw.map((row) => row.map((c, s) => (c ? `${nameOf(names, s)} ${c.replace("-", "|")}` : null))
        .filter(Boolean).join(", ")).join(" / ");
      setText(this.first, t("uffda.firstDraw", { list, name: nameOf(names, g.dealer) }));
    }

    this.piles.forEach((btn, k) => {
      const n = g.piles[k];
      setAttr(btn, "aria-label", t("uffda.pile", { p: pileName(k), n }));
      setText(btn.lastChild, `${t("uffda.pileShort", { p: pileName(k) })} · ${n}`);
      toggle(btn, "empty", n === 0);
      toggle(btn, "legal", this.legal({ type: "draw", pile: k }));
      setAttr(btn, "data-legal", this.legal({ type: "draw", pile: k }) ? "true" : null);
      show(btn, true);
      btn.disabled = !mine;
    });

    this.renderBoard(g, names);
    this.renderSeats(g, names, myTurn);
    this.renderRulings(names);
  }

  statusText(g, names) {
    if (g.phase === "GAME_OVER") return t("uffda.stGameOver", { names: listNames(g.winners, names) });
    if (g.phase === "ROUND_OVER") {
      const r = g.scores[g.scores.length - 1];
      if (!r) return "";
      return r.winner === null ? t("uffda.stRoundBlocked", { round: r.round })
        : t("uffda.stRoundWon", { round: r.round, name: nameOf(names, r.winner) });
    }
    const parts = [];
    if (seated(g) && g.turn.seat === g.you) parts.push(t(`uffda.st.${g.turn.step}`));
    else parts.push(t("uffda.stOther", { name: nameOf(names, g.turn.seat) }));
    if (g.double) parts.push(t("uffda.stDouble", { v: g.double.value }));
    return parts.join(" ");
  }

  /** Every branch as a chain from the centre; a double lies across and splits it into two arms. */
  renderBoard(g, names) {
    const sel = this.selected;
    const legalTargets = new Set((g.legal || []).filter((a) => a.type === "play" && a.card === sel)
      .map((a) => `${a.branch}:${a.on}:${a.side}`));
    const key = JSON.stringify([g.branches, g.double, g.community_open, g.center, [...legalTargets], sel, g.you, names]);
    if (key === this.boardKey) return;
    this.boardKey = key;
    const rows = g.branches.map((br, b) => {
      const label = branchName(g, b, names);
      const community = br.owner === null;
      const coin = community ? (g.community_open ? null : t("uffda.communityShut"))
        : (br.coin ? t("uffda.coinOn") : t("uffda.coinOff"));
      const kids = new Map();
      br.cards.forEach((p, i) => kids.set(`${p.on}:${p.side}`, i));
      const ends = new Set(br.ends.map((e) => `${e.on}:${e.side}`));
      const target = (kind, value, on, side, text) => {
        const k = `${b}:${on}:${side}`;
        const legal = legalTargets.has(k);
        return h("button", {
          type: "button", class: `uf-end ${kind}${legal ? " legal" : ""}`, "data-branch": b, "data-on": on, "data-side": side,
          "data-value": value, "data-kind": kind, "data-legal": legal ? "true" : null, onclick: () => this.play([b, on, side]),
        }, h("span", { "aria-hidden": "true" }, value), h("span", { class: "sr-only" }, text, legal ? ` ${t("uffda.legalMark")}` : ""));
      };
      const arm = (on, side, value) => {
        const out = [];
        for (let guard = 0; guard < 60; guard++) {
          const i = kids.get(`${on}:${side}`);
          if (i === undefined) {
            const dbl = g.double && g.double.branch === b && g.double.on === on;
            if (ends.has(`${on}:${side}`)) out.push(target("end", value, on, side, t("uffda.end", { v: value, branch: label })));
            else if (dbl && g.double.sides[side] === null) {
              out.push(target("side", value, on, side, t("uffda.side", { k: side + 1, v: value, branch: label })));
            } else out.push(h("span", { class: "uf-end waiting", "data-value": value, role: "img",
              "aria-label": t("uffda.waiting", { v: value, branch: label }) }, value));
            return out;
          }
          const card = br.cards[i].card;
          if (isDouble(card)) {
            const active = g.double && g.double.branch === b && g.double.on === i;
            out.push(tile(card, value, `across${active ? " active" : ""}`));
            out.push(h("div", { class: "uf-split" }, h("div", { class: "uf-arm" }, arm(i, 0, value)),
              h("div", { class: "uf-arm" }, arm(i, 1, value))));
            return out;
          }
          out.push(tile(card, value));
          value = other(card, value);
          on = i;
          side = 0;
        }
        return out;
      };
      return h("section", {
        class: `uf-branch${community ? " community" : ""}${br.owner === g.you ? " mine" : ""}`, "data-branch": b,
        "data-owner": community ? "" : br.owner, "data-coin": br.coin ? "on" : "off", "data-started": br.cards.length ? "true" : "false",
        "aria-label": label,
      },
      h("header", { class: "uf-bhead" },
        h("span", { class: "uf-bname" }, label),
        community ? null : h("span", { class: `uf-coinmark ${br.coin ? "on" : "off"}`, "aria-hidden": "true" }),
        coin ? h("span", { class: "uf-bcoin" }, coin) : null),
      h("div", { class: "uf-chain" }, arm(-1, 0, g.center)));
    });
    setKids(this.board, [h("div", { class: "uf-centre" }, tile(`${g.center}-${g.center}`, g.center, "across centre")), rows]);
  }

  renderSeats(g, names, myTurn) {
    g.seats.forEach((s, seat) => {
      const el = this.seatEls[seat];
      if (!el) return;
      if (el.backs) {
        setAttr(el.backs, "aria-label", t("uffda.back", { n: s.cards }));
        setAttr(el.backs, "data-count", s.cards);
        if (el.backs.childElementCount !== s.cards) {
          setKids(el.backs, Array.from({ length: s.cards }, () => h("span", { class: "uf-back small" })));
        }
        if (el.calls) {
          const name = nameOf(names, seat);
          setAttr(el.coinCall, "aria-label", t("uffda.callCoin", { name }));
          setAttr(el.uffdaCall, "aria-label", t("uffda.callUffda", { name }));
          // Calls are offered at all times (a player may shout whenever); only the assist option hints.
          const hinted = (kind) => (g.offences || []).some((o) => o.kind === kind && o.offender === seat);
          toggle(el.coinCall, "hint", hinted("COIN"));
          toggle(el.uffdaCall, "hint", hinted("UFFDA"));
          show(el.calls, g.penalties && g.phase === PLAYING);
        }
      }
    });
    const me = this.seatEls[g.you];
    if (!me?.hand) return;
    const hand = g.hand || [];
    const playable = new Set((g.legal || []).filter((a) => a.type === "play").map((a) => a.card));
    const handKey = JSON.stringify([hand, [...playable], this.selected, g.drawn]);
    if (handKey !== this.handKey) {
      this.handKey = handKey;
      const focused = document.activeElement?.closest?.(".uf-hand [data-card]")?.dataset.card;
      setKids(me.hand, hand.map((card) => {
        const [a, b] = halves(card);
        const btn = h("button", {
          type: "button", class: `uf-card${playable.has(card) ? " playable" : ""}${card === g.drawn ? " drawn" : ""}`,
          "data-card": card, "data-playable": playable.has(card) ? "true" : null, "aria-pressed": String(card === this.selected),
          "aria-label": t("uffda.card", { a, b }) + (card === g.drawn ? ` (${t("uffda.drawn")})` : ""),
          onclick: () => this.select(this.selected === card ? null : card),
        }, tile(card, a));
        return btn;
      }));
      if (focused) me.hand.querySelector(`[data-card="${focused}"]`)?.focus();
    }
    const flag = (btn, type) => {
      const ok = this.legal({ type });
      toggle(btn, "legal", ok);
      setAttr(btn, "data-legal", ok ? "true" : null);
    };
    flag(me.next, "next");
    flag(me.place, "place_coin");
    flag(me.remove, "remove_coin");
    show(me.turnBar, myTurn);
    show(me.say, g.phase === PLAYING && g.penalties);
    const late = this.lateDeclaration();
    setAttr(me.say, "aria-label", late ? t("uffda.sayLate") : t("uffda.say"));
    toggle(me.say, "late", late);
    const giveKey = JSON.stringify(hand);
    if (giveKey !== this.giveKey) {
      this.giveKey = giveKey;
      const keep = me.give.value;
      setKids(me.give, [h("option", { value: "" }, t("uffda.giveAuto")),
        hand.map((c) => h("option", { value: c }, c.replace("-", "|")))]);
      me.give.value = hand.includes(keep) ? keep : "";
    }
    show(me.giveBox, g.phase === PLAYING && g.penalties);
  }

  // --- rulings -------------------------------------------------------------------

  collectRulings(fresh, g) {
    for (const e of fresh) {
      if (e.kind === "round") this.rulings = [];
      if (!["caught", "saved", "void"].includes(e.kind)) continue;
      const target = e.kind === "saved" ? e.seat : e.target;
      const stimulus = this.stimulus(e.call, target, e.seq);
      const calls = this.shown.filter((c) => c.seq < e.seq && ((c.kind === "call" && c.call === e.call && c.target === target)
        || (c.kind === "uffda" && c.late && c.seat === target && e.call === "UFFDA")) && (!stimulus || c.seq > stimulus.seq));
      const winner = e.kind === "caught" ? e.seat : e.kind === "saved" ? target : null;
      // The server's ranked reaction for the winner when it sends one; else when each call arrived.
      const claims = Array.isArray(e.claims) ? e.claims.map((c) => ({ seat: c.seat, ms: c.reaction ?? c.effective_ms ?? null, flags: c.flags || [] }))
        : calls.map((c) => ({ seat: c.seat, ms: c.seat === winner && typeof e.reaction === "number" ? e.reaction
          : (stimulus ? c.at - stimulus.at : null) }));
      claims.sort((a, b) => (b.seat === winner) - (a.seat === winner) || (a.ms ?? 0) - (b.ms ?? 0));
      this.rulings.unshift({ seq: e.seq, kind: e.kind, call: e.call, target, winner, tied: e.tied || [], claims, card: e.card || null });
    }
    this.rulings = this.rulings.slice(0, 3);
    void g;
  }

  /** The event that made the mistake visible: the NEXT (COIN) or the release (UFF-DA!). */
  stimulus(call, target, before) {
    const kinds = call === "COIN" ? ["next"] : ["play", "draw", "caught"];
    for (let i = this.shown.length - 1; i >= 0; i--) {
      const ev = this.shown[i];
      if (ev.seq < before && ev.seat === target && kinds.includes(ev.kind)) return ev;
    }
    return null;
  }

  renderRulings(names) {
    const key = JSON.stringify([this.rulings, names]);
    if (key === this.rulingKey) return;
    this.rulingKey = key;
    show(this.ruling, this.rulings.length > 0);
    setKids(this.ruling, [h("h3", {}, t("uffda.rulings")), this.rulings.map((r) => {
      const call = r.call === "COIN" ? t("uffda.coinShout") : t("uffda.shout");
      const target = nameOf(names, r.target);
      const head = t(`uffda.r.${r.kind}`, { call, target, catcher: r.winner === null ? "" : nameOf(names, r.winner) });
      const rows = r.claims.map((c) => h("li", { class: c.seat === r.winner ? "win" : null },
        c.seat === r.target ? t("uffda.r.late", { name: nameOf(names, c.seat), ms: c.ms ?? "?" })
          : t("uffda.r.claim", { name: nameOf(names, c.seat), ms: c.ms ?? "?" })));
      const gave = r.kind === "caught" ? (r.card ? t("uffda.r.gaveCard", { catcher: nameOf(names, r.winner), target, card: r.card.replace("-", "|") })
        : t("uffda.r.gave", { catcher: nameOf(names, r.winner), target })) : null;
      return h("article", { class: `uf-ruling ${r.kind}`, "data-kind": r.kind, "data-call": r.call, "data-seq": r.seq },
        h("p", { class: "headline" }, head),
        rows.length ? h("ol", { class: "claims", "aria-label": t("uffda.r.after") }, rows) : null,
        r.tied.length > 1 && r.winner !== null ? h("p", { class: "tie" }, t("uffda.r.tie", { name: nameOf(names, r.winner), target })) : null,
        gave ? h("p", { class: "gave" }, gave) : null,
        ...unverified(r.claims).map((seat) => h("p", { class: "unverified" }, t("race.unverified", { name: nameOf(names, seat) }))));
    })]);
  }
}

function describe(e, g, names) {
  const name = e.seat === null || e.seat === undefined ? "" : nameOf(names, e.seat);
  const card = e.card ? e.card.replace("-", "|") : "";
  const branch = e.branch !== undefined ? branchName(g, e.branch, names, true, e.seat) : "";
  const mine = seated(g) && e.seat === g.you; // on your own screen your moves read "You play ..."
  switch (e.kind) {
    case "round": return t("uffda.ev.round", { round: e.round, c: e.center, name });
    case "play": {
      const bits = [];
      const fill = e.on >= 0 && isDouble(g.branches[e.branch]?.cards[e.on]?.card || "0-1");
      const you = mine ? "You" : "";
      if (isDouble(e.card)) bits.push(t(`uffda.ev.double${you}`, { name, card, branch }));
      else if (fill) bits.push(t(`uffda.ev.fill${you}`, { name, card, branch }));
      else bits.push(t(`uffda.ev.play${you}`, { name, card, branch }));
      if (e.uffda) bits.push(t("uffda.ev.uffda", { name }));
      return bits.join(" ");
    }
    case "draw": {
      const text = e.card ? t("uffda.ev.drawSeen", { card, p: pileName(e.pile) }) : t("uffda.ev.draw", { name, p: pileName(e.pile) });
      return e.uffda ? `${text} ${t("uffda.ev.uffda", { name })}` : text;
    }
    case "coin": return e.on ? (e.auto ? t("uffda.ev.coinAuto", { name }) : t("uffda.ev.coinOn", { name })) : t("uffda.ev.coinOff", { name });
    case "next": return e.passed ? t("uffda.ev.pass", { name }) : t("uffda.ev.next", { name });
    case "call": return t("uffda.ev.call", { name, call: e.call === "COIN" ? t("uffda.coinShout") : t("uffda.shout"), target: nameOf(names, e.target) });
    case "uffda": return t("uffda.ev.lateUffda", { name });
    case "timeout": return t("uffda.ev.timeout", { name });
    case "caught": case "saved": case "void": {
      const callWord = e.call === "COIN" ? t("uffda.coinShout") : t("uffda.shout");
      const target = nameOf(names, e.kind === "saved" ? e.seat : e.target);
      const head = t(`uffda.r.${e.kind}`, { call: callWord, target, catcher: name });
      if (e.kind !== "caught") return head;
      return `${head} ${e.card ? t("uffda.r.gaveCard", { catcher: name, target, card }) : t("uffda.r.gave", { catcher: name, target })}`;
    }
    case "round_over": {
      const list = (e.scores || []).map((sc, i) => `${nameOf(names, i)} ${sc > 0 ? "+" : ""}${sc}`).join(", ");
      if (e.terminated) return t("uffda.ev.roundBlocked", { round: e.round, list });
      return t("uffda.ev.roundWon", { round: e.round, name, bonus: `−${5 * e.round}`, list });
    }
    case "game_over": return t("uffda.ev.gameOver", { names: listNames(e.winners || [], names) });
    default: return "";
  }
}

export default {
  id: "uffda",
  basicOptions: ["rounds", "penalties", "turn_seconds"],

  createTable(ctx) {
    return new UffdaTable(ctx);
  },

  stats(g, seat) {
    const s = g.seats[seat];
    if (!s) return {};
    const branch = g.branches[seat];
    return {
      count: s.cards,
      score: g.totals[seat],
      turn: g.phase === PLAYING && g.turn.seat === seat,
      extra: branch && !branch.coin && g.phase === PLAYING ? t("uffda.coinOffShort") : "",
    };
  },

  timers(g, names) {
    if (g.phase === PLAYING && g.deadline !== null && g.deadline !== undefined) {
      const label = seated(g) && g.turn.seat === g.you ? t("uffda.cd.yours") : t("uffda.cd.turn", { name: nameOf(names, g.turn.seat) });
      return [{ key: `turn-${g.round}-${g.turn.no}`, at: g.deadline, label }];
    }
    if (g.phase === "ROUND_OVER") return [{ key: "round", at: g.deadline, label: t("uffda.cd.nextRound") }];
    return [];
  },

  events(prev, g, names) {
    if (!prev) return [];
    const seen = Math.max(0, ...(prev.last || []).map((e) => e.seq));
    return (g.last || []).filter((e) => e.seq > seen).map((e) => describe(e, g, names)).filter(Boolean);
  },

  scores(g, names) {
    if (!g.scores.length) return null;
    return {
      columns: names,
      rows: g.scores.map((r) => ({
        label: r.terminated ? t("uffda.sc.blocked", { n: r.round, c: r.center }) : t("uffda.sc.round", { n: r.round, c: r.center }),
        cells: r.scores.map((sc, i) => ({
          value: num(sc),
          detail: i === r.winner ? t("uffda.sc.won", { bonus: 5 * r.round }) : t("uffda.sc.hand", { n: r.hand_points[i] }),
        })),
      })),
      totals: g.totals,
      winners: g.winners,
      show: g.phase === "ROUND_OVER" || g.phase === "GAME_OVER",
      final: g.phase === "GAME_OVER",
    };
  },
};
