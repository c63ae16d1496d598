// The room before (and between) games: seats with presence, spectators, the shared link,
// and the host's controls (start, options, public/private, seat a bot, remove a player or bot),
// plus the game's own panel when its table module has one (lobbyPanel, see games/index.js).
import { games, lobby } from "./api.js";
import { h, keyedList, setAttr, setKids, setText, show, toggle } from "./dom.js";
import { t } from "./i18n.js";
import { optionsForm } from "./options-form.js";
import { helpButton } from "./shell/help.js";
import { positions } from "./shell/ring.js";
import { hasRaces } from "./shell/races.js";
import { toast } from "./shell/toasts.js";

export class Lobby {
  /** ctx: {code, me: player id, module (game table module or null), onLeave()} */
  constructor(ctx) {
    this.ctx = ctx;
    this.code = ctx.code;
    this.gamePanel = ctx.module?.lobbyPanel?.({ code: ctx.code, me: ctx.me }) || null;
    this.rows = [];
    this.title = h("h1", {});
    this.state = h("p", { class: "lobby-state", role: "status" });
    const link = `${location.origin}/r/${this.code}`;
    this.linkInput = h("input", { type: "text", id: "share-link", readonly: true, value: link, class: "link-input" });
    this.linkInput.addEventListener("focus", () => this.linkInput.select());
    const copy = h("button", { type: "button", class: "btn", onclick: () => this.copy() }, t("lobby.copy"));
    this.seatList = h("ol", { class: "lobby-seats" });
    this.prefsBox = h("div", { class: "my-prefs", hidden: true });
    this.sitBtn = h("button", { type: "button", class: "btn primary", onclick: () => this.sit(null) }, t("lobby.sit"));
    this.watchBtn = h("button", { type: "button", class: "btn", onclick: () => this.run(lobby.watch(this.code)) }, t("lobby.watch"));
    this.leaveBtn = h("button", { type: "button", class: "btn", onclick: () => this.leave() }, t("lobby.leave"));
    this.startBtn = h("button", { type: "button", class: "btn primary big", onclick: () => this.start() }, t("lobby.start"));
    this.publicBox = h("input", { type: "checkbox", id: "lobby-public",
      onchange: () => this.run(lobby.configure(this.code, { public: this.publicBox.checked })) });
    this.linksNote = h("p", { class: "links-note", role: "note", hidden: true });
    this.hostBox = h("div", { class: "host-box", hidden: true },
      h("div", { class: "field check" }, h("label", { for: "lobby-public" }, t("lobby.public")), this.publicBox),
      this.linksNote);
    this.optionsBox = h("div", {});
    this.saveBtn = h("button", { type: "button", class: "btn", hidden: true, onclick: () => this.saveOptions() }, t("lobby.save"));
    this.spectators = h("ul", { class: "spectators" });
    this.noSpectators = h("p", { class: "muted" }, t("lobby.noSpectators"));
    this.listSpectators = keyedList(this.spectators, (s) => this.spectatorRow(s), (li, s) => this.updateSpectator(li, s));
    this.el = h("section", { class: "lobby", "aria-labelledby": "lobby-title" },
      h("div", { class: "lobby-head" }, this.title, this.state, ctx.module ? helpButton(ctx.module.id) : null),
      h("div", { class: "panel share" },
        h("label", { for: "share-link" }, t("lobby.share")),
        h("div", { class: "row nowrap" }, this.linkInput, copy)),
      h("div", { class: "panel seats-panel" },
        h("h2", {}, t("lobby.seats")), this.seatList, this.prefsBox,
        h("div", { class: "row" }, this.sitBtn, this.watchBtn, this.leaveBtn)),
      this.gamePanel?.el,
      this.startPanel = h("div", { class: "panel start-panel" }, h("div", { class: "row" }, this.startBtn), this.hostBox),
      h("details", { class: "panel options" }, h("summary", {}, h("h2", {}, t("lobby.options"))), this.optionsBox,
        h("div", { class: "row" }, this.saveBtn)),
      h("div", { class: "panel" }, h("h2", {}, t("lobby.spectators")), this.spectators, this.noSpectators));
    this.title.id = "lobby-title";
  }

  run(promise) {
    return promise.catch((err) => toast(err.message));
  }

  async copy() {
    const text = this.linkInput.value;
    try {
      await navigator.clipboard.writeText(text);
      toast(t("lobby.copied"), "info", 2500);
    } catch {
      this.linkInput.focus();
      this.linkInput.select();
      toast(t("lobby.copyManual"), "info", 4000);
    }
  }

  sit(seat) {
    const room = this.view.room;
    const mySeat = this.mySeat();
    const target = seat ?? mySeat;
    const current = mySeat !== null ? room.seats[mySeat]?.prefs : null;
    const prefs = current && Object.keys(current).length ? current
      : this.ctx.module?.prefs?.defaults(room.seats, target ?? -1) || {};
    return this.run(lobby.sit(this.code, seat, prefs));
  }

  leave() {
    lobby.leave(this.code).then(() => this.ctx.onLeave(), (err) => toast(err.message));
  }

  start() {
    this.startBtn.disabled = true;
    lobby.start(this.code).catch((err) => {
      toast(err.message);
      this.startBtn.disabled = false;
    });
  }

  mySeat() {
    const i = this.view.room.seats.findIndex((s) => s && s.player_id === this.ctx.me);
    return i < 0 ? null : i;
  }

  removeButton(getMember) {
    const btn = h("button", { type: "button", class: "btn small danger" }, t("lobby.remove"));
    let armed = null;
    btn.addEventListener("click", () => {
      const member = getMember();
      if (!member) return;
      if (!armed) {
        btn.textContent = t("lobby.removeConfirm", { name: member.name });
        armed = setTimeout(() => { armed = null; btn.textContent = t("lobby.remove"); }, 3000);
        return;
      }
      clearTimeout(armed);
      armed = null;
      btn.textContent = t("lobby.remove");
      this.run(lobby.remove(this.code, member.player_id));
    });
    return btn;
  }

  seatRow(i) {
    const row = {};
    row.badge = h("span", { class: "badge" });
    row.name = h("span", { class: "name" });
    row.tags = h("span", { class: "tags" });
    row.presence = h("span", { class: "presence" });
    row.sit = h("button", { type: "button", class: "btn small", onclick: () => this.sit(i) });
    row.remove = this.removeButton(() => this.view.room.seats[i]);
    row.bot = h("button", { type: "button", class: "btn small", "aria-label": t("lobby.addBotAt", { seat: t("seat.n", { n: i + 1 }) }),
      onclick: () => this.run(lobby.addBot(this.code, i)) }, t("lobby.addBot"));
    row.li = h("li", { class: "lobby-seat", "data-seat": i },
      h("span", { class: "seat-no" }, t("seat.n", { n: i + 1 })), row.badge,
      h("span", { class: "who" }, row.name, row.tags, row.presence), row.sit, row.bot, row.remove);
    return row;
  }

  spectatorRow(s) {
    const li = h("li", {});
    li.name = h("span", { class: "name" });
    li.presence = h("span", { class: "presence" });
    li.removeBtn = this.removeButton(() => this.view.room.spectators.find((x) => x.player_id === s.player_id));
    li.append(li.name, li.presence, li.removeBtn);
    return li;
  }

  updateSpectator(li, s) {
    const room = this.view.room;
    setText(li.name, s.player_id === this.ctx.me ? t("lobby.youName", { name: s.name }) : s.name);
    setText(li.presence, s.connected ? t("presence.online") : t("presence.away"));
    toggle(li.presence, "on", s.connected);
    show(li.removeBtn, room.host === this.ctx.me && s.player_id !== this.ctx.me);
  }

  update(view) {
    this.view = view;
    const room = view.room;
    const me = this.ctx.me;
    const isHost = room.host === me;
    const mySeat = this.mySeat();
    const seated = room.seats.filter(Boolean).length;
    const finished = room.status === "finished";
    const hostName = [...room.seats, ...room.spectators].find((m) => m && m.player_id === room.host)?.name || "?";
    setText(this.title, t("lobby.title", { title: room.title, code: room.code }));
    let state;
    if (seated < room.min_players) state = t("lobby.waiting", { n: seated, min: room.min_players });
    else if (isHost) state = finished ? t("lobby.againHost") : t("lobby.readyHost");
    else state = t("lobby.readyOther", { name: hostName });
    setText(this.state, state);
    toggle(this.state, "waiting", seated < room.min_players);

    if (this.rows.length !== room.seats.length) {
      const count = room.seats.length;
      this.rows = room.seats.map((_, i) => this.seatRow(i));
      // Up to four seats sit around a drawn table (seat 1 at the bottom, then clockwise).
      const around = count <= 4;
      this.seatList.className = around ? `lobby-seats around n${count}` : "lobby-seats";
      if (around) positions(count, 0).forEach((pos, i) => this.rows[i].li.classList.add(`pos-${pos}`));
      this.tableMid = around ? h("li", { class: "table-mid", "aria-hidden": "true" }, room.title) : null;
      setKids(this.seatList, [...this.rows.map((r) => r.li), this.tableMid]);
    }
    const prefs = this.ctx.module?.prefs;
    const preview = prefs ? prefs.preview(room.seats) : [];
    room.seats.forEach((s, i) => {
      const row = this.rows[i];
      setText(row.name, s ? s.name : t("seat.free"));
      toggle(row.li, "free", !s);
      toggle(row.li, "me", s && s.player_id === me);
      setText(row.tags, [s && s.player_id === me ? t("tag.you") : "", s && s.player_id === room.host ? t("tag.host") : "",
        s?.bot ? t("tag.bot") : "", s?.standin ? t("tag.standin", { name: s.name }) : ""]
        .filter(Boolean).join(" · "));
      toggle(row.li, "bot", s?.bot);
      setText(row.presence, s && !s.bot ? (s.connected ? t("presence.online") : t("presence.away")) : "");
      toggle(row.presence, "on", s?.connected);
      const badgeKey = preview[i] || "";
      if (row.badgeKey !== badgeKey) {
        row.badgeKey = badgeKey;
        setKids(row.badge, [badgeKey && prefs ? prefs.badge(badgeKey) : null]);
      }
      show(row.sit, !s);
      setText(row.sit, mySeat === null ? t("lobby.sitHere") : t("lobby.moveHere"));
      setAttr(row.sit, "aria-label", `${mySeat === null ? t("lobby.sitHere") : t("lobby.moveHere")} (${t("seat.n", { n: i + 1 })})`);
      show(row.bot, isHost && !s && room.status !== "playing");
      show(row.remove, isHost && s && s.player_id !== me);
    });

    // My seat preferences (Slap: my colour).
    show(this.prefsBox, Boolean(prefs && mySeat !== null));
    if (prefs && mySeat !== null) {
      const current = preview[mySeat];
      const taken = prefs.taken(room.seats, mySeat);
      const key = `${current}|${[...taken].sort().join("")}`;
      if (this.prefsKey !== key) {
        this.prefsKey = key;
        const focused = document.activeElement?.dataset?.colour;
        setKids(this.prefsBox, [h("span", { class: "label" }, prefs.label()),
          prefs.chooser(current, taken, (p) => this.run(lobby.sit(this.code, mySeat, p)))]);
        if (focused) this.prefsBox.querySelector(`[data-colour="${focused}"]`)?.focus();
      }
    } else this.prefsKey = null;

    const free = room.seats.some((s) => !s);
    show(this.sitBtn, mySeat === null && free);
    show(this.watchBtn, mySeat !== null);

    show(this.startPanel, isHost);
    setText(this.startBtn, finished ? t("lobby.again") : t("lobby.start"));
    this.startBtn.disabled = seated < room.min_players;
    show(this.hostBox, isHost);
    this.publicBox.checked = room.public;
    // Where the server has no round trip a client cannot delay, races rest on each player's own
    // pongs: the host is told, and may rank by arrival order or lower the credit cap.
    const reported = (room.reported_links || []).map((seat) => room.seats[seat]?.name).filter(Boolean);
    show(this.linksNote, isHost && hasRaces(room) && reported.length > 0);
    setText(this.linksNote, reported.length ? t("lobby.reportedLinks", { names: reported.join(", ") }) : "");

    this.gamePanel?.update(view);
    this.listSpectators(room.spectators, (s) => s.player_id);
    show(this.noSpectators, room.spectators.length === 0);
    this.updateOptions(room, isHost);
  }

  async updateOptions(room, isHost) {
    if (!this.form) {
      if (this.loadingForm) return;
      this.loadingForm = true;
      const info = (await games().catch(() => [])).find((g) => g.id === room.game);
      if (!info) return;
      this.form = optionsForm(room.game, info.options_schema, room.options, { basic: this.ctx.module?.basicOptions || [] });
      this.form.el.addEventListener("input", () => this.markDirty());
      this.form.el.addEventListener("change", () => this.markDirty());
      this.optionsBox.replaceChildren(this.form.el);
      this.formOptions = JSON.stringify(room.options);
      room = this.view.room;
      isHost = room.host === this.ctx.me;
    }
    this.form.setDisabled(!isHost);
    show(this.saveBtn, isHost);
    const changed = JSON.stringify(room.options);
    if (changed !== this.formOptions && !this.dirty) {
      this.form.write(room.options);
      this.formOptions = changed;
    }
    this.saveBtn.disabled = !this.dirty;
  }

  markDirty() {
    this.dirty = Object.keys(this.form.changed(this.view.room.options)).length > 0;
    this.saveBtn.disabled = !this.dirty;
  }

  async saveOptions() {
    const changes = this.form.changed(this.view.room.options);
    if (!Object.keys(changes).length) return;
    this.saveBtn.disabled = true;
    try {
      await lobby.configure(this.code, { options: changes });
      this.dirty = false;
      this.saveBtn.disabled = true;
      toast(t("lobby.saved"), "info", 2500);
    } catch (err) {
      toast(err.message);
      this.saveBtn.disabled = false;
    }
  }
}
