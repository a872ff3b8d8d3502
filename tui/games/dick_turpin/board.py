"""The Famous Dick Turpin: the road from London to Edinburgh, the Silver Flyer, its passengers and booty."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from core.games.dick_turpin import rules
from tui.frame import TableFrame
from tui.games.dick_turpin.hooks import KINDS, coach_town, view_of
from tui.widgets.lines import Shown, lines_of_parts
from tui.widgets.pane import ClickPane


def booty_card(card: int, glyphs) -> str:
    return f"[{glyphs.pistol}]" if card == rules.PISTOL else f"[{card}]"


class Board(ClickPane):
    """The road from London to Edinburgh with the coach, passengers, the booty and the piles. A click on a
    town you may lie in wait at lays it, as a click on its card in your hand does."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("turpin")  # its height is the game's own (styles/dick_turpin.tcss)

    def draw(self, frame: TableFrame) -> Shown:
        view, g = view_of(frame), self.glyphs
        at = coach_town(view)
        layable = {choice["action"].get("town") for choice in frame.choices}
        road = Text()
        for index, town in enumerate(["LONDON", *rules.TOWNS, "EDINBURGH"]):
            if index:
                road.append(f" {g.road} ")
            if town == at:
                road.append(f"{g.coach} {town}", style="bold reverse")
            elif town in layable:
                road.append_text(self.part(Text(town), f"town:{town}", playable=True))
            else:
                road.append(town, style="bold" if town.isupper() else "")
        arrow = g.north if view["northbound"] else g.south
        where = Text(f"{arrow} coach {'northbound for Edinburgh' if view['northbound'] else 'southbound for London'}"
                     f", at {at}", style="dim")
        passengers = Text("Passengers left: ")
        left = view["passengers"]
        passengers.append(g.passenger * left, style="bold")
        passengers.append(g.passenger_gone * (rules.PASSENGERS - left), style="dim")
        passengers.append(f" {left} of {rules.PASSENGERS}")
        booty = Text("Booty turned: ")
        booty.append(" ".join(booty_card(card, g) for card in view["face_up"]) or "none")
        deck = Text("left in the deck: ")
        deck.append(" · ".join(f"{kind} {count}" for kind, count in zip(KINDS, view["booty_left"])))
        # Two facts a line: the recap under the board needs the rows (at 80 columns each wraps as before).
        where.append(" · ", style="dim")
        where.append_text(passengers)
        booty.append(" · ", style="dim")
        booty.append_text(deck)
        lines: list[Text] = [road, where, booty]
        robbery = self._robbery(frame)
        if robbery is not None:
            lines.append(robbery)
        lines += self._piles(frame)
        return lines  # the pane redraws only the lines that changed

    def _robbery(self, frame: TableFrame) -> Text | None:
        view = view_of(frame)
        if view["phase"] not in ("declare", "draw") or view.get("robber") is None:
            return None
        text = Text(f"{frame.plain_name(view['robber'])} robs at {coach_town(view)}", style="bold")
        if view["phase"] == "draw":
            turned = view["turned"]
            text.append(f": {view['declared']} passengers declared; turned "
                        f"{' + '.join(map(str, turned)) or 'nothing'} = {sum(turned)} gold so far")
        return text

    def _piles(self, frame: TableFrame) -> list[Text]:
        """Each seat's pile (T12: its top), broken into lines only between seats (a seat's name
        and its card never part)."""
        view = view_of(frame)
        parts = []
        for seat in range(view["players"]):
            if view.get("piles"):
                shown = ", ".join(view["piles"][seat]) or "—"
            else:
                shown = view["pile_tops"][seat] or "—"
                if view["pile_sizes"][seat] > 1:
                    # (T12: the cards beneath are not seen; "face down" read as ambush cards laid)
                    shown += f" (+{view['pile_sizes'][seat] - 1} beneath)"
            parts.append(f"{frame.plain_name(seat)}: {shown}")
        parts[0] = ("Played piles: " if view.get("piles") else "Pile tops: ") + parts[0]
        width = self._content_width()
        return [Text(line) for line in lines_of_parts(parts, width if width > 0 else 1000)]
