"""The checks of ``turpin``'s arguments, each saying in one line what is wrong: ports, numbers, seconds,
names, codes and table addresses; and the options every front door shares."""

from __future__ import annotations

import argparse

from core.engine import OptionError
from net.addresses import parse_address

#: Seconds a headless table stays up after its game (``--linger``).
LINGER_DEFAULT = 300.0


def one_line_errors(parser: argparse.ArgumentParser) -> None:
    """A bad argument is said in one line (what is wrong, where to read more), not the whole usage."""
    def error(message: str) -> None:
        parser.exit(2, f"{parser.prog}: {message} (see {parser.prog} --help)\n")
    parser.error = error  # type: ignore[method-assign]


def whole_number(what: str, low: int) -> "argparse._ActionType":
    def check(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} is a whole number, not {text!r}") from None
        if number < low:
            raise argparse.ArgumentTypeError(f"{what} is {low} or more, not {number}")
        return number
    return check


def port_number(text: str) -> int:
    """``--port``: 0 (any free port) to 65535."""
    number = whole_number("a port", 0)(text)
    if number > 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {text}")
    return number


def seconds(what: str, allow_zero: bool = True) -> "argparse._ActionType":
    def check(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} is a number of seconds, not {text!r}") from None
        if not value == value or value in (float("inf"), float("-inf")) or value < 0 or (value == 0 and not allow_zero):
            raise argparse.ArgumentTypeError(f"{what} is a number of seconds {'from 0' if allow_zero else 'above 0'}"
                                             f", not {text}")
        return value
    return check


def listening_time(text: str) -> float:
    """``--seconds``: more than 0 and at most an hour."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--seconds is a number of seconds, not {text!r}") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"--seconds is more than 0 and at most 3600, not {text}")
    return value


def text_argument(what: str, longest: int) -> "argparse._ActionType":
    def check(text: str) -> str:
        if not text.strip() or len(text) > longest or not text.isprintable():
            raise argparse.ArgumentTypeError(f"{what} is 1 to {longest} printable characters")
        return text
    return check


def player_name(text: str) -> str:
    """``join --name``: what the host accepts (1 to 40 printable characters), or an error now rather than
    a table that refuses the hello."""
    from net.untrusted import name_problem
    problem = name_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return text


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


def table_address(text: str) -> str:
    """The join command's ``HOST:PORT``, checked now and kept as typed (the table window parses it too)."""
    try:
        parse_address(text)
    except OptionError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def door_arguments(parser: argparse.ArgumentParser, default_port: int, sessions: str) -> None:
    """The options every front door (SSH, web) shares: where it listens, how many ``sessions`` (the
    door's word for them) at once, their idle time, and the one table they may all open at."""
    parser.add_argument("--port", type=int, default=None, help=f"TCP port (default {default_port}; 0 = any)")
    parser.add_argument("--interface", help="IPv4 address or interface name to serve on (default: all)")
    parser.add_argument("--max-sessions", type=int, default=20, metavar="N",
                        help=f"{sessions} at once; the next is politely refused (default %(default)s)")
    parser.add_argument("--idle-timeout", type=float, default=30 * 60.0, metavar="SECONDS",
                        help=f"end one of the {sessions} after this long with no key pressed and nothing new on "
                             "its screen (default %(default)g; 0 = never)")
    parser.add_argument("--join", metavar="HOST:PORT",
                        help=f"open all {sessions} straight at this table instead of the main menu")
    parser.add_argument("--no-warm-pool", action="store_true",
                        help=f"start each of the {sessions} as a fresh Python instead of forking it from an app "
                             "loaded once at start (slower to open and more memory each; for comparison)")
