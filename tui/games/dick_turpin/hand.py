"""The Famous Dick Turpin: your stand & deliver cards and your face-down card."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text

from core.games.dick_turpin import rules
from tui.frame import TableFrame
from tui.games.dick_turpin.hooks import view_of
from tui.widgets.component import component_style
from tui.widgets.lines import Shown
from tui.widgets.pane import ClickPane


def face_down_in_words(view: dict[str, Any], seat: int | None) -> str:
    """Your face-down card; once the coach has come to it, it is turned up on your pile (T12), not "nothing
    laid yet" as the hand said after every reveal."""
    if view.get("my_card"):
        return str(view["my_card"])
    top = view["pile_tops"][seat] if seat is not None and view.get("pile_tops") else None
    if view.get("phase") != "choose" and top:
        return f"nothing (your {top} is turned up on your pile)"
    return "nothing laid yet"


class Hand(ClickPane):
    """Your stand & deliver cards as outlined cards, as many to a row as fit (the ones you may lay now in
    bold with a green outline), and your face-down card. A click on a card lays it."""

    COMPONENT_CLASSES = ClickPane.COMPONENT_CLASSES | {"turpin-hand--outline", "turpin-hand--outline-playable"}

    def draw(self, frame: TableFrame) -> Shown:
        view = view_of(frame)
        hand = view.get("hand") or []
        playable = {choice["action"].get("town") for choice in frame.choices}
        inner = max(len(town) for town in rules.TOWNS)  # every card as wide: none jumps as the hand thins
        # The width without a scrollbar: one that came for three-line cards goes with one-line ones.
        width = self.content_region.width
        columns = max(1, (width + 1) // (inner + 3)) if width > 0 else 3
        rows_of_cards = -(-len(hand) // columns)
        face_down = Text("Face down: ", style="bold")
        face_down.append(face_down_in_words(view, frame.seat))
        face_down_rows = -(-face_down.cell_len // width) if width > 0 else 1  # it wraps in a narrow pane
        # Cards three lines high where the pane has the rows for them and the face-down line, else one
        # line each: a hand behind a scrollbar hides the towns you may lay.
        tall = self.content_size.height <= 0 or rows_of_cards * 3 + 1 + face_down_rows <= self.content_size.height
        cards = [self._card(town, inner, town in playable) if tall else [self._flat_card(town, inner, town in playable)]
                 for town in hand]
        lines: list[Text] = []
        for first in range(0, len(cards), columns):
            row = cards[first:first + columns]
            lines += [Text(" ").join(card[line] for card in row) for line in range(len(row[0]))]
        if not hand:  # a line of its own: beside the face-down card's own brackets it read as one
            lines.append(Text("No stand & deliver cards left this round.", style="dim"))
        return [*lines, Text(), self.part(face_down, "face-down")]

    def _flat_card(self, town: str, inner: int, playable: bool) -> Text:
        """A town card one line high, as wide as a tall one: its outline's sides around the name."""
        side = self.glyphs.box[3]
        outline = Style(color=component_style(
            self, "turpin-hand--outline-playable" if playable else "turpin-hand--outline").color)
        card = Text()
        card.append(side, style=outline)
        card.append(town.center(inner), style="bold" if playable else "")
        card.append(side, style=outline)
        return self.part(card, f"town:{town}")

    def _card(self, town: str, inner: int, playable: bool) -> list[Text]:
        """A town card three lines high, ``inner`` columns inside its outline; all of it clicks."""
        top_left, edge, top_right, side, bottom_left, bottom_right = self.glyphs.box
        outline = Style(color=component_style(
            self, "turpin-hand--outline-playable" if playable else "turpin-hand--outline").color)
        middle = Text()
        middle.append(side, style=outline)
        middle.append(town.center(inner), style="bold" if playable else "")
        middle.append(side, style=outline)
        card = [Text(top_left + edge * inner + top_right, style=outline), middle,
                Text(bottom_left + edge * inner + bottom_right, style=outline)]
        return [self.part(line, f"town:{town}") for line in card]
