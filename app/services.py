"""The long-lived objects of one server process, created in the app's lifespan."""

from __future__ import annotations

from dataclasses import dataclass

from app.config import Settings
from app.db.store import EventLog, Store
from app.limits import Limits
from app.observability.metrics import Metrics
from app.rooms.clock import Clock
from app.rooms.manager import RoomManager
from app.security import TokenSigner


@dataclass
class Services:
    settings: Settings
    store: Store
    event_log: EventLog
    clock: Clock
    rooms: RoomManager
    signer: TokenSigner
    limits: Limits
    metrics: Metrics
