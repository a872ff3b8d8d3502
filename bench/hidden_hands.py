"""How much of Highwayman's hidden hands the hard bot can read, and what reading them all would be worth.

    python bench/hidden_hands.py [--games N] [--peek-series N] [--playouts N]

The goal asks hard to take 1.5x the fair share of 4-player Highwayman series against normal bots; it takes
about the fair share. Its search is as good as the guesses it searches over, so this measures both ends:

* **Guesses**: over positions of 4-player games of normal bots, the share of the rivals' cards that a guess
  puts in the right rival's hand: the uniform redeal (``resample_hidden``), the hard bot's guess from the
  public moves (``resample_as_moves_show``), and the truth (1.0).
* **Peeking** (``--peek-series``): the hard bot's search with the same playouts a decision, once over its
  own guesses and once over the rivals' true hands (the pack still shuffled: the draws stay unknown), each
  against three normal bots on the same seeds, its seat rotated. A search that cheats so is no bot
  anyone may play (A3); it shows how much of the goal is in the cards nobody can see.

Playout budgets are counts (no clock), so the figures do not move with the machine's load.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import random
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from core import rng as chance  # noqa: E402
from core.games.highwayman import GAME as highwayman_game  # noqa: E402
from core.games.highwayman import bots as highwayman_bots  # noqa: E402
from core.games.highwayman import rules as highwayman  # noqa: E402
from core.games.highwayman.guessed_hands import resample_as_moves_show  # noqa: E402
from core.search import Budget, searching_bot  # noqa: E402
from core.simulate import game_seed  # noqa: E402

GAME = highwayman_game
PLAYERS = 4


def placed_right(guess: dict, truth: dict, seat: int) -> float:
    """The share of the rivals' cards that ``guess`` puts in the hand that truly holds them."""
    right = total = 0
    for rival in range(truth["players"]):
        if rival != seat:
            held = set(truth["hands"][rival])
            total += len(held)
            right += len(held & set(guess["hands"][rival]))
    return right / max(total, 1)


def guess_quality(games: int) -> dict[str, list[float]]:
    """For every tenth position (after the first moves) of ``games`` games of normal bots, each way of
    guessing's mean share placed right over five guesses."""
    ways = {"uniform redeal": GAME.resample_hidden, "hard's guess": resample_as_moves_show}
    shares: dict[str, list[float]] = {name: [] for name in ways}
    options = GAME.resolve_options({"players": PLAYERS})
    for index in range(games):
        state = GAME.setup(options, game_seed(21, index))
        rng = random.Random(index)
        while pending := GAME.pending(state):
            seat = pending[0]
            if len(state["moves"]) > 8 and rng.random() < 0.1:
                for name, guess in ways.items():
                    shares[name].append(sum(placed_right(guess(state, seat, random.Random(k)), state, seat)
                                            for k in range(5)) / 5)
            GAME.apply(state, seat, highwayman_bots.normal(state, seat, rng))
    return shares


def peek_at_hands(state: dict, seat: int, rng: random.Random) -> dict:
    """The rivals' true hands, the pack shuffled and the generator redrawn: only the draws are unknown."""
    guess = highwayman.copy_state(state)
    rng.shuffle(guess["pack"])
    chance.redraw_hidden_generator(guess, rng)
    return guess


def series_won(bot, series: int) -> float:
    """The share of 4-player series ``bot`` wins against three normal bots, its seat rotated."""
    options = GAME.resolve_options({"players": PLAYERS})
    wins = 0
    for index in range(series):
        seed = game_seed(12, index)
        me = index % PLAYERS
        state = GAME.setup(options, seed)
        rngs = [random.Random(f"bot:{seed}:{seat}") for seat in range(PLAYERS)]
        while pending := GAME.pending(state):
            seat = pending[0]
            player = bot if seat == me else highwayman_bots.normal
            GAME.apply(state, seat, player(state, seat, rngs[seat]))
        wins += me in GAME.result(state)["winners"]
    return wins / series


def interval(share: float, n: int) -> str:
    half = 1.96 * math.sqrt(share * (1 - share) / max(n, 1))
    return f"{share:.1%} ± {half:.1%} ({share * PLAYERS:.2f}x the fair share)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="games of normal bots for the guesses")
    parser.add_argument("--peek-series", type=int, default=0, help="series for each side of the peek (0: skip)")
    parser.add_argument("--playouts", type=int, default=100, help="playouts a decision in the peek")
    args = parser.parse_args()
    print(f"Rivals' cards a guess puts in the right hand, {PLAYERS} players (the truth: 100%):")
    for name, shares in guess_quality(args.games).items():
        mean = sum(shares) / len(shares)
        spread = math.sqrt(sum((share - mean) ** 2 for share in shares) / (len(shares) - 1) / len(shares))
        print(f"  {name:<16}{mean:.1%} ± {1.96 * spread:.1%} over {len(shares)} positions")
    if args.peek_series:
        budget = Budget(playouts=args.playouts, seconds=None, candidates=highwayman_bots.HARD_BUDGET.candidates)
        hard = searching_bot(lambda: GAME, budget=budget, horizon=highwayman_bots.game_over,
                             resample=resample_as_moves_show, copy=highwayman.copy_state)
        peeking = searching_bot(lambda: GAME, budget=budget, horizon=highwayman_bots.game_over,
                                resample=peek_at_hands, copy=highwayman.copy_state)
        n = args.peek_series
        print(f"Series won against three normal bots ({n} a side, {args.playouts} playouts a decision):")
        print(f"  hard, its own guesses      {interval(series_won(hard, n), n)}")
        print(f"  hard, peeking at the hands {interval(series_won(peeking, n), n)}")


if __name__ == "__main__":
    main()
