"""``TableFrame``: one moment of a table as the client last heard it, for the panes to render.

The client keeps one ``TableSnapshot`` and changes it in place; the app copies it into a new frozen
frame after every update, so a reactive attribute holding the frame changes each time.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from net.client import TableSnapshot


@dataclass(frozen=True)
class TableFrame:
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
    result: dict[str, Any] | None = None
    record: dict[str, Any] | None = None
    #: True from sending a choice until the host's next table arrives.
    sent: bool = False

    @classmethod
    def from_snapshot(cls, snapshot: TableSnapshot) -> "TableFrame":
        return cls(game=snapshot.game, title=snapshot.title, table=snapshot.table, role=snapshot.role,
                   seat=snapshot.seat, options=dict(snapshot.options), turn=snapshot.turn,
                   started=snapshot.started, view=copy.deepcopy(snapshot.view), prompt=snapshot.prompt,
                   seats=list(snapshot.seats), log=list(snapshot.log), result=snapshot.result,
                   record=snapshot.record)

    @property
    def spectating(self) -> bool:
        return self.seat is None

    @property
    def choices(self) -> list[dict[str, Any]]:
        return list(self.prompt["choices"]) if self.prompt and not self.sent else []

    def name(self, seat: int | None) -> str:
        """The seat's name as the host reports it ("Ann", "Tom King (sharp bot)"), or "Seat N"."""
        if seat is None:
            return "spectator"
        if 0 <= seat < len(self.seats) and self.seats[seat].get("name"):
            return str(self.seats[seat]["name"])
        return f"Seat {seat + 1}"

    def is_me(self, seat: int) -> bool:
        return self.seat is not None and seat == self.seat
