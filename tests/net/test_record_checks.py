"""A record is checked whole on ``--resume``: every field's type and range, names through
the printable filter a player's name goes through. A bad record is refused in one line naming the field,
before anything is served; a record carrying seat marks in a person's name comes back without them."""

from __future__ import annotations

import argparse
import copy
import random

import pytest

from core.registry import all_games
from net.protocol import PROTOCOL_VERSION
from net.record import RecordError, read_record, write_record
from net.table import pipeline
from net.table.table import Table
from tests.net_helpers import play_one_bot
from tui.cli.host import add_host_command, build_table

GAME = all_games()["turpin"]


def _fair_record() -> dict:
    table = Table(GAME, {"players": 3}, name="The Bell", code="ABC234", bots={2: "normal"}, seed=11, grace=30.0,
                  meta={"port": 4707, "interface": "127.0.0.1"})
    table.join(lambda frame: None, {"protocol": PROTOCOL_VERSION, "role": "player", "name": "Ann"})
    table.join(lambda frame: None, {"protocol": PROTOCOL_VERSION, "role": "player", "name": "Bob"})
    rng = random.Random(3)
    for _ in range(6):
        seat = next(iter(GAME.pending(table.state)))
        if table.seats[seat].kind == "bot":
            play_one_bot(table)
        else:
            pipeline.apply(table, seat, rng.choice(GAME.legal_actions(table.state, seat)))
    return table.record()


def _resume(path, capsys) -> tuple[int, list[str]]:
    parser = argparse.ArgumentParser(prog="turpin")
    add_host_command(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["host", "--headless", "--resume", str(path), "--port", "0",
                              "--interface", "127.0.0.1", "--no-advertise"])
    capsys.readouterr()
    status = args.handler(args)
    return status, capsys.readouterr().err.splitlines()


def _seat(field, value):
    return lambda record: record["seats"][1].__setitem__(field, value)


def _top(field, value):
    return lambda record: record.__setitem__(field, value)


BAD_FIELDS = [
    ("a seat name that is a number", _seat("name", 12345), "seat 2 name is not text"),
    ("a seat name with escapes", _seat("name", "\x1b]0;pwned\x07Bob"), "seat 2 name holds characters"),
    ("a seat name with a bidi override", _seat("name", "Bob\u202e"), "seat 2 name holds characters"),
    ("a seat name too long", _seat("name", "B" * 41), "seat 2 name is not 1 to 40"),
    ("a seat of no known kind", _seat("kind", "ghost"), "seat 2 is damaged"),
    ("a seat token that is a number", _seat("token", 7), "seat 2 token is not text"),
    ("an away name with escapes", _seat("away_name", "\x9bBob"), "seat 2 away_name holds characters"),
    ("a bot with no level", lambda record: record["seats"][2].__setitem__("bot", None), "seat 3 is a bot with no"),
    ("meta as a list", _top("meta", [1, 2]), "'meta' is not a map"),
    ("a port out of range", _top("meta", {"port": 70000}), "'meta' port is not a port"),
    ("a room code that is a number", _top("code", 42), "'code' is not text"),
    ("a grace in words", _top("grace", "soon"), "'grace' is not a number of seconds"),
    ("a negative grace", _top("grace", -1), "'grace' is not a number of seconds"),
    ("an endless grace", _top("grace", float("inf")), "'grace' is not a number of seconds"),
    ("a table name with escapes", _top("table", "\x1b[2JInn"), "'table' (its name) holds characters"),
    ("a table name that is a list", _top("table", ["Inn"]), "no valid 'table'"),
    ("a host token that is a map", _top("host_token", {}), "'host_token' is not text"),
    ("a seed that is text", _top("seed", "11"), "no valid 'seed'"),
    ("a seed of true", _top("seed", True), "no valid 'seed'"),
    ("options the game refuses", _top("options", {"players": 99}), "'options' cannot be played"),
    ("an action of a seat past the table", lambda record: record["actions"].__setitem__(0, [9, {}]),
     "action log is damaged at action 1"),
    ("an action that is not a move", lambda record: record["actions"].__setitem__(1, [record["actions"][1][0],
                                                                                      {"bogus": [1, 2]}]),
     "action 2 is not one the rules allow"),
    ("no seats", _top("seats", []), "'seats' has no seats"),
    # sorting [0, "one"] raised TypeError before the types were looked at
    ("a match whose people mix types", _top("match", {"people": [0, "one", 2], "games": []}),
     "'match' (the games before this one at its table) 'people' is not an order"),
    ("a match whose people are maps", _top("match", {"people": [{}, {}, {}], "games": []}), "'people' is not"),
]


@pytest.mark.parametrize("spoil, said", [case[1:] for case in BAD_FIELDS], ids=[case[0] for case in BAD_FIELDS])
def test_a_record_with_a_bad_field_is_refused_in_one_line_naming_it(tmp_path, capsys, spoil, said):
    record = _fair_record()
    spoil(record)
    path = tmp_path / "bad.turpin-record"
    write_record(path, record)
    status, lines = _resume(path, capsys)
    assert status == 2
    assert len(lines) == 1 and lines[0].startswith("turpin: ") and said in lines[0], lines
    assert lines[0].isprintable()


def test_the_fair_record_those_are_spoilt_from_resumes(tmp_path):
    path = tmp_path / "fair.turpin-record"
    write_record(path, _fair_record())
    args = argparse.Namespace(resume=str(path), grace=None, clock=None)
    table, _ = build_table(args, all_games())
    assert [seat.name for seat in table.seats][:2] == ["Ann", "Bob"] and table.turn == 6
    assert table.meta["port"] == 4707 and table.grace == 30.0 and table.code == "ABC234"


def test_a_persons_name_in_a_record_comes_back_without_the_marks_of_a_bot_or_of_you(tmp_path):
    record = _fair_record()
    record["seats"][0]["name"], record["seats"][1]["name"] = "Claude Duval ⚙ normal", "Ann (you)"
    path = tmp_path / "marks.turpin-record"
    write_record(path, record)
    table = Table.from_record(GAME, read_record(path))
    assert [seat.name for seat in table.seats][:2] == ["Claude Duval normal", "Ann"]


def test_check_record_is_the_one_gate_of_every_reader():
    record = _fair_record()
    spoilt = copy.deepcopy(record)
    spoilt["seats"][0]["name"] = 12345
    with pytest.raises(RecordError, match="seat 1 name is not text"):
        Table.from_record(GAME, spoilt)
