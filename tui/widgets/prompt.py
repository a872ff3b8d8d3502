"""The move pane: the prompt's choices to pick from, or who the table is waiting for; and the one owner of a
move, from "the n-th listed choice" to the action sent.

Only the prompt's own choices can be sent. Number keys (1 to 9, and 0 for the tenth; the screen binds
them and hands the position here), letters past the tenth (bound here), arrows and Enter, a click on a
card or a town (the screen hands the target here) and the command palette all come to ``choose``: the
type-ahead guard, the question a move that ends your game asks first, and the send. After a pick the
choice shows as pending until the host's next table arrives.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any, Awaitable, Callable, Iterator

from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive, var

from net.host.settings import HostSettings
from tui.frame import TableFrame
from tui.games.generic import GamePanes
from tui.type_ahead import question_kinds, typed_ahead
from tui.widgets.choices import ChoiceList
from tui.widgets.lines import LinePane

#: The keys of the choices past the tenth, in order: letters no table key takes (t chat, r results, b bell,
#: s watch) and none the dice builder's hand takes (s, w, c, x), so a key never means two things.
LATER_KEYS = "adefghijklmnopquvyz"
#: Seconds after sending a choice before the move pane says "Sent; waiting for the table…".
SHOW_SENT_AFTER = 0.15
#: Seconds a "Key not taken" toast stays; keys refused meanwhile add none (three stacked hid the board).
KEY_REFUSED_TOAST = 2.0

#: A prompt that comes within this many seconds of your last move finds you at the keys: the move pane says
#: it, and the bell does not ring. After a longer wait for the others, you may have looked away: the bell
#: (if on) rings too. "Your move" is never a toast: the move pane says it where the choices are.
ANNOUNCE_AFTER = 3.0

#: Sends a chosen action for a prompt (its id) to the table.
Send = Callable[[dict[str, Any], int], Awaitable[None]]


class MovePane(Vertical):
    """Title line, then the choices (a ``ChoiceList``) or a line saying what the table waits for."""

    BINDINGS = [Binding(key, f"choose_shown({position})", f"choose {position + 1}", show=False)
                for position, key in enumerate(LATER_KEYS, 10)]

    @dataclass
    class Sent(Message):
        """A choice went to the table, or could not: ``frame`` is the table to show now. ``at_once``: show
        it at once (the send failed, or no table has come within SHOW_SENT_AFTER); else keep it quietly,
        because a host that answers in milliseconds would have "Sent" drawn for one frame."""
        frame: TableFrame
        at_once: bool

    @dataclass
    class Told(Message):
        """A line for the log about your own move ("Your only move, played for you: …")."""
        text: str

    #: Seconds a move with only one possible choice (keeping a drawn card that cannot go down) stays in
    #: view before it plays itself, the log saying so; None: it waits for a key like any other.
    ONLY_MOVE_AFTER: float | None = 1.0
    #: ... and while the move before it may still be taken back (``take_back_open``), at least this long:
    #: the grace a bot waits (``HostSettings.take_back_grace``), so the one who moved can still press U.
    TAKE_BACK_GRACE: float = HostSettings.take_back_grace

    frame: reactive[TableFrame | None] = var(None, always_update=True)

    def __init__(self, panes: GamePanes, send: Send, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.panes = panes
        self._deliver_to_table = send
        self._shown: tuple[Any, ...] = ()
        #: The prompt's choice indices in the order listed (a game may list its best choices first).
        self._order: list[int] = []
        self.chose_at = float("-inf")  # when this window last sent a move (monotonic)
        self._announced_prompt: int | None = None
        self.answered_kinds: frozenset[str] = frozenset()  # the kinds of move of the prompt last answered
        self.prompt_shown_at = float("inf")  # when the current prompt was painted (monotonic)
        self._key_refused_at = float("-inf")  # when a key was last refused as typed ahead (monotonic)
        self._sent_prompt: int | None = None  # the prompt a choice has gone for: never a second
        self._only_move_prompt: int | None = None  # the one-choice prompt set to play itself

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
        self._play_the_only_move()
        if shown == self._shown:
            return
        if frame.prompt and (not self._shown or self._shown[0] != frame.prompt["id"]):
            self.prompt_shown_at = float("inf")
            self.call_after_refresh(self._prompt_painted, frame.prompt["id"])
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

    # ------------------------------------------------------------------------------ choosing

    def on_choice_list_selected(self, event: ChoiceList.Selected) -> None:
        event.stop()
        self.choose_shown(event.index)

    def action_choose_shown(self, position: int) -> None:
        self.choose_shown(position)

    def choose_shown(self, position: int) -> None:
        """Pick the choice listed at ``position`` (0-based; its number key is ``number_key(position + 1)``)."""
        if 0 <= position < len(self._order):
            self.choose(self._order[position])

    def choose_part(self, target: str) -> None:
        """A click on a part of a pane (a card, a town): the one choice it names is made; of several, the
        first is lit in the list for the player to pick."""
        frame = self.frame
        matches = self.panes.choice_matches
        found = [index for index, choice in enumerate(frame.choices if frame else [])
                 if matches(choice["action"], target)]
        if len(found) == 1:
            self.choose(found[0])
        elif found:
            self.highlight(found[0])

    def announce(self, frame: TableFrame, bell_on: bool) -> None:
        """A new prompt after a wait for the others: the bell rings (if on), once a prompt."""
        prompt = frame.prompt
        if prompt and prompt["id"] != self._announced_prompt:
            fresh = self._announced_prompt is None or prompt["id"] > self._announced_prompt
            self._announced_prompt = prompt["id"]
            if fresh and time.monotonic() - self.chose_at >= ANNOUNCE_AFTER and bell_on:
                self.app.bell()

    def palette_commands(self, frame: TableFrame) -> Iterator[SystemCommand]:
        """Every choice of the frame's prompt, by its words, for the command palette."""
        for index, choice in enumerate(frame.choices):
            yield SystemCommand(f"Move {index + 1}: {choice['text']}", "make this move",
                                lambda index=index: self.choose(index))

    def choose(self, index: int) -> None:
        """Pick choice ``index`` (0-based, as the prompt lists them) and send it, unless it came typed ahead
        of the prompt; a move that ends your game is asked about first."""
        frame = self.frame
        if frame is None or not 0 <= index < len(frame.choices) or not self._open(frame) or self._too_quick():
            return
        action = frame.choices[index]["action"]
        question = self.panes.confirm_choice(frame, action)
        if question is None:
            self._send(frame, action)
            return
        from tui.screens.confirm import ConfirmScreen

        def send_if_sure(sure: bool | None) -> None:
            now = self.frame  # tables may have come meanwhile: the answer is for the same prompt only
            if sure and now is not None and self._open(now) and now.prompt == frame.prompt:
                self._send(now, action)

        self.app.push_screen(ConfirmScreen(*question), send_if_sure)

    def highlight(self, index: int) -> None:
        choices = self.query_one("#move-choices", ChoiceList)
        if index in self._order:
            choices.highlighted = self._order.index(index)
            choices.focus()

    def _open(self, frame: TableFrame) -> bool:
        """A prompt of this seat's with choices, none sent for it yet."""
        return bool(frame.choices) and not frame.sent and frame.prompt is not None \
            and frame.prompt["id"] != self._sent_prompt

    def _prompt_painted(self, prompt_id: int) -> None:
        if self.frame is not None and self.frame.prompt and self.frame.prompt["id"] == prompt_id:
            self.prompt_shown_at = time.monotonic()

    def _too_quick(self) -> bool:
        """A choice made before the prompt was painted, or in the moment after: typed ahead for the move
        before, so it is dropped, and said so, rather than played on a move nobody has seen yet. The moment
        is longer when the prompt asks another kind of question than the last one answered."""
        now = time.monotonic()
        prompt = self.frame.prompt if self.frame else None
        new_question = question_kinds(prompt) != self.answered_kinds
        if not typed_ahead(now - self.prompt_shown_at, new_question, self.app.TYPE_AHEAD_GUARD,
                           self.app.NEW_QUESTION_GUARD):
            return False
        if now - self._key_refused_at >= KEY_REFUSED_TOAST:  # one toast says it for a burst of keys
            self.notify("That key came as a new move showed: look, then choose.", title="Key not taken",
                        severity="warning", timeout=KEY_REFUSED_TOAST)
        self._key_refused_at = now
        return True

    def _play_the_only_move(self) -> None:
        """A prompt with one possible choice plays it after a beat in view (ONLY_MOVE_AFTER), unless it is
        a move asked about first; the log says it was played for you."""
        frame, after = self.frame, self.ONLY_MOVE_AFTER
        if after is None or frame is None or not self._open(frame) or len(frame.choices) != 1 \
                or frame.spectating or frame.prompt is None:
            return
        prompt_id = frame.prompt["id"]
        if prompt_id == self._only_move_prompt or self.panes.confirm_choice(frame, frame.choices[0]["action"]):
            return
        self._only_move_prompt = prompt_id
        if frame.take_back_open:
            after = max(after, self.TAKE_BACK_GRACE)
        self.set_timer(after, lambda: self._only_move_due(prompt_id))

    def _only_move_due(self, prompt_id: int) -> None:
        frame = self.frame
        if frame is None or not self._open(frame) or frame.prompt is None or frame.prompt["id"] != prompt_id \
                or len(frame.choices) != 1:
            return  # answered by a key meanwhile, or gone
        if not self.screen.is_active:  # a question ("leave the table?") or the rules over the table: he is
            self.set_timer(self.ONLY_MOVE_AFTER or 1.0, lambda: self._only_move_due(prompt_id))  # not looking
            return
        choice = frame.choices[0]
        self.post_message(self.Told(f"Your only move, played for you: {choice['text']}."))
        self._send(frame, choice["action"])

    # ------------------------------------------------------------------------------ sending

    def _send(self, frame: TableFrame, action: dict[str, Any]) -> None:
        """Sent at once, but shown as sent only if the table has not answered within SHOW_SENT_AFTER."""
        prompt_id = frame.prompt["id"] if frame.prompt else 0
        sent = replace(frame, sent=True)
        self._sent_prompt = prompt_id
        self.chose_at = time.monotonic()
        self.answered_kinds = question_kinds(frame.prompt)
        self.post_message(self.Sent(sent, at_once=False))
        self.set_timer(SHOW_SENT_AFTER, lambda: self.post_message(self.Sent(sent, at_once=True)))
        self.run_worker(self._deliver(action, prompt_id), group="send")

    async def _deliver(self, action: dict[str, Any], prompt_id: int) -> None:
        try:
            await self._deliver_to_table(action, prompt_id)
        except Exception as error:  # the host is gone: the banner says so; the choice can be made again
            self._sent_prompt = None
            if self.frame is not None:
                self.post_message(self.Sent(replace(self.frame, sent=False), at_once=True))
            self.notify(f"Could not send: {error}", severity="error", markup=False)


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
