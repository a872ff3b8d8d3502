"""Pictures of the app (pytest-textual-snapshot), at 80×24 and 120×40; the table at the sizes of each
arrangement (tabs at 80×24, stacked at 100×30, 120×36, 120×40 and 200×50, columns at 200×30).

Tables use a fixed seed and bots that wait, so each picture is the same every run. Regenerate after a
deliberate change with ``pytest tests/tui/test_snapshots.py --snapshot-update`` and look at the report.
"""

from __future__ import annotations

import pytest

from core.registry import all_games
from tests.tui_helpers import play_to_results, screen_name
from tests.waiting import until
from tui.app import Start, TurpinApp
from tui.glyphs import UNICODE
from tui.hosting import TablePlan, plan_against_bots

SIZES = [(80, 24), (120, 40)]
TABLE_SIZES = [(80, 24), (100, 30), (120, 36), (120, 40), (200, 30), (200, 50)]


@pytest.fixture(autouse=True)
def no_move_plays_itself(monkeypatch):
    """A one-choice move plays itself after a beat: a picture taken as the beat ended would differ."""
    from tui.widgets.prompt import MovePane
    monkeypatch.setattr(MovePane, "ONLY_MOVE_AFTER", None)


def app_for(start: Start) -> TurpinApp:
    return TurpinApp(start, player_name="Ann", glyphs=UNICODE, lan_interfaces=[], bell=False)


async def settle(pilot) -> None:
    """Every message handled and every animation over; the toasts (which time out on a clock) cleared."""
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()
    pilot.app.clear_notifications()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
def test_menu(snap_compare, size):
    assert snap_compare(app_for(Start()), terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES)
def test_play_setup(snap_compare, size):
    async def open_setup(pilot):
        await pilot.press("g")
        await until(lambda: screen_name(pilot.app) == "SetupScreen"
                    and bool(pilot.app.screen.query("#option-open_piles")), "the screen to change", pilot=pilot)
        await settle(pilot)
    assert snap_compare(app_for(Start()), terminal_size=size, run_before=open_setup)


def test_host_lobby(snap_compare, monkeypatch):
    monkeypatch.setattr("net.hosting.new_room_code", lambda: "K7QX2M")
    monkeypatch.setattr("tui.hosting.HostedTable.addresses_to_share", lambda self: ["192.168.1.20:4707"])
    plan = TablePlan(game="turpin", options={"players": 3}, interface="127.0.0.1", code=True,
                     name="Lunch league", bot_delay=0)

    async def open_lobby(pilot):
        await until(lambda: screen_name(pilot.app) == "SetupScreen", "the screen to change", pilot=pilot)
        await pilot.press("ctrl+s")
        await until(lambda: screen_name(pilot.app) == "LobbyScreen" and pilot.app.client is not None
                    and bool(pilot.app.client.snapshot.seats), "the screen to change", pilot=pilot)
        await settle(pilot)
    assert snap_compare(app_for(Start(route="host", plan=plan)), terminal_size=(80, 24), run_before=open_lobby)


def waiting_table(game: str) -> Start:
    plan = plan_against_bots(game, seed=20261123)
    plan.bot_delay = 3600  # the bots wait: the picture is of the table as it was dealt
    return Start(route="play", plan=plan)


async def at_table(pilot) -> None:
    await until(lambda: screen_name(pilot.app) == "TableScreen"
                and pilot.app.screen.frame.view is not None, "the screen to change", pilot=pilot)
    await settle(pilot)


@pytest.mark.parametrize("size", TABLE_SIZES, ids=[f"{w}x{h}" for w, h in TABLE_SIZES])
@pytest.mark.parametrize("game", sorted(all_games()))
def test_table(snap_compare, game, size):
    assert snap_compare(app_for(waiting_table(game)), terminal_size=size, run_before=at_table)


SHORT_SIZES = [(100, 30), (120, 36), (200, 30)]


@pytest.mark.parametrize("size", SHORT_SIZES, ids=[f"{w}x{h}" for w, h in SHORT_SIZES])
def test_highwayman_six_players(snap_compare, size):
    """Six at Highwayman on ordinary terminals; every card of the hand in view, and the sheet's
    six seats in columns (200×30). (Your Money or Your Life's pick, eight choices, is its test_table.)"""
    plan = plan_against_bots("highwayman", players=6, seed=20261123)
    plan.bot_delay = 3600
    assert snap_compare(app_for(Start(route="play", plan=plan)), terminal_size=size, run_before=at_table)


def test_rules_modal(snap_compare):
    async def open_rules(pilot):
        await at_table(pilot)
        await pilot.press("question_mark")
        await until(lambda: screen_name(pilot.app) == "RulesScreen", "the screen to change", pilot=pilot)
        await settle(pilot)
    assert snap_compare(app_for(waiting_table("turpin")), terminal_size=(80, 24), run_before=open_rules)


def test_results(snap_compare):
    plan = plan_against_bots("turpin", players=3, seed=424242)
    plan.bot_delay = 0

    async def play_it(pilot):
        app = pilot.app
        await play_to_results(pilot, app)
        app.record_path = "~/.local/share/turpin/records/turpin-20261123-120000.turpin-record"
        app.screen.refresh(recompose=True)
        await settle(pilot)
    assert snap_compare(app_for(Start(route="play", plan=plan)), terminal_size=(120, 40), run_before=play_it)


@pytest.mark.parametrize("size", SIZES)
def test_replay(snap_compare, size, tmp_path):
    """A recorded Highwayman game at its twentieth move, as its replay shows it."""
    from tests.tui_helpers import record_a_game
    from tui.replay import Replay
    from tui.screens.replay import ReplayScreen
    record_a_game(tmp_path / "lunch.turpin-record", "highwayman", seed=8, names=("Ann", "Bob", "Cat"))

    async def open_replay(pilot):
        await until(lambda: screen_name(pilot.app) == "MenuScreen", "the screen to change", pilot=pilot)
        pilot.app.push_screen(ReplayScreen(Replay(tmp_path / "lunch.turpin-record")))
        await until(lambda: screen_name(pilot.app) == "ReplayScreen", "the screen to change", pilot=pilot)
        for _ in range(20):
            await pilot.press("right")
        await until(lambda: pilot.app.screen.step == 20, "the screen to change", pilot=pilot)
        await settle(pilot)
    assert snap_compare(app_for(Start()), terminal_size=size, run_before=open_replay)
