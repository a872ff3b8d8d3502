"""Faults: a client killed mid-turn, the host killed with SIGKILL and resumed, a client frozen with SIGSTOP."""

from __future__ import annotations

import asyncio
import os
import pathlib
import random
import re
import signal
import socket
import subprocess
import sys
import time

import pytest

from net.client import TableClient, describe_duration
from net.host import HostSettings, TableHost
from net.protocol import PROTOCOL_VERSION
from net.record import read_record
from net.table.table import Table
from tests.net_helpers import (
    FAST,
    GAME_IDS,
    GAMES,
    HOST_SCRIPT,
    TOY,
    WAIT,
    client,
    close_all,
    hosting,
    play_one_bot,
    play_randomly,
    seat_range,
)
from tests.waiting import until

ROOT = pathlib.Path(__file__).resolve().parents[2]

#: Runs ``turpin host`` with the registered games and the toy, exactly as the command line does.


async def test_a_client_killed_mid_turn_comes_back_to_the_same_seat_and_prompt():
    """A player's connection dies while the game waits for him; with his token he gets the same seat,
    the same view and the same pending prompt, answers it, and the game goes on to the end."""
    table = Table(TOY, {"players": 2}, code="ROOM42")
    async with hosting(table) as host:
        players = [client(host, code="ROOM42", reconnect=False) for _ in range(2)]
        for player in players:
            await player.start()
        victim = players[0]
        await victim.wait_for(lambda snap: snap.prompt is not None, WAIT)
        prompt, view, token = victim.snapshot.prompt, victim.snapshot.view, victim.token
        notices = []
        players[1].subscribe(lambda update: notices.append(update.text) if update.kind == "notice" else None)
        victim._writer.transport.abort()  # no bye: as if the process died
        spectator = client(host, role="spectator")
        await spectator.start()
        await spectator.wait_for(lambda snap: not snap.seats[0]["connected"], WAIT)
        await players[1].wait_for(lambda snap: bool(notices), WAIT)
        assert "has lost the table" in notices[0]  # (one who says bye "has left the table")
        back = client(host, token=token)
        await back.start()
        assert back.snapshot.seat == 0
        assert back.snapshot.prompt == prompt and back.snapshot.view == view
        players[0] = back
        await asyncio.gather(*(play_randomly(p, random.Random(i)) for i, p in enumerate(players)))
        assert table.over and back.snapshot.result == table.narrated_result()
        await close_all(victim, *players, spectator)


async def test_a_dropped_client_reconnects_by_itself_and_catches_up():
    """When the host drops a connection, the client reconnects with backoff and its token, gets the full
    catch-up (same log, same seat) and plays on."""
    table = Table(TOY, {"players": 2}, code="ROOM42")
    async with hosting(table) as host:
        players = [client(host, code="ROOM42") for _ in range(2)]
        for player in players:
            await player.start()
        await players[0].wait_for(lambda snap: snap.prompt is not None, WAIT)
        await players[0].choose(0)
        await players[0].wait_for(lambda snap: snap.turn >= 1, WAIT)
        welcomes = []
        players[0].subscribe(lambda update: welcomes.append(update) if update.kind == "welcome" else None)
        for connection in list(host.connections):
            if connection.watcher is not None and connection.watcher.seat == 0:
                connection.abort()
        await players[0].wait_for(lambda snap: bool(welcomes) and players[0].connected, WAIT)
        assert players[0].snapshot.seat == 0
        await asyncio.gather(*(play_randomly(p, random.Random(i)) for i, p in enumerate(players)))
        from core.engine import visible_events
        assert players[0].snapshot.log == table.narrate(visible_events(table.log, 0))
        await close_all(*players)


async def _start_host(args: list[str]) -> tuple[subprocess.Popen, int]:
    process = subprocess.Popen([sys.executable, "-c", HOST_SCRIPT, *args], cwd=ROOT, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    line = await asyncio.to_thread(process.stdout.readline)
    match = re.search(r" at 127\.0\.0\.1:(\d+)", line)
    if not match:  # not where it should be: stopped here, or it would outlive the test (and listen on)
        ended = process.poll() is not None
        _stop(process)
        raise AssertionError(f"the host did not start on 127.0.0.1: {line}{'(it ended)' if ended else ''}")
    return process, int(match.group(1))


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.kill()
    process.wait()
    process.stdout.close()


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
async def test_host_killed_with_sigkill_resumes_from_its_record_with_nothing_lost(game, tmp_path):
    """SIGKILL the host mid-game; `turpin host --resume FILE` restores the exact table: every action any
    client saw accepted is in the record, the clients reconnect by themselves to their own seats, and the
    game plays on to one result everyone agrees on, served where it was (127.0.0.1) and nowhere else."""
    low, high = seat_range(game)
    seats = min(max(low, 3), high)
    humans = min(2, seats)
    record = tmp_path / "table.record"
    common = ["--headless", "--no-advertise", "--interface", "127.0.0.1", "--bot-delay", "0",
              "--heartbeat", "0.2", "--timeout", str(WAIT)]  # a guard: under load a live client is kept
    host, port = await _start_host([*common, "--game", game.id, "--players", str(seats),
                                    "--bots", str(seats - humans), "--no-code", "--port", "0",
                                    "--record", str(record)])
    players = [client_at(port) for _ in range(humans)]
    try:
        for player in players:
            await player.start()
        seats_before = [player.snapshot.seat for player in players]
        await asyncio.gather(*(play_randomly(p, random.Random(i), stop_at_turn=4) for i, p in enumerate(players)))
        host.send_signal(signal.SIGKILL)
        host.wait()
        saved = read_record(record)
        seen = max(player.snapshot.turn for player in players)
        assert len(saved["actions"]) >= seen, "an action clients saw accepted is missing from the record"
        mid_game = game.setup(saved["options"], saved["seed"])
        for seat, action in saved["actions"]:
            game.apply(mid_game, seat, action)
        assert game.result(mid_game) is None, "the host was killed mid-game"
        # Resumed without --interface: the record keeps it, as it keeps the port (a table served on
        # 127.0.0.1 came back on every interface, open to the network: the welcome then named a LAN address).
        without_interface = [arg for arg in common if arg not in ("--interface", "127.0.0.1")]
        host, resumed_port = await _start_host([*without_interface, "--resume", str(record)])
        assert resumed_port == port, "the resumed host listens where the clients will look for it"
        for player in players:
            await player.wait_for(lambda snap, p=player: p.connected and snap.turn >= len(saved["actions"]), WAIT)
        assert [player.snapshot.seat for player in players] == seats_before
        await asyncio.gather(*(play_randomly(p, random.Random(10 + i)) for i, p in enumerate(players)))
        final = read_record(record)
        assert final["actions"][:len(saved["actions"])] == saved["actions"] and final["seed"] == saved["seed"]
        results = [player.snapshot.result for player in players]
        assert results[0] is not None and all(result == results[0] for result in results)
        assert results[0]["seed"] == saved["seed"]
    finally:
        await close_all(*players)
        _stop(host)


def client_at(port: int) -> TableClient:
    return TableClient("127.0.0.1", port, backoff=(0.05, 0.5), connect_timeout=WAIT)


CLIENT_SCRIPT = ("import asyncio, sys\n"
                 "from net.client import TableClient\n"
                 "async def main():\n"
                 "    c = TableClient('127.0.0.1', int(sys.argv[1]), code='ROOM42', reconnect=False)\n"
                 "    await c.start()\n"
                 "    print('seated', c.snapshot.seat, flush=True)\n"
                 "    await asyncio.sleep(3600)\n"
                 "asyncio.run(main())\n")


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="needs SIGSTOP")
async def test_a_frozen_client_is_noticed_within_the_heartbeat_timeout():
    """A client stopped with SIGSTOP (a half-open connection) stops answering heartbeats: the host drops
    it once the stated timeout passes with nothing heard, and the table says so."""
    settings = HostSettings(heartbeat=0.2, timeout=3.0)
    table = Table(TOY, {"players": 2}, code="ROOM42", bots={1: "random"})
    async with hosting(table, settings) as host:
        spectator = client(host, role="spectator")
        await spectator.start()
        notices = []
        spectator.subscribe(lambda update: notices.append(update.text) if update.kind == "notice" else None)
        frozen = subprocess.Popen([sys.executable, "-c", CLIENT_SCRIPT, str(host.address[1])], cwd=ROOT,
                                  stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        try:
            assert (await asyncio.to_thread(frozen.stdout.readline)).startswith("seated 0")
            await spectator.wait_for(lambda snap: snap.seats[0]["connected"], WAIT)
            seat_0 = next(c for c in host.connections if c.watcher is not None and c.watcher.seat == 0)
            frozen.send_signal(signal.SIGSTOP)
            stopped_at = time.monotonic()
            await spectator.wait_for(lambda snap: not snap.seats[0]["connected"], WAIT)
            noticed_at = time.monotonic()
            await spectator.wait_for(lambda snap: bool(notices), WAIT)
            assert "stopped answering" in notices[0] and f"{settings.timeout:g} s" in notices[0]
            # It waited for the silence to last the whole timeout: a live client is never dropped early.
            # (Counted from the last frame the host heard from it, not from the SIGSTOP: on a busy machine
            # the client's last ping may have gone out well before it was stopped.)
            assert noticed_at - seat_0.last_heard >= settings.timeout
            print(f"frozen client noticed {noticed_at - stopped_at:.2f} s after SIGSTOP, "
                  f"{noticed_at - seat_0.last_heard:.2f} s after its last frame (timeout {settings.timeout} s)")
        finally:
            frozen.send_signal(signal.SIGCONT)
            frozen.kill()
            frozen.wait()
            frozen.stdout.close()
        await spectator.close()


async def test_a_client_that_stops_reading_is_dropped_and_nobody_else_waits():
    """A spectator that never reads fills its bounded queue and is cut off; a healthy spectator gets
    every frame, and the game goes on."""
    from net.host import HostSettings as Settings
    settings = Settings(heartbeat=0.2, timeout=30.0, send_queue=16)
    table = Table(TOY, {"players": 2}, code="ROOM42", bots={1: "random"})
    async with hosting(table, settings) as host:
        healthy = client(host, role="spectator")
        await healthy.start()
        notices = []
        healthy.subscribe(lambda update: notices.append(update) if update.kind == "notice" else None)
        stalled = socket.socket()
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stalled.setblocking(False)
        await asyncio.get_running_loop().sock_connect(stalled, host.address)
        from net import protocol
        await asyncio.get_running_loop().sock_sendall(
            stalled, protocol.encode({"type": "hello", "protocol": PROTOCOL_VERSION, "role": "spectator"}))
        await until(lambda: len([c for c in host.connections if c.watcher is not None]) == 2, "both spectators in")
        big = "x" * 8000
        sent = 0
        while len(host.connections) == 2 and sent < 20_000:
            table.notice(big)
            sent += 1
            await asyncio.sleep(0)
        assert len(host.connections) == 1, "the stalled spectator was dropped"
        await healthy.wait_for(lambda snap: len(notices) == sent, WAIT)
        stalled.close()
        player = client(host, code="ROOM42")
        await player.start()
        await play_randomly(player, random.Random(1))
        assert table.over
        await close_all(healthy, player)


async def test_a_seat_gone_past_the_grace_period_is_played_by_a_bot_until_its_player_comes_back():
    """With a grace period set, the table says what will happen when a player is lost; past the grace a
    bot plays his seat, and his token takes it back (the seat is not lost for good after "the seat waits
    for them"). Nothing lost: a dropped client gets its seat back."""
    table = Table(TOY, {"players": 2}, code="ROOM42", grace=0.3)
    async with hosting(table) as host:
        players = [client(host, code="ROOM42", name=name) for name in ("Ann", "Cat")]
        for player in players:
            await player.start()
        notices = []
        players[0].subscribe(lambda update: notices.append(update.text) if update.kind == "notice" else None)
        token = players[1].token
        await players[1].close()
        await players[0].wait_for(lambda snap: snap.seats[1]["kind"] == "bot" and len(notices) >= 2, WAIT)
        assert notices[0] == "Cat has left the table; a bot plays the seat after 0.3 s, until they come back"
        assert "longer than the grace period" in notices[1]
        comeback = client(host, token=token)
        await comeback.start()
        assert comeback.snapshot.seat == 1 and table.seats[1].kind == "player" and table.seats[1].name == "Cat"
        await players[0].wait_for(lambda snap: snap.seats[1]["kind"] == "player", WAIT)
        await asyncio.gather(play_randomly(players[0], random.Random(2)), play_randomly(comeback, random.Random(3)))
        assert table.over
        await close_all(players[0], comeback)


async def test_a_player_who_leaves_once_the_game_is_over_is_not_said_to_be_waited_for():
    """After the result nothing waits: never "Ann has left the table; the seat waits for them"."""
    table = Table(TOY, {"players": 2}, code="ROOM42")
    async with hosting(table) as host:
        players = [client(host, code="ROOM42", name=name) for name in ("Ann", "Cat")]
        for player in players:
            await player.start()
        said = []
        table.report_to(said.append)
        notices = []
        players[0].subscribe(lambda update: notices.append(update.text) if update.kind == "notice" else None)
        await asyncio.gather(play_randomly(players[0], random.Random(2)), play_randomly(players[1], random.Random(3)))
        assert table.over
        await players[1].close()
        await players[0].wait_for(lambda snap: not snap.seats[1]["connected"] and notices, WAIT)
        assert notices[-1] == "Cat has left the table."
        assert "Seat 2: Cat left (the game is over)" in said
        await close_all(players[0])


async def test_a_seat_the_host_hands_to_a_bot_is_the_bots_for_good():
    """The host's own hand-over (the console's `bot N`) is not a grace: the player's token stops working."""
    table = Table(TOY, {"players": 2}, code="ROOM42")
    async with hosting(table) as host:
        players = [client(host, code="ROOM42") for _ in range(2)]
        for player in players:
            await player.start()
        token = players[1].token
        await players[1].close()
        host.table.hand_to_bot(1, why="is taken by a bot")
        comeback = client(host, token=token)
        with pytest.raises(Exception, match="token is not known"):
            await comeback.start()
        await close_all(players[0], comeback)


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="needs SIGSTOP")
async def test_a_frozen_host_is_noticed_by_its_clients_who_come_back_when_it_thaws(tmp_path):
    """Heartbeats both ways: when the host freezes (SIGSTOP), a client hears nothing for the timeout
    the host stated in its welcome, says it lost the table, and rejoins its seat once the host thaws."""
    host, port = await _start_host(["--headless", "--no-advertise", "--interface", "127.0.0.1", "--port", "0",
                                    "--game", "net-toy", "--players", "2", "--bots", "1", "--no-code",
                                    "--bot-delay", "0", "--heartbeat", "0.2", "--timeout", "3",
                                    "--record", str(tmp_path / "frozen.record")])
    player = client_at(port)
    lost = []
    player.subscribe(lambda update: lost.append(update.text) if update.kind == "disconnected" else None)
    try:
        await player.start()
        assert player.timeout == 3, "the welcome states the timeout"
        lost.clear()  # only the loss the freeze causes (a busy test process may have lost one before)
        host.send_signal(signal.SIGSTOP)
        await player.wait_for(lambda snap: bool(lost), WAIT)
        assert "did not answer in time" in lost[0]
        host.send_signal(signal.SIGCONT)
        await player.wait_for(lambda snap: player.connected, WAIT)
        assert player.snapshot.seat == 0
        await play_randomly(player, random.Random(3))
        assert player.snapshot.result is not None
    finally:
        host.send_signal(signal.SIGCONT)
        await player.close()
        _stop(host)


#: Far past the 1,024th attempt, where ``low * 2 ** attempt`` used to overflow a float and end the loop.
ATTEMPTS = 3000


async def test_a_client_keeps_trying_through_thousands_of_failed_attempts_and_gets_its_seat_back():
    """The host goes away (its port closed) for thousands of reconnection attempts: the client never gives
    up, keeps its wait capped, says since when and how often it has tried, and when the host comes back on
    the same port it rejoins its own seat and plays on."""
    table = Table(TOY, {"players": 2}, code="ROOM42", bots={1: "random"})
    host = TableHost(table, FAST)
    _, port = await host.start("127.0.0.1", 0)
    player = TableClient("127.0.0.1", port, code="ROOM42", backoff=(1e-9, 1e-6))
    lost = []
    player.subscribe(lambda update: lost.append(update.text) if update.kind == "disconnected" else None)
    holder = socket.socket()  # keeps the port while the host is away, so no other test's host gets it
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        await player.start()
        assert player.retrying_since is None and player.retry_status() == ""
        await host.close()
        holder.bind(("127.0.0.1", port))  # bound, never listening: every attempt is refused
        await player.wait_for(lambda snap: player.retrying_since is not None, WAIT)
        since = player.retrying_since
        await player.wait_for(lambda snap: player.attempts >= ATTEMPTS, WAIT * 5)
        assert player.stopped is None and not player._runner.done(), "the client is still trying"
        assert player.retrying_since == since and player.retry_delay == 1e-6
        assert lost[0].endswith("; trying again")
        assert re.fullmatch(rf"nobody is hosting a table at 127\.0\.0\.1:{port} \(the connection was refused\); "
                            rf"trying again for \d+ (s|min) \({player.attempts} attempts so far\)", lost[-1]), lost[-1]
        assert player.retry_status().startswith("trying again for ") and player.retrying_for() >= 0

        host = TableHost(table, FAST)
        await host.start("127.0.0.1", port)
        holder.close()
        await player.wait_for(lambda snap: player.connected, WAIT)
        assert player.snapshot.seat == 0 and player.attempts == 0 and player.retrying_since is None
        await play_randomly(player, random.Random(4))
        assert player.snapshot.result == table.narrated_result()
    finally:
        holder.close()
        await player.close()
        await host.close()


async def test_a_client_that_will_not_reconnect_says_it_lost_the_table_and_stops():
    """With reconnecting off, the loss is said once, without a promise of trying again, and the client stops."""
    table = Table(TOY, {"players": 2})
    async with hosting(table) as host:
        player = client(host, reconnect=False)
        lost = []
        player.subscribe(lambda update: lost.append(update.text) if update.kind == "disconnected" else None)
        await player.start()
    await player.wait_for(lambda snap: player.stopped is not None, WAIT)
    assert len(lost) == 1 and "trying again" not in lost[0] and player.retry_status() == ""
    await player.close()


async def test_a_table_closed_for_good_stops_its_clients_while_a_host_shut_down_is_waited_for():
    """A host shut down (a headless host stopped) may be resumed from its record, so its clients keep
    trying. A table its host closed for good (left or quit in the app) will not come back: its clients
    stop at once, with the reason, instead of "reconnecting by itself" to nothing."""
    table = Table(TOY, {"players": 2})
    host = TableHost(table, FAST)
    await host.start("127.0.0.1", 0)
    waiting = client(host)
    await waiting.start()
    await host.close()
    await waiting.wait_for(lambda snap: waiting.retrying_since is not None, WAIT)
    assert waiting.stopped is None  # still trying: it may be resumed
    await waiting.close()

    table = Table(TOY, {"players": 2})
    host = TableHost(table, FAST)
    await host.start("127.0.0.1", 0)
    player = client(host)
    await player.start()
    await host.close(for_good=True)
    await until(lambda: player.stopped is not None, "the client to stop")
    assert player.stopped == "the host has closed the table" and player.retrying_since is None
    await player.close()


async def test_leaving_while_the_host_drops_the_connection_is_still_a_clean_leave():
    """The goodbye drains while the host, told goodbye, closes the connection, and the client's own loop
    drops it: leaving must still end quietly (seen as a crash of the app's lobby on a loaded machine)."""
    table = Table(TOY, {"players": 2})
    async with hosting(table) as host:
        player = client(host, reconnect=False)
        await player.start()
        writer = player._writer
        real_drain = writer.drain

        async def drain_while_the_loop_drops_it() -> None:
            player._writer = None  # what the connection loop does when the host hangs up
            await real_drain()

        writer.drain = drain_while_the_loop_drops_it
        await player.close()
        assert player.stopped is not None and not player.connected


def test_a_retrying_client_says_for_how_long_in_words():
    """The status a UI shows while the client retries: how long, in seconds, minutes or hours, and how
    many attempts; nothing while connected."""
    assert [describe_duration(s) for s in (0, 59.9, 60, 185, 3600, 3900)] == \
        ["0 s", "59 s", "1 min", "3 min", "1 h", "1 h 5 min"]
    player = TableClient("127.0.0.1", 1)
    assert player.retry_status() == "" and player.retrying_for() is None
    player.retrying_since, player.attempts = time.monotonic() - 185, 40
    assert player.retry_status() == "trying again for 3 min (40 attempts so far)"
    player.attempts = 1
    assert player.retry_status().endswith("(1 attempt so far)")


def test_a_resumed_table_is_served_where_its_record_says_and_an_older_record_says_it_cannot_tell():
    """A table hosted on 127.0.0.1 comes back on 127.0.0.1 only when resumed: the record keeps where it
    was served; a record from before that is served on every interface, and the host says so."""
    from tui.cli.host import interface_to_serve
    assert interface_to_serve(None, {"port": 4707, "interface": "127.0.0.1"}) == ("127.0.0.1", "")
    assert interface_to_serve(None, {"port": 4707, "interface": None}) == (None, "")  # every one, as asked
    assert interface_to_serve("10.0.0.2", {"port": 4707, "interface": "127.0.0.1"}) == ("10.0.0.2", "")
    interface, note = interface_to_serve(None, {"port": 4707})
    assert interface is None and "does not say where the table was served" in note
    assert interface_to_serve(None, {}) == (None, "")  # a new table: --interface's default, every one


def test_a_player_back_in_a_seat_a_bot_kept_warm_is_told_the_bots_moves_are_in_his_log():
    """Back after the grace, Gina's catch-up has "You chose the tavern" for a pick the bot made for her:
    she is told a bot played for her, and nobody else gets that line."""
    from net import protocol
    table = Table(TOY, {"players": 2}, grace=0.0)
    hello = {"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "role": "player"}
    heard_by_ann: list[bytes] = []
    table.join(heard_by_ann.append, {**hello, "name": "Ann"})
    cat = table.join(lambda frame: None, {**hello, "name": "Cat"})
    token = table.seats[1].token
    table.leave(cat)
    table.hand_to_bot(1, keep_warm=True)
    bot = table.seats[1].name_in_the_log
    heard_by_cat: list[bytes] = []
    table.join(heard_by_cat.append, {**hello, "token": token})
    def notices(heard: list[bytes]) -> list[str]:
        messages = map(protocol.decode_body, (raw[4:] for raw in heard))
        return [message["text"] for message in messages if message["type"] == "notice"]
    assert [text for text in notices(heard_by_cat) if "played your seat" in text] == [
        f"While you were away {bot} played your seat: the log's lines since then, yours among them, are its "
        "moves. Your seat is yours again."]
    assert not any("played your seat" in text for text in notices(heard_by_ann))


def test_a_seat_leaving_is_named_as_the_log_names_it_where_two_share_a_name():
    """At a table of two Anns, "Ann has left the table" says which."""
    from net import protocol
    table = Table(TOY, {"players": 3})
    hello = {"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "role": "player"}
    heard: list[bytes] = []
    table.join(heard.append, {**hello, "name": "Hank"})
    table.join(lambda frame: None, {**hello, "name": "Ann"})
    third = table.join(lambda frame: None, {**hello, "name": "Ann"})
    third.said_bye = True
    table.leave(third)
    notices = [message["text"] for message in map(protocol.decode_body, (raw[4:] for raw in heard))
               if message["type"] == "notice"]
    assert any(text.startswith("Ann (seat 3) has left the table") for text in notices), notices


async def test_resuming_a_finished_game_says_it_is_over(tmp_path):
    """`--resume` of a finished game's record says the game is over before it serves the result for the
    linger time."""
    from net.host import record_saver
    table = Table(TOY, {"players": 2}, bots={0: "random", 1: "random"})
    while play_one_bot(table):
        pass
    assert table.over
    record = tmp_path / "done.record"
    saver = record_saver(str(record))
    saver(table.record())
    saver.close()  # the host that wrote it is gone
    host, _ = await _start_host(["--headless", "--no-advertise", "--interface", "127.0.0.1", "--port", "0",
                                 "--linger", "60", "--resume", str(record)])
    try:
        said = []
        while not any("already over" in line for line in said):
            line = await asyncio.wait_for(asyncio.to_thread(host.stdout.readline), WAIT)
            assert line, "".join(said)
            said.append(line)
    finally:
        _stop(host)


def test_a_seat_kept_warm_by_a_bot_is_still_its_players_after_a_resume():
    """The record keeps a warm seat's token and its player's name: a host that crashes while a bot keeps
    the seat warm resumes with the seat still his to take back."""
    from net import protocol
    table = Table(TOY, {"players": 2}, grace=0.0)
    hello = {"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "role": "player"}
    ann = table.join(lambda frame: None, {**hello, "name": "Ann"})
    cat = table.join(lambda frame: None, {**hello, "name": "Cat"})
    token = table.seats[1].token
    table.leave(cat)
    table.hand_to_bot(1, keep_warm=True)
    assert table.seats[1].kind == "bot" and table.seats[1].name != "Cat"
    resumed = Table.from_record(TOY, table.record())
    assert resumed.seats[1].kind == "bot"
    back = resumed.join(lambda frame: None, {**hello, "token": token})
    assert back.seat == 1 and resumed.seats[1].kind == "player" and resumed.seats[1].name == "Cat"
    assert ann.seat == 0


async def test_an_address_that_is_not_a_turpin_table_is_said_to_be_so():
    """Something that is not a turpin host at all (an SSH port, say) is called that, with a hint, not "sent
    something this program cannot read (a frame of 1397966893 bytes is not allowed…)"."""
    from net.client import ClientError

    async def speak_ssh(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"SSH-2.0-OpenSSH_9.2p1 Debian\r\n" + b"\0" * 64)
        await writer.drain()
        await asyncio.sleep(1)
        writer.close()

    server = await asyncio.start_server(speak_ssh, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        player = TableClient("127.0.0.1", port, name="Ann", reconnect=False)
        with pytest.raises(ClientError, match=rf"127\.0\.0\.1:{port} is not a turpin table \(is the port right\?\)"):
            await player.start()
    finally:
        server.close()
        await server.wait_closed()


def test_a_seat_a_bot_kept_warm_is_its_players_in_the_result():
    """At the end of a game a bot played part of, everyone reads the same winner: the result names the
    seat's player ("Ann won", not "Moll Cutpurse won") whether or not she is back."""
    from core.registry import get_game
    from net import protocol
    from tui.frame import TableFrame
    table = Table(get_game("turpin"), {"players": 2}, bots={0: "random"}, seed=5)
    hello = {"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "role": "player"}
    ann = table.join(lambda frame: None, {**hello, "name": "Ann"})
    table.leave(ann)
    table.hand_to_bot(1, keep_warm=True)
    stand_in = table.seats[1].name_in_the_log
    while play_one_bot(table):
        pass
    assert table.over and stand_in != "Ann"
    summary = table.narrated_result()["summary"]
    assert "Ann" in summary and stand_in not in summary, summary
    seats = table.seating.public()
    assert seats[1]["away_name"] == "Ann" and "away_name" not in seats[0]
    frame = TableFrame(game="turpin", title="t", seat=0, started=True, seats=seats)
    assert frame.owner_name(1) == "Ann (a bot stood in)" and frame.owner_name(0) == frame.name(0)


async def test_a_seat_held_for_a_lost_player_is_advertised_as_held_not_full():
    """While a seat waits for its player, the LAN advert counts it ("waiting") and the lists say
    the seat is held, not that the table is full; once he is back the table is full again."""
    from net.discovery import TableAd
    from net.host import Advertising
    from tui.cli.tables import format_tables
    from tui.widgets.lan_tables import LanTable, table_state

    class Advertiser:  # the zeroconf side is tested in namespaces; here, what the host would publish
        def __init__(self) -> None:
            self.published: list[tuple[int, int, bool, int]] = []

        async def update(self, taken: int, free: int, over: bool, waiting: int) -> None:
            self.published.append((taken, free, over, waiting))

    table = Table(TOY, {"players": 2})
    async with hosting(table) as host:
        advertiser = Advertiser()
        Advertising(host, advertiser)
        players = [client(host, reconnect=False) for _ in range(2)]
        for player in players:
            await player.start()
        await until(lambda: advertiser.published[-1:] == [(2, 0, False, 0)], "the table advertised as full")
        token = players[0].token
        players[0]._writer.transport.abort()
        await until(lambda: advertiser.published[-1:] == [(2, 0, False, 1)], "the lost player's seat advertised")
        ad = TableAd("The Bell", TOY.id, 1, 2, 0, False, "127.0.0.1", 1, "The Bell 0a1b2c", waiting=1)
        heard = TableAd.from_txt({k.encode(): v.encode() for k, v in ad.to_txt().items()}, "127.0.0.1", 1,
                                 ad.instance)
        assert heard.waiting == 1
        assert "2/2 1 held for a lost player" in format_tables([heard], 3)
        listed = LanTable(ad.instance, ad.name, ad.game, ad.address, 2, 0, False, False, heard.waiting)
        assert table_state(listed) == "1 seat held"
        back = client(host, token=token)
        await back.start()
        await until(lambda: advertiser.published[-1:] == [(2, 0, False, 0)], "the table full again")
        assert table_state(LanTable(ad.instance, ad.name, ad.game, ad.address, 2, 0, False)) == "full"
        await close_all(*players, back)
