"""The hard bot's reckoning for The Famous Dick Turpin: the chance to win, where the normal bot's
reckoning (``reckoning.py``) counts coins. Robbing: whether another card makes winning likelier
(``draw_for_the_win``). Choosing a town: guesses of the cards the rivals lay, each as the normal bot
would from a guessed hand (``guess_cards_laid``), and a town's worth as the chance to win after the
journey played in expectation (``chance_after_journey``). ``bots.py`` says why the hard bot plays so and
what it was measured to win.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import Callable, Sequence

from core.games.dick_turpin import rules as dick_turpin
from core.games.dick_turpin.reckoning import (
    NEAR_BEST,
    PASSENGERS_TAKEN_PER_ROBBERY,
    draw_value,
    next_pile,
    plan,
    plan_inputs,
    public_view,
    relevant_gold,
    takings,
)
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
)

#: How far a player's final gold strays from what he can expect, per square root of the journeys left:
#: fitted (by likelihood) to who won 1,500 games of normal bots, from each journey's start. At 2 players
#: it is the spread the 2-player playout horizon used (``LEAD_SPREAD_PER_JOURNEY`` / 1.7); the fit gave
#: 7.5 there, 4.5 at 4 players.
GOLD_SPREAD_PER_JOURNEY = {2: 6.35}
GOLD_SPREAD_AT_LARGER_TABLES = 4.5


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
            after_claim[key] = (chance_against_the_last_robber(gold, seat, claim, left, pile) if last_robber
                                else chance_after_rivals(gold, seat, claim, left, ahead, pile, spread))
        return after_claim[key]

    # The game's last robbery after ours, by a lone rival (2 players): counted exactly, not in expectation
    last_robber = EXACT_LAST_ROBBER and players == 2 and journeys_after == 0 and len(ahead) == 1

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


#: Whether the hard bot counts the game's last robbery after its own exactly (2 players).
EXACT_LAST_ROBBER = True


def chance_against_the_last_robber(gold: list[int], me: int, claim: int, passengers: int,
                                   pile: tuple[int, ...]) -> float:
    """``me``'s chance of winning (a shared win counts, as at the end of ``win_chances_by_claim``) after
    claiming ``claim`` (T7) when the one rival, still face down ahead, robs the ``passengers`` left on the
    game's last journey as the normal bot robs (``claim_odds``, from the pile as it is now): every claim he
    may end with, by its odds, where the spread of ``chance_after_rivals`` reads only the mean of them.

    A rival who played that robbery for the win would go on where the normal bot stops for the coins; read
    so (he turns cards until he passes us), the hard bot won 57.1% of the bench's first 385 seeds against
    the normal bot, where this reading won 59.1% and the spread 57.9% (800 evaluations a town choice)."""
    rival = 1 - me
    mine, his = gold[me] + min(claim, gold[rival]), gold[rival] - min(claim, gold[rival])
    if mine == TOTAL_GOLD:
        return 1.0  # T13: the game is over
    if passengers < 1:
        return 1.0 if mine >= his else 0.0
    return sum(odds for taken, odds in claim_odds(0, pile, passengers, mine) if mine - taken >= his + taken)


@lru_cache(maxsize=100_000)
def claim_odds(held: int, pile: tuple[int, ...], cards_left: int, others_gold: int) -> tuple[tuple[int, float], ...]:
    """Each claim a robbery played as the normal bot plays it (``should_draw``: on while the coins
    expected beat those held) ends with, and its chance: holding ``held`` with ``cards_left`` more cards
    allowed, from ``pile``, the others holding ``others_gold``. A pistol claims nothing (T6)."""
    stop = min(held, others_gold)
    total = sum(pile)
    if held and (cards_left == 0 or stop == others_gold or not total
                 or draw_value(held, pile, cards_left, relevant_gold(others_gold, held, pile, cards_left)) <= stop):
        return ((stop, 1.0),)
    if not total:
        return ((0, 1.0),)
    odds: dict[int, float] = {0: pile[PISTOL] / total}
    for coins in range(1, len(pile)):
        if pile[coins]:
            rest = pile[:coins] + (pile[coins] - 1,) + pile[coins + 1:]
            for taken, chance in claim_odds(held + coins, rest, cards_left - 1, others_gold):
                odds[taken] = odds.get(taken, 0.0) + pile[coins] / total * chance
    return tuple(sorted(odds.items()))


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


