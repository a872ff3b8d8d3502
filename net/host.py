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
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable

from net import protocol
from net.addresses import ipv4_by_interface
from net.authority import Refusal, Table, Watcher, check_protocol
from net.protocol import ProtocolError, error_message, host_message
from net.record import write_record


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
    #: First wait after a wrong room code; it doubles per wrong code up to the cap.
    wrong_code_delay: float = 0.5
    wrong_code_cap: float = 8.0
    #: A quiet spell after which an address's wrong codes are forgotten.
    wrong_code_forget: float = 60.0


class WrongCodeThrottle:
    """Slows down guessing: each wrong room code from an address doubles its wait before the next try."""

    def __init__(self, settings: HostSettings, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.clock = clock
        self._failures: dict[str, tuple[int, float]] = {}  # address → (wrong codes, when the last was)

    def wait_time(self, address: str) -> float:
        """Seconds this address must still wait before its code is checked."""
        failures, last = self._failures.get(address, (0, 0.0))
        if failures == 0:
            return 0.0
        now = self.clock()
        if now - last >= self.settings.wrong_code_forget:
            del self._failures[address]
            return 0.0
        return max(0.0, last + self.penalty(failures) - now)

    def penalty(self, failures: int) -> float:
        return min(self.settings.wrong_code_delay * 2 ** (failures - 1), self.settings.wrong_code_cap)

    def failed(self, address: str) -> float:
        failures, _ = self._failures.get(address, (0, 0.0))
        self._failures[address] = (failures + 1, self.clock())
        return self.penalty(failures + 1)

    def succeeded(self, address: str) -> None:
        self._failures.pop(address, None)


class Connection:
    """One client connection: its reader loop, its bounded send queue and its writer task."""

    def __init__(self, host: "TableHost", reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.host = host
        self.reader = reader
        self.writer = writer
        peer = writer.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        self.last_heard = time.monotonic()
        self.watcher: Watcher | None = None
        self.closed = False
        self._queue: deque[bytes] = deque()
        self._ready = asyncio.Event()
        self._close_after_flush = False
        self._writer_task = asyncio.ensure_future(self._write_loop())

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
                try:
                    await self.host.handle(self, protocol.validate_client_message(message))
                except ProtocolError as error:
                    self.send_message(error_message(error.code, error.message))
                except Refusal as refusal:
                    self.send_message(refusal.as_message())
                    if refusal.code in protocol.PERMANENT:
                        self.close_soon()
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            # The peer went: a player leaving, or a LAN browser's probe (connect, then close or reset
            # before a single frame). Neither is worth a word; a probe never joined, so the table is untouched.
            pass
        finally:
            self.host.lost(self)
            if not self._close_after_flush:
                self.abort()


class TableHost:
    """An asyncio TCP server for one table; ``start`` it, then ``close`` it (in a ``finally``)."""

    def __init__(self, table: Table, settings: HostSettings | None = None) -> None:
        self.table = table
        self.settings = settings or HostSettings()
        self.table.heartbeat, self.table.timeout = self.settings.heartbeat, self.settings.timeout
        self.connections: set[Connection] = set()
        self.throttle = WrongCodeThrottle(self.settings)
        self.server: asyncio.AbstractServer | None = None
        self.address: tuple[str, int] = ("", 0)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._bots: asyncio.Task[None] | None = None
        self._watchdog: asyncio.Task[None] | None = None
        #: Called (without arguments) whenever seats fill or empty; the advertiser's update hooks in here.
        self.on_seats_changed: Callable[[], None] | None = None
        table.on_seats_changed = self._seats_changed

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> tuple[str, int]:
        self.server = await asyncio.start_server(self._accept, host, port, limit=protocol.MAX_CLIENT_FRAME * 2)
        sockname = self.server.sockets[0].getsockname()
        self.address = (sockname[0], sockname[1])
        self._watchdog = asyncio.ensure_future(self._watch())
        self._schedule_bots()
        return self.address

    async def close(self) -> None:
        """Tell everyone the host is going, then stop serving."""
        for task in (self._watchdog, self._bots):
            if task is not None:
                task.cancel()
        for connection in list(self.connections):
            connection.send_message(error_message("host_closing", "the host has stopped the table"))
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
        if len(self.connections) >= self.settings.max_connections:
            connection.send_message(error_message("server_busy", "the host has too many connections; try later"))
            connection.close_soon()
            return
        self.connections.add(connection)
        await connection.serve()

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
            connection.close_soon()
            return
        if kind == "hello":
            await self._hello(connection, message)
            return
        watcher = connection.watcher
        if watcher is None or not watcher.alive:
            raise Refusal("not_joined", "say hello (join the table) before anything else")
        if kind == "act":
            self.table.act(watcher, message["action"], message["prompt"])
            self._schedule_bots()
        elif kind == "say":
            self.table.say(watcher, message["text"])
        elif kind == "mute_spectators":
            if not self.table.is_host(message["host_token"]):
                raise Refusal("not_host", "only the table's host may mute spectators")
            self.table.mute_spectators(message["muted"])
        elif kind == "hand_over":
            if not self.table.is_host(message["host_token"]):
                raise Refusal("not_host", "only the table's host may hand a seat to a bot")
            self.hand_to_bot(message["seat"], "was handed to a bot by the host")

    async def _hello(self, connection: Connection, hello: dict[str, Any]) -> None:
        if connection.watcher is not None:
            raise Refusal("already_joined", "this connection has already joined the table")
        check_protocol(hello)
        if hello["role"] == "player" and not hello.get("token"):
            wait = self.throttle.wait_time(connection.address)
            if wait > 0:
                await asyncio.sleep(wait)  # only this connection waits; the table goes on
            if connection.closed:
                return
            if not self.table.check_code(hello.get("code")):
                retry = self.throttle.failed(connection.address)
                problem = "that room code is wrong" if hello.get("code") else "this table needs a room code"
                raise Refusal("wrong_code", f"{problem}; ask the host for it (next try in {retry:g} s)")
            self.throttle.succeeded(connection.address)
        connection.watcher = self.table.join(connection.send, hello, on_drop=connection.close_soon)
        self._schedule_bots()

    def lost(self, connection: Connection) -> None:
        self.connections.discard(connection)
        if connection.watcher is not None:
            self.table.leave(connection.watcher)

    def _seats_changed(self) -> None:
        if self.on_seats_changed is not None:
            self.on_seats_changed()

    def hand_to_bot(self, seat: int, why: str) -> None:
        """Give ``seat`` to a bot, tell everyone "Seat N <why>", and let the bot play if it is its turn."""
        self.table.hand_to_bot(seat)
        self.table.notice(f"Seat {seat + 1} {why}")
        self._schedule_bots()

    # ----------------------------------------------------------------------------------- background

    def _schedule_bots(self) -> None:
        if self.table.next_bot() is not None and (self._bots is None or self._bots.done()):
            self._bots = asyncio.ensure_future(self._run_bots())

    async def _run_bots(self) -> None:
        """Bots act one at a time, yielding between actions so that clients are served meanwhile."""
        while self.table.next_bot() is not None:
            await asyncio.sleep(self.settings.bot_delay)
            self.table.play_bot()

    async def _watch(self) -> None:
        """Heartbeats out, silent peers dropped, seats past their grace period handed to bots."""
        while True:
            await asyncio.sleep(min(self.settings.heartbeat, self.settings.timeout / 3))
            now = time.monotonic()
            ping = protocol.encode(host_message("ping", t=int(now * 1000)))
            for connection in list(self.connections):
                if now - connection.last_heard > self.settings.timeout:
                    self._drop_silent(connection)
                else:
                    connection.send(ping)
            for seat in self.table.seats_past_grace(now):
                self.hand_to_bot(seat, "was gone longer than the grace period; a bot plays it now")

    def _drop_silent(self, connection: Connection) -> None:
        # A frozen peer reads nothing, so no farewell could reach it: cut the connection at once.
        connection.abort()
        watcher = connection.watcher
        if watcher is not None and watcher.seat is not None and watcher.alive:
            name = self.table.seats[watcher.seat].name
            self.table.notice(f"Seat {watcher.seat + 1} ({name}) stopped answering (nothing heard for "
                              f"{self.settings.timeout:g} s); waiting for them to reconnect")


def record_saver(path: str | os.PathLike[str]) -> Callable[[dict[str, Any]], None]:
    """The table's ``save``: the atomic record write after every accepted action."""
    return lambda record: write_record(path, record)


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
        print(f"(not advertising on the LAN: discovery is not available here: {error})")
        return None
    table = host.table
    try:
        interfaces = discovery.resolve_interface(interface) if interface else None
        ad = discovery.TableAd(name=table.name, game=table.game.id, protocol=protocol.PROTOCOL_VERSION,
                               seats_taken=table.seats_taken(),
                               seats_free=len(table.seats) - table.seats_taken(),
                               code_needed=table.code is not None)
        advertiser = discovery.TableAdvertiser(ad, host.address[1], interfaces)
        await advertiser.start()
    except Exception as error:  # DiscoveryUnavailable and friends: the table still works by address
        print(f"(not advertising on the LAN: {error}; players can still join by address)")
        return None

    return Advertising(host, advertiser)


class Advertising:
    """A started advertiser kept up to date with the seats; ``close`` it in a ``finally``."""

    def __init__(self, host: TableHost, advertiser: Any) -> None:
        self.host, self.advertiser = host, advertiser
        host.on_seats_changed = self.update

    def update(self) -> None:
        table = self.host.table
        taken = table.seats_taken()
        task = asyncio.ensure_future(self._update(taken, len(table.seats) - taken))
        self.host._tasks.add(task)
        task.add_done_callback(self.host._tasks.discard)

    async def _update(self, taken: int, free: int) -> None:
        try:
            await self.advertiser.update(taken, free)
        except Exception as error:  # the LAN list may lag; the table itself is unaffected
            print(f"(could not update the LAN advert: {error})")

    async def close(self) -> None:
        """Stop updating, then unregister the service."""
        self.host.on_seats_changed = None
        await self.advertiser.close()
