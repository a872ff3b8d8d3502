"""Highwayman: its panes, as the shared screens ask for them (``PANES``).

board.py: the routes; hand.py: your cards; sheet.py: the series sheet; recap.py: the turn just
played; hooks.py: the game's words for the shared screens (status, choices, the reveal, the pause
between games of a series).
"""

from __future__ import annotations

from tui.games.generic import GamePanes
from tui.games.highwayman import hooks, recap
from tui.games.highwayman.board import Board
from tui.games.highwayman.hand import Hand
from tui.games.highwayman.sheet import Sheet

PANES = GamePanes(
    game_id="highwayman",
    board=Board,
    hand=Hand,
    sheet=Sheet,
    status=hooks.status,
    waiting_for=hooks.waiting_for,
    interlude=hooks.interlude,
    seat_summary=hooks.seat_summary,
    score_track=hooks.score_track,
    chart_title=hooks.chart_title,
    choice_label=hooks.choice_label,
    choice_matches=hooks.choice_matches,
    choice_order=hooks.choice_order,
    reveal_text=hooks.reveal_text,
    reveal_item=hooks.reveal_item,
    prompt_title=hooks.prompt_title,
    recap=recap.recap,
)
