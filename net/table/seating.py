"""A table's seats and connections: who sits where, how the log names them, their tokens and room
codes, and the bot that takes a seat nobody chose one for."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from typing import Any, Callable

from core.bots import DEFAULT_BOT
from core.engine import Game, seat_name
from net import protocol
from net.table.chat import ChatBucket
from net.untrusted import printable

#: Letters for room codes: no 0/O or 1/I/L to misread across a room.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: Bots take the names of famous highwaymen, one per seat, so a table of bots can be told apart.
BOT_NAMES = ("Tom King", "Moll Cutpurse", "Claude Duval", "Swift Nick", "Jerry Abershaw", "Jack Sheppard")
TOKEN_BYTES = 24  # 192 bits: past guessing, and past the 128 the design asks for


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
