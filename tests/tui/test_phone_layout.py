"""A phone held upright (40 to 60 columns): the table's phone layout puts the hand over the moves, each
in the rows it needs, every choice a row of its own; the board compact above them."""

from __future__ import annotations

import re

import pytest

from core.registry import all_games
from tests.tui_helpers import flat, quick_app, region_text, screen_name
from tests.waiting import until
from tui.app import Start, TurpinApp
from tui.glyphs import UNICODE
from tui.hosting import plan_against_bots

PHONES = [(40, 40), (60, 30)]


def hand_in_words(game: str, view: dict) -> list[str]:
    """How each card (or die) of the seat's hand reads on its pane."""
    if game == "turpin":
        return list(view["hand"])
    if game == "highwayman":
        from tui.games.highwayman.hooks import card_name
        return [card_name(card) for card in view["hand"]]
    return [f"{die}" for die in view["my_dice"]]


@pytest.mark.parametrize("size", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
@pytest.mark.parametrize("game", sorted(all_games()))
async def test_every_choice_and_every_card_of_the_hand_is_in_view_on_a_phone(game, size):
    app = quick_app(game)
    async with app.run_test(size=size) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices)
                    and "[1]" in region_text(app, "#move"), "the first move", pilot=pilot)
        screen = app.screen
        assert screen.has_class("-phone") and screen.query_one("#hand").display
        moves = region_text(app, "#move")
        for number in range(1, len(screen.frame.choices) + 1):
            assert f"[{number}]" in moves, f"choice {number} is off the move pane:\n{moves}"
        assert "▼" not in moves, f"the list is cut, its last lines below:\n{moves}"
        hand = flat(region_text(app, "#hand"))
        for card in hand_in_words(game, screen.frame.view):
            assert card in hand, f"{card} is not in view:\n{region_text(app, '#hand')}"
        if game == "money-or-life":
            assert re.search(r"Your dice: .*" + r".*".join(hand_in_words(game, screen.frame.view)), hand)


async def test_a_tap_on_a_choice_row_makes_that_move():
    """A click (a tap, in a browser) anywhere on a choice's row picks that choice, not its neighbour."""
    app = quick_app("turpin")
    async with app.run_test(size=(40, 40)) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices)
                    and "[3]" in region_text(app, "#move"), "the first move", pilot=pilot)
        row = next(y for y, line in enumerate(region_text(app, "#move-choices").split("\n")) if "[3]" in line)
        third = app.screen.frame.choices[2]["action"]
        table = app.hosted.table
        await pilot.click("#move-choices", offset=(30, row))  # at the row's far end, past its words
        await until(lambda: any(seat == 0 for seat, _ in table.actions), "Ann's move at the table", pilot=pilot)
        assert next(action for seat, action in table.actions if seat == 0) == third


def test_the_phone_layout_of_the_table(snap_compare, monkeypatch):
    from tui.widgets.prompt import MovePane
    monkeypatch.setattr(MovePane, "ONLY_MOVE_AFTER", None)  # a picture taken as the beat ended would differ
    plan = plan_against_bots("turpin", seed=20261123)
    plan.bot_delay = 3600

    async def at_table(pilot) -> None:
        await until(lambda: screen_name(pilot.app) == "TableScreen"
                    and pilot.app.screen.frame.view is not None, "the table", pilot=pilot)
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        pilot.app.clear_notifications()
        await pilot.pause()
    app = TurpinApp(Start(route="play", plan=plan), player_name="Ann", glyphs=UNICODE, lan_interfaces=[], bell=False)
    assert snap_compare(app, terminal_size=(40, 40), run_before=at_table)


@pytest.mark.parametrize("size", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
async def test_the_menu_fits_a_phone(size):
    """Every entry of the menu whole, with its key, and no notice that the terminal is small."""
    from tests.tui_helpers import menu_app, painted_lines
    app = menu_app()
    async with app.run_test(size=size, notifications=True) as pilot:
        await until(lambda: screen_name(app) == "MenuScreen" and "Quit" in "\n".join(painted_lines(app)),
                    "the menu", pilot=pilot)
        shown = "\n".join(painted_lines(app))
        for entry, key in [("Play against bots", "enter"), ("Set up a game against bots", "g"),
                           ("Join a table", "j"), ("Spectate", "s"), ("Rules", "?"), ("Quit", "q")]:
            assert re.search(rf"{re.escape(entry)}\s+{re.escape(key)}\s*│", shown), f"{entry} is cut:\n{shown}"
        assert not any(toast.title == "Small terminal" for toast in app._notifications)
