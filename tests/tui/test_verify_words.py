"""``turpin verify`` speaks to people: no Python class names, and a damaged file (cut short, or
not turpin's) is told apart from a game that simply did not reach its end."""

from __future__ import annotations

import msgpack
import pytest

from core.registry import get_game
from net import protocol
from net.fairness import CHECK_SUFFIX, NOT_AVAILABLE, FairnessError
from net.table import pipeline
from net.table.table import Table
from tests.net_helpers import give_shares
from tui.cli.verify import verdict_of

HELLO = {"protocol": protocol.PROTOCOL_VERSION, "role": "player"}


def _half_played(moves: int = 4) -> Table:
    """A game some moves in and not over (the deal is random: a deal whose first robberies end the game
    is dealt again)."""
    game = get_game("money-or-life")
    for _ in range(50):
        table = Table(game, {"players": 1, "rounds": 5})
        table.join(lambda frame: None, dict(HELLO))
        give_shares(table)  # the fair deal: the player's share pledged and revealed
        for _ in range(moves):  # each time the first choice: a robbery, never retiring
            seat = game.pending(table.state)[0]
            pipeline.apply(table, seat, game.legal_actions(table.state, seat)[0])
            if table.over:
                break
        if not table.over:
            return table
    raise AssertionError("no deal of fifty lasted four moves")


def test_an_unfinished_record_is_not_called_damaged(tmp_path):
    path = tmp_path / "unfinished.turpin-record"
    path.write_bytes(msgpack.packb(_half_played().record(), use_bin_type=True))
    title, verdict = verdict_of(str(path))
    assert verdict.status == NOT_AVAILABLE and "stops before the end of its game" in verdict.words


@pytest.mark.parametrize("suffix", [".turpin-record", CHECK_SUFFIX])
def test_a_file_cut_short_is_called_damaged_in_words(tmp_path, suffix):
    whole = msgpack.packb(_half_played().record(), use_bin_type=True)
    path = tmp_path / f"cut{suffix}"
    path.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(FairnessError) as refused:
        verdict_of(str(path))
    words = str(refused.value)
    assert "damaged: it is cut short" in words
    assert not any(name in words for name in ("OutOfData", "ExtraData", "ValueError", "Error"))
    path.write_bytes(b"\x93garbage")
    with pytest.raises(FairnessError, match="damaged") as refused:
        verdict_of(str(path))
    assert "Error" not in str(refused.value) and "Data" not in str(refused.value)
