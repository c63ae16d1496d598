"""Which modules the image compiles with mypyc, and the guard that refuses a stale build.

The modules below are on every action's path (the diff, the view helpers, reading a client's text
frames, building and writing frames, the event log's rows) or are the heaviest rules work there is
(Rummy's meld checks, drafts, table and view). They are pure, strictly typed Python, so mypyc
compiles them to C extensions without a change. ``bench.paired`` measured the compiled server at
0.947-0.959 of the pure one's CPU per action (``--rate 400``, 2026-12-07, the first eleven). The
reading of text frames came later: pure, it measured 0.977 of the server before it, and with it
compiled too the twelve measured 0.917 of that pure server (0.916-0.932, ``--rate 600``), so about
0.94 of pure Python's CPU per action for the same sources. ``bench.diff_bench`` puts four seats'
diffs of a played card at 57 against 164 µs. The server never applies a patch on that path, but
``app/rooms/patch.py`` is here too: ``bench.fanout``'s load generator applies each of its 1,000
clients' patches, 8,000 a second at 2,000 actions/s, and pure, that took it to 94-95 % of its core,
where its own lateness (send lag p99 180-200 ms) swamped the server's; compiled, 81 % and 47 ms.
The bounds check of every action a client sends (``app/validation.py``) and the parsing of Rummy's
actions came last: ``bench.paired --compiled`` put the fifteen at 0.993 of the thirteen's CPU per
action (``--rate 600``, five pairs, 2026-12-07).

Compiling is optional: the Docker image does it in a builder stage and ``make native`` in a
checkout; without it the same sources run as plain Python, which stays the reference (the README's
test command runs the suite that way; CI then runs the rules and room tests again compiled).

Not here, though just as hot: ``app/engines/step.py`` (compiled, its ``type(seat) is not int``
check lets ``True`` through, because mypyc unboxes the declared ``int``) and Rummy's ``engine.py``
(a test subclasses it, and its compiled methods then refuse the subclass's instances). The room and
its table, inbox and clock, the connection, the endpoint and the event log were tried too. They
compile and pass every test once the room and the log stay ordinary classes (any class decorator
mypyc does not know does that: tests patch the log's methods on its instances, and rooms are weakly
referenced) and the closures in their methods move out (``functools.partial``, a module-level
function: mypyc fails on them). But those eighteen modules measured 0.966 of pure Python's CPU per
action against the first eleven's 0.957 in the same hour (``bench.paired --rate 400``, three pairs
each, 2026-12-07): their time is in what they call (the event loop, the socket, the views), not in
their own bytecode, so they stay pure.

A compiled module sits beside its source (``diff.cpython-311-x86_64-linux-gnu.so`` next to
``diff.py``) and wins the import, so an edited source would silently not run. The build writes a
manifest of the sources' hashes; :func:`refuse_stale_build`, called by ``app/__init__.py`` before
any other module of the package is imported, refuses to go on if a source has changed since, or if
compiled files lie there without a manifest. Checking costs well under a millisecond.

This module imports nothing from ``app``, so ``tools/native.py`` can load it by path to build,
without importing (and so guarding) the package it is about to rebuild.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as root:
...     package = Path(root) / "app"
...     package.mkdir()
...     _ = (package / "diff.py").write_text("x = 1\\n")
...     before = stale_reasons(package)
...     write_manifest(package, ["app/diff.py"])
...     _ = (package / "diff.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
...     built = stale_reasons(package)
...     _ = (package / "diff.py").write_text("x = 2\\n")
...     after = stale_reasons(package)
>>> before, built, after
([], [], ['app/diff.py has changed since it was compiled'])
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
from collections.abc import Iterable
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
MANIFEST_NAME = "_native.json"
# mypyc's shared runtime for the group lands inside the package (app/_native__mypyc.*.so), so
# copying app/ carries everything the compiled modules import.
GROUP = "app._native"
_RUNTIME_PREFIX = GROUP.rpartition(".")[2] + "__mypyc."

MODULES: tuple[str, ...] = (
    "app/rooms/diff.py",
    "app/rooms/frames.py",
    "app/rooms/audience.py",
    "app/rooms/patch.py",
    "app/engines/view_parts.py",
    "app/engines/rummy/melds.py",
    "app/engines/rummy/draft.py",
    "app/engines/rummy/table.py",
    "app/engines/rummy/view.py",
    "app/realtime/frame_writer.py",
    "app/realtime/write_soon.py",
    "app/realtime/text_frames.py",
    "app/db/event_rows.py",
    "app/validation.py",
    "app/engines/rummy/actions.py",
)

_EXTENSION_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)
_LOOSE_EXTENSION = (".so", ".pyd")


class StaleNativeBuild(ImportError):
    """Compiled modules that no longer match their sources: rebuild them or remove them."""


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compiled_files(package: Path = PACKAGE) -> list[Path]:
    """Every C extension under the package (any platform's suffix, so a foreign build counts)."""
    found: list[Path] = []
    for directory, subdirectories, files in os.walk(package):
        subdirectories[:] = [name for name in subdirectories if name != "__pycache__"]
        found.extend(Path(directory, name) for name in files if name.endswith(_LOOSE_EXTENSION))
    return sorted(found)


def compiled_modules(package: Path = PACKAGE) -> list[Path]:
    """The compiled modules under the package: its extensions but mypyc's shared runtime."""
    return [path for path in compiled_files(package) if not path.name.startswith(_RUNTIME_PREFIX)]


def compiled_beside(source: Path) -> bool:
    """Whether an extension this interpreter would import instead of ``source`` lies beside it."""
    return any(source.with_name(source.stem + suffix).exists() for suffix in _EXTENSION_SUFFIXES)


def write_manifest(package: Path, sources: Iterable[str]) -> None:
    """Record the hash of each compiled source (paths relative to the package's parent)."""
    root = package.parent
    digests = {source: source_digest(root / source) for source in sources}
    (package / MANIFEST_NAME).write_text(json.dumps({"sources": digests}, indent=1, sort_keys=True) + "\n")


def stale_reasons(package: Path = PACKAGE) -> list[str]:
    """Why the compiled files under ``package`` cannot be trusted; empty if they can (or if none)."""
    compiled = compiled_files(package)
    manifest_path = package / MANIFEST_NAME
    if not compiled:
        return []
    if not manifest_path.is_file():
        return [f"{len(compiled)} compiled files but no {MANIFEST_NAME} saying what they were built from"]
    root = package.parent
    try:
        sources: dict[str, str] = json.loads(manifest_path.read_text())["sources"]
    except (ValueError, KeyError, TypeError) as error:
        return [f"{MANIFEST_NAME} is unreadable ({error})"]
    reasons: list[str] = []
    for source, digest in sorted(sources.items()):
        path = root / source
        if not path.is_file():
            reasons.append(f"{source} is gone")
        elif source_digest(path) != digest:
            reasons.append(f"{source} has changed since it was compiled")
    built_stems = {(root / source).with_suffix("") for source in sources}
    for extension in compiled_modules(package):
        if extension.with_name(extension.name.split(".", 1)[0]) not in built_stems:
            reasons.append(f"{extension.relative_to(root)} is not in {MANIFEST_NAME}")
    return reasons


def refuse_stale_build(package: Path = PACKAGE) -> None:
    reasons = stale_reasons(package)
    if reasons:
        raise StaleNativeBuild(
            "The compiled modules do not match their sources: "
            + "; ".join(reasons)
            + ". Run `make native` to compile them again, or `make native-clean` to run pure Python."
        )


def is_compiled(module_file: str | None) -> bool:
    return module_file is not None and module_file.endswith(_EXTENSION_SUFFIXES)
