"""The one-line table chat: type, Enter sends, Escape goes back to the table."""

from __future__ import annotations

from typing import Awaitable, Callable

from textual.binding import Binding
from textual.widgets import Input

MAX_CHAT = 200
#: Within this many characters of ``MAX_CHAT`` the box says how many are left: a pasted paragraph was cut
#: to 200 without a word.
NEAR_THE_END = 40


class ChatInput(Input):
    BINDINGS = [Binding("escape", "leave", "Back to the table", show=False)]

    def __init__(self, say: Callable[[str], Awaitable[None]], *, id: str | None = None) -> None:
        # Shown only while typing (the box hides on blur), so it says how to finish, not how to begin.
        super().__init__(placeholder="Say something to the table: Enter sends, Esc goes back",
                         max_length=MAX_CHAT, id=id)
        self._say = say

    def open(self) -> None:
        self.display = True
        self.focus()

    def insert_text_at_cursor(self, text: str) -> None:
        """Typing or a paste: what fits of it, rather than nothing (Textual refuses a whole paste that
        would go past ``max_length``); the count below the box then says where the line stops."""
        super().insert_text_at_cursor(text[:max(0, MAX_CHAT - len(self.value))])

    def on_input_changed(self, event: Input.Changed) -> None:
        left = MAX_CHAT - len(event.value)
        self.border_subtitle = (f"{left} characters left" if left else f"{MAX_CHAT} characters at most") \
            if left <= NEAR_THE_END else ""

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        self.value = ""
        if text:
            self.run_worker(self._send(text), group="chat")
        self.screen.set_focus(None)

    async def _send(self, text: str) -> None:
        try:
            await self._say(text)
        except Exception as error:  # the host is away or gone: the app must not quit on a ClientError
            self.notify(f"Not sent: {error}. Chat goes again once the table is back.", severity="warning",
                        markup=False)

    def on_blur(self) -> None:
        self.display = False

    def action_leave(self) -> None:
        self.screen.set_focus(None)
