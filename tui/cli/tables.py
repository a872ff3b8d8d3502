"""``turpin tables``: list the tables advertised on the LAN for a few seconds."""

from __future__ import annotations

import argparse
import asyncio
import sys

from core.registry import all_games
from net.discovery import DiscoveryUnavailable, TableAd, find_tables, resolve_interface
from net.protocol import PROTOCOL_VERSION
from tui.cli.arguments import listening_time, one_line_errors
from tui.startup.settings import lan_setting


def add_tables_command(subparsers: argparse._SubParsersAction) -> None:
    """Add ``turpin tables [--seconds S] [--interface IF]`` to the CLI."""
    parser = subparsers.add_parser(
        "tables", help="list the tables on the LAN",
        description="Listen for tables advertised on the local network and print those that answer.")
    parser.add_argument("--seconds", type=listening_time, default=3.0,
                        help="how long to listen (default %(default)s)")
    parser.add_argument("--interface", metavar="IF", default=None,
                        help="listen on this interface only: an IPv4 address or a name such as eth0 "
                             "(default: every interface)")
    parser.set_defaults(handler=run_tables)
    one_line_errors(parser)


def run_tables(args: argparse.Namespace) -> int:
    """Browse, then print one line per table; 1 if discovery cannot run here."""
    lan = lan_setting()
    if args.interface is None and lan == []:
        print("turpin: browsing the LAN is off here (TURPIN_LAN=off); unset it, or give --interface",
              file=sys.stderr)
        return 1
    try:
        interfaces = resolve_interface(args.interface) if args.interface is not None or lan is None else lan
        tables = asyncio.run(find_tables(args.seconds, interfaces))
    except DiscoveryUnavailable as error:
        print(f"turpin: {error}", file=sys.stderr)
        return 1
    print(format_tables(tables, args.seconds))
    return 0


def format_tables(tables: list[TableAd], seconds: float) -> str:
    """The table list as a player reads it."""
    if not tables:
        return (f"No tables found on the LAN in {seconds:g} seconds. "
                "Ask the host for the address and connect by address.")
    games = _game_titles()
    rows = [("TABLE", "GAME", "SEATS", "CODE", "ADDRESS")]
    for ad in tables:
        game = games.get(ad.game, f"{ad.game} (unknown game)")
        seats = f"{ad.seats_taken}/{ad.seats_taken + ad.seats_free}" + \
            (" game over" if ad.over else "" if ad.seats_free else
             f" {ad.waiting} held for a lost player" if ad.waiting else " full")
        address = ad.address if ad.protocol == PROTOCOL_VERSION else \
            f"{ad.address} (protocol {ad.protocol}, this turpin speaks {PROTOCOL_VERSION})"
        rows.append((ad.name, game, seats, "yes" if ad.code_needed else "no", address))
    widths = [max(len(row[column]) for row in rows) for column in range(4)]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row[:4], widths)) + "  " + row[4]
             for row in rows]
    return "\n".join(line.rstrip() for line in lines)


def _game_titles() -> dict[str, str]:
    # A listing must not die because one game module fails to import: show the ids instead.
    try:
        return {game_id: game.title for game_id, game in all_games().items()}
    except Exception:  # noqa: BLE001
        return {}
