"""Fast JSON diff producing RFC 6902 JSON Patch operations.

This is on the hot path of every broadcast frame: each action yields one diff
per seat of a small game view (~1-3 KB of JSON), so :func:`diff` avoids any
generic machinery, never copies its inputs, and takes these fast paths:

* ``old is new`` (any subtree) -> nothing, without looking inside;
* equal scalars of the same type -> nothing;
* dicts recurse key by key (key gone -> ``remove``, new key -> ``add``);
* lists of the same length recurse index by index; a list that only grew at
  its end -> one ``add`` per appended element at ``.../-``; a list that only
  shrank at its end -> ``remove`` ops from the highest index down; any other
  list change -> one ``replace`` of the whole list (cheap and correct);
* a value whose type changed -> ``replace``.  Types are compared, not only
  values: Python's ``1 == True == 1.0`` would otherwise hide a change that
  JSON clients see (``1`` vs ``true`` vs ``1.0``).

The ops reference sub-objects of ``new`` (no copy): serialize them before
mutating ``new``.  Paths are JSON Pointers (RFC 6901): ``""`` is the whole
document, ``~`` is escaped as ``~0`` and ``/`` as ``~1``.

>>> diff({"turn": 1, "pile": [7, 9]}, {"turn": 2, "pile": [7, 9, 4]})
[{'op': 'replace', 'path': '/turn', 'value': 2}, {'op': 'add', 'path': '/pile/-', 'value': 4}]
>>> diff({"a/b": 1, "x": True}, {"a/b": True})
[{'op': 'replace', 'path': '/a~1b', 'value': True}, {'op': 'remove', 'path': '/x'}]

The other side, applying a patch, is :mod:`app.rooms.patch` (what clients do;
the server itself only applies patches in tests and benchmarks).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

__all__ = [
    "Json",
    "JsonPatchError",
    "Op",
    "Shared",
    "diff",
    "diff_shared",
    "escape_token",
    "unescape_token",
]

Json: TypeAlias = Any
"""A JSON-ready value: dict (str keys), list, str, int, float, bool or None."""

Op: TypeAlias = dict[str, Any]
"""One RFC 6902 operation, e.g. ``{"op": "add", "path": "/a/-", "value": 1}``."""

_MISSING: Any = object()
_SCALARS = frozenset({str, int, float, bool, type(None)})


class JsonPatchError(ValueError):
    """A patch that cannot be applied (bad pointer, missing target, failed test...)."""


# --------------------------------------------------------------------------- pointers


def escape_token(key: str) -> str:
    """Escape one object key as a JSON Pointer reference token.

    >>> escape_token("a/b~c")
    'a~1b~0c'
    """
    if "~" in key or "/" in key:
        return key.replace("~", "~0").replace("/", "~1")
    return key


def unescape_token(token: str) -> str:
    """Inverse of :func:`escape_token`; rejects ``~`` not followed by ``0`` or ``1``.

    >>> unescape_token("a~1b~0c"), unescape_token("~01")
    ('a/b~c', '~1')
    """
    if "~" not in token:
        return token
    parts = token.split("~")
    for part in parts[1:]:
        if not part or part[0] not in "01":
            raise JsonPatchError(f"invalid escape in JSON Pointer token {token!r}")
    # RFC 6901: first ~1 -> /, then ~0 -> ~ (so "~01" is "~1", not "/").
    return token.replace("~1", "/").replace("~0", "~")


# --------------------------------------------------------------------------- diff


def diff(old: Json, new: Json) -> list[Op]:
    """Return the RFC 6902 ops turning ``old`` into ``new`` (empty list if none).

    >>> diff([1, 2, 3], [1])
    [{'op': 'remove', 'path': '/2'}, {'op': 'remove', 'path': '/1'}]
    >>> diff({"n": 1}, {"n": 1.0})
    [{'op': 'replace', 'path': '/n', 'value': 1.0}]
    >>> diff({"hand": [4, 8, 9]}, {"hand": [4, 9]})
    [{'op': 'replace', 'path': '/hand', 'value': [4, 9]}]
    """
    ops: list[Op] = []
    if old is not new:
        _diff_any(old, new, "", ops)
    return ops


Shared: TypeAlias = dict[tuple[int, int, str], list[Op]]
"""What :func:`diff_shared` already worked out: the ops of an (old, new) pair of containers at a path."""

SHARED_DEPTH = 2
"""How deep :func:`diff_shared` looks for shared containers: the view's parts (its room and game
views) and theirs (the game's table, seats...); deeper, the memo would cost more than it saves."""


def diff_shared(old: Json, new: Json, shared: Shared) -> list[Op]:
    """:func:`diff`, where a pair of containers (the same objects at the same path) that an earlier
    call with the same ``shared`` already diffed gets its ops from there instead of again.

    Several seats' views built together share their public part (``Engine.views``): diffing
    each seat's view then diffs that part only once.

    >>> table = {"deck": 40, "pile": [1, 2]}
    >>> new_table = {"deck": 39, "pile": [1, 2, 3]}
    >>> shared: Shared = {}
    >>> a = diff_shared({"table": table, "you": 0}, {"table": new_table, "you": 0}, shared)
    >>> b = diff_shared({"table": table, "you": 1}, {"table": new_table, "you": 1}, shared)
    >>> a == b == diff({"table": table}, {"table": new_table}), b[0] is a[0]
    (True, True)
    """
    ops: list[Op] = []
    if old is new:
        return ops
    if type(old) is dict and type(new) is dict:
        _diff_dict(old, new, "", ops, shared, SHARED_DEPTH)
    else:
        _diff_any(old, new, "", ops)
    return ops


def _diff_memo(old: Json, new: Json, path: str, ops: list[Op], shared: Shared, depth: int) -> None:
    """Two containers of one type at ``path``: their ops from ``shared``, or diffed and kept there."""
    memo = (id(old), id(new), path)
    done = shared.get(memo)
    if done is not None:
        ops.extend(done)
        return
    start = len(ops)
    if type(old) is list:
        _diff_list(old, new, path, ops)
    elif depth > 1:
        _diff_dict(old, new, path, ops, shared, depth - 1)
    else:
        _diff_dict(old, new, path, ops)
    shared[memo] = ops[start:]


def _diff_any(old: Json, new: Json, path: str, ops: list[Op]) -> None:
    # Caller guarantees ``old is not new``.
    t = type(old)
    if t is type(new):
        if t is dict:
            _diff_dict(old, new, path, ops)
            return
        if t is list:
            _diff_list(old, new, path, ops)
            return
        if t in _SCALARS:
            if old != new:
                ops.append({"op": "replace", "path": path, "value": new})
            return
        # Not JSON-ready types: subclasses of dict/list, tuples, anything else.
        if isinstance(old, Mapping):
            _diff_dict(old, new, path, ops)
            return
        if isinstance(old, (list, tuple)):
            _diff_list(old, new, path, ops)
            return
        if old == new:
            return
    ops.append({"op": "replace", "path": path, "value": new})


def _diff_dict(
    old: Mapping[str, Json],
    new: Mapping[str, Json],
    path: str,
    ops: list[Op],
    shared: Shared | None = None,
    depth: int = 0,
) -> None:
    # The hot loop: scalars and plain dicts/lists are dispatched inline (no _diff_any call).
    get = new.get
    removed = False
    for key, ov in old.items():
        nv = get(key, _MISSING)
        if ov is nv:
            continue
        t = type(ov)
        if t is type(nv):
            if t in _SCALARS:
                if ov != nv:
                    ops.append({"op": "replace", "path": f"{path}/{escape_token(key)}", "value": nv})
            elif shared is not None and (t is dict or t is list):
                _diff_memo(ov, nv, f"{path}/{escape_token(key)}", ops, shared, depth)
            elif t is dict:
                _diff_dict(ov, nv, f"{path}/{escape_token(key)}", ops)
            elif t is list:
                _diff_list(ov, nv, f"{path}/{escape_token(key)}", ops)
            else:
                _diff_any(ov, nv, f"{path}/{escape_token(key)}", ops)
        elif nv is _MISSING:
            ops.append({"op": "remove", "path": f"{path}/{escape_token(key)}"})
            removed = True
        else:
            ops.append({"op": "replace", "path": f"{path}/{escape_token(key)}", "value": nv})
    # Without removals every old key is in new: equal sizes then mean equal key sets.
    if removed or len(new) != len(old):
        for key, nv in new.items():
            if key not in old:
                ops.append({"op": "add", "path": f"{path}/{escape_token(key)}", "value": nv})


def _diff_list(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    n_old = len(old)
    n_new = len(new)
    if n_old == n_new:
        for i in range(n_old):
            ov = old[i]
            nv = new[i]
            if ov is nv:
                continue
            t = type(ov)
            if t is type(nv):
                if t in _SCALARS:
                    if ov != nv:
                        ops.append({"op": "replace", "path": f"{path}/{i}", "value": nv})
                elif t is dict:
                    _diff_dict(ov, nv, f"{path}/{i}", ops)
                elif t is list:
                    _diff_list(ov, nv, f"{path}/{i}", ops)
                else:
                    _diff_any(ov, nv, f"{path}/{i}", ops)
            else:
                ops.append({"op": "replace", "path": f"{path}/{i}", "value": nv})
        return
    if n_new > n_old:
        if _same_prefix(old, new):
            end = path + "/-"
            for i in range(n_old, n_new):
                ops.append({"op": "add", "path": end, "value": new[i]})
            return
    elif _same_prefix(new, old):
        for i in range(n_old - 1, n_new - 1, -1):
            ops.append({"op": "remove", "path": f"{path}/{i}"})
        return
    ops.append({"op": "replace", "path": path, "value": new})


def _same_prefix(short: Any, long: Any) -> bool:
    """True if ``short`` equals (types included) the first ``len(short)`` items of ``long``."""
    return all(map(_same, short, long))  # map stops at the end of ``short``


def _same(a: Json, b: Json) -> bool:
    """Deep equality that also compares types (``1``, ``True`` and ``1.0`` all differ)."""
    if a is b:
        return True
    t = type(a)
    if t is not type(b):
        return False
    if t in _SCALARS:
        return bool(a == b)
    if t is dict:
        if len(a) != len(b):
            return False
        get = b.get
        for key, av in a.items():
            bv = get(key, _MISSING)
            if av is not bv and (bv is _MISSING or not _same(av, bv)):
                return False
        return True
    if t is list:
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, Mapping):
        if len(a) != len(b):
            return False
        for key, av in a.items():
            bv = b.get(key, _MISSING)
            if bv is _MISSING or not _same(av, bv):
                return False
        return True
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(map(_same, a, b))
    return bool(a == b)
