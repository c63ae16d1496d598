// Picking a display name once per device: POST /api/players, token kept in localStorage.
import { lobby, player } from "./api.js";
import { h, setText } from "./dom.js";
import { t } from "./i18n.js";

export function nameCard({ title, intro, onDone, onCancel, initial = "" }) {
  const input = h("input", { type: "text", id: "name-input", name: "name", maxlength: 40, required: true,
    autocomplete: "nickname", value: initial, placeholder: t("name.placeholder") });
  const error = h("p", { class: "error", role: "alert" });
  const submit = h("button", { type: "submit", class: "btn primary" }, t("name.save"));
  const form = h("form", { class: "panel name-card", "aria-labelledby": "name-title" },
    h("h2", { id: "name-title" }, title || t("name.title")),
    h("p", { class: "muted" }, intro || t("name.intro")),
    h("div", { class: "field" }, h("label", { for: "name-input" }, t("name.label")), input),
    error,
    h("div", { class: "row" }, submit,
      onCancel ? h("button", { type: "button", class: "btn", onclick: onCancel }, t("name.cancel")) : null));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (!name) {
      setText(error, t("name.empty"));
      input.focus();
      return;
    }
    submit.disabled = true;
    try {
      const p = await lobby.createPlayer(name);
      onDone(p);
    } catch (err) {
      setText(error, err.message);
      submit.disabled = false;
    }
  });
  setTimeout(() => input.focus(), 0);
  return form;
}

/** The header's "playing as" line. */
export function showWho(onChange) {
  const who = document.getElementById("who");
  const me = player.get();
  if (!me) {
    who.replaceChildren();
    return;
  }
  who.replaceChildren(h("span", { class: "muted" }, t("who.as")), " ", h("strong", {}, me.name));
  if (onChange) who.append(h("button", { type: "button", class: "link", onclick: onChange }, t("who.change")));
}
