"""Guest identities: a display name in, a signed token out."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import PlayerDep, ServicesDep
from app.api.schemas import ErrorOut, PlayerCreate, PlayerOut, PlayerWithToken

router = APIRouter(prefix="/api/players", tags=["players"])


@router.post("", response_model=PlayerWithToken, status_code=201)
async def create_player(body: PlayerCreate, services: ServicesDep) -> PlayerWithToken:
    player = await services.store.create_player(body.name.strip())
    return PlayerWithToken(id=player.id, name=player.name, token=services.signer.sign(player.id))


@router.get("/me", response_model=PlayerOut, responses={401: {"model": ErrorOut}})
async def me(player: PlayerDep) -> PlayerOut:
    return PlayerOut(id=player.id, name=player.name)
