"""``advance`` (``apply`` without narration, for playouts) against ``apply``, for every registered game.

The fast path must be the same game: the same state after every action, the same legal actions and
pending seats, the same result and the same refusals. A game added to the registry is tested here with no
change to this file.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from core.engine import IllegalAction, clone
from core.registry import all_games
from core.simulate import game_seed

GAMES = list(all_games().values())
game_params = pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
CHUNKS = 4  # split so that pytest-xdist can spread the games over the cores
GAMES_PER_TITLE = 400


def player_counts(game):
    low, high = game.option("players").allowed
    return list(range(low, high + 1))


def chooser(game, seed):
    """Per game, either uniform random actions or the normal bot in every seat (it reaches other corners
    of the rules: long robberies, blocks held back, robberies planned), with a fixed generator."""
    rng = random.Random(f"choose:{seed}")
    if seed % 2 or "normal" not in game.bots:
        return lambda state, seat: rng.choice(game.legal_actions(state, seat))
    normal = game.bots["normal"]
    return lambda state, seat: normal(state, seat, rng)


def twin_playout(game, seed):
    """Play one game twice in step, through ``apply`` and through ``advance``, comparing at every step."""
    rng = random.Random(seed)
    options = game.resolve_options({"players": rng.choice(player_counts(game))})
    told = game.setup(options, game_seed(seed, 7))
    quiet = game.setup(options, game_seed(seed, 7))
    choose = chooser(game, seed)
    seats = range(game.seats(options))
    steps = 0
    while pending := game.pending(told):
        assert game.pending(quiet) == pending
        for seat in seats:
            assert game.legal_actions(quiet, seat) == game.legal_actions(told, seat)
        seat = rng.choice(pending)
        action = choose(told, seat)
        events = game.apply(told, seat, action)
        assert isinstance(events, list)
        assert game.advance(quiet, seat, action) is None
        assert quiet == told, f"{game.id} seed {seed}: advance and apply differ after step {steps}: {action}"
        steps += 1
    assert game.pending(quiet) == []
    assert game.result(quiet) == game.result(told) is not None
    return steps


@game_params
# The first chunk is in the quick tier; the rest of the sweep is slow.
@pytest.mark.parametrize("chunk", [pytest.param(chunk, marks=[pytest.mark.slow] if chunk else [])
                                   for chunk in range(CHUNKS)])
def test_advance_changes_the_state_exactly_as_apply_does(game, chunk):
    """400 seeded games per title (random and normal-bot players, every table size): after every action
    the states are equal, and so are pending seats, every seat's legal actions and the result."""
    for seed in range(chunk, GAMES_PER_TITLE, CHUNKS):
        assert twin_playout(game, seed) > 0


@game_params
def test_advance_refuses_what_apply_refuses_and_changes_nothing(game):
    """The fast path keeps the legality check: junk, out-of-turn actions, a finished game."""
    junk = [{}, {"do": "nonsense"}, {"do": None, "x": [1, 2]}, {"card": "no such card"}, "draw", None]
    for seed in range(30):
        rng = random.Random(seed)
        options = game.resolve_options({"players": rng.choice(player_counts(game))})
        state = game.setup(options, seed)
        steps = rng.randrange(60) if seed % 3 else 10_000
        while (pending := game.pending(state)) and steps:
            seat = rng.choice(pending)
            game.advance(state, seat, rng.choice(game.legal_actions(state, seat)))
            steps -= 1
        before = clone(state)
        for seat in range(game.seats(options)):
            tries = list(junk)
            if pending and seat not in pending:
                tries.append(game.legal_actions(state, pending[0])[0])
            for action in tries:
                with pytest.raises(IllegalAction) as by_apply:
                    game.apply(state, seat, action)
                with pytest.raises(IllegalAction) as by_advance:
                    game.advance(state, seat, action)
                assert (by_advance.value.rule, by_advance.value.message) == \
                    (by_apply.value.rule, by_apply.value.message)
                assert state == before


@game_params
def test_a_game_without_advance_gets_apply_with_the_events_dropped(game):
    """The contract's default: a new game need not write ``advance`` to be played out."""
    plain = dataclasses.replace(game, advance=None)
    assert plain.advance is not game.advance
    options = game.resolve_options({"players": player_counts(game)[0]})
    rng = random.Random(3)
    told, quiet = game.setup(options, 11), game.setup(options, 11)
    while pending := game.pending(told):
        action = rng.choice(game.legal_actions(told, pending[0]))
        game.apply(told, pending[0], action)
        assert plain.advance(quiet, pending[0], action) is None
        assert quiet == told
