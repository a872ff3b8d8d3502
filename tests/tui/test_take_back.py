"""At the table screen: the take-back question as people see it. The asker reads "waiting for an
answer" with the time left; the question closes on every screen once decided, with a one-line toast; a
refused U says why; this window's own lines keep their place when a take-back rewrites the log; and the
consent question has the board's guard against keys typed ahead.

T5 (Dick Turpin: a town chosen while others choose) is the move taken back, by consent (docs/rules.md,
"Taking back": the sheet is silent)."""

from __future__ import annotations

from core.registry import get_game
from net.table.table import Table
from tests.net_helpers import WAIT, client, hosting
from tests.tui_helpers import screen_name, screen_text
from tests.waiting import until
from tui.app import Start, TurpinApp
from tui.screens.confirm import ConfirmScreen


def _app(host) -> TurpinApp:
    return TurpinApp(Start(route="join", address=f"127.0.0.1:{host.address[1]}"), player_name="Ann",
                     lan_interfaces=[], bell=False)


def _log_lines(app: TurpinApp) -> list[str]:
    return app.screen._log.plain_lines


async def test_the_asker_waits_with_the_time_shown_and_the_log_keeps_his_line_in_its_place(tmp_path, monkeypatch):
    monkeypatch.setenv("TURPIN_RECORDS_DIR", str(tmp_path / "records"))
    table = Table(get_game("turpin"), {"players": 3}, seed=11)
    async with hosting(table) as host:
        app = _app(host)
        bob, cat = client(host, name="Bob"), client(host, name="Cat")
        async with app.run_test(size=(120, 40), notifications=True) as pilot:
            await until(lambda: screen_name(app) == "TableScreen" and app.screen.frame.view is not None,
                        "the table", pilot=pilot)
            for someone in (bob, cat):
                await someone.start()
            await until(lambda: bool(app.screen.frame.choices), "Ann's choices", pilot=pilot)
            await pilot.press("U")  # nothing of hers to take back yet: the toast says why
            await until(lambda: "You have made no move yet" in screen_text(app), "the reason", pilot=pilot)
            await pilot.press("1")
            await until(lambda: app.screen.check_action("take_back", ()) is True, "the key allowed", pilot=pilot)
            await pilot.press("U")
            await until(lambda: "waiting for an answer, 0:" in screen_text(app), "her wait shown", pilot=pilot)
            await bob.wait_for(lambda snap: snap.take_back is not None, WAIT)
            await bob.answer_take_back(True)
            await cat.answer_take_back(True)
            await until(lambda: table.actions == [] and "took back their last move" in screen_text(app),
                        "the move taken back, and said", pilot=pilot)
            lines = _log_lines(app)
            asked = next(i for i, line in enumerate(lines) if line.startswith("You asked to take back"))
            taken = next(i for i, line in enumerate(lines) if "took back their last move" in line)
            assert asked < taken  # her own line stays above the host's answer to it
            assert "waiting for an answer" not in screen_text(app)
        await bob.close()
        await cat.close()


async def test_the_question_closes_on_every_screen_when_someone_else_says_no(tmp_path, monkeypatch):
    monkeypatch.setenv("TURPIN_RECORDS_DIR", str(tmp_path / "records"))
    table = Table(get_game("turpin"), {"players": 3}, seed=11)
    async with hosting(table) as host:
        app = _app(host)
        bob, cat = client(host, name="Bob"), client(host, name="Cat")
        async with app.run_test(size=(120, 40), notifications=True) as pilot:
            await until(lambda: screen_name(app) == "TableScreen" and app.screen.frame.view is not None,
                        "the table", pilot=pilot)
            for someone in (bob, cat):
                await someone.start()
            await bob.wait_for(lambda snap: snap.prompt is not None, WAIT)
            await bob.choose(0)
            await bob.wait_for(lambda snap: snap.may_take_back, WAIT)
            await bob.take_back()
            await until(lambda: isinstance(app.screen, ConfirmScreen), "Ann asked", pilot=pilot)
            await cat.answer_take_back(False)  # Cat's "no" decides it for everyone
            await until(lambda: table.take_backs.asked is None, "the answer")
            await until(lambda: screen_name(app) == "TableScreen", "the question gone", pilot=pilot)
            await until(lambda: "Cat keeps the move" in screen_text(app), "the toast", pilot=pilot)
            assert len(table.actions) == 1 and not table.taken_back
        await bob.close()
        await cat.close()


async def test_the_consent_question_takes_no_key_typed_as_it_showed():
    """A question that comes by itself must not be answered by a key meant for the board."""
    from textual.app import App

    answers: list[bool | None] = []

    class Asking(App[None]):
        def on_mount(self) -> None:
            self.push_screen(ConfirmScreen("Ann asks to take back her last move. Allow it?", "…", "Allow",
                                           "Keep the move", guard=3600.0), answers.append)

    app = Asking()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter", "y", "n")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen) and answers == []
        app.screen.guard = 0.0  # read, then answered
        await pilot.press("n")
        await pilot.pause()
        assert answers == [False]
