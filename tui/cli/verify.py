"""``turpin verify FILE``: check a game's fair deal (the seed every seat shared in) from a host's record
or a player's saved game.

Exit status: 0 verified, 1 a mismatch (what did not match is printed), 2 a file that is neither, 3 no fair
deal to check (the host chose the seed, or the game never ended).
"""

from __future__ import annotations

import argparse
import sys

from core.engine import Game
from core.registry import get_game
from net.fairness import CHECK_SUFFIX, NOT_AVAILABLE, FairDeal, FairnessError, Verdict, read_evidence, verify
from net.protocol import ProtocolError, validate_host_message
from net.record import RecordError, read_record
from net.table.table import Table
from tui.cli.arguments import one_line_errors

EXIT_CODES = {"verified": 0, "mismatch": 1, NOT_AVAILABLE: 3}


def add_verify_command(subparsers: argparse._SubParsersAction) -> None:
    """Add ``turpin verify FILE`` to the CLI."""
    parser = subparsers.add_parser(
        "verify", help="check a game's fair deal from a record or a saved game",
        description="Check that nobody chose a game's cards and dice: from a player's saved game "
                    f"(*{CHECK_SUFFIX}, kept after every game at someone else's table) the commitment, the "
                    "seed and every frame the player was sent are checked against a replay; from a host's "
                    "record, its seed and its moves. Exit status 0 verified, 1 a mismatch, 2 a bad file, "
                    "3 nothing to check.")
    parser.add_argument("file", metavar="FILE", help=f"a saved game (*{CHECK_SUFFIX}) or a game record")
    parser.set_defaults(handler=run_verify)
    one_line_errors(parser)


def verdict_of(path: str) -> tuple[str, Verdict]:
    """The game's title and the verdict on the file at ``path``; ``FairnessError`` for a file that is
    neither a saved game nor a record."""
    if path.endswith(CHECK_SUFFIX):
        game_id, evidence = read_evidence(path)
        for number, frame in enumerate(evidence.frames(), start=1):  # as a client checks them off the wire
            try:
                validate_host_message(frame)
            except ProtocolError as error:
                raise FairnessError(f"{path}: its frame {number} is damaged: {error.message}") from None
        game = _game(game_id)
        return game.title, verify(game, evidence)
    try:
        record = read_record(path)
    except RecordError as error:
        raise FairnessError(str(error)) from None
    game = _game(record["game"])
    return game.title, host_record_verdict(game, record)


def host_record_verdict(game: Game, record: dict) -> Verdict:
    """A host's own record (it holds the secret's root: checked by its host, or whoever he gives it to):
    rebuilt as a resumed host rebuilds it, which checks every move against the rules and the seed
    against the fair deal's secret and nonces."""
    deal = FairDeal.from_record(record.get("fair"), len(record["seats"]))
    if deal is None:
        return Verdict(NOT_AVAILABLE, ["the host chose the seed"])
    if not deal.dealt:
        return Verdict(NOT_AVAILABLE, ["the table never filled, so nothing was dealt"])
    try:
        table = Table.from_record(game, record)
    except RecordError as error:
        return Verdict("mismatch", [str(error)])
    if not table.over:
        return Verdict(NOT_AVAILABLE, ["the record stops before the end of its game"])
    problems = deal.shares_problems()
    notes = [f"seat {seat + 1} did not give its share in time" for seat, replaced in enumerate(deal.replaced)
             if replaced]
    return Verdict("mismatch" if problems else "verified", problems, deal.version, notes)


def _game(game_id: str):
    try:
        return get_game(game_id)
    except KeyError:
        raise FairnessError(f"the file is of a game this turpin does not have ({game_id[:40]!r})") from None


def run_verify(args: argparse.Namespace) -> int:
    try:
        title, verdict = verdict_of(args.file)
    except FairnessError as error:
        print(f"turpin: {error}", file=sys.stderr)
        return 2
    print(f"{title}: {verdict.words}")
    for problem in verdict.problems[3:] if verdict.status == "mismatch" else []:
        print(f"  also: {problem}")
    return EXIT_CODES[verdict.status]
