// A room page (/r/CODE): the WebSocket connection, then the lobby and/or the table shell
// with the game's table view, re-rendered in place from each patched view.
import { player } from "./api.js";
import { RoomConnection } from "./connection.js";
import { h, setKids } from "./dom.js";
import { hasGame, loadGame } from "./games/index.js";
import { errorText, t } from "./i18n.js";
import { nameCard, showWho } from "./identity.js";
import { Lobby } from "./lobby.js";
import { setTitle } from "./shell/alerts.js";
import { EventLog } from "./shell/log.js";
import { ConnectionStatus } from "./shell/status.js";
import { TableShell, shellKey } from "./shell/table.js";
import { announce, toast } from "./shell/toasts.js";

export class RoomPage {
  constructor(root, code, { navigate }) {
    this.root = root;
    this.code = code;
    this.navigate = navigate;
    this.rendered = null;
    setTitle(t("room.docTitle", { code }));
    if (!player.get()) this.askName();
    else this.start();
  }

  askName() {
    showWho(null);
    this.root.replaceChildren(h("div", { class: "narrow" },
      nameCard({ title: t("room.joinTitle", { code: this.code }), intro: t("room.joinIntro"), onDone: () => this.start() })));
  }

  start() {
    const me = player.get();
    this.me = me;
    showWho(null);
    this.notice = h("div", { class: "notice", hidden: true, role: "alert" });
    this.loading = h("p", { class: "muted loading" }, t("room.loading"));
    this.tableBox = h("div", { class: "table-box" });
    this.lobbyBox = h("div", { class: "lobby-box" });
    this.log = new EventLog();
    this.root.replaceChildren(h("div", { class: "room" }, this.notice, this.loading, this.tableBox, this.lobbyBox));
    this.conn = new RoomConnection(this.code, me.token, {
      view: (view, prev, reason) => this.onView(view, prev, reason),
      state: (state, info) => this.status?.update(state, info, this.conn?.rtt ?? null),
      reply: (msg) => toast(errorText(msg.code, msg.message)),
      error: (msg) => this.onError(msg),
    });
    this.status = new ConnectionStatus(() => this.conn.retryNow());
    this.conn.start();
  }

  destroy() {
    this.destroyed = true;
    this.conn?.stop();
    this.status?.destroy();
    this.shell?.destroy();
    document.getElementById("who").replaceChildren();
  }

  onError(msg) {
    if (this.destroyed) return;
    if (msg.code === "LEFT") return this.navigate("/");
    if (msg.code === "BAD_TOKEN" || msg.code === "AUTH_REQUIRED") {
      player.clear();
      this.conn.stop();
      this.status.destroy();
      return this.askName();
    }
    if (msg.code === "REMOVED" || msg.code === "UNKNOWN_ROOM") {
      this.loading.hidden = true;
      this.notice.hidden = false;
      setKids(this.notice, [h("p", {}, msg.code === "REMOVED" ? t("room.removed") : t("room.unknown", { code: this.code })),
        h("a", { href: "/", "data-nav": true, class: "btn" }, t("room.home"))]);
      this.tableBox.replaceChildren();
      this.lobbyBox.replaceChildren();
      return;
    }
    toast(errorText(msg.code, msg.message));
  }

  async onView(view, prev, reason) {
    this.view = view;
    if (this.module === undefined) {
      this.module = null;
      const id = view.room.game;
      this.module = hasGame(id) ? await loadGame(id).catch(() => null) : null;
      this.moduleReady = true;
    }
    if (!this.moduleReady || this.destroyed) return;
    this.render(reason);
  }

  render(reason) {
    const view = this.view;
    const prev = this.rendered;
    this.rendered = view;
    this.loading.hidden = true;
    const room = view.room;
    setTitle(t("room.docTitleGame", { title: room.title, code: room.code }));

    // The table: whenever a game exists (running or finished).
    if (view.game && this.module) {
      if (!this.shell || this.shell.key !== shellKey(view)) {
        this.shell?.destroy();
        this.shell = new TableShell(this.module, view, { conn: this.conn, log: this.log, me: this.me.id });
        this.tableBox.replaceChildren(this.shell.el);
        this.shell.update(view, null);
        // A table opens at its top (title and timers), not where the lobby was scrolled to.
        window.scrollTo(0, 0);
      } else this.shell.update(view, prev);
    } else if (view.game && !this.module) {
      this.tableBox.replaceChildren(h("p", { class: "notice" }, t("room.noTable", { title: room.title })));
    } else if (this.shell) {
      this.shell.destroy();
      this.shell = null;
    }

    // The lobby: before a game, and between games.
    if (room.status !== "playing") {
      if (!this.lobby) {
        this.lobby = new Lobby({ code: this.code, me: this.me.id, module: this.module, onLeave: () => this.navigate("/") });
      }
      if (!this.lobbyBox.firstChild) this.lobbyBox.replaceChildren(this.lobby.el);
      this.lobby.update(view);
    } else if (this.lobbyBox.firstChild) this.lobbyBox.replaceChildren();
    this.roomEvents(prev, view, reason);
  }

  roomEvents(prev, view, reason) {
    if (!prev) {
      const text = t("ev.joined", { title: view.room.title, code: view.room.code });
      if (this.shell) this.log.add(text);
      else announce(text);
      return;
    }
    const before = prev.room;
    const now = view.room;
    const byId = (room) => new Map([...room.seats.filter(Boolean), ...room.spectators].map((m) => [m.player_id, m]));
    const old = byId(before);
    const cur = byId(now);
    const out = [];
    for (const [id, m] of cur) {
      const was = old.get(id);
      if (!was) out.push(t("ev.arrived", { name: m.name }));
      else if (was.connected !== m.connected) out.push(m.connected ? t("ev.back", { name: m.name }) : t("ev.away", { name: m.name }));
    }
    for (const [id, m] of old) if (!cur.has(id)) out.push(t("ev.gone", { name: m.name }));
    now.seats.forEach((s, i) => {
      const was = before.seats[i];
      if (s && (!was || was.player_id !== s.player_id) && now.status === "lobby") out.push(t("ev.sat", { name: s.name, n: i + 1 }));
    });
    if (before.status !== now.status && now.status === "playing") out.push(t("ev.started", { title: now.title }));
    if (reason === "resync" || reason === "reset") out.push(t("ev.resynced"));
    for (const text of out) {
      if (this.shell) this.log.add(text);
      else announce(text);
    }
  }
}
