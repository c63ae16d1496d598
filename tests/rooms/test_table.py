"""The game a room runs (app/rooms/table.py): which client action ids each seat has had applied."""

from __future__ import annotations

from app.db.store import GameRec
from app.engines.base import Move, SeatSetup
from app.engines.slap.engine import SlapEngine
from app.engines.slap.options import SlapOptions
from app.engines.step import Tick
from app.rooms.table import Table

ENGINE = SlapEngine()
STARTER = 0
"""Who calls "nu" in the game these tests start."""


def slap_table() -> Table:
    state = ENGINE.start([SeatSetup(), SeatSetup()], SlapOptions(), "table-test", 0)
    rec = GameRec(1, "ROOM", "slap", {}, [{}, {}], "table-test", "hash", "running", None, 0)
    table = Table(rec=rec, engine=ENGINE, state=state, committed=state, next_seq=1)
    assert ENGINE.view(state, STARTER)["legal"] == [{"type": "nu"}]
    return table


def play(table: Table, seat: int, action: dict[str, object], client_id: str, at: int = 0) -> None:
    table.accept(table.try_input(Move(seat=seat, action=action, at=at), client_id), [])


def test_an_accepted_id_is_known_for_its_seat_only() -> None:
    table = slap_table()
    play(table, STARTER, {"type": "nu"}, "c1")
    assert table.was_applied(STARTER, "c1")
    assert not table.was_applied(1 - STARTER, "c1"), "another seat's action with the same id is its own"
    assert not table.was_applied(STARTER, "c2")


def test_a_rolled_back_input_is_forgotten_so_it_can_be_sent_again() -> None:
    table = slap_table()
    play(table, STARTER, {"type": "nu"}, "c1")
    table.roll_back(table.take_pending())
    assert not table.was_applied(STARTER, "c1") and not table.applied
    play(table, STARTER, {"type": "nu"}, "c1")
    assert table.was_applied(STARTER, "c1") and table.next_seq == 2


def test_a_committed_id_stays_known_when_a_later_input_is_rolled_back() -> None:
    table = slap_table()
    play(table, STARTER, {"type": "nu"}, "c1")
    table.take_pending()
    table.committed_now()
    deadline = ENGINE.view(table.state, None)["deadline"]
    table.accept(table.try_input(Tick(deadline), None), [])  # the first card is turned
    play(table, 1 - STARTER, {"type": "slap", "flip": 1}, "c2", at=deadline)
    table.roll_back(table.take_pending())
    assert table.was_applied(STARTER, "c1")
    assert not table.was_applied(1 - STARTER, "c2")
    assert table.state is table.committed
