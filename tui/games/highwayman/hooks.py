"""Highwayman (Chad Valley): the coaching routes out of London, your cards, the series sheet.

Every value comes from the seat's view and the prompt's choices: a card is marked playable because a
choice plays it, never because this module worked out a rule. Card names and H6's points come from the
engine's own tables (``card_title``'s ids, ``POINTS``), so the words match the host's.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from core.games.highwayman import rules
from tui.frame import TableFrame
from tui.games.generic import GamePanes
from tui.games.highwayman.recap import recap as told_recap
from tui.glyphs import ASCII, Glyphs
from tui.widgets.lines import Shown
from tui.widgets.component import component_style
from tui.widgets.pane import ClickPane, FramePane, card_rows, text_columns

GAME_ID = "highwayman"

#: How a card's route is said in short ("bath" → "Bath"), from the engine's route titles.
ROUTE_SHORT = {route: title.removesuffix(" Road").removeprefix("Great ") for route, title in rules.ROUTE_TITLES.items()}


def _view(frame: TableFrame) -> dict[str, Any]:
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


def _route_title(view: dict[str, Any], route_id: str) -> str:
    for route in view.get("routes", []):
        if route["id"] == route_id:
            return route["title"]
    return rules.ROUTE_TITLES.get(route_id, route_id)


def _number(card: str) -> str:
    return card.partition(":")[2]


def _drawn(view: dict[str, Any]) -> str | None:
    return view.get("drawn") or None


def who(frame: TableFrame, seat: int) -> str:
    """The seat's name, with its number when another seat has the same name (two "Bot (sharp)"s): the
    frame's ``plain_name``, which tells them apart as the log does."""
    return frame.plain_name(seat)


def drawn_mark(glyphs: Glyphs) -> str:
    return "(new)" if glyphs == ASCII else "★"


# --- What the screens ask of every game -------------------------------------------------------------------

def status(frame: TableFrame) -> str:
    view = _view(frame)
    if not view:
        return frame.title
    game = f"Game {view['game_number']} of {view['series_games']}"
    if view["phase"] == "over":
        return f"{game} · the series is over"
    player = "you" if frame.is_me(view["turn"]) else who(frame, view["turn"])
    drew = {"drawn": " (drew a card)", "more": " on or end the turn"}.get(view["phase"], "")
    return f"{game} · {player} to play{drew} · pack {view['pack_size']}"


def waiting_for(frame: TableFrame) -> list[int]:
    view = _view(frame)
    if not view or view.get("phase") == "over":
        return []
    return [view["turn"]]


def interlude(before: TableFrame, now: TableFrame) -> tuple[str, RenderableType, str] | None:
    """H6, H7: a game of the series has ended and the next is dealt at once. The table pauses on how it
    ended (every hand left and its points, the series totals) until the player goes on: the new deal's
    prompt came up over it, and only a long log line and the sheet told who had won."""
    old, new = _view(before), _view(now)
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
    view = _view(frame)
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
    view = _view(frame)
    drawn = _drawn(view)
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
    last = LISTED_LAST.get(_view(frame).get("phase"))
    if last is None:
        return None
    ends = [index for index, choice in enumerate(frame.choices) if choice["action"].get("do") == last]
    return [index for index in range(len(frame.choices)) if index not in ends] + ends


def choice_label(frame: TableFrame, choice: dict[str, Any]) -> RenderableType:
    """A choice in card names, with what it sheds from your hand (H6 points)."""
    view, action = _view(frame), choice["action"]
    do = action.get("do")
    text = Text()
    if do == "play" and action.get("cards"):
        cards = action["cards"]
        first = cards[0]
        if _number(first) == "L":
            text.append(f"Open the {_route_title(view, first.partition(':')[0])} with {card_name(first)}")
        elif len(cards) == 1:
            text.append(f"Play {card_name(first)}")
        else:
            text.append(f"Play {card_name(first)} to {_number(cards[-1])}  ({len(cards)} cards)")
        shed = sum(card_points(card) for card in cards)
        text.append(f"   sheds {shed} pt{'s' * (shed != 1)}", style="dim")
    elif do in ("highwayman", "runner"):
        title = _route_title(view, action.get("route", ""))
        top = _route_top(view, action.get("route", ""))
        shed = card_points(rules.HIGHWAYMAN if do == "highwayman" else rules.RUNNER)
        if do == "highwayman":
            text.append(f"Highwayman on the {title}")
            text.append(f"   blocks it after {top}; sheds {shed} pts", style="dim")
        else:
            text.append(f"Runner on the {title}")
            text.append(f"   clears it; sheds {shed} pts", style="dim")
    elif do == "keep":
        drawn = _drawn(view)
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


def playable_cards(frame: TableFrame) -> set[str]:
    """The cards some choice of the prompt puts down (a run counts for each of its cards)."""
    found: set[str] = set()
    for choice in frame.choices:
        action = choice["action"]
        if action.get("do") == "play":
            found.update(action.get("cards") or [])
        elif action.get("do") in ("highwayman", "runner"):
            found.add(action["do"])
    return found


def playable_routes(frame: TableFrame) -> set[str]:
    found: set[str] = set()
    for choice in frame.choices:
        action = choice["action"]
        if action.get("do") == "play" and action.get("cards"):
            found.add(action["cards"][0].partition(":")[0])
        elif action.get("do") in ("highwayman", "runner"):
            found.add(action.get("route", ""))
    return found


# --- The board --------------------------------------------------------------------------------------------

def route_track(route: dict[str, Any], length: int, glyphs: Glyphs) -> Text:
    """LONDON then 1..length: the numbers down in bold, the rest as dots; a block sits on the next cell."""
    top = route["top"]
    dot = "." if glyphs == ASCII else "·"
    text = Text()
    for number in range(length + 1):
        label = "L" if number == 0 else str(number)
        if number:
            text.append(" ")
        if number <= top:
            text.append(label, style="bold")
        elif number == top + 1 and route["blocked"]:
            text.append(glyphs.block.ljust(len(label)), style="bold red")
        else:
            text.append(dot.ljust(len(label)), style="dim")
    return text


def route_state(route: dict[str, Any], length: int, glyphs: Glyphs) -> Text:
    """The route in words: not started, open (next number), blocked, cleared, complete."""
    top, pile = route["top"], route["pile"]
    text = Text()
    if route["blocked"]:
        text.append(f"{glyphs.block} BLOCKED by a Highwayman", style="bold red")
    elif top < 0:
        text.append("not started (needs its LONDON)", style="dim")
    elif top >= length:
        text.append(f"{glyphs.laid} complete", style="green")
    else:
        if pile and pile[-1] == rules.RUNNER:
            text.append(f"{glyphs.runner} cleared by a Runner, ", style="cyan")
        text.append(f"next {top + 1}")
    return text


class Board(FramePane):
    """Each route as a row from LONDON to its last number, then the pack, the game, the dealer, the turn."""

    #: Your move's mark and words, in the theme's own text colour (Rich's yellow is 2:1 on the light
    #: theme's grey).
    COMPONENT_CLASSES = {"hw-board--yours"}

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.call_after_refresh(self.redraw)  # a new theme: the mark is drawn in its colours

    def draw(self, frame: TableFrame) -> Shown:
        view, g = _view(frame), self.glyphs
        length = view["route_length"]
        mine = playable_routes(frame)
        rows: list[list[Text | str]] = []
        for route in view["routes"]:
            yours = route["id"] in mine
            rows.append([Text(g.turn if yours else " " * len(g.turn), style=component_style(self, "hw-board--yours")),
                         Text(route["title"], style="bold" if yours else ""),
                         route_track(route, length, g), route_state(route, length, g)])
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append_text(text_columns(rows, "llll", gap=1))
        text.append("\n")
        # One line for the table and the turn where it fits: the recap under them has the row the turn had.
        table, turn = self._table_line(frame), self._turn_line(frame, bool(mine))
        text.append_text(table)
        fits = table.cell_len + 3 + turn.cell_len <= self._content_width()
        text.append(" · " if fits else "\n", style="dim")
        text.append_text(turn)
        return text

    def on_resize(self) -> None:
        self.redraw()  # the width decides whether the turn has a line of its own
        super().on_resize()

    def _table_line(self, frame: TableFrame) -> Text:
        view = _view(frame)
        text = Text()
        pack = view["pack_size"]
        text.append(f"Pack {pack} card{'s' * (pack != 1)}" if pack else "Pack empty", style="bold")
        if not pack and view.get("passes"):
            text.append(f" ({view['passes']} passed in a row)")
        text.append(f" · game {view['game_number']} of {view['series_games']}")
        text.append(f" · {who(frame, view['dealer'])} dealt")
        return text

    def _turn_line(self, frame: TableFrame, routes_marked: bool) -> Text:
        view = _view(frame)
        if view["phase"] == "over":
            return Text("The series is over.", style="bold")
        turn = view["turn"]
        text = Text()
        if frame.is_me(turn):
            text.append(f"{self.glyphs.turn} Your move", style=component_style(self, "hw-board--yours"))
        else:
            text.append(f"{self.glyphs.turn} {who(frame, turn)} to play", style="bold")
        if view["phase"] == "drawn":
            text.append(", with the card just drawn")
        elif view["phase"] == "more":  # H4: still the same turn, after a play
            text.append(": play on, or end your turn" if frame.is_me(turn) else " on, or end the turn")
        if routes_marked:
            text.append(f"   ({self.glyphs.turn} marks a route you can play on)", style="dim")
        return text


# --- The hand ---------------------------------------------------------------------------------------------

class Hand(ClickPane):
    """Your cards sorted by route, in as many columns as fit: the ones a choice puts down marked (and
    lit), the one just drawn too; a click on a card plays it, a click on the line under them keeps."""

    COMPONENT_CLASSES = ClickPane.COMPONENT_CLASSES | {"hw-hand--card"}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("highwayman")

    def draw_key(self, frame: TableFrame) -> object:
        # Your hand changes on your own moves only: the other seats' moves leave it as it was drawn.
        view = _view(frame)
        return (tuple(view.get("hand") or ()), frozenset(playable_cards(frame)), _drawn(view),
                bool(frame.choices), self._content_width(), self.content_region.size, self.hovered)

    def draw(self, frame: TableFrame) -> Shown:
        view, g = _view(frame), self.glyphs
        hand = view.get("hand") or []
        playable = playable_cards(frame)
        drawn = _drawn(view)
        drawn_marked = False
        labels: list[Text] = []
        for card in hand:
            label = Text()
            label.append(f"{g.laid} " if card in playable else "  ", style="bold")
            label.append(card_name(card))
            if card == drawn and not drawn_marked:
                drawn_marked = True
                label.append(f" {drawn_mark(g)}", style="bold")
                label.stylize("bold underline", 2)
            labels.append(label)
        width = max((label.cell_len for label in labels), default=0) + 1
        cards = []
        for card, label in zip(hand, labels):
            label.pad_right(width - label.cell_len)  # every card as wide as the widest, and all of it clicks
            label.stylize(self.background_of("hw-hand--card"))
            cards.append(self.part(label, f"card:{card}", playable=card in playable))
        footer = self.part(self._footer(frame, hand, playable, drawn), "keep" if drawn else "hand")
        # As many columns as fit the pane without a scroll bar (issue 43: a scroll bar that came with a long
        # hand took the width of the second column, and the hand fell to one, taller still); only a hand
        # too tall even so is laid out for the width beside its scroll bar.
        rows = card_rows(cards, self.content_region.width)
        if len(rows) + 2 > self.content_region.height:
            rows = card_rows(cards, self._content_width())
        return [*rows, Text(), footer]

    @staticmethod
    def _keep_key(frame: TableFrame) -> str:
        """The number key of the "keep" move, as the move list numbers it (``choice_order``): " (key 1)"."""
        order = choice_order(frame) or list(range(len(frame.choices)))
        for position, index in enumerate(order):
            if frame.choices[index]["action"].get("do") == "keep":
                return f" (key {position + 1})"
        return ""

    def _footer(self, frame: TableFrame, hand: list[str], playable: set[str], drawn: str | None) -> Text:
        g = self.glyphs
        text = Text()
        if drawn:
            text.append(f"{drawn_mark(self.glyphs)} drew: {card_name(drawn)}", style="bold")
            if not frame.choices:  # sent already: no advice on a choice that is made
                text.append("\n")
            elif drawn in playable:
                text.append(f" — play it now, or keep it{self._keep_key(frame)}\n")
            else:
                text.append(f" — it cannot go down now: keep it{self._keep_key(frame)}\n")
        elif not hand:
            text.append("No cards in hand.\n", style="bold")
        points = sum(card_points(card) for card in hand)
        text.append(f"{len(hand)} card{'s' * (len(hand) != 1)} · {points} pts if the game ended now")
        if playable:
            text.append(f"  ({g.laid} playable now)", style="dim")
        return text


# --- The sheet --------------------------------------------------------------------------------------------

class Sheet(FramePane):
    """The series: every seat's cards in hand and points by game and in total; your hand's points in full."""

    def draw(self, frame: TableFrame) -> Shown:
        view = _view(frame)
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f"Game {view['game_number']} of {view['series_games']} · lowest total wins (H7)\n",
                    style="bold")
        if "hand" in view:
            text.append_text(self._yours(view))
            text.append("\n")
        text.append_text(self._seats(frame))
        last = self._last_game(frame)
        if last is not None:
            text.append("\n")
            text.append_text(last)
        return text

    def _yours(self, view: dict[str, Any]) -> Text:
        hand = view.get("hand") or []
        points = sum(card_points(card) for card in hand)
        text = Text()
        text.append(f"Left in your hand: {points} pts (H6)", style="bold")
        parts = []
        for name, names, card in (("Highwayman", "Highwaymen", rules.HIGHWAYMAN), ("Runner", "Runners", rules.RUNNER)):
            held = hand.count(card)
            if held:
                parts.append(f"{f'{held} {names}' if held > 1 else name} {held * card_points(card)}")
        numbered = [card for card in hand if card not in (rules.HIGHWAYMAN, rules.RUNNER)]
        if numbered:
            parts.append(f"numbers {sum(map(card_points, numbered))}")
        if len(parts) > 1:  # the Highwayman's 20 and a Runner's 10 are worth seeing apart
            text.append("\n  " + " + ".join(parts), style="dim")
        return text

    def _seats(self, frame: TableFrame) -> Text:
        """One row a seat (numbered as the log numbers them): cards in hand, each game's points, the
        total, then the name last, so a long name is what an ellipsis cuts, never a figure."""
        view = _view(frame)
        games = view["history"]
        heads = ["#", "cards", *[f"g{game['game']}" for game in games], "total", "seat"]
        rows: list[list[Text | str]] = [[Text(head, style="bold") for head in heads]]
        low = min(view["totals"]) if view["totals"] else 0
        for seat, total in enumerate(view["totals"]):
            name = Text(frame.plain_name(seat), style="bold" if frame.is_me(seat) else "")
            if frame.is_me(seat):
                name.append(" (you)", style="dim")
            scores = [str(game["scores"][seat]) + ("*" if seat in game["winners"] else " ") for game in games]
            lead = Text(str(total), style="bold" if games and total == low else "")
            rows.append([str(seat + 1), str(view["hand_sizes"][seat]), *scores, lead, name])
        return text_columns(rows, "r" * (len(heads) - 1) + "l", gap=1)

    def _last_game(self, frame: TableFrame) -> Text | None:
        history = _view(frame)["history"]
        if not history:
            return None
        game = history[-1]
        names = " and ".join(who(frame, seat) for seat in game["winners"])
        how = "went out" if game["ended"] == "out" else "lowest (nobody could play)"
        return Text(f"* won that game\nGame {game['game']}: {names} {how}.", style="dim")


class Panes(GamePanes):
    """This game's panes and its own ways of drawing; the rest are ``GamePanes``' defaults."""

    GAME_ID = GAME_ID
    Board = Board
    Hand = Hand
    Sheet = Sheet
    status = staticmethod(status)
    waiting_for = staticmethod(waiting_for)
    interlude = staticmethod(interlude)
    seat_summary = staticmethod(seat_summary)
    score_track = staticmethod(score_track)
    chart_title = staticmethod(chart_title)
    choice_label = staticmethod(choice_label)
    choice_matches = staticmethod(choice_matches)
    choice_order = staticmethod(choice_order)
    reveal_text = staticmethod(reveal_text)
    reveal_item = staticmethod(reveal_item)
    prompt_title = staticmethod(prompt_title)
    recap = staticmethod(told_recap)
