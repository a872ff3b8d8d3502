"""The bots for The Famous Dick Turpin, easy to hard; each reads only its seat's view (A3).

``normal`` (once called ``sharp``):

Robbing, it declares every passenger left (declaring fewer only takes options away) and then turns
another card while the expected takings of going on, worked out exactly over the booty cards still in the
pile and the passengers it may still rob, beat what it holds (``robbery_value``).

Choosing a town, it plans the rest of the round: each town it holds is worth, on each journey left, the
takings expected at that town's place on the road (fewer passengers are left further along) times its
chance of robbing there, which the duel risk lowers; that risk comes from the cards the others may still
hold, as far as the view shows them (T12). It plays the first town of the best plan for this journey,
or of one worth nearly as much, at random (``NEAR_BEST``): bots that always took the very best all lay the
same town, since at the start of a round they see the same table.

``easy`` plays like a beginner: it robs everyone, stops once the coins in front of it feel like plenty
(a threshold it has a hunch about, whatever is left in the pile), and heads for the towns early on the
road, where the coach is fullest, without a thought for who else may be lying in wait there.

``hard`` searches (``core.search``), with the normal bot as its model of the others and its playouts.
A rival who has already laid his card this journey is guessed to have laid the normal bot's pick from
the hand the sample gives him (``resample_as_normal_chose``), not any town at random. In 2-player games
its playouts stop when the journey is over (``journey_over``): the lead, and what each player's plan
expects to take from the other in the journeys left, give the chance of winning; playing those journeys
out added mostly the noise of their booty.

Measured (2-player, hard v normal, seats alternating, a shared win counting as a win): **the normal bot
against itself "wins" 54.9% of 2,000 games** on this count, since 7.8% of games are shared; on the
seeds 0-299 of ``bench/bots.py`` it is 61% / 58.5% (seeds 0-99 / 100-299). Hard on the same seeds:
58% / - with a uniform guess of a card already down, 63% / 59.5% with the normal bot's pick, 65% / 59.5%
with the horizon and the normal bot 3x quicker (its plans then cached), and - / 62.0% with room for
1,200 playouts instead of 400 (load 2-5). ``bench/bots.py`` (seeds 0-159, load 2.2-2.8): 58.1% (50-65%),
where normal v normal gives 61.9%. The plan cache was then dropped (it made garbage collection pauses
push hard's p99 to 444 ms), which costs a third of the samples again. Hard is barely stronger than
normal here: a decision gets 20-100 samples, and with six towns to weigh the margin by which one beats
the normal bot's pick rarely clears the noise of a game this lucky (a bar of one standard error instead of two won 52% of
seeds 0-99, a bar of three 66%).

Since the normal bot picks among the near-best towns (``NEAR_BEST``), ``bench/bots.py`` (120 games a table,
load 1.4-2.2): 2-player hard v normal 53.3% (normal v normal on the same seeds 53.3%); 4-player 24.2%,
0.97x the fair share (normal v normal 20.0%). Before, normal bots all laid the same town, and hard took
2.0x the fair share at 4 players mostly by staying out of their duels.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

from core.games import dick_turpin
from core.games.dick_turpin import PASSENGERS, TOWNS, journey_route, resample_hidden, view
from core.search import Budget, searching_bot

#: Passengers a rival robbing ahead of us takes off the coach, on average. (Tried 0.5 to 2.5 against
#: random bots: the win rate does not move beyond noise.)
PASSENGERS_TAKEN_PER_ROBBERY = 1.5


def normal(state: dict, seat: int, rng: random.Random) -> dict:
    """The normal bot: declare everyone, draw while it pays, pick the town of the best plan."""
    seen = public_view(state, seat)
    phase = seen["phase"]
    if phase == "declare":
        return {"do": "declare", "passengers": seen["passengers"]}
    if phase == "draw":
        return {"do": "draw"} if should_draw(seen) else {"do": "stop"}
    return {"do": "choose", "town": pick_town(seen, rng)}


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


sharp = normal  # the old name, for anything that still imports it


# --- easy ---------------------------------------------------------------------------------------------

#: The coins a beginner feels are plenty, one hunch per decision.
EASY_ENOUGH = (3, 4, 4, 5, 6)


def easy(state: dict, seat: int, rng: random.Random) -> dict:
    """The easy bot: robs everyone, stops at a hunch of "plenty", rides to the fullest towns."""
    seen = view(state, seat)
    phase = seen["phase"]
    if phase == "declare":
        return {"do": "declare", "passengers": seen["passengers"]}
    if phase == "draw":
        held = sum(seen["turned"])
        return {"do": "stop"} if held >= rng.choice(EASY_ENOUGH) else {"do": "draw"}
    route = seen["route"]
    hand = sorted(seen["hand"], key=route.index)
    if len(hand) > 1 and rng.random() < 0.25:  # now and then it saves an early town for later
        return {"do": "choose", "town": rng.choice(hand[1:])}
    return {"do": "choose", "town": hand[0]}


# --- hard ---------------------------------------------------------------------------------------------

#: A round of six journeys: a playout guided by the normal bot costs about a millisecond. The time is the
#: limit that binds; the playout cap only keeps a quiet machine from thinking longer.
HARD_BUDGET = Budget(playouts=1200, seconds=0.25)



#: How far the lead of one player over the other moves in a journey of a 2-player game, about: the spread
#: of the final lead over games of normal bots, per square root of the journeys left.
LEAD_SPREAD_PER_JOURNEY = 10.8


def journey_over(state: dict, seat: int, start: dict) -> float | None:
    """The hard bot's playout horizon in a 2-player game: once the journey its search began in is over,
    the seat's chance of winning, read from its lead and from what each player's plan for the rest of
    the round expects to take (every coin taken is a coin the other loses). Later journeys, played out,
    added mostly the noise of their booty."""
    if state["players"] != 2 or state["journeys_played"] == start["journeys_played"] or state["phase"] != "choose":
        return None
    other = 1 - seat
    expected = [max(plan(*plan_inputs(public_view(state, who))).values()) if state["hands"][who] else 0.0
                for who in (seat, other)]
    lead = state["gold"][seat] - state["gold"][other] + 2 * (expected[0] - expected[1])
    journeys_left = state["options"]["rounds"] * 6 - state["journeys_played"]
    spread = LEAD_SPREAD_PER_JOURNEY * math.sqrt(max(journeys_left, 1))
    # A logistic close to the normal curve of the lead (1.7 matches their slopes at nothing).
    return 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -1.7 * lead / spread))))


def resample_as_normal_chose(state: dict, seat: int, rng: random.Random) -> dict:
    """``resample_hidden``, except that a rival who has already laid his card face down this journey
    laid a town the normal bot might have picked from the hand he is guessed to hold.

    A uniform guess of that card ignores how he chooses; the playouts model every player as the normal
    bot, so the card already down should follow the same model. Only while everyone is still choosing:
    then nothing has happened since he chose, and his view then is his view now, bar his own card.
    """
    guess = resample_hidden(state, seat, rng)
    if guess["phase"] != "choose":
        return guess
    for rival, card in enumerate(guess["waiting"]):
        if rival == seat or card is None or not guess["hands"][rival]:
            continue
        hand = sorted(guess["hands"][rival] + [card], key=TOWNS.index)
        guess["hands"][rival], guess["waiting"][rival] = hand, None
        picked = pick_town(public_view(guess, rival), rng)
        hand.remove(picked)
        guess["waiting"][rival] = picked
    return guess


# dick_turpin.GAME, not GAME: the registry takes any module with a GAME for a game of its own.
hard = searching_bot(lambda: dick_turpin.GAME, budget=HARD_BUDGET, horizon=journey_over,
                     resample=resample_as_normal_chose)
