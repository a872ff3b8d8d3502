"""Highwayman: the ``GAME`` the registry finds, built from this folder's modules.

rules.py: the rules, in the order the sheet tells them; bots.py: the easy, normal and hard bots;
guessed_hands.py: the hard bot's guesses of the other hands, as the public moves allow.
"""

from __future__ import annotations

from core.bots import BotTable, uniform_random
from core.engine import Game
from core.games.highwayman import bots, rules

GAME = Game(
    id="highwayman",
    title="Highwayman",
    options=rules.OPTIONS,
    check_options=rules.check_options,
    setup=rules.setup,
    opening_events=rules.opening_events,
    moment=rules.moment,
    can_take_back=rules.can_take_back,
    pending=rules.pending,
    legal_actions=rules.legal_actions,
    apply=rules.apply,
    advance=rules.advance,
    view=rules.view,
    resample_hidden=rules.resample_hidden,
    result=rules.result,
    describe_action=rules.describe_action,
    bots=BotTable({"easy": bots.easy, "normal": bots.normal, "hard": bots.hard,
                   "random": uniform_random(rules.legal_actions)}),
    rules_text=rules.RULES_TEXT,
    stats=rules.stats,
    check_invariants=rules.check_invariants,
)
