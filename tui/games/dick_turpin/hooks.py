"""The Famous Dick Turpin in the shared screens' words: the status line, a seat's gold, the choices, the
reveal. The board, the hand and the sheet have a module each beside this one.

Every value comes from the seat's view; the claim preview asks the engine's own ``claim_shares``.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text

from core.games.dick_turpin import rules
from tui.frame import TableFrame

KINDS = ("pistols", "1s", "2s", "3s", "4s")


def view_of(frame: TableFrame) -> dict[str, Any]:
    return frame.view or {}


def coach_town(view: dict[str, Any]) -> str:
    """Where the coach is: a town of the route, or the end it left from."""
    if view["stop"] >= 0:
        return view["route"][view["stop"]]
    return "LONDON" if view["northbound"] else "EDINBURGH"


def status(frame: TableFrame) -> str:
    view = view_of(frame)
    if not view:
        return frame.title
    rounds = view["options"]["rounds"]
    heading = "northbound" if view["northbound"] else "southbound"
    return (f"Round {view['round']}/{rounds} · journey {view['journey']}/{rules.JOURNEYS_PER_ROUND} · "
            f"coach {heading}, at {coach_town(view)}")


def waiting_for(frame: TableFrame) -> list[int]:
    return list(view_of(frame).get("pending", []))


def seat_summary(frame: TableFrame, seat: int) -> str:
    view = view_of(frame)
    return f"{view['gold'][seat]} gold" if view else ""


def laid(frame: TableFrame, seat: int) -> bool | None:
    view = view_of(frame)
    if not view or view["phase"] != "choose" or view["stop"] >= 0:
        return None
    return bool(view["chosen"][seat])


def score_track(view: dict[str, Any]) -> list[float]:
    return list(view["gold"])


def chart_title() -> str:
    return "Gold over the game"


def prompt_title(frame: TableFrame) -> str:
    view = view_of(frame)
    phase = view.get("phase")
    if phase == "choose":
        return "lay a stand & deliver card face down"
    if phase == "declare":
        return f"rob at {coach_town(view)}: how many passengers?"
    if phase == "draw":
        declared, turned = view.get("declared") or 0, len(view.get("turned") or [])
        if declared:  # T6: at most one card per declared passenger
            left = declared - turned
            return (f"rob at {coach_town(view)}: {turned} card{'s' * (turned != 1)} turned, up to {left} more "
                    f"(one per declared passenger)")
        return f"rob at {coach_town(view)}"
    return ""


def choice_label(frame: TableFrame, choice: dict[str, Any]) -> RenderableType:
    """The host's words, and for a robbery what turning or stopping means now."""
    view, action = view_of(frame), choice["action"]
    text = Text(str(choice.get("text", "")))
    if action.get("do") == "draw":
        left = view["booty_left"]
        cards, pistols = sum(left), left[0]
        at_stake = sum(view["turned"])
        text.append(f"   (a pistol loses {'the ' + str(at_stake) if at_stake else 'nothing yet'}; "
                    f"{pistols} of {cards} cards left are pistols)", style="dim")
    elif action.get("do") == "stop" and frame.seat is not None:
        claim = sum(view["turned"])
        try:
            shares = rules.claim_shares(claim, view["gold"], frame.seat)
        except Exception:
            shares = []
        payers = [f"{frame.plain_name(seat)} pays {paid}" for seat, paid in enumerate(shares) if paid]
        if payers:
            text.append(f"   ({', '.join(payers)})", style="dim")
    return text


def reveal_text(reveal: dict[str, Any], frame: TableFrame) -> Text:
    """A2 at the end of a game: every seat's hand, laid cards and face-down card, and the booty unturned."""
    text = Text()
    seats = range(len(frame.seats))
    rounds = (frame.options or {}).get("rounds", 1)
    # Earlier rounds' piles were turned up as each ended (T12, T14): the log told them then.
    last = " in the last round" if isinstance(rounds, int) and rounds > 1 else ""
    for key, heading in (("hands", f"Stand & deliver cards never laid{last}"),
                         ("piles", f"Cards laid{last}, first to last"),
                         ("waiting", "Face-down cards not turned up")):
        text.append(f"  {heading}\n", style="bold")
        values = reveal.get(key) or []
        for seat in seats:
            value = values[seat] if seat < len(values) else None
            words = ", ".join(value) if isinstance(value, list) else value
            text.append(f"    {frame.plain_name(seat)}: {words or 'none'}\n")
    left = reveal.get("booty_left") or []
    text.append("  Booty never turned: ", style="bold")
    text.append(" · ".join(f"{kind} {count}" for kind, count in zip(KINDS, left)) or "none")
    text.append("\n")
    return text
