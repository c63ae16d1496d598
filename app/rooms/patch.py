"""Applying RFC 6902 JSON Patch operations, as every client does with the server's frames.

:func:`apply_patch` applies add/remove/replace/move/copy/test without mutating
its input: only the containers along each changed path are copied, everything
else is shared with the input document.

>>> doc = {"seats": [{"score": 3}, {"score": 5}], "log": []}
>>> new = apply_patch(doc, [{"op": "replace", "path": "/seats/1/score", "value": 6},
...                         {"op": "add", "path": "/log/-", "value": "scored"}])
>>> new
{'seats': [{'score': 3}, {'score': 6}], 'log': ['scored']}
>>> doc["seats"][1], new["seats"][0] is doc["seats"][0]
({'score': 5}, True)
>>> from app.rooms.diff import diff
>>> apply_patch(doc, diff(doc, new)) == new
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from app.rooms.diff import Json, JsonPatchError, unescape_token

__all__ = ["JsonPatchError", "apply_patch"]


def apply_patch(doc: Json, ops: Iterable[Mapping[str, Any]]) -> Json:
    """Apply RFC 6902 ``ops`` to ``doc`` and return the result; ``doc`` is not mutated.

    Supports ``add``, ``remove``, ``replace``, ``move``, ``copy`` and ``test``.
    The result shares unchanged subtrees with ``doc`` and the inserted values
    with ``ops``; neither is ever mutated.  Raises :class:`JsonPatchError` if
    an op cannot be applied (the input stays untouched, the patch is atomic).

    >>> apply_patch({"a": {"b": 1}}, [{"op": "move", "from": "/a/b", "path": "/c"}])
    {'a': {}, 'c': 1}
    >>> try:
    ...     apply_patch([1], [{"op": "test", "path": "/0", "value": 2}])
    ... except JsonPatchError as exc:
    ...     print(exc)
    test failed at '/0'
    """
    return _Patcher(doc).run(ops)


class _Patcher:
    """Applies ops with copy-on-write of the containers along each written path."""

    __slots__ = ("owned", "root")

    def __init__(self, doc: Json) -> None:
        self.root = doc
        # Containers created by this patcher (id -> object, kept alive so ids stay unique):
        # only these may be mutated in place.
        self.owned: dict[int, Any] = {}

    def run(self, ops: Iterable[Mapping[str, Any]]) -> Json:
        for op in ops:
            if not isinstance(op, Mapping):
                raise JsonPatchError(f"operation must be an object, got {op!r}")
            name = op.get("op")
            path = _member(op, "path")
            if name == "add":
                self.add(path, _member(op, "value"))
            elif name == "remove":
                self.remove(path)
            elif name == "replace":
                self.replace(path, _member(op, "value"))
            elif name == "move":
                src = _member(op, "from")
                if src != path:
                    if path.startswith(src + "/"):
                        raise JsonPatchError(f"cannot move {src!r} into its own child {path!r}")
                    value = self.get(src)
                    self.remove(src)
                    self.add(path, value)
            elif name == "copy":
                value = self.get(_member(op, "from"))
                self.add(path, value)
                # The copied value may contain containers we own: it now lives at two
                # places, so nothing may be mutated in place any more.
                self.owned.clear()
            elif name == "test":
                expected = _member(op, "value")
                if not _json_equal(self.get(path), expected):
                    raise JsonPatchError(f"test failed at {path!r}")
            else:
                raise JsonPatchError(f"unknown op {name!r}")
        return self.root

    # -- reading

    def get(self, path: str) -> Json:
        cur = self.root
        for token in _tokens(path):
            if isinstance(cur, dict):
                key = unescape_token(token)
                if key not in cur:
                    raise JsonPatchError(f"no member {key!r} at {path!r}")
                cur = cur[key]
            elif isinstance(cur, list):
                cur = cur[_index(token, len(cur), path)]
            else:
                raise JsonPatchError(f"cannot descend into a scalar at {path!r}")
        return cur

    # -- writing

    def _own(self, value: Any) -> Any:
        if id(value) in self.owned:
            return value
        if isinstance(value, dict):
            copy: Any = dict(value)
        elif isinstance(value, list):
            copy = list(value)
        else:
            return value
        self.owned[id(copy)] = copy
        return copy

    def _parent(self, path: str) -> tuple[Any, str]:
        """Owned container holding the target of ``path``, and the target's raw token."""
        tokens = _tokens(path)
        last = tokens.pop()
        self.root = cur = self._own(self.root)
        for token in tokens:
            if isinstance(cur, dict):
                key: Any = unescape_token(token)
                if key not in cur:
                    raise JsonPatchError(f"no member {key!r} at {path!r}")
            elif isinstance(cur, list):
                key = _index(token, len(cur), path)
            else:
                raise JsonPatchError(f"cannot descend into a scalar at {path!r}")
            child = cur[key]
            owned = self._own(child)
            if owned is not child:
                cur[key] = owned
            cur = owned
        if not isinstance(cur, (dict, list)):
            raise JsonPatchError(f"parent of {path!r} is not a container")
        return cur, last

    def add(self, path: str, value: Json) -> None:
        if path == "":
            self.root = value
            return
        parent, token = self._parent(path)
        if isinstance(parent, dict):
            parent[unescape_token(token)] = value
        elif token == "-":
            parent.append(value)
        else:
            parent.insert(_index(token, len(parent) + 1, path), value)

    def remove(self, path: str) -> None:
        if path == "":
            raise JsonPatchError("cannot remove the whole document")
        parent, token = self._parent(path)
        if isinstance(parent, dict):
            key = unescape_token(token)
            if key not in parent:
                raise JsonPatchError(f"no member {key!r} to remove at {path!r}")
            del parent[key]
        else:
            del parent[_index(token, len(parent), path)]

    def replace(self, path: str, value: Json) -> None:
        if path == "":
            self.root = value
            return
        parent, token = self._parent(path)
        if isinstance(parent, dict):
            key = unescape_token(token)
            if key not in parent:
                raise JsonPatchError(f"no member {key!r} to replace at {path!r}")
            parent[key] = value
        else:
            parent[_index(token, len(parent), path)] = value


def _member(op: Mapping[str, Any], name: str) -> Any:
    try:
        value = op[name]
    except KeyError:
        raise JsonPatchError(f"operation {op!r} lacks {name!r}") from None
    if name != "value" and not isinstance(value, str):
        raise JsonPatchError(f"{name!r} must be a string in {op!r}")
    return value


def _tokens(path: str) -> list[str]:
    if path == "":
        return []
    if path[0] != "/":
        raise JsonPatchError(f"JSON Pointer must start with '/': {path!r}")
    return path[1:].split("/")


def _index(token: str, size: int, path: str) -> int:
    """Array index from ``token``, valid when ``0 <= index < size``."""
    if token.isascii() and token.isdigit() and (token == "0" or token[0] != "0"):
        index = int(token)
        if index < size:
            return index
        raise JsonPatchError(f"index {index} out of range at {path!r}")
    raise JsonPatchError(f"invalid array index {token!r} at {path!r}")


def _json_equal(a: Json, b: Json) -> bool:
    """Equality as RFC 6902 ``test`` defines it: numbers by value, booleans apart from numbers."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(v, b[k]) for k, v in a.items())
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(_json_equal, a, b))
    return type(a) is type(b) and bool(a == b)
