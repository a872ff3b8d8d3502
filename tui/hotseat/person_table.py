"""One person's table at a hot-seat table: her own seat's view, shown once the curtain is lifted for her."""

from __future__ import annotations

from dataclasses import replace

from net.client import TableClient
from tui.screens.table import TableScreen


def _no_interlude(*_frames: object) -> None:
    return None


class PersonTableScreen(TableScreen):
    """A table screen like any player's, drawn from this person's own client. The pauses between a series'
    games and the results are the public table's (``PublicTableScreen``): they are everyone's, and the
    results name every person rather than "you"."""

    def __init__(self, client: TableClient) -> None:
        super().__init__(client)
        self.panes = replace(self.panes, interlude=_no_interlude)

    def action_results(self) -> None:
        """The public table shows the results (this screen is gone by then)."""
