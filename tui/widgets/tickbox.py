"""A checkbox that says whether it is ticked without colour: an X when on, blank when off (Textual's own
draws an X either way, lit or dim, which a 16-colour or monochrome terminal can lose)."""

from __future__ import annotations

from textual.widgets import Checkbox


class TickBox(Checkbox):
    def on_mount(self) -> None:
        self._show_tick()

    def watch_value(self) -> None:
        super().watch_value()
        self._show_tick()

    def _show_tick(self) -> None:
        self.BUTTON_INNER = "X" if self.value else " "
        self.refresh()
