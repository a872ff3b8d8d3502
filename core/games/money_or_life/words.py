"""Your Money or Your Life in words: robbery and town-fight lines a reader can check by hand.

Every line shows the sum it stands on: each die, each item's bonus by name, the spur, the coach's target
with +5 per guard (Y6), what was met or missed and by how much, and what that does to the tracks (Y7,
Y8, Y9). Pure formatting of numbers the engine hands over; the rules themselves live in
``rules.py`` and ``solver.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from core.engine import quantity


@dataclass(frozen=True)
class Robber:
    """One robber's side of a robbery, as the log shows it."""

    name: str                                     # "Seat 1"
    speed: tuple[int, ...]
    wit: tuple[int, ...]
    combat: tuple[int, ...]
    spur: bool
    horse: tuple[tuple[str, int], ...]            # (("farm horse", 4),) or ()
    gear: tuple[tuple[str, int], ...]             # (("mask", 2), ...)
    weapons: tuple[tuple[str, int], ...]          # (("cudgel", 2), ...)
    folk_hero: int | None = None                  # before the robbery: a loss stops at 0 (said "to 0")


@dataclass(frozen=True)
class Coach:
    """The coach's figures at the robbery: rolled stats as rolled, combat before guards."""

    name: str
    where: str                                    # "North"
    speed: int
    wit: int
    combat: int                                   # as printed or rolled
    guards: int
    combat_target: int                            # with the guards' +5 each (Y6)
    money: int


def tally(parts: Sequence[tuple[str, int]]) -> tuple[str, int]:
    """``("2+5 + horse 2 = 9", 9)`` from labelled parts; a lone plain number stays as it is."""
    shown = [text for text, _ in parts if text]
    total = sum(value for _, value in parts)
    if not shown:
        return "0 (no dice)", 0
    if len(shown) == 1 and shown[0] == str(total):
        return shown[0], total
    return f"{' + '.join(shown)} = {total}", total


def dice_part(dice: Sequence[int], owner: str = "") -> list[tuple[str, int]]:
    if not dice:
        return []
    return [("+".join(map(str, dice)) + (f" ({owner})" if owner else ""), sum(dice))]


def bonus_parts(bonuses: Sequence[tuple[str, int]], owner: str = "") -> list[tuple[str, int]]:
    return [(f"{item} {bonus}" + (f" ({owner})" if owner else ""), bonus) for item, bonus in bonuses]


def combat_target(coach: Coach) -> tuple[str, int]:
    """``"5 + 5 for 1 guard = 10"``: the printed (or rolled) combat and +5 per guard (Y6)."""
    if not coach.guards:
        return str(coach.combat), coach.combat
    extra = coach.combat_target - coach.combat
    return f"{coach.combat} + {extra} for {quantity(coach.guards, 'guard')} = {coach.combat_target}", \
        coach.combat_target


def speed_line(robber: Robber, coach: Coach) -> tuple[str, bool]:
    """``"speed 2+5 + farm horse 4 + spur 1 = 12 against 9, caught"`` and whether it was."""
    parts = dice_part(robber.speed) + bonus_parts(robber.horse) + ([("spur 1", 1)] if robber.spur else [])
    text, value = tally(parts)
    caught = value >= coach.speed
    stops = ", to 0" if robber.folk_hero == 0 else ""  # the track stops at 0
    verdict = "caught" if caught else f"the coach gets away: -1 folk hero (Y7{stops})"
    return f"speed {text} against {coach.speed}, {verdict}", caught


def to_nothing(track: int | None, loss: int) -> str:
    """" (to 0)" when a loss is more than the track holds (the tracks stop at 0), as the move list says."""
    return " (to 0)" if track is not None and loss > track else ""


def wit_and_combat(wit: tuple[str, int], combat: tuple[str, int], coach: Coach,
                   robbers: Sequence[Robber]) -> str:
    """Y7: wit met gains the excess as folk hero, missed loses the shortfall; combat met gains the excess
    as scoundrel, missed costs the shortfall in health. Two ``robbers`` take the changes each (Y8)."""
    (wit_text, wit_value), (combat_text, combat_value) = wit, combat
    each = " each" if len(robbers) > 1 else ""
    wit_gap = wit_value - coach.wit
    if wit_gap >= 0:
        wit_verdict = f"met by {wit_gap}: +{wit_gap} folk hero{each}"
    else:
        wit_verdict = f"missed by {-wit_gap}: -{-wit_gap} folk hero{each}{stopped_at_nothing(robbers, -wit_gap)}"
    target_text, target = combat_target(coach)
    combat_gap = combat_value - target
    if combat_gap >= 0:
        combat_verdict = f"met by {combat_gap}: +{combat_gap} scoundrel{each}"
    else:
        combat_verdict = f"missed by {-combat_gap}: -{-combat_gap} health{each}"
    return (f"wit {wit_text} against {coach.wit}, {wit_verdict}; "
            f"combat {combat_text} against {target_text}, {combat_verdict}")


def spur_note(robber: Robber) -> str:
    return f"; {robber.name} spurred: -1 health, and rests at the tavern next round (Y5)" if robber.spur else ""


def takings(wit_value: int, combat_value: int, coach: Coach, shared: bool) -> str:
    """Y7: the money if wit or combat is met; Y8: half each, rounded down."""
    if wit_value < coach.wit and combat_value < coach.combat_target:
        return "no money: wit and combat both missed"
    if shared:
        half = coach.money // 2
        return f"{quantity(coach.money, 'guinea')} shared: {quantity(half, 'guinea')} each (half, rounded down)"
    return f"takes {quantity(coach.money, 'guinea')}"


def lone_robbery(robber: Robber, coach: Coach, whole_purse: bool = False) -> str:
    """Y7, or Y8 when the partner missed the speed (``whole_purse``): one robber against the coach."""
    speed, caught = speed_line(robber, coach)
    alone = " alone, with the whole purse (Y8)" if whole_purse else ""
    opening = f"{robber.name} robs {coach.name} ({coach.where}){alone}: {speed}"
    if not caught:
        return opening + spur_note(robber) + "."
    wit = tally(dice_part(robber.wit) + bonus_parts(robber.gear))
    combat = tally(dice_part(robber.combat) + bonus_parts(robber.weapons))
    return (f"{opening}; {wit_and_combat(wit, combat, coach, [robber])}; "
            f"{takings(wit[1], combat[1], coach, False)}{spur_note(robber)}.")


def speed_only(robber: Robber, coach: Coach) -> str:
    """Y8: each robber's own chase, before the pooled wit and combat."""
    speed, _ = speed_line(robber, coach)
    return f"{robber.name} goes for {coach.name} ({coach.where}): {speed}{spur_note(robber)}."


def pooled_robbery(robbers: Sequence[Robber], coach: Coach) -> str:
    """Y8: both caught the coach; their wit dice and combat dice are pooled with both players' items."""
    wit = tally([part for r in robbers for part in dice_part(r.wit, r.name) + bonus_parts(r.gear, r.name)])
    combat = tally([part for r in robbers for part in dice_part(r.combat, r.name)
                    + bonus_parts(r.weapons, r.name)])
    names = " and ".join(r.name for r in robbers)
    return (f"{names} rob {coach.name} together (Y8), pooling dice and items: "
            f"{wit_and_combat(wit, combat, coach, robbers)}; {takings(wit[1], combat[1], coach, True)}.")


def stopped_at_nothing(robbers: Sequence[Robber], loss: int) -> str:
    """Y2 for a wit missed by ``loss``: " (to 0)" when the robber's folk hero stops at 0; of two who pool,
    whose does (" (Seat 1: to 0)", " (both to 0)")."""
    stopped = [robber.name for robber in robbers if to_nothing(robber.folk_hero, loss)]
    if not stopped:
        return ""
    if len(robbers) == 1:
        return " (to 0)"
    return " (both to 0)" if len(stopped) == len(robbers) else f" ({stopped[0]}: to 0)"


def town_fight(name: str, guards: int, place: str, roll: int, weapons: Sequence[tuple[str, int]],
               target: int) -> str:
    """Y9: a fresh d6 plus weapons against ``target`` (5 a guard); the shortfall comes off health."""
    text, value = tally([(str(roll), roll)] + bonus_parts(weapons))
    shortfall = max(0, target - value)
    verdict = f"loses {shortfall} health" if shortfall else "no harm done"
    return (f"{name} meets {quantity(guards, 'guard')} in the {place} (Y9): rolls {text} against {target}, "
            f"{verdict}.")


def assignment_refused(speed_dice: Sequence[int], spur: bool, dice: Sequence[int], speed: int, horse: int,
                       die: Callable[[int], str] = str, spur_key: str = "") -> str:
    """Why the rules refuse an assignment of ``dice`` with ``speed_dice`` on speed (Y7, and Y5 for the
    spur), in words; ``die`` names one die as the reader sees it, ``spur_key`` the key that takes a spur
    off (said when a spur is refused)."""
    need = speed - horse - spur
    if sum(dice) < need:
        return "the coach is too fast for these dice: every die goes to speed, in vain (Y7)"
    reached = sum(speed_dice) + horse + spur
    if reached < speed:
        return f"speed {reached} does not catch the coach's {speed}: put more dice on speed"
    if spur and reached - 1 >= speed:
        return (f"no spur needed: speed {reached - 1} catches the coach's {speed} without it (Y5)"
                + (f"; {spur_key} takes the spur off" if spur_key else ""))
    spare = min(speed_dice)
    return (f"a die too many on speed: without the {die(spare)} it still catches the coach's "
            f"{speed}, and every speed die must be needed (a minimal set, Y7): move it to wit or combat")
