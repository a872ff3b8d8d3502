"""Bots at a hosted table never stall it: they think in a worker thread, and a bot that fails or runs past
its deadline has the normal bot make its move, with a notice to everyone. Real host, real sockets on
127.0.0.1; the tests wait on what the table shows, never on the clock."""

from __future__ import annotations

import asyncio
import dataclasses
import threading

import pytest

from core.bots import BotTable
from core.registry import all_games, get_game
from net.host import HostSettings
from net.table.table import Table
from tests.net_helpers import FAST, WAIT, client, hosting

TURPIN = get_game("turpin")


def game_with(**extra_bots):
    """Dick Turpin with some test bots beside its own."""
    return dataclasses.replace(TURPIN, bots=BotTable({**dict(TURPIN.bots.items()), **extra_bots}))


async def watch(host):
    """A spectator and the notices it hears."""
    spectator = client(host, role="spectator")
    await spectator.start()
    notices: list[str] = []
    spectator.subscribe(lambda update: notices.append(update.text) if update.kind == "notice" else None)
    return spectator, notices


async def test_a_bot_that_crashes_has_the_normal_bot_move_for_it_and_the_game_ends():
    def broken(state, seat, rng):
        raise RuntimeError("a bug in the bot")

    table = Table(game_with(broken=broken), {"players": 2}, bots={0: "broken", 1: "random"}, seed=3)
    async with hosting(table, FAST) as host:
        spectator, notices = await watch(host)
        await spectator.wait_for(lambda snap: snap.result is not None, WAIT)
        assert notices and all("Seat 1's broken bot failed (RuntimeError); the normal bot made this move" == n
                               for n in notices)
        await spectator.close()
    assert table.over


@pytest.mark.slow
async def test_a_bot_past_its_deadline_has_the_normal_bot_move_for_it():
    release = threading.Event()

    def stuck(state, seat, rng):
        release.wait()  # thinks until the test ends: far past any deadline
        return TURPIN.legal_actions(state, seat)[0]

    table = Table(game_with(stuck=stuck), {"players": 2}, bots={0: "stuck", 1: "random"}, seed=4)
    settings = dataclasses.replace(FAST, bot_deadline=0.2)
    try:
        async with hosting(table, settings) as host:
            spectator, notices = await watch(host)
            await spectator.wait_for(lambda snap: snap.result is not None, WAIT)
            assert notices and "Seat 1's stuck bot took longer than 0.2 s; the normal bot made this move" in notices
            await spectator.close()
    finally:
        release.set()
    assert table.over


async def test_the_host_serves_clients_while_a_bot_thinks():
    """A bot that has not answered yet does not hold up the event loop: a spectator joins, is welcomed and
    sees the table; once the bot answers, its move is played."""
    thinking, release = threading.Event(), threading.Event()

    def slow(state, seat, rng):
        thinking.set()
        release.wait()
        return TURPIN.bots["normal"](state, seat, rng)

    table = Table(game_with(slow=slow), {"players": 2}, bots={0: "slow", 1: "normal"}, seed=5)
    settings = dataclasses.replace(FAST, bot_deadline=WAIT)
    try:
        async with hosting(table, settings) as host:
            await asyncio.to_thread(thinking.wait, WAIT)
            assert thinking.is_set()
            spectator, notices = await watch(host)  # served while the bot is still thinking
            assert spectator.snapshot.turn == 0 and not table.actions
            release.set()
            await spectator.wait_for(lambda snap: snap.result is not None, WAIT)
            assert notices == []
            await spectator.close()
    finally:
        release.set()
    assert table.over


async def test_the_default_bot_for_a_seat_is_normal_and_an_old_record_name_shows_as_normal():
    table = Table(TURPIN, {"players": 3}, bots={2: "sharp"})
    assert table.seats[2].bot == "normal"
    table.hand_to_bot(0)
    assert table.seats[0].bot == "normal"


@pytest.mark.parametrize("game", list(all_games().values()), ids=lambda game: game.id)
def test_a_host_gives_every_hard_bot_more_than_its_thinking_time(game):
    """The host's deadline for a move is for a bot that hangs: the hard bot, which thinks to a clock, has
    several times its budget (it overruns by at most one playout move), so its own move is played."""
    budget = game.bots["hard"].budget
    assert budget.seconds is not None and HostSettings().bot_deadline >= 4 * budget.seconds
