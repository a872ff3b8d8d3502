"""The table view, for the television in the room: the public board, the players and the log, live, on a
spectator's connection of its own, never the host player's."""

from __future__ import annotations

import pytest

from tests.tui_helpers import app_at, painted_lines, screen_name
from tests.waiting import until
from tui.app import Start, TurpinApp
from tui.glyphs import UNICODE
from tui.hosting import TablePlan, plan_against_bots


def numbered_cards(hand: list[str]) -> list[str]:
    """Highwayman's road cards as its panes write them ("Bath 4", "Dover LONDON"); not the Highwayman or
    the Runner, whose names the rules and the log say too."""
    from tui.games.highwayman.hooks import card_name
    return [card_name(card) for card in hand if ":" in card]


async def test_the_hosts_table_view_shows_public_things_only_and_follows_the_game():
    plan = TablePlan(game="highwayman", options={"players": 2}, interface="127.0.0.1", code=True, bot_delay=3600)
    app = app_at("host", plan=plan)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "SetupScreen", "the host set-up", pilot=pilot)
        await pilot.press("ctrl+s")
        await until(lambda: screen_name(app) == "LobbyScreen" and app.screen.hosted is not None
                    and app.client is not None and app.client.snapshot.seats, "the lobby", pilot=pilot)
        await pilot.press("T")  # from the lobby: the seats filling, on the big screen
        await until(lambda: screen_name(app) == "TableViewScreen", "the table view", pilot=pilot)
        assert "table view" in painted_lines(app)[0]
        await pilot.press("escape")
        await until(lambda: screen_name(app) == "LobbyScreen", "the lobby again", pilot=pilot)
        await pilot.press("f")
        await until(lambda: screen_name(app) == "TableScreen" and app.screen.frame.view is not None,
                    "the table", pilot=pilot)
        hand = numbered_cards(app.client.snapshot.view["hand"])
        await pilot.press("T")
        await until(lambda: screen_name(app) == "TableViewScreen" and app.screen.frame.view is not None,
                    "the table view", pilot=pilot)
        view = app.screen
        assert view.client is not app.client and view.client.role == "spectator" and view.frame.seat is None
        assert "hand" not in view.frame.view, "a spectator's snapshot holds no hand"
        shown = "\n".join(painted_lines(app))
        assert "Bath Road" in shown and "Players" in shown and "Log" in shown
        assert "Your hand" not in shown and "Your move" not in shown
        for card in hand:
            assert card not in shown, f"the host's card {card} is on the big screen"

        events = len(view.frame.log)
        prompt = app.client.snapshot.prompt
        await app.client.act(prompt["choices"][0]["action"], prompt["id"])  # the host plays, at his table
        await until(lambda: len(view.frame.log) > events, "the move on the big screen", pilot=pilot)
        played = str(view.frame.log[-1].get("text", ""))
        await until(lambda: played[:30] in "\n".join(painted_lines(app)), "the move's line in the log",
                    pilot=pilot)
        await pilot.press("escape")
        await until(lambda: screen_name(app) == "TableScreen", "the table again", pilot=pilot)
        await until(lambda: view.client.stopped is not None, "the view's own connection closed", pilot=pilot)


def test_the_table_view(snap_compare):
    plan = plan_against_bots("highwayman", seed=20261123)
    plan.bot_delay = 3600  # the bots wait: the picture is of the table as it was dealt

    async def open_the_view(pilot) -> None:
        await until(lambda: screen_name(pilot.app) == "TableScreen" and pilot.app.screen.frame.view is not None,
                    "the table", pilot=pilot)
        await pilot.press("T")
        await until(lambda: screen_name(pilot.app) == "TableViewScreen" and pilot.app.screen.frame.view is not None,
                    "the table view", pilot=pilot)
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        pilot.app.clear_notifications()
        await pilot.pause()
    app = TurpinApp(Start(route="play", plan=plan), player_name="Ann", glyphs=UNICODE, lan_interfaces=[], bell=False)
    assert snap_compare(app, terminal_size=(120, 36), run_before=open_the_view)


async def test_a_spectators_window_turns_into_the_table_view_on_its_own_connection():
    """A wall screen (a spectator's window, a browser tab of serve-web --spectate): T shows the view on the
    connection it watches with, and closing the view leaves it watching."""
    from core.registry import get_game
    from net.table.table import Table
    from tests.tui_helpers import app_at_table
    table = Table(get_game("money-or-life"), {"players": 2}, seed=5)
    async with app_at_table("spectate", table, (100, 30)) as (app, pilot, _host):
        watching = app.screen.client
        await pilot.press("T")
        await until(lambda: screen_name(app) == "TableViewScreen", "the table view", pilot=pilot)
        assert app.screen.client is watching
        await pilot.press("escape")
        await until(lambda: screen_name(app) == "TableScreen", "the spectator's table again", pilot=pilot)
        assert watching.stopped is None and app.screen.client is watching


async def test_a_televisions_wall_screen_opens_in_the_table_view(monkeypatch, tmp_path):
    """serve-web --spectate HOST:PORT --table-view: each tab's app starts watching, in the table view (its
    door sets TURPIN_TABLE_VIEW, read at launch into the start's extra); T shows the spectator's table."""
    from core.registry import get_game
    from net.table.table import Table
    from net.web import TABLE_VIEW_VARIABLE, WebDoor, WebSettings, WebSetupError
    from tests.tui_helpers import serve
    from tui.cli.commands import build_parser
    from tui.cli.serve_web import settings_from_args
    from tui.startup.settings import table_view_wanted

    settings = settings_from_args(build_parser().parse_args(
        ["serve-web", "--spectate", "127.0.0.1:4707", "--table-view"]))
    assert settings.table_view
    tab = WebDoor(settings)._environment(str(tmp_path))
    assert tab["TURPIN_SPECTATE"] == "127.0.0.1:4707" and tab[TABLE_VIEW_VARIABLE] == "1"
    assert not table_view_wanted()
    monkeypatch.setenv(TABLE_VIEW_VARIABLE, "1")
    assert table_view_wanted(), "the tab's app reads what its door set"
    with pytest.raises(WebSetupError):
        WebSettings(table_view=True).check()
    host, address = await serve(Table(get_game("turpin"), {"players": 3}, seed=5), bot_delay=3600)
    try:
        app = app_at("spectate", address=address, extra={"table_view": True})
        async with app.run_test(size=(160, 45)) as pilot:
            await until(lambda: screen_name(app) == "TableViewScreen"
                        and "Passengers left" in "\n".join(painted_lines(app)), "the table view", pilot=pilot)
            shown = "\n".join(painted_lines(app))
            assert "table view" in shown and "Passengers left" in shown and "Your hand" not in shown
            await pilot.press("T")
            await until(lambda: screen_name(app) == "TableScreen", "the spectator's table", pilot=pilot)
    finally:
        await host.close()
