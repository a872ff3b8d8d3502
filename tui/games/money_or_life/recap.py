"""Your Money or Your Life's recap: the latest round that came to something, from its public events — the
town (market, tavern, the poor, the guards fought), the rival, who declared, retired or died. Where each
rode, the round's robberies and the town guards' rolls have their own lines on the board above it."""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text

from tui.frame import TableFrame
from tui.games.generic import chunks_since, recap_lines

#: The event that starts a round ("Round 3: North: …").
ROUND_START = re.compile(r"Round (\d+): ")
#: The reveal of a pick: the round has come to something once one is told.
REVEAL = re.compile(r" rolled \d+ and \d+ and chose ")
#: A ruling's id in the engine's words ("(Y16)"): the log keeps them, the recap has no room.
RULING = re.compile(r" \(Y\d+\)")
#: The public lines the recap tells (the picks, robberies and guards are the board's own lines; secret
#: dice, "has chosen" and dice rolled on are the log's).
TOLD = re.compile(r" buys | pays \d+ guineas | gives \d+ guineas | meets \d+ guards?| retires | is dead$"
                  r"| now plays as a scoundrel|^The rival ")


def round_events(frame: TableFrame) -> tuple[str, list[dict[str, Any]]]:
    """The latest round whose picks were revealed: its number and its events (a round still being
    picked leaves the one before it on show)."""
    for chunk in chunks_since(frame, ROUND_START):
        found = ROUND_START.match(str(chunk[0].get("text", ""))) if chunk else None
        if found is not None and any(REVEAL.search(str(event.get("text", ""))) for event in chunk):
            return found[1], chunk[1:]
    return "", []


def recap(frame: TableFrame) -> list[Text]:
    """The latest round's town, rival and fates, on one line that wraps (the board has few rows)."""
    number, events = round_events(frame)
    told = [RULING.sub("", str(event["text"])) for event in events if TOLD.search(str(event.get("text", "")))]
    return recap_lines(f"Round {number}:", [" · ".join(told)] if told else [])
