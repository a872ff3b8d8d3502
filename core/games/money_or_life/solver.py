"""The dice solver of Your Money or Your Life: every way to assign a robber's dice, and what each brings.

Ruling Y7: every die goes to speed, wit or combat. The speed dice must be a *minimal* set (no die among
them can be removed while still meeting the target; the horse, always applied, may meet it with no dice
at all). Spurring adds +1 speed for 1 health (Y5), and is offered only where it lets the robber meet the
speed: a spur that still misses is never a choice, nor is one beside speed dice that meet the target
without it (the spur, like a die, is not added to a speed already met: Y7's minimal set). If the speed
cannot be met the robbery fails whatever else is done, so all such assignments are one choice. Ruling
Y8 adds the two-attacker case: each assigns his own dice; when both catch the coach their wit dice and
their combat dice are pooled.

Pure functions of small ints, cached, so the engine, the UI and the bots can call them freely.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Iterator, Sequence

from core.engine import quantity

SPEED, WIT, COMBAT = 0, 1, 2


@dataclass(frozen=True)
class Assignment:
    """Which dice (values, sorted) go where, and whether the horse is spurred."""

    spur: bool
    speed: tuple[int, ...]
    wit: tuple[int, ...]
    combat: tuple[int, ...]

    def as_action(self) -> dict[str, Any]:
        return {"do": "assign", "spur": self.spur, "speed": list(self.speed), "wit": list(self.wit),
                "combat": list(self.combat)}

    @staticmethod
    def from_action(action: dict[str, Any]) -> "Assignment":
        return Assignment(bool(action["spur"]), tuple(action["speed"]), tuple(action["wit"]),
                          tuple(action["combat"]))


@dataclass(frozen=True)
class Outcome:
    """What a robbery does to one robber. ``folk_hero``/``scoundrel``/``health`` are raw changes (the
    engine keeps the tracks at 0 or above); ``health`` includes the 1 point a spur costs."""

    speed_met: bool
    spur: bool
    wit_met: bool
    combat_met: bool
    folk_hero: int
    scoundrel: int
    health: int
    money: int

    def as_dict(self) -> dict[str, Any]:
        return {"speed_met": self.speed_met, "spur": self.spur, "wit_met": self.wit_met,
                "combat_met": self.combat_met, "folk_hero": self.folk_hero, "scoundrel": self.scoundrel,
                "health": self.health, "money": self.money}


@dataclass(frozen=True)
class Entry:
    """One distinct outcome and every assignment that leads to it."""

    outcome: Outcome
    assignments: tuple[Assignment, ...]


_LABELINGS = {n: tuple(itertools.product((SPEED, WIT, COMBAT), repeat=n)) for n in range(0, 7)}


def _mask(labels: tuple[int, ...], where: int) -> int:
    return sum(1 << i for i, label in enumerate(labels) if label == where)


#: Each labeling of n dice as three bit masks of dice positions (speed, wit, combat), in the same order:
#: the enumeration below looks the dice up by mask instead of rebuilding tuples per labeling.
_LABEL_MASKS = {n: tuple((_mask(labels, SPEED), _mask(labels, WIT), _mask(labels, COMBAT)) for labels in labelings)
                for n, labelings in _LABELINGS.items()}


def speed_set_is_minimal(speed_dice: Sequence[int], need: int) -> bool:
    """Meets ``need`` and no die can be dropped while still meeting it (the empty set if need <= 0)."""
    total = sum(speed_dice)
    if total < need:
        return False
    return not speed_dice or total - min(speed_dice) < need


def _labelled(dice: tuple[int, ...], speed_need: int) -> Iterator[tuple[bool, tuple[int, ...], tuple[int, ...],
                                                                       tuple[int, ...]]]:
    """Every legal assignment of ``dice`` (sorted values) as (spur, speed dice, wit dice, combat dice), in
    a fixed order (no spur first, then labelings die by die), duplicates included."""
    picked = [tuple(die for i, die in enumerate(dice) if mask >> i & 1) for mask in range(1 << len(dice))]
    for spur in (False, True):
        need = speed_need - spur
        if sum(dice) < need:
            # The coach cannot be caught: the dice are all thrown at speed in vain (Y7). A spur that
            # still misses is never a choice (Y5): it would cost health and the tavern for nothing.
            if not spur:
                yield spur, dice, (), ()
            continue
        minimal = [speed_set_is_minimal(speed, need) and not (spur and sum(speed) >= speed_need)
                   for speed in picked]
        for speed, wit, combat in _LABEL_MASKS[len(dice)]:
            if minimal[speed]:
                yield spur, picked[speed], picked[wit], picked[combat]


@lru_cache(maxsize=65536)
def assignments(dice: tuple[int, ...], speed_need: int) -> tuple[Assignment, ...]:
    """Every legal assignment of ``dice`` (sorted values) when the dice must make ``speed_need``
    (the speed target minus the horse). Assignments that differ only in which of two equal dice goes
    where are the same assignment. A spur lowers the need by one."""
    dice = tuple(sorted(dice))
    found: dict[Assignment, None] = {}
    for spur, speed, wit, combat in _labelled(dice, speed_need):
        found[Assignment(spur, speed, wit, combat)] = None
    return tuple(found)


def catches_coach(assignment: Assignment, speed_target: int, horse_bonus: int) -> bool:
    return sum(assignment.speed) + horse_bonus + assignment.spur >= speed_target


def missed_changes(spur: bool) -> tuple[int, int, int, int]:
    """Y7: the coach got away: one folk hero point lost (and the spur's health point, if spurred).
    As (folk hero, scoundrel, health, money), the bare figures bots weigh by the million."""
    return -1, 0, -int(spur), 0


@lru_cache(maxsize=None)  # two outcomes in all
def missed_speed(spur: bool) -> Outcome:
    """``missed_changes`` as an outcome."""
    return Outcome(False, spur, False, False, *missed_changes(spur))


def robbery_changes(spur: bool, wit_value: int, combat_value: int, wit_target: int, combat_target: int,
                    money: int) -> tuple[int, int, int, int]:
    """Y7 once the coach is caught: wit and combat values (dice plus bonuses) against the targets, as
    (folk hero, scoundrel, health, money)."""
    combat_met = combat_value >= combat_target
    scoundrel = combat_value - combat_target if combat_met else 0
    health = (0 if combat_met else combat_value - combat_target) - int(spur)
    return (wit_value - wit_target, scoundrel, health,
            money if wit_value >= wit_target or combat_met else 0)


@lru_cache(maxsize=65536)
def robbery_outcome(spur: bool, wit_value: int, combat_value: int, wit_target: int, combat_target: int,
                    money: int) -> Outcome:
    """``robbery_changes`` with what was met (an Outcome is frozen, so every robbery with the same
    figures shares one: building it costs more than the look-up)."""
    return Outcome(True, spur, wit_value >= wit_target, combat_value >= combat_target,
                   *robbery_changes(spur, wit_value, combat_value, wit_target, combat_target, money))


def outcome(assignment: Assignment, speed: int, wit: int, combat: int, money: int, horse: int = 0,
            wit_bonus: int = 0, combat_bonus: int = 0) -> Outcome:
    """The outcome of one robber's assignment against a coach's targets (guards already in ``combat``)."""
    return _lone_outcome(assignment.spur, assignment.speed, assignment.wit, assignment.combat, speed, wit, combat,
                         money, horse, wit_bonus, combat_bonus)


def action_outcome(action: dict[str, Any], speed: int, wit: int, combat: int, money: int, horse: int = 0,
                   wit_bonus: int = 0, combat_bonus: int = 0) -> Outcome:
    """``outcome`` of an assignment action (one of ``choice_actions``) without making its ``Assignment``:
    the engine resolves a lone robbery from the action it stored, at every robbery of a playout."""
    return _lone_outcome(bool(action["spur"]), action["speed"], action["wit"], action["combat"], speed, wit, combat,
                         money, horse, wit_bonus, combat_bonus)


def _lone_outcome(spur: bool, speed_dice: Sequence[int], wit_dice: Sequence[int], combat_dice: Sequence[int],
                  speed: int, wit: int, combat: int, money: int, horse: int, wit_bonus: int,
                  combat_bonus: int) -> Outcome:
    if sum(speed_dice) + horse + spur < speed:  # not ``catches_coach``
        return missed_speed(spur)
    return robbery_outcome(spur, sum(wit_dice) + wit_bonus, sum(combat_dice) + combat_bonus, wit, combat, money)


@lru_cache(maxsize=65536)
def _solve(dice: tuple[int, ...], speed: int, wit: int, combat: int, money: int, horse: int,
           wit_bonus: int, combat_bonus: int) -> tuple[Entry, ...]:
    grouped: dict[Outcome, list[Assignment]] = {}
    for assignment in assignments(dice, speed - horse):
        result = outcome(assignment, speed, wit, combat, money, horse, wit_bonus, combat_bonus)
        grouped.setdefault(result, []).append(assignment)
    return tuple(Entry(result, tuple(found)) for result, found in grouped.items())


def solve(dice: Iterable[int], speed: int, wit: int, combat: int, money: int, horse: int = 0,
          wit_bonus: int = 0, combat_bonus: int = 0) -> tuple[Entry, ...]:
    """Every distinct outcome for a lone robber, each with the assignments that give it (Y7).

    ``combat`` is the coach's combat target with any guards (+5 each) already added."""
    return _solve(tuple(sorted(dice)), speed, wit, combat, money, horse, wit_bonus, combat_bonus)


def contribution(assignment: Assignment, speed_target: int, horse: int) -> tuple[Any, ...]:
    """What an assignment brings to a robbery, whoever else is there: the key choices collapse on."""
    if not catches_coach(assignment, speed_target, horse):
        return (assignment.spur, False, 0, 0)
    return (assignment.spur, True, sum(assignment.wit), sum(assignment.combat))


def _need(dice: tuple[int, ...], speed_target: int, horse: int) -> int:
    """What the dice must make, for ``_choices``: every need up to 0 allows the same assignments (no speed
    dice), as does every need past the dice's total and a spur (none catches), so those share a key."""
    return max(0, min(speed_target - horse, sum(dice) + 2))


#: Where each labeling of n dice comes in ``_LABELINGS``' order (``itertools.product``: the first die's
#: label varies slowest): die i labelled wit adds 3^(n-1-i) to its index, labelled combat twice that.
#: ``_PLACE[n][mask]`` is the sum of 3^(n-1-i) over the dice in ``mask``.
_PLACE = {n: tuple(sum(3 ** (n - 1 - i) for i in range(n) if mask >> i & 1) for mask in range(1 << n))
          for n in range(0, 7)}


@lru_cache(maxsize=65536)
def _choices(dice: tuple[int, ...], need: int) -> tuple[Assignment, ...]:
    """``choices`` for sorted dice that must make ``need``: the first assignment (in ``assignments``
    order) of each contribution. A contribution only depends on the need (the horse adds to both sides),
    so the cache is keyed on it.

    The same choices as walking ``_labelled`` and keeping the first of each contribution, found without
    walking every labeling (a cold cache, every new roll in a playout, paid for all 3^n of them): only
    the minimal speed sets are taken, each with every split of the other dice between wit and combat,
    and each contribution keeps the split that comes first in labeling order."""
    count = len(dice)
    # The dice of each mask, in order: a mask's dice are those of the mask without its highest die, then it.
    picked: list[tuple[int, ...]] = [()]
    totals = [0]
    for mask in range(1, 1 << count):
        highest = mask.bit_length() - 1
        picked.append(picked[mask ^ 1 << highest] + (dice[highest],))
        totals.append(totals[mask ^ 1 << highest] + dice[highest])
    every_die = (1 << count) - 1
    place = _PLACE[count]
    found: list[Assignment] = []
    for spur in (False, True):
        spur_need = need - spur
        if totals[every_die] < spur_need:
            # The coach cannot be caught (as in ``_labelled``): one choice, every die at speed, no spur.
            if not spur:
                found.append(Assignment(False, dice, (), ()))
            continue
        # Y7: the speed dice are a minimal set, and every assignment kept catches the coach, so its
        # contribution is (spur, caught, its wit total, its combat total): the key below, spur aside.
        first: dict[tuple[int, int], tuple[int, int, int, int]] = {}  # key -> (labeling index, masks)
        for speed in range(1 << count):
            if not speed_set_is_minimal(picked[speed], spur_need) or (spur and totals[speed] >= need):
                continue  # not minimal, or a spur these dice do not need (Y5)
            rest = every_die ^ speed
            wit = rest
            while True:  # every subset of the other dice goes to wit, the remainder to combat
                combat = rest ^ wit
                index = place[wit] + 2 * place[combat]
                key = (totals[wit], totals[combat])
                if key not in first or index < first[key][0]:
                    first[key] = (index, speed, wit, combat)
                if not wit:
                    break
                wit = (wit - 1) & rest
        for _, speed, wit, combat in sorted(first.values()):
            found.append(Assignment(spur, picked[speed], picked[wit], picked[combat]))
    return tuple(found)


def choices(dice: Iterable[int], speed_target: int, horse: int = 0) -> tuple[Assignment, ...]:
    """One assignment per distinct contribution (spur, speed met, wit dice total, combat dice total).

    For a lone robber two assignments with the same contribution have the same outcome and different
    contributions have different outcomes, so these are exactly the collapsed entries of ``solve``; for
    two attackers (Y8) the contribution is all a partner's dice can matter. The engine offers these."""
    dice = tuple(sorted(dice))
    return _choices(dice, _need(dice, speed_target, horse))


@lru_cache(maxsize=65536)
def _choice_fields(dice: tuple[int, ...], need: int) -> tuple[tuple[bool, tuple[int, ...], tuple[int, ...],
                                                                     tuple[int, ...]], ...]:
    """``_choices`` as (spur, speed dice, wit dice, combat dice): what an assignment action holds."""
    return tuple((choice.spur, choice.speed, choice.wit, choice.combat) for choice in _choices(dice, need))


@lru_cache(maxsize=65536)
def _choice_keys(dice: tuple[int, ...], need: int) -> frozenset[tuple[Any, ...]]:
    return frozenset(_choice_fields(dice, need))


ASSIGN_KEYS = frozenset(("do", "spur", "speed", "wit", "combat"))


def is_offered(action: Any, dice: Iterable[int], speed_target: int, horse: int = 0) -> bool:
    """``action in choice_actions(dice, speed_target, horse)``, by one set look-up instead of comparing
    the action with every offer in turn (a roll of four dice offers dozens)."""
    if not isinstance(action, dict) or action.keys() != ASSIGN_KEYS or action["do"] != "assign":
        return False
    spur, speed, wit, combat = action["spur"], action["speed"], action["wit"], action["combat"]
    # An offer holds lists, and a list is never equal to anything but a list.
    if not (isinstance(speed, list) and isinstance(wit, list) and isinstance(combat, list)):
        return False
    try:
        return (spur, tuple(speed), tuple(wit), tuple(combat)) in _offers(tuple(sorted(dice)), speed_target, horse)[1]
    except TypeError:  # something unhashable where the offers hold a bool or dice: equal to none of them
        return False


def choice_actions(dice: Iterable[int], speed_target: int, horse: int = 0) -> list[dict[str, Any]]:
    """``choices`` as action dicts (the engine's legal assignments), as ``Assignment.as_action`` makes them.

    Each is made afresh, its lists too, from the cached dice: a caller may change what it is given without
    changing what the next caller gets."""
    return [{"do": "assign", "spur": spur, "speed": [*speed], "wit": [*wit], "combat": [*combat]}
            for spur, speed, wit, combat in _offers(tuple(sorted(dice)), speed_target, horse)[0]]


@lru_cache(maxsize=65536)
def _offers(dice: tuple[int, ...], speed_target: int, horse: int) -> tuple[
        tuple[tuple[bool, tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...], frozenset[tuple[Any, ...]]]:
    """``_choice_fields`` and ``_choice_keys`` for the dice (sorted: the offers do not depend on the order
    they were rolled in, and one entry for each set of dice keeps a playout's look-ups from missing), the
    coach's speed and the horse: what the engine asks at every robbery twice (to list the choices, then to
    check the one made), found by one look-up instead of working out the need each time."""
    need = _need(dice, speed_target, horse)
    return _choice_fields(dice, need), _choice_keys(dice, need)


def joint_outcomes(first: Assignment, second: Assignment, speed: int, wit: int, combat: int, money: int,
                   horses: Sequence[int] = (0, 0), wit_bonuses: Sequence[int] = (0, 0),
                   combat_bonuses: Sequence[int] = (0, 0)) -> tuple[Outcome, Outcome]:
    """Y8: two attackers on one coach. Each must catch it on his own; if only one does, he robs alone
    with his own dice and the whole purse; if both do, wit dice and combat dice are pooled with both
    players' bonuses, both take the same track changes and half the money each, rounded down."""
    caught = [catches_coach(first, speed, horses[0]), catches_coach(second, speed, horses[1])]
    pair = (first, second)
    if not all(caught):
        return tuple(  # type: ignore[return-value]
            outcome(pair[i], speed, wit, combat, money, horses[i], wit_bonuses[i], combat_bonuses[i])
            for i in range(2))
    wit_value = sum(first.wit) + sum(second.wit) + sum(wit_bonuses)
    combat_value = sum(first.combat) + sum(second.combat) + sum(combat_bonuses)
    return tuple(  # type: ignore[return-value]
        robbery_outcome(pair[i].spur, wit_value, combat_value, wit, combat, money // 2) for i in range(2))


def describe(assignment: Assignment) -> str:
    """``speed 6, wit 5+1, combat 4`` (and ``spurred``)."""

    def part(name: str, dice: tuple[int, ...]) -> str:
        return f"{name} {'+'.join(map(str, dice)) if dice else '-'}"

    text = ", ".join([part("speed", assignment.speed), part("wit", assignment.wit),
                      part("combat", assignment.combat)])
    return text + (", spurred" if assignment.spur else "")


def describe_outcome(result: Outcome) -> str:
    """``caught: +1 folk hero, +1 scoundrel, 1 guineas`` in the sheet's words."""
    if not result.speed_met:
        text = "got away: -1 folk hero"
        return text + (", -1 health (spur)" if result.spur else "")
    parts = [f"{result.folk_hero:+d} folk hero"]
    if result.combat_met:
        parts.append(f"{result.scoundrel:+d} scoundrel")
    if result.health:
        parts.append(f"{result.health:+d} health")
    parts.append(quantity(result.money, "guinea"))
    return "caught: " + ", ".join(parts)


@lru_cache(maxsize=65536)
def _contributions(dice: tuple[int, ...], speed_target: int, horse: int) -> tuple[tuple[Any, ...], ...]:
    return tuple(contribution(choice, speed_target, horse)
                 for choice in _choices(dice, _need(dice, speed_target, horse)))


def contributions(dice: Iterable[int], speed_target: int, horse: int = 0) -> tuple[tuple[Any, ...], ...]:
    """The distinct contributions (spur, speed met, wit dice total, combat dice total) of ``choices``,
    in the same order: the fast path for bots weighing many hypothetical rolls."""
    return _contributions(tuple(sorted(dice)), speed_target, horse)
