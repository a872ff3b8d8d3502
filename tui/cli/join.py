"""``turpin join --text``: a table joined in the plain text client (``tui/cli/text_client.py``); without
``--text`` the app opens at it (``tui/cli/app_routes.py``). ``add_join_command(subparsers)`` adds it to the
``turpin`` parser."""

from __future__ import annotations

import argparse
import asyncio

from net.addresses import parse_address
from net.client import TableClient
from tui.cli.arguments import one_line_errors, player_name, table_address, text_argument, whole_number
from tui.cli.text_client import play_text


def add_join_command(subparsers: argparse._SubParsersAction) -> None:
    """Add ``turpin join HOST:PORT`` and its options."""
    join = subparsers.add_parser(
        "join", help="join a table by address",
        description="Join a table as a player (or --spectate) and play it.")
    join.add_argument("address", metavar="HOST:PORT", type=table_address,
                      help="where the table is, as its host printed it")
    join.add_argument("--code", type=text_argument("a room code", 32), help="the room code the host shows")
    join.add_argument("--spectate", action="store_true", help="watch without a seat")
    join.add_argument("--name", type=player_name, help="your name at the table (1 to 40 printable characters)")
    join.add_argument("--seat", type=whole_number("a seat number", 1), help="the seat you want (1 = first), if free")
    join.add_argument("--token", type=text_argument("a seat token", 128),
                      help="your seat token, to come back to your seat from another terminal")
    join.add_argument("--text", action="store_true", help="play in the plain text client (no table window)")
    join.set_defaults(handler=run_join)
    one_line_errors(join)


def run_join(args: argparse.Namespace) -> int:
    """``turpin join --text``: the plain text client (otherwise the app opens at the table)."""
    host, port = parse_address(args.address)
    # `turpin --name X join --text` as well as `turpin join --name X --text`, as the app takes either
    name = args.name or getattr(args, "player_name", None)
    client = TableClient(host, port, role="spectator" if args.spectate else "player", name=name,
                         code=args.code, token=args.token, seat=None if args.seat is None else args.seat - 1)
    try:
        return asyncio.run(play_text(client))
    except KeyboardInterrupt:
        return 130
