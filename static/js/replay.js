// A finished match step by step (/m/ID): the server rebuilds every view from the match's log
// (GET /api/matches/ID/replay); the game's own table module draws it inside the shared shell,
// as the chosen seat or a spectator saw it, with every hand shown since the match is over.
import { api, games } from "./api.js";
import { h, setKids, setText } from "./dom.js";
import { loadGame } from "./games/index.js";
import { t } from "./i18n.js";
import { EventLog } from "./shell/log.js";
import { TableShell } from "./shell/table.js";

const PAGE = 50; // steps fetched at once (the server allows up to 200)
const SPEEDS = [700, 250, 60]; // ms per step while playing

export class ReplayPage {
  constructor(root, id, { navigate }) {
    this.root = root;
    this.id = id;
    this.navigate = navigate;
    this.frames = new Map();
    this.step = 0;
    this.timer = null;
    document.title = t("replay.docTitle", { id });
    this.notice = h("div", { class: "notice", role: "alert", hidden: true });
    this.root.replaceChildren(h("div", { class: "replay" }, this.notice, h("p", { class: "muted loading" }, t("room.loading"))));
    this.load();
  }

  destroy() {
    this.destroyed = true;
    this.pause();
    this.shell?.destroy();
  }

  fail(err) {
    this.pause();
    this.notice.hidden = false;
    setKids(this.notice, [h("p", {}, err.message || err.code), h("a", { href: "/", "data-nav": true, class: "btn" }, t("room.home"))]);
    this.root.querySelector(".loading")?.remove();
  }

  async load() {
    try {
      this.match = await api("GET", `/api/matches/${this.id}`);
      this.module = await loadGame(this.match.game).catch(() => null);
      const info = (await games().catch(() => [])).find((g) => g.id === this.match.game);
      this.title = info ? info.title : this.match.game;
    } catch (err) {
      return this.fail(err);
    }
    if (this.destroyed) return;
    const m = this.match;
    this.last = m.events;
    this.names = m.players.map((p) => p.name);
    this.seat = h("select", { id: "replay-seat", onchange: () => this.reseat() },
      h("option", { value: "" }, t("replay.asSpectator")),
      m.players.map((p) => h("option", { value: String(p.seat) }, t("replay.asSeat", { name: p.name, n: p.seat + 1 }))));
    const button = (label, icon, onclick) => h("button", { type: "button", class: "btn small", "aria-label": label, title: label, onclick }, icon);
    this.playBtn = button(t("replay.play"), "▶", () => (this.timer ? this.pause() : this.play()));
    this.speed = h("select", { id: "replay-speed", "aria-label": t("replay.speed") },
      SPEEDS.map((ms, i) => h("option", { value: String(ms) }, t("replay.speedN", { n: 2 ** (2 * i) }))));
    this.seek = h("input", { type: "range", id: "replay-seek", min: "0", max: String(this.last), value: "0",
      oninput: () => this.go(Number(this.seek.value)) });
    this.counter = h("p", { class: "replay-step", role: "status" });
    this.what = h("div", { class: "replay-event" });
    this.hands = h("div", { class: "replay-hands" });
    this.tableBox = h("div", { class: "table-box" });
    this.log = new EventLog();
    this.root.replaceChildren(h("div", { class: "replay" }, this.notice,
      h("section", { class: "panel replay-bar", "aria-label": t("replay.controls") },
        h("h1", {}, t("replay.title", { title: this.title, id: m.id })),
        h("div", { class: "row" }, h("label", { for: "replay-seat" }, t("replay.as")), this.seat),
        h("div", { class: "row" },
          button(t("replay.first"), "|◀◀", () => this.go(0)),
          button(t("replay.back"), "◀|", () => this.go(this.step - 1)),
          this.playBtn,
          button(t("replay.forward"), "|▶", () => this.go(this.step + 1)),
          button(t("replay.lastStep"), "▶▶|", () => this.go(this.last)),
          this.speed),
        h("div", { class: "row" }, h("label", { for: "replay-seek" }, t("replay.seek")), this.seek),
        this.counter, this.what),
      this.tableBox, h("section", { class: "panel" }, h("h2", {}, t("replay.hands")), this.hands)));
    await this.go(0);
  }

  reseat() {
    this.frames.clear();
    this.shell?.destroy();
    this.shell = null;
    this.go(this.step);
  }

  async frame(step) {
    if (!this.frames.has(step)) {
      const start = step - (step % PAGE);
      const seat = this.seat.value === "" ? "" : `&seat=${this.seat.value}`;
      const page = await api("GET", `/api/matches/${this.id}/replay?start=${start}&limit=${PAGE}${seat}`);
      for (const f of page.frames) this.frames.set(f.step, f);
    }
    return this.frames.get(step);
  }

  async go(step) {
    const target = Math.max(0, Math.min(this.last, step));
    let frame;
    try {
      frame = await this.frame(target);
    } catch (err) {
      return this.fail(err);
    }
    if (this.destroyed) return;
    const prev = this.shown && this.shown.step === target - 1 ? this.shown : null;
    this.step = target;
    this.shown = frame;
    this.render(frame, prev);
    if (target === this.last) this.pause();
  }

  play() {
    if (this.step >= this.last) this.go(0);
    setText(this.playBtn, "||");
    this.playBtn.setAttribute("aria-label", t("replay.pause"));
    this.timer = setInterval(() => this.go(this.step + 1), Number(this.speed.value));
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    if (!this.playBtn) return;
    setText(this.playBtn, "▶");
    this.playBtn.setAttribute("aria-label", t("replay.play"));
  }

  /** The room part of a view, as the table shell reads it, rebuilt from the audit record. */
  roomOf(frame) {
    const m = this.match;
    return {
      code: m.room, game: m.game, title: this.title,
      status: frame.step === this.last ? "finished" : "playing",
      seats: m.players.map((p) => ({ seat: p.seat, player_id: `seat-${p.seat}`, name: p.name, prefs: p.prefs,
        bot: p.bot, standin: false, connected: true })),
      spectators: [],
      match: { id: m.id, seed_hash: m.seed_hash, seed: m.seed, started_at: m.started_at, result: m.result },
    };
  }

  render(frame, prev) {
    const now = frame.event ? frame.event.at : this.match.started_at;
    // Nobody acts in a replay: the view is shown as it was, without its offers.
    const view = { room: this.roomOf(frame), game: { ...frame.view, legal: [] }, replay: true };
    if (this.module) {
      const key = `${view.room.game}/${this.seat.value}`;
      if (!this.shell || this.shellKey !== key) {
        this.shell?.destroy();
        this.shellKey = key;
        const conn = { act: async () => ({ type: "reject", code: "REPLAY", message: t("replay.readOnly") }), now: () => this.now };
        this.shell = new TableShell(this.module, view, { conn, log: this.log, replay: true });
        this.tableBox.replaceChildren(this.shell.el);
        prev = null;
      }
      this.now = now;
      this.shell.update(view, prev ? { room: view.room, game: { ...prev.view, legal: [] } } : null);
    } else this.tableBox.replaceChildren(h("p", { class: "notice" }, t("room.noTable", { title: this.match.game })));
    setText(this.counter, t("replay.step", { n: frame.step, total: this.last }));
    if (Number(this.seek.value) !== frame.step) this.seek.value = String(frame.step);
    setKids(this.what, this.describe(frame));
    setKids(this.hands, [h("ul", { class: "hand-list" }, frame.hands.map((hand, i) =>
      h("li", {}, h("strong", {}, this.names[i]), " ",
        Array.isArray(hand) ? (hand.length ? hand.join(" ") : t("replay.noCards")) : t("replay.noHand"))))]);
  }

  describe(frame) {
    const ev = frame.event;
    if (!ev) return [h("p", {}, t("replay.deal"))];
    let line;
    if (ev.kind === "tick") line = t("replay.tick", { at: ev.at });
    else if (ev.kind === "end") line = t("replay.ended", { at: ev.at });
    else {
      const who = this.names[ev.seat] ?? t("seat.n", { n: ev.seat + 1 });
      line = t(ev.by === "standin" ? "replay.moveStandin" : "replay.move", { name: who, action: JSON.stringify(ev.action), at: ev.at });
    }
    const out = [h("p", { class: "replay-what" }, line)];
    for (const ruling of ev.rulings || []) {
      out.push(h("details", { class: "replay-ruling", open: true },
        h("summary", {}, t("replay.ruling", { race: ruling.race ?? "", winner: this.names[ruling.winner] ?? "?" })),
        h("pre", {}, JSON.stringify(ruling, null, 1))));
    }
    if (ev.timing) out.push(h("details", { class: "replay-timing" }, h("summary", {}, t("replay.timing")), h("pre", {}, JSON.stringify(ev.timing, null, 1))));
    return out;
  }
}
