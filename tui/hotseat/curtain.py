"""The curtain between two people at one keyboard: the table's public part around it, nobody's hand."""

from __future__ import annotations

import time
from typing import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Static

from tui import screen_styles

#: The hot seat's own table manners, said on the curtain (docs/playing.md says the same).
HOT_SEAT_HELP = ("Behind the curtain only the public table shows: nobody's hand, dice or picks. U at your own "
                 "table asks to take back your last move: the others answer here, behind the curtain. No turn "
                 "clock runs unless the set-up gave one.")


class CurtainScreen(ModalScreen[bool]):
    """Covers the table until the person named is alone at the keyboard: dismissed with True when she
    says so (Enter), False never (Esc asks whether to leave the table, and the curtain stays)."""

    CSS_PATH = screen_styles("curtain")
    BINDINGS = [
        Binding("enter", "lift", "I am alone at the keys", id="lift"),
        Binding("escape", "leave", "leave table", key_display="esc", id="leave"),
    ]

    def __init__(self, name: str, what_leaving_does: Callable[[], str | None], guard: float = 0.0) -> None:
        super().__init__()
        self.person = name
        self.what_leaving_does = what_leaving_does
        #: Seconds in which Enter is not taken: the one who just moved may have pressed it twice.
        self.guard = guard
        self.shown_at = time.monotonic()

    def compose(self) -> ComposeResult:
        with Vertical(id="curtain-box"):
            yield Static(Text(f"Pass to {self.person}", style="bold"), id="curtain-title")
            yield Static(Text(f"Press Enter when only {self.person} is looking at the screen."),
                         id="curtain-words")
            yield Static(Text(HOT_SEAT_HELP, style="dim"), id="curtain-why")
            yield Button(f"I am {self.person} (Enter)", variant="primary", compact=True, id="curtain-lift")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_lift()

    def action_lift(self) -> None:
        if time.monotonic() - self.shown_at >= self.guard:
            self.dismiss(True)

    def action_leave(self) -> None:
        from tui.screens.confirm import ask_first
        ask_first(self.app, "Leave the table?", self.what_leaving_does(), "Leave", self.app.leave_table)
