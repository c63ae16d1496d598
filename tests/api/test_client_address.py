"""The client address behind a trusted proxy, and only behind one: headers from anyone else are ignored."""

from __future__ import annotations

import pytest
from starlette.requests import HTTPConnection

from app.api.client_address import client_address, limit_key, trusted_networks

PROXY = ("10.0.0.0/8",)


def conn(peer: str | None, *headers: tuple[str, str], kind: str = "http") -> HTTPConnection:
    return HTTPConnection(
        {
            "type": kind,
            "client": (peer, 51000) if peer else None,
            "headers": [(k.lower().encode(), v.encode()) for k, v in headers],
            "path": "/",
        }
    )


def test_without_trusted_proxies_the_peer_is_the_client() -> None:
    assert client_address(conn("203.0.113.7"), ()) == "203.0.113.7"


def test_a_spoofed_x_forwarded_for_from_an_untrusted_peer_is_ignored() -> None:
    spoofed = conn("203.0.113.7", ("X-Forwarded-For", "198.51.100.1"))
    assert client_address(spoofed, ()) == "203.0.113.7"
    assert client_address(spoofed, PROXY) == "203.0.113.7"


def test_a_spoofed_forwarded_header_from_an_untrusted_peer_is_ignored() -> None:
    assert client_address(conn("203.0.113.7", ("Forwarded", "for=198.51.100.1")), PROXY) == "203.0.113.7"


def test_a_trusted_proxy_gives_the_right_most_untrusted_address() -> None:
    # The client forged the first entry; our proxy appended the address it really saw.
    request = conn("10.0.0.2", ("X-Forwarded-For", "198.51.100.1, 203.0.113.7"))
    assert client_address(request, PROXY) == "203.0.113.7"


def test_a_chain_of_trusted_proxies_is_walked_from_the_right() -> None:
    request = conn("10.0.0.2", ("X-Forwarded-For", "198.51.100.1, 203.0.113.7, 10.1.2.3"))
    assert client_address(request, PROXY) == "203.0.113.7"


def test_several_x_forwarded_for_lines_read_as_one_list() -> None:
    request = conn("10.0.0.2", ("X-Forwarded-For", "198.51.100.1"), ("X-Forwarded-For", "203.0.113.7"))
    assert client_address(request, PROXY) == "203.0.113.7"


def test_the_forwarded_header_is_read_when_there_is_no_x_forwarded_for() -> None:
    header = 'for=198.51.100.1;proto=https, for="[2001:db8:cafe::17]:4711";by=10.0.0.2'
    assert client_address(conn("10.0.0.2", ("Forwarded", header)), PROXY) == "2001:db8:cafe::17"
    assert client_address(conn("10.0.0.2", ("Forwarded", "for=203.0.113.7:8080")), PROXY) == "203.0.113.7"


def test_a_trusted_proxy_without_a_header_is_the_client() -> None:
    assert client_address(conn("10.0.0.2"), PROXY) == "10.0.0.2"


def test_ipv4_mapped_ipv6_peers_count_as_their_ipv4_address() -> None:
    assert client_address(conn("::ffff:10.0.0.2", ("X-Forwarded-For", "203.0.113.7")), PROXY) == "203.0.113.7"


def test_a_websocket_is_resolved_like_a_request() -> None:
    request = conn("10.0.0.2", ("X-Forwarded-For", "203.0.113.7"), kind="websocket")
    assert client_address(request, PROXY) == "203.0.113.7"


def test_a_connection_without_a_peer_is_unknown() -> None:
    assert client_address(conn(None, ("X-Forwarded-For", "203.0.113.7")), PROXY) == "unknown"


def test_an_ipv6_client_is_limited_by_its_64_prefix() -> None:
    assert limit_key("2001:db8:1:2:3:4:5:6") == limit_key("2001:db8:1:2:ffff::1") == "2001:db8:1:2::/64"
    assert limit_key("203.0.113.7") == "203.0.113.7"


def test_a_trusted_proxy_entry_that_is_not_an_address_is_refused() -> None:
    with pytest.raises(ValueError):
        trusted_networks(("10.0.0.0/8", "proxy.example"))
