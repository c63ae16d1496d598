"""The stand-alone verifier on finished matches of a real server: it agrees, and catches an altered input."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from bench.audit import finished_match, load_verifier
from tests.integration.finished import Finished, played
from tests.integration.server import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
VERIFIER = ROOT / "tools" / "verify_match.py"


@pytest.fixture(scope="module")
def saved(server: ServerProcess, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A finished Slap and Leekha match each, verified over HTTP once and saved by the verifier itself."""
    out = tmp_path_factory.mktemp("audits")
    paths = {}
    for name, game, left in (("slap", "slap", False), ("leekha", "leekha", False), ("left", "leekha", True)):
        match: Finished = played(server, game, left)
        paths[name] = out / f"{name}.json"
        run = verify(f"{server.http}/m/{match.id}", "--save", str(paths[name]))
        assert run.returncode == 0, run.stdout + run.stderr
        assert f"VERIFIED {game} match {match.id}" in run.stdout
    return paths


def verify(*args: str) -> subprocess.CompletedProcess[str]:
    # Run as anyone would: its own process, from another directory, nothing of the project importable.
    return subprocess.run(
        [sys.executable, "-I", str(VERIFIER), *args], capture_output=True, text=True, cwd="/", timeout=120
    )


def altered(path: Path, tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    data = json.loads(path.read_text())
    change(data)
    out = tmp_path / f"altered-{path.name}"
    out.write_text(json.dumps(data))
    return out


def moves(data: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in data["events"] if e["kind"] == "move" and e["action"]["type"] == kind]


@pytest.mark.parametrize("game", ["slap", "leekha"])
def test_the_verifier_agrees_with_a_finished_match(saved: dict[str, Path], game: str) -> None:
    run = verify(str(saved[game]))
    assert run.returncode == 0, run.stdout
    assert "every move legal" in run.stdout and "result equal" in run.stdout


def test_a_leekha_match_played_by_its_timers_and_stand_ins_verifies(saved: dict[str, Path]) -> None:
    data = json.loads(saved["left"].read_text())
    by = {e["by"] for e in data["events"]}
    assert {"clock", "standin"} <= by and "player" not in by, "timeouts, then stand-ins, played it"
    assert len(data["match"]["result"]["detail"]["rounds"]) >= 1
    assert verify(str(saved["left"])).returncode == 0


def test_the_verifier_rederives_every_slap_race_ruling(saved: dict[str, Path]) -> None:
    data = json.loads(saved["slap"].read_text())
    logged = sum(len(e["rulings"] or []) for e in data["events"])
    assert logged > 0
    assert f"{logged} race rulings derived again and equal" in verify(str(saved["slap"])).stdout


def test_a_nu_moved_to_another_seat_is_caught(saved: dict[str, Path], tmp_path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        nu = moves(data, "nu")[0]
        nu["seat"] = (nu["seat"] + 1) % len(data["match"]["players"])

    run = verify(str(altered(saved["slap"], tmp_path, change)))
    assert run.returncode == 1 and "MISMATCH" in run.stdout and "NOT_STARTER" in run.stdout


def test_a_slap_with_another_reaction_time_is_caught(saved: dict[str, Path], tmp_path: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        ruled = next(e for e in data["events"] if e["rulings"])
        claim = ruled["rulings"][0]["claims"][0]
        mine = (e for e in moves(data, "slap") if e["seat"] == claim["seat"] and e["at"] == claim["arrival"])
        slap = next(mine)
        slap["action"]["reaction_ms"] = (slap["action"].get("reaction_ms") or 0) + 150

    run = verify(str(altered(saved["slap"], tmp_path, change)))
    assert run.returncode == 1 and "MISMATCH" in run.stdout


def test_a_leekha_card_played_in_place_of_another_is_caught(saved: dict[str, Path], tmp_path: Path) -> None:
    # The stand-in is the card played just before, with no other input between (so in the same
    # round): nobody can hold it any more. A card the player did hold can go unnoticed when the
    # round is thrown in before the swap shows.
    def change(data: dict[str, Any]) -> None:
        events = data["events"]
        earlier, later = next(
            (a, b)
            for a, b in pairwise(events)
            if all(e["kind"] == "move" and e["action"]["type"] == "play_card" for e in (a, b))
        )
        later["action"]["card"] = earlier["action"]["card"]

    run = verify(str(altered(saved["leekha"], tmp_path, change)))
    assert run.returncode == 1 and "MISMATCH" in run.stdout and "NOT_IN_HAND" in run.stdout


@pytest.mark.parametrize("game", ["slap", "leekha"])
def test_a_stored_result_or_seed_that_does_not_follow_is_caught(
    saved: dict[str, Path], tmp_path: Path, game: str
) -> None:
    def scores(data: dict[str, Any]) -> None:
        data["match"]["result"]["scores"][0] += 1

    def seed(data: dict[str, Any]) -> None:
        data["match"]["seed"] += "0"

    assert "the result differs" in verify(str(altered(saved[game], tmp_path, scores))).stdout
    assert "seed hash" in verify(str(altered(saved[game], tmp_path, seed))).stdout


def test_the_verifier_reads_a_bad_source_with_a_clear_answer(server: ServerProcess, tmp_path: Path) -> None:
    assert verify(str(tmp_path / "missing.json")).returncode == 2
    assert verify(f"{server.http}/m/999999").returncode == 2
    (tmp_path / "junk.json").write_text('{"match": {}, "events": []}')
    run = verify(str(tmp_path / "junk.json"))
    assert run.returncode == 1 and "MISMATCH" in run.stdout


def test_the_verifier_needs_only_the_standard_library() -> None:
    tree = ast.parse(VERIFIER.read_text())
    names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert names - {"__future__"} <= sys.stdlib_module_names, names - sys.stdlib_module_names


@pytest.mark.parametrize("game", ["slap", "leekha"])
def test_the_verifier_agrees_with_whole_random_matches_of_the_engines(game: str) -> None:
    # Full-length matches (Leekha to 101: several deals, timeouts, throw-ins) in the API's shape.
    verifier = load_verifier()
    for i in range(4):
        _, _, audit = finished_match(game, f"verify-{game}-{i}")
        found = verifier.verify(audit)
        assert found[-1].startswith("result equal"), found
