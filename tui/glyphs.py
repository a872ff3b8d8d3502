"""The few pictures the app draws, each with a plain-ASCII stand-in.

The ASCII set is used with ``--ascii`` or when the terminal cannot draw the pictures (a non-UTF-8
locale, the Linux console). Nothing is told by a glyph alone: each sits beside words.
"""

from __future__ import annotations

import locale
import os
import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class Glyphs:
    coach: str
    passenger: str
    passenger_gone: str
    pistol: str
    block: str
    runner: str
    highwayman: str
    turn: str
    laid: str
    choosing: str
    bot: str
    away: str
    die: tuple[str, ...]
    road: str
    north: str
    south: str
    filled: str
    empty: str
    #: The edge of a block that can be picked (a coach, a place in town); green when a choice picks it.
    bar: str = "▌"
    #: A card's outline: top left, top, top right, side, bottom left, bottom right.
    box: str = "╭─╮│╰╯"
    #: A chart's bars, lowest to highest.
    bars: str = "▁▂▃▄▅▆▇█"
    #: A winner, or the suggested move.
    star: str = "★"

    def dice(self, values: list[int]) -> str:
        return " ".join(self.die[value] if 1 <= value <= 6 else f"d{value}" for value in values)


UNICODE = Glyphs(coach="▣", passenger="●", passenger_gone="○", pistol="✕", block="⊘", runner="»",
                 highwayman="☠", turn="▶", laid="✓", choosing="…", bot="⚙", away="⌁",
                 die=("", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"), road="─", north="▲", south="▼",
                 filled="▮", empty="▯")

ASCII = Glyphs(coach="[=]", passenger="*", passenger_gone=".", pistol="x", block="#", runner="R",
               highwayman="#", turn=">", laid="+", choosing="...", bot="bot", away="away",
               die=("", "d1", "d2", "d3", "d4", "d5", "d6"), road="-", north="^", south="v",
               filled="#", empty=".", bar="|", box="+-+|++", bars="_.-=+*#", star="*")


def terminal_draws_unicode() -> bool:
    """False where the pictures would come out as garbage: a non-UTF-8 terminal or the Linux console."""
    if os.environ.get("TERM") == "linux":
        return False
    encoding = (getattr(sys.stdout, "encoding", None) or locale.getpreferredencoding(False) or "").lower()
    return "utf" in encoding


def choose_glyphs(ascii_only: bool = False) -> Glyphs:
    return ASCII if ascii_only or not terminal_draws_unicode() else UNICODE
