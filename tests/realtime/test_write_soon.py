"""Frames a turn queues leave together in the loop's next round, without a task per frame."""

from __future__ import annotations

import asyncio

from tests.realtime.sockets import QuickSocket, connection


async def test_frames_queued_in_one_turn_leave_in_order_in_the_next_round() -> None:
    sockets = [QuickSocket() for _ in range(3)]
    conns = [connection(s) for s in sockets]
    for seq, conn in enumerate(conns, start=1):
        conn.set_racing(True)  # (their write times are kept)
        conn.send(f'{{"type": "patch", "seq": {seq}}}', seq=seq)
        conn.send('{"type": "ack", "id": "a1"}')
    assert all(not s.sent for s in sockets)  # the turn is not held up by its sockets
    tasks_before = len(asyncio.all_tasks())
    await asyncio.sleep(0)
    assert [[f["type"] for f in s.sent] for s in sockets] == [["patch", "ack"]] * 3
    assert len(asyncio.all_tasks()) == tasks_before  # no writer task for writes that did not wait
    assert [conn.written_at(seq) for seq, conn in enumerate(conns, start=1)] == [0, 0, 0]
    for conn in conns:
        await conn.stop()


async def test_only_a_racing_connection_keeps_the_times_its_frames_were_written() -> None:
    racing, watching = connection(QuickSocket()), connection(QuickSocket())
    racing.set_racing(True)
    for conn in (racing, watching):
        conn.send('{"type": "patch", "seq": 1}', seq=1)
    await asyncio.sleep(0)
    assert (racing.written_at(1), watching.written_at(1)) == (0, None)
    racing.set_racing(False)
    racing.send('{"type": "patch", "seq": 2}', seq=2)
    await asyncio.sleep(0)
    assert racing.written_at(2) is None  # no race is judged with its link any more
    for conn in (racing, watching):
        await conn.stop()


async def test_a_frame_queued_after_a_flush_is_flushed_in_a_later_round() -> None:
    socket = QuickSocket()
    conn = connection(socket)
    conn.send('{"type": "patch", "seq": 1}', seq=1)
    await asyncio.sleep(0)
    conn.send('{"type": "patch", "seq": 2}', seq=2)
    await asyncio.sleep(0)
    assert [f["seq"] for f in socket.sent] == [1, 2]
    await conn.stop()
