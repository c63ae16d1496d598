"""Scans of the source for the codes it raises: engine rule codes and lobby (HTTP) errors."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from app.engines.base import IllegalAction
from app.rooms.errors import RoomError
from tools.protocol_doc.paths import ROOT

# --- source scans -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CodeSite:
    """One place in the source that raises an error with a literal code."""

    code: str | None
    """None when the code is not a string literal (the scan cannot tell it)."""
    path: str
    line: int
    message: str
    status: int | None = None


def _call_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _text(node: ast.expr | None) -> str:
    """A message argument as text; f-string fields become ``{expression}``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        out = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                out.append(str(part.value))
            elif isinstance(part, ast.FormattedValue):
                out.append("{" + ast.unparse(part.value) + "}")
        return "".join(out)
    return "" if node is None else "{" + ast.unparse(node) + "}"


def _calls(paths: Iterable[Path], name: str) -> Iterator[tuple[str, ast.Call]]:
    for path in sorted(paths):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        rel = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.as_posix()
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _call_name(node) == name:
                yield rel, node


def _arg(node: ast.Call, index: int, keyword: str) -> ast.expr | None:
    if len(node.args) > index:
        return node.args[index]
    return next((k.value for k in node.keywords if k.arg == keyword), None)


def _literal(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def illegal_action_sites(paths: Iterable[Path]) -> list[CodeSite]:
    """Every ``IllegalAction(code, message)`` construction in these source files."""
    found = []
    for rel, call in _calls(paths, IllegalAction.__name__):
        code_arg, message_arg = _arg(call, 0, "code"), _arg(call, 1, "message")
        found.append(CodeSite(_literal(code_arg), rel, call.lineno, _text(message_arg)))
    return found


def lobby_sites() -> list[CodeSite]:
    """Every ``RoomError(code, message, status)`` in ``app/`` and every literal JSON error response."""
    paths = list((ROOT / "app").rglob("*.py"))
    default_status = RoomError("X", "x").status
    found = []
    for rel, call in _calls(paths, RoomError.__name__):
        status_arg = _arg(call, 2, "status")
        status = default_status if status_arg is None else ast.literal_eval(status_arg)
        code_arg, message_arg = _arg(call, 0, "code"), _arg(call, 1, "message")
        found.append(CodeSite(_literal(code_arg), rel, call.lineno, _text(message_arg), status))
    for rel, call in _calls(paths, "JSONResponse"):
        body, status_arg = _arg(call, 0, "content"), _arg(call, 1, "status_code")
        if not isinstance(body, ast.Dict) or not isinstance(status_arg, ast.Constant):
            continue
        if not isinstance(status_arg.value, int):
            continue
        fields = {_literal(k): v for k, v in zip(body.keys, body.values, strict=True) if k is not None}
        code = _literal(fields.get("code"))
        if code is not None:
            message = _text(fields.get("message"))
            found.append(CodeSite(code, rel, call.lineno, message, status_arg.value))
    return found


def engine_source_paths(game: str) -> list[Path]:
    """The source files of one game's engine package."""
    return sorted((ROOT / "app" / "engines" / game).glob("*.py"))
