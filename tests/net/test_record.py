"""The record is an append-only log — one synced entry per action, a torn tail ignored,
format-1 records still resumable."""

from __future__ import annotations

import os

import msgpack
import pytest

from net import protocol
from net.record import MAGIC, RecordError, RecordLog, log_bytes, read_record
from net.table import pipeline
from net.table.table import Table
from tests.net_helpers import TOY

HELLO = {"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "role": "player"}


def _table_with_players(path, seed=5):
    table = Table(TOY, {"players": 2}, seed=seed, save=RecordLog(path))
    players = [table.join(lambda frame: None, dict(HELLO)) for _ in range(2)]
    return table, players


def _play(table, players, count):
    for _ in range(count):
        seat = TOY.pending(table.state)[0]
        pipeline.act(table, players[seat], table.prompts[seat].legal[0], table.prompts[seat].id)


def test_each_action_appends_one_entry_with_one_sync_and_never_rewrites(tmp_path, monkeypatch):
    """After the first write, an action costs one append and one fdatasync; what was written stays as it
    was (the file only grows), and no file is replaced."""
    path = tmp_path / "game.record"
    table, players = _table_with_players(path)
    syncs, replaced = [], []
    real_sync = os.fdatasync
    monkeypatch.setattr(os, "fdatasync", lambda fd: (syncs.append(fd), real_sync(fd)))
    monkeypatch.setattr(os, "replace", lambda *args: replaced.append(args))
    before = path.read_bytes()
    assert before.startswith(MAGIC)
    for turn in range(1, 5):
        _play(table, players, 1)
        now = path.read_bytes()
        assert now.startswith(before) and len(now) > len(before)
        assert len(syncs) == turn, "one sync per action"
        before = now
    assert replaced == []
    saved = read_record(path)
    assert saved["actions"] == table.actions and saved["seats"] == table.record()["seats"]


def test_no_table_update_goes_out_before_its_record_entry_is_on_disk(tmp_path, monkeypatch):
    """An entry never synced was never broadcast. With a slow disk, every watcher's update
    for an action is sent only after that action's ``fdatasync`` has returned."""
    import time as clock
    path = tmp_path / "game.record"
    table = Table(TOY, {"players": 2}, seed=5, save=RecordLog(path))
    real_sync = os.fdatasync
    on_disk = {"actions": 0}
    sent_too_soon: list[int] = []

    def slow_sync(fd):
        clock.sleep(0.05)  # a slow disk
        real_sync(fd)
        on_disk["actions"] = len(read_record(path)["actions"])

    def watcher_send(frame):
        message = protocol.decode_body(frame[4:])
        if message["type"] == "table" and message["turn"] > on_disk["actions"]:
            sent_too_soon.append(message["turn"])

    players = [table.join(watcher_send, dict(HELLO)) for _ in range(2)]
    table.join(watcher_send, {**HELLO, "role": "spectator"})
    on_disk["actions"] = len(read_record(path)["actions"])
    monkeypatch.setattr(os, "fdatasync", slow_sync)
    _play(table, players, 3)
    assert table.turn == 3 and on_disk["actions"] == 3
    assert sent_too_soon == [], "a table update went out before its record entry was on disk"


def test_a_torn_tail_is_ignored_and_the_table_resumes_from_the_last_whole_entry(tmp_path):
    """A crash in the middle of an entry leaves a torn tail: reading stops before it, the resumed table
    has every whole action, and its first save leaves a clean log to append to."""
    path = tmp_path / "game.record"
    table, players = _table_with_players(path)
    _play(table, players, 3)
    table.save.close()  # the crashed host is gone, and its hold on the file with it
    whole = path.read_bytes()
    for torn in (whole + b"\x00\x00\x01", whole + b"\x00\x00\x00\x40\x12\x34\x56\x78" + b"\x81" * 10,
                 whole + bytes(4096)):
        path.write_bytes(torn)
        saved = read_record(path)
        assert saved["actions"] == table.actions
    resumed = Table.from_record(TOY, saved, save=RecordLog(path))
    assert resumed.state == table.state
    resumed.save(resumed.record())
    # The torn tail is gone: the file is the whole record again, and the next entry goes after it.
    assert path.read_bytes() == log_bytes(resumed.record())
    resumed.seats[1].name = "Bess"
    resumed.save(resumed.record())
    assert read_record(path)["seats"][1]["name"] == "Bess" and read_record(path)["actions"] == table.actions


def test_a_format_one_record_is_still_resumed_and_goes_on_as_a_log(tmp_path):
    """A record written whole by an older turpin (one msgpack map) is read and resumed; the resumed host
    writes the log format from then on, and nothing is lost."""
    path = tmp_path / "old.record"
    table, players = _table_with_players(tmp_path / "new.record")
    _play(table, players, 2)
    path.write_bytes(msgpack.packb(table.record(), use_bin_type=True))
    saved = read_record(path)
    assert saved["actions"] == table.actions and saved["seed"] == table.seed
    resumed = Table.from_record(TOY, saved, save=RecordLog(path))
    resumed.save(resumed.record())
    assert path.read_bytes().startswith(MAGIC)
    assert read_record(path)["actions"] == table.actions


def test_a_log_with_a_damaged_header_is_refused_in_words(tmp_path):
    path = tmp_path / "bad.record"
    path.write_bytes(MAGIC + b"\x00\x00\x00\x05\x00\x00\x00\x00hello")
    with pytest.raises(Exception, match="not a turpin game record"):
        read_record(path)


def test_a_record_being_written_is_not_taken_by_a_second_table(tmp_path):
    """Two tables writing one record would tear it (the menu's "go on" in a second window, or a second
    --resume): the writer holds the file, a second one is refused in words until the first lets go."""
    from net.record import record_in_use
    path = tmp_path / "game.record"
    table, players = _table_with_players(path)
    _play(table, players, 2)
    assert record_in_use(path)
    second = Table.from_record(TOY, read_record(path), save=RecordLog(path))
    with pytest.raises(RecordError, match="in use"):
        second.save(second.record())
    table.save.close()
    assert not record_in_use(path)
    second.save(second.record())
    assert record_in_use(path) and read_record(path)["actions"] == table.actions
    second.save.close()
