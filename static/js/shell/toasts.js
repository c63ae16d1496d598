// Toasts (role=alert for errors) and the polite ARIA live region for game events.
import { h } from "../dom.js";
import { t } from "../i18n.js";

const MAX = 3;

export function toast(message, kind = "error", ms = 5000) {
  // At the table a player's toasts lie over the name line of their own seat (see app.css), where
  // they cover no button; there only the latest shows, its full text also in its tooltip.
  const dock = document.querySelector(".toast-dock");
  const box = dock || document.getElementById("toasts");
  if (!box || !message) return null;
  const el = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" },
    h("span", { class: "msg", title: dock ? message : null }, message),
    h("button", { type: "button", class: "x", "aria-label": t("toast.close"), onclick: () => el.remove() }, "×"));
  box.append(el);
  while (box.children.length > (dock ? 1 : MAX)) box.firstElementChild.remove();
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
