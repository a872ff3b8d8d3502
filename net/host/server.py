"""The TCP host: serves one ``Table`` to any number of clients over asyncio.

Each connection has a reader (frames in, checked, handed to the table) and a writer fed by a bounded
queue, so a slow or stalled client never holds up the others: when its queue is full it is dropped, and it
may reconnect for a catch-up. One watchdog task sends heartbeats and drops any peer that has sent nothing
(not even a ``pong``) for ``timeout`` seconds — a frozen client is noticed within that time and the table
says so. Wrong room codes are slowed down per address, doubling each time, and the slowdown resets after a
right code or a quiet spell.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
import random
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable

from core.engine import Action, Bot, State, clone
from net import protocol
from net.addresses import ipv4_by_interface
from net.protocol import ProtocolError, error_message, host_message
from net.record import RecordLog
from net.refusals import Refusal, check_protocol
from net.table.seating import Watcher, default_bot
from net.table.stand_ins import BotTurn
from net.table.table import Table


@dataclass
class HostSettings:
    """How the host treats its connections. Tests shorten the times; the defaults suit a LAN."""

    #: Seconds between pings to every peer.
    heartbeat: float = protocol.HEARTBEAT_SECONDS
    #: Seconds without a frame from a peer before it is dropped (a frozen client is noticed by then).
    timeout: float = protocol.TIMEOUT_SECONDS
    #: Frames waiting for one connection before it counts as too slow and is dropped.
    send_queue: int = 256
    #: Bytes the transport may hold for one connection before further frames wait in its queue.
    write_buffer: int = 256 * 1024
    max_connections: int = 1024
    #: Seconds a bot waits before acting, so people can follow; 0 in tests and benchmarks.
    bot_delay: float = 0.0
    #: Seconds a bot waits after a person's move that may be taken back, before it moves (its move closes
    #: the window): a real chance to press U. Only where bots wait for people at all (``bot_delay`` > 0).
    take_back_grace: float = 4.0
    #: Seconds a bot may think about one move before the normal bot makes it instead (with a notice).
    bot_deadline: float = 5.0
    #: Longest wait between looks at the turn clocks (the next deadline is looked at sooner); tests whose
    #: clock is driven by hand shorten it.
    clock_poll: float = 0.5
    #: First wait after a wrong room code; it doubles per wrong code up to the cap.
    wrong_code_delay: float = 0.5
    wrong_code_cap: float = 8.0
    #: A quiet spell after which an address's wrong codes are forgotten.
    wrong_code_forget: float = 60.0
    #: Spectators one table lets in; the rest are refused, so seats and new players always find room.
    max_spectators: int = 200
    #: Connections from one address that have not joined (yet) at one time.
    max_unjoined_per_address: int = 16
    #: Seconds a connection may stay without joining before it is dropped.
    join_deadline: float = 30.0
    #: Refused requests (moves out of turn, illegal or stale, bad messages) one connection may send at
    #: once, and how many more it earns per second; past them it is closed (``too_many_refusals``).
    refusal_burst: int = 40
    refusals_per_second: float = 10.0
    #: Seconds a seat token closed for too many refusals (or messages) waits before it may join again.
    refusal_cooldown: float = 5.0
    #: Messages of any kind (pings, pongs, ``here``, valid or not) one connection may send at once, and how
    #: many more it earns per second, joined or not; past them it is closed (``too_many_messages``). A
    #: person's program sends a ping and a pong every heartbeat and a move now and then.
    message_burst: int = 200
    messages_per_second: float = 50.0


class WrongCodeThrottle:
    """Slows down guessing: each room code from an address is counted when it arrives (not when it is
    checked), and each one doubles the wait before that address's next code is checked, up to
    ``longest_wait``. A code that would have to wait longer is refused at once (``slow_down``), so
    codes sent in parallel gain nothing and no connection is held past the heartbeat timeout."""

    def __init__(self, settings: HostSettings, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.clock = clock
        #: address → (codes counted in this streak, when the next one may be checked, when the last arrived)
        self._streaks: dict[str, tuple[int, float, float]] = {}

    @property
    def longest_wait(self) -> float:
        """A code never waits longer than this: under half the timeout, so the wait cannot cut the peer."""
        return min(self.settings.wrong_code_cap, self.settings.timeout / 2)

    def penalty(self, codes: int) -> float:
        return min(self.settings.wrong_code_delay * 2 ** (codes - 1), self.longest_wait) if codes else 0.0

    def _streak(self, address: str, now: float) -> tuple[int, float, float]:
        streak = self._streaks.get(address, (0, 0.0, 0.0))
        if streak[0] and now - streak[2] >= self.settings.wrong_code_forget:
            self._streaks.pop(address, None)
            return 0, 0.0, 0.0
        return streak

    def wait_time(self, address: str) -> float:
        """Seconds a code arriving now from this address would wait before it is checked."""
        now = self.clock()
        return max(0.0, self._streak(address, now)[1] - now)

    def arrive(self, address: str) -> float | None:
        """Count a code from ``address`` now: the seconds it must wait before it is checked, or None when
        that would be past ``longest_wait`` (too many codes at once: refuse it without checking)."""
        now = self.clock()
        codes, next_check, _ = self._streak(address, now)
        wait = max(0.0, next_check - now)
        if wait > self.longest_wait:
            return None
        codes += 1
        self._streaks[address] = (codes, now + wait + self.penalty(codes), now)
        return wait

    def wrong(self, address: str) -> float:
        """The code was wrong: the wait before this address's next code is checked (from this check)."""
        return self.penalty(self._streaks.get(address, (0, 0.0, 0.0))[0])

    def succeeded(self, address: str) -> None:
        self._streaks.pop(address, None)


class TokenBucket:
    """``burst`` at once, then ``per_second``: ``take`` is False once the bucket is empty."""

    def __init__(self, burst: float, per_second: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.burst, self.per_second, self.clock = burst, per_second, clock
        self.tokens, self.last = float(burst), clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Connection:
    """One client connection: its reader loop, its bounded send queue and its writer task."""

    def __init__(self, host: "TableHost", reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.host = host
        self.reader = reader
        self.writer = writer
        peer = writer.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        self.opened = self.last_heard = time.monotonic()
        #: While the host itself makes this connection wait (a room code's turn), silence is not its fault.
        self.held_until = 0.0
        self.watcher: Watcher | None = None
        self.closed = False
        self._queue: deque[bytes] = deque()
        self._ready = asyncio.Event()
        self._close_after_flush = False
        self._writer_task = asyncio.ensure_future(self._write_loop())
        #: Refusals cost the host work (an illegal move is explained on a redrawn state): a connection
        #: that keeps earning them is closed rather than let slow everyone else's table.
        self.refusals = TokenBucket(host.settings.refusal_burst, host.settings.refusals_per_second)
        #: Every message counts here, whatever it is: a flood of cheap ones (``here``, pings) is a flood.
        self.messages = TokenBucket(host.settings.message_burst, host.settings.messages_per_second)

    def send(self, frame: bytes) -> None:
        """Send a frame, or queue it; a connection whose queue is full is too far behind and is dropped.

        While the socket keeps up (nothing queued, little in the transport's buffer) the frame goes
        straight to the transport, in order; otherwise it waits in the bounded queue for the writer task.
        """
        if self.closed or self._close_after_flush or self.writer.transport.is_closing():
            return  # a lost connection is written no more (asyncio would log every attempt)
        if not self._queue and self.writer.transport.get_write_buffer_size() <= self.host.settings.write_buffer:
            self.writer.write(frame)
            return
        if len(self._queue) >= self.host.settings.send_queue:
            self.abort()
            return
        self._queue.append(frame)
        self._ready.set()

    def send_message(self, message: dict[str, Any]) -> None:
        self.send(protocol.encode(message))

    def close_soon(self) -> None:
        """Close once what is queued (a last error, say) has been written."""
        self._close_after_flush = True
        self._ready.set()

    def abort(self) -> None:
        """Drop the connection at once, without flushing (too slow, or frozen)."""
        if not self.closed:
            self.closed = True
            self._queue.clear()
            self._ready.set()
            self.writer.transport.abort()

    async def _write_loop(self) -> None:
        try:
            while not self.closed:
                await self._ready.wait()
                self._ready.clear()
                while self._queue and not self.closed:
                    # Hand the transport everything queued, then wait once for the socket to take it.
                    self.writer.writelines([self._queue.popleft() for _ in range(len(self._queue))])
                    await self.writer.drain()
                if self._close_after_flush and not self.closed:
                    self.closed = True
                    self.writer.close()
        except (ConnectionError, OSError):
            self.abort()

    async def serve(self) -> None:
        """Read frames until the peer goes; any bad frame drops this peer, never the host."""
        try:
            while not self.closed and not self.writer.transport.is_closing():
                try:
                    message = await protocol.read_frame(self.reader, protocol.MAX_CLIENT_FRAME)
                except ProtocolError as error:
                    self.send_message(error_message(error.code, error.message))
                    self.close_soon()
                    return
                self.last_heard = time.monotonic()
                if not self.messages.take():
                    settings = self.host.settings
                    self._close_for("too_many_messages", "messages", "messages", settings.message_burst,
                                    settings.messages_per_second)
                    return
                try:
                    await self.host.handle(self, protocol.validate_client_message(message))
                except (ProtocolError, Refusal) as refused:
                    if not self.refusals.take():
                        settings = self.host.settings
                        self._close_for("too_many_refusals", "requests the table refused", "refused requests",
                                        settings.refusal_burst,
                                        settings.refusals_per_second)
                        return
                    if isinstance(refused, ProtocolError):
                        self.send_message(error_message(refused.code, refused.message))
                        continue
                    self.send_message(refused.as_message())
                    # A refused hello ends the connection too: it would only hold a slot meanwhile.
                    if refused.code in protocol.PERMANENT or (message.get("type") == "hello" and self.watcher is None):
                        self.close_soon()
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            # The peer went: a player leaving, or a LAN browser's probe (connect, then close or reset
            # before a single frame). Neither is worth a word; a probe never joined, so the table is untouched.
            pass
        finally:
            self.host.lost(self)
            if not self._close_after_flush:
                self.abort()


    def _close_for(self, code: str, what: str, short: str, burst: int, per_second: float) -> None:
        """Close a connection that spent its budget of ``what`` (``short`` for the table's log); its seat
        token cools off a while."""
        settings = self.host.settings
        self.send_message(error_message(code, (
            f"this connection sent more than {burst} {what}, faster than {per_second:g} a second, and is closed")))
        self.close_soon()
        seat = self.watcher.seat if self.watcher is not None else None
        token = self.host.table.seats[seat].token if seat is not None else None
        if token:
            self.host.cooling[token] = time.monotonic() + settings.refusal_cooldown
        who = f"seat {seat + 1}'s connection" if seat is not None else "a connection"
        self.host.table.tell(f"Closed {who} from {self.address}: too many {short}")


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


def bind_address(interface: str | None) -> str:
    """``--interface``: an IPv4 address, or an interface name resolved to its address; default all."""
    if not interface:
        return "0.0.0.0"
    try:
        return str(ipaddress.ip_address(interface))
    except ValueError:
        pass
    addresses = ipv4_by_interface().get(interface)  # only interface names need ifaddr
    if addresses:
        return addresses[0]
    raise ValueError(f"no network interface named {interface!r} with an IPv4 address")


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that others on the LAN can reach (loopback if there are none)."""
    try:
        found = [address for addresses in ipv4_by_interface().values() for address in addresses]
    except Exception:
        found = []
    lan = [a for a in found if not ipaddress.ip_address(a).is_loopback]
    return lan or ["127.0.0.1"]


async def advertise(host: TableHost, interface: str | None) -> Any:
    """Start advertising the table on the LAN if ``net.discovery`` is there; None (and why) if not.

    Imported here, not at the top: the host works the same without discovery.
    """
    try:
        from net import discovery
    except ImportError as error:
        host.table.tell(f"(not advertising on the LAN: discovery is not available here: {error})")
        return None
    table = host.table
    try:
        interfaces = discovery.resolve_interface(interface) if interface else None
        ad = discovery.TableAd(name=table.name, game=table.game.id, protocol=protocol.PROTOCOL_VERSION,
                               seats_taken=table.seating.taken(),
                               seats_free=len(table.seats) - table.seating.taken(),
                               code_needed=table.code is not None, over=table.over,
                               waiting=table.seating.waiting())
        advertiser = discovery.TableAdvertiser(ad, host.address[1], interfaces)
        await advertiser.start()
    except Exception as error:  # DiscoveryUnavailable and friends: the table still works by address
        host.table.tell(f"(not advertising on the LAN: {error}; players can still join by address)")
        return None

    return Advertising(host, advertiser)


class Advertising:
    """A started advertiser kept up to date with the seats; ``close`` it in a ``finally``."""

    def __init__(self, host: TableHost, advertiser: Any) -> None:
        self.host, self.advertiser = host, advertiser
        host.on_seats_changed = self.update

    def update(self) -> None:
        table = self.host.table
        taken = table.seating.taken()
        task = asyncio.ensure_future(self._update(taken, len(table.seats) - taken, table.over,
                                                  table.seating.waiting()))
        self.host._tasks.add(task)
        task.add_done_callback(self.host._tasks.discard)

    async def _update(self, taken: int, free: int, over: bool, waiting: int) -> None:
        try:
            await self.advertiser.update(taken, free, over, waiting)
        except Exception as error:  # the LAN list may lag; the table itself is unaffected
            self.host.table.tell(f"(could not update the LAN advert: {error})")

    async def close(self) -> None:
        """Stop updating, then unregister the service."""
        self.host.on_seats_changed = None
        await self.advertiser.close()
