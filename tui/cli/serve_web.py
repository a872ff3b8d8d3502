"""``turpin serve-web``: the app in a browser, for colleagues who will not open a terminal and for a
wall screen. The server is ``net.web.WebDoor``; this module is what the person running it reads: the
links to give out (each with the door's token) and how to stop it."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from typing import TYPE_CHECKING

from tui.cli.arguments import door_arguments
from tui.door_links import web_links

if TYPE_CHECKING:  # aiohttp and textual-serve load only for `serve-web` itself
    from net.web import WebDoor, WebSettings


def add_serve_web_command(subparsers: argparse._SubParsersAction) -> None:
    """Add ``turpin serve-web`` and its options."""
    parser = subparsers.add_parser(
        "serve-web", help="let people play in a web browser on the LAN",
        description="Serve the turpin app to web browsers on the LAN: each browser tab gets its own app, "
                    "as a guest (no hosting, no replays of your games, no files). The link printed at "
                    "start carries the door's token; a request without it is refused.")
    door_arguments(parser, default_port=4780, sessions="browser tabs")
    parser.add_argument("--spectate", metavar="HOST:PORT",
                        help="open every tab watching this table (public information only): a wall screen")
    parser.add_argument("--table-view", action="store_true",
                        help="with --spectate: every tab opens in the table view, the board, the players "
                             "and the log large, for a television (T turns it back into the table)")
    parser.add_argument("--name", metavar="NAME", action="append", default=[],
                        help="a DNS name this door is reached by (turpin-2.office.example), besides its "
                             "addresses; repeat for more. Any other name is refused (DNS rebinding)")
    parser.set_defaults(handler=run_serve_web)


def settings_from_args(args: argparse.Namespace) -> WebSettings:
    """The web door's settings from the command line (the interface resolved to its address)."""
    from net.addresses import ipv4_by_interface
    from net.web import DEFAULT_PORT, WebSettings, WebSetupError

    host = "0.0.0.0"
    if args.interface:
        addresses = ipv4_by_interface().get(args.interface, [args.interface])
        host = addresses[0]
        if not all(part.isdigit() for part in host.split(".")) or host.count(".") != 3:
            raise WebSetupError(f"no interface or IPv4 address {args.interface!r}")
    return WebSettings(port=DEFAULT_PORT if args.port is None else args.port, host=host,
                       max_sessions=args.max_sessions, idle_timeout=args.idle_timeout or None,
                       spectate=args.spectate, join=args.join, warm_pool=not args.no_warm_pool,
                       table_view=args.table_view,
                       names=tuple(name.strip().lower() for name in args.name if name.strip()))


def describe(door: WebDoor) -> list[str]:
    """What the person starting the door needs to tell the players, line by line."""
    host, port = door.address
    settings = door.settings
    lines = [f"turpin web door on {host} port {port}"]
    lines += [f"  open in a browser:  {link}" for link in web_links(door)]
    lines += [f"  or by its name:     {door.url(name)}" for name in settings.names]
    lines.append("  (the link carries the door's token: give it only to the people you play with;")
    lines.append("   add &name=Ann to it to sit down as Ann)")
    if settings.spectate:
        lines.append(f"  every tab watches the table at {settings.spectate}"
                     + (", in the table view" if settings.table_view else ""))
    elif settings.join:
        lines.append(f"  every tab opens at the table at {settings.join}")
    limit = f"{settings.max_sessions} tabs at once"
    idle = f"idle tabs close after {settings.idle_timeout:g} s" if settings.idle_timeout else "no idle limit"
    lines.append(f"  tabs start {door.pool_state}")
    lines.append(f"  {limit}; {idle}. Ctrl+C stops the door and every tab.")
    return lines


def run_serve_web(args: argparse.Namespace) -> int:
    from net.web import WebDoor, WebSetupError
    try:
        door = WebDoor(settings_from_args(args))
    except WebSetupError as error:
        print(f"turpin serve-web: {error}", file=sys.stderr)
        return 2
    try:
        return asyncio.run(_serve(door))
    except KeyboardInterrupt:
        return 0


async def _serve(door: WebDoor) -> int:
    try:
        await door.start()
    except OSError as error:
        print(f"turpin serve-web: cannot listen on {door.address[0]} port {door.address[1]}: "
              f"{error.strerror or error}", file=sys.stderr)
        return 1
    for line in describe(door):
        print(line, flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signum, stop.set)
    await stop.wait()
    print("Closing the web door.", flush=True)
    await door.stop()
    return 0
