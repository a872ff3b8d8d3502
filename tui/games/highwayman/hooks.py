"""Highwayman (Chad Valley) in the shared screens' words: the status line, the pause between games of a
series, the choices and their order, card names, the reveal. The routes (board), your cards (hand) and
the series sheet have a module each beside this one.

Every value comes from the seat's view and the prompt's choices: a card is marked playable because a
choice plays it, never because these modules worked out a rule. Card names and H6's points come from the
engine's own tables (``card_title``'s ids, ``POINTS``), so the words match the host's.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from core.games.highwayman import rules
from tui.frame import TableFrame
from tui.glyphs import ASCII, Glyphs

#: How a card's route is said in short ("bath" → "Bath"), from the engine's route titles.
ROUTE_SHORT = {route: title.removesuffix(" Road").removeprefix("Great ") for route, title in rules.ROUTE_TITLES.items()}


def view_of(frame: TableFrame) -> dict[str, Any]:
    return frame.view or {}


# --- Cards in words ---------------------------------------------------------------------------------------

def card_name(card: str) -> str:
    """A card as a player says it at the table: "Bath 7", "Dover LONDON", "Highwayman", "Runner"."""
    if card == rules.HIGHWAYMAN:
        return "Highwayman"
    if card == rules.RUNNER:
        return "Runner"
    route, _, number = card.partition(":")
    return f"{ROUTE_SHORT.get(route, route.title())} {'LONDON' if number == 'L' else number}"


def reveal_item(value: Any) -> str:
    """The reveal names cards as people say them ("Bath 9"), other values as they are."""
    if isinstance(value, str) and (":" in value or value in (rules.HIGHWAYMAN, rules.RUNNER)):
        return card_name(value)
    return str(value)


def reveal_text(reveal: dict[str, Any], frame: TableFrame) -> Text:
    """A2 in words: the pack from the top, and each game's end with what every seat held (the seats by
    name, the cards as people say them); the last game's hands are the hands the series ended with."""
    def cards(hand: list[str]) -> str:
        return ", ".join(card_name(card) for card in hand) or "nothing"

    text = Text()
    text.append("  The pack, top card first: ", style="bold")
    text.append(f"{cards(reveal.get('pack_top_first', []))}\n")
    for game in reveal.get("history", []):
        winners = " and ".join(frame.plain_name(seat) for seat in game["winners"])
        how = f"{winners} went out" if game["ended"] == "out" else f"nobody could play; lowest hand: {winners}"
        text.append(f"  Game {game['game']}: ", style="bold")
        text.append(f"{how}\n")
        for seat, (left, points) in enumerate(zip(game["left"], game["scores"])):
            text.append(f"    {frame.plain_name(seat)}: {cards(left)} ({points} point{'s' * (points != 1)})\n")
    return text


def card_points(card: str) -> int:
    """H6: what the card scores if it is still in hand when the game ends."""
    return rules.POINTS.get(card, 0)


def route_title(view: dict[str, Any], route_id: str) -> str:
    for route in view.get("routes", []):
        if route["id"] == route_id:
            return route["title"]
    return rules.ROUTE_TITLES.get(route_id, route_id)


def card_number(card: str) -> str:
    return card.partition(":")[2]


def drawn_card(view: dict[str, Any]) -> str | None:
    return view.get("drawn") or None


def who(frame: TableFrame, seat: int) -> str:
    """The seat's name, with its number when another seat has the same name (two "Bot (sharp)"s): the
    frame's ``plain_name``, which tells them apart as the log does."""
    return frame.plain_name(seat)


def drawn_mark(glyphs: Glyphs) -> str:
    return "(new)" if glyphs == ASCII else "★"


# --- What the screens ask of every game -------------------------------------------------------------------

def status(frame: TableFrame) -> str:
    view = view_of(frame)
    if not view:
        return frame.title
    game = f"Game {view['game_number']} of {view['series_games']}"
    if view["phase"] == "over":
        return f"{game} · the series is over"
    player = "you" if frame.is_me(view["turn"]) else who(frame, view["turn"])
    drew = {"drawn": " (drew a card)", "more": " on or end the turn"}.get(view["phase"], "")
    return f"{game} · {player} to play{drew} · pack {view['pack_size']}"


def waiting_for(frame: TableFrame) -> list[int]:
    view = view_of(frame)
    if not view or view.get("phase") == "over":
        return []
    return [view["turn"]]


def interlude(before: TableFrame, now: TableFrame) -> tuple[str, RenderableType, str] | None:
    """H6, H7: a game of the series has ended and the next is dealt at once. The table pauses on how it
    ended (every hand left and its points, the series totals) until the player goes on: the new deal's
    prompt came up over it, and only a long log line and the sheet told who had won."""
    old, new = view_of(before), view_of(now)
    if not old or not new or new.get("phase") == "over":
        return None  # the results screen says the last one
    history = new.get("history") or []
    if len(history) <= len(old.get("history") or []):
        return None
    ended = history[-1]
    winners = " and ".join(now.plain_name(seat) for seat in ended["winners"])
    how = "went out" if ended["ended"] == "out" else "had the lowest hand"
    hands = Table.grid(padding=(0, 1))
    hands.add_column(no_wrap=True)
    hands.add_column(justify="right", no_wrap=True)
    hands.add_column(style="dim")  # a long hand wraps under itself, not under the names
    for seat, (hand, points) in enumerate(zip(ended["left"], ended["scores"])):
        won = seat in ended["winners"]
        hands.add_row(Text(f"{now.glyphs.star if won else ' '} {now.plain_name(seat)}", style="bold" if won else ""),
                      f"{points} points:", rules.hand_in_words(hand))
    series = Text("\nSeries so far (lowest wins): ", style="bold")
    series.append(" · ".join(f"{now.plain_name(seat)} {total}" for seat, total in enumerate(new["totals"])))
    return (f"Game {ended['game']} of {new['series_games']} is over: {winners} {how}", Group(hands, series),
            f"On to game {new['game_number']}")


def seat_summary(frame: TableFrame, seat: int) -> str:
    view = view_of(frame)
    if not view:
        return ""
    cards = view["hand_sizes"][seat]
    # "series": the points are the games before this one (H7); a hand's own points are secret (a
    # number beside "2 cards" must not read as the hand's)
    return f"{cards} card{'s' * (cards != 1)} · series {view['totals'][seat]}"


def score_track(view: dict[str, Any]) -> list[float]:
    """The series totals (H7: lowest wins), for the results chart."""
    return [float(total) for total in view["totals"]]


def chart_title() -> str:
    return "Points over the series (lowest wins)"


def prompt_title(frame: TableFrame) -> str:
    view = view_of(frame)
    drawn = drawn_card(view)
    if view.get("phase") == "drawn" and drawn:
        if all(choice["action"].get("do") == "keep" for choice in frame.choices):
            return f"you drew {card_name(drawn)}: it cannot go down, keep it"
        return f"you drew {card_name(drawn)}: play it now or keep it"
    if view.get("phase") == "play":
        return "play a card (a run of one route goes down in one move)"
    if view.get("phase") == "more":  # H4: the seat has played and may go on
        return "play on, or end your turn"
    return ""


#: The moves listed last, by phase: the ones that give up what the turn could still shed.
LISTED_LAST = {"more": "end", "drawn": "keep"}


def choice_order(frame: TableFrame) -> list[int] | None:
    """The moves that shed cards first, and the one that stops shedding last: after a play (H4) "End
    your turn", after a draw (H5) "Keep". Listed first, it was the highlighted choice and key 1, and a
    habitual Enter or 1 ended a turn with a run still in hand, or kept a card that could go down."""
    last = LISTED_LAST.get(view_of(frame).get("phase"))
    if last is None:
        return None
    ends = [index for index, choice in enumerate(frame.choices) if choice["action"].get("do") == last]
    return [index for index in range(len(frame.choices)) if index not in ends] + ends


def choice_label(frame: TableFrame, choice: dict[str, Any]) -> RenderableType:
    """A choice in card names, with what it sheds from your hand (H6 points)."""
    view, action = view_of(frame), choice["action"]
    do = action.get("do")
    text = Text()
    if do == "play" and action.get("cards"):
        cards = action["cards"]
        first = cards[0]
        if card_number(first) == "L":
            text.append(f"Open the {route_title(view, first.partition(':')[0])} with {card_name(first)}")
        elif len(cards) == 1:
            text.append(f"Play {card_name(first)}")
        else:
            text.append(f"Play {card_name(first)} to {card_number(cards[-1])}  ({len(cards)} cards)")
        shed = sum(card_points(card) for card in cards)
        text.append(f"   sheds {shed} pt{'s' * (shed != 1)}", style="dim")
    elif do in ("highwayman", "runner"):
        title = route_title(view, action.get("route", ""))
        top = _route_top(view, action.get("route", ""))
        shed = card_points(rules.HIGHWAYMAN if do == "highwayman" else rules.RUNNER)
        if do == "highwayman":
            text.append(f"Highwayman on the {title}")
            text.append(f"   blocks it after {top}; sheds {shed} pts", style="dim")
        else:
            text.append(f"Runner on the {title}")
            text.append(f"   clears it; sheds {shed} pts", style="dim")
    elif do == "keep":
        drawn = drawn_card(view)
        text.append(f"Keep {card_name(drawn)}" if drawn else "Keep the card you drew")
        text.append("   play passes left", style="dim")
    elif do == "end":
        text.append("End your turn")
        text.append("   play passes left", style="dim")
    else:
        text.append(str(choice.get("text", "")))
    return text


def choice_matches(action: dict[str, Any], target: str) -> bool:
    """A click on a card picks the move that plays up to it; on the Highwayman or Runner, those moves;
    on "keep", keeping the card just drawn."""
    kind, _, value = target.partition(":")
    do = action.get("do")
    if kind == "keep":
        return do == "keep"
    if kind != "card":
        return False
    if do == "play":
        cards = action.get("cards") or []
        return bool(cards) and cards[-1] == value
    return do in ("highwayman", "runner") and value == do


def _route_top(view: dict[str, Any], route_id: str) -> str:
    for route in view.get("routes", []):
        if route["id"] == route_id:
            return "LONDON" if route["top"] == 0 else str(route["top"])
    return "?"


# --- The board --------------------------------------------------------------------------------------------


# --- The hand ---------------------------------------------------------------------------------------------


# --- The sheet --------------------------------------------------------------------------------------------
