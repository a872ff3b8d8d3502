"""``turpin host --headless``: a table served from this terminal, its console and its welcome; a host in
the app is ``tui/cli/app_routes.py``'s. ``add_host_command(subparsers)`` adds it to the ``turpin`` parser."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shlex
import signal
import sys
from typing import Callable, Mapping, Sequence

from core.engine import Game, OptionError
from core.registry import all_games
from net import protocol
from net.addresses import DEFAULT_TABLE_PORT
from net.host import HostSettings, TableHost, lan_addresses, record_saver
from net.hosting import ServedTable, bots_in_last_seats, new_table
from net.record import RecordError, read_record
from net.table.clock import LAN_CLOCK_SECONDS
from net.table.table import Table
from tui.cli.arguments import (
    LINGER_DEFAULT,
    one_line_errors,
    port_number,
    seconds,
    table_name,
    text_argument,
    whole_number,
)
from tui.cli.console_output import detached_output
from tui.cli.text_client import stdin_reader
from tui.saved.record_files import default_record_path
from tui.startup.settings import lan_setting
from tui.table_words import clock_in_words


def add_host_command(subparsers: argparse._SubParsersAction) -> None:
    """Add ``turpin host`` and its options."""
    host = subparsers.add_parser(
        "host", help="host a table on the LAN",
        description="Host a table that players join over the LAN and spectators watch.")
    add_host_arguments(host)
    host.set_defaults(handler=run_host)
    one_line_errors(host)


# ------------------------------------------------------------------------------------------- arguments


def add_host_arguments(parser: argparse.ArgumentParser, games: Mapping[str, Game] | None = None) -> None:
    games = games if games is not None else all_games()
    parser.add_argument("--headless", action="store_true",
                        help="serve the table from this terminal without a table window")
    parser.add_argument("--game", choices=sorted(games) or None, default=None,
                        help="which game (default: turpin, or the resumed record's)")
    parser.add_argument("--players", type=whole_number("--players", 1),
                        help="number of seats (the game's default if left out)")
    parser.add_argument("--bots", type=whole_number("--bots", 0), default=0, metavar="K",
                        help="how many seats bots take (the last K)")
    parser.add_argument("--bot", default=None, help="which bot plays those seats: easy, normal, hard or random "
                                                    "(default: normal)")
    parser.add_argument("--option", action="append", metavar="NAME=VALUE", help="a table option (repeatable)")
    parser.add_argument("--port", type=port_number, default=None,
                        help=f"TCP port (default {DEFAULT_TABLE_PORT}; 0 = any)")
    codes = parser.add_mutually_exclusive_group()
    codes.add_argument("--code", type=text_argument("a room code", 32),
                       help="the room code players must give (default: a fresh one)")
    codes.add_argument("--no-code", action="store_true", help="anyone may sit, no room code")
    parser.add_argument("--name", default=None, type=table_name,
                        help="the table's name on the LAN list (1 to 40 printable characters)")
    parser.add_argument("--interface", help="IPv4 address or interface name to serve on (default: all)")
    parser.add_argument("--resume", metavar="FILE", help="restore the table from its record and go on")
    parser.add_argument("--record", metavar="FILE", help="where to write the game record (default: a new "
                                                         "file in turpin's records folder)")
    parser.add_argument("--no-advertise", action="store_true", help="do not announce the table on the LAN")
    parser.add_argument("--grace", type=seconds("--grace"), default=None, metavar="SECONDS",
                        help="hand a lost player's seat to a bot after this long (default: wait for him)")
    parser.add_argument("--clock", type=seconds("--clock"), default=None, metavar="SECONDS",
                        help=f"a turn clock: each seat has this long for a move, then the normal bot makes it "
                             f"(0: none; default {LAN_CLOCK_SECONDS:g})")
    parser.add_argument("--bot-delay", type=seconds("--bot-delay"), default=0.6,
                        help="seconds a bot waits before acting")
    parser.add_argument("--linger", type=seconds("--linger"), default=LINGER_DEFAULT, metavar="SECONDS",
                        help="with --headless: after the game ends, keep the table up this long so players "
                             "can read the result, then close (default %(default)g)")
    parser.add_argument("--max-spectators", type=whole_number("--max-spectators", 0),
                        default=HostSettings.max_spectators, metavar="N",
                        help="how many spectators may watch at once (default %(default)s); seats always "
                             "have room")
    parser.add_argument("--heartbeat", type=seconds("--heartbeat", allow_zero=False),
                        default=protocol.HEARTBEAT_SECONDS, help=argparse.SUPPRESS)
    parser.add_argument("--timeout", type=seconds("--timeout", allow_zero=False),
                        default=protocol.TIMEOUT_SECONDS, help=argparse.SUPPRESS)


# ------------------------------------------------------------------------------------------------ host


def build_table(args: argparse.Namespace, games: Mapping[str, Game]) -> tuple[Table, str]:
    """The table the arguments describe (new, or resumed from a record) and where its record goes."""
    if args.resume:
        record = read_record(args.resume)
        if record["game"] not in games:
            raise OptionError(f"the record is of {record['game']!r}, which this turpin does not have")
        table = Table.from_record(games[record["game"]], record, save=record_saver(args.resume),
                                  grace=args.grace, clock=args.clock)
        return table, args.resume
    game = games[args.game or "turpin"] if (args.game or "turpin") in games else None
    if game is None:
        raise OptionError(f"no game {args.game or 'turpin'!r}; the games are {', '.join(games)}")
    options = game.options_from_text(args.option or [], args.players)
    bots = bots_in_last_seats(game, options, args.bots, args.bot)
    path = args.record or str(default_record_path(args.name or game.id))
    table = new_table(game, options, name=args.name or "", code_needed=not args.no_code,
                      room_code=args.code.strip().upper() if args.code else None, bots=bots, grace=args.grace,
                      record_path=path, clock=LAN_CLOCK_SECONDS if args.clock is None else args.clock)
    return table, path


def run_host(args: argparse.Namespace, games: Mapping[str, Game] | None = None) -> int:
    """``turpin host``: serve a table until Ctrl-C (or the end of the game and a last look)."""
    from net.record import record_in_use
    if args.resume and record_in_use(args.resume):  # said before its port is found taken ("pick another port")
        print(f"turpin: the record {args.resume} is in use: another turpin is serving its table",
              file=sys.stderr)
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
        with detached_output():  # output to a pipe nobody reads must not stop the table
            return asyncio.run(serve_headless(table, record_path, args))
    except KeyboardInterrupt:
        return 130
    except RecordError as error:  # its record is being written by another host (a second --resume)
        print(f"turpin: {error}", file=sys.stderr)
        return 2


async def serve_headless(table: Table, record_path: str, args: argparse.Namespace) -> int:
    settings = HostSettings(heartbeat=args.heartbeat, timeout=args.timeout, bot_delay=args.bot_delay,
                            max_spectators=args.max_spectators)
    served = ServedTable(table, settings)
    host = served.host
    ended = asyncio.Event()

    def tell(line: str) -> None:  # one console line per join, drop, return, bot, end
        print(line, flush=True)
        if table.over:
            ended.set()
    table.report_to(tell)
    if table.over:  # a record of a finished game: show it for the linger time, then close
        ended.set()
    port = args.port if args.port is not None else table.meta.get("port", DEFAULT_TABLE_PORT)
    interface, note = interface_to_serve(args.interface, table.meta)
    try:
        address, port = await served.start(interface, port)
    except ValueError as error:  # --interface names nothing here: the port is not the problem
        print(f"turpin: --interface: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"turpin: cannot serve on {served.address[0]} port {port}: {error.strerror or error}; "
              f"pick another with --port", file=sys.stderr)
        return 2
    stop = asyncio.Event()
    closed_for_good = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)
    try:
        _print_welcome(table, address, port, record_path)
        if note:
            print(note, flush=True)
        if table.over:  # said before the linger line, which alone reads as a table waiting for players
            print("This record's game is already over: the table shows its result, then closes.", flush=True)
        if lan_setting() == []:  # TURPIN_LAN=off: nothing of turpin's on the network but the table itself
            print("Not announced on the LAN (TURPIN_LAN=off): players join by address.", flush=True)
        elif not args.no_advertise:
            await served.advertise()
        lingering = [asyncio.ensure_future(_close_after_the_end(ended, args.linger, stop, closed_for_good))]

        def deal_again(shuffle: bool) -> None:
            """`again` (or `again new`): a new game for the same seats (or everyone in a new one), with a
            record of its own; the closing waits for its end."""
            path = default_record_path(args.name or table.game.id)  # named as the first game's record
            table.start_again(save=record_saver(str(path)), shuffle=shuffle)
            ended.clear()
            lingering[0].cancel()
            lingering[0] = asyncio.ensure_future(_close_after_the_end(ended, args.linger, stop, closed_for_good))
            print(f"A new game, {'new' if shuffle else 'same'} seats. Game record: {path}", flush=True)

        console = asyncio.ensure_future(_host_console(host, stop, closed_for_good, deal_again))
        await stop.wait()
        console.cancel()
        lingering[0].cancel()
    finally:
        # `quit` typed, or the end's linger over: closed for good, and its players' windows stop waiting.
        # A signal (Ctrl-C, a shutdown) may be followed by --resume: they wait for it to come back.
        await served.close(for_good=closed_for_good.is_set())
    print("The table is closed.")
    return 0


def interface_to_serve(given: str | None, meta: dict) -> tuple[str | None, str]:
    """Where to serve (``--interface``, else where the record says the table was served: a table kept to
    127.0.0.1 must not come back open to every network), and a note when a resumed record cannot say."""
    if given is not None:
        return given, ""
    if "port" in meta and "interface" not in meta:
        return None, ("This record (from an older turpin) does not say where the table was served: it is "
                      "served on every interface now; --interface chooses one.")
    return meta.get("interface"), ""


async def _close_after_the_end(ended: asyncio.Event, linger: float, stop: asyncio.Event,
                               closed_for_good: asyncio.Event) -> None:
    """Once the game is over, keep the table up ``linger`` seconds (players read the result), then close."""
    await ended.wait()
    when = f"{linger / 60:g} min" if linger >= 60 else f"{linger:g} s"
    print(f"The table closes by itself in {when} (--linger); players can read the result meanwhile.",
          flush=True)
    await asyncio.sleep(linger)
    closed_for_good.set()
    stop.set()


def seats_at_start(table: Table) -> str:
    """"1 and 2 for players, 3 a normal bot", not "1 player, 2 player"."""
    people = [str(seat + 1) for seat, info in enumerate(table.seats) if info.kind != "bot"]
    parts = []
    if people:
        parts.append(f"{' and '.join(people)} for a player" if len(people) == 1 else
                     f"{', '.join(people[:-1])} and {people[-1]} for players")
    parts += [f"{seat + 1} a {info.bot} bot" for seat, info in enumerate(table.seats) if info.kind == "bot"]
    return ", ".join(parts)


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
    print(f"Seats: {seats_at_start(table)}")
    print(clock_in_words(table.turn_clock.seconds))
    print(f"Game record: {record_path}   (after a crash: turpin host --headless --resume "
          f"{shlex.quote(str(record_path))})")
    print("Type `seats` to list the seats, `bot N` to hand seat N to a bot, `again` for a new game once "
          "this one is over (`again new` in new seats), `quit` to stop.", flush=True)


async def _host_console(host: TableHost, stop: asyncio.Event, closed_for_good: asyncio.Event,
                        deal_again: Callable[[bool], None]) -> None:
    """The headless host's few commands, read from stdin if there is one."""
    reader = await stdin_reader()
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
            closed_for_good.set()
            stop.set()
            return
        if words[0] == "seats":
            for seat in table.seating.public():
                print(f"  seat {seat['seat'] + 1}: {seat['kind']} {seat['name']} "
                      f"{'connected' if seat['connected'] else 'away'}", flush=True)
        elif words[0] == "bot" and len(words) == 2 and words[1].isdigit():
            seat = int(words[1]) - 1
            kind = table.seats[seat].kind if 0 <= seat < len(table.seats) else None
            if kind in ("open", "player"):
                table.hand_to_bot(seat, why="is taken by a bot" if kind == "open"
                                  else "was handed to a bot by the host")  # the table's line says so
            elif kind is None:
                print(f"  there is no seat {words[1]}: the seats are 1 to {len(table.seats)}", flush=True)
            else:
                print(f"  seat {words[1]} is a bot's already", flush=True)
        elif words[0] == "again" and words[1:] in ([], ["new"]):
            if table.over:
                deal_again(shuffle=words[1:] == ["new"])
            else:
                print("  the game is still on: `again` deals a new one once it is over", flush=True)
        else:
            print("  commands: seats, bot N, again (a new game once this one is over; `again new`: in new "
                  "seats), quit", flush=True)


def host_main(argv: Sequence[str], games: Mapping[str, Game]) -> int:
    """``turpin host`` with a given set of games (tests host their own toy game this way)."""
    parser = argparse.ArgumentParser(prog="turpin host")
    add_host_arguments(parser, games)
    return run_host(parser.parse_args(argv), games)
