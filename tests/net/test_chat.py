"""Table chat (for the Textual app): ``say`` in, ``chat`` out to everyone, checked and rate-limited."""

from __future__ import annotations

import asyncio
import time

import pytest

from net import protocol
from net.protocol import ProtocolError, validate_client_message, validate_host_message
from net.table.chat import CHAT_BURST, ChatBucket
from net.table.table import Table
from tests.net_helpers import TOY, WAIT, client, close_all, hosting


async def _error(who, message):
    who.last_error = None
    await who.send(message)
    await who.wait_for(lambda snap: who.last_error is not None, WAIT)
    return who.last_error


async def _seated_pair_and_spectator(host):
    players = [client(host, name=name) for name in ("Tom", "Bess")]
    spectator = client(host, role="spectator", name="Watcher")
    for someone in [*players, spectator]:
        await someone.start()
    return players, spectator


async def test_a_chat_line_reaches_every_player_and_spectator_with_its_sender():
    """`say` is sent to everyone, the sender too, as `chat` with the name and seat; each client keeps it
    in `snapshot.chat` and emits a `chat` update."""
    async with hosting(Table(TOY, {"players": 2})) as host:
        (tom, bess), watcher = await _seated_pair_and_spectator(host)
        updates = []
        bess.subscribe(lambda update: updates.append(update) if update.kind == "chat" else None)
        await tom.say("Stand and deliver!")
        await watcher.say("Go on, Tom")
        for who in (tom, bess, watcher):
            await who.wait_for(lambda snap: len(snap.chat) == 2, WAIT)
            assert who.snapshot.chat == [{"from": "Tom", "seat": 0, "text": "Stand and deliver!"},
                                         {"from": "Watcher", "seat": None, "text": "Go on, Tom"}]
        assert [u.text for u in updates] == ["Tom: Stand and deliver!", "Watcher: Go on, Tom"]
        await close_all(tom, bess, watcher)


@pytest.mark.parametrize("text, words", [
    ("x" * 201, "at most 200 characters (this one has 201)"),
    ("ring\x07bell", "only printable characters"),
    ("two\nlines", "only printable characters"),
    ("\x1b[2Jclear", "only printable characters"),
    ("   ", "needs some text"),
])
async def test_a_bad_chat_line_is_refused_in_words_and_nobody_hears_it(text, words):
    """Chat is 1 to 200 printable characters: anything else is refused (`bad_chat`) and not passed on."""
    async with hosting(Table(TOY, {"players": 2})) as host:
        (tom, bess), watcher = await _seated_pair_and_spectator(host)
        refusal = await _error(tom, {"type": "say", "text": text})
        assert refusal["code"] == "bad_chat" and words in refusal["message"]
        await tom.say("x" * 200)  # the longest line allowed; it arrives, and nothing before it did
        await bess.wait_for(lambda snap: snap.chat, WAIT)
        assert [line["text"] for line in bess.snapshot.chat] == ["x" * 200]
        await close_all(tom, bess, watcher)


async def test_chat_is_rate_limited_per_connection_with_a_refusal_in_words():
    """A burst of lines is allowed, then `chat_too_fast` says when the next may go; others may still talk."""
    # The bucket refills with the table's time: stop it, so that a busy machine taking two seconds over
    # the burst cannot earn Tom the line that must be refused.
    now = time.monotonic()
    table = Table(TOY, {"players": 2}, now=lambda: now)
    async with hosting(table) as host:
        (tom, bess), watcher = await _seated_pair_and_spectator(host)
        for number in range(CHAT_BURST):
            await tom.say(f"line {number}")
        refusal = await _error(tom, {"type": "say", "text": "one too many"})
        assert refusal["code"] == "chat_too_fast" and "too fast" in refusal["message"]
        assert refusal["retry_after"] > 0 and not refusal["permanent"]
        await bess.say("my turn")
        await watcher.wait_for(lambda snap: len(snap.chat) == CHAT_BURST + 1, WAIT)
        assert "one too many" not in [line["text"] for line in watcher.snapshot.chat]
        assert tom.stopped is None and tom.connected  # a refused line never ends the connection
        await close_all(tom, bess, watcher)


def test_the_chat_bucket_refills_with_time():
    """The bucket: CHAT_BURST lines at once, then one line per two seconds."""
    bucket = ChatBucket(last=100.0)
    assert [bucket.take(100.0) for _ in range(CHAT_BURST)] == [0.0] * CHAT_BURST
    assert bucket.take(100.0) == pytest.approx(2.0)
    assert bucket.take(102.0) == 0.0
    assert bucket.take(102.0) > 0


async def test_the_host_can_mute_and_unmute_spectators_chat():
    """`mute_spectators` with the host token (or Table.mute_spectators in-process) refuses spectators'
    lines (`muted`); players still talk; a wrong token is refused; everyone is told of the change."""
    table = Table(TOY, {"players": 2})
    async with hosting(table) as host:
        (tom, bess), watcher = await _seated_pair_and_spectator(host)
        assert (await _error(watcher, {"type": "mute_spectators", "muted": True, "host_token": "guess"}))["code"] \
            == "not_host"
        notices = []
        watcher.subscribe(lambda update: notices.append(update.text) if update.kind == "notice" else None)
        await tom.mute_spectators(True, table.host_token)
        await watcher.wait_for(lambda snap: notices, WAIT)
        assert table.chat.muted and "muted" in notices[0]
        refusal = await _error(watcher, {"type": "say", "text": "let me speak"})
        assert refusal["code"] == "muted" and "muted" in refusal["message"]
        await bess.say("players can")
        await tom.wait_for(lambda snap: snap.chat, WAIT)
        table.chat.mute_spectators(False)  # the in-process app's switch
        await watcher.say("thank you")
        await tom.wait_for(lambda snap: len(snap.chat) == 2, WAIT)
        assert [line["text"] for line in tom.snapshot.chat] == ["players can", "thank you"]
        await close_all(tom, bess, watcher)


async def test_saying_before_joining_is_refused():
    """Chat needs a joined connection, as every other request does."""
    async with hosting(Table(TOY, {"players": 2})) as host:
        reader, writer = await asyncio.open_connection(*host.address)
        writer.write(protocol.encode({"type": "say", "text": "hello?"}))
        reply = {"type": "ping"}
        while reply["type"] == "ping":  # the host's heartbeat goes to every connection, joined or not
            reply = await asyncio.wait_for(protocol.read_frame(reader, protocol.MAX_HOST_FRAME), WAIT)
        assert reply["type"] == "error" and reply["code"] == "not_joined"
        writer.close()


def test_say_and_chat_are_validated_on_the_wire():
    """`say` carries exactly `text` (a string); `mute_spectators` a bool and the host token; a host's
    `chat` carries exactly from, seat and text."""
    assert validate_client_message({"type": "say", "text": "hello"})
    assert validate_client_message({"type": "mute_spectators", "muted": False, "host_token": "t"})
    for bad in ({"type": "say"}, {"type": "say", "text": 5}, {"type": "say", "text": "hi", "seat": 1},
                {"type": "mute_spectators", "muted": 1, "host_token": "t"},
                {"type": "say", "text": "x" * 5000}):
        with pytest.raises(ProtocolError):
            validate_client_message(bad)
    chat = protocol.host_message("chat", **{"from": "Tom", "seat": 0, "text": "hi"})
    assert validate_host_message(chat) is chat
    with pytest.raises(KeyError):
        protocol.host_message("chat", **{"from": "Tom", "seat": 0, "text": "hi", "token": "secret"})
    with pytest.raises(ProtocolError):
        validate_host_message({"type": "chat", "from": "Tom", "seat": 0})
