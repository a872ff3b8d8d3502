"""The table: one game's full state, its seats and watchers, composed of the parts that decide about them.

The table knows nothing about sockets: each watcher is given a ``send`` that takes an encoded frame. The TCP
host, the tests and local play all drive the same class. Its parts, each in a module of its own:
``seating`` (who sits where, joins and leaves), ``pipeline`` (a request, checked in order), ``deal`` (the
seed and the fair deal), ``take_back``, ``stand_ins`` (bots, the turn clock, away and idle seats),
``frames`` (the one place that decides what each viewer is sent), ``records`` and ``chat``.

Invariants kept here: the record is saved before anyone sees a new state (a crash loses nothing); each
seat's prompt is new whenever its choices change and after it acts (an answer never counts twice); and
after any request, join, departure or timer the table says once whether a bot may move now
(``TableListener.bot_may_move``), so the host schedules bots from that one signal.
"""

from __future__ import annotations

import functools
import hmac
import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, TypeVar

from core.engine import Action, Event, Game, OptionError, State, event, name_seats
from net import protocol
from net.fairness import FairDeal
from net.refusals import Refusal
from net.table import pipeline
from net.table.chat import TableChat
from net.table.clock import TurnClock
from net.table.deal import Deal
from net.table.frames import Frames, LeakError
from net.table.match import Match
from net.table.records import rebuild, table_record
from net.table.seating import SeatInfo, Seating, Watcher, default_bot, new_token, printable_name, seat_labels
from net.table.stand_ins import BotTurn, StandIns
from net.table.take_back import TakeBacks

__all__ = ["BotTurn", "LeakError", "Table", "TableListener"]


class TableListener(Protocol):
    """Whoever serves the table (the TCP host): told when the seats change and when a bot may move."""

    def seats_changed(self) -> None: ...

    def bot_may_move(self) -> None: ...


@dataclass
class Prompt:
    id: int = 0
    legal: list[Action] = field(default_factory=list)


Method = TypeVar("Method", bound=Callable[..., Any])


def _then_bots(method: Method) -> Method:
    """After the table changed (whether or not the change was refused): the one place it says a bot may move."""
    @functools.wraps(method)
    def changed(self: Table, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        finally:
            if self._listener is not None and self.stand_ins.next_bot() is not None:
                self._listener.bot_may_move()
    return changed  # type: ignore[return-value]


class Table:
    """A table of one game: the state, seats, watchers, the log, and the record after every action."""

    def __init__(self, game: Game, options: dict[str, Any] | None = None, *, name: str = "turpin table",
                 code: str | None = None, bots: dict[int, str] | None = None, seed: int | None = None,
                 grace: float | None = None, host_token: str | None = None,
                 save: Callable[[dict[str, Any]], None] | None = None, clock: float = 0.0,
                 now: Callable[[], float] = time.monotonic, on_event: Callable[[str], None] | None = None,
                 meta: dict[str, Any] | None = None, fair: FairDeal | None = None, match: Match | None = None,
                 taken_back: list[dict[str, Any]] | None = None) -> None:
        """``seed``: a table that can be replayed (tests, ``--seed``) and has no fair deal; ``clock``: each
        seat's seconds to move (0: none), in ``now``'s time (tests drive it); ``on_event``: one line for
        the host's console per join, departure, bot or end; ``meta``: host facts kept in the record so a
        resumed host looks the same (its port). ``fair``, ``match`` and ``taken_back`` come from a record."""
        self.game = game
        self.options = game.resolve_options(options)
        self.name = printable_name(name) or "turpin table"
        self.code = code
        self.grace = grace
        self.host_token = host_token or new_token()
        self.save = save
        self.now = now
        self.on_event = on_event
        self.meta: dict[str, Any] = dict(meta or {})
        try:
            self.turn_clock = TurnClock(clock, now)
        except ValueError as error:
            raise OptionError(str(error)) from None
        #: Told to clients in the welcome: how often the host pings, and how long silence may last.
        self.heartbeat = protocol.HEARTBEAT_SECONDS
        self.timeout = protocol.TIMEOUT_SECONDS
        self._listener: TableListener | None = None
        self.seats = [SeatInfo() for _ in range(game.seats(self.options))]
        self.watchers: list[Watcher] = []
        self.prompts = [Prompt() for _ in self.seats]
        self.seating = Seating(self)
        self.frames = Frames(self)
        self.take_backs = TakeBacks(self)
        self.stand_ins = StandIns(self)
        self.chat = TableChat(self)
        self.deal = Deal(self)
        for seat, bot in (bots or {}).items():
            self.stand_ins.seat_bot(seat, bot)
        #: None when the seed was given, which nobody can check.
        self.fair: FairDeal | None = fair
        if fair is None and seed is None:
            self.fair = FairDeal.fresh(len(self.seats))
        #: The game's accepted actions ``[seat, action]``, its log, and the moves taken back (record order).
        self.actions: list[list[Any]] = []
        self.log: list[Event] = []
        self.taken_back: list[dict[str, Any]] = []
        self.deal.new_game(seed)
        self.taken_back += taken_back or []
        #: Who sits where over the games at this table, and the running score (``start_again``).
        self.match = match if match is not None else Match.new(len(self.seats))
        pipeline.refresh_prompts(self)
        self.deal.advance()  # a table of bots alone is dealt at once

    @classmethod
    def from_record(cls, game: Game, record: dict[str, Any], save: Callable[[dict[str, Any]], None] | None = None,
                    *, grace: float | None = None, clock: float | None = None) -> "Table":
        """Rebuild a table exactly: same seed, options and seats, and the log replayed action by action;
        ``grace`` and ``clock`` (a resuming host's own) replace the record's when given."""
        return rebuild(cls, game, record, save, grace, clock)

    def serve(self, listener: TableListener, heartbeat: float, timeout: float) -> None:
        """The host that serves the table from now on, and the heartbeat and timeout its welcome tells."""
        self._listener, self.heartbeat, self.timeout = listener, heartbeat, timeout
        if self.stand_ins.next_bot() is not None:
            listener.bot_may_move()

    def report_to(self, on_event: Callable[[str], None]) -> None:
        """Whoever runs the table hears its news from now on (``tell``)."""
        self.on_event = on_event

    def keep_record_in(self, save: Callable[[dict[str, Any]], None]) -> None:
        """The record goes on being written through ``save`` (a table rebuilt from its record, resumed)."""
        self.save = save

    # ------------------------------------------------------------------------------------------ facts

    @property
    def seed(self) -> int:
        return self.deal.seed

    @property
    def state(self) -> State:
        """The game's full state (host side only: each viewer is sent its own ``view`` of it)."""
        return self.deal.state

    @property
    def full(self) -> bool:
        return all(seat.kind != "open" for seat in self.seats)

    @property
    def started(self) -> bool:
        """Every seat is taken and the cards are dealt (with a fair deal, once every share is in)."""
        return self.full and (self.fair is None or self.fair.dealt)

    @property
    def over(self) -> bool:
        return self.game.result(self.state) is not None

    @property
    def turn(self) -> int:
        return len(self.actions)

    def narrate(self, events: list[Event]) -> list[Event]:
        """Events as this table tells them: each "Seat N" in the text is the name of whoever sits there.
        The log keeps the engine's words and names go in as events go out, so a catch-up (or a resumed
        host, whose record keeps only the latest names) tells every line with the names of the moment."""
        labels = self.seating.labels()
        return [{**event, "text": name_seats(event["text"], labels)} for event in events]

    def narrated_result(self) -> dict[str, Any] | None:
        """The game's result with its summary told in names, as ``narrate`` tells events."""
        result = self.game.result(self.state)
        if result is not None and isinstance(result.get("summary"), str):
            # A seat a bot keeps warm is its player's: the same winner before and after he is back
            owners = seat_labels([info.away_name or (info.name_in_the_log if info.kind != "open" else "")
                                  for info in self.seats])
            result = {**result, "summary": name_seats(result["summary"], owners)}
        return result

    def record(self) -> dict[str, Any]:
        """The full record (host side only: it holds the tokens and the seed)."""
        return table_record(self)

    def check_code(self, code: str | None) -> bool:
        """True if the table needs no code or ``code`` is it (compared in constant time)."""
        if self.code is None:
            return True
        given = (code or "").strip().upper().encode()
        return hmac.compare_digest(given, self.code.upper().encode())

    # ------------------------------------------------------------------------------- what comes in

    @_then_bots
    def join(self, send: Callable[[bytes], None], hello: dict[str, Any],
             on_drop: Callable[[], None] | None = None) -> Watcher:
        """Seat or seat-again a player, or add a spectator; send the welcome and the catch-up. The room
        code is checked by the caller (the host throttles wrong ones per address) through ``check_code``."""
        return self.seating.join(send, hello, on_drop)

    @_then_bots
    def request(self, watcher: Watcher, message: dict[str, Any]) -> None:
        """A joined connection's validated request (``net.table.pipeline``); ``Refusal`` if refused."""
        if not watcher.alive:
            raise Refusal("not_joined", "say hello (join the table) before anything else")
        pipeline.handle(self, watcher, message)

    def leave(self, watcher: Watcher) -> None:
        """A connection is gone; its seat waits for the player to come back (or for the grace period)."""
        self.seating.leave(watcher)

    @_then_bots
    def hand_to_bot(self, seat: int, bot: str | None = None, keep_warm: bool = False,
                    why: str | None = None) -> None:
        """Give a seat to a bot: for good (his token stops working), or ``keep_warm`` (the grace ran out)
        until its player comes back with his token; ``why`` tells everyone "Seat N <why>"."""
        if not 0 <= seat < len(self.seats):
            raise Refusal("no_such_seat", f"there is no seat {seat + 1}")
        bot = bot or default_bot(self.game)
        self.seating.drop_seat(seat, "bad_token", "your seat was handed to a bot")
        self.stand_ins.seat_bot(seat, bot, keep_warm)
        if self.fair is not None:
            self.fair.forget(seat)  # before the pledges froze: a bot's share (once frozen, the seat's stays)
        pipeline.refresh_prompts(self)
        self.deal.advance()
        self._save()
        self.frames.seats_changed()
        self._seats_changed()
        self.tell(f"Seat {seat + 1}: a bot ({bot}) plays it now")
        if why is not None:
            self.notice(f"Seat {seat + 1} {why}")

    @_then_bots
    def start_again(self, seed: int | None = None,
                    save: Callable[[dict[str, Any]], None] | None = None, *, shuffle: bool = False) -> None:
        """Another game at this table once this one is over: the same options, people and tokens, each in
        his seat or (``shuffle``) all in new ones, a fresh deal, and ``save`` for its record (the last
        game's record stays whole). The finished game counts in the match's running score. Every watcher
        is sent the new table from its start, as after a reconnect; one whose seat moved is welcomed to
        his new seat first."""
        result = self.game.result(self.state)
        if result is None:
            raise Refusal("game_on", "this table's game is still being played")
        self.match.finish(result)
        # The next secret of the chain, and fresh shares from every seat: nobody knows this deal, nor (in
        # new seats) the seats, until every share is in. Without a fair deal the host draws the seats.
        self.fair = self.fair.next_game(shuffle) if self.fair is not None and seed is None else None
        moved: set[int] = set()
        if shuffle and self.fair is None:
            rng = random.Random(secrets.randbits(64) if seed is None else seed)
            moved = self.seating.reseat(self.match.shuffle(rng))
        self.deal.share_deadline = None
        self.turn_clock = TurnClock(self.turn_clock.seconds, self.turn_clock.now)  # nobody is away any more
        self.deal.new_game(seed)
        close_record = getattr(self.save, "close", None)  # a plain function saves without a file to let go
        if close_record is not None and save is not self.save:
            close_record()  # the last game's record is whole: its file is let go
        seats = "new seats" if shuffle else "same seats"
        # A line of the table's, not the game's: a replay of the game leaves it out (``table_line``); it
        # opens the new game's log for everyone, above the deal's first lines (a notice would come after).
        drawn = "new seats drawn from everyone's shares" if shuffle and self.fair is not None else seats
        self.log.insert(0, event(f"A new game begins at this table: {drawn}, a fresh deal.", table_line=True))
        self.save = save
        self.tell(f"A new game begins ({seats})")
        if self.deal.advance():
            return  # dealt at once (a table of bots): everyone was sent the new game
        # Prompt ids go on counting up: an answer to the last game's prompt can never fit the new one's.
        pipeline.refresh_prompts(self)
        self._save()
        self.frames.send_everyone_the_game(moved)
        self._seats_changed()  # the LAN list says the table plays again

    @_then_bots
    def tick(self) -> None:
        """The host's clock loop: turn clocks that ran out, a take-back question nobody answered, a fair
        deal's wait for shares that did not come, and a seat that now keeps the table waiting (idle)."""
        if not self.stand_ins.run_clocks() and not self.take_backs.timed_out():
            self.deal.time_up()
        self.stand_ins.idle_changed()

    @_then_bots
    def hand_over_the_gone(self, now: float | None = None) -> None:
        """Seats whose player has been gone longer than the grace period go to a bot until he is back."""
        for seat in self.stand_ins.seats_past_grace(now):
            self.hand_to_bot(seat, keep_warm=True, why="was gone longer than the grace period; a bot plays it "
                                                        "until its player comes back")

    def bot_turn(self) -> BotTurn | None:
        """What the next bot needs to decide away from the table, or None if no bot is to play."""
        return self.stand_ins.bot_turn()

    @_then_bots
    def play_bot_action(self, turn: BotTurn, action: Action | None) -> bool:
        """Apply a bot's decision if its seat still awaits it (``StandIns.play``)."""
        return self.stand_ins.play(turn, action)

    def notice(self, text: str) -> None:
        """A line for everyone at the table (a player stalled, a seat handed to a bot)."""
        self.frames.notice(text)

    def tell(self, line: str) -> None:
        """One line for whoever runs the table (the headless host's console); net itself prints nothing."""
        if self.on_event is not None:
            self.on_event(line)

    # ------------------------------------------------------------------------ for the table's parts

    def _seats_changed(self) -> None:
        if self._listener is not None:
            self._listener.seats_changed()

    def _save(self) -> None:
        if self.save is not None:
            self.save(self.record())
