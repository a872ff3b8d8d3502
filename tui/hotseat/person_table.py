"""One person's table at a hot-seat table: her own seat's view, shown once the curtain is lifted for her."""

from __future__ import annotations

from dataclasses import replace

from net.client import TableClient
from tui.frame import TableFrame
from tui.screens.table import TableScreen
from tui.widgets.prompt import MovePane


def leaving_the_keyboard_costs(frame: TableFrame, stopped: bool) -> str | None:
    """What leaving a hot-seat table costs everyone at the keyboard (None once its game is over): the menu
    cannot go on with it, since one window takes back one seat only."""
    if frame.result is not None or stopped:
        return None
    return "The game ends here for everyone at this keyboard (a hot-seat game cannot be gone on with later)."


def _no_interlude(*_frames: object) -> None:
    return None


class PersonTableScreen(TableScreen):
    """A table screen like any player's, drawn from this person's own client. The pauses between a series'
    games and the results are the public table's (``PublicTableScreen``): they are everyone's, and the
    results name every person rather than "you"."""

    def __init__(self, client: TableClient) -> None:
        super().__init__(client)
        self.panes = replace(self.panes, interlude=_no_interlude)
        # The curtain rang for this move already, and she has just said she is here: no bell for it again
        self._came_for = self._newest.prompt["id"] if self._newest.prompt else None

    def _announce_turn(self) -> None:
        came_for = self.frame.prompt is not None and self.frame.prompt["id"] == self._came_for
        self.query_one(MovePane).announce(self.frame, self.app.bell_on and not came_for)

    def action_results(self) -> None:
        """The public table shows the results (this screen is gone by then)."""

    def what_leaving_does(self) -> str | None:
        return leaving_the_keyboard_costs(self.frame, self._stopped)
