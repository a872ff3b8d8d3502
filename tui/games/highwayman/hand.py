"""Highwayman: your cards, the playable ones marked because a choice plays them."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from tui.frame import TableFrame
from tui.games.highwayman.hooks import card_name, card_points, choice_order, drawn_card, drawn_mark, view_of
from tui.widgets.lines import Shown
from tui.widgets.pane import ClickPane, card_rows


def playable_cards(frame: TableFrame) -> set[str]:
    """The cards some choice of the prompt puts down (a run counts for each of its cards)."""
    found: set[str] = set()
    for choice in frame.choices:
        action = choice["action"]
        if action.get("do") == "play":
            found.update(action.get("cards") or [])
        elif action.get("do") in ("highwayman", "runner"):
            found.add(action["do"])
    return found


class Hand(ClickPane):
    """Your cards sorted by route, in as many columns as fit: the ones a choice puts down marked (and
    lit), the one just drawn too; a click on a card plays it, a click on the line under them keeps."""

    COMPONENT_CLASSES = ClickPane.COMPONENT_CLASSES | {"hw-hand--card"}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("highwayman")

    def draw_key(self, frame: TableFrame) -> object:
        # Your hand changes on your own moves only: the other seats' moves leave it as it was drawn.
        view = view_of(frame)
        return (tuple(view.get("hand") or ()), frozenset(playable_cards(frame)), drawn_card(view),
                bool(frame.choices), self._content_width(), self.content_region.size, self.hovered)

    def draw(self, frame: TableFrame) -> Shown:
        view, g = view_of(frame), self.glyphs
        hand = view.get("hand") or []
        playable = playable_cards(frame)
        drawn = drawn_card(view)
        drawn_marked = False
        labels: list[Text] = []
        for card in hand:
            label = Text()
            label.append(f"{g.laid} " if card in playable else "  ", style="bold")
            label.append(card_name(card))
            if card == drawn and not drawn_marked:
                drawn_marked = True
                label.append(f" {drawn_mark(g)}", style="bold")
                label.stylize("bold underline", 2)
            labels.append(label)
        width = max((label.cell_len for label in labels), default=0) + 1
        cards = []
        for card, label in zip(hand, labels):
            label.pad_right(width - label.cell_len)  # every card as wide as the widest, and all of it clicks
            label.stylize(self.background_of("hw-hand--card"))
            cards.append(self.part(label, f"card:{card}", playable=card in playable))
        footer = self.part(self._footer(frame, hand, playable, drawn), "keep" if drawn else "hand")
        # As many columns as fit the pane without a scroll bar (a scroll bar that came with a long hand
        # would take the width of the second column, and the hand fall to one, taller still); only a hand
        # too tall even so is laid out for the width beside its scroll bar.
        rows = card_rows(cards, self.content_region.width)
        if len(rows) + 2 > self.content_region.height:
            rows = card_rows(cards, self._content_width())
        if 0 < self.content_region.height < len(rows):
            rows = self._by_road(hand, playable, drawn)
        return [*rows, *self._fitted_footer(footer, len(rows), drawn)]

    def _by_road(self, hand: list[str], playable: set[str], drawn: str | None) -> list[Text]:
        """A hand too long for the pane's rows, a line a road: "▶ Bath 1 2 6 9", each number a card of its
        own to click (the playable ones bold), "Highwayman ×2" for the cards of one name. Every card stays
        in view, where one a line would have hidden the last behind a scroll bar."""
        g = self.glyphs
        groups: dict[str, list[str]] = {}
        for card in hand:
            groups.setdefault(card_name(card).split(" ")[0] if ":" in card else card_name(card), []).append(card)
        lines = []
        for head, cards in groups.items():
            line = Text(f"{g.laid} " if playable.intersection(cards) else "  ", style="bold")
            if ":" not in cards[0]:  # Highwayman, Runner: the same card, as many times as held
                label = Text(head + (f" ×{len(cards)}" if len(cards) > 1 else ""))
                if drawn in cards:
                    label.append(f" {drawn_mark(g)}", style="bold")
                line.append_text(self.part(label, f"card:{cards[0]}", playable=cards[0] in playable))
                lines.append(line)
                continue
            line.append(head)
            for card in cards:
                number = Text(" " + card_name(card).split(" ")[-1], style="bold" if card in playable else "")
                if card == drawn:
                    number.append(drawn_mark(g), style="bold")
                line.append_text(self.part(number, f"card:{card}", playable=card in playable))
            lines.append(line)
        return lines

    def _fitted_footer(self, footer: Text, card_rows: int, drawn: str | None) -> list[Text]:
        """The footer under the cards, as much of it as the pane has rows for: the cards come first (the
        move list says what to do with the drawn card too), so a short pane gets a short footer or none."""
        width, height = self._content_width(), self.content_region.height
        if width <= 0 or height <= 0:
            return [Text(), footer]

        def rows_of(text: Text) -> int:
            return len(text.wrap(self.app.console, width))
        if card_rows + 1 + rows_of(footer) <= height:
            return [Text(), footer]
        short = Text(f"{drawn_mark(self.glyphs)} drew: {card_name(drawn)}" if drawn else "", style="bold")
        if drawn and card_rows + rows_of(short) <= height:
            return [self.part(short, "keep")]
        return []

    @staticmethod
    def _keep_key(frame: TableFrame) -> str:
        """The number key of the "keep" move, as the move list numbers it (``choice_order``): " (key 1)"."""
        order = choice_order(frame) or list(range(len(frame.choices)))
        for position, index in enumerate(order):
            if frame.choices[index]["action"].get("do") == "keep":
                return f" (key {position + 1})"
        return ""

    def _footer(self, frame: TableFrame, hand: list[str], playable: set[str], drawn: str | None) -> Text:
        g = self.glyphs
        text = Text()
        if drawn:
            text.append(f"{drawn_mark(self.glyphs)} drew: {card_name(drawn)}", style="bold")
            if not frame.choices:  # sent already: no advice on a choice that is made
                text.append("\n")
            elif drawn in playable:
                text.append(f" — play it now, or keep it{self._keep_key(frame)}\n")
            else:
                text.append(f" — it cannot go down now: keep it{self._keep_key(frame)}\n")
        elif not hand:
            text.append("No cards in hand.\n", style="bold")
        points = sum(card_points(card) for card in hand)
        text.append(f"{len(hand)} card{'s' * (len(hand) != 1)} · {points} pts if the game ended now")
        if playable:
            text.append(f"  ({g.laid} playable now)", style="dim")
        return text
