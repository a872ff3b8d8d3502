"""Highwayman's panes: the routes, your cards, the series sheet; a whole series by keys.

The pane tests draw real views from the engine (a seeded game played on until the position wanted) and
read the words a person would see; the Pilot tests play a 3-player series against bots to the results
screen with number keys, arrows and Enter only, at 80×24 and 120×40.
"""

from __future__ import annotations

import random
import re
from typing import Any, Callable

import pytest
from rich.console import Console

from core.games.highwayman import GAME, rules
from tests.tui_helpers import quick_app, screen_name, screen_text
from tests.waiting import until
from tui.app import TurpinApp
from tui.frame import TableFrame
from tui.games import panes_for
from tui.games.highwayman import PANES
from tui.games.highwayman import hooks as panes
from tui.games.highwayman.board import Board
from tui.games.highwayman.hand import Hand, playable_cards
from tui.games.highwayman.sheet import Sheet
from tui.glyphs import ASCII, UNICODE
from tui.screens.interlude import TYPED_BEFORE
from tui.widgets.choices import ChoiceList
from tui.widgets.lines import as_text

SEATS = [{"seat": 0, "name": "Ann", "kind": "person", "connected": True},
         {"seat": 1, "name": "Bob", "kind": "bot", "connected": True},
         {"seat": 2, "name": "Cat", "kind": "bot", "connected": True}]


# --- Positions from the engine ----------------------------------------------------------------------------

def play_until(condition: Callable[[dict[str, Any]], bool], seed: int = 3, players: int = 3,
               **options: Any) -> dict[str, Any]:
    """A seeded series played with random legal moves until ``condition(state)`` holds."""
    game = GAME
    for attempt in range(200):
        state = game.setup(game.resolve_options({"players": players, **options}), seed + attempt)
        rng = random.Random(seed + attempt)
        for _ in range(2000):
            if condition(state):
                return state
            if state["phase"] == "over":
                break
            seat = state["turn"]
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    raise AssertionError("no seeded game reached the position wanted")


def frame_of(state: dict[str, Any], seat: int | None = 0) -> TableFrame:
    """What seat ``seat``'s app would hold: its view, and its prompt when it is to move."""
    game = GAME
    actions = game.legal_actions(state, seat) if seat is not None else []
    prompt = {"id": 1, "choices": [{"action": action, "text": game.describe_action(state, seat, action)}
                                   for action in actions]} if actions else None
    return TableFrame(game="highwayman", title="Highwayman", table="test", role="player", seat=seat,
                      started=True, view=game.view(state, seat), prompt=prompt, seats=SEATS)


def drawn(renderable: Any, width: int = 110) -> str:
    console = Console(width=width, record=True, color_system=None, legacy_windows=False)
    console.print(as_text(renderable))
    return console.export_text()


def board_text(state: dict[str, Any], seat: int | None = 0, glyphs=UNICODE, width: int = 110) -> str:
    return drawn(Board(glyphs=glyphs).draw(frame_of(state, seat)), width)


def route_line(text: str, title: str) -> str:
    return next(line for line in text.splitlines() if title in line)


def blocked(state: dict[str, Any]) -> bool:
    return any(state["blocked"])


def cleared(state: dict[str, Any]) -> bool:
    return any(pile and pile[-1] == rules.RUNNER for pile in state["piles"])


# --- The board --------------------------------------------------------------------------------------------

def test_board_draws_every_route_from_london_to_its_length():
    state = play_until(lambda s: s["tops"].count(-1) == 3)
    text = board_text(state)
    for route, title in enumerate(("Bath Road", "Dover Road", "Great North Road", "Portsmouth Road")):
        line = route_line(text, title)
        if state["tops"][route] < 0:  # H3: not started until its LONDON card
            assert line.count("·") == 11 and "not started (needs its LONDON)" in line
        else:
            assert "L " in line
    # H1: a table of five routes of twelve shows the Exeter Road, its numbers up to 12.
    state = play_until(lambda s: s["tops"][0] >= 2, routes=5, route_length=12)
    text = board_text(state)
    assert "Exeter Road" in text
    bath = route_line(text, "Bath Road")
    assert bath.split("Bath Road", 1)[1].lstrip().startswith("L 1 2 ")
    assert bath.count("·") == 12 - state["tops"][0] - int(state["blocked"][0])


def test_a_blocked_route_says_so_in_words_and_glyph_and_ascii_too():
    """Rule 4: a Highwayman blocks a route until a Runner covers it; shown without colour."""
    state = play_until(blocked)
    route = state["blocked"].index(True)
    title = rules.ROUTE_TITLES[rules.ROUTES[route]]
    line = route_line(board_text(state), title)
    assert "BLOCKED by a Highwayman" in line and UNICODE.block in line
    line = route_line(board_text(state, glyphs=ASCII), title)
    assert "BLOCKED by a Highwayman" in line and f" {ASCII.block}" in line
    assert line.isascii()


def test_a_runner_that_cleared_a_route_is_shown():
    state = play_until(cleared)
    route = next(r for r, pile in enumerate(state["piles"]) if pile and pile[-1] == rules.RUNNER)
    line = route_line(board_text(state), rules.ROUTE_TITLES[rules.ROUTES[route]])
    assert f"{UNICODE.runner} cleared by a Runner" in line
    assert f"next {state['tops'][route] + 1}" in line


def test_a_complete_route_is_said_complete():
    """H3: a route whose last number is down is complete."""
    state = play_until(lambda s: s["length"] in s["tops"], route_length=6)
    route = state["tops"].index(state["length"])
    line = route_line(board_text(state), rules.ROUTE_TITLES[rules.ROUTES[route]])
    assert "complete" in line and "L 1 2 3 4 5 6" in line


def test_board_tells_pack_game_dealer_and_turn():
    state = play_until(lambda s: s["game_number"] == 2 and s["turn"] == 1)
    text = board_text(state)
    assert f"Pack {len(state['pack'])} cards" in text
    assert "game 2 of 3" in text
    assert f"{SEATS[state['dealer']]['name']} dealt" in text
    assert "Bob to play" in text
    frame = frame_of(state)
    assert panes.status(frame) == f"Game 2 of 3 · Bob to play · pack {len(state['pack'])}"
    assert panes.waiting_for(frame) == [1]


def test_a_spectator_sees_the_board_and_sheet_without_a_hand():
    state = play_until(lambda s: s["tops"][0] >= 1)
    frame = frame_of(state, None)
    assert "Bath Road" in drawn(Board().draw(frame))
    sheet = drawn(Sheet().draw(frame))
    assert "Left in your hand" not in sheet and "Bob" in sheet


# --- The hand and the prompt ------------------------------------------------------------------------------

def test_card_names_are_readable():
    assert panes.card_name("bath:7") == "Bath 7"
    assert panes.card_name("dover:L") == "Dover LONDON"
    assert panes.card_name("north:10") == "North 10"
    assert panes.card_name(rules.HIGHWAYMAN) == "Highwayman"
    assert panes.card_name(rules.RUNNER) == "Runner"


def test_a_click_on_a_card_picks_the_move_that_plays_up_to_it():
    run = {"do": "play", "cards": ["bath:6", "bath:7"]}
    single = {"do": "play", "cards": ["bath:6"]}
    assert panes.choice_matches(run, "card:bath:7") and not panes.choice_matches(run, "card:bath:6")
    assert panes.choice_matches(single, "card:bath:6") and not panes.choice_matches(single, "card:bath:7")
    assert panes.choice_matches({"do": "highwayman", "route": "dover"}, "card:highwayman")
    assert not panes.choice_matches({"do": "runner", "route": "dover"}, "card:highwayman")
    assert panes.choice_matches({"do": "keep"}, "keep")
    assert not panes.choice_matches({"do": "keep"}, "card:bath:6")


def test_every_choice_reads_in_card_names_with_the_points_it_sheds():
    """H6 points from the engine's table; every legal action of many positions has a label."""
    seen: set[str] = set()
    for seed in range(12):
        state = play_until(lambda s: s["turn"] == 0 and bool(rules.legal_actions(s, 0)), seed=seed * 7)
        frame = frame_of(state)
        for choice in frame.choices:
            label = panes.choice_label(frame, choice).plain
            seen.add(choice["action"]["do"])
            assert ":" not in label.split("sheds")[0], label  # no card ids such as "bath:7"
            if choice["action"]["do"] == "play":
                points = sum(rules.POINTS[card] for card in choice["action"]["cards"])
                assert f"sheds {points} pt" in label
    assert "play" in seen


def test_the_drawn_card_is_named_in_the_prompt_title_and_keep_choice():
    """H5: with no play you draw; you may play the card at once or keep it."""
    state = play_until(lambda s: s["phase"] == "drawn" and s["turn"] == 0)
    frame = frame_of(state)
    card = panes.card_name(state["hands"][0][-1])
    assert card in panes.prompt_title(frame)
    keep = next(c for c in frame.choices if c["action"] == {"do": "keep"})
    assert panes.choice_label(frame, keep).plain.startswith(f"Keep {card}")


def test_H4_after_a_play_the_prompt_asks_to_play_on_or_end_the_turn():
    """H4: after a play with more that may follow, the seat is still on turn; the prompt, the status line
    and the board say the turn goes on. The host lists "end" first; the move list puts it last, so that
    key 1 and a habitual Enter go on with the run rather than throw it away."""
    state = play_until(lambda s: s["phase"] == "more" and s["turn"] == 0)
    frame = frame_of(state)
    assert panes.prompt_title(frame) == "play on, or end your turn"
    assert frame.choices[0]["action"] == {"do": "end"}
    order = panes.choice_order(frame)
    assert sorted(order) == list(range(len(frame.choices))) and order[-1] == 0
    assert frame.choices[order[0]]["action"]["do"] != "end"
    assert panes.choice_label(frame, frame.choices[order[-1]]).plain.startswith("End your turn")
    assert "you to play on or end the turn" in panes.status(frame)
    assert "Your move: play on, or end your turn" in board_text(state)
    assert "Ann to play on, or end the turn" in board_text(state, seat=1)
    assert panes.waiting_for(frame) == [0]


def test_H7_when_a_game_of_the_series_ends_the_table_pauses_on_how_it_ended():
    """H6, H7: the next game is dealt at once, so its first prompt comes straight after the last play, and
    a long log line alone would tell who won. The table pauses on the game just ended: who won and how,
    every hand left with its points, the series totals; only at that step."""
    import copy
    game = GAME
    state = play_until(lambda s: len(s["history"]) == 0 and s["phase"] in ("play", "more", "drawn")
                       and min(len(hand) for hand in s["hands"]) == 1)
    rng = random.Random(1)
    for _ in range(500):
        before = copy.deepcopy(state)
        seat = state["turn"]
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        if state["history"] or state["phase"] == "over":
            break
    assert len(state["history"]) == 1 and state["phase"] != "over"
    title, body, onward = panes.interlude(frame_of(before), frame_of(state))
    ended = state["history"][0]
    winner = SEATS[ended["winners"][0]]["name"]
    assert title.startswith(f"Game 1 of 3 is over: {winner} ") and onward == "On to game 2"
    from rich.console import Console
    console = Console(width=200, record=True)
    console.print(body)
    shown = console.export_text()
    for seat, hand in enumerate(ended["left"]):
        in_words = re.escape(rules.hand_in_words(hand))
        assert re.search(rf"{SEATS[seat]['name']} +{ended['scores'][seat]} points: {in_words}", shown), shown
    assert "Series so far (lowest wins): " + " · ".join(
        f"{SEATS[s]['name']} {t}" for s, t in enumerate(state["totals"])) in shown
    assert panes.interlude(frame_of(state), frame_of(state)) is None


def test_the_keep_hint_names_its_key_not_a_click():
    """A keyboard app says which key keeps the drawn card, as the move list numbers it; the plays of a
    drawn card come first and "Keep" last (H5: key 1 must not keep a card that could go down)."""
    state = play_until(lambda s: s["phase"] == "drawn" and s["turn"] == 0 and len(legal_now(s)) > 1)
    frame = frame_of(state)
    assert frame.choices[0]["action"] == {"do": "keep"}
    order = panes.choice_order(frame)
    assert order[-1] == 0 and frame.choices[order[0]]["action"]["do"] != "keep"
    assert Hand._keep_key(frame) == f" (key {len(frame.choices)})"


def legal_now(state):
    return GAME.legal_actions(state, state["turn"])


def test_the_sheet_says_highwaymen_for_more_than_one():
    """"2 Highwaymen", not "2 Highwaymans"; one is a Highwayman."""
    state = play_until(lambda s: s["game_number"] == 1)
    frame = frame_of(state)
    frame.view["hand"] = [rules.HIGHWAYMAN, rules.HIGHWAYMAN, rules.RUNNER, "bath:3"]
    text = drawn(Sheet().draw(frame))
    assert "2 Highwaymen 40 + Runner 10 + numbers 3" in text and "Highwaymans" not in text
    frame.view["hand"] = [rules.HIGHWAYMAN, rules.RUNNER, rules.RUNNER]
    assert "Highwayman 20 + 2 Runners 20" in drawn(Sheet().draw(frame))


# --- The sheet and the players pane -----------------------------------------------------------------------

def test_sheet_shows_hand_sizes_totals_and_your_points_left():
    state = play_until(lambda s: s["game_number"] == 2)
    frame = frame_of(state)
    text = drawn(Sheet().draw(frame))
    assert "Game 2 of 3" in text
    mine = sum(rules.POINTS[card] for card in state["hands"][0])
    assert f"Left in your hand: {mine} pts (H6)" in text
    assert "g1" in text and "total" in text
    for seat, row in enumerate(("Ann (you)", "Bob", "Cat")):
        figures = route_line(text, row).split()
        assert figures[0] == str(seat + 1) and figures[1] == str(len(state["hands"][seat]))
        assert figures[figures.index(row.split()[0]) - 1] == str(state["totals"][seat])
    assert panes.seat_summary(frame, 1) == f"{len(state['hands'][1])} cards · series {state['totals'][1]}"
    assert panes.score_track(frame.view) == [float(t) for t in state["totals"]]


def test_two_seats_with_one_name_are_told_apart_by_number():
    state = play_until(lambda s: s["turn"] == 2 and s["dealer"] == 1)
    twins = [dict(seat, name="Bot (normal)") if seat["seat"] else seat for seat in SEATS]
    frame = TableFrame(**{**frame_of(state).__dict__, "seats": twins})
    assert panes.who(frame, 0) == "Ann" and panes.who(frame, 2) == "Bot (normal) (seat 3)"
    text = drawn(Board().draw(frame))
    assert "Bot (normal) (seat 2) dealt" in text and "Bot (normal) (seat 3) to play" in text
    sheet = drawn(Sheet().draw(frame))
    assert route_line(sheet, "Ann (you)").split()[0] == "1"
    assert [line.split()[0] for line in sheet.splitlines() if "Bot (normal)" in line] == ["2", "3"]


def test_the_panes_are_found_by_their_game_id():
    assert panes_for("highwayman") is PANES and PANES.game_id == "highwayman" and PANES.board is Board


# --- Whole series through the app, by keys ----------------------------------------------------------------

def hand_parts(app: TurpinApp) -> list[tuple[str, str]]:
    return app.screen.query_one("#hand", Hand).parts()


def chip_texts(app: TurpinApp) -> list[str]:
    """The cards in the hand as they read, in order."""
    return [words for target, words in hand_parts(app) if target.startswith("card:")]


async def hand_in_view(pilot, app: TurpinApp) -> None:
    """On a narrow terminal, turn the panes' tabs (]) to the hand: a pane out of sight is not drawn."""
    if not app.screen.narrow:
        return
    tabs = app.screen.query_one("#pane-tabs")
    for _ in range(6):
        if tabs.active == "tab-hand":
            break
        await pilot.press("right_square_bracket")
    assert tabs.active == "tab-hand"


def my_move(app: TurpinApp) -> bool:
    screen = app.screen
    return screen_name(app) == "TableScreen" and bool(screen.frame.choices) and not screen.frame.sent


async def pick_second_with_arrows(pilot, app: TurpinApp) -> None:
    """Tab to the move pane's list (the table opens with focus elsewhere), Down to choice 2, Enter."""
    for _ in range(12):
        if getattr(app.focused, "id", None) == "move-choices":
            break
        await pilot.press("tab")
    choices = app.screen.query_one("#move-choices", ChoiceList)
    assert app.focused is choices, "Tab never reached the move pane's choices"
    await pilot.press("home", "down")
    assert choices.highlighted == 1
    await pilot.press("enter")


@pytest.mark.slow
@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_a_whole_series_by_keys(size, monkeypatch):
    from tui.widgets.prompt import MovePane
    # Every move by a key here, one-choice ones too: the hand is checked against the move first shown.
    monkeypatch.setattr(MovePane, "ONLY_MOVE_AFTER", None)
    app = quick_app("highwayman", players=3, seed=21)
    async with app.run_test(size=size) as pilot:
        await until(lambda: my_move(app), "my first move", pilot=pilot)
        table = app.screen
        view = table.frame.view
        assert view["game_number"] == 1 and view["series_games"] == 3
        # The board's route rows and the hand's cards, as on the screen.
        await until(lambda: "Portsmouth Road" in screen_text(app), "the board drawn", pilot=pilot)
        text = screen_text(app)
        for title in ("Bath Road", "Dover Road", "Great North Road", "Portsmouth Road"):
            assert re.search(rf"{title} +[L·]", text), title
        assert f"Pack {view['pack_size']} cards · game 1 of 3" in text
        await hand_in_view(pilot, app)
        await until(lambda: len(chip_texts(app)) == len(view["hand"]), "the hand drawn", pilot=pilot)
        if size[0] >= 110:  # wide: the hand is beside the board, every card on the screen
            await until(lambda: all(panes.card_name(card) in screen_text(app) for card in view["hand"]),
                        "the hand on the screen", pilot=pilot)
        names = chip_texts(app)
        assert len(names) == len(view["hand"])
        for card, chip in zip(view["hand"], names):
            assert panes.card_name(card) in chip
        playable = playable_cards(table.frame)
        assert any(chip.startswith(UNICODE.laid) for chip in names) == bool(playable & set(view["hand"]))
        # Play the series: number keys, and now and then arrows and Enter.
        moves, arrows, games_seen, pauses = 0, 0, set(), []
        for _ in range(20_000):  # a bound on pauses and key presses, not a time limit
            if screen_name(app) == "ResultsScreen":
                break
            if screen_name(app) == "InterludeScreen":  # H7: a game of the series over, read, then Enter
                pauses.append(app.screen.title_text)
                assert "points" in screen_text(app) and "Series so far (lowest wins)" in screen_text(app)
                await pilot.pause(TYPED_BEFORE)
                # Enter; or a number key, a move at the table behind, which goes back there too
                await pilot.press("1" if len(pauses) == 1 else "enter")
                await until(lambda: screen_name(app) != "InterludeScreen", "the table again", pilot=pilot)
            elif my_move(app):
                frame = app.screen.frame
                games_seen.add(frame.view["game_number"])
                hand = app.screen.query_one("#hand", Hand)  # its drawing is kept while its key holds:
                if hand.is_on_screen:  # (one out of sight is drawn when it is shown)
                    assert hand.shown == as_text(hand.draw(hand.frame)), "the hand is not as its frame draws it now"
                if moves % 3 == 2 and len(frame.choices) > 1:
                    await pick_second_with_arrows(pilot, app)
                    arrows += 1
                else:
                    await pilot.press("1")
                moves += 1
            else:
                await pilot.pause(0.05)
        assert screen_name(app) == "ResultsScreen", "the series did not reach its results"
        assert games_seen == {1, 2, 3} and arrows > 0
        assert [title.split(" is over")[0] for title in pauses] == ["Game 1 of 3", "Game 2 of 3"]
        result = app.screen.frame.result
        assert len(result["reveal"]["history"]) == 3
        await until(lambda: "Game over" in screen_text(app), "the results drawn", pilot=pilot)
        assert "Points over the series (lowest wins)" in screen_text(app)
        # A2 in words: each game's end by the winners' names, and what everyone held, as cards are called
        shown = " ".join(screen_text(app).split())
        first = result["reveal"]["history"][0]
        winner = app.screen.frame.plain_name(first["winners"][0])
        assert f"Game 1: {winner}" in shown and "winners" not in shown and "history" not in shown


async def test_a_click_on_a_playable_card_plays_it():
    app = quick_app("highwayman", players=3, seed=4)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(200):
            await until(lambda: my_move(app), "my move", pilot=pilot)
            frame = app.screen.frame
            plays = [c["action"] for c in frame.choices if c["action"].get("do") == "play"]
            if plays and frame.view.get("phase") == "play":  # (just after a draw, the card drawn is apart)
                break
            await pilot.pause(2 * app.NEW_QUESTION_GUARD)  # a key as a new question shows is not taken
            await pilot.press("1")
        else:
            raise AssertionError("never had a card to play")
        card = plays[0]["cards"][-1]

        def words_of_card() -> str | None:
            return next((words for target, words in hand_parts(app) if target == f"card:{card}"), None)

        await until(lambda: words_of_card() is not None, "the card in the hand", pilot=pilot)
        assert UNICODE.laid in words_of_card()  # marked playable in words too, not by colour alone
        hand = app.screen.query_one("#hand", Hand)
        where = hand.offset_of(f"card:{card}")
        assert where is not None, "the card is not in view"
        title = rules.ROUTE_TITLES[card.partition(":")[0]]
        said = len(frame.log)
        await pilot.click(hand, offset=where)

        def played() -> bool:
            news = [event.get("text", "") for event in app.screen.frame.log[said:]]
            return any(text.startswith((f"Ann plays {title}", f"Ann opens the {title}")) for text in news)

        await until(played, "my card played by the click", pilot=pilot)


async def test_with_ascii_glyphs_the_hand_marks_playable_and_drawn_cards_in_ascii():
    """--ascii: the playable mark and the drawn mark are plain ASCII, and still words beside them."""
    app = quick_app("highwayman", players=3, seed=21)
    app.glyphs = ASCII
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(300):
            await until(lambda: my_move(app), "my move", pilot=pilot)
            if app.screen.frame.view["phase"] == "drawn":
                break
            await pilot.press("1")
        else:
            raise AssertionError("never drew a card")
        view = app.screen.frame.view
        await hand_in_view(pilot, app)
        await until(lambda: any("(new)" in chip for chip in chip_texts(app)), "the drawn card marked", pilot=pilot)
        chips = chip_texts(app)
        assert all(chip.isascii() for chip in chips)
        drawn_chip = next(chip for chip in chips if "(new)" in chip)
        assert panes.card_name(view["drawn"]) in drawn_chip
        footer = next(words for target, words in hand_parts(app) if target == "keep")
        assert f"(new) drew: {panes.card_name(view['drawn'])}" in footer


def test_highwayman_and_runner_choices_name_the_route_and_their_h6_points():
    state = play_until(lambda s: s["turn"] == 0 and s["phase"] == "play"
                       and any(a["do"] in ("highwayman", "runner") for a in rules.legal_actions(s, 0)))
    frame = frame_of(state)
    for choice in frame.choices:
        action = choice["action"]
        if action["do"] in ("highwayman", "runner"):
            label = panes.choice_label(frame, choice).plain
            assert rules.ROUTE_TITLES[action["route"]] in label
            card = rules.HIGHWAYMAN if action["do"] == "highwayman" else rules.RUNNER
            assert f"sheds {rules.POINTS[card]} pts" in label
            assert panes.choice_matches(action, f"card:{card}")


LONG_NAMES = ["Bartholomew Fortescue-Smythe the Third", "Ann", "Moll Cutpurse", "Claude Duval", "Swift Nick",
              "Jonathan Wild the Thief-taker"]


@pytest.mark.parametrize("width", [35, 27])  # the players pane at 100×30, and narrower still
async def test_the_players_pane_cuts_long_names_never_figures(width):
    """Six seats with long names in the players pane as wide as at 100×30 (and narrower): a
    name may be cut, down to its first letters, but every seat's cards and series total stay whole."""
    from textual.app import App

    from tests.tui_helpers import painted_lines
    from tui.widgets.players import PlayersPane
    view = {"hand_sizes": [7, 6, 12, 5, 6, 7], "totals": [103, 17, 5, 0, 88, 120], "turn": 2, "phase": "play"}
    seats = [{"seat": n, "name": name + (" (normal bot)" if n > 1 else ""), "kind": "bot" if n > 1 else "person",
              "connected": True} for n, name in enumerate(LONG_NAMES)]
    frame = TableFrame(game="highwayman", seat=1, started=True, view=view, seats=seats)

    class PlayersApp(App[None]):
        CSS = f"PlayersPane {{ width: {width}; border: round $primary; }}"

        def compose(self):
            yield PlayersPane(panes_for("highwayman"), id="players")

        def on_mount(self) -> None:
            self.query_one(PlayersPane).frame = frame

    app = PlayersApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        rows = [line[1:width - 1] for line in painted_lines(app)[1:1 + len(seats)]]
        for seat, row in enumerate(rows):
            cards = view["hand_sizes"][seat]
            assert row.rstrip().endswith(f"series {view['totals'][seat]}"), rows
            assert f"{cards} cards" in row, rows
            assert LONG_NAMES[seat][:2] in row, rows
