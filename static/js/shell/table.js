// The table shell every game shares: title bar with countdowns, the players ring around the
// game's own centre, score tables, the event log and "verify the deal". The game module
// (games/*.js) draws what is on the table; everything around it lives here.
import { h, setKids, setText, show, toggle } from "../dom.js";
import { t } from "../i18n.js";
import { TurnAlert, soundSwitch } from "./alerts.js";
import { Countdowns } from "./countdown.js";
import { TableControls } from "./leaving.js";
import { helpButton } from "./help.js";
import { hintFor } from "./hints.js";
import { Ring } from "./ring.js";
import { scoreTable } from "./scores.js";
import { announce } from "./toasts.js";
import { openVerify } from "./verify.js";

export function seatNames(view, count) {
  return Array.from({ length: count }, (_, i) => view.room.seats[i]?.name || t("seat.n", { n: i + 1 }));
}

export class TableShell {
  /** ctx: {conn, log, me, replay}: replay is set on a replay page (nothing to act on, no link to itself). */
  constructor(module, view, ctx) {
    const g = view.game;
    this.module = module;
    this.ctx = ctx;
    this.view = view;
    this.count = g.seats.length;
    this.you = g.you ?? null;
    this.key = shellKey(view);
    this.table = module.createTable({
      act: (action, options) => ctx.conn.act(action, options),
      now: () => ctx.conn.now(),
      you: this.you,
      count: this.count,
      names: () => seatNames(this.view, this.count),
      announce,
    });
    this.countdowns = new Countdowns(() => ctx.conn.now());
    this.controls = new TableControls({ conn: ctx.conn, me: ctx.me });
    this.alert = new TurnAlert(() => ctx.conn.now());
    this.title = h("h1", { class: "table-title" });
    this.sub = h("p", { class: "table-sub" });
    this.hint = h("p", { class: "table-hint", role: "note" });
    this.felt = h("div", { class: `felt n${this.count} ${module.layout || ""}`.trim() }, h("div", { class: "center" }, this.table.center));
    this.ring = new Ring(this.felt, this.count, this.you, (i) => this.table.seat(i));
    this.scoresBody = h("div", { class: "scores-body" });
    this.scores = h("details", { class: "panel scores", hidden: true },
      h("summary", {}, h("h2", {}, t("scores.title"))), this.scoresBody);
    this.watchers = h("p", { class: "watchers" });
    this.verify = h("button", { type: "button", class: "link verify-link", hidden: true,
      onclick: () => this.view.room.match && openVerify(this.view.room.match) }, t("verify.link"));
    this.replayLink = h("a", { class: "link replay-link", "data-nav": true, hidden: true }, t("replay.link"));
    this.el = h("section", { class: "table-shell" },
      h("div", { class: "table-bar" }, h("div", { class: "titles" }, this.title, this.sub, this.hint), this.countdowns.el,
        helpButton(view.room.game, { compact: true })),
      this.felt, this.scores, ctx.log.el,
      // Below the felt: leaving and ending are rare, and above it they pushed the seats under your
      // hand bar on a phone.
      h("footer", { class: "table-foot" }, this.controls.el, this.watchers, soundSwitch(), this.verify, this.replayLink));
  }

  update(view, prev) {
    this.view = view;
    const g = view.game;
    const room = view.room;
    const names = seatNames(view, this.count);
    setText(this.title, t("table.title", { title: room.title, code: room.code }));
    const bits = [];
    if (typeof g.round === "number" && typeof g.rounds === "number") bits.push(t("table.round", { round: g.round, rounds: g.rounds }));
    else if (typeof g.round === "number") bits.push(t("table.roundOnly", { round: g.round }));
    if (this.you === null) bits.push(t("table.watching"));
    if (room.status === "finished") bits.push(t("table.finished"));
    setText(this.sub, bits.join(" · "));
    const hint = hintFor(room.game, g);
    setText(this.hint, hint);
    this.hint.title = hint || "";
    this.ring.update(view, this.you, (seat) => this.module.stats(g, seat));
    this.table.update(view, prev && prev.game ? prev : null);
    const timers = this.module.timers(g, names);
    this.countdowns.update(timers);
    this.controls.update(view);
    const yours = !this.ctx.replay && room.status === "playing" && this.yourMove(g);
    this.alert.update(yours, timers.filter((timer) => !timer.minor));
    this.updateScores(g, names);
    const watching = room.spectators.map((s) => s.name);
    setText(this.watchers, watching.length ? t("table.spectators", { names: watching.join(", ") }) : "");
    show(this.verify, Boolean(room.match));
    setText(this.verify, room.match?.seed ? t("verify.linkReady") : t("verify.link"));
    // The end-of-game screen offers the replay (not the replay itself).
    const replayable = room.status === "finished" && room.match && !this.ctx.replay;
    show(this.replayLink, Boolean(replayable));
    if (replayable) this.replayLink.setAttribute("href", `/m/${room.match.id}`);
    if (prev && prev.game) for (const text of this.module.events(prev.game, g, names)) this.ctx.log.add(text);
  }

  /** Whether the table waits for this player: their turn, or a step everyone takes (the module says). */
  yourMove(g) {
    if (this.you === null) return false;
    if (this.module.yourMove) return this.module.yourMove(g);
    return Boolean(this.module.stats(g, this.you)?.turn);
  }

  updateScores(g, names) {
    const data = this.module.scores(g, names);
    const key = data ? JSON.stringify(data) : "";
    if (key === this.scoresKey) return;
    const wasShown = this.scoresShown;
    this.scoresKey = key;
    this.scoresShown = Boolean(data?.show);
    show(this.scores, Boolean(data));
    if (!data) return;
    setKids(this.scoresBody, [
      data.final ? h("p", { class: "final" }, t("scores.final")) : null,
      scoreTable(data),
    ]);
    toggle(this.scores, "highlight", data.show);
    if (data.show && !wasShown) {
      this.scores.open = true;
      this.scores.scrollIntoView?.({ block: "nearest" });
    } else if (!data.show && wasShown) this.scores.open = false;
  }

  destroy() {
    this.countdowns.destroy();
    this.alert.destroy();
    this.table.destroy?.();
    this.el.remove();
  }
}

export function shellKey(view) {
  const g = view.game;
  return `${view.room.game}/${view.room.match?.id ?? "-"}/${g.seats.length}/${g.you ?? "-"}`;
}
