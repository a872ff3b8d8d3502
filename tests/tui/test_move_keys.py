"""Every choice of a long prompt has a key: 1 to 9, 0 for the tenth, then letters that no table
key takes, so a full market's eleventh item and on is one key away."""

from __future__ import annotations

from dataclasses import replace

from textual.app import App, ComposeResult

from tests.tui_helpers import flat, region_text
from tests.waiting import until
from tui.frame import TableFrame
from tui.games.generic import GENERIC
from tui.widgets.prompt import LATER_KEYS, MovePane, number_key

TABLE_KEYS = set("trbs") | set("swcx")  # the table's own letters, and the dice builder's


def test_the_keys_past_the_tenth_are_letters_the_table_does_not_take():
    assert [number_key(n) for n in range(1, 13)] == [*"1234567890", "a", "d"]
    assert not TABLE_KEYS & set(LATER_KEYS) and len(set(LATER_KEYS)) == len(LATER_KEYS)
    assert number_key(10 + len(LATER_KEYS) + 1) == ""


class MoveApp(App[None]):
    def __init__(self, frame: TableFrame) -> None:
        super().__init__()
        self.table_frame = frame
        self.chosen: list[int] = []
        self.TYPE_AHEAD_GUARD = self.NEW_QUESTION_GUARD = 0.0  # (the table app's own guards: none here)

    def compose(self) -> ComposeResult:
        yield MovePane(GENERIC, self.send, id="move")

    def on_mount(self) -> None:
        self.query_one(MovePane).frame = self.table_frame

    async def send(self, action: dict, prompt_id: int) -> None:
        """What the table would be sent: which choice it was."""
        self.chosen.append(int(action["item"].removeprefix("item")))


async def test_a_letter_picks_a_choice_past_the_tenth_and_the_list_shows_it():
    choices = [{"action": {"do": "buy", "item": f"item{n}"}, "text": f"Buy item {n}"} for n in range(14)]
    frame = TableFrame(game="toy", seat=0, started=True, view={}, prompt={"id": 1, "choices": choices})
    app = MoveApp(frame)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = flat(region_text(app, "#move"))
        assert "[0] Buy item 9" in shown and "[a] Buy item 10" in shown and "[f] Buy item 13" in shown, shown
        moves = app.query_one(MovePane)
        await until(lambda: moves.prompt_shown_at < float("inf"), "the prompt painted", pilot=pilot)
        await pilot.press("a")
        await until(lambda: app.chosen == [10], "the eleventh sent", pilot=pilot)
        moves.frame = replace(frame, prompt={"id": 2, "choices": choices})  # the next table, the same choices
        await until(lambda: moves.prompt_shown_at < float("inf"), "the next prompt painted", pilot=pilot)
        await pilot.press("f")
        await pilot.press("0")  # the screen binds the numbers: here, in the pane alone, nothing
        await until(lambda: app.chosen == [10, 13], "the fourteenth sent", pilot=pilot)
        await pilot.pause()
        assert app.chosen == [10, 13]


async def test_a_one_choice_move_waits_out_the_take_back_grace_while_the_move_before_may_be_taken_back(
        monkeypatch):
    """Beside a person, as beside a bot, the one who just moved has the grace to press U: a one-choice move
    that would play itself after its beat waits until the grace is over while ``take_back_open``."""
    monkeypatch.setattr(MovePane, "ONLY_MOVE_AFTER", 0.05)
    monkeypatch.setattr(MovePane, "TAKE_BACK_GRACE", 1.0)
    choices = [{"action": {"do": "buy", "item": "item0"}, "text": "Keep it"}]
    frame = TableFrame(game="toy", seat=1, started=True, view={}, prompt={"id": 1, "choices": choices},
                       take_back_open=True)
    app = MoveApp(frame)
    async with app.run_test(size=(80, 24)) as pilot:
        moves = app.query_one(MovePane)
        await until(lambda: moves.prompt_shown_at < float("inf"), "the prompt painted", pilot=pilot)
        await pilot.pause(MovePane.ONLY_MOVE_AFTER * 4)  # the beat alone is over (the app's own timer)
        assert app.chosen == [], "played inside the take-back grace"
        await until(lambda: app.chosen == [0], "the only move played once the grace is over", pilot=pilot)
