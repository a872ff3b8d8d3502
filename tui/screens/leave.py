"""Esc at a table asks first: leaving a game against bots ends it, and leaving a table you host closes it
for everyone at it. Enter (or y) leaves, Esc (or n) stays."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tui import screen_styles


class LeaveScreen(ModalScreen[bool]):
    """Dismissed with True to leave the table, False to stay at it."""

    CSS_PATH = screen_styles("leave")
    BINDINGS = [
        Binding("y", "leave", "leave"),
        Binding("n,escape", "stay", "stay", key_display="esc"),
        Binding("left,right", "app.focus_next", show=False),
    ]

    def __init__(self, consequence: str) -> None:
        super().__init__()
        self.consequence = consequence

    def compose(self) -> ComposeResult:
        with Vertical(id="leave-box"):
            yield Static(Text("Leave the table?", style="bold"), id="leave-title")
            yield Static(Text(self.consequence), id="leave-consequence")
            with Horizontal(id="leave-buttons"):
                yield Button("Leave", variant="error", id="leave-yes")
                yield Button("Stay", id="leave-no")
            yield Static(Text("Enter or y leaves · Esc or n stays", style="dim"), id="leave-keys")

    def on_mount(self) -> None:
        self.query_one("#leave-yes").focus()  # Enter confirms what Esc began; a second Esc stays

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "leave-yes")

    def action_leave(self) -> None:
        self.dismiss(True)

    def action_stay(self) -> None:
        self.dismiss(False)
