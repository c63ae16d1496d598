// Countdowns to server deadlines. Deadlines are room-clock ms; `now()` is the room clock as
// measured by clock sync (local performance.now() + offset), so every screen counts alike.
import { h, setAttr, setText, show } from "../dom.js";
import { num, t } from "../i18n.js";

export function formatMs(ms) {
  const left = Math.max(0, ms);
  if (left < 10000) return t("time.s", { s: num(Math.ceil(left / 100) / 10, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });
  const s = Math.ceil(left / 1000);
  return t("time.ms", { m: Math.floor(s / 60), s: String(s % 60).padStart(2, "0") });
}

export class Countdowns {
  constructor(now) {
    this.now = now;
    this.el = h("div", { class: "timers" });
    this.items = new Map(); // key -> {row, label, value, bar, at, total}
    this.timer = null;
  }

  /** timers: [{key, at, label, minor, after}] (at = room-clock ms; after: shown instead of the
   * label and a zero once the time is up while the game goes on, e.g. a match's last round). */
  update(timers) {
    const keep = new Set();
    for (const timer of timers) {
      if (timer.at === null || timer.at === undefined) continue;
      keep.add(timer.key);
      let item = this.items.get(timer.key);
      if (!item) {
        const label = h("span", { class: "t-label" });
        const value = h("span", { class: "t-value" });
        const bar = h("span", { class: "t-bar" }, h("span"));
        const row = h("div", { class: `timer${timer.minor ? " minor" : ""}`, role: "timer", "aria-live": "off" },
          label, " ", value, timer.minor ? null : bar);
        item = { row, label, value, bar, at: null, text: "", after: null };
        this.items.set(timer.key, item);
        this.el.append(row);
      }
      if (item.at !== timer.at) {
        item.at = timer.at;
        item.total = Math.max(1, timer.at - this.now());
      }
      item.text = timer.label;
      item.after = timer.after || null;
    }
    for (const [key, item] of this.items) {
      if (!keep.has(key)) {
        item.row.remove();
        this.items.delete(key);
      }
    }
    show(this.el, this.items.size > 0);
    this.paint();
    if (this.items.size && !this.timer) this.timer = setInterval(() => this.paint(), 100);
    if (!this.items.size && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  paint() {
    const now = this.now();
    for (const item of this.items.values()) {
      const left = item.at - now;
      const over = left <= 0 && item.after !== null;
      setText(item.label, over ? item.after : item.text);
      setText(item.value, over ? "" : formatMs(left));
      const fill = item.bar.firstChild;
      if (fill) setAttr(fill, "style", `width:${Math.max(0, Math.min(100, (100 * left) / item.total)).toFixed(1)}%`);
    }
  }

  destroy() {
    clearInterval(this.timer);
    this.timer = null;
  }
}
