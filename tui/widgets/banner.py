"""The banner over the table when the host is lost: what happened and how long we have been trying."""

from __future__ import annotations

import time

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static


class ConnectionBanner(Static):
    """Hidden while connected; otherwise says why not and counts the seconds since the host went."""

    problem: reactive[str] = reactive("")

    def on_mount(self) -> None:
        self._since = 0.0
        self.set_interval(1.0, self._tick)
        self.display = False

    def watch_problem(self, problem: str) -> None:
        self.display = bool(problem)
        self._since = time.monotonic() if problem else 0.0
        self._draw()

    def _tick(self) -> None:
        if self.problem:
            self._draw()

    def _draw(self) -> None:
        if not self.problem:
            return
        seconds = int(time.monotonic() - self._since)
        self.update(Text(f"Lost the host: {self.problem}. Reconnecting by itself… ({seconds} s)"))
