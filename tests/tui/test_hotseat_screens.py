"""The hot seat's screens: the curtain's picture, the set-up that names the people at the keyboard, and a
take-back asked between people at one keyboard (answered on the public table, behind the curtain)."""

from __future__ import annotations

import pytest

from tests.tui_helpers import screen_name, screen_text
from tests.waiting import until
from tui.app import Start, TurpinApp
from tui.glyphs import UNICODE
from tui.hosting import TablePlan
from tui.hotseat.turns import next_at_the_keyboard
from tui.widgets.prompt import MovePane


@pytest.fixture(autouse=True)
def every_move_by_a_key(monkeypatch):
    monkeypatch.setattr(MovePane, "ONLY_MOVE_AFTER", None)


def curtain_up_for(app: TurpinApp, name: str) -> bool:
    return screen_name(app) == "CurtainScreen" and f"Pass to {name}" in screen_text(app)


def test_the_keyboard_stays_with_a_person_between_two_of_her_moves_and_goes_round_the_table():
    assert next_at_the_keyboard([1], 1) == 1
    assert next_at_the_keyboard([0, 1, 2], 1) == 1
    assert next_at_the_keyboard([0, 2], 1) == 2  # the next one after her, round the table
    assert next_at_the_keyboard([0], 2) == 0
    assert next_at_the_keyboard([], 1) is None  # the bots are moving: what shows stays
    assert next_at_the_keyboard([2, 0], None) == 0


def test_the_curtain(snap_compare):
    """Dick Turpin's first towns, Ann and Bob at one keyboard: the curtain asks for Ann over the public table
    (the board, the players, the log; no hand)."""
    plan = TablePlan(game="turpin", options={"players": 3}, bots={2: "normal"}, seed=20261123,
                     people=["Ann", "Bob"], bot_delay=3600)
    app = TurpinApp(Start(route="play", plan=plan), glyphs=UNICODE, lan_interfaces=[], bell=False)

    async def at_the_curtain(pilot) -> None:
        await until(lambda: curtain_up_for(pilot.app, "Ann"), "the curtain", pilot=pilot)
        await until(lambda: "LONDON ─ Oxford" in screen_text(pilot.app) and " Hand " not in screen_text(pilot.app),
                    "the public table drawn behind it", pilot=pilot)
        # The curtain's button takes the focus once the screen is up; its picture is the focused one
        await until(lambda: getattr(pilot.app.focused, "id", None) == "curtain-lift", "the button focused",
                    pilot=pilot)
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        pilot.app.clear_notifications()
        await pilot.pause()
    assert snap_compare(app, terminal_size=(80, 24), run_before=at_the_curtain)


async def test_the_set_up_seats_the_people_named_and_the_first_is_asked_for_behind_the_curtain():
    app = TurpinApp(Start(route="menu"), lan_interfaces=[], bell=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
        await pilot.press("g")
        await until(lambda: screen_name(app) == "SetupScreen" and bool(app.screen.query("#option-players")),
                    "the set-up", pilot=pilot)
        app.screen.query_one("#setup-people").focus()
        await pilot.press(*"Ann, Bob, Cat, Dan, Eve")
        await pilot.press("ctrl+s")
        await until(lambda: "5 people need 5 seats" in screen_text(app), "more people than seats said", pilot=pilot)
        for _ in range(len(", Dan, Eve")):
            await pilot.press("backspace")
        await until(lambda: "Seat 3          Cat" in screen_text(app), "Cat in the third seat", pilot=pilot)
        text = screen_text(app)
        assert "Seat 1          Ann" in text and "Seat 2          Bob" in text and "bot:" in text
        await pilot.press("ctrl+s")
        await until(lambda: curtain_up_for(app, "Ann"), "the curtain for Ann", pilot=pilot)
        assert app.hot_seat is not None and [client.name for client in app.hot_seat.people] == ["Ann", "Bob", "Cat"]


async def test_a_take_back_at_one_keyboard_is_asked_of_the_others_behind_the_curtain():
    """Highwayman, Ann, a bot that waits, then Bob and Cat: Ann keeps the card she drew and asks to take it
    back. Bob and then Cat are asked on the public table (her hand gone from the screen), allow it, and the
    curtain asks for Ann to move again."""
    plan = TablePlan(game="highwayman", options={"players": 4, "series_games": 1, "route_length": 6},
                     bots={1: "normal"}, seed=3, people=["Ann", "Bob", "Cat"], bot_delay=3600)
    app = TurpinApp(Start(route="play", plan=plan), lan_interfaces=[], bell=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: curtain_up_for(app, "Ann"), "the curtain for Ann", pilot=pilot)
        await pilot.press("enter")
        await until(lambda: screen_name(app) == "PersonTableScreen" and bool(app.screen.frame.choices),
                    "Ann's move", pilot=pilot)
        assert "you: Ann" in screen_text(app) and "Keep" in screen_text(app)
        before = app.hosted.table.turn
        await pilot.press("1")
        await until(lambda: app.screen.frame.may_take_back, "the move made, and hers to take back", pilot=pilot)
        await pilot.press("U")
        for other in ("Bob", "Cat"):
            await until(lambda: screen_name(app) == "ConfirmScreen"
                        and f"{other}: Ann asks to take back" in screen_text(app), f"{other} asked", pilot=pilot)
            text = screen_text(app)
            assert "Your hand" not in text and "you: Ann" not in text
            await pilot.press("y")
        await until(lambda: curtain_up_for(app, "Ann"), "the curtain for Ann again", pilot=pilot)
        assert app.hosted.table.turn == before  # her move is undone


async def test_esc_at_the_curtain_asks_first_and_leaving_lets_every_person_go():
    plan = TablePlan(game="turpin", options={"players": 3}, bots={2: "normal"}, seed=2, people=["Ann", "Bob"],
                     bot_delay=3600)
    app = TurpinApp(Start(route="play", plan=plan), lan_interfaces=[], bell=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: curtain_up_for(app, "Ann"), "the curtain for Ann", pilot=pilot)
        people = list(app.hot_seat.people)
        await pilot.press("enter")
        await until(lambda: screen_name(app) == "PersonTableScreen" and bool(app.screen.frame.choices),
                    "Ann's move", pilot=pilot)
        await pilot.press("1")
        await until(lambda: curtain_up_for(app, "Bob"), "the curtain for Bob", pilot=pilot)
        await pilot.press("escape")
        await until(lambda: screen_name(app) == "ConfirmScreen" and "Leave the table?" in screen_text(app),
                    "the question", pilot=pilot)
        assert "cannot be gone on with later" in screen_text(app)
        await pilot.press("n")
        await until(lambda: curtain_up_for(app, "Bob"), "the curtain again", pilot=pilot)
        await pilot.press("escape")
        await until(lambda: screen_name(app) == "ConfirmScreen", "the question", pilot=pilot)
        await pilot.press("y")
        await until(lambda: screen_name(app) == "MenuScreen" and app.hot_seat is None, "the menu", pilot=pilot)
        await until(lambda: not any(person.connected for person in people), "every person let go", pilot=pilot)
