// Leaving and ending a running game, around every game's table: Leave (a bot plays the seat at
// once), Take my seat back, Resign (two-player games), and the host's End game and Remove (a
// player who left). Each asks before it acts; the server's refusals come back as toasts.
import { lobby } from "../api.js";
import { h, loadStyle, setKids, setText } from "../dom.js";
import { addStrings, t } from "../i18n.js";
import { toast } from "./toasts.js";

loadStyle("/static/css/leaving.css");

addStrings("en", {
  "leave.controls": "Leave or end the game",
  "leave.leave": "Leave table",
  "leave.leaveConfirm": "Leave this game? A bot plays your seat from now on; you can come back and take it again.",
  "leave.back": "Take my seat back",
  "leave.resign": "Resign",
  "leave.resignConfirm": "Resign this game? {name} wins.",
  "leave.end": "End game",
  "leave.endConfirm": "End this game for everyone now? The scores so far stand and nobody wins.",
  "leave.remove": "Remove {name}",
  "leave.removeConfirm": "Remove {name}, who left the game? A bot plays the seat to the end.",
  "leave.youLeft": "You left this game; a bot plays your seat.",
  "leave.byHost": "The host ended the game; the scores so far stand.",
  "leave.resigned": "{name} resigned; {winner} wins.",
});

/** What the controls show for this view (also the key that says when to draw them again). */
function state(view, me) {
  const room = view.room;
  const g = view.game;
  const running = room.status === "playing";
  const mine = room.seats.findIndex((s) => s && s.player_id === me);
  const seat = mine < 0 ? null : room.seats[mine];
  const host = room.host === me;
  return {
    leave: running && seat !== null && !seat.left,
    back: running && seat !== null && seat.left && !seat.removed ? mine : null,
    resign: running && seat !== null && !seat.left && g.seats.length === 2,
    end: running && host,
    remove: running && host ? room.seats.filter((s) => s && s.left && !s.removed) : [],
    stopped: g.stopped || null,
  };
}

export class TableControls {
  constructor({ conn, me }) {
    this.conn = conn;
    this.me = me;
    this.key = null;
    this.note = h("p", { class: "table-note", role: "status" });
    this.buttons = h("div", { class: "table-controls", role: "group", "aria-label": t("leave.controls") });
    this.el = h("div", { class: "table-leaving" }, this.note, this.buttons);
  }

  update(view) {
    this.view = view;
    const s = state(view, this.me);
    const key = JSON.stringify(s);
    if (key === this.key) return;
    this.key = key;
    const names = view.room.seats.map((seat, i) => seat?.name || t("seat.n", { n: i + 1 }));
    setText(this.note, this.noteText(s, names));
    const code = view.room.code;
    setKids(this.buttons, [
      s.back !== null ? this.button("leave.back", "primary", null, () => lobby.sit(code, s.back, {})) : null,
      s.leave ? this.button("leave.leave", "", t("leave.leaveConfirm"), () => lobby.leave(code)) : null,
      s.resign ? this.button("leave.resign", "danger", t("leave.resignConfirm", { name: names[1 - view.game.you] }),
        () => this.resign()) : null,
      ...s.remove.map((seat) => this.button("leave.remove", "", t("leave.removeConfirm", { name: seat.name }),
        () => lobby.remove(code, seat.player_id), { name: seat.name })),
      s.end ? this.button("leave.end", "danger", t("leave.endConfirm"), () => lobby.endGame(code)) : null,
    ]);
  }

  noteText(s, names) {
    if (s.stopped?.by === "host") return t("leave.byHost");
    if (s.stopped?.by === "resign") return t("leave.resigned", { name: names[s.stopped.seat], winner: names[1 - s.stopped.seat] });
    if (s.back !== null) return t("leave.youLeft");
    return "";
  }

  button(key, kind, question, run, params = {}) {
    return h("button", { type: "button", class: `btn small ${kind}`.trim(), onclick: async (event) => {
      if (question !== null && !window.confirm(question)) return;
      event.target.disabled = true;
      try {
        await run();
      } catch (err) {
        toast(err.message || err.code);
      } finally {
        event.target.disabled = false;
      }
    } }, t(key, params));
  }

  async resign() {
    // A refusal comes back through the connection's own answer handling (a toast).
    await this.conn.act({ type: "resign" });
  }
}
