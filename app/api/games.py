"""The games this server referees, with player counts and option schemas."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.schemas import GameInfo
from app.engines import ENGINES

router = APIRouter(prefix="/api/games", tags=["games"])


@router.get("", response_model=list[GameInfo])
async def list_games() -> list[GameInfo]:
    return [
        GameInfo(
            id=name,
            title=engine.title,
            min_players=engine.min_players,
            max_players=engine.max_players,
            options_schema=engine.options_model.model_json_schema(),
        )
        for name, engine in ENGINES.items()
    ]
