"""The log: every event this seat may see, in plain words, newest last; chat and notices too.

Lines are ``Text`` objects, never markup: a player's name or chat line shows exactly as typed.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import RichLog

from tui.frame import TableFrame


class TableLog(RichLog):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False, highlight=False, wrap=True, auto_scroll=True,
                         min_width=20)
        self.events_written = 0
        #: Every line written, as plain text (what a reader of the log sees, before wrapping).
        self.plain_lines: list[str] = []

    def show(self, frame: TableFrame) -> None:
        """Write the frame's events not yet shown (all of them again after a catch-up)."""
        if len(frame.log) < self.events_written:
            self.clear()
            self.events_written = 0
        for event in frame.log[self.events_written:]:
            self.add(Text(str(event.get("text", ""))))
        self.events_written = len(frame.log)

    def say(self, line: Text) -> None:
        """A line that is not a game event: chat, a notice, the connection's news."""
        self.add(line)

    def add(self, line: Text) -> None:
        self.plain_lines.append(line.plain)
        self.write(line)

    def clear(self) -> "TableLog":
        self.plain_lines = []
        return super().clear()
