"""The Famous Dick Turpin: its panes, as the shared screens ask for them (``PANES``).

board.py: the road and the coach; hand.py: your stand & deliver cards; sheet.py: the purses;
recap.py: the journey just ridden; hooks.py: the game's words for the shared screens (status, choices,
the reveal).
"""

from __future__ import annotations

from tui.games.dick_turpin import hooks, recap
from tui.games.dick_turpin.board import Board
from tui.games.dick_turpin.hand import Hand
from tui.games.dick_turpin.sheet import Sheet
from tui.games.generic import GamePanes

PANES = GamePanes(
    game_id="turpin",
    board=Board,
    hand=Hand,
    sheet=Sheet,
    status=hooks.status,
    waiting_for=hooks.waiting_for,
    seat_summary=hooks.seat_summary,
    laid=hooks.laid,
    score_track=hooks.score_track,
    chart_title=hooks.chart_title,
    choice_label=hooks.choice_label,
    reveal_text=hooks.reveal_text,
    prompt_title=hooks.prompt_title,
    recap=recap.recap,
)
