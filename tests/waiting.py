"""The one way a test waits: poll a condition until it holds.

A test waits for what it will assert, never for a fixed time. ``WAIT`` bounds a wait so that a hung test
fails with a message instead of hanging CI; it is a guard, not a speed limit.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable, TypeVar

WAIT = 60.0

T = TypeVar("T")


async def until(condition: Callable[[], Any], what: str, *, pilot: Any = None) -> None:
    """Wait until ``condition()`` holds. In an app test pass its ``pilot``: the app then handles its
    messages between looks, and a wait that gives up says what the screen showed."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + WAIT
    while not condition():
        if loop.time() >= give_up:
            raise AssertionError(f"never saw {what}" + (f"\n{_app_state(pilot)}" if pilot is not None else ""))
        if pilot is not None:
            await pilot.pause(0.02)
        else:
            await asyncio.sleep(0.01)


def until_returns(look: Callable[[], T | None], what: str, *, every: float = 0.1,
                  explain: Callable[[], str] = lambda: "") -> T:
    """Outside an event loop (a terminal, a subprocess): call ``look()`` until it gives something, and
    return that."""
    give_up = time.monotonic() + WAIT
    while True:
        seen = look()
        if seen:
            return seen
        if time.monotonic() >= give_up:
            raise AssertionError(f"never saw {what}\n{explain()}")
        time.sleep(every)


def _app_state(pilot: Any) -> str:
    from tests.tui_helpers import what_the_app_was_doing
    return what_the_app_was_doing(pilot.app)
