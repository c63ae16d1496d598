// Entry point: a tiny router ("/" home, "/r/CODE" a room) with in-page navigation.
import { HomePage } from "./home.js";
import { applyDocumentLanguage, t } from "./i18n.js";
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
  page = match ? new RoomPage(app, match[1].toUpperCase(), { navigate }) : new HomePage(app, { navigate });
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

applyDocumentLanguage();
document.getElementById("skip").textContent = t("app.skip");
route();
