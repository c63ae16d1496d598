// Home: your name, open rooms, create a room (game, generated options form, public/private),
// join by code or link.
import { games, lobby, player } from "./api.js";
import { h, keyedList, setText, show } from "./dom.js";
import { loadGame } from "./games/index.js";
import { t } from "./i18n.js";
import { nameCard, showWho } from "./identity.js";
import { optionsForm } from "./options-form.js";
import { rulesPanel } from "./shell/help.js";
import { toast } from "./shell/toasts.js";

const REFRESH_MS = 5000;

export class HomePage {
  constructor(root, { navigate }) {
    this.root = root;
    this.navigate = navigate;
    this.timer = null;
    document.title = t("app.title");
    this.render();
  }

  destroy() {
    clearInterval(this.timer);
    this.destroyed = true;
    document.getElementById("who").replaceChildren();
  }

  render() {
    const me = player.get();
    showWho(me ? () => this.askName(me.name) : null);
    this.rooms = h("ul", { class: "room-list", "aria-live": "off" });
    this.noRooms = h("p", { class: "muted" }, t("home.noRooms"));
    const list = keyedList(this.rooms, (room) => {
      const link = h("a", { href: room.link, "data-nav": true, class: "room-link" });
      const li = h("li", {}, link);
      li.link = link;
      return li;
    }, (li, room) => {
      li.link.setAttribute("href", `/r/${room.code}`);
      setText(li.link, t("home.roomLine", { title: room.title, code: room.code, n: room.players, max: room.max_players }));
    });
    this.listRooms = list;
    const openRooms = h("section", { class: "panel open-rooms", "aria-labelledby": "open-title" },
      h("div", { class: "row between" }, h("h2", { id: "open-title" }, t("home.open")),
        h("button", { type: "button", class: "btn small", onclick: () => this.refresh() }, t("home.refresh"))),
      this.rooms, this.noRooms);
    const hero = h("div", { class: "hero" }, h("h1", {}, t("home.title")), h("p", { class: "muted" }, t("home.tagline")));
    if (!me) {
      this.root.replaceChildren(h("div", { class: "home" }, hero,
        nameCard({ onDone: () => this.render() }), openRooms, rulesPanel()));
    } else {
      this.root.replaceChildren(h("div", { class: "home" }, hero,
        h("div", { class: "home-grid" }, this.createPanel(), this.joinPanel(), openRooms, this.matchesPanel(), rulesPanel())));
    }
    this.refresh();
    clearInterval(this.timer);
    this.timer = setInterval(() => document.visibilityState === "visible" && this.refresh(), REFRESH_MS);
  }

  /** The player's own recent matches: a finished one opens its replay, a running one its room. */
  matchesPanel() {
    const list = h("ul", { class: "match-list" });
    const none = h("p", { class: "muted", hidden: true }, t("matches.none"));
    lobby.myMatches().then(({ matches }) => {
      if (this.destroyed) return;
      show(none, matches.length === 0);
      list.replaceChildren(...matches.map((m) => {
        const finished = m.status === "finished";
        const when = finished ? new Date(m.finished_at).toLocaleString() : t("matches.running");
        return h("li", {}, h("a", { href: finished ? `/m/${m.id}` : `/r/${m.room}`, "data-nav": true },
          t("matches.line", { title: m.title, room: m.room, when })));
      }));
    }).catch(() => show(none, true));
    return h("section", { class: "panel my-matches", "aria-labelledby": "matches-title" },
      h("h2", { id: "matches-title" }, t("matches.title")), list, none);
  }

  askName(current) {
    this.root.replaceChildren(h("div", { class: "home" },
      nameCard({ title: t("name.changeTitle"), intro: t("name.changeIntro"), initial: current,
        onDone: () => this.render(), onCancel: () => this.render() })));
  }

  async refresh() {
    try {
      const { rooms } = await lobby.openRooms(); // the newest page is enough to pick a table from
      if (this.destroyed) return;
      this.listRooms(rooms, (r) => r.code);
      show(this.noRooms, rooms.length === 0);
    } catch {
      /* the list is a convenience; the next refresh tries again */
    }
  }

  createPanel() {
    const gameSelect = h("select", { id: "game-select", name: "game" });
    const optionsBox = h("div", { class: "options-box" });
    const isPublic = h("input", { type: "checkbox", id: "room-public", checked: true });
    const create = h("button", { type: "submit", class: "btn primary" }, t("home.create"));
    const error = h("p", { class: "error", role: "alert" });
    let form = null;
    let catalogue = [];
    const showOptions = async () => {
      const info = catalogue.find((g) => g.id === gameSelect.value);
      if (!info) return;
      const module = await loadGame(info.id).catch(() => null);
      form = optionsForm(info.id, info.options_schema, {}, { basic: module?.basicOptions || [] });
      optionsBox.replaceChildren(h("details", { class: "options" },
        h("summary", {}, t("home.options", { title: info.title })), form.el));
    };
    games().then((list) => {
      catalogue = list;
      gameSelect.replaceChildren(...list.map((g) => h("option", { value: g.id },
        t("home.gameOption", { title: g.title, min: g.min_players, max: g.max_players }))));
      showOptions();
    }).catch((err) => setText(error, err.message));
    gameSelect.addEventListener("change", showOptions);
    const panel = h("form", { class: "panel create", "aria-labelledby": "create-title" },
      h("h2", { id: "create-title" }, t("home.new")),
      h("div", { class: "field" }, h("label", { for: "game-select" }, t("home.game")), gameSelect),
      optionsBox,
      h("div", { class: "field check" }, h("label", { for: "room-public" }, t("home.public")), isPublic,
        h("small", { class: "help" }, t("home.publicHelp"))),
      error,
      h("div", { class: "row" }, create));
    panel.addEventListener("submit", async (e) => {
      e.preventDefault();
      if (!form) return;
      create.disabled = true;
      setText(error, "");
      try {
        const room = await lobby.createRoom(gameSelect.value, form.read(), isPublic.checked);
        this.navigate(`/r/${room.code}`);
      } catch (err) {
        if (err.code === "BAD_TOKEN") return this.render(); // this server forgot us: pick a name again
        setText(error, err.message);
        create.disabled = false;
      }
    });
    return panel;
  }

  joinPanel() {
    const code = h("input", { type: "text", id: "join-code", name: "code", autocomplete: "off", autocapitalize: "characters",
      spellcheck: "false", maxlength: 200, placeholder: t("home.codePlaceholder"), required: true });
    const form = h("form", { class: "panel join", "aria-labelledby": "join-title" },
      h("h2", { id: "join-title" }, t("home.join")),
      h("div", { class: "field" }, h("label", { for: "join-code" }, t("home.code")), code),
      h("div", { class: "row" }, h("button", { type: "submit", class: "btn" }, t("home.joinBtn"))));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      // A pasted link works as well as a bare code.
      const raw = code.value.trim();
      const match = raw.match(/\/r\/([A-Za-z0-9]+)/) || raw.match(/^([A-Za-z0-9]+)$/);
      if (!match) {
        toast(t("home.badCode"));
        return;
      }
      this.navigate(`/r/${match[1].toUpperCase()}`);
    });
    return form;
  }
}
