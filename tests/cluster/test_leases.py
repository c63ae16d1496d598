"""Room ownership leases on a real Redis: one owner at a time, a larger fence for every new one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from redis.asyncio import Redis

from app.cluster.leases import Lease, Leases, Renewal
from tests.cluster.conftest import REDIS_URL

FENCE_TTL_MS = 3_600_000


@pytest.fixture
def renewal(redis_prefix: str) -> Iterator[Renewal]:
    """A's renewals (made from a thread of their own in the server; blocking calls)."""
    renewal = Renewal(REDIS_URL, redis_prefix, 60_000, FENCE_TTL_MS)
    yield renewal
    renewal.close()


@pytest.fixture
def pair(redis: Redis, redis_prefix: str) -> tuple[Leases, Leases]:
    return (
        Leases(redis, redis_prefix, "A", 60_000, FENCE_TTL_MS),
        Leases(redis, redis_prefix, "B", 60_000, FENCE_TTL_MS),
    )


async def test_the_first_claim_holds_the_room_and_later_claims_see_its_owner(
    pair: tuple[Leases, Leases],
) -> None:
    a, b = pair
    assert await a.claim("ROOM1") == Lease("A", 1)
    assert await b.claim("ROOM1") == Lease("A", 1)
    assert await a.claim("ROOM1") == Lease("A", 1)
    assert await b.holder(["ROOM1", "NOROOM"]) == {"ROOM1": Lease("A", 1), "NOROOM": None}


async def test_every_new_owner_gets_a_larger_fence(pair: tuple[Leases, Leases]) -> None:
    a, b = pair
    first = await a.claim("ROOM2")
    await b.release("ROOM2", Lease("B", first.fence))  # not B's lease: nothing happens
    assert await b.claim("ROOM2") == first
    await a.release("ROOM2", first)
    assert await b.claim("ROOM2") == Lease("B", 2)


async def test_a_lease_taken_by_another_is_reported_lost(
    redis: Redis, pair: tuple[Leases, Leases], renewal: Renewal
) -> None:
    a, b = pair
    mine = await a.claim("ROOM3")
    await redis.delete(a.key("ROOM3"))  # as if it ran out while A was paused
    assert await b.claim("ROOM3") == Lease("B", 2)
    assert renewal.renew({"ROOM3": mine}) == ["ROOM3"]
    assert await a.holder(["ROOM3"]) == {"ROOM3": Lease("B", 2)}


async def test_a_lease_that_ran_out_unclaimed_is_taken_back(
    redis: Redis, pair: tuple[Leases, Leases], renewal: Renewal
) -> None:
    a, b = pair
    mine = await a.claim("ROOM4")
    await redis.delete(a.key("ROOM4"))  # a renewal came late; nobody claimed the room meanwhile
    assert renewal.renew({"ROOM4": mine}) == []
    assert await b.claim("ROOM4") == mine


async def test_a_lease_released_and_claimed_since_is_not_taken_back(
    redis: Redis, pair: tuple[Leases, Leases], renewal: Renewal
) -> None:
    a, b = pair
    mine = await a.claim("ROOM5")
    await redis.delete(a.key("ROOM5"))
    await b.release("ROOM5", await b.claim("ROOM5"))  # B held it (fence 2) and let it go again
    assert renewal.renew({"ROOM5": mine}) == ["ROOM5"]
    assert await a.holder(["ROOM5"]) == {"ROOM5": None}


async def test_the_fence_counter_never_falls_behind_the_database(pair: tuple[Leases, Leases]) -> None:
    a, _ = pair
    await a.raise_fence("ROOM6", 41)  # e.g. Redis lost its data; the database holds fence 40
    await a.raise_fence("ROOM6", 7)  # never lowered
    assert await a.claim("ROOM6") == Lease("A", 42)


async def _fence_ttl_ms(redis: Redis, prefix: str, code: str) -> int:
    return int(await redis.pttl(f"{prefix}:fence:{code}"))


async def test_a_fence_counter_lives_its_ttl_from_each_claim_and_renewal(
    pair: tuple[Leases, Leases], renewal: Renewal, redis: Redis, redis_prefix: str
) -> None:
    a, _ = pair
    lease = await a.claim("ROOM7")
    assert 0 < await _fence_ttl_ms(redis, redis_prefix, "ROOM7") <= FENCE_TTL_MS
    await redis.pexpire(f"{redis_prefix}:fence:ROOM7", 1_000)  # as if claimed long ago
    assert renewal.renew({"ROOM7": lease}) == []
    assert await _fence_ttl_ms(redis, redis_prefix, "ROOM7") > 1_000
    await redis.pexpire(f"{redis_prefix}:fence:ROOM7", 1_000)
    assert await a.claim("ROOM7") == lease  # claimed again by its owner: renewed too
    assert await _fence_ttl_ms(redis, redis_prefix, "ROOM7") > 1_000
    await a.raise_fence("ROOM8", 5)
    assert 0 < await _fence_ttl_ms(redis, redis_prefix, "ROOM8") <= FENCE_TTL_MS
