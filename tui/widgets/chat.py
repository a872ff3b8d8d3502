"""The one-line table chat: type, Enter sends, Escape goes back to the table."""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input

MAX_CHAT = 200


class ChatInput(Input):
    BINDINGS = [Binding("escape", "leave", "Back to the table", show=False)]

    @dataclass
    class Said(Message):
        text: str

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(placeholder="t to chat: say something to the table, Enter sends",
                         max_length=MAX_CHAT, id=id)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        self.value = ""
        if text:
            self.post_message(self.Said(text))
        self.screen.set_focus(None)

    def on_blur(self) -> None:
        self.display = False

    def action_leave(self) -> None:
        self.screen.set_focus(None)
