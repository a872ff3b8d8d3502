"""The story of the game: a recap of the latest journey, round or turn under the board, where
people look, at every size (80×24 included: on the Board tab), built from the events this seat was sent
(A1) and staying until the next one; the log keeps everything."""

from __future__ import annotations

import pytest

from tests.tui_helpers import flat, quick_app, region_text, screen_name
from tests.waiting import until
from tui.frame import TableFrame
from tui.games import panes_for
from tui.games.dick_turpin import recap as dick_turpin_recap
from tui.games.generic import GENERIC
from tui.games.highwayman import recap as highwayman_recap
from tui.games.money_or_life import recap as money_or_life_recap

SEATS = [{"name": "Ann"}, {"name": "Claude Duval"}, {"name": "Tom King"}]


def frame_of(game: str, log: list[dict], seat: int | None = 0, view: dict | None = None) -> TableFrame:
    return TableFrame(game=game, seat=seat, seats=SEATS, view=view or {}, log=log)


JOURNEY_1 = [
    {"text": "Round 1, journey 1: the Silver Flyer leaves London for Edinburgh; Ann drives."},
    {"text": "Ann has chosen a town.", "told_privately": 0},
    {"text": "Warwick: Ann, Claude Duval cry 'Stand and deliver!'", "town": "Warwick", "seats": [0, 1]},
    {"text": "Duel: Ann turns a pistol and flees.", "seat": 0, "card": 0},
    {"text": "Claude Duval wins the duel."},
    {"text": "Claude Duval robs 2 passengers."},
    {"text": "Claude Duval turns 3 gold (3 so far).", "seat": 1, "card": 3},
    {"text": "Claude Duval turns 2 gold (5 so far).", "seat": 1, "card": 2},
    {"text": "Claude Duval takes 5 gold (3 from Ann, 2 from Tom King); 4 passengers left.", "seat": 1,
     "taken": [3, 0, 2]},
    {"text": "York: Tom King cries 'Stand and deliver!'", "town": "York", "seats": [2]},
    {"text": "Tom King robs 1 passenger.", "seat": 2},
    {"text": "Tom King turns a pistol: shot at and scared away with nothing.", "seat": 2, "card": 0},
]


def test_dick_turpin_tells_the_journey_stop_by_stop_as_the_seat_was_in_it():
    lines = [line.plain for line in dick_turpin_recap.recap(frame_of("turpin", JOURNEY_1))]
    assert lines == ["Round 1, journey 1: Warwick: you lost the duel to Claude Duval, who took 5 gold "
                     "(you paid 3, Tom King 2)",
                     "  York: Tom King turned a pistol: nothing taken"]
    seen_by_tom = [line.plain for line in dick_turpin_recap.recap(frame_of("turpin", JOURNEY_1, seat=2))]
    assert seen_by_tom[0].endswith("Warwick: Claude Duval beat Ann in a duel, took 5 gold (Ann paid 3, you 2)")


def test_the_journey_stays_until_the_next_one_comes_to_a_stop():
    next_journey = [{"text": "Round 1, journey 2: the Silver Flyer leaves Edinburgh for London; Claude Duval "
                             "drives."}, {"text": "Ann has chosen a town."}]
    lines = dick_turpin_recap.recap(frame_of("turpin", JOURNEY_1 + next_journey))
    assert lines[0].plain.startswith("Round 1, journey 1: Warwick:")
    robbed = next_journey + [{"text": "Bath: Ann cries 'Stand and deliver!'", "town": "Bath", "seats": [0]}]
    lines = dick_turpin_recap.recap(frame_of("turpin", JOURNEY_1 + robbed))
    assert [line.plain for line in lines] == ["Round 1, journey 2: Bath: you are robbing the coach"]


def test_your_money_or_your_life_tells_the_rounds_town_rival_and_fates_not_the_secret_lines():
    log = [{"text": "Round 3: North: A mine owner (3 guineas); South: …"},
           {"text": "Your secret dice: 5 and 6", "visible_to": [0]},
           {"text": "Ann rolled 5 and 6 and chose the market"},
           {"text": "Claude Duval rolled 2 and 3 and chose North"},
           {"text": "Ann meets 1 guard in the market (Y9): rolls 4 + cudgel 2 = 6 against 6, no harm done."},
           {"text": "Ann buys a cudgel for 5 guineas"},
           {"text": "The rival goes for A mine owner (North), the richest coach left (Y16): rolls 4+5 = 9 "
                    "against combat 10, not above it: gets nothing (rival: 0)"},
           {"text": "Round 4: North: …"}, {"text": "Ann has chosen where to ride.", "told_privately": 0}]
    lines = [line.plain for line in money_or_life_recap.recap(frame_of("money-or-life", log))]
    assert lines == ["Round 3: Ann meets 1 guard in the market: rolls 4 + cudgel 2 = 6 against 6, no harm done. "
                     "· Ann buys a cudgel for 5 guineas · The rival goes for A mine owner (North), the richest "
                     "coach left: rolls 4+5 = 9 against combat 10, not above it: gets nothing (rival: 0)"]
    assert "secret" not in lines[0]


def test_highwayman_tells_the_turns_since_yours_in_a_few_words():
    log = [{"text": "Game 1 of 3: Tom King deals, Ann leads."},
           {"text": "Ann plays Bath Road 3 4."},
           {"text": "Claude Duval holds up the Portsmouth Road with a Highwayman."},
           {"text": "Claude Duval ends the turn."},
           {"text": "Tom King has no play and draws a card (27 left in the pack)."},
           {"text": "Tom King keeps the card."}]
    view = {"turn": 0}
    lines = [line.plain for line in highwayman_recap.recap(frame_of("highwayman", log, view=view))]
    assert lines == ["Since your turn: Claude Duval: Highwayman on the Portsmouth Road · Tom King: drew, kept it"]
    mine_drawn = log + [{"text": "Ann has no play and draws a card (26 left in the pack)."},
                        {"text": "You draw Dover Road 9.", "visible_to": [0]}]
    after = [line.plain for line in highwayman_recap.recap(frame_of("highwayman", mine_drawn, view=view))]
    assert after == lines, "your turn under way is the hand's business"
    watching = [line.plain for line in highwayman_recap.recap(frame_of("highwayman", log, seat=None, view=view))]
    assert watching[0].startswith("Latest turns: Ann: Bath Road 3 4 · Claude Duval:")


def test_a_game_without_its_own_recap_gets_the_logs_newest_lines():
    log = [{"text": f"line {number}"} for number in range(5)]
    lines = [line.plain for line in GENERIC.recap(frame_of("toy", log))]
    assert lines == ["Just now line 2", "  line 3", "  line 4"]
    assert all(panes_for(game).recap is not GENERIC.recap for game in ("turpin", "money-or-life", "highwayman"))


async def play_until_told(pilot, app, recap) -> list[str]:
    """Press the first choice, move by move, until the game's recap has something to tell (bots play at
    once and one-choice moves play themselves, so the moves a recap takes vary): its lines."""
    from tui.screens.table import TableScreen
    await until(lambda: screen_name(app) == "TableScreen" and app.screen.frame.view is not None,
                "the screen to change", pilot=pilot)
    for _ in range(3000):
        screen = app.screen
        assert isinstance(screen, TableScreen), "the game ended before anything was told"
        lines = [line.plain for line in recap(screen.frame)]
        if lines:
            return lines
        if screen.frame.choices and not screen.frame.sent:
            await pilot.press("1")
        await pilot.pause(0.05)
    raise AssertionError("nothing was told")


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (200, 30)])
async def test_a_seeded_journey_is_told_on_the_board_at_every_size(size):
    app = quick_app("turpin", seed=11)
    async with app.run_test(size=size) as pilot:
        lines = await play_until_told(pilot, app, dick_turpin_recap.recap)
        board = flat(region_text(app, "#board"))
        assert lines[0].startswith("Round 1, journey 1: ") and lines[0] in board, board
        # What the log says of the first stop is what the board tells.
        log = app.screen.frame.log
        stop = next(event for event in log if "seats" in event and "town" in event)
        assert lines[0].startswith(f"Round 1, journey 1: {stop['town']}: ")
        after = log[log.index(stop):]
        taken = next((event for event in after if "taken" in event), None)
        if taken is not None and (taken["seat"] in stop["seats"]):
            assert f"took {sum(taken['taken'])} gold" in lines[0], lines


async def test_a_seeded_highwayman_turn_is_told_on_the_board():
    app = quick_app("highwayman", seed=11)
    async with app.run_test(size=(100, 30)) as pilot:
        lines = await play_until_told(pilot, app, highwayman_recap.recap)
        board = flat(region_text(app, "#board"))
        assert lines[0].split(":")[0] in ("Latest turns", "Since your turn", "Your turn"), lines
        assert lines[0] in board, board


async def test_a_seeded_round_of_your_money_or_your_life_is_told_on_the_board():
    app = quick_app("money-or-life", seed=11)
    async with app.run_test(size=(120, 40)) as pilot:
        lines = await play_until_told(pilot, app, money_or_life_recap.recap)
        assert lines[0].startswith("Round "), lines
        board = flat(region_text(app, "#board"))
        assert lines[0][:60] in board, board
