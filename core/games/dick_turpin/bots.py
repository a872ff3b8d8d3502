"""The bots for The Famous Dick Turpin, easy to hard; each reads only its seat's view (A3).

``normal``:

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

``hard`` plays for the win where the normal bot plays for coins, and reads the rivals as normal bots.
Robbing, it turns another card when that makes winning likelier (``draw_for_the_win``): behind near the
end it risks more, ahead less. Choosing a town, it guesses the rivals' hands many times over, has each
rival lay what the normal bot would from his guessed hand, and values each town of its own by the journey
played in expectation (duels by their order, passengers taken ahead) and everyone's plans for the
journeys left (``chance_after_journey``); the town with the best mean is laid (``compare_on_samples``).
Playouts to the end of the game (``core.search``, as the other games' hard bots) were tried first: a
decision got 10-100 samples, each drawing a game's luck, so the search rarely dared to leave the normal
bot's choice, and hard won 53.3% of 2-player games (normal v normal: 53.3%) and 0.97x the fair share at 4.

Measured (the bench's seeds, hard v normal, seat rotated; normal v normal on the same
2,000 seeds: 52.7% at 2 players, 25.2% at 4): robbing for the win alone, 56.2% at 2 players and 28.8% at
4 (2,000 games each); with the town choice, 57.0% and 38.7% (1.55x; 600 games each). ``bench/bots.py
--hard-games 300`` (load 2.5-3.1), twice (the second with the normal bot's town first among the
candidates, which moves the guesses' generator): 2-player 58.0% and 57.3% (52-63%; normal v normal on
the same seeds 54.7%); 4-player 35.7% and 33.0% (1.43x and 1.32x; normal v normal 25.0%); p99 223 ms.

Tried to bring hard to 60% of 2-player games and left out: searching the robbing choice at 2
players, turning another card against stopping played out to the end of the game by normal bots on the
same guesses (``core.search``), ``draw_for_the_win``'s choice standing unless the other won clearly more
(two standard errors; up to 800 playouts or 0.4 s, 0.09 s at the median). It overruled the reckoning at
about one robbery in 30. On the bench's first 300 seeds with a budget of evaluations and no clock (3,000 a
town choice, as a quiet machine gets), hard won 57.7% (52.0-63.1%) without it and 56.7% with it: 75
games went otherwise, the searched ones losing 3 more. More time would not help the town choice either:
it already values 400 to 1,000 guesses a decision in its 0.22 s; what holds it back is its model of the
rival (the normal bot's plan for the round), not noise.
"""

from __future__ import annotations

import math
import random
import time
from functools import lru_cache
from typing import Callable, Sequence

from core.engine import Bot, Game
from core.games.dick_turpin import rules as dick_turpin
from core.games.dick_turpin.rules import (
    JOURNEYS_PER_ROUND,
    PASSENGERS,
    PISTOL,
    TOTAL_GOLD,
    TOWNS,
    booty_mix,
    claim_shares,
    journey_route,
    resample_hidden,
    view,
)
from core.search import Budget, SearchReport, compare_on_samples, mark_hard

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

#: The time a decision may think, and the most evaluations it makes on a quiet machine (a guess of the
#: table is worth one evaluation per town in hand).
HARD_BUDGET = Budget(playouts=3000, seconds=0.22)
#: How far a player's final gold strays from what he can expect, per square root of the journeys left:
#: fitted (by likelihood) to who won 1,500 games of normal bots, from each journey's start. At 2 players
#: it is the spread the 2-player playout horizon used (``LEAD_SPREAD_PER_JOURNEY`` / 1.7); the fit gave
#: 7.5 there, 4.5 at 4 players.
GOLD_SPREAD_PER_JOURNEY = {2: 6.35}
GOLD_SPREAD_AT_LARGER_TABLES = 4.5


def hard_bot(budget: Budget) -> Bot:
    """The hard bot with this budget: ``hard_decision``."""

    def hard(state: dict, seat: int, rng: random.Random) -> dict:
        return hard_decision(state, seat, rng, budget)[0]

    def decide(game: Game, state: dict, seat: int, rng: random.Random) -> tuple[dict, SearchReport | None]:
        return hard_decision(state, seat, rng, budget, resample=game.resample_hidden)

    return mark_hard(hard, budget, decide, hard_bot)


def hard_decision(state: dict, seat: int, rng: random.Random, budget: Budget = HARD_BUDGET,
                  clock: Callable[[], float] = time.perf_counter,
                  resample: Callable[[dict, int, random.Random], dict] = resample_hidden,
                  ) -> tuple[dict, SearchReport | None]:
    """The hard bot's choice, and the search's report when it searched.

    Robbing, it plays for the win rather than for the coins (``draw_for_the_win``). Choosing a town, it
    values each town of its hand over guesses of the rivals' hands and of the cards they lay, each rival
    laying what the normal bot would from the hand guessed (``guess_cards_laid``), by what the journey
    is then expected to bring everyone and what their plans expect of the journeys left
    (``chance_after_journey``): the duels and the passengers taken ahead of each town in expectation
    rather than drawn, so that the towns differ by what they change, not by the luck of a draw."""
    phase = state["phase"]
    if phase == "declare":
        return normal(state, seat, rng), None  # every passenger: declaring fewer only takes options away
    if phase == "draw":
        return ({"do": "draw"} if draw_for_the_win(state, seat) else {"do": "stop"}), None
    hand = state["hands"][seat]
    if len(hand) == 1:
        return {"do": "choose", "town": hand[0]}, None
    plans: dict[tuple, dict[str, float]] = {}  # this decision's plans, by what they read: guesses share many
    # The normal bot's town first: it stands if no guess could be made in time, and wins ties.
    first = normal_town(public_view(state, seat), rng, plans)
    towns = [{"do": "choose", "town": town} for town in [first] + [town for town in hand if town != first]]

    def sample(guess_rng: random.Random) -> dict:
        guess = guess_cards_laid(state, seat, guess_rng, plans, resample)
        rivals_worth.clear()  # the last guess is done with
        rivals_worth[id(guess)] = [plan_worth(guess, who, guess["waiting"], guess["gold"], plans)
                                   if who != seat else 0.0 for who in range(guess["players"])]
        return guess

    def evaluate(guess: dict, action: dict) -> float:
        return chance_after_journey(guess, seat, action["town"], plans, rivals_worth[id(guess)])

    rivals_worth: dict[int, list[float]] = {}  # each guess's rivals' plans: the same for every town of ours

    return compare_on_samples(towns, sample, evaluate, rng, budget, clock)


# --- hard: robbing for the win --------------------------------------------------------------------------

def win_chances_by_claim(gold: list[int], me: int, spread: float) -> list[float]:
    """For each claim from nothing to all the others hold, the robber's chance of winning once it is
    taken (T7's shares): a softmax of everyone's gold with this ``spread``; with none left, whether he then
    has the most (a shared win counts), and all the gold wins outright (T13)."""
    chances = []
    for claim in range(sum(gold) - gold[me] + 1):
        paid = claim_shares(claim, gold, me)
        after = [held - pays for held, pays in zip(gold, paid)]
        after[me] += claim
        if after[me] == TOTAL_GOLD:
            chances.append(1.0)
        elif spread <= 0:
            chances.append(1.0 if after[me] == max(after) else 0.0)
        else:
            chances.append(softmax_share(after, me, spread))
    return chances


def softmax_share(values: Sequence[float], me: int, spread: float) -> float:
    """``me``'s share of ``exp(value / spread)`` over everyone: his chance to end with the most, about."""
    top = max(values)
    weights = [math.exp((value - top) / spread) for value in values]
    return weights[me] / sum(weights)


def gold_spread(players: int, journeys: float) -> float:
    """How far final gold may stray from what is expected with this much play left."""
    per_journey = GOLD_SPREAD_PER_JOURNEY.get(players, GOLD_SPREAD_AT_LARGER_TABLES)
    return per_journey * math.sqrt(max(journeys, 0.0))


#: Whether robbing counts what the rivals still face down ahead will take from the passengers it leaves.
COUNT_RIVALS_AHEAD = True


def draw_for_the_win(state: dict, seat: int) -> bool:
    """Turn another card if that makes winning likelier, played best from here (``should_draw`` maximises
    the coins instead: behind near the end a player must risk more; ahead, less).

    The chance of winning after a claim is read from the gold then (``win_chances_by_claim``), with the
    spread of the play still to come: the journeys after this one, and a share of a journey for each rival
    whose card is still face down ahead of the coach. Each of those rivals will rob the passengers left
    (rule 11): what he is expected to take (``takings``) counts against a claim that leaves him more."""
    seen = public_view(state, seat)
    players = seen["players"]
    gold = list(seen["gold"])
    others_gold = sum(gold) - gold[seat]
    held = sum(seen["turned"])
    declared = seen["declared"]
    cards_left = declared - len(seen["turned"])
    # Who has laid a card still face down (public, T5): each will rob further on.
    ahead = [rival for rival, card in enumerate(state["waiting"]) if rival != seat and card is not None]
    journeys_after = state["options"]["rounds"] * JOURNEYS_PER_ROUND - state["journeys_played"] - 1
    spread = gold_spread(players, journeys_after + len(ahead) / players)
    chances = win_chances_by_claim(gold, seat, spread)
    pile = next_pile(seen)
    passengers = seen["passengers"]
    remembered: dict[tuple, float] = {}
    after_claim: dict[tuple[int, int], float] = {}

    def stopping(coins: int, cards: int) -> float:
        claim = min(coins, others_gold)
        if not ahead or not COUNT_RIVALS_AHEAD or chances[claim] == 1.0:
            return chances[claim]
        left = passengers - (declared - cards) if coins else passengers  # a pistol leaves them all
        key = (claim, left)
        if key not in after_claim:
            after_claim[key] = chance_after_rivals(gold, seat, claim, left, ahead, pile, spread)
        return after_claim[key]

    def best(coins: int, left: tuple[int, ...], cards: int) -> float:
        if cards == 0 or coins >= others_gold:
            return stopping(coins, cards)
        key = (coins, left, cards)
        if key not in remembered:
            remembered[key] = max(stopping(coins, cards), drawing(coins, left, cards))
        return remembered[key]

    def drawing(coins: int, left: tuple[int, ...], cards: int) -> float:
        total = sum(left)
        if total == 0:
            return stopping(coins, cards)
        value = left[PISTOL] * stopping(0, cards - 1)  # a pistol: nothing claimed, nobody robbed
        for shown in range(1, len(left)):
            if left[shown]:
                rest = left[:shown] + (left[shown] - 1,) + left[shown + 1:]
                value += left[shown] * best(coins + shown, rest, cards - 1)
        return value / total

    return drawing(held, pile, cards_left) > stopping(held, cards_left)


def chance_after_rivals(gold: list[int], me: int, claim: int, passengers: int, ahead: list[int],
                        pile: tuple[int, ...], spread: float) -> float:
    """``me``'s chance of winning after claiming ``claim`` (T7) and leaving ``passengers``, once the rivals
    ``ahead`` have robbed what is left in expectation (each as if alone at his town, the passengers
    dropping by ``PASSENGERS_TAKEN_PER_ROBBERY`` a robbery, as the normal bot's plan reckons)."""
    paid = claim_shares(claim, gold, me)
    after = [float(held - pays) for held, pays in zip(gold, paid)]
    after[me] += claim
    players = len(gold)
    left = float(passengers)
    for robber in ahead:
        if left < 1:
            break
        others = max(int(sum(after) - after[robber]), 0)
        take = min(takings(left, pile, relevant_gold(others, 0, pile, PASSENGERS)), others)
        for payer in range(players):
            after[payer] -= take / (players - 1)
        after[robber] += take + take / (players - 1)
        left = max(left - PASSENGERS_TAKEN_PER_ROBBERY, 1.0)
    return softmax_share(after, me, spread)


# --- hard: choosing a town ------------------------------------------------------------------------------

def remembered_plan(plans: dict[tuple, dict[str, float]], inputs: tuple) -> dict[str, float]:
    """``plan(*inputs)``, kept in ``plans`` (one decision's, dropped with it: a lasting cache of plans made
    the garbage collector's passes long, see ``plan``)."""
    worths = plans.get(inputs)
    if worths is None:
        worths = plans[inputs] = plan(*inputs)
    return worths


def normal_town(seen: dict, rng: random.Random, plans: dict[tuple, dict[str, float]]) -> str:
    """``pick_town`` with the plans kept in ``plans``: the same town from the same generator (a test
    checks), for a fraction of the time when many guesses ask."""
    hand = seen["hand"]
    if len(hand) == 1:
        return hand[0]
    worths = remembered_plan(plans, plan_inputs(seen))
    best = max(worths.values())
    near = [town for town in hand if worths[town] >= best * (1 - NEAR_BEST)]
    return near[0] if len(near) == 1 else rng.choice(near)


def guess_cards_laid(state: dict, seat: int, rng: random.Random, plans: dict[tuple, dict[str, float]],
                     resample: Callable[[dict, int, random.Random], dict] = resample_hidden) -> dict:
    """A guess of the hidden state (``resample_hidden``) with every rival's card for this journey laid:
    the town the normal bot would lay from the hand he is guessed to hold, whether he has laid it already
    (the face-down card guessed as he would have chosen it) or not yet. Choosing is simultaneous and
    secret (T5): what he lays never depends on ours."""
    guess = resample(state, seat, rng)
    for rival in range(guess["players"]):
        if rival == seat:
            continue
        hand = guess["hands"][rival]
        down = guess["waiting"][rival]
        if down is not None:
            hand.append(down)
            hand.sort(key=TOWNS.index)
            guess["waiting"][rival] = None
        town = normal_town(public_view(guess, rival), rng, plans)
        hand.remove(town)
        guess["waiting"][rival] = town
    return guess


@lru_cache(maxsize=256)
def duel_chances(duellists: int, pistol: float, first: int = 0) -> tuple[float, ...]:
    """T8: each duellist's chance to be the last one left, by his place in the duel order, when every card
    turned is a pistol with chance ``pistol`` and the ``first`` of them turns next. (Later in the order is
    better: the driver, last, wins a 2-player duel 5 times in 9 with a fifth of the cards pistols.)"""
    if duellists == 1:
        return (1.0,)
    missing = 1.0 - pistol
    all_miss = missing ** duellists
    chances = [0.0] * duellists
    for turn in range(duellists):
        flees = (first + turn) % duellists
        chance = missing ** turn * pistol / (1.0 - all_miss)
        rest = duel_chances(duellists - 1, pistol, flees % (duellists - 1))
        for place, survives in enumerate(rest):
            chances[place + (place >= flees)] += chance * survives
    return tuple(chances)


#: How much wider than the fitted spread the town choice reads the gold expected after the journey, by
#: the number of players (default 1). At 2 players a wider one (nearer to weighing the expected lead
#: alone) won more: 55.8%, 57.0%, 58.5%, 58.7% of 600 games at 0.5, 1, 4, 10 times; at 4 players 3 times
#: the spread took 36.8% of 400 games, against 38.7% of 600 at 1.
TOWN_SPREAD_SCALE = {2: 4.0}


def chance_after_journey(guess: dict, seat: int, town: str, plans: dict[tuple, dict[str, float]],
                         rivals_worth: list[float]) -> float:
    """``seat``'s chance of winning if he lies in wait at ``town`` while the others lie where ``guess``
    has them: the journey played in expectation (each stop's duel by ``duel_chances``, its robber's
    ``takings`` from the passengers the robbers ahead left, the claim from the others equally), then
    everyone's gold and the worth of his plan for the journeys left (``plan``), a coin a rival is
    expected to take being a coin the others lose (``softmax_share`` with the spread of the play left).
    The rivals' plans (``rivals_worth``) are worked out once a guess: they hardly move with our town (it
    shows on our pile, and moves the gold they may take, which a plan caps anyway)."""
    players = guess["players"]
    laid = list(guess["waiting"])
    laid[seat] = town
    route = journey_route(guess)
    pile = tuple(guess["booty"])
    pistol = round(pile[PISTOL] / max(sum(pile), 1), 2)
    gold = [float(held) for held in guess["gold"]]
    passengers = float(guess["passengers"])
    for stop in route[guess["stop"] + 1:]:
        ambushers = [rival for rival in range(players) if laid[rival] == stop]
        if not ambushers:
            continue
        order = dick_turpin.duel_order(guess, ambushers)
        for robber, chance in zip(order, duel_chances(len(order), pistol)):
            others = max(int(sum(gold) - gold[robber]), 0)
            take = min(chance * takings(passengers, pile, relevant_gold(others, 0, pile, PASSENGERS)), others)
            for payer in range(players):
                gold[payer] -= take / (players - 1)
            gold[robber] += take + take / (players - 1)
        passengers = max(passengers - PASSENGERS_TAKEN_PER_ROBBERY, 1.0)
    worths = list(rivals_worth)
    worths[seat] = plan_worth(guess, seat, laid, gold, plans)
    total = sum(worths)
    expected = [gold[who] + worths[who] - (total - worths[who]) / (players - 1) for who in range(players)]
    journeys_left = guess["options"]["rounds"] * JOURNEYS_PER_ROUND - guess["journeys_played"]
    return softmax_share(expected, seat, TOWN_SPREAD_SCALE.get(players, 1.0) * gold_spread(players, journeys_left))


def plan_worth(guess: dict, who: int, laid: list[str], gold: list[float],
               plans: dict[tuple, dict[str, float]]) -> float:
    """What ``who``'s plan expects to take in the journeys left in this round after this one, seen from
    the next journey's start: his hand without the card laid, the coach turned, the cards laid on top of
    the piles (T12), the booty whole again (T11)."""
    hand = tuple(card for card in sorted(guess["hands"][who], key=TOWNS.index) if card != laid[who])
    if not hand:
        return 0.0
    open_piles = guess["options"]["open_piles"]
    rivals_played = tuple(tuple(guess["piles"][rival] + [laid[rival]]) if open_piles else (laid[rival],)
                          for rival in range(guess["players"]) if rival != who)
    pile = tuple(booty_mix(guess["options"]))
    others = max(int(sum(gold) - gold[who]), 0)
    route_after = tuple(journey_route(guess)[::-1])
    key = (hand, route_after, rivals_played, relevant_gold(others, 0, pile, PASSENGERS), pile)
    worths = remembered_plan(plans, key)
    return max(worths.values())


hard = hard_bot(HARD_BUDGET)
