"""The move pane: the prompt's choices to pick from, or who the table is waiting for.

Only the prompt's own choices can be sent. Number keys (1 to 9, and 0 for the tenth), arrows and Enter pick one (the
screen binds the
numbers; the pane binds letters for the choices past the tenth, such as a full market's); after a pick the
choice shows as pending until the host's next table arrives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive, var

from tui.frame import TableFrame
from tui.games.generic import GamePanes
from tui.widgets.choices import ChoiceList
from tui.widgets.lines import LinePane

#: The keys of the choices past the tenth, in order: letters no table key takes (t chat, r results, b bell,
#: s watch) and none the dice builder's hand takes (s, w, c, x), so a key never means two things.
LATER_KEYS = "adefghijklmnopquvyz"


class MovePane(Vertical):
    """Title line, then the choices (a ``ChoiceList``) or a line saying what the table waits for."""

    BINDINGS = [Binding(key, f"choose_shown({position})", f"choose {position + 1}", show=False)
                for position, key in enumerate(LATER_KEYS, 10)]

    @dataclass
    class Chosen(Message):
        index: int
        action: dict[str, Any]

    frame: reactive[TableFrame | None] = var(None, always_update=True)

    def __init__(self, panes: GamePanes, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.panes = panes
        self._shown: tuple[Any, ...] = ()
        #: The prompt's choice indices in the order listed (a game may list its best choices first).
        self._order: list[int] = []

    def compose(self) -> ComposeResult:
        yield LinePane(id="move-status")
        yield ChoiceList(id="move-choices")

    def watch_frame(self, frame: TableFrame | None) -> None:
        if frame is None or not self.is_mounted:
            return
        status = self.query_one("#move-status", LinePane)
        choices_list = self.query_one("#move-choices", ChoiceList)
        choices = frame.choices
        # Sending a choice changes the status line only: the list stays until the prompt goes.
        shown = (frame.prompt["id"] if frame.prompt else None, len(choices))
        status.show(self._status(frame))
        if shown == self._shown:
            return
        self._shown = shown
        self._order = _order(self.panes.choice_order(frame), len(choices))
        label = self.panes.choice_label
        labels = []
        for number, index in enumerate(self._order, 1):
            key = number_key(number)
            text = Text(f"[{key}] " if key else "    ", style="bold")
            text.append_text(_as_text(label(frame, choices[index])))
            labels.append(text)
        # The list stays in place (empty while waiting) and the pane keeps its height and its border: a pane
        # that came and went would re-lay the whole table, and a border lit on your move repainted the
        # whole pane twice a turn; your move is told by the status line above the list, the bell and a toast.
        choices_list.set_choices(labels)
        if choices:
            self.call_after_refresh(self._focus_choices)

    def _focus_choices(self) -> None:
        """Arrows and Enter work at once on a new prompt, unless the player is typing a chat line."""
        found = self.query("#move-choices")
        if not found or not self.is_attached:  # (this pane was replaced meanwhile: a resize across the fold)
            return
        choices_list = found.first(ChoiceList)
        focused = self.screen.focused
        if focused is not choices_list and (focused is None or focused.id != "chat"):
            choices_list.focus()  # (which repaints the list, so not when it has the focus already)

    def _status(self, frame: TableFrame) -> Text:
        if frame.result is not None:
            return Text("The game is over: r shows the results again.", style="bold")
        if frame.out_of_it:
            return Text(frame.out_of_it, style="bold")
        if frame.spectating:
            return Text("Spectating: you see only what is public (no one's hand); no key can act.", style="italic")
        if not frame.started:
            return Text("Waiting for every seat to be filled…", style="italic")
        if frame.sent:
            return Text("Sent; waiting for the table…", style="italic")
        if frame.choices:
            title = Text(" Your move ", style="bold reverse")
            about = self.panes.prompt_title(frame)
            if about:
                title.append(f"  {about}", style="bold")
            return title
        waiting = [seat for seat in self.panes.waiting_for(frame) if seat != frame.seat]
        if not waiting:
            return Text("Waiting for the table…", style="italic")
        away = {seat["seat"] for seat in frame.seats if seat["kind"] == "player" and not seat["connected"]}
        names = ", ".join(away_said(frame.name(seat)) if seat in away else frame.name(seat)
                          for seat in waiting)
        return Text(f"Waiting for {names}.", style="italic")

    def on_choice_list_selected(self, event: ChoiceList.Selected) -> None:
        event.stop()
        self.choose_shown(event.index)

    def action_choose_shown(self, position: int) -> None:
        self.choose_shown(position)

    def choose_shown(self, position: int) -> None:
        """Pick the choice listed at ``position`` (0-based; its number key is ``number_key(position + 1)``)."""
        if 0 <= position < len(self._order):
            self.choose(self._order[position])

    def choose(self, index: int) -> None:
        """Pick choice ``index`` (0-based) if it is one of the prompt's."""
        frame = self.frame
        if frame is None or not 0 <= index < len(frame.choices):
            return
        self.post_message(self.Chosen(index, frame.choices[index]["action"]))

    def highlight(self, index: int) -> None:
        choices = self.query_one("#move-choices", ChoiceList)
        if index in self._order:
            choices.highlighted = self._order.index(index)
            choices.focus()


def number_key(number: int) -> str:
    """The key that picks the choice listed ``number``th: 1 to 9, then 0 for the tenth (the number row's
    order), then the letters of ``LATER_KEYS``; "" past them."""
    if number <= 9:
        return str(number)
    if number == 10:
        return "0"
    return LATER_KEYS[number - 11] if number - 11 < len(LATER_KEYS) else ""


def _order(order: list[int] | None, count: int) -> list[int]:
    """The game's listing order if it names every choice once, else the prompt's own."""
    if order is not None and sorted(order) == list(range(count)):
        return list(order)
    return list(range(count))


def _as_text(label: Any) -> Text:
    return label if isinstance(label, Text) else Text(str(label))


def away_said(name: str) -> str:
    """"Ann (away)", or "Ann (seat 2, away)" for a name that has its brackets already."""
    return f"{name[:-1]}, away)" if name.endswith(")") else f"{name} (away)"
