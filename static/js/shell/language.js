// The header's language switch. The choice is kept per device; the page reloads so that every
// string, number and plural is drawn again in the new language.
import { h, loadStyle } from "../dom.js";
import { LANGUAGES, language, remember, t } from "../i18n.js";

export function mountLanguageSwitch() {
  loadStyle("/static/css/help.css");
  const select = h("select", { id: "lang-select", class: "lang-select", "aria-label": t("lang.label") },
    Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code, selected: code === language() }, name)));
  select.addEventListener("change", () => {
    remember(select.value);
    location.reload();
  });
  document.getElementById("who").before(select);
  return select;
}
