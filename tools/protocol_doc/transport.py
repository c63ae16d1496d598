"""The sections about the connection itself: lifecycle, messages, limits, transport and lobby codes."""

from __future__ import annotations

from app.config import Settings
from app.engines import ENGINES
from app.realtime.messages import (
    CLOSE_CODES,
    CODE_DOCS,
    Code,
)
from app.validation import ACTION, MAX_SAFE_INT, NAME_MAX, OPTIONS, PREFS
from tools.protocol_doc.examples import Examples
from tools.protocol_doc.markdown import _cell, _json_block, _table
from tools.protocol_doc.scan import lobby_sites

ROOM_VIEW_KEYS: dict[str, str] = {
    "code": "The room code (also in the URL).",
    "game": 'The game id, e.g. `"slap"`.',
    "title": "The game's display title.",
    "status": '`"lobby"`, `"playing"` or `"finished"`.',
    "public": "Listed in `GET /api/rooms` while in the lobby.",
    "host": "Player id of the host.",
    "options": "The table options (validated, with every default filled in).",
    "min_players": "Players needed to start.",
    "max_players": "Seats at the table.",
    "seats": "One entry per seat: `null` (free) or `{player_id, name, connected, seat, prefs}`.",
    "spectators": "Watchers: `{player_id, name, connected}`.",
    "match": "`null` before the first game; then `{id, seed_hash, seed, started_at, result}`: `seed` and "
    "`result` stay `null` until the game ends (check `sha256(seed) == seed_hash` then).",
    "reported_links": "Seats connected only where the server has no round trip their client cannot delay "
    "(see the README on proxies): their races are judged by their own reported link; a host may rank "
    "by arrival order or lower `max_credit_ms`. Their race claims carry the flag `UNVERIFIED`.",
}


def _lifecycle(settings: Settings, ex: Examples) -> str:
    kib = settings.max_frame_bytes // 1024
    racing = ", ".join(e.title for e in ENGINES.values() if e.has_races())
    return f"""\
## Connection lifecycle

1. **Get a token.** `POST /api/players` with `{{"name": "Ana"}}` returns a guest `token`. Lobby
   actions (create a room, take a seat, start) are HTTP calls with `Authorization: Bearer <token>`.
2. **Connect** to `ws(s)://<host>/ws/rooms/{{code}}` (one socket per room). The URL carries no
   credentials: the token is **never** put in the URL, where logs and proxies would keep it.
3. **Say hello.** The first frame must be `hello` with the token, within {settings.hello_timeout_s:g} s.
   Anything else (another message, a binary or malformed frame, or nothing) gets an `error` with
   `AUTH_REQUIRED` and close code 4001; a bad token gets `BAD_TOKEN` (4001) and an unknown room
   `UNKNOWN_ROOM` (4004). A client address that already has {settings.sockets_per_address}
   connections open gets `TOO_MANY_CONNECTIONS` and close code 4029 at once, before its `hello`.
4. **Welcome, then snapshot.** The server answers `welcome` (who you are, your role and seat, the room
   clock), then a `snapshot` (`reason: "join"`) with the full view for this connection. A player who
   is not a member yet joins as a spectator; seats are taken over HTTP.
5. **Patches.** Every later change of your view arrives as a `patch`. Snapshots and patches share one
   per-connection counter `seq` that has no gaps: each state frame has `seq` = previous + 1. A client
   that sees a gap, fails to apply a patch or has any doubt sends `resync` and gets a `snapshot` with
   `reason: "resync"`; the snapshot replaces the view, and patches continue from its `seq`.
6. **Act.** Send `action` frames with an `id` you choose. Each gets exactly one answer with that `id`:
   an `ack` (accepted and durably logged) or a `reject` (refused; nothing changed).
7. **Keep time.** Answer every server `ping` at once with a `pong` carrying your receive and send
   times; the server's next pings tell you the offset of the room clock (see clock sync).
8. **Leave** by closing the socket. The seat is kept; reconnect and say `hello` again to resume
   (you get a fresh `join` snapshot, `seq` restarts at 1 on the new connection).

### The view

Every snapshot carries the whole view of this connection, and every patch edits it:

```json
{{"room": {{...}}, "game": {{...}} | null}}
```

`room` is the lobby part, the same for everyone in the room. `game` is `null` until a game starts,
then the game's view for **your seat** (spectators get the public view, which shows no more than any
player sees). When a game starts, seated players' views switch to their seat: they get a snapshot with
`reason: "seat"`. The keys of `room`:

{_table(["Key", "Meaning"], ((f"`{k}`", _cell(v)) for k, v in ROOM_VIEW_KEYS.items()))}

### Patches

A patch's `ops` are [RFC 6902](https://www.rfc-editor.org/rfc/rfc6902) JSON Patch operations on the
view, applied in order. The server only sends `add`, `remove` and `replace`; `path` is a JSON Pointer
([RFC 6901](https://www.rfc-editor.org/rfc/rfc6901), `~` escaped as `~0`, `/` as `~1`) from the view's
root, e.g. `/game/seats/1/pile`. An `add` whose path ends in `/-` appends to a list. Lists that changed
other than at their end are replaced whole. One patch is sent per connection per server turn, so a
patch may carry the effect of several actions and timers. This is how the cards of a flip appear:

{_json_block({"type": "patch", "seq": 4, "ops": ex.reveal_ops})}

### Acks, rejects and duplicates

A server turn applies the queued actions and due timers, writes them to the game's event log and
waits for the commit, then sends the state frames, then the acks. So when an `ack` arrives, the frame
whose `seq` it names (the latest state frame sent to you) has already arrived and contains the
action's effect. Rejects are sent at once, before the state frames of that turn. Actions are only
ever applied for the sender's own seat.

An action `id` is remembered per seat for the whole game, also across a server restart: a retry with
an `id` that was already applied (after a reconnect, say) is not applied again but answered `ack` with
`duplicate: true` and `code: "DUPLICATE_ACTION"` (its `seq` is then the latest state frame), also
once that game is over. So a client may safely resend an action whose answer it never saw.

### Clock sync, both ways

All server times are **room-clock** milliseconds (integers), the clock every deadline and
`reveal_at` in the view uses.

* **Server to client** (the one that matters). The server sends `ping` with its time `t` right after the
  join (six pings within 0.25 s, three more within the next 2 s), then every
  {settings.ping_interval_s:g} s while your link's samples still move (fewer than four in a row agree
  with the estimate, or one far off it: a round trip above the jitter band or below the smallest, an
  offset your round trips cannot explain). On a steady link the pings slow down: a seat of a running
  game with reaction races ({racing}) is pinged at intervals doubling up to
  {settings.ping_racing_max_s:g} s, and pinged at once when such a game starts; every other connection
  (spectators, the lobby, games without races) every {settings.ping_watching_s:g} s. Answer at once with
  `pong` echoing `id` and `t`, with `t2` = your clock when the ping arrived and `t3` = your clock when
  you send the pong (use one monotonic clock for everything, e.g. `performance.timeOrigin +
  performance.now()` in a browser). The server measures, per sample, `rtt = (t4 - t1) - (t3 - t2)` and
  `offset = ((t1 - t2) + (t4 - t3)) / 2` (t1 = `t`, t4 = when the pong arrived; room time = your time +
  offset). Over the last 16 samples it keeps the smallest round trip (`rtt`), the jitter band (the 90th
  percentile minus that, at most twice the median minus that) and the offset of the fastest sample, and
  sends all three in its next `ping`s. **Show every countdown as `deadline - (your clock + offset)`.**
  The round trip and jitter bound what a reaction race may credit (see the race ruling under Slap), and
  never above the round trip the server measured on your TCP connection where it has one. A `pong`
  without `t2`/`t3` is not counted.
* **Client to server** (optional, if you want your own estimate). Send `ping` with `t0` = your clock;
  the server answers `pong` with `t0`, `t1` (when it received the ping) and `t2` (when it sent the
  pong). With `t3` = your clock on receipt: `offset = ((t1 - t0) + (t2 - t3)) / 2` and
  `round_trip = (t3 - t0) - (t2 - t1)`. Keep the offset of the samples with the smallest round trip.

### Limits

* Frames are JSON text: at most {kib} KiB (`TOO_LARGE`, the connection stays open); binary frames get
  `BINARY_FRAME` (before the `hello`: `AUTH_REQUIRED` and close 4001). Frames far above the limit are
  cut off by the WebSocket layer itself (close 1009 at 1 MiB).
* A frame that is not a valid message gets one answer. An `action` or `admin` frame with a usable `id`
  (a string of 1-64 characters without control characters) gets a `reject` with that `id`: code
  `BAD_ACTION` when its `action` is not an object or is out of the bounds below, else `BAD_MESSAGE`.
  Any other bad frame gets an `error` (`BAD_JSON`, `BAD_MESSAGE`, `UNKNOWN_TYPE`), with no `id`.
* Rate limits are token buckets per connection: `action` frames {settings.rate_per_s:g}/s with
  bursts of {settings.rate_burst} (over the limit: `reject` with `RATE_LIMITED`), `resync` frames
  {settings.resync_per_s:g}/s with bursts of {settings.resync_burst} (`error` with `RATE_LIMITED`).
  Pings, pongs and invalid frames are not counted. A dropped frame changes nothing; the connection
  stays open. Frames are read one at a time, and the server stops reading while this connection's
  send queue is half full: a burst is slowed down instead of overflowing the queue with its answers.
* Every connection has a send backlog bounded in bytes ({settings.send_backlog_bytes // 1024} KiB of frames;
  one frame always fits an empty backlog) and in time. The server never waits for a slow client: when
  a frame does not fit, the whole backlog is emptied (state frames, acks, rejects, pongs alike; the
  frame that did not fit is dropped too) and at the room's next turn the client gets one `snapshot`
  with `reason: "reset"` that replaces its view (its `seq` jumps forward). Frames queued after the drop
  but before that turn (the rest of the same turn, say) still go out first, so a `seq` gap may show
  before the reset snapshot arrives; resyncing on it is harmless (the view is replaced either way).
  Dropped acks and rejects are not sent again: resend (with the same `id`) an action that got no
  answer. A server `ping` that does not fit is skipped and does not count as an overflow.
  A connection that keeps overflowing is closed: the first three overflows each get a reset snapshot,
  the fourth ends the connection with an `error` `TOO_SLOW` and close code 4008.
* A frame the client does not take within {settings.write_timeout_s:g} s (it stopped reading and its
  network buffers are full) ends the connection at once: the server aborts it without a closing
  handshake (the client sees an abnormal closure, 1006) and frees what it held; the seat shows as
  disconnected to the others. So a client that stops reading during a busy game is gone within
  {settings.write_timeout_s:g} s of its first stuck write, with the `TOO_SLOW` close if it could still
  take it. Reconnecting gives a fresh snapshot.

### Bounds on what clients send

Checked where the input arrives, before any room sees it (the game then checks what it means, e.g.
that a Slap `colour` is one of Y, G, P, B). A string may never hold a control character (Unicode
category Cc, NUL included), an invisible format character (category Cf: U+200B..U+200F, U+FEFF, ...),
a bidirectional control (U+202A..U+202E, U+2066..U+2069, U+061C), U+2028/U+2029 or a lone surrogate.
Integers must lie within ±{MAX_SAFE_INT} (2^53 - 1, exact in every JSON reader).

{_bounds_table()}

Over HTTP a refusal is a 422 with code `BAD_REQUEST`, a `message` naming the place and the rule
(`body.prefs: colour: strings are at most {PREFS.max_str} characters`) and a `detail` list of at most
10 `{{loc, msg, type}}` (`type` is `bad_name`, `bad_prefs` or `bad_options` for the rules here; a
message never quotes what was sent: a character is named by its code point, e.g. `U+202E`). A body
that is not UTF-8 gets a 400 `BAD_REQUEST`. On the socket an action out of bounds gets a `reject`
`BAD_ACTION`.
"""


def _bounds_table() -> str:
    def lists(items: int) -> str:
        return f"at most {items} items" if items else "none"

    rows = [
        (
            "Display name (`POST /api/players`)",
            f"1 to {NAME_MAX} characters once trimmed (spaces at the ends are removed)",
            "-",
            "-",
        ),
        (
            "Seat prefs (`POST /api/rooms/{code}/seats`)",
            f"at most {PREFS.max_keys} keys of a-z and _ (1 to {PREFS.max_key} characters); each value "
            f"null, true, false, a string of at most {PREFS.max_str} characters or an integer",
            "flat",
            lists(PREFS.max_items),
        ),
        (
            "Table options (`POST /api/rooms`, `PATCH /api/rooms/{code}`)",
            f"at most {OPTIONS.max_keys} keys (1 to {OPTIONS.max_key} characters) per object, strings of "
            f"at most {OPTIONS.max_str} characters, finite numbers, {OPTIONS.max_nodes} values in all",
            f"{OPTIONS.max_depth}",
            lists(OPTIONS.max_items),
        ),
        (
            "The `action` of an `action` frame",
            f"at most {ACTION.max_keys} keys (1 to {ACTION.max_key} characters) per object, strings of "
            f"at most {ACTION.max_str} characters, finite numbers, {ACTION.max_nodes} values in all",
            f"{ACTION.max_depth}",
            lists(ACTION.max_items),
        ),
        ("Action and admin `id`", "1 to 64 characters", "-", "-"),
    ]
    return _table(["What", "Bounds", "Nesting", "Lists"], rows)


def _codes_section() -> str:
    missing = [c for c in Code if c not in CODE_DOCS]
    if missing:
        raise ValueError(f"Code members without CODE_DOCS entries: {missing}")
    codes = _table(["Code", "Meaning"], ((f"`{c.value}`", _cell(CODE_DOCS[c])) for c in Code))
    closes = _table(["Close code", "Meaning"], ((f"`{k}`", _cell(v)) for k, v in sorted(CLOSE_CODES.items())))
    return f"""\
## Transport error codes

Sent in `error` frames (no action involved) or `reject` frames (answering an `action`). Match on the
code, never on the message.

{codes}

## Close codes

The server sends an `error` frame with the reason, then closes with one of these codes.

{closes}
"""


def _lobby_section() -> str:
    by_code: dict[str, tuple[set[int], list[str]]] = {}
    for site in lobby_sites():
        if site.code is None:
            continue
        statuses, messages = by_code.setdefault(site.code, (set(), []))
        if site.status is not None:
            statuses.add(site.status)
        message = site.message + (" (test-clock servers only)" if site.path == "app/api/testing.py" else "")
        if message not in messages:
            messages.append(message)
    rows = (
        (f"`{code}`", ", ".join(str(s) for s in sorted(statuses)), _cell(" / ".join(messages)))
        for code, (statuses, messages) in sorted(by_code.items())
    )
    return f"""\
## Lobby (HTTP) error codes

The HTTP API answers errors with `{{"code": ..., "message": ...}}` and the status below (collected from
the source). Engine codes raised when a game starts (above) come back with status 422.

{_table(["Code", "HTTP status", "Message"], rows)}
"""
