"""ASGI scopes and events as pub/sub messages between processes (JSON; bytes as base64)."""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any

import orjson

RELAYED = "bordet.relayed"
"""Set in the scope of a request the owner runs for another process: it is not routed again."""

# What crosses to the owner: the request itself, nothing of this process's own (app, state...).
_SCOPE_KEYS = (
    "type",
    "asgi",
    "http_version",
    "method",
    "scheme",
    "path",
    "raw_path",
    "root_path",
    "query_string",
    "headers",
    "client",
    "server",
    "subprotocols",
)


def _plain(value: Any) -> Any:
    if isinstance(value, bytes):
        return {"$b": base64.b64encode(value).decode()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _back(value: Any) -> Any:
    if isinstance(value, dict):
        if len(value) == 1 and "$b" in value:
            return base64.b64decode(value["$b"])
        return {k: _back(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_back(v) for v in value]
    return value


def pack(message: dict[str, Any]) -> bytes:
    return orjson.dumps(_plain(message))


def unpack(data: bytes) -> dict[str, Any]:
    message = _back(orjson.loads(data))
    if not isinstance(message, dict):
        raise ValueError("not a relay message")
    return message


def scope_out(scope: Mapping[str, Any]) -> dict[str, Any]:
    return {k: scope[k] for k in _SCOPE_KEYS if k in scope}


def scope_in(wire: dict[str, Any]) -> dict[str, Any]:
    scope = dict(wire)
    for key in ("client", "server"):
        if scope.get(key) is not None:
            scope[key] = tuple(scope[key])
    scope["headers"] = [tuple(h) for h in scope.get("headers", [])]
    scope[RELAYED] = True
    return scope
