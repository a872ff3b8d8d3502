"""Random-playout speed of every registered game, against a no-rules baseline measured in the same run.

    python bench/engine.py [--seconds S]

For each game: complete random games a second (one core), played by the loop a search's playouts use
(``pending``, ``legal_actions``, a random choice, ``advance``: ``apply`` without building the events).
The baseline is that same loop, in the same run, over a game with no rules (``NoRules``): for each game
played, a no-rules game of as many actions, each chosen from a list as long as that game's mean
legal-action list. So the baseline pays for the loop and the random player and nothing else, and the
ratio (game time / baseline time) is what the rules cost: 1.0 would be rules that cost nothing. The same
games (same seeds, same choices) are also played through ``apply``, which narrates every action as the
host does: ``apply games/s`` and its ratio show what the narration costs on top.

The goals (3,000 Dick Turpin games, 1,500 Highwayman series of 3, 3,000 Your Money or Your
Life games a second on one core) are shown beside the rate, and as the ratio they allow on this
machine: ``goal ratio`` = baseline games/s / goal, the most the rules may cost for this run's baseline
to reach the goal. A game meets it when its ratio is at or below its goal ratio.

Then what a bot pays on top at each decision: ``view`` (the guided playouts of the hard bot read it at
every move) and ``resample_hidden`` (once per sample), µs per call over the positions of random games.
Times are the process's CPU time (``time.process_time``), so time spent waiting for a core on a shared
machine is not counted, and the three loops take turns in batches of ``BATCH`` games, so a change of
the machine's load falls on all of them alike; the load average is printed beside the figures.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from core.engine import clone  # noqa: E402
from core.games.money_or_life import solver  # noqa: E402
from core.registry import all_games  # noqa: E402
from core.simulate import play_bot_game, simulate  # noqa: E402

BENCH_PLAYERS = {"turpin": 4, "money-or-life": 2, "highwayman": 4}
#: The goals, random games a second on one core (a Highwayman game is a series of 3).
GOALS = {"turpin": 3000, "highwayman": 1500, "money-or-life": 3000}


def turpin_lines(game) -> list[str]:
    """How fast whole games go with the normal bot in one seat."""
    options = game.resolve_options({"players": 4})
    bots = ["normal", "random", "random", "random"]
    games, started = 0, time.perf_counter()
    while time.perf_counter() - started < 1.0:
        play_bot_game(game, options, games, bots)
        games += 1
    rate = games / (time.perf_counter() - started)
    return [f"normal + 3 random, 4 players, one round: {rate:,.0f} games/s"]


def highwayman_lines(game, series: int = 200) -> list[str]:
    """How the normal bot fares and how fast it plays."""
    started = time.perf_counter()
    summary = None
    for summary in simulate(game, game.resolve_options({}), series, 7, ["normal", "random", "random", "random"]):
        pass
    elapsed = time.perf_counter() - started
    rate = summary.kind_wins["normal"] / series
    return [f"normal + 3 random, 4 players, {series} series of 3 games: normal wins {100 * rate:.1f}%, "
            f"{series / elapsed:.0f} series/s"]


def solver_lines(game, samples: int = 2000) -> list[str]:
    """The robbery solver's median time for four dice (uncached)."""
    rng = random.Random(5)
    times = []
    for _ in range(samples):
        dice = tuple(rng.randint(1, 6) for _ in range(4))
        speed, wit, combat = rng.randint(3, 12), rng.randint(3, 12), rng.randint(3, 17)
        started = time.perf_counter()
        solver._solve.__wrapped__(tuple(sorted(dice)), speed, wit, combat, 5, 0, 0, 0)
        times.append(time.perf_counter() - started)
        solver.assignments.cache_clear()
    return [f"solver, four dice, every assignment and its outcome: median {statistics.median(times) * 1e6:.0f} µs "
            f"over {samples} random robberies (uncached)"]


#: What each game measures besides its playouts, printed under its row.
GAME_LINES = {"turpin": turpin_lines, "highwayman": highwayman_lines, "money-or-life": solver_lines}


class NoRules:
    """A game with the contract's shape and no rules: ``actions`` turns of seat 0, each offering the same
    ready-made list of ``choices`` actions, and nothing done by an action but counting it."""

    def __init__(self, actions: int, choices: int) -> None:
        self.actions = actions
        self.choices = [{"do": "pick", "n": n} for n in range(choices)]

    def setup(self, options, seed):
        return {"left": self.actions}

    def pending(self, state):
        return [0] if state["left"] else []

    def legal_actions(self, state, seat):
        return self.choices

    def advance(self, state, seat, action):
        state["left"] -= 1


def play_random_game(game, options, seed, rng, narrated=False):
    """One game by the playout loop, through ``advance`` (or ``apply`` if ``narrated``); returns (actions
    taken, legal actions offered in all)."""
    state = game.setup(options, seed)
    act = game.apply if narrated else game.advance
    actions = 0
    legal_total = 0
    while pending := game.pending(state):
        seat = pending[0]
        legal = game.legal_actions(state, seat)
        legal_total += len(legal)
        act(state, seat, rng.choice(legal))
        actions += 1
    return actions, legal_total


#: Games per turn of the three loops (advance, apply, baseline): they take turns, so a change in the
#: shared machine's load falls on all three alike and the ratios stay fair.
BATCH = 10


def bench_game(game, seconds):
    """Random games through ``advance`` for ``seconds`` of CPU time; the same games through ``apply``
    and the no-rules baseline of each, in turns."""
    players = BENCH_PLAYERS.get(game.id, game.option("players").default)
    options = game.resolve_options({"players": players})
    rng = random.Random(1)
    games = actions = legal_total = 0
    spent = {"advance": 0.0, "apply": 0.0, "baseline": 0.0}
    while spent["advance"] < seconds:
        seeds = range(games, games + BATCH)
        before = rng.getstate()
        started = time.process_time()
        counts = [play_random_game(game, options, seed, rng) for seed in seeds]
        spent["advance"] += time.process_time() - started
        after = rng.getstate()
        # The same games narrated: the same seeds and, from the same generator state, the same choices.
        rng.setstate(before)
        started = time.process_time()
        for seed in seeds:
            play_random_game(game, options, seed, rng, narrated=True)
        spent["apply"] += time.process_time() - started
        # Each game's baseline: a no-rules game as many actions long, its lists as long on average.
        no_rules = [NoRules(taken, max(1, round(offered / max(taken, 1)))) for taken, offered in counts]
        started = time.process_time()
        for empty in no_rules:
            play_random_game(empty, None, 0, rng)
        spent["baseline"] += time.process_time() - started
        rng.setstate(after)
        games += BATCH
        actions += sum(taken for taken, _ in counts)
        legal_total += sum(offered for _, offered in counts)
    elapsed = spent["advance"]
    return {"players": players, "games_per_s": games / elapsed, "actions_per_game": actions / games,
            "us_per_action": elapsed / actions * 1e6, "baseline_games_per_s": games / spent["baseline"],
            "ratio": elapsed / spent["baseline"], "apply_games_per_s": games / spent["apply"],
            "apply_ratio": spent["apply"] / spent["baseline"]}


def bench_reading(game, games=60):
    """µs per call of ``view`` (for the seat to move) and ``resample_hidden``, over random games' positions."""
    players = BENCH_PLAYERS.get(game.id, game.option("players").default)
    options = game.resolve_options({"players": players})
    rng = random.Random(2)
    positions = []
    for seed in range(games):
        state = game.setup(options, seed)
        while pending := game.pending(state):
            positions.append((clone(state), pending[0]))
            game.advance(state, pending[0], rng.choice(game.legal_actions(state, pending[0])))
    started = time.process_time()
    for state, seat in positions:
        game.view(state, seat)
    view_time = time.process_time() - started
    started = time.process_time()
    for state, seat in positions:
        game.resample_hidden(state, seat, rng)
    resample_time = time.process_time() - started
    return {"view_us": view_time / len(positions) * 1e6, "resample_us": resample_time / len(positions) * 1e6}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print("load average: " + " ".join(f"{load:.2f}" for load in os.getloadavg()))
    print(f"{'game':<15}{'players':>8}{'games/s':>9}{'goal':>6}{'actions/game':>14}{'µs/action':>11}"
          f"{'baseline games/s':>18}{'ratio':>7}{'goal ratio':>12}{'apply games/s':>15}{'ratio':>7}")
    for game in all_games().values():
        row = bench_game(game, args.seconds)
        goal = GOALS.get(game.id)
        goal_ratio = f"{row['baseline_games_per_s'] / goal:.1f}" if goal else "-"
        print(f"{game.id:<15}{row['players']:>8}{row['games_per_s']:>9.0f}{goal or '-':>6}"
              f"{row['actions_per_game']:>14.1f}{row['us_per_action']:>11.1f}{row['baseline_games_per_s']:>18.0f}"
              f"{row['ratio']:>7.1f}{goal_ratio:>12}{row['apply_games_per_s']:>15.0f}{row['apply_ratio']:>7.1f}")
        reading = bench_reading(game)
        print(f"  view {reading['view_us']:.1f} µs, resample_hidden {reading['resample_us']:.1f} µs a call")
        if game.id in GAME_LINES:
            for line in GAME_LINES[game.id](game):
                print(f"  {line}")
    print("load average: " + " ".join(f"{load:.2f}" for load in os.getloadavg()))


if __name__ == "__main__":
    main()
