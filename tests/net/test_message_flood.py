"""A hostile guest against the table: every message a connection sends counts against its budget,
valid or not (``here``, ``ping``, ``pong`` too), whether it sits at the table, watches, or never joined. A
flooder is closed with the reason; the others play on. (How the others' round trip fares during a flood is
measured in ``bench/net.py``.)"""

from __future__ import annotations

import asyncio
import dataclasses
import random
from typing import Any

import pytest

from net import protocol
from net.table.table import Table
from tests.net_helpers import FAST, TOY, WAIT, client, close_all, hosting, play_randomly

SETTINGS = dataclasses.replace(FAST, message_burst=50, messages_per_second=0.001, refusal_cooldown=WAIT)
HELLO = {"type": "hello", "protocol": protocol.PROTOCOL_VERSION}


async def flood(address: tuple[str, int], hello: dict[str, Any] | None, message: dict[str, Any],
                count: int = 5000) -> dict[str, Any]:
    """Connect, join with ``hello`` (or not at all), send ``message`` ``count`` times without waiting, and
    return the last error the host sent before it closed the connection."""
    reader, writer = await asyncio.open_connection(*address)
    frames = ([protocol.encode(hello)] if hello else []) + [protocol.encode(message)] * count
    writer.write(b"".join(frames))
    last: dict[str, Any] = {}
    try:
        while True:
            answer = await asyncio.wait_for(protocol.read_frame(reader, protocol.MAX_HOST_FRAME), WAIT)
            if answer["type"] == "error":
                last = answer
    except (asyncio.IncompleteReadError, ConnectionError):
        pass  # closed by the host: what this test waits for
    finally:
        writer.close()
    return last


@pytest.mark.parametrize("who, hello, message", [
    ("a player saying 'here'", {**HELLO, "role": "player", "name": "Mallory"}, {"type": "here"}),
    ("a player pinging", {**HELLO, "role": "player", "name": "Mallory"}, {"type": "ping", "t": 1}),
    ("a spectator ponging", {**HELLO, "role": "spectator", "name": "Mallory"}, {"type": "pong"}),
    ("a connection that never joined, pinging", None, {"type": "ping"}),
])
async def test_a_flooding_connection_is_closed_and_the_others_play_on(who, hello, message):
    table = Table(TOY, {"players": 3} if hello and hello["role"] == "player" else {"players": 2}, seed=4)
    told: list[str] = []
    table.report_to(told.append)
    async with hosting(table, SETTINGS) as host:
        ann, bob = client(host, name="Ann"), client(host, name="Bob")
        await ann.start()
        await bob.start()
        error = await flood(host.address, hello, message)
        assert error["code"] == "too_many_messages", (who, error)
        assert f"more than {SETTINGS.message_burst} messages" in error["message"] and "closed" in error["message"]
        assert any("too many messages" in line for line in told), told
        if hello and hello["role"] == "player":  # the flooder's seat waits for him: the host gives it to a bot
            host.table.hand_to_bot(2, why="was handed to a bot by the host")
        await asyncio.gather(play_randomly(ann, random.Random(1)), play_randomly(bob, random.Random(2)))
        assert ann.snapshot.result is not None and ann.connected and ann.last_error is None
        await close_all(ann, bob)


async def test_a_program_that_keeps_to_its_budget_is_never_closed():
    """A person's program within the budget: the burst at once, then pings at the heartbeat, all answered."""
    async with hosting(Table(TOY, {"players": 2}, seed=5), SETTINGS) as host:
        ann, bob = client(host, name="Ann"), client(host, name="Bob")
        await ann.start()
        await bob.start()
        for _ in range(SETTINGS.message_burst - 10):
            await ann.send({"type": "here"})
        await asyncio.gather(play_randomly(ann, random.Random(1)), play_randomly(bob, random.Random(2)))
        assert ann.connected and ann.last_error is None and ann.snapshot.result is not None
        await close_all(ann, bob)
