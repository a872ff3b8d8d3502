"""A QR code drawn in a terminal: two modules to a character cell with half blocks, dark on light whatever
the theme, the quiet zone round it light too, so that a phone's camera reads the code off the screen."""

from __future__ import annotations

import segno
from rich.style import Style
from rich.text import Text

#: Light modules (and the quiet zone) and dark ones, as fixed colours: a theme's own would not be
#: black on white, and a camera needs the contrast (and light round the code, not a dark terminal).
LIGHT, DARK = "#ffffff", "#000000"
#: The quiet zone of the standard: four modules of light on every side.
QUIET_ZONE = 4
#: (top dark, bottom dark) → the character for one cell of two modules, one over the other.
HALF_BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}


def modules(link: str) -> list[list[bool]]:
    """The code's modules (True for dark) with the quiet zone round them, row by row."""
    code = segno.make(link, micro=False)
    return [[bool(module) for module in row] for row in code.matrix_iter(scale=1, border=QUIET_ZONE)]


def qr_picture(link: str) -> Text:
    """The code of ``link`` as lines of half blocks: dark on light, one line for every two rows of
    modules (an odd last row pairs with a light one)."""
    rows = modules(link)
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    picture = Text(no_wrap=True, overflow="crop", end="")
    style = Style(color=DARK, bgcolor=LIGHT)
    lines = ["".join(HALF_BLOCKS[pair] for pair in zip(top, bottom)) for top, bottom in zip(rows[::2], rows[1::2])]
    picture.append("\n".join(lines), style)
    return picture


def read_picture(lines: list[str]) -> list[list[bool]]:
    """The modules back from the picture's lines (the inverse of ``qr_picture``, for tests and checks)."""
    cells = {character: pair for pair, character in HALF_BLOCKS.items()}
    rows: list[list[bool]] = []
    for line in lines:
        pairs = [cells[character] for character in line]
        rows.append([top for top, _ in pairs])
        rows.append([bottom for _, bottom in pairs])
    return rows
