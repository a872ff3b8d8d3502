"""The log: every event this seat may see, in plain words, newest last; chat and notices too.

Lines are ``Text`` objects, never markup: a player's name or chat line shows exactly as typed.

It draws the newest lines that fit and scrolls back by its own count of lines (wheel, arrows, PgUp/PgDn,
Home/End), rather than as a Textual scroll view: a scroll view's content growing re-lays the whole
screen, and a log grows on every table update.

While it follows the game it jump-scrolls, as a terminal's jump scroll does: new lines are written below
the last ones, and only when the pane is full do the lines move up at once, the new lines under the last
ones read, leaving room for the next (a batch longer than the pane, as a catch-up brings, shows the
newest page full). The words someone is reading stay where they are between jumps, and a table update
repaints only the lines it adds instead of every line of the pane (the dearest part of a repaint,
measured in ``bench/tui.py``).
"""

from __future__ import annotations

import bisect

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from tui.frame import TableFrame
from tui.widgets.lines import StyledStrips, render_strips


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
        #: This window's own lines (chat, notices, "You asked…"), each with the number of the table's events
        #: written before it: a rewritten log puts each back in its place.
        self.own_lines: list[tuple[int, Text]] = []
        #: Every line written, as plain text (what a reader of the log sees, before wrapping).
        self.plain_lines: list[str] = []
        self._lines: list[Text] = []
        self._wrapped: list[Strip] = []
        self._wrapped_from = 0  # how many of ``_lines`` are in ``_wrapped``
        self._wrap_width = -1
        self._base_style = Style()
        self._shown: tuple[list[Strip], int, int] = ([], 0, 0)
        self._styled = StyledStrips()
        #: While following the game: the first wrapped line shown (it moves only when the pane is full).
        self._follow_top = 0
        self._drawn_end = 0  # how many wrapped lines the last refresh covered
        self._batches: list[int] = []  # how many wrapped lines each of the last writes added
        self._line_starts: list[int] = []  # where each line begins among the wrapped ones

    # ------------------------------------------------------------------------------- writing

    def show(self, frame: TableFrame) -> None:
        """Write the frame's events not yet shown (all of them again after a catch-up)."""
        if len(frame.log) < self.events_written:
            self.clear()
        fresh = frame.log[self.events_written:]
        for event in fresh:
            if frame.seat is not None and event.get("told_privately") == frame.seat:
                continue  # "Ann has chosen a town." under "You will lie in wait at Bath." said it twice
            self._append(Text(str(event.get("text", ""))))
        self.events_written = len(frame.log)
        if fresh:
            self._grown()

    def say(self, line: Text) -> None:
        """A line of this window's that is not a game event: chat, a notice, the connection's news."""
        self.own_lines.append((self.events_written, line))
        self.add(line)

    def new_game(self) -> None:
        """A new game at this table: the last one's notices and chat are not this one's."""
        self.own_lines = []

    def cut_to(self, events: int) -> None:
        """A take-back cut the log to ``events`` events, its last one new: this window's lines written after
        the cut go just before that line, not under it."""
        cut = max(0, events - 1)
        self.own_lines = [(min(position, cut), line) for position, line in self.own_lines]

    def rewrite(self, frame: TableFrame) -> None:
        """The whole log again (a catch-up): the frame's events, and each of this window's own lines back
        in its place among them."""
        self.clear()
        placed = sorted(self.own_lines, key=lambda item: item[0])
        index = 0
        for position, event in enumerate(frame.log):
            while index < len(placed) and placed[index][0] <= position:
                self._append(placed[index][1])
                index += 1
            if not (frame.seat is not None and event.get("told_privately") == frame.seat):
                self._append(Text(str(event.get("text", ""))))
        for _, line in placed[index:]:
            self._append(line)
        self.events_written = len(frame.log)
        self._grown()

    def add(self, line: Text) -> None:
        self._append(line)
        self._grown()

    def _append(self, line: Text) -> None:
        self.plain_lines.append(line.plain)
        self._lines.append(line)
        if self.back:  # a reader scrolled back keeps his place while the game goes on
            self.back += len(self._wrap(line, self._wrap_width)) if self._wrap_width > 0 else 1

    def _grown(self) -> None:
        if not self.is_mounted:
            self.refresh()
            return
        width, height = self.content_size.width, self.content_size.height
        top = self._follow_top
        if width > 0:
            end = len(self._wrapped_lines(width))
            self._batches = [*self._batches[-(RECENT_BATCHES - 1):], end - self._drawn_end]
        if self.back or width <= 0 or height <= 0:
            self.refresh()
        else:
            if end - top > height:
                # Full: jump so that the last lines read stay at the top with the new lines under them.
                kept = lines_kept_on_jump(height, self._batches[-1], self._batches)
                self._follow_top = self._line_start_from(max(0, end - kept), end - 1)
                self.refresh()
            else:  # only the rows of the new lines change
                first = max(0, self._drawn_end - top)
                self.refresh(Region(0, first, width, end - top - first))
            self._drawn_end = end
        self._say_what_is_above()

    def clear(self) -> "TableLog":
        self.plain_lines = []
        self._lines = []
        self._wrapped = []
        self._line_starts = []
        self._styled.reset(self._wrapped)
        self._wrapped_from = 0
        self.events_written = 0
        self.back = 0
        self._follow_top = self._drawn_end = 0
        self._batches = []
        self.refresh()
        return self

    # ------------------------------------------------------------------------------ drawing

    def render_lines(self, crop: Region) -> list[Strip]:
        self._base_style = self.rich_style  # once a pass, not once a line: it walks every ancestor
        self._shown = self._window()
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        wrapped, earlier, end = self._shown
        style = self._base_style
        if earlier + y < end:
            return self._styled.line(earlier + y, style)
        return Strip.blank(self.content_size.width, style)

    def _window(self) -> tuple[list[Strip], int, int]:
        """The wrapped lines, and where the shown ones start and end."""
        width, height = self.content_size.width, self.content_size.height
        if width <= 0 or height <= 0:
            return [], 0, 0
        wrapped = self._wrapped_lines(width)
        if not self.back:
            if not self._follow_top <= len(wrapped) - 1 < self._follow_top + height:
                # A new size, or back from reading: the newest page, full.
                self._follow_top = self._line_start_from(max(0, len(wrapped) - height), len(wrapped) - 1)
            return wrapped, self._follow_top, len(wrapped)
        back = min(self.back, max(0, len(wrapped) - height))
        end = len(wrapped) - back
        return wrapped, max(0, end - height), end

    def _say_what_is_above(self) -> None:
        """The border's note of the lines above the shown ones (and how to reach them when scrolled)."""
        wrapped, earlier, end = self._window()
        below = len(wrapped) - end  # a reader scrolled back is told the game goes on under him
        hint = (f"{earlier} above · {below} below · PgUp/PgDn, End" if self.back else
                f"{earlier} lines above" if earlier else "")
        if hint != self.border_subtitle:
            self.border_subtitle = hint

    def watch_back(self) -> None:
        self._say_what_is_above()

    def on_resize(self) -> None:
        self._say_what_is_above()

    def _wrapped_lines(self, width: int) -> list[Strip]:
        """Every line wrapped to ``width``; only the lines added since the last draw are wrapped anew."""
        if width != self._wrap_width:
            self._wrap_width, self._wrapped, self._wrapped_from, self._line_starts = width, [], 0, []
            self._follow_top = self._drawn_end = 0
            self._batches = []
            self._styled.reset(self._wrapped)
        if self._wrapped_from < len(self._lines):
            for line in self._lines[self._wrapped_from:]:
                self._line_starts.append(len(self._wrapped))
                self._wrapped += self._wrap(line, width)
            self._wrapped_from = len(self._lines)
        return self._wrapped

    def _line_start_from(self, top: int, newest: int) -> int:
        """The first wrapped line at or below ``top`` that begins a line of the log (a page never opens
        on the tail of a wrapped line), but no lower than ``newest``'s own first line."""
        starts = self._line_starts
        index = bisect.bisect_left(starts, top)
        if index < len(starts) and starts[index] <= newest:
            return starts[index]
        return top

    def _wrap(self, line: Text, width: int) -> list[Strip]:
        """The line wrapped to ``width`` and drawn once: a repaint only picks the strips it shows."""
        return render_strips(self.app.console, line, width) or [Strip.blank(width)]

    # ---------------------------------------------------------------------------- scrolling

    def action_back(self, lines: int) -> None:
        wrapped, _, _ = self._window()
        self.back = max(0, min(self.back + lines, len(wrapped) - self.content_size.height))

    def action_page(self, pages: int) -> None:
        self.action_back(pages * max(1, self.content_size.height - 1))

    def action_newest(self) -> None:
        self.back = 0
        self._follow_top = 0  # the newest page shown full, until the next jump

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.action_back(3)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.action_back(-3)


#: How many of the latest writes to the log say how much room a jump leaves for the next.
RECENT_BATCHES = 4


def lines_kept_on_jump(height: int, batch: int, recent: list[int]) -> int:
    """How many lines a full log of ``height`` rows shows after a jump: the ``batch`` just written and the
    last lines read above it.

    Every jump repaints the whole pane, so it leaves room for two more writes as long as the longest of
    the ``recent`` ones (a table of Your Money or Your Life writes up to eight lines, and a pane of 22 that
    kept two thirds jumped at more than half of them), and never less than a third of the pane; above the
    new lines it keeps the write before them whole where it fits (a robbery's lines, just read, stay in
    sight when the next round's two lines come), and at least a sixth of the pane read. A batch
    too long for that fills the pane."""
    before = recent[-2] if len(recent) >= 2 else 0
    context = min(max(1, height // 6, before), max(0, height - batch))
    # A write of half the pane or more (a catch-up) says nothing of the next: the room is made for the
    # table's usual writes, or a tall pane would show six lines over thirty empty rows
    usual = [write for write in recent if write < max(2, height // 2)]
    room = max(height // 3, 2 * max(usual, default=min(batch, height // 3)))
    return height - max(0, min(height - context - batch, room))
