"""``--ascii`` for every cell on the screen, Textual's own widgets included.

The game's pictures have ASCII stand-ins (``tui.glyphs``), but a screen holds more than pictures: the
tabs' underline, the footer's separator, scroll bars and arrows, a cut word's ellipsis, the "·" and "—"
of our own lines. On a terminal that cannot draw them (a non-UTF-8 locale, PuTTY set to Latin-1) each came
out as garbage. ``AsciiOnly`` turns each character outside ASCII into its look-alike, cell for cell, as the
last step before the terminal: Textual applies the app's line filters to every line it draws. (Textual
keeps line filters for its own uses so far, NO_COLOR among them; this one only rewrites characters.)
"""

from __future__ import annotations

from rich.cells import get_character_cell_size
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

#: Each character outside ASCII the app may draw, and its ASCII look-alike of the same width (a cut
#: word ends in "~", as DOS cut long file names, rather than a "." that reads as a full stop).
LOOK_ALIKES = {
    **dict.fromkeys("─━═╴╶╸╺╼╾┄┅┈┉", "-"),
    **dict.fromkeys("│┃║╵╷╹╻╽╿┆┇┊┋▏▎▍▌▋▊▉▐▕", "|"),
    **dict.fromkeys("╭╮╰╯┌┐└┘┏┓┗┛╔╗╚╝├┤┬┴┼┣┫┳┻╋╠╣╦╩╬┍┑┕┙┎┒┖┚", "+"),
    **dict.fromkeys("▁▂▃▄", "_"), **dict.fromkeys("▅▆▇█▓▒░■▮", "#"), **dict.fromkeys("▀▔", "-"),
    **dict.fromkeys("▲△▴↑", "^"), **dict.fromkeys("▼▽▾↓", "v"), **dict.fromkeys("◀◁◂←", "<"),
    **dict.fromkeys("▶▷▸→", ">"), **dict.fromkeys("·•∙⋅", "."), **dict.fromkeys("—–‒−", "-"),
    "…": "~", "‘": "'", "’": "'", "“": '"', "”": '"', "×": "x", "£": "L", "≥": ">", "≤": "<", "±": "+",
    "●": "*", "○": "o", "◐": "o", "✓": "+", "✔": "+", "✕": "x", "✗": "x", "▯": ".", "⚙": "*",
    "\u00a0": " ",
}


def ascii_text(text: str) -> str:
    """``text`` with every character outside ASCII drawn as ASCII in as many cells ("?" if unknown)."""
    if text.isascii():
        return text
    return "".join(char if char.isascii() else
                   LOOK_ALIKES.get(char) or "?" * get_character_cell_size(char)
                   for char in text)


class AsciiOnly(LineFilter):
    """Every line the app draws, in ASCII only (``ascii_text``); styles and controls are kept."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [segment if segment.control or segment.text.isascii()
                else Segment(ascii_text(segment.text), segment.style, segment.control)
                for segment in segments]
