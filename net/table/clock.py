"""The turn clock: how long each seat to move has left, who ran out, and who is away.

Each pending player seat has its own deadline (simultaneous phases run one clock per seat), set afresh with
every new prompt of that seat. When a deadline passes, the normal bot makes that one move for the seat (it
*stands in*); a seat that runs out ``AWAY_AFTER`` times in a row is *away*, and a bot plays it until its
player is back (a move of his, or his app saying he is at the keys; only a move ends his run of missed
turns). While play waits (a take-back question) every clock stands still. The clock knows nothing of
sockets or of the game: the table tells it which seats wait on which prompt, and asks it which have run
out. Time comes from ``now`` (injectable: tests drive it by hand, never by waiting).
"""

from __future__ import annotations

import time
from typing import Callable

#: Turns in a row a seat may run out of time before it counts as away.
AWAY_AFTER = 2
#: A LAN table's turn clock unless its host says otherwise: time to think, not to walk away.
LAN_CLOCK_SECONDS = 90.0
#: The longest clock a host may set (a day): a typo must not make a table that never moves on.
MOST_SECONDS = 24 * 60 * 60.0


#: The shortest clock a host may set: under it nobody reads a move and answers it before the bot does.
LEAST_SECONDS = 10.0


def check_clock_seconds(seconds: object) -> float:
    """Seconds of a turn clock (0 = no clock), or ``ValueError`` with words for the host."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not (
            seconds == 0 or LEAST_SECONDS <= seconds <= MOST_SECONDS):
        raise ValueError(f"a turn clock is 0 (none) or {LEAST_SECONDS:g} to {MOST_SECONDS:g} seconds: under "
                         f"{LEAST_SECONDS:g} s nobody can read a move and answer it")
    return float(seconds)


class TurnClock:
    """Deadlines per seat, in ``now``'s time; off when ``seconds`` is 0."""

    def __init__(self, seconds: float = 0.0, now: Callable[[], float] = time.monotonic) -> None:
        self.seconds = check_clock_seconds(seconds)
        self.now = now
        #: seat → (the prompt id it runs for, its deadline)
        self._deadlines: dict[int, tuple[int, float]] = {}
        #: seat → turns in a row it ran out of time
        self.missed: dict[int, int] = {}
        #: Seats the normal bot moves for once (their time ran out on this prompt).
        self.standing_in: set[int] = set()
        #: Seats a bot plays until their player is back (``back``).
        self.away: set[int] = set()
        #: When play began to wait (a take-back question open), in ``now``'s time; None while it runs.
        self.paused_at: float | None = None

    @property
    def on(self) -> bool:
        return self.seconds > 0

    def _now(self) -> float:
        """The clocks' time: it stands still while play waits (``pause``)."""
        return self.now() if self.paused_at is None else self.paused_at

    def pause(self) -> None:
        """Play waits (a take-back question is open): no clock runs down until ``resume``."""
        if self.paused_at is None:
            self.paused_at = self.now()

    def resume(self) -> None:
        """Play goes on: every clock has what it had when play began to wait."""
        if self.paused_at is None:
            return
        waited = self.now() - self.paused_at
        self.paused_at = None
        self._deadlines = {seat: (prompt, deadline + waited) for seat, (prompt, deadline) in self._deadlines.items()}

    def left(self, seat: int) -> float | None:
        """Seconds the seat's clock has now, or None if none runs for it."""
        if seat not in self._deadlines or seat in self.standing_in:
            return None
        return max(0.0, self._deadlines[seat][1] - self._now())

    def give(self, seat: int, prompt: int, seconds: float) -> None:
        """The seat's clock for ``prompt`` has ``seconds`` (a move taken back: the time it had before)."""
        if self.on and seat in self._deadlines and seat not in self.away:
            self._deadlines[seat] = (prompt, self._now() + min(seconds, self.seconds))

    def to_record(self) -> dict[str, list[list[int]] | list[int]]:
        """Who is away and each seat's run of missed turns, for the record: a resumed table keeps them."""
        return {"away": sorted(self.away), "missed": sorted([seat, count] for seat, count in self.missed.items())}

    def restore(self, saved: dict[str, list] | None, seats: int) -> None:
        """The record's ``to_record`` (checked by ``net.record.check_record``); seats past ``seats`` ignored."""
        if not saved:
            return
        self.away = {seat for seat in saved.get("away", []) if 0 <= seat < seats}
        self.missed = {seat: count for seat, count in saved.get("missed", []) if 0 <= seat < seats}

    def sync(self, waiting: dict[int, int]) -> None:
        """``waiting``: each player seat the game waits for → the id of its prompt. A seat on a new prompt
        gets a full clock; a seat no longer waited for has none. Away seats have none: a bot plays them."""
        if not self.on:
            return
        for seat in list(self._deadlines):
            if seat not in waiting or seat in self.away:
                del self._deadlines[seat]
        for seat, prompt in waiting.items():
            if seat in self.away:
                continue
            if self._deadlines.get(seat, (None, 0.0))[0] != prompt:
                self._deadlines[seat] = (prompt, self._now() + self.seconds)

    def stop(self) -> None:
        """No clock runs any more (the game is over); nobody is left standing in for."""
        self._deadlines.clear()
        self.standing_in.clear()

    def seconds_left(self, seats: int) -> list[float | None]:
        """Per seat, the seconds its clock has left (whole tenths, never below 0), or None if none runs."""
        now = self._now()
        left: list[float | None] = [None] * seats
        for seat, (_, deadline) in self._deadlines.items():
            if seat < seats and seat not in self.standing_in:
                left[seat] = round(max(0.0, deadline - now), 1)
        return left

    def next_deadline(self) -> float | None:
        """When the next clock runs out (``now``'s time), or None if none runs (or play waits)."""
        if self.paused_at is not None:
            return None
        running = [deadline for seat, (_, deadline) in self._deadlines.items() if seat not in self.standing_in]
        return min(running, default=None)

    def run_out(self) -> list[int]:
        """Seats whose time has just run out (each counted once per prompt): the bot stands in for each,
        and a seat that has run out ``AWAY_AFTER`` times in a row is now away. None while play waits."""
        if self.paused_at is not None:
            return []
        now = self.now()
        out = sorted(seat for seat, (_, deadline) in self._deadlines.items()
                     if deadline <= now and seat not in self.standing_in)
        for seat in out:
            self.missed[seat] = self.missed.get(seat, 0) + 1
            self.standing_in.add(seat)
            if self.missed[seat] >= AWAY_AFTER:
                self.away.add(seat)
        return out

    def moved(self, seat: int, by_player: bool) -> None:
        """The seat's move was made: by its player (his run of missed turns ends) or by a bot."""
        self.standing_in.discard(seat)
        if by_player:
            self.missed.pop(seat, None)

    def back(self, seat: int) -> bool:
        """The seat's player is at the table again: he is no longer away (True if he was). His run of missed
        turns ends only with a move of his own (``moved``): a message that is not a move, sent each turn,
        must not let him use up the whole clock every turn."""
        if seat in self.away:
            self.away.discard(seat)
            self.standing_in.discard(seat)
            return True
        return False

    def forget(self, seat: int) -> None:
        """The seat changed hands (a bot for good, or a new player): nothing of the old player's counts."""
        self._deadlines.pop(seat, None)
        self.missed.pop(seat, None)
        self.standing_in.discard(seat)
        self.away.discard(seat)
