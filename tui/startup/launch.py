"""Opening the app: at the menu, or straight at a table (``Start``), with the app's own options (``--name``,
``--ascii``, ``--no-bell``), which the command line takes before any command."""

from __future__ import annotations

import argparse
import sys

from tui.startup import settings
from tui.startup.start import Start

#: Seconds a thread may hold the interpreter while another waits for it. The bots of a table played here
#: think in worker threads, and the app's thread waits up to this long each time it wants the interpreter
#: back, which a key press does many times: at Python's 5 ms a key took 21 ms to show with one bot
#: thinking and 30 ms with two; at 2 ms, 11 and 19 ms (5 ms with none).
UI_SWITCH_INTERVAL = 0.002


def app_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of the app itself, given before any command: ``turpin --name Ann play``."""
    parser.add_argument("--name", dest="player_name", default=None,
                        help="your name at the table (default: your login name)")
    parser.add_argument("--ascii", action="store_true", help="draw with plain ASCII only")
    parser.add_argument("--no-bell", action="store_true", help="no terminal bell when it is your move")
    parser.add_argument("--version", action=_SayVersion, help="say which turpin this is, and quit")


class _SayVersion(argparse.Action):
    """``--version``, looked up only when asked: reading the installed package's metadata imports
    ``importlib.metadata`` and the email parser and scans sys.path, 10 ms that every launch (and every
    guest forked by a door's warm pool) paid when argparse's own version action was handed the string."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest, default=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        print(f"turpin {_version()}")
        parser.exit()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("turpin")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed)"


def run_app(args: argparse.Namespace, start: Start) -> int:
    """Run the app until it quits, opening at ``start``; its return code."""
    from tui import collector
    collector.startup.hold()  # until the first screen is painted (TurpinApp.on_mount)
    from tui.app import TurpinApp  # Textual only when the app is wanted
    from tui.glyphs import choose_glyphs
    app = TurpinApp(start, player_name=args.player_name or settings.login_name(), glyphs=choose_glyphs(args.ascii),
                    bell=not args.no_bell, lan_interfaces=settings.lan_setting(), guest=settings.guest())
    sys.setswitchinterval(UI_SWITCH_INTERVAL)
    app.run()
    return app.return_code or 0


def run_app_menu(args: argparse.Namespace) -> int:
    """``turpin`` alone: the menu, or (``TURPIN_JOIN=HOST:PORT``, set by an SSH or web door) that table,
    with its room code: a guest through the door has passed its gate; or (``TURPIN_SPECTATE``, set by a web
    door for a wall screen) that table, watched."""
    watched = settings.table_to_watch()
    if watched is not None:
        extra = {"table_view": settings.table_view_wanted()}
        return run_app(args, Start(route="spectate", address=watched, extra=extra))
    table = settings.table_to_join()
    if table is not None:
        address, code = table
        return run_app(args, Start(route="join", address=address, code=code))
    return run_app(args, Start())
