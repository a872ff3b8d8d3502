"""The ``turpin`` commands: the parser with every subcommand and what each runs (``tui/cli.py`` is the
entry point; it opens the app at once when no command is given)."""

from __future__ import annotations

import argparse
import json
import secrets
import shutil
import sys
import textwrap
import time
from typing import Any, Sequence

from core.bots import chosen_bot
from core.engine import Game, OptionError, seat_name, visible_events
from core.registry import all_games, get_game
from core.simulate import play_bot_game, simulate
from tui.cli.arguments import LINGER_DEFAULT, app_arguments, whole_number
from tui.launch import run_app, run_app_menu
from tui.cli.lan import add_commands
from tui.cli.review import add_review_command
from tui.cli.verify import add_verify_command
from tui.cli.serve_ssh import add_serve_ssh_command
from tui.cli.tables import add_tables_command
from tui.cli.serve_web import add_serve_web_command


def _parse_table_options(game: Game, args: argparse.Namespace) -> dict[str, Any]:
    """Table options from ``--players`` and repeated ``--option name=value``, checked by the game."""
    return game.options_from_text(args.option or [], args.players)


def _bot_names(game: Game, text: str | None, seats: int) -> list[str]:
    names = text.split(",") if text else ["normal"] + ["random"] * (seats - 1)
    names = [name.strip().lower() for name in names]
    if len(names) != seats:
        raise OptionError(f"--bots names {len(names)} bots but the table has {seats} seats")
    return [chosen_bot(game, name) for name in names]


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
    options = _parse_table_options(game, args)
    bots = _bot_names(game, args.bots, game.seats(options))
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


def run_rules(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    # Wrapped to the terminal, not at the source's 105 columns, and at most 100 wide for reading; an
    # indented line (the market's price table) is printed as it is.
    from tui.screens.rules import reflowed
    width = max(40, min(shutil.get_terminal_size((100, 24)).columns, 100))
    for line in reflowed(game.rules_text).splitlines():
        print(line if not line.strip() or line[0].isspace() else textwrap.fill(line, width))
    print()
    print("Table options:")
    for option in game.options:
        allowed = ""
        if option.kind == "int":
            allowed = f" ({option.allowed[0]}-{option.allowed[1]})"
        elif option.kind == "choice":
            allowed = f" ({', '.join(map(str, option.allowed))})"
        print(f"  {option.name}{allowed}, default {option.default}: {option.help}")
    return 0


def run_watch(args: argparse.Namespace) -> int:
    """Narrate one bot game as a spectator would see it."""
    game = get_game(args.game)
    options = _parse_table_options(game, args)
    bots = _bot_names(game, args.bots, game.seats(options))
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


def _add_table_arguments(parser: argparse.ArgumentParser, game_default: str = "turpin") -> None:
    parser.add_argument("--game", default=game_default, choices=sorted(all_games()) or None,
                        help="which game (default %(default)s)")
    parser.add_argument("--players", type=int, help="number of seats (the game's default if left out)")
    parser.add_argument("--option", action="append", metavar="NAME=VALUE",
                        help="a table option; `turpin rules GAME` lists them (repeatable)")
    parser.add_argument("--bots", help="bot per seat, comma-separated, from easy, normal, hard and random, e.g. "
                                       "hard,normal,easy,random (default: normal in seat 1, random elsewhere)")
    parser.add_argument("--seed", type=int, help="seed for the shuffles and dice (default: a fresh one)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="turpin",
        description="Highwayman tabletop games in the terminal. With no command, open the app.")
    app_arguments(parser)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    simulate_parser = commands.add_parser(
        "simulate", help="play many bot games headless and print a summary",
        description="Play bot games headless and summarise wins per seat and bot, and the game's figures.")
    _add_table_arguments(simulate_parser)
    simulate_parser.add_argument("--games", type=whole_number("--games", 1), default=1000,
                                 help="how many games (default %(default)s)")
    simulate_parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    simulate_parser.set_defaults(handler=run_simulate)

    rules_parser = commands.add_parser("rules", help="print a game's rules summary and options",
                                       description="Print this project's rules summary for a game.")
    rules_parser.add_argument("game", choices=sorted(all_games()) or None, help="which game")
    rules_parser.set_defaults(handler=run_rules)

    watch_parser = commands.add_parser("watch", help="watch one bot game, narrated",
                                       description="Play one bot game and print its public log.")
    _add_table_arguments(watch_parser)
    watch_parser.add_argument("--delay", type=float, default=0.0,
                              help="seconds to pause after each line (default %(default)s)")
    watch_parser.set_defaults(handler=run_watch)
    add_review_command(commands)
    add_verify_command(commands)

    _add_network_commands(commands)
    return parser


def _add_network_commands(commands: argparse._SubParsersAction) -> None:
    """The LAN commands (``tui/lan_commands.py``, ``tui/tables_command.py``, ``tui/ssh_command.py``) add
    themselves to the parser. Without ``--headless`` (host) or ``--text`` (join) they open the app instead
    of the console."""
    add_commands(commands)
    add_tables_command(commands)
    add_serve_ssh_command(commands)
    add_serve_web_command(commands)
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
    from tui.app import Start
    from tui.hosting import plan_against_bots
    game = get_game(args.game)
    options = game.options_from_text(args.option or [], args.players)
    plan = plan_against_bots(args.game, bot=args.bot, seed=args.seed, options=options)
    return run_app(args, Start(route="play", plan=plan))


def run_app_host(args: argparse.Namespace) -> int:
    from net.hosting import bots_in_last_seats
    from tui.app import Start
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
    from tui.app import Start
    if args.name:  # `turpin join --name X` as well as `turpin --name X join`
        args.player_name = args.name
    extra = {"token": args.token, "seat": args.seat - 1 if args.seat else None}
    return run_app(args, Start(route="spectate" if args.spectate else "join", address=args.address,
                               code=args.code, extra=extra))


def run_app_spectate(args: argparse.Namespace) -> int:
    from tui.app import Start
    return run_app(args, Start(route="spectate", address=args.address))


def run_command(argv: Sequence[str]) -> int:
    """Parse a whole ``turpin`` command line and run it."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = args.handler if args.command is not None else run_app_menu
    if args.command == "host" and not args.headless or args.command == "join" and not getattr(args, "text", False):
        handler = args.app_handler
    try:
        return handler(args)
    except (OptionError, KeyError) as error:
        message = error.args[0] if error.args else str(error)
        print(f"turpin: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
