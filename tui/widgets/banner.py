"""The banner over the table when the host is lost: what happened and how long we have been trying."""

from __future__ import annotations

import time

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static


class ConnectionBanner(Static):
    """Hidden while connected; otherwise says why not and counts the seconds since the host went; or,
    once this window is out of the table for good (the table closed, this seat taken over by another
    window or handed to a bot), says so in ``gone``."""

    problem: reactive[str] = reactive("")
    gone: reactive[str] = reactive("")

    def on_mount(self) -> None:
        self._since = 0.0
        self.set_interval(1.0, self._tick)
        self.display = False

    def watch_problem(self, before: str, problem: str) -> None:
        if problem and not before:
            self._since = time.monotonic()  # counted from the loss, not from the latest attempt
        self._draw()

    def watch_gone(self) -> None:
        self._draw()

    def _tick(self) -> None:
        if self.problem and not self.gone:
            self._draw()

    def _draw(self) -> None:
        self.display = bool(self.problem or self.gone)
        if self.gone:
            self.update(Text(self.gone))  # the screen's words: whether the table is gone or only this seat
        elif self.problem:
            # The client's words end with its own count of attempts ("; trying again for 9 s (6 attempts
            # so far)"), a second clock beside this one: the banner keeps the reason and its own clock.
            reason = self.problem.split("; trying again")[0]
            seconds = int(time.monotonic() - self._since)
            self.update(Text(f"Lost the host: {reason}. Reconnecting by itself: {seconds} s so far. "
                             f"Esc leaves the table."))
