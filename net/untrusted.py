"""Text from another party, made fit to show: the one filter the host uses on what players send and the
client uses on everything a host sends.

"Printable" is Python's ``str.isprintable``: it refuses every C0 and C1 control character (ESC among them,
so no escape sequence survives), the bidi and zero-width format characters (U+200B–U+200F, U+202A–U+202E,
U+2066–U+2069, U+FEFF), line and paragraph separators and unassigned code points. A host's own text (log
lines, notices) is printable by construction, so filtering it changes nothing a fair host sends.

Names get one more step: the app marks seats with glyphs and words beside the name (``⚙ normal`` for a
bot, ``(you)`` for the reader, ``▶`` for whose turn it is); a name carrying one would pass for another
kind of seat, so the host takes them out of every player's name.
"""

from __future__ import annotations

import os

import re
from typing import Any

from core.bots import ALIASES, LEVELS
from net.protocol import NAME_LIMIT

#: The glyphs the app draws beside names as marks (tui/glyphs.py: bot, away, turn, laid, star, highwayman);
#: a test holds the two lists together.
NAME_MARK_GLYPHS = "⚙⌁▶✓★☠"
_BOT_WORDS = "|".join(sorted({*LEVELS, *ALIASES}))
#: The marks in words: "(you)", a bot's "(normal bot)" or "(a bot stood in)", and the plain-ASCII bot mark
#: "bot normal" (``--ascii`` draws the word where the glyph would be).
_NAME_MARK_WORDS = re.compile(rf"\(\s*you\s*\)|\([^()]*\bbots?\b[^()]*\)|\bbot\s+(?:{_BOT_WORDS})\b",
                              re.IGNORECASE)
_SPACES = re.compile(r"\s{2,}")


def printable(text: str, newlines: bool = False) -> str:
    """``text`` with every character that is not printable taken out (``newlines``: line breaks stay)."""
    if text.isprintable():
        return text
    if newlines:
        return "\n".join(printable(line) for line in text.split("\n"))
    return "".join(char for char in text if char.isprintable())


def printable_message(value: Any) -> Any:
    """A decoded message from a host with every string in it printable (map keys too; line breaks stay in
    values): nothing a host sends can reach a terminal as an escape sequence, whichever screen shows it.
    ``RecursionError`` for nesting deeper than Python's stack (the caller refuses the message)."""
    if isinstance(value, str):
        return printable(value, newlines=True)
    if isinstance(value, dict):
        return {printable(key) if isinstance(key, str) else key: printable_message(item)
                for key, item in value.items()}
    if isinstance(value, list):
        return [printable_message(item) for item in value]
    return value


def forged_marks(name: str) -> list[str]:
    """The seat marks a name carries (``["⚙", "(you)"]``), in the order they appear; none for a fair name."""
    glyphs = [char for char in name if char in NAME_MARK_GLYPHS]
    return glyphs + [match.group(0) for match in _NAME_MARK_WORDS.finditer(name)]


def player_name(name: str | None) -> str:
    """A player's name as everyone will see it: printable, without the app's seat marks, single-spaced, at
    most ``NAME_LIMIT`` characters ("" if nothing is left)."""
    text = printable(name or "")
    text = _NAME_MARK_WORDS.sub(" ", "".join(char for char in text if char not in NAME_MARK_GLYPHS))
    return _SPACES.sub(" ", text).strip()[:NAME_LIMIT].rstrip()


def name_problem(name: str) -> str | None:
    """What keeps ``name`` from being a player's name as typed (for a check before joining), or None."""
    if not name.strip() or not name.isprintable():
        return f"a name is 1 to {NAME_LIMIT} printable characters"
    if len(name) > NAME_LIMIT:
        return f"a name has at most {NAME_LIMIT} characters (this one has {len(name)})"
    marks = forged_marks(name)
    if marks:
        return (f"a name may not carry {' or '.join(repr(mark) for mark in dict.fromkeys(marks))}: the "
                "tables use it to mark bots and you")
    return None


def read_at_most(path: "str | os.PathLike[str]", limit: int) -> bytes:
    """A file someone else may have made, read whole if it is at most ``limit`` bytes: ``OSError`` if it
    cannot be read, ``ValueError`` if it is longer (no more than ``limit + 1`` bytes are ever read)."""
    with open(path, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"longer than {limit} bytes")
    return data
