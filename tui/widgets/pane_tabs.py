"""The strip of tabs a small terminal folds the table's panes into: ``[`` and ``]`` turn it, round and round.

It never takes the focus (Tab goes from the move list to the pane shown, the dice builder in a robbery,
without stopping here), and a spectator, who has no hand, has no hand's tab.
"""

from __future__ import annotations

from textual.widgets import Tab, Tabs

from tui.table_layout import PANE_TABS


class PaneTabs(Tabs):
    """One tab a pane of the table (``tab-board``, ``tab-hand``…); the screen shows the active one's pane."""

    def __init__(self, *, spectating: bool, id: str | None = None) -> None:
        super().__init__(*(Tab(title, id=f"tab-{name}") for name, title in PANE_TABS), id=id)
        self.can_focus = False
        self._hidden = {"tab-hand"} if spectating else set()

    def on_mount(self) -> None:
        for tab in self._hidden:
            self.hide(tab)

    @property
    def shown(self) -> str:
        """The pane whose tab is active ("board", "hand"…)."""
        return (self.active or "tab-board").removeprefix("tab-")

    def turn(self, step: int) -> None:
        """The next (or previous, ``step`` -1) tab, round and round, past the hidden ones."""
        names = [f"tab-{name}" for name, _title in PANE_TABS if f"tab-{name}" not in self._hidden]
        if self.active in names:
            self.active = names[(names.index(self.active) + step) % len(names)]
