"""``ChoiceList``: the prompt's choices, one highlighted; arrows move, Enter or a click picks.

Drawn with Textual's line API at a height set by the stylesheet. An ``OptionList`` tells the screen its
new virtual size whenever its options change, and that lays out the whole table again on every prompt
that comes or goes; this list scrolls by its own count of rows instead, so a new prompt repaints only it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from tui.widgets.component import component_style
from tui.widgets.lines import render_strips


class ChoiceList(Widget, can_focus=True):
    COMPONENT_CLASSES = {"choice-list--highlighted"}
    DEFAULT_CSS = """
    ChoiceList {
        height: 1fr;
        & > .choice-list--highlighted {
            color: $block-cursor-blurred-foreground;
            background: $block-cursor-blurred-background;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus > .choice-list--highlighted {
            color: $block-cursor-foreground;
            background: $block-cursor-background;
            text-style: $block-cursor-text-style;
        }
    }
    """
    BINDINGS = [
        Binding("up", "move(-1)", "previous", show=False),
        Binding("down", "move(1)", "next", show=False),
        Binding("home", "move(-1000000)", "first", show=False),
        Binding("end", "move(1000000)", "last", show=False),
        Binding("pageup", "page(-1)", "page up", show=False),
        Binding("pagedown", "page(1)", "page down", show=False),
        Binding("enter", "select", "pick", show=False),
    ]

    @dataclass
    class Selected(Message):
        """Choice ``index`` (0-based, as listed) was picked."""
        choice_list: "ChoiceList"
        index: int

    #: The listed choice under the cursor, or None while there are none.
    highlighted: reactive[int | None] = reactive(None)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._labels: list[Text] = []
        #: For each width drawn at: (choice, line of its label) for every row.
        self._rows: dict[int, list[tuple[int, int]]] = {}
        #: Each label's lines at a width, drawn when first shown: a prompt of forty robberies shows eight.
        self._strips: dict[tuple[int, int], list[Strip]] = {}
        self._top = 0
        self._pass: tuple[int, Style, Style] | None = None

    # ------------------------------------------------------------------------------- contents

    @property
    def option_count(self) -> int:
        return len(self._labels)

    def set_choices(self, labels: list[Text]) -> None:
        """Show ``labels`` (long ones wrap); the first is highlighted, or nothing when there are none.

        Only the rows that look different are repainted: a prompt that goes leaves blank rows that were
        blank already, and one that follows another often shares its first choices."""
        before = self._drawn_rows()
        self._labels = list(labels)
        self._rows, self._strips = {}, {}
        self._top = 0
        self.set_reactive(ChoiceList.highlighted, 0 if labels else None)
        self._keep_highlight_in_view()
        after = self._drawn_rows()
        if before is None or after is None or len(before) != len(after):
            self.refresh()
            return
        width = self.content_size.width
        for y, (old, new) in enumerate(zip(before, after)):
            if old != new:
                self.refresh(Region(0, y, width, 1))

    def _drawn_rows(self) -> list[tuple[Strip, bool, str]] | None:
        """What each row of the list shows (its label's line, lit or not, the ▲/▼ mark), or None before
        the list has a size."""
        width, height = self.content_size.width, self.content_size.height
        if width <= 0 or height <= 0:
            return None
        text_width = self._text_width()
        return [self._row(y, text_width) for y in range(height)]

    def _row(self, y: int, text_width: int) -> tuple[Strip, bool, str]:
        rows = self._rows_at(text_width)
        number = self._top + y
        if not 0 <= number < len(rows):
            return Strip.blank(0), False, ""
        index, line = rows[number]
        mark = ""
        if text_width < self.content_size.width:
            more_above = y == 0 and self._top > 0
            more_below = y == self.content_size.height - 1 and number < len(rows) - 1
            mark = "▲" if more_above else "▼" if more_below else " "
        return self._label_strips(index, text_width)[line], index == self.highlighted, mark

    def validate_highlighted(self, highlighted: int | None) -> int | None:
        if highlighted is None or not self._labels:
            return None
        return max(0, min(highlighted, len(self._labels) - 1))

    def watch_highlighted(self) -> None:
        self._keep_highlight_in_view()
        self.refresh()

    # -------------------------------------------------------------------------------- drawing

    def _rows_at(self, width: int) -> list[tuple[int, int]]:
        rows = self._rows.get(width)
        if rows is None:
            rows = self._rows[width] = []
            for index, label in enumerate(self._labels):
                # A label shorter than the width is one row: only a longer one is wrapped to be counted.
                fits = label.cell_len <= width and "\n" not in label.plain
                rows += [(index, line) for line in range(1 if fits else len(self._label_strips(index, width)))]
        return rows

    def _label_strips(self, index: int, width: int) -> list[Strip]:
        strips = self._strips.get((index, width))
        if strips is None:
            strips = self._strips[index, width] = render_strips(self.app.console, self._labels[index], width)
        return strips

    def _keep_highlight_in_view(self) -> None:
        width, height = self.content_size.width, self.content_size.height
        if self.highlighted is None or width <= 0 or height <= 0:
            return
        rows = [number for number, (index,
                                    _) in enumerate(self._rows_at(self._text_width())) if index == self.highlighted]
        if rows:
            if rows[0] < self._top:
                self._top = rows[0]
            elif rows[-1] >= self._top + height:
                self._top = max(0, min(rows[0], rows[-1] - height + 1))

    def on_resize(self) -> None:
        self._keep_highlight_in_view()

    def _text_width(self) -> int:
        """The rows' width: all of it, or one column less for the ▲/▼ marks when they overflow."""
        width, height = self.content_size.width, self.content_size.height
        # Each choice takes a row at least: more choices than rows overflow without wrapping a label to
        # count its rows (which would then be wrapped again, a column narrower).
        if len(self._labels) > height or len(self._rows_at(width)) > height:
            return width - 1
        return width

    def render_lines(self, crop: Region) -> list[Strip]:
        # What every line needs, found once a pass: the widget's style walks every ancestor.
        self._pass = (self._text_width(), self.rich_style, component_style(self, "choice-list--highlighted"))
        return super().render_lines(crop)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.refresh()  # the highlight's style may have come only now (``component_style``)

    def render_line(self, y: int) -> Strip:
        width = self.content_size.width
        text_width, base, highlighted = self._pass or (self._text_width(), self.rich_style, Style())
        strip, lit, mark = self._row(y, text_width)
        if not strip.cell_length:
            return Strip.blank(width, base)
        if lit:
            strip = strip.apply_style(highlighted)
        if mark:
            strip = Strip.join([strip, Strip([Segment(mark, Style(bold=True))], 1)])
        return strip.apply_style(base)

    # ------------------------------------------------------------------------------ keys, mouse

    def action_move(self, step: int) -> None:
        if self.highlighted is not None:
            self.highlighted = self.highlighted + step

    def action_page(self, pages: int) -> None:
        self.action_move(pages * max(1, self.content_size.height - 1))

    def action_select(self) -> None:
        if self.highlighted is not None:
            self.post_message(self.Selected(self, self.highlighted))

    def choice_at(self, row: int) -> int | None:
        """The choice drawn on content row ``row`` (0 is the top row shown), if any."""
        rows = self._rows_at(self._text_width())
        number = self._top + row
        return rows[number][0] if 0 <= row and number < len(rows) else None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        choice = self.choice_at(offset.y) if offset is not None else None
        if choice is not None:
            self.highlighted = choice
            self.action_select()

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self._scroll(-1)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self._scroll(1)

    def _scroll(self, rows: int) -> None:
        height = self.content_size.height
        last_top = max(0, len(self._rows_at(self._text_width())) - height)
        top = max(0, min(self._top + rows, last_top))
        if top != self._top:
            self._top = top
            self.refresh()
