"""The client is plain files: small, no build step, nothing fetched from elsewhere, every string in i18n."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "static"
SHELL_BUDGET_KB = 170
"""Everything but the game modules: what every page loads (uncompressed; it travels gzipped, about a
quarter of this, and once per version: see app/static_assets.py). Raised from 150 KB when the table
gained its leave/end controls, turn alerts, the rules dialog and the replay link."""
GAME_BUDGET_KB = 50
"""One game's table module and its stylesheet, loaded only at that game's tables."""
LANGUAGE_BUDGET_KB = 60
"""One language's whole table (i18n/da.js, i18n/fi.js) or rules book (rules/*.js), loaded only by
a device that uses that language (the rules only when opened)."""
SVG_NS = "http://www.w3.org/2000/svg"


def client_files() -> list[Path]:
    return sorted(p for p in STATIC.rglob("*") if p.is_file())


def is_game_file(path: Path) -> bool:
    return path.parent.name == "games" and path.parent.parent.name in ("js", "css")


def is_language_file(path: Path) -> bool:
    """English is in the shell (i18n.js, i18n/en.js); the other tables and the rules load on demand."""
    return (path.parent.name == "i18n" and path.stem != "en") or path.parent.name == "rules"


def test_the_client_is_small_and_fetches_nothing_from_elsewhere() -> None:
    files = client_files()
    shell = sum(p.stat().st_size for p in files if not is_game_file(p) and not is_language_file(p))
    assert shell <= SHELL_BUDGET_KB * 1024, f"the shell of static/ is {shell / 1024:.1f} KB"
    games: dict[str, int] = {}
    for p in filter(is_game_file, files):
        games[p.stem] = games.get(p.stem, 0) + p.stat().st_size
    assert set(games) >= {"slap", "leekha", "rummy", "uffda", "kuuduk"}
    for game, size in games.items():
        assert size <= GAME_BUDGET_KB * 1024, f"the {game} table is {size / 1024:.1f} KB"
    for path in filter(is_language_file, files):
        size = path.stat().st_size
        assert size <= LANGUAGE_BUDGET_KB * 1024, f"{path.parent.name}/{path.name} is {size / 1024:.1f} KB"
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
    # Shared strings live in i18n.js; game modules (and lobby.js) register theirs with addStrings().
    defined: set[str] = set()
    used: set[str] = set()
    for path in (STATIC / "js").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        defined |= set(re.findall(r'^\s*"([\w.]+)":', text, re.MULTILINE))
        used |= set(re.findall(r'\bt\(\s*"([\w.]+)"', text))
    assert used, "no t() calls found"
    assert sorted(used - defined) == []
