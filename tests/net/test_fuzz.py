"""Thousands of malformed frames against a host in mid-game: it stays up and the good players finish."""

from __future__ import annotations

import asyncio
import contextlib
import random
import struct

import msgpack
import pytest

from core.engine import clone, visible_events
from net import protocol
from net.protocol import PROTOCOL_VERSION
from net.table.table import Table
from tests.net_helpers import GAME_IDS, GAMES, WAIT, client, close_all, hosting, play_randomly, seat_range

FRAMES = 3000
#: The attack comes in this many slices; between two, the game moves on by one person's move.
SLICES = 6


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
        {"type": "hello", "protocol": PROTOCOL_VERSION, "role": None},
        {"type": "hello", "protocol": PROTOCOL_VERSION, "role": "player", "name": b"\x00bytes"},
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
    with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
        while len(replies) < limit:
            reply = await asyncio.wait_for(protocol.read_frame(reader, protocol.MAX_HOST_FRAME), WAIT)
            if reply["type"] != "ping":  # heartbeats go to every connection, joined or not
                replies.append(reply)
    return replies


async def _attack(address, frames: int, rng: random.Random, codes: dict[str, int]) -> int:
    """Send at least ``frames`` bad frames on new connections, one after another; returns how many."""
    sent = 0
    while sent < frames:
        reader, writer = await asyncio.open_connection(*address)
        try:
            if rng.random() < 0.5:
                # A burst of well-framed nonsense on one connection: each gets its own error reply.
                burst = rng.randrange(1, 40)
                for _ in range(burst):
                    writer.write(_bad_message(rng))
                sent += burst
                await writer.drain()
                replies = await _replies(reader, burst)
                assert len(replies) == burst, "every bad message gets an error reply"
            else:
                writer.write(_bad_frame(rng))
                sent += 1
                await writer.drain()
                writer.write_eof()
                replies = await _replies(reader, 5)
            for reply in replies:
                assert reply["type"] == "error"
                codes[reply["code"]] = codes.get(reply["code"], 0) + 1
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()
    return sent


async def _settled(table: Table, watcher) -> None:
    """Wait until the bots have nothing left to do: the table waits for a person, or the game is over."""
    await watcher.wait_for(lambda snap: snap.turn == table.turn and (table.over or table.stand_ins.next_bot() is None),
                           WAIT)


async def _one_human_move(table: Table, players, rng: random.Random) -> None:
    """The person the table waits for makes one move; returns once the host has taken it."""
    seat = next(seat for seat in table.game.pending(table.state) if table.seats[seat].kind != "bot")
    player = next(player for player in players if player.snapshot.seat == seat)
    turn = table.turn
    await player.wait_for(lambda snap: snap.turn == turn and snap.prompt is not None, WAIT)
    await player.choose(rng.randrange(len(player.snapshot.choices)))
    await player.wait_for(lambda snap: snap.turn > turn, WAIT)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
async def test_malformed_frames_never_harm_the_host_or_the_game(game):
    """Random bytes, truncated, oversized, wrongly typed, deeply nested, unknown and huge-integer frames
    (thousands, on many connections) while two players and a bot play: every one is refused, the host
    stays up, the players finish, and a newcomer still gets the table.

    The game waits for the attack: it comes in slices, each sent while the table waits for a person (so
    the game is surely in progress and nothing but the attack reaches the host), and that person moves
    only when the slice is over. How much hits the game mid-way is thus fixed, not a matter of timing."""
    low, high = seat_range(game)
    seats = min(max(low, 3), high)
    humans = min(2, seats)
    table = Table(game, {"players": seats}, code="ROOM42", bots={s: "random" for s in range(humans, seats)})
    async with hosting(table) as host:
        players = [client(host, code="ROOM42") for _ in range(humans)]
        watcher = client(host, role="spectator")
        for someone in [*players, watcher]:
            await someone.start()
        attack_rng, moves_rng = random.Random(len(game.id)), random.Random(7)
        codes: dict[str, int] = {}
        sent = mid_game = 0
        for _ in range(SLICES):
            await _settled(table, watcher)
            if table.over:
                sent += await _attack(host.address, FRAMES // SLICES, attack_rng, codes)
                continue
            turn, before = table.turn, clone(table.state)
            slice_sent = await _attack(host.address, FRAMES // SLICES, attack_rng, codes)
            assert table.turn == turn and table.state == before, "the attack changed the game"
            sent, mid_game = sent + slice_sent, mid_game + slice_sent
            await _one_human_move(table, players, moves_rng)
        print(f"{game.id}: {sent} bad frames, {mid_game} of them while the game was in progress")
        assert sent >= FRAMES and mid_game >= FRAMES // 2, "thousands of frames hit a game in progress"
        assert {"bad_frame", "bad_message"} <= set(codes), codes
        await asyncio.gather(*(play_randomly(p, random.Random(i)) for i, p in enumerate(players)))
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
