// The event log: newest first, bounded; every entry is also announced (polite live region).
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { announce } from "./toasts.js";

const KEEP = 60;

export class EventLog {
  constructor() {
    this.list = h("ul", { class: "log-list" });
    this.el = h("section", { class: "panel log", "aria-labelledby": "log-title" },
      h("h2", { id: "log-title" }, t("log.title")), this.list);
  }

  /** entry: a string, or {text, say} when screen readers should hear other words than shown. */
  add(entry, { kind = "", quiet = false } = {}) {
    const text = typeof entry === "string" ? entry : entry?.text;
    if (!text) return;
    const li = h("li", { class: kind }, text);
    this.list.prepend(li);
    while (this.list.children.length > KEEP) this.list.lastElementChild.remove();
    if (!quiet) announce(typeof entry === "string" ? text : entry.say || text);
  }
}
