"""Issue 10: the host under a hostile or careless peer — seats never locked out, no log floods, no
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

from net import protocol
from net.client import TableClient
from net.output import DetachedStream
from tests.net_helpers import WAIT

HANG_GUARD = 60.0  # only so a broken test fails instead of hanging; never a speed assertion

ROOT = pathlib.Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
HOST_SCRIPT = ("import sys\n"
               "from core.registry import all_games\n"
               "from net.commands import host_main\n"
               "from tests.net_toy import GAME\n"
               "sys.exit(host_main(sys.argv[1:], {**all_games(), GAME.id: GAME}))\n")


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
    """Issue 10 (2): 200,000 pings then a reset, while nobody reads the host's output (a full pipe): the
    host stops writing to the lost connection (no "socket.send() raised exception" flood) and its loop is
    never blocked by printing, so a player joining afterwards is served at once."""
    process, port = await _headless_host(tmp_path)
    try:
        for _ in range(3):
            await asyncio.to_thread(_flood_then_reset, port, 200_000)
        player = TableClient("127.0.0.1", port, reconnect=False, name="Tom")
        await player.start()
        assert player.snapshot.seat == 0
        await player.close()
    finally:
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.wait(), WAIT)
    errors = (await process.stderr.read()).decode()
    assert "socket.send() raised exception" not in errors


def test_output_to_a_pipe_nobody_reads_never_blocks_the_writer():
    """Issue 10 (2): the host's detached stdout takes any amount of printing at once while the pipe is full;
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
