// The minimal Bordet client: create or join a room and play Slap. The server checks everything.
import { applyPatch } from "/static/patch.js";

const app = document.getElementById("app");
const toastBox = document.getElementById("toast");
const me = () => JSON.parse(localStorage.getItem("bordet.player") || "null");

function el(tag, attrs = {}, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const kid of kids) node.append(kid);
  return node;
}

function toast(text) {
  toastBox.textContent = text;
  toastBox.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => toastBox.classList.remove("show"), 3000);
}

async function api(method, path, body) {
  const player = me();
  const headers = { "Content-Type": "application/json" };
  if (player) headers.Authorization = `Bearer ${player.token}`;
  const r = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = r.status === 204 ? null : await r.json();
  if (!r.ok) throw new Error(data?.message || r.statusText);
  return data;
}

async function ensurePlayer() {
  if (me()) return me();
  const name = prompt("Your name at the table?") || "Guest";
  const player = await api("POST", "/api/players", { name });
  localStorage.setItem("bordet.player", JSON.stringify(player));
  return player;
}

async function home() {
  await ensurePlayer();
  document.getElementById("who").textContent = me().name;
  const list = el("ul", { class: "rooms" });
  for (const room of await api("GET", "/api/rooms")) {
    list.append(el("li", {}, el("a", { href: `/r/${room.code}` }, `${room.title} ${room.code}`),
      ` ${room.players}/${room.max_players}`));
  }
  const code = el("input", { placeholder: "Room code", size: 8, "aria-label": "Room code" });
  app.replaceChildren(
    el("h1", {}, "Play Slap with friends"),
    el("div", { class: "row" },
      el("button", { onclick: async () => {
        const room = await api("POST", "/api/rooms", { game: "slap", options: {}, public: true });
        location.href = `/r/${room.code}`;
      } }, "Create a Slap room"),
      code, el("button", { onclick: () => { location.href = `/r/${code.value.trim().toUpperCase()}`; } }, "Join")),
    el("h2", {}, "Open rooms"), list);
}

function roomPage(code) {
  let view = null, seq = 0, ws = null, retry = 0, nextId = 1;
  const send = (msg) => ws && ws.readyState === 1 && ws.send(JSON.stringify(msg));
  const act = (action) => send({ type: "action", id: `${Date.now()}-${nextId++}`, action });
  let shownAt = 0;

  function connect() {
    ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/rooms/${code}`);
    ws.onopen = () => { retry = 0; send({ type: "hello", token: me().token });
      document.getElementById("conn").textContent = "● online"; };
    ws.onclose = () => { document.getElementById("conn").textContent = "○ reconnecting";
      setTimeout(connect, Math.min(8000, 500 * 2 ** retry++)); };
    ws.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      if (msg.type === "snapshot") { view = msg.view; seq = msg.seq; render(); }
      else if (msg.type === "patch") {
        if (msg.seq !== seq + 1) { send({ type: "resync" }); return; }
        view = applyPatch(view, msg.ops); seq = msg.seq; render();
      } else if (msg.type === "ping") send({ type: "pong", id: msg.id, t: msg.t });
      else if (msg.type === "reject" || msg.type === "error") toast(msg.message);
    };
  }

  function render() {
    const room = view.room, game = view.game, mine = me().id;
    const seats = el("div", { class: "seats" });
    room.seats.forEach((seat, i) => {
      const g = game && game.seats[i];
      const box = el("div", { class: "seat" + (seat && seat.player_id === mine ? " me" : "") },
        el("strong", {}, seat ? seat.name : "empty seat"), seat && !seat.connected ? " (away)" : "");
      if (g) {
        box.append(el("div", {}, g.card ? el("span", { class: `card ${g.card[0]}` }, String(Number(g.card.slice(1))))
          : el("span", { class: "card back" }, `${g.pile}`)));
        box.append(el("div", {}, `pile ${g.pile} · penalties ${g.penalties}`));
      } else if (!seat && room.status === "lobby") {
        box.append(el("button", { onclick: () => api("POST", `/api/rooms/${code}/seats`, { seat: i }).catch((e) => toast(e.message)) }, "Sit here"));
      }
      seats.append(box);
    });
    const controls = el("div", { class: "row" });
    if (room.host === mine && room.status !== "playing") {
      controls.append(el("button", { onclick: () => api("POST", `/api/rooms/${code}/start`).catch((e) => toast(e.message)) }, "Start"));
    }
    controls.append(el("button", { onclick: () => navigator.clipboard?.writeText(location.href) }, "Copy link"));
    const parts = [el("h1", {}, `${room.title} · ${room.code}`), controls, seats];
    if (game) {
      const legal = game.legal || [];
      const nu = legal.find((a) => a.type === "nu"), slap = legal.find((a) => a.type === "slap");
      if (game.phase === "FLIP_OPEN" && !shownAt) shownAt = performance.now();
      if (game.phase !== "FLIP_OPEN" && game.phase !== "RACE") shownAt = 0;
      parts.push(el("p", {}, `Round ${game.round}/${game.rounds} · ${game.phase.replace("_", " ").toLowerCase()}`));
      parts.push(el("div", { class: "row" },
        el("button", { disabled: nu ? null : "", onclick: () => nu && act(nu) }, "Nu!"),
        el("button", { id: "slap", disabled: slap ? null : "", onclick: () => doSlap(slap) }, "SLAP")));
      parts.push(el("p", {}, `Totals: ${game.totals.join(" · ")}`));
      if (room.match?.seed) parts.push(el("p", {}, `Seed ${room.match.seed} (sha256 ${room.match.seed_hash.slice(0, 12)}…)`));
    }
    app.replaceChildren(...parts);
  }

  function doSlap(slap) {
    if (!slap) return;
    act({ ...slap, reaction_ms: shownAt ? Math.round(performance.now() - shownAt) : undefined });
  }
  document.addEventListener("keydown", (e) => {
    if (e.code === "Space" && view?.game) { e.preventDefault(); doSlap((view.game.legal || []).find((a) => a.type === "slap")); }
  });
  connect();
}

async function main() {
  const match = location.pathname.match(/^\/r\/([A-Za-z0-9]+)/);
  if (!match) return home();
  await ensurePlayer();
  document.getElementById("who").textContent = me().name;
  roomPage(match[1].toUpperCase());
}
main().catch((e) => toast(e.message));
