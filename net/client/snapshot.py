"""What the client knows of its table: the snapshot the UI renders, and the updates it hears of.

Invariants:

- The snapshot holds only what the host last sent, after ``net.untrusted`` and the protocol's shape check;
  a field a host may fill with anything (seat lists, the take-back, the clocks) keeps only what can be used.
- The log is replaced on a catch-up (and ``catch_ups`` counts it) and grows otherwise; chat keeps its last
  ``CHAT_KEPT`` lines, across reconnects.
- A new frame replaces a field's value, never edits it in place (chat alone grows in place): so a shallow
  copy (``as_of_now``) stays what it was when taken, and an update can carry one to whoever draws it.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Any

from net.fairness import Verdict
from net.table.match import standing_sent

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
    #: The last move may still be taken back by whoever made it (anyone's, unlike ``may_take_back``).
    take_back_open: bool = False
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

    def as_of_now(self) -> TableSnapshot:
        """This snapshot as it stands, untouched by the frames that come later."""
        return dataclasses.replace(self, chat=list(self.chat))

    def take_table(self, message: dict[str, Any]) -> None:
        """Take in a ``table`` frame: the view, prompt, seats and log as the host sent them."""
        self.turn, self.started, self.view = message["turn"], message["started"], message["view"]
        self.prompt, self.seats = message["prompt"], message["seats"]
        self.result, self.record = message["result"], message.get("record")
        self.match = standing_sent(message.get("match"), len(self.seats) if isinstance(self.seats, list) else 0)
        deal = message.get("deal")
        self.deal = deal if isinstance(deal, dict) else None
        asked = message.get("take_back")
        self.take_back = asked if isinstance(asked, dict) and isinstance(asked.get("seat"), int) \
            and isinstance(asked.get("waiting"), list) else None
        self.may_take_back = message.get("may_take_back") is True
        self.take_back_open = message.get("take_back_open") is True
        clocks = message.get("clocks")
        self.clocks = list(clocks) if isinstance(clocks, list) else None
        self.clocks_at = time.monotonic()
        away = message.get("away")  # a host's bytes are untrusted: only whole seat numbers count
        self.away = _seats_in(away)
        self.idle = _seats_in(message.get("idle"))
        if message["catch_up"]:
            self.log, self.catch_ups = list(message["events"]), self.catch_ups + 1
        else:
            self.log = self.log + message["events"]

    def take_chat(self, message: dict[str, Any]) -> dict[str, Any]:
        """Keep a ``chat`` frame's line (the oldest beyond ``CHAT_KEPT`` go), and return it."""
        line = {"from": message["from"], "seat": message.get("seat"), "text": message["text"]}
        self.chat.append(line)
        del self.chat[:-CHAT_KEPT]
        return line


@dataclass(frozen=True)
class ClientUpdate:
    """What just happened: ``kind`` is one of ``connected``, ``welcome``, ``table``, ``error``, ``notice``,
    ``chat``, ``disconnected`` or ``stopped``; ``text`` says it in words (for ``chat``: "name: text");
    ``message`` is the host's message if any; ``snapshot`` is the table as this update left it (on
    ``welcome``, ``table`` and ``error``), for the screen to draw."""

    kind: str
    text: str = ""
    message: dict[str, Any] | None = None
    snapshot: TableSnapshot | None = None


def _seats_in(value: Any) -> list[int]:
    """The seat numbers in a host's list (anything else in it, or no list, counts for nothing)."""
    return [seat for seat in value if isinstance(seat, int) and not isinstance(seat, bool)] \
        if isinstance(value, list) else []
