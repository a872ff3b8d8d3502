"""Bots that every game can use as they are."""

from __future__ import annotations

import random
from typing import Callable

from core.engine import Action, Bot, State


def uniform_random(legal_actions: Callable[[State, int], list[Action]]) -> Bot:
    """The ``random`` bot: any legal action, each as likely as the others."""

    def choose(state: State, seat: int, rng: random.Random) -> Action:
        return rng.choice(legal_actions(state, seat))

    return choose
