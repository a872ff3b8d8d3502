"""Random-playout speed of every registered game, against a no-rules baseline measured in the same run.

    python bench/engine.py [--seconds S]

For each game: complete random games a second (one core), and the same number of random draws with no
rules at all (``random.choice`` over a list as long as the game's mean legal-action list, as many times
as the game takes actions) as the baseline; the ratio says what the rules cost.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from core.registry import all_games  # noqa: E402

BENCH_PLAYERS = {"turpin": 4, "money-or-life": 2, "highwayman": 4}


def play_random_game(game, options, seed, rng):
    state = game.setup(options, seed)
    actions = 0
    legal_total = 0
    while pending := game.pending(state):
        seat = pending[0]
        legal = game.legal_actions(state, seat)
        legal_total += len(legal)
        game.apply(state, seat, rng.choice(legal))
        actions += 1
    return actions, legal_total


def bench_game(game, seconds):
    players = BENCH_PLAYERS.get(game.id, game.option("players").default)
    options = game.resolve_options({"players": players})
    rng = random.Random(1)
    games = actions = legal_total = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        a, l = play_random_game(game, options, games, rng)
        games += 1
        actions += a
        legal_total += l
    elapsed = time.perf_counter() - started
    choices = list(range(max(1, round(legal_total / actions))))
    base_started = time.perf_counter()
    for _ in range(actions):
        rng.choice(choices)
    base_elapsed = time.perf_counter() - base_started
    return {"players": players, "games_per_s": games / elapsed, "actions_per_game": actions / games,
            "baseline_games_per_s": games / base_elapsed, "ratio": elapsed / base_elapsed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print(f"{'game':<16}{'players':>8}{'games/s':>10}{'actions/game':>14}{'baseline games/s':>18}{'ratio':>8}")
    for game in all_games().values():
        row = bench_game(game, args.seconds)
        print(f"{game.id:<16}{row['players']:>8}{row['games_per_s']:>10.0f}{row['actions_per_game']:>14.1f}"
              f"{row['baseline_games_per_s']:>18.0f}{row['ratio']:>8.1f}")
        extra = getattr(game, "extra", {}).get("bench")
        if extra:
            for line in extra():
                print(f"  {line}")


if __name__ == "__main__":
    main()
