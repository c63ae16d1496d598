// One line under the table's title naming the rule of the moment where it is easy to get wrong
// (a Slap without a pair, Leekha's passing and forced plays, UFF-DA!'s coin and last-card call,
// Kuuduk's empty hand). Only for the player whose step it is; null when nothing needs saying.
import { t } from "../i18n.js";

const mine = (g) => g.you !== null && g.you !== undefined;
const offers = (g, type) => (g.legal || []).some((a) => a.type === type);

const HINTS = {
  slap: (g) => (mine(g) && ["AWAIT_NU", "NU_CALLED", "FLIP_OPEN"].includes(g.phase) ? "hint.slap.pair" : null),
  leekha: (g) => {
    if (!mine(g)) return null;
    if (g.phase === "PASS_SELECT" && offers(g, "submit_pass")) return "hint.leekha.pass";
    if (g.phase !== "PLAY" || g.turn !== g.you) return null;
    return g.trick?.length ? "hint.leekha.follow" : "hint.leekha.lead";
  },
  rummy: (g) => (mine(g) && g.phase === "TURN" && g.turn === g.you ? "hint.rummy.rebuild" : null),
  uffda: (g) => {
    if (!mine(g) || g.phase !== "PLAY") return null;
    if (offers(g, "place_coin")) return "hint.uffda.coin";
    if (g.turn?.seat === g.you && (g.hand || []).length === 2) return "hint.uffda.last";
    return null;
  },
  kuuduk: (g) => {
    if (!mine(g) || g.phase !== "TURN" || g.turn !== g.you) return null;
    return g.step === "PLAY" ? "hint.kuuduk.adjoin" : "hint.kuuduk.win";
  },
};

/** The hint text for this view of the game, or "" (the game id is view.room.game). */
export function hintFor(game, g) {
  const key = HINTS[game]?.(g);
  return key ? t(key) : "";
}
