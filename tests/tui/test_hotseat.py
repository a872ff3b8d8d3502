"""Hot seat (issue 46): a game of each title played to the end by several people at one keyboard, by keys,
as they would: Enter at the curtain when it names you, a number key at your own table.

At every rest (the host awaits a person, every client has caught up, the screen is drawn from it) the test
reads the whole screen and looks for the secrets of everyone but the person it last passed the keyboard to,
taken from the host's own state (``Table.state``), never from the app's idea of who sits where. Behind the
curtain nobody's secret may show.
"""

from __future__ import annotations

import random
import re

import pytest

from core.games.money_or_life import rules as money_or_life
from tests.tui_helpers import region_text, screen_lines, screen_name
from tests.waiting import until
from tui.app import Start, TurpinApp
from tui.hosting import TablePlan
from tui.widgets.prompt import MovePane

#: The dice faces as the screen draws a die ("⚂3"), a face and its number.
FACES = "⚀⚁⚂⚃⚄⚅"


@pytest.fixture(autouse=True)
def every_move_by_a_key(monkeypatch):
    """A one-choice move would play itself after a beat: here every move is a person's key."""
    monkeypatch.setattr(MovePane, "ONLY_MOVE_AFTER", None)


def hot_seat_app(game: str, people: list[str], bots: dict[int, str], seed: int, **options: int) -> TurpinApp:
    plan = TablePlan(game=game, options={"players": len(people) + len(bots), **options}, bots=bots, seed=seed,
                     people=people, bot_delay=0)
    return TurpinApp(Start(route="play", plan=plan), lan_interfaces=[], bell=False)


def highwayman_card(card: str) -> str:
    route, _, number = card.partition(":")
    return f"{route.title()} {'LONDON' if number == 'L' else number}"


def secrets(game: str, state: dict, seat: int) -> set[str]:
    """What only ``seat`` may see now, as words the screen would draw them in, from the host's state."""
    if game == "turpin":
        words = {f"] lie in wait at {town}" for town in state["hands"][seat]}  # a choice of the move pane
        if state["waiting"][seat] is not None:
            words.add(f"Face down: {state['waiting'][seat]}")
        return words
    if game == "money-or-life":
        if state["revealed"] or state["phase"] != "pick":
            return set()
        words = set()
        if state["dice"][seat]:
            words.add(" ".join(f"{FACES[die - 1]}{die}" for die in state["dice"][seat]))
        if state["picks"][seat] in money_or_life.DIRECTIONS:
            words.add(f"Your pick: rob the coach to the {money_or_life.DIRECTION_NAMES[state['picks'][seat]]}")
        return words
    if game == "highwayman":  # a numbered card is one of a kind; Highwayman and Runner cards are many
        return {highwayman_card(card) for card in state["hands"][seat] if ":" in card}
    raise AssertionError(game)


def drawn(text: str, words: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(words)}(?![\w])", text) is not None


def at_rest(app: TurpinApp) -> bool:
    """The host awaits a person, every client has heard the latest move, and the screen shows it."""
    from tui.hotseat.curtain import CurtainScreen
    from tui.hotseat.person_table import PersonTableScreen
    from tui.screens.interlude import InterludeScreen
    from tui.screens.results import ResultsScreen
    if app.hosted is None or app.hot_seat is None:
        return False
    table = app.hosted.table
    if any(client.snapshot.turn != table.turn for client in [*app.hot_seat.people, app.hot_seat.public]):
        return False
    screen = app.screen
    if isinstance(screen, (CurtainScreen, InterludeScreen, ResultsScreen)):
        return True
    return isinstance(screen, PersonTableScreen) and screen.frame.turn == table.turn and bool(screen.frame.choices)


def look_for_secrets(app: TurpinApp, game: str, people: list[str], at_the_keys: str | None) -> str:
    """The screen's text, once no secret of anyone but ``at_the_keys`` is found in it."""
    text = "\n".join(screen_lines(app))
    table = app.hosted.table
    if screen_name(app) in ("ResultsScreen", "InterludeScreen"):
        return text  # the end of a game: everything that was hidden is everyone's (A2)
    if game == "highwayman":  # the log tells of cards revealed at the end of a game of the series
        from tui.screens.table import TableScreen
        table_screen = next(screen for screen in reversed(app.screen_stack) if isinstance(screen, TableScreen))
        log = table_screen.query_one("#log").region
        rows = text.split("\n")
        text = "\n".join(row[:log.x] + row[log.x + log.width:] if log.y <= y < log.y + log.height else row
                         for y, row in enumerate(rows))
    seat_of = {info.name: seat for seat, info in enumerate(table.seats)}  # the host's; new seats move people
    own = secrets(game, table.state, seat_of[at_the_keys]) if at_the_keys is not None else set()
    for name in people:
        seat = seat_of[name]
        if name == at_the_keys:
            continue
        for words in secrets(game, table.state, seat) - own:
            assert not drawn(text, words), (f"{name}'s secret {words!r} is on the screen while "
                                            f"{at_the_keys or 'nobody'} is at the keys:\n{text}")
    if at_the_keys is None:
        assert "Your hand" not in text and "you:" not in text, text
    else:
        assert f"you: {at_the_keys}" in text, text
        if game == "turpin":  # the cards in the hand are the hand of the one at the keys
            cards = set(re.findall(r"│\s*(\w+)\s*│", region_text(app, "#hand")))
            assert cards <= set(table.state["hands"][seat_of[at_the_keys]]), (cards, text)
    return text


async def play_hot_seat(app: TurpinApp, game: str, people: list[str], seed: int) -> tuple[list[str], str]:
    """The game played to its results by keys; returns the names the curtain asked for, in turn, and the
    results' text."""
    async with app.run_test(size=(120, 40)) as pilot:
        return await play_to_the_results(pilot, game, people, random.Random(seed))


async def play_to_the_results(pilot, game: str, people: list[str], rng: random.Random) -> tuple[list[str], str]:
    """Every person at the keys when the curtain names them, a move of theirs by a number key, until the
    results; the curtain never comes between two moves of one person."""
    from tui.screens.interlude import TYPED_BEFORE
    app = pilot.app
    passed_to: list[str] = []
    at_the_keys: str | None = None
    await until(lambda: screen_name(app) == "CurtainScreen", "the first curtain", pilot=pilot)
    for _ in range(5000):
        await until(lambda: at_rest(app), "the table at rest", pilot=pilot)
        name = screen_name(app)
        if name == "CurtainScreen":
            at_the_keys = None  # whoever moved last may still look until the next one comes
            await until(lambda: "Pass to" in "\n".join(screen_lines(app)), "the curtain drawn", pilot=pilot)
            text = look_for_secrets(app, game, people, None)
            called = re.search(r"Pass to (\w+)", text)
            assert called, text
            passed_to.append(called.group(1))
            await pilot.press("enter")
            at_the_keys = called.group(1)
            await until(lambda: screen_name(app) != "CurtainScreen", "the curtain lifted", pilot=pilot)
        elif name == "InterludeScreen":
            look_for_secrets(app, game, people, at_the_keys)
            await pilot.pause(TYPED_BEFORE)
            await pilot.press("enter")
            await until(lambda: screen_name(app) != "InterludeScreen", "the pause over", pilot=pilot)
        elif name == "ResultsScreen":
            assert all(one != next_one for one, next_one in zip(passed_to, passed_to[1:])), passed_to
            await until(lambda: "Game over" in "\n".join(screen_lines(app)), "the results drawn", pilot=pilot)
            return passed_to, "\n".join(screen_lines(app))
        else:
            look_for_secrets(app, game, people, at_the_keys)
            turn = app.hosted.table.turn
            await pilot.press(str(rng.randint(1, min(9, len(app.screen.frame.choices)))))
            await until(lambda: app.hosted.table.turn != turn or screen_name(app) == "ConfirmScreen",
                        "the move made", pilot=pilot)
            if screen_name(app) == "ConfirmScreen":  # a move that cannot be undone asks first: yes
                look_for_secrets(app, game, people, at_the_keys)
                await pilot.press("y")
                await until(lambda: app.hosted.table.turn != turn, "the move made", pilot=pilot)
    raise AssertionError("the game did not reach its results")


def results_name_everyone(text: str, people: list[str]) -> None:
    for name in people:
        line = rf"^\s*\S?\s*{name}( \([^)]*\))?\s+-?\d"  # "★ Ann  31", "Ann (died)  6"
        assert re.search(line, text, re.M), f"{name}'s line is not in the results:\n{text}"
    assert "(you)" not in text


async def test_three_people_play_dick_turpin_at_one_keyboard_and_nobody_sees_anothers_hand():
    people = ["Ann", "Bob", "Cat"]
    app = hot_seat_app("turpin", people, {3: "normal"}, seed=5)
    passed_to, results = await play_hot_seat(app, "turpin", people, seed=5)
    assert set(passed_to) == set(people)
    # Dick Turpin's towns are laid by all at once: taken one person at a time, each behind the curtain
    assert passed_to[:3] == people
    results_name_everyone(results, people)


async def test_two_people_play_your_money_or_your_life_at_one_keyboard():
    people = ["Ann", "Bob"]
    app = hot_seat_app("money-or-life", people, {}, seed=3)
    passed_to, results = await play_hot_seat(app, "money-or-life", people, seed=3)
    assert passed_to[:2] == people  # the secret picks, one person at a time
    results_name_everyone(results, people)


async def test_two_people_and_a_bot_play_highwayman_at_one_keyboard():
    people = ["Ann", "Bob"]
    # Two short games of a series (the pause between them is everyone's): a test CI can afford
    app = hot_seat_app("highwayman", people, {2: "normal"}, seed=4, series_games=2, route_length=6)
    passed_to, results = await play_hot_seat(app, "highwayman", people, seed=4)
    assert set(passed_to) == set(people)
    results_name_everyone(results, people)


async def test_at_one_keyboard_play_again_in_new_seats_keeps_the_record_and_the_running_score():
    """Two short games of Your Money or Your Life, the second in new seats: each game's record is kept, the
    curtain follows the people to their new seats, and the running score names both."""
    people = ["Ann", "Bob"]
    app = hot_seat_app("money-or-life", people, {}, seed=8, rounds=2)
    rng = random.Random(8)
    async with app.run_test(size=(120, 40)) as pilot:
        _, first = await play_to_the_results(pilot, "money-or-life", people, rng)
        first_record = app.record_path
        assert first_record and "The game record is in" in first
        await pilot.press("s")
        await until(lambda: screen_name(app) == "CurtainScreen", "the new game's curtain", pilot=pilot)
        _, second = await play_to_the_results(pilot, "money-or-life", people, rng)
        assert app.record_path != first_record
        assert "At this table, 2 games" in second
        results_name_everyone(second, people)
