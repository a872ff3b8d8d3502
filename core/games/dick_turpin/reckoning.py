"""The normal bot's reckoning for The Famous Dick Turpin, which the hard bot builds on: what a robbery is
worth played best (``robbery_value``, turned card by turned card over the booty still in the pile), and
what each town of a hand is worth as the first of a plan for the journeys left in the round (``plan``,
the duel risk read from what the view shows of the rivals' cards, T12). ``bots.py`` says how the levels
use it.
"""

from __future__ import annotations

import random
from functools import lru_cache

from core.games.dick_turpin.rules import PASSENGERS, journey_route

#: Passengers a rival robbing ahead of us takes off the coach, on average. (Tried 0.5 to 2.5 against
#: random bots: the win rate does not move beyond noise.)
PASSENGERS_TAKEN_PER_ROBBERY = 1.5


def public_view(state: dict, seat: int) -> dict:
    """The parts of ``view(state, seat)`` the normal bot reads, as they are in the state rather than
    copied: every one of them is in the seat's view (A3). The hard bot's playouts ask the normal bot
    for every move, and building the whole view was a fifth of a playout. Read only: the lists are the
    state's own."""
    piles = state["piles"]
    return {"seat": seat, "players": state["players"], "phase": state["phase"], "passengers": state["passengers"],
            "route": journey_route(state), "gold": state["gold"], "booty_left": state["booty"],
            "face_up": state["face_up"], "turned": state["turned"], "declared": state["declared"],
            "hand": state["hands"][seat], "pile_tops": [pile[-1] if pile else None for pile in piles],
            "piles": piles if state["options"]["open_piles"] else None}


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
    going_on = draw_value(held, pile, cards_left, relevant_gold(others_gold, held, pile, cards_left))
    return going_on > min(held, others_gold)


def relevant_gold(others_gold: int, held: int, pile: tuple[int, ...], cards_left: int) -> int:
    """The others' gold as far as it can matter to a robbery: a claim is cut to what they hold (T7),
    and no claim can pass ``held`` plus the richest card for every card left. Gold beyond that changes
    nothing, and leaving it out of the cached values' keys lets playouts share far more of them."""
    return min(others_gold, held + (len(pile) - 1) * cards_left)


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
            value += count * robbery_value(held + coins, rest, cards_left - 1, others_gold)
    return value / total


# --- choosing a town ----------------------------------------------------------------------------------

def rival_chances(route: tuple[str, ...], rivals_played: tuple[tuple[str, ...], ...], town: str) -> list[float]:
    """For each rival, the chance he lies in wait at ``town`` this journey.

    As far as our view shows (the top of his played pile, or all of it with open piles, T12: his
    ``rivals_played``) he may hold any of the other towns, and any of them is as likely to be his card
    this time.
    """
    chances = []
    for played in rivals_played:
        may_hold = [t for t in route if t not in played]
        chances.append(1.0 / len(may_hold) if town in may_hold else 0.0)
    return chances


def robbing_chance(chances: list[float]) -> float:
    """The chance of robbing at a town the rivals come to with these chances: alone, or by winning the
    duel, about one in the number duelling (T8)."""
    rivals_there = [1.0]  # rivals_there[k]: the chance that k rivals are there
    for chance in chances:
        rivals_there = [stay * (1 - chance) + come * chance
                        for stay, come in zip(rivals_there + [0.0], [0.0] + rivals_there)]
    return sum(p / (count + 1) for count, p in enumerate(rivals_there))


@lru_cache(maxsize=100_000)
def takings(passengers: float, pile: tuple[int, ...], others_gold: int) -> float:
    """Expected takings of a careful robbery with about ``passengers`` passengers on the coach."""
    low = int(passengers)
    part = passengers - low
    value = (1 - part) * robbery_value(0, pile, low, others_gold)
    if part:
        value += part * robbery_value(0, pile, low + 1, others_gold)
    return value


#: Plans worth this share less than the best one are as good as it, as far as the bot can tell (its
#: model of the rivals is rough): at the start of a round the six towns' plans are within 2% of each
#: other. Always taking the very best, normal bots that see the same table all lay the same town,
#: journey after journey, and fight over it while a person who noticed robs alone.
NEAR_BEST = 0.05


def pick_town(seen: dict, rng: random.Random) -> str:
    """One of ``towns_near_best``, at random: a rival cannot read the bot's card from its own view."""
    near = towns_near_best(seen)
    return near[0] if len(near) == 1 else rng.choice(near)


def towns_near_best(seen: dict) -> list[str]:
    """The towns that begin a plan for the journeys left in this round (``plan``) worth as much as the
    best, or nearly (``NEAR_BEST``), in hand order."""
    hand = seen["hand"]
    if len(hand) == 1:
        return list(hand)
    worths = plan(*plan_inputs(seen))
    best = max(worths.values())
    return [town for town in hand if worths[town] >= best * (1 - NEAR_BEST)]


def plan_inputs(seen: dict) -> tuple:
    """What ``plan`` reads of a view, as the hashable arguments its cache keys on."""
    me = seen["seat"]
    rivals_played = tuple(tuple(seen["piles"][seat] if seen["piles"] is not None else seen["pile_tops"][seat:seat + 1])
                          for seat in range(seen["players"]) if seat != me)
    pile = tuple(seen["booty_left"])
    others_gold = relevant_gold(sum(seen["gold"]) - seen["gold"][me], 0, pile, PASSENGERS)
    return tuple(seen["hand"]), tuple(seen["route"]), rivals_played, others_gold, pile


# Not cached: an lru_cache of plans (even of 4,096) made the garbage collector's passes take hundreds of
# milliseconds in the hard bot's playouts, and its p99 went from 251 to 420-600 ms (4-player, load 2-3).
def plan(hand: tuple[str, ...], this_way: tuple[str, ...], rivals_played: tuple[tuple[str, ...], ...],
         others_gold: int, pile: tuple[int, ...]) -> dict[str, float]:
    """For each town of the hand, the takings expected of the best plan for the journeys left in this
    round that plays it first.

    This journey uses what the view shows of the rivals' cards; later journeys assume each rival holds
    as many cards as we do, any of them equally likely to be played.
    """
    rivals = len(rivals_played)
    other_way = this_way[::-1]
    # This journey's odds at each town, worked out once (the plan reads them for every town behind it).
    chances = {town: rival_chances(this_way, rivals_played, town) for town in this_way}
    someone_at = {town: 1 - prod_free(found) for town, found in chances.items()}
    worth: list[dict[str, float]] = []  # worth[j][town]: playing town j journeys from now
    for j in range(len(hand)):
        route = this_way if j % 2 == 0 else other_way
        row = {}
        for town in hand:
            place = route.index(town)
            if j == 0:
                robbers_ahead = sum(someone_at[t] for t in route[:place])
                chance = robbing_chance(chances[town])
            else:
                someone, chance = later_odds(len(hand) - j, rivals)
                robbers_ahead = place * someone
            passengers = max(PASSENGERS - PASSENGERS_TAKEN_PER_ROBBERY * robbers_ahead, 1.0)
            row[town] = chance * takings(passengers, pile, others_gold)
        worth.append(row)
    return best_plans(list(hand), worth)


@lru_cache(maxsize=64)
def later_odds(cards: int, rivals: int) -> tuple[float, float]:
    """On a later journey, with each rival playing any of ``cards`` cards: the chance someone is at a
    town, and our chance of robbing there."""
    guess = [1.0 / cards] * rivals
    return 1 - prod_free(guess), robbing_chance(guess)


def best_plans(hand: list[str], worth: list[dict[str, float]]) -> dict[str, float]:
    """For each town of the hand, the most worth of a plan (an order of the hand) that plays it first, as
    trying every order would find; by the best worth of each set of towns left (2**n sets rather than n!
    orders, which made this bot slow enough to starve the hard bot's playouts)."""
    size = len(hand)
    rest_worth = [0.0] * (1 << size)  # rest_worth[mask]: the best worth of playing the towns in mask last
    for mask in range(1, 1 << size):
        j = size - bin(mask).count("1")
        rest_worth[mask] = max(worth[j][hand[i]] + rest_worth[mask & ~(1 << i)]
                               for i in range(size) if mask >> i & 1)
    full = (1 << size) - 1
    return {town: worth[0][town] + rest_worth[full & ~(1 << i)] for i, town in enumerate(hand)}


def prod_free(chances: list[float]) -> float:
    """The chance that none of the rivals comes."""
    free = 1.0
    for chance in chances:
        free *= 1 - chance
    return free
