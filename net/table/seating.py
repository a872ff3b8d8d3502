"""A table's seats and connections: who sits where, how the log names them, their tokens and room codes,
who joins and leaves, and the bot that takes a seat nobody chose one for.

Invariants:

- One live connection per seat: the newest wins, the old one is told and dropped.
- A seat token is compared in constant time, and stops working once its seat is handed to a bot for good;
  a bot keeping the seat warm steps aside for it.
- A new player's token is saved in the record before he is welcomed, so that a crash cannot lock him out.
- Names are printable, and the log names a seat so that it can mean only him (``seat_labels``).
"""

from __future__ import annotations

import hmac
import re
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from core.bots import DEFAULT_BOT
from core.engine import Game, seat_name
from net import protocol
from net.protocol import error_message, host_message
from net.refusals import Refusal, check_protocol
from net.table import pipeline
from net.table.chat import ChatBucket
from net.untrusted import player_name, printable

if TYPE_CHECKING:
    from net.table.table import Table

#: Letters for room codes: no 0/O or 1/I/L to misread across a room.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: Bots take the names of famous highwaymen, one per seat, so a table of bots can be told apart.
BOT_NAMES = ("Tom King", "Moll Cutpurse", "Claude Duval", "Swift Nick", "Jerry Abershaw", "Jack Sheppard")
TOKEN_BYTES = 24  # 192 bits: past guessing, and past the 128 a guess-proof token needs


def default_bot(game: Game) -> str:
    """The bot that takes a seat when nobody names one, and a move when a seat's own bot fails: the
    normal level if the game has it."""
    return DEFAULT_BOT if DEFAULT_BOT in game.bots else next(iter(game.bots))


def printable_name(name: str | None) -> str:
    """A player's name as others will see it: printable characters only (no terminal escapes), at most
    ``NAME_LIMIT``."""
    return printable(name or "").strip()[:protocol.NAME_LIMIT]


#: Names that would make a log line read as if it meant someone else.
MISLEADING_NAMES = frozenset({"you", "your", "spectator", "nobody", "everyone", "the rival"})
SEAT_NUMBER_IN_NAME = re.compile(r"(?i)\b(?:seat|player)\s*#?\s*(\d+)")


def seat_labels(names: list[str]) -> list[str]:
    """How the log names each seat (``""`` for an open one): by its name where that can mean only him,
    else by the name and the seat, "Ann (seat 2)": two seats of one name, a name that reads as another
    seat ("Seat 3", "Player 1") or as someone else ("You")."""
    folded = [name.casefold() for name in names]
    labels = []
    for seat, name in enumerate(names):
        if not name:
            labels.append(seat_name(seat))
            continue
        ambiguous = (folded.count(folded[seat]) > 1 or folded[seat] in MISLEADING_NAMES
                     or any(int(number) != seat + 1 for number in SEAT_NUMBER_IN_NAME.findall(name)))
        labels.append(f"{name} (seat {seat + 1})" if ambiguous else name)
    return labels


def new_room_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass
class SeatInfo:
    """Who sits in a seat: nobody yet (``open``), a person (``player``) or a ``bot``."""

    kind: str = "open"
    name: str = ""
    bot: str | None = None
    token: str | None = None
    connected: bool = False
    #: ``time.monotonic()`` when its player was last lost; the host hands it to a bot after the grace.
    gone_since: float | None = None
    #: A bot that keeps the seat warm (the grace ran out) keeps its player's token and name here: his
    #: token takes the seat back from the bot.
    away_name: str | None = None

    def public(self, seat: int) -> dict[str, Any]:
        shown = {"seat": seat, "kind": self.kind, "name": self.name, "connected": self.connected or self.kind == "bot"}
        if self.away_name is not None:  # a bot keeps the seat warm for its player: whose seat it is
            shown["away_name"] = self.away_name
        return shown

    @property
    def name_in_the_log(self) -> str:
        """The name the log tells: a bot's without its level ("Moll Cutpurse"; the players' list and the
        results say "(normal bot)"), since three bots' levels in one line wrapped it twice at 80 columns."""
        if self.kind == "bot" and self.bot:
            return self.name.removesuffix(f" ({self.bot} bot)")
        return self.name


@dataclass(eq=False)
class Watcher:
    """One joined connection: a seat's player or a spectator (``seat is None``)."""

    send: Callable[[bytes], None]
    seat: int | None
    #: Events of the log this watcher has already been sent (index into ``Table.log``).
    log_sent: int = 0
    alive: bool = True
    #: Called when the table drops this watcher itself (replaced by a newer connection, seat handed over).
    on_drop: Callable[[], None] | None = None
    #: How this connection is named in chat: its seat's name, or the spectator's own (printable) name.
    name: str = ""
    chat: "ChatBucket" = field(default_factory=lambda: ChatBucket())
    #: Set when the connection said ``bye``: its player left, rather than lost the table.
    said_bye: bool = False

    def drop(self, frame: bytes) -> None:
        self.send(frame)
        self.alive = False
        if self.on_drop is not None:
            self.on_drop()


class Seating:
    """Who joins ``table``, sits where, comes back and leaves."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def taken(self) -> int:
        return sum(seat.kind != "open" for seat in self.table.seats)

    def waiting(self) -> int:
        """Seats held for a player whose connection is gone: taken, but not by anyone at the table now."""
        table = self.table
        return 0 if table.over else sum(seat.kind == "player" and not seat.connected for seat in table.seats)

    def public(self) -> list[dict[str, Any]]:
        """Every seat as every frame shows it."""
        return [info.public(seat) for seat, info in enumerate(self.table.seats)]

    def labels(self) -> list[str]:
        """How the table's log names each seat now (``seat_labels`` of the seats' names)."""
        return seat_labels([info.name_in_the_log if info.kind != "open" else "" for info in self.table.seats])

    def join(self, send: Callable[[bytes], None], hello: dict[str, Any],
             on_drop: Callable[[], None] | None = None) -> Watcher:
        """Seat or seat-again a player, or add a spectator; send the welcome and the catch-up. A player
        with no token has passed the room code already (``Table.check_code``)."""
        table = self.table
        check_protocol(hello)
        stood_in = None  # the bot that kept the seat warm, if one did
        seat: int | None
        if hello["role"] == "spectator":
            seat = None
        elif hello.get("token"):
            seat, stood_in = self._seat_of_token(hello["token"])
            if hello.get("take_over") is False and any(w.seat == seat and w.alive for w in table.watchers):
                # A token kept on disk (another window of the same terminal) does not push out the window
                # playing the seat now: a second `turpin join` on the host's machine must not take his seat
                raise Refusal("seat_in_use", "this seat is being played from another window right now")
        else:
            seat = self._free_seat(hello.get("seat"))
            info = table.seats[seat]
            info.kind, info.token = "player", new_token()
            info.name = player_name(hello.get("name")) or f"Player {seat + 1}"
            if table.fair is not None:
                table.fair.forget(seat)  # a pledge from the seat's last player is not this one's
            table.turn_clock.forget(seat)
        name = table.seats[seat].name if seat is not None else player_name(hello.get("name")) or "Spectator"
        watcher = Watcher(send, seat, on_drop=on_drop, name=name, chat=ChatBucket(last=table.now()))
        if seat is not None:
            self._replace_connection(seat)
            info = table.seats[seat]
            info.connected, info.gone_since = True, None
            pipeline.refresh_prompts(table)
            table.deal.advance()
            if hello.get("token") is None:
                table._save()  # the new token must survive a crash, or he could not come back
        table.watchers.append(watcher)
        watcher.send(table.frames.welcome(seat, hello["role"]))
        table.frames.send_table(watcher, catch_up=True)
        if stood_in is not None:
            # The seat's own lines in the log ("You chose the tavern") are the bot's moves: said to him.
            watcher.send(protocol.encode(host_message("notice", text=(
                f"While you were away {stood_in} played your seat: the log's lines since then, "
                "yours among them, are its moves. Your seat is yours again."))))
        if seat is not None:
            table.frames.seats_changed(exclude=watcher)
            table._seats_changed()
            name = table.seats[seat].name
            table.tell(f"Seat {seat + 1}: {name} is back" if hello.get("token") else
                       f"Seat {seat + 1}: {name} sat down")
        return watcher

    def _seat_of_token(self, token: str) -> tuple[int, str | None]:
        """The seat the token is for, and the name of the bot that kept it warm meanwhile (if one did)."""
        table = self.table
        for seat, info in enumerate(table.seats):
            if info.token and hmac.compare_digest(info.token.encode(), token.encode()):
                stood_in = None
                if info.kind == "bot":  # a bot kept it warm while its player was away: it steps aside
                    stood_in = info.name_in_the_log
                    info.kind, info.bot, info.name = "player", None, info.away_name or f"Player {seat + 1}"
                    info.away_name = None
                    table._save()
                return seat, stood_in
        raise Refusal("bad_token", "that seat token is not known at this table (the seat may have been "
                                   "handed to a bot); join again as a new player or watch")

    def _free_seat(self, wanted: int | None) -> int:
        seats = self.table.seats
        if wanted is not None:
            if not 0 <= wanted < len(seats):
                raise Refusal("no_such_seat", f"this table has seats 1 to {len(seats)}; there is no "
                                              f"seat {wanted + 1}")
            if seats[wanted].kind != "open":
                raise Refusal("no_such_seat", f"seat {wanted + 1} is taken; choose another, or any free one")
            return wanted
        for seat, info in enumerate(seats):
            if info.kind == "open":
                return seat
        raise Refusal("table_full", "every seat at this table is taken; you can still watch as a spectator")

    def _replace_connection(self, seat: int) -> None:
        """One live connection per seat: the newest wins, the old one is told and dropped."""
        self.drop_seat(seat, "replaced", "this seat was taken over by a newer connection (did you join twice?)")

    def drop_seat(self, seat: int, code: str, why: str) -> None:
        """The seat's connections are told ``why`` and dropped."""
        table = self.table
        for old in [w for w in table.watchers if w.seat == seat]:
            table.watchers.remove(old)
            old.drop(protocol.encode(error_message(code, why)))

    def leave(self, watcher: Watcher) -> None:
        """A connection is gone; its seat waits for the player to come back (or for the grace period)."""
        table = self.table
        if watcher in table.watchers:
            table.watchers.remove(watcher)
        watcher.alive = False
        seat = watcher.seat
        if seat is None or table.seats[seat].kind != "player" or any(w.seat == seat for w in table.watchers):
            return
        info = table.seats[seat]
        info.connected, info.gone_since = False, time.monotonic()
        table.frames.broadcast()
        table._seats_changed()
        if table.over:  # nothing waits any more: never "the seat waits for them" after the result
            then = "the game is over"
        elif table.grace is None:
            then = "the seat waits for them"
        else:
            then = f"a bot plays the seat after {table.grace:g} s, until they come back"
        table.tell(f"Seat {seat + 1}: {info.name} {'left' if watcher.said_bye else 'was lost'} ({then})")
        gone = "has left the table" if watcher.said_bye else "has lost the table"
        label = self.labels()[seat]  # "Ann (seat 2)" where two are called Ann
        table.notice(f"{label} {gone}" + ("." if table.over else f"; {then}"))

    def reseat(self, order: list[int]) -> set[int]:
        """Everyone to new seats: ``order[new_seat]`` is the seat he sat in (the match's people are moved
        by the caller); returns the watchers that moved (by id), to be welcomed to their new seats."""
        table = self.table
        table.seats[:] = [table.seats[old] for old in order]
        moved = set()
        for watcher in table.watchers:
            if watcher.seat is not None:
                watcher.seat = order.index(watcher.seat)
                moved.add(id(watcher))
        return moved
