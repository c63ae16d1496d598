// The games registry: view.room.game -> its table module. A new game adds one module and one line.
//
// A table module's default export (see slap.js for a full example):
//   id                         the game id (as in GET /api/games)
//   basicOptions: [name]       options shown first in the options form (the rest under "More options")
//   layout (optional)          "wide": your seat takes the whole bottom row; "open": the others sit in one
//                              band above a full-width centre (default: side columns around the centre)
//   prefs (optional)           lobby seat preferences: {preview(roomSeats) -> [value|null],
//                              badge(value) -> Element, chooser(current, taken, onPick) -> Element,
//                              defaults(roomSeats, mySeat) -> prefs object}
//   createTable(ctx)           -> {seat(i) -> Element, center: Element, update(view, prev), destroy()}
//                              ctx: {act(action, opts) -> Promise<ack|reject>, now() -> room-clock ms,
//                              you, count, names() -> [name by seat], announce(text)}
//   stats(game, seat)          -> {count, score, turn, extra, colour} for the players ring
//   yourMove(game) (optional)  -> whether the table waits for you (turn alerts); default: stats(you).turn
//   timers(game, names)        -> [{key, at, label, minor}] countdowns to room-clock deadlines
//   events(prev, game, names)  -> [text] for the event log and the live region (prev may be null)
//   scores(game, names)        -> {columns, rows, totals, winners, final, show} | null
//   lobbyPanel(ctx) (optional) -> {el, update(view)}: the game's own panel in the lobby, under the
//                              seats (Leekha: the host pairs the 2 vs 2 teams); ctx: {code, me}
const loaders = {
  slap: () => import("./slap.js"),
  uffda: () => import("./uffda.js"),
  rummy: () => import("./rummy.js"),
  leekha: () => import("./leekha.js"),
  kuuduk: () => import("./kuuduk.js"),
};

export function hasGame(id) {
  return Object.hasOwn(loaders, id);
}

export async function loadGame(id) {
  if (!hasGame(id)) return null;
  const module = await loaders[id]();
  return module.default;
}
