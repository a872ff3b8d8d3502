"""One seat's standing over a game as a row of bars, on a scale shared by every row of the chart: rows
scaled each to their own highest (Textual's Sparkline) drew a 9 as tall as a 73, and three seats that all
ended on 17 at three heights."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget


def bars(points: list[float], width: int, low: float, high: float, levels: str) -> str:
    """``points`` across ``width`` columns, each the standing at the end of its stretch of the game (a
    short game's moves stretched over several columns each), drawn with ``levels`` (lowest first)
    between ``low`` and ``high``."""
    if not points or width <= 0:
        return ""
    span, count = high - low, len(points)
    columns = []
    for column in range(width):
        value = points[max(column * count // width, (column + 1) * count // width - 1)]
        level = 0 if span <= 0 else round((value - low) / span * (len(levels) - 1))
        columns.append(levels[max(0, min(len(levels) - 1, level))])
    return "".join(columns)


class ScoreBars(Widget):
    """A row of the results chart; ``low`` and ``high`` are the whole chart's."""

    def __init__(self, points: list[float], low: float, high: float, levels: str, *, classes: str = "") -> None:
        super().__init__(classes=classes)
        self.points, self.low, self.high, self.levels = points, low, high, levels

    def render(self) -> Text:
        return Text(bars(self.points, self.size.width, self.low, self.high, self.levels), no_wrap=True)
