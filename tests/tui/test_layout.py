"""The table's arrangement follows the terminal's width and height: columns when wide and
short, stacked when tall, tabs only on a small terminal; at 100×30 and larger every pane is in view and the
sheet shows every seat's figures whole."""

from __future__ import annotations

import pytest

from core.registry import all_games
from tests.tui_helpers import flat, quick_app, screen_lines, screen_name, screen_text
from tests.waiting import until
from tui.app import Start, TurpinApp
from tui.hosting import plan_against_bots
from tui.table_layout import arrangement

BIG_ENOUGH = [(100, 30), (120, 36), (120, 40), (200, 30), (200, 50)]
PANES = ("#board", "#hand", "#sheet", "#players", "#log", "#move")


@pytest.mark.parametrize(("size", "shape"), [((80, 24), "tabs"), ((99, 40), "tabs"), ((200, 27), "tabs"),
                                             ((100, 30), "stacked"), ((120, 40), "stacked"),
                                             ((200, 30), "columns"), ((150, 32), "columns"),
                                             ((200, 50), "stacked")])
def test_the_arrangement_follows_width_and_height(size, shape):
    assert arrangement(*size) == shape


def pane_lines(app, selector: str) -> list[str]:
    """The lines of a pane as they show on the screen, inside its border."""
    region = app.screen.query_one(selector).region
    lines = screen_lines(app)[region.y + 1:region.bottom - 1]
    return [line[region.x + 1:region.right - 1] for line in lines]


async def play_a_while(pilot, app, moves: int) -> None:
    from tui.screens.table import TableScreen
    made = 0
    for _ in range(3000):
        screen = app.screen
        if made >= moves or screen_name(app) != "TableScreen":
            return
        if isinstance(screen, TableScreen) and screen.frame.choices and not screen.frame.sent:
            await pilot.press("1")
            made += 1
        await pilot.pause(0.05)


# 100×30, the smallest size that must show every pane, is in the quick tier; the larger ones are slow.
@pytest.mark.parametrize("size", [pytest.param(size, marks=[pytest.mark.slow] if size != BIG_ENOUGH[0] else [])
                                  for size in BIG_ENOUGH])
@pytest.mark.parametrize("game", sorted(all_games()))
async def test_every_pane_is_in_view_and_every_seats_figures_on_the_sheet_are_whole(game, size):
    app = quick_app(game, seed=11)
    async with app.run_test(size=size) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and app.screen.frame.view is not None,
                    "the screen to change", pilot=pilot)
        await play_a_while(pilot, app, 6)
        if screen_name(app) != "TableScreen":
            pytest.skip("the game ended in six moves")
        await pilot.pause()
        screen = app.screen
        assert not screen.narrow and screen.has_class(f"-{arrangement(*size)}")
        for selector in PANES:
            pane = screen.query_one(selector)
            assert pane.region.height >= 3 and pane.region.width >= 10, f"{selector} is out of view at {size}"
        sheet = screen.query_one("#sheet")
        # The move list's choices come first; a sheet that must cut then says so with its scroll bar
        assert sheet.max_scroll_y == 0 or sheet.scrollbars_enabled[0], f"the sheet scrolls silently at {size}"
        frame = screen.frame
        names = [frame.plain_name(seat).split(" (")[0] for seat in range(len(frame.seats))]
        shown = "\n".join(pane_lines(app, "#sheet"))
        assert "…" not in shown, shown
        for seat, name in enumerate(names):  # Your Money or Your Life heads your column "you"
            assert name in shown or (frame.is_me(seat) and " you " in shown), shown
        # The players pane may cut a long name, never a figure: every part of every seat's summary is whole.
        players_pane = screen.query_one("#players")
        players = "\n".join(pane_lines(app, "#players"))
        for seat in range(len(players_pane.frame.seats)):
            for part in screen.panes.seat_summary(players_pane.frame, seat).split(" · "):
                assert part in players, f"{part!r} of seat {seat + 1} is cut at {size}:\n{players}"
        # The recap under the board is in view and whole (it wraps; the log keeps the rest).
        board = screen.query_one("#board")
        recap = screen.panes.recap(board.frame)
        in_view = flat("\n".join(pane_lines(app, "#board")))
        if recap:
            first = " ".join(recap[0].plain.split())
            assert "…" not in first
            # Where every choice of a long prompt takes the rows (the pick's eight at 100×30), the
            # board may cut its recap (the log has it too), but says so with its scroll bar, never silently
            assert first in in_view or board.scrollbars_enabled[0], f"{first}\nnot in\n{in_view}"
        # The move list's lines (a robbery's advice among them) wrap rather than lose their end.
        assert "…" not in "\n".join(pane_lines(app, "#move")), pane_lines(app, "#move")


@pytest.mark.parametrize("size", [(100, 30), (120, 36), (200, 30)], ids=["100x30", "120x36", "200x30"])
async def test_every_choice_of_the_pick_is_in_view_on_an_ordinary_terminal(size):
    """Your Money or Your Life's pick (Y4) has eight choices; the last ones (the market, retiring,
    the scoundrel's declaration) were below the fold while the board had blank rows."""
    plan = plan_against_bots("money-or-life", seed=20261123)
    plan.bot_delay = 3600
    app = TurpinApp(Start(route="play", plan=plan), player_name="Ann", lan_interfaces=[], bell=False)
    async with app.run_test(size=size) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and len(app.screen.frame.choices) == 8,
                    "the pick", pilot=pilot)
        await pilot.pause()
        shown = screen_text(app)
        for number, choice in enumerate(app.screen.frame.choices, start=1):
            assert f"[{number}] {choice['text'][:30]}" in shown, choice["text"]


def cards_out_of_view(pane) -> list[str]:
    """The parts of ``pane`` (cards, towns, dice: whatever can be clicked) with a line out of its view."""
    top, rows = pane.scroll_offset.y, pane.content_size.height
    hidden = []
    for y, strip in enumerate(pane._strips_at(pane._content_width())):
        for segment in strip:
            target = segment.style.meta.get("target") if segment.style is not None else None
            if target and not top <= y < top + rows and target not in hidden:
                hidden.append(target)
    return hidden


def seat_counts(game_id: str) -> list[int]:
    low, high = all_games()[game_id].option("players").allowed
    return sorted({max(low, 2), high})


@pytest.mark.slow
@pytest.mark.parametrize("size", [(100, 30), (120, 36), (200, 30)], ids=["100x30", "120x36", "200x30"])
@pytest.mark.parametrize(("game", "players"), [(game, players) for game in sorted(all_games())
                                               for players in seat_counts(game)])
async def test_no_choice_and_no_card_of_yours_is_hidden(game, players, size):
    """At 100×30 and up, at every move of yours, the move list shows every choice (of up to eleven: past
    that it says there are more) and your hand every card, die or spur: the hand never scrolls. (The
    board, the sheet, the players and the log may, with a bar.)"""
    from tui.screens.table import TableScreen
    from tui.widgets.choices import ChoiceList
    app = quick_app(game, players=players, seed=3)
    async with app.run_test(size=size) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and app.screen.frame.view is not None, "the table",
                    pilot=pilot)
        table = app.screen
        assert isinstance(table, TableScreen)
        looked = 0
        while looked < 12 and screen_name(app) == "TableScreen":
            await until(lambda: screen_name(app) != "TableScreen" or (table.frame.choices and not table.frame.sent),
                        "a move of ours", pilot=pilot)
            if screen_name(app) != "TableScreen":
                break
            await pilot.pause()
            choices = table.query_one("#move-choices", ChoiceList)
            hand = table.query_one("#hand")
            where = f"{game}, {players} players, {size[0]}×{size[1]}, move {looked + 1}"
            if len(table.frame.choices) <= 11:  # longer lists (a robbery's 32 ways to share) scroll, marked ▼
                assert choices.max_scroll_y == 0, f"a choice is out of view ({where}):\n{screen_text(app)}"
            else:
                assert "▼" in "".join(pane_lines(app, "#move")), f"no mark of more below ({where})"
            hidden = cards_out_of_view(hand)
            assert not hidden, f"{hidden} of the hand out of view ({where}):\n{screen_text(app)}"
            looked += 1
            await pilot.press("1")
