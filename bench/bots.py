"""How well each bot level plays, how long it thinks, and how fast the engines run, in one run.

    python bench/bots.py [--games N] [--hard-games N] [--baseline-games N] [--only GAME] [--players P]
                         [--skip-speed] [--skip-series] [--skip-levels] [--seconds S]

* **Levels**: for every registered game, each level against the level below (easy v random, normal v
  easy, hard v normal): one seat of the level, every other seat of the level below, the level's seat
  rotated through every seat, game seeds fixed (``core.simulate.game_seed``). Win rates with 95% Wilson
  intervals; a shared win counts as a win. Goals: hard v normal 2-player ≥ 60%, 4-player ≥ 1.5×
  the fair share; each level beats the one below (above the fair share). Beside hard v normal, normal v
  normal on the same seeds: what a seat scores with no edge at all, shared wins counted.
* **Baselines**: the normal bot against the bots a game keeps to measure it by (its module's
  ``BASELINES``: Your Money or Your Life's normal that never declared early, and that bot declaring "playing as a
  scoundrel" at once), 2 players, both seats, the same seeds. Goals: ≥ 55% against that old normal, ≥ 50% against the
  one that declares at once.
* **Highwayman normal v three random bots**: goal ≥ 40% of 4-player series.
* **Decision time** per game and level, p50 and p99 over every decision it made in these games, by the wall
  clock (goal: hard p99 ≤ 300 ms on a quiet machine, normal ≤ 10 ms; the hard bot thinks by its own thread's
  CPU time, so a loaded machine stretches its decisions, up to ``Budget.wall_seconds``, 1 s, by the wall),
  and the **engine's share** of the hard bot's time: the time its search spent
  inside the game's contract functions (apply, pending, legal_actions, resample_hidden, result) against
  the rest (the normal bot guiding its playouts, and the search itself).
* **Engine speed**: random games a second on one core and the same run's no-rules baseline
  (``bench/engine.py``); the goals as ratios to that baseline, so a loaded machine scales both.

The machine is shared: figures move with its load, so each run prints the load average beside them.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import math
import os
import pathlib
import random
import statistics
import sys
import time
from collections import defaultdict

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from engine import bench_game  # noqa: E402

from core.engine import Bot, Game  # noqa: E402
from core.registry import all_games  # noqa: E402
from core.simulate import game_seed  # noqa: E402

LADDER = (("easy", "random"), ("normal", "easy"), ("hard", "normal"))
#: Seat counts to measure per game: 2 players everywhere, and the 4-player table where there is one.
TABLES = {"turpin": (2, 4), "highwayman": (2, 4), "money-or-life": (2,)}
#: The engine goals: random games (Highwayman: series) a second on one core.
SPEED_GOALS = {"turpin": 3000, "highwayman": 1500, "money-or-life": 3000}
ENGINE_CALLS = ("apply", "advance", "pending", "legal_actions", "resample_hidden", "result")
#: Where a game keeps the baseline bots the normal bot is measured against, and each one's goal.
BASELINES = {"money-or-life": "core.games.money_or_life.bots"}
BASELINE_GOALS = {"normal-before-44": 0.55, "normal-declares-at-once": 0.50}


def baseline_bots(game: Game) -> dict[str, Bot]:
    """The game's baseline bots by name (none for most games)."""
    module = BASELINES.get(game.id)
    return dict(importlib.import_module(module).BASELINES) if module else {}


def bot_named(game: Game, name: str) -> Bot:
    """A level of the game's, or one of its baselines."""
    return game.bots[name] if name in game.bots else baseline_bots(game)[name]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


class EngineClock:
    """Wraps a game's contract functions to add up the time spent inside them."""

    def __init__(self, game: Game) -> None:
        self.seconds = 0.0
        wrapped = {name: self._timed(getattr(game, name)) for name in ENGINE_CALLS}
        self.game = dataclasses.replace(game, **wrapped)

    def _timed(self, function):
        def timed(*args):
            started = time.perf_counter()
            try:
                return function(*args)
            finally:
                self.seconds += time.perf_counter() - started
        return timed


def play_match(game: Game, players: int, subject: str, rest: str, games: int,
               times: dict[tuple[str, str], list[float]], engine_share: list[float],
               searches: dict[str, list[tuple[int, int]]] | None = None) -> tuple[float, int]:
    """``games`` games of one ``subject`` against ``players - 1`` of ``rest``, the subject's seat rotated;
    the subject's wins (a shared win counts). Records each decision's time under its bot's name."""
    options = game.resolve_options({"players": players})
    clock = EngineClock(game)
    hard = game.bots["hard"]  # the registered bot, as it decides (search.mark_hard)
    wins = 0.0
    for index in range(games):
        seed = game_seed(12, index)
        me = index % players
        names = [rest] * players
        names[me] = subject
        state = game.setup(options, seed)
        rngs = [random.Random(f"bot:{seed}:{seat}") for seat in range(players)]
        while pending := game.pending(state):
            seat = pending[0]
            name = names[seat]
            started = time.perf_counter()
            if name == "hard":  # the registered bot, with the engine's time counted
                engine_before = clock.seconds
                action, report = hard.decide(clock.game, state, seat, rngs[seat])
                spent = time.perf_counter() - started
                if searches is not None and report is not None and report.candidates:
                    searches[game.id].append((report.playouts, report.samples))
                if spent > 0:
                    engine_share.append((clock.seconds - engine_before) / spent)
            else:
                action = bot_named(game, name)(state, seat, rngs[seat])
                spent = time.perf_counter() - started
            times[(game.id, name)].append(spent)
            game.apply(state, seat, action)
        wins += me in game.result(state)["winners"]
    return wins, games


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def bench_baselines(games: dict[str, Game], n_games: int) -> None:
    """The normal bot against each of a game's baselines, 2 players, both seats; and against itself on the
    same seeds, what a seat scores with no edge (a shared win counts for both)."""
    for game in games.values():
        if not baseline_bots(game):
            continue
        same, n = play_match(game, 2, "normal", "normal", n_games, defaultdict(list), [])
        low, high = wilson(same, n)
        print(f"{game.id:<15}{2:>6}  {'(normal v normal':<32}{n:>6}{same / n:>8.1%}{f'{low:.1%}-{high:.1%}':>14}"
              f"  the same seeds: no edge)", flush=True)
        for name in baseline_bots(game):
            started = time.perf_counter()
            wins, n = play_match(game, 2, "normal", name, n_games, defaultdict(list), [])
            low, high = wilson(wins, n)
            goal = BASELINE_GOALS.get(name, 0.5)
            verdict = "met" if low > goal else ("not met" if high < goal else "within the interval")
            print(f"{game.id:<15}{2:>6}  {'normal v ' + name:<32}{n:>6}{wins / n:>8.1%}{f'{low:.1%}-{high:.1%}':>14}"
                  f"  ≥ {goal:.0%}: {verdict} ({time.perf_counter() - started:.0f} s)", flush=True)


def bench_levels(games: dict[str, Game], n_games: int, hard_games: int, tables: tuple[int, ...] | None = None) -> None:
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    engine_share: list[float] = []
    searches: dict[str, list[tuple[int, int]]] = defaultdict(list)
    print(f"{'game':<15}{'seats':>6}  {'level v level below':<20}{'games':>6}{'wins':>8}{'95% CI':>16}"
          f"{'fair':>7}{'x fair':>8}  goal")
    for game in games.values():
        for players in TABLES.get(game.id, (game.option("players").default,)):
            if tables is not None and players not in tables:
                continue
            for subject, rest in LADDER:
                n = hard_games if "hard" in (subject, rest) else n_games
                started = time.perf_counter()
                wins, n = play_match(game, players, subject, rest, n, times, engine_share, searches)
                low, high = wilson(wins, n)
                fair = 1 / players
                goal = (0.6 if players == 2 else 1.5 * fair) if subject == "hard" else fair
                verdict = "met" if low > goal else ("not met" if high < goal else "within the interval")
                print(f"{game.id:<15}{players:>6}  {subject + ' v ' + rest:<20}{n:>6}{wins / n:>8.1%}"
                      f"{f'{low:.0%}-{high:.0%}':>16}{fair:>7.0%}{wins / n / fair:>8.2f}  "
                      f"> {goal:.0%}: {verdict} ({time.perf_counter() - started:.0f} s)", flush=True)
                if subject == "hard":
                    # A shared win counts for every winner, so a level against itself scores above the fair
                    # share: the same seeds with normal in the subject's seat say how far above.
                    same, _ = play_match(game, players, "normal", "normal", n, defaultdict(list), [])
                    low, high = wilson(same, n)
                    print(f"{'':<21}  {'(normal v normal':<20}{n:>6}{same / n:>8.1%}{f'{low:.0%}-{high:.0%}':>16}"
                          f"{'':>7}{same / n / fair:>8.2f}  the same seeds: the level's own share)", flush=True)
    print()
    print(f"{'game':<15}{'level':<8}{'decisions':>10}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}")
    for game_id in games:
        for name in ("random", "easy", "normal", "hard"):
            values = times.get((game_id, name), [])
            print(f"{game_id:<15}{name:<8}{len(values):>10}{1000 * percentile(values, 0.5):>10.2f}"
                  f"{1000 * percentile(values, 0.99):>10.2f}{1000 * max(values, default=float('nan')):>10.2f}")
    for game_id, found in searches.items():
        print(f"hard, {game_id}: {len(found)} decisions searched; playouts a decision median "
              f"{statistics.median(p for p, _ in found):.0f} (p10 {percentile([p for p, _ in found], 0.1):.0f}), "
              f"samples median {statistics.median(s for _, s in found):.0f}")
    if engine_share:
        print(f"hard: the engine's share of its thinking time, median over decisions that searched: "
              f"{statistics.median(engine_share):.0%} (the rest: the normal bot guiding playouts, and the search)")


def bench_highwayman_normal(games: dict[str, Game], series: int) -> None:
    game = games.get("highwayman")
    if game is None:
        return
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    wins, n = play_match(game, 4, "normal", "random", series, times, [])
    low, high = wilson(wins, n)
    print(f"highwayman normal v 3 random, {n} series of 3, seat rotated: {wins / n:.1%} "
          f"(95% CI {low:.1%}-{high:.1%}); goal ≥ 40%")


def bench_speed(games: dict[str, Game], seconds: float) -> None:
    print(f"{'game':<16}{'games/s':>9}{'baseline/s':>12}{'ratio':>8}{'goal/s':>8}{'goal ratio':>12}  verdict")
    for game in games.values():
        row = bench_game(game, seconds)
        goal = SPEED_GOALS.get(game.id)
        if goal is None:
            continue
        goal_ratio = row["baseline_games_per_s"] / goal  # the rules may cost this many times the baseline
        verdict = "met" if row["ratio"] <= goal_ratio else f"{row['games_per_s'] / goal:.0%} of the goal"
        print(f"{game.id:<16}{row['games_per_s']:>9.0f}{row['baseline_games_per_s']:>12.0f}{row['ratio']:>8.1f}"
              f"{goal:>8}{goal_ratio:>12.1f}  {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="games per matchup without hard (default %(default)s)")
    parser.add_argument("--hard-games", type=int, default=60, help="games per matchup with hard (default %(default)s)")
    parser.add_argument("--series", type=int, default=1000, help="Highwayman series for normal v random")
    parser.add_argument("--only", help="one game id")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per engine speed run")
    parser.add_argument("--skip-levels", action="store_true")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-series", action="store_true", help="skip Highwayman normal v 3 random")
    parser.add_argument("--players", type=int, action="append", help="only these table sizes (repeat)")
    parser.add_argument("--baseline-games", type=int, default=600, help="games per baseline (default %(default)s)")
    args = parser.parse_args()
    games = {gid: game for gid, game in all_games().items() if args.only in (None, gid)}
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (a shared machine)", flush=True)
    if not args.skip_speed:
        bench_speed(games, args.seconds)
        print(flush=True)
    if not args.skip_series:
        bench_highwayman_normal(games, args.series)
        print(flush=True)
    bench_baselines(games, args.baseline_games)
    print(flush=True)
    if not args.skip_levels:
        bench_levels(games, args.games, args.hard_games, tuple(args.players) if args.players else None)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
