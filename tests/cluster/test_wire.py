"""Relay messages carry ASGI scopes and events across processes unchanged."""

from __future__ import annotations

from typing import Any

from app.cluster.wire import RELAYED, pack, scope_in, scope_out, unpack


def test_events_with_bytes_and_text_round_trip() -> None:
    event = {
        "type": "http.response.start",
        "status": 200,
        "headers": [(b"content-type", b"application/json")],
    }
    body = {"type": "http.response.body", "body": b"\x00\xff{}", "more_body": False}
    text = {"type": "websocket.send", "text": '{"type":"patch","seq":3}'}
    messages: tuple[dict[str, Any], ...] = (event, body, text)
    for message in messages:
        back = unpack(pack({"k": "out", "s": "p-1", "e": message}))["e"]
        assert back == {k: [list(h) for h in v] if k == "headers" else v for k, v in message.items()}


def test_a_scope_crosses_without_the_process_own_parts_and_is_marked_relayed() -> None:
    scope = {
        "type": "websocket",
        "path": "/ws/rooms/ABC234",
        "headers": [(b"x-forwarded-for", b"203.0.113.9")],
        "client": ("10.0.0.2", 50000),
        "server": ("10.0.0.1", 8000),
        "app": object(),
        "state": {"secret": 1},
        "bordet.transport": object(),
    }
    back = scope_in(unpack(pack({"scope": scope_out(scope)}))["scope"])
    assert back["path"] == "/ws/rooms/ABC234" and back["client"] == ("10.0.0.2", 50000)
    assert back["headers"] == [(b"x-forwarded-for", b"203.0.113.9")]
    assert "app" not in back and "state" not in back and "bordet.transport" not in back
    assert back[RELAYED] is True
