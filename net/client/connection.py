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
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from net import protocol
from net.fairness import NOT_AVAILABLE, Evidence, Verdict, pledge_of, verify
from net.protocol import ProtocolError
from net.table.match import standing_sent
from net.untrusted import printable_message

#: Refusals of a hello that retrying with the same details can never turn into a welcome.
STOP_RETRYING = protocol.PERMANENT | {"wrong_code", "slow_down"}
#: Bytes a client leaves unsent to a host before it stops adding pings, and the seconds it gives its goodbye.
UNSENT_KEPT = 64 * 1024
GOODBYE_SECONDS = 1.0
#: Chat lines a snapshot keeps (the oldest go first): a long evening's talk must not grow without end.
CHAT_KEPT = 500


@dataclass
class TableSnapshot:
    """Everything the client knows about the table, as the host last sent it."""

    game: str = ""
    title: str = ""
    table: str = ""
    role: str = ""
    seat: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    turn: int = -1
    started: bool = False
    view: dict[str, Any] | None = None
    prompt: dict[str, Any] | None = None
    seats: list[dict[str, Any]] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    #: Chat lines heard since this client started, oldest first: ``{"from": name, "seat": int or None
    #: (a spectator), "text": str}``. Kept across reconnects; lines said while disconnected are missed.
    chat: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    record: dict[str, Any] | None = None
    #: Once a game is over, the running score at this table by seat: ``{"seat", "games", "wins",
    #: "points"}`` each, over every game played there (this one too); None before the end.
    match: list[dict[str, Any]] | None = None
    #: A take-back being asked: ``{"seat": who asks, "waiting": [seats still to answer]}``, else None.
    take_back: dict[str, Any] | None = None
    #: Whether this seat may ask now to take back its last move.
    may_take_back: bool = False
    #: Once a game is over, this client's check of its deal: "fair deal: verified", or what
    #: did not match; None before the end.
    fair: Verdict | None = None
    #: Before a fair deal is dealt: its phase, pledges and time left (the ``deal`` field); else None.
    deal: dict[str, Any] | None = None
    #: How many times the host has sent the whole log again (a reconnect, names told anew, a new game):
    #: whoever draws the log rewrites it when this changes.
    catch_ups: int = 0
    #: The turn clock, if the table has one: per seat the seconds it had left when this update came (None
    #: where no clock runs), and when it came (``time.monotonic``), so a screen can count down.
    clocks: list[float | None] | None = None
    clocks_at: float = 0.0
    #: Seats a bot plays for now because their player let the clock run out turn after turn.
    away: list[int] = field(default_factory=list)
    #: Seats of people the game has waited for a while (the host says who keeps the table waiting).
    idle: list[int] = field(default_factory=list)

    def seconds_left(self, seat: int, now: float | None = None) -> float | None:
        """What ``seat``'s clock has left now, counted down from the last update (None: no clock runs)."""
        if not self.clocks or not 0 <= seat < len(self.clocks):
            return None
        left = self.clocks[seat]
        if not isinstance(left, (int, float)) or isinstance(left, bool):
            return None
        spent = (time.monotonic() if now is None else now) - self.clocks_at
        return max(0.0, float(left) - spent)

    @property
    def choices(self) -> list[dict[str, Any]]:
        """The prompt's choices: ``{"action": ..., "text": ...}`` each; empty when nothing is asked."""
        return list(self.prompt["choices"]) if self.prompt else []


@dataclass(frozen=True)
class ClientUpdate:
    """What just happened: ``kind`` is one of ``connected``, ``welcome``, ``table``, ``error``, ``notice``,
    ``chat``, ``disconnected`` or ``stopped``; ``text`` says it in words (for ``chat``: "name: text");
    ``message`` is the host's message if any."""

    kind: str
    text: str = ""
    message: dict[str, Any] | None = None


#: How many notices a client keeps for a subscriber still to come.
UNHEARD_KEPT = 20


def describe_duration(seconds: float) -> str:
    """A wait in the words a status line uses: ``12 s``, ``3 min``, ``2 h 5 min``."""
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min"
    hours, minutes = divmod(seconds // 60, 60)
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


class ClientError(Exception):
    """The client cannot (or can no longer) reach its table; the message says why in plain words."""


def explain_connection_error(error: BaseException, host: str, port: int, ever_welcomed: bool = True) -> str:
    """A connection failure in words a player understands (``ever_welcomed``: that host has taken us in
    before, so it is a turpin table)."""
    where = f"{host}:{port}"
    if isinstance(error, ConnectionRefusedError):
        return f"nobody is hosting a table at {where} (the connection was refused)"
    if isinstance(error, (asyncio.TimeoutError, TimeoutError)):
        return f"the table at {where} did not answer in time"
    if isinstance(error, asyncio.IncompleteReadError):
        return f"the table at {where} closed the connection"
    if isinstance(error, ConnectionResetError):
        return f"the connection to {where} was cut"
    if isinstance(error, OSError) and error.strerror:
        return f"cannot reach {where}: {error.strerror.lower()}"
    if isinstance(error, ProtocolError):
        if not ever_welcomed:
            # Its very first bytes were not turpin's (an SSH port, say): said in words, not as "a frame of
            # 1397966893 bytes"
            return f"{where} is not a turpin table (is the port right?): it answered with something else"
        return f"the table at {where} sent something this program cannot read ({error.message})"
    return f"lost the table at {where} ({type(error).__name__})"


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
        #: Our share of each game's fair deal, by the host's commitment for that game: drawn when we first
        #: see the commitment, pledged (its hash) then, revealed once every seat has pledged.
        self._shares: dict[bytes, bytes] = {}
        #: What we have sent of the share on this connection: ("pledge" | "reveal", commitment).
        self._share_sent: set[tuple[str, bytes]] = set()
        #: The commitment in the last welcome, until the table frame after it (which must carry the same).
        self._welcome_commitment: bytes | None = None
        #: What this client keeps of the game being played to check its deal at the end; the last
        #: finished game's (``evidence``) stays for a saved file.
        self._evidence: Evidence | None = None
        self.evidence: Evidence | None = None
        self._last_secret: bytes | None = None
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
        self._share_sent.clear()
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
                    await self._follow_the_deal(message)
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
            self._welcome_commitment = commitment if isinstance(commitment, bytes) else None
            self.heartbeat = float(message.get("heartbeat") or self.heartbeat)
            self.timeout = float(message.get("timeout") or self.timeout)
            where = "as a spectator" if snap.seat is None else f"in seat {snap.seat + 1}"
            self._emit(ClientUpdate("welcome", f"joined {snap.table} ({snap.title}) {where}", message))
        elif kind == "table":
            snap.turn, snap.started, snap.view = message["turn"], message["started"], message["view"]
            snap.prompt, snap.seats = message["prompt"], message["seats"]
            snap.result, snap.record = message["result"], message.get("record")
            snap.match = standing_sent(message.get("match"), len(snap.seats) if isinstance(snap.seats, list) else 0)
            deal = message.get("deal")
            snap.deal = deal if isinstance(deal, dict) else None
            asked = message.get("take_back")
            snap.take_back = asked if isinstance(asked, dict) and isinstance(asked.get("seat"), int) \
                and isinstance(asked.get("waiting"), list) else None
            snap.may_take_back = message.get("may_take_back") is True
            clocks = message.get("clocks")
            snap.clocks = list(clocks) if isinstance(clocks, list) else None
            snap.clocks_at = time.monotonic()
            away = message.get("away")  # a host's bytes are untrusted: only whole seat numbers count
            snap.away = _seats_in(away)
            snap.idle = _seats_in(message.get("idle"))
            if message["catch_up"]:
                snap.log, snap.catch_ups = list(message["events"]), snap.catch_ups + 1
            else:
                snap.log = snap.log + message["events"]
            self._welcomed.set()  # the welcome and its catch-up are in: the snapshot is whole
            self._emit(ClientUpdate("table", "", message))
        elif kind == "error":
            self.last_error = message
            self._emit(ClientUpdate("error", message["message"], message))
        elif kind == "notice":
            self._emit(ClientUpdate("notice", message["text"], message))
        elif kind == "chat":
            line = {"from": message["from"], "seat": message.get("seat"), "text": message["text"]}
            snap.chat.append(line)
            del snap.chat[:-CHAT_KEPT]
            self._emit(ClientUpdate("chat", f"{line['from']}: {line['text']}", message))

    @property
    def nonce(self) -> bytes | None:
        """Our share of the game being dealt or played (None before we saw its commitment)."""
        commitment = self._evidence.commitment if self._evidence is not None else None
        return self._shares.get(commitment) if commitment is not None else None

    async def _follow_the_deal(self, message: dict[str, Any]) -> None:
        """Keep every frame of the game; pledge and reveal our share when the deal asks; at the game's end,
        check the deal (``net.fairness.verify``) in a worker thread, so the interface never waits on it."""
        snap = self.snapshot
        finished = self._keep_evidence(message)
        if finished is None:
            if message.get("result") is None:
                snap.fair = None
            return
        try:
            from core.registry import get_game
            game = get_game(snap.game)
        except KeyError:
            snap.fair = Verdict(NOT_AVAILABLE, ["this turpin does not have the game"])
            return
        verdict = await asyncio.to_thread(verify, game, finished)
        record = message.get("record")
        reveal = record.get("fair") if isinstance(record, dict) else None
        if verdict.status == "verified" and isinstance(reveal, dict) and isinstance(reveal.get("secret"), bytes):
            self._last_secret = reveal["secret"]
        snap.fair = verdict

    def _keep_evidence(self, message: dict[str, Any]) -> Evidence | None:
        """Keep the frame for the check, and do our part of the deal; the game's evidence once it ends."""
        if message.get("result") is not None and self._evidence is None and self.evidence is not None:
            return None  # the finished game told again (a seat left, a reconnect)
        commitment = message.get("commitment")
        commitment = commitment if isinstance(commitment, bytes) and len(commitment) == 32 else None
        evidence = self._evidence
        if evidence is None:
            evidence = self._evidence = Evidence(self.snapshot.seat, commitment, previous_secret=self._last_secret)
        elif commitment != evidence.commitment and not evidence.changed:
            evidence.changed.append(f"the commitment changed during the game (at move {message.get('turn')})")
        welcomed_with, self._welcome_commitment = self._welcome_commitment, None
        if welcomed_with is not None and welcomed_with != commitment and not evidence.changed:
            evidence.changed.append("the commitment in the welcome is not the one in the table's frames")
        evidence.seat = self.snapshot.seat  # (new seats drawn from the shares move us once they are in)
        deal = message.get("deal")
        if isinstance(deal, dict) and commitment is not None and commitment == evidence.commitment:
            self._take_part(deal, commitment, evidence)
        evidence.keep(message)
        if message.get("result") is None:
            return None
        self._evidence, self.evidence = None, evidence
        return evidence

    def _take_part(self, deal: dict[str, Any], commitment: bytes, evidence: Evidence) -> None:
        """Our share of the deal: pledged only after we have seen the host's commitment, and
        revealed only once the pledges are frozen, which we keep to check at the end."""
        seat, phase, pledges = self.snapshot.seat, deal.get("phase"), deal.get("pledges")
        if not (isinstance(pledges, list) and all(p is None or isinstance(p, bytes) for p in pledges)):
            return
        if phase == "reveals":
            if evidence.pledges is None:
                evidence.pledges, evidence.shuffle = list(pledges), deal.get("shuffle") is True
            elif evidence.pledges != pledges and not evidence.changed:
                evidence.changed.append("the pledges changed after they were closed")
        if self.role != "player" or seat is None or not 0 <= seat < len(pledges):
            return
        if commitment not in self._shares:
            fresh = secrets.token_bytes(protocol.NONCE_BYTES)
            self._shares = {**dict(list(self._shares.items())[-1:]), commitment: fresh}
        nonce = self._shares[commitment]
        ours = pledges[seat] == pledge_of(nonce)
        if phase == "pledges" and not ours and ("pledge", commitment) not in self._share_sent:
            self._share_sent.add(("pledge", commitment))
            self._write({"type": "pledge", "pledge": pledge_of(nonce)})
        elif phase == "reveals" and ours and ("reveal", commitment) not in self._share_sent:
            revealed = deal.get("revealed")
            if isinstance(revealed, list) and seat in revealed:
                return
            self._share_sent.add(("reveal", commitment))
            evidence.nonce, evidence.revealed, evidence.share_seat = nonce, True, seat
            self._write({"type": "reveal", "nonce": nonce})

    def _write(self, message: dict[str, Any]) -> None:
        if self._writer is not None:
            self._writer.write(protocol.encode(message))

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


def _seats_in(value: Any) -> list[int]:
    """The seat numbers in a host's list (anything else in it, or no list, counts for nothing)."""
    return [seat for seat in value if isinstance(seat, int) and not isinstance(seat, bool)] \
        if isinstance(value, list) else []
