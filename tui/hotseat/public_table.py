"""The public table of a hot-seat game: a spectator's view (the board, the players, the log, nobody's
hand) that passes the one keyboard from person to person.

Whenever the game awaits a person other than the one whose view shows, that view goes and the curtain
comes down over this public table; Enter lifts it for that person alone. A take-back question asked of
the people here is answered on the public table too (it is public), one person at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from rich.text import Text
from textual import on
from textual.message import Message
from textual.screen import Screen

from net.client import ClientUpdate
from tui.frame import TableFrame
from tui.hotseat.curtain import CurtainScreen
from tui.hotseat.person_table import PersonTableScreen, leaving_the_keyboard_costs
from tui.hotseat.seats import HotSeat
from tui.hotseat.turns import next_at_the_keyboard
from tui.screens.interlude import InterludeScreen
from tui.screens.table import TableScreen
from tui.table_words import take_back_question
from tui.widgets.lines import LinePane

#: Seconds between two looks while a pause between games is read: the next person waits for it.
AFTER_THE_PAUSE = 0.2


class PublicTableScreen(TableScreen):
    """The table as a spectator sees it, under the curtain and under each person's own table."""

    @dataclass
    class KeyboardMayPass(Message):
        """One of the table's clients heard from the host: whose view shows may change."""

    def __init__(self, hot_seat: HotSeat) -> None:
        super().__init__(hot_seat.public)
        self.hot_seat = hot_seat
        #: The seat whose own table is shown over this one, and the seat the curtain is down for.
        self.showing: int | None = None
        self.curtain_for: int | None = None
        #: The seat asked now whether it allows a take-back, and the question on screen.
        self.asking: int | None = None
        self._question: Screen[bool] | None = None
        #: The seats that have answered the open take-back question (their answer may be on its way).
        self._answered: set[int] = set()
        self._stop_hearing: list[Callable[[], None]] = []

    def on_mount(self) -> None:
        for client in [*self.hot_seat.people, self.hot_seat.public]:
            self._stop_hearing.append(client.subscribe(self._heard_by_someone))
        self.post_message(self.KeyboardMayPass())

    def _heard_by_someone(self, _update: ClientUpdate) -> None:
        self.post_message(self.KeyboardMayPass())

    def on_unmount(self) -> None:
        for stop in self._stop_hearing:
            stop()

    @on(KeyboardMayPass)
    def pass_the_keyboard(self) -> None:
        """The curtain comes down when the game awaits someone else here; a take-back asks the people."""
        if not self.is_attached or self not in self.app.screen_stack or self.hot_seat.over \
                or self.hot_seat.public.snapshot.view is None:  # the curtain comes over the public table
            return
        if self._ask_about_a_take_back():
            return
        if isinstance(self.app.screen, InterludeScreen):  # everyone reads it first
            self.set_timer(AFTER_THE_PAUSE, lambda: self.post_message(self.KeyboardMayPass()))
            return
        current = self.curtain_for if self.curtain_for is not None else self.showing
        following = next_at_the_keyboard(self.hot_seat.awaited(), current)
        if following is None or following == current:
            return
        self._down_to_the_public_table()
        self.curtain_for = following
        curtain = CurtainScreen(self.hot_seat.name(following), self.what_leaving_does,
                                guard=self.app.NEW_QUESTION_GUARD)
        self.app.push_screen(curtain, self._curtain_lifted)
        if self.app.bell_on:  # the keyboard is to be passed on: heads up
            self.app.bell()

    def _curtain_lifted(self, lifted: bool | None) -> None:
        seat, self.curtain_for = self.curtain_for, None
        client = self.hot_seat.client_at(seat) if lifted and seat is not None else None
        if client is not None:
            self.showing = seat
            self.app.push_screen(PersonTableScreen(client))
        self.post_message(self.KeyboardMayPass())

    def _down_to_the_public_table(self) -> None:
        """Every screen over this one goes: a person's table, and whatever was open over it."""
        while self.app.screen is not self and self in self.app.screen_stack:
            self.app.pop_screen()
        self.showing = self.curtain_for = self.asking = None
        self._question = None

    def _ask_about_a_take_back(self) -> bool:
        """Someone asked to take back a move: each person here still to answer is asked in turn, on the
        public table. True while a question is open."""
        still_to_answer = self.hot_seat.asked_to_allow()
        if not still_to_answer:
            self._answered.clear()
        to_answer = [seat for seat in still_to_answer if seat not in self._answered]
        if self.asking is not None:
            if self.asking in to_answer:
                return True
            question, self.asking, self._question = self._question, None, None  # decided meanwhile
            if question is not None and self.app.screen is question:
                question.dismiss(None)
        if not to_answer:
            return False
        seat = to_answer[0]
        client = self.hot_seat.client_at(seat)
        asked = client.snapshot.take_back if client is not None else None
        if client is None or asked is None:
            return False
        self._down_to_the_public_table()
        from tui.screens.confirm import ConfirmScreen
        title, consequence = take_back_question(self.hot_seat.name(int(asked["seat"])))
        question = ConfirmScreen(f"{self.hot_seat.name(seat)}: {title}", consequence, "Allow", "Keep the move",
                                 guard=self.app.NEW_QUESTION_GUARD)
        self.asking, self._question = seat, question

        def answer(agree: bool | None) -> None:
            self.asking, self._question = None, None
            if agree is not None and seat in self.hot_seat.asked_to_allow():
                self._answered.add(seat)
                self.run_worker(self._host_says(client.answer_take_back(bool(agree))), group="host")
            self.post_message(self.KeyboardMayPass())
        self.app.push_screen(question, answer)
        return True

    def watch_frame(self, frame: TableFrame) -> None:
        """The table drawn as any spectator's, its top line naming the people at this keyboard."""
        super().watch_frame(frame)
        if self.is_mounted and frame.started:
            people = ", ".join(self.hot_seat.name(seat) for seat in sorted(self.hot_seat.seats()))
            status = Text(f" {self.panes.status(frame)}", style="bold")
            status.append(f"   {frame.table} · at this keyboard: {people}", style="dim")
            self.query_one("#table-status", LinePane).show(status)

    def what_leaving_does(self) -> str | None:
        return leaving_the_keyboard_costs(self.frame, self._stopped)

    def action_results(self) -> None:
        """The results over the public table, every person's line named (no "you")."""
        if self.frame.result is not None:
            self._down_to_the_public_table()
        super().action_results()
