"""Highwayman: the series sheet, each game's scores and the totals."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from core.games.highwayman import rules
from tui.frame import TableFrame
from tui.games.highwayman.hooks import card_points, view_of, who
from tui.widgets.lines import Shown
from tui.widgets.pane import FramePane, text_columns


class Sheet(FramePane):
    """The series: every seat's cards in hand and points by game and in total; your hand's points in full."""

    def draw(self, frame: TableFrame) -> Shown:
        view = view_of(frame)
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f"Game {view['game_number']} of {view['series_games']} · lowest total wins (H7)\n",
                    style="bold")
        if "hand" in view:
            text.append_text(self._yours(view))
            text.append("\n")
        text.append_text(self._seats(frame))
        last = self._last_game(frame)
        if last is not None:
            text.append("\n")
            text.append_text(last)
        return text

    def _yours(self, view: dict[str, Any]) -> Text:
        hand = view.get("hand") or []
        points = sum(card_points(card) for card in hand)
        text = Text()
        text.append(f"Left in your hand: {points} pts (H6)", style="bold")
        parts = []
        for name, names, card in (("Highwayman", "Highwaymen", rules.HIGHWAYMAN), ("Runner", "Runners", rules.RUNNER)):
            held = hand.count(card)
            if held:
                parts.append(f"{f'{held} {names}' if held > 1 else name} {held * card_points(card)}")
        numbered = [card for card in hand if card not in (rules.HIGHWAYMAN, rules.RUNNER)]
        if numbered:
            parts.append(f"numbers {sum(map(card_points, numbered))}")
        if len(parts) > 1:  # the Highwayman's 20 and a Runner's 10 are worth seeing apart
            text.append("\n  " + " + ".join(parts), style="dim")
        return text

    def _seats(self, frame: TableFrame) -> Text:
        """One row a seat (numbered as the log numbers them): cards in hand, each game's points, the
        total, then the name last, so a long name is what an ellipsis cuts, never a figure."""
        view = view_of(frame)
        games = view["history"]
        heads = ["#", "cards", *[f"g{game['game']}" for game in games], "total", "seat"]
        rows: list[list[Text | str]] = [[Text(head, style="bold") for head in heads]]
        low = min(view["totals"]) if view["totals"] else 0
        for seat, total in enumerate(view["totals"]):
            name = Text(frame.plain_name(seat), style="bold" if frame.is_me(seat) else "")
            if frame.is_me(seat):
                name.append(" (you)", style="dim")
            scores = [str(game["scores"][seat]) + ("*" if seat in game["winners"] else " ") for game in games]
            lead = Text(str(total), style="bold" if games and total == low else "")
            rows.append([str(seat + 1), str(view["hand_sizes"][seat]), *scores, lead, name])
        return text_columns(rows, "r" * (len(heads) - 1) + "l", gap=1)

    def _last_game(self, frame: TableFrame) -> Text | None:
        history = view_of(frame)["history"]
        if not history:
            return None
        game = history[-1]
        names = " and ".join(who(frame, seat) for seat in game["winners"])
        how = "went out" if game["ended"] == "out" else "lowest (nobody could play)"
        return Text(f"* won that game\nGame {game['game']}: {names} {how}.", style="dim")
