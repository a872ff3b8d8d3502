"""``turpin``: the entry point. Alone (or with only the app's own options) it opens the app at once,
without loading the commands it will not need; any command goes to ``tui/commands.py``."""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from typing import Any, Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    menu_only = argparse.ArgumentParser(add_help=False)
    app_arguments(menu_only)
    known, rest = menu_only.parse_known_args(args)
    if not rest:
        try:
            return run_app_menu(known)
        except KeyboardInterrupt:
            return 130
    from tui.commands import run_command
    try:
        return run_command(args)
    except BrokenPipeError:
        # ``turpin watch | head``: the reader has had enough. Say nothing more, and no traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def app_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of the app itself, given before any command: ``turpin --name Ann play``."""
    parser.add_argument("--name", dest="player_name", default=None,
                        help="your name at the table (default: your login name)")
    parser.add_argument("--ascii", action="store_true", help="draw with plain ASCII only")
    parser.add_argument("--no-bell", action="store_true", help="no terminal bell when it is your move")
    parser.add_argument("--version", action="version", version=f"turpin {_version()}")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("turpin")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed)"


#: Seconds a thread may hold the interpreter while another waits for it. The bots of a table played here
#: think in worker threads, and the app's thread waits up to this long each time it wants the interpreter
#: back, which a key press does many times: at Python's 5 ms a key took 21 ms to show with one bot
#: thinking and 30 ms with two; at 2 ms, 11 and 19 ms (5 ms with none).
UI_SWITCH_INTERVAL = 0.002


def run_app(args: argparse.Namespace, start: Any) -> int:
    from tui import collector
    collector.startup.hold()  # until the first screen is painted (TurpinApp.on_mount)
    from tui.app import TurpinApp  # Textual only when the app is wanted
    from tui.glyphs import choose_glyphs
    app = TurpinApp(start, player_name=args.player_name or _login_name(), glyphs=choose_glyphs(args.ascii),
                    bell=not args.no_bell, lan_interfaces=lan_setting(),
                    guest=os.environ.get("TURPIN_GUEST", "") in ("ssh", "web"))  # net.ssh.GUEST_VARIABLE
    sys.setswitchinterval(UI_SWITCH_INTERVAL)
    app.run()
    return app.return_code or 0


def lan_setting() -> list[str] | None:
    """``TURPIN_LAN``: unset browses every interface; ``off`` none; otherwise a comma list of addresses."""
    value = os.environ.get("TURPIN_LAN", "").strip()
    if not value:
        return None
    if value.lower() in ("off", "no", "0", "none"):
        return []
    return [part.strip() for part in value.split(",") if part.strip()]


def _login_name() -> str:
    try:
        return getpass.getuser()[:40]
    except Exception:
        return ""


def run_app_menu(args: argparse.Namespace) -> int:
    """``turpin`` alone: the menu, or (``TURPIN_JOIN=HOST:PORT``, set by an SSH or web door) that table,
    or (``TURPIN_SPECTATE=HOST:PORT``, set by a web door) that table watched."""
    from tui.app import Start
    watched = os.environ.get("TURPIN_SPECTATE", "").strip()  # a web door for a wall screen
    if watched:
        return run_app(args, Start(route="spectate", address=watched))
    table = os.environ.get("TURPIN_JOIN", "").strip()
    if table:
        # The host's own SSH door gives its table's room code too: a guest through it has typed the
        # password the host gave out, and was met with "this table needs a room code" (QA)
        code = os.environ.get("TURPIN_JOIN_CODE", "").strip() or None
        return run_app(args, Start(route="join", address=table, code=code))
    return run_app(args, Start())


if __name__ == "__main__":
    sys.exit(main())
