"""Guest identities: a display name in, a signed token out."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import NewPlayerLimit, PlayerDep, ServicesDep
from app.api.schemas import PlayerCreate, PlayerOut, PlayerWithToken, error_responses

router = APIRouter(prefix="/api/players", tags=["players"], responses=error_responses())


@router.post(
    "",
    response_model=PlayerWithToken,
    status_code=201,
    dependencies=[NewPlayerLimit],
    responses=error_responses(429),
)
async def create_player(body: PlayerCreate, services: ServicesDep) -> PlayerWithToken:
    player = await services.store.create_player(body.name)
    return PlayerWithToken(id=player.id, name=player.name, token=services.signer.sign(player.id))


@router.get("/me", response_model=PlayerOut, responses=error_responses(401))
async def me(player: PlayerDep) -> PlayerOut:
    return PlayerOut(id=player.id, name=player.name)
