"""Markdown and JSON formatting of messages, tables and examples; deterministic."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel

WIDTH = 100
"""JSON examples are printed compactly up to this width, then broken over lines."""


FIELD_NOTES: dict[tuple[str, str], str] = {
    ("Ping", "id"): "Client-chosen; echoed in the `pong`.",
    ("Pong", "id"): "The `id` of the server `ping` being answered.",
    ("Welcome", "room"): "The room code.",
    ("Welcome", "player_id"): "Your player id (as in the view's `seats` and `spectators`).",
    ("Welcome", "name"): "Your display name.",
    ("Welcome", "role"): "Whether you hold a seat or watch; `left`: you left the running game and watch "
    "while a bot plays your seat, until you take it back (`POST /api/rooms/{code}/seats`).",
    ("Welcome", "seat"): "Your seat number, or `null` for a spectator.",
    ("Patch", "seq"): "Exactly one more than the previous `snapshot`/`patch` on this connection.",
    ("Patch", "ops"): "RFC 6902 operations (`add`, `remove`, `replace`) on the view; apply in order.",
    ("Ack", "id"): "The `id` of the action.",
    ("Ack", "seq"): "The frame (`snapshot`/`patch`) that carries the action's effect, already sent.",
    ("Ack", "code"): "`DUPLICATE_ACTION` on a duplicate, else absent.",
    ("Reject", "id"): "The `id` of the action.",
    ("Reject", "code"): "A transport code (below) or a game rule code (below).",
    ("Reject", "message"): "For the player; do not match on it.",
    ("Error", "code"): "A transport code (below).",
    ("Error", "message"): "For the player; do not match on it.",
    ("ServerPong", "id"): "The `id` of your `ping`.",
    ("ServerPong", "t0"): "Your `t0`, echoed.",
    ("ServerPing", "id"): "Answer with a `pong` carrying this `id`.",
    ("ServerPing", "t"): "Server time (room clock, ms) when sent; echo it in the `pong`.",
}
"""Field descriptions for fields whose schema has none (the schema's own description wins)."""


# --- rendering ------------------------------------------------------------------------


def pretty(value: Any, level: int = 0, start: int = 0) -> str:
    """JSON, one line when it fits in ``WIDTH`` columns, else one member per line.

    >>> print(pretty({"a": [1, 2], "b": {"c": None}}))
    {"a": [1, 2], "b": {"c": null}}
    >>> print(pretty({"k": "x" * 60, "l": ["y" * 40, 1]}))
    {
      "k": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
      "l": ["yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy", 1]
    }
    """
    flat = json.dumps(value, ensure_ascii=False)
    if start + len(flat) < WIDTH or not isinstance(value, dict | list) or not value:
        return flat
    pad = "  " * (level + 1)
    if isinstance(value, dict):
        items = []
        for key, item in value.items():
            head = f"{pad}{json.dumps(key, ensure_ascii=False)}: "
            items.append(head + pretty(item, level + 1, len(head)))
        return "{\n" + ",\n".join(items) + "\n" + "  " * level + "}"
    items = [pad + pretty(item, level + 1, len(pad)) for item in value]
    return "[\n" + ",\n".join(items) + "\n" + "  " * level + "]"


def wire(msg: BaseModel) -> dict[str, Any]:
    """A message as it travels: ``type`` always, other fields left at their default omitted."""
    data = msg.model_dump(mode="json")
    fields = type(msg).model_fields
    return {
        k: v
        for k, v in data.items()
        if k == "type" or fields[k].is_required() or v != fields[k].get_default(call_default_factory=True)
    }


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


def _schema_type(schema: dict[str, Any]) -> str:
    if "const" in schema:
        return f"`{json.dumps(schema['const'])}`"
    if "enum" in schema:
        return " \\| ".join(f"`{json.dumps(v)}`" for v in schema["enum"])
    if "anyOf" in schema:
        return " \\| ".join(_schema_type(s) for s in schema["anyOf"])
    kind = schema.get("type")
    if kind == "array":
        return f"array of {_schema_type(schema['items'])}" if "items" in schema else "array"
    if kind == "string":
        low, high = schema.get("minLength"), schema.get("maxLength")
        if low is not None and high is not None:
            return f"string ({low}-{high} chars)"
        if high is not None:
            return f"string (max {high} chars)"
        return "string"
    return str(kind)


def field_rows(model: type[BaseModel]) -> list[tuple[str, str, str, str]]:
    """(name, type, required, description) for each field, from the model's JSON schema."""
    schema = model.model_json_schema()
    required = set(schema.get("required", []))
    rows = []
    for name, prop in schema["properties"].items():
        description = prop.get("description") or FIELD_NOTES.get((model.__name__, name), "")
        if name == "type":
            description = description or "The message type."
        if "default" in prop and name != "type":
            description = f"{description} Default `{json.dumps(prop['default'])}`.".strip()
        # ``type`` has a default only for building server messages in Python; it is always sent.
        is_required = name in required or name == "type"
        rows.append((f"`{name}`", _schema_type(prop), "yes" if is_required else "no", _cell(description)))
    return rows


def message_type(model: type[BaseModel]) -> str:
    const = model.model_json_schema()["properties"]["type"]["const"]
    return str(const)


def message_heading(model: type[BaseModel]) -> str:
    return f"### `{message_type(model)}` (`{model.__name__}`)"


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _json_block(value: Any) -> str:
    return "```json\n" + pretty(value) + "\n```"


def _doc(model: type[BaseModel]) -> str:
    return " ".join((model.__doc__ or "").split())


def _message_section(model: type[BaseModel], examples: list[BaseModel]) -> str:
    rows = field_rows(model)
    parts = [message_heading(model), "", _doc(model), ""]
    parts.append(_table(["Field", "Type", "Required", "Description"], rows))
    for example in examples:
        parts += ["", _json_block(wire(example))]
    return "\n".join(parts)
