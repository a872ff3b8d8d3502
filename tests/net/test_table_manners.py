"""Table manners: the turn clock's option and its line on the screen, and the clock never running
for a bot's seat or after the game (the idle hand-over's wire test is in tests/net/test_clock.py)."""

from __future__ import annotations

import argparse
import random
import re

from core.registry import get_game
from net.table.clock import LAN_CLOCK_SECONDS
from net.table.table import Table
from tests.net_helpers import CLOCKED, TOY, WAIT, ManualClock, client, hosting, play_randomly
from tests.tui_helpers import app_at, screen_name, screen_text
from tests.waiting import until
from tui.app import Start, TurpinApp
from tui.cli.host import add_host_arguments, build_table
from tui.hosting import TablePlan


def _host_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="turpin host")
    add_host_arguments(parser, {TOY.id: TOY})
    return parser.parse_args(["--headless", "--game", "net-toy", "--players", "2", "--record", "/dev/null", *argv])


def test_a_lan_table_has_a_clock_unless_its_host_says_otherwise(tmp_path):
    """On by default for LAN tables (the headless host's too), the seconds the host's; off for a
    game against bots; a resumed table keeps its record's clock unless --clock is given again."""
    table, _ = build_table(_host_args("--record", str(tmp_path / "a.record")), {TOY.id: TOY})
    assert table.turn_clock.seconds == LAN_CLOCK_SECONDS
    table, _ = build_table(_host_args("--record", str(tmp_path / "b.record"), "--clock", "30"), {TOY.id: TOY})
    assert table.turn_clock.seconds == 30
    table, _ = build_table(_host_args("--record", str(tmp_path / "c.record"), "--clock", "0"), {TOY.id: TOY})
    assert not table.turn_clock.on
    assert TablePlan(interface="").clock_seconds == LAN_CLOCK_SECONDS and TablePlan().clock_seconds == 0
    assert TablePlan(clock=12).clock_seconds == 12


async def test_the_set_up_form_sets_the_clock():
    app = app_at("host")
    async with app.run_test(size=(100, 40)) as pilot:
        await until(lambda: screen_name(app) == "SetupScreen", "the set-up form", pilot=pilot)
        form = app.screen
        assert form.read_plan().clock is None  # blank: the LAN's default
        clock = form.query_one("#setup-clock")
        clock.value = "45"
        assert form.read_plan().clock == 45
        clock.value = "999999"
        form.action_start()
        await pilot.pause()
        assert "a turn clock is 0 (none) or 10 to" in str(form.query_one("#setup-error").render())
        assert screen_name(app) == "SetupScreen"
        clock.value = "5"  # a clock nobody can beat is refused, with why
        form.action_start()
        await pilot.pause()
        assert "under 10 s nobody can read a move" in str(form.query_one("#setup-error").render())
        assert screen_name(app) == "SetupScreen"


async def test_the_clock_never_runs_for_a_bots_seat_or_after_the_game():
    clock = ManualClock()
    table = Table(TOY, {"players": 2}, seed=3, bots={1: "random"}, clock=30, now=clock)
    async with hosting(table, CLOCKED) as host:
        ann = client(host, name="Ann")
        await ann.start()
        await ann.wait_for(lambda snap: snap.started, WAIT)
        assert all(left is None for seat, left in enumerate(ann.snapshot.clocks or [None, None]) if seat == 1)
        await play_randomly(ann, random.Random(1))
        await ann.wait_for(lambda snap: snap.result is not None, WAIT)
        clock.advance(3600)
        assert table.stand_ins.run_clocks() == []
        assert not any("time ran out" in line["text"] for line in ann.snapshot.log)
        await ann.close()


async def test_the_app_shows_its_clock_running_down_and_the_bot_moving_when_it_runs_out(monkeypatch, tmp_path):
    """The seat to move sees its time; when it runs out the log says the bot moved for it; a seat a bot
    plays for while its player is away says so, and any key takes the seat back."""
    monkeypatch.setenv("TURPIN_SEATS_FILE", str(tmp_path / "seats.json"))
    monkeypatch.setenv("TURPIN_RECORDS_DIR", str(tmp_path / "records"))
    clock = ManualClock()
    game = get_game("turpin")
    table = Table(game, {"players": 2, "rounds": 2}, seed=5, bots={1: "normal"}, clock=60, now=clock)
    async with hosting(table, CLOCKED) as host:
        app = TurpinApp(Start(route="join", address=f"127.0.0.1:{host.address[1]}"), player_name="Ann",
                        lan_interfaces=[], bell=False)
        async with app.run_test(size=(120, 40)) as pilot:
            # (the screen counts down between the host's updates: on a loaded machine the first look may come
            # after a second or more of it)
            await until(lambda: re.search(r"Your move: (1:00|0:[0-5]\d) left", screen_text(app)) is not None,
                        "the clock", pilot=pilot)
            clock.advance(60)
            await until(lambda: "Your time ran out" in screen_text(app), "the log saying so", pilot=pilot)
            await until(lambda: table.stand_ins.next_bot() is None, "the bot's move")
            table.stand_ins.set_away(0)  # as after a second run-out in a row, or the host's B
            await until(lambda: "a bot plays for the away: Ann" in screen_text(app), "away", pilot=pilot)
            await pilot.press("x")  # any key
            await until(lambda: 0 not in table.turn_clock.away, "Ann back")
            await until(lambda: "a bot plays for the away" not in screen_text(app), "back", pilot=pilot)


def test_the_lobby_and_the_hosts_banner_say_the_tables_clock():
    """Whoever hosts reads the clock his table plays to, and so can tell the others."""
    from tui.table_words import clock_in_words
    assert clock_in_words(90) == "Turn clock: 90 s a move, then the normal bot moves for whoever runs out."
    assert clock_in_words(0).startswith("No turn clock")
