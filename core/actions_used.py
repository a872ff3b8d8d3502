"""Every kind of action each game's rules give a player, and which bot levels consider it.

A bot that never plays a rule a person may use is beaten by anyone who read the sheet (Your Money or Your
Life's normal bot once never declared "playing as a scoundrel"). So each game lists here every kind of
action its ``legal_actions`` may offer, with the rule that gives it, and for each level the kinds it
deliberately leaves alone, with why. ``tests/core/test_actions_used.py`` plays 200 seeded games a level and
fails when a legal kind is missing from this list, or a level never plays a kind not listed as ignored (or
plays one listed as ignored). ``docs/playing.md`` says the same in words.

``random`` plays every legal action by construction and is not listed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from core.engine import Action


@dataclass(frozen=True)
class ActionKind:
    """One kind of action: its name (``kind_of``'s), the rule that gives it, and what it does, in words."""

    kind: str
    rule: str
    words: str


def money_or_life_kind(action: Action) -> str:
    do = str(action.get("do"))
    if do == "pick":
        return f"pick {action['where']}" if action["where"] in ("tavern", "market", "retire") else "pick coach"
    if do == "assign":
        return "assign spur" if action.get("spur") else "assign"
    return do


def do_kind(action: Action) -> str:
    return str(action.get("do"))


#: How an action's kind is read, per game id.
KIND_OF: dict[str, Callable[[Action], str]] = {"turpin": do_kind, "highwayman": do_kind,
                                                "money-or-life": money_or_life_kind}

#: Every kind of action each game's rules give a player.
KINDS: dict[str, tuple[ActionKind, ...]] = {
    "turpin": (
        ActionKind("choose", "T5", "lay a stand & deliver card: the town to lie in wait at"),
        ActionKind("declare", "T6", "declare how many passengers to rob"),
        ActionKind("draw", "T6", "turn another booty card"),
        ActionKind("stop", "T6", "stop and claim the gold turned"),
    ),
    "highwayman": (
        ActionKind("play", "H4", "lay a LONDON card or the next numbers of a route"),
        ActionKind("highwayman", "H4", "block a started route with a Highwayman"),
        ActionKind("runner", "H4", "unblock a route with a Bow Street Runner"),
        ActionKind("end", "H4", "end the turn after a play"),
        ActionKind("keep", "H5", "keep the card drawn"),
    ),
    "money-or-life": (
        ActionKind("pick coach", "Y4", "rob one of the four coaches"),
        ActionKind("pick tavern", "Y4, Y9", "go to the tavern"),
        ActionKind("pick market", "Y4, Y9", "go to the market"),
        ActionKind("pick retire", "Y14", "retire, the score frozen"),
        ActionKind("assign", "Y7, Y8", "assign the dice to speed, wit and combat"),
        ActionKind("assign spur", "Y5", "assign the dice and spur the horse"),
        ActionKind("heal", "Y9", "buy a point of health"),
        ActionKind("buy", "Y10", "buy an item (a horse, a weapon, gear)"),
        ActionKind("give", "Y9", "give 3 guineas to the poor: a scoundrel point becomes a folk hero point"),
        ActionKind("leave", "Y9", "leave town"),
        ActionKind("play_as_scoundrel", "Y13", "declare \u201cplaying as a scoundrel\u201d, for good"),
    ),
}

#: Per game and level, the kinds it deliberately never plays, and why. Any kind not here, it considers.
IGNORED: dict[str, dict[str, dict[str, str]]] = {
    "turpin": {"easy": {}, "normal": {}, "hard": {}},
    "highwayman": {"easy": {}, "normal": {}, "hard": {}},
    "money-or-life": {
        "easy": {
            "pick market": "a beginner rides for the richest coach and rests at the tavern when hurt",
            "pick retire": "a beginner plays every round",
            "give": "a beginner keeps his money",
            "play_as_scoundrel": "a beginner keeps the usual scoring",
        },
        "normal": {},
        "hard": {},
    },
}


def kind_of(game_id: str, action: Action) -> str:
    """The kind of ``action`` in ``game_id``, as ``KINDS`` names it."""
    return KIND_OF[game_id](action)


def considered(game_id: str, level: str) -> list[str]:
    """The kinds ``level`` considers in ``game_id``: every kind not listed as ignored."""
    return [k.kind for k in KINDS[game_id] if k.kind not in IGNORED[game_id][level]]
