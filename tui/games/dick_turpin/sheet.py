"""The Famous Dick Turpin: your purse and place, and everyone's at a glance."""

from __future__ import annotations

from rich.text import Text

from core.games.dick_turpin import rules
from tui.frame import TableFrame
from tui.games.dick_turpin.hooks import view_of
from tui.widgets.lines import Shown
from tui.widgets.pane import FramePane, text_columns


def ordinal(number: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number if number < 20 else number % 10, "th")
    return f"{number}{suffix}"


class Sheet(FramePane):
    """Your purse and place, and everyone's at a glance."""

    def draw(self, frame: TableFrame) -> Shown:
        view = view_of(frame)
        gold = view["gold"]
        rows: list[list[Text | str]] = [[Text(h, style="bold") for h in ("seat", "gold", "cards", "pile")]]
        for seat in range(len(gold)):
            rows.append([Text(frame.plain_name(seat), style="bold" if frame.is_me(seat) else ""), str(gold[seat]),
                         str(view["hand_sizes"][seat]), view["pile_tops"][seat] or "—"])
        if frame.seat is not None:
            mine = gold[frame.seat]
            place = 1 + sum(1 for other in gold if other > mine)
            tied = sum(1 for other in gold if other == mine) > 1  # equal gold shares a place (T14)
            text = Text(f"Gold {mine} of {rules.TOTAL_GOLD} · {'tied ' if tied else ''}{ordinal(place)} place\n",
                        style="bold", no_wrap=True, overflow="ellipsis")
        else:
            most = max(gold)
            leaders = [seat for seat in range(len(gold)) if gold[seat] == most]
            leading = (f"Leader: {frame.plain_name(leaders[0])} with {most} gold" if len(leaders) == 1 else
                       f"{len(leaders)} lead with {most} gold each" if len(leaders) < len(gold) else
                       f"Level: {most} gold each")
            text = Text(leading + "\n", style="bold", no_wrap=True, overflow="ellipsis")
        # Names give way to the other columns (a pile top is a town, up to nine letters): a cut name is
        # still known by its start, a cut town is not.
        # One space between columns where two would cut a name (at 100 columns, beside the hand).
        longest = max(len(str(row[3])) for row in rows)
        names = max(len(frame.plain_name(seat)) for seat in range(len(gold)))
        gap = 2 if names + 4 + 5 + longest + 3 * 2 <= self.content_region.width else 1
        others = 4 + 5 + longest + 3 * gap
        text.append_text(text_columns(rows, "lrrl", gap=gap,
                                      name_width=max(8, min(24, self.content_region.width - others))))
        return text
