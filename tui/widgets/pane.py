"""``FramePane``: a pane that draws itself from the table frame, and ``PartClicked``, what a click on a
part of one says.

A pane never reaches into other widgets: the table screen sets ``frame`` and the pane renders it. A part
someone can click (a card, a town, a coach) posts ``PartClicked`` with what it stands for; the screen
decides what a click means (after usolitaire's cards).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from rich.style import Style
from rich.text import Span, Text
from textual import events
from textual.geometry import Offset
from textual.message import Message
from textual.reactive import reactive, var

from tui.frame import TableFrame
from tui.glyphs import UNICODE, Glyphs
from tui.widgets.component import component_style
from tui.widgets.lines import LinePane, Shown


class FramePane(LinePane):
    """A pane drawn by ``draw(frame)``; subclasses override ``draw``."""

    frame: reactive[TableFrame | None] = var(None, always_update=True)

    def __init__(self, *, glyphs: Glyphs = UNICODE, id: str | None = None, classes: str | None = None,
                 recap: Callable[[TableFrame], list[Text]] | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.glyphs = glyphs
        #: The game's story of what just happened (``GamePanes.recap``), drawn under the pane's own lines:
        #: the board's, so it is where people look at every size (the Board tab at 80×24).
        self.recap = recap
        self._drawn_key: object = None
        self._stale = False  # a frame came while the pane was out of sight

    def watch_frame(self, frame: TableFrame | None) -> None:
        if self.is_mounted and not self.is_on_screen:
            # In a tab not shown (a narrow terminal shows one pane at a time): drawn when it is shown.
            self._stale = True
            return
        drawable = frame is not None and frame.view is not None
        key = self.draw_key(frame) if drawable else None
        recap = self.recap(frame) if drawable and self.recap is not None else []
        if key is not None and recap:
            key = (key, [(line.plain, line.spans) for line in recap])
        if key is not None and key == self._drawn_key:
            return  # what the drawing reads has not changed: neither has the drawing
        self._drawn_key = key
        drawn = with_recap(self.draw(frame), recap) if drawable else Text("")
        if isinstance(drawn, (Text, list)) and drawn == self._shown:
            return  # nothing changed: no repaint at all
        self.show(drawn)

    def draw(self, frame: TableFrame) -> Shown:
        """What the pane shows of ``frame``: a renderable, or its lines (cheaper than one joined ``Text``)."""
        return Text("")

    def drawing(self, frame: TableFrame) -> Shown:
        """All the pane shows of ``frame``: ``draw``'s, and the recap under it where the pane has one."""
        return with_recap(self.draw(frame), self.recap(frame) if self.recap is not None else [])

    def draw_key(self, frame: TableFrame) -> object:
        """Everything ``draw`` reads (of the frame and of the pane), where a pane can say so cheaply: a
        table update with an equal key is not drawn at all. None, the default: always draw."""
        return None

    def redraw(self) -> None:
        """Draw the same frame again (something of the pane's own changed: the mouse, its size, a key)."""
        self._drawn_key = None
        if self.frame is not None:
            self.watch_frame(self.frame)

    def on_show(self) -> None:
        if self._stale:
            self._stale = False
            self.redraw()


def with_recap(drawn: Shown, recap: list[Text]) -> Shown:
    """A pane's drawing with the recap's lines under it."""
    if not recap:
        return drawn
    if isinstance(drawn, list):
        return [*drawn, *recap]
    if isinstance(drawn, Text):
        lines = list(drawn.split("\n")) if drawn.plain else []
        for line in lines:  # each line as the whole was drawn: a board that cuts its lines still does
            line.no_wrap, line.overflow = drawn.no_wrap, drawn.overflow
        return [*lines, *recap]
    return drawn  # a renderable of its own (a Rich table) takes nothing under it


class ClickPane(FramePane):
    """A ``FramePane`` whose parts stand for things (a card, a coach): ``part(text, target)`` marks them.

    A click on a part posts ``PartClicked``, and the part under the mouse is lit. The
    pane is drawn text like any other, so a table update repaints only its changed lines and never mounts
    or lays out widgets, which a pane of chip widgets did whenever the number of cards changed.
    """

    COMPONENT_CLASSES = {"click-pane--hover", "click-pane--playable"}
    DEFAULT_CSS = """
    ClickPane > .click-pane--hover {
        background: $boost;
    }
    ClickPane > .click-pane--playable {
        background: $success 30%;
    }
    """

    hovered: reactive[str | None] = reactive(None)

    def part(self, label: Text, target: str, *, playable: bool = False) -> Text:
        """``label`` marked as standing for ``target`` (lit if playable, or under the mouse)."""
        style = Style(meta={"target": target})
        if playable:
            style += self.background_of("click-pane--playable")
        if target == self.hovered:
            style += self.background_of("click-pane--hover")
        label.stylize(style)
        return label

    def background_of(self, component: str) -> Style:
        """Only the background of a component class, blended over the pane's own (a ``$boost`` or a
        ``$success 30%`` is a tint, not a colour), so the words keep their own colours."""
        return Style(bgcolor=component_style(self, component).bgcolor)

    def watch_hovered(self) -> None:
        self.redraw()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        # The parts carry colours from the stylesheet: a new theme is a new drawing. Not at once: the
        # component classes (a card's background) get the new theme after the pane itself, so a drawing
        # now kept the old theme's backgrounds under the new theme's words (dark cards in the light theme).
        self.call_after_refresh(self._restyle)

    def _restyle(self) -> None:
        self.refresh()  # which also forgets the component styles read under the old theme
        self.forget_styles()
        self.redraw()

    def forget_styles(self) -> None:
        """Drop whatever the pane keeps that was drawn in the stylesheet's colours (a new theme came)."""

    def on_click(self, event: events.Click) -> None:
        target = event.style.meta.get("target")
        if target:
            event.stop()
            self.post_message(PartClicked(target))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.hovered = event.style.meta.get("target")

    def on_leave(self) -> None:
        self.hovered = None

    def on_resize(self) -> None:
        # Parts are laid out in as many columns as fit: a new width is a new drawing, not only a new wrap.
        self.redraw()
        super().on_resize()

    def parts(self) -> list[tuple[str, str]]:
        """Every part shown, in order: its target and the words a person reads there."""
        shown = self.shown
        if not isinstance(shown, Text):
            return []
        found = []
        for span in sorted(shown.spans, key=lambda span: span.start):
            style = span.style
            if isinstance(style, Style) and style.meta.get("target"):
                found.append((style.meta["target"], shown.plain[span.start:span.end]))
        return found

    def offset_of(self, target: str) -> Offset | None:
        """Where ``target`` is drawn, from the pane's top left corner (for a click), if it is in view."""
        top = self.scroll_offset.y
        left, down = self.content_region.x - self.region.x, self.content_region.y - self.region.y
        for y, strip in enumerate(self._strips_at(self._content_width())[top:top + self.content_size.height]):
            x = 0
            for segment in strip:
                if segment.style is not None and segment.style.meta.get("target") == target:
                    return Offset(left + x, down + y)
                x += segment.cell_length
        return None


@dataclass
class PartClicked(Message):
    """A click on a part of a pane someone can click; ``target`` says which (e.g. ``"town:York"``)."""

    target: str


def text_columns(rows: list[list[Text | str]], align: str = "", gap: int = 2, name_width: int = 0) -> Text:
    """Rows of cells as one ``Text``, each column as wide as its widest cell; ``align`` has an "l" or
    "r" per column; a first column longer than ``name_width`` (if given) is cut with an ellipsis. Lines
    never wrap (a cut line ends in an ellipsis). Far cheaper to draw on every update than a Rich table.

    Built as one string and its spans, as ``Text.append_text`` would build them, without appending cell
    by cell: a pane of columns is redrawn on most table updates."""
    cells = [[cell if isinstance(cell, Text) else Text(str(cell)) for cell in row] for row in rows]
    if name_width:
        for row in cells:
            if row and row[0].cell_len > name_width:
                row[0].truncate(name_width - 1)
                row[0].append("…")
    widths = [max((cell.cell_len for cell in column), default=0) for column in zip(*cells)] if cells else []
    pieces: list[str] = []
    spans: list[Span] = []
    offset = 0
    for number, row in enumerate(cells):
        if number:
            pieces.append("\n")
            offset += 1
        last = len(row) - 1
        for column, cell in enumerate(row):
            pad = " " * (widths[column] - cell.cell_len)
            right = column < len(align) and align[column] == "r"
            before = (" " * gap if column else "") + (pad if right else "")
            after = pad if not right and column < last else ""
            plain = cell.plain
            offset += len(before)
            if cell.style:
                spans.append(Span(offset, offset + len(plain), cell.style))
            spans.extend(Span(offset + start, offset + stop, style) for start, stop, style in cell.spans)
            pieces += (before, plain, after)
            offset += len(plain) + len(after)
    return Text("".join(pieces), spans=spans, no_wrap=True, overflow="ellipsis")


def card_rows(cards: list[Text], width: int, gap: int = 1) -> list[Text]:
    """Cards of one width row by row, in as many columns as fit ``width`` (one, if none is known yet)."""
    if not cards:
        return []
    cell = cards[0].cell_len
    columns = max(1, (width + gap) // (cell + gap)) if width > 0 else 1
    return [Text(" " * gap).join(cards[first:first + columns]) for first in range(0, len(cards), columns)]
