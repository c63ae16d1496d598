"""The browser client's files, served so that a returning player loads them from the browser's cache.

Every file under ``static/`` gets a version: a hash of its own bytes and of every file it
references, directly or not (ES-module imports, ``/static/...`` paths in scripts, styles and
pages). Each reference is rewritten to carry its target's version (``./api.js?v=1f2e...``), so a
URL with the current version names exactly one content forever and is answered with
``Cache-Control: public, max-age=31536000, immutable``. The HTML page is the entry point: always
revalidated (``no-cache`` with an ETag; an unchanged page costs a 304), it names the versions of
everything else. A URL without a version, or with an old one, is revalidated too.

Bodies are compressed once, when the files are read (gzip, where it saves bytes), and sent
compressed to clients that accept gzip. The files are read again when the page is requested
after any of them changed on disk, so an edit shows on the next reload of the page.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
PAGE = "index.html"
REWRITTEN = (".js", ".mjs", ".css", ".html")
"""Files whose references to other files are versioned (the others are served as they are)."""
MIN_GZIP = 256
"""Smaller bodies are sent as they are: gzip's header and the extra work would not pay."""

# `from "./x.js"`, `import "./x.js"`, `import("./x.js")`: relative module specifiers.
RELATIVE_IMPORT = re.compile(r"""(\bfrom\s*|\bimport\s*\(?\s*)(["'])(\.\.?/[^"'\s?#]+)\2""")
# A quoted (or `url(`-wrapped) absolute path under /static/, in scripts, styles and pages.
ABSOLUTE = re.compile(r"""(["'(])/static/([^"'\s?#()]+)(?=["')])""")


@dataclass(frozen=True, slots=True)
class Asset:
    body: bytes
    gzipped: bytes | None
    etag: str
    media_type: str
    version: str


def _media_type(path: str) -> str:
    if path.endswith((".js", ".mjs")):
        return "text/javascript; charset=utf-8"
    guessed = mimetypes.guess_type(path)[0] or "application/octet-stream"
    return f"{guessed}; charset=utf-8" if guessed.startswith("text/") else guessed


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _join(base: str, spec: str) -> str | None:
    """The static path ``spec`` names, relative to the file ``base`` (None outside static/)."""
    parts = base.split("/")[:-1]
    for part in spec.split("/"):
        if part == "..":
            if not parts:
                return None
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


class Assets:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: dict[str, Asset] = {}
        self._stamp: tuple[tuple[str, int, int], ...] = ()
        self.refresh()

    def _scan(self) -> tuple[tuple[str, int, int], ...]:
        if not self.root.is_dir():
            return ()
        found = []
        for path in sorted(self.root.rglob("*")):
            if path.is_file():
                stat = path.stat()
                found.append((path.relative_to(self.root).as_posix(), stat.st_mtime_ns, stat.st_size))
        return tuple(found)

    def refresh(self) -> None:
        """Read the files again if any of them changed, was added or went since the last read."""
        stamp = self._scan()
        if stamp != self._stamp:
            self.files = _build({rel: (self.root / rel).read_bytes() for rel, _, _ in stamp})
            self._stamp = stamp

    def page(self, request: Request) -> Response:
        """The HTML page (home and room links alike), always revalidated."""
        self.refresh()
        return self.response(request, PAGE)

    def response(self, request: Request, path: str) -> Response:
        asset = self.files.get(path)
        if asset is None:
            return JSONResponse({"code": "NOT_FOUND", "message": "No such file."}, status_code=404)
        current = path != PAGE and request.query_params.get("v") == asset.version
        headers = {
            "Cache-Control": IMMUTABLE if current else REVALIDATE,
            "ETag": asset.etag,
            "Vary": "Accept-Encoding",
        }
        if _matches(request.headers.get("if-none-match"), asset.etag):
            return Response(status_code=304, headers=headers)
        body = asset.body
        if asset.gzipped is not None and _accepts_gzip(request.headers.get("accept-encoding", "")):
            body, headers["Content-Encoding"] = asset.gzipped, "gzip"
        if request.method == "HEAD":
            headers["Content-Length"] = str(len(body))
            return Response(status_code=200, headers=headers, media_type=asset.media_type)
        return Response(body, headers=headers, media_type=asset.media_type)


def _matches(if_none_match: str | None, etag: str) -> bool:
    if not if_none_match:
        return False
    tags = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
    return "*" in tags or etag in tags


def _accepts_gzip(accept_encoding: str) -> bool:
    for item in accept_encoding.lower().split(","):
        name, _, params = item.strip().partition(";")
        if name.strip() in ("gzip", "*"):
            return params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


def _references(rel: str, text: str) -> set[str]:
    found = set()
    if rel.endswith((".js", ".mjs")):
        for match in RELATIVE_IMPORT.finditer(text):
            target = _join(rel, match[3])
            if target is not None:
                found.add(target)
    found.update(match[2] for match in ABSOLUTE.finditer(text))
    return found


def _closure(rel: str, refs: dict[str, set[str]]) -> Iterable[str]:
    seen, todo = {rel}, [rel]
    while todo:
        for target in refs.get(todo.pop(), ()):
            if target in refs and target not in seen:
                seen.add(target)
                todo.append(target)
    return sorted(seen)


def _build(raw: dict[str, bytes]) -> dict[str, Asset]:
    texts = {rel: data.decode() for rel, data in raw.items() if rel.endswith(REWRITTEN)}
    refs = {rel: _references(rel, texts[rel]) if rel in texts else set() for rel in raw}
    own = {rel: _digest(data) for rel, data in raw.items()}
    # A file's version covers everything it pulls in, so a change anywhere below it changes it too
    # (import cycles are fine: each member's closure holds the whole cycle).
    version = {
        rel: _digest("".join(f"{r}:{own[r]};" for r in _closure(rel, refs)).encode())[:16] for rel in raw
    }

    def relative(rel: str) -> Callable[[re.Match[str]], str]:
        def sub(m: re.Match[str]) -> str:
            target = _join(rel, m[3])
            if target not in version:
                return m[0]
            return f"{m[1]}{m[2]}{m[3]}?v={version[target]}{m[2]}"

        return sub

    def absolute(m: re.Match[str]) -> str:
        target = m[2]
        return f"{m[1]}/static/{target}?v={version[target]}" if target in version else m[0]

    files = {}
    for rel, data in raw.items():
        body = data
        if rel in texts:
            text = texts[rel]
            if rel.endswith((".js", ".mjs")):
                text = RELATIVE_IMPORT.sub(relative(rel), text)
            body = ABSOLUTE.sub(absolute, text).encode()
        packed = gzip.compress(body, 9, mtime=0) if len(body) >= MIN_GZIP else None
        files[rel] = Asset(
            body=body,
            gzipped=packed if packed is not None and len(packed) < len(body) else None,
            etag=f'"{_digest(body)[:32]}"',
            media_type=_media_type(rel),
            version=version[rel],
        )
    return files
