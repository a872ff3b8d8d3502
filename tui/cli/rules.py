"""``turpin rules GAME``: a game's rules summary and its table options, wrapped to the terminal."""

from __future__ import annotations

import argparse
import shutil
import textwrap

from core.registry import all_games, get_game
from tui.reflow import reflowed


def add_rules_command(commands: argparse._SubParsersAction) -> None:
    """Add ``turpin rules GAME``."""
    rules_parser = commands.add_parser("rules", help="print a game's rules summary and options",
                                       description="Print this project's rules summary for a game.")
    rules_parser.add_argument("game", choices=sorted(all_games()) or None, help="which game")
    rules_parser.set_defaults(handler=run_rules)


def run_rules(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    # Wrapped to the terminal, not at the source's 105 columns, and at most 100 wide for reading; an
    # indented line (the market's price table) is printed as it is.
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
