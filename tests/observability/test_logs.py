"""The server's log format: one line per record, ``time level logger message``, tracebacks folded in."""

from __future__ import annotations

import logging

from app.observability.logs import OneLineFormatter


def test_a_record_with_a_traceback_is_one_line() -> None:
    try:
        raise ValueError("boom\nsecond line")
    except ValueError as exc:
        record = logging.LogRecord(
            "app.rooms.room", logging.ERROR, __file__, 1, "room=%s failed", ("ABC234",), None
        )
        record.exc_info = (type(exc), exc, exc.__traceback__)
    line = OneLineFormatter().format(record)
    assert "\n" not in line
    _date, _time, level, logger, message = line.split(" ", 4)
    assert (level, logger) == ("ERROR", "app.rooms.room")
    assert message.startswith("room=ABC234 failed | Traceback (most recent call last):")
