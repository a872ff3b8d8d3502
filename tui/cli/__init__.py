"""``turpin``: the entry point, which parses and dispatches. Alone (or with only the app's own options) it
opens the app at once, without loading the commands it will not need; any command goes to
``tui/cli/commands.py``, which builds the parser from the subcommands' own modules in this folder."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from tui.startup.launch import app_arguments, run_app_menu


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
    from tui.cli.commands import run_command
    try:
        return run_command(args)
    except BrokenPipeError:
        # ``turpin watch | head``: the reader has had enough. Say nothing more, and no traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0

