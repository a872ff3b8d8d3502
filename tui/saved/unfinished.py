"""A game against bots left before its end (turpin closed, the terminal or the SSH session lost, or the
player stood up): the menu offers to go on with it, rebuilt from its record as a crashed host's table is.

Only the newest game against bots that the player made a move in is offered: once it is over (or a newer
one is played), older ones are left to the replays.
"""

from __future__ import annotations

import pathlib
import time
from dataclasses import dataclass
from typing import Any

from net.record import RECORD_SUFFIX

#: The record's ``meta`` mark of a private table against bots (``HostedTable.start`` sets it).
AGAINST_BOTS = "against_bots"


@dataclass
class UnfinishedGame:
    """The record of a game against bots that is not over, and what the menu says of it."""

    path: pathlib.Path
    record: dict[str, Any]
    title: str
    players: int
    moves: int
    saved: float
    #: Being played in another turpin window right now (its record held): not this window's to go on with.
    in_use: bool = False
    #: The table rebuilt from the record (``net.table.table.Table``), ready to be served again.
    table: Any = None

    def describe(self) -> str:
        """"Dick Turpin, 4 players, 37 moves in (left at 14:05)"."""
        from core.engine import quantity
        when = time.strftime("%H:%M" if time.time() - self.saved < 20 * 3600 else "%d %b %H:%M",
                             time.localtime(self.saved))
        return f"{self.title}, {quantity(self.players, 'player')}, {quantity(self.moves, 'move')} in (left at {when})"

    @property
    def seat(self) -> int:
        """The person's seat: the one seat of the table not a bot's."""
        return next(number for number, seat in enumerate(self.record["seats"]) if seat["kind"] != "bot")

    @property
    def token(self) -> str | None:
        return self.record["seats"][self.seat].get("token")


def last_game_against_bots(folder: pathlib.Path) -> UnfinishedGame | None:
    """The newest game against bots in ``folder`` that its player made a move in, if it is not over (marked
    ``in_use`` while another window plays it); None otherwise. The records are read only if there are any:
    the menu asks as it opens, and the engines and the host's table load only for a record to replay."""
    from net.record import RecordError, read_record, record_in_use
    try:
        paths = sorted((path for path in folder.iterdir() if path.name.endswith(RECORD_SUFFIX)),
                       key=_saved, reverse=True)
    except OSError:
        return None
    for path in paths:
        try:
            record = read_record(path)
        except RecordError:
            continue
        if (record.get("meta") or {}).get(AGAINST_BOTS) and a_person_moved(record):
            found = _unfinished(path, record)
            if found is not None and record_in_use(path):
                found.in_use = True
            return found
    return None


def unfinished_game_at(path: pathlib.Path) -> UnfinishedGame | None:
    """The game at ``path`` read afresh, if it is still unfinished and free: an offer made when the menu
    opened may be stale by the time it is taken (the game played to its end in another window, say), and
    going on from the old offer must not write the old position over its record."""
    from net.record import RecordError, read_record, record_in_use
    try:
        record = read_record(path)
    except RecordError:
        return None
    return None if record_in_use(path) else _unfinished(path, record)


def a_person_moved(record: dict[str, Any]) -> bool:
    """Whether a person (not a bot) made a move in the recorded game, or it had no person at all. A game
    left before the player's first move holds only the bots' opening moves: it is not offered, nor does it
    push aside the game before it, nor is it listed in the replays."""
    people = {number for number, seat in enumerate(record["seats"]) if seat["kind"] != "bot"}
    return not people or any(seat in people for seat, _ in record["actions"])


def _unfinished(path: pathlib.Path, record: dict[str, Any]) -> UnfinishedGame | None:
    from core.registry import all_games
    from net.table.table import Table
    game = all_games().get(record["game"])
    if game is None or not record["actions"]:
        return None
    try:
        table = Table.from_record(game, record)
    except Exception:  # a record this turpin cannot replay (RecordError, or an older engine's): not offered
        return None
    if game.result(table.state) is not None or sum(seat["kind"] != "bot" for seat in record["seats"]) != 1:
        return None
    return UnfinishedGame(path, record, game.title, len(record["seats"]), len(record["actions"]), _saved(path),
                          table=table)


def _saved(path: pathlib.Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
