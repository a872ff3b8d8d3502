"""The ``sharp`` bot for The Famous Dick Turpin: reads only its seat's view (A3).

Robbing, it declares every passenger left (declaring fewer only takes options away) and then turns
another card while the expected takings of going on, worked out exactly over the booty cards still in the
pile and the passengers it may still rob, beat what it holds (``robbery_value``).

Choosing a town, it plans the rest of the round: each town it holds is worth, on each journey left, the
takings expected at that town's place on the road (fewer passengers are left further along) times its
chance of robbing there, which the duel risk lowers; that risk comes from the cards the others may still
hold, as far as the view shows them (T12). It plays the town of the best plan for this journey.
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import permutations
from typing import Any, Callable

PISTOL = 0
#: Passengers a rival robbing ahead of us takes off the coach, on average (what a rival robbing
#: at random does; a careful one takes about as many).
PASSENGERS_TAKEN_PER_ROBBERY = 1.5
#: Every passenger we rob is one a rival cannot rob later (he would take part of it from us): worth this
#: many coins to us when deciding to go on drawing.
PASSENGER_DENIAL_VALUE = 0.0


def sharp_bot(view_of: Callable[[dict, Any], dict], legal_actions_of: Callable[[dict, int], list]):
    """The sharp bot for a game whose views ``view_of`` gives (the engine passes its own ``view``)."""

    def choose(state: dict, seat: int, rng: random.Random) -> dict:
        seen = view_of(state, seat)
        phase = seen["phase"]
        if phase == "declare":
            return {"do": "declare", "passengers": seen["passengers"]}
        if phase == "draw":
            return {"do": "draw"} if should_draw(seen) else {"do": "stop"}
        return {"do": "choose", "town": pick_town(seen)}

    return choose


# --- robbing ------------------------------------------------------------------------------------------

def next_pile(seen: dict) -> tuple[int, ...]:
    """The booty the next card comes from: the pile, or the face-up cards when it is used up (T9)."""
    pile = tuple(seen["booty_left"])
    if sum(pile):
        return pile
    counts = [0] * len(pile)
    for card in seen["face_up"]:
        counts[card] += 1
    return tuple(counts)


def should_draw(seen: dict) -> bool:
    """Turn another card if that is worth more, on average, than the coins already turned."""
    me = seen["seat"]
    held = sum(seen["turned"])
    cards_left = seen["declared"] - len(seen["turned"])
    others_gold = sum(seen["gold"]) - seen["gold"][me]
    pile = next_pile(seen)
    going_on = draw_value(held, pile, cards_left, others_gold)
    return going_on > min(held, others_gold)


@lru_cache(maxsize=200_000)
def robbery_value(held: int, pile: tuple[int, ...], cards_left: int, others_gold: int) -> float:
    """Expected coins from holding ``held`` with ``cards_left`` more cards allowed, playing best."""
    stop = min(held, others_gold)
    if cards_left == 0 or stop == others_gold:
        return stop
    return max(stop, draw_value(held, pile, cards_left, others_gold))


def draw_value(held: int, pile: tuple[int, ...], cards_left: int, others_gold: int) -> float:
    """Expected coins from turning one more card now, then playing best."""
    total = sum(pile)
    if total == 0:
        return min(held, others_gold)
    value = 0.0
    for coins in range(1, len(pile)):
        count = pile[coins]
        if count:
            rest = pile[:coins] + (count - 1,) + pile[coins + 1:]
            value += count * (robbery_value(held + coins, rest, cards_left - 1, others_gold)
                              + PASSENGER_DENIAL_VALUE)
    return value / total


# --- choosing a town ----------------------------------------------------------------------------------

def duel_free_chance(seen: dict, town: str) -> float:
    """The chance of robbing at ``town``: alone, or winning a duel (about 1 in the number duelling).

    A rival is at ``town`` with chance 1 / (the towns he may still hold), if it is one of them: his
    played cards are known only as far as the view shows (the top card, or the whole pile if open).
    """
    me = seen["seat"]
    # Distribution of the number of rivals at the town (independent rivals).
    rivals = [1.0]
    for seat in range(seen["players"]):
        if seat == me:
            continue
        if seen["piles"] is not None:
            may_hold = [t for t in seen["route"] if t not in seen["piles"][seat]]
        else:
            may_hold = [t for t in seen["route"] if t != seen["pile_tops"][seat]]
        chance = 1.0 / len(may_hold) if town in may_hold else 0.0
        rivals = [a * (1 - chance) + b * chance for a, b in zip(rivals + [0.0], [0.0] + rivals)]
    return sum(p / (count + 1) for count, p in enumerate(rivals))


def town_value(passengers: float, pile: tuple[int, ...], others_gold: int) -> float:
    """Expected takings of a careful robbery with about ``passengers`` passengers on the coach."""
    low = int(passengers)
    high_weight = passengers - low
    value = (1 - high_weight) * robbery_value(0, pile, max(low, 0), others_gold)
    if high_weight:
        value += high_weight * robbery_value(0, pile, low + 1, others_gold)
    return value


def pick_town(seen: dict) -> str:
    """The first town of the best plan for the journeys left in this round."""
    hand = seen["hand"]
    if len(hand) == 1:
        return hand[0]
    me = seen["seat"]
    others_gold = sum(seen["gold"]) - seen["gold"][me]
    pile = tuple(seen["booty_left"])
    rivals = seen["players"] - 1
    northbound_order = ["Oxford", "Bath", "Warwick", "Lancaster", "York", "Carlisle"]
    north_now = seen["northbound"]

    # value[j][town]: journey j from now (0 = this one).
    values: list[dict[str, float]] = []
    for j in range(len(hand)):
        north = north_now == (j % 2 == 0)
        route = northbound_order if north else northbound_order[::-1]
        row = {}
        for town in hand:
            place = route.index(town)
            if j == 0:
                ahead = sum(1 - duel_free_chance_alone(seen, t) for t in route[:place])
                robbing = duel_free_chance(seen, town)
            else:
                rival_chance = 1 / max(len(hand) - j, 1)
                ahead = place * (1 - (1 - rival_chance) ** rivals)
                robbing = sum(_binomial(rivals, k, rival_chance) / (k + 1) for k in range(rivals + 1))
            passengers = max(6 - PASSENGERS_TAKEN_PER_ROBBERY * ahead, 1.0)
            row[town] = robbing * town_value(passengers, pile, others_gold)
        values.append(row)
    best = max(permutations(hand), key=lambda plan: sum(values[j][town] for j, town in enumerate(plan)))
    return best[0]


def duel_free_chance_alone(seen: dict, town: str) -> float:
    """The chance that no rival waits at ``town``."""
    me = seen["seat"]
    free = 1.0
    for seat in range(seen["players"]):
        if seat == me:
            continue
        if seen["piles"] is not None:
            may_hold = [t for t in seen["route"] if t not in seen["piles"][seat]]
        else:
            may_hold = [t for t in seen["route"] if t != seen["pile_tops"][seat]]
        if town in may_hold:
            free *= 1 - 1.0 / len(may_hold)
    return free


def _binomial(n: int, k: int, p: float) -> float:
    from math import comb
    return comb(n, k) * p ** k * (1 - p) ** (n - k)
