"""A coroutine run eagerly: what never waits is done at once; what waits is finished by a task."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable

import pytest

from app.tasks import run_eagerly


async def test_a_coroutine_that_never_waits_is_done_at_once() -> None:
    done: list[str] = []

    async def write() -> None:
        done.append("written")

    assert run_eagerly(write()) is None
    assert done == ["written"]


async def test_a_coroutine_that_waits_runs_to_its_wait_and_its_rest_finishes_it() -> None:
    steps: list[str] = []
    gate = asyncio.Event()

    async def write() -> None:
        steps.append("started")
        await gate.wait()
        steps.append("finished")

    rest = run_eagerly(write())
    assert rest is not None and steps == ["started"]
    finishing = asyncio.create_task(_await(rest))
    await asyncio.sleep(0)
    assert steps == ["started"]
    gate.set()
    await finishing
    assert steps == ["started", "finished"]


async def test_cancelling_the_task_that_awaits_the_rest_cancels_the_coroutine() -> None:
    cleaned: list[str] = []

    async def write() -> None:
        try:
            await asyncio.Event().wait()
        finally:
            cleaned.append("cleaned up")

    rest = run_eagerly(write())
    assert rest is not None
    finishing = asyncio.create_task(_await(rest))
    await asyncio.sleep(0)
    finishing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await finishing
    assert cleaned == ["cleaned up"]


async def test_an_error_after_the_wait_reaches_whoever_awaits_the_rest() -> None:
    gate = asyncio.Event()

    async def write() -> None:
        await gate.wait()
        raise ConnectionResetError("the peer went away")

    rest = run_eagerly(write())
    assert rest is not None
    gate.set()
    with pytest.raises(ConnectionResetError):
        await rest


async def _await(rest: Awaitable[None]) -> None:
    await rest
