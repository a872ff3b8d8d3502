"""``turpin host`` and ``turpin join``: a headless table, and a plain text client for it.

``add_commands(subparsers)`` adds both to the ``turpin`` parser; each sets ``handler`` the way the other
commands do. The text client is deliberately plain — numbered choices, typed answers — so a table can be
played (and the protocol checked by hand) before the Textual app exists.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import pathlib
import re
import shlex
import signal
import stat
import sys
import time
from typing import Any, Mapping, Sequence

import platformdirs

from core.engine import Game, OptionError, seat_name
from core.registry import all_games
from net import protocol
from net.authority import Table, new_room_code
from net.client import ClientError, ClientUpdate, TableClient
from net.host import HostSettings, TableHost, advertise, bind_address, lan_addresses, record_saver
from net.record import RecordError, read_record

DEFAULT_PORT = 4707


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Add ``host`` and ``join`` to the ``turpin`` command's subparsers."""
    host = subparsers.add_parser(
        "host", help="host a table on the LAN",
        description="Host a table that players join over the LAN and spectators watch.")
    add_host_arguments(host)
    host.set_defaults(handler=run_host)

    join = subparsers.add_parser(
        "join", help="join a table by address (plain text client)",
        description="Join a table as a player (or --spectate) and play it by typing choice numbers.")
    join.add_argument("address", metavar="HOST:PORT", help="where the table is, as its host printed it")
    join.add_argument("--code", help="the room code the host shows")
    join.add_argument("--spectate", action="store_true", help="watch without a seat")
    join.add_argument("--name", help="your name at the table")
    join.add_argument("--seat", type=int, help="the seat you want (1 = first), if free")
    join.add_argument("--token", help="your seat token, to come back to your seat from another terminal")
    join.set_defaults(handler=run_join)


def add_host_arguments(parser: argparse.ArgumentParser, games: Mapping[str, Game] | None = None) -> None:
    games = games if games is not None else all_games()
    parser.add_argument("--headless", action="store_true",
                        help="serve the table from this terminal without a table window")
    parser.add_argument("--game", choices=sorted(games) or None, default=None,
                        help="which game (default: turpin, or the resumed record's)")
    parser.add_argument("--players", type=int, help="number of seats (the game's default if left out)")
    parser.add_argument("--bots", type=int, default=0, metavar="K", help="how many seats bots take (the last K)")
    parser.add_argument("--bot", default=None, help="which bot plays those seats (default: the best one)")
    parser.add_argument("--option", action="append", metavar="NAME=VALUE", help="a table option (repeatable)")
    parser.add_argument("--port", type=int, default=None, help=f"TCP port (default {DEFAULT_PORT}; 0 = any)")
    codes = parser.add_mutually_exclusive_group()
    codes.add_argument("--code", help="the room code players must give (default: a fresh one)")
    codes.add_argument("--no-code", action="store_true", help="anyone may sit, no room code")
    parser.add_argument("--name", default=None, type=table_name,
                        help="the table's name on the LAN list (1 to 40 printable characters)")
    parser.add_argument("--interface", help="IPv4 address or interface name to serve on (default: all)")
    parser.add_argument("--resume", metavar="FILE", help="restore the table from its record and go on")
    parser.add_argument("--record", metavar="FILE", help="where to write the game record (default: a new "
                                                         "file in turpin's records folder)")
    parser.add_argument("--no-advertise", action="store_true", help="do not announce the table on the LAN")
    parser.add_argument("--grace", type=float, default=None, metavar="SECONDS",
                        help="hand a lost player's seat to a bot after this long (default: wait for him)")
    parser.add_argument("--bot-delay", type=float, default=0.6, help="seconds a bot waits before acting")
    parser.add_argument("--heartbeat", type=float, default=2.0, help=argparse.SUPPRESS)
    parser.add_argument("--timeout", type=float, default=6.0, help=argparse.SUPPRESS)


def table_name(text: str) -> str:
    """``--name``, checked as the LAN advert will check it: a bad name is an argument error now, not a
    table that quietly goes unadvertised."""
    try:
        from net.discovery import check_table_name  # only here: the host works without discovery
    except ImportError:
        return text  # nothing will advertise it, so any name will do
    try:
        check_table_name(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{error}: {text!r}") from None
    return text


# ------------------------------------------------------------------------------------------------ host


def records_folder() -> pathlib.Path:
    """Where game records go unless ``--record`` says otherwise: turpin's folder in the user's data."""
    return pathlib.Path(platformdirs.user_data_dir("turpin")) / "records"


def default_record_path(label: str, now: time.struct_time | None = None) -> pathlib.Path:
    """A new record file named after the table (or game) and the time; never one that already exists."""
    folder = records_folder()
    folder.mkdir(parents=True, exist_ok=True)
    # The name is free text: keep what is safe in a file name on any system.
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", label).strip("-").lower()[:40] or "table"
    stamp = time.strftime("%Y%m%d-%H%M%S", now or time.localtime())
    path = folder / f"{stem}-{stamp}.turpin-record"
    number = 1
    while path.exists():  # two tables started in the same second
        number += 1
        path = folder / f"{stem}-{stamp}-{number}.turpin-record"
    return path


def _table_options(game: Game, args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for text in args.option or []:
        name, sep, value = text.partition("=")
        if not sep:
            raise OptionError(f"--option takes name=value, not {text!r}")
        options[name.strip()] = game.option(name.strip()).parse(value)
    if args.players is not None:
        options["players"] = args.players
    return game.resolve_options(options)


def build_table(args: argparse.Namespace, games: Mapping[str, Game]) -> tuple[Table, str]:
    """The table the arguments describe (new, or resumed from a record) and where its record goes."""
    if args.resume:
        record = read_record(args.resume)
        if record["game"] not in games:
            raise OptionError(f"the record is of {record['game']!r}, which this turpin does not have")
        table = Table.from_record(games[record["game"]], record, save=record_saver(args.resume))
        table.grace = args.grace if args.grace is not None else table.grace
        return table, args.resume
    game = games[args.game or "turpin"] if (args.game or "turpin") in games else None
    if game is None:
        raise OptionError(f"no game {args.game or 'turpin'!r}; the games are {', '.join(games)}")
    options = _table_options(game, args)
    seats = game.seats(options)
    if not 0 <= args.bots <= seats:
        raise OptionError(f"--bots must be from 0 to {seats} at a table of {seats}")
    bot = args.bot or ("sharp" if "sharp" in game.bots else next(iter(game.bots)))
    if bot not in game.bots:
        raise OptionError(f"{game.title} has no bot {bot!r}; it has {', '.join(game.bots)}")
    code = None if args.no_code else (args.code.strip().upper() if args.code else new_room_code())
    path = args.record or str(default_record_path(args.name or game.id))
    table = Table(game, options, name=args.name or f"{game.title} table", code=code, grace=args.grace,
                  bots={seat: bot for seat in range(seats - args.bots, seats)}, save=record_saver(path))
    return table, path


def run_host(args: argparse.Namespace, games: Mapping[str, Game] | None = None) -> int:
    """``turpin host``: serve a table until Ctrl-C (or the end of the game and a last look)."""
    if not args.headless:
        print("turpin: the table window is not built yet; host with --headless and join with "
              "`turpin join`", file=sys.stderr)
        return 2
    try:
        table, record_path = build_table(args, games if games is not None else all_games())
    except (RecordError, ValueError) as error:
        print(f"turpin: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # the records folder cannot be made (a read-only home, say)
        print(f"turpin: cannot write the game record there: {error}; choose a file with --record",
              file=sys.stderr)
        return 2
    try:
        return asyncio.run(serve_headless(table, record_path, args))
    except KeyboardInterrupt:
        return 130


async def serve_headless(table: Table, record_path: str, args: argparse.Namespace) -> int:
    settings = HostSettings(heartbeat=args.heartbeat, timeout=args.timeout, bot_delay=args.bot_delay)
    host = TableHost(table, settings)
    port = args.port if args.port is not None else table.meta.get("port", DEFAULT_PORT)
    try:
        address = bind_address(args.interface)
        _, port = await host.start(address, port)
    except (OSError, ValueError) as error:
        print(f"turpin: cannot serve on port {port}: {getattr(error, 'strerror', None) or error}; "
              f"pick another with --port", file=sys.stderr)
        return 2
    table.meta["port"] = port
    if table.save is not None:
        table.save(table.record())
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)
    advertiser = None
    try:
        _print_welcome(table, address, port, record_path)
        if not args.no_advertise:
            advertiser = await advertise(host, args.interface)
        console = asyncio.ensure_future(_host_console(host, stop))
        await stop.wait()
        console.cancel()
    finally:
        if advertiser is not None:
            with contextlib.suppress(Exception):
                await advertiser.close()
        await host.close()
    print("The table is closed.")
    return 0


def _print_welcome(table: Table, address: str, port: int, record_path: str) -> None:
    where = address if address != "0.0.0.0" else lan_addresses()[0]
    print(f"Hosting {table.game.title}: \"{table.name}\" at {where}:{port}", flush=False)
    if table.code:
        print(f"Room code: {table.code}")
        print(f"Players join with:    turpin join {where}:{port} --code {table.code}")
    else:
        print("No room code: anyone may sit.")
        print(f"Players join with:    turpin join {where}:{port}")
    print(f"Spectators watch with: turpin join {where}:{port} --spectate   (no code needed)")
    print(f"Seats: {', '.join(f'{s + 1} {i.kind}' for s, i in enumerate(table.seats))}")
    print(f"Game record: {record_path}   (after a crash: turpin host --headless --resume "
          f"{shlex.quote(str(record_path))})")
    print("Type `seats` to list the seats, `bot N` to hand seat N to a bot, `quit` to stop.", flush=True)


async def _host_console(host: TableHost, stop: asyncio.Event) -> None:
    """The headless host's few commands, read from stdin if there is one."""
    reader = await _stdin_reader()
    if reader is None:
        return
    while True:
        line = (await reader.readline()).decode(errors="replace")
        if not line:
            return
        words = line.split()
        table = host.table
        if not words:
            continue
        if words[0] in ("quit", "exit", "stop"):
            stop.set()
            return
        if words[0] == "seats":
            for seat in table.public_seats():
                print(f"  seat {seat['seat'] + 1}: {seat['kind']} {seat['name']} "
                      f"{'connected' if seat['connected'] else 'away'}", flush=True)
        elif words[0] == "bot" and len(words) == 2 and words[1].isdigit():
            seat = int(words[1]) - 1
            if 0 <= seat < len(table.seats) and table.seats[seat].kind == "player":
                table.hand_to_bot(seat)
                table.notice(f"Seat {seat + 1} was handed to a bot by the host")
                host._schedule_bots()
                print(f"  seat {seat + 1} is a bot now", flush=True)
            else:
                print(f"  seat {words[1]} has no player to replace", flush=True)
        else:
            print("  commands: seats, bot N, quit", flush=True)


async def _stdin_reader() -> asyncio.StreamReader | None:
    """Typed lines from stdin, or None when stdin is not something the event loop can wait on.

    Only a terminal, a pipe or a socket will do: /dev/null or a plain file cannot be polled (epoll
    refuses them), and the reader would then wait forever.
    """
    if sys.stdin is None or sys.stdin.closed:
        return None
    try:
        fd = sys.stdin.fileno()
        mode = os.fstat(fd).st_mode
        if not (os.isatty(fd) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
            return None
        reader = asyncio.StreamReader()
        await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        return reader
    except (ValueError, OSError):
        return None


def host_main(argv: Sequence[str], games: Mapping[str, Game]) -> int:
    """``turpin host`` with a given set of games (tests host their own toy game this way)."""
    parser = argparse.ArgumentParser(prog="turpin host")
    add_host_arguments(parser, games)
    return run_host(parser.parse_args(argv), games)


# ------------------------------------------------------------------------------------------------ join


def parse_address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise OptionError(f"give the table's address as HOST:PORT, e.g. 192.168.1.20:{DEFAULT_PORT}")
    return host.strip("[]"), int(port)


def run_join(args: argparse.Namespace) -> int:
    host, port = parse_address(args.address)
    client = TableClient(host, port, role="spectator" if args.spectate else "player", name=args.name,
                         code=args.code, token=args.token, seat=None if args.seat is None else args.seat - 1)
    try:
        return asyncio.run(play_text(client))
    except KeyboardInterrupt:
        return 130


#: The short view shown with each prompt keeps to this many lines; ``v`` shows all of it.
VIEW_LINES = 25
#: Characters per line of the short view.
VIEW_WIDTH = 100


def render_view(view: Any, max_lines: int | None = VIEW_LINES, width: int | None = VIEW_WIDTH) -> list[str]:
    """Any game's view as plain lines for a person: ``key: value``, nested lists and maps indented.

    Generic on purpose (the view is whatever the game's allow-list gives): keys read as words, empty and
    unknown (None) fields are left out, short lists and maps stay on one line. With ``max_lines`` the
    rest is cut and a last line says how to see it all.
    """
    lines = _mapping_lines(view, 0) if isinstance(view, dict) else [_inline(view)]
    if width is not None:
        lines = [line if len(line) <= width else line[:width - 1] + "…" for line in lines]
    if max_lines is not None and len(lines) > max_lines:
        hidden = len(lines) - (max_lines - 1)
        lines = lines[:max_lines - 1] + [f"… and {hidden} more lines (type v for the whole view)"]
    return lines


def _worth_showing(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_worth_showing(item) for item in value.values())
    return value is not None and value != [] and value != ""


def _label(key: Any) -> str:
    return str(key).replace("_", " ")


def _inline(value: Any, nested: bool = False) -> str:
    """A value on one line: lists as ``a, b``, maps as ``key value, key value``; inner ones bracketed."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        text = ", ".join(_inline(item, nested=True) for item in value) if value else "none"
        return f"[{text}]" if nested else text
    if isinstance(value, dict):
        text = ", ".join(f"{_label(key)} {_inline(item, nested=True)}"
                         for key, item in value.items() if _worth_showing(item))
        return f"({text})" if nested else text
    return str(value)


def _is_flat(value: Any) -> bool:
    items = value if isinstance(value, list) else list(value.values()) if isinstance(value, dict) else []
    return not any(isinstance(item, (list, dict)) for item in items)


def _mapping_lines(mapping: dict[Any, Any], depth: int) -> list[str]:
    indent = "  " * depth
    lines: list[str] = []
    for key, value in mapping.items():
        if not _worth_showing(value):
            continue
        if _is_flat(value):
            lines.append(f"{indent}{_label(key)}: {_inline(value)}")
        elif isinstance(value, dict):
            lines += [f"{indent}{_label(key)}:", *_mapping_lines(value, depth + 1)]
        else:  # a list holding lists or maps: one item a line
            lines += [f"{indent}{_label(key)}:", *(f"{indent}  - {_inline(item)}" for item in value)]
    return lines


async def _typed_line_unless_over(reader: asyncio.StreamReader, client: TableClient) -> str | None:
    """The next line typed, or None once stdin ends or the game is over (or the table gone)."""
    typed = asyncio.ensure_future(reader.readline())
    over = asyncio.ensure_future(client.wait_for(lambda snap: client.stopped is not None
                                                 or snap.result is not None))
    try:
        await asyncio.wait({typed, over}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (typed, over):
            task.cancel()
    if over.done() and not over.cancelled():
        over.exception()  # a ClientError here only repeats why the client stopped; the loop says so
        return None
    if not typed.done() or typed.cancelled():
        return None
    line = typed.result()
    return None if not line and reader.at_eof() else line.decode(errors="replace").strip()


async def play_text(client: TableClient, out: Any = None) -> int:
    """The plain text client: the view in short, log lines as they come, the host's choices numbered,
    answers typed."""
    out = out or sys.stdout
    shown_prompt: list[Any] = [None]

    def show_view(snap: Any) -> None:
        whose = "The table" if snap.seat is None else "Your view"
        print(f"{whose} (turn {max(snap.turn, 0)}):", file=out)
        for line in render_view(snap.view):
            print(f"    {line}", file=out)

    def show(update: ClientUpdate) -> None:
        snap = client.snapshot
        if update.kind == "table":
            message = update.message or {}
            for event in message.get("events", []):
                print(f"  · {event['text']}", file=out)
            if snap.result is not None:
                print(f"Game over: {snap.result.get('summary', '')}", file=out)
                print(f"Seed {snap.result.get('seed')} — the record replays it (A2).", file=out)
            elif snap.prompt and snap.prompt["id"] != shown_prompt[0]:
                shown_prompt[0] = snap.prompt["id"]
                show_view(snap)
                print("Your choices:", file=out)
                for number, choice in enumerate(snap.choices, start=1):
                    print(f"  [{number}] {choice['text']}", file=out)
                print("Type a number and Enter (v = the whole view, q = quit):", file=out)
            elif message.get("catch_up"):
                show_view(snap)
                print("Watching (v = the whole view, q = quit)" if snap.seat is None
                      else "Waiting for your turn (v = the whole view, q = quit)", file=out)
        elif update.kind in ("welcome", "error", "notice", "disconnected", "stopped"):
            prefix = {"error": "! ", "notice": "* ", "disconnected": "~ "}.get(update.kind, "")
            print(f"{prefix}{update.text}", file=out)
            if update.kind == "welcome" and client.token and snap.seat is not None:
                print(f"(your seat token, to come back from another terminal: --token {client.token})", file=out)
        out.flush()

    client.subscribe(show)
    try:
        await client.start()
    except ClientError as error:
        print(f"turpin: {error}", file=sys.stderr)
        return 1
    reader = await _stdin_reader()
    try:
        while client.stopped is None:
            if reader is None:
                await client.wait_for(lambda snap: client.stopped is not None or snap.result is not None)
                break
            line = await _typed_line_unless_over(reader, client)
            if line is None or line in ("q", "quit"):
                break
            if line == "v":
                for text in render_view(client.snapshot.view, max_lines=None, width=None):
                    print(text, file=out)
            elif line.isdigit() and 1 <= int(line) <= len(client.snapshot.choices):
                await client.choose(int(line) - 1)
            elif line:
                print(f"type a number from 1 to {len(client.snapshot.choices)}" if client.snapshot.choices
                      else "nothing to choose now; wait for your turn", file=out)
            out.flush()
    except ClientError as error:
        print(f"turpin: {error}", file=sys.stderr)
    finally:
        await client.close()
    return 0
