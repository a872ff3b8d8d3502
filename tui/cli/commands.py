"""The ``turpin`` commands: the parser, built from every subcommand's own module in ``tui/cli/``, and the
dispatch to what each runs (``tui/cli/__init__.py`` is the entry point; it opens the app at once when no
command is given)."""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from core.engine import OptionError
from tui.cli.app_routes import add_app_commands
from tui.cli.host import add_host_command
from tui.cli.join import add_join_command
from tui.cli.review import add_review_command
from tui.cli.rules import add_rules_command
from tui.cli.serve_ssh import add_serve_ssh_command
from tui.cli.serve_web import add_serve_web_command
from tui.cli.simulate import add_simulate_command
from tui.cli.tables import add_tables_command
from tui.cli.verify import add_verify_command
from tui.cli.watch import add_watch_command
from tui.startup.launch import app_arguments, run_app_menu


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="turpin",
        description="Highwayman tabletop games in the terminal. With no command, open the app.")
    app_arguments(parser)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_simulate_command(commands)
    add_rules_command(commands)
    add_watch_command(commands)
    add_review_command(commands)
    add_verify_command(commands)
    # The LAN commands: without ``--headless`` (host) or ``--text`` (join) they open the app instead of the
    # console, which add_app_commands sets up.
    add_host_command(commands)
    add_join_command(commands)
    add_tables_command(commands)
    add_serve_ssh_command(commands)
    add_serve_web_command(commands)
    add_app_commands(commands)
    return parser


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
