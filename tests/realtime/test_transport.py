"""The transport helpers (app/realtime/transport.py): the kernel's round trip of a real TCP socket."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from app.realtime.transport import kernel_round_trip


@pytest.fixture
def loopback() -> Iterator[tuple[socket.socket, socket.socket]]:
    """A connected pair of real TCP sockets over loopback: (server side, client side)."""
    listener = socket.create_server(("127.0.0.1", 0))
    client = socket.create_connection(listener.getsockname()[:2])
    server, _ = listener.accept()
    try:
        yield server, client
    finally:
        for s in (server, client, listener):
            s.close()


def test_the_kernel_round_trip_of_a_loopback_socket_is_read(
    loopback: tuple[socket.socket, socket.socket],
) -> None:
    server, client = loopback
    for _ in range(20):  # a few exchanges, so that the kernel has ACKs to time
        server.sendall(b"ping")
        assert client.recv(16) == b"ping"
        client.sendall(b"pong")
        assert server.recv(16) == b"pong"
    figures = kernel_round_trip(server)
    assert figures is not None
    # Loopback: well under a millisecond, and the windowed minimum is never above the smoothed one.
    assert 0 < figures.min_rtt_us <= figures.srtt_us < 1000
    assert figures.rttvar_us >= 0


def test_a_socket_that_is_not_tcp_has_no_kernel_round_trip() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        assert kernel_round_trip(udp) is None


def test_a_closed_socket_has_no_kernel_round_trip(loopback: tuple[socket.socket, socket.socket]) -> None:
    server, _ = loopback
    server.close()
    assert kernel_round_trip(server) is None
