"""``GamePanes``: what the shared screens ask of a game, with the defaults every game starts from (and
which draw a game with no folder of its own).

A game's folder ``tui/games/<game>/`` builds ``PANES = GamePanes(game_id=..., board=..., ...)`` in its
``__init__.py``: its three panes (``board``, ``hand``, ``sheet``) and the hooks it draws its own way; any
hook it leaves out keeps the default below. The screens call ``panes.status(frame)`` and the like. The
hooks take the frame (or a view) and return plain text or Rich renderables.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from rich.console import RenderableType
from rich.text import Text

from tui.frame import TableFrame
from tui.widgets.pane import FramePane


def status(frame: TableFrame) -> str:
    """The one line above the panes: where the game stands."""
    return f"{frame.title} · move {max(frame.turn, 0)}"


def waiting_for(frame: TableFrame) -> list[int]:
    """The seats the game is waiting for, as the view tells it."""
    view = frame.view or {}
    if isinstance(view.get("pending"), list):
        return [seat for seat in view["pending"] if isinstance(seat, int)]
    if isinstance(view.get("turn"), int):
        return [view["turn"]]
    return []


def interlude(before: TableFrame, now: TableFrame) -> tuple[str, RenderableType, str] | None:
    """A pause the table screen shows when ``now`` follows ``before`` and a part of the game has ended
    (a game of a series): its title, what the part ended with, and the words of the button back to the
    table; None for no pause."""
    return None


def seat_summary(frame: TableFrame, seat: int) -> str:
    """A few words on a seat for the players pane (gold, score, cards in hand)."""
    return ""


def laid(frame: TableFrame, seat: int) -> bool | None:
    """In a secret phase: True if the seat has chosen, False if it is still choosing, None otherwise."""
    return None


def laid_word() -> str:
    """What the players pane says of a seat that has made its secret choice ("laid" a card)."""
    return "laid"


def score_track(view: dict[str, Any]) -> list[float] | None:
    """Each seat's standing in this view (gold, score), for the results chart; None if not known."""
    return None


def chart_title() -> str:
    """The results chart's heading: each seat's ``score_track`` move by move."""
    return "Score over the game"


def choice_label(frame: TableFrame, choice: dict[str, Any]) -> RenderableType:
    """How the prompt shows one choice: the host's words."""
    return Text(str(choice.get("text", "")))


def choice_matches(action: dict[str, Any], target: str) -> bool:
    """Whether a click on ``target`` (a chip's target, "kind:value") picks this action."""
    _, _, value = target.partition(":")
    return any(str(v) == value for k, v in action.items() if k != "do")


def choice_order(frame: TableFrame) -> list[int] | None:
    """The order to list the prompt's choices in (indices into ``frame.choices``), best first; the
    number keys follow it. None keeps the host's order."""
    return None


def reveal_text(reveal: Any, frame: TableFrame) -> Text | None:
    """The whole reveal (A2) in a game's own words; None lets the results screen list it field by field."""
    return None


def confirm_choice(frame: TableFrame, action: dict[str, Any]) -> tuple[str, str, str, str] | None:
    """For a move that cannot be taken back and ends your game: (question, consequence, yes, no) to ask
    before it is sent; None sends it at once."""
    return None


def result_note(frame: TableFrame, seat: int) -> str:
    """A few words after a seat's name in the results when its score alone misleads (" (died)")."""
    return ""


def others_in_the_result(frame: TableFrame) -> list[tuple[str, int, bool]]:
    """Whoever else the game is played against (a rival without a seat): name, score, whether he won."""
    return []


def reveal_item(value: Any) -> str:
    """One hidden thing as the results' reveal names it (a card, a die); the value as it is by default."""
    return str(value)


def final_tracks(frame: TableFrame, seat: int) -> str:
    """What the results show of a seat beside its score: its final tracks ("" for none)."""
    return ""


def prompt_title(frame: TableFrame) -> str:
    """Words after "Your move" in the move pane's title (what the choice is about)."""
    return ""


#: How many of the log's newest lines the default recap shows.
RECAP_LINES = 3


def told_events(frame: TableFrame) -> list[dict[str, Any]]:
    """The log's events as this seat reads them: a public line repeating what it was told in its own
    (``told_privately``) left out, as the log leaves it out."""
    return [event for event in frame.log
            if frame.seat is None or event.get("told_privately") != frame.seat]


def chunks_since(frame: TableFrame, starts: re.Pattern[str]) -> Iterator[list[dict[str, Any]]]:
    """The log cut where an event's words match ``starts`` (a journey, a round, a deal), newest chunk
    first, each as ``told_events`` gives it; the chunk before the first start last. Read from the end:
    a recap is drawn on every table update, and the log of a long game has thousands of events."""
    log, end = frame.log, len(frame.log)

    def told(chunk: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [event for event in chunk if frame.seat is None or event.get("told_privately") != frame.seat]

    for number in range(len(log) - 1, -1, -1):
        if starts.match(str(log[number].get("text", ""))):
            yield told(log[number:end])
            end = number
    if end:
        yield told(log[:end])


def recap_lines(heading: str, lines: list[str]) -> list[Text]:
    """A recap as the board draws it: the heading in bold before the first line, then a line each (the
    board has few rows to spare at 100×30: no line of its own for the heading)."""
    if not lines:
        return []
    first = Text(f"{heading} ", style="bold")
    first.append(lines[0], style="not bold")
    return [first, *(Text(f"  {line}") for line in lines[1:])]


def recap(frame: TableFrame) -> list[Text]:
    """The story of what just happened, drawn under the board until the next one (the log keeps
    everything): a heading and a line each, from the events and the view this seat already has (A1).
    By default the log's newest lines; a game tells its journey, round or turn its own way."""
    texts = [str(event.get("text", "")) for event in told_events(frame)[-RECAP_LINES:]]
    return recap_lines("Just now", texts)


def glossary(frame: TableFrame) -> list[tuple[str, str]]:
    """The game's own words that matter in this frame, each with a line that explains it: (word, line).
    The table screen writes each line in the log once, the first time its word matters. None by default."""
    return []


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_plain(v) for v in value) or "—"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_plain(v)}" for k, v in value.items())
    return str(value)


class Board(FramePane):
    """Any game: the public parts of the view, one line a field."""

    def draw(self, frame: TableFrame) -> RenderableType:
        text = Text()
        for key, value in (frame.view or {}).items():
            if key not in ("hand", "my_dice", "options"):
                text.append(f"{key}: ", style="bold")
                text.append(_plain(value) + "\n")
        return text


class Hand(FramePane):
    def draw(self, frame: TableFrame) -> RenderableType:
        hand = (frame.view or {}).get("hand")
        return Text(_plain(hand) if hand is not None else "")


class Sheet(FramePane):
    def draw(self, frame: TableFrame) -> RenderableType:
        return Text("")


@dataclass(frozen=True)
class GamePanes:
    """A game's panes and the hooks the shared screens call; each field not given keeps the default
    drawn for any game."""

    #: The game's id in the registry ("" for the fallback).
    game_id: str = ""
    board: type[FramePane] = Board
    hand: type[FramePane] = Hand
    sheet: type[FramePane] = Sheet
    status: Callable[[TableFrame], str] = status
    waiting_for: Callable[[TableFrame], list[int]] = waiting_for
    interlude: Callable[[TableFrame, TableFrame], tuple[str, RenderableType, str] | None] = interlude
    seat_summary: Callable[[TableFrame, int], str] = seat_summary
    laid: Callable[[TableFrame, int], bool | None] = laid
    laid_word: Callable[[], str] = laid_word
    score_track: Callable[[dict[str, Any]], list[float] | None] = score_track
    chart_title: Callable[[], str] = chart_title
    choice_label: Callable[[TableFrame, dict[str, Any]], RenderableType] = choice_label
    choice_matches: Callable[[dict[str, Any], str], bool] = choice_matches
    choice_order: Callable[[TableFrame], list[int] | None] = choice_order
    reveal_text: Callable[[Any, TableFrame], Text | None] = reveal_text
    confirm_choice: Callable[[TableFrame, dict[str, Any]], tuple[str, str, str, str] | None] = confirm_choice
    result_note: Callable[[TableFrame, int], str] = result_note
    others_in_the_result: Callable[[TableFrame], list[tuple[str, int, bool]]] = others_in_the_result
    reveal_item: Callable[[Any], str] = reveal_item
    prompt_title: Callable[[TableFrame], str] = prompt_title
    final_tracks: Callable[[TableFrame, int], str] = final_tracks
    recap: Callable[[TableFrame], list[Text]] = recap
    glossary: Callable[[TableFrame], list[tuple[str, str]]] = glossary


#: The panes of a game with no folder of its own.
GENERIC = GamePanes()
