"""``turpin simulate``: many bot games played headless, and a summary of wins per seat and bot and of the
game's own figures."""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from typing import Any

from core.engine import Game
from core.registry import get_game
from core.simulate import simulate
from tui.cli.arguments import whole_number
from tui.cli.bot_table import add_table_arguments, bot_names, table_options


def add_simulate_command(commands: argparse._SubParsersAction) -> None:
    """Add ``turpin simulate`` and its options."""
    simulate_parser = commands.add_parser(
        "simulate", help="play many bot games headless and print a summary",
        description="Play bot games headless and summarise wins per seat and bot, and the game's figures.")
    add_table_arguments(simulate_parser)
    simulate_parser.add_argument("--games", type=whole_number("--games", 1), default=1000,
                                 help="how many games (default %(default)s)")
    simulate_parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    simulate_parser.set_defaults(handler=run_simulate)


def _progress(done: int, total: int, started: float) -> None:
    width = 30
    filled = width * done // total
    rate = done / max(time.perf_counter() - started, 1e-9)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games  {rate:,.0f}/s")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _print_summary(game: Game, summary: dict[str, Any], seed: int) -> None:
    print(f"{game.title}: {summary['games']} games, seed {seed}")
    print()
    print(f"{'seat':<6}{'bot':<10}{'wins':>8}{'win %':>8}{'mean score':>12}")
    for row in summary["seats"]:
        print(f"{row['seat']:<6}{row['bot']:<10}{row['wins']:>8}{100 * row['win_rate']:>7.1f}%"
              f"{row['mean_score']:>12.2f}")
    print()
    print(f"{'bot':<10}{'seats played':>14}{'wins':>8}{'win %':>8}")
    for bot, row in summary["bots"].items():
        print(f"{bot:<10}{row['seats_played']:>14}{row['wins']:>8}{100 * row['win_rate']:>7.1f}%")
    if summary["means"]:
        print()
        print("per game, on average:")
        for name, value in summary["means"].items():
            print(f"  {name.replace('_', ' '):<28}{value:>10.2f}")
    for name, counts in summary["counts"].items():
        print()
        print(f"{name.replace('_', ' ')}:")
        for value, count in counts.items():
            print(f"  {value:<60}{count:>7}")


def run_simulate(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    options = table_options(game, args)
    bots = bot_names(game, args.bots, game.seats(options))
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    show_progress = not args.json and sys.stderr.isatty()
    started = shown = time.perf_counter()
    summary = None
    for summary in simulate(game, options, args.games, seed, bots):
        # Every 50 games, or every second: with a hard bot (a quarter second a move) 50 games take minutes,
        # and the bar must not sit still meanwhile as if nothing happened.
        if show_progress and (summary.games % 50 == 0 or summary.games == args.games
                              or time.perf_counter() - shown >= 1.0):
            _progress(summary.games, args.games, started)
            shown = time.perf_counter()
    report = summary.as_dict() if summary else {"game": game.id, "games": 0}
    report.update(seed=seed, options=options)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        _print_summary(game, report, seed)
    return 0
