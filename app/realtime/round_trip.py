"""The round trip of a connection that its client cannot delay: where it comes from, and whether there is one.

Clock-sync pings measure the link through the client's own pongs, and a client can hold those back
to look farther away than it is (its race claims are then forgiven more network time). The TCP
connection itself cannot be slowed that way: its round trip is timed from the client kernel's ACKs.
Who can read it depends on who terminates the client's TCP connection:

* **The server itself** (no proxy): the kernel's estimate of the socket (Linux ``TCP_INFO``), read
  afresh each time the clock sync takes a sample.
* **A trusted reverse proxy** (``BORDET_TRUSTED_PROXIES``, the same list that decides whether
  ``X-Forwarded-For`` is believed, :mod:`app.api.client_address`): the proxy's measure of the
  client connection, forwarded on the WebSocket upgrade as ``X-Client-RTT`` and
  ``X-Client-RTTVar`` (microseconds; nginx: ``$tcpinfo_rtt`` and ``$tcpinfo_rttvar``). A trusted
  proxy that forwards none leaves the connection without a verifiable round trip.
* **Anyone else on this host** (a loopback peer that is not trusted): the kernel would time only
  the hop to that proxy, so nothing is verifiable either.

The figure is ``(round trip, jitter allowance)`` in whole ms, rounded outwards: the kernel's
smallest recent round trip, and its smoothed round trip plus twice the deviation above that; a
proxy's smoothed round trip and twice its deviation.
"""

from __future__ import annotations

import math
import socket
from collections.abc import Iterable

from app.api.client_address import is_trusted, parse_address, trusted_networks
from app.engines.race import Verified
from app.realtime.transport import KernelRoundTrip, kernel_round_trip

RTT_HEADER, RTTVAR_HEADER = "x-client-rtt", "x-client-rttvar"
MAX_US = 30_000_000
"""A forwarded round trip above 30 s is nonsense (the clock sync drops such samples too)."""


def _ms(us: float) -> int:
    return math.ceil(us / 1000)


def from_kernel(figures: KernelRoundTrip) -> Verified:
    """The kernel's figure: its smallest recent round trip, and the smoothed one plus twice its
    deviation above that.

    >>> from_kernel(KernelRoundTrip(srtt_us=23_400, rttvar_us=1_800, min_rtt_us=20_100))
    (20, 7)
    """
    floor = figures.min_rtt_us
    return floor // 1000, _ms(max(figures.srtt_us + 2 * figures.rttvar_us - floor, 0))


def from_headers(headers: Iterable[tuple[str, str]]) -> Verified | None:
    """The proxy's figure from its headers; None when it sent none, nonsense, or a header twice (a
    proxy that passes the client's own copy along: which one is the proxy's cannot be told).

    >>> from_headers([("x-client-rtt", "150000"), ("x-client-rttvar", "3000")])
    (150, 6)
    >>> from_headers([("x-client-rtt", "fast")]), from_headers([])
    (None, None)
    """
    found: dict[str, int] = {}
    for name, value in headers:
        if name in (RTT_HEADER, RTTVAR_HEADER):
            text = value.strip()
            if name in found or not text.isdigit() or len(text) > 9 or int(text) > MAX_US:
                return None
            found[name] = int(text)
    if RTT_HEADER not in found:
        return None
    return found[RTT_HEADER] // 1000, _ms(2 * found.get(RTTVAR_HEADER, 0))


class RoundTrip:
    """What the server can verify of one connection's round trip (see the module doc)."""

    __slots__ = ("_sock", "verified")

    def __init__(self, verified: Verified | None = None, sock: socket.socket | None = None) -> None:
        self._sock = sock
        self.verified = verified
        """The latest figure, None while there is none."""

    @property
    def unverifiable(self) -> bool:
        """No figure can come for this connection: no socket of its client to read, no forwarded one."""
        return self._sock is None and self.verified is None

    def refresh(self) -> None:
        """Read the kernel's figure again (a direct connection); a proxy's stays as forwarded."""
        if self._sock is not None:
            figures = kernel_round_trip(self._sock)
            if figures is not None:
                self.verified = from_kernel(figures)

    @classmethod
    def of(
        cls,
        peer: str | None,
        headers: Iterable[tuple[str, str]],
        sock: socket.socket | None,
        trusted_proxies: tuple[str, ...],
    ) -> RoundTrip:
        """Decide, for a connection from ``peer``, where its figure comes from."""
        address = parse_address(peer) if peer is not None else None
        if is_trusted(address, trusted_networks(trusted_proxies)):
            return cls(from_headers(headers))
        if address is None or address.is_loopback or sock is None:
            return cls()
        found = cls(sock=sock)
        found.refresh()
        return found if found.verified is not None else cls()
