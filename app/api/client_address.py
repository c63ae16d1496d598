"""The address of the client behind an HTTP request or a WebSocket, for per-address limits.

The peer's address is the client's, unless the peer is a trusted proxy (``BORDET_TRUSTED_PROXIES``):
then the client is the right-most address in ``X-Forwarded-For`` (or ``Forwarded: for=``) that is
not itself a trusted proxy. Everything left of that was written by the client and may be forged;
everything right of it was appended by proxies we trust. Without trusted proxies the headers are
never read, so a client can not pick its own address.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from functools import lru_cache

from starlette.requests import HTTPConnection

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

UNKNOWN = "unknown"
"""The address of a peer the server was not told (e.g. a Unix socket)."""
IPV6_PREFIX = 64
"""One IPv6 client usually holds a whole /64: limits count the prefix, not each address."""


@lru_cache(maxsize=8)
def trusted_networks(items: tuple[str, ...]) -> tuple[Network, ...]:
    """``("10.0.0.0/8", "192.0.2.1")`` as networks; raises ValueError on an entry that is not one."""
    return tuple(ipaddress.ip_network(item, strict=False) for item in items)


def parse_address(text: str) -> Address | None:
    """An IP address (an IPv4-mapped IPv6 one as IPv4), or None for anything else."""
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def is_trusted(address: Address | None, trusted: Sequence[Network]) -> bool:
    return address is not None and any(address in network for network in trusted)


def _forwarded_for(value: str) -> str:
    """One ``for=`` value of a Forwarded element without quotes, brackets or port."""
    value = value.strip().strip('"')
    if value.startswith("["):  # "[2001:db8::1]:4711"
        return value[1 : value.find("]")] if "]" in value else value[1:]
    if value.count(":") == 1:  # "192.0.2.60:8080"
        return value.partition(":")[0]
    return value


def forwarded_chain(headers: Iterable[tuple[str, str]]) -> list[str]:
    """The addresses the proxies reported, left (farthest) to right (nearest): every
    ``X-Forwarded-For`` line in order, or without one the ``for=`` of every ``Forwarded`` element."""
    x_forwarded, forwarded = [], []
    for name, value in headers:
        if name == "x-forwarded-for":
            x_forwarded += [item.strip() for item in value.split(",")]
        elif name == "forwarded":
            for element in value.split(","):
                for pair in element.split(";"):
                    key, _, raw = pair.partition("=")
                    if key.strip().lower() == "for":
                        forwarded.append(_forwarded_for(raw))
    return [item for item in (x_forwarded or forwarded) if item]


def resolve(peer: str | None, headers: Iterable[tuple[str, str]], trusted: Sequence[Network]) -> str:
    """The client's address given the peer's and the request headers (see the module doc)."""
    if peer is None:
        return UNKNOWN
    here = parse_address(peer)
    if not is_trusted(here, trusted):
        return str(here) if here is not None else peer
    chain = forwarded_chain(headers)
    for item in reversed(chain):
        address = parse_address(item)
        if not is_trusted(address, trusted):
            # A trusted proxy wrote this entry: if it is no address (an obfuscated Forwarded
            # name, "unknown"), it is still the best name we have for that client.
            return str(address) if address is not None else item[:64]
    # Nothing but trusted proxies (or no header at all): the farthest hop is the client.
    return str(parse_address(chain[0]) or chain[0][:64]) if chain else str(here)


def client_address(conn: HTTPConnection, trusted_proxies: tuple[str, ...]) -> str:
    """The client address of a request or WebSocket (``conn``), trusting ``trusted_proxies``."""
    peer = conn.client.host if conn.client else None
    return resolve(peer, conn.headers.items(), trusted_networks(trusted_proxies))


def limit_key(address: str) -> str:
    """What per-address limits count: the address, or for IPv6 its /64."""
    parsed = parse_address(address)
    if isinstance(parsed, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((parsed, IPV6_PREFIX), strict=False))
    return address
