"""A review of a finished game: for each seat, the decisions that cost it most, and what was better.

Pure: a record's game, options, seed and action log in, a ``Review`` out; no I/O. The game is replayed
action by action; at each decision with a choice, the legal actions are scored **from that seat's
information only** (every guess of the hidden state comes from ``resample_hidden`` or the hard bot's own
resample; the true hidden state is never read) and the decision's cost is what the best-scored action
was worth over the one played.

A game scores its actions through its hard bot: a hard bot that carries ``review_values`` (the bots
contract: ``ReviewValues``) scores them its own way (Your Money or Your Life's robberies: the solver's
exact values); otherwise ``playout_values`` scores them generically, by the hard bot's own playouts
(its guide, its way of guessing the hidden state and its horizon). So a new game gets a review by giving
its hard bot one function, or none.

Deterministic: the same record and ``Effort`` give the same review.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from core.bots import resolved
from core.engine import Action, Game, State
from core.search import PLAYOUT_MOVE_CAP, playout


@dataclass(frozen=True)
class Effort:
    """How hard a review looks at each decision."""

    #: Guesses of the hidden state per decision; each candidate is played out once per guess.
    samples: int = 48
    #: At most this many actions scored per decision: the one played, the guide's, others at random.
    candidates: int = 6
    #: Decisions marked per seat at most.
    marks: int = 3
    #: A decision is marked only if its cost passes this many standard errors of the sampled difference.
    confidence: float = 3.0


@dataclass(frozen=True)
class Scores:
    """The values of some actions for a seat, in ``unit``, more is better; ``errors`` the standard error
    of each one's difference from the first action's value (0 where the values are exact)."""

    actions: list[Action]
    values: list[float]
    errors: list[float]
    unit: str


#: A game's own scoring of ``actions`` (the first is the one played) for ``seat`` in ``state``: it may read
#: only the seat's view and guesses drawn with ``resample_hidden``; None where it has no way of its own here.
ReviewValues = Callable[[Game, State, int, list[Action], random.Random, Effort], "Scores | None"]


@dataclass(frozen=True)
class Decision:
    """One decision of one seat, scored."""

    index: int  # the action's place in the record's log (0-based): the replay's step before it
    seat: int
    where: str
    played: Action
    played_text: str
    best: Action
    best_text: str
    cost: float  # what the best was worth over the one played, in ``unit``; 0 if the played was best
    error: float
    unit: str

    @property
    def significant(self) -> bool:
        return self.cost > 0 and self.best != self.played

    def in_words(self) -> str:
        return (f"{self.where}: you chose \u201c{self.played_text}\u201d; \u201c{self.best_text}\u201d was worth "
                f"+{self.cost:.1f} {self.unit} more on average")


@dataclass
class Review:
    game: str
    seats: int
    decisions: list[Decision] = field(default_factory=list)
    #: Per seat, the decisions that cost it most, costliest first.
    marked: list[list[Decision]] = field(default_factory=list)
    #: Whether the record's moves reach the end of the game.
    finished: bool = True

    def marked_steps(self) -> list[int]:
        """The log indices of every marked decision, in the game's order."""
        return sorted(d.index for seat in self.marked for d in seat)


Progress = Callable[[int, int], None]


def review_game(game: Game, options: dict[str, Any], seed: int, actions: Sequence[Sequence[Any]],
                effort: Effort = Effort(), progress: Progress | None = None) -> Review:
    """Replay the game and score every decision with a choice; ``progress(done, total)`` after each action."""
    state = game.setup(game.resolve_options(options), seed)
    seats = game.seats(game.resolve_options(options))
    review = Review(game=game.id, seats=seats)
    total = len(actions)
    for index, (seat, action) in enumerate(actions):
        legal = game.legal_actions(state, seat)
        if len(legal) > 1 and action in legal:
            rng = random.Random(f"review:{seed}:{index}")
            decision = score_decision(game, state, seat, action, legal, rng, effort, index)
            if decision is not None:
                review.decisions.append(decision)
        game.advance(state, seat, dict(action))
        if progress is not None:
            progress(index + 1, total)
    review.finished = game.result(state) is not None
    review.marked = [costliest([d for d in review.decisions if d.seat == seat], effort) for seat in range(seats)]
    return review


def costliest(decisions: list[Decision], effort: Effort) -> list[Decision]:
    """The seat's decisions whose cost is clear of noise, costliest first, at most ``effort.marks``."""
    clear = [d for d in decisions if d.significant and d.cost > effort.confidence * d.error]
    return sorted(clear, key=lambda d: (-d.cost, d.index))[:effort.marks]


def score_decision(game: Game, state: State, seat: int, played: Action, legal: list[Action],
                   rng: random.Random, effort: Effort, index: int) -> Decision | None:
    candidates = candidates_for_review(game, state, seat, played, legal, rng, effort)
    own = getattr(resolved(game.bots["hard"]), "review_values", None) if "hard" in game.bots else None
    scores = own(game, state, seat, candidates, rng, effort) if own is not None else None
    if scores is None:
        scores = playout_values(game, state, seat, candidates, rng, effort)
    best = max(range(len(scores.actions)), key=lambda i: (scores.values[i], i == 0))
    moment = game.moment(state, seat)
    return Decision(index=index, seat=seat, where=f"Move {index + 1}" + (f", {moment}" if moment else ""), played=played,
                    played_text=game.describe_action(state, seat, played), best=scores.actions[best],
                    best_text=game.describe_action(state, seat, scores.actions[best]),
                    cost=scores.values[best] - scores.values[0], error=scores.errors[best], unit=scores.unit)


def candidates_for_review(game: Game, state: State, seat: int, played: Action, legal: list[Action],
                          rng: random.Random, effort: Effort) -> list[Action]:
    """The action played first, then the guide's (the normal bot's) choice, then others at random."""
    chosen = [played]
    if "normal" in game.bots:
        guide_choice = game.bots["normal"](state, seat, random.Random(rng.getrandbits(64)))
        if guide_choice in legal and guide_choice not in chosen:
            chosen.append(guide_choice)
    others = [a for a in legal if a not in chosen]
    room = max(0, effort.candidates - len(chosen))
    return chosen + (rng.sample(others, room) if len(others) > room else others)


def score_unit(game: Game) -> str:
    return str(game.extra.get("score_unit", "points"))


def playout_values(game: Game, state: State, seat: int, actions: list[Action], rng: random.Random,
                   effort: Effort) -> Scores:
    """Each action's mean value over ``effort.samples`` guesses of the hidden state, every action played
    out from the same guess with the same generator (common random numbers) by the normal bot in every
    seat. A game whose hard bot stops its playouts at a horizon is valued as the hard bot values it, in
    points of winning chance (0 to 100); otherwise by the seat's final score margin over its best rival,
    in the game's unit."""
    hard = resolved(game.bots["hard"]) if "hard" in game.bots else None
    guide = game.bots["normal"] if "normal" in game.bots else game.bots["random"]
    resample = getattr(hard, "resample", None) or game.resample_hidden
    horizon = getattr(hard, "horizon", None)
    sums = [0.0] * len(actions)
    diffs = [0.0] * len(actions)
    squares = [0.0] * len(actions)
    for _ in range(effort.samples):
        guess_seed, playout_seed = rng.getrandbits(64), rng.getrandbits(64)
        values = []
        for action in actions:
            guess = resample(state, seat, random.Random(guess_seed))
            game.advance(guess, seat, action)
            if horizon is not None:
                values.append(100.0 * playout(game, guess, seat, random.Random(playout_seed), guide,
                                              horizon=horizon, start=state))
            else:
                values.append(final_margin(game, guess, seat, random.Random(playout_seed), guide))
        for i, value in enumerate(values):
            sums[i] += value
            diffs[i] += value - values[0]
            squares[i] += (value - values[0]) ** 2
    n = max(effort.samples, 1)
    errors = []
    for i in range(len(actions)):
        mean = diffs[i] / n
        variance = max(squares[i] / n - mean * mean, 0.0) * n / max(n - 1, 1)
        errors.append(math.sqrt(variance / n))
    unit = "points of winning chance" if horizon is not None else score_unit(game)
    return Scores(actions=list(actions), values=[s / n for s in sums], errors=errors, unit=unit)


def final_margin(game: Game, state: State, seat: int, rng: random.Random, guide: Any) -> float:
    """Play ``state`` to its end with ``guide`` in every seat; the seat's score over its best rival, signed
    so that more is better (the lowest total wins some games)."""
    for _ in range(PLAYOUT_MOVE_CAP):
        pending = game.pending(state)
        if not pending:
            break
        mover = pending[0]
        game.advance(state, mover, guide(state, mover, rng))
    result = game.result(state)
    if result is None:
        return 0.0
    scores, winners = result["scores"], result["winners"]
    others = [score for s, score in enumerate(scores) if s not in winners]
    direction = -1.0 if winners and others and min(scores[s] for s in winners) < max(others) else 1.0
    rivals = [direction * score for s, score in enumerate(scores) if s != seat]
    return direction * scores[seat] - (max(rivals) if rivals else 0.0)


def review_record(game: Game, record: dict[str, Any], effort: Effort = Effort(),
                  progress: Progress | None = None) -> Review:
    """The review of a checked record (``net.record.read_record``'s)."""
    return review_game(game, record["options"], record["seed"], record["actions"], effort, progress)


def review_lines(review: Review, names: Sequence[str]) -> list[str]:
    """The review as text, per seat: the marked decisions, costliest first."""
    lines = []
    for seat, marked in enumerate(review.marked):
        name = names[seat] if seat < len(names) else f"Seat {seat + 1}"
        scored = sum(1 for d in review.decisions if d.seat == seat)
        lines.append(f"{name} ({scored} decisions with a choice):")
        if not marked:
            lines.append("  no decision cost clearly more than the best one.")
        for decision in marked:
            lines.append(f"  {decision.in_words()}")
    return lines
