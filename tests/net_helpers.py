"""Shared pieces of the network tests: the games under test, a host on 127.0.0.1, clients that play."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
import shutil
import subprocess
from typing import Any, AsyncIterator

from core.engine import Game
from core.registry import all_games
from net.client import TableClient
from net.host import HostSettings, TableHost
from net.table.table import Table
from tests.net_toy import GAME as TOY
from tests.waiting import WAIT

#: Every registered game, plus the toy: a game that lands in the registry is covered with no change here.
GAMES: list[Game] = [*all_games().values(), TOY]
GAME_IDS = [game.id for game in GAMES]

#: ``turpin host`` as a person runs it, with the toy game among the games (``python -c HOST_SCRIPT ...``).
HOST_SCRIPT = ("import sys\n"
               "from core.registry import all_games\n"
               "from tui.cli.host import host_main\n"
               "from tests.net_toy import GAME\n"
               "sys.exit(host_main(sys.argv[1:], {**all_games(), GAME.id: GAME}))\n")


#: Short heartbeats, so the pings run all through every test, and short room-code slowdowns. The silence
#: allowed before a peer is dropped is a guard like WAIT: on a busy machine the test process (host and
#: clients in one event loop) can stall for seconds, and a live client dropped then would lose its move.
#: The tests of the timeout itself (tests/net/test_faults.py) set their own.
FAST = HostSettings(heartbeat=0.2, timeout=WAIT, wrong_code_delay=0.05, wrong_code_cap=0.4)


def seat_range(game: Game) -> tuple[int, int]:
    low, high = game.option("players").allowed
    return low, high


@contextlib.asynccontextmanager
async def hosting(table: Table, settings: HostSettings = FAST) -> AsyncIterator[TableHost]:
    """A host for ``table`` on 127.0.0.1 (a free port), closed afterwards."""
    host = TableHost(table, settings)
    await host.start("127.0.0.1", 0)
    try:
        yield host
    finally:
        await host.close()


def client(host: TableHost, **kwargs: Any) -> TableClient:
    """A client of ``host`` that retries quickly and waits for the host's answers as long as WAIT."""
    return TableClient(*host.address, **{"backoff": (0.02, 0.2), "connect_timeout": WAIT, **kwargs})


async def play_randomly(player: TableClient, rng: random.Random, stop_at_turn: int | None = None) -> None:
    """Answer every prompt with a random choice until the game ends (or the table reaches a turn)."""
    while player.snapshot.result is None:
        if stop_at_turn is not None and player.snapshot.turn >= stop_at_turn:
            return
        await player.wait_for(lambda snap: snap.result is not None or snap.prompt is not None
                              or (stop_at_turn is not None and snap.turn >= stop_at_turn), WAIT)
        snap = player.snapshot
        if snap.result is not None or snap.prompt is None:
            continue
        prompt_id = snap.prompt["id"]
        player.last_error = None
        await player.choose(rng.randrange(len(snap.choices)))
        await player.wait_for(lambda s: s.result is not None or s.prompt is None or s.prompt["id"] != prompt_id
                              or player.last_error is not None, WAIT)


async def close_all(*clients: TableClient) -> None:
    await asyncio.gather(*(c.close() for c in clients))


#: The start of a shell line in a fresh network namespace: its loopback up, with multicast for zeroconf.
LOOPBACK_UP = "ip link set lo up && ip link set lo multicast on &&"


def namespaces_unavailable() -> str | None:
    """Why a private network namespace (``unshare -rn``) cannot be made here, or None if it can."""
    for tool in ("unshare", "nsenter", "ip"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    probe = subprocess.run(["unshare", "-rn", "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        return f"unshare -rn is not allowed here: {probe.stderr.strip()}"
    return None


class ManualClock:
    """A turn clock's time that moves only when a test moves it (``advance``): no test waits on the wall."""

    def __init__(self) -> None:
        self.time = 1000.0

    def __call__(self) -> float:
        return self.time

    def advance(self, seconds: float) -> None:
        self.time += seconds


#: FAST, looking at the turn clocks often: a test moves a ``ManualClock`` and the host sees it soon.
CLOCKED = dataclasses.replace(FAST, clock_poll=0.01)


def give_shares(table: Table, nonces: dict[int, bytes] | None = None) -> dict[int, bytes]:
    """For a table driven without sockets: every connected player pledges and then reveals a share of the
    fair deal, as each client does (``nonces`` by seat, else random). The table deals once all are in."""
    import os

    from net.fairness import pledge_of
    nonces = dict(nonces or {})
    seated = {watcher.seat: watcher for watcher in table.watchers
              if watcher.seat is not None and table.seats[watcher.seat].kind == "player"}
    for seat, watcher in sorted(seated.items()):
        nonces.setdefault(seat, os.urandom(16))
        if table.fair is not None and table.fair.phase == "pledges":
            table.deal.pledge(watcher, pledge_of(nonces[seat]))
    for seat, watcher in sorted(seated.items()):
        if table.fair is not None and table.fair.phase == "reveals" and seat in table.fair.waiting_for_reveals():
            table.deal.reveal(watcher, nonces[seat])
    return nonces


def play_one_bot(table: Table) -> bool:
    """One pending bot's move, as the host makes it (``bot_turn``, the bot's decision, ``play_bot_action``);
    False if no bot is to play."""
    turn = table.bot_turn()
    if turn is None:
        return False
    return table.play_bot_action(turn, turn.bot(turn.state, turn.seat, turn.rng))
