"""The Famous Dick Turpin's recap: the latest journey stop by stop ("Warwick: you lost the duel to Claude
Duval; Claude Duval took 5 gold: you paid 3"), told from the public events every seat's log has."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from core.games.dick_turpin import rules
from tui.frame import TableFrame
from tui.games.generic import chunks_since, recap_lines

#: The event that starts a journey (its words are the engine's, its seats told in names after the colon).
JOURNEY_START = re.compile(r"Round (\d+), journey (\d+):")


@dataclass
class Stop:
    """One town where the coach was held up, as the events tell it."""

    town: str
    ambushers: list[int]
    fled: list[int] = field(default_factory=list)  # turned a pistol in the duel
    robber: int | None = None
    shot: bool = False
    taken: list[int] | None = None


def journey_events(frame: TableFrame) -> tuple[str, list[dict[str, Any]]]:
    """The latest journey that has come to something (a stop, or a town shown on an empty coach): its
    heading and its events. A journey just begun leaves the one before it on show."""
    for chunk in chunks_since(frame, JOURNEY_START):
        found = JOURNEY_START.match(str(chunk[0].get("text", ""))) if chunk else None
        if found is not None and any("town" in event for event in chunk):
            return f"Round {found[1]}, journey {found[2]}", chunk[1:]
    return "", []


def stops_of(events: list[dict[str, Any]]) -> tuple[list[Stop], list[tuple[int, str]]]:
    """The journey's stops, and the towns shown when the coach ran out of passengers (seat, town)."""
    stops: list[Stop] = []
    shown: list[tuple[int, str]] = []
    for event in events:
        text = str(event.get("text", ""))
        if isinstance(event.get("seats"), list) and "town" in event:
            stops.append(Stop(str(event["town"]), [s for s in event["seats"] if isinstance(s, int)]))
        elif "town" in event and isinstance(event.get("seat"), int):
            shown.append((event["seat"], str(event["town"])))
        elif stops and isinstance(event.get("seat"), int):
            stop = stops[-1]
            if text.startswith("Duel:"):
                if event.get("card") == rules.PISTOL:
                    stop.fled.append(event["seat"])
            elif isinstance(event.get("taken"), list):
                stop.robber, stop.taken = event["seat"], [int(a) for a in event["taken"]]
            elif event.get("card") == rules.PISTOL:
                stop.robber, stop.shot = event["seat"], True
    return stops, shown


def stop_line(frame: TableFrame, stop: Stop) -> str:
    """One stop in words, as the seat reading it was in it: "Warwick: you lost the duel to Claude Duval,
    who took 5 gold (you paid 3, Tom King 2)"."""
    def who(seat: int) -> str:
        return "you" if frame.is_me(seat) else frame.plain_name(seat)

    robber = stop.robber if stop.robber is not None else (stop.ambushers[0] if len(stop.ambushers) == 1 else None)
    if len(stop.ambushers) > 1:
        left = [seat for seat in stop.ambushers if seat not in stop.fled]
        robber = left[0] if len(left) == 1 else robber
        if robber is None:
            return f"{stop.town}: a duel between {', '.join(who(seat) for seat in stop.ambushers)}"
        losers = ", ".join(who(seat) for seat in stop.ambushers if seat != robber)
        if any(frame.is_me(seat) for seat in stop.ambushers if seat != robber):
            held, subject = f"you lost the duel to {who(robber)}, who", ""
        else:
            held, subject = f"{who(robber)} beat {losers} in a duel,", ""
    elif robber is not None:
        held, subject = "", who(robber)
    else:
        return f"{stop.town}: the coach is held up"
    if stop.shot:
        did = "turned a pistol: nothing taken"
    elif stop.taken is not None:
        paid = [f"{who(seat)}{' paid' if number == 0 else ''} {amount}"
                for number, (seat, amount) in enumerate((s, a) for s, a in enumerate(stop.taken) if a)]
        did = f"took {sum(stop.taken)} gold" + (f" ({', '.join(paid)})" if paid else "")
    else:
        did = ("are" if subject == "you" else "is") + " robbing the coach"
    return f"{stop.town}: " + " ".join(part for part in (held, subject, did) if part)


def recap(frame: TableFrame) -> list[Text]:
    """The latest journey, a line a stop; it stays until the next journey comes to a stop."""
    heading, events = journey_events(frame)
    stops, shown = stops_of(events)
    lines = [stop_line(frame, stop) for stop in stops]
    if shown:
        lines.append("The coach ran empty: " + ", ".join(
            f"{'you' if frame.is_me(seat) else frame.plain_name(seat)} waited at {town}" for seat, town in shown))
    return recap_lines(heading + ":", lines)
