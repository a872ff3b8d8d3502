"""The deal: a game from its start (the seed, the dealt state, the deal's log) and the fair deal's glue at
the table (``net.fairness`` is the protocol's crypto).

Invariants:

- With a fair deal nobody, the host included, knows the seed until every seat's share is in: once the table
  is full the pledges freeze when every player's is in (or ``SHARE_SECONDS`` later), and the cards are dealt
  when every pledged share is revealed (or ``SHARE_SECONDS`` after the freeze). A share that did not come is
  replaced by the host's fixed one, and everyone is told.
- Until the deal the state is a stand-in nobody can act on.
- Everyone is told when the deal's phase changes, not at every share: filling a table costs two round trips.
- A seed drawn by the table comes from ``secrets``; a table set up with a given seed (tests, ``--seed``) has
  no fair deal, and its bots are repeatable too.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from core.engine import State, event
from net.fairness import SHARE_SECONDS
from net.refusals import Refusal
from net.table import pipeline
from net.table.seating import Watcher

if TYPE_CHECKING:
    from net.table.table import Table


class Deal:
    """Deals ``table``'s games and waits for the fair deal's shares."""

    def __init__(self, table: Table) -> None:
        self.table = table
        #: When the fair deal stops waiting for the pledges or reveals it lacks (``turn_clock.now`` time).
        self.share_deadline: float | None = None
        #: The game's seed and its state now (``new_game`` deals them).
        self.seed = 0
        self.state: State = {}

    @property
    def commitment(self) -> bytes | None:
        """The fair deal's commitment for this game, sent in every welcome and table frame."""
        fair = self.table.fair
        return fair.commitment if fair is not None else None

    def public(self) -> dict[str, Any] | None:
        """What every frame says of a fair deal still waiting for shares (None once dealt, or none)."""
        table = self.table
        fair = table.fair
        if fair is None or fair.dealt:
            return None
        left = None if self.share_deadline is None else self.share_deadline - table.turn_clock.now()
        return fair.public(left)

    def new_game(self, seed: int | None, repeatable_bots: bool | None = None) -> None:
        """A game from its start: the seed (fresh unless given), the dealt state, no actions, the deal's log."""
        table = self.table
        self.seed = seed if seed is not None else secrets.randbits(63)
        self.state = table.game.setup(table.options, self.seed)
        table.frames.guard()
        table.actions.clear()
        table.take_backs.new_game()
        table.taken_back.clear()
        # Every event of the game, the deal's first; each viewer is sent what ``visible_events`` allows.
        table.log[:] = table.game.opening_events(self.state)
        table.stand_ins.new_game(seed, seed is not None if repeatable_bots is None else repeatable_bots)

    def replay(self) -> None:
        """The state rebuilt from the seed and the table's actions (after a move is taken back)."""
        table = self.table
        self.state = table.game.setup(table.options, self.seed)
        for mover, move in table.actions:
            table.game.advance(self.state, mover, dict(move))

    def pledge(self, watcher: Watcher, pledge: bytes) -> None:
        """A player's pledge for his seat's share of the deal: taken until the pledges freeze."""
        seat = self._sharing_seat(watcher)
        fair = self.table.fair
        assert fair is not None
        if not fair.pledge(seat, pledge):
            raise Refusal("pledges_closed", "the deal's pledges are closed; your seat's share is the host's "
                                            "fixed one this game")
        self._moved_on()

    def reveal(self, watcher: Watcher, nonce: bytes) -> None:
        """The share behind a seat's pledge, once every pledge is in; the last one deals."""
        seat = self._sharing_seat(watcher)
        fair = self.table.fair
        assert fair is not None
        if not fair.reveal(seat, nonce):
            raise Refusal("bad_reveal", "that is not the share your seat pledged, or no share is asked for now")
        self._moved_on()

    def _moved_on(self, time_up: bool = False) -> None:
        """After a share came (or its time ran out): everyone is told when the deal's phase changes. A
        share that came before a crash is asked for again on reconnect."""
        fair = self.table.fair
        assert fair is not None
        phase = fair.phase
        if self.advance(time_up) or fair.phase == phase:
            return
        self.table.frames.broadcast()
        self.table._save()

    def _sharing_seat(self, watcher: Watcher) -> int:
        table = self.table
        if watcher.seat is None or table.seats[watcher.seat].kind != "player":
            raise Refusal("not_your_turn", "only a player in his seat has a share of the deal")
        if table.fair is None or table.fair.dealt:
            raise Refusal("no_deal", "no deal is waiting for shares now")
        return watcher.seat

    def time_up(self) -> bool:
        """The pledges or reveals the deal still lacks are past their time: True if that moved it on."""
        table = self.table
        if table.fair is None or self.share_deadline is None or table.turn_clock.now() < self.share_deadline:
            return False
        self._moved_on(time_up=True)
        return True

    def advance(self, time_up: bool = False) -> bool:
        """Move the fair deal on as far as it can go (see the module's invariants). True if it dealt now:
        then everyone has been sent the new game, and the record saved."""
        table = self.table
        fair = table.fair
        if fair is None or fair.dealt or not table.full or table.actions:
            return False
        now = table.turn_clock.now()
        if self.share_deadline is None:
            self.share_deadline = now + SHARE_SECONDS
        time_up = time_up or now >= self.share_deadline
        if fair.phase == "pledges":
            players = [seat for seat, info in enumerate(table.seats) if info.kind == "player"]
            if not time_up and any(fair.pledges[seat] is None for seat in players):
                return False
            for seat in fair.close_pledges(players):
                self._share_replaced(seat, "pledge")
            self.share_deadline, time_up = now + SHARE_SECONDS, False
        if not time_up and fair.waiting_for_reveals():
            return False
        for seat in fair.close_reveals():
            self._share_replaced(seat, "reveal")
        self.share_deadline = None
        moved: set[int] = set()
        if fair.order is not None:
            table.match.reorder(fair.order)
            moved = table.seating.reseat(fair.order)
        table_lines = [line for line in table.log if line.get("table_line")]  # not the stand-in's deal
        self.new_game(fair.seed(), repeatable_bots=False)
        table.log[:0] = table_lines
        pipeline.refresh_prompts(table)
        table._save()
        table.frames.send_everyone_the_game(moved)
        table._seats_changed()
        return True

    def _share_replaced(self, seat: int, what: str) -> None:
        line = (f"Seat {seat + 1} did not {what} its share of the deal in time: the host's fixed share "
                "stands in for it.")
        self.table.log.append(event(line, table_line=True))
        self.table.tell(line)
