"""``turpin watch``: one bot game played and narrated line by line, as a spectator's log shows it."""

from __future__ import annotations

import argparse
import secrets
import time

from core.engine import seat_name, visible_events
from core.registry import get_game
from core.simulate import play_bot_game
from tui.cli.bot_table import add_table_arguments, bot_names, table_options


def add_watch_command(commands: argparse._SubParsersAction) -> None:
    """Add ``turpin watch`` and its options."""
    watch_parser = commands.add_parser("watch", help="watch one bot game, narrated",
                                       description="Play one bot game and print its public log.")
    add_table_arguments(watch_parser)
    watch_parser.add_argument("--delay", type=float, default=0.0,
                              help="seconds to pause after each line (default %(default)s)")
    watch_parser.set_defaults(handler=run_watch)


def run_watch(args: argparse.Namespace) -> int:
    """Narrate one bot game as a spectator would see it."""
    game = get_game(args.game)
    options = table_options(game, args)
    bots = bot_names(game, args.bots, game.seats(options))
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    print(f"{game.title}: {', '.join(f'{seat_name(s)} ({b})' for s, b in enumerate(bots))}")

    def narrate_events(events):
        for line in visible_events(events, None):
            print(line["text"], flush=True)
            if args.delay:
                time.sleep(args.delay)

    # The game's own last event is its result's summary: printing it again here said it twice.
    play_bot_game(game, options, seed, bots,
                  on_action=lambda state, seat, action, events: narrate_events(events),
                  on_deal=lambda state, events: narrate_events(events))
    print(f"(seed {seed}: replay it with --seed {seed})")
    return 0
