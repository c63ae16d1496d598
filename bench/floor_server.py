"""The floor of ``bench.fanout``: a bare FastAPI + uvicorn broadcast server, no game, no log, no diff.

Run by ``bench.fanout`` as ``uvicorn bench.floor_server:app`` with the same flags as Bordet. A client
joins ``/ws/floor/{table}/{seat}`` (tables of :data:`SEATS`) and sends ``{"k": <step>}``; the server
answers each such frame with one ~150-byte text message to every seat of that table (the sender too),
through Starlette's ``send_text`` as an application would. Whatever a Bordet action costs above this
is the price of the game, its log and its diffs.
"""

from __future__ import annotations

import orjson
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

SEATS = 4
MAX_TABLES = 20_000
MAX_FRAME = 256
#: Pads every effect message to about the size of a small Bordet patch frame.
PAD = "x" * 96

app = FastAPI(title="bench floor", openapi_url=None, docs_url=None, redoc_url=None)
tables: dict[int, list[WebSocket | None]] = {}


@app.get("/api/health")
async def health() -> dict[str, str]:
    return {"status": "ok"}


def effect(table: int, seat: int, k: int) -> str:
    return f'{{"type":"effect","table":{table},"seat":{seat},"k":{k},"pad":"{PAD}"}}'


@app.websocket("/ws/floor/{table}/{seat}")
async def floor(ws: WebSocket, table: int, seat: int) -> None:
    await ws.accept()  # first, so that a refusal reaches the client as a coded close
    if not (0 <= table < MAX_TABLES and 0 <= seat < SEATS):
        await ws.close(code=4400, reason=f"BAD_SEAT: tables 0..{MAX_TABLES - 1}, seats 0..{SEATS - 1}")
        return
    seats = tables.setdefault(table, [None] * SEATS)
    seats[seat] = ws
    try:
        while True:
            text = await ws.receive_text()
            try:
                raw = orjson.loads(text[:MAX_FRAME])
                k = int(raw["k"])
            except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
                await ws.send_text('{"type":"error","code":"BAD_MESSAGE","message":"send {\\"k\\": <int>}"}')
                continue
            message = effect(table, seat, k)
            for peer in seats:
                if peer is not None:
                    await peer.send_text(message)
    except WebSocketDisconnect:
        pass
    finally:
        if seats[seat] is ws:
            seats[seat] = None
