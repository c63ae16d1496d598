"""The server's log format, set in one place: one line per record, ``time level logger message``.

A traceback is folded into its record's line (`` | `` between its lines), so every line of the
log is one event that grep, a log shipper or a count of ``ERROR`` lines can take as it is.
uvicorn's own loggers keep their handlers and levels and only take this format.
"""

from __future__ import annotations

import logging

FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access")


class OneLineFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__(FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        return super().format(record).replace("\r", "").replace("\n", " | ")


class _Ours(logging.StreamHandler):  # type: ignore[type-arg]
    """Marks the handler this module installed, so a second app in the process adds no second one."""


def configure_logging(level: str = "INFO") -> None:
    formatter = OneLineFormatter()
    root = logging.getLogger()
    if not any(isinstance(h, _Ours) for h in root.handlers):
        ours = _Ours()
        ours.setFormatter(formatter)
        root.addHandler(ours)
    root.setLevel(level.upper())
    for name in UVICORN_LOGGERS:
        for handler in logging.getLogger(name).handlers:
            handler.setFormatter(formatter)
