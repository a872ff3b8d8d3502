"""Panes drawn with Textual's line API: a Rich renderable is turned into strips once per change.

A ``Static`` turns its whole content into Textual's own content model, wraps it and styles it again on
every repaint; for panes redrawn on every table update that was most of a repaint. Here the renderable is
rendered once, at the pane's width, into ``Strip``s that every later repaint (a scroll, a hover, another
pane's change) only crops. The number of lines is the pane's virtual height, so the table is laid out
again only when a pane that fits its content gains or loses a line.
"""

from __future__ import annotations

from rich.console import Console, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip


def render_strips(console: Console, renderable: RenderableType, width: int, *, wrap: bool = True) -> list[Strip]:
    """``renderable`` as lines of exactly ``width`` cells; a line that may not wrap ends in an ellipsis."""
    if width <= 0:
        return []
    if isinstance(renderable, Text) and fits_one_line(renderable, width):
        # Most lines of a pane are one line that fits: Rich's wrapping and cropping would leave them as
        # they are, so they are drawn straight to segments and padded, at a fraction of the cost.
        return [_one_line_strip(console, renderable, width)]
    if isinstance(renderable, Text) and wrap and wraps_plainly(renderable):
        # A log line or a long label: wrapped as Rich wraps it, each line then drawn as one that fits
        # (Rich would join the lines into one text, draw it, and split the drawing into lines again).
        lines = renderable.wrap(console, width, justify="default", overflow=renderable.overflow or "fold",
                                no_wrap=False)
        return [_one_line_strip(console, line, width) for line in lines]
    options = console.options.update_width(width)
    if not wrap:
        options = options.update(no_wrap=True, overflow="ellipsis")
    lines = Segment.split_and_crop_lines(console.render(renderable, options), width, pad=True,
                                         include_new_lines=False)
    return [Strip(line, width) for line in lines]


def _one_line_strip(console: Console, line: Text, width: int) -> Strip:
    """A line no wider than ``width``, drawn and padded to it."""
    if line.style:  # as Rich's own path does, the line's style becomes a span (render skips it)
        styled = Text()
        styled.append_text(line)
        line = styled
    segments = list(line.render(console, end=""))
    pad = width - line.cell_len
    if pad > 0:
        segments.append(Segment(" " * pad))
    return Strip(segments, width)


def wraps_plainly(text: Text) -> bool:
    """True when Rich would wrap ``text`` line by line with nothing to justify or expand."""
    return text.justify in (None, "default") and not text.no_wrap and "\t" not in text.plain


def fits_one_line(text: Text, width: int) -> bool:
    """True when ``text`` is drawn on one line of ``width`` as it is: no break, no tab, no justifying."""
    plain = text.plain
    return (text.justify in (None, "default") and "\n" not in plain and "\t" not in plain
            and text.cell_len <= width)


#: What a pane shows: a Rich renderable, or its lines as ``Text``s. A pane drawn line by line hands the
#: lines over as they are, rather than joined into one ``Text`` that would be split apart again here.
Shown = RenderableType | list[Text]


def lines_of_parts(parts: list[str], width: int, separator: str = " · ") -> list[str]:
    """``parts`` joined by ``separator`` into lines of at most ``width``, broken only between parts, so
    that a stat keeps its number ("combat 3+d6", never "combat" and "3+d6" a line apart; "Swift Nick: —", never the
    "—" alone); a part wider
    than a line has a line of its own (and wraps there)."""
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + len(separator) + len(part) <= width:
            lines[-1] += separator + part
        else:
            lines.append(part)
    return lines


def as_text(shown: Shown) -> RenderableType:
    """What a pane shows as one renderable: its lines joined into one ``Text``."""
    return Text("\n").join(shown) if isinstance(shown, list) else shown


class LineCache:
    """The strips of each line of a ``Text`` drawn lately: a pane redrawn for a new table mostly shows
    the same lines as before, and drawing a line is the dear part of a Rich render."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._lines: dict[tuple, list[Strip]] = {}

    def strips(self, console: Console, text: Text | list[Text], width: int, *, wrap: bool) -> list[Strip]:
        strips: list[Strip] = []
        lines = self._lines
        for line in _single_lines(text):
            line_wrap = wrap and not line.no_wrap
            key = (width, line_wrap, line.plain, tuple(line.spans), line.style, line.justify, line.overflow)
            drawn = lines.get(key)
            if drawn is None:
                if not line_wrap:
                    line = line.copy()
                    line.no_wrap, line.overflow = True, line.overflow or "ellipsis"
                drawn = render_strips(console, line, width, wrap=line_wrap) or [Strip.blank(width)]
                if len(lines) >= self.size:
                    lines.clear()  # a new game or a new size: start again rather than keep an order
                lines[key] = drawn
            strips.extend(drawn)
        return strips


def _single_lines(text: Text | list[Text]) -> list[Text]:
    """``text``'s lines, each without a line break (a pane's line may hold several, as a block does)."""
    if isinstance(text, Text):
        return text.split("\n", allow_blank=True)
    if not any("\n" in line.plain for line in text):
        return text
    return [single for line in text for single in line.split("\n", allow_blank=True)]


class StyledStrips:
    """Strips with the widget's base style applied once each, until the style (a theme) or the strips
    change: a repaint then hands out the same strips instead of styling new ones line by line."""

    def __init__(self) -> None:
        self.strips: list[Strip] = []
        self.style: Style | None = None
        self.styled: list[Strip] = []

    def reset(self, strips: list[Strip]) -> None:
        self.strips, self.styled = strips, []

    def line(self, index: int, style: Style) -> Strip:
        if style != self.style:
            self.style, self.styled = style, []
        styled = self.styled
        while len(styled) <= index:
            styled.append(self.strips[len(styled)].apply_style(style))
        return styled[index]


class LinePane(ScrollView, can_focus=False):
    """Shows one renderable, scrolled when it is taller than the pane (wheel, scrollbar, keys if focused).

    ``show`` replaces what is shown; the pane is repainted, and laid out again only if its number of
    lines changed. Wrapping follows the ``text-wrap`` style (``nowrap`` cuts lines with an ellipsis).
    """

    DEFAULT_CSS = """
    LinePane {
        height: auto;
        overflow-x: hidden;
        overflow-y: auto;
    }
    """

    #: Keep the height of the tallest content shown at the present width (blank lines below a shorter
    #: one): a pane that fits news that comes and goes would otherwise lay the table out at each.
    KEEP_TALLEST = False

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._shown: Shown = Text("")
        self._tallest: tuple[int, int] = (-1, 0)  # (width, lines)
        self._strips: list[Strip] = []
        self._strips_width = -1
        self._base_style = Style()
        self._styled = StyledStrips()
        self._line_cache = LineCache()

    @property
    def shown(self) -> RenderableType:
        """What the pane shows, as one renderable."""
        return as_text(self._shown)

    def show(self, renderable: Shown) -> None:
        """Show ``renderable`` (or these lines) instead; only the lines that differ are drawn again."""
        width = self._content_width() if self.is_mounted else -1
        before = self._strips if width > 0 and width == self._strips_width else None
        self._shown = renderable
        self._strips_width = -1
        if before is None:
            self.refresh()
            return
        self._fit(width)
        after = self._strips
        changed = [y for y in range(max(len(before), len(after)))
                   if y >= len(before) or y >= len(after) or before[y] != after[y]]
        for first, count in _runs(changed):
            self.refresh_lines(first, count)

    # --------------------------------------------------------------------------------- drawing

    def _content_width(self) -> int:
        return self.scrollable_content_region.width

    def _strips_at(self, width: int) -> list[Strip]:
        if width != self._strips_width:
            wrap = self.styles.text_wrap != "nowrap"
            shown = self._shown
            if isinstance(shown, list):
                self._strips = self._line_cache.strips(self.app.console, shown, width, wrap=wrap)
            elif isinstance(shown, Text):
                self._strips = self._line_cache.strips(self.app.console, shown, width, wrap=wrap and not shown.no_wrap)
            else:
                self._strips = render_strips(self.app.console, shown, width, wrap=wrap)
            self._strips_width = width
            self._styled.reset(self._strips)
        return self._strips

    def _fit(self, width: int) -> None:
        """Render at ``width`` and make the virtual size match (a new layout only if the height changed)."""
        if width <= 0:
            return
        size = Size(width, self._lines_at(width))
        if size == self.virtual_size:
            return
        height = self.scrollable_content_region.height
        fits_its_content = self.styles.height is None or self.styles.height.is_auto
        scrollbar_changes = (self.styles.overflow_y == "auto"  # shown only when needed: it may come or go
                             and (self.virtual_size.height > height) != (size.height > height))
        if size.height != self.virtual_size.height and (fits_its_content or scrollbar_changes):
            self.virtual_size = size  # the pane's size or its scrollbar changes: lay the table out again
            return
        # Same outline: only the scrollbar's thumb and this pane's lines change (the thumb not at all while
        # the lines fit, before and after: an always-shown scrollbar is then an empty track).
        overflowed = self.virtual_size.height > height or size.height > height
        self.set_reactive(LinePane.virtual_size, size)
        if overflowed:
            self._scroll_update(size)
        if self.scroll_y > self.max_scroll_y:
            self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True)

    def on_resize(self) -> None:
        self._fit(self._content_width())

    def _lines_at(self, width: int) -> int:
        """How many lines the pane holds at ``width``: its content's, or its tallest (``KEEP_TALLEST``)."""
        lines = len(self._strips_at(width))
        if self.KEEP_TALLEST:
            # Kept for the pane's width, scrollbar and all: a scrollbar that comes narrows the content, and
            # a tallest forgotten with that width would take the scrollbar away again, and so on.
            pane_width = self.size.width or width
            tallest_width, tallest = self._tallest
            lines = max(lines, tallest) if tallest_width == pane_width else lines
            self._tallest = (pane_width, lines)
        return lines

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self._lines_at(width)

    def render_lines(self, crop: Region) -> list[Strip]:
        self._base_style = self.rich_style  # once a pass, not once a line: it walks every ancestor
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        width = self._content_width()
        strips = self._strips_at(width)
        index = y + self.scroll_offset.y
        style = self._base_style
        if 0 <= index < len(strips):
            return self._styled.line(index, style)
        return Strip.blank(width, style)


def _runs(numbers: list[int]) -> list[tuple[int, int]]:
    """Sorted numbers as (first, how many) runs of consecutive ones: [2, 3, 4, 7] → [(2, 3), (7, 1)]."""
    runs: list[tuple[int, int]] = []
    for number in numbers:
        if runs and runs[-1][0] + runs[-1][1] == number:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((number, 1))
    return runs
