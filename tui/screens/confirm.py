"""A question asked before a step that cannot be taken back: leaving a table (a game against bots ends,
a table you host closes for everyone) or a move that ends your game (retiring). Enter (or y) goes ahead,
Esc (or n) goes back."""

from __future__ import annotations

import time
from typing import Callable

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tui import screen_styles


class ConfirmScreen(ModalScreen[bool]):
    """Dismissed with True to go ahead, False to go back."""

    CSS_PATH = screen_styles("confirm")
    BINDINGS = [
        Binding("y", "go_ahead", "yes"),
        Binding("n,escape", "go_back", "no", key_display="esc"),
        Binding("left,right", "app.focus_next", show=False),
    ]

    def __init__(self, question: str, consequence: str, go_ahead: str, go_back: str, guard: float = 0.0) -> None:
        super().__init__()
        self.question, self.consequence = question, consequence
        self.labels = (go_ahead, go_back)
        #: Seconds after it shows in which no answer is taken: a question that comes up by itself (someone
        #: asks to take back a move) must not be answered by a key typed for the board (tui/type_ahead.py).
        self.guard = guard
        self._shown_at = float("inf")

    def compose(self) -> ComposeResult:
        go_ahead, go_back = self.labels
        with Vertical(id="confirm-box"):
            yield Static(Text(self.question, style="bold"), id="confirm-question")
            yield Static(Text(self.consequence), id="confirm-consequence")
            with Horizontal(id="confirm-buttons"):
                yield Button(go_ahead, variant="error", id="confirm-yes")
                yield Button(go_back, id="confirm-no")
            keys = f"Enter or y: {go_ahead.lower()} · Esc or n: {go_back.lower()}"
            yield Static(Text(keys, style="dim"), id="confirm-keys")

    def on_mount(self) -> None:
        self.query_one("#confirm-yes").focus()  # Enter confirms what the key before it began
        self.call_after_refresh(self._painted)

    def _painted(self) -> None:
        self._shown_at = time.monotonic()

    def _answer(self, go_ahead: bool) -> None:
        if self.guard > 0 and time.monotonic() - self._shown_at < self.guard:
            self.notify("That key came as the question showed: read it, then answer.", title="Key not taken",
                        severity="warning", timeout=2)
            return
        self.dismiss(go_ahead)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self._answer(event.button.id == "confirm-yes")

    def action_go_ahead(self) -> None:
        self._answer(True)

    def action_go_back(self) -> None:
        self._answer(False)


def ask_first(app: App, question: str, consequence: str | None, go_ahead: str, then: Callable[[], None],
              go_back: str = "Stay") -> None:
    """``then()`` at once when ``consequence`` is None (nothing is lost), else once the player says yes to
    ``question`` (leaving a table, closing one, quitting turpin); ``go_back`` names the other answer."""
    if consequence is None:
        then()
        return

    def go_ahead_if_sure(sure: bool | None) -> None:
        if sure:
            then()

    app.push_screen(ConfirmScreen(question, consequence, go_ahead, go_back), go_ahead_if_sure)

