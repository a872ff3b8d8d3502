"""The normal bot's reckoning for Your Money or Your Life, in points of final score: what an outcome is
worth to a player (``outcome_value``: money, reputation as his formula counts it, health at a price
that climbs as it runs low, the guards his tracks bring), what a coach is worth before the dice are
rolled (``coach_value``, from tables of rolls kept across games), what the tavern and the market offer,
and an assignment's worth on a shared coach (``shared_robbery_values``). The levels in ``bots.py`` and
the move pane's suggestions (``tui/games/money_or_life/advice.py``) read it.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from core.engine import Action, View
from core.games.money_or_life import rules as engine
from core.games.money_or_life import solver
from core.games.money_or_life.rules import GUARD_STEP, GUARD_STRENGTH

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
