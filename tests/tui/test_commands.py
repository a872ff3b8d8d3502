"""`turpin host --headless` and `turpin join`, run as a person would run them."""

from __future__ import annotations

import argparse
import asyncio
import os
import pathlib
import random
import re
import signal
import subprocess
import sys

import pytest

from net.client import ClientError, TableClient
from net.host import TableHost, record_saver
from net.protocol import PROTOCOL_VERSION
from net.table.table import Table
from tests.net_helpers import FAST, HOST_SCRIPT, TOY, WAIT, hosting, play_randomly
from tui.cli.host import add_host_arguments, add_host_command, build_table
from tui.cli.join import add_join_command
from tui.cli.text_client import render_view

ROOT = pathlib.Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
#: ``turpin`` with only the host and join commands, added as ``tui/cli/commands.py`` adds them.
TURPIN_SCRIPT = ("import argparse, sys\n"
                 "from tui.cli.host import add_host_command\n"
                 "from tui.cli.join import add_join_command\n"
                 "parser = argparse.ArgumentParser(prog='turpin')\n"
                 "commands = parser.add_subparsers(dest='command')\n"
                 "add_host_command(commands)\n"
                 "add_join_command(commands)\n"
                 "args = parser.parse_args(sys.argv[1:])\n"
                 "sys.exit(args.handler(args))\n")


def test_host_and_join_add_themselves_with_their_options():
    """The two commands plug into the `turpin` parser and set a handler like the others."""
    parser = argparse.ArgumentParser(prog="turpin")
    commands = parser.add_subparsers(dest="command")
    add_host_command(commands)
    add_join_command(commands)
    host = parser.parse_args(["host", "--headless", "--game", "turpin", "--players", "4", "--bots", "2",
                              "--port", "0", "--no-code", "--name", "Inn", "--interface", "127.0.0.1",
                              "--no-advertise"])
    assert host.command == "host" and host.no_code and host.bots == 2 and callable(host.handler)
    join = parser.parse_args(["join", "10.0.0.5:4707", "--code", "ABC", "--spectate"])
    assert join.address == "10.0.0.5:4707" and join.spectate and callable(join.handler)


@pytest.mark.parametrize("window", [["--headless"], []], ids=["headless", "app"])
def test_more_bots_than_seats_or_a_bot_nobody_has_is_refused_in_words_headless_and_in_the_app(
        window, tmp_path, monkeypatch, capsys):
    """Both hosts take ``--bots`` and ``--bot`` the same way: a count the table cannot hold, or a bot the
    game lacks, is an error that says why, and no table is served or window opened."""
    import tui.cli.app_routes as app_routes
    import tui.cli.commands as commands
    opened = []
    monkeypatch.setattr(app_routes, "run_app", lambda args, start: opened.append(start) or 0)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    at_four = ["host", *window, "--players", "4", "--port", "0", "--interface", "127.0.0.1", "--no-advertise"]
    assert commands.run_command([*at_four, "--bots", "9"]) == 2
    most = "4 at a table of 4" if window else "3 at a table of 4 (seat 1 is yours)"
    assert f"turpin: --bots must be from 0 to {most}" in capsys.readouterr().err
    assert commands.run_command([*at_four, "--bots", "2", "--bot", "cunning"]) == 2
    assert ("turpin: The Famous Dick Turpin has no bot 'cunning'; it has easy, normal, hard, random"
            in capsys.readouterr().err)
    assert not opened and not list(tmp_path.rglob("*.turpin-record*"))


async def test_a_record_being_served_is_not_resumed_by_a_second_host(tmp_path):
    """Two hosts writing one record would tear it: a second --resume of a table still served is refused
    in words, and the first plays on."""
    record = tmp_path / "r.record"
    first = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOST_SCRIPT, "--headless", "--game", "net-toy", "--players", "2", "--port", "0",
        "--interface", "127.0.0.1", "--no-advertise", "--record", str(record),
        cwd=ROOT, env=ENV, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT)
    try:
        while not (await asyncio.wait_for(first.stdout.readline(), WAIT)).startswith(b"Type `seats`"):
            pass
        second = await asyncio.create_subprocess_exec(
            # on the record's own port, which the first still holds: the record is what is refused ("pick
            # another port" would invite a second table on the record)
            sys.executable, "-c", HOST_SCRIPT, "--headless", "--resume", str(record),
            "--interface", "127.0.0.1", "--no-advertise", cwd=ROOT, env=ENV, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(second.communicate(), WAIT)
        assert second.returncode == 2 and b"is in use: another turpin is serving its table" in err
        assert b"Traceback" not in err and first.returncode is None
    finally:
        first.send_signal(signal.SIGTERM)
        await asyncio.wait_for(first.wait(), WAIT)


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
    assert "Seats: 1 and 2 for players\n" in text  # (not "1 player, 2 player")
    assert f"turpin join 127.0.0.1:{port} --code ABC123" in text
    assert f"turpin join 127.0.0.1:{port} --spectate" in text
    assert "--resume" in text and (tmp_path / "r.record").exists()
    process.send_signal(signal.SIGTERM)
    rest = (await asyncio.wait_for(process.stdout.read(), WAIT)).decode()
    assert "The table is closed." in rest
    assert await process.wait() == 0


async def test_the_host_console_seats_a_bot_in_an_open_seat_and_the_game_starts(tmp_path):
    """Typing `bot 2` at the headless host's console fills the empty seat 2 with a bot, so the player
    already sitting does not wait for a second person."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOST_SCRIPT, "--headless", "--game", "net-toy", "--players", "2", "--no-code",
        "--port", "0", "--interface", "127.0.0.1", "--no-advertise", "--record", str(tmp_path / "r.record"),
        cwd=ROOT, env=ENV, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT)
    player = TableClient("127.0.0.1", await _served_port(process), reconnect=False)
    await player.start()
    assert not player.snapshot.started
    process.stdin.write(b"bot 7\n")  # the answer says which seats there are
    await process.stdin.drain()
    assert "there is no seat 7: the seats are 1 to 2" in await _line_with(process, "no seat 7", [])
    process.stdin.write(b"bot 2\n")
    await process.stdin.drain()
    await player.wait_for(lambda snap: snap.started and snap.seats[1]["kind"] == "bot", WAIT)
    assert "Seat 2: a bot" in await _line_with(process, "Seat 2", [])
    await player.close()
    process.send_signal(signal.SIGTERM)
    await asyncio.wait_for(process.wait(), WAIT)


async def test_the_host_console_deals_again_once_the_game_is_over(tmp_path):
    """`again` at the headless host's console: refused while the game is on, and once it is over a new
    game for the same seats, with a record of its own; the first game's record is left as it was. `again
    new` deals the third in new seats, and its results count all three games (rematch)."""
    env = {**ENV, "XDG_DATA_HOME": str(tmp_path / "data")}
    first = tmp_path / "first.record"
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOST_SCRIPT, "--headless", "--game", "net-toy", "--players", "2", "--bots", "1",
        "--no-code", "--port", "0", "--interface", "127.0.0.1", "--no-advertise", "--bot-delay", "0",
        "--record", str(first), cwd=ROOT, env=env, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    try:
        player = TableClient("127.0.0.1", await _served_port(process), reconnect=False)
        await player.start()
        process.stdin.write(b"again\n")
        await process.stdin.drain()
        assert "the game is still on" in await _line_with(process, "still on", [])
        await play_randomly(player, random.Random(3))
        first_record = first.read_bytes()
        process.stdin.write(b"again\n")
        await process.stdin.drain()
        said = await _line_with(process, "Game record: ", [])
        await player.wait_for(lambda snap: snap.result is None and snap.turn == 0, WAIT)
        second = pathlib.Path(said.split("Game record: ")[1].strip())
        assert second.exists() and second != first and first.read_bytes() == first_record
        assert player.snapshot.seat == 0
        # `again new`: the player and the bot change seats; the player is welcomed to his new one.
        await play_randomly(player, random.Random(4))
        process.stdin.write(b"again new\n")
        await process.stdin.drain()
        assert "A new game, new seats" in await _line_with(process, "A new game, new seats", [])
        await player.wait_for(lambda snap: snap.result is None and snap.turn == 0 and snap.seat == 1, WAIT)
        await play_randomly(player, random.Random(5))
        await player.wait_for(lambda snap: snap.match is not None, WAIT)
        assert [row["games"] for row in player.snapshot.match] == [3, 3]
        await player.close()
    finally:
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.wait(), WAIT)


async def test_quit_at_the_host_console_closes_the_table_for_good(tmp_path):
    """`quit` typed at the headless host closes the table for good: its players' windows are told so and
    stop waiting for it (a signal may still be followed by --resume, and is waited for)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOST_SCRIPT, "--headless", "--game", "net-toy", "--players", "2", "--bots", "1",
        "--no-code", "--port", "0", "--interface", "127.0.0.1", "--no-advertise", "--bot-delay", "0",
        "--record", str(tmp_path / "r.record"), cwd=ROOT, env=ENV, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    try:
        player = TableClient("127.0.0.1", await _served_port(process), backoff=(0.02, 0.2))
        await player.start()
        process.stdin.write(b"quit\n")
        await process.stdin.drain()
        await player.wait_for(lambda snap: player.stopped is not None, WAIT)
        assert player.last_error["code"] == "table_closed" and player.last_error["permanent"]
        assert await asyncio.wait_for(process.wait(), WAIT) == 0
        await player.close()
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            await asyncio.wait_for(process.wait(), WAIT)


@pytest.mark.parametrize("name", ["x" * 41, "", "The\tBell", "Bell\x07", " The Bell", "The Bell "])
def test_a_table_name_the_lan_list_would_refuse_is_an_argument_error(name, capsys):
    """`turpin host --name` refuses at once, as argparse does (exit status 2, the reason in words), a name
    the LAN advert cannot carry: over 40 characters, control characters, surrounding spaces."""
    parser = argparse.ArgumentParser(prog="turpin")
    add_host_command(parser.add_subparsers(dest="command"))
    with pytest.raises(SystemExit) as exit_:
        parser.parse_args(["host", "--headless", "--name", name])
    assert exit_.value.code == 2
    error = capsys.readouterr().err
    assert "argument --name" in error and "a table name has" in error and "Traceback" not in error


def test_a_table_name_of_forty_printable_characters_is_fine():
    """The longest name the advert carries, accents and inner spaces included, is accepted as it is."""
    parser = argparse.ArgumentParser(prog="turpin")
    add_host_command(parser.add_subparsers(dest="command"))
    name = "Le Cheval Blanc à Épinay " + "x" * 15
    assert len(name) == 40 and parser.parse_args(["host", "--name", name]).name == name


def _host_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="turpin host")
    add_host_arguments(parser, {TOY.id: TOY})
    return parser.parse_args(["--headless", "--game", "net-toy", "--players", "2", *argv])


def test_the_record_goes_to_the_users_records_folder_by_default(tmp_path, monkeypatch):
    """Without --record the record is a new file in turpin's data folder (platformdirs), records/, named
    after the table and the time — not the current directory; --record still chooses the file."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    games = {TOY.id: TOY}
    _, path = build_table(_host_args("--name", "The Bell/Inn"), games)
    path = pathlib.Path(path)
    assert path.parent == tmp_path / "data" / "turpin" / "records" and path.parent.is_dir()
    assert re.fullmatch(r"the-bell-inn-\d{8}-\d{6}(-\d+)?\.turpin-record", path.name), path.name
    _, unnamed = build_table(_host_args(), games)
    assert pathlib.Path(unnamed).name.startswith("net-toy-")
    _, chosen = build_table(_host_args("--record", str(tmp_path / "mine.record")), games)
    assert chosen == str(tmp_path / "mine.record")
    assert list(tmp_path.glob("*.turpin-record")) == []


async def test_headless_host_says_where_its_default_record_is(tmp_path):
    """The host prints the record's place in the records folder and writes it there."""
    env = {**ENV, "XDG_DATA_HOME": str(tmp_path / "data")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOST_SCRIPT, "--headless", "--game", "net-toy", "--players", "2", "--no-code",
        "--port", "0", "--interface", "127.0.0.1", "--no-advertise", cwd=ROOT, env=env,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    lines = []
    while not lines or not lines[-1].startswith("Type `seats`"):
        line = await asyncio.wait_for(process.stdout.readline(), WAIT)
        assert line, b"".join(lines)
        lines.append(line.decode())
    process.send_signal(signal.SIGTERM)
    await asyncio.wait_for(process.stdout.read(), WAIT)
    assert await process.wait() == 0
    where = re.search(r"Game record: (\S+)", "".join(lines)).group(1)
    assert pathlib.Path(where).parent == tmp_path / "data" / "turpin" / "records"
    assert pathlib.Path(where).exists()


async def test_with_turpin_lan_off_the_headless_host_announces_nothing_and_tables_browses_nothing(tmp_path):
    """TURPIN_LAN=off means the same everywhere: the app, `turpin host --headless` (no mDNS announcement)
    and `turpin tables` (no browsing) stay quiet; no packet goes out here (the host listens on 127.0.0.1
    only)."""
    env = {**ENV, "TURPIN_LAN": "off", "XDG_DATA_HOME": str(tmp_path / "data")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOST_SCRIPT, "--headless", "--game", "net-toy", "--players", "2", "--no-code",
        "--port", "0", "--interface", "127.0.0.1", cwd=ROOT, env=env,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    lines = []
    while not lines or not lines[-1].startswith("Not announced"):
        line = await asyncio.wait_for(process.stdout.readline(), WAIT)
        assert line, "".join(lines)
        lines.append(line.decode())
    assert lines[-1].startswith("Not announced on the LAN (TURPIN_LAN=off)")
    process.send_signal(signal.SIGTERM)
    await asyncio.wait_for(process.stdout.read(), WAIT)
    assert await process.wait() == 0
    tables = subprocess.run([sys.executable, "-m", "tui.cli", "tables", "--seconds", "0.1"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=WAIT)
    assert tables.returncode == 1 and "browsing the LAN is off here (TURPIN_LAN=off)" in tables.stderr


def test_render_view_shows_any_view_as_short_plain_lines():
    """The text client shows a view as `key: value` lines, nested maps and lists indented, empty or
    unknown fields left out, at most 25 lines and the rest a `v` away — the same for every game."""
    view = {"round": 2, "hand_sizes": [3, 4], "open": True, "pick": None, "discard": [],
            "purse": {"gold": 5, "silver": 1},
            "coaches": [{"name": "Mail", "guards": 2}, {"name": "Post", "guards": 0}],
            "table": {"north": {"pile": [1, 2]}, "south": {"pile": []}}}
    assert render_view(view) == [
        "round: 2", "hand sizes: 3, 4", "open: yes", "purse: gold 5, silver 1",
        "coaches:", "  - name Mail, guards 2", "  - name Post, guards 0",
        "table:", "  north:", "    pile: 1, 2"]
    big = {f"field_{n}": n for n in range(40)}
    short = render_view(big)
    assert len(short) == 25 and short[-1] == "… and 16 more lines (type v for the whole view)"
    assert len(render_view(big, max_lines=None)) == 40
    assert render_view({"long": "y" * 300})[0].endswith("…") and len(render_view({"long": "y" * 300})[0]) == 100


async def test_join_plays_a_whole_game_by_typed_numbers():
    """The plain text client shows the view as readable lines (not JSON), the log as it comes and the
    host's choices numbered; typing numbers plays the game to its end. A spectator with nothing on stdin
    (/dev/null) sees the table, the log and the end, and then leaves by itself."""
    table = Table(TOY, {"players": 2}, code="ROOM42", bots={1: "random"})
    async with hosting(table) as host:
        spectator = await asyncio.create_subprocess_exec(
            sys.executable, "-c", TURPIN_SCRIPT, "join", f"127.0.0.1:{host.address[1]}", "--spectate", cwd=ROOT,
            env=ENV, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT)
        assert "as a spectator" in (await asyncio.wait_for(spectator.stdout.readline(), WAIT)).decode()
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
        first_view = text.split("Your view (turn ", 1)[1].split("Your choices:", 1)[0].splitlines()[1:]
        assert first_view and len(first_view) <= 25 and any(line.startswith("    hand: ") for line in first_view)
        assert all(re.match(r"    \S[^:]*:", line) for line in first_view), first_view
        assert "{" not in text and "  · " in text  # no JSON; log lines as they came
        watched = (await asyncio.wait_for(spectator.stdout.read(), WAIT)).decode()
        assert await asyncio.wait_for(spectator.wait(), WAIT) == 0
        assert "The table (turn 0):" in watched and "Watching" in watched and "Traceback" not in watched
        assert "  · " in watched and table.narrated_result()["summary"] in watched
        assert table.over and table.narrated_result()["summary"] in text
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


async def test_join_refused_for_its_room_code_says_so_once_and_what_to_do():
    """No code, then a wrong one: each time one sentence saying which it was, and a failing exit status."""
    async with hosting(Table(TOY, {"players": 2}, code="ROOM42")) as host:
        port = host.address[1]
        for given, expected in (([], "this table needs a room code"), (["--code", "NOPE99"],
                                                                        "that room code is wrong")):
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-c", TURPIN_SCRIPT, "join", f"127.0.0.1:{port}", *given, cwd=ROOT, env=ENV,
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT)
            output = (await asyncio.wait_for(process.communicate(), WAIT))[0].decode()
            assert output.count("room code") == 1 and expected in output and "ask the host" in output
            assert "Traceback" not in output and process.returncode == 1


async def test_the_host_advertises_updates_as_seats_fill_and_unregisters(monkeypatch):
    """With discovery on, the host starts an advertiser with the table's facts, updates it as seats fill,
    and the advertiser can be closed (the headless host does it in a `finally`). A stand-in discovery
    module keeps every packet off the network."""
    import types

    import net
    from net.client import TableClient
    from net.host import advertise

    calls = []
    one_seat_taken = asyncio.Event()

    class FakeAd:
        def __init__(self, **fields):
            self.fields = fields

    class FakeAdvertiser:
        def __init__(self, ad, port, interfaces=None):
            calls.append(("new", ad.fields, port, interfaces))

        async def start(self):
            calls.append(("start",))

        async def update(self, seats_taken, seats_free, over=False, waiting=0):
            calls.append(("update", seats_taken, seats_free) + (("over",) if over else ()))
            if (seats_taken, seats_free) == (1, 1):
                one_seat_taken.set()

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
        await asyncio.wait_for(one_seat_taken.wait(), WAIT)
        await advertiser.close()
        await player.close()
    kind, fields, port, interfaces = calls[0]
    assert fields == {"name": "The Bell", "game": "net-toy", "protocol": PROTOCOL_VERSION, "seats_taken": 0,
                      "seats_free": 2,
                      "code_needed": True, "over": False, "waiting": 0}
    assert port == host.address[1] and interfaces == ["127.0.0.1"]
    assert ("start",) in calls and ("update", 1, 1) in calls and calls[-1] == ("close",)


# --- every argument checked, said in one line -----------------------------------------

def _turpin(*argv: str, timeout: float = WAIT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", TURPIN_SCRIPT, *argv], cwd=ROOT, env=ENV, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("argv, words", [
    (["join", "127.0.0.1:99999"], "a port is a number from 1 to 65535, not 99999"),
    (["join", "127.0.0.1:0"], "a port is a number from 1 to 65535, not 0"),
    (["join", "somewhere"], "HOST:PORT"),
    (["join", "127.0.0.1:4707", "--seat", "0"], "a seat number is 1 or more, not 0"),
    (["join", "127.0.0.1:4707", "--seat", "two"], "a seat number is a whole number, not 'two'"),
    (["join", "127.0.0.1:4707", "--name", "x" * 41], "a name has at most 40 characters (this one has 41)"),
    (["join", "127.0.0.1:4707", "--name", "bell\x07"], "a name is 1 to 40 printable characters"),
    (["join", "127.0.0.1:4707", "--code", "x" * 33], "a room code is 1 to 32 printable characters"),
    (["host", "--headless", "--port", "70000"], "a port is a number from 0 to 65535, not 70000"),
    (["host", "--headless", "--port", "-1"], "a port is 0 or more, not -1"),
    (["host", "--headless", "--players", "0"], "--players is 1 or more, not 0"),
    (["host", "--headless", "--bots", "-2"], "--bots is 0 or more, not -2"),
    (["host", "--headless", "--grace", "-5"], "--grace is a number of seconds from 0, not -5"),
    (["host", "--headless", "--bot-delay", "nan"], "--bot-delay is a number of seconds from 0, not nan"),
    (["host", "--headless", "--max-spectators", "-1"], "--max-spectators is 0 or more, not -1"),
    (["host", "--headless", "--timeout", "0"], "--timeout is a number of seconds above 0, not 0"),
])
def test_a_bad_argument_is_said_in_one_line(argv, words):
    """Each bad argument ends the command at once with one line saying what is wrong."""
    result = _turpin(*argv)
    assert result.returncode == 2
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr


def test_tables_refuses_a_negative_listening_time_in_one_line():
    """`turpin tables --seconds -1` does not run; it says why."""
    from tui.cli.tables import add_tables_command
    parser = argparse.ArgumentParser(prog="turpin")
    add_tables_command(parser.add_subparsers(dest="command"))
    with pytest.raises(SystemExit) as stopped:
        parser.parse_args(["tables", "--seconds", "-1"])
    assert stopped.value.code == 2


async def test_an_unknown_interface_is_named_and_the_port_not_blamed(tmp_path):
    """`--interface eth9` says there is no such interface, not to pick another port."""
    result = await asyncio.to_thread(subprocess.run, [
        sys.executable, "-c", HOST_SCRIPT, "--headless", "--game", "net-toy", "--players", "2", "--no-advertise",
        "--interface", "eth9", "--port", "0", "--record", str(tmp_path / "r.record")],
        cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=WAIT, stdin=subprocess.DEVNULL)
    assert result.returncode == 2
    assert "no network interface named 'eth9'" in result.stderr and "--port" not in result.stderr


async def test_a_seat_past_the_table_says_which_seats_there_are():
    """`--seat 5` at a two-seat table names the seats it has, not "seat 5 is not free"."""
    async with hosting(Table(TOY, {"players": 2}, code=None)) as host:
        lost = TableClient(*host.address, seat=4, reconnect=False)
        with pytest.raises(ClientError, match="this table has seats 1 to 2; there is no seat 5"):
            await lost.start()
        await lost.close()


async def test_a_name_the_host_refuses_is_said_not_waited_on():
    """A client whose hello the host refuses as malformed (a name over 40 characters) stops
    and says why instead of waiting in silence."""
    async with hosting(Table(TOY, {"players": 2}, code=None)) as host:
        chatty = TableClient(*host.address, name="x" * 41, reconnect=True, backoff=(0.02, 0.2))
        with pytest.raises(ClientError, match="'name' is too long"):
            await asyncio.wait_for(chatty.start(), WAIT)
        await chatty.close()


async def _served_port(process) -> int:
    """The port a headless host says it serves on, read from its welcome (up to its console's help)."""
    text = ""
    while "Type `seats`" not in text:
        line = await asyncio.wait_for(process.stdout.readline(), WAIT)
        assert line, text
        text += line.decode()
    return int(re.search(r"at 127\.0\.0\.1:(\d+)", text).group(1))


async def _line_with(process, text: str, seen: list[str]) -> str:
    while True:
        line = (await asyncio.wait_for(process.stdout.readline(), WAIT)).decode()
        assert line, "".join(seen)
        seen.append(line)
        if text in line:
            return line


async def _end(process) -> None:
    """The text client's input closed, and the process stopped if it has not ended by itself."""
    process.stdin.close()
    if process.returncode is None:
        process.kill()
    await process.wait()


async def test_the_text_client_waits_through_a_lost_host_and_shows_the_pending_choices_again():
    """With the host down, a typed choice is not sent and the client keeps waiting (no exit);
    the loss is said once with a hint that it is retrying; back at the table, the pending choices are
    shown again, and neither the log nor the token is printed a second time."""
    table = Table(TOY, {"players": 2}, code=None, bots={1: "random"})
    host = TableHost(table, FAST)
    _, port = await host.start("127.0.0.1", 0)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", TURPIN_SCRIPT, "join", f"127.0.0.1:{port}", "--text", "--name", "Tom", cwd=ROOT,
        env=ENV, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    seen: list[str] = []
    try:
        await _line_with(process, "Type a number", seen)
        await host.close()
        await _line_with(process, "waiting for the table to come back", seen)
        process.stdin.write(b"1\n")
        await process.stdin.drain()
        await _line_with(process, "nothing was sent", seen)
        assert process.returncode is None and not any(seat == 0 for seat, _ in table.actions)
        host = TableHost(table, FAST)
        await host.start("127.0.0.1", port)
        await _line_with(process, "back at the table", seen)
        await _line_with(process, "Type a number", seen)
        process.stdin.write(b"1\n")
        await process.stdin.drain()
        await _line_with(process, "You pick your", seen)
        assert any(seat == 0 for seat, _ in table.actions)
        text = "".join(seen)
        assert text.count("--token") == 1 and text.count(table.narrate(table.log[:1])[0]["text"]) == 1, text
        assert text.count("waiting for the table to come back") == 1
        assert text.count("Your choices:") == 2
    finally:
        await host.close()
        await _end(process)


async def test_the_text_client_takes_the_name_given_before_the_command_too():
    """`turpin --name Tex join ADDRESS --text` sits down as Tex, as `join --name Tex` does (the app takes
    either, and the README writes the first)."""
    table = Table(TOY, {"players": 2}, code=None, bots={1: "random"})
    host = TableHost(table, FAST)
    _, port = await host.start("127.0.0.1", 0)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "--name", "Tex", "join", f"127.0.0.1:{port}", "--text", cwd=ROOT,
        env=ENV, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    try:
        await _line_with(process, "Type a number", [])
        assert table.seats[0].name == "Tex"
    finally:
        await host.close()
        await _end(process)


def test_the_view_counts_seats_from_one_and_reads_cards_as_words():
    """Seat numbers in the view are 1-based like everywhere else in the client, "nothing
    yet" (-1) is left out, and cards read as words."""
    lines = render_view({"seat": 0, "dealer": 2, "pending": [0, 2], "stop": -1, "hand": ["bath:8", "dover:L"],
                         "players": [{"seat": 1, "health": 9}]})
    assert lines == ["seat: 1", "dealer: seat 3", "pending: seat 1, seat 3", "hand: Bath 8, Dover L",
                     "players:", "  - seat 2, health 9"]


async def test_the_headless_console_says_each_join_drop_return_bot_and_the_end(tmp_path):
    """The host's console prints one line when a player sits down, leaves, comes back, a
    seat goes to a bot, and when the game ends."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOST_SCRIPT, "--headless", "--game", "net-toy", "--players", "2", "--no-code",
        "--port", "0", "--interface", "127.0.0.1", "--no-advertise", "--bot-delay", "0",
        "--record", str(tmp_path / "r.record"), cwd=ROOT, env=ENV, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    seen: list[str] = []
    try:
        port = int(re.search(r"at 127\.0\.0\.1:(\d+)", await _line_with(process, " at 127.0.0.1:", seen)).group(1))
        await _line_with(process, "Type `seats`", seen)
        tom = TableClient("127.0.0.1", port, name="Tom", reconnect=False)
        await tom.start()
        assert "Seat 1: Tom sat down" in await _line_with(process, "Seat 1", seen)
        token = tom.token
        await tom.close()
        assert "Seat 1: Tom left (the seat waits for them)" in await _line_with(process, "Seat 1", seen)
        back = TableClient("127.0.0.1", port, token=token, reconnect=False)
        await back.start()
        assert "Seat 1: Tom is back" in await _line_with(process, "Seat 1", seen)
        process.stdin.write(b"bot 2\n")
        await process.stdin.drain()
        assert "Seat 2: a bot (" in await _line_with(process, "Seat 2", seen)
        await play_randomly(back, random.Random(3))
        over = await _line_with(process, "Game over", seen)
        # The winners in names ("Moll Cutpurse (random bot) wins"), not as the engine writes them ("Seat 2")
        assert "Game over: " in over and "Seat " not in over and " win" in over
        await back.close()
    finally:
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.wait(), WAIT)


async def test_a_finished_game_is_advertised_as_over_and_the_host_closes_after_lingering(tmp_path, monkeypatch):
    """The end of the game goes into the LAN advert (`turpin tables` says "game over", not
    "2/2 full"), and the headless host closes itself --linger seconds after the end."""
    from net.discovery import TableAd
    from tui.cli.tables import format_tables
    over = TableAd("The Bell", "net-toy", 1, 2, 0, False, "10.0.0.7", 4321, "The Bell 0a1b2c", over=True)
    assert "2/2 game over" in format_tables([over], 3) and "full" not in format_tables([over], 3)
    txt = {key.encode(): value.encode() for key, value in over.to_txt().items()}
    assert TableAd.from_txt(txt, "10.0.0.7", 4321, "The Bell 0a1b2c").over
    del txt[b"over"]  # an older host's advert: still listed, not over
    assert not TableAd.from_txt(txt, "10.0.0.7", 4321, "The Bell 0a1b2c").over

    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOST_SCRIPT, "--headless", "--game", "net-toy", "--players", "2", "--no-code",
        "--bots", "1", "--port", "0", "--interface", "127.0.0.1", "--no-advertise", "--bot-delay", "0",
        "--linger", "0.5", "--record", str(tmp_path / "r.record"), cwd=ROOT, env=ENV,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    seen: list[str] = []
    try:
        port = int(re.search(r"at 127\.0\.0\.1:(\d+)", await _line_with(process, " at 127.0.0.1:", seen)).group(1))
        player = TableClient("127.0.0.1", port, reconnect=False)
        await player.start()
        await play_randomly(player, random.Random(5))
        await _line_with(process, "closes by itself in 0.5 s", seen)
        await _line_with(process, "The table is closed.", seen)
        assert await asyncio.wait_for(process.wait(), WAIT) == 0
        await player.close()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_the_advert_is_updated_when_the_game_ends(monkeypatch):
    """The host's advertiser is told the game is over when it ends."""
    import types

    import net
    from net.host import advertise
    calls = []

    class FakeAdvertiser:
        def __init__(self, ad, port, interfaces=None):
            pass

        async def start(self):
            pass

        async def update(self, seats_taken, seats_free, over=False, waiting=0):
            calls.append((seats_taken, seats_free, over))

        async def close(self):
            pass

    fake = types.SimpleNamespace(TableAd=lambda **fields: fields, TableAdvertiser=FakeAdvertiser,
                                 resolve_interface=lambda spec: [spec])
    monkeypatch.setitem(sys.modules, "net.discovery", fake)
    monkeypatch.setattr(net, "discovery", fake, raising=False)
    table = Table(TOY, {"players": 2}, bots={1: "random"})
    async with hosting(table) as host:
        advertiser = await advertise(host, None)
        player = TableClient(*host.address)
        await player.start()
        await play_randomly(player, random.Random(2))
        async def told_it_is_over():
            while (2, 0, True) not in calls:
                await asyncio.sleep(0.01)
        await asyncio.wait_for(told_it_is_over(), WAIT)
        await advertiser.close()
        await player.close()


def test_turpin_host_clock_sets_the_turn_clock_new_or_resumed(tmp_path, monkeypatch):
    """--clock SECONDS: 90 s unless said (a LAN table), 0 for none; a resumed table keeps its record's clock
    unless --clock says otherwise; a negative clock is refused before any table is made."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    games = {TOY.id: TOY}
    assert build_table(_host_args(), games)[0].turn_clock.seconds == 90
    assert not build_table(_host_args("--clock", "0"), games)[0].turn_clock.on
    table, path = build_table(_host_args("--clock", "45", "--record", str(tmp_path / "t.record")), games)
    assert table.turn_clock.seconds == 45
    record_saver(path)(table.record())
    assert build_table(_host_args("--resume", path), games)[0].turn_clock.seconds == 45
    assert build_table(_host_args("--resume", path, "--clock", "20"), games)[0].turn_clock.seconds == 20
    with pytest.raises(SystemExit):
        _host_args("--clock", "-5")
