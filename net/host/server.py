"""The TCP server for one table: accepts connections, checks each message in order, and runs the
background loops (heartbeats and silent peers, turn clocks, bots thinking off the event loop).

Invariants:

- The host makes no table decisions: it reads frames, checks who asks (``hello``, the room code, the
  cooling seat tokens, the spectator and connection limits) and hands every request to the ``Table``.
- One watchdog sends heartbeats and drops any peer that has sent nothing (not even a ``pong``) for
  ``timeout`` seconds, unless the host itself made it wait; a connection that does not join in time goes.
- Bots act one at a time, each in a worker thread on its own copy of the state, within ``bot_deadline``;
  a bot that fails or runs late is replaced for that move by the normal bot, and everyone is told.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from core.engine import Action, Bot, State, clone
from net import protocol
from net.host.budgets import WrongCodeThrottle
from net.host.connection import Connection
from net.host.settings import HostSettings
from net.protocol import error_message, host_message
from net.record import RecordLog
from net.refusals import Refusal, check_protocol
from net.table.seating import default_bot
from net.table.stand_ins import BotTurn
from net.table.table import Table


class TableHost:
    """An asyncio TCP server for one table; ``start`` it, then ``close`` it (in a ``finally``)."""

    def __init__(self, table: Table, settings: HostSettings | None = None) -> None:
        self.table = table
        self.settings = settings or HostSettings()
        self.connections: set[Connection] = set()
        self.throttle = WrongCodeThrottle(self.settings)
        #: Seat tokens closed for too many refusals → when they may join again (a flood does not go on by
        #: coming straight back).
        self.cooling: dict[str, float] = {}
        self.server: asyncio.AbstractServer | None = None
        self.address: tuple[str, int] = ("", 0)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._bots: asyncio.Task[None] | None = None
        #: Bots think here, off the event loop; two threads, so one stuck bot still leaves room for the
        #: normal bot that stands in for it.
        self._bot_threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="turpin-bot")
        self._watchdog: asyncio.Task[None] | None = None
        self._clocks: asyncio.Task[None] | None = None
        #: Called (without arguments) whenever seats fill or empty; the advertiser's update hooks in here.
        self.on_seats_changed: Callable[[], None] | None = None

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> tuple[str, int]:
        self.server = await asyncio.start_server(self._accept, host, port, limit=protocol.MAX_CLIENT_FRAME * 2)
        sockname = self.server.sockets[0].getsockname()
        self.address = (sockname[0], sockname[1])
        self._watchdog = asyncio.ensure_future(self._watch())
        # The clocks' loop also ends a take-back question nobody answers: it runs at every table.
        self._clocks = asyncio.ensure_future(self._run_clocks())
        self.table.serve(self, self.settings.heartbeat, self.settings.timeout)
        return self.address

    async def close(self, for_good: bool = False) -> None:
        """Tell everyone the host is going (``for_good``: the table is closed, so nobody waits for it to
        come back; otherwise it may be resumed from its record), then stop serving."""
        for task in (self._watchdog, self._bots, self._clocks):
            if task is not None:
                task.cancel()
        self._bot_threads.shutdown(wait=False, cancel_futures=True)  # a bot still thinking is not waited for
        for connection in list(self.connections):
            connection.send_message(error_message("table_closed", "the host has closed the table") if for_good
                                    else error_message("host_closing", "the host has stopped the table"))
            connection.close_soon()
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 2.0)
        await asyncio.sleep(0)
        for connection in list(self.connections):
            connection.abort()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connection = Connection(self, reader, writer)
        busy = None
        if len(self.connections) >= self.settings.max_connections:
            busy = "the host has too many connections; try later"
        elif self._unjoined_from(connection.address) >= self.settings.max_unjoined_per_address:
            busy = (f"{self.settings.max_unjoined_per_address} connections from your address are still "
                    f"joining; wait for them")
        if busy is not None:
            connection.send_message(error_message("server_busy", busy))
            connection.close_soon()
            return
        self.connections.add(connection)
        await connection.serve()

    def _unjoined_from(self, address: str) -> int:
        return sum(1 for c in self.connections if c.watcher is None and c.address == address)

    def spectators(self) -> int:
        return sum(1 for w in self.table.watchers if w.seat is None)

    # ------------------------------------------------------------------------------------- messages

    async def handle(self, connection: Connection, message: dict[str, Any]) -> None:
        """One validated message from a connection, checked in order: type, who asks, then the table."""
        kind = message["type"]
        if kind == "ping":
            connection.send_message(host_message("pong", t=message.get("t", 0)))
            return
        if kind == "pong":
            return
        if kind == "bye":
            if connection.watcher is not None:
                connection.watcher.said_bye = True  # the notice says he left, not that he was lost
            connection.close_soon()
            return
        if kind == "hello":
            await self._hello(connection, message)
            return
        if connection.watcher is None:
            raise Refusal("not_joined", "say hello (join the table) before anything else")
        self.table.request(connection.watcher, message)

    async def _hello(self, connection: Connection, hello: dict[str, Any]) -> None:
        if connection.watcher is not None:
            raise Refusal("already_joined", "this connection has already joined the table")
        check_protocol(hello)
        wait = self.cooling.get(hello.get("token") or "", 0.0) - time.monotonic()
        if wait > 0:
            raise Refusal("slow_down", f"this seat's last connection was closed for too many refused "
                                       f"requests; come back in {wait:.0f} s", retry_after=round(wait, 1))
        self.cooling.pop(hello.get("token") or "", None)
        if hello["role"] == "spectator" and self.spectators() >= self.settings.max_spectators:
            most = self.settings.max_spectators
            watching = "its one spectator" if most == 1 else f"its {most} spectators"
            raise Refusal("spectators_full", f"this table already has {watching}; try again later")
        if hello["role"] == "player" and not hello.get("token"):
            await self._check_code(connection, hello)
            if connection.closed:
                return
        connection.watcher = self.table.join(connection.send, hello, on_drop=connection.close_soon)

    async def _check_code(self, connection: Connection, hello: dict[str, Any]) -> None:
        """The room code, counted on arrival and checked in its turn; ``Refusal`` if wrong or too many."""
        wait = self.throttle.arrive(connection.address)
        if wait is None:
            retry = self.throttle.wait_time(connection.address)
            raise Refusal("slow_down", f"too many room codes from your address at once; try again in "
                                       f"{retry:.0f} s", retry_after=round(retry, 1))
        if wait > 0:
            connection.held_until = time.monotonic() + wait
            await asyncio.sleep(wait)  # only this connection waits; the table goes on
            connection.last_heard = max(connection.last_heard, time.monotonic())
        if connection.closed:
            return
        if not self.table.check_code(hello.get("code")):
            retry = self.throttle.wrong(connection.address)
            problem = "that room code is wrong" if hello.get("code") else "this table needs a room code"
            raise Refusal("wrong_code", f"{problem}; ask the host for it and join again",
                          retry_after=round(retry, 2))
        self.throttle.succeeded(connection.address)

    def lost(self, connection: Connection) -> None:
        self.connections.discard(connection)
        if connection.watcher is not None:
            self.table.leave(connection.watcher)

    def seats_changed(self) -> None:
        """The table's word that seats filled or emptied (the advertiser listens here)."""
        if self.on_seats_changed is not None:
            self.on_seats_changed()

    def bot_may_move(self) -> None:
        """The table's one signal that a bot may move now: its turns are played unless they are already."""
        if self._bots is None or self._bots.done():
            self._bots = asyncio.ensure_future(self._run_bots())

    # ----------------------------------------------------------------------------------- background

    async def _run_bots(self) -> None:
        """Bots act one at a time. Each decides in a worker thread on its own copy of the state, so the
        event loop goes on serving clients (heartbeats, other seats' moves) while a bot thinks."""
        while self.table.stand_ins.next_bot() is not None:
            await asyncio.sleep(self.settings.bot_delay)
            if self.settings.bot_delay > 0 and self.table.take_backs.open():
                await asyncio.sleep(max(0.0, self.settings.take_back_grace - self.settings.bot_delay))
            turn = self.table.bot_turn()
            if turn is not None:
                self.table.play_bot_action(turn, await self._decide(turn))

    async def _decide(self, turn: BotTurn) -> Action | None:
        """The bot's action within ``bot_deadline``; if it fails or runs late, the normal bot's (said to
        everyone), and if that fails too, None (the table then plays the first legal action)."""
        try:
            return await self._in_bot_thread(turn.bot, turn.state, turn.seat, turn.rng)
        except asyncio.TimeoutError:
            why = f"took longer than {self.settings.bot_deadline:g} s"
        except Exception as error:  # any bug in a bot: the game goes on without it
            why = f"failed ({type(error).__name__})"
        fallback = default_bot(self.table.game)
        self.table.notice(f"Seat {turn.seat + 1}'s {turn.name} bot {why}; the {fallback} bot made this move")
        try:  # a fresh state and generator: the late bot's thread may still be using its own
            return await self._in_bot_thread(self.table.game.bots[fallback], clone(self.table.state),
                                             turn.seat, random.Random(turn.rng.getrandbits(64)))
        except Exception:
            return None

    async def _in_bot_thread(self, bot: Bot, state: State, seat: int, rng: random.Random) -> Action:
        loop = asyncio.get_running_loop()
        return await asyncio.wait_for(loop.run_in_executor(self._bot_threads, bot, state, seat, rng),
                                      self.settings.bot_deadline)

    async def _run_clocks(self) -> None:
        """Turn clocks that run out: the table says so, and the bot makes each of those moves. The same
        loop ends a take-back question nobody answers and a fair deal's wait for shares that do not come."""
        while True:
            clock = self.table.turn_clock  # a new game has a new one
            deadline = clock.next_deadline()
            wait = self.settings.clock_poll if deadline is None else \
                min(self.settings.clock_poll, max(0.0, deadline - clock.now()))
            await asyncio.sleep(wait)
            self.table.tick()

    async def _watch(self) -> None:
        """Heartbeats out, silent peers dropped, seats past their grace period handed to bots."""
        while True:
            await asyncio.sleep(min(self.settings.heartbeat, self.settings.timeout / 3))
            now = time.monotonic()
            ping = protocol.encode(host_message("ping", t=int(now * 1000)))
            for connection in list(self.connections):
                if now - max(connection.last_heard, connection.held_until) > self.settings.timeout:
                    self._drop_silent(connection)
                elif connection.watcher is None and now > connection.held_until and \
                        now - connection.opened > self.settings.join_deadline:
                    connection.send_message(error_message("timeout", "join within "
                                                          f"{self.settings.join_deadline:g} s of connecting"))
                    connection.close_soon()
                else:
                    connection.send(ping)
            self.table.hand_over_the_gone(now)

    def _drop_silent(self, connection: Connection) -> None:
        # A frozen peer reads nothing, so no farewell could reach it: cut the connection at once.
        connection.abort()
        watcher = connection.watcher
        if watcher is not None and watcher.seat is not None and watcher.alive:
            name = self.table.seats[watcher.seat].name
            self.table.notice(f"Seat {watcher.seat + 1} ({name}) stopped answering (nothing heard for "
                              f"{self.settings.timeout:g} s); waiting for them to reconnect")


def record_saver(path: str | os.PathLike[str]) -> RecordLog:
    """The table's ``save``: the record log, one synced entry appended per accepted action or change."""
    return RecordLog(path)
