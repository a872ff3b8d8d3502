"""Refused requests are rate-limited per connection (a token bucket). A connection that
keeps sending moves the table refuses is closed with a reason; the other players play on."""

from __future__ import annotations

import dataclasses

import pytest

from net import protocol
from net.client import ClientError
from net.table.table import Table
from tests.net_helpers import FAST, TOY, WAIT, client, close_all, hosting

SETTINGS = dataclasses.replace(FAST, refusal_burst=10, refusals_per_second=0.001, refusal_cooldown=WAIT)


async def test_a_connection_flooding_refused_moves_is_closed_with_the_reason_and_the_table_plays_on():
    table = Table(TOY, {"players": 2}, seed=1)
    told: list[str] = []
    table.report_to(told.append)
    async with hosting(table, SETTINGS) as host:
        mallory, ann = client(host, name="Mallory"), client(host, name="Ann")
        await mallory.start()
        await ann.start()
        flood = {"type": "act", "action": {"card": 99}, "prompt": 0}
        for _ in range(200):  # sent without waiting: the host reads them as fast as it can
            mallory._writer.write(protocol.encode(flood))
        await mallory._writer.drain()
        await mallory.wait_for(lambda snap: mallory.stopped is not None, WAIT)
        assert mallory.last_error["code"] == "too_many_refusals"
        assert "more than 10 requests the table refused" in mallory.stopped and "closed" in mallory.stopped
        assert any("too many refused requests" in line and "seat 1" in line for line in told)
        # Coming straight back with the seat's token does not go on with the flood: it waits its turn.
        again = client(host, token=mallory.token)
        with pytest.raises(ClientError, match="closed for too many refused requests; come back in"):
            await again.start()
        # Ann is untouched: her move is taken as ever.
        prompt = ann.snapshot.prompt
        await ann.choose(0)
        await ann.wait_for(lambda snap: snap.prompt is None or snap.prompt["id"] != prompt["id"], WAIT)
        assert ann.connected and ann.last_error is None
        await close_all(mallory, ann)


async def test_refusals_within_the_burst_are_each_answered_and_the_connection_stays():
    async with hosting(Table(TOY, {"players": 2}, seed=2), SETTINGS) as host:
        ann, bob = client(host, name="Ann"), client(host, name="Bob")
        await ann.start()
        await bob.start()
        errors = []
        ann.subscribe(lambda update: errors.append(update.message["code"]) if update.kind == "error" else None)
        for _ in range(SETTINGS.refusal_burst):
            await ann.act({"card": 99})
        await ann.wait_for(lambda snap: len(errors) == SETTINGS.refusal_burst, WAIT)
        assert set(errors) == {"illegal"}
        await ann.choose(0)
        await bob.wait_for(lambda snap: snap.turn >= 0 and ann.connected, WAIT)
        assert ann.stopped is None and ann.connected
        await close_all(ann, bob)
