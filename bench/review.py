"""How long the review of a whole game takes, per game: the goal (issue 33) is under a minute on this
machine, with the effort the app uses (``tui.screens.replay.REVIEW_EFFORT``).

    python bench/review.py [--games N] [--samples S] [--only GAME]

For every registered game, ``N`` games played by the normal bots (the game's default options, and its
largest table), each reviewed whole; the slowest and the mean time per game, with the decisions scored.
The machine is shared: the load average is printed beside the figures.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from core.registry import all_games  # noqa: E402
from core.review import Effort, review_game  # noqa: E402
from core.simulate import game_seed, play_bot_game  # noqa: E402

GOAL_SECONDS = 60.0


def largest_table(game) -> dict:
    players = game.option("players")
    return game.resolve_options({"players": players.allowed[1]}) if players.kind == "int" else game.resolve_options({})


def bench_game(game, options: dict, games: int, effort: Effort) -> tuple[list[float], int]:
    times, decisions = [], 0
    for index in range(games):
        seed = game_seed(33, index)
        played = play_bot_game(game, options, seed, ["normal"] * game.seats(options))
        started = time.perf_counter()
        review = review_game(game, options, seed, played.actions, effort)
        times.append(time.perf_counter() - started)
        decisions += len(review.decisions)
    return times, decisions


def main() -> None:
    from tui.screens.replay import REVIEW_EFFORT
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="games per game and table size (default %(default)s)")
    parser.add_argument("--samples", type=int, default=REVIEW_EFFORT.samples,
                        help="guesses per decision (default: the app's, %(default)s)")
    parser.add_argument("--only", help="one game id")
    args = parser.parse_args()
    effort = dataclasses.replace(REVIEW_EFFORT, samples=args.samples)
    print(f"review of a whole game, {effort.samples} guesses x up to {effort.candidates} actions a decision; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'game':<16}{'table':<10}{'decisions':>10}{'mean s':>9}{'slowest s':>11}  goal < {GOAL_SECONDS:.0f} s")
    worst = 0.0
    for game_id, game in all_games().items():
        if args.only and game_id != args.only:
            continue
        tables = {"default": game.resolve_options({}), "largest": largest_table(game)}
        for label, options in tables.items():
            if label == "largest" and options == tables["default"]:
                continue
            times, decisions = bench_game(game, options, args.games, effort)
            worst = max(worst, max(times))
            print(f"{game_id:<16}{label + ' ' + str(game.seats(options)):<10}{decisions / len(times):>10.0f}"
                  f"{statistics.mean(times):>9.1f}{max(times):>11.1f}  {'ok' if max(times) < GOAL_SECONDS else 'OVER'}")
    print(f"slowest whole game: {worst:.1f} s ({'under' if worst < GOAL_SECONDS else 'OVER'} the minute)")


if __name__ == "__main__":
    main()
