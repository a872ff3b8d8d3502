"""Highwayman: the coaching routes out of London, each with its cards laid and whether it is blocked."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from core.games.highwayman import rules
from tui.frame import TableFrame
from tui.games.highwayman.hooks import view_of, who
from tui.glyphs import ASCII, Glyphs
from tui.widgets.component import component_style
from tui.widgets.lines import Shown
from tui.widgets.pane import FramePane, text_columns


def playable_routes(frame: TableFrame) -> set[str]:
    found: set[str] = set()
    for choice in frame.choices:
        action = choice["action"]
        if action.get("do") == "play" and action.get("cards"):
            found.add(action["cards"][0].partition(":")[0])
        elif action.get("do") in ("highwayman", "runner"):
            found.add(action.get("route", ""))
    return found


def route_track(route: dict[str, Any], length: int, glyphs: Glyphs) -> Text:
    """LONDON then 1..length: the numbers down in bold, the rest as dots; a block sits on the next cell."""
    top = route["top"]
    dot = "." if glyphs == ASCII else "·"
    text = Text()
    for number in range(length + 1):
        label = "L" if number == 0 else str(number)
        if number:
            text.append(" ")
        if number <= top:
            text.append(label, style="bold")
        elif number == top + 1 and route["blocked"]:
            text.append(glyphs.block.ljust(len(label)), style="bold red")
        else:
            text.append(dot.ljust(len(label)), style="dim")
    return text


def route_state(route: dict[str, Any], length: int, glyphs: Glyphs) -> Text:
    """The route in words: not started, open (next number), blocked, cleared, complete."""
    top, pile = route["top"], route["pile"]
    text = Text()
    if route["blocked"]:
        text.append(f"{glyphs.block} BLOCKED by a Highwayman", style="bold red")
    elif top < 0:
        text.append("not started (needs its LONDON)", style="dim")
    elif top >= length:
        text.append(f"{glyphs.laid} complete", style="green")
    else:
        if pile and pile[-1] == rules.RUNNER:
            text.append(f"{glyphs.runner} cleared by a Runner, ", style="cyan")
        text.append(f"next {top + 1}")
    return text


class Board(FramePane):
    """Each route as a row from LONDON to its last number, then the pack, the game, the dealer, the turn."""

    #: Your move's mark and words, in the theme's own text colour (Rich's yellow is 2:1 on the light
    #: theme's grey).
    COMPONENT_CLASSES = {"hw-board--yours"}

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.call_after_refresh(self.redraw)  # a new theme: the mark is drawn in its colours

    def draw(self, frame: TableFrame) -> Shown:
        view, g = view_of(frame), self.glyphs
        length = view["route_length"]
        mine = playable_routes(frame)
        rows: list[list[Text | str]] = []
        for route in view["routes"]:
            yours = route["id"] in mine
            rows.append([Text(g.turn if yours else " " * len(g.turn), style=component_style(self, "hw-board--yours")),
                         Text(route["title"], style="bold" if yours else ""),
                         route_track(route, length, g), route_state(route, length, g)])
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append_text(text_columns(rows, "llll", gap=1))
        text.append("\n")
        # One line for the table and the turn where it fits: the recap under them has the row the turn had.
        table, turn = self._table_line(frame), self._turn_line(frame, bool(mine))
        text.append_text(table)
        fits = table.cell_len + 3 + turn.cell_len <= self._content_width()
        text.append(" · " if fits else "\n", style="dim")
        text.append_text(turn)
        return text

    def on_resize(self) -> None:
        self.redraw()  # the width decides whether the turn has a line of its own
        super().on_resize()

    def _table_line(self, frame: TableFrame) -> Text:
        view = view_of(frame)
        text = Text()
        pack = view["pack_size"]
        text.append(f"Pack {pack} card{'s' * (pack != 1)}" if pack else "Pack empty", style="bold")
        if not pack and view.get("passes"):
            text.append(f" ({view['passes']} passed in a row)")
        text.append(f" · game {view['game_number']} of {view['series_games']}")
        text.append(f" · {who(frame, view['dealer'])} dealt")
        return text

    def _turn_line(self, frame: TableFrame, routes_marked: bool) -> Text:
        view = view_of(frame)
        if view["phase"] == "over":
            return Text("The series is over.", style="bold")
        turn = view["turn"]
        text = Text()
        if frame.is_me(turn):
            text.append(f"{self.glyphs.turn} Your move", style=component_style(self, "hw-board--yours"))
        else:
            text.append(f"{self.glyphs.turn} {who(frame, turn)} to play", style="bold")
        if view["phase"] == "drawn":
            text.append(", with the card just drawn")
        elif view["phase"] == "more":  # H4: still the same turn, after a play
            text.append(": play on, or end your turn" if frame.is_me(turn) else " on, or end the turn")
        if routes_marked:
            text.append(f"   ({self.glyphs.turn} marks a route you can play on)", style="dim")
        return text
