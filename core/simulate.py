"""Headless bot games: one game played by bots, and a summary over many.

Pure and deterministic: the same game, options, seed and bots give the same games and summary. The CLI
adds the progress bar and the printing.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

from core.engine import Action, Game, State

#: A game that has not ended after this many actions is a bug in its rules, not a long game.
MOVE_CAP = 20_000


class RunawayGame(RuntimeError):
    """A game that did not end within ``MOVE_CAP`` actions."""


@dataclass
class PlayedGame:
    """One finished game: its seed, final state and the action log that replays it."""

    seed: int
    state: State
    actions: list[tuple[int, Action]]


def game_seed(base_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run: distinct per game, fixed per run."""
    return random.Random(f"{base_seed}:{index}").getrandbits(63)


def play_bot_game(game: Game, options: dict[str, Any], seed: int, bot_names: Sequence[str],
                  on_action: Callable[[State, int, Action, list], None] | None = None,
                  on_deal: Callable[[State, list], None] | None = None) -> PlayedGame:
    """Play one game with a bot in every seat; ``bot_names[seat]`` names that seat's bot.

    ``on_deal`` hears the game's opening events (the deal setup made) before the first action;
    ``on_action`` hears every action and its events. With nobody listening the actions go through
    ``advance``, which builds no events: the same game, without the narration's cost.
    """
    state = game.setup(options, seed)
    if on_deal is not None:
        on_deal(state, game.opening_events(state))
    bots = [game.bots[name] for name in bot_names]
    bot_rngs = [random.Random(f"bot:{seed}:{seat}") for seat in range(len(bots))]
    actions: list[tuple[int, Action]] = []
    while pending := game.pending(state):
        if len(actions) >= MOVE_CAP:
            raise RunawayGame(f"{game.id} seed {seed} did not end in {MOVE_CAP} actions")
        seat = pending[0]
        action = bots[seat](state, seat, bot_rngs[seat])
        if on_action is None:
            game.advance(state, seat, action)
        else:
            on_action(state, seat, action, game.apply(state, seat, action))
        actions.append((seat, action))
    return PlayedGame(seed, state, actions)


@dataclass
class Summary:
    """What many bot games add up to, per seat, per bot kind and per game statistic."""

    game: str
    games: int = 0
    seats: list[str] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    score_totals: list[float] = field(default_factory=list)
    kind_games: Counter = field(default_factory=Counter)
    kind_wins: Counter = field(default_factory=Counter)
    figure_totals: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    category_counts: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))

    def add(self, result: dict[str, Any], figures: dict[str, Any]) -> None:
        self.games += 1
        for seat, bot in enumerate(self.seats):
            won = seat in result["winners"]
            self.wins[seat] += won
            self.score_totals[seat] += result["scores"][seat]
            self.kind_games[bot] += 1
            self.kind_wins[bot] += won
        for name, value in figures.items():
            if isinstance(value, str):
                self.category_counts[name][value] += 1
            else:
                self.figure_totals[name] += value

    def as_dict(self) -> dict[str, Any]:
        """The summary as plain data (for ``--json``)."""
        n = max(self.games, 1)
        return {
            "game": self.game,
            "games": self.games,
            "seats": [{"seat": seat + 1, "bot": bot, "wins": self.wins[seat],
                       "win_rate": self.wins[seat] / n, "mean_score": self.score_totals[seat] / n}
                      for seat, bot in enumerate(self.seats)],
            "bots": {bot: {"seats_played": self.kind_games[bot], "wins": self.kind_wins[bot],
                           "win_rate": self.kind_wins[bot] / max(self.kind_games[bot], 1)}
                     for bot in sorted(self.kind_games)},
            "means": {name: total / n for name, total in sorted(self.figure_totals.items())},
            "counts": {name: dict(sorted(counts.items())) for name, counts in sorted(self.category_counts.items())},
        }


def simulate(game: Game, options: dict[str, Any], games: int, seed: int,
             bot_names: Sequence[str]) -> Iterator[Summary]:
    """Play ``games`` bot games; yields the running summary after each one."""
    summary = Summary(game.id, seats=list(bot_names), wins=[0] * len(bot_names),
                      score_totals=[0.0] * len(bot_names))
    for index in range(games):
        played = play_bot_game(game, options, game_seed(seed, index), bot_names)
        outcome = game.result(played.state)
        assert outcome is not None, "a game played to its end has a result"
        summary.add(outcome, game.stats(played.state))
        yield summary
