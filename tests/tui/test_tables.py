"""Spectating, hosting from the lobby, joining (and its errors), and other people's text.

Every table here is a real ``TableHost`` on 127.0.0.1; the app reaches it through ``TableClient``.
"""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from core.registry import get_game
from net.client import TableClient
from net.host import HostSettings, TableHost
from net.table.table import Table
from tests.net_helpers import ManualClock
from tests.tui_helpers import app_at, app_at_table, flat, quick_app, screen_name, screen_text, serve
from tests.waiting import until
from tui.app import Start, TurpinApp
from tui.hosting import TablePlan

HOSTILE = "[@click=app.quit]x[/]"


def logged(app: TurpinApp) -> str:
    """The table's log as a reader sees it (lines before wrapping)."""
    from tui.widgets.log import TableLog
    return "\n".join(app.screen.query_one(TableLog).plain_lines)


async def test_a_spectator_follows_a_game_to_its_result_and_no_key_acts():
    table = Table(get_game("turpin"), {"players": 2}, code="ABCDEF", bots={1: "random"})
    host, address = await serve(table)
    app = app_at("spectate", address=address)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(lambda: screen_name(app) == "TableScreen", "the spectator's table", pilot=pilot)
            screen = app.screen
            await until(lambda: screen.frame.view is not None, "the screen to change", pilot=pilot)
            assert screen.frame.spectating and screen.frame.prompt is None
            await until(lambda: "Spectating" in screen_text(app), "the spectating mark", pilot=pilot)
            assert screen.frame.view["hand"] is None  # A1: a spectator has no hand
            host.table.hand_to_bot(0, why="is taken by a bot")   # the game starts now, with the spectator watching
            for key in "123456789":
                await pilot.press(key)
            assert table.turn >= 0 and screen.frame.sent is False
            await until(lambda: screen_name(app) == "ResultsScreen", "the results", pilot=pilot)
            assert app.screen.frame.result["winners"] is not None
            # Nobody here can deal again: "p play again" (which did nothing) is not offered.
            assert "play again" not in screen_text(app).lower() and "Back to menu" in screen_text(app)
            await host.close(for_good=True)  # the results say it, and keep saying it (not a toast only)
            await until(lambda: "closed the table: no new game will open here" in screen_text(app),
                        "the results to say so", pilot=pilot)
    finally:
        await host.close()


async def host_from_the_set_up(pilot, app: TurpinApp):
    """The host set-up started as it stands (ctrl+s), and the lobby once its table is served and joined."""
    await until(lambda: screen_name(app) == "SetupScreen", "the host set-up", pilot=pilot)
    await pilot.press("ctrl+s")
    await until(lambda: screen_name(app) == "LobbyScreen" and app.screen.hosted is not None
                and app.client is not None and app.client.snapshot.seats, "the lobby", pilot=pilot)
    return app.screen


@contextlib.asynccontextmanager
async def a_hosted_table_with_a_bot():
    """A 2-player LAN table hosted from the app on 127.0.0.1, a bot (that waits) in the other seat: yields
    the app, its pilot and the lobby once the table is on screen."""
    plan = TablePlan(game="turpin", options={"players": 2}, interface="127.0.0.1", code=False, bot_delay=3600)
    app = app_at("host", plan=plan)
    async with app.run_test(size=(120, 40)) as pilot:
        lobby = await host_from_the_set_up(pilot, app)
        await pilot.press("f")  # a bot in the empty seat: the table opens
        await until(lambda: screen_name(app) == "TableScreen", "the table", pilot=pilot)
        yield app, pilot, lobby


async def test_the_host_lobby_shows_the_code_and_a_second_player_joining():
    plan = TablePlan(game="turpin", options={"players": 3}, interface="127.0.0.1", code=True, bot_delay=0)
    app = app_at("host", plan=plan)
    async with app.run_test(size=(100, 30)) as pilot:
        lobby = await host_from_the_set_up(pilot, app)
        code = lobby.hosted.table.code
        assert code and " ".join(code) in screen_text(app)
        port = lobby.hosted.address[1]
        assert f":{port}" in screen_text(app)
        await pilot.press("s")  # an SSH door for this table, on 127.0.0.1 like the table
        await until(lambda: "ssh " in screen_text(app) and "password:" in screen_text(app),
                    "the ssh line in the lobby", pilot=pilot)
        door = lobby.hosted.ssh_door
        assert door.address[0] == "127.0.0.1" and door.settings.join == f"127.0.0.1:{port}"
        guest = TableClient("127.0.0.1", port, name="Bob", code=code)
        await guest.start()
        try:
            await until(lambda: "Bob" in screen_text(app), "Bob in the lobby", pilot=pilot)
            # Once someone has sat down, Esc asks before the table closes on them; Esc again stays.
            await pilot.press("escape")
            await until(lambda: screen_name(app) == "ConfirmScreen", "the question", pilot=pilot)
            assert "Bob has sat down: closing the table sends them away." in screen_text(app)
            await pilot.press("escape")
            await until(lambda: app.screen is lobby, "the lobby again", pilot=pilot)
            await pilot.press("f")  # a bot in every empty seat: the table is full and opens
            await until(lambda: screen_name(app) == "TableScreen", "the table", pilot=pilot)
            await guest.wait_for(lambda snap: snap.started, timeout=30)
        finally:
            await guest.close()


async def test_the_host_lobby_opens_a_web_door_to_its_table_and_shows_its_link():
    """``w`` in the lobby serves the table to browsers too, on the table's own interface; the
    link it shows carries the door's token, which the door asks of every request."""
    import aiohttp

    plan = TablePlan(game="turpin", options={"players": 3}, interface="127.0.0.1", code=True, bot_delay=0)
    app = app_at("host", plan=plan)
    async with app.run_test(size=(100, 30)) as pilot:
        lobby = await host_from_the_set_up(pilot, app)
        await pilot.press("w")
        await until(lambda: "token=" in screen_text(app), "the web link in the lobby", pilot=pilot)
        door = lobby.hosted.web_door
        port = lobby.hosted.address[1]
        assert door.address[0] == "127.0.0.1" and door.settings.join == f"127.0.0.1:{port}"
        assert door.settings.join_code == lobby.hosted.table.code, "the door's token is the gate, not the code"
        link = door.url("127.0.0.1")
        assert link.replace("http://", "") in flat(screen_text(app))
        # The door serves from this app's own loop: an asynchronous client. Like a browser, it keeps the
        # cookie of a host named by its address.
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as browser:
            async with browser.get(link) as page:
                assert page.status == 200
            async with browser.get(link.split("?")[0]) as again:
                assert again.status == 200, "the first page's cookie lets the browser's own requests in"
        async with aiohttp.ClientSession() as stranger:
            async with stranger.get(link.split("?")[0]) as refused:
                assert refused.status == 403


async def test_a_host_whose_seat_another_window_takes_is_told_in_the_lobby_and_asked_before_closing():
    """The host opens a second window with the same seat token (his seats file) and it takes his seat. The
    lobby, which had gone on showing the seats as if nothing happened, says the seat is lost and that the
    table is still served from here; once the game has begun there, Esc asks before it ends it for all."""
    plan = TablePlan(game="turpin", options={"players": 2}, interface="127.0.0.1", code=True, bot_delay=3600)
    app = app_at("host", plan=plan)
    async with app.run_test(size=(100, 30)) as pilot:
        lobby = await host_from_the_set_up(pilot, app)
        port = lobby.hosted.address[1]
        second_window = TableClient("127.0.0.1", port, token=app.client.token)
        await second_window.start()
        try:
            await until(lambda: "This window has lost its seat" in screen_text(app), "the news", pilot=pilot)
            assert "Esc closes it for everyone" in screen_text(app)
            await pilot.press("f")  # a bot in the empty seat: the game begins, in the second window
            await second_window.wait_for(lambda snap: snap.started, timeout=30)
            assert app.screen is lobby
            # The seats are still followed, from the table served here (this window's client hears nothing).
            await until(lambda: "Seat 2: empty" not in screen_text(app), "the bot in the seat list", pilot=pilot)
            await pilot.press("escape")
            await until(lambda: screen_name(app) == "ConfirmScreen", "the question", pilot=pilot)
            assert "The game has begun at this table" in screen_text(app)
            await pilot.press("enter")
            await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
            await second_window.wait_for(lambda snap: second_window.stopped is not None, timeout=30)
            assert second_window.stopped == "the host has closed the table"
        finally:
            await second_window.close()


async def test_a_name_too_long_for_the_tables_is_cut_and_said_so_and_the_table_takes_it():
    """A name past the protocol's 40 characters (a long SSH login name, say, which nothing can change) is
    cut to 40, the menu says so, and the table seats it, never refusing it with "Hello: field 'name' is
    too long"."""
    long_name = "Ëlise 🐎 長い名前 with a very very long name that goes past forty"
    table = Table(get_game("turpin"), {"players": 2}, bots={1: "random"})
    host, address = await serve(table, bot_delay=3600)
    app = TurpinApp(Start(route="join", address=address), player_name=long_name, lan_interfaces=[], bell=False)
    try:
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await until(lambda: screen_name(app) == "TableScreen" and app.client is not None
                        and app.client.snapshot.seat is not None, "a seat at the table", pilot=pilot)
            assert table.seats[0].name == long_name[:40].rstrip() == app.player_name
            await until(lambda: "Names are at most 40 characters" in flat(screen_text(app)), "the notice", pilot=pilot)
    finally:
        await host.close()


@pytest.fixture
async def coded_table():
    table = Table(get_game("turpin"), {"players": 2}, code="K7QX2M")
    host, address = await serve(table)
    yield table, address
    await host.close()


async def type_into(pilot, app, selector: str, text: str) -> None:
    field = app.screen.query_one(selector)
    field.value = ""
    field.focus()
    await pilot.press(*text) if text else None


async def test_the_join_dialog_says_what_went_wrong_and_stays_open(coded_table):
    table, address = coded_table
    app = app_at("menu")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("j")
        await until(lambda: screen_name(app) == "JoinScreen", "the screen to change", pilot=pilot)
        def error() -> str:
            return str(app.screen.query_one("#join-error").render())

        await type_into(pilot, app, "#join-address", "not an address")
        await pilot.press("enter")
        await until(lambda: "HOST:PORT" in error(), "the bad-address message", pilot=pilot)

        await type_into(pilot, app, "#join-address", "127.0.0.1:1")
        await pilot.press("enter")
        await until(lambda: "nobody is hosting" in error().lower(), "the nobody-there message", pilot=pilot)

        await type_into(pilot, app, "#join-address", address)
        await type_into(pilot, app, "#join-code", "WRONG1")
        await pilot.press("enter")
        await until(lambda: "wrong" in error().lower(), "the wrong-code message", pilot=pilot)
        assert screen_name(app) == "JoinScreen"

        # Fill the table, then try again with the right code: full, and the dialog offers to watch.
        others = [TableClient("127.0.0.1", int(address.rsplit(":", 1)[1]), name=n, code="K7QX2M")
                  for n in ("Bob", "Cat")]
        for other in others:
            await other.start()
        try:
            await type_into(pilot, app, "#join-code", "k7qx2m")
            await pilot.press("enter")
            await until(lambda: "spectate" in error().lower(), "the full-table message", pilot=pilot)
            assert error() == "Every seat at this table is taken. Press Spectate to watch it instead."
            assert app.screen.focused.id == "join-watch"
            await pilot.press("enter")
            await until(lambda: screen_name(app) == "TableScreen", "watching the full table", pilot=pilot)
            assert app.screen.frame.spectating
        finally:
            for other in others:
                await other.close()


async def test_names_and_chat_from_others_show_literally_never_as_markup():
    table = Table(get_game("turpin"), {"players": 2}, name="plain table")
    host, address = await serve(table)
    app = app_at("join", address=address)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(lambda: screen_name(app) == "TableScreen", "the table", pilot=pilot)
            villain = TableClient("127.0.0.1", host.address[1], name=HOSTILE)
            await villain.start()
            try:
                await until(lambda: HOSTILE in screen_text(app),
                            "the hostile name shown as typed", pilot=pilot)
                say = getattr(villain, "say", None)
                if say is not None:
                    await say(HOSTILE)
                    await until(lambda: screen_text(app).count(HOSTILE) > 1, "the hostile line said", pilot=pilot)
                await pilot.click("#players")
                await pilot.pause()
                assert app.is_running and screen_name(app) == "TableScreen"
            finally:
                await villain.close()
    finally:
        await host.close()


async def test_players_leaving_and_coming_back_are_announced():
    table = Table(get_game("turpin"), {"players": 2}, name="news table")
    host, address = await serve(table)
    app = app_at("join", address=address)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(lambda: screen_name(app) == "TableScreen"
                        and app.screen.frame.view is not None, "the table", pilot=pilot)
            bob = TableClient("127.0.0.1", host.address[1], name="Bob")
            await bob.start()
            await until(lambda: "Bob sits down in seat 2" in logged(app), "Bob sitting down", pilot=pilot)
            await until(lambda: app.screen.frame.started, "the game", pilot=pilot)
            if app.screen.frame.choices:  # our move first: make it, so that the table waits for Bob
                await pilot.press("1")
            await until(lambda: "Waiting for Bob." in screen_text(app), "waiting for Bob", pilot=pilot)
            token = bob.token
            await bob.close()
            await until(lambda: "Bob has left the table" in logged(app), "Bob leaving", pilot=pilot)
            # The wait says Bob is away, not only another pane.
            await until(lambda: "Waiting for Bob (away)." in screen_text(app), "Bob away", pilot=pilot)
            bob = TableClient("127.0.0.1", host.address[1], token=token)
            await bob.start()
            await until(lambda: "Bob is back" in logged(app), "Bob's return", pilot=pilot)
            await bob.close()
    finally:
        await host.close()


async def test_a_lost_host_shows_a_banner_until_the_client_is_back():
    table = Table(get_game("turpin"), {"players": 2}, bots={1: "random"})
    host, address = await serve(table, bot_delay=3600)
    port = host.address[1]
    app = app_at("join", address=address)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await until(lambda: screen_name(app) == "TableScreen"
                    and app.screen.frame.view is not None, "the table", pilot=pilot)
        def banner():
            return app.screen.query_one("#banner")
        assert not banner().display
        await host.close()
        await until(lambda: banner().display and "Lost the host" in screen_text(app), "the banner", pilot=pilot)
        said = flat(str(banner().render()))  # (the words wrap where the reason's length puts them)
        assert "Esc leaves the table" in said and "trying again" not in said, said  # one clock
        # The host stopping is not a refusal of anything (no "Not allowed" toast), and leaving
        # now stops the waiting, not a table that "plays on without you".
        assert not any(toast.title == "Not allowed" for toast in app._notifications)
        assert "The host has stopped the table; it may come back" in logged(app)
        assert "waiting for it to come back" in app.screen.what_leaving_does()
        host = TableHost(table, HostSettings(bot_delay=3600))  # the same table comes back on its port
        await host.start("127.0.0.1", port)
        try:
            await until(lambda: not banner().display, "the banner to clear", pilot=pilot)
            assert app.screen.frame.seat == 0
        finally:
            await host.close()


async def test_chat_while_the_host_is_away_says_it_was_not_sent_and_the_app_plays_on():
    """A chat line typed while the host is gone is said not to have been sent; the app plays on."""
    table = Table(get_game("turpin"), {"players": 2}, bots={1: "random"})
    host, address = await serve(table, bot_delay=3600)
    app = app_at("join", address=address)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await until(lambda: screen_name(app) == "TableScreen"
                    and app.screen.frame.view is not None, "the table", pilot=pilot)
        await host.close()
        await until(lambda: "Lost the host" in screen_text(app), "the banner", pilot=pilot)
        await pilot.press("t", *"host?", "enter")
        await until(lambda: any("Not sent" in str(toast.message) for toast in app._notifications),
                    "the notice", pilot=pilot)
        assert app.is_running and screen_name(app) == "TableScreen"


async def test_leaving_before_the_game_begins_says_the_seat_waits():
    """Esc while a seat is still empty says the seat waits, not that the table "plays on without you"."""
    table = Table(get_game("turpin"), {"players": 2})
    host, address = await serve(table)
    app = app_at("join", address=address)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(lambda: screen_name(app) == "TableScreen" and app.screen.frame.view is not None,
                        "the table", pilot=pilot)
            await pilot.press("escape")
            await until(lambda: screen_name(app) == "ConfirmScreen", "the question", pilot=pilot)
            assert "The game has not begun: your seat waits for you" in " ".join(screen_text(app).split())
    finally:
        await host.close()


async def test_a_guest_reading_the_results_is_told_when_the_host_closes_the_table():
    """Once the game is over, a host closing the table is said: the results no longer promise that a new
    game will open by itself."""
    from tests.tui_helpers import play_to_results
    table = Table(get_game("turpin"), {"players": 2}, bots={1: "random"})
    host, address = await serve(table)
    app = app_at("join", address=address)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await play_to_results(pilot, app)
        await until(lambda: "the new game opens here by itself" in screen_text(app), "the results", pilot=pilot)
        await host.close(for_good=True)
        await until(lambda: "closed the table: no new game will open here" in screen_text(app),
                    "the results to say so", pilot=pilot)
        assert any(str(toast.message).startswith("The host has closed the table. Esc goes back")
                   for toast in app._notifications)


async def test_a_lan_table_that_cannot_be_announced_knows_why_for_the_lobby(monkeypatch):
    """The advert fails (no multicast here, say): the hosted table keeps the reason for the lobby to show;
    nothing is printed over the screen (net prints nothing; the reason comes through the table's news)."""
    from net import discovery
    from tui.hosting import HostedTable

    async def refuse(self):
        raise discovery.DiscoveryUnavailable("multicast is not allowed on this network")
    monkeypatch.setattr(discovery.TableAdvertiser, "start", refuse)
    hosted = HostedTable(TablePlan(game="turpin", options={"players": 2}, interface="127.0.0.1", code=False,
                                   name="Lunch", bot_delay=0))
    try:
        await hosted.start()
        assert not hosted.advertised
        assert "multicast is not allowed on this network" in hosted.not_advertised_because
    finally:
        await hosted.close()


async def test_the_rules_help_wraps_its_sentences_to_the_terminal_not_to_the_file():
    """The rules text keeps the line breaks of an 80-column file only where a sentence ends: at 80×24
    the modal is narrower than the file, and a break kept mid-sentence left every other line half empty."""
    from core.registry import all_games
    from tui.reflow import reflowed
    from tui.screens.table import TableScreen

    for game in all_games().values():
        for line in reflowed(game.rules_text).splitlines():
            assert not line.strip() or line[0].isspace() or line.rstrip().endswith((".", "!", "?")), (game.id, line)
    app = quick_app("turpin")
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: isinstance(app.screen, TableScreen), "the table", pilot=pilot)
        await pilot.press("question_mark")
        await until(lambda: "stand & deliver" in screen_text(app), "the rules", pilot=pilot)
        shown = app.screen.query_one("#rules-scroll").scrollable_content_region
        region = app.screen.query_one(".rules-game").content_region.intersection(shown)
        rows = [row[region.x:region.right].rstrip() for row in screen_text(app).splitlines()[region.y:region.bottom]]
        for row, after in zip(rows, rows[1:]):
            if row.strip() and after.strip() and not row.endswith((".", "!", "?", ":")):
                assert len(row) > region.width - 16, f"a half-empty line in the middle of a sentence: {row!r}"


async def test_the_set_up_form_says_where_the_focus_is_and_what_is_ticked_without_colour():
    """The set-up opens on its first field (Game), whose label shows in reverse, and Tab moves the mark
    with the focus; a tick box shows an X only when ticked (Textual's draws one either way, in two
    colours)."""
    app = TurpinApp(Start(route="menu"), player_name="Ann", lan_interfaces=[], bell=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
        await pilot.press("g")
        await until(lambda: screen_name(app) == "SetupScreen" and app.focused is not None, "the set-up", pilot=pilot)
        assert app.focused.id == "setup-game"

        def marked_labels() -> list[str]:
            return [str(row.query_one(".setup-label").render()) for row in app.screen.query(".setup-row.-focused")]

        assert marked_labels() == ["Game"]
        assert app.screen.query_one(".setup-row.-focused .setup-label").styles.text_style.reverse
        await pilot.press("tab")
        await until(lambda: marked_labels() == ["Hot seat"], "the mark on the next field", pilot=pilot)

        def open_piles_line() -> str:
            return next(line for line in screen_text(app).splitlines() if "open piles" in line)

        assert "▐ ▌ open piles" in open_piles_line()
        app.screen.query_one("#option-open_piles").focus()
        await pilot.press("space")
        await until(lambda: "▐X▌ open piles" in open_piles_line(), "the tick", pilot=pilot)
        assert marked_labels() == ["open piles"]


async def open_the_set_up(pilot, app: TurpinApp, field: str) -> None:
    """From the menu, the set-up of a game against bots (g), once ``field`` is in it."""
    await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
    await pilot.press("g")
    await until(lambda: screen_name(app) == "SetupScreen" and bool(app.screen.query(field)), "the set-up", pilot=pilot)


async def test_changing_the_number_of_players_keeps_the_focus_on_players():
    """A new number of players rebuilds the seats below it, and the focus stays on players: the next Tab
    goes to the next option, and its keys do not set a seat's bot instead."""
    app = TurpinApp(Start(route="menu"), player_name="Ann", lan_interfaces=[], bell=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await open_the_set_up(pilot, app, "#option-players")
        players = app.screen.query_one("#option-players")
        players.focus()
        players.value = 3
        await until(lambda: len(app.screen.query(".setup-seat")) == 2, "the seats rebuilt", pilot=pilot)
        await until(lambda: app.focused is not None and app.focused.id == "option-players",
                    "the focus back on players", pilot=pilot)
        assert app.screen.query_one("#option-players").value == 3


async def test_the_host_set_up_opens_with_the_choices_of_the_last_one():
    """The next host set-up has the last one's game and interface (a host on 127.0.0.1 types it once);
    the seed is blank again (a fresh game)."""
    app = TurpinApp(Start(route="menu"), player_name="Ann", lan_interfaces=[], bell=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
        await pilot.press("h")
        await until(lambda: screen_name(app) == "SetupScreen" and bool(app.screen.query("#setup-seed")),
                    "the host set-up", pilot=pilot)
        app.screen.query_one("#setup-game").value = "highwayman"
        await until(lambda: app.screen.game_id == "highwayman", "Highwayman chosen", pilot=pilot)
        app.screen.query_one("#setup-interface").value = "127.0.0.1"
        app.screen.query_one("#setup-seed").value = "12"
        await host_from_the_set_up(pilot, app)
        await pilot.press("escape")  # nobody has sat down: the table closes without a question
        await until(lambda: screen_name(app) == "MenuScreen", "the menu again", pilot=pilot)
        await pilot.press("h")
        await until(lambda: screen_name(app) == "SetupScreen" and bool(app.screen.query("#setup-seed")),
                    "the host set-up again", pilot=pilot)
        assert app.screen.query_one("#setup-game").value == "highwayman"
        assert app.screen.query_one("#setup-interface").value == "127.0.0.1"
        assert app.screen.query_one("#setup-seed").value == ""


async def test_a_set_up_problem_goes_once_it_is_put_right():
    app = TurpinApp(Start(route="menu"), player_name="Ann", lan_interfaces=[], bell=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await open_the_set_up(pilot, app, "#option-pistols")
        pistols = app.screen.query_one("#option-pistols")
        pistols.value = "995"
        await pilot.press("ctrl+s")
        await until(lambda: "pistols" in screen_text(app) and "995" in screen_text(app).split("Seed")[-1],
                    "the problem said", pilot=pilot)
        assert screen_name(app) == "SetupScreen"
        pistols.value = "6"
        await until(lambda: "995" not in screen_text(app), "the problem gone", pilot=pilot)


async def test_the_app_host_keeps_its_port_and_code_and_its_own_seat_for_a_resumed_table(tmp_path):
    """`turpin host` (the app) takes --port and --code, the record has the port, and the host's token is
    kept as a joining player's is: a table resumed from its record comes back on its port, and the host
    sits at it again."""
    import socket

    from net.record import read_record
    from tui.saved import seats
    with socket.socket() as probe:  # a free port, to ask for
        probe.bind(("127.0.0.1", 0))
        wanted = probe.getsockname()[1]
    plan = TablePlan(game="turpin", options={"players": 2}, interface="127.0.0.1", code=True, bot_delay=0,
                     port=wanted, room_code="ABC123", advertise=False)
    app = app_at("host", plan=plan)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(lambda: screen_name(app) == "SetupScreen", "the host set-up", pilot=pilot)
        await pilot.press("ctrl+s")
        await until(lambda: screen_name(app) == "LobbyScreen" and app.client is not None
                    and app.client.snapshot.seats, "the lobby", pilot=pilot)
        hosted = app.screen.hosted
        assert hosted.address[1] == wanted and hosted.table.code == "ABC123"
        assert "A B C 1 2 3" in screen_text(app)
        record = read_record(app.record_path)
        # what `turpin host --headless --resume` serves on, and only there
        assert (record["meta"]["port"], record["meta"]["interface"]) == (wanted, "127.0.0.1")
        assert seats.token_for(f"127.0.0.1:{wanted}") == app.client.token == record["seats"][0]["token"]


async def test_join_from_the_command_line_takes_its_name_seat_and_token():
    """`turpin join ADDRESS --name/--seat/--token` opens the app with each of them, not the login name and
    the first free seat: a way back to a seat from another terminal."""
    from tui.cli.app_routes import run_app_join
    table = Table(get_game("turpin"), {"players": 3})
    host, address = await serve(table)
    try:
        start = {}

        def capture(args, where):
            start["args"], start["start"] = args, where
            return 0
        import tui.cli.app_routes as app_routes
        import tui.cli.commands as commands
        real = app_routes.run_app
        app_routes.run_app = capture  # the app is run here, under Pilot, with what the command built
        try:
            args = commands.build_parser().parse_args(["join", address, "--name", "[b]Bo[/b]", "--seat", "3"])
            run_app_join(args)
        finally:
            app_routes.run_app = real
        assert start["args"].player_name == "[b]Bo[/b]"
        app = TurpinApp(start["start"], player_name=start["args"].player_name, lan_interfaces=[], bell=False)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(lambda: screen_name(app) == "TableScreen" and app.client is not None
                        and app.client.snapshot.seat is not None, "the table", pilot=pilot)
            assert app.client.snapshot.seat == 2 and table.seats[2].name == "[b]Bo[/b]"
            token = app.client.token
        again = Start(route="join", address=address, extra={"token": token, "seat": None})
        app = TurpinApp(again, player_name="Someone", lan_interfaces=[], bell=False)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(lambda: screen_name(app) == "TableScreen" and app.client is not None
                        and app.client.snapshot.seat is not None, "the table again", pilot=pilot)
            assert app.client.snapshot.seat == 2, "the token took the seat back"
    finally:
        await host.close()


async def test_a_window_whose_seat_another_takes_over_says_so_on_every_tab():
    """A second window with the same seat token takes the seat; the first says so in its banner, on every
    tab, not only in its log (a tab not shown at 100×30), and its move pane stops waiting."""
    table = Table(get_game("turpin"), {"players": 2}, bots={1: "random"})
    async with app_at_table("join", table, (100, 30)) as (app, pilot, host):
        other = TableClient("127.0.0.1", host.address[1], token=app.client.token)
        await other.start()
        try:
            await until(lambda: "You are out of this game: this seat was taken over"
                        in flat(screen_text(app)), "the banner", pilot=pilot)
            assert app.screen.query_one("#banner").display
        finally:
            await other.close()


async def test_a_player_whose_seat_is_handed_to_a_bot_is_told_the_table_plays_on_and_can_watch_it():
    """The host hands Bob's seat to a bot: Bob is told he is out of the game and the table plays on (not
    "The table is gone", nor a "Not allowed" toast as if he had done wrong), his move list is empty, and s
    watches the table."""
    table = Table(get_game("turpin"), {"players": 2}, bots={1: "random"})
    async with app_at_table("join", table, (100, 30), toasts=True) as (app, pilot, host):
        await until(lambda: bool(app.screen.frame.choices), "a move to make", pilot=pilot)
        host.table.hand_to_bot(0, why="was handed to a bot by the host")
        await until(lambda: "You are out of this game: your seat was handed to a bot"
                    in flat(screen_text(app)), "the news", pilot=pilot)
        def toasts() -> list[tuple[str, str]]:  # (Textual's own list)
            return [(toast.title, toast.message) for toast in app._notifications]
        await until(lambda: any("You are out of this game" in message for _, message in toasts()),
                    "the toast", pilot=pilot)
        assert not any(title == "Not allowed" for title, _ in toasts()), toasts()
        shown = screen_text(app)
        assert "The table plays on without you: s watches it" in flat(shown) and "The table is gone" not in shown
        assert not app.screen.frame.choices and "[1]" not in flat(shown.split("Your move")[-1])
        from tui.saved import seats  # Join no longer offers "back to your seat" at that table
        assert seats.token_for(f"127.0.0.1:{host.address[1]}") is None
        footer = {key: active.binding.description for key, active in app.screen.active_bindings.items()
                  if active.enabled and active.binding.show}
        assert footer.get("s") == "watch it", footer
        await pilot.press("s")
        await until(lambda: screen_name(app) == "TableScreen" and app.client is not None
                    and app.client.role == "spectator" and app.screen.frame.view is not None,
                    "the same table, watched", pilot=pilot)
        assert "only what is public" in screen_text(app)


async def test_a_narrow_spectator_has_no_empty_hand_tab_and_is_told_only_public_things_show():
    """At 80×24 a spectator's empty Hand tab is hidden (] skips it), and the move pane says only what is
    public shows (A1), not "you see what every player sees", which reads as every hand."""
    table = Table(get_game("turpin"), {"players": 2}, bots={1: "random"})
    async with app_at_table("spectate", table, (80, 24)) as (app, pilot, host):
        await until(lambda: "only what is public" in screen_text(app), "the spectating line", pilot=pilot)
        strip = screen_text(app).splitlines()[1]
        assert "Board" in strip and "Sheet" in strip and "Hand" not in strip, strip
        tabs = app.screen.query_one("#pane-tabs")
        seen = set()
        for _ in range(4):
            await pilot.press("right_square_bracket")
            seen.add(tabs.active)
        assert seen == {"tab-board", "tab-sheet", "tab-players", "tab-log"}


async def test_the_menus_rules_go_to_each_game_by_key_and_name_options_as_the_form_does():
    """`?` on the menu goes to each game by key, not one long page of all three; its option list says
    "gold 1" as the set-up form does (not `gold_1`), and wrapped options keep their indent."""
    from core.registry import all_games
    app = app_at("menu")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
        await pilot.press("question_mark")
        await until(lambda: screen_name(app) == "RulesScreen", "the rules", pilot=pilot)
        games = list(all_games().values())
        keys = flat(str(app.screen.query_one("#rules-keys").render()))
        for number, game in enumerate(games, 1):
            assert f"{number} {game.title}" in keys, keys
        scroll = app.screen.query_one("#rules-scroll")
        for number, game in reversed(list(enumerate(games, 1))):
            await pilot.press(str(number))
            await until(lambda: scroll.scroll_y == app.screen.query(".rules-game")[number - 1].virtual_region.y,
                        f"the rules of {game.title} on top", pilot=pilot)
            assert game.title in screen_text(app)
    from tui.screens.rules import option_line
    turpin = get_game("turpin")
    names = [option_line(option)[0] for option in turpin.options]
    assert all("_" not in name for name in names) and "open piles" in names


async def test_text_typed_fast_after_a_tab_goes_into_the_next_field():
    """In tmux, "127.0.0.1:1", Tab, "XY" sent at once must not make the address "127.0.0.1:1XY" (nor a
    table name swallow the interface typed after it). The keys come in one burst, as a terminal (or a paste)
    delivers them: Tab must move the focus before the keys after it are handed to a field."""
    from textual import events
    app = app_at("menu")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("j")
        await until(lambda: screen_name(app) == "JoinScreen", "the join dialog", pilot=pilot)
        address, code = app.screen.query_one("#join-address"), app.screen.query_one("#join-code")
        address.value, code.value = "", ""
        address.focus()
        await pilot.pause()
        for key, character in [("a", "a"), ("b", "b"), ("tab", "\t"), ("c", "c"), ("d", "d")]:
            app.post_message(events.Key(key, character))  # all queued before any is handled
        await until(lambda: code.value == "CD" or code.value == "cd" or address.value != "ab",
                    "the keys handled", pilot=pilot)
        await pilot.pause()
        assert address.value == "ab" and code.value.lower() == "cd", (address.value, code.value)


async def test_the_host_of_a_lan_table_plays_again_with_the_same_people():
    """A table hosted from the app ends with "Play again" as well as "Back to menu", as a game against bots
    does: the same table deals again, the guest still in his seat is sent the new
    game from its start, his results close by themselves, and each game keeps its own record."""
    import random

    from tests.net_helpers import play_randomly
    plan = TablePlan(game="highwayman", options={"players": 2, "routes": 2, "route_length": 6, "series_games": 1},
                     interface="127.0.0.1", code=False, bot_delay=0)
    app = app_at("host", plan=plan)
    async with app.run_test(size=(120, 40)) as pilot:
        lobby = await host_from_the_set_up(pilot, app)
        guest = TableClient(*lobby.hosted.join_address, name="Bob")
        await guest.start()
        try:
            guest_plays = asyncio.ensure_future(play_randomly(guest, random.Random(1)))
            await until(lambda: screen_name(app) == "TableScreen", "the table", pilot=pilot)
            table = app.screen
            while screen_name(app) != "ResultsScreen":
                if screen_name(app) == "TableScreen" and table.frame.choices:
                    await pilot.press("1")
                await pilot.pause(0.05)
            await guest_plays
            first_record = app.record_path
            await until(lambda: "Play again" in screen_text(app), "the button", pilot=pilot)
            await guest.say("good game")
            from tui.widgets.log import TableLog
            await until(lambda: "Bob: good game" in table.query_one(TableLog).plain_lines,
                        "the last game's chat", pilot=pilot)
            await pilot.press("p")
            await until(lambda: app.screen is table and table.frame.result is None
                        and table.frame.turn == 0, "the new game on the table", pilot=pilot)
            await guest.wait_for(lambda snap: snap.result is None and snap.turn == 0, 30)
            assert guest.snapshot.seat == 1 and app.record_path != first_record
            await until(lambda: "A new game begins at this table" in logged(app), "the notice", pilot=pilot)
            # The new game's log opens with it, above the deal's first line
            assert logged(app).splitlines()[0].startswith("A new game begins at this table"), logged(app)
            assert "good game" not in logged(app)  # the last game's lines stay out of the new log
        finally:
            await guest.close()


async def test_the_host_is_told_the_mute_key_when_a_spectator_first_speaks():
    """Muting spectators is reachable by a key, not only the palette: the first spectator's line at a
    table hosted here tells the host that M mutes them; M does (once)."""
    async with a_hosted_table_with_a_bot() as (app, pilot, lobby):
        watcher = TableClient(*lobby.hosted.join_address, role="spectator", name="Sam")
        await watcher.start()
        try:
            await watcher.say("hello all")
            await until(lambda: "M mutes spectators' chat" in logged(app), "the hint", pilot=pilot)
            await watcher.say("and again")
            await until(lambda: "Sam (spectator): and again" in logged(app), "the second line", pilot=pilot)
            assert logged(app).count("M mutes spectators' chat") == 1
            app.screen.query_one("#move-choices").focus()
            await pilot.press("M")
            await until(lambda: lobby.hosted.table.chat.muted, "spectators muted", pilot=pilot)
        finally:
            await watcher.close()


async def test_the_host_of_a_lan_table_lets_a_bot_play_for_a_guest_who_left_until_he_is_back():
    """A guest who left a table hosted from the app must not stall it for good (the headless host has
    `bot N`): B, in the footer while someone is away, asks first and then has a bot play the seat; the
    game goes on, and the guest joining again with his token gets his seat back."""
    plan = TablePlan(game="turpin", options={"players": 2}, interface="127.0.0.1", code=False, bot_delay=0)
    app = app_at("host", plan=plan)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await host_from_the_set_up(pilot, app)
        footer = screen_text(app).splitlines()[-1]
        assert "esc close table" in footer, footer  # whole at 80 columns
        hosted = lobby.hosted
        bob = TableClient(*hosted.join_address, name="Bob")
        await bob.start()
        await until(lambda: screen_name(app) == "TableScreen" and app.screen.frame.started, "the game", pilot=pilot)
        table = app.screen
        assert "bot for absent" not in screen_text(app)  # nobody is away: not in the footer
        token = bob.token
        await bob.close()
        await until(lambda: "B bot for absent" in screen_text(app).splitlines()[-1], "the key in the footer",
                    pilot=pilot)
        if table.frame.choices:
            await pilot.press("1")  # our move: the table then waits for Bob's
        await until(lambda: "Waiting for Bob (away)." in screen_text(app), "the table waiting", pilot=pilot)
        await pilot.press("B")
        await until(lambda: screen_name(app) == "ConfirmScreen", "the question", pilot=pilot)
        assert "Let a bot play for Bob?" in screen_text(app) and "Keep waiting" in screen_text(app)  # not "Stay"
        await pilot.press("enter")
        await until(lambda: hosted.table.seats[1].kind == "bot", "a bot in Bob's seat", pilot=pilot)
        await until(lambda: "bot for absent" not in screen_text(app), "the key gone", pilot=pilot)
        moves = len(hosted.table.actions)

        def our_move() -> bool:
            return screen_name(app) == "TableScreen" and bool(table.frame.choices) and not table.frame.sent
        while len(hosted.table.actions) <= moves + 2:  # the game goes on: the bot plays Bob's moves, we ours
            await until(lambda: our_move() or len(hosted.table.actions) > moves + 2, "a move by us or Bob's bot",
                        pilot=pilot)
            if our_move():
                await pilot.press("1")
        bob = TableClient(*hosted.join_address, token=token)
        await bob.start()
        try:
            await bob.wait_for(lambda snap: snap.seat == 1, 30)
            await until(lambda: hosted.table.seats[1].kind == "player", "Bob back in his seat", pilot=pilot)
        finally:
            await bob.close()


async def test_the_host_closing_his_table_is_told_as_that_not_as_his_leaving_it():
    """When the host leaves (and so closes) his table, it closes first: the only news is that the host
    closed it, not that he left it and his seat waits for him, and then that the table is gone."""
    async with a_hosted_table_with_a_bot() as (app, pilot, lobby):
        watcher = TableClient(*lobby.hosted.join_address, role="spectator", name="Sam")
        heard: list = []
        watcher.subscribe(heard.append)
        await watcher.start()
        try:
            await pilot.press("escape")
            await until(lambda: screen_name(app) == "ConfirmScreen", "the question", pilot=pilot)
            await pilot.press("enter")
            await until(lambda: any(update.kind == "stopped" for update in heard), "the table stopped", pilot=pilot)
            said = [update.text for update in heard if update.kind in ("notice", "stopped", "error")]
            assert any("closed the table" in text for text in said), said
            assert not any("left the table" in text for text in said), said
        finally:
            await watcher.close()


async def test_a_player_back_in_a_seat_a_bot_kept_warm_is_told_the_bot_played_for_him():
    """The host's "While you were away … played your seat" comes with the welcome, before the app's
    table screen listens; it must not be lost, or the log tells the player the bot's moves were his own.
    The client keeps notices nobody has heard yet for its first listener: the line is in the log and a toast."""
    table = Table(get_game("turpin"), {"players": 2}, name="warm table")
    host, address = await serve(table)
    try:
        ann = TableClient("127.0.0.1", host.address[1], name="Ann")
        await ann.start()
        cat = TableClient("127.0.0.1", host.address[1], name="Cat")
        await cat.start()
        token = cat.token
        await cat.close()
        await until(lambda: not table.seating.public()[1]["connected"], "Cat gone from the table")
        host.table.hand_to_bot(1, why="is played by a bot until its player is back", keep_warm=True)
        app = TurpinApp(Start(route="join", address=address, extra={"token": token, "seat": None}),
                        player_name="Cat", lan_interfaces=[], bell=False)
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await until(lambda: screen_name(app) == "TableScreen" and app.client is not None
                        and app.client.snapshot.seat == 1, "the seat back", pilot=pilot)
            from tui.widgets.log import TableLog
            await until(lambda: any("While you were away" in line for log in app.screen.query(TableLog)
                                           for line in log.plain_lines), "the bot's news in the log", pilot=pilot)
            assert any("While you were away" in note.message for note in app._notifications)
        await ann.close()
    finally:
        await host.close()


async def test_the_app_host_takes_the_host_settings_it_is_given(tmp_path, capsys):
    """`turpin host` (the app as host) takes --no-advertise, --grace, --bot-delay, --max-spectators and
    --record to the hosted table (a table asked to stay off the LAN list stays off it); --linger, which
    only a headless host has a use for, is refused with the reason."""
    import tui.cli.app_routes as app_routes
    import tui.cli.commands as commands
    started = {}

    def capture(args, where):
        started["start"] = where
        return 0
    real = app_routes.run_app
    app_routes.run_app = capture
    try:
        record = str(tmp_path / "kept.record")
        commands.run_command(["host", "--players", "3", "--no-advertise", "--grace", "20", "--bot-delay", "1.5",
                              "--max-spectators", "2", "--record", record, "--interface", "127.0.0.1"])
        assert commands.run_command(["host", "--linger", "5"]) != 0
        assert "--linger is for a headless host" in capsys.readouterr().err
    finally:
        app_routes.run_app = real
    plan = started["start"].plan
    assert (plan.advertise, plan.grace, plan.bot_delay, plan.max_spectators, plan.record) == (
        False, 20.0, 1.5, 2, record)
    # through the host set-up (which keeps these beside its own fields) to the table
    app = TurpinApp(started["start"], player_name="Ann", lan_interfaces=[], bell=False)
    async with app.run_test(size=(100, 30)) as pilot:
        hosted = (await host_from_the_set_up(pilot, app)).hosted
        assert hosted.table.grace == 20.0 and hosted.host.settings.max_spectators == 2
        assert hosted.host.settings.bot_delay == 1.5 and app.record_path == record


async def test_the_join_screen_offers_the_seat_this_terminal_last_sat_in():
    """Back through SSH after a dropped connection, a player need not remember host:port: Join (j) offers
    the table last sat at, where his seat waits: Enter."""
    table = Table(get_game("turpin"), {"players": 2}, name="kept table", code="K7QX2M")
    host, address = await serve(table)
    try:
        first = app_at("join", address=address, code="K7QX2M")
        async with first.run_test(size=(100, 30)) as pilot:
            await until(lambda: screen_name(first) == "TableScreen" and first.client is not None
                        and first.client.snapshot.seat is not None, "the seat", pilot=pilot)
            seat = first.client.snapshot.seat
        again = TurpinApp(Start(), player_name="Ann", lan_interfaces=[], bell=False)
        async with again.run_test(size=(100, 30)) as pilot:
            await until(lambda: screen_name(again) == "MenuScreen", "the menu", pilot=pilot)
            await pilot.press("j")
            await until(lambda: screen_name(again) == "JoinScreen", "the join screen", pilot=pilot)
            await until(lambda: f"You last sat at {address}" in screen_text(again), "the offer", pilot=pilot)
            await pilot.press("enter")
            await until(lambda: screen_name(again) == "TableScreen" and again.client is not None
                        and again.client.snapshot.seat == seat, "the same seat again", pilot=pilot)
    finally:
        await host.close()


async def test_chat_from_one_of_two_seats_of_one_name_says_which():
    """At a table of two Anns a chat line says the seat, as the log names them, not "Ann: …" (which
    Ann?)."""
    table = Table(get_game("turpin"), {"players": 2}, name="twins")
    host, address = await serve(table)
    app = app_at("join", address=address)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(lambda: screen_name(app) == "TableScreen" and app.client is not None
                        and app.client.snapshot.seat == 0, "the table", pilot=pilot)
            twin = TableClient("127.0.0.1", host.address[1], name="Ann")
            await twin.start()
            try:
                await until(lambda: len(app.screen.frame.seats) == 2
                            and app.screen.frame.seats[1].get("name") == "Ann", "the second Ann", pilot=pilot)
                await twin.say("hello twin")
                await until(lambda: "Ann (seat 2): hello twin" in logged(app), "the chat line", pilot=pilot)
                header = screen_text(app).splitlines()[0]
                assert "you: Ann (seat 1)" in header and "(seat 1) (seat 1)" not in header, header
            finally:
                await twin.close()
    finally:
        await host.close()


async def test_a_spectator_before_the_game_starts_is_told_the_seats_are_filling():
    """A spectator who comes while the host is in his lobby is not told "Hank to play (drew a card)" of a
    game not yet begun: the status line says the table waits for players, and how many have sat."""
    table = Table(get_game("highwayman"), {"players": 2}, name="filling")
    host, address = await serve(table)
    ann = TableClient("127.0.0.1", host.address[1], name="Ann")
    await ann.start()
    app = app_at("spectate", address=address)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(lambda: screen_name(app) == "TableScreen", "the table", pilot=pilot)
            await until(lambda: "Waiting for players: 1 of 2 seats taken" in screen_text(app), "the news", pilot=pilot)
    finally:
        await ann.close()
        await host.close()


@contextlib.asynccontextmanager
async def a_first_window_seated(table: Table):
    """``table`` served on 127.0.0.1, and a first app window seated at it in seat 1 (its token kept in
    the seats file): yields that app, the host and the address."""
    host, address = await serve(table)
    try:
        first = app_at("join", address=address)
        async with first.run_test(size=(100, 30)) as pilot:
            await until(lambda: screen_name(first) == "TableScreen" and first.client is not None
                        and first.client.snapshot.seat == 0, "the first window seated", pilot=pilot)
            yield first, host, address
    finally:
        await host.close()


def a_second_window(address: str) -> TurpinApp:
    return TurpinApp(Start(route="join", address=address), player_name="Zed", lan_interfaces=[], bell=False)


async def test_a_second_window_of_the_same_terminal_takes_a_new_seat_not_the_one_being_played():
    """`turpin join` from a second window on the host's machine finds the host's seat token in the seats
    file, and must not take his seat from under him: a kept token does not push out a window playing the
    seat now (`take_over` false: the host says seat_in_use); the second window sits in a free seat."""
    table = Table(get_game("turpin"), {"players": 3}, name="two windows")
    async with a_first_window_seated(table) as (first, host, address):
        second = a_second_window(address)
        async with second.run_test(size=(100, 30)) as other:
            await until(lambda: screen_name(second) == "TableScreen" and second.client is not None
                        and second.client.snapshot.seat is not None, "the second window seated", pilot=other)
            assert second.client.snapshot.seat == 1
            assert first.client.stopped is None and first.client.snapshot.seat == 0
            assert [info.name for info in table.seats[:2]] == ["Ann", "Zed"]


async def test_the_spectate_form_asks_for_no_room_code():
    """The spectate form has no room code field ("Room code (not needed to watch)"), one not to fill."""
    app = TurpinApp(Start(), player_name="Ann", lan_interfaces=[], bell=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
        await pilot.press("s")
        await until(lambda: screen_name(app) == "JoinScreen" and "Address" in screen_text(app), "the form", pilot=pilot)
        assert "Room code" not in screen_text(app) and "Spectate a table" in screen_text(app)


async def test_a_second_window_at_a_full_table_is_told_its_seat_is_held_elsewhere():
    """The seat this terminal holds is played from another window, and no seat is free: the join form
    says the seat is held by another connection (perhaps its own last one) and to try again, not that the
    table is full."""
    table = Table(get_game("turpin"), {"players": 2}, name="full of us")
    async with a_first_window_seated(table) as (first, host, address):
        bob = TableClient("127.0.0.1", host.address[1], name="Bob")
        await bob.start()
        try:
            second = a_second_window(address)
            async with second.run_test(size=(100, 30)) as other:
                await until(lambda: "is still held by" in screen_text(second), "the reason", pilot=other)
                assert first.client.stopped is None and first.client.snapshot.seat == 0
        finally:
            await bob.close()


async def test_the_join_dialog_hands_the_focus_to_the_lan_list_once_it_lists_a_table():
    """Most players join what the LAN lists, so the first table heard takes the focus from the
    empty address box (Enter then joins it); an address typed meanwhile keeps the focus where it is."""
    from tui.widgets.lan_tables import LanTable, LanTables
    heard = LanTable("Lunch 0a1b2c", "Lunch", "turpin", "127.0.0.1:4707", 1, 1, False)
    for typed in ("", "10.0.0."):
        app = app_at("menu")
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("j")
            await until(lambda: screen_name(app) == "JoinScreen", "the join dialog", pilot=pilot)
            address = app.screen.query_one("#join-address")
            assert app.screen.focused is address
            await pilot.press(*typed) if typed else None
            lan = app.screen.query_one(LanTables)
            lan.post_message(LanTables.Changed("added", heard))  # as the browser posts a table it hears
            await until(lambda: lan.row_count == 1, "the table in the list", pilot=pilot)
            await pilot.pause()
            assert app.screen.focused is (lan if not typed else address), typed


async def test_a_host_who_closes_a_lan_table_mid_game_is_told_how_to_serve_it_again():
    """Leaving a LAN table hosted here closes it for everyone; while its game is unfinished the
    menu then says the command that serves it again from its record, and that record resumes."""
    import shlex

    from net.record import read_record
    async with a_hosted_table_with_a_bot() as (app, pilot, lobby):
        path = app.record_path
        assert path is not None
        await pilot.press("escape")
        await until(lambda: screen_name(app) != "TableScreen", "the question", pilot=pilot)
        await pilot.press("enter")
        await until(lambda: screen_name(app) == "MenuScreen" and "To serve it again" in
                    screen_text(app), "the menu's line", pilot=pilot)
        command = f"turpin host --headless --resume {shlex.quote(path)}"
        assert command in str(app.screen.query_one("#menu-hint").content)  # wrapped on screen: a long path
        assert Table.from_record(get_game("turpin"), read_record(path)).seats[1].kind == "bot"


async def test_the_set_up_chooses_the_turn_clock():
    """The Turn clock field: blank is 90 s a move when hosting and none against bots, a number is the
    seconds, 0 is none, and a negative one is a problem the set-up names."""
    app = TurpinApp(Start(route="menu"), player_name="Ann", lan_interfaces=[], bell=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
        await pilot.press("h")
        await until(lambda: screen_name(app) == "SetupScreen" and bool(app.screen.query("#setup-clock")),
                    "the host set-up", pilot=pilot)
        field = app.screen.query_one("#setup-clock")
        assert field.value == "" and "90 s a move" in str(field.placeholder)
        assert app.screen.read_plan().clock_seconds == 90
        for typed, seconds in (("45", 45), ("0", 0)):
            field.value = typed
            assert app.screen.read_plan().clock_seconds == seconds
        field.value = "-3"
        with pytest.raises(ValueError, match="turn clock"):
            app.screen.read_plan()
        await pilot.press("escape")
        await until(lambda: screen_name(app) == "MenuScreen", "the menu again", pilot=pilot)
        await pilot.press("g")
        await until(lambda: screen_name(app) == "SetupScreen" and bool(app.screen.query("#setup-clock")),
                    "the set-up against bots", pilot=pilot)
        assert app.screen.query_one("#setup-clock").value == ""
        assert app.screen.read_plan().clock_seconds == 0  # against bots: no clock unless asked for


async def test_the_seat_to_move_sees_its_clock_and_the_bot_moves_for_it_when_time_runs_out():
    """At a clocked table the seat to move sees its own time over the move list; when the (test's) time runs
    out the host's bot makes that move and the log on screen says so."""
    clock = ManualClock()
    table = Table(get_game("turpin"), {"players": 2}, bots={1: "random"}, seed=5, clock=30, now=clock)
    host = TableHost(table, HostSettings(bot_delay=0, clock_poll=0.01))
    _, port = await host.start("127.0.0.1", 0)
    app = TurpinApp(Start(route="join", address=f"127.0.0.1:{port}"), player_name="Ann", lan_interfaces=[],
                    bell=False)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(lambda: screen_name(app) == "TableScreen" and app.screen.frame.prompt is not None,
                        "Ann's first move", pilot=pilot)
            line = app.screen.query_one("#turn-clock")
            await until(lambda: line.display and "Your move: 0:" in str(line.render()),
                        "her clock over the move list", pilot=pilot)
            turn = table.turn
            clock.advance(30)
            await until(lambda: "time ran out" in screen_text(app) and table.turn > turn,
                        "the bot's move for her, in the log", pilot=pilot)
            assert table.actions[turn][0] == 0  # the move made was her seat's
    finally:
        await host.close()
