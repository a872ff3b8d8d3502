"""Everything a host sends is untrusted. A hostile host (a real table behind a proxy that
writes escape sequences into every string it sends) reaches no player's terminal: the client takes out
every character that is not printable, once, where it reads a frame, so the snapshot, the text client, the
app (under Pilot and on a real pty) show none of them."""

from __future__ import annotations

import asyncio
import io
import os
import pty
import random
import signal
import sys

from core.registry import all_games
from net.table.table import Table
from net.untrusted import forged_marks, name_problem, player_name, printable, printable_message
from tests.hostile_host import FORBIDDEN_OUTPUT, hostile, hostile_in_front_of, unprintable_in
from tests.net_helpers import TOY, WAIT, client, close_all, hosting, play_randomly
from tests.tui_helpers import play_to_results, screen_text
from tests.waiting import until
from tui.app import Start, TurpinApp
from tui.cli.text_client import play_text
from tui.glyphs import ASCII, UNICODE

#: What is left of the poisoned table name once its escapes are out: a person sees the name.
NAME_SHOWN = "Hostile table"


def test_the_filter_takes_out_every_control_and_leaves_the_message_as_the_host_meant_it():
    fair = {"type": "table", "turn": 3, "events": [{"text": "Ann robs the coach\nat Tyburn", "seat": 1}],
            "seats": [{"name": "Ann", "kind": "player"}], "view": {"hands": [[1, 2], []]}, "result": None}
    assert printable_message(fair) == fair
    cleaned = printable_message(hostile(fair))
    assert unprintable_in(cleaned) == []
    assert cleaned["turn"] == 3 and cleaned["view"] == fair["view"] and cleaned["seats"][0]["kind"] == "player"
    assert cleaned["events"][0]["text"] == "]52;c;cHduZWQ=]0;pwnedAnn robs the coach\nat Tyburn]8;;http://evil.example/\\[2J[H"
    for control in ("\x1b", "\x07", "\x00", "\t", "\r", "\x85", "\x9b", "\u200b", "\u200e", "\u202a",
                    "\u202e", "\u2066", "\u2069", "\ufeff", "\u2028"):
        assert printable(f"a{control}b", newlines=True) == "ab", repr(control)


async def test_a_client_of_a_hostile_host_keeps_no_control_character_anywhere_in_its_snapshot():
    table = Table(TOY, {"players": 2}, name=NAME_SHOWN, seed=5)
    async with hosting(table) as host, hostile_in_front_of(host.address) as proxy:
        raw: list[dict] = []
        ann = client(host, name="Ann", frame_log=raw)
        ann.port = proxy.address[1]
        bob = client(host, name="Bob")
        bob.port = proxy.address[1]
        updates = []
        ann.subscribe(updates.append)
        await ann.start()
        await bob.start()
        await ann.act({"type": "no such move"})  # an error reply: its words are the host's too
        await ann.wait_for(lambda snap: ann.last_error is not None, WAIT)
        await bob.say("Stand and deliver")
        table.notice("The host says hello")
        await ann.wait_for(lambda snap: snap.chat, WAIT)
        await asyncio.gather(play_randomly(ann, random.Random(1)), play_randomly(bob, random.Random(2)))
        await ann.wait_for(lambda snap: snap.result is not None, WAIT)
        await close_all(ann, bob)
    assert any("\\x1b]52;c;" in where for where in unprintable_in(raw)), "the hostile host sent no escapes"
    assert proxy.frames > 10
    snap = ann.snapshot
    assert snap.table == NAME_SHOWN.join(("]52;c;cHduZWQ=]0;pwned", "]8;;http://evil.example/\\[2J[H"))
    assert snap.record is not None and snap.seats[1]["kind"] == "player"
    assert unprintable_in(vars(snap)) == []
    assert unprintable_in([update.text for update in updates]) == []
    assert unprintable_in([update.message for update in updates]) == []
    assert {"chat", "notice", "error", "table", "welcome"} <= {update.kind for update in updates}


async def test_the_text_client_of_a_hostile_host_prints_no_control_character():
    table = Table(TOY, {"players": 2}, name=NAME_SHOWN, seed=9)
    async with hosting(table) as host, hostile_in_front_of(host.address) as proxy:
        players = [client(host, name=name) for name in ("Ann", "Bob")]
        watcher = client(host, role="spectator", name="Watcher")
        for someone in (*players, watcher):
            someone.port = proxy.address[1]
        for player in players:
            await player.start()
        out = io.StringIO()
        text_client = asyncio.ensure_future(play_text(watcher, out))
        await watcher.wait_for(lambda snap: watcher.welcomed, WAIT)
        await players[0].say("Your money or your life")
        table.notice("The host says hello")
        await watcher.wait_for(lambda snap: len(snap.chat) == 1, WAIT)
        await asyncio.gather(*(play_randomly(player, random.Random(seat)) for seat, player in enumerate(players)))
        assert await asyncio.wait_for(text_client, WAIT) == 0
        await close_all(*players)
    printed = out.getvalue()
    assert NAME_SHOWN in printed and "Your money or your life" in printed and "Game over" in printed
    assert [line for line in printed.splitlines() if not line.isprintable()] == []


async def test_the_app_at_a_hostile_hosts_table_shows_no_control_character_from_join_to_results(monkeypatch,
                                                                                               tmp_path):
    monkeypatch.setenv("TURPIN_SEATS_FILE", str(tmp_path / "seats.json"))
    monkeypatch.setenv("TURPIN_RECORDS_DIR", str(tmp_path / "records"))
    game = all_games()["turpin"]
    table = Table(game, {"players": 2}, name=NAME_SHOWN, bots={1: "random"}, seed=3)
    async with hosting(table) as host, hostile_in_front_of(host.address) as proxy:
        watcher = client(host, role="spectator", name="Watcher")
        watcher.port = proxy.address[1]
        address = f"127.0.0.1:{proxy.address[1]}"
        app = TurpinApp(Start(route="join", address=address), player_name="Ann", lan_interfaces=[], bell=False)
        async with app.run_test(size=(200, 50)) as pilot:
            await until(lambda: NAME_SHOWN in screen_text(app), "the table drawn", pilot=pilot)
            await watcher.start()
            await watcher.say("Hark")
            table.notice("The host says hello")
            # the log folds the long poisoned line in its pane: the line is looked for where it is kept
            await until(lambda: any("Hark" in line.plain for _, line in app.screen._log.own_lines),
                        "the chat line", pilot=pilot)
            await pilot.pause()
            at_the_table = screen_text(app)
            await play_to_results(pilot, app)
            at_the_results = screen_text(app)
            await watcher.close()
    assert "pwned" in at_the_table and NAME_SHOWN in at_the_table
    for screen in (at_the_table, at_the_results):
        assert [line for line in screen.splitlines() if not line.isprintable()] == []


async def test_the_app_on_a_real_terminal_writes_none_of_a_hostile_hosts_escapes(tmp_path):
    """The app on a pty, as an SSH guest's would be: its output holds its own drawing and nothing the host
    wrote (no clipboard write, title, hyperlink, screen clear or bidi mark of the host's)."""
    table = Table(TOY, {"players": 2}, name=NAME_SHOWN, seed=4)
    async with hosting(table) as host, hostile_in_front_of(host.address) as proxy:
        bob = client(host, name="Bob")
        bob.port = proxy.address[1]
        await bob.start()
        env = {**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
               "TURPIN_JOIN": f"127.0.0.1:{proxy.address[1]}", "TURPIN_LAN": "off",
               "TURPIN_SEATS_FILE": str(tmp_path / "seats.json"), "XDG_DATA_HOME": str(tmp_path),
               "XDG_STATE_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)}
        master, slave = pty.openpty()
        os.set_blocking(master, False)
        from net.ssh import set_window_size
        set_window_size(slave, 200, 50)
        app = await asyncio.create_subprocess_exec(sys.executable, "-m", "tui", "--name=Ann", stdin=slave,
                                                   stdout=slave, stderr=slave, env=env, start_new_session=True)
        os.close(slave)
        output = bytearray()
        try:
            await _read_until(master, output, b"]0;pwnedPlay your")  # the host's choices are drawn
            await bob.say("Hark")
            await _read_until(master, output, b"pwnedHark")
        finally:
            os.killpg(app.pid, signal.SIGKILL)
            await app.wait()
            os.close(master)
            await bob.close()
    assert b"]0;pwned" in output  # the host's leftovers are drawn, as text
    for forbidden in FORBIDDEN_OUTPUT:
        assert forbidden not in output, forbidden


async def _read_until(master: int, output: bytearray, wanted: bytes) -> None:
    """Read the pty into ``output`` until ``wanted`` shows (WAIT guards against a hang)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + WAIT
    while wanted not in output:
        try:
            data = os.read(master, 65536)
        except BlockingIOError:
            assert loop.time() < give_up, f"never saw {wanted!r} in {bytes(output[-2000:])!r}"
            await asyncio.sleep(0.02)
            continue
        except OSError:
            raise AssertionError(f"the app ended before {wanted!r}: {bytes(output[-2000:])!r}") from None
        output += data


def test_a_name_cannot_carry_the_marks_the_app_puts_beside_names():
    for glyph in (UNICODE.bot, UNICODE.away, UNICODE.turn, UNICODE.laid, UNICODE.star, UNICODE.highwayman):
        assert forged_marks(f"Ann {glyph}"), glyph
    assert player_name("Claude Duval ⚙ normal") == "Claude Duval normal"
    assert player_name("Ann (you)") == "Ann"
    assert player_name("Tom King (normal bot)") == "Tom King"
    assert player_name(f"Duval {ASCII.bot} normal") == "Duval"
    assert player_name("\x1b]0;x\x07Abbot \u202eRobin") == "]0;xAbbot Robin"
    assert name_problem("Ann (you)") and name_problem("Abbot") is None


async def test_the_host_takes_the_marks_out_of_a_players_name():
    async with hosting(Table(TOY, {"players": 2})) as host:
        ann, duval = client(host, name="Ann (you)"), client(host, name="Claude Duval ⚙ normal")
        watcher = client(host, role="spectator", name="Tom (sharp bot)")
        for someone in (ann, duval, watcher):
            await someone.start()
        await watcher.say("hello")
        await ann.wait_for(lambda snap: snap.chat, WAIT)
        assert [seat["name"] for seat in ann.snapshot.seats] == ["Ann", "Claude Duval normal"]
        assert ann.snapshot.chat[0]["from"] == "Tom"
        await close_all(ann, duval, watcher)
