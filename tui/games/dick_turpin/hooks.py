"""The Famous Dick Turpin: the road and the Silver Flyer, your stand & deliver cards, the purses.

Every value comes from the seat's view; the claim preview asks the engine's own ``claim_shares``.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text

from core.games.dick_turpin import rules
from tui.frame import TableFrame
from tui.games.generic import GamePanes
from tui.games.dick_turpin.recap import recap as told_recap
from tui.widgets.component import component_style
from tui.widgets.lines import Shown, lines_of_parts
from tui.widgets.pane import ClickPane, FramePane, text_columns

GAME_ID = "turpin"
KINDS = ("pistols", "1s", "2s", "3s", "4s")


def _view(frame: TableFrame) -> dict[str, Any]:
    return frame.view or {}


def coach_town(view: dict[str, Any]) -> str:
    """Where the coach is: a town of the route, or the end it left from."""
    if view["stop"] >= 0:
        return view["route"][view["stop"]]
    return "LONDON" if view["northbound"] else "EDINBURGH"


def status(frame: TableFrame) -> str:
    view = _view(frame)
    if not view:
        return frame.title
    rounds = view["options"]["rounds"]
    heading = "northbound" if view["northbound"] else "southbound"
    return (f"Round {view['round']}/{rounds} · journey {view['journey']}/{rules.JOURNEYS_PER_ROUND} · "
            f"coach {heading}, at {coach_town(view)}")


def waiting_for(frame: TableFrame) -> list[int]:
    return list(_view(frame).get("pending", []))


def seat_summary(frame: TableFrame, seat: int) -> str:
    view = _view(frame)
    return f"{view['gold'][seat]} gold" if view else ""


def laid(frame: TableFrame, seat: int) -> bool | None:
    view = _view(frame)
    if not view or view["phase"] != "choose" or view["stop"] >= 0:
        return None
    return bool(view["chosen"][seat])


def score_track(view: dict[str, Any]) -> list[float]:
    return list(view["gold"])


def chart_title() -> str:
    return "Gold over the game"


def prompt_title(frame: TableFrame) -> str:
    view = _view(frame)
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
    view, action = _view(frame), choice["action"]
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


def booty_card(card: int, glyphs) -> str:
    return f"[{glyphs.pistol}]" if card == rules.PISTOL else f"[{card}]"


class Board(ClickPane):
    """The road from London to Edinburgh with the coach, passengers, the booty and the piles. A click on a
    town you may lie in wait at lays it, as a click on its card in your hand does."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("turpin")  # its height is the game's own (styles/dick_turpin.tcss)

    def draw(self, frame: TableFrame) -> Shown:
        view, g = _view(frame), self.glyphs
        at = coach_town(view)
        layable = {choice["action"].get("town") for choice in frame.choices}
        road = Text()
        for index, town in enumerate(["LONDON", *rules.TOWNS, "EDINBURGH"]):
            if index:
                road.append(f" {g.road} ")
            if town == at:
                road.append(f"{g.coach} {town}", style="bold reverse")
            elif town in layable:
                road.append_text(self.part(Text(town), f"town:{town}", playable=True))
            else:
                road.append(town, style="bold" if town.isupper() else "")
        arrow = g.north if view["northbound"] else g.south
        where = Text(f"{arrow} coach {'northbound for Edinburgh' if view['northbound'] else 'southbound for London'}"
                     f", at {at}", style="dim")
        passengers = Text("Passengers left: ")
        left = view["passengers"]
        passengers.append(g.passenger * left, style="bold")
        passengers.append(g.passenger_gone * (rules.PASSENGERS - left), style="dim")
        passengers.append(f" {left} of {rules.PASSENGERS}")
        booty = Text("Booty turned: ")
        booty.append(" ".join(booty_card(card, g) for card in view["face_up"]) or "none")
        deck = Text("left in the deck: ")
        deck.append(" · ".join(f"{kind} {count}" for kind, count in zip(KINDS, view["booty_left"])))
        # Two facts a line: the recap under the board needs the rows (at 80 columns each wraps as before).
        where.append(" · ", style="dim")
        where.append_text(passengers)
        booty.append(" · ", style="dim")
        booty.append_text(deck)
        lines: list[Text] = [road, where, booty]
        robbery = self._robbery(frame)
        if robbery is not None:
            lines.append(robbery)
        lines += self._piles(frame)
        return lines  # the pane redraws only the lines that changed

    def _robbery(self, frame: TableFrame) -> Text | None:
        view = _view(frame)
        if view["phase"] not in ("declare", "draw") or view.get("robber") is None:
            return None
        text = Text(f"{frame.plain_name(view['robber'])} robs at {coach_town(view)}", style="bold")
        if view["phase"] == "draw":
            turned = view["turned"]
            text.append(f": {view['declared']} passengers declared; turned "
                        f"{' + '.join(map(str, turned)) or 'nothing'} = {sum(turned)} gold so far")
        return text

    def _piles(self, frame: TableFrame) -> list[Text]:
        """Each seat's pile (T12: its top), broken into lines only between seats (a seat's name
        and its card never part)."""
        view = _view(frame)
        parts = []
        for seat in range(view["players"]):
            if view.get("piles"):
                shown = ", ".join(view["piles"][seat]) or "—"
            else:
                shown = view["pile_tops"][seat] or "—"
                if view["pile_sizes"][seat] > 1:
                    # (T12: the cards beneath are not seen; "face down" read as ambush cards laid)
                    shown += f" (+{view['pile_sizes'][seat] - 1} beneath)"
            parts.append(f"{frame.plain_name(seat)}: {shown}")
        parts[0] = ("Played piles: " if view.get("piles") else "Pile tops: ") + parts[0]
        width = self._content_width()
        return [Text(line) for line in lines_of_parts(parts, width if width > 0 else 1000)]


def face_down_in_words(view: dict[str, Any], seat: int | None) -> str:
    """Your face-down card; once the coach has come to it, it is turned up on your pile (T12), not "nothing
    laid yet" as the hand said after every reveal."""
    if view.get("my_card"):
        return str(view["my_card"])
    top = view["pile_tops"][seat] if seat is not None and view.get("pile_tops") else None
    if view.get("phase") != "choose" and top:
        return f"nothing (your {top} is turned up on your pile)"
    return "nothing laid yet"


class Hand(ClickPane):
    """Your stand & deliver cards as outlined cards, as many to a row as fit (the ones you may lay now in
    bold with a green outline), and your face-down card. A click on a card lays it."""

    COMPONENT_CLASSES = ClickPane.COMPONENT_CLASSES | {"turpin-hand--outline", "turpin-hand--outline-playable"}

    def draw(self, frame: TableFrame) -> Shown:
        view = _view(frame)
        hand = view.get("hand") or []
        playable = {choice["action"].get("town") for choice in frame.choices}
        inner = max(len(town) for town in rules.TOWNS)  # every card as wide: none jumps as the hand thins
        # The width without a scrollbar: one that came for three-line cards goes with one-line ones.
        width = self.content_region.width
        columns = max(1, (width + 1) // (inner + 3)) if width > 0 else 3
        rows_of_cards = -(-len(hand) // columns)
        # Cards three lines high where the pane has the rows for them and the face-down line, else one
        # line each: a hand behind a scrollbar hides the towns you may lay.
        tall = self.content_size.height <= 0 or rows_of_cards * 3 + 2 <= self.content_size.height
        cards = [self._card(town, inner, town in playable) if tall else [self._flat_card(town, inner, town in playable)]
                 for town in hand]
        lines: list[Text] = []
        for first in range(0, len(cards), columns):
            row = cards[first:first + columns]
            lines += [Text(" ").join(card[line] for card in row) for line in range(len(row[0]))]
        if not hand:  # a line of its own: beside the face-down card's own brackets it read as one
            lines.append(Text("No stand & deliver cards left this round.", style="dim"))
        face_down = Text("Face down: ", style="bold")
        face_down.append(face_down_in_words(view, frame.seat))
        return [*lines, Text(), self.part(face_down, "face-down")]

    def _flat_card(self, town: str, inner: int, playable: bool) -> Text:
        """A town card one line high, as wide as a tall one: its outline's sides around the name."""
        side = self.glyphs.box[3]
        outline = Style(color=component_style(
            self, "turpin-hand--outline-playable" if playable else "turpin-hand--outline").color)
        card = Text()
        card.append(side, style=outline)
        card.append(town.center(inner), style="bold" if playable else "")
        card.append(side, style=outline)
        return self.part(card, f"town:{town}")

    def _card(self, town: str, inner: int, playable: bool) -> list[Text]:
        """A town card three lines high, ``inner`` columns inside its outline; all of it clicks."""
        top_left, edge, top_right, side, bottom_left, bottom_right = self.glyphs.box
        outline = Style(color=component_style(
            self, "turpin-hand--outline-playable" if playable else "turpin-hand--outline").color)
        middle = Text()
        middle.append(side, style=outline)
        middle.append(town.center(inner), style="bold" if playable else "")
        middle.append(side, style=outline)
        card = [Text(top_left + edge * inner + top_right, style=outline), middle,
                Text(bottom_left + edge * inner + bottom_right, style=outline)]
        return [self.part(line, f"town:{town}") for line in card]


class Sheet(FramePane):
    """Your purse and place, and everyone's at a glance."""

    def draw(self, frame: TableFrame) -> Shown:
        view = _view(frame)
        gold = view["gold"]
        rows: list[list[Text | str]] = [[Text(h, style="bold") for h in ("seat", "gold", "cards", "pile")]]
        for seat in range(len(gold)):
            rows.append([Text(frame.plain_name(seat), style="bold" if frame.is_me(seat) else ""), str(gold[seat]),
                         str(view["hand_sizes"][seat]), view["pile_tops"][seat] or "—"])
        if frame.seat is not None:
            mine = gold[frame.seat]
            place = 1 + sum(1 for other in gold if other > mine)
            tied = sum(1 for other in gold if other == mine) > 1  # equal gold shares a place (T14)
            text = Text(f"Gold {mine} of {rules.TOTAL_GOLD} · {'tied ' if tied else ''}{_ordinal(place)} place\n",
                        style="bold", no_wrap=True, overflow="ellipsis")
        else:
            most = max(gold)
            leaders = [seat for seat in range(len(gold)) if gold[seat] == most]
            leading = (f"Leader: {frame.plain_name(leaders[0])} with {most} gold" if len(leaders) == 1 else
                       f"{len(leaders)} lead with {most} gold each" if len(leaders) < len(gold) else
                       f"Level: {most} gold each")
            text = Text(leading + "\n", style="bold", no_wrap=True, overflow="ellipsis")
        # Names give way to the other columns (a pile top is a town, up to nine letters): a cut name is
        # still known by its start, a cut town is not.
        # One space between columns where two would cut a name (at 100 columns, beside the hand).
        longest = max(len(str(row[3])) for row in rows)
        names = max(len(frame.plain_name(seat)) for seat in range(len(gold)))
        gap = 2 if names + 4 + 5 + longest + 3 * 2 <= self.content_region.width else 1
        others = 4 + 5 + longest + 3 * gap
        text.append_text(text_columns(rows, "lrrl", gap=gap,
                                      name_width=max(8, min(24, self.content_region.width - others))))
        return text


def _ordinal(number: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number if number < 20 else number % 10, "th")
    return f"{number}{suffix}"


class Panes(GamePanes):
    """This game's panes and its own ways of drawing; the rest are ``GamePanes``' defaults."""

    GAME_ID = GAME_ID
    Board = Board
    Hand = Hand
    Sheet = Sheet
    status = staticmethod(status)
    waiting_for = staticmethod(waiting_for)
    seat_summary = staticmethod(seat_summary)
    laid = staticmethod(laid)
    score_track = staticmethod(score_track)
    chart_title = staticmethod(chart_title)
    choice_label = staticmethod(choice_label)
    reveal_text = staticmethod(reveal_text)
    prompt_title = staticmethod(prompt_title)
    recap = staticmethod(told_recap)
