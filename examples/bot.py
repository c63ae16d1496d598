"""A complete Bordet bot over the public protocol (docs/protocol.md): HTTP for the lobby, a WebSocket to play.

It plays any of the five games by sending, whenever its seat may act, one of the actions its view's
`legal` list offers, chosen at random (entries with a `"<...>"` placeholder are shapes to fill in, not
ready actions: it leaves those out). Needs only the standard library and the `websockets` package.

    python examples/bot.py --game leekha --fill     # host a room, seat the server's bots, start
    python examples/bot.py --room K7MPQ2            # take a seat in someone's room (the host starts)

`--server` names the server (default http://localhost:8000).

It prints `seated <room> <seat>` once it has a seat in someone's room, and one line when the game ends:
`finished <room> acked=<n> rejected=<n> result=<json>`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import urllib.request
from typing import Any

import websockets


def call(server: str, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(urllib.request.Request(server + path, data, headers, method=method)) as r:
        return json.loads(r.read() or "null")


def patch(doc: Any, ops: list[dict[str, Any]]) -> Any:
    """RFC 6902 `add`, `remove` and `replace`: all the server sends."""
    for op in ops:
        *parents, last = [p.replace("~1", "/").replace("~0", "~") for p in op["path"].split("/")[1:]]
        node = doc
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        key: Any = (len(node) if last == "-" else int(last)) if isinstance(node, list) else last
        if op["op"] == "remove":
            del node[key]
        elif op["op"] == "add" and isinstance(node, list):
            node.insert(key, op["value"])
        else:
            node[key] = op["value"]
    return doc


def ready(action: dict[str, Any]) -> bool:
    return "<" not in json.dumps(action)


async def play(server: str, code: str, token: str, rng: random.Random) -> dict[str, Any]:
    async with websockets.connect(server.replace("http", "ws", 1) + f"/ws/rooms/{code}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        view: Any = None
        counts = {"ack": 0, "reject": 0}
        refused: list[dict[str, Any]] = []  # refused since the view last changed
        sent: dict[str, Any] = {}
        pending = False
        async for text in ws:
            msg = json.loads(text)
            if msg["type"] == "ping":
                await ws.send(json.dumps({"type": "pong", "id": msg["id"], "t": msg["t"]}))
            elif msg["type"] in ("snapshot", "patch"):
                view = msg["view"] if msg["type"] == "snapshot" else patch(view, msg["ops"])
                refused.clear()
            elif msg["type"] in counts:
                counts[msg["type"]] += 1
                pending = False
                if msg["type"] == "reject":
                    refused.append(sent)
            elif msg["type"] == "error":
                print(f"error {msg['code']}: {msg['message']}", file=sys.stderr)
            if view and view["room"]["status"] == "finished":
                return {**counts, "result": view["room"]["match"]["result"]}
            game = view and view["game"]
            choices = [a for a in (game or {}).get("legal", []) if ready(a) and a not in refused]
            if choices and not pending:
                sent, pending = rng.choice(choices), True
                frame = {"type": "action", "id": f"a{sum(counts.values())}", "action": sent}
                await ws.send(json.dumps(frame))
    raise RuntimeError("the server closed the connection before the game ended")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--server", default="http://localhost:8000")
    parser.add_argument("--game", default="slap", help="game to host (see GET /api/games)")
    parser.add_argument("--options", default="{}", help="table options as JSON, when hosting")
    parser.add_argument("--room", help="join this room instead of hosting one")
    parser.add_argument("--fill", action="store_true", help="when hosting: seat server bots, then start")
    parser.add_argument("--players", type=int, help="with --fill: players in all (default: the fewest)")
    parser.add_argument("--name", default="Robo")
    parser.add_argument("--seed", type=int, help="seed of the bot's own choices")
    args = parser.parse_args()
    token = call(args.server, "POST", "/api/players", body={"name": args.name})["token"]
    if args.room:
        code = args.room
        seat = call(args.server, "POST", f"/api/rooms/{code}/seats", token, {})["seat"]
        print(f"seated {code} {seat}", flush=True)
    else:
        body = {"game": args.game, "options": json.loads(args.options)}
        room = call(args.server, "POST", "/api/rooms", token, body)
        code = room["code"]
        print(f"hosting {room['link']}", flush=True)
        if args.fill:
            for _ in range((args.players or room["min_players"]) - 1):
                call(args.server, "POST", f"/api/rooms/{code}/bots", token, {})
            call(args.server, "POST", f"/api/rooms/{code}/start", token)
    end = asyncio.run(play(args.server, code, token, random.Random(args.seed)))
    print(f"finished {code} acked={end['ack']} rejected={end['reject']} result={json.dumps(end['result'])}")


if __name__ == "__main__":
    main()
