"""A hostile file: a record (``turpin review``, ``verify``, ``host --resume``) or a saved check
(``turpin verify``) may be crafted. Each is decoded with limits (a file of empty maps is refused before it
costs more than its limits), and every wrong type is refused in one line naming the field, never a
traceback. The fuzzing below changes one part of a real file at a time to a value of another type."""

from __future__ import annotations

import asyncio
import copy
import random
import tracemalloc
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.engine import pack
from core.registry import get_game
from net.fairness import FairnessError
from net.protocol import PROTOCOL_VERSION
from net.record import RecordError, read_record, write_record
from net.table import pipeline
from net.table.table import Table
from net.untrusted import FILE_ITEMS, decode_file
from tests.net_helpers import client, close_all, hosting, play_one_bot, play_randomly
from tui.cli.review import reviewed
from tui.cli.verify import verdict_of

GAME = "money-or-life"  # the shortest game: a whole one is quick to replay many times


def finished_table(seed: int) -> Table:
    game = get_game(GAME)
    table = Table(game, {"players": 2}, name="The Bell", bots={1: "easy"}, seed=seed)
    table.join(lambda frame: None, {"protocol": PROTOCOL_VERSION, "role": "player", "name": "Ann"})
    rng = random.Random(seed)
    while pending := game.pending(table.state):
        seat = pending[0]
        if table.seats[seat].kind == "bot":
            play_one_bot(table)
        else:
            pipeline.apply(table, seat, rng.choice(game.legal_actions(table.state, seat)))
    return table


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return finished_table(11).record()


async def _evidence() -> Any:
    table = Table(get_game(GAME), {"players": 2}, name="The Bell", bots={1: "easy"})
    async with hosting(table) as host:
        ann = client(host, name="Ann")
        await ann.start()
        await play_randomly(ann, random.Random(2))
        await ann.wait_for(lambda snap: snap.fair is not None, 60)
        await close_all(ann)
    assert ann.snapshot.fair.status == "verified"
    return ann.evidence


@pytest.fixture(scope="module")
def saved_check() -> dict[str, Any]:
    return asyncio.run(_evidence()).to_file(GAME)


def one_line(error: Exception) -> str:
    text = str(error)
    assert text and "\n" not in text and "Traceback" not in text
    return text


# ------------------------------------------------------------------------------------- crafted files


def test_a_file_of_empty_maps_is_refused_within_its_limits(tmp_path):
    """Six million empty maps in 6 MB: decoded whole they would take over 400 MB."""
    crafted = b"\xdc\x00\x3c" + (b"\xdd" + (100_000).to_bytes(4, "big") + b"\x80" * 100_000) * 60
    path = tmp_path / "maps.turpin-record"
    path.write_bytes(crafted)
    tracemalloc.start()
    try:
        with pytest.raises(RecordError) as refused:
            read_record(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "is not a turpin game record" in one_line(refused.value)
    assert peak < 200 * FILE_ITEMS  # about 64 bytes an item the budget lets through, and some room


@pytest.mark.parametrize("crafted, why", [
    (b"\xdd" + (200_000).to_bytes(4, "big") + b"\xc0" * 200_000, "an array too long"),
    (b"\xdb" + (100_000).to_bytes(4, "big") + b"a" * 100_000, "a string too long"),
    (b"\xc7\x01\x05a", "an extension type"),
    (b"\x81\x01\x02", "a map with a number for a key"),
    (b"\x80\x80", "two objects"),
])
def test_the_bounded_decoder_refuses(crafted, why):
    with pytest.raises(ValueError):
        decode_file(crafted)


def test_a_record_whose_match_mixes_types_is_refused_naming_the_field(tmp_path, record):
    crafted = {**record, "match": {"people": [0, "one"], "games": []}}
    path = tmp_path / "mixed.turpin-record"
    write_record(path, crafted)
    with pytest.raises(RecordError) as refused:
        read_record(path)  # what review, verify and host --resume read a record with
    assert "'match'" in one_line(refused.value) and "'people'" in str(refused.value)


def test_a_saved_check_whose_record_seats_are_a_number_is_refused_naming_the_field(tmp_path, saved_check):
    crafted = copy.deepcopy(saved_check)
    crafted["frames"][-1]["record"]["seats"] = 2
    path = tmp_path / "seats.turpin-check"
    path.write_bytes(pack(crafted))
    with pytest.raises(FairnessError) as refused:
        verdict_of(str(path))
    assert f"its frame {len(crafted['frames'])} is damaged" in one_line(refused.value)
    assert "'seats' has the wrong type" in str(refused.value)


@pytest.mark.parametrize("action", [{"bid": "all"}, {"no": ["such", "move"]}, {}, {"type": None}])
def test_review_refuses_a_record_with_a_malformed_move_naming_it(tmp_path, record, action):
    crafted = {**record, "actions": [list(record["actions"][0]), [record["actions"][1][0], action],
                                     *record["actions"][2:]]}
    path = tmp_path / "moves.turpin-record"
    write_record(path, crafted)
    with pytest.raises(RecordError) as refused:
        reviewed(str(path))
    assert "the record's action 2" in one_line(refused.value)


def test_review_refuses_a_record_longer_than_its_game(tmp_path, record):
    """A record is as long as its game: moves after the end are refused, not reviewed."""
    crafted = {**record, "actions": record["actions"] + record["actions"][-3:] * 1000}
    path = tmp_path / "long.turpin-record"
    write_record(path, crafted)
    with pytest.raises(RecordError) as refused:
        reviewed(str(path))
    assert f"the record's action {len(record['actions']) + 1} is out of turn" in one_line(refused.value)


# -------------------------------------------------------------------------------------------- fuzzing

#: Values of every type a msgpack file can carry.
ANY_VALUE = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**64 - 1), st.floats(allow_nan=True),
                      st.text(max_size=50), st.binary(max_size=40),
                      st.lists(st.integers(-3, 3), max_size=4),
                      st.dictionaries(st.text(max_size=5), st.integers(-3, 3), max_size=3))


def paths(value: Any, here: tuple = ()) -> list[tuple]:
    """Every place in ``value`` (map keys and list indices from the top)."""
    found = [here] if here else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*here, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:6]):  # the first few of each list are enough to reach every kind
            found += paths(item, (*here, index))
    return found


def replaced(value: Any, path: tuple, new: Any) -> Any:
    crafted = copy.deepcopy(value)
    inside = crafted
    for step in path[:-1]:
        inside = inside[step]
    inside[path[-1]] = new
    return crafted


def different_type(old: Any, new: Any) -> bool:
    return type(old) is not type(new)


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(data=st.data())
def test_a_record_with_any_part_of_another_type_is_refused_in_one_line_or_read(tmp_path, record, data):
    path = data.draw(st.sampled_from(paths(record)))
    new = data.draw(ANY_VALUE.filter(lambda value: different_type(_at(record, path), value)))
    file = tmp_path / "fuzzed.turpin-record"
    file.write_bytes(msgpack.packb(replaced(record, path, new), use_bin_type=True))
    for reader in (read_record, lambda p: Table.from_record(get_game(GAME), read_record(p)),
                   lambda p: verdict_of(str(p)), lambda p: reviewed(str(p))):
        try:
            reader(file)
        except (RecordError, FairnessError) as error:
            one_line(error)


@FUZZ
@given(data=st.data())
def test_a_saved_check_with_any_part_of_another_type_is_refused_in_one_line_or_checked(tmp_path, saved_check,
                                                                                       data):
    path = data.draw(st.sampled_from(paths(saved_check)))
    new = data.draw(ANY_VALUE.filter(lambda value: different_type(_at(saved_check, path), value)))
    file = tmp_path / "fuzzed.turpin-check"
    file.write_bytes(pack(replaced(saved_check, path, new)))
    try:
        title, verdict = verdict_of(str(file))
    except FairnessError as error:
        one_line(error)
    else:
        assert verdict.words.isprintable()


def _at(value: Any, path: tuple) -> Any:
    for step in path:
        value = value[step]
    return value


def test_the_fuzzed_files_are_real_games(record, saved_check, tmp_path):
    """The files the fuzzing starts from are read and checked as they are."""
    path = Path(tmp_path / "real.turpin-record")
    write_record(path, record)
    assert read_record(path)["actions"] == record["actions"]
    check = tmp_path / "real.turpin-check"
    check.write_bytes(pack(saved_check))
    assert verdict_of(str(check))[1].status == "verified"
