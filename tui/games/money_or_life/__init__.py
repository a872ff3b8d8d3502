"""Your Money or Your Life: its panes, as the shared screens ask for them (``PANES``).

board.py: the map, the coaches and the riders; hand.py: your dice and what they can do;
sheet.py: your rider's sheet; advice.py: the robbery's options in words and their order; recap.py: the
round just ridden; common.py: what those share; hooks.py: the game's words for the shared screens.
"""

from __future__ import annotations

from tui.games.generic import GamePanes
from tui.games.money_or_life import advice, hooks, recap
from tui.games.money_or_life.board import YorkBoard
from tui.games.money_or_life.hand import YorkHand
from tui.games.money_or_life.sheet import YorkSheet

PANES = GamePanes(
    game_id="money-or-life",
    board=YorkBoard,
    hand=YorkHand,
    sheet=YorkSheet,
    status=hooks.status,
    waiting_for=hooks.waiting_for,
    seat_summary=hooks.seat_summary,
    laid=hooks.laid,
    laid_word=hooks.laid_word,
    score_track=hooks.score_track,
    choice_label=hooks.choice_label,
    choice_matches=hooks.choice_matches,
    choice_order=advice.choice_order,
    reveal_text=hooks.reveal_text,
    confirm_choice=hooks.confirm_choice,
    result_note=hooks.result_note,
    others_in_the_result=hooks.others_in_the_result,
    reveal_item=hooks.reveal_item,
    prompt_title=hooks.prompt_title,
    final_tracks=hooks.final_tracks,
    recap=recap.recap,
    glossary=hooks.glossary,
)
