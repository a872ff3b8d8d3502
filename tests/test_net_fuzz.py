"""Thousands of malformed frames against a host in mid-game: it stays up and the good players finish."""

from __future__ import annotations

import asyncio
import contextlib
import random
import struct

import msgpack
import pytest

from core.engine import visible_events
from net import protocol
from net.authority import Table
from tests.net_helpers import GAME_IDS, GAMES, WAIT, client, close_all, hosting, play_randomly, seat_range

FRAMES = 3000


def _frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


def _nested(depth: int) -> bytes:
    return b"\x81\xa1a" * depth + b"\xc0"  # {"a": {"a": ... nil}}


def _bad_message(rng: random.Random) -> bytes:
    """A frame that is valid msgpack but not a valid message: refused, and the connection goes on."""
    choices = [
        {"type": "teleport"},
        {"type": rng.randrange(-2**63, 2**63)},
        {"type": "act", "action": {"do": "pick", "card": 2**64 - 1}, "prompt": 1},
        {"type": "act", "action": {"do": "pick", "card": -2**63}, "prompt": 2**63},
        {"type": "act", "action": {"do": float("nan")}, "prompt": 1},
        {"type": "act", "action": {"do": "x" * 300}, "prompt": 1},
        {"type": "act", "action": {"do": [[[[1]]]]}, "prompt": 1},
        {"type": "act", "action": "pick", "prompt": 1},
        {"type": "act", "action": {"do": "pick"}, "prompt": True},
        {"type": "act", "action": {"do": "pick"}, "prompt": 1, "seat": 0},
        {"type": "hand_over", "seat": 0, "host_token": "x" * 200},
        {"type": "hand_over", "seat": 2**62, "host_token": "guess"},
        {"type": "hello", "protocol": 2**64 - 1, "role": "player"},
        {"type": "hello", "protocol": 1, "role": None},
        {"type": "hello", "protocol": 1, "role": "player", "name": b"\x00bytes"},
        {"type": "ping", "t": "soon"},
        {"type": "bye", "now": True},
        {"type": None},
        {"": ""},
        {"type": "act", "action": {f"k{i}": i for i in range(rng.randrange(17, 200))}, "prompt": 1},
    ]
    return _frame(msgpack.packb(rng.choice(choices), use_bin_type=True))


def _bad_frame(rng: random.Random) -> bytes:
    """Bytes that are not a readable frame: the host answers (if it can) and drops this peer only."""
    kind = rng.randrange(9)
    if kind == 0:
        return rng.randbytes(rng.randrange(1, 300))  # random bytes, header included
    if kind == 1:
        return struct.pack(">I", rng.randrange(protocol.MAX_CLIENT_FRAME + 1, 2**32))  # oversized claim
    if kind == 2:
        body = msgpack.packb({"type": "ping", "t": 1})
        return _frame(body)[: rng.randrange(1, len(body) + 3)]  # truncated
    if kind == 3:
        return _frame(_nested(rng.randrange(200, 5000)))  # deep nesting
    if kind == 4:
        return _frame(msgpack.packb(msgpack.ExtType(rng.randrange(128), b"boom")))
    if kind == 5:
        return _frame(msgpack.packb({"type": "ping"}) + msgpack.packb({"type": "ping"}))  # two objects
    if kind == 6:
        return _frame(msgpack.packb(rng.choice([[1, 2, 3], 42, "hello", None, True])))  # not a map
    if kind == 7:
        return _frame(b"\x81\xa4type\xa3\xff\xfe\xfd")  # invalid UTF-8
    return _frame(b"\xdf\xff\xff\xff\xff")  # a map claiming four billion pairs


async def _replies(reader: asyncio.StreamReader, limit: int) -> list[dict]:
    """Read the host's replies until it closes the connection or ``limit`` of them came."""
    replies = []
    with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError, asyncio.TimeoutError):
        while len(replies) < limit:
            reply = await asyncio.wait_for(protocol.read_frame(reader, protocol.MAX_HOST_FRAME), 10)
            if reply["type"] != "ping":  # heartbeats go to every connection, joined or not
                replies.append(reply)
    return replies


async def _attack(address, sent: list[int], seed: int, mid_game: list[int], table: Table) -> dict[str, int]:
    rng = random.Random(seed)
    codes: dict[str, int] = {}
    while sent[0] < FRAMES:
        before = sent[0]
        reader, writer = await asyncio.open_connection(*address)
        try:
            if rng.random() < 0.5:
                # A burst of well-framed nonsense on one connection: each gets its own error reply.
                burst = rng.randrange(1, 40)
                for _ in range(burst):
                    writer.write(_bad_message(rng))
                sent[0] += burst
                await writer.drain()
                replies = await _replies(reader, burst)
                assert len(replies) == burst, "every bad message gets an error reply"
            else:
                writer.write(_bad_frame(rng))
                sent[0] += 1
                await writer.drain()
                writer.write_eof()
                replies = await _replies(reader, 5)
            if not table.over:
                mid_game[0] += sent[0] - before
            for reply in replies:
                assert reply["type"] == "error"
                codes[reply["code"]] = codes.get(reply["code"], 0) + 1
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()
    return codes


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
async def test_malformed_frames_never_harm_the_host_or_the_game(game):
    """Random bytes, truncated, oversized, wrongly typed, deeply nested, unknown and huge-integer frames
    (thousands, on many connections) while two players and a bot play: every one is refused, the host
    stays up, the players finish, and a newcomer still gets the table."""
    low, high = seat_range(game)
    seats = min(max(low, 3), high)
    humans = min(2, seats)
    table = Table(game, {"players": seats}, code="ROOM42", bots={s: "random" for s in range(humans, seats)})
    async with hosting(table) as host:
        players = [client(host, code="ROOM42") for _ in range(humans)]
        watcher = client(host, role="spectator")
        for someone in [*players, watcher]:
            await someone.start()
        sent, mid_game = [0], [0]
        attack = asyncio.ensure_future(_attack(host.address, sent, len(game.id), mid_game, table))

        async def play_alongside(player, seed):
            # Keep the game going through the whole attack: a move per slice of the attack.
            rng = random.Random(seed)
            while not attack.done() and player.snapshot.result is None:
                await play_randomly(player, rng, stop_at_turn=player.snapshot.turn + 1)
                target = sent[0] + FRAMES // 6
                while sent[0] < target and not attack.done():
                    await asyncio.sleep(0.005)
            await play_randomly(player, rng)

        await asyncio.gather(*(play_alongside(p, i) for i, p in enumerate(players)))
        codes = await attack
        assert sent[0] >= FRAMES and mid_game[0] >= 1000, "thousands of frames hit a game in progress"
        assert {"bad_frame", "bad_message"} <= set(codes), codes
        newcomer = client(host, role="spectator")
        await newcomer.start()
        truth = table.narrated_result()
        assert truth is not None
        for someone in [*players, watcher, newcomer]:
            await someone.wait_for(lambda snap: snap.result is not None, WAIT)
            assert someone.snapshot.result == truth
        assert newcomer.snapshot.log == table.narrate(visible_events(table.log, None))
        replayed = game.setup(table.options, table.seed)
        for seat, action in table.actions:
            game.apply(replayed, seat, action)
        assert replayed == table.state, "only the players' and bots' actions reached the game"
        await close_all(*players, watcher, newcomer)
