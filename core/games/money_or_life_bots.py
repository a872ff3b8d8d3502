"""Bots for Your Money or Your Life (placeholder sharp until the real one lands)."""

from __future__ import annotations

import random

from core.engine import Action, State
from core.games import money_or_life as engine


def sharp(state: State, seat: int, rng: random.Random) -> Action:
    return engine.legal_actions(state, seat)[0]
