// Reaction races, shared by every game that has them: which claims rest on a link the server
// could not verify (app/engines/race.py, UNVERIFIED), and which seats race on such links.

/** The seats of `claims` marked "link not verified", in claim order. */
export function unverified(claims) {
  return (claims || []).filter((c) => (c.flags || []).includes("UNVERIFIED")).map((c) => c.seat);
}

/** Whether the room's game has races the host can tune (latency compensation, max credit). */
export function hasRaces(room) {
  return Boolean(room && room.options && "max_credit_ms" in room.options);
}
