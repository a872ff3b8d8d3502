"""Whole games through the app, by keys only, against bots on a private table."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.tui_helpers import at_table, play_to_results, quick_app, region_text, screen_name
from tests.tui_helpers import screen_text as plain_text
from tests.waiting import until
from tui.app import Start, TurpinApp
from tui.hosting import plan_against_bots
from tui.widgets.prompt import MovePane


def screen_text(app) -> str:
    """Everything the screen shows, as plain text (what a person reads)."""
    return app.export_screenshot()  # SVG text: the words are in it


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_a_whole_dick_turpin_game_by_keys(size):
    app = quick_app("turpin", players=3, seed=11)
    async with app.run_test(size=size) as pilot:
        await until(lambda: screen_name(app) == "TableScreen", "the table", pilot=pilot)
        table = app.screen
        await until(lambda: table.frame.view is not None, "the first table", pilot=pilot)
        assert table.frame.seat == 0
        assert "Oxford" in str(table.frame.view["hand"])
        moves = await play_to_results(pilot, app)
        assert moves > 6
        results = app.screen
        assert results.frame.result is not None
        await pilot.press("m")
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)


async def test_a_click_on_a_town_on_the_road_lays_its_card():
    """T5 by mouse on the board, as the README promises (not only on the hand's cards): the towns you may
    lie in wait at are lit on the road, and a click on one lays its card."""
    from tui.games.dick_turpin.board import Board
    app = quick_app("turpin")
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices),
                    "the first prompt", pilot=pilot)
        board = app.screen.query_one("#board", Board)
        town = app.screen.frame.view["hand"][3]
        await until(lambda: board.offset_of(f"town:{town}") is not None, "the town on the road", pilot=pilot)
        await pilot.click(board, offset=board.offset_of(f"town:{town}"))
        await until(lambda: app.screen.frame.view.get("my_card") == town, f"{town} laid face down", pilot=pilot)
        assert board.offset_of(f"town:{town}") is None  # laid: no longer a choice on the road


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_a_click_on_a_town_card_in_the_hand_lays_it(size):
    """T5 by mouse: the hand's town cards are drawn outlined; a click on one lays exactly that card face down."""
    from tui.games.dick_turpin.hand import Hand
    app = quick_app("turpin")
    app.start.plan.bot_delay = 3600  # the bots wait: only our card changes the table
    async with app.run_test(size=size) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices),
                    "the first prompt", pilot=pilot)
        if size[0] < 110:
            await pilot.press("right_square_bracket")  # the hand's tab
        hand = app.screen.query_one("#hand", Hand)
        town = app.screen.frame.view["hand"][2]
        await until(lambda: hand.offset_of(f"town:{town}") is not None, "the card drawn", pilot=pilot)
        assert any(target == f"town:{town}" and town in words for target, words in hand.parts())
        await pilot.click(hand, offset=hand.offset_of(f"town:{town}"))
        await until(lambda: app.screen.frame.view.get("my_card") == town, f"{town} laid face down", pilot=pilot)
        assert town not in app.screen.frame.view["hand"]


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_your_move_is_said_by_the_move_pane_and_never_a_toast(size):
    """"Your move" toasts sat over the road and over two of six Highwayman cards. The move pane
    says it, where the choices are; no toast does, however fast the prompts come."""
    app = quick_app("money-or-life", seed=5)
    async with app.run_test(size=size, notifications=True) as pilot:
        for _ in range(4):  # the bots answer at once
            screen = app.screen
            await until(lambda: screen.frame.choices and not screen.frame.sent
                        and "Your move" in screen.query_one("#move-status").shown.plain, "a prompt", pilot=pilot)
            assert not any("Your move" in notice.message for notice in app._notifications)
            await pilot.press("1")


@pytest.mark.parametrize("size", [(120, 40), (200, 30), (80, 24)])
async def test_a_notice_stands_over_the_log_never_over_the_board_the_hand_or_the_choices(size):
    app = quick_app("highwayman", seed=5)
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=size, notifications=True) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices),
                    "the first prompt", pilot=pilot)
        await pilot.press("b")  # the bell's switch says "Bell on" in a notice
        await until(lambda: any(toast.region.height for toast in app.screen.query("Toast")),
                    "the notice on screen", pilot=pilot)
        toast = app.screen.query_one("Toast")
        assert not toast.region.overlaps(app.screen.query_one("#move").region)
        covered = [pane for pane in ("#board", "#hand") if app.screen.query_one(pane).region.overlaps(toast.region)]
        if app.screen.narrow:  # the board's tab: only its empty foot
            board = app.screen.query_one("#board")
            assert toast.region.y > board.region.y + board.virtual_size.height + 1
        else:
            assert not covered and toast.region.overlaps(app.screen.query_one("#log").region)


async def test_esc_at_a_game_asks_before_it_ends_the_game():
    """Esc is the key that backs out of everything else, so at a table it first asks: a second Esc (or n)
    stays at the same game; Enter (or y) leaves it for the menu and ends the game against the bots."""
    app = quick_app("turpin")
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices),
                    "the first prompt", pilot=pilot)
        table, client = app.screen, app.client
        await pilot.press("escape")
        await until(lambda: screen_name(app) == "ConfirmScreen", "the question", pilot=pilot)
        assert "The game against the bots ends here" in plain_text(app)  # no move made yet: nothing to go on with
        await pilot.press("escape")
        await until(lambda: app.screen is table, "the table again", pilot=pilot)
        assert app.client is client and bool(table.frame.choices)
        await pilot.press("escape", "n")
        await until(lambda: app.screen is table, "the table after n", pilot=pilot)
        await pilot.press("escape")
        await until(lambda: screen_name(app) == "ConfirmScreen", "the question again", pilot=pilot)
        await pilot.press("enter")
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
        await until(lambda: app.client is None and app.hosted is None, "the table closed", pilot=pilot)


async def test_ctrl_q_at_a_game_asks_before_it_quits():
    """ctrl+q is Textual's quit key and takes priority over a screen's keys, so at a table it went
    straight out of turpin, past the question Esc asks (a table you host would close for everyone). Now
    it asks the same; Esc stays at the game, Enter quits; away from a game it quits at once."""
    app = quick_app("turpin")
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices),
                    "the first prompt", pilot=pilot)
        table = app.screen
        await pilot.press("ctrl+q")
        await until(lambda: screen_name(app) == "ConfirmScreen", "the question", pilot=pilot)
        shown = plain_text(app)
        assert "Quit turpin?" in shown and "The game against the bots ends here" in shown, shown
        await pilot.press("escape")
        await until(lambda: app.screen is table, "the table again", pilot=pilot)
        assert app.is_running
        await pilot.press("question_mark")  # over the rules too, not quitting at once
        await until(lambda: screen_name(app) == "RulesScreen", "the rules", pilot=pilot)
        await pilot.press("ctrl+q")
        await until(lambda: screen_name(app) == "ConfirmScreen", "the question again", pilot=pilot)
        await pilot.press("enter")
        await until(lambda: not app.is_running, "turpin to quit", pilot=pilot)


async def test_ctrl_c_says_how_to_quit_and_how_to_leave_the_table():
    """ctrl+c, the key people press first to get out, copies in Textual; at a table it says that ctrl+q
    quits and Esc leaves, and quits nothing itself."""
    app = quick_app("turpin")
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(lambda: screen_name(app) == "TableScreen", "the table", pilot=pilot)
        await pilot.press("ctrl+c")
        await until(lambda: any("ctrl+q quits turpin · Esc leaves the table" in note.message
                                       for note in app._notifications), "the hint", pilot=pilot)
        assert app.is_running and screen_name(app) == "TableScreen"


async def test_ctrl_q_on_the_menu_quits_at_once():
    app = TurpinApp(Start(route="menu"), player_name="Ann", lan_interfaces=[], bell=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
        await pilot.press("ctrl+q")
        await until(lambda: not app.is_running, "turpin to quit", pilot=pilot)


async def test_a_guest_of_the_ssh_door_is_offered_neither_hosting_nor_the_operators_records():
    """A guest through `turpin serve-ssh` hosts no LAN table and opens no SSH door (listening ports on every
    interface of the operator's machine, with a password only the guest knows), and the Replays list does
    not show the operator's records, which hold every hand of his games (running ones too). A guest's
    window offers neither, and keeps no records of its own."""
    app = TurpinApp(Start(route="menu"), player_name="Ann", lan_interfaces=[], bell=False, guest=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
        shown = plain_text(app)
        assert "Host a table" not in shown and "Replays" not in shown and "Join a table" in shown, shown
        await pilot.press("h", "r")
        await pilot.pause()  # the keys handled
        assert screen_name(app) == "MenuScreen"
        commands = [command.title for command in app.get_system_commands(app.screen)]
        assert "Host" not in commands and "Replays" not in commands and "Join" in commands, commands
        await pilot.press("enter")  # a game against bots is still there, on 127.0.0.1
        await until(lambda: screen_name(app) == "TableScreen", "the table", pilot=pilot)
        assert app.record_path is None and app.hosted.address[0] == "127.0.0.1"


@pytest.mark.parametrize("key", ["escape", "ctrl+p"])
async def test_a_resize_across_the_fold_under_the_leave_question_or_the_palette_does_not_crash(key):
    """With the leave question or the palette open, a resize from 120×40 to 80×24 lays the table out anew
    under it, and the new move list may be drawn before the stylesheet reaches it: it draws plainly until
    styled, then with its highlight, and never raises (a player's SSH session would go with the app)."""
    from tui.widgets.component import component_style
    app = quick_app("money-or-life", players=1)
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices),
                    "the first prompt", pilot=pilot)
        table = app.screen
        await pilot.press(key)
        await until(lambda: app.screen is not table, "the question or the palette", pilot=pilot)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert app.is_running
        await pilot.press("escape")
        await until(lambda: app.screen is table, "the table again", pilot=pilot)
        choices = table.query_one("#move-choices")
        lit = component_style(choices, "choice-list--highlighted")
        assert lit.bgcolor is not None
        row = choices.render_line(choices.highlighted - choices._top)
        assert any(segment.style and segment.style.bgcolor == lit.bgcolor for segment in row), row


async def test_esc_once_the_game_is_over_leaves_without_asking():
    app = quick_app("turpin", players=3, seed=11)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "TableScreen", "the table", pilot=pilot)
        table = app.screen
        await play_to_results(pilot, app)
        await pilot.press("t")  # from the results, a look at the finished table
        await until(lambda: app.screen is table, "the finished table", pilot=pilot)
        shown = plain_text(app)
        assert "r results" in shown and "r shows the results again" in shown, shown  # the way back is told
        await pilot.press("r")
        await until(lambda: screen_name(app) == "ResultsScreen", "the results again", pilot=pilot)
        await pilot.press("t")
        await until(lambda: app.screen is table, "the finished table again", pilot=pilot)
        await pilot.press("escape")
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)


async def test_with_ascii_glyphs_the_frames_are_ascii_too():
    """--ascii (or a terminal that cannot draw box lines): the table's frames are +-| like its pictures."""
    from tui.glyphs import ASCII
    app = quick_app("turpin")
    app.glyphs = ASCII
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices),
                    "the first prompt", pilot=pilot)
        await until(lambda: "+- Board -" in plain_text(app), "the board's frame in ASCII", pilot=pilot)
        shown = plain_text(app)
        assert not any(corner in shown for corner in "╭╮╰╯"), shown
        assert "+- Players -" in shown and "+- Log -" in shown


@pytest.mark.parametrize("game, players", [("turpin", None), ("money-or-life", 1), ("highwayman", None)])
async def test_with_ascii_glyphs_every_cell_of_every_tab_is_ascii(game, players):
    """Under --ascii every cell is ASCII, at 80×24, on every tab, the menu too: not only the pictures but
    the tabs' underline, the footer's bar, the move list's arrow, "·" and "—" in our own lines, a cut
    word's "…" (garbage on a terminal that cannot draw them)."""
    from tui.glyphs import ASCII
    app = quick_app(game, players=players)
    app.glyphs = ASCII
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices),
                    "the first prompt", pilot=pilot)
        seen = set()
        for key in ("", "right_square_bracket", "right_square_bracket", "right_square_bracket",
                    "right_square_bracket", "question_mark"):
            if key:
                await pilot.press(key)
                await pilot.pause()
            seen.update(plain_text(app))
        assert all(char.isascii() for char in seen), sorted(char for char in seen if not char.isascii())
        assert {"-", "|", "+"} <= seen  # the frames are still drawn, in ASCII
        await pilot.press("escape", "ctrl+p")  # the palette's search icon too, never "??"
        await until(lambda: screen_name(app) == "CommandPalette", "the palette", pilot=pilot)
        await pilot.pause()
        assert "??" not in plain_text(app)


async def test_every_menu_key_is_in_its_footer_at_80_columns():
    """The footer of the menu had "q quit" drawn over by the palette's key at 80×24."""
    from tests.tui_helpers import menu_app
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
        footer = plain_text(app).splitlines()[-1]
        for words in ("g set up", "h host", "j join", "s spectate", "r replays", "? rules", "q quit"):
            assert words in footer, footer


async def test_a_key_typed_ahead_of_a_new_move_is_not_played_on_it(monkeypatch):
    """Two quick presses of 1 turned two cards in Dick Turpin: the host answered the first before the
    second came. A choice within TurpinApp.TYPE_AHEAD_GUARD of the move being painted is dropped, and
    said so; once the move has been on screen that long, the same key plays."""
    from tui.app import TurpinApp
    monkeypatch.setattr(TurpinApp, "TYPE_AHEAD_GUARD", 3600.0)  # every key is "too quick"
    monkeypatch.setattr(TurpinApp, "NEW_QUESTION_GUARD", 3600.0)  # (the first question is a new one)
    app = quick_app("turpin")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices),
                    "the first prompt", pilot=pilot)
        table = app.screen
        prompt = table.frame.prompt
        moves = table.query_one(MovePane)
        await until(lambda: moves.prompt_shown_at < float("inf"), "the move painted", pilot=pilot)
        await pilot.press("1")
        await until(lambda: "Key not taken" in plain_text(app), "the notice", pilot=pilot)
        await pilot.press("2", "3")  # a burst of keys: the one toast says it (three stacked hid the board)
        await pilot.pause()
        assert table.frame.prompt is prompt and not table.frame.sent, "nothing was sent"
        assert sum(toast.title == "Key not taken" for toast in app._notifications) == 1
        monkeypatch.setattr(TurpinApp, "TYPE_AHEAD_GUARD", 0.0)  # the move has been seen long enough
        monkeypatch.setattr(TurpinApp, "NEW_QUESTION_GUARD", 0.0)
        await pilot.press("1")
        await until(lambda: table.frame.sent or table.frame.prompt is not prompt, "the move sent", pilot=pilot)


async def test_a_key_typed_for_one_question_is_held_longer_when_another_comes_up(monkeypatch):
    """"Rob 2, then turn another" typed as 2 and 1 in Dick Turpin: a pistol may end the robbery and the
    next journey's secret card come up at once, and the 1, 0.4 s after it shows, must not lay a card
    nobody has seen. A prompt that asks another kind of question than the one last answered holds keys for
    NEW_QUESTION_GUARD; one of the same kind, TYPE_AHEAD_GUARD (off here)."""
    from tui.app import TurpinApp
    from tui.type_ahead import question_kinds
    app = quick_app("money-or-life", players=2, seed=5)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices),
                    "the first pick", pilot=pilot)
        table = app.screen
        await pilot.press("1")  # a coach: the next question is how to share the dice
        await until(lambda: table.frame.view["phase"] == "rob" and bool(table.frame.choices), "the robbery",
                    pilot=pilot)
        assert question_kinds(table.frame.prompt) != table.query_one(MovePane).answered_kinds
        monkeypatch.setattr(TurpinApp, "NEW_QUESTION_GUARD", 3600.0)
        prompt = table.frame.prompt
        await pilot.press("1")
        await until(lambda: any(toast.title == "Key not taken" for toast in app._notifications), "the notice",
                    pilot=pilot)
        assert table.frame.prompt is prompt and not table.frame.sent, "nothing was sent"
        # the same question answered before: the short guard
        table.query_one(MovePane).answered_kinds = question_kinds(prompt)
        await pilot.press("1")
        await until(lambda: table.frame.sent or table.frame.prompt is not prompt, "the move sent", pilot=pilot)


def test_T6_the_robbery_prompt_says_how_many_cards_are_left_to_turn():
    """T6: at most one card per declared passenger; mid-robbery the move's title says how many are turned
    and how many more may be, as the screen sketch has it."""
    import random

    from core.registry import get_game
    from tui.frame import TableFrame
    from tui.games.dick_turpin import hooks as panes
    game = get_game("turpin")
    for seed in range(60):
        state = game.setup(game.resolve_options({"players": 2}), seed)
        rng = random.Random(seed)
        while game.result(state) is None and not (state["phase"] == "draw" and state["turned"]
                                                  and 0 in game.pending(state)):
            seat = game.pending(state)[0]
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        if game.result(state) is None:
            break
    else:
        raise AssertionError("no robbery under way in these seeds")
    frame = TableFrame(game="turpin", title=game.title, seat=0, started=True, view=game.view(state, 0),
                       prompt=None, seats=[])
    turned, left = len(state["turned"]), state["declared"] - len(state["turned"])
    assert f"{turned} card{'s' * (turned != 1)} turned, up to {left} more" in panes.prompt_title(frame)


async def test_the_dick_turpin_sheet_says_a_tie_is_a_tie():
    """T14: equal gold shares the win, so equal gold shares a place: with 15 in every seat the sheet says
    no "Gold 15 of 60 · 1st place", nor a spectator's "Leader: Ann with 15 gold"."""
    from core.registry import get_game
    from net.table.table import Table
    from tests.tui_helpers import app_at_table
    from tui.games.dick_turpin import Sheet
    table = Table(get_game("turpin"), {"players": 4}, bots={1: "random", 2: "random", 3: "random"})
    async with app_at_table("join", table, (120, 40)) as (app, pilot, host):
        sheet = app.screen.query_one(Sheet)
        await until(lambda: "Gold 15 of 60 · tied 1st place" in sheet.shown.plain, "a tie", pilot=pilot)
        frame = app.screen.frame
        watching = replace(frame, seat=None)
        assert sheet.draw(watching).plain.startswith("Level: 15 gold each")
        ahead = replace(frame, view={**frame.view, "gold": [20, 20, 10, 10]})
        assert sheet.draw(ahead).plain.startswith("Gold 20 of 60 · tied 1st place")
        assert sheet.draw(replace(ahead, seat=None)).plain.startswith("2 lead with 20 gold each")
        alone = replace(frame, view={**frame.view, "gold": [30, 10, 10, 10]})
        assert sheet.draw(alone).plain.startswith("Gold 30 of 60 · 1st place")


async def test_the_palette_lists_every_action_of_the_screen_once_and_no_arrow_keys():
    """The palette lists the moves and the screen's keys, each once ("Quit" once on the menu, not Textual's
    and the menu's q), and not a focused list's arrows (Up, Down, First, Last, Page Up, Focus Next…)."""
    app = quick_app("money-or-life", players=1)
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices),
                    "the first prompt", pilot=pilot)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert len(titles) == len(set(titles)), titles
        assert "Move 1: Rob the coach to the North" in titles
        assert {"Chat", "Rules", "Leave table", "Quit", "Light/dark"} <= set(titles)
        assert not {"Up", "Down", "Previous", "Next", "First", "Last", "Page up", "Page Up", "Focus Next"} & set(titles)
        await pilot.press("escape", "enter")
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
        titles = [command.title.casefold() for command in app.get_system_commands(app.screen)]
        assert titles.count("quit") == 1 and "join" in titles and "up" not in titles, titles


def test_the_dick_turpin_hand_says_a_laid_card_is_turned_up_not_that_nothing_was_laid():
    """T12: at its town the face-down card is turned up onto its pile; the hand then says "nothing laid
    yet"."""
    from tui.games.dick_turpin.hand import face_down_in_words
    view = {"phase": "choose", "my_card": None, "pile_tops": [None, None]}
    assert face_down_in_words(view, 0) == "nothing laid yet"
    assert face_down_in_words({**view, "my_card": "York"}, 0) == "York"
    robbing = {"phase": "draw", "my_card": None, "pile_tops": ["Bath", "York"]}
    # One answer, not "Face down: none: your Bath is turned up", which reads as two
    assert face_down_in_words(robbing, 0) == "nothing (your Bath is turned up on your pile)"
    assert face_down_in_words({**robbing, "phase": "choose"}, 0) == "nothing laid yet"  # the next journey


def test_the_results_list_the_winners_first_then_the_best_scores():
    """Winners first, then the best score down, in the direction the winners show (lowest wins
    Highwayman); not seat order ("★ root 35 / Moll 3 / Claude 11 / Swift 11")."""
    from tui.screens.results import standings
    most_wins = [("root", 35, True), ("Moll", 3, False), ("Claude", 11, False), ("Swift", 12, False)]
    assert [name for name, _, _ in standings(most_wins)] == ["root", "Swift", "Claude", "Moll"]
    least_wins = [("Ann", 40, False), ("Bob", 7, True), ("Cat", 20, False)]
    assert [name for name, _, _ in standings(least_wins)] == ["Bob", "Cat", "Ann"]
    level = [("Ann", 15, True), ("Bob", 15, True)]
    assert standings(level) == level  # a tie keeps its seat order


async def test_the_theme_chosen_is_kept_for_the_next_run_but_not_for_a_guest():
    """The theme chosen is kept in turpin's settings folder for the next start;
    an SSH guest's app neither keeps one nor reads it (the operator's choice is his own)."""
    from tui.app import Start, TurpinApp
    first = TurpinApp(Start(route="menu"), player_name="Ann", lan_interfaces=[], bell=False)
    async with first.run_test(size=(80, 24)) as pilot:
        await until(lambda: screen_name(first) == "MenuScreen", "the menu", pilot=pilot)
        await pilot.press("ctrl+t")
        await until(lambda: first.theme == "textual-light", "the light theme", pilot=pilot)
    again = TurpinApp(Start(route="menu"), player_name="Ann", lan_interfaces=[], bell=False)
    async with again.run_test(size=(80, 24)) as pilot:
        await until(lambda: screen_name(again) == "MenuScreen", "the menu again", pilot=pilot)
        assert again.theme == "textual-light"
    guest = TurpinApp(Start(route="menu"), player_name="Ann", lan_interfaces=[], bell=False, guest=True)
    async with guest.run_test(size=(80, 24)) as pilot:
        await until(lambda: screen_name(guest) == "MenuScreen", "a guest's menu", pilot=pilot)
        assert guest.theme == "textual-dark"
        await pilot.press("ctrl+t")
        await pilot.pause()
    from tui.saved import preferences
    assert preferences.load()["theme"] == "textual-light"


def test_T12_the_reveal_of_a_longer_game_says_its_piles_are_the_last_rounds():
    """T12, T14: piles are turned up as each round ends, so the end's reveal holds the last round's only;
    with two rounds its headings say so ("Cards laid" alone reads as the whole game's)."""
    from tui.frame import TableFrame
    from tui.games.dick_turpin import hooks as panes
    reveal = {"hands": [[], []], "piles": [["York"], ["Bath"]], "waiting": [None, None], "booty_left": [1, 2, 3, 4, 5]}
    seats = [{"seat": 0, "kind": "player", "name": "Ann"}, {"seat": 1, "kind": "player", "name": "Bob"}]
    longer = panes.reveal_text(reveal, TableFrame(options={"rounds": 2}, seats=seats)).plain
    assert "Cards laid in the last round, first to last" in longer and "Ann: York" in longer
    frame = TableFrame(options={"rounds": 1}, seats=seats)
    assert "Cards laid, first to last" in panes.reveal_text(reveal, frame).plain


async def test_the_table_footer_fits_its_keys_in_80_columns_after_the_game_too():
    """At 80 columns the footer is never cut mid-word ("esc leave table  r r"), the results key last."""
    app = quick_app("turpin", players=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_results(pilot, app)
        await pilot.press("t")  # back at the finished table
        await until(lambda: screen_name(app) == "TableScreen", "the table", pilot=pilot)
        footer = plain_text(app).splitlines()[-1]
        for words in ("[ ] panes", "t chat", "? rules", "esc leave table", "r results"):
            assert words in footer, footer


async def test_the_players_pane_keeps_each_bots_level_at_120_columns():
    """At 120×40 the players pane does not cut the bot levels off their names ("Swift Nick ⚙ n…"): short
    of room, a level all the bots share is said once under the pane, and each name keeps its ⚙ whole."""
    from tui.widgets.players import PlayersPane
    app = quick_app("turpin", players=4)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices)
                    and "✓" in app.screen.query_one(PlayersPane).shown.plain, "the bots' cards laid", pilot=pilot)
        pane = app.screen.query_one(PlayersPane)
        rows = pane.shown.plain.splitlines()
        bots = [row for row in rows if "⚙" in row]
        names = [app.screen.frame.plain_name(seat) for seat in (1, 2, 3)]
        assert len(bots) == 3 and all(f"{name} ⚙ " in "\n".join(bots) for name in names), rows
        assert all("✓ laid" in row for row in bots), rows
        assert pane.border_subtitle == "⚙ normal bots" and "⚙ normal bots" in plain_text(app)


def test_the_pile_tops_line_never_wraps_a_seats_card_away_from_its_name():
    """At 80 columns "Swift Nick:" never ends one line with its "—" alone on the next."""
    from rich.console import Console

    from core.registry import get_game
    from tui.frame import TableFrame
    from tui.games.dick_turpin.board import Board
    game = get_game("turpin")
    state = game.setup(game.resolve_options({"players": 4}), 3)
    names = ["root", "Moll Cutpurse", "Claude Duval", "Swift Nick"]
    frame = TableFrame(game="turpin", title=game.title, seat=0, started=True, view=game.view(state, 0),
                       seats=[{"seat": s, "name": name, "kind": "person", "connected": True}
                              for s, name in enumerate(names)])
    board = Board()
    for width in range(30, 90):
        board._content_width = lambda: width
        lines = board._piles(frame)
        assert "".join(line.plain for line in lines).startswith("Pile tops: root: —")
        for line in lines:
            for wrapped in line.wrap(Console(width=width), width):
                assert wrapped.plain.strip() not in ("—", "-"), (width, [line.plain for line in lines])


def test_two_seats_of_one_name_are_told_apart_by_their_seats():
    """Two players called Ann at one table are told apart on the board and in the players pane as in the
    log ("Ann (seat 1)")."""
    from tui.frame import TableFrame
    seats = [{"seat": 0, "name": "Ann", "kind": "player", "connected": True},
             {"seat": 1, "name": "Ann", "kind": "player", "connected": True},
             {"seat": 2, "name": "Tom King (normal bot)", "kind": "bot", "connected": True}]
    frame = TableFrame(game="turpin", title="t", seat=0, started=True, seats=seats)
    assert [frame.plain_name(seat) for seat in range(3)] == ["Ann (seat 1)", "Ann (seat 2)", "Tom King"]
    # and where the full name shows (the results, "Waiting for …", the host's question about a seat)
    assert [frame.name(seat) for seat in range(3)] == ["Ann (seat 1)", "Ann (seat 2)", "Tom King (normal bot)"]


async def test_five_seats_two_still_choosing_keep_their_names_whole_at_120_columns():
    """With five seats, two still choosing, "Jerry Abershaw" keeps its ⚙ and its end; short of room
    the "✓ laid" and "… choosing" keep their marks only, after the bots' shared level went under the pane."""
    from tui.widgets.players import PlayersPane
    app = quick_app("turpin", players=5)
    app.start.plan.bot_delay = 3600  # the bots wait: some seats are still choosing
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices),
                    "the first move", pilot=pilot)
        names = [app.screen.frame.plain_name(seat) for seat in range(1, 5)]
        players = app.screen.query_one(PlayersPane)
        await until(lambda: all(f"{name} ⚙" in players.shown.plain for name in names),
                    "every bot's name whole, with its ⚙", pilot=pilot)


async def test_six_seats_of_highwayman_keep_their_names_whole_at_120_columns():
    """At six seats of Highwayman "Moll Cutpurse" and "Jack Sheppard" keep their ends and their ⚙: short
    of room the summary's "·" go before a name is cut."""
    from tui.widgets.players import PlayersPane
    app = quick_app("highwayman", players=6)
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and app.screen.frame.view is not None,
                    "the table", pilot=pilot)
        names = [app.screen.frame.plain_name(seat) for seat in range(1, 6)]
        players = app.screen.query_one(PlayersPane)
        await until(lambda: all(f"{name} ⚙" in players.shown.plain for name in names),
                    "every bot's name whole, with its ⚙", pilot=pilot)
        shown = players.shown.plain
        assert "6 cards" in shown and "series 0" in shown


def test_an_away_seat_with_a_bracketed_name_is_said_in_one_bracket():
    """"Waiting for Ann (seat 2, away).", not "Ann (seat 2) (away)"."""
    from tui.widgets.prompt import away_said
    assert away_said("Ann (seat 2)") == "Ann (seat 2, away)" and away_said("Bob") == "Bob (away)"


async def test_the_dick_turpin_road_keeps_one_line_at_80_columns_scrollbar_or_not():
    """At 80×24 a robbery and two lines of pile tops bring the board a scrollbar, which must not take the
    two columns the road needs ("EDINBURGH" on a line of its own): the scrollbar's column is kept."""
    from tui.games.dick_turpin.board import Board
    app = quick_app("turpin", players=4)
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices),
                    "the first move", pilot=pilot)
        board = app.screen.query_one(Board)
        await until(lambda: "LONDON" in board.shown.plain, "the road drawn", pilot=pilot)
        road = board.shown.plain.splitlines()[0]
        assert "LONDON" in road and "EDINBURGH" in road and len(road) <= board.scrollable_content_region.width
        # the scrollbar's column is there whether or not a robbery brings the scrollbar
        assert board.styles.scrollbar_gutter == "stable" and board.scrollable_content_region.width >= len(road)


async def test_the_log_does_not_repeat_a_seats_own_secret_choice_in_public_words():
    """Not "You will lie in wait at Warwick." then "Ann has chosen a town.", the same fact twice: the
    engine marks the public line ``told_privately``: that seat's log leaves it out, the others' keep it."""
    from core.registry import get_game
    game = get_game("turpin")
    state = game.setup(game.resolve_options({"players": 2}), 1)
    seat = game.pending(state)[0]
    events = game.apply(state, seat, game.legal_actions(state, seat)[0])
    mine = [e["text"] for e in events if e.get("visible_to") is None or seat in e["visible_to"]]
    assert any(text.startswith("You will lie in wait at") for text in mine)
    public = [e for e in events if e.get("told_privately") == seat]
    assert [e["visible_to"] for e in public] == [None]  # a line everyone else reads, spectators too
    app = quick_app("turpin", players=2)
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices),
                    "the first move", pilot=pilot)
        await pilot.press("1")
        from tui.widgets.log import TableLog
        log = app.screen.query_one(TableLog)
        await until(lambda: any(line.startswith("You will lie in wait at") for line in log.plain_lines),
                    "the secret line", pilot=pilot)
        assert not any("Ann has chosen a town" in line for line in log.plain_lines), log.plain_lines


@pytest.mark.slow
async def test_a_game_against_bots_left_unfinished_goes_on_from_the_menu_as_it_was(monkeypatch):
    """Nothing lost: a game against bots left before its end (Esc, or turpin closed, or the SSH session
    dropped) is offered on the menu the next time (c), and goes on from its record where it stopped: the
    same view of the table, the same move to make, and the record goes on growing. Once over, it is no
    longer offered."""
    from net.record import read_record
    from tui.widgets.prompt import MovePane
    # No move plays itself here (a one-choice move would, a beat after the view was taken on a slow machine)
    beat = MovePane.ONLY_MOVE_AFTER
    monkeypatch.setattr(MovePane, "ONLY_MOVE_AFTER", None)
    app = quick_app("highwayman", players=2, seed=5)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(3):
            await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices)
                        and not app.screen.frame.sent, "a prompt", pilot=pilot)
            prompt = app.screen.frame.prompt
            await pilot.press("1")
            await until(lambda: app.screen.frame.prompt is not prompt, "the move to go", pilot=pilot)
        await until(lambda: bool(app.screen.frame.choices) and not app.screen.frame.sent, "a prompt", pilot=pilot)
        left_at = app.screen.frame
        record_path = app.record_path
        await pilot.press("escape")
        await until(lambda: screen_name(app) == "ConfirmScreen", "the question", pilot=pilot)
        assert "c on the menu goes" in plain_text(app)
        await pilot.press("enter")
        await until(lambda: screen_name(app) == "MenuScreen" and app.hosted is None, "the menu", pilot=pilot)
        await until(lambda: "Go on with your game" in plain_text(app), "the offer", pilot=pilot)
        assert "c goes on with Highwayman" in plain_text(app)
    moves_left_at = len(read_record(record_path)["actions"])

    # An SSH guest's window runs on the host's machine, under the host's records: never offered there.
    guest = TurpinApp(Start(route="menu"), player_name="Bob", lan_interfaces=[], bell=False, guest=True)
    async with guest.run_test(size=(100, 30)) as pilot:
        await until(lambda: "Join a table" in plain_text(guest), "the menu", pilot=pilot)
        await guest.workers.wait_for_complete()  # the look for unfinished games is over
        await pilot.press("c")
        await pilot.pause()
        assert "Go on with your game" not in plain_text(guest) and screen_name(guest) == "MenuScreen"

    MovePane.ONLY_MOVE_AFTER = beat
    again = TurpinApp(Start(), player_name="Ann", lan_interfaces=[], bell=False)  # turpin started anew
    async with again.run_test(size=(100, 30)) as pilot:
        await until(lambda: "Go on with your game" in plain_text(again), "the offer", pilot=pilot)
        await pilot.press("c")
        await until(lambda: screen_name(again) == "TableScreen" and bool(again.screen.frame.choices),
                    "the table again", pilot=pilot)
        frame = again.screen.frame
        assert frame.seat == left_at.seat and frame.view == left_at.view
        assert [choice["action"] for choice in frame.choices] == [choice["action"] for choice in left_at.choices]
        assert again.record_path == record_path
        again.hosted.host.settings.bot_delay = 0
        await play_to_results(pilot, again)
        assert len(read_record(record_path)["actions"]) > moves_left_at
        await pilot.press("m")
        await until(lambda: screen_name(again) == "MenuScreen", "the menu", pilot=pilot)
        await until(lambda: "Go on with your game" not in plain_text(again), "the offer gone", pilot=pilot)


async def test_an_ssh_guest_goes_on_with_his_own_game_against_bots_after_his_session_drops(tmp_path, monkeypatch):
    """Through the SSH front door each user has a records folder of his own (TURPIN_RECORDS_DIR): a game
    against bots he left goes on in his next session, from his own record (the operator's stay unread)."""
    monkeypatch.setenv("TURPIN_RECORDS_DIR", str(tmp_path / "ssh-records" / "bob"))
    plan = plan_against_bots("turpin", players=2, seed=3)
    plan.bot_delay = 0
    first = TurpinApp(Start(route="play", plan=plan), player_name="Bob", lan_interfaces=[], bell=False, guest=True)
    async with first.run_test(size=(100, 30)) as pilot:
        await until(lambda: screen_name(first) == "TableScreen" and bool(first.screen.frame.choices)
                    and not first.screen.frame.sent, "a prompt", pilot=pilot)
        await pilot.press("1")
        await until(lambda: bool(first.screen.frame.choices) and not first.screen.frame.sent, "a prompt", pilot=pilot)
        left_at = first.screen.frame
        assert first.record_path.startswith(str(tmp_path / "ssh-records" / "bob"))
    # the session dropped: the app is gone without leaving the table
    again = TurpinApp(Start(route="menu"), player_name="Bob", lan_interfaces=[], bell=False, guest=True)
    async with again.run_test(size=(100, 30)) as pilot:
        await until(lambda: "Go on with your game" in plain_text(again), "the offer", pilot=pilot)
        await pilot.press("c")
        await until(lambda: screen_name(again) == "TableScreen" and bool(again.screen.frame.choices),
                    "the table again", pilot=pilot)
        assert again.screen.frame.view == left_at.view


async def test_a_terminal_below_80_by_24_is_told_once_why_lines_are_cut():
    """At 60×20 the panes squeeze and the footer is cut: the app says why, once."""
    app = TurpinApp(Start(route="menu"), player_name="Ann", lan_interfaces=[], bell=False)
    async with app.run_test(size=(60, 20), notifications=True) as pilot:
        await until(lambda: any(toast.title == "Small terminal" for toast in app._notifications),
                    "the notice", pilot=pilot)
        assert "made for 80×24 or more" in next(str(t.message) for t in app._notifications
                                                 if t.title == "Small terminal")
        await pilot.resize_terminal(100, 30)
        await pilot.resize_terminal(70, 24)
        await until(lambda: sum(t.title == "Small terminal" for t in app._notifications) == 2,
                    "the notice again, once", pilot=pilot)
        await pilot.resize_terminal(72, 24)
        await pilot.pause()
        assert sum(t.title == "Small terminal" for t in app._notifications) == 2


async def test_the_palettes_screenshot_is_saved_in_turpins_folder_and_says_where(tmp_path):
    """Not Textual's own, which goes to ~/Downloads, or toasts "Failed to save screenshot" with no reason.
    An SSH guest is not offered it (it would land on the operator's machine)."""
    from tui.saved.record_files import screenshots_folder
    app = TurpinApp(Start(route="menu"), player_name="Ann", lan_interfaces=[], bell=False)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await until(lambda: "Join a table" in plain_text(app), "the menu", pilot=pilot)
        assert any(command.title == "Screenshot" for command in app.get_system_commands(app.screen))
        await pilot.press("ctrl+p")
        await pilot.press(*"screenshot", "enter")
        await until(lambda: any(t.title == "Screenshot" for t in app._notifications), "the toast", pilot=pilot)
        said = next(str(t.message) for t in app._notifications if t.title == "Screenshot")
        saved = list(screenshots_folder().glob("*.svg"))
        assert len(saved) == 1 and said == f"Saved in {saved[0]}" and "<svg" in saved[0].read_text()[:500]
    guest = TurpinApp(Start(route="menu"), player_name="Bob", lan_interfaces=[], bell=False, guest=True)
    async with guest.run_test(size=(100, 30)) as pilot:
        await until(lambda: "Join a table" in plain_text(guest), "the menu", pilot=pilot)
        assert not any(command.title == "Screenshot" for command in guest.get_system_commands(guest.screen))


async def test_play_again_against_bots_deals_again_at_the_same_table_and_says_nothing_of_closing():
    """The new game against bots is dealt at the same private table (its running score goes on), and
    does not open under "The table is closed": no table closed."""
    app = quick_app("highwayman", players=2, series_games=1, routes=2, route_length=6)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await play_to_results(pilot, app)
        first_client = app.client
        await pilot.press("p")
        await until(lambda: screen_name(app) == "TableScreen" and app.client is first_client
                    and app.screen.frame.result is None and app.screen.frame.view is not None, "the new game",
                    pilot=pilot)
        # A "closed" notice would have come down the same connection before the new game's first view.
        await pilot.pause()
        assert not any("closed the table" in str(toast.message) for toast in app._notifications)


async def test_a_resize_across_the_fold_moves_the_same_panes_and_keeps_the_log_as_it_was():
    """Folding into tabs and back is a change of the screen's classes, not a rebuild: the very
    same pane widgets stay, the log keeps its lines and where it was scrolled to, and the tab strip shows
    only while folded."""
    from tui.widgets.log import TableLog
    from tui.widgets.prompt import MovePane
    app = quick_app("highwayman", players=2, series_games=1, routes=2, route_length=6)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and app.screen.frame.view is not None,
                    "the table", pilot=pilot)
        table = app.screen
        panes = [table.query_one(selector) for selector in ("#board", "#hand", "#sheet", "#players", "#log")]
        moves = table.query_one(MovePane)
        log = table.query_one(TableLog)
        for _ in range(30):  # some lines in the log to scroll
            if len(log.plain_lines) > 12:
                break
            if table.frame.choices and not table.frame.sent:
                await pilot.press("1")
            await pilot.pause(0.05)
        log.scroll_to(y=1, animate=False)
        lines, scrolled = list(log.plain_lines), log.scroll_y
        assert not table.query_one("#pane-tabs").display
        await pilot.resize_terminal(80, 24)
        await until(lambda: table.narrow, "the panes folded into tabs", pilot=pilot)
        await pilot.pause()
        assert table.query_one("#pane-tabs").display and "Board" in plain_text(app).splitlines()[1]
        assert [table.query_one(s) for s in ("#board", "#hand", "#sheet", "#players", "#log")] == panes
        assert table.query_one(MovePane) is moves
        await pilot.resize_terminal(120, 40)
        await until(lambda: not table.narrow, "the panes side by side again", pilot=pilot)
        await pilot.pause()
        assert [table.query_one(s) for s in ("#board", "#hand", "#sheet", "#players", "#log")] == panes
        assert log.plain_lines[:len(lines)] == lines and log.scroll_y == scrolled
        assert all(pane.region.width > 0 for pane in panes)


def _ann_whose_first_move_is_the_only_one() -> TurpinApp:
    """Highwayman against bots that never move, where Ann's first move is to keep a card that cannot go down."""
    plan = plan_against_bots("highwayman", seed=20261123)
    plan.bot_delay = 3600
    return TurpinApp(Start(route="play", plan=plan), player_name="Ann", lan_interfaces=[], bell=False)


async def test_a_move_with_one_possible_choice_plays_itself_after_a_beat_and_the_log_says_so(monkeypatch):
    """An unplayable drawn card offers one choice ("Keep") and waited for a key. It stays in
    view a moment, then plays itself; the log says it was played for you."""
    from tui.widgets.prompt import MovePane
    assert MovePane.ONLY_MOVE_AFTER and MovePane.ONLY_MOVE_AFTER >= 0.5  # a beat a person can see
    monkeypatch.setattr(MovePane, "ONLY_MOVE_AFTER", 3.0)  # (longer: a loaded machine sees the prompt first)
    app = _ann_whose_first_move_is_the_only_one()
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices),
                    "the first prompt", pilot=pilot)
        screen = app.screen
        only = screen.frame.choices
        assert len(only) == 1 and only[0]["action"]["do"] == "keep", only
        shown_at = screen.frame.prompt["id"]
        await until(lambda: screen.frame.prompt is None or screen.frame.prompt["id"] != shown_at,
                    "the move played", pilot=pilot)
        assert "Your only move, played for you: " in plain_text(app) or any(
            "Your only move, played for you" in line.plain for _, line in screen._log.own_lines)
        assert MovePane.ONLY_MOVE_AFTER and MovePane.ONLY_MOVE_AFTER >= 0.5  # a beat a person can see


async def test_the_only_move_waits_while_a_question_or_the_rules_stand_over_the_table(monkeypatch):
    """A one-choice move plays itself after a beat in view, never while the player is reading something
    else over the table (the rules, "leave the table?"): it waits for him to be back."""
    from tui.widgets.prompt import MovePane
    assert MovePane.ONLY_MOVE_AFTER and MovePane.ONLY_MOVE_AFTER >= 0.5  # a beat a person can see
    monkeypatch.setattr(MovePane, "ONLY_MOVE_AFTER", 3.0)  # (longer: a loaded machine sees the prompt first)
    app = _ann_whose_first_move_is_the_only_one()
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices),
                    "the first prompt", pilot=pilot)
        table = app.screen
        shown_at = table.frame.prompt["id"]
        await pilot.press("question_mark")
        await until(lambda: screen_name(app) != "TableScreen", "the rules over the table", pilot=pilot)
        await pilot.pause(3 * MovePane.ONLY_MOVE_AFTER)
        assert table.frame.prompt is not None and table.frame.prompt["id"] == shown_at and not table.frame.sent
        await pilot.press("escape")
        await until(lambda: table.frame.prompt is None or table.frame.prompt["id"] != shown_at,
                    "the move played once he is back", pilot=pilot)


async def test_the_table_screen_draws_the_snapshot_its_update_carries_not_the_clients_own():
    """A table update carries the table as it came; the screen draws that one. A client's snapshot changed
    after the update (by a later frame, say) is not what the screen shows."""
    from net.client import ClientUpdate
    app = quick_app("turpin", players=2)
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: at_table(app) and app.screen.frame.started, "the table", pilot=pilot)
        client = app.screen.client
        handed = replace(client.snapshot.as_of_now(), table="The Handed Table")
        client.snapshot.table = "The Client's Own"
        client._emit(ClientUpdate("table", "", {}, handed))
        await until(lambda: "The Handed Table" in region_text(app, "#table-status"), "the handed table",
                    pilot=pilot)
        assert "The Client's Own" not in plain_text(app)
