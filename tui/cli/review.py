"""``turpin review FILE``: print the review of a game record, each seat's costliest decisions."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from core.engine import IllegalAction, OptionError
from core.registry import get_game
from core.review import Effort, Review, review_lines, review_record
from net.record import RecordError
from net.table.table import Table
from tui.cli.arguments import one_line_errors, whole_number
from tui.replay import bot_seats, read_game, seat_names


def add_review_command(subparsers: argparse._SubParsersAction) -> None:
    """Add ``turpin review FILE [--samples N]`` to the CLI."""
    parser = subparsers.add_parser(
        "review", help="print the review of a game record",
        description="Replay a game record and print, for each seat, the decisions that cost it most by the "
                    "hard bot's reckoning, with what it would have played.")
    parser.add_argument("file", metavar="FILE", help="a game record (.turpin-record)")
    parser.add_argument("--samples", type=whole_number("--samples", 1), default=Effort().samples,
                        help="guesses of the hidden cards per decision (default %(default)s)")
    parser.set_defaults(handler=run_review)
    one_line_errors(parser)


def reviewed(path: str, effort: Effort = Effort(), progress: Any = None) -> tuple[dict[str, Any], Review]:
    """The record at ``path`` and its review; ``RecordError`` for any file that is no game we can replay."""
    record = read_game(path)  # a record, or the game a saved check holds
    try:
        game = get_game(record["game"])
    except KeyError as error:
        raise RecordError(f"the record is of a game this turpin does not have ({error.args[0]})") from None
    Table.from_record(game, record)  # every move checked as a resumed host checks it, before any is scored
    try:
        state = game.setup(game.resolve_options(record["options"]), record["seed"])
        for seat, action in record["actions"]:  # every move checked first: a broken log is refused at once
            game.apply(state, seat, dict(action))
        return record, review_record(game, record, effort, progress)
    except OptionError as error:
        raise RecordError(f"the record's 'options' cannot be played: {error}") from None
    except IllegalAction as error:
        raise RecordError(f"the record's action log breaks the rules: {error}") from None


def progress_bar(stream: Any) -> Any:
    """Progress on ``stream`` as the app's bar shows it, "Reviewing…": redrawn in place on a terminal,
    otherwise a line at every tenth of the moves (a log stays short)."""
    shown: list[int] = []

    def progress(done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        line = f"Reviewing\u2026 [{'#' * filled}{'.' * (width - filled)}] {done}/{total} moves"
        if stream.isatty():
            stream.write("\r" + line + ("\n" if done == total else ""))
        elif done == total or 10 * done // max(total, 1) not in shown:
            shown.append(10 * done // max(total, 1))
            stream.write(line + "\n")
        stream.flush()

    return progress


def run_review(args: argparse.Namespace) -> int:
    effort = Effort(samples=args.samples)
    try:
        record, review = reviewed(args.file, effort, progress_bar(sys.stderr))
    except RecordError as error:
        print(f"turpin: {error}", file=sys.stderr)
        return 2
    game = get_game(record["game"])
    print(f"Review of {game.title} at {record['table'] or 'a table'} ({len(record['actions'])} moves)")
    if not review.finished:
        print("This record stops before the end of its game: the review covers its moves so far.")
    print()
    for line in review_lines(review, seat_names(record), bot_seats(record), effort):
        print(line)
    return 0
