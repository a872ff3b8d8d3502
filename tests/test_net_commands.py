"""`turpin host --headless` and `turpin join`, run as a person would run them."""

from __future__ import annotations

import argparse
import asyncio
import os
import pathlib
import re
import signal
import sys

from net.authority import Table
from net.commands import add_commands
from tests.net_helpers import TOY, WAIT, hosting

ROOT = pathlib.Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
HOST_SCRIPT = ("import sys\n"
               "from core.registry import all_games\n"
               "from net.commands import host_main\n"
               "from tests.net_toy import GAME\n"
               "sys.exit(host_main(sys.argv[1:], {**all_games(), GAME.id: GAME}))\n")
#: ``turpin`` with only the network commands, as ``tui/cli.py`` will add them.
TURPIN_SCRIPT = ("import argparse, sys\n"
                 "from net.commands import add_commands\n"
                 "parser = argparse.ArgumentParser(prog='turpin')\n"
                 "add_commands(parser.add_subparsers(dest='command'))\n"
                 "args = parser.parse_args(sys.argv[1:])\n"
                 "sys.exit(args.handler(args))\n")


def test_add_commands_adds_host_and_join_with_their_options():
    """The two commands plug into the `turpin` parser and set a handler like the others."""
    parser = argparse.ArgumentParser(prog="turpin")
    add_commands(parser.add_subparsers(dest="command"))
    host = parser.parse_args(["host", "--headless", "--game", "turpin", "--players", "4", "--bots", "2",
                              "--port", "0", "--no-code", "--name", "Inn", "--interface", "127.0.0.1",
                              "--no-advertise"])
    assert host.command == "host" and host.no_code and host.bots == 2 and callable(host.handler)
    join = parser.parse_args(["join", "10.0.0.5:4707", "--code", "ABC", "--spectate"])
    assert join.address == "10.0.0.5:4707" and join.spectate and callable(join.handler)


async def test_headless_host_prints_address_code_and_spectator_instructions_and_stops_cleanly(tmp_path):
    """The host prints where it is, its room code, how to join and how to watch; SIGTERM closes it."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOST_SCRIPT, "--headless", "--game", "net-toy", "--players", "2", "--code", "abc123",
        "--port", "0", "--interface", "127.0.0.1", "--no-advertise", "--record", str(tmp_path / "r.record"),
        cwd=ROOT, env=ENV, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT)
    lines = []
    while not lines or not lines[-1].startswith("Type `seats`"):
        line = await asyncio.wait_for(process.stdout.readline(), WAIT)
        assert line, b"".join(lines)
        lines.append(line.decode())
    text = "".join(lines)
    port = re.search(r"at 127\.0\.0\.1:(\d+)", text).group(1)
    assert "Room code: ABC123" in text
    assert f"turpin join 127.0.0.1:{port} --code ABC123" in text
    assert f"turpin join 127.0.0.1:{port} --spectate" in text
    assert "--resume" in text and (tmp_path / "r.record").exists()
    process.send_signal(signal.SIGTERM)
    rest = (await asyncio.wait_for(process.stdout.read(), WAIT)).decode()
    assert "The table is closed." in rest
    assert await process.wait() == 0


async def test_join_plays_a_whole_game_by_typed_numbers():
    """The plain text client shows numbered choices; typing numbers plays the game to its end."""
    table = Table(TOY, {"players": 2}, code="ROOM42", bots={1: "random"})
    async with hosting(table) as host:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", TURPIN_SCRIPT, "join", f"127.0.0.1:{host.address[1]}", "--code", "room42",
            "--name", "Tom", cwd=ROOT, env=ENV, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT)
        output = []
        while True:
            line = (await asyncio.wait_for(process.stdout.readline(), WAIT)).decode()
            assert line, "".join(output)
            output.append(line)
            if line.startswith("Type a number"):
                process.stdin.write(b"1\n")
                await process.stdin.drain()
            if line.startswith("Game over"):
                break
        process.stdin.close()
        rest = (await asyncio.wait_for(process.stdout.read(), WAIT)).decode()
        assert await process.wait() == 0
        text = "".join(output) + rest
        assert "in seat 1" in text and "[1] Play your" in text
        assert table.over and table.game.result(table.state)["summary"] in text
        assert f"Seed {table.seed}" in text


async def test_join_says_in_plain_words_when_nobody_is_there():
    """Joining an address where no table is: a sentence, not a traceback, and a failing exit status."""
    async with hosting(Table(TOY, {"players": 2})) as host:
        port = host.address[1]
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", TURPIN_SCRIPT, "join", f"127.0.0.1:{port}", cwd=ROOT, env=ENV,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    line = (await asyncio.wait_for(process.stdout.readline(), WAIT)).decode()
    assert "nobody is hosting a table" in line and "Traceback" not in line
    assert await asyncio.wait_for(process.wait(), WAIT) == 1


async def test_the_host_advertises_updates_as_seats_fill_and_unregisters(monkeypatch):
    """With discovery on, the host starts an advertiser with the table's facts, updates it as seats fill,
    and the advertiser can be closed (the headless host does it in a `finally`). A stand-in discovery
    module keeps every packet off the network."""
    import types

    import net
    from net.client import TableClient
    from net.host import advertise

    calls = []

    class FakeAd:
        def __init__(self, **fields):
            self.fields = fields

    class FakeAdvertiser:
        def __init__(self, ad, port, interfaces=None):
            calls.append(("new", ad.fields, port, interfaces))

        async def start(self):
            calls.append(("start",))

        async def update(self, seats_taken, seats_free):
            calls.append(("update", seats_taken, seats_free))

        async def close(self):
            calls.append(("close",))

    fake = types.SimpleNamespace(TableAd=FakeAd, TableAdvertiser=FakeAdvertiser,
                                 resolve_interface=lambda spec: [spec])
    monkeypatch.setitem(sys.modules, "net.discovery", fake)
    monkeypatch.setattr(net, "discovery", fake, raising=False)
    table = Table(TOY, {"players": 2}, code="ROOM42", name="The Bell")
    async with hosting(table) as host:
        advertiser = await advertise(host, "127.0.0.1")
        player = TableClient(*host.address, code="ROOM42")
        await player.start()
        for _ in range(100):
            if ("update", 1, 1) in calls:
                break
            await asyncio.sleep(0.01)
        await advertiser.close()
        await player.close()
    kind, fields, port, interfaces = calls[0]
    assert fields == {"name": "The Bell", "game": "net-toy", "protocol": 1, "seats_taken": 0, "seats_free": 2,
                      "code_needed": True}
    assert port == host.address[1] and interfaces == ["127.0.0.1"]
    assert ("start",) in calls and ("update", 1, 1) in calls and calls[-1] == ("close",)
