"""Your Money or Your Life's small words shared by its panes: money, dice, the seat's own sheet in the view,
a coach by its place, who rides where."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from core.games.money_or_life import rules
from tui.frame import TableFrame
from tui.glyphs import ASCII, Glyphs

#: A pick's place in words.
PLACE_NAMES = {**rules.DIRECTION_NAMES, "tavern": "the tavern", "market": "the market", "retire": "retirement"}


def view_of(frame: TableFrame) -> dict[str, Any]:
    """The seat's view of the table ({} before the first)."""
    return frame.view or {}


def my_player(view: dict[str, Any]) -> dict[str, Any] | None:
    """This seat's own player in the view (None for a spectator)."""
    seat = view.get("you")
    players = view.get("players") or []
    return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else None


def money(amount: int, glyphs: Glyphs) -> str:
    return f"{amount} gn" if glyphs is ASCII else f"£{amount}"


def dice(values: list[int] | tuple[int, ...], glyphs: Glyphs) -> str:
    """Dice as faces and numbers ("⚂3 ⚄5"); the ASCII faces ("d3") already carry the number."""
    if not values:
        return "—" if glyphs is not ASCII else "-"
    if glyphs is ASCII:
        return glyphs.dice(list(values))
    return " ".join(f"{glyphs.die[v]}{v}" if 1 <= v <= 6 else str(v) for v in values)


def round_track(view: dict[str, Any], glyphs: Glyphs) -> Text:
    done, rounds = view.get("round", 0), view.get("rounds", 16)
    text = Text("Round ", style="bold")
    text.append(glyphs.filled * done, style="bold")
    text.append(glyphs.empty * max(0, rounds - done), style="dim")
    text.append(f"  {done} of {rounds}")
    return text


def coach_at(view: dict[str, Any], where: str) -> dict[str, Any] | None:
    return next((coach for coach in view.get("coaches", []) if coach["at"] == where), None)



def riders_named(frame: TableFrame, seats: list[int]) -> str:
    """Who rides somewhere, as the board says it: "you, Moll Cutpurse" (the players pane says which seat
    is a bot; without it a name stays on its coach's line)."""
    return ", ".join("you" if frame.is_me(seat) else short_name(frame.plain_name(seat)) for seat in seats)


def robbers_of(view: dict[str, Any], where: str) -> list[int]:
    """Who (as the view shows it) rides at ``where`` this round: after the reveal, or yourself before."""
    seats = [p["seat"] for p in view.get("players", []) if p.get("pick") == where]
    if not seats and view.get("my_pick") == where and view.get("you") is not None:
        seats = [view["you"]]
    return seats



def short_name(name: str, width: int = 14) -> str:
    """A seat's name for a narrow column: without "(sharp bot)", cut with an ellipsis."""
    name = name.split(" (")[0] or name
    return name if len(name) <= width else name[:width - 1] + "…"

