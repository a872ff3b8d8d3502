"""The log: every event this seat may see, in plain words, newest last; chat and notices too.

Lines are ``Text`` objects, never markup: a player's name or chat line shows exactly as typed.

It draws the newest lines that fit and scrolls back by its own count of lines (wheel, arrows, PgUp/PgDn,
Home/End), rather than as a Textual scroll view: a scroll view's content growing re-lays the whole
screen, and a log grows on every table update.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.reactive import reactive
from textual.widget import Widget

from tui.frame import TableFrame


class TableLog(Widget, can_focus=True):
    BINDINGS = [
        Binding("up", "back(1)", "earlier", show=False),
        Binding("down", "back(-1)", "later", show=False),
        Binding("pageup", "page(1)", "earlier"),
        Binding("pagedown", "page(-1)", "later"),
        Binding("home", "back(1000000)", "oldest", show=False),
        Binding("end", "newest", "newest", show=False),
    ]

    #: How many wrapped lines the view is scrolled back from the newest (0: following the game).
    back: reactive[int] = reactive(0)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.events_written = 0
        #: Every line written, as plain text (what a reader of the log sees, before wrapping).
        self.plain_lines: list[str] = []
        self._lines: list[Text] = []
        self._wrapped: list[Text] = []
        self._wrapped_from = 0  # how many of ``_lines`` are in ``_wrapped``
        self._wrap_width = -1

    # ------------------------------------------------------------------------------- writing

    def show(self, frame: TableFrame) -> None:
        """Write the frame's events not yet shown (all of them again after a catch-up)."""
        if len(frame.log) < self.events_written:
            self.clear()
        for event in frame.log[self.events_written:]:
            self.add(Text(str(event.get("text", ""))))
        self.events_written = len(frame.log)

    def say(self, line: Text) -> None:
        """A line that is not a game event: chat, a notice, the connection's news."""
        self.add(line)

    def add(self, line: Text) -> None:
        self.plain_lines.append(line.plain)
        self._lines.append(line)
        if self.back:  # a reader scrolled back keeps his place while the game goes on
            self.back += len(self._wrap([line], self._wrap_width)) if self._wrap_width > 0 else 1
        self.refresh()
        if self.is_mounted:
            self._say_what_is_above()

    def clear(self) -> "TableLog":
        self.plain_lines = []
        self._lines = []
        self._wrapped = []
        self._wrapped_from = 0
        self.events_written = 0
        self.back = 0
        self.refresh()
        return self

    # ------------------------------------------------------------------------------ drawing

    def render(self) -> Text:
        wrapped, earlier, end = self._window()
        return Text("\n", no_wrap=True, overflow="crop").join(wrapped[earlier:end])

    def _window(self) -> tuple[list[Text], int, int]:
        """The wrapped lines, and where the shown ones start and end."""
        width, height = self.content_size.width, self.content_size.height
        if width <= 0 or height <= 0:
            return [], 0, 0
        wrapped = self._wrapped_lines(width)
        back = min(self.back, max(0, len(wrapped) - height))
        end = len(wrapped) - back
        return wrapped, max(0, end - height), end

    def _say_what_is_above(self) -> None:
        """The border's note of the lines above the shown ones (and how to reach them when scrolled)."""
        _, earlier, _ = self._window()
        hint = (f"{earlier} lines above · PgUp/PgDn, End" if self.back else
                f"{earlier} lines above" if earlier else "")
        if hint != self.border_subtitle:
            self.border_subtitle = hint

    def watch_back(self) -> None:
        self._say_what_is_above()

    def on_resize(self) -> None:
        self._say_what_is_above()

    def _wrapped_lines(self, width: int) -> list[Text]:
        """Every line wrapped to ``width``; only the lines added since the last draw are wrapped anew."""
        if width != self._wrap_width:
            self._wrap_width, self._wrapped, self._wrapped_from = width, [], 0
        if self._wrapped_from < len(self._lines):
            self._wrapped += self._wrap(self._lines[self._wrapped_from:], width)
            self._wrapped_from = len(self._lines)
        return self._wrapped

    def _wrap(self, lines: list[Text], width: int) -> list[Text]:
        console = self.app.console
        wrapped: list[Text] = []
        for line in lines:
            wrapped.extend(line.wrap(console, width) or [Text("")])
        return wrapped

    # ---------------------------------------------------------------------------- scrolling

    def action_back(self, lines: int) -> None:
        wrapped, _, _ = self._window()
        self.back = max(0, min(self.back + lines, len(wrapped) - self.content_size.height))

    def action_page(self, pages: int) -> None:
        self.action_back(pages * max(1, self.content_size.height - 1))

    def action_newest(self) -> None:
        self.back = 0

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.action_back(3)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.action_back(-3)
