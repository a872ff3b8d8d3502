"""``TableFrame``: one moment of a table as the client last heard it, for the panes to render.

The client keeps one ``TableSnapshot`` and changes it in place; the screen copies it into a new frame
after every update (the panes never see the client's own, changing copy).
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, fields
from typing import Any

from net.client import TableSnapshot
from net.table.seating import seat_labels
from tui.glyphs import UNICODE, Glyphs


@dataclass
class TableFrame(TableSnapshot):
    """A snapshot copied for drawing, plus what only this screen knows."""

    #: True from sending a choice until the host's next table arrives.
    sent: bool = False
    #: How this terminal draws dice, cards and marks (plain ASCII under ``--ascii``), for the game's hooks.
    glyphs: Glyphs = UNICODE
    #: Why this window can no longer act at the table (it closed, the seat was lost); empty while it can.
    out_of_it: str = ""

    @classmethod
    def from_snapshot(cls, snapshot: TableSnapshot, glyphs: Glyphs = UNICODE) -> "TableFrame":
        return cls(**{item.name: copy.copy(getattr(snapshot, item.name)) for item in fields(snapshot)},
                   glyphs=glyphs)

    @property
    def spectating(self) -> bool:
        return self.seat is None

    @property
    def choices(self) -> list[dict[str, Any]]:
        return list(self.prompt["choices"]) if self.prompt and not self.sent else []

    def answer_seconds_left(self, now: float | None = None) -> float | None:
        """The seconds the open take-back question has left, counted down from the last update (None: no
        question, or the host did not say)."""
        asked = self.take_back or {}
        seconds = asked.get("seconds")
        if not isinstance(seconds, (int, float)) or isinstance(seconds, bool):
            return None
        return max(0.0, float(seconds) - ((time.monotonic() if now is None else now) - self.clocks_at))

    def seconds_left(self, seat: int, now: float | None = None) -> float | None:
        """The seat's clock now; it stands still while a take-back question is open (play waits)."""
        if self.take_back is not None:
            return super().seconds_left(seat, self.clocks_at)
        return super().seconds_left(seat, now)

    def name(self, seat: int | None) -> str:
        """The seat's name as the host reports it ("Ann", "Tom King (normal bot)"), or "Seat N"; with its
        seat where the log names it so ("Ann (seat 2)": two of one name, or a name that reads as another)."""
        if seat is None:
            return "spectator"
        name = self._reported(seat)
        if self._labels()[seat] != self._without_level(seat):
            name += f" (seat {seat + 1})"
        return name

    def plain_name(self, seat: int) -> str:
        """The seat's name without a bot's level ("Moll Cutpurse"), as the log names it ("Ann (seat 2)"
        where two seats are called Ann)."""
        return self._labels()[seat] if 0 <= seat < len(self.seats) else self._reported(seat)

    def owner_name(self, seat: int) -> str:
        """Whose seat it is, for the results: a seat a bot keeps warm is its away player's ("Ann (a bot
        stood in)"), so everyone reads the same winner whether or not she is back."""
        info = self.seats[seat] if 0 <= seat < len(self.seats) else {}
        if not info.get("away_name"):
            return self.name(seat)
        owners = seat_labels([str(other.get("away_name") or self._without_level(number))
                              for number, other in enumerate(self.seats)])
        return f"{owners[seat]} (a bot stood in)"

    def _reported(self, seat: int) -> str:
        if 0 <= seat < len(self.seats) and self.seats[seat].get("name"):
            return str(self.seats[seat]["name"])
        return f"Seat {seat + 1}"

    def _without_level(self, seat: int) -> str:
        name = self._reported(seat)
        if 0 <= seat < len(self.seats) and self.seats[seat].get("kind") == "bot" and name.endswith(" bot)"):
            return name.rsplit(" (", 1)[0]
        return name

    def _labels(self) -> list[str]:
        key = [(seat.get("name"), seat.get("kind")) for seat in self.seats]
        cached = self.__dict__.get("_label_cache")
        if cached is None or cached[0] != key:  # asked for every name drawn: worked out once a seating
            cached = self.__dict__["_label_cache"] = (key, seat_labels(
                [self._without_level(seat) for seat in range(len(self.seats))]))
        return cached[1]

    def is_me(self, seat: int) -> bool:
        return self.seat is not None and seat == self.seat
