"""The Famous Dick Turpin: secret ambush towns, duels, and press-your-luck robberies of the Silver Flyer.

Read next to the game's rule sheet (rules 1–14) and rulings T1–T14, written out in docs/rules.md. The order follows
a journey: set-up, the secret choice of towns (T5), the coach driving town by town (rules 5–6, 11), duels
(rule 10, T8), the robbery (rules 6, 8, 9, T6), the claim (rule 7, T7), the end of a journey, a round and
the game (rules 12–14, T11–T14); then what each seat may see (T12, A1, A2). ``__init__.py`` builds the
``GAME`` from these functions.

The booty pile is kept as counts of each kind of card, and each card turned is drawn at random from the
cards left in it (one seeded draw from ``core.rng``). That is exactly a well-shuffled pile turned from the
top, with no order that could leak, and no shuffle to pay for at every journey (T9, T11).
"""

from __future__ import annotations

import operator
import random
from typing import Any

from core import rng as chance
from core.engine import (
    Action,
    Event,
    IllegalAction,
    Narration,
    Option,
    OptionError,
    Seat,
    State,
    View,
    event,
    no_chance_drawn,
    quantity,
)

# --- the game's facts -------------------------------------------------------------------------------

#: T1: the six towns in the order the coach meets them leaving London.
TOWNS = ["Oxford", "Bath", "Warwick", "Lancaster", "York", "Carlisle"]
TOWNS_SOUTHBOUND = TOWNS[::-1]
JOURNEYS_PER_ROUND = 6
PASSENGERS = 6
#: T3: the sovereigns on the table, whatever the booty deck shows.
TOTAL_GOLD = 60
#: A booty card is its number of coins; a pistol shows none.
PISTOL = 0
GOLD_VALUES = (1, 2, 3, 4)

MIN_PLAYERS, MAX_PLAYERS = 2, 5

OPTIONS = (
    Option("players", "int", 4, "number of highwaymen at the table", (MIN_PLAYERS, MAX_PLAYERS)),
    Option("rounds", "int", 1, "rounds of six journeys; most gold at the end wins (T14)", (1, 3)),
    Option("pistols", "int", 6, "pistol cards in the booty deck; at least 1, or a duel could never end (T2)",
           (1, 30)),
    Option("gold_1", "int", 8, "booty cards showing 1 gold coin (T2)", (0, 30)),
    Option("gold_2", "int", 8, "booty cards showing 2 gold coins (T2)", (0, 30)),
    Option("gold_3", "int", 5, "booty cards showing 3 gold coins (T2)", (0, 30)),
    Option("gold_4", "int", 3, "booty cards showing 4 gold coins (T2)", (0, 30)),
    Option("open_piles", "bool", False, "everyone sees every card in the played piles, not only the top (T12)"),
)


def check_options(options: dict[str, Any]) -> None:
    """T2: a booty deck needs gold to steal (the 'pistols' option's own range keeps a pistol to fear)."""
    if sum(options[f"gold_{value}"] for value in GOLD_VALUES) < 1:
        raise OptionError("the booty deck needs at least one gold card (options 'gold_1' to 'gold_4'): "
                          "without one there is nothing to rob")


#: The options that count each kind of booty card, by the card: a pistol (0), then 1 to 4 coins.
BOOTY_OPTIONS = ("pistols", *(f"gold_{value}" for value in GOLD_VALUES))


#: Reads the counts of ``BOOTY_OPTIONS`` from the options in one call (every journey starts with them).
_booty_counts = operator.itemgetter(*BOOTY_OPTIONS)


def booty_mix(options: dict[str, Any]) -> list[int]:
    """The whole booty deck as counts: index 0 the pistols, index v the cards showing v coins."""
    return list(_booty_counts(options))


def journey_route(state: State) -> list[str]:
    """T1: the towns in the order the coach meets them on this journey."""
    return TOWNS if state["northbound"] else TOWNS_SOUTHBOUND


# --- set-up (rule 2, T3, T4) --------------------------------------------------------------------------

def setup(options: dict[str, Any], seed: int) -> State:
    """Rule 2: coach in London, six passengers, the gold shared out, a full set of towns each."""
    players = options["players"]
    state: State = {
        "game": "turpin",
        "options": dict(options),
        "players": players,
        "gold": [TOTAL_GOLD // players] * players,
        "hands": [list(TOWNS) for _ in range(players)],
        "waiting": [None] * players,  # the face-down stand & deliver card in front of each player
        "piles": [[] for _ in range(players)],  # played this round, the last one on top
        "round": 1,
        "journey": 0,  # of this round, 1 to 6 once under way
        "journeys_played": 0,
        "driver": players - 1,  # passed on to seat 0 as journey 1 starts (T4)
        "northbound": False,  # flipped to leave London on journey 1 (T1)
        "stop": -1,
        "passengers": PASSENGERS,
        "phase": "choose",
        "robber": None,
        "declared": 0,
        "turned": [],
        "booty": booty_mix(options),
        "face_up": [],
        "duels": 0,
        "pistols": 0,
        "robberies": 0,
        "outright": None,
    }
    chance.seed_state(state, seed)
    start_journey(state, [])
    return state


def start_journey(state: State, events: Narration) -> None:
    """T11 and rule 13: booty back together, six passengers, the coach turned, the next driver, new choices."""
    players = state["players"]
    state["journey"] += 1
    state["driver"] = (state["driver"] + 1) % players
    state["northbound"] = not state["northbound"]
    state["passengers"] = PASSENGERS
    state["booty"] = booty_mix(state["options"])
    state["face_up"] = []
    state["stop"] = -1
    state["robber"] = None
    state["phase"] = "choose"
    if events is not None:
        events.append(journey_event(state))
    # T5: a player holding one card has no choice; it is played for him.
    forced = [seat for seat, hand in enumerate(state["hands"]) if len(hand) == 1]
    for seat in forced:
        state["waiting"][seat] = state["hands"][seat].pop()
        if events is not None:
            events.append(event(f"Your last card, {state['waiting'][seat]}, is played for you.", [seat]))
    if forced and events is not None:  # every hand is the same size in a round: the round's last journey
        events.append(event("The last journey of the round: every highwayman's last card is played for "
                            "him, face down (T5); the coach sets off.", seats=forced))
    if None not in state["waiting"]:
        drive_on(state, events)


def journey_event(state: State) -> Event:
    """The public line that starts a journey: which way the coach goes and who drives."""
    route = "London for Edinburgh" if state["northbound"] else "Edinburgh for London"
    return event(f"Round {state['round']}, journey {state['journey']}: the Silver Flyer leaves "
                 f"{route}; Seat {state['driver'] + 1} drives.")


def opening_events(state: State) -> list[Event]:
    """The first journey's start, which setup made: every hand is full, so nothing is played for anyone."""
    return [journey_event(state)]


# --- whose input the game awaits, and what they may do ---------------------------------------------

def pending(state: State) -> list[int]:
    """T5: every player who has not chosen yet, all at once; otherwise the highwayman robbing."""
    phase = state["phase"]
    if phase == "choose":
        # A loop, not a comprehension: this runs before every choice of every playout, and a
        # comprehension's own call costs more than looking at the few seats.
        choosing = []
        for seat, town in enumerate(state["waiting"]):
            if town is None:
                choosing.append(seat)
        return choosing
    if phase == "over":
        return []
    return [state["robber"]]


#: Every action there is, made once: ``legal_actions`` hands out fresh copies of these (a dict's
#: ``copy`` is quicker than building it again; a comprehension calling it was quicker than ``map``).
CHOOSE = {town: {"do": "choose", "town": town} for town in TOWNS}
#: The declarations of 1 to n passengers are the first n.
DECLARE = tuple({"do": "declare", "passengers": n} for n in range(1, PASSENGERS + 1))
DRAW = {"do": "draw"}
STOP = {"do": "stop"}


def legal_actions(state: State, seat: int) -> list[Action]:
    """The choices the rules give ``seat`` now (none if it is not his to act)."""
    phase = state["phase"]
    if phase == "choose":
        if state["waiting"][seat] is not None:
            return []
        return [CHOOSE[town].copy() for town in state["hands"][seat]]
    if seat != state["robber"]:
        return []
    if phase == "declare":
        return [declaration.copy() for declaration in DECLARE[:state["passengers"]]]
    if phase == "draw":
        return [DRAW.copy(), STOP.copy()]
    return []


def apply(state: State, seat: int, action: Action) -> list[Event]:
    """Carry out ``action`` for ``seat``; refuse it (state untouched) unless the rules allow it now."""
    events: list[Event] = []
    carry_out(state, seat, action, events)
    return events


def carry_out(state: State, seat: int, action: Action, events: Narration = None) -> None:
    """The one path of ``apply`` and ``advance``: play ``action`` out if it is one of
    ``legal_actions(state, seat)``, else refuse it. With no ``events`` list nobody listens.

    Each phase checks its own kind of action, the same answer as looking in that list without building it,
    and goes straight on to play it: playouts pay for this at every action."""
    phase = state["phase"]
    if phase == "choose":
        # Exactly {"do": "choose", "town": town} for a town in hand, from a seat still to choose (T5),
        # compared key by key.
        if (state["waiting"][seat] is None and isinstance(action, dict) and len(action) == 2
                and action.get("do") == "choose" and action.get("town") in state["hands"][seat]):
            choose_town(state, seat, action["town"], events)
            return
    elif seat == state["robber"] and isinstance(action, dict):
        if phase == "declare":
            if action in DECLARE[:state["passengers"]]:  # T6: from 1 to the passengers left
                declare_passengers(state, action["passengers"], events)
                return
        elif phase == "draw":
            if action == DRAW:
                turn_for_robbery(state, events)
                return
            if action == STOP:
                finish_robbery(state, events)
                return
    raise refusal(state, seat, action)


#: ``apply`` with nobody listening: the same check and change of state, no event built. It is the one
#: path itself rather than a function that calls it, as playouts call it at every action.
advance = carry_out


def refusal(state: State, seat: int, action: Action) -> IllegalAction:
    """Why an action is refused, naming the rule a player would look up."""
    phase = state["phase"]
    if phase == "over":
        return IllegalAction("rule 14", "the game is over")
    if seat not in pending(state):
        if phase == "choose":
            return IllegalAction("T5", f"Seat {seat + 1} has already chosen a town for this journey")
        return IllegalAction("T6", f"only Seat {state['robber'] + 1} is robbing the coach now")
    if phase == "choose":
        return IllegalAction("rule 13", f"{action!r}: choose one of your unplayed towns "
                                        f"({', '.join(state['hands'][seat])})")
    if phase == "declare":
        return IllegalAction("T6", f"{action!r}: declare from 1 to {quantity(state['passengers'], 'passenger')}")
    return IllegalAction("T6", f"{action!r}: draw another booty card or stop")


# --- the secret choice (rule 5, T5) -------------------------------------------------------------------

def choose_town(state: State, seat: int, town: str, events: Narration) -> None:
    """T5: the card goes face down; the others learn only that this seat has chosen."""
    state["hands"][seat].remove(town)
    state["waiting"][seat] = town
    if events is not None:
        events.append(event(f"You will lie in wait at {town}.", [seat]))
        events.append(event(f"Seat {seat + 1} has chosen a town.", told_privately=seat))
    if None not in state["waiting"]:
        if events is not None:
            events.append(event("Every highwayman has chosen: the coach sets off."))
        drive_on(state, events)


# --- the coach on its way (rules 5, 6, 11, T10) -------------------------------------------------------

def drive_on(state: State, events: Narration) -> None:
    """Rule 11: drive to the next town where someone lies in wait, and stop there for the robbery; past the
    last town the journey ends."""
    route = TOWNS if state["northbound"] else TOWNS_SOUTHBOUND  # journey_route, on the hot path
    waiting = state["waiting"]
    for stop in range(state["stop"] + 1, len(route)):
        if route[stop] in waiting:
            break
    else:
        state["stop"] = len(route) - 1
        end_journey(state, events)
        return
    town = route[stop]
    state["stop"] = stop
    if waiting.count(town) == 1:
        # The usual stop: one highwayman, found without a pass in Python, robs with no duel.
        robber = waiting.index(town)
        reveal_card(state, robber)
        if events is not None:
            events.append(stand_and_deliver(town, [robber]))
    else:
        ambushers = [seat for seat, chosen in enumerate(waiting) if chosen == town]
        for seat in ambushers:
            reveal_card(state, seat)
        if events is not None:
            events.append(stand_and_deliver(town, ambushers))
        robber = fight_duel(state, ambushers, events)
    state["robber"] = robber
    state["declared"] = 0
    state["turned"] = []
    state["phase"] = "declare"


def stand_and_deliver(town: str, ambushers: list[int]) -> Event:
    """The public line of a stop: who waits at ``town`` and shows his card (one cries, several cry)."""
    names = ", ".join(f"Seat {seat + 1}" for seat in ambushers)
    return event(f"{town}: {names} {'cries' if len(ambushers) == 1 else 'cry'} 'Stand and deliver!'",
                 town=town, seats=ambushers)


def reveal_card(state: State, seat: int) -> None:
    """Rule 13: the revealed card goes on top of its owner's played pile."""
    state["piles"][seat].append(state["waiting"][seat])
    state["waiting"][seat] = None


def duel_order(state: State, duellists: list[int]) -> list[int]:
    """T8: clockwise from the driver, the driver (if he is one of them) last."""
    players, driver = state["players"], state["driver"]
    return sorted(duellists, key=lambda seat: (seat - driver - 1) % players)


def fight_duel(state: State, duellists: list[int], events: Narration) -> int:
    """Rule 10, T8: turn booty cards in turn; the first pistol drops out; the last one left robs."""
    state["duels"] += 1
    left = duel_order(state, duellists)
    turn = 0
    while len(left) > 1:
        seat = left[turn]
        card = turn_booty(state, events)
        if card == PISTOL:
            if events is not None:
                events.append(event(f"Duel: Seat {seat + 1} turns a pistol and flees.", seat=seat, card=card))
            left.pop(turn)
            turn %= len(left)
        else:
            if events is not None:
                events.append(event(f"Duel: Seat {seat + 1} turns {card} gold, which counts for nothing.",
                                    seat=seat, card=card))
            turn = (turn + 1) % len(left)
    if events is not None:
        events.append(event(f"Seat {left[0] + 1} wins the duel."))
    return left[0]


def turn_booty(state: State, events: Narration) -> int:
    """Turn the top booty card onto the face-up pile; T9 makes a new pile from the face-up one if empty."""
    booty = state["booty"]
    left = sum(booty)
    if left == 0:
        for card in state["face_up"]:
            booty[card] += 1
        state["face_up"] = []
        left = sum(booty)
        if events is not None:
            events.append(event("The booty pile is used up: the face-up cards are shuffled into a new one."))
    pick = chance.below(state, left)
    card = 0
    while pick >= booty[card]:
        pick -= booty[card]
        card += 1
    booty[card] -= 1
    state["face_up"].append(card)
    if card == PISTOL:
        state["pistols"] += 1
    return card


# --- the robbery (rules 6, 8, 9, T6) ------------------------------------------------------------------

def declare_passengers(state: State, passengers: int, events: Narration) -> None:
    """T6: declare how many passengers to rob, then turn the first card (at least one must be turned)."""
    state["declared"] = passengers
    state["robberies"] += 1
    if events is not None:
        events.append(event(f"Seat {state['robber'] + 1} robs {quantity(passengers, 'passenger')}."))
    turn_for_robbery(state, events)


def turn_for_robbery(state: State, events: Narration) -> None:
    """Rules 6 and 9: a pistol ends the attempt with nothing; gold may be followed by another card."""
    card = turn_booty(state, events)
    if card == PISTOL:
        if events is not None:
            robber = state["robber"]
            events.append(event(f"Seat {robber + 1} turns a pistol: shot at and scared away with nothing.",
                                seat=robber, card=card))
        state["turned"] = []
        drive_on(state, events)  # rule 11: the coach goes on (the next stop names the next robber)
        return
    turned = state["turned"]
    turned.append(card)
    if events is not None:
        robber = state["robber"]
        events.append(event(f"Seat {robber + 1} turns {card} gold ({sum(turned)} so far).",
                            seat=robber, card=card))
    if len(turned) == state["declared"]:
        finish_robbery(state, events)  # one card per declared passenger, no more (rule 6)
    else:
        state["phase"] = "draw"


def finish_robbery(state: State, events: Narration) -> None:
    """Rules 6–8: take the coins shown, and the passenger marker drops by the cards turned."""
    robber = state["robber"]
    turned = state["turned"]
    state["passengers"] -= len(turned)
    taken = claim_booty(state, robber, sum(turned))
    if events is not None:
        paid = ", ".join(f"{amount} from Seat {seat + 1}" for seat, amount in enumerate(taken) if amount)
        events.append(event(f"Seat {robber + 1} takes {sum(taken)} gold ({paid or 'nobody has any'}); "
                            f"{quantity(state['passengers'], 'passenger')} left.", seat=robber, taken=taken))
    state["turned"] = []
    if state["gold"][robber] == TOTAL_GOLD:
        if events is not None:
            events.append(event(f"Seat {robber + 1} holds all the gold: the outright winner, a true Dick Turpin!"))
        state["outright"] = robber
        finish_game(state, events)
        return
    if state["passengers"] == 0:
        coach_emptied(state, events)
        return
    drive_on(state, events)  # rule 11: held up or not, the coach goes on to the next town


def coach_emptied(state: State, events: Narration) -> None:
    """Rule 11, T10: no passengers left; every card still face down is revealed and nobody else robs."""
    for seat, town in enumerate(state["waiting"]):
        if town is not None:
            reveal_card(state, seat)
            if events is not None:
                events.append(event(f"The coach is empty; Seat {seat + 1} shows {town}.", seat=seat, town=town))
    state["robber"] = None
    end_journey(state, events)


# --- claiming the booty (rule 7, T7) ------------------------------------------------------------------

#: (players, robber) -> the other seats clockwise from the robber, for every table the options allow:
#: ready-made, as building them was a good part of a claim's cost.
CLOCKWISE_AFTER = {(players, robber): (*range(robber + 1, players), *range(robber))
                   for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)
                   for robber in range(players)}


def claim_shares(claim: int, gold: list[int], robber: int) -> list[int]:
    """T7: what each seat pays towards ``claim``, as equally as possible ("water-filling").

    Every payer pays the same level, except that one who has less pays all he has; the coins left over
    when that level does not make up the claim are paid one each by the richest payers who can still
    afford one more (richest before the claim, ties clockwise from the robber). So nobody pays more than
    another payer who could still afford more. If the others hold no more than the claim, they pay
    everything.
    """
    players = len(gold)
    known = CLOCKWISE_AFTER.get((players, robber))
    known_table = known is not None  # else a position written by hand, with a table no option allows
    clockwise = known if known is not None else (*range(robber + 1, players), *range(robber))
    # The payers richest first, ties clockwise from the robber (a stable sort keeps the clockwise order
    # among equal gold): the order the odd coins are paid in.
    richest_first = sorted(clockwise, key=gold.__getitem__, reverse=True)
    level_payers = players - 1  # those not (yet) known to pay all they have
    if known_table and gold[richest_first[-1]] * level_payers > claim:
        # The usual claim: even the poorest payer holds more than an equal share, so all pay it, and the
        # richest one coin more each until the claim is made up (the general case below, in one step).
        level, odd_coins = divmod(claim, level_payers)
        paid = [level] * players
        paid[robber] = 0
        for seat in richest_first[:odd_coins]:
            paid[seat] += 1
        return paid
    paid = [0] * players
    owed = claim
    # Poorest first: one who holds no more than an equal share of what is still owed pays all of it (and
    # the share of the rest can only grow); the first who holds more, and all richer, pay the level.
    for seat in reversed(richest_first):
        if gold[seat] * level_payers > owed:
            break
        paid[seat] = gold[seat]
        owed -= gold[seat]
        level_payers -= 1
    else:
        return paid  # the others hold no more than the claim: they pay everything
    level, odd_coins = divmod(owed, level_payers)
    for rank, seat in enumerate(richest_first[:level_payers]):
        paid[seat] = level + (rank < odd_coins)
    return paid


def claim_booty(state: State, robber: int, claim: int) -> list[int]:
    """Move the claim from the others to the robber (T7); returns what each seat paid."""
    gold = state["gold"]
    paid = claim_shares(claim, gold, robber)
    gold[:] = map(operator.sub, gold, paid)  # every seat at once (the robber pays nothing)
    gold[robber] += sum(paid)
    return paid


# --- the end of a journey, a round, the game (rules 12–14, T11–T14) ---------------------------------

def end_journey(state: State, events: Narration) -> None:
    """Rule 13: after six journeys the round ends and the cards are picked up; T14: the last round ends it."""
    state["journeys_played"] += 1
    state["robber"] = None
    if state["journey"] == JOURNEYS_PER_ROUND:
        if state["round"] == state["options"]["rounds"]:
            finish_game(state, events)
            return
        if events is not None:
            events.append(event(f"Round {state['round']} is over: everyone picks up his six cards. Played: "
                                + "; ".join(f"Seat {seat + 1} {', '.join(pile)}"
                                            for seat, pile in enumerate(state["piles"]))))
        state["round"] += 1
        state["journey"] = 0
        state["hands"] = [list(TOWNS) for _ in range(state["players"])]
        state["piles"] = [[] for _ in range(state["players"])]
    start_journey(state, events)


def finish_game(state: State, events: Narration) -> None:
    state["phase"] = "over"
    state["robber"] = None
    if events is not None:
        events.append(event(final_result(state)["summary"]))


def winners(state: State) -> list[int]:
    """T13: all the gold wins outright; T14: otherwise most gold, equal gold sharing the win."""
    if state["outright"] is not None:
        return [state["outright"]]
    best = max(state["gold"])
    return [seat for seat, gold in enumerate(state["gold"]) if gold == best]


def result(state: State) -> dict[str, Any] | None:
    """None until the game is over; then winners, gold, the seed and every hidden card (A2)."""
    if state["phase"] != "over":
        return None
    won = winners(state)
    gold = state["gold"]
    if state["outright"] is not None:
        summary = f"Seat {won[0] + 1} took all {TOTAL_GOLD} gold and wins outright."
    else:
        standings = ", ".join(f"Seat {seat + 1} {amount}" for seat, amount in enumerate(gold))
        if len(won) == 1:
            summary = f"Seat {won[0] + 1} wins with {gold[won[0]]} gold (gold: {standings})."
        else:
            names = " and ".join(f"Seat {seat + 1}" for seat in won)
            summary = f"{names} share the win with {gold[won[0]]} gold (gold: {standings})."
    return {
        "winners": won,
        "scores": list(gold),
        "seed": state["seed"],
        "summary": summary,
        "reveal": {"hands": [list(hand) for hand in state["hands"]],
                   "piles": [list(pile) for pile in state["piles"]],
                   "waiting": list(state["waiting"]),
                   "booty_left": list(state["booty"])},
    }


def final_result(state: State) -> dict[str, Any]:
    """``result`` of a game known to be over."""
    outcome = result(state)
    assert outcome is not None, "the game is over"
    return outcome


def stats(state: State) -> dict[str, float]:
    """Public figures of a game for the simulator's summary."""
    return {"journeys": state["journeys_played"], "duels": state["duels"], "pistols": state["pistols"],
            "robberies": state["robberies"], "all_gold_endings": int(state["outright"] is not None)}


def check_invariants(state: State) -> None:
    """Gold, booty cards and stand & deliver cards are all where they can be, and nowhere twice."""
    assert sum(state["gold"]) == TOTAL_GOLD, f"gold is not conserved: {state['gold']}"
    assert min(state["gold"]) >= 0, f"negative gold: {state['gold']}"
    assert 0 <= state["passengers"] <= PASSENGERS, state["passengers"]
    counted = list(state["booty"])
    for card in state["face_up"]:
        counted[card] += 1
    assert counted == booty_mix(state["options"]), "booty cards are not conserved"
    over = state["phase"] == "over"
    for seat in range(state["players"]):
        hand, pile, waiting = state["hands"][seat], state["piles"][seat], state["waiting"][seat]
        cards = hand + pile + ([waiting] if waiting is not None else [])
        assert sorted(cards) == sorted(TOWNS), f"Seat {seat + 1} does not hold each town once: {cards}"
        if not over:
            chosen = state["phase"] != "choose" or waiting is not None or state["stop"] >= 0
            assert len(hand) == JOURNEYS_PER_ROUND - state["journey"] + (not chosen), \
                f"Seat {seat + 1} has played the wrong number of cards this round"
    if not over and state["phase"] == "choose" and state["stop"] < 0:
        assert all(len(pile) == state["journey"] - 1 for pile in state["piles"]), "a card was revealed early"


# --- what each seat may see (T5, T12, A1, A2) ---------------------------------------------------------

def view(state: State, seat: Seat) -> View:
    """All that ``seat`` may know, built from an allow-list; ``None`` is the spectator."""
    over = state["phase"] == "over"
    open_piles = state["options"]["open_piles"] or over
    players = state["players"]
    shown: View = {
        "game": "turpin",
        "seat": seat,
        "players": players,
        "options": dict(state["options"]),
        "round": state["round"],
        "journey": state["journey"],
        "journeys_played": state["journeys_played"],
        "driver": state["driver"],
        "northbound": state["northbound"],
        "route": list(journey_route(state)),
        "stop": state["stop"],
        "passengers": state["passengers"],
        "phase": state["phase"],
        "pending": pending(state),
        "gold": list(state["gold"]),
        "chosen": [town is not None for town in state["waiting"]],
        "hand_sizes": [len(hand) for hand in state["hands"]],
        "pile_sizes": [len(pile) for pile in state["piles"]],
        "pile_tops": [pile[-1] if pile else None for pile in state["piles"]],
        "piles": [list(pile) for pile in state["piles"]] if open_piles else None,
        "robber": state["robber"],
        "declared": state["declared"],
        "turned": list(state["turned"]),
        "face_up": list(state["face_up"]),
        "booty_left": list(state["booty"]),
        "stats": stats(state),
        "hand": None,
        "my_card": None,
        "result": None,
    }
    if seat is not None:
        shown["hand"] = list(state["hands"][seat])
        shown["my_card"] = state["waiting"][seat]
    if over:
        shown["result"] = result(state)
    return shown


def resample_hidden(state: State, seat: Seat, rng: random.Random) -> State:
    """A state ``seat`` cannot tell from this one, everything hidden from it drawn afresh.

    Hidden from a seat: the other players' hands, their face-down cards and the cards beneath the top of
    every played pile (his own too, T12), and the generator that will turn the booty. A face-down card
    not yet revealed lies at a town the coach has still to reach.
    """
    new = copy_state(state)
    if state["phase"] == "over":
        return new
    chance.redraw_hidden_generator(new, rng)
    towns_ahead = set(journey_route(state)[state["stop"] + 1:])
    open_piles = state["options"]["open_piles"]
    for owner in range(state["players"]):
        hand, pile, waiting = new["hands"][owner], new["piles"][owner], new["waiting"][owner]
        shown = pile if open_piles else pile[-1:]
        known = set(shown)
        if owner == seat:
            known |= set(hand) | ({waiting} if waiting else set())
        unknown = [town for town in TOWNS if town not in known]  # route order: the same for any redraw
        if owner != seat and waiting is not None:
            ahead = [town for town in unknown if town in towns_ahead]
            new["waiting"][owner] = ahead[rng.randrange(len(ahead))]
            unknown.remove(new["waiting"][owner])
        rng.shuffle(unknown)
        beneath = len(pile) - len(shown)
        new["piles"][owner] = unknown[:beneath] + list(shown)
        if owner != seat:
            new["hands"][owner] = sorted(unknown[beneath:], key=TOWNS.index)
    return new


def copy_state(state: State) -> State:
    """A deep copy of the state's plain data, quicker than a msgpack round trip."""
    new = dict(state)
    for key in ("gold", "waiting", "booty", "face_up", "turned"):
        new[key] = list(state[key])
    new["hands"] = [list(hand) for hand in state["hands"]]
    new["piles"] = [list(pile) for pile in state["piles"]]
    new["options"] = dict(state["options"])
    return new


# --- words for people ---------------------------------------------------------------------------------

def describe_action(state: State, seat: int, action: Action) -> str:
    do = action.get("do")
    if do == "choose":
        return f"lie in wait at {action['town']}"
    if do == "declare":
        return f"rob {quantity(action['passengers'], 'passenger')}"
    if do == "draw":
        return "turn another booty card"
    if do == "stop":
        return stop_in_words(state, seat)
    return repr(action)


def can_take_back(before: State, after: State, seat: int, action: Action) -> bool:
    """A town chosen for the ambush while others are still choosing (T5): nobody has seen it, and no
    booty card has been turned. Nothing else: a declaration is public, and drawing turns a card."""
    return (action.get("do") == "choose" and after["phase"] == "choose" == before["phase"]
            and no_chance_drawn(before, after, ("booty", "turned")))


def moment(state: State, seat: int) -> str:
    """The round, the journey and the town the coach is at (or the end it leaves from)."""
    town = journey_route(state)[state["stop"]] if state["stop"] >= 0 else (
        "LONDON" if state["northbound"] else "EDINBURGH")
    return f"round {state['round']}, journey {state['journey']} at {town}"


def stop_in_words(state: State, seat: int) -> str:
    """What stopping takes: the coins turned, or all the others hold when that is less (T7), which is
    then all the gold and the game (T13)."""
    claim = sum(state["turned"])
    others = sum(state["gold"]) - state["gold"][seat]
    if claim < others:
        return f"stop and take {claim} gold"
    turned = f" ({claim} turned)" if claim > others else ""
    return f"stop and take {others} gold, all the others have{turned}: all the gold wins outright (T13)"


RULES_TEXT = """\
The Famous Dick Turpin: 2 to 5 highwaymen rob the Silver Flyer between London and Edinburgh.

Everyone starts with an equal share of the 60 sovereigns (T3) and six stand & deliver cards, one for
each town on the road: Oxford, Bath, Warwick, Lancaster, York, Carlisle (T1). The coach leaves London on
journey 1 and turns round at each end, so the towns come in the opposite order on the way back.

Each journey every player picks one of his unplayed cards in secret, all at once (T5); nobody sees
another's card until the coach reaches that town, though, as at a real table, everyone sees who has laid
a card face down and who is still choosing. Your last card of a round is played for you.

At each town the highwaymen waiting there show their cards. Two or more fight a duel (T8): starting with
the first of them clockwise from the driver (the driver, if he is one, goes last) they turn booty cards in
turn; gold counts for nothing, the first to turn a pistol flees, and the rest go on until one is left.

The lone highwayman robs (T6): he declares how many passengers to rob, from 1 to those left on the coach,
then turns booty cards one at a time, at most one per declared passenger. After each gold card he may
stop and take the coins shown, and the passengers on the coach drop by the cards he turned. A pistol
scares him off with nothing and the passengers stay. Once all six are robbed, the rest show their cards
and nobody else robs on that journey (T10). If the booty runs out, the face-up cards make a new pile (T9).

The takings come from the other players as equally as possible (T7): each pays the same, except that
a player who has less than that pays all he has; coins that do not divide evenly are paid one each by
the richest of those who can still pay more (ties clockwise from the robber), so nobody pays more than
another payer who could still afford more. If the others hold no more than the claim, they pay
everything. So 22 gold from players holding 4, 28 and 14 is 4 + 9 + 9; 14 gold from four others is
4 + 4 + 3 + 3, and from three others 5 + 5 + 4.

Between journeys all booty is shuffled together, six passengers board, the coach turns round and the
driver's role passes clockwise (T4, T11); the driver only matters for duel order. Played cards stay in a
pile in front of each player; only the top card shows, to everyone including the owner, unless the table
plays with open piles (T12). The log is the table's memory, like notes taken at a real table: a town
revealed stays in the log after another card covers it, and a late spectator reads it too. After six
journeys everyone picks his cards up again.

A player with no gold plays on. Whoever holds all 60 sovereigns at any moment wins outright (T13).
Otherwise, after 1, 2 or 3 rounds of six journeys (T14), the most gold wins; equal gold shares the win.
The booty deck is a table option (T2): by default 6 pistols and 24 gold cards (eight 1s, eight 2s,
five 3s and three 4s). Any mix may be chosen with at least one pistol (or a duel could never end) and at
least one gold card among gold_1 to gold_4 (or there is nothing to rob).

Taking back (by consent; the sheet is silent): the town you just chose may be taken back while someone is
still choosing, if everyone else agrees (U at the table). Nothing else can be: every other move is
declared aloud, turns a booty card or pays gold.
"""
