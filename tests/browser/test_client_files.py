"""The client is plain files: small, no build step, nothing fetched from elsewhere, every string in i18n."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "static"
BUDGET_KB = 150
SVG_NS = "http://www.w3.org/2000/svg"


def client_files() -> list[Path]:
    return sorted(p for p in STATIC.rglob("*") if p.is_file())


def test_the_client_is_small_and_fetches_nothing_from_elsewhere() -> None:
    files = client_files()
    total = sum(p.stat().st_size for p in files)
    assert total <= BUDGET_KB * 1024, f"static/ is {total / 1024:.1f} KB"
    for path in files:
        text = path.read_text(encoding="utf-8")
        # Only the SVG namespace may look like a URL (it is an identifier, never fetched).
        urls = [
            u for u in re.findall(r"(?:https?:)?//[\w.-]+\.[a-z]{2,}[^\s\"'`)]*", text) if SVG_NS not in u
        ]
        assert urls == [], f"{path.name} names another host: {urls}"
        if path.suffix == ".js":
            for spec in re.findall(r"""(?:from|import)\s*\(?\s*["']([^"']+)["']""", text):
                assert spec.startswith(("./", "../", "/static/")), f"{path.name} imports {spec}"


def test_every_string_the_client_shows_is_in_the_english_table() -> None:
    i18n = (STATIC / "js" / "i18n.js").read_text(encoding="utf-8")
    defined = set(re.findall(r'^\s*"([\w.]+)":', i18n, re.MULTILINE))
    used: set[str] = set()
    for path in (STATIC / "js").rglob("*.js"):
        used |= set(re.findall(r'\bt\(\s*"([\w.]+)"', path.read_text(encoding="utf-8")))
    assert used, "no t() calls found"
    assert sorted(used - defined) == []
