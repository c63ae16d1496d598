// Toasts (role=alert for errors) and the polite ARIA live region for game events.
import { h } from "../dom.js";
import { t } from "../i18n.js";

const MAX = 3;

export function toast(message, kind = "error", ms = 5000) {
  // At the table a player's toasts stand in their own seat, above the hand, where they push the
  // buttons aside instead of covering them.
  const box = document.querySelector(".toast-dock") || document.getElementById("toasts");
  if (!box || !message) return null;
  const el = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" },
    h("span", { class: "msg" }, message),
    h("button", { type: "button", class: "x", "aria-label": t("toast.close"), onclick: () => el.remove() }, "×"));
  box.append(el);
  while (box.children.length > MAX) box.firstElementChild.remove();
  setTimeout(() => el.remove(), ms);
  return el;
}

let queued = [];
let flushing = false;

/** Say something to screen readers (polite); several calls in one turn become one message. */
export function announce(text) {
  if (!text) return;
  queued.push(text);
  if (flushing) return;
  flushing = true;
  setTimeout(() => {
    const live = document.getElementById("live");
    if (live) live.textContent = queued.join(" ");
    queued = [];
    flushing = false;
  }, 50);
}
