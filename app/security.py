"""Signed guest tokens: ``<player id>.<HMAC-SHA256 of it>``, URL-safe.

>>> signer = TokenSigner("k")
>>> t = signer.sign("abc")
>>> signer.verify(t)
'abc'
>>> signer.verify(t[:-1] + ("A" if t[-1] != "A" else "B")) is None
True
"""

from __future__ import annotations

import base64
import hashlib
import hmac


class TokenSigner:
    def __init__(self, secret: str) -> None:
        self._key = secret.encode()

    def _mac(self, player_id: str) -> str:
        digest = hmac.new(self._key, player_id.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()

    def sign(self, player_id: str) -> str:
        return f"{player_id}.{self._mac(player_id)}"

    def verify(self, token: object) -> str | None:
        if not isinstance(token, str) or token.count(".") != 1 or len(token) > 200:
            return None
        player_id, mac = token.split(".")
        if not player_id or not hmac.compare_digest(mac, self._mac(player_id)):
            return None
        return player_id
