"""examples/bot.py, run as a separate program, plays one short game of every game against a real server.

The server runs on the real clock (as a deployment does) with the server's own bots in the other
seats thinking for a few ms; fast table options keep each game short. The bot only knows the public
protocol: the test checks it imports nothing from the project.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.engines import ENGINES
from tests.integration.server import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "examples" / "bot.py"

SHORT: dict[str, dict[str, Any]] = {
    # The bot slaps every flip, pair or not: the round's time limit ends it.
    "slap": {"rounds": 1, "nopair_pause_ms": 0, "round_time_limit_s": 3, "round_end_pause_ms": 0},
    "leekha": {"limit": 1, "reveal_ms": 0, "scoreboard_ms": 0},
    "rummy": {"rounds": 1, "between_turns_ms": 0, "round_end_pause_ms": 0},
    "uffda": {"rounds": 1, "round_end_pause_ms": 0},
    "kuuduk": {"mode": "single_round", "round_pause_ms": 0},
}


@pytest.fixture(scope="module")
def real_clock_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("bot")
    server = ServerProcess(
        database_url=f"sqlite+aiosqlite:///{tmp / 'bordet.db'}",
        log_path=tmp / "server.log",
        env={"BORDET_TEST_CLOCK": "0", "BORDET_BOT_THINK_MS": "1-5"},
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_the_bot_imports_only_the_standard_library_and_websockets() -> None:
    tree = ast.parse(BOT.read_text(encoding="utf-8"))
    modules = {
        ((node.module or "") if isinstance(node, ast.ImportFrom) else alias.name).split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
        if not (isinstance(node, ast.ImportFrom) and node.module == "__future__")
    }
    assert modules, "no imports found: is the scan broken?"
    outside = {m for m in modules if m not in sys.stdlib_module_names} - {"websockets"}
    assert not outside, f"the bot needs more than the public protocol: {sorted(outside)}"


def test_the_short_options_cover_every_game() -> None:
    assert set(SHORT) == set(ENGINES)


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(SHORT))
def test_the_bot_plays_a_whole_game(real_clock_server: ServerProcess, game: str) -> None:
    command = [sys.executable, str(BOT), "--server", real_clock_server.http, "--game", game, "--fill"]
    run = subprocess.run(
        [*command, "--seed", "7", "--options", json.dumps(SHORT[game])],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=ROOT / "examples",
    )
    assert run.returncode == 0, run.stderr[-3000:]
    last = run.stdout.strip().splitlines()[-1]
    word, code, acked, rejected, result = last.split(" ", 4)
    assert word == "finished"
    assert int(acked.removeprefix("acked=")) > 0, "the bot never made an accepted move"
    assert int(rejected.removeprefix("rejected=")) >= 0
    outcome = json.loads(result.removeprefix("result="))
    assert outcome["finished"] is True
    room = httpx.get(f"{real_clock_server.http}/api/rooms/{code}").json()
    assert room["status"] == "finished" and room["game"] == game
    assert room["seats"][0]["name"] == "Robo"


@pytest.mark.slow
def test_the_bot_takes_a_seat_in_someone_s_room_and_plays_it(real_clock_server: ServerProcess) -> None:
    http = httpx.Client(base_url=real_clock_server.http)
    host = http.post("/api/players", json={"name": "Hosta"}).json()
    auth = {"Authorization": f"Bearer {host['token']}"}
    room = http.post("/api/rooms", json={"game": "slap", "options": SHORT["slap"]}, headers=auth).json()
    bot = subprocess.Popen(
        [sys.executable, str(BOT), "--server", real_clock_server.http, "--room", room["code"], "--seed", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert bot.stdout is not None
        seated = bot.stdout.readline().split()
        assert seated[:2] == ["seated", room["code"]] and seated[2] == "1", seated
        assert http.post(f"/api/rooms/{room['code']}/start", headers=auth).status_code == 200
        out, err = bot.communicate(timeout=240)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
        http.close()
    assert bot.returncode == 0, err[-3000:]
    word, code, acked, _rejected, _result = out.strip().splitlines()[-1].split(" ", 4)
    assert (word, code) == ("finished", room["code"])
    assert int(acked.removeprefix("acked=")) > 0, "the bot never made an accepted move"
