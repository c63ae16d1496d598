"""Errors of the lobby and room layer, with a stable code and an HTTP status for the API."""

from __future__ import annotations


class RoomError(Exception):
    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


SERVER_ERROR = ("SERVER_ERROR", "The server could not do that; nothing changed. Please try again.")
"""Code and message of an input refused because something failed while handling it (not the rules)."""

DATABASE_AWAY = (
    "SERVER_ERROR",
    "The server's database did not answer just now; nothing changed. Please try again.",
)
"""Code and message of a request the database could not serve (unreachable, or every pooled
connection busy past the pool's timeout under a burst): a 503 over HTTP, close 1011 on a socket's hello."""

REDIS_AWAY = (
    "SERVER_ERROR",
    "The servers' shared directory of rooms did not answer just now; nothing changed. Please try again.",
)
"""Code and message of a request about a room while this process cannot reach Redis (with several
processes sharing the rooms): whether the room is held elsewhere, or may be held here, is unknown."""

MOVED = (1012, SERVER_ERROR[0], "This table moved to another server; reconnecting.")
"""Close code, error code and message for the sockets of a room that left this process (another
holds it now, or it was put away): the client's reconnect finds it where it is now."""
