"""A game played at someone else's table is the player's too. His saved check (every frame he
was sent and, at the end, the reveal with the record, A2) is listed in Replays, replays from his seat's
view, and ``turpin review`` reads it."""

from __future__ import annotations

import random

import pytest

from core.registry import get_game
from core.review import Effort
from net.fairness import CHECK_SUFFIX, write_evidence
from net.record import RecordError
from net.table.table import Table
from tests.net_helpers import WAIT, client, hosting, play_randomly
from tui.cli.review import reviewed
from tui.replay import Replay, list_records, read_game


async def _saved_check(folder) -> tuple[str, Table]:
    """Ann plays a whole game of Dick Turpin at a host's table against a bot; her check is saved."""
    table = Table(get_game("turpin"), {"players": 2}, bots={1: "random"})
    async with hosting(table) as host:
        ann = client(host, name="Ann")
        await ann.start()
        await play_randomly(ann, random.Random(4))
        await ann.wait_for(lambda snap: snap.fair is not None, WAIT)
        path = folder / f"Anns game{CHECK_SUFFIX}"
        write_evidence(path, "turpin", ann.evidence)
        await ann.close()
    return str(path), table


async def test_a_saved_check_is_listed_replayed_from_the_players_seat_and_reviewed(tmp_path):
    path, table = await _saved_check(tmp_path)
    listed = list_records(tmp_path)
    assert [entry.path.name for entry in listed] == [f"Anns game{CHECK_SUFFIX}"]
    assert listed[0].players[0] == "Ann" and listed[0].actions == len(table.actions)
    replay = Replay(path)
    assert replay.seat == 0 and replay.finished
    assert replay.table_at(replay.steps).state == table.state  # the same game, move for move
    record, review = reviewed(path, Effort(samples=2, candidates=2, marks=1))
    assert record["actions"] == table.actions and review is not None


def test_a_saved_check_without_its_end_says_so(tmp_path):
    from net.fairness import Evidence
    path = tmp_path / f"cut{CHECK_SUFFIX}"
    unfinished = Evidence(0)
    unfinished.keep({"turn": 0, "result": None})
    write_evidence(path, "turpin", unfinished)
    with pytest.raises(RecordError, match="no finished game"):
        read_game(path)
