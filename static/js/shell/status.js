// The connection indicator in the header: online / connecting / reconnecting in n s / closed.
import { h, setAttr, setText } from "../dom.js";
import { t } from "../i18n.js";

export class ConnectionStatus {
  constructor(retryNow) {
    this.el = document.getElementById("conn");
    this.dot = h("span", { class: "dot", "aria-hidden": "true" });
    this.text = h("span", { class: "conn-text" });
    this.retry = h("button", { type: "button", class: "link", hidden: true, onclick: retryNow }, t("conn.retry"));
    this.el.replaceChildren(this.dot, this.text, this.retry);
    this.el.hidden = false;
    this.timer = null;
  }

  update(state, info = {}, rtt = null) {
    clearInterval(this.timer);
    this.timer = null;
    setAttr(this.el, "data-state", state);
    this.retry.hidden = state !== "reconnecting" || !info.at;
    if (state === "online") setText(this.text, t("conn.online"));
    else if (state === "connecting") setText(this.text, t("conn.connecting"));
    else if (state === "closed") setText(this.text, t("conn.closed"));
    else if (state === "reconnecting" && info.at) {
      const paint = () => {
        const s = Math.max(0, Math.ceil((info.at - performance.now()) / 1000));
        setText(this.text, t("conn.retryIn", { s }));
      };
      paint();
      this.timer = setInterval(paint, 500);
    } else setText(this.text, t("conn.reconnecting"));
    setAttr(this.el, "title", rtt !== null && state === "online" ? t("conn.rtt", { ms: Math.round(rtt) }) : null);
  }

  destroy() {
    clearInterval(this.timer);
    this.el.hidden = true;
    this.el.replaceChildren();
  }
}
