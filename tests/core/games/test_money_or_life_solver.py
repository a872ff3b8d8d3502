"""The dice solver of Your Money or Your Life: the sheet's worked examples and ruling Y7/Y8's details."""

from __future__ import annotations

import itertools

from core.games.money_or_life.solver import (
    Assignment,
    assignments,
    catches_coach,
    choices,
    joint_outcomes,
    outcome,
    solve,
    speed_set_is_minimal,
)


def entry_for(entries, speed, wit, combat, spur=False):
    wanted = Assignment(spur, tuple(sorted(speed)), tuple(sorted(wit)), tuple(sorted(combat)))
    found = [entry for entry in entries if wanted in entry.assignments]
    assert len(found) == 1, f"{wanted} should be in exactly one entry"
    return found[0].outcome


def test_Y7_example_A_thomas_every_assignment_the_sheet_shows():
    """Example A: speed 4, wit 5, combat 3; Thomas rolls 4, 1, 5, 6.
    "use the 6 to meet the speed … combat met with the 4 … 5+1 = 6 to beat the wit": +1 scoundrel,
    +1 folk hero. "use the 5 to meet the speed … 6 + 1 … wit … 2 folk hero … 4 … 1 scoundrel"."""
    entries = solve([4, 1, 5, 6], speed=4, wit=5, combat=3, money=1)
    first = entry_for(entries, speed=[6], wit=[5, 1], combat=[4])
    assert (first.speed_met, first.folk_hero, first.scoundrel, first.health, first.money) == (True, 1, 1, 0, 1)
    second = entry_for(entries, speed=[5], wit=[6, 1], combat=[4])
    assert (second.speed_met, second.folk_hero, second.scoundrel, second.health, second.money) == (True, 2, 1, 0, 1)
    # "cannot add extra dice values to this since the target has been met"
    assert all(len(a.speed) == 1 for e in entries for a in e.assignments if not a.spur)


def test_Y7_example_B_sally_every_assignment_the_sheet_shows():
    """Example B: speed 5, wit 4, combat 4; Sally rolls 3, 1, 2, 4.
    "4+1 to meet the speed … wit … 3+2 … 1 folk hero point … lose 4 health points"; "4+1 … speed
    and then 3+2 to meet the combat … 1 scoundrel … loses 4 folk hero points"."""
    entries = solve([3, 1, 2, 4], speed=5, wit=4, combat=4, money=2)
    first = entry_for(entries, speed=[4, 1], wit=[3, 2], combat=[])
    assert (first.folk_hero, first.scoundrel, first.health, first.money) == (1, 0, -4, 2)
    second = entry_for(entries, speed=[4, 1], wit=[], combat=[3, 2])
    assert (second.folk_hero, second.scoundrel, second.health, second.money) == (-4, 1, 0, 2)
    assert not first.combat_met and first.wit_met and second.combat_met and not second.wit_met


def test_Y7_speed_dice_must_be_a_minimal_set():
    """Y7: no speed die may be removable while still meeting the target; the horse can meet it alone."""
    assert speed_set_is_minimal((4, 1), 5) and not speed_set_is_minimal((4, 1, 2), 5)
    assert not speed_set_is_minimal((4, 1), 4)
    assert speed_set_is_minimal((), 0) and not speed_set_is_minimal((1,), 0)
    entries = solve([2, 2, 2, 2], speed=4, wit=4, combat=4, money=3, horse=4)
    assert all(a.speed == () for e in entries for a in e.assignments)


def test_Y5_Y7_missed_speed_is_one_entry_and_a_spur_in_vain_is_never_offered():
    """Y7: a coach that cannot be caught costs one folk hero point whatever the dice; Y5: a spur that
    still misses the speed is never a choice, so that is the only entry."""
    entries = solve([1, 1, 1, 1], speed=9, wit=4, combat=4, money=10)
    assert len(entries) == 1
    result = entries[0].outcome
    assert (result.speed_met, result.spur, result.folk_hero, result.scoundrel, result.health, result.money) \
        == (False, False, -1, 0, 0, 0)
    assert not any(a.spur for a in choices([1, 1, 1, 1], 9))
    # One short: now the spur catches the coach, so it is offered.
    assert any(a.spur and catches_coach(a, 5, 0) for a in choices([1, 1, 1, 1], 5))


def test_Y7_spur_reaches_a_target_the_dice_alone_miss():
    """Y5/Y7: spurring adds +1 speed; the spur's health point is part of the outcome."""
    entries = solve([2, 2, 1], speed=6, wit=1, combat=1, money=4)
    caught = [e.outcome for e in entries if e.outcome.speed_met]
    assert caught and all(result.spur and result.health <= -1 for result in caught)


def test_Y7_equal_outcomes_collapse_into_one_entry():
    """Two assignments with the same outcome are one entry; every entry's outcome is distinct."""
    entries = solve([4, 1, 5, 6], speed=4, wit=5, combat=3, money=1)
    outcomes = [e.outcome for e in entries]
    assert len(set(outcomes)) == len(outcomes)
    assert any(len(e.assignments) > 1 for e in entries)
    assert len(entries) == len(choices([4, 1, 5, 6], 4))


def test_Y7_Y5_every_assignment_is_counted_once_and_all_legal_ones_are_there():
    """Brute force: the entries hold exactly the labellings whose speed set is minimal, spurred only where
    the speed dice miss without the spur (Y5)."""
    dice = [3, 1, 2, 4]
    listed = {a for e in solve(dice, 5, 4, 4, 2) for a in e.assignments}
    legal = set()
    for spur in (False, True):
        for labels in itertools.product(range(3), repeat=4):
            speed = tuple(sorted(d for d, w in zip(dice, labels) if w == 0))
            if speed_set_is_minimal(speed, 5 - spur) and not (spur and sum(speed) >= 5):
                wit = tuple(sorted(d for d, w in zip(dice, labels) if w == 1))
                combat = tuple(sorted(d for d, w in zip(dice, labels) if w == 2))
                legal.add(Assignment(spur, speed, wit, combat))
    assert listed == legal
    assert any(a.spur for a in legal) and any(not a.spur for a in legal)


def test_Y5_a_spur_beside_speed_dice_that_meet_the_target_is_never_offered():
    """Y5: a spur is a choice only where it lets the robber meet the speed. Speed 3 and dice
    1, 3, 3: the ⚂ alone meets it, so "⚂ spurred" (1 health and the tavern for nothing) is not offered;
    "⚀ spurred" is not minimal either way, and no spurred set of these dice needs the spur."""
    offered = assignments((1, 3, 3), 3)
    assert offered and not any(a.spur for a in offered)
    assert not any(a.spur for a in choices([1, 3, 3], 3))
    # With speed 4 the ⚂ alone misses by one: now the spur is what catches the coach, and is offered.
    assert Assignment(True, (3,), (1,), (3,)) in assignments((1, 3, 3), 4)
    assert any(a.spur and a.speed == (3,) for a in choices([1, 3, 3], 4))


def test_Y7_bonuses_count_on_wit_and_combat():
    """Gear adds to wit and weapons to combat."""
    plain = outcome(Assignment(False, (6,), (2,), (1,)), 4, 5, 3, 1)
    armed = outcome(Assignment(False, (6,), (2,), (1,)), 4, 5, 3, 1, wit_bonus=3, combat_bonus=2)
    assert (plain.folk_hero, plain.health, plain.money) == (-3, -2, 0)
    assert (armed.folk_hero, armed.scoundrel, armed.health, armed.money) == (0, 0, 0, 1)


def test_Y8_two_attackers_pool_and_share():
    """Y8: both catch the coach: wit dice and combat dice pooled with both players' bonuses, same
    changes for both, half the money each rounded down."""
    first = Assignment(False, (4,), (3,), (2,))
    second = Assignment(True, (3,), (2,), (1,))
    a, b = joint_outcomes(first, second, speed=4, wit=5, combat=6, money=5, combat_bonuses=(0, 2))
    assert (a.folk_hero, a.scoundrel, a.health, a.money) == (0, 0, -1, 2)
    assert (b.folk_hero, b.scoundrel, b.health, b.money) == (0, 0, -2, 2)   # his own spur's point too


def test_Y8_one_misses_speed_the_other_robs_alone():
    """Y8: a partner who misses speed takes the penalty alone; the other robs with his own dice and
    bonuses and takes the whole purse."""
    slow = Assignment(False, (1, 1, 1), (), ())
    quick = Assignment(False, (5,), (6,), (6,))
    a, b = joint_outcomes(slow, quick, speed=4, wit=5, combat=6, money=3)
    assert (a.speed_met, a.folk_hero, a.money) == (False, -1, 0)
    assert (b.speed_met, b.folk_hero, b.scoundrel, b.money) == (True, 1, 0, 3)


def test_Y7_the_ui_lists_each_outcome_once_with_a_legal_action_from_the_view_alone():
    """The robbery options offered to a player come from his view: one per distinct outcome, each
    with an action the engine accepts (the UI and the bots use the same solver)."""
    from core.games.money_or_life import GAME
    from core.games.money_or_life import rules as mol

    state = GAME.new_game({"players": 1}, 4)
    while state["phase"] != "rob":
        GAME.apply(state, 0, {"do": "pick", "where": "N"} if state["phase"] == "pick" else {"do": "leave"})
    view = GAME.view(state, 0)
    options = mol.robbery_options(view)
    legal = GAME.legal_actions(state, 0)
    assert options and all(option["action"] in legal for option in options)
    assert len({str(option["outcome"]) for option in options}) == len(options)
    assert len(options) == len([a for a in legal if a["do"] == "assign"])


def test_choices_are_the_first_assignment_of_each_contribution_in_labeling_order():
    """``_choices`` finds its choices without walking every labeling; it must give exactly what the walk
    gives: every legal labeling in ``_labelled``'s order, the first of each contribution kept."""
    from core.games.money_or_life import solver

    def by_walking(dice, need):
        chosen = {}
        for spur, speed, wit, combat in solver._labelled(dice, need):
            key = (spur, True, sum(wit), sum(combat)) if sum(speed) + spur >= need else (spur, False, 0, 0)
            chosen.setdefault(key, Assignment(spur, speed, wit, combat))
        return tuple(chosen.values())

    rolls = [dice for count in range(5) for dice in itertools.combinations_with_replacement(range(1, 7), count)]
    rolls += [(1, 1, 2, 4, 6), (2, 3, 3, 5, 6), (3, 3, 3, 3, 3, 3), (1, 2, 3, 4, 5, 6), (1, 1, 4, 4, 6, 6)]
    for dice in rolls:
        for need in range(0, sum(dice) + 3):  # ``_need`` keeps every key in this range
            assert solver._choices.__wrapped__(dice, need) == by_walking(dice, need), (dice, need)
