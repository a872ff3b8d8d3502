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
Measured (issue 44, ``bench/bots.py``, 2 players, both seats): hard wins 81.5% [76-86] of 200 games against
the normal bot; the normal bot 65.0% [61-69] of 600 against the normal bot before issue 44, and 59.3%
[55-63] against that bot declaring at once (55.5% [52-59] against itself on the same seeds).
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from core.engine import Action, State, View
from core.games.money_or_life import rules as engine
from core.games.money_or_life import solver
from core.games.money_or_life.rules import GUARD_STEP, GUARD_STRENGTH
from core.registry import get_game
from core.search import Budget, mark_hard, searching_bot

DEATH = 200.0            # dying loses the game: worth more than any purse
GUARD_PENALTY = 6.0      # the k-th targeted guard costs k times this, for the rest of the game (full length)
#: The same for a player who declared "playing as a scoundrel" (Y13): he chases scoundrel points, so each
#: guard they bring must weigh more to hold him back (measured: 60% [56-64] of 600 duels against 6, both declared).
SCOUNDREL_GUARD_PENALTY = 10.0
#: What playing as a scoundrel is reckoned to gain a round over the folk hero's formula (Y13): combat is
#: where the dice go anyway, and a scoundrel may leave wit short (a missed wit costs folk hero, a point to him).
SCOUNDREL_EDGE = 1.5
RANDOM_GUARD_PENALTY = 2.0  # the k-th random guard a player brings costs k times this
REST_PENALTY = 2.0       # a round spent at the tavern because of a spur
PIP_VALUE = 0.35         # a +1 item bonus, per round left, in points
CLASH_CHANCE = 0.25      # how likely the other player goes for the same coach (or the same town spot)


def health_price(health_after: int) -> float:
    """What one health point is worth, given the health it leaves: cheap when fit, dear near death."""
    if health_after <= 3:
        return 4.0
    if health_after <= 6:
        return 2.5
    return 1.5


#: A player as the bot weighs him: (health, folk hero, scoundrel, plays as scoundrel, share of the game
#: still to come, what the k-th targeted guard costs, times k, over a whole game).
Profile = tuple[int, int, int, bool, float, float]


@lru_cache(maxsize=1 << 18)
def outcome_value(folk_hero: int, scoundrel: int, health: int, money: int, spur: bool,
                  me: Profile) -> float:
    """The bot's value of a robbery outcome (raw track changes) for a player ``me`` (a ``Profile``)."""
    my_health, my_folk, my_scoundrel, as_scoundrel, left, guard_penalty = me
    new_health = min(engine.MAX_HEALTH, my_health + health)
    if new_health <= 0:
        return -DEATH
    new_folk = max(0, my_folk + folk_hero)
    new_scoundrel = max(0, my_scoundrel + scoundrel)
    folk_gain, scoundrel_gain = new_folk - my_folk, new_scoundrel - my_scoundrel
    value = float(money) + (scoundrel_gain - folk_gain if as_scoundrel else folk_gain - scoundrel_gain)
    value += health * health_price(new_health) if health < 0 else 0.0
    # Targeted guards follow you everywhere, town included, and each one more is worse than the last.
    value -= left * guard_penalty * sum(range(my_scoundrel // GUARD_STEP + 1, new_scoundrel // GUARD_STEP + 1))
    value -= left * RANDOM_GUARD_PENALTY * sum(range(my_folk // GUARD_STEP + 1, new_folk // GUARD_STEP + 1))
    if spur:
        value -= REST_PENALTY * min(1.0, left * 4)
    return value


def result_value(result: solver.Outcome, me: Profile) -> float:
    """``outcome_value`` of one of the solver's outcomes."""
    return outcome_value(result.folk_hero, result.scoundrel, result.health, result.money, result.spur, me)


def best_entry(dice: list[int], targets: dict[str, int], player: dict[str, Any],
               me: Profile) -> solver.Entry:
    entries = solver.solve(dice, targets["speed"], targets["wit"], targets["combat"], targets["money"],
                           engine.horse_bonus(player), engine.wit_bonus(player), engine.combat_bonus(player))
    return max(entries, key=lambda e: result_value(e.outcome, me))


# --- the chance of each outcome, as tables --------------------------------------------------------------
#
# A coach's worth is an average over the dice still to roll (and any "N+d6" stat, and the guards) of the
# best assignment's value. Weighing every case through the solver took up to a third of a second a pick.
# Two facts make it cheap: a roll's choices depend only on the dice and the speed the dice must make
# (``roll_table``, the same in every game, so cached for good), and a choice's value splits into a part of
# its wit margin and a part of its combat margin (``ValueTables``, built once per player's figures), so one
# case is a few list lookups per choice. The result is exactly ``outcome_value`` of the best choice.

#: The tables' index of a margin of 0: wit margins run from -WIT_OFFSET up, combat margins from -COMBAT_OFFSET.
WIT_OFFSET, COMBAT_OFFSET = 64, 200
#: A choice that catches the coach, as the bot weighs it: (spur, wit dice total, combat dice total).
Choice = tuple[bool, int, int]


@dataclass(frozen=True)
class RollTable:
    """The choices every roll of the dice still to come offers, for some dice in hand and a speed to make.
    ``caught`` lists each distinct choice that catches the coach once, ``missed`` the spurs of those that
    miss it; each roll is its chance (a count out of ``total``) and the indices of its choices in
    ``caught + missed``, so a case values every distinct choice once, not once per roll."""

    caught: tuple[Choice, ...]
    missed: tuple[bool, ...]
    rolls: tuple[tuple[int, tuple[int, ...]], ...]
    total: int


@lru_cache(maxsize=None)
def robbery_options(dice: tuple[int, ...], speed_need: int) -> frozenset[tuple[bool, bool, int, int]]:
    """``solver.contributions`` of these dice, worked out straight from the sums: each minimal set of
    speed dice (Y7), with and without a spur (Y5), and every way the rest split into wit and combat.
    Many times quicker than listing every assignment, which matters the first time a roll is met."""
    found: set[tuple[bool, bool, int, int]] = set()
    indices = range(len(dice))
    subsets = [tuple(i for i in indices if mask >> i & 1) for mask in range(1 << len(dice))]
    total = sum(dice)
    for spur in (False, True):
        need = speed_need - spur
        if total < need:
            if not spur:
                found.add((False, False, 0, 0))
            continue
        for speed in subsets:
            speed_dice = [dice[i] for i in speed]
            if not solver.speed_set_is_minimal(speed_dice, need):
                continue
            rest = [dice[i] for i in indices if i not in speed]
            left = total - sum(speed_dice)
            for mask in range(1 << len(rest)):
                wit = sum(die for i, die in enumerate(rest) if mask >> i & 1)
                found.add((spur, True, wit, left - wit))
    return frozenset(found)


@lru_cache(maxsize=None)
def roll_table(mine: tuple[int, ...], speed_need: int, extra: int) -> RollTable:
    """The ``RollTable`` of ``extra`` more dice beside ``mine`` when the dice must make ``speed_need`` (the
    speed target less the horse): the same in every game, so kept for good (a few thousand at most)."""
    counts: dict[tuple[int, ...], int] = {}
    for extra_dice in itertools.product(range(1, 7), repeat=extra):
        dice = tuple(sorted(mine + extra_dice))
        counts[dice] = counts.get(dice, 0) + 1
    found = {dice: robbery_options(dice, speed_need) for dice in counts}
    caught = sorted({(spur, wit, combat) for each in found.values() for spur, met, wit, combat in each if met})
    missed = sorted({spur for each in found.values() for spur, met, _, _ in each if not met})
    index: dict[tuple[Any, ...], int] = {choice: i for i, choice in enumerate(caught)}
    index.update({("missed", spur): len(caught) + i for i, spur in enumerate(missed)})
    rolls = tuple((count, tuple(index[(spur, wit, combat) if met else ("missed", spur)]
                                for spur, met, wit, combat in found[dice]))
                  for dice, count in counts.items())
    return RollTable(tuple(caught), tuple(missed), rolls, 6 ** extra)


@dataclass(frozen=True)
class ValueTables:
    """``outcome_value`` split by margin for one player's figures: ``wit[WIT_OFFSET + m]`` is the worth of
    a wit margin ``m`` (the folk hero it brings or costs), ``combat[spur][COMBAT_OFFSET + m]`` of a combat
    margin (scoundrel won, or health lost) with or without a spur. A robbery's value is their sum, and
    the money if either target is met, unless the combat part kills (``DEAD``): then it is ``-DEATH``."""

    wit: list[float]
    combat: tuple[list[float], list[float]]


#: A combat margin that kills: far below any value a living robber's choice can have.
DEAD = -1e9


@lru_cache(maxsize=256)
def value_tables(me: Profile) -> ValueTables:
    """The ``ValueTables`` of a player's figures (``my_profile``): a few hundred ``outcome_value`` calls,
    kept while the figures last (a round, usually)."""
    wit = [outcome_value(margin, 0, 0, 0, False, me) for margin in range(-WIT_OFFSET, WIT_OFFSET)]

    def combat_part(margin: int, spur: bool) -> float:
        value = outcome_value(0, max(margin, 0), min(margin, 0) - spur, 0, spur, me)
        return DEAD if value == -DEATH else value

    survivable = -engine.MAX_HEALTH - 1  # below this margin no one lives
    combat = tuple([DEAD] * (COMBAT_OFFSET + survivable)
                   + [combat_part(margin, spur) for margin in range(survivable, 64)] for spur in (False, True))
    return ValueTables(wit, combat)  # type: ignore[arg-type]


def expected_best(table: RollTable, tables: ValueTables, wit_need: int, combat_need: int, money: int) -> float:
    """The mean over ``table``'s rolls of the best choice's ``outcome_value`` against these wit and combat
    targets (less the bonuses) and this money: exactly what weighing each roll through the solver gives."""
    wit, combat = tables.wit, tables.combat
    # Targets clamped so that margins of up to 24 dice pips stay in the tables (no real coach comes near:
    # past the combat bound, a miss kills all the same).
    w0 = WIT_OFFSET - max(24 - WIT_OFFSET + 1, min(WIT_OFFSET - 1, wit_need))
    c0 = COMBAT_OFFSET - max(24 - 64 + 1, min(COMBAT_OFFSET - 1, combat_need))
    values = [wit[w + w0] + combat[spur][c + c0] + (money if w >= wit_need or c >= combat_need else 0)
              for spur, w, c in table.caught]
    values += [wit[WIT_OFFSET - 1] + combat[spur][COMBAT_OFFSET] for spur in table.missed]
    values = [value if value > -DEATH else -DEATH for value in values]
    pick = values.__getitem__
    return sum(count * max(map(pick, choices)) for count, choices in table.rolls) / table.total


# --- reading the view ---------------------------------------------------------------------------------

def my_profile(view: View, seat: int, scoundrel_guard: float = SCOUNDREL_GUARD_PENALTY) -> Profile:
    """The seat's ``Profile``; ``scoundrel_guard`` is what a targeted guard costs once he plays as a scoundrel."""
    player = view["players"][seat]
    left = max(0, view["rounds"] - view["round"]) / 16
    guard = scoundrel_guard if player["as_scoundrel"] else GUARD_PENALTY
    return (player["health"], player["folk_hero"], player["scoundrel"], player["as_scoundrel"], round(left, 3), guard)


#: The faces an "N+d6" stat still to roll is weighed at, equally: 2 and 5 keep the die's mean (3.5) and
#: nearly its spread (variance 2.25 against 2.92). All six made a coach with two such stats weigh 36 cases.
ROLLED_FACES = (2, 5)


def stat_outcomes(text: Any, faces: tuple[int, ...] = ROLLED_FACES) -> list[int]:
    """A coach stat as the view shows it: a number, or "N+d6" still to roll (weighed at ``faces``)."""
    if isinstance(text, int):
        return [text]
    base = int(str(text).split("+")[0])
    return [base + face for face in faces]


def rival_on_road(view: View, seat: int) -> dict[str, Any] | None:
    """The other player, if he may pick a coach this round."""
    for other in view["players"]:
        if other["seat"] != seat and other["status"] == "riding" and not other["must_rest"]:
            return other
    return None


def random_guards_here(random_guards: int) -> list[tuple[int, float]]:
    """How many of the random guards land at one place (each 1 in 6): 0, 1, 2 and "3 or more" as 3."""
    chances = [math.comb(random_guards, k) * (1 / 6) ** k * (5 / 6) ** (random_guards - k)
               for k in range(min(random_guards, 2) + 1)]
    if random_guards > 2:
        chances.append(1.0 - sum(chances))
    return [(k, chance) for k, chance in enumerate(chances) if chance > 1e-9]


def coach_value(view: View, seat: int, coach: dict[str, Any], faces: tuple[int, ...] = ROLLED_FACES,
                scoundrel_guard: float = SCOUNDREL_GUARD_PENALTY) -> float:
    """Expected value of robbing this coach: over the dice to roll, "N+d6" stats and guards, and the
    chance the other player comes too (one die less, his hunters too, half the money; his pooled dice
    are left out, which errs on the careful side)."""
    player = view["players"][seat]
    tables = value_tables(my_profile(view, seat, scoundrel_guard))
    random_guards = sum(p["folk_hero"] // GUARD_STEP for p in view["players"] if p["status"] == "riding")
    targeted = player["scoundrel"] // GUARD_STEP
    guard_cases = [(targeted + k, chance) for k, chance in random_guards_here(random_guards)]
    speeds, wits, combats = (stat_outcomes(coach[s], faces) for s in ("speed", "wit", "combat"))
    stat_weight = 1.0 / (len(speeds) * len(wits) * len(combats))
    mine = tuple(view["my_dice"])
    horse, wit_b, combat_b = engine.horse_bonus(player), engine.wit_bonus(player), engine.combat_bonus(player)
    other = rival_on_road(view, seat)
    cases = [(1.0 - CLASH_CHANCE if other else 1.0, 0, 2, coach["money"])]
    if other:
        cases.append((CLASH_CHANCE, other["scoundrel"] // GUARD_STEP, 1, coach["money"] // 2))
    total = 0.0
    for case_chance, hunters, extra, money in cases:
        for guards, chance in guard_cases:
            part = 0.0
            for speed in speeds:
                table = roll_table(mine, speed - horse, extra)
                for wit in wits:
                    for combat in combats:
                        guarded = combat + GUARD_STRENGTH * (guards + hunters)
                        part += expected_best(table, tables, wit - wit_b, guarded - combat_b, money)
            total += case_chance * chance * part * stat_weight
    return total


def town_guard_risk(view: View, seat: int, where: str) -> float:
    """Expected cost of the guards that may meet this player in town (Y9): his own hunters, however
    many random guards land there, and the other player's hunters if he comes to the same place;
    a fresh d6 plus weapons against 5 a guard."""
    player = view["players"][seat]
    health, bonus = player["health"], engine.combat_bonus(player)
    targeted = player["scoundrel"] // GUARD_STEP
    random_guards = sum(p["folk_hero"] // GUARD_STEP for p in view["players"] if p["status"] == "riding")
    other = rival_on_road(view, seat)
    hunters = [(0, 1.0)]
    if other:
        hunters = [(0, 1.0 - CLASH_CHANCE), (other["scoundrel"] // GUARD_STEP, CLASH_CHANCE)]
    risk = 0.0
    for k, chance in random_guards_here(random_guards):
        for extra, clash in hunters:
            guards = targeted + k + extra
            if not guards:
                continue
            for roll in range(1, 7):
                loss = max(0, GUARD_STRENGTH * guards - roll - bonus)
                cost = DEATH if loss >= health else loss * health_price(health - loss)
                risk += chance * clash * cost / 6
    return risk


def heal_value(player: dict[str, Any], price: int) -> float:
    """What a visit's meals are worth: each point bought while it is worth more than it costs."""
    health, guineas, value = player["health"], player["guineas"], 0.0
    while health < engine.MAX_HEALTH and guineas >= price and health_price(health) > price - 0.6:
        value += health_price(health) - price + 0.6
        health += 1
        guineas -= price
    return value


def item_gain(player: dict[str, Any], offer: Action, price: int, rounds_left: int) -> float:
    """An item's worth: its extra bonus over the rounds left, less what it costs."""
    item = offer["item"]
    kind, _, bonus = engine.ITEMS[item]
    if kind == "horse":
        extra = bonus - engine.horse_bonus(player)
    elif kind == "gear":
        extra = bonus
    elif item == "rifle":
        extra = bonus - engine.combat_bonus(player)
    else:
        extra = bonus - (engine.ITEMS[offer["trade"]][2] if "trade" in offer else 0)
    return extra * PIP_VALUE * rounds_left - price


def best_purchase(player: dict[str, Any], rounds_left: int) -> tuple[float, Action | None]:
    best: tuple[float, Action | None] = (0.0, None)
    for offer, price in engine.purchases(player):
        if price <= player["guineas"]:
            gain = item_gain(player, offer, price, rounds_left)
            if gain > best[0]:
                best = (gain, offer)
    return best


def should_give(view: View, player: dict[str, Any], scoundrel_guard: float = SCOUNDREL_GUARD_PENALTY) -> bool:
    """Give to the poor (Y9) when scoundrel points have brought guards and enough gifts drop below the line.
    A folk hero gains by it all but a guinea a gift; one playing as a scoundrel loses 3 guineas and 2 points
    a gift, so he gives only while the guard it sends away weighs more for the rounds left."""
    if view["round"] >= view["rounds"] or player["scoundrel"] < GUARD_STEP:
        return False
    over = player["scoundrel"] % GUARD_STEP + 1
    if player["guineas"] < engine.GIFT_PRICE * over:
        return False
    if not player["as_scoundrel"]:
        return True
    share = (view["rounds"] - view["round"]) / 16
    return scoundrel_guard * (player["scoundrel"] // GUARD_STEP) * share >= (engine.GIFT_PRICE + 2) * over


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


def robbery_partners(view: View, seat: int) -> list[dict[str, Any]]:
    """The others robbing the coach ``seat`` robs (Y8), their dice rolled (public)."""
    where = view["players"][seat]["pick"]
    return [p for p in view["players"] if p["seat"] != seat and p["pick"] == where and p["rob_dice"]]


def shared_robbery_values(view: View, seat: int,
                          scoundrel_guard: float = SCOUNDREL_GUARD_PENALTY) -> Callable[[Action], float]:
    """On a shared coach (Y8): an assignment's worth (``result_value``) on average over every way the
    partner may share his dice (his dice and his gear are public), each pooled with ours as the rules
    pool them. The move pane's suggestion reads it too, so that it is the normal bot's choice."""
    player = view["players"][seat]
    where = player["pick"]
    targets = engine.shown_coach_targets(view, where)
    me = my_profile(view, seat, scoundrel_guard)
    partner = robbery_partners(view, seat)[0]
    theirs = solver.choices(partner["rob_dice"], targets["speed"], engine.horse_bonus(partner))
    order = [p["seat"] for p in view["players"] if p["pick"] == where and p["rob_dice"]]
    players = (player, partner) if order[0] == seat else (partner, player)
    bonuses = ([engine.horse_bonus(p) for p in players], [engine.wit_bonus(p) for p in players],
               [engine.combat_bonus(p) for p in players])

    def mean_value(action: Action) -> float:
        mine = solver.Assignment.from_action(action)
        total = 0.0
        for other in theirs:
            pair = (mine, other) if order[0] == seat else (other, mine)
            results = solver.joint_outcomes(pair[0], pair[1], targets["speed"], targets["wit"], targets["combat"],
                                            targets["money"], *bonuses)
            total += result_value(results[order.index(seat)], me)
        return total / len(theirs)

    return mean_value


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
    """The normal bot's rule before issue 44: declare on the last two rounds, if it pays then."""
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
#: was before issue 44 (it declared only in the last two rounds, and weighed a guard the same either way),
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
