// Entry point: a tiny router ("/" home, "/r/CODE" a room, "/m/ID" a finished match's replay) with in-page navigation.
import { HomePage } from "./home.js";
import { applyDocumentLanguage, t } from "./i18n.js";
import { ReplayPage } from "./replay.js";
import { mountLanguageSwitch } from "./shell/language.js";
import { RoomPage } from "./room.js";

const app = document.getElementById("app");
let page = null;

export function navigate(path, { replace = false } = {}) {
  if (path === location.pathname && !replace) return route();
  history[replace ? "replaceState" : "pushState"]({}, "", path);
  route();
}

function route() {
  page?.destroy();
  page = null;
  window.scrollTo(0, 0);
  const match = location.pathname.match(/^\/r\/([A-Za-z0-9]{1,16})\/?$/);
  const replay = location.pathname.match(/^\/m\/([0-9]{1,10})\/?$/);
  if (match) page = new RoomPage(app, match[1].toUpperCase(), { navigate });
  else if (replay) page = new ReplayPage(app, replay[1], { navigate });
  else page = new HomePage(app, { navigate });
}

document.addEventListener("click", (e) => {
  const a = e.target instanceof Element ? e.target.closest("a[data-nav]") : null;
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  e.preventDefault();
  navigate(url.pathname);
});
window.addEventListener("popstate", route);

await applyDocumentLanguage();
mountLanguageSwitch();
document.getElementById("skip").textContent = t("app.skip");
route();
