"""Configuration by environment variables (read once at start-up)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from app.heap import DEFAULT_THRESHOLDS

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"


def _range(text: str) -> tuple[int, int]:
    """ "700-1500" (or one number) as (low, high)."""
    low, _, high = text.partition("-")
    return int(low), int(high or low)


def _list(text: str) -> tuple[str, ...]:
    """ "a, b,,c" as ("a", "b", "c")."""
    return tuple(item.strip() for item in text.split(",") if item.strip())


def _ints(text: str) -> tuple[int, int, int]:
    """ "20000,20,10" as (20000, 20, 10)."""
    young, middle, full = (int(part) for part in text.split(","))
    return young, middle, full


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


@dataclass(frozen=True)
class Settings:
    database_url: str | None = None
    """DATABASE_URL; None means the embedded SQLite file (see app.db.store.database_url)."""
    secret: str | None = None
    """BORDET_SECRET signs player tokens; without it a key is generated once and kept in the database."""
    metrics_token: str | None = None
    """BORDET_METRICS_TOKEN: when set, ``GET /metrics`` answers only a scrape that sends it as
    ``Authorization: Bearer <token>`` (401 ``METRICS_TOKEN`` otherwise); unset, it is open."""
    test_clock: bool = False
    """BORDET_TEST_CLOCK=1: rooms run on a manual clock that tests advance over HTTP."""
    max_frame_bytes: int = 64 * 1024
    send_backlog_bytes: int = 256 * 1024
    """BORDET_SEND_BACKLOG_BYTES: what may wait to be sent to one connection before it is reset."""
    write_timeout_s: float = 5.0
    """BORDET_WRITE_TIMEOUT_S: a write its client does not take within this long ends the connection."""
    hello_timeout_s: float = 10.0
    ping_interval_s: float = 2.0
    """BORDET_PING_INTERVAL_S: clock-sync pings this often while a link's estimate is young or moving."""
    ping_racing_max_s: float = 16.0
    """BORDET_PING_RACING_MAX_S: the longest ping interval of a racing seat on a steady link."""
    ping_watching_s: float = 30.0
    """BORDET_PING_WATCHING_S: the ping interval, on a steady link, of a connection no race is judged
    with (spectators, the lobby, games without races); see app.realtime.ping_schedule."""
    rate_per_s: float = 20.0
    rate_burst: int = 40
    resync_per_s: float = 50.0
    resync_burst: int = 100
    seat_hold_s: int = 120
    """BORDET_SEAT_HOLD_S: how long a seat waits for a player who lost every connection, then a bot plays."""
    bot_think_ms: tuple[int, int] = (700, 1500)
    """BORDET_BOT_THINK_MS=700-1500: a bot's thinking time before each move, a range of room-clock ms."""
    log_level: str = "INFO"
    """BORDET_LOG_LEVEL: the level of the server's own loggers (uvicorn's follow its --log-level)."""
    static_dir: Path = field(default=STATIC_DIR)
    max_body_bytes: int = 64 * 1024
    """BORDET_MAX_BODY_BYTES: an HTTP request body past this is refused (413 TOO_LARGE)."""
    trusted_proxies: tuple[str, ...] = ()
    """BORDET_TRUSTED_PROXIES: IPs/CIDRs whose X-Forwarded-For / Forwarded is believed; none by default."""
    players_per_min: int = 30
    """BORDET_PLAYERS_PER_MIN: players one client address may create per minute."""
    rooms_per_min: int = 10
    """BORDET_ROOMS_PER_MIN: rooms one player, and one client address, may create per minute."""
    rooms_per_host: int = 5
    """BORDET_ROOMS_PER_HOST: unfinished rooms (lobby or playing) one player may host at once."""
    sockets_per_address: int = 64
    """BORDET_SOCKETS_PER_ADDRESS: WebSocket connections open at once from one client address."""
    room_idle_s: float = 60.0
    """BORDET_ROOM_IDLE_S: a room with no connection, deadline or bot to move leaves memory after this."""
    max_loaded_rooms: int = 5_000
    """BORDET_MAX_LOADED_ROOMS: rooms one process holds in memory at most (503 BUSY past it)."""
    lobby_expiry_h: float = 24.0
    """BORDET_LOBBY_EXPIRY_H: a lobby room nobody used for this long expires."""
    spectators_per_room: int = 50
    """BORDET_SPECTATORS_PER_ROOM: people watching one room at once (409 ROOM_CROWDED past it)."""
    redis_url: str | None = None
    """BORDET_REDIS_URL: several processes share the rooms through this Redis (PostgreSQL needed); off
    when unset (one process, no Redis call at all)."""
    redis_prefix: str = "bordet"
    """BORDET_REDIS_PREFIX: the start of every Redis key and channel (several deployments, one Redis)."""
    lease_s: float = 3.0
    """BORDET_LEASE_S: a room's ownership lease; a dead process's rooms move on after at most this."""
    gc_thresholds: tuple[int, int, int] = DEFAULT_THRESHOLDS
    """BORDET_GC_THRESHOLDS=20000,20,10: the cyclic collector's young, middle and full thresholds
    (app/heap.py says why they are not CPython's 700,10,10)."""
    fence_ttl_h: float = 7 * 24
    """BORDET_FENCE_TTL_H: a room's fence counter in Redis goes this long after its last lease (the
    database's fence keeps later owners above it all the same)."""

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            database_url=os.environ.get("DATABASE_URL") or None,
            secret=os.environ.get("BORDET_SECRET") or None,
            metrics_token=os.environ.get("BORDET_METRICS_TOKEN") or None,
            test_clock=_flag("BORDET_TEST_CLOCK"),
            send_backlog_bytes=int(os.environ.get("BORDET_SEND_BACKLOG_BYTES", str(256 * 1024))),
            write_timeout_s=float(os.environ.get("BORDET_WRITE_TIMEOUT_S", "5")),
            ping_interval_s=float(os.environ.get("BORDET_PING_INTERVAL_S", "2")),
            ping_racing_max_s=float(os.environ.get("BORDET_PING_RACING_MAX_S", "16")),
            ping_watching_s=float(os.environ.get("BORDET_PING_WATCHING_S", "30")),
            rate_per_s=float(os.environ.get("BORDET_RATE_PER_S", "20")),
            rate_burst=int(os.environ.get("BORDET_RATE_BURST", "40")),
            resync_per_s=float(os.environ.get("BORDET_RESYNC_PER_S", "50")),
            resync_burst=int(os.environ.get("BORDET_RESYNC_BURST", "100")),
            seat_hold_s=int(os.environ.get("BORDET_SEAT_HOLD_S", "120")),
            bot_think_ms=_range(os.environ.get("BORDET_BOT_THINK_MS", "700-1500")),
            max_body_bytes=int(os.environ.get("BORDET_MAX_BODY_BYTES", str(64 * 1024))),
            trusted_proxies=_list(os.environ.get("BORDET_TRUSTED_PROXIES", "")),
            players_per_min=int(os.environ.get("BORDET_PLAYERS_PER_MIN", "30")),
            rooms_per_min=int(os.environ.get("BORDET_ROOMS_PER_MIN", "10")),
            rooms_per_host=int(os.environ.get("BORDET_ROOMS_PER_HOST", "5")),
            sockets_per_address=int(os.environ.get("BORDET_SOCKETS_PER_ADDRESS", "64")),
            log_level=os.environ.get("BORDET_LOG_LEVEL", "INFO"),
            room_idle_s=float(os.environ.get("BORDET_ROOM_IDLE_S", "60")),
            max_loaded_rooms=int(os.environ.get("BORDET_MAX_LOADED_ROOMS", "5000")),
            lobby_expiry_h=float(os.environ.get("BORDET_LOBBY_EXPIRY_H", "24")),
            spectators_per_room=int(os.environ.get("BORDET_SPECTATORS_PER_ROOM", "50")),
            redis_url=os.environ.get("BORDET_REDIS_URL") or None,
            redis_prefix=os.environ.get("BORDET_REDIS_PREFIX", "bordet"),
            lease_s=float(os.environ.get("BORDET_LEASE_S", "3")),
            gc_thresholds=_ints(
                os.environ.get("BORDET_GC_THRESHOLDS", ",".join(map(str, DEFAULT_THRESHOLDS)))
            ),
            fence_ttl_h=float(os.environ.get("BORDET_FENCE_TTL_H", str(7 * 24))),
        )
