"""Where a connection's verifiable round trip comes from (app/realtime/round_trip.py)."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from app.realtime.round_trip import RoundTrip, from_headers

TRUSTED = ("10.0.0.0/8",)
FORWARDED = [("x-client-rtt", "150000"), ("x-client-rttvar", "3000")]


@pytest.fixture
def tcp() -> Iterator[socket.socket]:
    """The server side of a real TCP connection over loopback, after a few exchanges."""
    listener = socket.create_server(("127.0.0.1", 0))
    client = socket.create_connection(listener.getsockname()[:2])
    server, _ = listener.accept()
    for _ in range(5):
        server.sendall(b"x")
        client.recv(1)
        client.sendall(b"y")
        server.recv(1)
    try:
        yield server
    finally:
        for s in (server, client, listener):
            s.close()


def test_a_trusted_proxy_forwards_the_round_trip_of_the_client_connection() -> None:
    found = RoundTrip.of("10.1.2.3", FORWARDED, None, TRUSTED)
    assert (found.verified, found.unverifiable) == ((150, 6), False)


def test_a_trusted_proxy_that_forwards_none_leaves_the_link_unverifiable(tcp: socket.socket) -> None:
    # The socket is the proxy's: its kernel figure is that hop's, not the client's.
    found = RoundTrip.of("10.1.2.3", [], tcp, TRUSTED)
    assert (found.verified, found.unverifiable) == (None, True)


def test_a_client_cannot_forward_its_own_round_trip(tcp: socket.socket) -> None:
    found = RoundTrip.of("192.0.2.7", FORWARDED, tcp, TRUSTED)
    assert found.verified is not None and found.verified[0] < 150  # the kernel's, not the header's
    assert found.unverifiable is False


def test_a_direct_client_is_timed_by_the_kernel_of_its_socket(tcp: socket.socket) -> None:
    found = RoundTrip.of("192.0.2.7", [], tcp, ())
    assert found.verified is not None
    rtt, jitter = found.verified
    assert 0 <= rtt <= jitter + rtt <= 2  # loopback: well under a millisecond each, rounded up
    found.refresh()
    assert found.verified is not None


def test_an_untrusted_peer_on_this_host_is_a_proxy_we_were_not_told_of(tcp: socket.socket) -> None:
    for peer in ("127.0.0.1", "::1", "::ffff:127.0.0.1"):
        found = RoundTrip.of(peer, FORWARDED, tcp, ())
        assert (found.verified, found.unverifiable) == (None, True), peer


def test_no_socket_or_no_address_means_no_verifiable_round_trip(tcp: socket.socket) -> None:
    assert RoundTrip.of("192.0.2.7", [], None, ()).unverifiable
    assert RoundTrip.of(None, [], tcp, ()).unverifiable
    assert RoundTrip.of("not an address", [], tcp, ()).unverifiable


@pytest.mark.parametrize(
    "headers",
    [
        [("x-client-rtt", "-5")],
        [("x-client-rtt", "1e5")],
        [("x-client-rtt", "99999999999")],
        [("x-client-rtt", "150000"), ("x-client-rttvar", "lots")],
        [("x-client-rttvar", "3000")],
        [("x-client-rtt", "")],
    ],
)
def test_a_malformed_forwarded_round_trip_is_ignored(headers: list[tuple[str, str]]) -> None:
    assert from_headers(headers) is None
    assert RoundTrip.of("10.1.2.3", headers, None, TRUSTED).unverifiable


def test_a_forwarded_round_trip_given_twice_is_ignored() -> None:
    # nginx's proxy_set_header replaces the client's copy; a proxy that passes it along sends two,
    # and which one is the proxy's cannot be told.
    assert from_headers([("x-client-rtt", "1000"), *FORWARDED]) is None
