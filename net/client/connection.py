"""The client: one connection to a table, kept alive, with a snapshot the UI renders.

``TableClient`` connects, says hello, and then keeps ``snapshot`` (the seat's view, prompt, seats, log
and, at the end, the result and record) up to date. The UI awaits ``start()`` and ``act()``, and either
subscribes a callback or iterates ``updates()``. When the connection drops it reconnects with backoff,
using the seat token the host gave it, and gets the same seat and a full catch-up. It keeps trying for
as long as the user waits (a host away over lunch is still found when it comes back), and says how long it
has been trying (``attempts``, ``retrying_since``, ``retry_status()``); a refusal that can never succeed
(wrong protocol version, seat gone, …) stops the retries and says why in plain words.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from typing import Any, Callable

from net import protocol
from net.client.errors import ClientError, describe_duration, explain_connection_error
from net.client.share import DealShare
from net.client.snapshot import ClientUpdate, TableSnapshot
from net.fairness import Evidence
from net.protocol import ProtocolError
from net.untrusted import printable_message

#: Refusals of a hello that retrying with the same details can never turn into a welcome.
STOP_RETRYING = protocol.PERMANENT | {"wrong_code", "slow_down"}
#: Bytes a client leaves unsent to a host before it stops adding pings, and the seconds it gives its goodbye.
UNSENT_KEPT = 64 * 1024
GOODBYE_SECONDS = 1.0
#: How many notices a client keeps for a subscriber still to come.
UNHEARD_KEPT = 20


class TableClient:
    """A player's or a spectator's connection to one table."""

    def __init__(self, host: str, port: int, *, role: str = "player", name: str | None = None,
                 code: str | None = None, token: str | None = None, seat: int | None = None,
                 reconnect: bool = True, backoff: tuple[float, float] = (0.2, 5.0),
                 connect_timeout: float = 5.0, protocol_version: int = protocol.PROTOCOL_VERSION,
                 frame_log: list[dict[str, Any]] | None = None, take_over: bool = True) -> None:
        self.host, self.port = host, port
        #: False: the first hello with ``token`` does not take the seat from a window playing it now (a
        #: token kept on disk); once welcomed, a reconnect takes it back from its own lost connection.
        self.take_over = take_over
        self.role, self.name, self.code, self.token, self.seat_wanted = role, name, code, token, seat
        self.reconnect = reconnect
        self.backoff = backoff
        self.connect_timeout = connect_timeout
        self.protocol_version = protocol_version
        #: If given, every message received is appended to it as decoded (the wire-leak tests read it).
        self.frame_log = frame_log
        self.snapshot = TableSnapshot()
        self.connected = False
        #: Our part in each game's fair deal. Its writes look ``_write`` up each time (tests replace it).
        self._deal = DealShare(lambda message: self._write(message))
        #: Why the client stopped for good, in plain words (None while it is running or retrying).
        self.stopped: str | None = None
        #: Whether the one ``stopped`` update has gone out.
        self._stopped_emitted = False
        self.last_error: dict[str, Any] | None = None
        #: Since when (``time.monotonic()``) the client has been trying to get its table back; None while
        #: connected, and before the first welcome.
        self.retrying_since: float | None = None
        #: Attempts to reconnect that have failed since the table was lost (0 while connected).
        self.attempts = 0
        #: The wait before the next attempt, before jitter: ``backoff[0]`` doubling up to ``backoff[1]``.
        #: Kept as state (never ``low * 2 ** attempts``), so a client may retry for days without overflow.
        self.retry_delay = backoff[0]
        self.heartbeat, self.timeout = protocol.HEARTBEAT_SECONDS, protocol.TIMEOUT_SECONDS
        self._subscribers: list[Callable[[ClientUpdate], None]] = []
        #: Notices that came while nobody listened (the host's "while you were away…" comes with the
        #: welcome, before the app's table screen subscribes): see ``take_unheard``.
        self._unheard: list[ClientUpdate] = []
        self._writer: asyncio.StreamWriter | None = None
        self._runner: asyncio.Task[None] | None = None
        self._welcomed = asyncio.Event()
        self._changed = asyncio.Event()
        self._closing = False

    # --------------------------------------------------------------------------------------- the API

    async def start(self) -> TableSnapshot:
        """Connect and join; returns once welcomed and caught up (the snapshot is whole).

        ``ClientError`` (in plain words) if the first attempt fails for good."""
        self._runner = asyncio.ensure_future(self._run())
        welcomed = asyncio.ensure_future(self._welcomed.wait())
        await asyncio.wait({welcomed, self._runner}, return_when=asyncio.FIRST_COMPLETED)
        welcomed.cancel()
        if not self._welcomed.is_set():
            raise ClientError(self.stopped or "could not join the table")
        return self.snapshot

    async def act(self, action: dict[str, Any], prompt_id: int | None = None) -> None:
        """Send an action for the prompt ``prompt_id`` (by default the current one); refusals come back as
        ``error`` updates. A window passes the prompt the player saw: a newer one is not answered by it."""
        if prompt_id is None:
            prompt = self.snapshot.prompt
            prompt_id = prompt["id"] if prompt else 0
        await self.send({"type": "act", "action": action, "prompt": prompt_id})

    async def choose(self, index: int) -> None:
        """Send the prompt's choice number ``index`` (0-based)."""
        await self.act(self.snapshot.choices[index]["action"])

    async def say(self, text: str) -> None:
        """Say a line at the table (1 to 200 printable characters); everyone gets it as a ``chat`` update,
        this client too. Refusals (``bad_chat``, ``chat_too_fast``, ``muted``) come back as ``error`` updates."""
        await self.send({"type": "say", "text": text})

    async def mute_spectators(self, muted: bool, host_token: str) -> None:
        """The host's switch for spectators' chat (needs the table's host token)."""
        await self.send({"type": "mute_spectators", "muted": muted, "host_token": host_token})

    async def take_back(self) -> None:
        """Ask to take back this seat's last move (the host asks everyone else)."""
        await self.send({"type": "take_back"})

    async def answer_take_back(self, agree: bool) -> None:
        await self.send({"type": "take_back_answer", "agree": agree})

    async def here(self) -> None:
        """Tell the host this seat's player is at the table: a bot playing it while he was away steps aside."""
        await self.send({"type": "here"})

    async def hand_over(self, seat: int, host_token: str, *, until_back: bool = False) -> None:
        """The host's hand-over of ``seat`` to a bot: for good, or ``until_back`` its player joins again."""
        message = {"type": "hand_over", "seat": seat, "host_token": host_token}
        if until_back:
            message["until_back"] = True
        await self.send(message)

    async def send(self, message: dict[str, Any]) -> None:
        """Send one message as it is (tests use this to misbehave on purpose)."""
        if self._writer is None:
            raise ClientError("not connected to the table")
        self._writer.write(protocol.encode(message))
        await self._writer.drain()

    def subscribe(self, callback: Callable[[ClientUpdate], None]) -> Callable[[], None]:
        """Call ``callback`` with every update; returns the function that unsubscribes it."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback) if callback in self._subscribers else None

    def take_unheard(self) -> list[ClientUpdate]:
        """The notices that came while nobody was subscribed (the last ``UNHEARD_KEPT``), once."""
        unheard, self._unheard = self._unheard, []
        return unheard

    async def wait_for(self, predicate: Callable[[TableSnapshot], bool], timeout: float | None = None) -> TableSnapshot:
        """Wait until ``predicate(snapshot)`` holds (checked after every update)."""
        async def waiting() -> TableSnapshot:
            while not predicate(self.snapshot):
                if self.stopped is not None and self._runner is not None and self._runner.done():
                    raise ClientError(self.stopped)
                self._changed.clear()
                await self._changed.wait()
            return self.snapshot
        return await asyncio.wait_for(waiting(), timeout)

    def retrying_for(self) -> float | None:
        """Seconds since the table was lost, while the client is trying to get it back; else None."""
        return None if self.retrying_since is None else time.monotonic() - self.retrying_since

    def retry_status(self) -> str:
        """How the reconnection is going, for a status line: ``trying again for 3 min (40 attempts so far)``;
        empty while connected."""
        since = self.retrying_for()
        if since is None:
            return ""
        if self.attempts == 0:
            return "trying again"
        tries = f"{self.attempts} attempt{'' if self.attempts == 1 else 's'} so far"
        return f"trying again for {describe_duration(since)} ({tries})"

    async def close(self) -> None:
        """Leave the table (the seat waits for this player to come back) and stop reconnecting."""
        self._closing = True
        writer = self._writer  # the connection loop may drop it while the goodbye drains
        if writer is not None:
            with contextlib.suppress(Exception):  # a host that reads nothing does not hold the goodbye up
                writer.write(protocol.encode({"type": "bye"}))
                await asyncio.wait_for(writer.drain(), GOODBYE_SECONDS)
            if writer.transport.get_write_buffer_size():
                writer.transport.abort()  # what it did not take is dropped, not waited for
            else:
                writer.close()
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(BaseException):
                await self._runner
        self._stop(self.stopped or "left the table")

    # ---------------------------------------------------------------------------------- connection loop

    async def _run(self) -> None:
        problem = "stopped"
        while not self._closing:
            try:
                welcomed = await self._session()
            except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ProtocolError) as error:
                welcomed = self.connected
                problem = explain_connection_error(error, self.host, self.port, self._welcomed.is_set())
                self._lost(welcomed, problem)
            except Exception as error:  # never a reader that dies without a word: said, and stopped
                self.stopped = f"stopped reading the table at {self.host}:{self.port} ({type(error).__name__})"
                self._lost(self.connected, self.stopped)
            finally:
                self.connected = False
                if self._writer is not None:
                    self._writer.close()
                    self._writer = None
            if not self._welcomed.is_set() and self.stopped is None:
                # Never got in: a wrong address or no host. Say so at once rather than retry in silence.
                self.stopped = self.last_error["message"] if self.last_error else problem
            if self.stopped is not None or not self.reconnect or self._closing:
                break
            await asyncio.sleep(self.retry_delay * random.uniform(0.5, 1.0))
            self.retry_delay = min(self.backoff[1], self.retry_delay * 2)
        self._stop(self.stopped or problem)

    def _lost(self, welcomed: bool, problem: str) -> None:
        """Count a lost connection or a failed attempt, and say so (with how long we have been trying)."""
        if welcomed or self.retrying_since is None:
            self.retrying_since, self.attempts, self.retry_delay = time.monotonic(), 0, self.backoff[0]
        else:
            self.attempts += 1
        retrying = self.reconnect and self._welcomed.is_set() and not self._closing and self.stopped is None
        self._emit(ClientUpdate("disconnected", f"{problem}; {self.retry_status()}" if retrying else problem))

    async def _session(self) -> bool:
        """One connection: hello, then read until it ends. True if the host welcomed us."""
        reader, writer = await asyncio.wait_for(asyncio.open_connection(self.host, self.port), self.connect_timeout)
        self._writer = writer
        self._emit(ClientUpdate("connected", f"connected to {self.host}:{self.port}"))
        hello: dict[str, Any] = {"type": "hello", "protocol": self.protocol_version, "role": self.role}
        self._deal.new_connection()
        for key, value in (("name", self.name), ("code", self.code), ("token", self.token),
                           ("seat", self.seat_wanted)):
            if value is not None:
                hello[key] = value
        if self.token is not None and not self.take_over and not self._welcomed.is_set():
            hello["take_over"] = False
        await self.send(hello)
        welcomed = False
        self.heartbeat, self.timeout = protocol.HEARTBEAT_SECONDS, protocol.TIMEOUT_SECONDS  # until welcomed
        heartbeat = asyncio.ensure_future(self._heartbeat(writer))
        try:
            while True:
                try:
                    message = await asyncio.wait_for(protocol.read_frame(reader, protocol.MAX_HOST_FRAME),
                                                     self.timeout if welcomed else self.connect_timeout)
                except asyncio.TimeoutError:
                    raise asyncio.TimeoutError() from None
                if self.frame_log is not None:
                    self.frame_log.append(message)
                try:  # everything a host sends is someone else's text: none of it reaches a terminal raw
                    message = printable_message(message)
                except RecursionError:
                    raise ProtocolError("bad_message", "the host sent a message nested too deep") from None
                protocol.validate_host_message(message)  # the one check of a frame's shape
                if message["type"] == "table":
                    await self._deal.follow(self.snapshot, self.role, message)
                if message["type"] == "welcome":
                    welcomed = True
                    self.connected = True
                    self.retrying_since, self.attempts, self.retry_delay = None, 0, self.backoff[0]
                try:
                    self._receive(message)
                except (TypeError, KeyError, ValueError, AttributeError, IndexError) as error:
                    # past the shape check, yet a part of it could not be used: the host's frame all the same
                    raise ProtocolError("bad_message", f"a {message['type']} message it could not use "
                                                       f"({type(error).__name__})") from None
                if message["type"] == "error" and (message["code"] in STOP_RETRYING
                                                   or (not welcomed and message["code"] == "bad_message")):
                    # A hello refused as malformed (a name too long, say) fails the same way every time.
                    self.stopped = message["message"]
                    return welcomed
        finally:
            heartbeat.cancel()

    async def _heartbeat(self, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(Exception):
            while True:
                await asyncio.sleep(max(self.heartbeat, protocol.HEARTBEAT_RANGE[0]))
                if writer.transport.get_write_buffer_size() <= UNSENT_KEPT:  # a host that reads nothing
                    writer.write(protocol.encode({"type": "ping", "t": int(time.monotonic() * 1000)}))

    @property
    def welcomed(self) -> bool:
        """Whether the host has let this client in (at least once)."""
        return self._welcomed.is_set()

    def _receive(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        snap = self.snapshot
        if kind == "ping":  # answered while the host reads what we send (its pings cannot pile up pongs)
            if self._writer is not None and self._writer.transport.get_write_buffer_size() <= UNSENT_KEPT:
                self._writer.write(protocol.encode({"type": "pong", "t": message.get("t", 0)}))
            return
        if kind == "pong":
            return
        if kind == "welcome":
            snap.game, snap.title, snap.table = message["game"], message["title"], message["table"]
            snap.role, snap.seat, snap.options = message["role"], message["seat"], message["options"]
            if message.get("token"):
                self.token = message["token"]
            commitment = message.get("commitment")
            self._deal.welcome_commitment = commitment if isinstance(commitment, bytes) else None
            self.heartbeat = float(message.get("heartbeat") or self.heartbeat)
            self.timeout = float(message.get("timeout") or self.timeout)
            where = "as a spectator" if snap.seat is None else f"in seat {snap.seat + 1}"
            self._emit(ClientUpdate("welcome", f"joined {snap.table} ({snap.title}) {where}", message,
                                    self._as_of_now()))
        elif kind == "table":
            snap.take_table(message)
            self._welcomed.set()  # the welcome and its catch-up are in: the snapshot is whole
            self._emit(ClientUpdate("table", "", message, self._as_of_now()))
        elif kind == "error":
            self.last_error = message
            self._emit(ClientUpdate("error", message["message"], message, self._as_of_now()))
        elif kind == "notice":
            self._emit(ClientUpdate("notice", message["text"], message))
        elif kind == "chat":
            line = snap.take_chat(message)
            self._emit(ClientUpdate("chat", f"{line['from']}: {line['text']}", message))

    @property
    def evidence(self) -> Evidence | None:
        """The last finished game's evidence of its deal (kept for a saved file); None before one ends."""
        return self._deal.evidence

    @property
    def nonce(self) -> bytes | None:
        """Our share of the game being dealt or played (None before we saw its commitment)."""
        return self._deal.nonce

    def _write(self, message: dict[str, Any]) -> None:
        if self._writer is not None:
            self._writer.write(protocol.encode(message))

    def _as_of_now(self) -> TableSnapshot | None:
        """The snapshot as it stands, for an update's subscribers to draw (no copy when nobody listens)."""
        return self.snapshot.as_of_now() if self._subscribers else None

    def _emit(self, update: ClientUpdate) -> None:
        self._changed.set()
        if update.kind == "notice" and not self._subscribers:
            self._unheard = [*self._unheard[-(UNHEARD_KEPT - 1):], update]
        for callback in list(self._subscribers):
            callback(update)

    def _stop(self, why: str) -> None:
        self.retrying_since = None
        if self.stopped is None:
            self.stopped = why
        if not self._stopped_emitted:
            self._stopped_emitted = True
            self._emit(ClientUpdate("stopped", self.stopped))
