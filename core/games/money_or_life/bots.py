"""The bots for Your Money or Your Life, easy to hard.

``normal`` reads only its own view (ruling A3). It values an outcome in points
of final score: money, the folk hero and scoundrel points as they count for its scoring formula, health
at a price that climbs as health runs low (and death as the end of everything), a penalty for every
guard a reputation threshold would bring, and a lost round for a spur. With that one formula it

* picks a coach by the expected value of its best assignment over the two dice still to roll (and any
  "N+d6" stat still to roll, and the chance a random guard turns up), against the tavern, the market
  and retiring; tables kept across games make that a few milliseconds (see ``roll_table``);
* assigns its dice with the solver, taking the best entry (on a shared coach, the best on average over
  the partner's choices);
* shops: health when low, the item that pays for itself over the rounds left, gifts to the poor when
  its scoundrel track has brought guards;
* retires when far enough ahead late, or as soon as a retired rival's score is beaten;
* declares "playing as a scoundrel" (Y13) as a player who read the sheet weighs it: the flip of his
  reputation against what the scoundrel's formula gains a round (``wants_scoundrel_scoring``), so at once
  from an even start; once a scoundrel, it weighs the targeted guards its points bring more heavily.

Every optional action the rules give, and whether each level considers it: ``core.games.optional_actions``.

``easy`` plays like a beginner: it rides for the richest coach whatever its guards and its combat,
and only rests at the tavern once badly hurt (it assigns its dice as well as the normal bot does). It never
retires early and never declares for the scoundrel's scoring.

``hard`` searches (``core.search``) with the normal bot as its model of the other player and its
playouts, to the end of the round; then it reckons each player's standing in points (``worth``). A
robbery's assignment it takes as the normal bot does, from the solver's exact outcomes (``exact_robberies``).
Measured (``bench/bots.py``, 2 players, both seats): hard wins 81.5% [76-86] of 200 games against
the normal bot; the normal bot 65.0% [61-69] of 600 against the normal bot that only declared late, and 59.3%
[55-63] against that bot declaring at once (55.5% [52-59] against itself on the same seeds).

This module holds the levels and their decisions; the one formula they weigh everything by (an outcome's
worth, a coach's, the town's offers, a shared robbery's) is in ``reckoning.py``.
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable

from core.engine import Action, State, View
from core.games.money_or_life import rules as engine
from core.games.money_or_life import solver
from core.games.money_or_life.reckoning import (
    DEATH,
    GUARD_PENALTY,
    PIP_VALUE,
    RANDOM_GUARD_PENALTY,
    REST_PENALTY,
    SCOUNDREL_EDGE,
    SCOUNDREL_GUARD_PENALTY,
    best_entry,
    best_purchase,
    coach_value,
    heal_value,
    health_price,
    my_profile,
    result_value,
    robbery_partners,
    shared_robbery_values,
    should_give,
    town_guard_risk,
)
from core.games.money_or_life.rules import GUARD_STEP
from core.registry import get_game
from core.search import Budget, mark_hard, searching_bot

# --- decisions ------------------------------------------------------------------------------------------

def choose_pick(view: View, seat: int, legal: list[Action], scoundrel_guard: float = SCOUNDREL_GUARD_PENALTY) -> Action:
    wheres = [a["where"] for a in legal if a["do"] == "pick"]
    if wheres == ["tavern"]:
        return {"do": "pick", "where": "tavern"}
    player = view["players"][seat]
    rounds_left = view["rounds"] - view["round"]
    values: dict[str, float] = {}
    for coach in view["coaches"]:
        values[coach["at"]] = coach_value(view, seat, coach, scoundrel_guard=scoundrel_guard)
    values["tavern"] = heal_value(player, 2) - town_guard_risk(view, seat, "tavern")
    if should_give(view, player, scoundrel_guard):
        values["tavern"] += 3.0
    values["market"] = (max(heal_value(player, 3), best_purchase(player, rounds_left)[0])
                        - town_guard_risk(view, seat, "market"))
    values["retire"] = retire_value(view, seat)
    return {"do": "pick", "where": max(wheres, key=lambda w: (values[w], -wheres.index(w)))}


def retire_value(view: View, seat: int) -> float:
    """Retiring locks in a win when the other player has retired with less, or is too far behind to
    catch up in the rounds left. Otherwise it is worth what staying alive is worth: a loss if behind
    (-0.6 of a death: the other may still hang), less of one the bigger the lead. Solo the "other" is
    the rival, who plays on and is reckoned to bank 3 guineas a round."""
    me = view["players"][seat]
    rounds_left = view["rounds"] - view["round"] + 1
    if view["solo"]:
        lead = me["score"] - view["rival"] - 3 * rounds_left
    else:
        other = view["players"][1 - seat]
        lead = me["score"] - other["score"]
        if other["status"] == "retired":
            return 1000.0 if lead > 0 else -1000.0
        if lead > 6 * rounds_left:
            return 1000.0
    safety = min(1.0, max(0.0, lead / (6 * rounds_left)))
    return -0.6 * DEATH * (1.0 - safety)


def choose_assignment(view: View, seat: int, legal: list[Action],
                      scoundrel_guard: float = SCOUNDREL_GUARD_PENALTY) -> Action:
    player = view["players"][seat]
    if not robbery_partners(view, seat):
        targets = engine.shown_coach_targets(view, player["pick"])
        entry = best_entry(player["rob_dice"], targets, player, my_profile(view, seat, scoundrel_guard))
        return entry.assignments[0].as_action()
    value = shared_robbery_values(view, seat, scoundrel_guard)
    assigns = [a for a in legal if a["do"] == "assign"]
    return max(assigns, key=lambda a: (value(a), -assigns.index(a)))




def choose_in_town(view: View, seat: int, legal: list[Action],
                   scoundrel_guard: float = SCOUNDREL_GUARD_PENALTY) -> Action:
    player = view["players"][seat]
    where = player["pick"]
    rounds_left = view["rounds"] - view["round"]
    if {"do": "give"} in legal and should_give(view, player, scoundrel_guard):
        return {"do": "give"}
    price = engine.HEAL_PRICE[where]
    if {"do": "heal"} in legal and health_price(player["health"]) > price - 0.6:
        return {"do": "heal"}
    if where == "market":
        gain, offer = best_purchase(player, rounds_left)
        if offer is not None and offer in legal:
            return offer
    return {"do": "leave"}


def wants_scoundrel_scoring(view: View, seat: int) -> bool:
    """Declare "playing as a scoundrel" (Y13: any time, for good) as a player who read the sheet weighs it:
    the flip of the reputation he has (scoundrel − folk hero counts instead of folk hero − scoundrel, twice
    the difference) against ``SCOUNDREL_EDGE`` a round for the rounds left. At the start both tracks are 0,
    so he declares at once; a seat taken over with a folk hero's lead keeps it while the lead is worth more."""
    player = view["players"][seat]
    rounds_left = view["rounds"] - view["round"] + 1
    return 2 * (player["scoundrel"] - player["folk_hero"]) + SCOUNDREL_EDGE * rounds_left >= 0


def declares_late(view: View, seat: int) -> bool:
    """The normal bot's old rule: declare on the last two rounds, if it pays then."""
    player = view["players"][seat]
    return view["round"] >= view["rounds"] - 1 and player["scoundrel"] > player["folk_hero"]


def declares_at_once(view: View, seat: int) -> bool:
    """A player who declares at his first chance, whatever his tracks (the bench's baseline)."""
    return True


def normal_with(declares: Callable[[View, int], bool],
                scoundrel_guard: float = SCOUNDREL_GUARD_PENALTY) -> Callable[[State, int, random.Random], Action]:
    """The normal bot with a rule of its own for declaring "playing as a scoundrel", and its own weight of
    a targeted guard once it plays as one."""

    def bot(state: State, seat: int, rng: random.Random) -> Action:
        view = engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        if {"do": "play_as_scoundrel"} in legal and declares(view, seat):
            return {"do": "play_as_scoundrel"}
        if view["phase"] == "pick":
            return choose_pick(view, seat, legal, scoundrel_guard)
        if view["phase"] == "rob":
            return choose_assignment(view, seat, legal, scoundrel_guard)
        return choose_in_town(view, seat, legal, scoundrel_guard)

    return bot


_normal = normal_with(wants_scoundrel_scoring)


def normal(state: State, seat: int, rng: random.Random) -> Action:
    """The ``normal`` bot: reads only ``view(state, seat)``."""
    return _normal(state, seat, rng)


#: Opponents the bench measures the normal bot against (``bench/bots.py``), by name: the normal bot as it
#: once was (it declared only in the last two rounds, and weighed a guard the same either way),
#: and that bot declaring at its first chance.
BASELINES = {"normal-before-44": normal_with(declares_late, GUARD_PENALTY),
             "normal-declares-at-once": normal_with(declares_at_once, GUARD_PENALTY)}


# --- easy ---------------------------------------------------------------------------------------------

#: The easy bot rests at the tavern at this health or lower, and buys meals below the next.
EASY_REST_AT = 5
EASY_HEAL_BELOW = 9


def easy(state: State, seat: int, rng: random.Random) -> Action:
    """The easy bot: greedy for money, careless of guards, rests only once badly hurt."""
    view = engine.view(state, seat)
    legal = engine.legal_actions(state, seat)
    player = view["players"][seat]
    if view["phase"] == "pick":
        wheres = [a["where"] for a in legal if a["do"] == "pick"]
        if player["health"] <= EASY_REST_AT and "tavern" in wheres:
            return {"do": "pick", "where": "tavern"}
        coaches = {coach["at"]: coach["money"] for coach in view["coaches"] if coach["at"] in wheres}
        if coaches:
            return {"do": "pick", "where": max(coaches, key=lambda at: (coaches[at], rng.random()))}
        return {"do": "pick", "where": "tavern" if "tavern" in wheres else wheres[0]}
    if view["phase"] == "rob":  # a beginner can count his dice: he assigns them as well as anyone
        return choose_assignment(view, seat, legal)
    if {"do": "heal"} in legal and player["health"] < EASY_HEAL_BELOW:
        return {"do": "heal"}
    return {"do": "leave"} if {"do": "leave"} in legal else rng.choice(legal)


# --- hard ---------------------------------------------------------------------------------------------

#: How the hard bot's playouts end: with the round they began in (see ``round_over``), so a decision sees
#: the other player's pick drawn from his own reckoning of the coaches, not a guess at a clash.
HARD_BUDGET = Budget(playouts=7 * 40, seconds=0.2, candidates=7)
#: A lead of this many points at the end of a round is worth about three wins in four (the logistic's scale).
LEAD_SCALE = 8.0
#: Health counts in full in ``worth`` while this many rounds are left, less in the last ones, nothing at the end.
HEALTH_ROUNDS = 4
#: The rival banks about this much a round once awake (Y16), for reckoning a solo lead before the end.
RIVAL_PACE = 3.0


def health_worth(health: int) -> float:
    """What a player's health is worth in points: each point at ``health_price`` of the health below it."""
    return sum(health_price(level) for level in range(max(0, health)))


def worth(state: State, seat: int) -> float:
    """A player's standing in points of final score: his score, his health, his items for the rounds left,
    less the guards his tracks bring for the rest of the game and a round lost to a spur."""
    player = state["players"][seat]
    if player["status"] == "dead":
        return -DEATH
    value = float(engine.score(player))
    if player["status"] == "retired":
        return value
    left = max(0, state["rounds"] - state["round"])
    share = left / 16
    bonuses = engine.horse_bonus(player) + engine.wit_bonus(player) + engine.combat_bonus(player)
    # Health is worth what it keeps alive for the rounds to come: nothing once the last round is played,
    # so a rider is not reckoned ahead of one who retired with the same score (Y14) for the health he has
    value += health_worth(player["health"]) * min(1.0, left / HEALTH_ROUNDS) + PIP_VALUE * left * bonuses
    penalty = SCOUNDREL_GUARD_PENALTY if player["as_scoundrel"] else GUARD_PENALTY
    value -= share * penalty * math.comb(player["scoundrel"] // GUARD_STEP + 1, 2)
    value -= share * RANDOM_GUARD_PENALTY * math.comb(player["folk_hero"] // GUARD_STEP + 1, 2)
    if player["rest_round"] > state["round"]:
        value -= REST_PENALTY
    return value


def round_over(state: State, seat: int, start: State) -> float | None:
    """The hard bot's playout horizon: once the round its search began in is over, the seat's lead in
    ``worth`` over the other player (solo: over the rival's money and what it may still bank), as a
    chance of winning."""
    if state["round"] == start["round"]:
        return None
    mine, rival = worth(state, seat), rival_worth(state, seat)
    return 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, (rival - mine) / LEAD_SCALE))))


def rival_worth(state: State, seat: int) -> float:
    """The other player's ``worth``; solo, the rival's money and what it may still bank."""
    if state["solo"]:
        return state["rival"] + RIVAL_PACE * max(0, state["rounds"] - max(state["round"], engine.RIVAL_WAKES) + 1)
    return worth(state, 1 - seat)


def exact_robberies(searching: Any) -> Any:
    """The hard bot: its search for every decision but a robbery's assignment, which it takes as the normal
    bot does, from the solver's exact outcomes (a search of a few dozen playouts read the same outcomes
    through ``worth`` and now and then took another, which the review, reading the solver, then marked:
    1.75 marks a seat in games the hard bot played against itself)."""

    def hard(state: State, seat: int, rng: random.Random) -> Action:
        return normal(state, seat, rng) if state["phase"] == "rob" else searching(state, seat, rng)

    def decide(game: Any, state: State, seat: int, rng: random.Random) -> Any:
        return (normal(state, seat, rng), None) if state["phase"] == "rob" else searching.decide(game, state, seat, rng)

    mark_hard(hard, searching.budget, decide, lambda budget: exact_robberies(searching.with_budget(budget)))
    hard.horizon, hard.resample, hard.copy = searching.horizon, searching.resample, searching.copy  # type: ignore[attr-defined]
    return hard


hard = exact_robberies(searching_bot(lambda: get_game("money-or-life"), budget=HARD_BUDGET, horizon=round_over))


def review_values(game: Any, state: State, seat: int, actions: list[Action], rng: random.Random,
                  effort: Any) -> Any:
    """The review's scoring of a robbery's assignment (``core.review``): the solver's exact outcome of
    every assignment the dice allow, valued as the normal bot values an outcome (``result_value``); on a
    shared coach, averaged over every way the partner may share his dice. The points are then read as a
    chance of winning the way the hard bot reads a lead at the end of a round (``round_over``: the lead in
    ``worth`` now plus the robbery's value, through the logistic), so a robbery's cost and a pick's are in
    one unit, points of winning chance, and the costliest of a seat's decisions is the costliest. Other
    decisions are left to the review's playouts (None)."""
    from core.review import Scores  # core.review reads the bots; imported here, when a review runs

    view = engine.view(state, seat)
    if view["phase"] != "rob" or actions[0].get("do") != "assign":
        return None
    legal = [a for a in engine.legal_actions(state, seat) if a.get("do") == "assign"]
    assigns = [actions[0]] + [a for a in legal if a != actions[0]]
    if robbery_partners(view, seat):
        value = shared_robbery_values(view, seat)
        values = [value(a) for a in assigns]
    else:
        player = view["players"][seat]
        targets = engine.shown_coach_targets(view, player["pick"])
        me = my_profile(view, seat)
        values = [result_value(solver.action_outcome(a, targets["speed"], targets["wit"], targets["combat"],
                                                     targets["money"], engine.horse_bonus(player),
                                                     engine.wit_bonus(player), engine.combat_bonus(player)), me)
                  for a in assigns]
    lead = worth(state, seat) - rival_worth(state, seat)
    chances = [100.0 / (1.0 + math.exp(max(-50.0, min(50.0, -(lead + value) / LEAD_SCALE)))) for value in values]
    return Scores(actions=assigns, values=chances, errors=[0.0] * len(assigns), unit="points of winning chance")


hard.review_values = review_values
