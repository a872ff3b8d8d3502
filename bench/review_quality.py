"""Can the review be trusted? Seeded games where one decision of a seat was replaced by a clearly
bad one, and games the hard bot played against itself.

* **Injected mistake**: a 2-player game of normal bots; at one decision of one seat (drawn with the seed) the
  bot's choice is replaced by the worst legal action: in Your Money or Your Life a robbery's worst
  assignment by the solver (the hard bot's ``review_values``); in the others the worst candidate of a
  search over every legal action (``core.search.search`` with the game's normal guide, the hard bot's
  horizon and guesses), taken only where it is clearly worse than the normal bot's choice. The game goes on
  with the bots. The review (of that seat) should mark that decision as the seat's costliest.
* **Hard against itself**: the review's marks per seat in a game the hard bot played in every seat.

``bench/review.py`` prints these figures; ``tests/core/test_review.py`` keeps a small seeded version.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from core.engine import Action, Game, State
from core.review import Effort, Review, review_game
from core.search import Budget, playout, search

#: A search's worst candidate is "clearly bad" when its mean outcome (0 to 1) is this far below the normal
#: bot's choice; a robbery's worst assignment when it is worth this many points of winning chance less
#: than the best (the normal bot's own slips cost up to 10 to 15; a clearly bad one costs more).
CLEAR_SEARCH_GAP = 0.25
CLEAR_POINTS_GAP = 25.0
#: The search that finds the worst action: every legal action a candidate, no time limit, no racing help.
WORST_SEARCH = Budget(playouts=240, seconds=None, candidates=64, confidence=2.0)
#: Guesses on which the worst candidate is measured again against the normal bot's choice. At 60 (a
#: standard error of about 9 points in Dick Turpin, where a playout to the end strays 60-80 points) the
#: worst of many seeds' candidates passed by luck: of 18 Dick Turpin injections the review did not mark
#: first, 400 samples found 16 costing 3 to 21 points, not the 25 the check had seen.
CHECK_SAMPLES = 400


@dataclass(frozen=True)
class Injected:
    """A game with one decision replaced: its moves, and where the bad one is."""

    options: dict[str, Any]
    seed: int
    actions: list[list[Any]]
    index: int
    seat: int


def worst_robbery(game: Game, state: State, seat: int, legal: list[Action], rng: random.Random) -> Action | None:
    """Your Money or Your Life: the legal assignment the solver values least, if clearly below the best."""
    values = getattr(game.bots["hard"], "review_values", None)
    if values is None or state.get("phase") != "rob":
        return None
    scores = values(game, state, seat, legal, rng, Effort())
    if scores is None:
        return None
    worst = min(range(len(scores.actions)), key=lambda i: scores.values[i])
    return scores.actions[worst] if max(scores.values) - scores.values[worst] >= CLEAR_POINTS_GAP else None


def worst_searched(game: Game, state: State, seat: int, rng: random.Random) -> Action | None:
    """The search's worst candidate among every legal action, if clearly below the normal bot's choice."""
    hard = game.bots["hard"]
    _, report = search(game, state, seat, rng, game.bots["normal"], WORST_SEARCH,
                       horizon=getattr(hard, "horizon", None), resample=getattr(hard, "resample", None))
    if len(report.candidates) < 2:
        return None
    worst = min(range(1, len(report.candidates)), key=lambda i: report.means[i])
    if report.means[0] - report.means[worst] < CLEAR_SEARCH_GAP:
        return None
    # The least of several noisy means is lower than its action deserves: measured again, on fresh
    # guesses, against the normal bot's choice alone, before it counts as clearly bad
    pair = [report.candidates[0], report.candidates[worst]]
    means = compare_pair(game, state, seat, pair, random.Random(rng.getrandbits(64)))
    return pair[1] if means[0] - means[1] >= CLEAR_SEARCH_GAP else None


def compare_pair(game: Game, state: State, seat: int, pair: list[Action], rng: random.Random) -> list[float]:
    """Each action's mean outcome over ``CHECK_SAMPLES`` guesses, both played out on the same luck."""
    hard = game.bots["hard"]
    horizon, resample = getattr(hard, "horizon", None), getattr(hard, "resample", None) or game.resample_hidden
    totals = [0.0, 0.0]
    for _ in range(CHECK_SAMPLES):
        guess_seed, playout_seed = rng.getrandbits(64), rng.getrandbits(64)
        for i, action in enumerate(pair):
            guess = resample(state, seat, random.Random(guess_seed))
            game.advance(guess, seat, action)
            totals[i] += playout(game, guess, seat, random.Random(playout_seed), game.bots["normal"],
                                 horizon=horizon, start=state)
    return [total / CHECK_SAMPLES for total in totals]


def inject(game: Game, seed: int, players: int = 2) -> Injected | None:
    """A game of normal bots with one clearly bad decision of one seat; None if the seed's drawn decision
    had no clearly bad action (the caller takes the next seed)."""
    options = game.resolve_options({"players": players})
    state = game.setup(options, seed)
    rngs = [random.Random(f"quality:{seed}:{seat}") for seat in range(players)]
    pick = random.Random(f"inject:{seed}")
    mover_of_choice = pick.randrange(players)
    chance = pick.uniform(0.1, 0.9)  # how far into the game: the first eligible decision past this share
    moves_guess = {"turpin": 30, "highwayman": 150, "money-or-life": 50}.get(game.id, 50)  # a 2-player game's, about
    actions: list[list[Any]] = []
    injected = -1
    while pending := game.pending(state):
        seat = pending[0]
        legal = game.legal_actions(state, seat)
        action = game.bots["normal"](state, seat, rngs[seat])
        if (injected < 0 and seat == mover_of_choice and len(legal) > 1 and len(actions) >= chance * moves_guess):
            rng = random.Random(f"worst:{seed}:{len(actions)}")
            bad = (worst_robbery(game, state, seat, legal, rng) if game.id == "money-or-life"
                   else worst_searched(game, state, seat, rng))
            if bad is not None and bad != action:
                action, injected = bad, len(actions)
        actions.append([seat, action])
        game.apply(state, seat, action)
    if injected < 0:
        return None
    return Injected(options, seed, actions, injected, mover_of_choice)


def marked_as_costliest(game: Game, injected: Injected, effort: Effort) -> tuple[bool, Review]:
    """Whether the review of the injected seat marks the injected decision as its costliest."""
    review = review_game(game, injected.options, injected.seed, injected.actions, effort, only_seats=[injected.seat])
    marked = review.marked[injected.seat]
    return bool(marked) and marked[0].index == injected.index, review


def hard_game(game: Game, seed: int, budget: Budget | None = None,
              players: int = 2) -> tuple[dict[str, Any], list[list[Any]]]:
    """A game the hard bot played in every seat (with ``budget``, if given)."""
    options = game.resolve_options({"players": players})
    hard = game.bots["hard"]
    bot = hard.with_budget(budget) if budget is not None else hard
    state = game.setup(options, seed)
    rngs = [random.Random(f"hard:{seed}:{seat}") for seat in range(players)]
    actions: list[list[Any]] = []
    while pending := game.pending(state):
        seat = pending[0]
        action = bot(state, seat, rngs[seat])
        actions.append([seat, action])
        game.apply(state, seat, action)
    return options, actions
