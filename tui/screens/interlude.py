"""A pause between two parts of one game (a Highwayman series' games): what the part ended with, kept
on screen until the player has read it. The table plays on behind it; Enter (or Esc, or a number key,
which is a move there) goes back to it."""

from __future__ import annotations

import time

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tui import screen_styles

#: Keys in this long after the pause shows were typed for the move before it, not to close it.
TYPED_BEFORE = 0.4


class InterludeScreen(ModalScreen[None]):
    CSS_PATH = screen_styles("interlude")
    BINDINGS = [Binding("enter,escape,space", "close", "back to the table", key_display="enter"),
                # A number key is a move at the table behind: it goes back there too, never does nothing
                Binding("1,2,3,4,5,6,7,8,9,0", "close", "back to the table", show=False)]

    def __init__(self, title: str, body: RenderableType, onward: str) -> None:
        super().__init__()
        self.title_text, self.body, self.onward = title, body, onward
        self.shown_at = time.monotonic()

    def compose(self) -> ComposeResult:
        with Vertical(id="interlude-box"):
            yield Static(Text(self.title_text, style="bold"), id="interlude-title")
            with VerticalScroll(id="interlude-body"):  # six hands at 80×24 are taller than the box
                yield Static(self.body)
            yield Button(f"{self.onward} (Enter)", variant="primary", compact=True, id="interlude-onward")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_close()

    def action_close(self) -> None:
        if time.monotonic() - self.shown_at >= TYPED_BEFORE:
            self.dismiss(None)
