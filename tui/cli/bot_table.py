"""What ``turpin simulate`` and ``turpin watch`` share: the table of bots they play, from ``--game``,
``--players``, ``--option``, ``--bots`` and ``--seed``."""

from __future__ import annotations

import argparse
from typing import Any

from core.bots import chosen_bot
from core.engine import Game, OptionError
from core.registry import all_games


def table_options(game: Game, args: argparse.Namespace) -> dict[str, Any]:
    """Table options from ``--players`` and repeated ``--option name=value``, checked by the game."""
    return game.options_from_text(args.option or [], args.players)


def bot_names(game: Game, text: str | None, seats: int) -> list[str]:
    names = text.split(",") if text else ["normal"] + ["random"] * (seats - 1)
    names = [name.strip().lower() for name in names]
    if len(names) != seats:
        raise OptionError(f"--bots names {len(names)} bots but the table has {seats} seats")
    return [chosen_bot(game, name) for name in names]


def add_table_arguments(parser: argparse.ArgumentParser, game_default: str = "turpin") -> None:
    parser.add_argument("--game", default=game_default, choices=sorted(all_games()) or None,
                        help="which game (default %(default)s)")
    parser.add_argument("--players", type=int, help="number of seats (the game's default if left out)")
    parser.add_argument("--option", action="append", metavar="NAME=VALUE",
                        help="a table option; `turpin rules GAME` lists them (repeatable)")
    parser.add_argument("--bots", help="bot per seat, comma-separated, from easy, normal, hard and random, e.g. "
                                       "hard,normal,easy,random (default: normal in seat 1, random elsewhere)")
    parser.add_argument("--seed", type=int, help="seed for the shuffles and dice (default: a fresh one)")
