"""The wire protocol: frames, decoding limits, message validation, the handshake and the record file."""

from __future__ import annotations

import asyncio
import os
import struct

import msgpack
import pytest

from net import protocol
from net.client import ClientError, TableClient
from net.protocol import (
    PROTOCOL_VERSION,
    ProtocolError,
    decode_body,
    encode,
    validate_client_message,
    validate_host_message,
)
from net.record import RecordError, public_record, read_record, write_record
from net.table.table import Table
from tests.net_helpers import TOY, WAIT, hosting


def _reader(data: bytes, eof: bool = True) -> asyncio.StreamReader:
    reader = asyncio.StreamReader()
    reader.feed_data(data)
    if eof:
        reader.feed_eof()
    return reader


async def test_a_frame_is_a_big_endian_length_then_one_msgpack_map():
    """A frame is a 4-byte big-endian length and exactly one msgpack map; it reads back as it was sent."""
    message = {"type": "act", "action": {"do": "pick", "card": 7}, "prompt": 3}
    frame = encode(message)
    assert struct.unpack(">I", frame[:4])[0] == len(frame) - 4
    assert await protocol.read_frame(_reader(frame), protocol.MAX_CLIENT_FRAME) == message


async def test_an_oversized_length_is_refused_before_the_body_is_read():
    """The size is checked before reading: a 1 GB claim is refused at once, with no body ever sent."""
    reader = _reader(struct.pack(">I", 1 << 30), eof=False)  # no body, no EOF: reading it would hang
    with pytest.raises(ProtocolError) as refused:
        await asyncio.wait_for(protocol.read_frame(reader, protocol.MAX_CLIENT_FRAME), WAIT)
    assert refused.value.code == "bad_frame" and "at most" in refused.value.message


async def test_an_empty_frame_is_refused():
    """A zero length is not a frame."""
    with pytest.raises(ProtocolError):
        await protocol.read_frame(_reader(struct.pack(">I", 0)), protocol.MAX_CLIENT_FRAME)


async def test_a_truncated_frame_ends_the_read():
    """A frame cut short by the peer closing raises IncompleteReadError (the host drops that peer)."""
    frame = encode({"type": "ping"})
    with pytest.raises(asyncio.IncompleteReadError):
        await protocol.read_frame(_reader(frame[:-2]), protocol.MAX_CLIENT_FRAME)


@pytest.mark.parametrize("body, why", [
    (msgpack.packb({"type": "ping"}) + msgpack.packb(1), "two objects in one frame"),
    (msgpack.packb({"type": "ping"})[:-1], "a truncated object"),
    (msgpack.packb(msgpack.ExtType(1, b"x")), "an extension type"),
    (msgpack.packb({1: 2}), "a non-string map key"),
    (b"\x91" * 5000 + b"\xc0", "nesting deeper than the decoder's stack"),
    (b"\xc1", "a reserved byte"),
    (b"\xa3\xff\xfe\xfd", "invalid UTF-8 in a string"),
    (b"\xdd\xff\xff\xff\xff", "an array claiming four billion items"),
])
def test_malformed_bodies_are_refused_as_bad_frames(body, why):
    """Every decoding failure is a ProtocolError ("bad_frame"), never another exception: """
    with pytest.raises(ProtocolError) as refused:
        decode_body(body)
    assert refused.value.code == "bad_frame", why


def test_a_message_must_be_a_map():
    """A list or a number is valid msgpack but not a message."""
    for value in ([1, 2], 7, "hello", None):
        with pytest.raises(ProtocolError) as refused:
            decode_body(msgpack.packb(value))
        assert refused.value.code == "bad_message"


@pytest.mark.parametrize("message, words", [
    ({"type": "teleport"}, "unknown message type"),
    ({"protocol": 1}, "unknown message type"),
    ({"type": "hello", "role": "player"}, "missing field 'protocol'"),
    ({"type": "hello", "protocol": "1", "role": "player"}, "wrong type"),
    ({"type": "hello", "protocol": True, "role": "player"}, "wrong type"),
    ({"type": "hello", "protocol": PROTOCOL_VERSION, "role": "king"}, "role must be"),
    ({"type": "hello", "protocol": PROTOCOL_VERSION, "role": "player", "name": "x" * 41}, "too long"),
    ({"type": "hello", "protocol": PROTOCOL_VERSION, "role": "player", "admin": True}, "unknown field"),
    ({"type": "act", "action": {"do": "pick"}, "prompt": 2**64 - 1}, "out of range"),
    ({"type": "act", "action": {"do": "pick", "card": -2**63}, "prompt": 1}, "out of range"),
    ({"type": "act", "action": {"do": {"nested": 1}}, "prompt": 1}, "must be a number"),
    ({"type": "act", "action": {"do": 1.5}, "prompt": 1}, "must be a number"),
    ({"type": "act", "action": {f"k{i}": 1 for i in range(40)}, "prompt": 1}, "too many fields"),
    ({"type": "act", "action": [1], "prompt": 1}, "wrong type"),
    ({"type": "act", "action": {"do": "pick"}, "prompt": 1, "seat": 2}, "unknown field 'seat'"),
])
def test_every_message_is_validated_before_use(message, words):
    """Unknown types, missing, extra or mistyped fields, huge integers: refused with a "bad_message"."""
    with pytest.raises(ProtocolError) as refused:
        validate_client_message(message)
    assert refused.value.code == "bad_message"
    assert words in refused.value.message


def test_valid_client_messages_pass():
    """The messages a well-behaved client sends are accepted as they are."""
    for message in ({"type": "hello", "protocol": PROTOCOL_VERSION, "role": "spectator"},
                    {"type": "hello", "protocol": PROTOCOL_VERSION, "role": "player", "code": "ABC", "name": "Tom",
                     "seat": 0},
                    {"type": "act", "action": {"do": "pick", "card": 3, "cards": [1, 2]}, "prompt": 4},
                    {"type": "ping", "t": 12}, {"type": "pong"}, {"type": "bye"}):
        assert validate_client_message(message) is message


def test_host_messages_carry_only_their_allow_listed_fields():
    """A host message with a field its allow-list does not name cannot even be built, nor is it accepted."""
    with pytest.raises(KeyError):
        protocol.host_message("table", turn=1, state={"secret": 1})
    with pytest.raises(ProtocolError):
        validate_host_message({"type": "table", "turn": 1, "state": {}})
    with pytest.raises(ProtocolError):
        validate_host_message({"type": "surprise"})


def test_errors_say_whether_retrying_can_help():
    """Refusals that can never succeed are marked permanent; every code has words for a person."""
    assert protocol.error_message("version")["permanent"] is True
    assert protocol.error_message("bad_token")["permanent"] is True
    assert protocol.error_message("illegal", "no")["permanent"] is False
    assert all(text and not text.endswith(".") for text in protocol.ERROR_CODES.values())


async def test_a_version_mismatch_is_refused_clearly_and_the_client_stops_retrying():
    """The handshake carries the version; a mismatch gets a permanent refusal naming both versions."""
    async with hosting(Table(TOY, {"players": 2})) as host:
        old = TableClient(*host.address, protocol_version=protocol.PROTOCOL_VERSION + 1, backoff=(0.01, 0.02))
        with pytest.raises(ClientError) as refused:
            await asyncio.wait_for(old.start(), WAIT)
        assert f"protocol {protocol.PROTOCOL_VERSION}" in str(refused.value)
        assert "same version" in str(refused.value)
        assert old.last_error["code"] == "version" and old.last_error["permanent"]
        await old.close()


async def test_a_client_explains_a_refused_connection_in_plain_words():
    """Nobody listening: the client says so instead of showing an exception."""
    async with hosting(Table(TOY, {"players": 2})) as host:
        address = host.address
    lonely = TableClient(*address, reconnect=False)
    with pytest.raises(ClientError) as refused:
        await lonely.start()
    assert "nobody is hosting a table" in str(refused.value)
    await lonely.close()


def test_the_record_is_written_atomically(tmp_path, monkeypatch):
    """A failed write leaves the old record whole and no temporary file behind."""
    path = tmp_path / "game.record"
    table = Table(TOY, {"players": 2})
    write_record(path, table.record())
    before = path.read_bytes()

    def crash(*args):
        raise OSError("disk pulled out")

    monkeypatch.setattr(os, "replace", crash)
    table.seats[0].kind = "player"
    with pytest.raises(OSError):
        write_record(path, table.record())
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.record"]
    assert read_record(path)["seed"] == table.seed


def test_a_damaged_record_is_refused_with_a_reason(tmp_path):
    """Garbage, a wrong format or a damaged action log: RecordError saying what is wrong."""
    path = tmp_path / "bad.record"
    path.write_bytes(b"\x00\x01garbage")
    with pytest.raises(RecordError, match="not a turpin game record"):
        read_record(path)
    record = Table(TOY, {"players": 2}).record()
    record["actions"] = [["x", {}]]
    write_record(path, record)
    with pytest.raises(RecordError, match="action log"):
        read_record(path)


def test_the_public_record_has_no_tokens_or_code():
    """What the players get at the end replays the game but holds no seat token or room code."""
    table = Table(TOY, {"players": 2}, code="SECRET")
    table.join(lambda frame: None, {"protocol": PROTOCOL_VERSION, "role": "player"})
    public = public_record(table.record())
    assert table.seats[0].token not in repr(public) and "SECRET" not in repr(public)
    assert public["seed"] == table.seed and public["actions"] == []


async def test_the_client_can_be_subscribed_to():
    """The API the TUI builds on: a callback subscription sees every update, in order, from the welcome
    to the stop."""
    async with hosting(Table(TOY, {"players": 2})) as host:
        seen = []
        watcher = TableClient(*host.address, role="spectator")
        unsubscribe = watcher.subscribe(lambda update: seen.append(update.kind))
        snapshot = await watcher.start()
        assert snapshot.seat is None and snapshot.view is not None and snapshot.turn == 0
        await watcher.close()
        assert seen[:3] == ["connected", "welcome", "table"] and seen[-1] == "stopped"
        unsubscribe()
