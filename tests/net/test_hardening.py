"""The host under a hostile or careless peer — seats never locked out, no log floods, no
blocked loop, guessing slowed for real."""

from __future__ import annotations

import asyncio
import io
import os
import pathlib
import re
import signal
import socket
import struct
import sys
import threading
from dataclasses import replace

from net import protocol
from net.client import ClientError, TableClient
from net.table.table import Table
from tests.net_helpers import FAST, HOST_SCRIPT, TOY, WAIT, client, close_all, hosting
from tui.cli.console_output import DetachedStream

HANG_GUARD = 60.0  # only so a broken test fails instead of hanging; never a speed assertion

ROOT = pathlib.Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


async def _headless_host(tmp_path, *argv: str, stderr=asyncio.subprocess.PIPE):
    """A headless host in its own process; returns it and its port once it has printed its welcome."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOST_SCRIPT, "--headless", "--game", "net-toy", "--players", "2", "--no-code",
        "--port", "0", "--interface", "127.0.0.1", "--no-advertise", "--record", str(tmp_path / "r.record"),
        *argv, cwd=ROOT, env=ENV, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=stderr)
    text = ""
    while "Type `seats`" not in text:
        line = await asyncio.wait_for(process.stdout.readline(), WAIT)
        assert line, text
        text += line.decode()
    return process, int(re.search(r"at 127\.0\.0\.1:(\d+)", text).group(1))


def _flood_then_reset(port: int, pings: int) -> None:
    """Send ``pings`` pings without reading a single pong, then cut the connection with a reset."""
    frame = protocol.encode({"type": "ping", "t": 1})
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(frame * pings)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


async def test_a_ping_flood_then_a_reset_with_the_hosts_output_unread_leaves_the_table_playing(tmp_path):
    """200,000 pings then a reset, while nobody reads the host's output (a full pipe): the
    host stops writing to the lost connection (no "socket.send() raised exception" flood) and its loop is
    never blocked by printing, so a player joining afterwards is served at once."""
    process, port = await _headless_host(tmp_path)
    try:
        for _ in range(3):
            await asyncio.to_thread(_flood_then_reset, port, 200_000)
        # Served, not "served within 5 s": a loop blocked on printing would never answer (WAIT catches
        # that), while a busy machine may take a while to get through the flood first.
        player = TableClient("127.0.0.1", port, reconnect=False, name="Tom", connect_timeout=WAIT)
        await player.start()
        assert player.snapshot.seat == 0
        await player.close()
    finally:
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.wait(), WAIT)
    errors = (await process.stderr.read()).decode()
    assert "socket.send() raised exception" not in errors


def test_output_to_a_pipe_nobody_reads_never_blocks_the_writer():
    """The host's detached stdout takes any amount of printing at once while the pipe is full;
    what did not fit is dropped and said to be, once a reader comes."""
    read_end, write_end = os.pipe()
    stream = DetachedStream(io.TextIOWrapper(io.FileIO(write_end, "w", closefd=False)))
    done = threading.Event()

    def chatter() -> None:
        for number in range(100_000):
            print(f"line {number} " + "x" * 60, file=stream)
        done.set()

    threading.Thread(target=chatter, daemon=True).start()
    assert done.wait(HANG_GUARD), "printing blocked on a full pipe"
    assert stream.dropped > 0
    received = b""
    while b"were dropped" not in received:
        received += os.read(read_end, 1 << 16)
    assert received.startswith(b"line 0 ")
    os.close(read_end)


# --- seats never locked out (item 1) ---------------------------------------------------------------------

async def test_a_spectator_flood_never_locks_a_seated_player_out():
    """More spectators than connection slots; spectators past the cap are refused in words
    (`spectators_full`), and a dropped player coming back with his token gets his seat."""
    settings = replace(FAST, max_connections=20, max_spectators=5)
    async with hosting(Table(TOY, {"players": 2}), settings) as host:
        tom = client(host, name="Tom")
        await tom.start()
        token = tom.token
        await tom.close()
        watching, refused = [], []
        for _ in range(30):
            spectator = client(host, role="spectator", reconnect=False)
            try:
                await spectator.start()
                watching.append(spectator)
            except ClientError as error:
                refused.append(str(error))
        assert len(watching) == 5 and len(refused) == 25
        assert "already has its 5 spectators" in refused[0]
        back = client(host, token=token)
        await back.start()
        assert back.snapshot.seat == 0 and back.snapshot.seats[0]["connected"]
        await close_all(back, *watching)


# --- room codes (item 3) ----------------------------------------------------------------------------------

async def _hello_reply(port: int, code: str) -> dict | None:
    """One raw hello with a room code; the host's answer, or None if it cut the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(protocol.encode({"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "role": "player",
                                  "code": code}))
    try:
        while True:
            reply = await protocol.read_frame(reader, protocol.MAX_HOST_FRAME)
            if reply["type"] != "ping":
                return reply
    except (asyncio.IncompleteReadError, ConnectionError):
        return None
    finally:
        writer.close()


async def test_wrong_codes_sent_in_parallel_are_counted_on_arrival():
    """40 wrong codes at once from one address: only the few that fit under the longest wait
    are checked (waiting their turns); the rest are refused at once with `slow_down` or, past the limit of
    unjoined connections per address, `server_busy` — never all checked together."""
    settings = replace(FAST, wrong_code_delay=0.1, wrong_code_cap=8.0, timeout=4.0)
    table = Table(TOY, {"players": 2}, code="ROOM42")
    async with hosting(table, settings) as host:
        replies = await asyncio.gather(*(_hello_reply(host.address[1], f"WRONG{n}") for n in range(40)))
    codes = [reply["code"] if reply else "cut" for reply in replies]
    checked = codes.count("wrong_code")
    assert 1 <= checked <= 6, codes  # waits 0, 0.1, 0.3, 0.7, 1.5 fit under 2 s (half the timeout); 3.1 does not
    assert set(codes) <= {"wrong_code", "slow_down", "server_busy"}, codes
    assert codes.count("server_busy") >= 40 - settings.max_unjoined_per_address
    slow = next(reply for reply in replies if reply and reply["code"] == "slow_down")
    assert "too many room codes" in slow["message"] and slow["retry_after"] > 0
    assert table.seating.taken() == 0


async def test_wrong_codes_one_after_another_are_never_cut_by_the_heartbeat_timeout():
    """Seven wrong codes in a row from a peer that says nothing while it waits: every one is
    answered `wrong_code` (the wait stays under the timeout, and the host's own wait is not silence)."""
    settings = replace(FAST, heartbeat=0.2, timeout=3.0, wrong_code_delay=0.1, wrong_code_cap=8.0)
    async with hosting(Table(TOY, {"players": 2}, code="ROOM42"), settings) as host:
        replies = [await _hello_reply(host.address[1], "WRONG1") for _ in range(7)]
    assert [reply and reply["code"] for reply in replies] == ["wrong_code"] * 7
