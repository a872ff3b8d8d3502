"""The take-back at a table screen: asking to take back one's own last move, the others' question answered
once, and the question closed with a line on every screen once it is decided.

The screen hands it each new frame with the one before (``heard``); it sends through the client and writes
its lines through the screen's own log, so what it says keeps its place among the window's lines.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable

from textual.screen import Screen

from net.client import TableClient
from tui.frame import TableFrame
from tui.table_words import take_back_question, take_back_refused


class TakeBackTalk:
    """One table screen's side of the take-back: the key ``U``, and the question when someone else asks."""

    def __init__(self, screen: Screen[Any], client: TableClient, *, frame: Callable[[], TableFrame],
                 say: Callable[[str, str], None], send: Callable[[Awaitable[Any]], None]) -> None:
        self._screen = screen
        self._client = client
        self._frame = frame  # the frame the screen shows now (an answer checks it is still asked)
        self._say = say
        self._send = send
        self._question: Screen[bool] | None = None  # the open question, if shown

    def ask(self) -> None:
        """Ask to take back your last move: the others are asked, and one "no" keeps it. When it cannot be
        taken back, the toast says why (the key is not in the footer then, but a player may know it)."""
        frame = self._frame()
        if frame.may_take_back:
            self._say("You asked to take back your last move; the others are asked.", "italic")
            self._send(self._client.take_back())
            return
        self._screen.notify(take_back_refused(frame), title="Nothing to take back", severity="warning",
                            timeout=5, markup=False)

    def heard(self, before: TableFrame, now: TableFrame) -> None:
        """Someone asks to take back a move and this seat has still to answer: the question, once, with the
        board's type-ahead guard. Decided (by anyone, or by time), it closes and a toast says how."""
        asked = now.take_back
        if before.take_back is not None and asked is None:
            self._decided(now)
            return
        if asked is None or now.seat not in asked.get("waiting", []):
            return
        if before.take_back is not None and now.seat in before.take_back.get("waiting", []):
            return  # asked already
        from tui.screens.confirm import ConfirmScreen
        who = now.plain_name(asked["seat"]) if 0 <= asked["seat"] < len(now.seats) else "Someone"

        def answer(agree: bool | None) -> None:
            self._question = None
            frame = self._frame()
            still = frame.take_back
            if agree is None or still is None or frame.seat not in still.get("waiting", []):
                return  # decided meanwhile: there is nothing left to answer
            self._send(self._client.answer_take_back(bool(agree)))
        app = self._screen.app
        question = ConfirmScreen(*take_back_question(who), "Allow", "Keep the move",
                                 guard=app.NEW_QUESTION_GUARD)  # type: ignore[attr-defined]
        self._question = question
        app.push_screen(question, answer)

    def _decided(self, now: TableFrame) -> None:
        """The question is closed: gone from this screen, and one line says how it ended."""
        question, self._question = self._question, None
        if question is not None and self._screen.app.screen is question:
            question.dismiss(None)
        outcome = next((line for line in reversed(now.log) if line.get("take_back") in ("kept", "taken")), None)
        if outcome is not None:
            self._screen.notify(str(outcome.get("text", "")), title="Take-back", timeout=5, markup=False)
