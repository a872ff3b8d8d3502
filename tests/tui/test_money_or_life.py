"""Your Money or Your Life through the app, by keys only, against bots on a private table.

Each test plays a whole game (solo and a duel, at 80×24 and 120×40) to the results screen with number
keys, arrows and Enter, and reads what a person would read on the screen: the coaches around York, the
player's own dice in the hand, each robbery's outcome beside its choice, the best one first.
"""

from __future__ import annotations

import re

import pytest

from core.games.money_or_life import rules, solver
from tests.tui_helpers import flat, painted_lines, region_text, screen_name
from tests.waiting import until
from tui.app import Start, TurpinApp
from tui.frame import TableFrame
from tui.games.money_or_life import advice as mol_advice
from tui.games.money_or_life import board as mol_board
from tui.games.money_or_life import common as mol_common
from tui.games.money_or_life import hand as mol_hand
from tui.games.money_or_life import hooks as panes
from tui.games.money_or_life import sheet as mol_sheet
from tui.glyphs import ASCII, UNICODE
from tui.hosting import plan_against_bots
from tui.widgets.lines import as_text


def make_app(players: int, seed: int) -> TurpinApp:
    plan = plan_against_bots("money-or-life", players=players, seed=seed)
    plan.bot_delay = 0
    return TurpinApp(Start(route="play", plan=plan), player_name="Ann", lan_interfaces=[], bell=False)


def my_turn(app: TurpinApp) -> bool:
    screen = app.screen
    return screen_name(app) == "TableScreen" and bool(screen.frame.choices) and not screen.frame.sent


async def settle(pilot, app: TurpinApp) -> None:
    """Wait until the panes have drawn the frame the screen holds (a recomposed pane paints next refresh)."""
    await pilot.pause()
    await pilot.pause()


async def show_tab(pilot, app: TurpinApp, tab: str) -> None:
    """On a narrow screen, bring a pane's tab forward with keys: ] turns to the next pane."""
    tabs = app.screen.query_one("#pane-tabs")
    for _ in range(8):
        if tabs.active == f"tab-{tab}":
            break
        await pilot.press("right_square_bracket")
    assert tabs.active == f"tab-{tab}"
    await settle(pilot, app)


async def play_to_a_robbery(pilot, app: TurpinApp) -> None:
    """Key 1 at every prompt until your robbery's prompt (the dice to share) is up."""
    for _ in range(40):
        await until(lambda: my_turn(app), "a prompt", pilot=pilot)
        frame = app.screen.frame
        if frame.view["phase"] == "rob":
            return
        await pilot.press("1")
        await until(lambda: app.screen.frame.prompt is not frame.prompt, "the move to go", pilot=pilot)
    raise AssertionError("no robbery in this game")


async def pick_with_arrows(pilot, app: TurpinApp, steps: int) -> None:
    """Choose the move pane's entry ``steps`` below the first with Tab to reach it, arrows and Enter."""
    from tui.widgets.choices import ChoiceList
    choices = app.screen.query_one("#move-choices", ChoiceList)
    for _ in range(12):
        if app.focused is choices:
            break
        await pilot.press("tab")
    assert app.focused is choices, f"the choices never took focus ({app.focused})"
    await pilot.press("home", *["down"] * steps, "enter")


async def play_by_keys(pilot, app: TurpinApp, narrow: bool) -> dict[str, int]:
    """Answer every prompt until the results screen: number keys mostly, arrows and Enter now and then.
    On the way, check what the panes show at the first pick, the first robbery and the first town."""
    await until(lambda: screen_name(app) in ("TableScreen", "ResultsScreen"), "the table", pilot=pilot)
    seen = {"picks": 0, "robberies": 0, "towns": 0, "arrows": 0}
    for _ in range(60_000):  # a bound on looks at the screen, not a time
        if screen_name(app) == "ResultsScreen":
            return seen
        if screen_name(app) == "TableScreen":
            for pane in app.screen.query("#sheet, #board"):  # their drawings are kept while their keys hold:
                if pane.is_on_screen and pane.frame is not None and pane.frame.view is not None:
                    assert pane.shown == as_text(pane.drawing(pane.frame)), \
                        f"the {pane.id} is not as its frame draws it now"
        if not my_turn(app):
            await pilot.pause(0.02)
            continue
        await settle(pilot, app)
        frame: TableFrame = app.screen.frame
        view = frame.view
        phase = view["phase"]
        me = view["players"][0]
        if phase == "pick":
            seen["picks"] += 1
            if seen["picks"] == 1:
                await check_first_pick(pilot, app, frame, narrow)
            if me["must_rest"]:
                await pilot.press("1")  # the tavern is the only choice after a spur (Y5)
            elif me["health"] <= 4 and me["guineas"] >= 2:
                await pick_with_arrows(pilot, app, 4)  # down to "Go to the tavern"
                seen["arrows"] += 1
            elif seen["picks"] % 5 == 0:
                await pick_with_arrows(pilot, app, 5)  # down to "Go to the market"
                seen["arrows"] += 1
            else:
                await pilot.press(str(1 + seen["picks"] % 4))  # rob a coach
        elif phase == "rob":
            seen["robberies"] += 1
            if seen["robberies"] == 1:
                await check_first_robbery(pilot, app, frame, narrow)
            await pilot.press("1")  # the best outcome is listed first
        else:
            seen["towns"] += 1
            if seen["towns"] == 1:
                check_town(app, frame)
            kinds = [choice["action"]["do"] for choice in frame.choices]
            if "heal" in kinds and me["health"] < 10:
                await pilot.press(str(kinds.index("heal") + 1))
            elif "buy" in kinds and kinds.index("buy") < 9:
                await pilot.press(str(kinds.index("buy") + 1))
                seen["bought"] = seen.get("bought", 0) + 1
            else:
                await pilot.press("1")  # leave town (the host lists it first)
        await until(lambda: screen_name(app) != "TableScreen" or app.screen.frame.sent
                    or app.screen.frame.prompt is not frame.prompt, "the choice to be sent", pilot=pilot)
    raise AssertionError("the game did not reach its results")


async def check_first_pick(pilot, app: TurpinApp, frame: TableFrame, narrow: bool) -> None:
    view = frame.view
    status = painted_lines(app)[0]
    assert f"Round {view['round']} of {view['rounds']}" in status and "pick where to ride" in status
    board = region_text(app, "#board")
    for coach in view["coaches"]:
        assert coach["name"] in board, (coach["name"], board)
        assert f"£{coach['money']}" in board
    # Each coach carries the key that picks it: the move pane lists "Rob the coach to the North" first.
    assert "[1] North" in board
    if not narrow:  # at 80×24 the board shows one line a coach; the town and the track are below them
        assert "YORK" in board and "[5] tavern" in board and "[6] market" in board
        assert "Round " + UNICODE.filled * view["round"] in board
        if view["solo"]:
            assert "Rival:" in board
    if narrow:
        await show_tab(pilot, app, "hand")
    hand = region_text(app, "#hand")
    assert "Your dice:" in hand
    for die in view["my_dice"]:
        assert f"{UNICODE.die[die]}{die}" in hand, (die, hand)
    assert "Your pick: not yet chosen" in hand
    if narrow:
        await show_tab(pilot, app, "sheet")
    sheet = region_text(app, "#sheet")
    assert "health" in sheet and "12 of 12" in sheet and "folk hero" in sheet and "scoundrel" in sheet
    if narrow:
        await show_tab(pilot, app, "players")
    players = flat(region_text(app, "#players"))
    assert "£0 · score 0" in players
    if not view["solo"]:
        other = view["players"][1]
        # short of room (120 columns) the words go before a name is cut: the marks stay
        assert ("✓" if other["picked"] else "…") in players and "Moll Cutpurse ⚙" in players
    if narrow:
        await show_tab(pilot, app, "board")
    move = flat(region_text(app, "#move"))
    assert "[1] Rob the coach to the North" in move and view["coaches"][0]["name"] in move


async def check_first_robbery(pilot, app: TurpinApp, frame: TableFrame, narrow: bool) -> None:
    view = frame.view
    me = view["players"][0]
    ranked = mol_advice.ranked_robberies(frame)
    assert ranked, "every assign choice has the solver's outcome"
    assert len(ranked) == sum(1 for c in frame.choices if c["action"]["do"] == "assign")
    values = [entry["value"] for entry in ranked]
    assert values == sorted(values, reverse=True)
    move = flat(region_text(app, "#move"))
    first = move[move.index("[1]"):move.index("[2]") if "[2]" in move else None]
    assert "speed" in first and "→" in first and "★ suggested" in first, move
    if narrow:
        await show_tab(pilot, app, "hand")
    hand = region_text(app, "#hand")
    for die in me["rob_dice"]:  # the dice come first: at 80×24 a robbery leaves the hand one line
        assert f"{UNICODE.die[die]}{die}" in hand, (die, hand)
    if not narrow:
        assert "To beat:" in hand
    if narrow:
        await show_tab(pilot, app, "board")
    board = region_text(app, "#board")
    assert "you" in board  # your coach is marked with your name on the board


def check_town(app: TurpinApp, frame: TableFrame) -> None:
    move = flat(region_text(app, "#move"))
    assert "[1] Leave town" in move, move


async def finish_at_results(pilot, app: TurpinApp) -> None:
    await settle(pilot, app)
    text = "\n".join(painted_lines(app))
    assert "Game over" in text
    assert "Score over the game" in text
    result = app.screen.frame.result
    assert result is not None and result["summary"].split(":")[0].split(" ")[0] in text
    if app.screen.frame.view.get("solo"):  # Y16: the rival is in the results, and wins unless beaten
        rival_row = next(line for line in text.splitlines() if re.search(r"the rival +\d+ *$", line))
        assert rival_row.split()[-1] == str(result["reveal"]["rival"])
        assert ("Winner: the rival" in text) == (not result["winners"]) and "Nobody wins" not in text
    if "Coaches on the discard pile" not in text:  # at 80x24 the reveal is further down: scrolled to, as a player would
        app.screen.query_one("#results").scroll_end(animate=False)
        await settle(pilot, app)
        text = "\n".join(painted_lines(app))
    assert "Coaches on the discard pile" in text  # the reveal (A2) names the coaches, not their numbers
    await pilot.press("m")
    await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)


@pytest.mark.slow
@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["120x40", "80x24"])
async def test_a_whole_solo_game_by_keys(size):
    app = make_app(players=1, seed=21)
    async with app.run_test(size=size) as pilot:
        seen = await play_by_keys(pilot, app, narrow=size[0] < 110)
        assert seen["picks"] >= 5 and seen["robberies"] >= 1 and seen["towns"] >= 1 and seen["arrows"] >= 1
        await finish_at_results(pilot, app)


@pytest.mark.slow
@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["120x40", "80x24"])
async def test_a_whole_duel_by_keys(size):
    app = make_app(players=2, seed=8)
    async with app.run_test(size=size) as pilot:
        seen = await play_by_keys(pilot, app, narrow=size[0] < 110)
        assert seen["picks"] >= 5 and seen["robberies"] >= 1 and seen["towns"] >= 1
        if size == (120, 40):  # the results show every rider's final tracks, not the score alone
            from tests.tui_helpers import screen_text
            await until(lambda: "folk hero" in screen_text(app), "the tracks", pilot=pilot)
            shown = " ".join(screen_text(app).split())
            frame, panes = app.screen.frame, app.screen.panes
            names = [frame.owner_name(seat) + panes.result_note(frame, seat) for seat in range(2)]
            for seat, player in enumerate(frame.view["players"]):
                tracks = panes.final_tracks(frame, seat)
                if 2 + max(map(len, names)) + 9 + len(tracks) <= size[0] - 8:  # beside the score where it has room
                    assert f"folk hero {player['folk_hero']} · scoundrel {player['scoundrel']}" in shown, shown
            assert "folk hero" in shown
        await finish_at_results(pilot, app)


async def test_key_one_sends_the_best_robbery_and_the_board_reports_it():
    """Y7 through the app: the first-listed choice is the solver's best, and pressing 1 sends it."""
    app = make_app(players=1, seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: my_turn(app), "the first prompt", pilot=pilot)
        for _ in range(40):
            await until(lambda: my_turn(app) or screen_name(app) == "ResultsScreen", "a prompt", pilot=pilot)
            if screen_name(app) == "ResultsScreen":
                break
            frame = app.screen.frame
            if frame.view["phase"] != "rob":
                await pilot.press("1")
                await until(lambda: app.screen.frame.prompt is not frame.prompt, "the pick to go", pilot=pilot)
                continue
            best = mol_advice.ranked_robberies(frame)[0]
            robberies_before = len([e for e in frame.view["last"] if e["seat"] == 0])
            await pilot.press("1")
            await until(lambda: len([e for e in app.screen.frame.view["last"] if e["seat"] == 0])
                        > robberies_before or len(app.screen.frame.view["last"]) == 4
                        and app.screen.frame.view["round"] > frame.view["round"], "the robbery", pilot=pilot)
            mine = [e for e in app.screen.frame.view["last"] if e["seat"] == 0][-1]
            assert {key: mine[key] for key in best["outcome"]} == best["outcome"]
            await settle(pilot, app)
            assert "Latest robberies: you at" in region_text(app, "#board")
            return
        raise AssertionError("no robbery in this game")


async def test_the_dice_builder_sends_an_assignment_placed_die_by_die():
    """Y7 through the builder: Tab to it, place each die with s/w/c and arrows, Enter: the host gets
    that assignment (the second-best, so not merely the default) and the solver's outcome follows."""
    from tui.games.money_or_life.hand import YorkHand
    app = make_app(players=1, seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(40):
            await until(lambda: my_turn(app) or screen_name(app) == "ResultsScreen", "a prompt", pilot=pilot)
            assert screen_name(app) == "TableScreen", "no robbery with two ways in this game"
            frame = app.screen.frame
            ranked = mol_advice.ranked_robberies(frame)
            if frame.view["phase"] != "rob" or len(ranked) < 2:
                await pilot.press("1")
                await until(lambda: app.screen.frame.prompt is not frame.prompt, "the move to go", pilot=pilot)
                continue
            await settle(pilot, app)
            hand = flat(region_text(app, "#hand"))
            for die in frame.view["players"][0]["rob_dice"]:
                assert f"{UNICODE.die[die]}{die}" in hand, (die, hand)
            for _ in range(20):
                if isinstance(app.focused, YorkHand):
                    break
                await pilot.press("tab")
            assert isinstance(app.focused, YorkHand)
            wanted = ranked[1]
            left = {part: list(wanted["action"][part]) for part in ("speed", "wit", "combat")}
            for value in frame.view["players"][0]["rob_dice"]:
                part = next(p for p in left if value in left[p])
                left[part].remove(value)
                await pilot.press(part[0], "right")
            if wanted["action"]["spur"] != app.focused.plan.spur:
                await pilot.press("x")
            await settle(pilot, app)
            assert "←→ s w c x Enter" in region_text(app, "#hand") and "choice [" in flat(region_text(app, "#hand"))
            await pilot.press("enter")
            await until(lambda: app.screen.frame.prompt is not frame.prompt, "the robbery", pilot=pilot)
            await until(lambda: any(e["seat"] == 0 for e in app.screen.frame.view["last"])
                        and app.screen.frame.view["last"] != frame.view["last"], "the outcome", pilot=pilot)
            mine = [e for e in app.screen.frame.view["last"] if e["seat"] == 0][-1]
            assert {key: mine[key] for key in wanted["outcome"]} == wanted["outcome"]
            return
        raise AssertionError("no robbery with two ways in this game")


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_a_click_on_a_drawn_die_moves_it_on_and_the_outcome_follows(size):
    """The builder is drawn text in the hand: a click on a die puts it on the next place (speed → wit →
    combat), a click on the spur turns it on, and the solver's words under the dice follow each click.
    The robbery mounts no widget: the hand is the same pane before, during and after it."""
    app = make_app(players=1, seed=3)
    async with app.run_test(size=size) as pilot:
        await until(lambda: my_turn(app), "the table", pilot=pilot)
        hand = app.screen.query_one("#hand", mol_hand.YorkHand)
        await play_to_a_robbery(pilot, app)
        if size[0] < 110:
            await show_tab(pilot, app, "hand")
        await until(lambda: hand.offset_of("die:0") is not None, "the dice drawn", pilot=pilot)
        assert app.screen.query_one("#hand") is hand and not hand.children
        before = hand.plan.places[0]
        words = hand.shown.plain
        await pilot.click(hand, offset=hand.offset_of("die:0"))
        after = mol_advice.PARTS[(mol_advice.PARTS.index(before) + 1) % 3]
        await until(lambda: hand.plan.places[0] == after, "the die moved on", pilot=pilot)
        die = next(text for target, text in hand.parts() if target == "die:0")
        assert after in die, die
        expected = mol_advice.try_assignment(app.screen.frame, hand.plan.places, hand.plan.spur)[1].plain
        assert f"→ {expected}" in hand.shown.plain
        spur = hand.plan.spur
        await pilot.click(hand, offset=hand.offset_of("spur"))
        await until(lambda: hand.plan.spur != spur, "the spur turned", pilot=pilot)
        assert ("spur on" in hand.shown.plain) != spur and hand.shown.plain != words
        assert not app.screen.frame.sent, "a click on the dice only places them"


def test_the_builder_says_why_an_assignment_is_not_allowed():
    frame = _frame_at("rob")
    me = frame.view["players"][0]
    every_die_on_speed = ["speed"] * len(me["rob_dice"])
    action, words = mol_advice.try_assignment(frame, every_die_on_speed, False)
    targets = rules.shown_coach_targets(frame.view, me["pick"])
    if sum(me["rob_dice"]) - min(me["rob_dice"]) + rules.horse_bonus(me) >= targets["speed"]:
        assert action is None and "minimal set" in words.plain
    nothing_on_speed = ["wit"] * len(me["rob_dice"])
    action, words = mol_advice.try_assignment(frame, nothing_on_speed, False)
    if targets["speed"] > rules.horse_bonus(me):
        assert action is None and ("does not catch" in words.plain or "too fast" in words.plain)
    best = mol_advice.ranked_robberies(frame)[0]["action"]
    places = []
    left = {part: list(best[part]) for part in ("speed", "wit", "combat")}
    for value in me["rob_dice"]:
        part = next(p for p in left if value in left[p])
        left[part].remove(value)
        places.append(part)
    action, words = mol_advice.try_assignment(frame, places, best["spur"])
    assert action == best and "→" not in words.plain and words.plain
    if not best["spur"] and sum(best["speed"]) + rules.horse_bonus(me) >= targets["speed"]:
        action, words = mol_advice.try_assignment(frame, places, True)  # a spur these dice do not need (Y5)
        assert action is None and "no spur needed" in words.plain, words.plain


def test_the_builder_says_a_spur_is_not_needed_even_with_no_dice_on_speed():
    """Y5 in the builder: when the horse alone catches the coach, a spur with every die off speed is
    refused in words (the builder looked for a die to take off speed, and there was none)."""
    from core.games.money_or_life.solver import Assignment
    spurred = Assignment(True, (), (2,), (4,))
    assert spurred not in solver.assignments((2, 4), 5 - 6)
    words = mol_advice.why_not(spurred, [2, 4], speed=5, horse=6, glyphs=UNICODE)
    assert words.startswith("no spur needed: speed 6 catches the coach's 5")


# --- the hooks on their own (no app) ---------------------------------------------------------------------

def _frame_at(phase: str, players: int = 2, seed: int = 4, spectator: bool = False,
              also=lambda state: True) -> TableFrame:
    """A frame for seat 0 at the first ``phase`` (where ``also(state)`` holds) of a game where the normal
    bot plays every seat."""
    import random

    from core.registry import get_game
    game = get_game("money-or-life")
    state = game.setup(game.resolve_options({"players": players}), seed)
    rng = random.Random(seed)
    for _ in range(500):
        if state["phase"] == phase and 0 in game.pending(state) and also(state):
            break
        seat = game.pending(state)[0]
        game.apply(state, seat, game.bots["normal"](state, seat, rng))
    else:
        raise AssertionError(f"no {phase} phase for seat 0")
    choices = [{"action": action, "text": game.describe_action(state, 0, action)}
               for action in game.legal_actions(state, 0)]
    seat = None if spectator else 0
    return TableFrame(game="money-or-life", title=game.title, seat=seat, started=True, view=game.view(state, seat),
                      prompt=None if spectator else {"id": 1, "choices": choices},
                      seats=[{"seat": s, "name": f"P{s + 1}", "kind": "person", "connected": True}
                             for s in range(players)])


def test_a_click_on_a_coach_picks_that_coach_only():
    frame = _frame_at("pick")
    matches = [c["action"] for c in frame.choices if panes.choice_matches(c["action"], "where:E")]
    assert matches == [{"do": "pick", "where": "E"}]
    assert not any(panes.choice_matches(c["action"], "where:york") for c in frame.choices)


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_a_click_on_the_drawn_coach_or_tavern_sends_that_pick(size):
    """The board is drawn text: a click on the East coach (its name, or the blank end of its block) and on
    the tavern picks exactly those; the hovered block is lit and the words stay whole."""
    for target, where in (("where:E", "E"), ("where:tavern", "tavern")):
        app = make_app(players=2, seed=5)
        async with app.run_test(size=size) as pilot:
            await until(lambda: my_turn(app) and app.screen.frame.view["phase"] == "pick", "the pick", pilot=pilot)
            board = app.screen.query_one("#board", mol_board.YorkBoard)
            await until(lambda: board.offset_of(target) is not None, "the place drawn", pilot=pilot)
            coach = next(c for c in app.screen.frame.view["coaches"] if c["at"] == "E")
            east = " ".join(words.strip() for part, words in board.parts() if part == "where:E")
            assert coach["name"] in east and f"combat {coach['combat']}" in east, east
            await pilot.hover(board, offset=board.offset_of(target))
            await until(lambda: board.hovered == target, "the block lit under the mouse", pilot=pilot)
            said = len(app.screen.frame.log)
            await pilot.click(board, offset=board.offset_of(target))
            await until(lambda: app.screen.frame.sent or app.screen.frame.view.get("my_pick"), "sent", pilot=pilot)
            await until(lambda: app.screen.frame.view.get("my_pick") == where,
                        f"my pick to be {where} (log: {app.screen.frame.log[said:]})", pilot=pilot)


def test_robbery_labels_carry_the_solvers_outcome_and_order_puts_the_best_first():
    frame = _frame_at("rob")
    ranked = mol_advice.ranked_robberies(frame)
    order = mol_advice.choice_order(frame)
    assert sorted(order) == list(range(len(frame.choices)))
    assert order[:len(ranked)] == [entry["index"] for entry in ranked]
    options = rules.robbery_options(frame.view)
    for entry in ranked:
        label = panes.choice_label(frame, frame.choices[entry["index"]]).plain
        assert "→" in label and "speed" in label
        assert entry["outcome"] in [option["outcome"] for option in options]
        # A click on the chip of this assignment picks exactly it.
        target = f"assign:{mol_advice.assignment_key(entry['action'])}"
        assert [c["action"] for c in frame.choices if panes.choice_matches(c["action"], target)] == [entry["action"]]
    assert "★ suggested" in panes.choice_label(frame, frame.choices[ranked[0]["index"]]).plain


def test_a_shared_coach_line_says_the_robbery_alone_and_together_and_why_the_star_is_there():
    """Y8: on a shared coach each line tells the robbery alone (the partner misses the speed)
    and together, pooled as the rules pool it with the share the normal bot would take in the partner's
    place (his dice, gear and tracks are public); the star says it weighs every way he may share."""
    from core.games.money_or_life import reckoning
    frame = _frame_at("rob", seed=0, also=lambda state: state["picks"][0] == state["picks"][1])
    ranked = mol_advice.ranked_robberies(frame)
    assert ranked and all(entry["shared"] for entry in ranked)
    view = frame.view
    partner_seat = 1
    partner_player = view["players"][partner_seat]
    targets = rules.shown_coach_targets(view, partner_player["pick"])
    his = solver.choices(partner_player["rob_dice"], targets["speed"], rules.horse_bonus(partner_player))
    value = reckoning.shared_robbery_values(view, partner_seat)
    likely = max(his, key=lambda choice: value(choice.as_action()))
    me = view["players"][0]
    bonuses = ([rules.horse_bonus(p) for p in (me, partner_player)], [rules.wit_bonus(p) for p in (me, partner_player)],
               [rules.combat_bonus(p) for p in (me, partner_player)])
    for entry in ranked:
        mine = solver.Assignment.from_action(entry["action"])
        pooled = solver.joint_outcomes(mine, likely, targets["speed"], targets["wit"], targets["combat"],
                                       targets["money"], *bonuses)[0].as_dict()
        assert entry["together"] == pooled
        label = panes.choice_label(frame, frame.choices[entry["index"]]).plain
        alone = mol_advice.outcome_text(entry["outcome"], UNICODE, me, alone=True).plain
        together = mol_advice.outcome_text(pooled, UNICODE, me, alone=True, together=True).plain
        assert f"→ alone: {alone} · together: {together}" in label, label
    best = panes.choice_label(frame, frame.choices[ranked[0]["index"]]).plain
    assert best.endswith(f"★ suggested (best on average over his {len(his)} ways to share his dice)"), best
    partner = frame.name(1).split(" (")[0]
    half = mol_common.money(mol_common.coach_at(view, me["pick"])["money"] // 2, UNICODE)
    assert panes.prompt_title(frame).endswith(
        f"(shared with {partner}: each line alone, and together if he shares his dice as the normal bot would: "
        f"wit and combat pool, {half} each)")


def test_a_lone_robberys_star_says_what_it_weighs():
    frame = _frame_at("rob", also=lambda state: state["picks"][0] != state["picks"][1])
    ranked = mol_advice.ranked_robberies(frame)
    assert not ranked[0]["shared"]
    best = panes.choice_label(frame, frame.choices[ranked[0]["index"]]).plain
    assert best.endswith(("★ suggested (counts health and guards too)",
                          "★ suggested (the most score for what it costs)"))
    assert " · together: " not in best


def test_picking_a_coach_shows_the_worst_robbery_it_leaves_you():
    """Health 8 against a coach whose combat of 8 no roll of the two dice to come can meet:
    the coach's line says "worst: −8 health; you have 8" before the pick is made (Y7: two more dice
    alone; a stat still to roll counts at its highest)."""
    frame = _frame_at("pick")
    view = frame.view
    me = view["players"][0]
    view["my_dice"] = [1, 1]
    coach = mol_common.coach_at(view, "N")
    coach.update(speed=4, wit=30, combat=8, guards=0)
    me.update(health=8, scoundrel=0, horse=None, weapons=[], gear=[])
    label = panes.choice_label(frame, {"action": {"do": "pick", "where": "N"}, "text": "Rob the coach to the North"})
    # At the worst roll (1, 1, 1, 1) every die must go to speed: the whole combat of 8 is lost in health.
    assert mol_advice.worst_robbery(view, me, "N") == -8
    assert label.plain.endswith("· worst: −8 health; you have 8"), label.plain
    assert any(span.style == "bold" for span in label.spans if label.plain[span.start:].startswith(" · worst"))
    coach.update(combat=4)
    label = panes.choice_label(frame, {"action": {"do": "pick", "where": "N"}, "text": "Rob the coach to the North"})
    assert label.plain.endswith("· worst −4 health"), "not deadly: the health you have is not repeated"
    coach.update(speed=1, combat=1, wit=1)
    label = panes.choice_label(frame, {"action": {"do": "pick", "where": "N"}, "text": "Rob the coach to the North"})
    assert "worst" not in label.plain, "no roll costs health: nothing to warn of"
    assert label.plain.endswith("· no risk"), "said, for a newcomer"


def test_on_a_shared_coach_the_suggestion_is_the_normal_bots_pooled_choice_and_a_death_is_alone():
    """Y8: on a shared coach the star goes to the best pooled line (the partner's public dice and gear
    counted), not the best line alone; and "YOU WOULD DIE" is never said of a line whose pooled robbery
    does not kill."""
    from core.games.money_or_life import bots
    for seed in range(6):
        frame = _frame_at("rob", seed=seed, also=lambda state: state["picks"][0] == state["picks"][1])
        ranked = mol_advice.ranked_robberies(frame)
        legal = [choice["action"] for choice in frame.choices]
        assert ranked[0]["action"] == bots.choose_assignment(frame.view, frame.view["you"], legal)
        label = panes.choice_label(frame, frame.choices[ranked[0]["index"]]).plain
        assert "→ alone: " in label and "★ suggested" in label
    outcome = {"speed_met": True, "spur": False, "wit_met": False, "combat_met": False, "folk_hero": 0,
               "scoundrel": 0, "health": -6, "money": 0}
    me = {"health": 4, "folk_hero": 0, "scoundrel": 0}
    assert mol_advice.outcome_text(outcome, UNICODE, me).plain.endswith("YOU WOULD DIE")
    assert mol_advice.outcome_text(outcome, UNICODE, me, alone=True).plain.endswith("you would die alone")
    # The dice in the hand say the same of the same line as the list does ("alone", not "YOU WOULD DIE")
    frame = _frame_at("rob", seed=0, also=lambda state: state["picks"][0] == state["picks"][1])
    best = mol_advice.ranked_robberies(frame)[0]["action"]
    places, left = [], {part: list(best[part]) for part in ("speed", "wit", "combat")}
    for value in frame.view["players"][0]["rob_dice"]:
        part = next(p for p in left if value in left[p])
        left[part].remove(value)
        places.append(part)
    action, words = mol_advice.try_assignment(frame, places, best["spur"])
    assert action == best and words.plain.startswith("alone: ") and "YOU WOULD DIE" not in words.plain


def test_a_robbery_line_leaves_out_a_track_that_does_not_move():
    """"scoundrel +0" was on nearly every line of the move list: only what changes is said."""
    outcome = {"speed_met": True, "spur": False, "wit_met": True, "combat_met": True, "folk_hero": 2,
               "scoundrel": 0, "health": 0, "money": 5}
    assert mol_advice.outcome_text(outcome, UNICODE, None).plain == "£5, folk hero +2"
    assert mol_advice.outcome_text({**outcome, "folk_hero": 0, "scoundrel": 3}, UNICODE,
                                   None).plain == "£5, scoundrel +3"


def test_latest_robberies_say_a_loss_stopped_at_nothing():
    """Y2 on the board and the hand: a robbery's entry keeps the folk hero its robber had, so a loss of 6
    from 2 reads "(to 0)" there as in the move list and the log."""
    entry = {"speed_met": True, "spur": False, "wit_met": False, "combat_met": True, "folk_hero": -6,
             "scoundrel": 1, "health": 0, "money": 4, "folk_hero_was": 2}
    assert mol_advice.outcome_text(entry, UNICODE, None).plain == "£4, folk hero −6 (to 0), scoundrel +1"
    assert "(to 0)" not in mol_advice.outcome_text({**entry, "folk_hero_was": 6}, UNICODE, None).plain
    got_away = {**entry, "speed_met": False, "folk_hero": -1, "folk_hero_was": 0}
    assert mol_advice.outcome_text(got_away, UNICODE, None).plain == "the coach gets away"


def test_a_loss_from_a_track_at_nothing_is_not_said():
    """Y2: a folk hero at 0 loses nothing, so "folk hero −3 (to 0)" on a robbery from 0 would read as a
    loss that is not one; the line leaves it out, as it does a track that does not move."""
    outcome = {"speed_met": True, "spur": False, "wit_met": False, "combat_met": True, "folk_hero": -3,
               "scoundrel": 1, "health": 0, "money": 2}
    at_nothing = {"folk_hero": 0, "scoundrel": 4, "health": 9}
    assert mol_advice.outcome_text(outcome, UNICODE, at_nothing).plain == "£2, scoundrel +1"
    some = {**at_nothing, "folk_hero": 1}
    assert mol_advice.outcome_text(outcome, UNICODE, some).plain == "£2, folk hero −3 (to 0), scoundrel +1"
    missed = {**outcome, "speed_met": False, "folk_hero": -1}
    assert mol_advice.outcome_text(missed, UNICODE, some).plain == "the coach gets away: folk hero −1"


def test_outcomes_in_words_and_death_said_plainly():
    caught = {"speed_met": True, "spur": True, "wit_met": True, "combat_met": False, "folk_hero": 2,
              "scoundrel": 0, "health": -4, "money": 7}
    me = {"health": 3}
    text = mol_advice.outcome_text(caught, UNICODE, me).plain
    assert text.startswith("£7, folk hero +2, health −4, tavern next round") and "YOU WOULD DIE" in text  # Y5
    assert "tavern" not in mol_advice.outcome_text({**caught, "spur": False}, UNICODE, me).plain
    missed = {**caught, "speed_met": False}
    assert mol_advice.outcome_text(missed, ASCII, None).plain == \
        "the coach gets away: folk hero −1, health −1 and tavern next round (spur)"
    assert mol_common.money(7, ASCII) == "7 gn" and mol_common.dice([3, 5], ASCII) == "d3 d5"


def test_the_reveal_names_picks_in_words():
    assert [panes.reveal_item(v) for v in ("E", "retire", "tavern", 4)] == ["East", "retire", "tavern", "4"]


def test_the_reveal_says_which_coaches_are_still_in_the_pile_after_a_reshuffle():
    """A2, Y12: once the pile runs out the discards are shuffled into a new one, so the coaches left face
    down at the end were most likely dealt before (a coach robbed in round 5, say). The reveal says what
    they are, the pile, next first, not "Coaches never dealt"."""
    import random

    from core.registry import get_game
    game = get_game("money-or-life")
    state = game.setup(game.resolve_options({"players": 2}), 5)
    rng = random.Random(5)
    dealt: set[int] = set()
    while game.pending(state):
        dealt.update(state["coaches"])
        seat = game.pending(state)[0]
        game.apply(state, seat, game.bots["normal"](state, seat, rng))
    reveal = game.result(state)["reveal"]
    assert set(reveal["deck"]) & dealt, "a pile of coaches dealt before (a reshuffle happened)"
    text = panes.reveal_text(reveal, _frame_at("pick")).plain
    assert "never dealt" not in text
    in_pile = text.split("Coaches still in the pile, next first: ")[1].split("\n")[0]
    assert in_pile == "; ".join(rules.COACHES[card][0] for card in reversed(state["deck"]))


def test_a_scoundrel_picking_where_to_ride_is_told_his_own_guards_will_be_there():
    """Y6: a scoundrel's guards follow him wherever he picks, which is certain when he picks; at a coach each
    adds 5 to its combat, in town he fights them first (Y9). The pick's labels say it before the pick is
    made, not only the sheet; without guards they say nothing of it."""
    frame = _frame_at("pick", players=1, seed=39, also=lambda state: state["players"][0]["scoundrel"] >= 5)
    labels = {choice["action"]["where"]: panes.choice_label(frame, choice).plain
              for choice in frame.prompt["choices"] if choice["action"].get("do") == "pick"}
    north = mol_common.coach_at(mol_common.view_of(frame), "N")
    assert labels["N"].endswith(f"· a guard on your trail: combat {north['combat'] + 5} ({north['combat']} + 5)")
    assert labels["tavern"].endswith("· a guard on your trail waits: d6 + weapons against 5")
    calm = _frame_at("pick", players=1, seed=39)
    assert all("trail" not in panes.choice_label(calm, choice).plain for choice in calm.prompt["choices"])


def test_hooks_for_the_shared_screens():
    frame = _frame_at("pick")
    assert panes.status(frame).startswith("Round 1 of 16 · pick where to ride")
    assert panes.seat_summary(frame, 1) == "£0 · score 0"
    assert panes.laid(frame, 0) is False
    assert panes.score_track(frame.view) == [0.0, 0.0]
    # The secret dice beside the question: at 80 columns the hand that shows them is another tab.
    assert panes.prompt_title(frame) == (f"your dice {mol_common.dice(frame.view['my_dice'], UNICODE)}: where do you "
                                         "ride? (secret until the reveal)")
    robbing = _frame_at("rob")
    assert panes.laid(robbing, 0) is None
    assert "against" in panes.prompt_title(robbing)


def test_a_spectators_frame_draws_without_a_hand():
    """A spectator's view has no ``my_dice`` and no seat: the hooks and the sheets still draw (A1 holds:
    nothing secret is in that view to draw)."""
    spectator = _frame_at("pick", spectator=True)
    assert "my_dice" not in spectator.view
    assert mol_advice.ranked_robberies(spectator) == [] and mol_advice.choice_order(spectator) is None
    assert panes.prompt_title(spectator).startswith("where do you ride")
    assert "your dice" not in panes.prompt_title(spectator)
    sheet = mol_sheet.YorkSheet().draw(spectator)
    from rich.console import Console
    console = Console(width=80, record=True)
    console.print(sheet)
    text = console.export_text()
    assert "P1" in text and "P2" in text and "12 of 12" in text


async def test_with_ascii_glyphs_the_players_and_the_move_list_write_money_in_ascii():
    """--ascii reaches the game's hooks through the frame: guineas as "gn", never "£", in every pane."""
    app = make_app(players=2, seed=4)
    app.glyphs = ASCII
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: my_turn(app), "the first prompt", pilot=pilot)
        await settle(pilot, app)
        assert app.screen.frame.glyphs is ASCII
        players = region_text(app, "#players")
        assert " gn" in players and "£" not in players
        moves = region_text(app, "#move")
        assert "£" not in moves and "gn" in moves


def test_the_latest_robberies_are_each_riders_latest_once():
    """The board's news line: one robbery a rider, his latest, in the order they happened (the view keeps
    the last four robberies of the game, which may hold a rider twice)."""
    frame = _frame_at("pick", also=lambda state: len(state["last"]) >= 3)
    first, second, third = ({**entry} for entry in frame.view["last"][-3:])
    first["seat"], second["seat"], third["seat"] = 1, 0, 1
    frame.view["last"] = [first, second, third]
    assert mol_board.latest_each(frame.view["last"]) == [second, third]
    board = mol_board.YorkBoard()
    news = board._latest(frame).plain
    assert news.count("P2 at") == 1 and news.index("you at") < news.index("P2 at")
    # One from a round before the newest robbery says which, lest it read as this round's news, and then
    # every line says its round (a line of round 2 under "you at East in round 1" would read as round 1's).
    second["round"], third["round"] = 2, 4
    news = board._latest(frame).plain
    assert " in round 2: " in news and " in round 4: " in news
    second["round"] = 4
    assert " in round" not in board._latest(frame).plain  # all this round's: no need to say


def test_a_market_offer_says_what_the_stat_gains_net_of_what_is_traded_in():
    """Y10: a rifle in place of a pistol is combat +1 in all (not "combat +6"), as its price is net of the
    trade-in; the market says what food costs in words, as the tavern does."""
    frame = _frame_at("pick")
    me = frame.view["players"][frame.view["you"]]
    me.update(weapons=["pistol"], guineas=40, pick="market")
    pistol, rifle = rules.ITEMS["pistol"][2], rules.ITEMS["rifle"][2]
    label = panes.choice_label(frame, {"action": {"do": "buy", "item": "rifle"}}).plain
    assert f"combat +{rifle - pistol} (+{rifle} in place of +{pistol})" in label, label
    dagger = panes.choice_label(frame, {"action": {"do": "buy", "item": "dagger"}}).plain
    assert dagger.endswith(f"combat +{rules.ITEMS['dagger'][2]}"), dagger
    market = panes.choice_label(frame, {"action": {"do": "pick", "where": "market"}}).plain
    assert f"food at {rules.HEAL_PRICE['market']} guineas a point" in market


def test_the_town_guards_line_says_what_was_rolled_and_how_many_follow_scoundrels():
    """Y6 on the board: the random guards' rolls and the scoundrels' guards, on one line (where each
    stands is said at its coach or place)."""
    frame = _frame_at("pick")
    board = mol_board.YorkBoard()
    view = {**frame.view, "revealed": True, "guard_rolls": [6, 1], "guards": {"market": 1, "N": 3, "S": 0}}
    assert board._guards(view).plain == "Town guards: rolled ⚅6 the market, ⚀1 North; 2 guards follow scoundrels"
    only_hunting = {**view, "guard_rolls": [], "guards": {"tavern": 2}}
    assert board._guards(only_hunting).plain == "Town guards: 2 guards follow scoundrels"
    one = {**view, "guard_rolls": [], "guards": {"tavern": 1}}  # not "1 hunting scoundrels", read as a scoundrel
    assert board._guards(one).plain == "Town guards: 1 guard follows a scoundrel"
    assert board._guards({**view, "guard_rolls": [], "guards": {}}).plain == "Town guards: none this round"
    assert "once the picks are revealed" in board._guards({**view, "revealed": False}).plain


async def test_on_a_narrow_terminal_one_tab_takes_the_keys_from_the_moves_to_the_dice_builder():
    """At 80×24 the panes are tabs turned by [ and ]: the tab strip takes no focus, so in a robbery the
    hand's "Tab: place the dice" is one key away, and Tab again goes back to the move list."""
    from tui.widgets.choices import ChoiceList
    app = make_app(players=1, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_a_robbery(pilot, app)
        await show_tab(pilot, app, "hand")
        assert "Tab: place the dice" in flat(region_text(app, "#hand"))
        assert isinstance(app.focused, ChoiceList)
        await pilot.press("tab")
        assert isinstance(app.focused, mol_hand.YorkHand)
        await pilot.press("tab")
        assert isinstance(app.focused, ChoiceList)


def test_a_coachs_stats_break_between_stats_never_inside_one():
    """In a narrow coach block "combat 3+d6" stays on one line: a line ending in "combat" and the next
    starting "3+d6" read as two things."""
    from tui.games.money_or_life.board import coach_stat_parts, lines_of_parts

    coach = {"speed": 9, "wit": "5+d6", "combat": "3+d6", "guards": 0}
    assert lines_of_parts(coach_stat_parts(coach), 40) == ["speed 9 · wit 5+d6 · combat 3+d6"]
    assert lines_of_parts(coach_stat_parts(coach), 28) == ["speed 9 · wit 5+d6", "combat 3+d6"]
    assert lines_of_parts(coach_stat_parts(coach), 12) == ["speed 9", "wit 5+d6", "combat 3+d6"]
    guarded = dict(coach, combat=7, guards=2)  # Y6: a guard adds 5
    assert lines_of_parts(coach_stat_parts(guarded), 28) == ["speed 9 · wit 5+d6", "combat 7 + 2 guards = 17"]


def test_the_results_chart_puts_every_seat_on_one_scale():
    """Three seats that end on 17 end on the same bar, and a 9 is lower than a 73 (each row on its own
    scale drew them alike)."""
    from tui.glyphs import ASCII, UNICODE
    from tui.widgets.chart import bars

    series = [[15, 16, 17], [15, 14, 17], [15, 20, 17], [9, 9, 9], [73, 73, 73]]
    low, high = 9, 73
    drawn = [bars(points, 10, low, high, UNICODE.bars) for points in series]
    assert len({line[-1] for line in drawn[:3]}) == 1
    assert drawn[3][-1] == UNICODE.bars[0] and drawn[4][-1] == UNICODE.bars[-1]
    rising = bars(list(range(100)), 10, 0, 99, ASCII.bars)  # a hundred moves in ten columns
    assert len(rising) == 10 and rising[-1] == "#" and list(rising) == sorted(rising, key=ASCII.bars.index)
    assert bars([5], 4, 5, 5, ASCII.bars) == "____"  # one move, nothing to scale: the lowest bar, all across
    assert bars([0, 6], 4, 0, 6, ASCII.bars) == "__##"  # a short game is stretched over the width


async def test_retiring_is_asked_about_before_it_ends_your_game():
    """Y14: "Retire" ends your game for good, so its key asks first: Esc rides on (the prompt is still
    yours), Enter retires."""
    app = make_app(players=2, seed=8)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: my_turn(app) and app.screen.frame.view["phase"] == "pick", "a pick", pilot=pilot)
        await settle(pilot, app)
        table, frame = app.screen, app.screen.frame
        retire = next(index for index, choice in enumerate(frame.choices)
                      if choice["action"] == {"do": "pick", "where": "retire"})
        app.screen.query_one("MovePane").choose(retire)
        await until(lambda: screen_name(app) == "ConfirmScreen", "the question", pilot=pilot)
        await until(lambda: "Retire from the road?" in "\n".join(painted_lines(app)), "the words", pilot=pilot)
        await pilot.press("escape")
        await until(lambda: app.screen is table, "the table", pilot=pilot)
        assert not table.frame.sent and table.frame.choices and table.frame.view["you"] == 0
        assert not table.frame.view["players"][0].get("pick")
        app.screen.query_one("MovePane").choose(retire)
        await until(lambda: screen_name(app) == "ConfirmScreen", "the question again", pilot=pilot)
        await pilot.press("enter")
        await until(lambda: app.screen is table and table.frame.view["players"][0].get("status") == "retired"
                    or screen_name(app) == "ResultsScreen", "retired", pilot=pilot)


def test_the_market_says_what_your_purse_cannot_reach():
    """Y10's market lists only what you can buy as moves; the hand names the rest with its price (the
    cheapest way to it, trade-ins counted), so a poor highwayman still sees what is for sale."""
    frame = _frame_at("town", seed=1, also=lambda state: state["picks"][0] == "market")
    me = mol_common.my_player(frame.view)
    shown = " ".join(line.plain for line in mol_hand.YorkHand().draw(frame))
    offered = {str(c["action"]["item"]) for c in frame.choices if c["action"].get("do") == "buy"}
    cheapest: dict[str, int] = {}
    for offer, price in rules.purchases(me):
        cheapest[offer["item"]] = min(price, cheapest.get(offer["item"], price))
    beyond = [item for item, price in cheapest.items() if price > me["guineas"]]
    assert beyond and offered, "the case means something: some items in reach, some not"
    assert f"Beyond your £{me['guineas']}:" in shown
    for item in beyond:
        assert f"{rules.item_name(item)} £{cheapest[item]}" in shown
    for item in offered:
        assert rules.item_name(item) not in shown.split("Beyond")[1]


async def test_dice_placed_by_hand_survive_a_resize_into_tabs_and_back():
    """A resize across the fold moves the same panes into tabs and back (classes, not a
    rebuild): the dice you placed and the spur stay, and Enter sends what you set up (Y7), not the
    solver's default."""
    app = make_app(players=1, seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        await play_to_a_robbery(pilot, app)
        frame = app.screen.frame
        hand = app.screen.query_one(mol_hand.YorkHand)
        for _ in range(20):
            if app.focused is hand:
                break
            await pilot.press("tab")
        before, spur = list(hand.plan.places), not hand.plan.spur
        assert len(before) >= 2
        await pilot.press("w", "right", "c", "x")  # the first die on wit, the second on combat, the spur
        placed = ["wit", "combat", *before[2:]]
        assert hand.plan.places == placed and hand.plan.spur == spur
        await pilot.resize_terminal(80, 24)
        await until(lambda: app.screen.narrow, "the table folded into tabs", pilot=pilot)
        assert app.screen.query_one(mol_hand.YorkHand) is hand
        await pilot.resize_terminal(120, 40)
        await until(lambda: not app.screen.narrow and hand.region.width > 0,
                    "the table laid out wide again", pilot=pilot)
        await settle(pilot, app)
        again = app.screen.query_one(mol_hand.YorkHand)
        assert again.plan is not None and again.plan.places == placed and again.plan.spur == spur
        assert app.screen.frame.prompt["id"] == frame.prompt["id"]
        shown = flat(region_text(app, "#hand"))
        assert "spur on" in shown if spur else "spur off" in shown


async def test_playing_as_a_scoundrel_is_asked_about_before_it_is_declared():
    """Y13: the declaration is public and for good, and it sits in every move list, so its key asks first
    (a stray key in the pick list declared it): Esc keeps the folk hero's scoring, y declares."""
    app = make_app(players=2, seed=8)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: my_turn(app) and app.screen.frame.view["phase"] == "pick", "a pick", pilot=pilot)
        await settle(pilot, app)
        table, frame = app.screen, app.screen.frame
        declare = next(index for index, choice in enumerate(frame.choices)
                       if choice["action"] == {"do": "play_as_scoundrel"})
        assert "for good; your score stays 0 for now" in panes.choice_label(frame, frame.choices[declare]).plain
        table.query_one("MovePane").choose(declare)
        await until(lambda: screen_name(app) == "ConfirmScreen", "the question", pilot=pilot)
        await pilot.press("escape")
        await until(lambda: app.screen is table, "the table", pilot=pilot)
        assert not table.frame.sent and not table.frame.view["players"][0]["as_scoundrel"]
        table.query_one("MovePane").choose(declare)
        await until(lambda: screen_name(app) == "ConfirmScreen", "the question again", pilot=pilot)
        await until(lambda: "Play as a scoundrel for the rest of the game?" in "\n".join(painted_lines(app)),
                    "the question's words", pilot=pilot)
        await pilot.press("y")
        await until(lambda: app.screen is table and table.frame.view["players"][0]["as_scoundrel"],
                    "declared", pilot=pilot)


def test_the_scoundrel_label_says_what_the_score_would_become():
    """Y13 with a score below 0 written as a person writes it (−3, not -3)."""
    me = {"guineas": 2, "folk_hero": 0, "scoundrel": 5, "as_scoundrel": False, "score": -3}
    assert panes.scoundrel_score_in_words(me) == "you would score 7 (now −3)"
    assert panes.scoundrel_score_in_words({**me, "scoundrel": 0, "score": 2}) == "your score stays 2 for now"


async def test_two_riders_on_one_coach_keep_its_head_to_one_line():
    """"North · £4 ▶ you, Moll Cutpurse" must not wrap in the compass: the board keeps its tallest height,
    and would stay a line taller for the game above a move list that scrolls. The riders are cut short
    instead, the coach's name on the next line."""
    app = make_app(players=2, seed=6)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: my_turn(app) and app.screen.frame.view["phase"] == "pick", "a pick", pilot=pilot)
        await pilot.press("1")  # North, where this seed's bot rides too
        await until(lambda: app.screen.frame.view["phase"] == "rob", "the reveal", pilot=pilot)
        view = app.screen.frame.view
        assert [p["pick"] for p in view["players"]] == ["N", "N"], "the case means something: both at North"
        await settle(pilot, app)
        rows = region_text(app, "#board").splitlines()
        head = next(number for number, row in enumerate(rows) if "North ·" in row)
        assert "▶ you, Moll" in rows[head]
        assert mol_common.coach_at(view, "N")["name"] in rows[head + 1]


def test_the_suggested_robbery_says_what_it_weighs_when_another_scores_more_now():
    """The suggestion (the normal bot's valuation) also weighs the guard that 5 folk hero brings, and
    health, so "★ best" may sit beside folk hero +4 while the next line gives +5. Where another line adds
    more to the score now, the suggested one says so; in ASCII its star is "*", not "?"."""
    for seed in range(60):
        frame = _frame_at("rob", seed=seed)
        ranked = mol_advice.ranked_robberies(frame)
        me = mol_common.my_player(frame.view)
        from core.games.money_or_life import reckoning
        alone = not reckoning.robbery_partners(frame.view, frame.seat)  # a shared robbery's star says why otherwise
        if alone and ranked and any(mol_advice.score_change(entry["outcome"], me)
                                    > mol_advice.score_change(ranked[0]["outcome"], me) for entry in ranked):
            break
    else:
        raise AssertionError("no robbery where the suggestion scores less now")
    top = frame.choices[ranked[0]["index"]]
    assert panes.choice_label(frame, top).plain.endswith(
        "★ suggested (counts health and guards too)")
    ascii_frame = TableFrame(**{**frame.__dict__, "glyphs": ASCII})
    assert "* suggested" in panes.choice_label(ascii_frame, top).plain


def test_the_results_say_who_died_or_retired_beside_the_score():
    """Y11, Y14: a rider who died, or retired, says so beside his name ("★ the rival 0 / root 12" after
    dying in solo would read as 12 beaten by 0)."""
    frame = _frame_at("pick")
    frame.view["players"][0]["status"] = "dead"
    frame.view["players"][1]["status"] = "retired"
    assert [panes.result_note(frame, seat) for seat in (0, 1)] == [" (died)", " (retired)"]
    frame.view["players"][0]["status"] = "riding"
    assert panes.result_note(frame, 0) == ""


def test_when_both_hang_the_results_give_the_reputation_that_decided():
    """Y11/Y13: with both dead the reputation decides, and each row says it ("★ bob (died) 3 / Hank (died)
    5" alone would read as a wrong result)."""
    frame = _frame_at("pick")
    for player, (folk, scoundrel) in zip(frame.view["players"], ((0, 0), (1, 2))):
        player.update(status="dead", folk_hero=folk, scoundrel=scoundrel, as_scoundrel=False)
    assert [panes.result_note(frame, seat) for seat in (0, 1)] == [" (died, reputation 0)",
                                                                  " (died, reputation −1)"]


def test_a_spur_in_the_last_round_costs_no_tavern_that_will_never_come():
    """Y5 with Y12: after the last round there is no next one to rest in: no "tavern next round" in the
    last round."""
    spurred = {"speed_met": True, "spur": True, "wit_met": True, "combat_met": False, "folk_hero": 1,
               "scoundrel": 0, "health": -1, "money": 3}
    assert mol_advice.outcome_text(spurred, UNICODE, None).plain.endswith("tavern next round")
    assert "tavern" not in mol_advice.outcome_text(spurred, UNICODE, None, last_round=True).plain
    missed = {**spurred, "speed_met": False}
    assert mol_advice.outcome_text(missed, UNICODE, None, last_round=True).plain == \
        "the coach gets away: folk hero −1, health −1 (spur)"


def test_retiring_says_who_rides_on_solo_or_against_another():
    """Y14, Y16: solo, "the others play on without you" named nobody; the rival rides on alone."""
    retire = {"do": "pick", "where": "retire"}
    solo = panes.confirm_choice(_frame_at("pick", players=1), retire)
    assert "the rival rides on alone to the last round" in solo[1]
    duel = panes.confirm_choice(_frame_at("pick"), retire)
    assert "the other player rides on without you" in duel[1]


@pytest.mark.parametrize("size, rows", [((80, 24), 8), ((80, 40), 11), ((120, 40), 11), ((120, 52), 14)])
async def test_the_move_pane_grows_with_a_tall_terminal(size, rows):
    """The move pane takes a share of the terminal's height (never less than at 80×24): at 80×40 the
    market's twelve lines must not scroll in five rows under a sheet with thirteen empty rows."""
    from tests.tui_helpers import quick_app, screen_name
    app = quick_app("money-or-life", players=1)
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=size) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices),
                    "the first move", pilot=pilot)
        await until(lambda: app.screen.query_one("#move").outer_size.height == rows, f"a move pane {rows} rows high",
                    pilot=pilot)


async def test_key_0_picks_the_tenth_choice_listed():
    """A robbery offers more than nine ways to share the dice: the tenth is listed as [0], and 0 sends it;
    the eleventh is [a] (every choice has a key)."""
    app = make_app(players=1, seed=39)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(40):  # key 1 until a prompt lists more than ten choices
            await until(lambda: my_turn(app), "a prompt", pilot=pilot)
            frame = app.screen.frame
            listed = [label.plain for label in app.screen.query_one("#move-choices")._labels]
            if len(listed) > 10:
                break
            await pilot.press("1")
            await until(lambda: app.screen.frame.prompt is not frame.prompt, "the move to go", pilot=pilot)
        assert len(listed) > 10, "no prompt of more than ten choices"
        assert listed[9].startswith("[0] ") and listed[10].startswith("[a] ")
        from tui.widgets.prompt import MovePane
        tenth = app.screen.query_one(MovePane)._order[9]
        client = app.screen.client
        sent, send = [], client.send

        async def send_and_note(message):  # a spy: the message still goes to the table
            sent.append(message)
            await send(message)

        client.send = send_and_note
        await pilot.press("0")
        await until(lambda: sent, "the move to go", pilot=pilot)
        assert [message["action"] for message in sent] == [frame.choices[tenth]["action"]]


def test_the_players_pane_keeps_its_columns_when_a_rider_is_dead():
    """A shorter summary is filled at its end, so each column stands under its own: never "root (you)  £34
    score 33     dead" above "Moll Cutpu…          £14 score 23"."""
    from rich.console import Console

    from tui.widgets.players import PlayersPane
    frame = _frame_at("pick")
    frame.view["players"][0]["status"] = "dead"
    console = Console(width=60, record=True, color_system=None)
    console.print(PlayersPane(panes).draw(frame))
    rows = [line for line in console.export_text().splitlines() if "score" in line]
    assert len(rows) == 2 and "dead" in rows[0]
    assert rows[0].index("£") == rows[1].index("£") and rows[0].index("score") == rows[1].index("score"), rows


def test_the_solo_score_track_has_the_rival_after_the_seats():
    """Y16: the rival's money is his score, so the results chart tracks it beside the player's."""
    frame = _frame_at("pick", players=1, seed=39)
    frame.view["rival"] = 7
    assert panes.score_track(frame.view) == [float(frame.view["players"][0]["score"]), 7.0]
    duel = _frame_at("pick")
    assert len(panes.score_track(duel.view)) == 2 and not duel.view["solo"]


async def test_the_solo_results_chart_has_a_row_for_the_rival():
    """The solo chart left the rival out; he has a row of his own, named, ending on his money."""
    from tests.tui_helpers import play_to_results, quick_app
    app = quick_app("money-or-life", players=1, seed=5, rounds=5)
    async with app.run_test(size=(120, 40)) as pilot:
        await play_to_results(pilot, app)
        await until(lambda: bool(app.screen.query(".chart-name")), "the chart", pilot=pilot)
        names = [str(label.render()).strip() for label in app.screen.query(".chart-name")]
        lasts = [str(label.render()).strip() for label in app.screen.query(".chart-last")]
        rival = app.screen.frame.result["reveal"]["rival"]
        assert names == ["Ann", "the rival"], names
        assert lasts[1] == f"{rival:g}", lasts


def test_the_pick_warns_when_your_dice_cannot_win_a_coach():
    """A coach whose wit of 30 no roll of the two dice to come can meet (Y7) takes nothing
    whatever comes: the pick says so before you ride, not the robbery after."""
    frame = _frame_at("pick")
    view = frame.view
    me = view["players"][0]
    view["my_dice"] = [1, 1]
    coach = mol_common.coach_at(view, "N")
    coach.update(speed=30, wit=30, combat=30, guards=0)
    me.update(health=40, scoundrel=0, horse=None, weapons=[], gear=[])
    label = panes.choice_label(frame, {"action": {"do": "pick", "where": "N"}, "text": "Rob the coach to the North"})
    assert "· your dice cannot win it" in label.plain, label.plain
    coach.update(speed=1, combat=1, wit=1)
    label = panes.choice_label(frame, {"action": {"do": "pick", "where": "N"}, "text": "Rob the coach to the North"})
    assert "cannot win" not in label.plain and label.plain.endswith("· no risk")


async def test_folk_hero_scoundrel_and_guards_are_explained_once_where_they_first_matter():
    """A newcomer reads what scoundrel means at his first pick (declaring is one of its choices), what
    folk hero means at his first robbery, each once in the log; guards once any are placed."""
    from tests.tui_helpers import quick_app, screen_name
    from tui.games.money_or_life.hooks import GLOSSARY
    from tui.widgets.log import TableLog
    app = quick_app("money-or-life", players=2, seed=5)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "TableScreen" and bool(app.screen.frame.choices), "the pick",
                    pilot=pilot)
        log = app.screen.query_one(TableLog)

        def said(word: str) -> int:
            return sum(line.startswith(GLOSSARY[word].split(":")[0] + ":") for line in log.plain_lines)
        await until(lambda: said("scoundrel") == 1, "scoundrel explained at the pick", pilot=pilot)
        opening = [line for line in log.plain_lines if line.startswith(("Round 1:", "Scoundrel (Y7):"))]
        assert opening[0].startswith("Round 1:"), "said under the round's first lines, not above them"
        assert said("folk hero") == 0, "folk hero before it matters"
        for _ in range(60):
            if said("folk hero"):
                break
            await until(lambda: screen_name(app) != "TableScreen" or (app.screen.frame.choices
                                                                        and not app.screen.frame.sent),
                        "a move", pilot=pilot)
            if screen_name(app) != "TableScreen":
                break
            kinds = {choice["action"].get("do") for choice in app.screen.frame.choices}
            if "assign" in kinds:
                await until(lambda: said("folk hero") == 1, "folk hero explained at the robbery", pilot=pilot)
                break
            await pilot.press("1")
        assert said("folk hero") == 1 and said("scoundrel") == 1, "each said once"
