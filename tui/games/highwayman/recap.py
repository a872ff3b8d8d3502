"""Highwayman's recap: the turns since your last one, a few words each ("Moll Cutpurse: Highwayman on the
Portsmouth Road · Tom King: drew, kept it"), from the events this seat's log has."""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text

from tui.frame import TableFrame
from tui.games.generic import chunks_since, recap_lines

#: The event that deals a game of the series ("Game 2 of 3: …"): the recap starts from the latest.
DEAL = re.compile(r"Game \d+ of \d+: ")
#: A turn's lines in a few words (what follows the seat's name), the engine's words matched.
SHORT = [(re.compile(r"plays (.+?)\.( .*)?$"), r"\1"),
         (re.compile(r"opens the (.+) with its LONDON card\."), r"opened the \1"),
         (re.compile(r"holds up the (.+) with a Highwayman\."), r"Highwayman on the \1"),
         (re.compile(r"clears the (.+) with a Bow Street Runner\."), r"Runner on the \1"),
         (re.compile(r"has no play and draws a card.*"), "drew"),
         (re.compile(r"keeps the card\."), "kept it"),
         (re.compile(r"cannot play and the pack is empty: pass\."), "passed"),
         (re.compile(r"ends the turn\."), "")]
#: The card drawn, told to the seat that drew it alone.
YOU_DRAW = re.compile(r"You draw (.+)\.$")


def turns(frame: TableFrame, events: list[dict[str, Any]]) -> list[tuple[int, list[str]]]:
    """The events as turns, each line in a few words: a turn starts with a line that starts with a seat's
    name and takes the lines after it that name no other seat (the card you drew, told to you alone)."""
    names = sorted(((frame.plain_name(seat), seat) for seat in range(len(frame.seats))), key=lambda n: -len(n[0]))
    found: list[tuple[int, list[str]]] = []
    for event in events:
        text = str(event.get("text", ""))
        seat = next((seat for name, seat in names if text.startswith(name + " ")), None)
        if seat is None:
            drawn = YOU_DRAW.match(text)
            if drawn and found and found[-1][1] and found[-1][1][-1] == "drew":
                found[-1][1][-1] = f"drew {drawn[1]}"
            continue
        rest = text[len(frame.plain_name(seat)) + 1:]
        words = next((pattern.sub(short, rest) for pattern, short in SHORT if pattern.match(rest)), rest)
        if not found or found[-1][0] != seat:
            found.append((seat, []))
        if words:
            found[-1][1].append(words)
    return found


def recap(frame: TableFrame) -> list[Text]:
    """The turns since yours, on one line that wraps: your turn under way is the hand's, not told; your
    turn just ended is told until the next seat plays; a spectator (or a seat before its first turn)
    reads every seat's latest."""
    chunk = next(chunks_since(frame, DEAL), [])
    played = turns(frame, chunk[1:] if chunk and DEAL.match(str(chunk[0].get("text", ""))) else chunk)
    view = frame.view or {}
    if played and frame.is_me(played[-1][0]) and view.get("turn") == frame.seat:
        played.pop()
    mine = [number for number, (seat, _) in enumerate(played) if frame.is_me(seat)]
    if mine and mine[-1] == len(played) - 1:
        heading, since = "Your turn:", played[-1:]
    elif mine:
        heading, since = "Since your turn:", played[mine[-1] + 1:]
    else:
        heading, since = "Latest turns:", played[-max(1, len(frame.seats)):]
    said = [f"{'you' if frame.is_me(seat) else frame.plain_name(seat)}: {', '.join(words)}"
            for seat, words in since if words]
    return recap_lines(heading, [" · ".join(said)] if said else [])
