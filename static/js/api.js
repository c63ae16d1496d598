// The HTTP lobby: a fetch wrapper that sends the player's token and turns error bodies
// ({code, message}) into ApiError. The player (id, name, token) lives in localStorage.
import { errorText, t } from "./i18n.js";

const KEY = "bordet.player";

export const player = {
  get() {
    try {
      const p = JSON.parse(localStorage.getItem(KEY) || "null");
      return p && p.token && p.id ? p : null;
    } catch {
      return null;
    }
  },
  set(p) {
    localStorage.setItem(KEY, JSON.stringify({ id: p.id, name: p.name, token: p.token }));
  },
  clear() {
    localStorage.removeItem(KEY);
  },
};

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  const me = player.get();
  if (me) headers.Authorization = `Bearer ${me.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, "NETWORK", errorText("NETWORK", t("err.network")));
  }
  const data = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    const code = data?.code || `HTTP_${response.status}`;
    if (code === "BAD_TOKEN") player.clear();
    throw new ApiError(response.status, code, errorText(code, data?.message || t("err.http", { status: response.status })));
  }
  return data;
}

const room = (code) => `/api/rooms/${encodeURIComponent(code)}`;

export const lobby = {
  async createPlayer(name) {
    const p = await api("POST", "/api/players", { name });
    player.set(p);
    return p;
  },
  games: () => api("GET", "/api/games"),
  /** The first page of open rooms (newest first): `{ rooms: [...], next }`. */
  openRooms: (cursor) => api("GET", cursor ? `/api/rooms?cursor=${encodeURIComponent(cursor)}` : "/api/rooms"),
  createRoom: (game, options, isPublic) => api("POST", "/api/rooms", { game, options, public: isPublic }),
  sit: (code, seat, prefs) => api("POST", `${room(code)}/seats`, { seat, prefs }),
  watch: (code) => api("POST", `${room(code)}/watch`),
  leave: (code) => api("POST", `${room(code)}/leave`),
  start: (code) => api("POST", `${room(code)}/start`),
  configure: (code, changes) => api("PATCH", room(code), changes),
  remove: (code, playerId) => api("DELETE", `${room(code)}/members/${encodeURIComponent(playerId)}`),
  addBot: (code, seat) => api("POST", `${room(code)}/bots`, { seat }),
  teams: (code, teams) => api("PUT", `${room(code)}/teams`, { teams }),
  end: (code) => api("POST", `${room(code)}/end`),
  /** The newest matches this player sat in: `{ matches: [...], next }`. */
  myMatches: () => api("GET", "/api/players/me/matches?limit=10"),
  endGame: (code) => api("POST", `${room(code)}/end-game`),
};

let gamesCache = null;
/** GET /api/games once per page load (ids, titles, player counts, option schemas). */
export function games() {
  if (!gamesCache) gamesCache = lobby.games().catch((err) => { gamesCache = null; throw err; });
  return gamesCache;
}
