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
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from core.engine import Action, Game, State
from core.search import playout


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
    #: ... and is worth this many points at least. Where the values are exact (no guess left to draw: the
    #: error is 0) two actions that lead to the same end differ by a rounding error, and a Highwayman review
    #: marked such a tie, "+0.0 points", as a mistake; a cost under a point teaches nothing either.
    least: float = 1.0
    #: Where the best action seems to gain this many points or more but not clearly, samples are added,
    #: ``samples`` at a time, to it and the action played only, up to ``times`` as many (a decision clear or
    #: small either way stops at ``samples``; all candidates at 4x and 5 points made a 5-player Dick Turpin
    #: take over twice as long).
    worth_more: float = 8.0
    times: int = 4


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


#: What each unit of a cost means, said the first time a review uses it.
UNIT_MEANINGS = {"points of winning chance": "how much more often you would have won, out of 100"}


@dataclass(frozen=True)
class Option:
    """One action a review scored at a decision: its value's gain over the action played, and that gain's
    standard error (0 where the values are exact)."""

    action: Action
    text: str
    gain: float
    error: float


@dataclass(frozen=True)
class Decision:
    """One decision of one seat, scored. A ``standing`` decision is the first of a run where one action
    was best at every decision from here on (``run`` of them): standing advice, said once."""

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
    #: Every action scored here, the one played first.
    options: tuple[Option, ...] = ()
    standing: bool = False
    run: int = 1

    @property
    def significant(self) -> bool:
        return self.cost > 0 and self.best != self.played

    @property
    def lesson(self) -> str:
        """What the decision teaches: the better choice, in words ("Play as a scoundrel from now on" is
        one lesson wherever it was missed)."""
        return self.best_text

    def in_words(self, subject: str = "you") -> str:
        """The decision in a line; ``subject`` chose (a bot's seat by its name, never "you")."""
        if self.standing:
            return (f"{self.where}: from here on \u201c{self.best_text}\u201d was the best choice at every "
                    f"decision that offered it ({self.run} of them); the first time it was worth about "
                    f"+{self.cost:.1f} "
                    f"{self.unit}")
        return (f"{self.where}: {subject} chose \u201c{self.played_text}\u201d; \u201c{self.best_text}\u201d was "
                f"worth +{self.cost:.1f} {self.unit} more on average")


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
                effort: Effort = Effort(), progress: Progress | None = None,
                only_seats: Sequence[int] | None = None) -> Review:
    """Replay the game and score every decision with a choice (of ``only_seats`` only, when given: the others'
    marks stay empty); ``progress(done, total)`` after each action."""
    state = game.setup(game.resolve_options(options), seed)
    seats = game.seats(game.resolve_options(options))
    review = Review(game=game.id, seats=seats)
    total = len(actions)
    for index, (seat, action) in enumerate(actions):
        legal = game.legal_actions(state, seat)
        if len(legal) > 1 and action in legal and (only_seats is None or seat in only_seats):
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


def clear(decision: Decision, effort: Effort) -> bool:
    """Whether a decision's cost is clear of noise, and worth a lesson."""
    return (decision.significant and decision.cost >= effort.least
            and decision.cost > effort.confidence * decision.error)


def costliest(decisions: list[Decision], effort: Effort) -> list[Decision]:
    """The seat's lessons, costliest first, at most ``effort.marks``: standing advice once, where it first
    applies (``standing_advice``); then the decisions whose cost is clear of noise once that advice is set
    aside, one per lesson (the same better choice missed twice teaches one thing), and none at a decision
    the standing advice is already said at."""
    decisions, standing = standing_advice(decisions, effort)
    found, lessons = [], set()
    advised = {d.index for d in standing}
    for decision in sorted(standing + [d for d in decisions if clear(d, effort)], key=lambda d: (-d.cost, d.index)):
        if decision.standing or (decision.lesson not in lessons and decision.index not in advised):
            found.append(decision)
            lessons.add(decision.lesson)
    return found[:effort.marks]


def standing_advice(decisions: list[Decision], effort: Effort) -> tuple[list[Decision], list[Decision]]:
    """A seat's decisions with standing advice taken out, and the advice. An action is standing advice from
    the first decision where it was clearly best, when it was best (or not clearly worse than the best) at
    every later decision that scored it (up to the one where the seat played it), three of them at least,
    and clearly best at two at least: "play as a scoundrel from now on". That first decision says it once; at every
    decision of
    the run the review then weighs the other actions, so a mistake of another kind there is still found."""
    decisions = sorted(decisions, key=lambda d: d.index)
    advice: list[Decision] = []
    for start, first in enumerate(decisions):
        if not clear(first, effort) or any(a.best == first.best for a in advice):
            continue
        run: list[Decision] = []
        for later in decisions[start:]:
            if later.played == first.best:
                break
            offered = next((o for o in later.options if o.action == first.best), None)
            if offered is not None:
                if later.best != first.best and not within_noise(offered, later, effort):
                    run = []
                    break
                run.append(later)
        if len(run) < 3 or sum(1 for d in run if clear(d, effort)) < 2:
            continue  # advice for a moment or two (a robbery's assignment met twice) is no standing advice
        advice.append(replace(first, standing=True, run=len(run)))
        inside = {d.index for d in run}
        decisions = [without(d, first.best) if d.index in inside else d for d in decisions]
    return decisions, advice


def within_noise(option: Option, decision: Decision, effort: Effort) -> bool:
    """Whether ``option`` is not clearly worse than the decision's best (standing advice survives a
    decision where another action looked a little better by chance)."""
    return decision.cost - option.gain <= effort.confidence * max(option.error, decision.error)


def without(decision: Decision, action: Action) -> Decision:
    """The decision as if ``action`` had not been scored: its best among the others."""
    options = [o for o in decision.options if o.action != action]
    best = max(options, key=lambda o: (o.gain, o.action == decision.played))
    return replace(decision, best=best.action, best_text=best.text, cost=best.gain, error=best.error,
                   options=tuple(options))


def score_decision(game: Game, state: State, seat: int, played: Action, legal: list[Action],
                   rng: random.Random, effort: Effort, index: int) -> Decision | None:
    candidates = candidates_for_review(game, state, seat, played, legal, rng, effort)
    own = getattr(game.bots["hard"], "review_values", None) if "hard" in game.bots else None
    scores = own(game, state, seat, candidates, rng, effort) if own is not None else None
    if scores is None:
        scores = playout_values(game, state, seat, candidates, rng, effort)
    options = tuple(Option(action, game.describe_action(state, seat, action), value - scores.values[0], error)
                    for action, value, error in zip(scores.actions, scores.values, scores.errors))
    best = max(options, key=lambda o: (o.gain, o is options[0]))
    moment = game.moment(state, seat)
    return Decision(index=index, seat=seat, where=f"Move {index + 1}" + (f", {moment}" if moment else ""),
                    played=played,
                    played_text=options[0].text, best=best.action, best_text=best.text, cost=best.gain,
                    error=best.error, unit=scores.unit, options=options)


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


def playout_values(game: Game, state: State, seat: int, actions: list[Action], rng: random.Random,
                   effort: Effort) -> Scores:
    """Each action's mean value over ``effort.samples`` guesses of the hidden state, every action played
    out from the same guess with the same generator (common random numbers) by the normal bot in every
    seat, and valued as the hard bot's search values a playout (``core.search.outcome``: the share of the
    win and a little of the score margin; at the game's horizon, its own reckoning), in points of winning
    chance (0 to 100). Every game's costs are in that one unit: a game's final gold margin, the unit it was
    once measured in, was too noisy to mark even a clearly bad decision (3 of 10 in Dick Turpin)."""
    hard = game.bots["hard"] if "hard" in game.bots else None
    guide = game.bots["normal"] if "normal" in game.bots else game.bots["random"]
    resample = getattr(hard, "resample", None) or game.resample_hidden
    horizon = getattr(hard, "horizon", None)
    total = 0.0  # of the action played, over all its samples
    diffs = [0.0] * len(actions)  # each action's value less the played one's, on the same guess
    squares = [0.0] * len(actions)
    counts = [0] * len(actions)

    def sample(which: list[int]) -> None:
        nonlocal total
        guess_seed, playout_seed = rng.getrandbits(64), rng.getrandbits(64)
        values = {}
        for i in which:
            guess = resample(state, seat, random.Random(guess_seed))
            game.advance(guess, seat, actions[i])
            values[i] = 100.0 * playout(game, guess, seat, random.Random(playout_seed), guide, horizon=horizon,
                                        start=state)
        total += values[0]
        for i in which:
            diffs[i] += values[i] - values[0]
            squares[i] += (values[i] - values[0]) ** 2
            counts[i] += 1

    for _ in range(effort.samples):
        sample(list(range(len(actions))))
    # Where the best-looking action seems to matter but is not yet clear, only it and the action played
    # are sampled more: the others stay as they were
    best = max(range(len(actions)), key=lambda i: diffs[i])
    while counts[0] < effort.times * effort.samples and unclear(diffs[best], squares[best], counts[best], effort):
        for _ in range(effort.samples):
            sample(sorted({0, best}))
    n = [max(count, 1) for count in counts]
    played = total / n[0]
    return Scores(actions=list(actions), values=[played + diffs[i] / n[i] for i in range(len(actions))],
                  errors=[paired_error(diffs[i], squares[i], n[i]) for i in range(len(actions))],
                  unit="points of winning chance")


def paired_error(diff_sum: float, diff_square: float, n: int) -> float:
    """The standard error of a mean paired difference from its sum and sum of squares over ``n`` samples."""
    mean = diff_sum / max(n, 1)
    variance = max(diff_square / max(n, 1) - mean * mean, 0.0) * n / max(n - 1, 1)
    return math.sqrt(variance / max(n, 1))


def unclear(diff_sum: float, diff_square: float, n: int, effort: Effort) -> bool:
    """Whether an action's gain over the one played is worth ``effort.worth_more`` points or more but not
    yet clear of noise (``effort.confidence`` standard errors): then more samples are worth their time."""
    gain = diff_sum / max(n, 1)
    return effort.worth_more <= gain <= effort.confidence * paired_error(diff_sum, diff_square, n)


def review_record(game: Game, record: dict[str, Any], effort: Effort = Effort(),
                  progress: Progress | None = None) -> Review:
    """The review of a checked record (``net.record.read_record``'s)."""
    return review_game(game, record["options"], record["seed"], record["actions"], effort, progress)


def review_lines(review: Review, names: Sequence[str], bots: Sequence[bool] = (),
                 effort: Effort = Effort()) -> list[str]:
    """The review as text: what it scored and marks at most, then per seat the marked decisions, costliest
    first. A seat in ``bots`` is spoken of by its name, never as "you"; each unit is explained once."""
    lines = [f"The review scored {len(review.decisions)} decisions with a choice and marks at most "
             f"{effort.marks} a seat: the costliest, each a different lesson, where the cost is clear of chance.",
             ""]
    explained: set[str] = set()
    for seat, marked in enumerate(review.marked):
        name = names[seat] if seat < len(names) else f"Seat {seat + 1}"
        scored = sum(1 for d in review.decisions if d.seat == seat)
        lines.append(f"{name} ({scored} decisions with a choice):")
        if not marked:
            lines.append("  no decision cost clearly more than the best one.")
        for decision in marked:
            lines.append(f"  {decision.in_words(name if seat < len(bots) and bots[seat] else 'you')}")
            if decision.unit not in explained and decision.unit in UNIT_MEANINGS:
                explained.add(decision.unit)
                lines.append(f"    ({decision.unit}: {UNIT_MEANINGS[decision.unit]})")
    return lines
