"""Room ownership leases in Redis, each with a fencing number that grows with every new owner.

A lease is one key per room, ``<prefix>:lease:<CODE>`` = ``<process>:<fence>``, with a time to
live; its owner renews it while the room is loaded and deletes it when the room is put away.
The fence comes from a counter per room, so a later owner always holds a larger number than any
earlier one: the database refuses events and lobby writes carrying a smaller one (migration
``0008_redis``, :func:`app.db.store.hold_fence`), whatever the earlier owner still believes. The
counter lives a long time (``BORDET_FENCE_TTL_H``) past the room's last lease, not forever: one
that expired, or a Redis that lost its data, is raised past the database's fence by the next
owner (:meth:`app.cluster.node.Node.take`) before it writes anything.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import redis
from redis.asyncio import Redis

# Returns {owner, fence}: the lease as it stands after the call (ours if it was free).
_CLAIM = """
local held = redis.call('GET', KEYS[1])
if held then
  local owner, fence = string.match(held, '^(.*):(%d+)$')
  if owner == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    redis.call('PEXPIRE', KEYS[2], ARGV[3])
  end
  return {owner, tonumber(fence)}
end
local fence = redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. fence, 'PX', ARGV[2])
return {ARGV[1], fence}
"""
# A lease that ran out while its owner was slow (a busy event loop) is taken back if nobody
# claimed the room since: the fence counter still stands at the owner's number.
_RENEW = """
local held = redis.call('GET', KEYS[1])
if held == ARGV[1] then
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
if not held and redis.call('GET', KEYS[2]) == ARGV[3] then
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
# The counter never falls behind a fence the database already holds (e.g. Redis lost its data).
_RAISE_FENCE = """
local now = tonumber(redis.call('GET', KEYS[1]) or '0')
if now < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
return 1
"""


@dataclass(frozen=True)
class Lease:
    owner: str
    """The process id holding the room."""
    fence: int

    @property
    def value(self) -> str:
        return f"{self.owner}:{self.fence}"


class Leases:
    def __init__(self, redis: Redis, prefix: str, process: str, ttl_ms: int, fence_ttl_ms: int) -> None:
        self.redis = redis
        self.prefix = prefix
        self.process = process
        self.ttl_ms = ttl_ms
        self.fence_ttl_ms = fence_ttl_ms
        self._claim = redis.register_script(_CLAIM)
        self._release = redis.register_script(_RELEASE)
        self._raise = redis.register_script(_RAISE_FENCE)

    def key(self, code: str) -> str:
        return f"{self.prefix}:lease:{code}"

    def _fence_key(self, code: str) -> str:
        return f"{self.prefix}:fence:{code}"

    async def claim(self, code: str) -> Lease:
        """The room's lease: ours (taken now, or renewed) if it was free or ours, else its owner's."""
        owner, fence = await self._claim(
            keys=[self.key(code), self._fence_key(code)],
            args=[self.process, self.ttl_ms, self.fence_ttl_ms],
        )
        return Lease(owner.decode() if isinstance(owner, bytes) else str(owner), int(fence))

    async def holder(self, codes: Iterable[str]) -> dict[str, Lease | None]:
        """Who holds each room now (None: nobody, the lease expired or was released)."""
        codes = list(codes)
        if not codes:
            return {}
        values = await self.redis.mget([self.key(c) for c in codes])
        out: dict[str, Lease | None] = {}
        for code, value in zip(codes, values, strict=True):
            if value is None:
                out[code] = None
            else:
                owner, _, fence = (value.decode() if isinstance(value, bytes) else value).rpartition(":")
                out[code] = Lease(owner, int(fence))
        return out

    async def release(self, code: str, lease: Lease) -> None:
        await self._release(keys=[self.key(code)], args=[lease.value])

    async def raise_fence(self, code: str, at_least: int) -> None:
        await self._raise(keys=[self._fence_key(code)], args=[at_least, self.fence_ttl_ms])


class Renewal:
    """Renews this process's leases from a thread of its own (blocking Redis calls): a busy or
    paused event loop (a burst of rebuilds, a long collection) must not cost the process its
    rooms, while a process that is gone stops renewing at once."""

    def __init__(self, url: str, prefix: str, ttl_ms: int, fence_ttl_ms: int) -> None:
        self.redis = redis.Redis.from_url(url, socket_timeout=ttl_ms / 1000)
        self.prefix = prefix
        self.ttl_ms = ttl_ms
        self.fence_ttl_ms = fence_ttl_ms
        self._renew = self.redis.register_script(_RENEW)

    def renew(self, leases: dict[str, Lease]) -> list[str]:
        """Extend every lease given; returns the rooms whose lease is no longer ours."""
        if not leases:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for code, lease in leases.items():
            self._renew(
                keys=[f"{self.prefix}:lease:{code}", f"{self.prefix}:fence:{code}"],
                args=[lease.value, self.ttl_ms, lease.fence, self.fence_ttl_ms],
                client=pipe,
            )
        results = pipe.execute()
        return [code for code, kept in zip(leases, results, strict=True) if not kept]

    def beat(self, key: str, ttl_ms: int) -> None:
        self.redis.set(key, b"1", px=ttl_ms)

    def close(self) -> None:
        self.redis.close()
