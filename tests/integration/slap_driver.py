"""Drives a Slap table of real clients through the manual clock: players react, time moves on."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from tests.integration.client import Api, Client


def has_pair(game: dict[str, Any]) -> bool:
    numbers = [int(s["card"][1:]) for s in game["seats"] if s["card"]]
    return any(n > 1 for n in Counter(numbers).values())


def legal(client: Client, kind: str) -> dict[str, Any] | None:
    return next((a for a in client.game["legal"] if a["type"] == kind), None)


async def step(api: Api, code: str, players: list[Client], rng: random.Random) -> dict[str, Any]:
    """One thing happens at the table; returns the public game view after it."""
    game = players[0].game
    phase = game["phase"]
    for client in players:
        nu = legal(client, "nu")
        if nu is not None:
            reply = await client.act(nu)
            assert reply["type"] == "ack", reply
            return players[0].game
    if phase == "FLIP_OPEN":
        pair = has_pair(game)
        if pair or rng.random() < 0.15:
            slappers = rng.sample(players, k=rng.randint(1, len(players)))
            for client in slappers:
                slap = legal(client, "slap")
                if slap is not None:
                    reply = await client.act({**slap, "reaction_ms": rng.randint(150, 400)})
                    assert reply["type"] in ("ack", "reject"), reply
            return players[0].game
    await api.advance_to_next_deadline(code)
    return players[0].game


async def sync_all(clients: list[Client]) -> None:
    """Every client's patched view must equal a fresh snapshot of the server's view for it."""
    for client in clients:
        await client.check_in_sync()
