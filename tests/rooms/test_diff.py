"""Tests for app.rooms.diff and app.rooms.patch: hand-written cases, RFC 6902 examples, seeded properties."""

from __future__ import annotations

import json
import random
from collections import OrderedDict
from typing import Any

import pytest

from app.rooms.diff import Shared, diff, diff_shared, escape_token, unescape_token
from app.rooms.patch import JsonPatchError, apply_patch

# --------------------------------------------------------------------------- helpers


def canon(value: Any) -> str:
    """Type-faithful text of a JSON value: 1, 1.0 and true all differ; key order ignored."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, allow_nan=False)


def strict_eq(a: Any, b: Any) -> bool:
    """Deep equality that also compares types (independent of the module's own)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(strict_eq(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(strict_eq(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def reference_apply(doc: Any, ops: list[dict[str, Any]]) -> Any:
    """A tiny, deliberately naive RFC 6902 applier (add/remove/replace) to check diff's output."""
    doc = json.loads(json.dumps(doc))  # deep copy that keeps JSON types
    for op in ops:
        kind, path = op["op"], op["path"]
        value = json.loads(json.dumps(op["value"])) if "value" in op else None
        if path == "":
            assert kind in ("add", "replace"), op
            doc = value
            continue
        assert path.startswith("/"), op
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in path[1:].split("/")]
        parent = doc
        for token in tokens[:-1]:
            parent = parent[int(token)] if isinstance(parent, list) else parent[token]
        last = tokens[-1]
        if isinstance(parent, list):
            if kind == "add":
                if last == "-":
                    parent.append(value)
                else:
                    assert 0 <= int(last) <= len(parent), op
                    parent.insert(int(last), value)
            else:
                index = int(last)
                assert 0 <= index < len(parent), op
                if kind == "remove":
                    del parent[index]
                else:
                    assert kind == "replace", op
                    parent[index] = value
        else:
            assert isinstance(parent, dict), op
            if kind == "add":
                parent[last] = value
            else:
                assert last in parent, op
                if kind == "remove":
                    del parent[last]
                else:
                    assert kind == "replace", op
                    parent[last] = value
    return doc


def check_ops_shape(ops: list[dict[str, Any]]) -> None:
    json.dumps(ops, allow_nan=False)  # the ops go on the wire as they are
    for op in ops:
        assert op["op"] in ("add", "remove", "replace"), op
        assert isinstance(op["path"], str), op
        assert op["path"] == "" or op["path"].startswith("/"), op
        assert ("value" in op) == (op["op"] != "remove"), op
        assert set(op) <= {"op", "path", "value"}, op


def check_roundtrip(old: Any, new: Any) -> list[dict[str, Any]]:
    before_old, before_new = canon(old), canon(new)
    ops = diff(old, new)
    assert canon(old) == before_old and canon(new) == before_new, "diff mutated its input"
    check_ops_shape(ops)
    patched = apply_patch(old, ops)
    assert canon(old) == before_old and canon(new) == before_new, "apply_patch mutated its input"
    assert strict_eq(patched, new), (old, new, ops, patched)
    assert canon(patched) == before_new
    assert canon(reference_apply(old, ops)) == before_new, (old, new, ops)
    if strict_eq(old, new):
        assert ops == []
    assert diff(patched, new) == []
    return ops


# --------------------------------------------------------------------------- diff: hand-written


def test_identical_object_gives_nothing() -> None:
    view = {"a": [1, 2, {"b": None}], "c": "x"}
    assert diff(view, view) == []


def test_equal_copies_give_nothing() -> None:
    view = {"a": [1, 2, {"b": None, "t": True, "f": 1.5}], "c": "x", "e": {}, "l": []}
    assert diff(view, json.loads(json.dumps(view))) == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (1, 2),
        ("a", "b"),
        (1, True),
        (True, 1),
        (0, False),
        (False, 0),
        (1, 1.0),
        (1.0, 1),
        (None, 0),
        (0, None),
        (None, {}),
        ({}, []),
        ([], {}),
        ("1", 1),
        ([1], "1"),
    ],
)
def test_root_scalar_or_type_change_is_a_root_replace(old: Any, new: Any) -> None:
    ops = check_roundtrip(old, new)
    assert ops == [{"op": "replace", "path": "", "value": new}]
    assert type(ops[0]["value"]) is type(new)


@pytest.mark.parametrize(
    ("old", "new"),
    [({"n": 1}, {"n": True}), ({"n": True}, {"n": 1}), ({"n": 0}, {"n": 0.0}), ({"n": False}, {"n": 0})],
)
def test_bool_int_float_are_told_apart_in_dicts(old: Any, new: Any) -> None:
    ops = check_roundtrip(old, new)
    assert ops == [{"op": "replace", "path": "/n", "value": new["n"]}]
    assert type(ops[0]["value"]) is type(new["n"])


def test_bool_int_told_apart_in_lists_and_deep() -> None:
    assert check_roundtrip([1, 0, 2], [True, False, 2]) == [
        {"op": "replace", "path": "/0", "value": True},
        {"op": "replace", "path": "/1", "value": False},
    ]
    ops = check_roundtrip({"a": {"b": [{"c": 1}]}}, {"a": {"b": [{"c": True}]}})
    assert ops == [{"op": "replace", "path": "/a/b/0/c", "value": True}]


def test_nested_dicts() -> None:
    old = {"a": {"b": {"c": 1, "d": [1, 2]}, "e": "same"}, "f": 3}
    new = {"a": {"b": {"c": 2, "d": [1, 2]}, "e": "same"}, "f": 3}
    assert check_roundtrip(old, new) == [{"op": "replace", "path": "/a/b/c", "value": 2}]


def test_keys_removed_and_added() -> None:
    ops = check_roundtrip({"a": 1, "b": 2, "x": {"y": 1}}, {"b": 2, "c": 3, "x": {"z": 1}})
    assert ops == [
        {"op": "remove", "path": "/a"},
        {"op": "remove", "path": "/x/y"},
        {"op": "add", "path": "/x/z", "value": 1},
        {"op": "add", "path": "/c", "value": 3},
    ]


def test_none_values() -> None:
    assert check_roundtrip({"a": None}, {"a": None}) == []
    assert check_roundtrip({"a": None}, {"a": 0}) == [{"op": "replace", "path": "/a", "value": 0}]
    assert check_roundtrip({"a": 0}, {"a": None}) == [{"op": "replace", "path": "/a", "value": None}]
    assert check_roundtrip({"a": None}, {}) == [{"op": "remove", "path": "/a"}]
    assert check_roundtrip({}, {"a": None}) == [{"op": "add", "path": "/a", "value": None}]
    assert check_roundtrip([], [None]) == [{"op": "add", "path": "/-", "value": None}]
    assert check_roundtrip([None, None], [None]) == [{"op": "remove", "path": "/1"}]


@pytest.mark.parametrize(
    ("key", "token"),
    [("a/b", "a~1b"), ("m~n", "m~0n"), ("~1", "~01"), ("/~", "~1~0"), ("~/", "~0~1"), ("", ""), ("-", "-")],
)
def test_key_escaping(key: str, token: str) -> None:
    assert escape_token(key) == token
    assert unescape_token(token) == key
    ops = check_roundtrip({key: {key: 1}}, {key: {key: 2}})
    assert ops == [{"op": "replace", "path": f"/{token}/{token}", "value": 2}]
    ops = check_roundtrip({}, {key: 1})
    assert ops == [{"op": "add", "path": f"/{token}", "value": 1}]


@pytest.mark.parametrize("token", ["~", "a~", "~2", "~a", "x~~0"])
def test_bad_escapes_are_rejected(token: str) -> None:
    with pytest.raises(JsonPatchError):
        unescape_token(token)


def test_list_grows_at_end() -> None:
    ops = check_roundtrip({"pile": [1]}, {"pile": [1, 2, {"c": 3}]})
    assert ops == [
        {"op": "add", "path": "/pile/-", "value": 2},
        {"op": "add", "path": "/pile/-", "value": {"c": 3}},
    ]
    assert check_roundtrip([], [7]) == [{"op": "add", "path": "/-", "value": 7}]


def test_list_shrinks_at_end_from_highest_index_down() -> None:
    ops = check_roundtrip({"pile": [1, 2, 3, 4]}, {"pile": [1, 2]})
    assert ops == [{"op": "remove", "path": "/pile/3"}, {"op": "remove", "path": "/pile/2"}]
    assert check_roundtrip([1], []) == [{"op": "remove", "path": "/0"}]


def test_same_length_list_recurses_per_index() -> None:
    old = {"seats": [{"name": "a", "score": 1}, {"name": "b", "score": 2}]}
    new = {"seats": [{"name": "a", "score": 1}, {"name": "b", "score": 5}]}
    assert check_roundtrip(old, new) == [{"op": "replace", "path": "/seats/1/score", "value": 5}]
    # A same-length reorder is still correct (per-index replaces).
    assert check_roundtrip([1, 2, 3], [3, 2, 1]) == [
        {"op": "replace", "path": "/0", "value": 3},
        {"op": "replace", "path": "/2", "value": 1},
    ]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ([1, 2, 3], [3, 1]),  # reorder and shrink
        ([4, 8, 9], [4, 9]),  # removal in the middle
        ([4, 9], [4, 8, 9]),  # insertion in the middle
        ([1, 2], [9, 2, 3]),  # grew but the prefix changed
        ([1, 2], [True, 2, 3]),  # prefix only "==" in Python: 1 == True
        ([1.0, 2, 3], [1]),  # shrank, kept item only "==": 1.0 == 1
        ([[1], {"a": 0}], [[True], {"a": 0}, 5]),  # deep 1 == True inside the prefix
        ([{"a": 1}], []),
    ],
)
def test_other_list_changes_replace_the_whole_list(old: Any, new: Any) -> None:
    if not new:
        assert check_roundtrip({"l": old}, {"l": new}) == [{"op": "remove", "path": "/l/0"}]
        return
    assert check_roundtrip({"l": old}, {"l": new}) == [{"op": "replace", "path": "/l", "value": new}]


def test_unchanged_subtrees_shared_by_identity_are_skipped() -> None:
    shared = {"deep": [1, 2, 3]}
    assert check_roundtrip({"a": shared, "b": 1}, {"a": shared, "b": 2}) == [
        {"op": "replace", "path": "/b", "value": 2}
    ]


def test_ops_reference_new_values_without_copying() -> None:
    card = {"id": 12, "suit": "h"}
    ops = diff({"trick": []}, {"trick": [card]})
    assert ops[0]["value"] is card


def test_mapping_subclasses_and_tuples_are_diffed_structurally() -> None:
    """Not JSON-ready, but serializers accept them: still no 1 == True blind spot."""
    assert diff(OrderedDict(a=1, b=[1]), OrderedDict(a=True, b=[1])) == [
        {"op": "replace", "path": "/a", "value": True}
    ]
    assert diff((1, 2), (1, 2, 3)) == [{"op": "add", "path": "/-", "value": 3}]
    assert diff({"t": (1,)}, {"t": (True,)}) == [{"op": "replace", "path": "/t/0", "value": True}]
    assert diff({"t": (1,)}, {"t": [1]}) == [{"op": "replace", "path": "/t", "value": [1]}]


# --------------------------------------------------------------------------- apply_patch

RFC6902_EXAMPLES: list[tuple[str, Any, list[dict[str, Any]], Any]] = [
    ("A.1", {"foo": "bar"}, [{"op": "add", "path": "/baz", "value": "qux"}], {"baz": "qux", "foo": "bar"}),
    (
        "A.2",
        {"foo": ["bar", "baz"]},
        [{"op": "add", "path": "/foo/1", "value": "qux"}],
        {"foo": ["bar", "qux", "baz"]},
    ),
    ("A.3", {"baz": "qux", "foo": "bar"}, [{"op": "remove", "path": "/baz"}], {"foo": "bar"}),
    ("A.4", {"foo": ["bar", "qux", "baz"]}, [{"op": "remove", "path": "/foo/1"}], {"foo": ["bar", "baz"]}),
    (
        "A.5",
        {"baz": "qux", "foo": "bar"},
        [{"op": "replace", "path": "/baz", "value": "boo"}],
        {"baz": "boo", "foo": "bar"},
    ),
    (
        "A.6",
        {"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}},
        [{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}],
        {"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}},
    ),
    (
        "A.7",
        {"foo": ["all", "grass", "cows", "eat"]},
        [{"op": "move", "from": "/foo/1", "path": "/foo/3"}],
        {"foo": ["all", "cows", "eat", "grass"]},
    ),
    (
        "A.8",
        {"baz": "qux", "foo": ["a", 2, "c"]},
        [{"op": "test", "path": "/baz", "value": "qux"}, {"op": "test", "path": "/foo/1", "value": 2}],
        {"baz": "qux", "foo": ["a", 2, "c"]},
    ),
    (
        "A.10",
        {"foo": "bar"},
        [{"op": "add", "path": "/child", "value": {"grandchild": {}}}],
        {"foo": "bar", "child": {"grandchild": {}}},
    ),
    (
        "A.11",
        {"foo": "bar"},
        [{"op": "add", "path": "/baz", "value": "qux", "xyz": 123}],
        {"foo": "bar", "baz": "qux"},
    ),
    (
        "A.14",
        {"/": 9, "~1": 10},
        [{"op": "test", "path": "/~01", "value": 10}],
        {"/": 9, "~1": 10},
    ),
    (
        "A.16",
        {"foo": ["bar"]},
        [{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}],
        {"foo": ["bar", ["abc", "def"]]},
    ),
    ("copy", {"a": {"b": 1}}, [{"op": "copy", "from": "/a", "path": "/c"}], {"a": {"b": 1}, "c": {"b": 1}}),
    ("root replace", {"a": 1}, [{"op": "replace", "path": "", "value": [1]}], [1]),
    ("root add", [1], [{"op": "add", "path": "", "value": {"x": None}}], {"x": None}),
    ("move to itself", {"a": 1}, [{"op": "move", "from": "/a", "path": "/a"}], {"a": 1}),
    ("test numbers by value", {"n": 1}, [{"op": "test", "path": "/n", "value": 1.0}], {"n": 1}),
    ("test whole doc", {"n": [1]}, [{"op": "test", "path": "", "value": {"n": [1]}}], {"n": [1]}),
    ("no ops", {"n": 1}, [], {"n": 1}),
]


@pytest.mark.parametrize(
    ("name", "doc", "ops", "expected"), RFC6902_EXAMPLES, ids=[e[0] for e in RFC6902_EXAMPLES]
)
def test_apply_patch_rfc_examples(name: str, doc: Any, ops: list[dict[str, Any]], expected: Any) -> None:
    before = canon(doc)
    assert strict_eq(apply_patch(doc, ops), expected)
    assert canon(doc) == before


BAD_PATCHES: list[tuple[str, Any, list[dict[str, Any]]]] = [
    ("A.9 test fails", {"baz": "qux"}, [{"op": "test", "path": "/baz", "value": "bar"}]),
    ("A.12 add to missing parent", {"foo": "bar"}, [{"op": "add", "path": "/baz/bat", "value": "qux"}]),
    ("A.15 string vs number", {"/": 9, "~1": 10}, [{"op": "test", "path": "/~01", "value": "10"}]),
    ("test bool vs int", {"n": 1}, [{"op": "test", "path": "/n", "value": True}]),
    ("remove missing key", {"a": 1}, [{"op": "remove", "path": "/b"}]),
    ("replace missing key", {"a": 1}, [{"op": "replace", "path": "/b", "value": 2}]),
    ("remove index out of range", [1], [{"op": "remove", "path": "/1"}]),
    ("add index past end", [1], [{"op": "add", "path": "/2", "value": 0}]),
    ("leading zero index", [1, 2], [{"op": "replace", "path": "/01", "value": 0}]),
    ("negative index", [1, 2], [{"op": "remove", "path": "/-1"}]),
    ("dash not allowed for remove", [1], [{"op": "remove", "path": "/-"}]),
    ("non-numeric index", [1], [{"op": "replace", "path": "/a", "value": 0}]),
    ("bad escape", {"~2": 1}, [{"op": "remove", "path": "/~2"}]),
    ("no leading slash", {"a": 1}, [{"op": "remove", "path": "a"}]),
    ("descend into scalar", {"a": 1}, [{"op": "add", "path": "/a/b", "value": 1}]),
    ("remove root", {"a": 1}, [{"op": "remove", "path": ""}]),
    ("unknown op", {"a": 1}, [{"op": "frobnicate", "path": "/a"}]),
    ("missing value", {"a": 1}, [{"op": "add", "path": "/b"}]),
    ("missing path", {"a": 1}, [{"op": "add", "value": 1}]),
    ("move into own child", {"a": {"b": 1}}, [{"op": "move", "from": "/a", "path": "/a/b/c"}]),
    ("move from missing", {"a": 1}, [{"op": "move", "from": "/x", "path": "/y"}]),
    (
        "atomic: second op fails",
        {"a": {"b": 1}},
        [{"op": "replace", "path": "/a/b", "value": 2}, {"op": "remove", "path": "/zz"}],
    ),
]


@pytest.mark.parametrize(("name", "doc", "ops"), BAD_PATCHES, ids=[b[0] for b in BAD_PATCHES])
def test_apply_patch_errors(name: str, doc: Any, ops: list[dict[str, Any]]) -> None:
    before = canon(doc)
    with pytest.raises(JsonPatchError):
        apply_patch(doc, ops)
    assert canon(doc) == before


def test_apply_patch_shares_untouched_subtrees() -> None:
    doc: dict[str, Any] = {"seats": [{"s": 1}, {"s": 2}], "deck": {"n": 40}}
    out = apply_patch(doc, [{"op": "replace", "path": "/seats/0/s", "value": 9}])
    assert out == {"seats": [{"s": 9}, {"s": 2}], "deck": {"n": 40}}
    assert out["deck"] is doc["deck"] and out["seats"][1] is doc["seats"][1]
    assert out["seats"] is not doc["seats"] and doc["seats"][0] == {"s": 1}


def test_apply_patch_never_mutates_op_values_or_aliases() -> None:
    value = {"x": [1]}
    ops: list[dict[str, Any]] = [
        {"op": "add", "path": "/a", "value": value},
        {"op": "add", "path": "/a/x/-", "value": 2},  # writes into a value that belongs to the caller
        {"op": "copy", "from": "/a", "path": "/b"},
        {"op": "replace", "path": "/a/x/0", "value": 7},  # must not show through the copy at /b
        {"op": "add", "path": "/b/y", "value": 0},
    ]
    out = apply_patch({}, ops)
    assert value == {"x": [1]}
    assert out == {"a": {"x": [7, 2]}, "b": {"x": [1, 2], "y": 0}}


def test_apply_patch_repeated_writes_on_one_path() -> None:
    doc = {"l": [1]}
    ops = [{"op": "add", "path": "/l/-", "value": i} for i in range(5)]
    assert apply_patch(doc, ops) == {"l": [1, 0, 1, 2, 3, 4]}
    assert doc == {"l": [1]}


# --------------------------------------------------------------------------- property test

KEYS = ["a", "b", "id", "seats", "hand", "", "-", "0", "1", "~", "/", "a/b", "~0", "~1", "~01", "é", "x y"]
SCALARS: list[Any] = [0, 1, -1, 2, 0.0, 1.0, 2.5, True, False, None, "", "0", "1", "true", "null", "~1"]


def rand_scalar(rng: random.Random) -> Any:
    r = rng.random()
    if r < 0.6:
        return rng.choice(SCALARS)
    if r < 0.75:
        return rng.randint(-(10**12), 10**12)
    if r < 0.85:
        return rng.uniform(-1e6, 1e6)
    return "".join(rng.choice("ab~/é0 ") for _ in range(rng.randint(0, 5)))


def rand_doc(rng: random.Random, depth: int = 4) -> Any:
    r = rng.random()
    if depth <= 0 or r < 0.35:
        return rand_scalar(rng)
    if r < 0.7:
        return {rng.choice(KEYS): rand_doc(rng, depth - 1) for _ in range(rng.randint(0, 5))}
    return [rand_doc(rng, depth - 1) for _ in range(rng.randint(0, 5))]


def flip_type(rng: random.Random, value: Any) -> Any:
    """A value that Python may call equal but JSON tells apart (or just another scalar)."""
    if isinstance(value, bool):
        return rng.choice([int(value), float(value), not value])
    if isinstance(value, int):
        return rng.choice([float(value), bool(value), value + 1, str(value)])
    if isinstance(value, float):
        return rng.choice([int(value), value + 0.5, bool(value)])
    return rand_scalar(rng)


def mutate(rng: random.Random, doc: Any, depth: int = 4) -> Any:
    """A changed version of ``doc`` that shares unchanged subtrees; ``doc`` is never mutated."""
    r = rng.random()
    if r < 0.08 or depth <= 0:
        return rand_doc(rng, 2)
    if isinstance(doc, dict):
        out = dict(doc)
        for _ in range(rng.randint(1, 3)):
            k = rng.random()
            if out and k < 0.5:
                key = rng.choice(list(out))
                out[key] = mutate(rng, out[key], depth - 1)
            elif out and k < 0.7:
                del out[rng.choice(list(out))]
            else:
                out[rng.choice(KEYS)] = rand_doc(rng, 2)
        return out
    if isinstance(doc, list):
        out_l = list(doc)
        k = rng.random()
        if out_l and k < 0.35:
            for _ in range(rng.randint(1, 2)):
                i = rng.randrange(len(out_l))
                out_l[i] = mutate(rng, out_l[i], depth - 1)
        elif k < 0.5:
            out_l.extend(rand_doc(rng, 2) for _ in range(rng.randint(1, 3)))
        elif out_l and k < 0.6:
            del out_l[rng.randrange(len(out_l)) :]
        elif out_l and k < 0.7:
            del out_l[rng.randrange(len(out_l))]
        elif k < 0.8:
            out_l.insert(rng.randint(0, len(out_l)), rand_scalar(rng))
        elif k < 0.9:
            rng.shuffle(out_l)
        elif out_l:
            i = rng.randrange(len(out_l))
            out_l[i] = flip_type(rng, out_l[i]) if not isinstance(out_l[i], (dict, list)) else None
        return out_l
    return flip_type(rng, doc)


@pytest.mark.parametrize("seed", range(8))
def test_random_mutations_roundtrip(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(400):
        old = rand_doc(rng)
        new = old
        for _ in range(rng.randint(1, 3)):
            new = mutate(rng, new)
        check_roundtrip(old, new)
        check_roundtrip(new, old)


@pytest.mark.parametrize("seed", range(4))
def test_random_unrelated_docs_roundtrip(seed: int) -> None:
    rng = random.Random(1000 + seed)
    for _ in range(300):
        old, new = rand_doc(rng), rand_doc(rng)
        check_roundtrip(old, new)
        assert diff(old, json.loads(json.dumps(old))) == []


def test_random_docs_with_type_flipped_leaves() -> None:
    """Docs equal under Python's == but not as JSON must still diff (1 vs True vs 1.0)."""
    rng = random.Random(77)
    hits = 0
    for _ in range(500):
        old = {"v": [rng.choice([0, 1]) for _ in range(4)], "w": {"x": rng.choice([0, 1])}}
        new = json.loads(json.dumps(old))
        new["v"][rng.randrange(4)] ^= 0  # unchanged value, new object
        i = rng.randrange(4)
        new["v"][i] = rng.choice([bool, float])(new["v"][i])
        assert old == new  # Python cannot see the difference...
        ops = check_roundtrip(old, new)  # ...but the diff must
        assert ops == [{"op": "replace", "path": f"/v/{i}", "value": new["v"][i]}]
        hits += 1
    assert hits == 500


@pytest.mark.parametrize("seed", range(4))
def test_views_sharing_a_public_part_diff_as_each_alone(seed: int) -> None:
    rng = random.Random(500 + seed)
    for _ in range(200):
        public_old = rand_doc(rng)
        public_new = mutate(rng, public_old)
        olds = [{"game": {"public": public_old, "you": seat, "hand": rand_doc(rng, 2)}} for seat in range(4)]
        news = [
            {"game": {**old["game"], "public": public_new, "hand": mutate(rng, old["game"]["hand"])}}
            for old in olds
        ]
        shared: Shared = {}
        for old, new in zip(olds, news, strict=True):
            assert diff_shared(old, new, shared) == diff(old, new)
            assert apply_patch(old, diff_shared(old, new, shared)) == new


def test_a_shared_public_part_is_diffed_once() -> None:
    public_old, public_new = {"pile": [1, 2]}, {"pile": [1, 2, 3]}
    shared: Shared = {}
    first = diff_shared({"game": {"public": public_old}}, {"game": {"public": public_new}}, shared)
    second = diff_shared({"game": {"public": public_old}}, {"game": {"public": public_new}}, shared)
    assert second == first and second[0] is first[0]
