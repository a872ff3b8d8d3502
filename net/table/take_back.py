"""Undo with consent (issue 34): a player asks to take back his last move; every other person at the
table is asked, bots always agree, and one "no" (or no answer in time) keeps the move. The table checks
the game's own ``can_take_back`` (nothing hidden revealed, no chance drawn) and that the move is the last
one made; this module holds the question while it is open."""

from __future__ import annotations

from dataclasses import dataclass, field

#: Seconds the others have to answer; silence keeps the move.
ANSWER_SECONDS = 30.0


@dataclass
class TakeBackAsked:
    """An open question: ``seat`` asks to take back the move that made the table's turn ``turn``."""

    seat: int
    turn: int
    deadline: float
    #: The seats still to answer (people only: a bot agrees at once).
    waiting: set[int] = field(default_factory=set)

    def public(self, now: float) -> dict[str, object]:
        """What every frame says of it: who asks, who has still to answer, and the seconds they have
        (``now`` in the deadline's time)."""
        return {"seat": self.seat, "waiting": sorted(self.waiting), "seconds": round(max(0.0, self.deadline - now), 1)}
