// Every user-visible string of the client, in one table per language, keyed by id.
// t(key, params) fills {name} placeholders; a value may be {one, other} (plural by params.n,
// Intl.PluralRules); number params are written by num() (Intl, one minus sign everywhere).
// English lives here and in the game modules (addStrings); Danish and Finnish are whole tables in
// i18n/da.js and i18n/fi.js, loaded only for a device that uses them (tests/browser/test_i18n.py
// fails on any key one of them lacks). The language is localStorage "bordet.lang" (the header's
// switch), else the first of da / fi / en in navigator.languages, else English.
// Server error codes: code.<CODE> is the client's own text (errorText(); the server's message where none).
//
// Game option labels: opt.<game>.<option> (+ ".hint", + ".<value>" for choices, ".n" for numbers);
// options without an entry show the server schema's own title and description.
import codesAndHints from "./i18n/en.js";

const en = {
  "app.title": "Bordet: card games with friends",
  "app.skip": "Skip to content",
  "err.network": "The server cannot be reached. Check your connection.",
  "err.http": "The server answered with an error ({status}).",
  "toast.close": "Dismiss",

  "who.as": "Playing as",
  "who.change": "change",
  "name.title": "Pick a name",
  "name.intro": "Friends see this name at the table. This device remembers it.",
  "name.label": "Your name",
  "name.placeholder": "e.g. Ana",
  "name.save": "Continue",
  "name.cancel": "Cancel",
  "name.empty": "Please type a name.",
  "name.changeTitle": "Change your name",
  "name.changeIntro": "A new name starts a new guest player on this device; seats you hold keep your old name.",

  "home.title": "Card games with friends",
  "home.tagline": "Make a table, share the link, play in the browser. The server deals and referees.",
  "home.new": "New table",
  "home.game": "Game",
  "home.gameOption": "{title} ({min}–{max} players)",
  "home.options": "{title} options",
  "home.public": "List this room in “Open rooms”",
  "home.publicHelp": "Private rooms are only reachable by their link or code.",
  "home.create": "Create room",
  "home.join": "Join a friend",
  "home.code": "Room code or link",
  "home.codePlaceholder": "e.g. K7MPQ2",
  "home.joinBtn": "Join",
  "home.badCode": "That does not look like a room code or a room link.",
  "home.open": "Open rooms",
  "home.refresh": "Refresh",
  "home.noRooms": "No open rooms right now. Create one!",
  "home.roomLine": "{title} · {code} · {n}/{max} players",

  "room.docTitle": "Room {code} · Bordet",
  "room.docTitleGame": "{title} · {code} · Bordet",
  "alert.turn": "Your turn",
  "alert.low": "Time is running out",
  "sound.on": "Sound on",
  "sound.off": "Sound off",
  "room.joinTitle": "Join room {code}",
  "room.joinIntro": "Pick the name your friends will see at the table. This device remembers it.",
  "room.loading": "Connecting to the room…",
  "room.removed": "The host removed you from this room.",
  "room.unknown": "There is no room with code {code}.",
  "room.home": "Back to the start page",
  "room.noTable": "This browser has no table for {title} yet.",

  "conn.online": "Online",
  "conn.connecting": "Connecting…",
  "conn.reconnecting": "Reconnecting…",
  "conn.retryIn": "Connection lost, retrying in {s} s",
  "conn.retry": "Retry now",
  "conn.closed": "Disconnected",
  "conn.rtt": "Round trip {ms} ms",

  "lobby.title": "{title} · room {code}",
  "lobby.waiting": "Waiting for players: {n} seated, at least {min} needed.",
  "lobby.readyHost": "Everyone here? Start the game.",
  "lobby.reportedLinks": "Races are judged by each player's own reported link: the server cannot verify the round trip of {names}. To rule that out, turn latency compensation off (plain arrival order) or lower max_credit_ms.",
  "lobby.againHost": "Play again with the same table, or change seats first.",
  "lobby.readyOther": "Waiting for {name} to start the game.",
  "lobby.share": "Invite friends with this link",
  "lobby.copy": "Copy link",
  "lobby.copied": "Link copied.",
  "lobby.copyManual": "Copy the selected link to share it.",
  "lobby.seats": "Seats",
  "lobby.sit": "Take a seat",
  "lobby.sitHere": "Sit here",
  "lobby.moveHere": "Move here",
  "lobby.watch": "Watch instead",
  "lobby.leave": "Leave room",
  "lobby.start": "Start game",
  "lobby.again": "Play again",
  "lobby.public": "Listed in “Open rooms”",
  "lobby.options": "Table options",
  "lobby.save": "Save options",
  "lobby.saved": "Options saved.",
  "lobby.spectators": "Watching",
  "lobby.noSpectators": "Nobody is watching.",
  "lobby.remove": "Remove",
  "lobby.removeConfirm": "Remove {name}?",
  "lobby.youName": "{name} (you)",
  "options.more": "More options",
  "opt.yes": "Yes",
  "opt.no": "No",

  "seat.n": "Seat {n}",
  "seat.free": "Free seat",
  "seat.empty": "Empty seat",
  "tag.you": "you",
  "tag.host": "host",
  "tag.bot": "bot",
  "tag.standin": "bot playing for {name}",
  "lobby.addBot": "Add a bot",
  "lobby.addBotAt": "Add a bot ({seat})",
  "presence.online": "online",
  "presence.away": "away",
  "ring.cards": { one: "{n} card", other: "{n} cards" },
  "ring.score": { one: "{n} pt", other: "{n} pts" },
  "ring.turn": "▶ to play",

  "table.title": "{title} · {code}",
  "table.round": "Round {round} of {rounds}",
  "table.roundOnly": "Round {round}",
  "table.watching": "watching",
  "table.finished": "game over",
  "table.spectators": "Watching: {names}",
  "log.title": "What happened",
  "scores.title": "Scores",
  "scores.round": "Round",
  "scores.roundN": "Round {n}",
  "scores.total": "Total",
  "scores.winner": "winner",
  "scores.final": "Final scores",
  "time.s": "{s} s",
  "lang.label": "Language",
  "help.open": "How to play",
  "help.table": "How to play {title} (opens over the table)",
  "help.title": "How to play {title}",
  "help.home": "How to play",
  "help.homeIntro": "Short rules for each game, with the points people get wrong.",
  "help.example": "Worked example",
  "help.close": "Close",
  "time.ms": "{m}:{s}",
  "list.and": "{first} and {last}",

  "verify.link": "Verify the deal",
  "verify.linkReady": "Verify the deal (seed revealed)",
  "verify.title": "Verify the deal",
  "verify.explain": "Before dealing, the server published the SHA-256 hash of a secret seed that decides every shuffle. When the game ends it reveals the seed, and your browser checks that it matches.",
  "verify.hash": "Published hash (sha256 of the seed)",
  "verify.seed": "Seed",
  "verify.hidden": "Revealed when the game ends.",
  "verify.checking": "Checking…",
  "verify.computed": "Your browser computed",
  "verify.ok": "✓ It matches: the deal was fixed before the game began.",
  "verify.bad": "✗ It does not match!",
  "verify.close": "Close",

  "replay.docTitle": "Replay of match {id} · Bordet",
  "replay.title": "{title} · match {id}",
  "replay.link": "Watch the replay",
  "replay.controls": "Replay controls",
  "replay.as": "Seen by",
  "replay.asSpectator": "a spectator",
  "replay.asSeat": "{name} (seat {n})",
  "replay.first": "First step",
  "replay.back": "Step back",
  "replay.play": "Play",
  "replay.pause": "Pause",
  "replay.forward": "Step forward",
  "replay.lastStep": "Last step",
  "replay.speed": "Speed",
  "replay.seek": "Go to step",
  "replay.speedN": "×{n}",
  "replay.step": "Step {n} of {total}",
  "replay.deal": "The deal, before anyone moved.",
  "replay.tick": "The clock at {at} ms: a timer ran out.",
  "replay.ended": "The host ended the match at {at} ms.",
  "replay.move": "{name}: {action} (at {at} ms)",
  "replay.moveStandin": "A stand-in for {name}: {action} (at {at} ms)",
  "replay.ruling": "Race {race}: {winner} won. The ruling and its inputs:",
  "replay.timing": "The timing the server recorded with this move",
  "replay.hands": "Every hidden card: hands, face-down piles (the match is over)",
  "replay.noCards": "no cards",
  "replay.noHand": "no hidden cards in this game",
  "replay.readOnly": "This is a replay: nothing can be played.",
  "matches.title": "Your matches",
  "matches.none": "No matches yet.",
  "matches.line": "{title} · room {room} · {when}",
  "matches.running": "being played",

  "colour.Y": "Yellow",
  "colour.G": "Green",
  "colour.P": "Pink",
  "colour.B": "Blue",
  "card.label": "{colour} {n}",

  "ev.joined": "You joined {title} room {code}.",
  "ev.arrived": "{name} came in.",
  "ev.gone": "{name} left the room.",
  "ev.away": "{name} lost the connection.",
  "ev.back": "{name} is back.",
  "ev.sat": "{name} sat down at seat {n}.",
  "ev.started": "{title} begins!",
  "ev.resynced": "Back in step with the table.",

  "cd.autoNu": "Automatic Nu! in",
  "cd.nu": "Nu! in",
  "cd.reveal": "Cards turn in",
  "cd.next": "Next flip in",
  "cd.nextRound": "Next round in",
  "cd.final": "Final scores in",
  "cd.limit": "Round time left",

  "slap.colour": "Your colour",
  "slap.nu": "Nu!",
  "slap.turn": "▶ to call",
  "slap.slap": "SLAP!",
  "slap.slapCue": "Slap!",
  "slap.keys": "Keys: Space = slap · N = Nu!",
  "slap.slapped": "slapped",
  "slap.penalties": { one: "{n} penalty", other: "{n} penalties" },
  "slap.pileLabel": { one: "{n} card face down", other: "{n} cards face down" },
  "slap.takes": "takes the trick",
  "slap.autoNext": "The next flip comes by itself.",
  "slap.yourCall": "Your call: press Nu! when everyone is ready.",
  "slap.waitNu": "{name} calls Nu!",
  "slap.getReady": "Get ready…",
  "slap.look": "Two the same number? Slap!",
  "slap.race": "Slapped! Faster slaps still count for a moment…",
  "slap.roundOver": "Round {round} of {rounds} is over.",
  "slap.matchOver": "{names} won the match!",
  "slap.wonTrick": "{name} wins the trick.",
  "slap.noPair": "No pair.",
  "slap.noPairFalse": "No pair: a false slap costs a penalty point.",
  "slap.unclaimed": "Nobody slapped the pair: the cards go back.",
  "slap.flipN": "Flip {n}:",
  "slap.pairs": "Matching numbers: {numbers}",
  "slap.ms": "{ms} ms",
  "slap.claimWon": "first",
  "slap.claimFalse": "+1 penalty",
  "slap.claimDetail": "Your screen reported {claimed} ms; {credit} ms of network time were allowed.",
  "slap.tie": "{names} were within the tie margin; the winner was drawn by lot.",
  "race.unverified": "{name}: link not verified.",
  "slap.detail": "{cards} cards · {place} pts",
  "slap.detailPen": "{cards} cards · {place} pts − {pen}",
  "slap.end.STALL": "no pair possible",
  "slap.end.TIME": "time limit",
  "slap.end.NORMAL": "a pile ran out",

  "ev.round": "Round {round} of {rounds}: {name} calls the first Nu!",
  "ev.nu": "Nu! Flip {n}.",
  "ev.cards": "Cards: {cards}.",
  "ev.card": "{name} {colour} {n}",
  "ev.slapped": "{name} slapped.",
  "ev.penalty": { one: "{name} slapped without a pair: {n} penalty point this round.", other: "{name} slapped without a pair: {n} penalty points this round." },
  "ev.trick": "{name} slapped first, {ms} ms after the flip, and takes the trick.",
  "ev.trickTie": "{names} slapped within the tie margin; {name} ({ms} ms after the flip) won the draw and takes the trick.",
  "ev.later": "{name}: {ms} ms.",
  "ev.unclaimed": "Nobody slapped the pair of {numbers}s; the cards go back.",
  "ev.noPair": "No pair.",
  "ev.noPairFalse": "No pair: {names} slapped anyway.",
  "ev.roundOver": "Round {round} is over: {list}.",
  "ev.matchOver": { one: "Match over: {names} won with {n} point.", other: "Match over: {names} won with {n} points." },

  "opt.slap.rounds": "Rounds",
  "opt.slap.first_starter": "First to call Nu!",
  "opt.slap.first_starter.random": "Random",
  "opt.slap.first_starter.n": "Seat {n}",
  "opt.slap.nu_mode": "Who calls Nu!",
  "opt.slap.nu_mode.starter": "The starter presses Nu!",
  "opt.slap.nu_mode.auto": "Automatic",
  "opt.slap.nu_auto_ms": "Automatic Nu! after (ms)",
  "opt.slap.auto_nu_ms": "Pause before an automatic Nu! (ms)",
  "opt.slap.nu_lead_ms": "From Nu! to the cards (ms)",
  "opt.slap.no_pair_window_ms": "Cards without a pair stay (ms)",
  "opt.slap.pair_timeout_ms": "Unslapped pair goes back after (ms)",
  "opt.slap.race_window_ms": "Race window after the first slap (ms)",
  "opt.slap.max_credit_ms": "Most network-delay credit (ms)",
  "opt.slap.tie_margin_ms": "Tie margin (ms)",
  "opt.slap.latency_compensation": "Compensate for network delay",
  "opt.slap.trick_pause_ms": "Won trick stays on screen (ms)",
  "opt.slap.nopair_pause_ms": "Pause after a flip without winner (ms)",
  "opt.slap.round_time_limit_s": "Round time limit (s, 0 = none)",
  "opt.slap.round_end_pause_ms": "Scoreboard between rounds (ms)",
  "opt.slap.placement_points": "Points for 1st, 2nd, 3rd, 4th most cards",
  "opt.slap.two_player_stall_points": "Two players, stall or time: points for more / fewer cards",
  "opt.slap.tie_policy": "Equal card counts",
  "opt.slap.tie_policy.shared": "Share the better place",
};

for (const [key, value] of Object.entries(codesAndHints)) if (!Object.hasOwn(en, key)) en[key] = value;
const tables = { en };
export const LANGUAGES = { en: "English", da: "Dansk", fi: "Suomi" };
const loaders = { da: () => import("./i18n/da.js"), fi: () => import("./i18n/fi.js") };
const STORE = "bordet.lang";
let lang = "en";
let rules = new Intl.PluralRules("en");
let numbers = new Map();

export function setLanguage(code) {
  lang = tables[code] ? code : "en";
  rules = new Intl.PluralRules(lang);
  numbers = new Map();
}

export function language() {
  return lang;
}

/** The device's language: its own choice, else the browser's first of da / fi / en. */
export function preferred() {
  const stored = localStorage.getItem(STORE);
  if (Object.hasOwn(LANGUAGES, stored || "")) return stored;
  for (const code of navigator.languages || [navigator.language]) {
    const base = (code || "").slice(0, 2).toLowerCase();
    if (Object.hasOwn(LANGUAGES, base)) return base;
  }
  return "en";
}

/** Remember this device's language (the page reloads to draw everything in it). */
export function remember(code) {
  if (Object.hasOwn(LANGUAGES, code)) localStorage.setItem(STORE, code);
}

/** Load a language's table (Danish, Finnish) once; English is always here. */
export async function loadLanguage(code) {
  if (!tables[code] && loaders[code]) {
    const table = (await loaders[code]()).default;
    tables[code] = { ...table, ...tables[code] };
  }
  return tables[code] || en;
}

export async function applyDocumentLanguage() {
  const code = preferred();
  // A table that fails to load leaves the page in English rather than without text.
  await loadLanguage(code).catch((err) => console.warn(`language ${code} not loaded`, err));
  setLanguage(code);
  document.documentElement.lang = lang;
}

/** A number as this language writes it, always with a true minus sign (−3, never -3). */
export function num(n, options = {}) {
  const key = JSON.stringify(options);
  let format = numbers.get(key);
  if (!format) numbers.set(key, (format = new Intl.NumberFormat(lang, { useGrouping: "min2", ...options })));
  return format.format(n).replace(/[-\u2212]/g, "\u2212");
}

/** A score with its sign: +3, −2, 0. */
export const signed = (n) => num(n, { signDisplay: "exceptZero" });

export function has(key) {
  return Object.hasOwn(tables[lang], key) || Object.hasOwn(en, key);
}

export function t(key, params = {}) {
  let text = Object.hasOwn(tables[lang], key) ? tables[lang][key] : en[key];
  if (text === undefined) return key;
  if (typeof text === "object") text = text[rules.select(Number(params.n))] ?? text.other;
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === "number" && Number.isFinite(value) ? num(value) : String(value);
  });
}

/** The text for a server (or connection) error code: the client's own words for it, else the server's
 * message. In English the server's message wins: it is English already and names the case at hand
 * (which colour to follow, which slot); the client's English text covers codes that come without one. */
export function errorText(code, message) {
  const key = `code.${code}`;
  if (lang === "en" && message) return message;
  if (code && has(key)) return t(key, { message: message || "" });
  return message || code || "";
}

export const strings = tables;

/** A game module adds its own strings (``<game>.*``, ``opt.<game>.*``) when it loads; existing keys win. */
export function addStrings(code, entries) {
  const table = tables[code] || (tables[code] = {});
  for (const [key, value] of Object.entries(entries)) {
    if (!Object.hasOwn(table, key)) table[key] = value;
  }
}
