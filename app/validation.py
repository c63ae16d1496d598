"""Bounds on untrusted text and JSON, shared by the HTTP lobby and the WebSocket endpoint.

Everything a client sends may end up in a room's view (shown to other players), in the
database (PostgreSQL refuses NUL in text and JSON) and in the event log (orjson refuses
lone surrogates and integers beyond 64 bits). So names, seat prefs, table options and
actions are checked here, once, before any of that: a value that passes can always be
stored, serialised and shown. The per-game meaning (a Slap colour is one of Y, G, P, B)
is the room's and the engine's business, not this module's.

Error messages never quote the offending text (it may be huge, invisible or not even
encodable); they name the place (``cards[3]``) and the rule, and a character by its code
point (``U+202E``).

>>> forbidden_char("Ana")
>>> forbidden_char("A\\u202ena")
'U+202E (a bidirectional control character)'
>>> check_json({"colour": "G"}, PREFS)
>>> check_json({"colour": 1.5}, PREFS)
Traceback (most recent call last):
...
app.validation.BoundsError: colour: numbers must be integers here
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass

MAX_SAFE_INT = 2**53 - 1
"""The largest integer every JSON reader (a browser's included) reads exactly."""

NAME_MAX = 40
"""Display names: 1 to this many characters once trimmed."""

_BIDI = frozenset([0x061C, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])
"""Arabic letter mark, the embeddings/overrides U+202A..U+202E and the isolates U+2066..U+2069:
they reorder the text around them, so a name could pass itself off as another."""


def forbidden_char(text: str) -> str | None:
    """The first character of ``text`` a name or short string may not hold, described; else None.

    Refused: lone surrogates (not encodable as UTF-8), control characters (category Cc, NUL
    included), bidirectional controls and other invisible format characters (category Cf: the
    zero-width U+200B..U+200F, U+FEFF...), and the line/paragraph separators U+2028/U+2029.
    """
    if text.isprintable():  # the fast path: printable text has none of the categories below
        return None
    for ch in text:
        point = ord(ch)
        category = unicodedata.category(ch)
        if category == "Cs":
            what = "a lone surrogate"
        elif point in _BIDI:
            what = "a bidirectional control character"
        elif category == "Cc":
            what = "a control character"
        elif category == "Cf":
            what = "an invisible format character"
        elif category in ("Zl", "Zp"):
            what = "a line or paragraph separator"
        else:
            continue
        return f"U+{point:04X} ({what})"
    return None


def clean_name(value: str) -> str:
    """A display name, trimmed; raises ValueError (with a message fit for the player) if refused.

    Forbidden characters are looked for before trimming: a name that arrives with a control
    character anywhere was not typed by a person into a name field.
    """
    bad = forbidden_char(value)
    if bad is not None:
        raise ValueError(f"a name may not contain {bad}")
    name = value.strip()
    if not 1 <= len(name) <= NAME_MAX:
        raise ValueError(f"a name is 1 to {NAME_MAX} characters once trimmed")
    return name


class BoundsError(ValueError):
    """A JSON value outside its bounds; ``where`` is its place (``""`` for the value itself)."""

    def __init__(self, where: str, rule: str) -> None:
        self.where, self.rule = where, rule
        super().__init__(f"{where}: {rule}" if where else rule)


@dataclass(frozen=True, slots=True)
class JsonBounds:
    """Limits for one kind of untrusted JSON object (the top level must be an object)."""

    max_keys: int
    """Keys per object."""
    max_depth: int
    """Nesting of objects and lists: 1 = a flat object of scalars."""
    max_items: int
    """Items per list (0: no lists)."""
    max_str: int
    """Characters per string value."""
    max_key: int
    """Characters per key."""
    max_nodes: int
    """Values in all (so breadth times depth cannot add up to megabytes)."""
    key_pattern: re.Pattern[str] | None = None
    """Keys must match this in full; None: any key without forbidden characters."""
    floats: bool = False
    """Whether non-integer numbers are allowed (then only finite ones)."""


PREFS = JsonBounds(
    max_keys=8,
    max_depth=1,
    max_items=0,
    max_str=64,
    max_key=32,
    max_nodes=8,
    key_pattern=re.compile("[a-z_]+"),
)
"""Seat prefs (`{"colour": "G"}`): flat, null/bool/short string/integer values."""

OPTIONS = JsonBounds(
    max_keys=32, max_depth=3, max_items=32, max_str=200, max_key=64, max_nodes=1024, floats=True
)
"""Table options: only their size is bounded here, each game's options model checks the rest."""

ACTION = JsonBounds(
    max_keys=32, max_depth=4, max_items=128, max_str=200, max_key=64, max_nodes=2048, floats=True
)
"""A game action (`{"type": "slap", "flip": 7}`); Rummy's table of melds is the largest."""


def _key_rule(bounds: JsonBounds) -> str:
    if bounds.key_pattern is not None:
        return f"keys are 1 to {bounds.max_key} characters of a-z and _"
    return f"keys are 1 to {bounds.max_key} characters of plain text"


def check_json(value: object, bounds: JsonBounds) -> None:
    """Raise :class:`BoundsError` unless ``value`` is an object within ``bounds``."""
    if not isinstance(value, dict):
        raise BoundsError("", "must be a JSON object")
    if not _QuickPass(bounds).fits(value, 0):
        _Walk(bounds).walk(value, "", 0)


def _where(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


class _QuickPass:
    """Every action a client sends is checked: this pass vouches for the usual value (plain
    dicts, lists, printable strings and safe integers, as orjson reads them) without building a
    path per value. Whatever it cannot vouch for, :class:`_Walk` judges and names; so it may
    only say yes where ``_Walk`` would (``tests/test_validation.py`` checks them against each
    other)."""

    __slots__ = ("bounds", "nodes")

    def __init__(self, bounds: JsonBounds) -> None:
        self.bounds = bounds
        self.nodes = -1  # the object itself is not counted, as in _Walk

    def fits(self, item: object, depth: int) -> bool:
        bounds = self.bounds
        self.nodes += 1
        if self.nodes > bounds.max_nodes:
            return False
        # Exact types only: a subclass (IntEnum, OrderedDict...) is left to _Walk.
        if type(item) is str:
            return len(item) <= bounds.max_str and item.isprintable()
        if type(item) is int:
            return -MAX_SAFE_INT <= item <= MAX_SAFE_INT
        if item is None or type(item) is bool:
            return True
        if type(item) is float:
            return bounds.floats and math.isfinite(item)
        if depth >= bounds.max_depth:
            return False
        if type(item) is dict:
            return self._fits_object(item, depth + 1)
        if type(item) is list:
            return len(item) <= bounds.max_items and all(self.fits(e, depth + 1) for e in item)
        return False

    def _fits_object(self, item: dict[object, object], depth: int) -> bool:
        bounds = self.bounds
        if len(item) > bounds.max_keys:
            return False
        pattern = bounds.key_pattern
        for key, value in item.items():
            if type(key) is not str or not 1 <= len(key) <= bounds.max_key:
                return False
            if (pattern.fullmatch(key) is None) if pattern is not None else not key.isprintable():
                return False
            if not self.fits(value, depth):
                return False
        return True


class _Walk:
    """One check of one value. A method rather than a nested function: a closure that calls
    itself is a reference cycle, left for the garbage collector after every check (every
    action a client sends), and that garbage makes the collector run far more often."""

    __slots__ = ("bounds", "nodes")

    def __init__(self, bounds: JsonBounds) -> None:
        self.bounds = bounds
        self.nodes = -1  # the object itself is not counted

    def walk(self, item: object, path: str, depth: int) -> None:
        bounds = self.bounds
        self.nodes += 1
        if self.nodes > bounds.max_nodes:
            raise BoundsError(path, f"at most {bounds.max_nodes} values in all")
        # bool before int: in Python a bool is an int.
        if item is None or isinstance(item, bool):
            return
        if isinstance(item, int):
            if abs(item) > MAX_SAFE_INT:
                raise BoundsError(path, f"integers must lie within ±{MAX_SAFE_INT}")
            return
        if isinstance(item, float):
            if not bounds.floats:
                raise BoundsError(path, "numbers must be integers here")
            if not math.isfinite(item):
                raise BoundsError(path, "numbers must be finite")
            return
        if isinstance(item, str):
            if len(item) > bounds.max_str:
                raise BoundsError(path, f"strings are at most {bounds.max_str} characters")
            bad = forbidden_char(item)
            if bad is not None:
                raise BoundsError(path, f"strings may not contain {bad}")
            return
        if depth >= bounds.max_depth:
            if bounds.max_depth == 1:
                raise BoundsError(path, "values are null, true, false, a string or an integer")
            raise BoundsError(path, f"nested at most {bounds.max_depth} deep")
        if isinstance(item, dict):
            if len(item) > bounds.max_keys:
                raise BoundsError(path, f"at most {bounds.max_keys} keys")
            for index, key in enumerate(item):
                ok = (
                    isinstance(key, str)
                    and 1 <= len(key) <= bounds.max_key
                    and (
                        bounds.key_pattern.fullmatch(key) is not None
                        if bounds.key_pattern is not None
                        else forbidden_char(key) is None
                    )
                )
                if not ok:
                    # The key itself is not quoted: it is what is wrong.
                    raise BoundsError(path, f"key #{index + 1}: {_key_rule(bounds)}")
                self.walk(item[key], _where(path, key), depth + 1)
            return
        if isinstance(item, list):
            if len(item) > bounds.max_items:
                rule = f"lists have at most {bounds.max_items} items" if bounds.max_items else "no lists here"
                raise BoundsError(path, rule)
            for index, element in enumerate(item):
                self.walk(element, f"{path}[{index}]", depth + 1)
            return
        raise BoundsError(path, "not a JSON value")
