"""Replays: a game record read back step by step, as a spectator would have seen the table.

A record (``net/record.py``) holds the seed, the options, the seats and every accepted action; the table
after ``step`` actions is ``Table.from_record`` of the first ``step`` of them. Each frame is what the host
sends a spectator (the public view, the log in names, and at the end the result with its full reveal), so
a replay shows nothing a spectator could not have seen, and the game's own panes draw it.
"""

from __future__ import annotations

import os
import pathlib
import time
from dataclasses import dataclass
from typing import Any

from core.engine import visible_events
from core.registry import all_games
from net.fairness import CHECK_SUFFIX, FairnessError, read_evidence
from net.record import RECORD_SUFFIX, RecordError, check_record, public_record, read_record
from net.table.seating import default_bot
from net.table.table import Table
from tui.frame import TableFrame
from tui.glyphs import UNICODE, Glyphs
from tui.saved.unfinished import a_person_moved


@dataclass
class RecordFile:
    """One record as the replays list shows it."""

    path: pathlib.Path
    game: str
    title: str
    table: str
    players: list[str]
    actions: int
    saved: float

    @property
    def when(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.saved))


def read_game(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The game record at ``path``: a host's record, or the game a player's saved check holds (a game
    played at someone else's table is his too). ``RecordError`` in words for anything else."""
    return _read_game(path)[0]


def _read_game(path: str | os.PathLike[str]) -> tuple[dict[str, Any], int | None]:
    """``read_game``, and the seat whose view a saved check holds (None for a host's record)."""
    if not str(path).endswith(CHECK_SUFFIX):
        return read_record(path), None
    name = pathlib.Path(path).name
    try:
        _, evidence = read_evidence(path)
    except FairnessError as error:
        raise RecordError(str(error)) from None
    # The game's record comes with its end (A2): the last frame's, checked as any record is
    last = evidence.last_frame()  # (the record comes with the result, in the game's last frame)
    final = last.get("record") if isinstance(last.get("record"), dict) else None
    if final is None:
        raise RecordError(f"{name} holds no finished game: its record is revealed only at the end")
    # (its "fair" is the reveal, which ``turpin verify`` checks against the frames; a replay needs the seed)
    record = {**final, "fair": None,
              "table": pathlib.Path(path).name.removesuffix(CHECK_SUFFIX)[:60] or "saved check"}
    game = all_games().get(str(record.get("game")))
    if game is not None and isinstance(record.get("seats"), list):
        # The revealed record names who sat where, not the bots' levels (a replay never asks a bot)
        record["seats"] = [{**seat, "bot": default_bot(game)} if isinstance(seat, dict) and seat.get("kind") == "bot"
                           else seat for seat in record["seats"]]
    check_record(record)
    seat = evidence.seat if evidence.seat is not None and 0 <= evidence.seat < len(record["seats"]) else None
    return record, seat


def list_records(folder: pathlib.Path) -> list[RecordFile]:
    """Every readable record of a registered game in ``folder``, newest first; others are passed over."""
    games = all_games()
    found: list[RecordFile] = []
    try:
        paths = [path for path in folder.iterdir() if path.name.endswith((RECORD_SUFFIX, CHECK_SUFFIX))]
    except OSError:
        return []
    for path in paths:
        try:
            record = read_game(path)
            saved = path.stat().st_mtime
        except (RecordError, OSError):
            continue
        game = games.get(record["game"])
        if game is None or not record["actions"] or not a_person_moved(record):
            continue  # not ours, or closed before anyone at it made a move: nothing worth replaying
        players = [str(seat.get("name") or f"Seat {number + 1}") for number, seat in enumerate(record["seats"])]
        found.append(RecordFile(path, game.id, game.title, str(record["table"]), players,
                                len(record["actions"]), saved))
    return sorted(found, key=lambda entry: entry.saved, reverse=True)


def outcome_in_words(path: pathlib.Path) -> str:
    """Who won the recorded game, as the results screen names them ("the rival" of a solo game too);
    "unfinished" for a game that stopped before its end."""
    from tui.games import panes_for
    replay = Replay(path)
    frame = replay.frame(replay.steps)
    if frame.result is None:
        return "unfinished"
    others = panes_for(frame.game).others_in_the_result(frame)
    winners = [frame.plain_name(seat) for seat in frame.result.get("winners", [])]  # no "(normal bot)"
    winners += [name for name, _, won in others if won]
    if not winners:
        return "nobody won"
    return f"{' and '.join(winners)} won" if len(winners) <= 2 else f"{', '.join(winners)} tied"


class Replay:
    """A record and the table at any step of it; ``frame(step)`` is that moment as a spectator saw it."""

    def __init__(self, path: str | os.PathLike[str], glyphs: Glyphs = UNICODE) -> None:
        self.path = pathlib.Path(path)
        self.record, self.seat = _read_game(self.path)  # seat: whose saved check this is, if one
        game = all_games().get(self.record["game"])
        if game is None:
            raise RecordError(f"{self.path.name} is a game of {self.record['game']!r}, which this turpin "
                              f"does not have")
        self.game = game
        self.glyphs = glyphs
        self.steps = len(self.record["actions"])
        self._finished: bool | None = None

    def table_at(self, step: int) -> Table:
        """The table after ``step`` actions, rebuilt from the record as a resumed host rebuilds it."""
        step = max(0, min(step, self.steps))
        return Table.from_record(self.game, {**self.record, "actions": self.record["actions"][:step]})

    @property
    def finished(self) -> bool:
        """Whether the record plays its game to the end: then every seat's view may be shown (A2)."""
        if self._finished is None:
            table = self.table_at(self.steps)
            self._finished = not self.game.pending(table.state)
        return self._finished

    def frame(self, step: int, seat: int | None = None) -> TableFrame:
        """The table after ``step`` actions as the spectator saw it, or as ``seat`` saw it: a seat's view
        only of a finished game, whose secrets the end revealed to everyone."""
        if seat is not None and not self.finished:
            raise ValueError("a seat's view of a game that has not ended would show its secrets")
        table = self.table_at(step)
        result = table.narrated_result()
        return TableFrame(
            game=self.game.id, title=self.game.title, table=table.name,
            role="spectator" if seat is None else "player", seat=seat,
            options=dict(table.options), turn=table.turn, started=table.started,
            view=self.game.view(table.state, seat), prompt=None,
            # Everyone was at the table when the game was played; nobody is "away" in its replay.
            seats=[{**seat_, "connected": seat_["kind"] != "open"} for seat_ in table.seating.public()],
            log=table.narrate(visible_events(table.log, seat)), result=result,
            record=public_record(table.record()) if result is not None else None, glyphs=self.glyphs)

    def describe(self) -> dict[str, Any]:
        return {"game": self.game.title, "table": self.record["table"], "actions": self.steps}


def seat_names(record: dict[str, Any]) -> list[str]:
    """Who sat in each seat of a record: the name, or "Seat N" with its bot's level; a name two seats
    share carries its seat's number ("root (seat 2)")."""
    names = []
    for number, seat in enumerate(record["seats"], start=1):
        name = seat.get("name") or seat.get("away_name")
        if not name:
            name = f"Seat {number}" + (f" ({seat['bot']} bot)" if seat.get("bot") else "")
        names.append(name)
    return [f"{name} (seat {number})" if names.count(name) > 1 else name for number, name in enumerate(names, 1)]


def bot_seats(record: dict[str, Any]) -> list[bool]:
    """Which seats a bot played: the review speaks of them by name, not as "you"."""
    return [seat.get("kind") == "bot" for seat in record["seats"]]
