"""A room link opened twice in Chromium: what the first visit and a repeat visit fetch over the network.

Starts a real server (temporary SQLite, real clock), makes a player and a room over HTTP, and
opens the room link in a fresh browser context of Debian's Chromium (headless, through
Playwright) with the player's token on the device; then opens it again in a new tab of the same
context, as a returning player would. Chromium's DevTools network events say, per request,
whether it went to the server and how many bytes came over the wire (headers included,
compressed). Prints, per visit: the app's files (the page and /static/) fetched from the server,
their bytes, and those taken from the browser's cache; the API calls and the socket are data and
listed apart.

    python -m bench.repeat_visit            # prints the table
    python -m bench.repeat_visit --json     # the same figures as JSON
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from bench.slap_load import ServerProcess

CHROMIUM = os.environ.get("BORDET_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@dataclass
class Fetch:
    path: str
    status: int
    bytes: int
    """Bytes over the wire (headers and the compressed body); 0 when the browser's cache answered."""
    cached: bool


@dataclass
class Visit:
    fetches: list[Fetch] = field(default_factory=list)

    def app_files(self) -> list[Fetch]:
        """The page and its /static/ files (the API and the socket are data, not the app)."""
        return [f for f in self.fetches if not f.path.startswith(("/api/", "/ws/"))]

    def from_server(self) -> list[Fetch]:
        return [f for f in self.app_files() if not f.cached]

    def from_cache(self) -> list[Fetch]:
        return [f for f in self.app_files() if f.cached]

    def bytes(self) -> int:
        return sum(f.bytes for f in self.from_server())

    def summary(self) -> dict[str, Any]:
        return {
            "app_requests_to_server": len(self.from_server()),
            "app_bytes_transferred": self.bytes(),
            "app_files_from_cache": len(self.from_cache()),
            "to_server": [f"{f.status} {f.path}" for f in self.from_server()],
            "api_requests": len([f for f in self.fetches if f.path.startswith("/api/")]),
        }


async def visit(context: Any, url: str, ready: str) -> Visit:
    """Open ``url`` in a new tab of ``context`` and record every request until ``ready`` shows and the
    network is idle."""
    page = await context.new_page()
    cdp = await context.new_cdp_session(page)
    urls: dict[str, str] = {}
    status: dict[str, int] = {}
    cached: set[str] = set()
    done: dict[str, int] = {}
    wire: dict[str, int] = {}

    def sent(e: dict[str, Any]) -> None:
        urls[e["requestId"]] = e["request"]["url"]

    def received(e: dict[str, Any]) -> None:
        response = e["response"]
        status[e["requestId"]] = response["status"]
        if response.get("fromDiskCache") or response.get("fromPrefetchCache"):
            cached.add(e["requestId"])

    cdp.on("Network.requestWillBeSent", sent)
    cdp.on("Network.responseReceived", received)
    # What came over the wire: a revalidated file shows as its cached 200 above, as a 304 here.
    cdp.on("Network.responseReceivedExtraInfo", lambda e: wire.__setitem__(e["requestId"], e["statusCode"]))
    cdp.on("Network.requestServedFromCache", lambda e: cached.add(e["requestId"]))
    cdp.on("Network.loadingFinished", lambda e: done.__setitem__(e["requestId"], int(e["encodedDataLength"])))
    await cdp.send("Network.enable")
    await page.goto(url, wait_until="networkidle")
    await page.locator(ready).wait_for()
    await page.close()
    result = Visit()
    for rid, full in urls.items():
        if rid not in done or not full.startswith("http"):
            continue
        from_cache = rid in cached
        size = 0 if from_cache else done[rid]
        code = status.get(rid, 0) if from_cache else wire.get(rid, status.get(rid, 0))
        result.fetches.append(Fetch(urlsplit(full).path, code, size, from_cache))
    return result


async def first_and_repeat(browser: Any, url: str, player: dict[str, Any], ready: str) -> tuple[Visit, Visit]:
    """A new device with ``player``'s token opens ``url``, then opens it again."""
    context = await browser.new_context()
    stored = json.dumps({"id": player["id"], "name": player["name"], "token": player["token"]})
    await context.add_init_script(f"localStorage.setItem('bordet.player', {json.dumps(stored)})")
    try:
        return await visit(context, url, ready), await visit(context, url, ready)
    finally:
        await context.close()


async def run() -> tuple[Visit, Visit]:
    from playwright.async_api import async_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(database_url=f"sqlite+aiosqlite:///{tmp}/bench.db", log_path=Path(tmp) / "log")
        server.start(cpus=None)
        try:
            async with httpx.AsyncClient(base_url=server.base) as http:
                player = (await http.post("/api/players", json={"name": "Ana"})).json()
                headers = {"Authorization": f"Bearer {player['token']}"}
                body = {"game": "slap", "options": {}, "public": False}
                room = (await http.post("/api/rooms", json=body, headers=headers)).json()
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
                try:
                    return await first_and_repeat(
                        browser, f"{server.base}/r/{room['code']}", player, ".lobby"
                    )
                finally:
                    await browser.close()
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    first, repeat = asyncio.run(run())
    figures = {"first": first.summary(), "repeat": repeat.summary()}
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print("visit    app requests to server   app bytes transferred   app files from cache   API calls")
    for name, f in figures.items():
        print(
            f"{name:<8} {f['app_requests_to_server']:>21} {f['app_bytes_transferred']:>23,} "
            f"{f['app_files_from_cache']:>22} {f['api_requests']:>11}"
        )
    print("repeat visit asked the server for:", ", ".join(figures["repeat"]["to_server"]) or "nothing")


if __name__ == "__main__":
    main()
