"""Bordet: a real-time multiplayer card-game server; the server is the referee."""

from app.native import refuse_stale_build

# Before any other module of the package: a compiled module beside an edited source would win
# the import and silently run old code (see app/native.py).
refuse_stale_build()
