"""The table: the one full game state, its seats and watchers, and every decision about them (who sits
where is in ``net/seats.py``, chat in ``net/chat.py``, refusals in ``net/refusals.py``).

The authority knows nothing about sockets (after boardgame.io's master): each watcher is given a
``send`` that takes an encoded frame. The TCP host, the tests and local play all drive the same class.

Every request is checked in the same order — who is asking, has the game started or ended, is it this
seat's turn, is it about the current prompt, is the action legal — and only then applied. A refusal is a
``Refusal`` with an error code and words a player understands; it never touches the state.

Secrecy (A1) is kept at the one place frames are built, ``_table_frame``: a seat gets the game's own
allow-listed ``view`` for that seat, its own prompt and the events ``visible_events`` lets it see; a
spectator gets ``view(state, None)`` and public events. The seed is drawn from ``secrets`` and goes out
only with the result (A2).
"""

from __future__ import annotations

import hmac
import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import msgpack

from core.bots import canonical_bot, chosen_bot
from core.engine import (Action, Bot, Event, Game, IllegalAction, OptionError, State, clone, event, name_seats,
                         seat_name, visible_events)
from net import protocol
from net.table.chat import check_chat_text
from net.table.clock import AWAY_AFTER, TurnClock
from net.fairness import SHARE_SECONDS, FairDeal
from net.table.match import Match
from net.table.take_back import ANSWER_SECONDS, TakeBackAsked
from net.protocol import error_message, host_message
from net.record import RECORD_FORMAT, RECORD_VERSION, RecordError, check_record, public_record
from net.refusals import Refusal, check_protocol
from net.table.seating import BOT_NAMES, SeatInfo, Watcher, default_bot, new_token, printable_name, seat_labels
from net.untrusted import player_name


class LeakError(AssertionError):
    """A frame about to leave before the end of the game carries the seed: a bug, never sent."""


def action_key(action: Action) -> bytes:
    """An action's identity with its types: its msgpack bytes, keys sorted. Python's ``==`` takes
    ``True`` for ``1`` (and ``1.0`` for ``1``); the wire, the record and a replay do not."""
    return msgpack.packb(sorted(action.items()), use_bin_type=True)


def matching_action(action: Any, legal: list[Action]) -> Action | None:
    """The legal action that is ``action`` type for type, or None; the table applies its own copy."""
    try:
        wanted = action_key(action)
    except (TypeError, ValueError, AttributeError):
        return None
    return next((choice for choice in legal if action_key(choice) == wanted), None)


@dataclass
class BotTurn:
    """One bot decision to make off the table: see ``Table.bot_turn``."""

    seat: int
    name: str
    bot: Bot
    state: State
    rng: random.Random
    actions_seen: int
    #: Take-back questions asked at the table when the bot was asked (a question since: out of date).
    questions_seen: int = 0


@dataclass
class _Prompt:
    id: int = 0
    legal: list[Action] = field(default_factory=list)


class Table:
    """A table of one game: the state, seats, watchers, the log, and the record after every action."""

    def __init__(self, game: Game, options: dict[str, Any] | None = None, *, name: str = "turpin table",
                 code: str | None = None, bots: dict[int, str] | None = None, seed: int | None = None,
                 grace: float | None = None, host_token: str | None = None,
                 save: Callable[[dict[str, Any]], None] | None = None, clock: float = 0.0,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.game = game
        self.options = game.resolve_options(options)
        self.name = printable_name(name) or "turpin table"
        self.code = code
        self.grace = grace
        self.host_token = host_token or new_token()
        self.save = save
        try:
            #: Each seat to move has ``turn_clock.seconds`` (0: no clock); ``now`` is its time (tests drive it).
            self.turn_clock = TurnClock(clock, now)
        except ValueError as error:
            raise OptionError(str(error)) from None
        self.seats = [SeatInfo() for _ in range(game.seats(self.options))]
        for seat, bot in (bots or {}).items():
            self._seat_bot(seat, bot)
        #: The fair deal (issue 33): None when the seed was given (tests, ``--seed``), which nobody can check.
        self.fair: FairDeal | None = FairDeal.fresh(len(self.seats)) if seed is None else None
        #: When the fair deal stops waiting for the pledges or reveals it lacks (``turn_clock.now`` time).
        self._share_deadline: float | None = None
        self._questions = 0  # take-back questions asked at this table (``BotTurn.questions_seen``)
        self._deal(seed)
        #: Who sits where over the games at this table, and the running score (``start_again``).
        self.match = Match.new(len(self.seats))
        self.watchers: list[Watcher] = []
        self._prompts = [_Prompt() for _ in self.seats]
        #: A change listeners may want (seats filling) for the advertiser; set by the host.
        self.on_seats_changed: Callable[[], None] | None = None
        #: Told to clients in the welcome: how often the host pings, and how long silence may last.
        self.heartbeat = protocol.HEARTBEAT_SECONDS
        self.timeout = protocol.TIMEOUT_SECONDS
        #: Called with one line for the host's console when a player joins, leaves or comes back, a bot
        #: takes a seat, or the game ends (the headless host prints them).
        self.on_event: Callable[[str], None] | None = None
        #: Whether spectators' chat lines are refused (the host's choice; players can always talk).
        self.spectators_muted = False
        #: Host facts kept in the record so a resumed host looks the same to its clients (its port).
        self.meta: dict[str, Any] = {}
        self._refresh_prompts()
        self._advance_deal()  # a table of bots alone is dealt at once

    # ------------------------------------------------------------------------------------------ facts

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

    def seats_taken(self) -> int:
        return sum(seat.kind != "open" for seat in self.seats)

    def seats_waiting(self) -> int:
        """Seats held for a player whose connection is gone: taken, but not by anyone at the table now."""
        return 0 if self.over else sum(seat.kind == "player" and not seat.connected for seat in self.seats)

    def seat_labels(self) -> list[str]:
        """How this table's log names each seat now (``seat_labels`` of the seats' names)."""
        return seat_labels([info.name_in_the_log if info.kind != "open" else "" for info in self.seats])

    def narrate(self, events: list[Event]) -> list[Event]:
        """Events as this table tells them: each "Seat N" in the text is the name of whoever sits there.
        The log keeps the engine's words and names go in as events go out, so a catch-up (or a resumed
        host, whose record keeps only the latest names) tells every line with the names of the moment."""
        labels = self.seat_labels()
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

    def public_seats(self) -> list[dict[str, Any]]:
        return [info.public(seat) for seat, info in enumerate(self.seats)]

    def record(self) -> dict[str, Any]:
        """The full record (host side only: it holds the tokens and the seed)."""
        return {"format": RECORD_FORMAT, "version": RECORD_VERSION, "game": self.game.id,
                "options": self.options, "seed": self.seed, "table": self.name, "code": self.code,
                "grace": self.grace, "clock": self.turn_clock.seconds, "host_token": self.host_token, "saved_at": time.time(), "meta": self.meta,
                "seats": [{"kind": s.kind, "name": s.name, "bot": s.bot, "token": s.token,
                           **({"away_name": s.away_name} if s.away_name is not None else {})} for s in self.seats],
                "actions": self.actions, "taken_back": self.taken_back, "match": self.match.to_record(),
                "clock_state": self.turn_clock.to_record(),
                "fair": self.fair.to_record() if self.fair is not None else None}

    @classmethod
    def from_record(cls, game: Game, record: dict[str, Any],
                    save: Callable[[dict[str, Any]], None] | None = None) -> "Table":
        """Rebuild a table exactly: same seed, options and seats, and the log replayed action by action."""
        check_record(record)
        if record["game"] != game.id:
            raise RecordError(f"the record is of {record['game']!r}, not {game.id!r}")
        try:
            table = cls(game, record["options"], name=record["table"], code=record.get("code"),
                        seed=record["seed"], grace=record.get("grace"), host_token=record.get("host_token"),
                        save=save, clock=record.get("clock") or 0.0)
        except OptionError as error:
            raise RecordError(f"the record's 'options' cannot be played: {error}") from None
        table.meta = dict(record.get("meta") or {})
        table.match = Match.from_record(record.get("match"), len(table.seats))  # checked by check_record
        table.taken_back = list(record.get("taken_back") or [])
        table.fair = FairDeal.from_record(record.get("fair"), len(table.seats))
        if table.fair is not None and table.fair.dealt and table.fair.seed() != record["seed"]:
            raise RecordError("the record's seed is not the one its fair deal makes")
        table._guard_secrets()
        if len(record["seats"]) != len(table.seats):
            raise RecordError("the record's seats do not match its options")
        for number, (info, saved) in enumerate(zip(table.seats, record["seats"]), start=1):
            info.kind, info.name, info.bot, info.token = saved["kind"], saved.get("name") or "", \
                saved.get("bot"), saved.get("token")
            info.away_name = saved.get("away_name") if info.kind == "bot" and info.token else None
            if info.kind == "player":  # as from a player's hello: no seat marks in a person's name
                info.name = player_name(info.name) or f"Player {number}"
            if info.away_name is not None:
                info.away_name = player_name(info.away_name) or None
            if info.kind == "bot" and info.bot not in game.bots:
                raise RecordError(f"the record names a bot {info.bot!r} that {game.title} does not have")
            if info.kind == "bot":
                info.bot = canonical_bot(game.bots, info.bot)  # an old record's sharp plays as normal
            if info.kind == "player":
                info.gone_since = time.monotonic()
        for seat, action in record["actions"]:
            if seat not in game.pending(table.state):
                raise RecordError(f"the record's action {len(table.actions) + 1} is out of turn")
            chosen = matching_action(action, game.legal_actions(table.state, seat))
            if chosen is None:  # checked as a player's action is: a malformed one never reaches the rules
                raise RecordError(f"the record's action {len(table.actions) + 1} is not one the rules allow then")
            events = game.apply(table.state, seat, chosen)
            table.actions.append([seat, action])
            table.log += events
        table.turn_clock.restore(record.get("clock_state"), len(table.seats))  # who was away, missed turns
        table._refresh_prompts()
        return table

    # ------------------------------------------------------------------------------------------ seats

    def _seat_bot(self, seat: int, bot: str, keep_warm: bool = False) -> None:
        try:
            bot = chosen_bot(self.game, bot)
        except OptionError as error:
            raise Refusal("bad_message", str(error)) from None
        info = self.seats[seat]
        name = f"{BOT_NAMES[seat % len(BOT_NAMES)]} ({bot} bot)"
        warm = keep_warm and info.kind == "player" and info.token is not None
        info.away_name = info.name if warm else None
        info.kind, info.bot, info.name, info.token = "bot", bot, name, info.token if warm else None
        info.connected, info.gone_since = False, None
        self.turn_clock.forget(seat)

    def check_code(self, code: str | None) -> bool:
        """True if the table needs no code or ``code`` is it (compared in constant time)."""
        if self.code is None:
            return True
        given = (code or "").strip().upper().encode()
        return hmac.compare_digest(given, self.code.upper().encode())

    def is_host(self, token: str) -> bool:
        """True if ``token`` is the host's (compared in constant time, so timing tells a guesser nothing)."""
        return hmac.compare_digest(token.encode(), self.host_token.encode())

    def join(self, send: Callable[[bytes], None], hello: dict[str, Any],
             on_drop: Callable[[], None] | None = None) -> Watcher:
        """Seat or seat-again a player, or add a spectator; send the welcome and the catch-up.

        The room code is checked by the caller (the host throttles wrong ones per address) through
        ``check_code``; here a player with no token must already have passed it.
        """
        check_protocol(hello)
        token = None
        stood_in = None  # the bot that kept the seat warm, if one did
        if hello["role"] == "spectator":
            seat = None
        elif hello.get("token"):
            seat, stood_in = self._seat_of_token(hello["token"])
            if hello.get("take_over") is False and any(w.seat == seat and w.alive for w in self.watchers):
                # A token kept on disk (another window of the same terminal) does not push out the window
                # playing the seat now: a second `turpin join` on the host's machine must not take his seat
                raise Refusal("seat_in_use", "this seat is being played from another window right now")
        else:
            seat = self._free_seat(hello.get("seat"))
            token = new_token()
            info = self.seats[seat]
            info.kind, info.token = "player", token
            info.name = player_name(hello.get("name")) or f"Player {seat + 1}"
            if self.fair is not None:
                self.fair.forget(seat)  # a pledge from the seat's last player is not this one's
            self.turn_clock.forget(seat)
        name = self.seats[seat].name if seat is not None else player_name(hello.get("name")) or "Spectator"
        watcher = Watcher(send, seat, on_drop=on_drop, name=name)
        if seat is not None:
            self._replace_connection(seat)
            info = self.seats[seat]
            info.connected, info.gone_since = True, None
            token = info.token
            self._refresh_prompts()
            self._advance_deal()
            if hello.get("token") is None and self.save is not None:
                self.save(self.record())  # the new token must survive a crash, or he could not come back
        self.watchers.append(watcher)
        watcher.send(self._welcome(seat, hello["role"]))
        self._send_table(watcher, catch_up=True)
        if stood_in is not None:
            # The seat's own lines in the log ("You chose the tavern") are the bot's moves: said to him.
            watcher.send(protocol.encode(host_message("notice", text=(
                f"While you were away {stood_in} played your seat: the log's lines since then, "
                "yours among them, are its moves. Your seat is yours again."))))
        if seat is not None:
            self._tell_seats_changed(exclude=watcher)
            self._seats_changed()
            name = self.seats[seat].name
            self.tell(f"Seat {seat + 1}: {name} is back" if hello.get("token") else
                       f"Seat {seat + 1}: {name} sat down")
        return watcher

    def _welcome(self, seat: int | None, role: str) -> bytes:
        """The welcome to a seat (with its token) or to a spectator: what the table is and where he sits."""
        token = self.seats[seat].token if seat is not None else None
        return protocol.encode(host_message(
            "welcome", protocol=protocol.PROTOCOL_VERSION, game=self.game.id, title=self.game.title,
            table=self.name, role=role, seat=seat, token=token, options=self.options,
            heartbeat=self.heartbeat, timeout=self.timeout, commitment=self.commitment))

    def _seat_of_token(self, token: str) -> tuple[int, str | None]:
        """The seat the token is for, and the name of the bot that kept it warm meanwhile (if one did)."""
        for seat, info in enumerate(self.seats):
            if info.token and hmac.compare_digest(info.token.encode(), token.encode()):
                stood_in = None
                if info.kind == "bot":  # a bot kept it warm while its player was away: it steps aside
                    stood_in = info.name_in_the_log
                    info.kind, info.bot, info.name = "player", None, info.away_name or f"Player {seat + 1}"
                    info.away_name = None
                    if self.save is not None:
                        self.save(self.record())
                return seat, stood_in
        raise Refusal("bad_token", "that seat token is not known at this table (the seat may have been "
                                   "handed to a bot); join again as a new player or watch")

    def _free_seat(self, wanted: int | None) -> int:
        if wanted is not None:
            if not 0 <= wanted < len(self.seats):
                raise Refusal("no_such_seat", f"this table has seats 1 to {len(self.seats)}; there is no "
                                              f"seat {wanted + 1}")
            if self.seats[wanted].kind != "open":
                raise Refusal("no_such_seat", f"seat {wanted + 1} is taken; choose another, or any free one")
            return wanted
        for seat, info in enumerate(self.seats):
            if info.kind == "open":
                return seat
        raise Refusal("table_full", "every seat at this table is taken; you can still watch as a spectator")

    def _replace_connection(self, seat: int) -> None:
        """One live connection per seat: the newest wins, the old one is told and dropped."""
        for old in [w for w in self.watchers if w.seat == seat]:
            self.watchers.remove(old)
            old.drop(protocol.encode(error_message("replaced", "this seat was taken over by a newer "
                                                              "connection (did you join twice?)")))

    def leave(self, watcher: Watcher) -> None:
        """A connection is gone; its seat waits for the player to come back (or for the grace period)."""
        if watcher in self.watchers:
            self.watchers.remove(watcher)
        watcher.alive = False
        if watcher.seat is not None and self.seats[watcher.seat].kind == "player" and \
                not any(w.seat == watcher.seat for w in self.watchers):
            info = self.seats[watcher.seat]
            info.connected, info.gone_since = False, time.monotonic()
            self._broadcast()
            self._seats_changed()
            if self.over:  # nothing waits any more: never "the seat waits for them" after the result
                then = "the game is over"
            elif self.grace is None:
                then = "the seat waits for them"
            else:
                then = f"a bot plays the seat after {self.grace:g} s, until they come back"
            self.tell(f"Seat {watcher.seat + 1}: {info.name} {'left' if watcher.said_bye else 'was lost'} ({then})")
            gone = "has left the table" if watcher.said_bye else "has lost the table"
            label = self.seat_labels()[watcher.seat]  # "Ann (seat 2)" where two are called Ann
            self.notice(f"{label} {gone}" + ("." if self.over else f"; {then}"))

    def hand_to_bot(self, seat: int, bot: str | None = None, keep_warm: bool = False) -> None:
        """Give a seat to a bot: for good (his token stops working), or ``keep_warm`` (the grace ran out)
        until its player comes back with his token."""
        if not 0 <= seat < len(self.seats):
            raise Refusal("no_such_seat", f"there is no seat {seat + 1}")
        bot = bot or default_bot(self.game)
        for old in [w for w in self.watchers if w.seat == seat]:
            self.watchers.remove(old)
            old.drop(protocol.encode(error_message("bad_token", "your seat was handed to a bot")))
        self._seat_bot(seat, bot, keep_warm)
        if self.fair is not None:
            self.fair.forget(seat)  # before the pledges froze: a bot's share (once frozen, the seat's stays)
        self._refresh_prompts()
        self._advance_deal()
        if self.save is not None:
            self.save(self.record())
        self._tell_seats_changed()
        self._seats_changed()
        self.tell(f"Seat {seat + 1}: a bot ({bot}) plays it now")

    def start_again(self, seed: int | None = None,
                    save: Callable[[dict[str, Any]], None] | None = None, *, shuffle: bool = False) -> None:
        """Another game at this table once this one is over: the same options, people and tokens, each in
        his seat or (``shuffle``) all in new ones, a fresh deal, and ``save`` for its record (the last
        game's record stays whole). The finished game counts in the match's running score. Every watcher
        is sent the new table from its start, as after a reconnect; one whose seat moved is welcomed to
        his new seat first."""
        if not self.over:
            raise Refusal("game_on", "this table's game is still being played")
        self.match.finish(self.game.result(self.state))
        # The next secret of the chain, and fresh shares from every seat: nobody knows this deal, nor (in
        # new seats) the seats, until every share is in. Without a fair deal the host draws the seats.
        self.fair = self.fair.next_game(shuffle) if self.fair is not None and seed is None else None
        moved: set[int] = set()
        if shuffle and self.fair is None:
            moved = self._reseat(self.match.shuffle(random.Random(secrets.randbits(64) if seed is None else seed)))
        self._share_deadline = None
        self._deal(seed)
        self.turn_clock = TurnClock(self.turn_clock.seconds, self.turn_clock.now)  # nobody is away any more
        close_record = getattr(self.save, "close", None)
        if close_record is not None and save is not self.save:
            close_record()  # the last game's record is whole: its file is let go
        # The new game's log opens with it, for everyone, above the deal's first lines (a notice would come
        # after them).
        seats = "new seats" if shuffle else "same seats"
        # A line of the table's, not the game's: a replay of the game leaves it out (``table_line``).
        drawn = "new seats drawn from everyone's shares" if shuffle and self.fair is not None else seats
        self.log.insert(0, event(f"A new game begins at this table: {drawn}, a fresh deal.", table_line=True))
        self.save = save
        self.tell(f"A new game begins ({seats})")
        if self._advance_deal():
            return  # dealt at once (a table of bots): everyone was sent the new game
        # Prompt ids go on counting up: an answer to the last game's prompt can never fit the new one's.
        self._refresh_prompts()
        if self.save is not None:
            self.save(self.record())
        self._send_everyone_the_game(moved)
        self._seats_changed()  # the LAN list says the table plays again

    def _reseat(self, order: list[int]) -> set[int]:
        """Everyone to new seats: ``order[new_seat]`` is the seat he sat in (the match's people are moved
        by the caller); returns the watchers that moved (by id), to be welcomed to their new seats."""
        self.seats = [self.seats[old] for old in order]
        moved = set()
        for watcher in self.watchers:
            if watcher.seat is not None:
                watcher.seat = order.index(watcher.seat)
                moved.add(id(watcher))
        return moved

    def _send_everyone_the_game(self, moved: set[int] | None = None) -> None:
        """The game from its start to every watcher, as after a reconnect; one whose seat moved is welcomed
        to his new seat first."""
        for watcher in list(self.watchers):
            if moved and id(watcher) in moved:
                watcher.send(self._welcome(watcher.seat, "player"))
            self._send_table(watcher, catch_up=True)

    # ------------------------------------------------------------------------------------ the fair deal

    def pledge(self, watcher: Watcher, pledge: bytes) -> None:
        """A player's pledge for his seat's share of the deal (issue 40): taken until the pledges freeze."""
        seat = self._sharing_seat(watcher)
        assert self.fair is not None
        if not self.fair.pledge(seat, pledge):
            raise Refusal("pledges_closed", "the deal's pledges are closed; your seat's share is the host's "
                                            "fixed one this game")
        self._deal_moved_on()

    def reveal(self, watcher: Watcher, nonce: bytes) -> None:
        """The share behind a seat's pledge, once every pledge is in; the last one deals."""
        seat = self._sharing_seat(watcher)
        assert self.fair is not None
        if not self.fair.reveal(seat, nonce):
            raise Refusal("bad_reveal", "that is not the share your seat pledged, or no share is asked for now")
        self._deal_moved_on()

    def _deal_moved_on(self, time_up: bool = False) -> None:
        """After a share came (or its time ran out): everyone is told when the deal's phase changes (the
        reveals are asked for with the frozen pledges), not at every share, so that filling a table costs
        two round trips and no more. A share that came before a crash is asked for again on reconnect."""
        assert self.fair is not None
        phase = self.fair.phase
        if self._advance_deal(time_up) or self.fair.phase == phase:
            return
        self._broadcast()
        if self.save is not None:
            self.save(self.record())

    def _sharing_seat(self, watcher: Watcher) -> int:
        if watcher.seat is None or self.seats[watcher.seat].kind != "player":
            raise Refusal("not_your_turn", "only a player in his seat has a share of the deal")
        if self.fair is None or self.fair.dealt:
            raise Refusal("no_deal", "no deal is waiting for shares now")
        return watcher.seat

    def share_time_up(self) -> bool:
        """The pledges or reveals the deal still lacks are past their time: True if that moved it on."""
        if self.fair is None or self._share_deadline is None or self.turn_clock.now() < self._share_deadline:
            return False
        self._deal_moved_on(time_up=True)
        return True

    def _advance_deal(self, time_up: bool = False) -> bool:
        """Move the fair deal on as far as it can go: once the table is full, the pledges freeze when
        every player's is in (or ``SHARE_SECONDS`` later), and the cards are dealt when every pledged share
        is revealed (or ``SHARE_SECONDS`` after the freeze). A share that did not come is replaced by the
        host's fixed one, and everyone is told. Until the deal the state is a stand-in nobody can act on.
        True if it dealt now: then everyone has been sent the new game, and the record saved."""
        fair = self.fair
        if fair is None or fair.dealt or not self.full or self.actions:
            return False
        now = self.turn_clock.now()
        if self._share_deadline is None:
            self._share_deadline = now + SHARE_SECONDS
        time_up = time_up or now >= self._share_deadline
        if fair.phase == "pledges":
            players = [seat for seat, info in enumerate(self.seats) if info.kind == "player"]
            if not time_up and any(fair.pledges[seat] is None for seat in players):
                return False
            for seat in fair.close_pledges(players):
                self._share_replaced(seat, "pledge")
            self._share_deadline, time_up = now + SHARE_SECONDS, False
        if not time_up and fair.waiting_for_reveals():
            return False
        for seat in fair.close_reveals():
            self._share_replaced(seat, "reveal")
        self._share_deadline = None
        moved: set[int] = set()
        if fair.order is not None:
            self.match.reorder(fair.order)
            moved = self._reseat(fair.order)
        table_lines = [line for line in self.log if line.get("table_line")]  # not the stand-in's deal
        self._deal(fair.seed(), repeatable_bots=False)
        self.log[:0] = table_lines
        self._refresh_prompts()
        if self.save is not None:
            self.save(self.record())
        self._send_everyone_the_game(moved)
        self._seats_changed()
        return True

    def _share_replaced(self, seat: int, what: str) -> None:
        line = (f"Seat {seat + 1} did not {what} its share of the deal in time: the host's fixed share "
                "stands in for it.")
        self.log.append(event(line, table_line=True))
        self.tell(line)

    @property
    def commitment(self) -> bytes | None:
        """The fair deal's commitment for this game, sent in every welcome and table frame."""
        return self.fair.commitment if self.fair is not None else None

    def _guard_secrets(self) -> None:
        self._secret_bytes = [] if self.fair is None else [self.fair.root, self.fair.secret, self.fair.salt]

    def _deal(self, seed: int | None, repeatable_bots: bool | None = None) -> None:
        """A game from its start: the seed (fresh unless given), the dealt state, no actions, the deal's log."""
        self.seed = seed if seed is not None else secrets.randbits(63)
        self._seed_bytes = msgpack.packb(self.seed)
        self._guard_secrets()
        self.state: State = self.game.setup(self.options, self.seed)
        self.actions: list[list[Any]] = []
        #: The last move: the log's length before it, and whether its player may ask to take it back.
        self._last_move: tuple[int, bool] = (0, False)
        #: A take-back asked and not yet answered by everyone (issue 34), and the moves taken back so far.
        self.take_back_asked: TakeBackAsked | None = None
        #: The seconds the last mover's clock had before his move (None: no clock).
        self._left_before_move: float | None = None
        self.taken_back: list[dict[str, Any]] = []
        #: Every event of the game, the deal's first; each viewer is sent what ``visible_events`` allows.
        self.log: list[Event] = self.game.opening_events(self.state)
        # A table set up with a given seed is repeatable bots and all; otherwise the bots draw afresh.
        repeatable_bots = seed is not None if repeatable_bots is None else repeatable_bots
        self._bot_rngs = [random.Random(f"{seed}/bot/{seat}" if repeatable_bots else secrets.randbits(64))
                          for seat in range(len(self.seats))]

    def seats_past_grace(self, now: float | None = None) -> list[int]:
        """Seats whose player has been gone longer than the grace period (never, with no grace set)."""
        if self.grace is None or self.over:
            return []
        now = time.monotonic() if now is None else now
        return [seat for seat, info in enumerate(self.seats)
                if info.kind == "player" and not info.connected and info.gone_since is not None
                and now - info.gone_since >= self.grace]

    def tell(self, line: str) -> None:
        """One line for whoever runs the table (the headless host's console); net itself prints nothing."""
        if self.on_event is not None:
            self.on_event(line)

    def _seats_changed(self) -> None:
        if self.on_seats_changed is not None:
            self.on_seats_changed()

    # ---------------------------------------------------------------------------------------- actions

    def act(self, watcher: Watcher, action: Action, prompt: int) -> None:
        """A player's action: checked in order, then applied, saved and sent; ``Refusal`` otherwise."""
        seat = watcher.seat
        if seat is None:
            raise Refusal("spectator", "spectators watch the table; they cannot play")
        self.heard_from(watcher)
        if self.over:
            raise Refusal("game_over", "the game is over; no more actions")
        if not self.started:
            raise Refusal("not_started", "the game starts when every seat is filled and the cards are dealt")
        if self.take_back_asked is not None:
            raise Refusal("not_your_turn", "play waits while a take-back is asked")
        if seat not in self.game.pending(self.state):
            raise Refusal("not_your_turn", f"the game is not waiting for {seat_name(seat)} now")
        current = self._prompts[seat]
        if prompt != current.id:
            raise Refusal("stale", "that answers an earlier question; the table has moved on, "
                                   "look at the new choices")
        chosen = matching_action(action, current.legal)
        if chosen is None:
            message, rule = self._explain_refusal(seat, action)
            raise Refusal("illegal", message, rule)
        self._apply(seat, chosen, by_player=True)

    def _explain_refusal(self, seat: int, action: Action) -> tuple[str, str | None]:
        """The rule that refuses ``action``, asked of a state the seat cannot tell from the real one.

        The engine's message could otherwise mention something hidden from the seat (A1: error replies
        too). On a redrawn state the seat's legal actions are the same, so the same rule refuses it.
        """
        stand_in = clone(self.game.resample_hidden(self.state, seat, random.Random(0)))
        try:
            self.game.apply(stand_in, seat, action)
        except IllegalAction as error:
            return name_seats(error.message, self.seat_labels()), error.rule
        except Exception:  # a malformed action the engine did not expect: still just not allowed
            pass
        return "that is not one of your legal actions now", None

    def next_bot(self) -> int | None:
        """The first pending seat held by a bot, if the game is on (and no take-back is being asked)."""
        if not self.started or self.over or self.take_back_asked is not None:
            return None
        for seat in self.game.pending(self.state):
            if self.bot_plays(seat):
                return seat
        return None

    def bot_plays(self, seat: int) -> bool:
        """Whether a bot makes this seat's moves now: a bot's seat, or a player's whose clock ran out (for
        this one move) or who is away."""
        info = self.seats[seat]
        clock = self.turn_clock
        return info.kind == "bot" or (info.kind == "player" and (seat in clock.standing_in or seat in clock.away))

    def _bot_name(self, seat: int) -> str:
        info = self.seats[seat]
        return info.bot if info.kind == "bot" and info.bot else default_bot(self.game)

    def bot_turn(self) -> BotTurn | None:
        """What the next bot needs to decide away from the table: its own copy of the state (the table's
        may change meanwhile), its generator, and how many actions the table had seen; None if no bot is
        to play."""
        seat = self.next_bot()
        if seat is None:
            return None
        name = self._bot_name(seat)
        return BotTurn(seat, name, self.game.bots[name], clone(self.state), self._bot_rngs[seat], len(self.actions),
                       self._questions)

    def play_bot_action(self, turn: BotTurn, action: Action | None) -> bool:
        """Apply a bot's decision if its seat still awaits it (False, and nothing done, if not). An action
        the rules refuse is a bot bug when nothing has happened since the bot was asked (the first legal
        action is played: a bug must not stall the table); otherwise the decision is just out of date."""
        seat = turn.seat
        if self.over or seat not in self.game.pending(self.state) or not self.bot_plays(seat):
            return False
        if self.take_back_asked is not None or turn.questions_seen != self._questions:
            return False  # a take-back was asked while it thought: nothing moves while play waits (issue 43)
        legal = self.game.legal_actions(self.state, seat)
        chosen = matching_action(action, legal)
        if chosen is None and len(self.actions) != turn.actions_seen:
            return False
        self._apply(seat, chosen or legal[0])
        return True

    def play_bot(self) -> bool:
        """Let one pending bot act; False if no bot is to play."""
        seat = self.next_bot()
        if seat is None:
            return False
        bot = self.game.bots[self._bot_name(seat)]
        action = bot(self.state, seat, self._bot_rngs[seat])
        legal = self.game.legal_actions(self.state, seat)
        # A bot bug must not stall the table: fall back to the first legal action.
        self._apply(seat, matching_action(action, legal) or legal[0])
        return True

    def _apply(self, seat: int, action: Action, by_player: bool = False) -> None:
        before = clone(self.state) if by_player else None  # (a bot's move is never taken back)
        self._left_before_move = self.turn_clock.left(seat)  # a take-back gives the seat this time back
        events = self.game.apply(self.state, seat, action)
        # Whether this move may be taken back (asked of the game now, while the state before it is at hand)
        self._last_move = (len(self.log), before is not None and self.game.can_take_back(before, self.state, seat, action))
        self.actions.append([seat, action])
        self.log += events
        self.turn_clock.moved(seat, by_player)
        self._refresh_prompts(acted=seat)
        if self.save is not None:
            self.save(self.record())  # durable before anyone sees the new state: a crash loses nothing
        self._broadcast()
        result = self.game.result(self.state)
        if result is not None:
            self._seats_changed()  # the LAN advert says the game is over
            self.tell(f"Game over: {(self.narrated_result() or result).get('summary', '')}")  # in names

    # ------------------------------------------------------------------------------------ take-backs

    def may_take_back(self, seat: int | None) -> bool:
        """Whether ``seat`` may ask now to take back its last move: the table's last move is its own, made
        by its player (not a bot for him), the game says it revealed nothing and drew no chance, and no
        question is open."""
        return (seat is not None and self.started and not self.over and self.take_back_asked is None
                and bool(self.actions) and self.actions[-1][0] == seat and self._last_move[1]
                and self.seats[seat].kind == "player")

    def take_back_open(self) -> bool:
        """Whether the last move may still be taken back by whoever made it (a bot waits a grace first)."""
        return bool(self.actions) and self.may_take_back(self.actions[-1][0])

    def ask_take_back(self, watcher: Watcher) -> None:
        """A player asks to take back his last move: the other people are asked (play waits); with none
        to ask (bots agree), it is taken back at once."""
        seat = watcher.seat
        if not self.may_take_back(seat):
            raise Refusal("illegal", "that move cannot be taken back now: only your own last move, while "
                                     "nothing hidden has been shown and no card or die drawn since")
        waiting = {other for other, info in enumerate(self.seats) if other != seat and info.kind == "player"}
        self.take_back_asked = TakeBackAsked(seat, len(self.actions), self.turn_clock.now() + ANSWER_SECONDS, waiting)
        self._questions += 1
        self.turn_clock.pause()  # play waits: every clock stands still until the question is answered
        self.log.append(event(f"Seat {seat + 1} asks to take back their last move.", table_line=True,
                              take_back="asked", seat=seat))
        if not waiting:
            self._take_back()
            return
        self._refresh_prompts()
        self._broadcast()

    def answer_take_back(self, watcher: Watcher, agree: bool) -> None:
        """One of the others answers: one "no" keeps the move; everyone's "yes" takes it back."""
        asked = self.take_back_asked
        if asked is None or watcher.seat not in asked.waiting:
            raise Refusal("stale", "nobody is asking you to agree to a take-back now")
        if not agree:
            self._keep_the_move(f"Seat {watcher.seat + 1} keeps the move: it is not taken back.")
            return
        asked.waiting.discard(watcher.seat)
        if asked.waiting:
            self._broadcast()
        else:
            self._take_back()

    def take_back_timed_out(self) -> bool:
        """Silence keeps the move: True if the question's time ran out now."""
        asked = self.take_back_asked
        if asked is None or self.turn_clock.now() < asked.deadline:
            return False
        self._keep_the_move("Nobody answered in time: the move stays.")
        return True

    def _keep_the_move(self, line: str) -> None:
        self.take_back_asked = None
        self._last_move = (self._last_move[0], False)  # asked once: the answer stands
        self.turn_clock.resume()
        self.log.append(event(line, table_line=True, take_back="kept"))
        self._refresh_prompts()
        self._broadcast()

    def _take_back(self) -> None:
        """The move asked about undone exactly, or nothing: the game replayed from its seed without it; the
        record keeps the take-back beside the moves, so resume and replays agree. The seat's clock has the
        time it had before that move; every other clock goes on from where it stood."""
        asked = self.take_back_asked
        if asked is None or len(self.actions) != asked.turn or self.actions[-1][0] != asked.seat:
            self._keep_the_move("The move asked about is no longer the last one: nothing is taken back.")
            return
        seat, action = self.actions.pop()
        log_before, _ = self._last_move
        self.taken_back.append({"turn": len(self.actions), "seat": seat, "action": action})
        self.take_back_asked = None
        self.state = self.game.setup(self.options, self.seed)
        for mover, move in self.actions:
            self.game.advance(self.state, mover, dict(move))
        self.log = self.log[:log_before] + [event(f"Seat {seat + 1} took back their last move, as everyone "
                                                  "agreed.", table_line=True, take_back="taken", seat=seat)]
        self._last_move = (len(self.log), False)
        self._refresh_prompts(acted=seat)
        if self._left_before_move is not None and seat in self.game.pending(self.state):
            self.turn_clock.give(seat, self._prompts[seat].id, self._left_before_move)
        self._left_before_move = None
        self.turn_clock.resume()
        if self.save is not None:
            self.save(self.record())
        for watcher in list(self.watchers):  # the log lost lines: everyone is sent it whole again
            self._send_table(watcher, catch_up=True)
        self.tell(f"Seat {seat + 1} took back their last move")

    def _refresh_prompts(self, acted: int | None = None) -> None:
        """A seat's prompt is new when its choices change, and always after it acts (shopping, say,
        may offer the same choices again: an answer to the old prompt must not count twice)."""
        pending = set(self.game.pending(self.state)) if self.started else set()
        for seat, prompt in enumerate(self._prompts):
            legal = self.game.legal_actions(self.state, seat) if seat in pending else []
            if legal != prompt.legal or seat == acted:
                prompt.id += 1
                prompt.legal = legal
        if self.over:
            self.turn_clock.stop()
        else:
            self.turn_clock.sync({seat: self._prompts[seat].id for seat in pending
                                  if self.seats[seat].kind == "player"})

    # ------------------------------------------------------------------------------------------ clock

    def run_clocks(self) -> list[int]:
        """Seats whose turn clock has run out, now that it has: the log says the normal bot makes the move
        for each (and that a bot plays a seat that missed ``AWAY_AFTER`` turns in a row until its player is
        back), and everyone is sent the news. The bot's move itself is made as any bot's is
        (``next_bot``). Never for a bot's seat, before the start or after the end."""
        if not self.started or self.over:
            return []
        out = [seat for seat in self.turn_clock.run_out() if self.seats[seat].kind == "player"]
        if not out:
            return []
        bot = default_bot(self.game)
        for seat in out:
            self.log.append(event(f"Seat {seat + 1}'s time ran out: the {bot} bot makes this move for them.",
                                  clock="ran_out", seat=seat, table_line=True, told_privately=seat))
            # To him, in his own words (issue 43): not his name in the third person
            self.log.append(event(f"Your time ran out: the {bot} bot makes this move for you.", [seat],
                                  clock="ran_out", table_line=True))
            if seat in self.turn_clock.away:
                self.log.append(event(f"Seat {seat + 1} let the clock run out {AWAY_AFTER} turns in a row and "
                                      f"counts as away: a bot plays the seat until they do anything again.",
                                      clock="away", seat=seat, table_line=True))
            self.tell(f"Seat {seat + 1}: the clock ran out" +
                      (" (away: a bot plays it until they are back)" if seat in self.turn_clock.away else ""))
        self._broadcast()
        return out

    def set_away(self, seat: int) -> None:
        """The host's hand-over of an idle seat whose player is still connected: a bot plays it until its
        player does anything at the table, as if his clock had run out turn after turn (he keeps his
        connection and is told)."""
        info = self.seats[seat] if 0 <= seat < len(self.seats) else None
        if info is None or info.kind != "player" or self.over or seat in self.turn_clock.away:
            return
        self.turn_clock.away.add(seat)
        self.log.append(event(f"The host lets a bot play Seat {seat + 1} until they are back.", clock="away",
                              seat=seat, table_line=True))
        self._refresh_prompts()
        for watcher in self.watchers:
            if watcher.seat == seat:
                watcher.send(protocol.encode(host_message("notice", text=(
                    "The host has let a bot play your seat while you are away: press any key at the table "
                    "(or make a move) to take it back."))))
        self._broadcast()
        self.tell(f"Seat {seat + 1}: idle, a bot plays it until they are back")

    def heard_from(self, watcher: Watcher) -> None:
        """A move from a seat, or its app's word that its player is at the keys (``here``): a player a bot
        was playing for (away) has his seat back, and is told so. Chat, answers and pings are not this; and
        only his own move ends his run of missed turns (``TurnClock.moved``)."""
        seat = watcher.seat
        if seat is None or self.seats[seat].kind != "player" or not self.turn_clock.back(seat):
            return
        self.log.append(event(f"Seat {seat + 1} is back: the bot no longer plays for them.", clock="back",
                              seat=seat, table_line=True))
        self._refresh_prompts()
        watcher.send(protocol.encode(host_message("notice", text=(
            "You are back: your seat is yours again, and the bot no longer plays it. The log's lines while "
            "you were away are the bot's moves."))))
        self._broadcast()
        self.tell(f"Seat {seat + 1}: back from away")

    # ---------------------------------------------------------------------------------------- sending

    def _broadcast(self, exclude: Watcher | None = None) -> None:
        """Every watcher's table update."""
        # What every frame shares (seats, result, the new events told in names) is made once; spectators
        # who have been sent the same part of the log get the same bytes, however many they are.
        watchers = [watcher for watcher in self.watchers if watcher is not exclude]
        if not watchers:
            return
        common = self._common_fields()
        told_from = min(watcher.log_sent for watcher in watchers)
        told = self.narrate(self.log[told_from:])
        shared: dict[int, bytes] = {}
        for watcher in watchers:
            events = told[watcher.log_sent - told_from:]
            if watcher.seat is None:
                frame = shared.get(watcher.log_sent)
                if frame is None:
                    frame = shared[watcher.log_sent] = self._table_frame(None, events, False, common)
            else:
                frame = self._table_frame(watcher.seat, events, False, common)
            watcher.log_sent = len(self.log)
            watcher.send(frame)

    def _tell_seats_changed(self, exclude: Watcher | None = None) -> None:
        """A seat filled or changed hands. Before the first move everyone is sent the log again, told with
        the new names: the deal's lines ("Seat 2 deals") were told while the seat was empty, and once the
        game goes on the log only grows. After it, a plain update."""
        if self.actions:
            self._broadcast(exclude)
            return
        for watcher in list(self.watchers):
            if watcher is not exclude:
                self._send_table(watcher, catch_up=True)

    def _send_table(self, watcher: Watcher, catch_up: bool, common: dict[str, Any] | None = None) -> None:
        start = 0 if catch_up else watcher.log_sent
        watcher.log_sent = len(self.log)
        watcher.send(self._table_frame(watcher.seat, self.narrate(self.log[start:]), catch_up, common))

    def _common_fields(self) -> dict[str, Any]:
        """The fields of a table update that are the same for every viewer."""
        result = self.narrated_result()
        fields: dict[str, Any] = {"turn": self.turn, "started": self.started, "seats": self.public_seats(),
                                  "result": result}
        if self.turn_clock.on:
            # Seconds left, not a time of day: a client counts down from when the frame came
            fields["clocks"] = self.turn_clock.seconds_left(len(self.seats))
        if self.turn_clock.on or self.turn_clock.away:  # (the host's B makes a seat away with no clock too)
            fields["away"] = sorted(self.turn_clock.away)
        if result is not None:
            fields["record"] = public_record(self.record())
            # The reveal (issue 33): the secret, the salt and every seat's nonce, now the game is over.
            fields["record"]["fair"] = self.fair.revealed() if self.fair is not None and self.fair.dealt else None
            fields["match"] = self.match.standing(result)
        fields["commitment"] = self.commitment
        if self.fair is not None and not self.fair.dealt:
            left = None if self._share_deadline is None else self._share_deadline - self.turn_clock.now()
            fields["deal"] = self.fair.public(left)
        if self.take_back_asked is not None:
            fields["take_back"] = self.take_back_asked.public(self.turn_clock.now())
        return fields

    def _table_frame(self, seat: int | None, events: list[Event], catch_up: bool,
                     common: dict[str, Any] | None = None) -> bytes:
        """The one place a table update is built: allow-listed fields, this viewer's view, and of the new
        ``events`` (told in names) those ``visible_events`` lets this viewer see."""
        fields: dict[str, Any] = {
            **(common or self._common_fields()), "catch_up": catch_up,
            "view": self.game.view(self.state, seat),
            "events": visible_events(events, seat),
            "prompt": self._prompt_for(seat),
        }
        if self.may_take_back(seat):
            fields["may_take_back"] = True
        frame = protocol.encode(host_message("table", **fields))
        if fields["result"] is None:
            _refuse_seed(frame, self._seed_bytes)
            _refuse_secrets(frame, self._secret_bytes)
        return frame

    def _prompt_for(self, seat: int | None) -> dict[str, Any] | None:
        if seat is None or not self._prompts[seat].legal or self.seats[seat].kind != "player":
            return None
        prompt = self._prompts[seat]
        return {"id": prompt.id, "choices": [{"action": action,
                                              "text": self.game.describe_action(self.state, seat, action)}
                                             for action in prompt.legal]}

    # ------------------------------------------------------------------------------------------- chat

    def say(self, watcher: Watcher, text: str, now: float | None = None) -> None:
        """A chat line from a joined connection, sent to everyone (players and spectators) as ``chat``.

        Refused (``Refusal``) when muted (spectators only), when the text is not 1 to 200 printable
        characters, or when the connection has used up its burst (``chat_too_fast``, with ``retry_after``).
        Chat is not game state: it is not in the record, and a newcomer sees only what is said after him.
        """
        if watcher.seat is None and self.spectators_muted:
            raise Refusal("muted", "the host has muted spectators' chat; players can still talk")
        text = check_chat_text(text)
        wait = watcher.chat.take(time.monotonic() if now is None else now)
        if wait > 0:
            raise Refusal("chat_too_fast", f"you are chatting too fast; the next line can go in {wait:.1f} s",
                          retry_after=round(wait, 1))
        name = self.seats[watcher.seat].name if watcher.seat is not None else watcher.name
        frame = protocol.encode(host_message("chat", **{"from": name, "seat": watcher.seat, "text": text}))
        for other in list(self.watchers):
            other.send(frame)

    def mute_spectators(self, muted: bool = True) -> None:
        """The host's switch for spectators' chat; everyone is told when it changes."""
        if muted == self.spectators_muted:
            return
        self.spectators_muted = muted
        self.notice("The host has muted spectators' chat" if muted else "Spectators may chat again")

    def notice(self, text: str) -> None:
        """A line for everyone at the table (a player stalled, a seat handed to a bot)."""
        frame = protocol.encode(host_message("notice", text=text))
        for watcher in list(self.watchers):
            watcher.send(frame)


def _refuse_seed(frame: bytes, seed_bytes: bytes) -> None:
    """Before the end, no frame may carry the seed anywhere in it (A2): a bug if it does, never sent.

    The seed is a 63-bit number, so its msgpack form is nine bytes no other value shares; finding them in
    the encoded frame is one fast byte search.
    """
    if len(seed_bytes) == 9 and seed_bytes in frame:
        raise LeakError("a frame would carry the seed before the end of the game")


def _refuse_secrets(frame: bytes, secret_bytes: list[bytes]) -> None:
    """Before the end, no frame may carry the fair deal's root, secret or salt (issue 33): with them a
    player could work out the deal. Each is 16 or 32 random bytes, found by one byte search."""
    if any(secret in frame for secret in secret_bytes):
        raise LeakError("a frame would carry the fair deal's secret before the end of the game")
