// "Verify the deal": the server committed to sha256(seed) before dealing and reveals the seed at
// the end; the browser recomputes the hash itself.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { sha256hex } from "../sha256.js";

export function openVerify(match) {
  const result = h("p", { class: "verify-result", role: "status" });
  const close = h("button", { type: "button", class: "btn", onclick: () => dialog.close() }, t("verify.close"));
  const dialog = h("dialog", { class: "verify", "aria-labelledby": "verify-title" },
    h("h2", { id: "verify-title" }, t("verify.title")),
    h("p", {}, t("verify.explain")),
    h("dl", {},
      h("dt", {}, t("verify.hash")), h("dd", {}, h("code", { class: "hash" }, match.seed_hash)),
      h("dt", {}, t("verify.seed")),
      h("dd", {}, match.seed ? h("code", { class: "seed" }, match.seed) : t("verify.hidden"))),
    result,
    h("div", { class: "row end" }, close));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
  if (!match.seed) return dialog;
  result.textContent = t("verify.checking");
  sha256hex(match.seed).then((hash) => {
    const ok = hash === match.seed_hash;
    result.className = `verify-result ${ok ? "ok" : "bad"}`;
    result.replaceChildren(t("verify.computed"), " ", h("code", { class: "hash" }, hash), " ",
      h("strong", {}, ok ? t("verify.ok") : t("verify.bad")));
  });
  return dialog;
}
