"""Your Money or Your Life: the ``GAME`` the registry finds, built from this folder's modules.

rules.py: the rules, in the order the sheet tells them; solver.py: what four dice can do in a robbery;
words.py: the words for a robbery's outcome; bots.py: the easy, normal and hard bots; reckoning.py:
the normal bot's worth of an outcome, a coach and the town's offers, in points of final score.
"""

from __future__ import annotations

from core.bots import BotTable, uniform_random
from core.engine import Game
from core.games.money_or_life import bots, rules

GAME = Game(
    id="money-or-life",
    title="Your Money or Your Life",
    options=rules.OPTIONS,
    check_options=rules.check_options,
    setup=rules.setup,
    opening_events=rules.round_opening_events,
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
