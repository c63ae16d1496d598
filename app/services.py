"""The long-lived objects of one server process, created in the app's lifespan."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.config import Settings
from app.db.event_log import EventLog
from app.db.store import Store
from app.limits import Limits
from app.observability.metrics import Metrics
from app.rooms.clock import Clock
from app.rooms.manager import RoomManager
from app.security import TokenSigner

if TYPE_CHECKING:  # the cluster (and redis) is imported only when BORDET_REDIS_URL is set
    from app.cluster.node import Node


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
    node: Node | None = None
    """This process's part in a group sharing the rooms through Redis; None with one process."""
