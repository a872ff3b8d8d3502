"""Your Money or Your Life: the legal actions handed out are the caller's own (the engine caches the
assignments and the market's offers behind them, and a caller that changes what it was given must not
change what the next caller gets)."""

from __future__ import annotations

from core.games.money_or_life import rules as mol
from core.games.money_or_life import solver


def test_a_changed_assignment_leaves_the_next_list_of_choices_as_it_was():
    first = solver.choice_actions([2, 3, 4, 5], 9, 0)
    expected = [choice.as_action() for choice in solver.choices([2, 3, 4, 5], 9, 0)]
    assert first == expected
    for action in first:
        action["speed"].append(6)
        action["wit"].clear()
        action["spur"] = "changed"
    assert solver.choice_actions([2, 3, 4, 5], 9, 0) == expected


def test_a_changed_market_offer_leaves_the_next_visit_as_it_was():
    player = mol.new_player()
    player["guineas"] = 40
    first = mol.purchases(player)
    for offer, _ in first:
        offer["item"] = "changed"
    assert mol.purchases(player) != first
    assert all(offer["item"] != "changed" for offer, _ in mol.purchases(player))
