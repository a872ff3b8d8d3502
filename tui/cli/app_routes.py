"""The commands that open the app rather than print: ``turpin play`` and ``spectate``, and ``host`` and
``join`` without ``--headless`` or ``--text``. Each says where the app opens (a ``Start``);
``tui/startup/launch.py`` opens it."""

from __future__ import annotations

import argparse

from core.engine import OptionError
from core.registry import all_games, get_game
from tui.cli.arguments import LINGER_DEFAULT
from tui.startup.launch import run_app
from tui.startup.start import Start


def add_app_commands(commands: argparse._SubParsersAction) -> None:
    """Add ``turpin play`` and ``spectate``, and the app's own route for ``host`` and ``join`` (added
    before this, with their text-only handlers)."""
    for name, route in (("host", run_app_host), ("join", run_app_join)):
        commands.choices[name].set_defaults(app_handler=route)

    play = commands.add_parser("play", help="play against bots in the app",
                               description="Open the app at a table against bots (you are seat 1).")
    play.add_argument("--game", default="turpin", choices=sorted(all_games()) or None,
                      help="which game (default %(default)s)")
    play.add_argument("--players", type=int, help="number of seats (the game's default if left out)")
    play.add_argument("--option", action="append", metavar="NAME=VALUE", help="a table option (repeatable)")
    play.add_argument("--bot", help="which bot takes the other seats: easy, normal, hard or random (default: normal)")
    play.add_argument("--seed", type=int, help="seed for a repeatable game")
    play.set_defaults(handler=run_app_play)

    spectate = commands.add_parser("spectate", help="watch a table in the app",
                                   description="Open the app watching a table (public information only).")
    spectate.add_argument("address", metavar="HOST:PORT", help="where the table is")
    spectate.set_defaults(handler=run_app_spectate)


def run_app_play(args: argparse.Namespace) -> int:
    from tui.hosting import plan_against_bots
    game = get_game(args.game)
    options = game.options_from_text(args.option or [], args.players)
    plan = plan_against_bots(args.game, bot=args.bot, seed=args.seed, options=options)
    return run_app(args, Start(route="play", plan=plan))


def run_app_host(args: argparse.Namespace) -> int:
    from net.hosting import bots_in_last_seats
    from tui.hosting import TablePlan
    game = get_game(args.game or "turpin")
    options = game.options_from_text(args.option or [], args.players)
    bots = bots_in_last_seats(game, options, args.bots, args.bot, people=1)  # seat 1 is the app's own
    if args.resume:
        # The table window hosts new tables; a record is resumed headless, and its players (the host's
        # own app too) come back to it with `turpin join`, each to his own seat.
        raise OptionError("a table is resumed from its record with --headless: turpin host --headless "
                          f"--resume {args.resume}, then `turpin join 127.0.0.1:PORT` to sit at it again")
    if args.linger != LINGER_DEFAULT:
        raise OptionError("--linger is for a headless host: a table the app hosts closes when its host leaves it")
    # Every host option reaches the table the app hosts (a table asked to stay off the LAN list stays off)
    plan = TablePlan(game=game.id, options=options, bots=bots, name=args.name or "",
                     interface=args.interface or "", code=not args.no_code, port=args.port or 0,
                     room_code=args.code.strip().upper() if args.code else None,
                     advertise=not args.no_advertise, bot_delay=args.bot_delay, grace=args.grace,
                     max_spectators=args.max_spectators, record=args.record,
                     clock=args.clock)
    return run_app(args, Start(route="host", plan=plan))


def run_app_join(args: argparse.Namespace) -> int:
    if args.name:  # `turpin join --name X` as well as `turpin --name X join`
        args.player_name = args.name
    extra = {"token": args.token, "seat": args.seat - 1 if args.seat else None}
    return run_app(args, Start(route="spectate" if args.spectate else "join", address=args.address,
                               code=args.code, extra=extra))


def run_app_spectate(args: argparse.Namespace) -> int:
    return run_app(args, Start(route="spectate", address=args.address))
