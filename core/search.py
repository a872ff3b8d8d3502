"""The ``hard`` bot: information-set Monte Carlo search over the engine contract, for every game.

A bot knows only its seat's view (ruling A3), so every sample of the search starts from a state drawn with
``resample_hidden``: the other hands, the order of the piles and the generator guessed afresh, consistent
with all the seat has seen. From that guess each candidate action is played, then the game is played out
to its end by the ``normal`` bot in every seat ("guided" playouts: it reads only each seat's view of the
guess, so the other seats never learn our hidden choice, and a careless playout would say little about how
careful players fare). The candidate with the best mean outcome is played.

Three things make a small budget go far (a loaded machine leaves a decision only a few samples):

* Common random numbers: within one sample every candidate starts from the *same* guess and its
  playout draws from the *same* generator, so candidates are compared on equal luck and only the
  difference the action makes remains. This module's first version, a tree search with one candidate
  per sample (UCB1 over our own decisions), lost 29% to 71% to the normal bot at 50 playouts in 2-player
  Dick Turpin: single-game outcomes were too noisy for it to tell a good move from a poor one.
* The normal bot's own choice stands unless the samples show another is better by a clear margin (the
  paired differences' mean exceeds ``confidence`` standard errors), so a short search never makes a
  worse choice than the normal bot out of noise.
* Racing: a candidate that has fallen clearly behind the normal bot's choice (its mean paired gain is
  below nothing by a standard error after ``RACE_AFTER`` samples) leaves the search, so the samples go
  to the candidates that might still beat it.

The outcome of a playout is the seat's share of the win plus a little of its score margin (scores are
read in whichever direction the winners show), which separates close games better than wins alone. A
game whose playouts are long may end them early at a ``horizon`` of its own (Highwayman: the end of the
game in the series the search began in; Your Money or Your Life: the end of the round).

A budget bounds every decision: at most ``playouts`` playouts, and at most ``seconds`` of thinking when
that is set (the searching thread's CPU time, and ``wall_seconds`` by the wall clock at most; checked
before every playout move, so a decision overruns it by one move of the guide at
most; a sample the time cut short is dropped whole). With ``seconds`` unset the choice depends only on
the seat's view and the generator, so it replays exactly (and a ``resample_hidden`` state in place of the
real one gives the same choice).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Callable

from core.engine import Action, Bot, Game, State

#: Playout moves past this count end the playout as a draw: a runaway rule bug must not hang a bot.
PLAYOUT_MOVE_CAP = 5_000
#: How much of a playout's outcome comes from the score margin rather than the win.
MARGIN_WEIGHT = 0.25


@dataclass(frozen=True)
class Budget:
    """How much one decision may think: a playout count, and optionally a time limit in seconds."""

    playouts: int = 200
    #: Thinking time: the CPU time of the thread that searches (``time.thread_time``), so that a loaded
    #: machine slows a decision rather than starving it. By the wall clock at 0.25 s a Highwayman decision
    #: got a median of 5 samples at load 11 (35-60 on a quiet machine), too few for the search ever to
    #: leave the normal bot's choice: hard won 20 of 41 series against the normal bot there.
    seconds: float | None = 0.25
    #: ... and never longer than this by the wall clock, however little of the machine the thread gets (a
    #: player waits no more than a second).
    wall_seconds: float = 1.0
    #: At most this many candidates are searched: the guide's choice and others drawn at random.
    candidates: int = 8
    #: Standard errors by which another action must beat the guide's choice to be played instead (two:
    #: with seven rivals to the guide's choice, one of them would pass a one-error bar by luck most times).
    confidence: float = 2.0


@dataclass
class SearchReport:
    """What one search did: for tests (budget kept) and the benchmark (time per decision)."""

    playouts: int = 0
    samples: int = 0
    elapsed: float = 0.0
    hint: Action | None = None
    means: list[float] = field(default_factory=list)
    candidates: list[Action] = field(default_factory=list)


def outcome(game: Game, state: State, seat: int) -> float:
    """The seat's share of the win, plus ``MARGIN_WEIGHT`` of its score margin over the others."""
    result = game.result(state)
    if result is None:
        return 0.5
    winners, scores = result["winners"], result["scores"]
    share = 1.0 / len(winners) if seat in winners else 0.0
    if len(scores) < 2 or not winners:
        return share
    others = [score for s, score in enumerate(scores) if s not in winners]
    if not others:
        return share
    # The direction scores count in: the winners' side (the lowest total wins Highwayman).
    direction = 1.0 if min(scores[s] for s in winners) >= max(others) else -1.0
    spread = (max(scores) - min(scores)) or 1
    rival = max(direction * score for s, score in enumerate(scores) if s != seat)
    margin = max(-1.0, min(1.0, (direction * scores[seat] - rival) / spread))
    return (1 - MARGIN_WEIGHT) * share + MARGIN_WEIGHT * (margin + 1) / 2


class OutOfTime(Exception):
    """The decision's time ran out in the middle of a playout: its sample is dropped."""


#: A game's early end of a playout: given the playout's state, the seat and the state it began from, the
#: seat's outcome (0 to 1) if the playout may stop here, else None.
Horizon = Callable[[State, int, State], "float | None"]
#: A game's way to guess the hidden state for a sample: like ``resample_hidden`` (same arguments, reads only
#: the seat's view), but free to use what the game's normal play says about the others (what a player
#: who plays like the guide would have chosen), where a uniform guess ignores it.
Resample = Callable[[State, int, random.Random], State]
#: A game's quick deep copy of a state. With it a sample's guess is drawn once and copied for each
#: candidate; without it each candidate draws the same guess again from the same seed, which costs
#: more when the game's guess weighs what the others' moves showed (Highwayman's: about a playout).
Copy = Callable[[State], State]


def playout(game: Game, state: State, seat: int, rng: random.Random, guide: Bot,
            out_of_time: Callable[[], bool] = lambda: False, horizon: Horizon | None = None,
            start: State | None = None) -> float:
    """Play ``state`` to the end (or to the game's ``horizon``, measured from ``start``, the position
    the search began at) in place with ``guide`` in every seat; ``seat``'s outcome."""
    for _ in range(PLAYOUT_MOVE_CAP):
        pending = game.pending(state)
        if not pending:
            return outcome(game, state, seat)
        if horizon is not None and start is not None and (early := horizon(state, seat, start)) is not None:
            return early
        if out_of_time():
            raise OutOfTime
        mover = pending[0]
        game.advance(state, mover, guide(state, mover, rng))  # nobody reads a playout's events
    return 0.5


def candidates_for(legal: list[Action], hint: Action, limit: int, rng: random.Random) -> list[Action]:
    """The guide's choice first, then up to ``limit - 1`` others, drawn at random when there are more."""
    others = [action for action in legal if action != hint]
    if len(others) > limit - 1:
        others = rng.sample(others, limit - 1)
    return [hint] + others


def search(game: Game, state: State, seat: int, rng: random.Random, guide: Bot, budget: Budget = Budget(),
           clock: Callable[[], float] = time.thread_time, horizon: Horizon | None = None,
           resample: Resample | None = None, copy: Copy | None = None,
           wall: Callable[[], float] = time.perf_counter) -> tuple[Action, SearchReport]:
    """The action ``seat`` should take in ``state``, and what the search did to find it. A game with
    long playouts may give a ``horizon`` where they stop early with an outcome of its own reckoning, and
    a game may guess the hidden state its own way (``resample``; by default ``game.resample_hidden``)
    and give a quick ``copy`` of a state, so that a guess is drawn once a sample (the same choices).

    Reads only ``seat``'s view of ``state`` (through ``legal_actions``, the guide and ``resample_hidden``).
    """
    started = clock()
    report = SearchReport()
    legal = game.legal_actions(state, seat)
    hint = guide(state, seat, rng) if len(legal) > 1 else legal[0]
    report.hint = hint
    if len(legal) == 1 or hint not in legal:
        report.elapsed = clock() - started
        return (hint if hint in legal else legal[0]), report
    candidates = candidates_for(legal, hint, budget.candidates, rng)
    totals = [0.0] * len(candidates)
    diff_sums = [0.0] * len(candidates)  # paired with the hint's outcome in the same sample
    diff_squares = [0.0] * len(candidates)
    counts = [0] * len(candidates)  # samples each candidate took part in (it leaves once clearly worse)
    alive = list(range(len(candidates)))
    out_of_time = deadline_of(budget, started, clock, wall)
    guess_hidden = resample or game.resample_hidden

    while report.playouts + len(alive) <= budget.playouts and not out_of_time():
        guess_seed, playout_seed = rng.getrandbits(64), rng.getrandbits(64)
        outcomes: dict[int, float] = {}
        try:
            shared_guess = guess_hidden(state, seat, random.Random(guess_seed)) if copy else None
            for i in alive:
                guess = (copy(shared_guess) if copy is not None and shared_guess is not None
                         else guess_hidden(state, seat, random.Random(guess_seed)))
                game.advance(guess, seat, candidates[i])
                outcomes[i] = playout(game, guess, seat, random.Random(playout_seed), guide, out_of_time,
                                      horizon, start=state)  # the search's own state is never changed
                report.playouts += 1
        except OutOfTime:
            break  # a sample is all its candidates on the same luck, or nothing
        for i, value in outcomes.items():
            totals[i] += value
            diff_sums[i] += value - outcomes[0]
            diff_squares[i] += (value - outcomes[0]) ** 2
            counts[i] += 1
        report.samples += 1
        alive = [i for i in alive if i == 0 or not clearly_worse(diff_sums[i], diff_squares[i], counts[i])]
        if len(alive) == 1:
            break  # every other candidate is out: the normal choice stands
    report.candidates = candidates
    report.means = [total / max(count, 1) for total, count in zip(totals, counts)]
    report.elapsed = clock() - started
    return candidates[best_candidate(diff_sums, diff_squares, counts, budget.confidence)], report


def deadline_of(budget: Budget, started: float, clock: Callable[[], float],
                wall: Callable[[], float]) -> Callable[[], bool]:
    """Whether a decision that began at ``started`` (by ``clock``, its thinking time) has used its
    ``budget.seconds`` of thinking, or ``budget.wall_seconds`` by the ``wall`` clock; never, with no
    seconds set (a choice that replays exactly)."""
    if budget.seconds is None:
        return lambda: False
    thinking_deadline = started + budget.seconds
    wall_deadline = wall() + budget.wall_seconds
    return lambda: clock() >= thinking_deadline or wall() >= wall_deadline


#: Samples a candidate takes part in before it may be dropped as clearly worse than the hint.
RACE_AFTER = 5


def paired_gain(diff_sum: float, diff_square: float, samples: int) -> tuple[float, float]:
    """The mean of a candidate's paired gains over the hint, and its standard error."""
    mean = diff_sum / samples
    variance = max(diff_square / samples - mean * mean, 0.0) * samples / (samples - 1)
    return mean, math.sqrt(variance / samples)


def clearly_worse(diff_sum: float, diff_square: float, samples: int) -> bool:
    """A candidate whose gain over the hint is below nothing by a standard error after ``RACE_AFTER``
    samples: it could hardly still clear the bar for being played, so its playouts go to the others."""
    if samples < RACE_AFTER:
        return False
    mean, error = paired_gain(diff_sum, diff_square, samples)
    return mean + error < 0


def best_candidate(diff_sums: list[float], diff_squares: list[float], counts: list[int], confidence: float) -> int:
    """The candidate whose paired gain over the hint (index 0) is largest and clearly above nothing."""
    best, best_gain = 0, 0.0
    for i in range(1, len(diff_sums)):
        if counts[i] < 2:
            continue
        mean, error = paired_gain(diff_sums[i], diff_squares[i], counts[i])
        if mean > best_gain and mean > confidence * error:
            best, best_gain = i, mean
    return best


#: How a hard bot decides with the report of its search: given the game (the benchmark passes one whose
#: contract functions it times), the state, the seat and the generator; the report is None where it did not
#: search.
Decide = Callable[[Game, State, int, random.Random], "tuple[Action, SearchReport | None]"]


def mark_hard(bot: Bot, budget: Budget, decide: Decide, with_budget: Callable[[Budget], Bot]) -> Bot:
    """What every game's hard bot carries, whatever way it searches: its ``budget``; ``decide``, its choice
    with the search's report (``bench/bots.py`` measures the registered bot through it); and
    ``with_budget``, the same bot with another budget (the tests use a tiny one with no clock)."""
    bot.budget = budget  # type: ignore[attr-defined]
    bot.decide = decide  # type: ignore[attr-defined]
    bot.with_budget = with_budget  # type: ignore[attr-defined]
    return bot


def searching_bot(game_ref: Callable[[], Game], guide_name: str = "normal", budget: Budget = Budget(),
                  horizon: Horizon | None = None, resample: Resample | None = None, copy: Copy | None = None) -> Bot:
    """The ``hard`` bot of a game: ``search`` with that game's ``guide_name`` bot, this budget, and the
    game's playout ``horizon``, way to ``resample`` the hidden state and quick ``copy`` if it has them
    (marked as ``mark_hard`` says).

    ``game_ref`` returns the game (the bot is built before the ``Game`` it belongs to exists)."""

    def hard(state: State, seat: int, rng: random.Random) -> Action:
        game = game_ref()
        action, _ = search(game, state, seat, rng, game.bots[guide_name], budget, horizon=horizon,
                           resample=resample, copy=copy)
        return action

    def decide(game: Game, state: State, seat: int, rng: random.Random) -> tuple[Action, SearchReport | None]:
        return search(game, state, seat, rng, game.bots[guide_name], budget, horizon=horizon, resample=resample,
                      copy=copy)

    def with_budget(other: Budget) -> Bot:
        return searching_bot(game_ref, guide_name, other, horizon, resample, copy)

    mark_hard(hard, budget, decide, with_budget)
    hard.horizon = horizon  # type: ignore[attr-defined]
    hard.resample = resample  # type: ignore[attr-defined]
    hard.copy = copy  # type: ignore[attr-defined]
    return hard


#: A game's guess of the hidden state for one sample, drawn from the generator it is given.
Sample = Callable[[random.Random], State]
#: A game's value (0 to 1) of an action for the seat in one sample's guess: its own reckoning of where the
#: action leads, in place of a playout. It must not change the guess (every candidate reads the same one).
Evaluate = Callable[[State, Action], float]


def compare_on_samples(candidates: list[Action], sample: Sample, evaluate: Evaluate, rng: random.Random,
                       budget: Budget, clock: Callable[[], float] = time.thread_time,
                       wall: Callable[[], float] = time.perf_counter) -> tuple[Action, SearchReport]:
    """The candidate with the best mean value over guesses of the hidden state, every candidate valued on
    every guess (common random numbers, as in ``search``), within ``budget``: ``budget.playouts``
    evaluations, and ``budget.seconds`` when set (checked before each guess, so a decision overruns it by
    one guess's evaluations at most).

    For a game that can value an action in expectation where a playout would draw its luck: the values
    then differ by what the action changes and by what the guesses leave open, so the best mean is
    played, without the bar ``search`` sets against a playout's noise. The first candidate wins ties."""
    started = clock()
    report = SearchReport(candidates=list(candidates), hint=candidates[0])
    totals = [0.0] * len(candidates)
    out_of_time = deadline_of(budget, started, clock, wall)
    while report.playouts + len(candidates) <= budget.playouts and not out_of_time():
        guess = sample(random.Random(rng.getrandbits(64)))
        for i, action in enumerate(candidates):
            totals[i] += evaluate(guess, action)
        report.playouts += len(candidates)
        report.samples += 1
    report.means = [total / max(report.samples, 1) for total in totals]
    report.elapsed = clock() - started
    best = max(range(len(candidates)), key=lambda i: (report.means[i], -i))
    return candidates[best], report
