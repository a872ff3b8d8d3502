"""A pane that says what its drawing reads (``FramePane.draw_key``) is not drawn again while that holds:
so an equal key must always mean an equal drawing. Checked over every table of bot-played games of each
title, as a player and as a spectator, for every pane of every game that keys its drawing."""

from __future__ import annotations

import random

import pytest
from textual.app import App, ComposeResult

from core.registry import all_games, get_game
from tests.net_helpers import seat_range
from tui.frame import TableFrame
from tui.games import panes_for
from tui.widgets.pane import FramePane

KEYED = [(game_id, role) for game_id in all_games()
         for role in ("board", "hand", "sheet")
         if getattr(panes_for(game_id), role, None) is not None
         and getattr(panes_for(game_id), role).draw_key is not FramePane.draw_key]


def frames_of_a_game(game_id: str, seat: int | None, seed: int, limit: int = 400) -> list[TableFrame]:
    game = get_game(game_id)
    players = min(3, seat_range(game)[1])  # others move between your moves: what a key is for
    state = game.setup(game.resolve_options({"players": players}), seed)
    rng = random.Random(seed)
    frames = []
    for turn in range(limit):
        pending = game.pending(state)
        prompt = None
        if seat is not None and seat in pending:
            prompt = {"id": turn + 1, "choices": [{"action": action, "text": game.describe_action(state, seat, action)}
                                                  for action in game.legal_actions(state, seat)]}
        frames.append(TableFrame(game=game_id, title=game.title, seat=seat, started=True, turn=turn,
                                 view=game.view(state, seat), prompt=prompt,
                                 seats=[{"seat": s, "name": f"P{s + 1}", "kind": "person", "connected": True}
                                        for s in range(players)]))
        if not pending:
            break
        mover = pending[0]
        game.apply(state, mover, game.bots["normal"](state, mover, rng))
    return frames


class PaneApp(App):
    def __init__(self, pane: FramePane) -> None:
        super().__init__()
        self.pane = pane

    def compose(self) -> ComposeResult:
        yield self.pane


@pytest.mark.parametrize("game_id, role", KEYED, ids=[f"{game}-{role}" for game, role in KEYED])
async def test_an_equal_draw_key_means_an_equal_drawing(game_id, role):
    pane = getattr(panes_for(game_id), role)(id=role)
    async with PaneApp(pane).run_test(size=(120, 40)):
        keyed = 0
        for seat in (0, None):
            for seed in (1, 2):
                before = None
                for frame in frames_of_a_game(game_id, seat, seed):
                    key, drawn = pane.draw_key(frame), pane.draw(frame)
                    if before is not None and key == before[0]:
                        keyed += 1
                        assert drawn == before[1], f"{role} at turn {frame.turn}: same key, new drawing"
                    before = (key, drawn)
        assert keyed, "no two tables in a row had the same key: the test shows nothing"
