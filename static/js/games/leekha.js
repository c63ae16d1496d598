// The Leekha table: choosing the three cards to pass, the cards received, the trick in the middle
// (who led it, who took the last one), the penalty cards each player has taken, teams in 2 vs 2,
// throwing in, the scores to the loss limit and the host's early end of a decided match.
// The client knows no rule: what may be played or passed comes from the view's `legal` list, and
// any other try goes to the server, whose reject message the room shows.
import { lobby, player } from "../api.js";
import { h, keyedList, loadStyle, setAttr, setKids, setText, show, toggle } from "../dom.js";
import { addStrings, signed, t } from "../i18n.js";
import { positions } from "../shell/ring.js";
import { toast } from "../shell/toasts.js";

loadStyle("/static/css/games/leekha.css");

addStrings("en", {
  "leekha.colour.R": "Red",
  "leekha.colour.B": "Blue",
  "leekha.colour.Y": "Yellow",
  "leekha.colour.G": "Green",
  "leekha.face.10": "0",
  "leekha.face.11": "Reverse",
  "leekha.face.12": "+2",
  "leekha.face.13": "Skip",
  "leekha.face.14": "1",
  "leekha.card": "{colour} {face}",
  "leekha.big": "{card} (Big Leekha, 13 points)",
  "leekha.small": "{card} (Small Leekha, 10 points)",
  "leekha.hand": "Your hand",
  "leekha.header": "Round {round} · loses at {limit}",
  "leekha.headerTeams": "Round {round} · 2 vs 2 · loses at {limit}",
  "leekha.team": "Team {t}",
  "leekha.teamLine": "Team {t}: {names}",
  "leekha.passTitle": "Choose 3 cards to pass to {name}",
  "leekha.passKeep": "Keep at least one card of: {colours}.",
  "leekha.passPicked": { one: "{n} card chosen", other: "{n} cards chosen" },
  "leekha.passBad": "These three break the colour rule.",
  "leekha.passBtn": "Pass 3 cards",
  "leekha.passed": "You pass {cards} to {name}.",
  "leekha.waitPass": "Waiting for {names} to pass.",
  "leekha.choosing": "choosing…",
  "leekha.hasPassed": "passed ✓",
  "leekha.ready": "ready ✓",
  "leekha.received": "From {name} you received:",
  "leekha.gotIt": "Ready to play",
  "leekha.waitAck": "Waiting for {names}…",
  "leekha.yourLead": "Your lead: play any card.",
  "leekha.yourTurn": "Your turn: play a highlighted card.",
  "leekha.forced": "Forced: you must play the {card}.",
  "leekha.turnOf": "{name} is playing…",
  "leekha.ledBy": "Led by {name}",
  "leekha.led": "led",
  "leekha.lastTrick": "{name} took the last trick (+{n}).",
  "leekha.throwIn": "Throw in",
  "leekha.throwConfirm": "Throw in: take every point left?",
  "leekha.throwHelp": "Throwing in ends the round: you take every point still in play.",
  "leekha.toPlay": "▶ to play",
  "leekha.taken": "Taken:",
  "leekha.nothing": "no penalty cards",
  "leekha.roundPts": "+{n} this round",
  "leekha.tricks": { one: "{n} trick", other: "{n} tricks" },
  "leekha.bot": "bot",
  "leekha.standin": "bot playing for {name}",
  "leekha.rule37": "37! {name} took both Leekhas in one trick: 37 points, everyone else 0.",
  "leekha.threwIn": { one: "{name} threw in and took {n} point.", other: "{name} threw in and took {n} points." },
  "leekha.roundOver": "Round {round} is over.",
  "leekha.next": "Next round",
  "leekha.decided": "{name} can no longer stay under {limit}: the match is decided.",
  "leekha.endNow": "End the match now",
  "leekha.hostMay": "The host can end the match now.",
  "leekha.lost": "{names} lost the match.",
  "leekha.teamLost": "Team {t} ({names}) lost the match.",
  "leekha.early": "The host ended the match early.",
  "leekha.end.rule37": "37 rule",
  "leekha.end.throw_in": "thrown in",
  "leekha.end.early_end": "ended early",
  "leekha.bl": "Big Leekha",
  "leekha.sl": "Small Leekha",
  "leekha.teams.title": "Teams (2 vs 2)",
  "leekha.teams.intro": "Teammates sit opposite: team A on seats 1 and 3, team B on seats 2 and 4.",
  "leekha.teams.partner": "Partner of {name}",
  "leekha.teams.set": "Seat the teams",
  "leekha.teams.done": "Teams seated.",
  "leekha.teams.wait": "The host sets the teams once four players sit.",
  "leekha.teams.nobody": "(free)",
  "cd.leekha.pass": "Automatic pass in",
  "cd.leekha.reveal": "Play starts in",
  "cd.leekha.you": "Your turn: automatic card in",
  "cd.leekha.turn": "{name} plays in",
  "cd.leekha.round": "Next round in",
  "ev.leekha.deal": "Round {round}: cards dealt. Everyone chooses 3 cards to pass to the right.",
  "ev.leekha.pass": "{name} has chosen the cards to pass.",
  "ev.leekha.passAuto": "Time ran out: the server passed 3 cards for {name}.",
  "ev.leekha.passed": "You received {cards} from {name}.",
  "ev.leekha.passedWatch": "Everyone passed.",
  "ev.leekha.start": "{name} leads the first trick.",
  "ev.leekha.play": "{name} plays the {card}.",
  "ev.leekha.auto": "Time ran out: the server played the {card} for {name}.",
  "ev.leekha.trick": { one: "{name} takes the trick with {n} point.", other: "{name} takes the trick with {n} points." },
  "ev.leekha.round": "Round {round} is over: {list}.",
  "ev.leekha.decided": "The match is decided: {name} will reach {limit}.",
  "opt.leekha.mode": "Mode",
  "opt.leekha.mode.ffa": "Free for All",
  "opt.leekha.mode.teams": "2 vs 2 (teams)",
  "opt.leekha.limit": "Loss limit",
  "opt.leekha.reveal_ms": "Received cards shown for (ms)",
  "opt.leekha.turn_ms": "Time per pass and card (ms, 0 = none)",
  "opt.leekha.scoreboard_ms": "Scores shown between rounds (ms)",
});

const SYMBOL = { R: "♥", B: "♠", Y: "♦", G: "♣" };
const FACE = { 10: "0", 11: "⇄", 12: "+2", 13: "⊘", 14: "1" };
const TEAM = ["A", "B"];
const rank = (card) => Number(card.slice(1, 3));
const right = (seat) => (seat + 3) % 4; // play and passing go to the right (counterclockwise)
const left = (seat) => (seat + 1) % 4;

const plainName = (card) => t("leekha.card", { colour: t(`leekha.colour.${card[0]}`), face: rank(card) >= 10 ? t(`leekha.face.${rank(card)}`) : rank(card) });

export function cardName(card) {
  const name = plainName(card);
  if (card === "B12") return t("leekha.big", { card: name });
  if (card === "Y10") return t("leekha.small", { card: name });
  return name;
}

const cardList = (cards) => cards.map(plainName).join(", ");

/** A face-up card (UNO faces; suit symbols keep colours apart for colour-blind players). */
export function cardFace(card, cls = "") {
  const face = FACE[rank(card)] ?? String(rank(card));
  const penalty = card === "B12" || card === "Y10" ? " leekha" : card[0] === "R" ? " pen" : "";
  return h("div", { class: `card face lk-card c-${card[0]}${face.length > 1 ? " wide" : ""}${penalty} ${cls}`.trim(),
    "data-card": card, role: "img", "aria-label": cardName(card) },
  h("span", { class: "corner tl", "aria-hidden": "true" }, face, h("i", {}, SYMBOL[card[0]])),
  h("span", { class: "num", "aria-hidden": "true" }, face),
  h("span", { class: "corner br", "aria-hidden": "true" }, face, h("i", {}, SYMBOL[card[0]])));
}

function listNames(seats, names) {
  const list = seats.map((s) => names[s]);
  if (list.length <= 1) return list.join("");
  return t("list.and", { first: list.slice(0, -1).join(", "), last: list[list.length - 1] });
}

const isHost = (view) => view.room.host === player.get()?.id;

class LeekhaTable {
  constructor(ctx) {
    this.ctx = ctx;
    this.g = null;
    this.selected = new Set();
    this.armed = null;
    this.places = positions(4, ctx.you);
    this.seatEls = Array.from({ length: 4 }, (_, i) => {
      const el = {
        team: h("span", { class: "lk-team", hidden: true }),
        mark: h("span", { class: "lk-mark", hidden: true }),
        bot: h("span", { class: "lk-bot", hidden: true }),
        turn: h("span", { class: "lk-turn", hidden: true }, t("leekha.toPlay")),
        fan: h("div", { class: "lk-fan", "aria-hidden": "true" }),
        pts: h("span", { class: "lk-pts" }),
        taken: h("div", { class: "lk-taken" }),
      };
      el.took = h("div", { class: "lk-took" }, h("span", { class: "lk-label" }, t("leekha.taken")), el.taken, el.pts);
      el.root = h("div", { class: "lk-seat", "data-seat": i },
        h("div", { class: "lk-tags" }, el.team, el.bot, el.mark, el.turn, i === ctx.you ? null : el.fan), el.took);
      return el;
    });

    this.hand = h("div", { class: "lk-hand", role: "group", "aria-label": t("leekha.hand") });
    this.listHand = keyedList(this.hand, (card) => this.handCard(card), (btn, card) => this.paintCard(btn, card));
    if (ctx.you !== null && ctx.you !== undefined) this.seatEls[ctx.you].root.append(this.hand);

    this.header = h("p", { class: "lk-header" });
    this.teamsLine = h("p", { class: "lk-teams", hidden: true });
    this.status = h("p", { class: "lk-status" });
    this.decided = h("div", { class: "lk-decided", role: "alert", hidden: true });
    this.endBtn = h("button", { type: "button", class: "btn danger", onclick: () => this.endMatch() }, t("leekha.endNow"));

    this.passBox = h("div", { class: "lk-pass", hidden: true });
    this.passPicked = h("span", { class: "lk-picked" });
    this.passBad = h("p", { class: "lk-bad", hidden: true }, t("leekha.passBad"));
    this.passBtn = h("button", { type: "button", class: "btn primary", onclick: () => this.submitPass() }, t("leekha.passBtn"));

    this.reveal = h("div", { class: "lk-reveal", hidden: true });
    const ack = () => this.ctx.act({ type: "ack" });
    this.readyBtn = h("button", { type: "button", class: "btn primary", onclick: ack }, t("leekha.gotIt"));
    this.nextBtn = h("button", { type: "button", class: "btn primary", hidden: true, onclick: ack }, t("leekha.next"));

    this.trickBox = h("div", { class: "lk-trick", role: "group", "aria-label": t("leekha.ledBy", { name: "" }).trim() });
    this.slots = Array.from({ length: 4 }, (_, i) => {
      const card = h("div", { class: "lk-slot-card" });
      const who = h("span", { class: "lk-who" });
      const root = h("div", { class: `lk-slot at-${this.places[i]}`, "data-seat": i }, card, who);
      this.trickBox.append(root);
      return { root, card, who, shown: undefined };
    });
    this.trickNote = h("p", { class: "lk-note" });
    this.throwBtn = h("button", { type: "button", class: "btn small danger lk-throw", hidden: true,
      title: t("leekha.throwHelp"), onclick: () => this.throwIn() }, t("leekha.throwIn"));
    this.result = h("div", { class: "lk-result", hidden: true });

    // A player's steps (passing, the ready and next buttons, throwing in) sit above their hand, in
    // the seat that stays on screen; someone watching sees the passing in the centre.
    this.steps = h("div", { class: "lk-steps" }, this.nextBtn, this.throwBtn);
    const mine = ctx.you !== null && ctx.you !== undefined;
    if (mine) this.hand.before(this.passBox, this.reveal, this.steps);
    this.center = h("div", { class: "lk-center" }, this.header, this.teamsLine, this.decided, this.status,
      mine ? null : this.passBox, mine ? null : this.reveal, this.trickBox, this.trickNote, this.result);
  }

  seat(i) {
    return this.seatEls[i].root;
  }

  destroy() {
    clearTimeout(this.armed);
  }

  legal(type) {
    return (this.g?.legal || []).filter((a) => a.type === type);
  }

  handCard(card) {
    const btn = h("button", { type: "button", class: "lk-hand-card", "data-card": card, "aria-label": cardName(card),
      onclick: () => this.pick(card) }, cardFace(card));
    btn.firstChild.removeAttribute("role");
    btn.firstChild.removeAttribute("aria-label");
    return btn;
  }

  paintCard(btn, card) {
    const g = this.g;
    const passing = g.phase === "PASS_SELECT" && this.legal("submit_pass").length > 0;
    const playable = new Set(this.legal("play_card").map((a) => a.card));
    const myTurn = g.phase === "PLAY" && playable.size > 0;
    const chosen = passing && this.selected.has(card);
    setAttr(btn, "aria-pressed", passing ? String(chosen) : null);
    // Dimmed: what cannot be passed with the cards chosen, or played now; idle cards only say so to assistive tech.
    const blocked = passing ? !chosen && !this.couldPass(card) : myTurn && !playable.has(card);
    setAttr(btn, "aria-disabled", blocked || (!passing && !myTurn) ? "true" : null);
    toggle(btn, "blocked", blocked);
    toggle(btn, "legal", myTurn && playable.has(card));
    toggle(btn, "forced", myTurn && playable.size === 1 && playable.has(card));
    toggle(btn, "chosen", chosen || (g.phase === "PASS_SELECT" && (g.pass || []).includes(card)));
    toggle(btn, "received", (g.received || []).includes(card) && g.phase !== "PASS_SELECT");
    toggle(btn, "fresh", (g.received || []).includes(card) && g.phase === "PASS_REVEAL");
  }

  /** Whether some legal pass holds the current choice plus ``card``. */
  couldPass(card) {
    const want = [...this.selected, card];
    if (want.length > 3) return false;
    return this.legal("submit_pass").some((a) => want.every((c) => a.cards.includes(c)));
  }

  pick(card) {
    const g = this.g;
    if (!g) return;
    if (g.phase === "PASS_SELECT" && this.legal("submit_pass").length) {
      if (this.selected.has(card)) this.selected.delete(card);
      else if (this.selected.size < 3) this.selected.add(card);
      else return toast(t("leekha.passPicked", { n: 3 }), "info", 2000);
      this.paint();
    } else if (g.phase === "PLAY") {
      // Not a legal card? The server says why (the room shows its reject).
      this.ctx.act({ type: "play_card", card });
    }
  }

  submitPass() {
    if (this.selected.size !== 3) return;
    const cards = [...this.selected];
    this.ctx.act({ type: "submit_pass", cards }).then((reply) => {
      if (reply.type === "ack") this.selected.clear();
      this.paint();
    });
  }

  throwIn() {
    if (!this.armed) {
      setText(this.throwBtn, t("leekha.throwConfirm"));
      this.armed = setTimeout(() => { this.armed = null; setText(this.throwBtn, t("leekha.throwIn")); }, 4000);
      return;
    }
    clearTimeout(this.armed);
    this.armed = null;
    setText(this.throwBtn, t("leekha.throwIn"));
    this.ctx.act({ type: "throw_in" });
  }

  endMatch() {
    this.endBtn.disabled = true;
    lobby.end(this.view.room.code).catch((err) => toast(err.message)).finally(() => { this.endBtn.disabled = false; });
  }

  update(view) {
    this.view = view;
    const g = view.game;
    if (this.g && (this.g.round !== g.round || g.phase !== "PASS_SELECT")) this.selected.clear();
    this.g = g;
    this.paint();
  }

  paint() {
    const g = this.g;
    const view = this.view;
    const names = this.ctx.names();
    const you = this.ctx.you;
    const teams = g.mode === "teams";
    setAttr(this.center, "data-phase", g.phase);
    setAttr(this.center, "data-round", g.round);
    setAttr(this.center, "data-turn", g.turn);
    setAttr(this.center, "data-played", g.tricks_done * 4 + g.trick.length);
    setText(this.header, t(teams ? "leekha.headerTeams" : "leekha.header", { round: g.round, limit: g.limit }));
    show(this.teamsLine, teams);
    if (teams) setText(this.teamsLine, [0, 1].map((k) => t("leekha.teamLine", { t: TEAM[k], names: listNames([k, k + 2], names) })).join(" · "));

    g.seats.forEach((s, i) => this.paintSeat(i, s, g, view.room.seats[i], names));
    this.listHand(g.hand, (c) => c);
    toggle(this.hand, "passing", g.phase === "PASS_SELECT" && this.legal("submit_pass").length > 0);

    this.paintDecided(g, view, names);
    setText(this.status, this.statusText(g, names, you));
    this.paintPass(g, names, you);
    this.paintReveal(g, names, you);
    this.paintTrick(g, names);
    const canThrow = this.legal("throw_in").length > 0;
    show(this.throwBtn, canThrow);
    if (!canThrow && this.armed) { clearTimeout(this.armed); this.armed = null; setText(this.throwBtn, t("leekha.throwIn")); }
    this.paintResult(g, names);
  }

  paintSeat(i, s, g, member, names) {
    const el = this.seatEls[i];
    show(el.team, s.team !== null);
    if (s.team !== null) {
      setText(el.team, t("leekha.team", { t: TEAM[s.team] }));
      setAttr(el.root, "data-team", TEAM[s.team]);
    }
    let mark = "";
    if (g.phase === "PASS_SELECT") mark = s.passed ? t("leekha.hasPassed") : t("leekha.choosing");
    else if (g.phase === "PASS_REVEAL" || g.phase === "ROUND_END") mark = s.acked ? t("leekha.ready") : "";
    setText(el.mark, mark);
    show(el.mark, Boolean(mark));
    toggle(el.mark, "done", mark && mark !== t("leekha.choosing"));
    const bot = member?.standin ? t("leekha.standin", { name: member.name }) : member?.bot ? t("leekha.bot") : "";
    setText(el.bot, bot);
    show(el.bot, Boolean(bot));
    show(el.turn, g.phase === "PLAY" && g.turn === i);
    if (el.fan.childElementCount !== s.cards) {
      setKids(el.fan, Array.from({ length: s.cards }, () => h("div", { class: "card back" })));
    }
    const key = s.taken.join();
    if (el.takenKey !== key) {
      el.takenKey = key;
      setKids(el.taken, s.taken.length ? s.taken.map((c) => cardFace(c, "mini")) : [h("span", { class: "muted" }, t("leekha.nothing"))]);
    }
    toggle(el.took, "none", !s.taken.length && !s.tricks);
    const bits = [s.tricks ? t("leekha.tricks", { n: s.tricks }) : "", s.points ? t("leekha.roundPts", { n: s.points }) : ""];
    setText(el.pts, bits.filter(Boolean).join(" · "));
    setAttr(el.root, "aria-label", `${names[i]}: ${t("leekha.taken")} ${s.taken.length ? cardList(s.taken) : t("leekha.nothing")}`);
  }

  statusText(g, names, you) {
    const seated = you !== null && you !== undefined;
    if (g.phase === "PLAY") {
      if (g.turn !== you) return t("leekha.turnOf", { name: names[g.turn] });
      const cards = this.legal("play_card").map((a) => a.card);
      if (!g.trick.length) return t("leekha.yourLead");
      if (cards.length === 1 && g.hand.length > 1) return t("leekha.forced", { card: plainName(cards[0]) });
      return t("leekha.yourTurn");
    }
    if (g.phase === "PASS_SELECT" && !seated) return t("leekha.waitPass", { names: listNames(g.seats.map((s, i) => (s.passed ? -1 : i)).filter((i) => i >= 0), names) });
    if (g.phase === "ROUND_END") return t("leekha.roundOver", { round: g.round });
    return "";
  }

  paintDecided(g, view, names) {
    const d = g.decided && g.phase === "PLAY" ? g.decided : null;
    show(this.decided, Boolean(d));
    if (!d) return;
    const host = isHost(view);
    const key = `${d.seat}|${host}`;
    if (this.decidedKey === key) return;
    this.decidedKey = key;
    setKids(this.decided, [h("p", {}, t("leekha.decided", { name: names[d.seat], limit: g.limit })),
      host ? this.endBtn : h("p", { class: "muted" }, t("leekha.hostMay"))]);
  }

  paintPass(g, names, you) {
    const choosing = this.legal("submit_pass").length > 0;
    const passed = g.phase === "PASS_SELECT" && g.pass;
    show(this.passBox, choosing || Boolean(passed));
    if (!choosing && !passed) return;
    const to = names[right(you)];
    if (choosing) {
      const keep = g.pass_rule?.must_keep || [];
      const n = this.selected.size;
      setText(this.passPicked, t("leekha.passPicked", { n }));
      const ok = n === 3 && this.legal("submit_pass").some((a) => a.cards.every((c) => this.selected.has(c)));
      show(this.passBad, n === 3 && !ok);
      this.passBtn.disabled = n !== 3;
      const key = `choose|${to}|${keep.join("")}`;
      if (this.passKey !== key) {
        this.passKey = key;
        setKids(this.passBox, [h("h3", {}, t("leekha.passTitle", { name: to })),
          keep.length ? h("p", { class: "muted" }, t("leekha.passKeep", { colours: keep.map((c) => t(`leekha.colour.${c}`)).join(", ") })) : null,
          h("div", { class: "row" }, this.passBtn, this.passPicked), this.passBad]);
      }
    } else {
      const waiting = g.seats.map((s, i) => (s.passed ? -1 : i)).filter((i) => i >= 0);
      const key = `done|${g.pass.join()}|${waiting.join()}`;
      if (this.passKey !== key) {
        this.passKey = key;
        setKids(this.passBox, [h("p", {}, t("leekha.passed", { cards: cardList(g.pass), name: to })),
          h("div", { class: "lk-row" }, g.pass.map((c) => cardFace(c))),
          waiting.length ? h("p", { class: "muted" }, t("leekha.waitPass", { names: listNames(waiting, names) })) : null]);
      }
    }
  }

  paintReveal(g, names, you) {
    const on = g.phase === "PASS_REVEAL" && g.received.length > 0;
    show(this.reveal, on);
    if (!on) return;
    const canAck = this.legal("ack").length > 0;
    const waiting = g.seats.map((s, i) => (s.acked ? -1 : i)).filter((i) => i >= 0);
    const key = `${g.received.join()}|${canAck}|${waiting.join()}`;
    if (this.revealKey === key) return;
    this.revealKey = key;
    setKids(this.reveal, [h("p", {}, t("leekha.received", { name: names[left(you)] })),
      h("div", { class: "lk-row" }, g.received.map((c) => cardFace(c, "fresh"))),
      canAck ? this.readyBtn : h("p", { class: "muted" }, t("leekha.waitAck", { names: listNames(waiting, names) }))]);
  }

  paintTrick(g, names) {
    const live = g.trick.length > 0;
    const last = !live && g.last_trick && (g.phase === "PLAY" || g.phase === "ROUND_END" || g.phase === "MATCH_END")
      ? g.last_trick : null;
    const shown = live ? g.trick : last ? last.cards : [];
    const on = g.phase === "PLAY" || Boolean(last);
    show(this.trickBox, on);
    toggle(this.trickBox, "done", Boolean(last));
    const leader = shown.length ? shown[0].seat : null;
    this.slots.forEach((slot, i) => {
      const play = shown.find((p) => p.seat === i);
      const card = play ? play.card : null;
      if (slot.shown !== card) {
        slot.shown = card;
        setKids(slot.card, [card ? cardFace(card, live ? "flip-in" : "") : h("div", { class: "card empty", "aria-hidden": "true" })]);
      }
      setText(slot.who, i === leader ? `${names[i]} · ${t("leekha.led")}` : names[i]);
      toggle(slot.root, "leader", i === leader);
      toggle(slot.root, "won", Boolean(last) && last.winner === i);
      toggle(slot.root, "turn", g.phase === "PLAY" && g.turn === i);
    });
    setAttr(this.trickBox, "aria-label", leader !== null ? t("leekha.ledBy", { name: names[leader] }) : t("leekha.yourLead"));
    let note = "";
    if (live) note = t("leekha.ledBy", { name: names[leader] });
    else if (last && g.last?.kind === "rule37") note = t("leekha.rule37", { name: names[last.winner] });
    else if (last) note = t("leekha.lastTrick", { name: names[last.winner], n: last.points });
    setText(this.trickNote, on ? note : "");
    toggle(this.trickNote, "big", Boolean(last) && g.last?.kind === "rule37");
  }

  paintResult(g, names) {
    const over = g.phase === "ROUND_END" || g.phase === "MATCH_END";
    show(this.result, over);
    if (!over) return;
    const lines = [];
    const lastEvent = g.last;
    if (lastEvent?.kind === "throw_in") lines.push(t("leekha.threwIn", { name: names[lastEvent.seat], n: lastEvent.points }));
    if (g.phase === "MATCH_END" && g.result) {
      if (g.result.early) lines.push(t("leekha.early"));
      const losers = g.result.losers;
      lines.push(g.mode === "teams"
        ? t("leekha.teamLost", { t: TEAM[losers[0] % 2], names: listNames(losers, names) })
        : t("leekha.lost", { names: listNames(losers, names) }));
    }
    const canAck = this.legal("ack").length > 0;
    const waiting = g.phase === "ROUND_END" && !canAck ? g.seats.map((s, i) => (s.acked ? -1 : i)).filter((i) => i >= 0) : [];
    show(this.nextBtn, g.phase === "ROUND_END" && canAck);
    const key = `${g.round}|${g.phase}|${lines.join()}|${canAck}|${waiting.join()}`;
    if (this.resultKey === key) return;
    this.resultKey = key;
    setKids(this.result, [lines.map((line) => h("p", { class: "lk-line" }, line)),
      waiting.length ? h("p", { class: "muted" }, t("leekha.waitAck", { names: listNames(waiting, names) })) : null]);
  }
}

function lastEvents(prev, g, names) {
  const e = g.last;
  if (!e || (prev.last && prev.last.at === e.at && prev.last.kind === e.kind && prev.last.seat === e.seat
    && prev.last.card === e.card)) return [];
  const name = names[e.seat];
  switch (e.kind) {
    case "deal": return [t("ev.leekha.deal", { round: g.round })];
    case "pass": return [t(e.auto ? "ev.leekha.passAuto" : "ev.leekha.pass", { name })];
    case "passed": return [t("ev.leekha.passedWatch")];
    case "play_started": return [t("ev.leekha.start", { name })];
    case "play": return [t(e.auto ? "ev.leekha.auto" : "ev.leekha.play", { name, card: plainName(e.card) })];
    case "trick": return [t(e.auto ? "ev.leekha.auto" : "ev.leekha.play", { name, card: plainName(e.card) }),
      t("ev.leekha.trick", { name: names[e.winner], n: e.points })];
    case "rule37": return [t("ev.leekha.play", { name, card: plainName(e.card) }), t("leekha.rule37", { name: names[e.winner] })];
    case "throw_in": return [t("leekha.threwIn", { name, n: e.points })];
    case "early_end": return [t("leekha.early")];
    default: return [];
  }
}

export default {
  id: "leekha",
  basicOptions: ["mode"],
  layout: "wide",

  createTable(ctx) {
    return new LeekhaTable(ctx);
  },

  lobbyPanel(ctx) {
    return new TeamsPanel(ctx);
  },

  // Passing and the "got it" / "next" acknowledgements wait for everyone, not only the player to play.
  yourMove(g) {
    return (g.legal || []).some((a) => ["play_card", "submit_pass", "ack"].includes(a.type));
  },

  stats(g, seat) {
    const s = g.seats[seat];
    if (!s) return {};
    const over = g.phase === "ROUND_END" || g.phase === "MATCH_END";
    return {
      count: s.cards,
      score: g.scores[seat],
      turn: g.phase === "PLAY" && g.turn === seat,
      extra: !over && s.points ? t("leekha.roundPts", { n: s.points }) : "",
    };
  },

  timers(g, names) {
    if (g.deadline === null || g.deadline === undefined) return [];
    const label = {
      PASS_SELECT: t("cd.leekha.pass"),
      PASS_REVEAL: t("cd.leekha.reveal"),
      PLAY: g.turn === g.you ? t("cd.leekha.you") : t("cd.leekha.turn", { name: names[g.turn] }),
      ROUND_END: t("cd.leekha.round"),
    }[g.phase];
    return label ? [{ key: `${g.phase}-${g.round}-${g.turn}`, at: g.deadline, label }] : [];
  },

  events(prev, g, names) {
    if (!prev) return [];
    const out = lastEvents(prev, g, names);
    // Said apart from the last event: several steps may arrive in one view.
    if (g.received.length && !prev.received.length) {
      out.push(t("ev.leekha.passed", { cards: cardList(g.received), name: names[left(g.you)] }));
    }
    if (g.history.length > prev.history.length) {
      const r = g.history[g.history.length - 1];
      out.push(t("ev.leekha.round", { round: r.round, list: r.points.map((p, i) => `${names[i]} ${signed(p)}`).join(", ") }));
    }
    if (g.decided && !prev.decided) out.push(t("ev.leekha.decided", { name: names[g.decided.seat], limit: g.limit }));
    if (g.phase === "MATCH_END" && prev.phase !== "MATCH_END" && g.result) {
      out.push(g.mode === "teams"
        ? t("leekha.teamLost", { t: TEAM[g.result.losers[0] % 2], names: listNames(g.result.losers, names) })
        : t("leekha.lost", { names: listNames(g.result.losers, names) }));
    }
    return out;
  },

  scores(g, names) {
    if (!g.history.length) return null;
    const teams = g.mode === "teams";
    return {
      columns: names.map((n, i) => (teams ? `${n} (${TEAM[i % 2]})` : n)),
      rows: g.history.map((r) => ({
        label: r.end === "complete" ? t("scores.roundN", { n: r.round })
          : `${t("scores.roundN", { n: r.round })} (${t(`leekha.end.${r.end}`)})`,
        cells: r.points.map((p, i) => ({
          value: signed(p),
          detail: [r.bl_taker === i ? t("leekha.bl") : "", r.sl_taker === i ? t("leekha.sl") : ""].filter(Boolean).join(" · "),
        })),
      })),
      totals: g.scores,
      winners: g.result ? g.result.places.map((p, i) => (p === 1 ? i : -1)).filter((i) => i >= 0) : [],
      show: g.phase === "ROUND_END" || g.phase === "MATCH_END",
      final: g.phase === "MATCH_END",
    };
  },
};

/** The lobby's teams panel (2 vs 2): the host pairs the players, everyone sees the pairs. */
class TeamsPanel {
  constructor(ctx) {
    this.ctx = ctx;
    this.list = h("ul", { class: "lk-team-list" });
    this.partner = h("select", { id: "lk-partner" });
    this.partnerLabel = h("label", { for: "lk-partner" });
    this.setBtn = h("button", { type: "button", class: "btn", onclick: () => this.save() }, t("leekha.teams.set"));
    this.hostRow = h("div", { class: "row" }, this.partnerLabel, this.partner, this.setBtn);
    this.wait = h("p", { class: "muted" }, t("leekha.teams.wait"));
    this.el = h("div", { class: "panel lk-teams-panel", hidden: true },
      h("h2", {}, t("leekha.teams.title")), h("p", { class: "muted" }, t("leekha.teams.intro")), this.list, this.hostRow, this.wait);
  }

  update(view) {
    this.view = view;
    const room = view.room;
    const on = room.options?.mode === "teams";
    show(this.el, on);
    if (!on) return;
    const seats = room.seats;
    const name = (s) => s?.name ?? t("leekha.teams.nobody");
    const key = seats.map((s) => s?.player_id ?? "").join();
    if (this.key !== key) {
      this.key = key;
      setKids(this.list, [0, 1].map((k) => h("li", { "data-team": TEAM[k] },
        h("span", { class: "lk-team" }, t("leekha.team", { t: TEAM[k] })), " ", `${name(seats[k])} & ${name(seats[k + 2])}`)));
      const full = seats.length === 4 && seats.every(Boolean);
      if (full) {
        setText(this.partnerLabel, t("leekha.teams.partner", { name: seats[0].name }));
        setKids(this.partner, seats.slice(1).map((s) => h("option", { value: s.player_id }, s.name)));
        this.partner.value = seats[2].player_id;
      }
    }
    const full = seats.length === 4 && seats.every(Boolean);
    const host = room.host === this.ctx.me;
    show(this.hostRow, host && full);
    show(this.wait, !full);
  }

  save() {
    const seats = this.view.room.seats;
    const first = seats[0].player_id;
    const mate = this.partner.value;
    const others = seats.map((s) => s.player_id).filter((id) => id !== first && id !== mate);
    this.setBtn.disabled = true;
    lobby.teams(this.ctx.code, [[first, mate], others])
      .then(() => toast(t("leekha.teams.done"), "info", 2500), (err) => toast(err.message))
      .finally(() => { this.setBtn.disabled = false; });
  }
}
