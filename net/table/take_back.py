"""Take-back with consent: a player asks to take back his last move; every other person at the table is
asked, bots always agree, and one "no" (or no answer in ``ANSWER_SECONDS``) keeps the move.

Invariants:

- Only the table's last move may be taken back, by the seat that made it, made by its player (not a bot
  for him), when the game's ``can_take_back`` says it revealed nothing and drew no chance, and while no
  other question is open.
- While a question is open play waits: no move is taken, no bot moves, every clock stands still.
- A move is taken back exactly or not at all: the game is replayed from its seed without it, the record
  keeps the take-back beside the moves (so resume and replays agree), and the seat's clock has the time
  it had before that move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from core.engine import event
from net.refusals import Refusal
from net.table import pipeline
from net.table.seating import Watcher

if TYPE_CHECKING:
    from net.table.table import Table

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


class TakeBacks:
    """The take-back question of ``table``'s game, and what the last move allows."""

    def __init__(self, table: Table) -> None:
        self.table = table
        #: Questions asked at this table over all its games (a bot's decision asked before one is stale).
        self.questions = 0
        self.new_game()

    def new_game(self) -> None:
        #: A take-back asked and not yet answered by everyone.
        self.asked: TakeBackAsked | None = None
        #: The last move: the log's length before it, and whether its player may ask to take it back.
        self.last_move: tuple[int, bool] = (0, False)
        #: The seconds the last mover's clock had before his move (None: no clock).
        self.left_before_move: float | None = None

    def may(self, seat: int | None) -> bool:
        """Whether ``seat`` may ask now to take back its last move."""
        table = self.table
        return (seat is not None and table.started and not table.over and self.asked is None
                and bool(table.actions) and table.actions[-1][0] == seat and self.last_move[1]
                and table.seats[seat].kind == "player")

    def open(self) -> bool:
        """Whether the last move may still be taken back by whoever made it (a bot waits a grace first)."""
        table = self.table
        return bool(table.actions) and self.may(table.actions[-1][0])

    def ask(self, watcher: Watcher) -> None:
        """A player asks to take back his last move: the other people are asked (play waits); with none
        to ask (bots agree), it is taken back at once."""
        table = self.table
        seat = watcher.seat
        if seat is None or not self.may(seat):
            raise Refusal("illegal", "that move cannot be taken back now: only your own last move, while "
                                     "nothing hidden has been shown and no card or die drawn since")
        waiting = {other for other, info in enumerate(table.seats) if other != seat and info.kind == "player"}
        self.asked = TakeBackAsked(seat, len(table.actions), table.turn_clock.now() + ANSWER_SECONDS, waiting)
        self.questions += 1
        table.turn_clock.pause()  # play waits: every clock stands still until the question is answered
        table.log.append(event(f"Seat {seat + 1} asks to take back their last move.", table_line=True,
                               take_back="asked", seat=seat))
        if not waiting:
            self._take_back()
            return
        pipeline.refresh_prompts(table)
        table.frames.broadcast()

    def answer(self, watcher: Watcher, agree: bool) -> None:
        """One of the others answers: one "no" keeps the move; everyone's "yes" takes it back."""
        asked = self.asked
        if asked is None or watcher.seat not in asked.waiting:
            raise Refusal("stale", "nobody is asking you to agree to a take-back now")
        if not agree:
            self._keep_the_move(f"Seat {watcher.seat + 1} keeps the move: it is not taken back.")
            return
        asked.waiting.discard(watcher.seat)
        if asked.waiting:
            self.table.frames.broadcast()
        else:
            self._take_back()

    def timed_out(self) -> bool:
        """Silence keeps the move: True if the question's time ran out now."""
        asked = self.asked
        if asked is None or self.table.turn_clock.now() < asked.deadline:
            return False
        self._keep_the_move("Nobody answered in time: the move stays.")
        return True

    def _keep_the_move(self, line: str) -> None:
        table = self.table
        self.asked = None
        self.last_move = (self.last_move[0], False)  # asked once: the answer stands
        table.turn_clock.resume()
        table.log.append(event(line, table_line=True, take_back="kept"))
        pipeline.refresh_prompts(table)
        table.frames.broadcast()

    def _take_back(self) -> None:
        table = self.table
        asked = self.asked
        if asked is None or len(table.actions) != asked.turn or table.actions[-1][0] != asked.seat:
            self._keep_the_move("The move asked about is no longer the last one: nothing is taken back.")
            return
        seat, action = table.actions.pop()
        log_before, _ = self.last_move
        table.taken_back.append({"turn": len(table.actions), "seat": seat, "action": action})
        self.asked = None
        table.deal.replay()
        table.stand_ins.moved_on()
        table.log[:] = table.log[:log_before] + [event(
            f"Seat {seat + 1} took back their last move, as everyone agreed.", table_line=True,
            take_back="taken", seat=seat)]
        self.last_move = (len(table.log), False)
        pipeline.refresh_prompts(table, acted=seat)
        if self.left_before_move is not None and seat in table.game.pending(table.state):
            table.turn_clock.give(seat, table.prompts[seat].id, self.left_before_move)
        self.left_before_move = None
        table.turn_clock.resume()
        table._save()
        for watcher in list(table.watchers):  # the log lost lines: everyone is sent it whole again
            table.frames.send_table(watcher, catch_up=True)
        table.tell(f"Seat {seat + 1} took back their last move")

