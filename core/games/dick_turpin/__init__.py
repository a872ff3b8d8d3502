"""The Famous Dick Turpin: the ``GAME`` the registry finds, built from this folder's modules.

rules.py: the rules, in the order the sheet tells them; bots.py: the easy, normal and hard bots;
reckoning.py: the normal bot's worth of a robbery and of a plan of towns; winning.py: the hard bot's
chance to win.
"""

from __future__ import annotations

from core.bots import BotTable, uniform_random
from core.engine import Game
from core.games.dick_turpin import bots, rules

GAME = Game(
    id="turpin",
    title="The Famous Dick Turpin",
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
    extra={"score_unit": "gold"},
)
