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

import msgpack

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


#: What one file someone else may have made may hold once decoded: strings and byte strings of at most
#: 64 KiB, maps and arrays of at most 100,000 entries, and ``FILE_ITEMS`` entries in all (every map's and
#: array's entries counted), so its memory is bounded by what it holds, not by how it is packed (a file of
#: empty maps costs 64 bytes of memory per byte of file without it).
FILE_STRING = 64 * 1024
FILE_ENTRIES = 100_000
FILE_ITEMS = 1_000_000


class FileBudget:
    """Counts the entries of the maps and arrays decoded so far (from one file, in one or more pieces);
    past ``items`` it stops the decoding."""

    def __init__(self, items: int = FILE_ITEMS) -> None:
        self.left = items

    def take(self, container: Any) -> Any:
        self.left -= len(container) + 1
        if self.left < 0:
            raise ValueError("too many items")
        return container


def decode_file(data: bytes, budget: FileBudget | None = None) -> Any:
    """One msgpack object from a file someone else may have made (or one piece of it, counted against the
    file's ``budget``), decoded with every limit explicit (``raw=False``, ``strict_map_key=True``, no
    extension types, the sizes above): ``ValueError`` for anything that is not exactly one such object."""
    budget = budget or FileBudget()
    unpacker = msgpack.Unpacker(
        raw=False, strict_map_key=True, use_list=True, max_buffer_size=max(len(data), 1),
        max_str_len=FILE_STRING, max_bin_len=FILE_STRING, max_array_len=FILE_ENTRIES, max_map_len=FILE_ENTRIES,
        max_ext_len=0, object_hook=budget.take, list_hook=budget.take)
    try:
        unpacker.feed(data)
        value = unpacker.unpack()
    except msgpack.OutOfData:
        raise ValueError("the file ends in the middle of an object") from None
    except (TypeError, OverflowError, RecursionError, MemoryError, msgpack.UnpackException) as error:
        raise ValueError(f"not msgpack ({type(error).__name__})") from None
    if unpacker.tell() != len(data):
        raise ValueError("more than one object")
    return value
