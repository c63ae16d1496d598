"""Fast JSON diff producing RFC 6902 JSON Patch operations, and a patch applier.

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

:func:`apply_patch` applies add/remove/replace/move/copy/test (RFC 6902)
without mutating its input: only the containers along each changed path are
copied, everything else is shared with the input document.

>>> doc = {"seats": [{"score": 3}, {"score": 5}], "log": []}
>>> new = apply_patch(doc, [{"op": "replace", "path": "/seats/1/score", "value": 6},
...                         {"op": "add", "path": "/log/-", "value": "scored"}])
>>> new
{'seats': [{'score': 3}, {'score': 6}], 'log': ['scored']}
>>> doc["seats"][1], new["seats"][0] is doc["seats"][0]
({'score': 5}, True)
>>> apply_patch(doc, diff(doc, new)) == new
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeAlias

__all__ = [
    "JsonPatchError",
    "Op",
    "Shared",
    "apply_patch",
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


# --------------------------------------------------------------------------- apply


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
