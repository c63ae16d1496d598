"""The README and docs/ stay true to the tree: every setting documented, every path they name there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SETTING = re.compile(r"""environ(?:\.get)?[(\[]\s*["']((?:BORDET|DATABASE)_\w+)["']""")


def _settings_read(*folders: str) -> set[str]:
    return {
        name
        for folder in folders
        for path in (ROOT / folder).rglob("*.py")
        for name in SETTING.findall(path.read_text(encoding="utf-8"))
    }


def test_every_setting_the_server_and_tests_read_is_in_the_readme() -> None:
    read = _settings_read("app", "tests")
    assert {"BORDET_SECRET", "BORDET_RESYNC_PER_S", "BORDET_TEST_PG"} <= read, "the scan found too little"
    missing = sorted(name for name in read if f"`{name}`" not in README)
    assert not missing, f"settings missing from the README: {missing}"


def test_the_readme_links_nothing_outside_the_repository() -> None:
    assert "../" not in README


@pytest.mark.parametrize("doc", ["README.md", "docs/adding-a-game.md", "bench/README.md"])
def test_paths_a_document_names_exist(doc: str) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:app|tests|static|tools|examples|docs|bench)/[\w./-]+)`", text))
    # The walk-through's example game does not exist, by design.
    missing = sorted(p for p in named if "pip" not in p and not (ROOT / p.rstrip("/")).exists())
    assert not missing, f"{doc} names paths that do not exist: {missing}"
