"""The review in the app: a replay reviewed in a worker with a progress bar, its marked moves
stepped through by keys shown in the footer, and a finished game seen from every seat's point of view."""

from __future__ import annotations

from core.review import Effort, review_record
from tests.tui_helpers import menu_app, record_a_game, region_text, screen_name, screen_text
from tests.waiting import until
from tui.replay import Replay
from tui.screens.replay import ReplayScreen

SMALL = Effort(samples=4, candidates=4, confidence=1.0)


def footer_text(app) -> str:
    return region_text(app, "Footer")


async def test_a_replay_is_reviewed_off_the_interface_thread_and_steps_from_mark_to_mark(tmp_path):
    path = tmp_path / "game.turpin-record"
    table = record_a_game(path, seed=5)
    expected = review_record(table.game, Replay(path).record, SMALL)
    marks = expected.marked_steps()
    assert len(marks) >= 2, "random play leaves moves to mark"
    app = menu_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
        app.push_screen(ReplayScreen(Replay(path, app.glyphs), effort=SMALL))
        await until(lambda: screen_name(app) == "ReplayScreen" and "Move 0 of" in screen_text(app),
                    "the replay", pilot=pilot)
        screen = app.screen
        await until(lambda: "review" in footer_text(app), "the footer", pilot=pilot)
        assert "next mark" not in footer_text(app)
        await pilot.press("v")
        await until(lambda: screen.review is not None, "the review", pilot=pilot)
        assert screen.review.marked_steps() == marks
        assert "marked moves (n/b): " + ", ".join(str(index + 1) for index in marks) in screen_text(app)
        assert "next mark" in footer_text(app) and "last mark" in footer_text(app)
        await pilot.press("n")
        await until(lambda: screen.step == marks[0], "the first marked move", pilot=pilot)
        first = next(d for d in screen.marked() if d.index == marks[0])
        await until(lambda: f"Move {marks[0] + 1}, " in screen_text(app), "the mark in words", pilot=pilot)
        assert table.seats[first.seat].name in screen_text(app) and first.best_text in screen_text(app)
        await pilot.press("n")
        await until(lambda: screen.step == marks[1], "the second marked move", pilot=pilot)
        await pilot.press("b")
        await until(lambda: screen.step == marks[0], "back to the first", pilot=pilot)
        await pilot.press("right")
        await until(lambda: f"Move {marks[0] + 1}, " not in screen_text(app), "no mark off it", pilot=pilot)


async def test_a_finished_games_replay_is_seen_from_each_seat_then_the_spectator(tmp_path):
    path = tmp_path / "game.turpin-record"
    table = record_a_game(path, seed=5)
    app = menu_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
        app.push_screen(ReplayScreen(Replay(path, app.glyphs)))
        await until(lambda: screen_name(app) == "ReplayScreen" and "Move 0 of" in screen_text(app),
                    "the replay", pilot=pilot)
        screen = app.screen
        await until(lambda: "seen by" in footer_text(app), "the point of view's key in the footer", pilot=pilot)
        assert "seen by" not in screen_text(app).splitlines()[0]  # the spectator's view, as every replay's
        await pilot.press("right", "right")
        spectator_log = list(screen.replay.frame(2).log)
        for seat in range(3):
            await pilot.press("o")
            await until(lambda: f"seen by {table.seats[seat].name}" in screen_text(app), "a seat's view", pilot=pilot)
        seat_log = screen.replay.frame(2, 0).log
        assert seat_log != spectator_log  # a seat is told its own hand, which a spectator never is
        await pilot.press("o")
        await until(lambda: "seen by" not in screen_text(app).splitlines()[0], "the spectator again", pilot=pilot)


async def test_an_unfinished_games_replay_shows_only_the_spectators_view(tmp_path):
    path = tmp_path / "game.turpin-record"
    record_a_game(path, seed=5, moves=6)
    app = menu_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
        app.push_screen(ReplayScreen(Replay(path, app.glyphs)))
        await until(lambda: screen_name(app) == "ReplayScreen" and "Move 0 of" in screen_text(app),
                    "the replay", pilot=pilot)
        await until(lambda: "review" in footer_text(app), "the footer", pilot=pilot)
        assert "seen by" not in footer_text(app)
        await pilot.press("o")
        await pilot.pause()
        assert "seen by" not in screen_text(app) and app.screen.point_of_view is None


async def test_the_results_review_key_reviews_the_replay_they_came_from(tmp_path):
    path = tmp_path / "game.turpin-record"
    record_a_game(path, seed=5)
    app = menu_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
        app.push_screen(ReplayScreen(Replay(path, app.glyphs), effort=SMALL))
        await until(lambda: screen_name(app) == "ReplayScreen" and "Move 0 of" in screen_text(app),
                    "the replay", pilot=pilot)
        replay_screen = app.screen
        await pilot.press("end", "r")
        await until(lambda: screen_name(app) == "ResultsScreen" and "Review" in screen_text(app),
                    "the results, with a Review button", pilot=pilot)
        await pilot.press("v")
        await until(lambda: app.screen is replay_screen and replay_screen.review is not None,
                    "the replay, reviewed", pilot=pilot)
        assert "marked moves (n/b): " in screen_text(app)


async def test_after_a_game_review_opens_its_replay_and_reviews_it(tmp_path, monkeypatch):
    """The results of a game just played: Review opens the game's replay, its review under way."""
    import tui.screens.replay
    monkeypatch.setattr(tui.screens.replay, "REVIEW_EFFORT", SMALL)
    path = tmp_path / "game.turpin-record"
    record_a_game(path, seed=5)
    app = menu_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
        replay = Replay(path, app.glyphs)
        from tui.screens.results import ResultsScreen
        app.push_screen(ResultsScreen(replay.frame(replay.steps), record_path=str(path)))
        await until(lambda: screen_name(app) == "ResultsScreen" and "Review" in screen_text(app),
                    "the results, with a Review button", pilot=pilot)
        await pilot.press("v")
        await until(lambda: screen_name(app) == "ReplayScreen" and app.screen.review is not None,
                    "the replay, reviewed", pilot=pilot)
        assert "marked moves (n/b): " in screen_text(app)
