"""``FramePane``: a pane that draws itself from the table frame, and ``Chip``, a clickable card.

A pane never reaches into other widgets: the table screen sets ``frame`` and the pane renders it. A chip
(a card, a town, a coach) posts ``Chip.Clicked`` with what it stands for; the screen decides what a click
means (after usolitaire's cards).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from tui.frame import TableFrame
from tui.glyphs import Glyphs, UNICODE


class FramePane(Static):
    """A pane drawn by ``draw(frame)``; subclasses override ``draw``."""

    frame: reactive[TableFrame | None] = reactive(None, always_update=True, layout=True)

    def __init__(self, *, glyphs: Glyphs = UNICODE, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.glyphs = glyphs

    def watch_frame(self, frame: TableFrame | None) -> None:
        self.update(self.draw(frame) if frame is not None and frame.view is not None else Text(""))

    def draw(self, frame: TableFrame) -> RenderableType:
        return Text("")


class Chip(Static):
    """A card, town or coach someone can click; ``target`` says which (e.g. ``"town:York"``)."""

    @dataclass
    class Clicked(Message):
        target: str

    def __init__(self, label: Text | str, target: str, *, marked: bool = False, classes: str = "") -> None:
        text = label if isinstance(label, Text) else Text(label)
        super().__init__(text, classes=f"chip {'chip--playable' if marked else ''} {classes}".strip())
        self.target = target

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.target))


class ChipPane(Widget):
    """A pane of chips and lines rebuilt from each frame (a hand of cards, the coaches around York)."""

    frame: reactive[TableFrame | None] = reactive(None, always_update=True, recompose=True)

    def __init__(self, *, glyphs: Glyphs = UNICODE, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.glyphs = glyphs

    def compose(self) -> ComposeResult:
        if self.frame is not None and self.frame.view is not None:
            yield from self.build(self.frame)

    def build(self, frame: TableFrame) -> ComposeResult:
        yield from ()
