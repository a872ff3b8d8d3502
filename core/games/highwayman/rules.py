"""Highwayman (Chad Valley): shed your hand along the coaching routes out of London.

Read next to the game's rule sheet (five numbered paragraphs); rulings H1–H7 and A1–A3 are written out in
docs/rules.md.
One engine game is one whole series (H7); each hand of the series is called a *game* as on the sheet.

Order of this module: the game's facts (cards, deck), setup and dealing, legal actions, apply, scoring
and the series, the per-seat view and redraw, and the rules summary at the bottom (the bots live in
``bots.py``; ``__init__.py`` builds the ``GAME``).
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any, NoReturn

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
    clone,
    event,
    quantity,
    seat_name,
)

# --- The game's facts -----------------------------------------------------------------------------------

#: H1: the four default routes, then two more for tables that choose five or six.
ROUTES = ("bath", "dover", "north", "portsmouth", "exeter", "holyhead")
ROUTE_INDEX = {name: index for index, name in enumerate(ROUTES)}
ROUTE_TITLES = {"bath": "Bath Road", "dover": "Dover Road", "north": "Great North Road",
                "portsmouth": "Portsmouth Road", "exeter": "Exeter Road", "holyhead": "Holyhead Road"}
MAX_LENGTH = 12
HAND_SIZE = 6  # rule 1, H2
SEAT = [seat_name(seat) for seat in range(6)]
HIGHWAYMAN = "highwayman"
RUNNER = "runner"
LONDON = 0  # a LONDON card is number 0 of its route: the route's first card (H3)

#: CARD[r][k]: the card naming number k of route r ("bath:L" for its LONDON, "bath:7").
CARD = [[f"{name}:{'L' if k == LONDON else k}" for k in range(MAX_LENGTH + 1)] for name in ROUTES]
#: card → (route index, number); Highwayman and Runner are on no route.
ROUTE_AND_NUMBER = {card: (r, k) for r, cards in enumerate(CARD) for k, card in enumerate(cards)}
LONDON_CARDS = frozenset(cards[LONDON] for cards in CARD)
#: H6: what a card left in hand scores.
POINTS = {**{card: k for card, (r, k) in ROUTE_AND_NUMBER.items()}, HIGHWAYMAN: 20, RUNNER: 10}


def card_title(card: str) -> str:
    """A card as people say it: "Bath Road 7", "Bath Road LONDON", "Highwayman"."""
    if card == HIGHWAYMAN:
        return "Highwayman"
    if card == RUNNER:
        return "Bow Street Runner"
    route, number = ROUTE_AND_NUMBER[card]
    return f"{ROUTE_TITLES[ROUTES[route]]} {'LONDON' if number == LONDON else number}"


CARD_TITLE = {card: card_title(card) for card in [*ROUTE_AND_NUMBER, HIGHWAYMAN, RUNNER]}


def card_order(card: str) -> tuple[int, int]:
    """Sort key: by route, LONDON first, then Highwaymen and Runners at the end."""
    if card in ROUTE_AND_NUMBER:
        return ROUTE_AND_NUMBER[card]
    return (len(ROUTES), 0 if card == HIGHWAYMAN else 1)


#: Every card's place in ``card_order``'s order, looked up (every view sorts the seat's hand, and every
#: game's end all the hands): numbered places, as ints compare faster than ``card_order``'s pairs.
CARD_ORDER = {card: place for place, card in enumerate(sorted([*ROUTE_AND_NUMBER, HIGHWAYMAN, RUNNER],
                                                              key=card_order))}


def build_deck(routes: int, length: int) -> list[str]:
    """H1: per route a LONDON card and 1..length, plus one Highwayman and one Runner per route."""
    return list(_deck_in_order(routes, length))  # a fresh list: the deal shuffles it in place


@lru_cache(maxsize=None)
def _deck_in_order(routes: int, length: int) -> tuple[str, ...]:
    """``build_deck``, made once per deck size (every deal of a series asks for it)."""
    deck = [CARD[r][k] for r in range(routes) for k in range(length + 1)]
    return tuple(deck + [HIGHWAYMAN] * routes + [RUNNER] * routes)


OPTIONS = (
    Option("players", "int", 4, "number of players (H2)", (2, 6)),
    Option("routes", "int", 4, "coaching routes in the deck, each with a LONDON card, one Highwayman and "
                               "one Bow Street Runner (H1)", (2, 6)),
    Option("route_length", "int", 10, "numbered cards per route after LONDON (H1)", (6, MAX_LENGTH)),
    Option("series_games", "int", 3, "games in the series; lowest total wins (H7)", (1, 9)),
)


def check_options(options: dict[str, Any]) -> None:
    """Six cards each must come out of the deck (rule 1)."""
    size = len(build_deck(options["routes"], options["route_length"]))
    if options["players"] * HAND_SIZE > size:
        raise OptionError(f"{options['players']} players need {options['players'] * HAND_SIZE} cards "
                          f"but {options['routes']} routes of {options['route_length']} make a deck of {size}")


# --- Setup and dealing ----------------------------------------------------------------------------------

def setup(options: dict[str, Any], seed: int) -> State:
    """A series of ``series_games`` games; seat 1 leads the first (the last seat deals, H2)."""
    players = options["players"]
    state: State = {
        "players": players, "routes": options["routes"], "length": options["route_length"],
        "series_games": options["series_games"], "game_number": 0, "dealer": players - 1,
        "totals": [0] * players, "history": [],
        "stats": {"blocks": 0, "unblocks": 0, "draws": 0, "passes": 0, "stalls": 0, "follow_ons": 0, "ends": 0},
    }
    chance.seed_state(state, seed)
    deal_game(state, [])  # what happens before anyone acts is in the state and its view
    return state


def deal_game(state: State, events: Narration) -> None:
    """Rule 1: shuffle the whole pack, deal six each, the rest face down; left of the dealer leads."""
    deck = build_deck(state["routes"], state["length"])
    chance.shuffle(state, deck)
    players = state["players"]
    # The pack's top card is the list's last, so drawing is a cheap pop().
    state["hands"] = [deck[seat * HAND_SIZE:(seat + 1) * HAND_SIZE] for seat in range(players)]
    state["pack"] = deck[players * HAND_SIZE:]
    state["piles"] = [[] for _ in range(state["routes"])]
    state["tops"] = [-1] * state["routes"]  # -1: not started; else the last number down (LONDON = 0)
    state["blocked"] = [False] * state["routes"]
    # The card each route takes next (see ``route_takes``), kept beside tops and blocked because every
    # turn asks it of every route: a route's LONDON card before it starts.
    state["next_cards"] = [CARD[route][LONDON] for route in range(state["routes"])]
    state["game_number"] += 1
    # "play": a turn starts; "drawn": deciding on the card just drawn; "more": the seat has played and may
    # play on or end the turn (H4); "over"
    state["phase"] = "play"
    state["turn_route"] = -1  # the route this turn's numbered cards went on (H4), -1 before any
    state["passes"] = 0  # passes in a row on an empty pack (H6)
    state["moves"] = []  # this game's public moves, [seat, what, cards or route]: what anyone could note
    next_turn(state, (state["dealer"] + 1) % players, events)


# --- Legal actions --------------------------------------------------------------------------------------
#
# Every random playout of a search asks ``legal_actions`` and ``advance`` about once a move, so this
# section and the next are written for speed as well as for reading: tables made once at import, few
# calls, and the work of a check not done twice. What they answer is the rules, paragraph by paragraph.
# Tried and not kept, as interleaved runs of the bench's loop showed no gain (or a loss): the held next
# cards found by one set intersection (5 % slower), the hand scanned as a list instead of made a set
# (slower), ``_runs`` written out, a shortcut for a drawn card no route takes, the turn's checks reordered.
# Even with no check of a play and no moves or stats kept the loop is only about 12 % faster.

#: Every run a play may lay (rule 3): consecutive numbers of one route, keyed by its cards as a tuple, to
#: its route and first number. A LONDON card is laid alone (H4: it is a play of its own), so the runs from
#: number 0 are the LONDON card by itself. Checking a play is one look-up here, not a card-by-card walk.
RUNS: dict[tuple[str, ...], tuple[int, int]] = {
    tuple(cards[first:end]): (route, first)
    for route, cards in enumerate(CARD) for first in range(MAX_LENGTH + 1)
    for end in range(first + 1, first + 2 if first == LONDON else MAX_LENGTH + 2)}


def _runs(route: int, start: int, length: int, held: Any, actions: list[Action]) -> None:
    """Every run from ``start`` up along ``route`` made of held cards (rule 3): one action per length."""
    cards = CARD[route]
    actions.append({"do": "play", "cards": [cards[start]]})  # the caller found the first card held
    end = start + 1  # the run is cards[start:end]
    while end <= length and cards[end] in held:
        end += 1
        actions.append({"do": "play", "cards": cards[start:end]})


#: The next cards (``next_cards``) of the routes a Highwayman cannot go on: a LONDON card (the route is not
#: started) or None (it is complete or held up). Any other next card is a number, of a route it can.
NO_HIGHWAYMAN_TAKES = LONDON_CARDS | {None}


def _block_actions(state: State, card: str, actions: list[Action]) -> None:
    """H4: a Highwayman on any started, incomplete, unblocked route; a Runner on any blocked one."""
    if card == HIGHWAYMAN:
        for route, next_card in enumerate(state["next_cards"]):
            if next_card not in NO_HIGHWAYMAN_TAKES:
                actions.append({"do": "highwayman", "route": ROUTES[route]})
        return
    blocked = state["blocked"]
    if True in blocked:  # seldom: most of the time no route is held up
        for route, is_blocked in enumerate(blocked):
            if is_blocked:
                actions.append({"do": "runner", "route": ROUTES[route]})


def _has_numbered_play(state: State, hand: list[str]) -> bool:
    """H4: does the hand hold the next number of a started, unfinished, unblocked route?"""
    for top, card in zip(state["tops"], state["next_cards"]):
        if top >= 0 and card in hand:
            return True
    return False


def route_takes(top: int, blocked: bool, length: int, route: int) -> str | None:
    """The card a route takes next (H3, H4): its LONDON card before it starts (top -1), then the next
    number; None once it is complete or while a Highwayman holds it up."""
    return CARD[route][top + 1] if top < length and not blocked else None


def has_legal_play(state: State, hand: list[str]) -> bool:
    """H4/H5: whether a turn can begin with a play (otherwise the player draws or passes)."""
    # A held LONDON card makes a play: itself, or a numbered card if one is legal (H4); so does the next
    # number of a started, open route. (A set of the four to six next cards is quicker to make than one of
    # the hand, whose six cards outgrow a new set's first table.)
    if not set(state["next_cards"]).isdisjoint(hand):
        return True
    return _special_play(state, hand)


def _special_play(state: State, held: set[str] | list[str]) -> bool:
    """Rule 4: a Highwayman held for a started, open route, or a Runner for a blocked one."""
    if HIGHWAYMAN in held and not NO_HIGHWAYMAN_TAKES.issuperset(state["next_cards"]):
        return True  # some route's next card is a number: a started route, neither complete nor held up
    return True in state["blocked"] and RUNNER in held  # seldom is a route held up: that is asked first


def legal_actions(state: State, seat: int) -> list[Action]:
    """What ``seat`` may do now; empty unless it is that seat's turn.

    A turn with no legal play draws (or passes) by itself, as the rules leave no choice (H5); the
    player then decides on the drawn card.
    """
    phase = state["phase"]
    if phase == "over" or seat != state["turn"]:
        return []
    hand = state["hands"][seat]
    if phase == "drawn":
        return _drawn_card_actions(state, hand)
    if phase == "more":  # "end" first: whoever takes the first choice ends the turn
        return _follow_on_actions(state, hand, [{"do": "end"}])
    held = set(hand)
    actions: list[Action] = []
    # H3/H4: the runs that start with the next number of a started, open route, route by route. A
    # route's next card is its LONDON card until it starts, so a held LONDON card shows up here too.
    londons = False
    for card in state["next_cards"]:
        if card in held:
            route, number = ROUTE_AND_NUMBER[card]
            if number == LONDON:
                londons = True
            else:
                _runs(route, number, state["length"], held, actions)
    if not actions and londons:  # H4: LONDON only without a legal numbered card; in the hand's order
        for card in hand:
            if card in LONDON_CARDS:
                actions.append({"do": "play", "cards": [card]})
    if HIGHWAYMAN in held:
        _block_actions(state, HIGHWAYMAN, actions)
    if RUNNER in held:
        _block_actions(state, RUNNER, actions)
    return actions


def _drawn_card_actions(state: State, hand: list[str]) -> list[Action]:
    """H5: keep the card just drawn (the hand's last), or play it at once and run on from it."""
    drawn = hand[-1]
    actions: list[Action] = [{"do": "keep"}]  # a fresh dict: callers may keep what they are given
    if drawn == HIGHWAYMAN or drawn == RUNNER:
        _block_actions(state, drawn, actions)
        return actions
    route, number = ROUTE_AND_NUMBER[drawn]
    if number == LONDON:
        # The turn began with no legal play, so no held numbered card is legal: the LONDON is.
        actions.append({"do": "play", "cards": [drawn]})
    elif drawn == state["next_cards"][route]:
        _runs(route, number, state["length"], set(hand), actions)
    return actions


def _follow_on_actions(state: State, hand: list[str], actions: list[Action]) -> list[Action]:
    """H4 after a play: the next numbers of the route this turn's numbered cards went on (rule 3), and a
    Highwayman or a Runner (rule 4: "at any time"). No numbers on another route, no LONDON card."""
    route = state["turn_route"]
    if route >= 0:
        card = state["next_cards"][route]  # None while the route is held up or once it is complete
        if card is not None and card in hand:
            _runs(route, ROUTE_AND_NUMBER[card][1], state["length"], set(hand), actions)
    if HIGHWAYMAN in hand:
        _block_actions(state, HIGHWAYMAN, actions)
    if RUNNER in hand:
        _block_actions(state, RUNNER, actions)
    return actions


def has_follow_on(state: State, hand: list[str]) -> bool:
    """H4: whether the seat that has just played has a play left this turn (``_follow_on_actions``)."""
    route = state["turn_route"]
    if route >= 0 and state["next_cards"][route] in hand:
        return True
    return _special_play(state, hand)


def is_legal(state: State, seat: int, action: Action) -> bool:
    """The same answer as ``action in legal_actions(state, seat)``, without listing them all."""
    phase = state["phase"]
    if phase == "over" or seat != state["turn"] or type(action) is not dict:
        return False
    do = action.get("do")
    if do == "play":
        return _legal_run(state, phase, state["hands"][seat], action) is not None
    if do == "highwayman" or do == "runner":
        return _legal_block(state, phase, state["hands"][seat], action, do) >= 0
    return _legal_turn_end(phase, do, action)


def _legal_run(state: State, phase: str, hand: list[str], action: Action) -> tuple[int, int] | None:
    """The route and first number of a play ``action`` that is legal now (rule 3, H3–H5), else None."""
    cards = action.get("cards")
    if type(cards) is not list or len(action) != 2:
        return None
    for card in cards:
        if card not in hand:
            return None
    # Held, so these are cards of this table's deck (strings, on its routes, within its length), and a
    # tuple of them can be looked up; one numbered card alone is a run by itself, its own route and number.
    run = ROUTE_AND_NUMBER.get(cards[0]) if len(cards) == 1 else RUNS.get(tuple(cards))
    if run is None:
        return None  # not one LONDON card, nor numbers in order on one route (rule 3)
    route, first = run
    if phase == "drawn":
        # H5: the card just drawn (the hand's last) and on from it. The turn began with no legal play, so a
        # drawn LONDON card is legal, and so is a drawn number that its route takes next.
        if cards[0] != hand[-1]:
            return None
        return run if first == LONDON or cards[0] == state["next_cards"][route] else None
    if first == LONDON:
        return run if phase == "play" and not _has_numbered_play(state, hand) else None  # H4: a turn's first
    # A numbered run starts with the card its route takes next: the route is started, open and not held
    # up (H3, H4); after a play, only on the route this turn's numbers went on (H4, rule 3).
    if cards[0] != state["next_cards"][route]:
        return None
    return run if phase == "play" or route == state["turn_route"] else None


def _legal_block(state: State, phase: str, hand: list[str], action: Action, card: str) -> int:
    """The route a Highwayman or a Runner (``card``, spelt as the action's "do") may go on now, else -1:
    a Highwayman on a started, open route, a Runner on a blocked one (rule 4, H4); after a draw, only
    the card drawn (H5)."""
    route = action.get("route")
    if type(route) is not str or len(action) != 2:
        return -1
    route = ROUTE_INDEX.get(route, len(ROUTES))
    if route >= state["routes"] or (hand[-1] != card if phase == "drawn" else card not in hand):
        return -1
    if card == HIGHWAYMAN:
        return route if state["next_cards"][route] not in NO_HIGHWAYMAN_TAKES else -1
    return route if state["blocked"][route] else -1


def _legal_turn_end(phase: str, do: Any, action: Action) -> bool:
    """H5: keep the card just drawn; H4: end the turn after a play."""
    return len(action) == 1 and (do == "keep" if phase == "drawn" else phase == "more" and do == "end")


def pending(state: State) -> list[int]:
    return [] if state["phase"] == "over" else [state["turn"]]


# --- Apply ----------------------------------------------------------------------------------------------

_RULE_OF = {"play": "H4", "highwayman": "rule 4", "runner": "rule 4", "keep": "H5", "end": "H4"}


def apply(state: State, seat: int, action: Action) -> list[Event]:
    """Carry out one legal action of ``seat``; refuse anything else and leave the state untouched."""
    events: list[Event] = []
    advance(state, seat, action, events)
    return events


def advance(state: State, seat: int, action: Action, events: Narration = None) -> None:
    """``apply`` with nobody listening (``events`` None): the same check and change of state, no event
    built. It is also the one path of ``apply``, which passes a list for the events."""
    phase = state["phase"]
    if phase == "over" or seat != state["turn"] or type(action) is not dict:
        refuse(state, seat, action)
    hand = state["hands"][seat]
    do = action.get("do")
    # Each kind of action is checked by the same function as ``is_legal`` uses, and what the check found
    # (the run's route, the route held up or cleared) is used at once rather than looked up again.
    if do == "play":
        run = _legal_run(state, phase, hand, action)
        if run is None:
            refuse(state, seat, action)
        if phase == "more":
            state["stats"]["follow_ons"] += 1  # a play after the turn's first (H4)
        cards = list(action["cards"])  # the state's own: the caller may go on using its action
        state["moves"].append([seat, "play", cards])
        play_cards(state, seat, hand, cards, run, events)
    elif do == "highwayman" or do == "runner":
        route = _legal_block(state, phase, hand, action, do)
        if route < 0:
            refuse(state, seat, action)
        if phase == "more":
            state["stats"]["follow_ons"] += 1
        state["moves"].append([seat, do, ROUTES[route]])
        play_highwayman_or_runner(state, seat, do, route, events)
    elif _legal_turn_end(phase, do, action):  # no play: the turn passes left (H5, H4)
        state["moves"].append([seat, do, None])
        if do == "end":
            state["stats"]["ends"] += 1
        if events is not None:
            events.append(event(f"{SEAT[seat]} {'keeps the card' if do == 'keep' else 'ends the turn'}."))
        next_turn(state, (seat + 1) % state["players"], events)
        return
    else:
        refuse(state, seat, action)
    if not hand:
        finish_game(state, seat, events)  # H6
        return
    # H4: the seat may play on, or end the turn when it chooses, if it has a play left (``has_follow_on``):
    # the next number of the route this turn's numbers went on, or a Highwayman or a Runner.
    route = state["turn_route"]
    if route >= 0 and state["next_cards"][route] in hand or _special_play(state, hand):
        state["phase"] = "more"
    else:
        next_turn(state, (seat + 1) % state["players"], events)


def refuse(state: State, seat: int, action: Any) -> NoReturn:
    """Raise the refusal of an action ``is_legal`` turned down, naming the rule it breaks."""
    if state["phase"] == "over":
        raise IllegalAction("H7", "the series is over")
    if seat != state["turn"]:
        raise IllegalAction("H4", f"it is {seat_name(state['turn'])}'s turn, not {seat_name(seat)}'s")
    do = action.get("do") if isinstance(action, dict) else None
    rule = _RULE_OF.get(do, "H4") if isinstance(do, str) else "H4"
    why = ""
    if state["phase"] == "more" and do == "play":
        why = (": after a play, only the next numbers of the route this turn's numbers went on may follow "
               "(no LONDON card, no other route), besides a Highwayman or a Runner")
    elif do == "end":
        why = ": a turn ends after at least one play"
    raise IllegalAction(rule, f"{describe_action(state, seat, action)} is not allowed now{why}")


def next_turn(state: State, seat: int, events: Narration) -> None:
    """Play passes left (rule 2). A player with no legal play draws; with an empty pack he passes (H5),
    and when every player has passed in turn the game is scored as it stands (H6)."""
    hands = state["hands"]
    taken = set(state["next_cards"])  # see ``has_legal_play``
    state["turn_route"] = -1
    while True:
        state["turn"] = seat
        hand = hands[seat]
        if not taken.isdisjoint(hand) or _special_play(state, hand):  # ``has_legal_play``, written out
            state["phase"] = "play"
            state["passes"] = 0
            return
        pack = state["pack"]
        if pack:  # H5: no legal play, so take the top card; only the drawer learns what it is
            state["phase"] = "drawn"
            state["passes"] = 0
            card = pack.pop()
            hand.append(card)
            state["stats"]["draws"] += 1
            state["moves"].append([seat, "draw", None])
            if events is not None:
                events.extend(draw_events(seat, card, len(pack)))
            return
        state["passes"] += 1
        state["stats"]["passes"] += 1
        state["moves"].append([seat, "pass", None])
        if events is not None:
            events.append(pass_event(seat))
        if state["passes"] >= state["players"]:
            state["stats"]["stalls"] += 1
            finish_game(state, None, events)
            return
        seat = (seat + 1) % state["players"]


def play_cards(state: State, seat: int, hand: list[str], cards: list[str], run: tuple[int, int],
               events: Narration) -> None:
    """Rules 2–3: a LONDON card opens its route; numbered cards go on in order on one route. ``hand`` is
    the seat's, ``run`` the route and first number of ``cards`` (``RUNS``)."""
    for card in cards:
        hand.remove(card)
    route, first = run
    last = first + len(cards) - 1
    state["piles"][route].extend(cards)
    state["tops"][route] = last
    # What the route takes next (``route_takes``): the following number, or nothing once it is complete.
    state["next_cards"][route] = CARD[route][last + 1] if last < state["length"] else None
    if last != LONDON:
        state["turn_route"] = route  # H4: this turn may go on with the next numbers of this route only
    if events is None:
        return
    title = ROUTE_TITLES[ROUTES[route]]
    if last == LONDON:
        events.append(event(f"{SEAT[seat]} opens the {title} with its LONDON card."))
        return
    numbers = ", ".join(str(ROUTE_AND_NUMBER[card][1]) for card in cards)
    done = " The route is complete." if last == state["length"] else ""
    events.append(event(f"{SEAT[seat]} plays {title} {numbers}.{done}"))


def play_highwayman_or_runner(state: State, seat: int, do: str, route: int, events: Narration) -> None:
    """Rule 4: a Highwayman blocks the route until a Bow Street Runner covers it."""
    card = HIGHWAYMAN if do == "highwayman" else RUNNER
    state["hands"][seat].remove(card)
    state["piles"][route].append(card)
    state["blocked"][route] = card == HIGHWAYMAN
    state["next_cards"][route] = route_takes(state["tops"][route], card == HIGHWAYMAN, state["length"], route)
    state["stats"]["blocks" if card == HIGHWAYMAN else "unblocks"] += 1
    if events is not None:
        title = ROUTE_TITLES[ROUTES[route]]
        if card == HIGHWAYMAN:
            events.append(event(f"{SEAT[seat]} holds up the {title} with a Highwayman."))
        else:
            events.append(event(f"{SEAT[seat]} clears the {title} with a Bow Street Runner."))


def draw_events(seat: int, card: str, left: int) -> list[Event]:
    """Everyone learns that ``seat`` drew; only he learns the card."""
    return [event(f"{SEAT[seat]} has no play and draws a card ({left} left in the pack)."),
            event(f"You draw {CARD_TITLE[card]}.", [seat], card=card)]


def pass_event(seat: int) -> Event:
    return event(f"{SEAT[seat]} cannot play and the pack is empty: pass.")


# --- Scoring and the series -----------------------------------------------------------------------------

def hand_points(hand: list[str]) -> int:
    """H6: face value for numbers, 0 for LONDON, 10 for a Runner, 20 for a Highwayman."""
    return sum(map(POINTS.__getitem__, hand))


def finish_game(state: State, winner: int | None, events: Narration) -> None:
    """Rule 5/H6: score the hands left; then deal the next game of the series or end it (H7)."""
    scores = [hand_points(hand) for hand in state["hands"]]
    number = state["game_number"]
    if winner is None:
        low = min(scores)
        winners = [seat for seat, score in enumerate(scores) if score == low]
        how = "stalled"
    else:
        winners = [winner]
        how = "out"
    for seat, score in enumerate(scores):
        state["totals"][seat] += score
    left = [sorted(hand, key=CARD_ORDER.__getitem__) for hand in state["hands"]]
    state["history"].append({"game": number, "ended": how, "winners": winners, "scores": scores, "left": left})
    if events is not None:
        if winner is None:
            names = " and ".join(seat_name(seat) for seat in winners)
            opening = (f"Nobody can play and the pack is empty: game {number} is scored as it stands, and the "
                       f"lowest hand wins it (H6): {names} with {quantity(min(scores), 'point')}.")
        else:
            opening = f"{seat_name(winner)} has played every card and wins game {number}."
        totals = ", ".join(f"{seat_name(s)} {t}" for s, t in enumerate(state["totals"]))
        events.append(event(f"{opening} Left in hand: {hands_left(left, scores)}. Totals: {totals}."))
    if state["game_number"] >= state["series_games"]:
        state["phase"] = "over"
        if events is not None:
            events.append(event(series_summary(state)))
        return
    state["dealer"] = (state["dealer"] + 1) % state["players"]  # H2: the deal moves one seat left
    leader = (state["dealer"] + 1) % state["players"]
    if events is not None:
        events.append(deal_event(state["game_number"] + 1, state["series_games"], state["dealer"], leader))
    deal_game(state, events)


def hand_in_words(hand: list[str]) -> str:
    """A sorted hand by route: "Bath Road LONDON, 3, 7; Highwayman" ("no cards" for an empty one)."""
    parts: list[str] = []
    last_route = None
    for card in hand:
        if card in ROUTE_AND_NUMBER:
            route, number = ROUTE_AND_NUMBER[card]
            shown = "LONDON" if number == LONDON else str(number)
            if route == last_route:
                parts[-1] += f", {shown}"
            else:
                parts.append(f"{ROUTE_TITLES[ROUTES[route]]} {shown}")
            last_route = route
        else:
            parts.append(CARD_TITLE[card])
    return "; ".join(parts) or "no cards"


def hands_left(left: list[list[str]], scores: list[int]) -> str:
    """H6: every hand shown with its points, "Seat 2: Bath Road 3, 7; Highwayman (30 points)"."""
    return " | ".join(f"{seat_name(seat)}: {hand_in_words(hand)} ({quantity(score, 'point')})"
                      for seat, (hand, score) in enumerate(zip(left, scores)))


def deal_event(number: int, games: int, dealer: int, leader: int) -> Event:
    return event(f"Game {number} of {games}: {seat_name(dealer)} deals, {seat_name(leader)} leads.")


def opening_events(state: State) -> list[Event]:
    """The first deal, which setup made: who deals and leads, then what the deal forced before anyone
    chose. A leader with no play drew (H5), the card told to him alone; with an empty pack (every card
    dealt) the seats from the leader to the one now on turn passed. The deal leaves the dealt game's
    first turn in the state, so these are rebuilt from it rather than kept."""
    players = state["players"]
    leader = (state["dealer"] + 1) % players
    events = [deal_event(state["game_number"], state["series_games"], state["dealer"], leader)]
    if state["phase"] == "drawn":
        seat = state["turn"]
        events += draw_events(seat, state["hands"][seat][-1], len(state["pack"]))
    else:
        seat = leader
        while seat != state["turn"]:
            events.append(pass_event(seat))
            seat = (seat + 1) % players
    return events


def series_winners(state: State) -> list[int]:
    """H7: lowest total wins; equal totals share the win."""
    low = min(state["totals"])
    return [seat for seat, total in enumerate(state["totals"]) if total == low]


def series_summary(state: State) -> str:
    winners = series_winners(state)
    names = " and ".join(seat_name(seat) for seat in winners)
    verb = "win" if len(winners) > 1 else "wins"
    games = len(state["history"])
    totals = ", ".join(f"{seat_name(s)} {t}" for s, t in enumerate(state["totals"]))
    return f"{names} {verb} the series of {games} game{'s' * (games != 1)} (totals: {totals})."


def result(state: State) -> dict[str, Any] | None:
    """None until the series ends; then the winners, totals and everything that was hidden (A2)."""
    if state["phase"] != "over":
        return None
    return {"winners": series_winners(state), "scores": list(state["totals"]), "seed": state["seed"],
            "summary": series_summary(state),
            "reveal": {"hands": clone(state["hands"]), "pack_top_first": state["pack"][::-1],
                       "history": clone(state["history"])}}


def final_result(state: State) -> dict[str, Any]:
    """``result`` of a game known to be over."""
    outcome = result(state)
    assert outcome is not None, "the game is over"
    return outcome


def stats(state: State) -> dict[str, float]:
    """Figures per series for the simulator."""
    figures = state["stats"]
    return {"games_played": len(state["history"]), "stalled_games": figures["stalls"],
            "highwaymen_played": figures["blocks"], "runners_played": figures["unblocks"],
            "cards_drawn": figures["draws"], "passes": figures["passes"],
            "plays_added_to_a_turn": figures["follow_ons"], "turns_ended_by_choice": figures["ends"],
            "winning_total": min(state["totals"])}


def check_invariants(state: State) -> None:
    """Cards conserved; routes in order; blocks match their piles; totals match the history."""
    deck = build_deck(state["routes"], state["length"])
    held = [card for hand in state["hands"] for card in hand]
    laid = [card for pile in state["piles"] for card in pile]
    assert Counter(held + state["pack"] + laid) == Counter(deck), "cards are not conserved"
    for route, pile in enumerate(state["piles"]):
        numbered = [ROUTE_AND_NUMBER[card] for card in pile if card in ROUTE_AND_NUMBER]
        assert all(r == route for r, _ in numbered), "a card lies on another route"
        assert [k for _, k in numbered] == list(range(len(numbered))), "a route is out of order (H3)"
        assert state["tops"][route] == len(numbered) - 1
        assert state["blocked"][route] == (bool(pile) and pile[-1] == HIGHWAYMAN)
        assert state["next_cards"][route] == route_takes(state["tops"][route], state["blocked"][route],
                                                         state["length"], route)
        assert not pile or pile[0] == CARD[route][LONDON], "a route must open with its LONDON card"
    assert len(state["hands"]) == state["players"] and 0 <= state["turn"] < state["players"]
    assert state["phase"] in ("play", "drawn", "more", "over")
    assert -1 <= state["turn_route"] < state["routes"]
    if state["phase"] == "more":
        assert has_follow_on(state, state["hands"][state["turn"]]), "asked to play on with nothing to play"
    if state["turn_route"] >= 0:
        assert state["tops"][state["turn_route"]] >= 1, "numbers went on a route that shows none"
    assert 0 <= state["passes"] < state["players"] or state["phase"] == "over"
    assert [sum(g["scores"][s] for g in state["history"]) for s in range(state["players"])] == state["totals"]
    if state["phase"] != "over":
        assert all(state["hands"]), "a game goes on although a hand is empty"
        assert state["game_number"] == len(state["history"]) + 1


# --- What each seat sees --------------------------------------------------------------------------------

def view(state: State, seat: Seat) -> View:
    """A1: routes, hand sizes, pack size and the series are public; a seat sees its own hand only."""
    phase = state["phase"]
    seen: View = {
        "seat": seat, "players": state["players"], "phase": phase, "turn": state["turn"],
        "dealer": state["dealer"], "game_number": state["game_number"],
        "series_games": state["series_games"], "route_length": state["length"],
        "routes": [{"id": ROUTES[r], "title": ROUTE_TITLES[ROUTES[r]], "pile": list(state["piles"][r]),
                    "top": state["tops"][r], "blocked": state["blocked"][r]} for r in range(state["routes"])],
        "hand_sizes": [len(hand) for hand in state["hands"]], "pack_size": len(state["pack"]),
        "passes": state["passes"], "totals": list(state["totals"]), "history": copy_history(state["history"]),
        "moves": copy_moves(state["moves"]),
        # H4: the route this turn's numbers went on, which the turn may go on along (None before any)
        "turn_route": ROUTES[state["turn_route"]] if state["turn_route"] >= 0 else None,
    }
    if seat is not None:
        hand = state["hands"][seat]
        seen["hand"] = sorted(hand, key=CARD_ORDER.__getitem__)
        seen["drawn"] = hand[-1] if phase == "drawn" and state["turn"] == seat else None
    if phase == "over":
        seen["reveal"] = final_result(state)["reveal"] | {"seed": state["seed"]}  # A2
    return seen


def resample_hidden(state: State, seat: Seat, rng: random.Random) -> State:
    """Redeal everything ``seat`` cannot see: the other hands, the pack order and the generator."""
    redrawn = copy_state(state)
    if state["phase"] == "over":
        return redrawn  # A2: nothing is hidden any more
    others = [s for s in range(state["players"]) if s != seat]
    pool = sorted([card for s in others for card in redrawn["hands"][s]] + redrawn["pack"])
    rng.shuffle(pool)
    for s in others:
        size = len(redrawn["hands"][s])
        redrawn["hands"][s], pool = pool[:size], pool[size:]
    redrawn["pack"] = pool
    chance.redraw_hidden_generator(redrawn, rng)
    return redrawn


def copy_moves(moves: list[list[Any]]) -> list[list[Any]]:
    """A deep copy of the public moves, ``[seat, what, cards or route or None]`` each."""
    return [[seat, what, played[:] if type(played) is list else played] for seat, what, played in moves]


def copy_history(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A deep copy of the series' finished games."""
    return [{**game, "winners": list(game["winners"]), "scores": list(game["scores"]),
             "left": [list(hand) for hand in game["left"]]} for game in history]


def copy_state(state: State) -> State:
    """A deep copy of the state's plain data, several times quicker than ``clone``'s msgpack round trip:
    the search copies a state for every sample it draws."""
    new = dict(state)
    for key in ("totals", "pack", "tops", "blocked", "next_cards"):
        new[key] = list(state[key])
    new["hands"] = [list(hand) for hand in state["hands"]]
    new["piles"] = [list(pile) for pile in state["piles"]]
    new["stats"] = dict(state["stats"])
    new["history"] = copy_history(state["history"])
    new["moves"] = copy_moves(state["moves"])
    return new


def can_take_back(before: State, after: State, seat: int, action: Action) -> bool:
    """Keeping the card you drew, or ending your turn: neither shows anything of yours. A card laid (a
    Highwayman and a Runner too) stays laid: it was hidden in your hand (A1), and everyone has seen it now.

    Decided from the move alone, never from what followed it: whether the next seat then had a play or
    drew by itself depends on his hand, and the offer must not tell you that. A take-back
    undoes the next seat's own draw with the move, its card back on top of the pack (the table lets the
    others refuse; the window closes with the next move someone chooses)."""
    return action.get("do") in ("keep", "end")


def moment(state: State, seat: int) -> str:
    """The game of the series, and how many cards are left in the pack."""
    return f"game {state['game_number']} of {state['series_games']}, {quantity(len(state['pack']), 'card')} in the pack"


def describe_action(state: State, seat: int, action: Action) -> str:
    """An action in words, for menus and refusals."""
    do = action.get("do") if isinstance(action, dict) else None
    if do == "play" and isinstance(action.get("cards"), list) and action["cards"] \
            and all(card in ROUTE_AND_NUMBER for card in action["cards"]):
        route, first = ROUTE_AND_NUMBER[action["cards"][0]]
        title = ROUTE_TITLES[ROUTES[route]]
        if first == LONDON:
            return f"Open the {title} with its LONDON card"
        numbers = [ROUTE_AND_NUMBER[card][1] for card in action["cards"]]
        return f"Play {title} {numbers[0]}" + (f" to {numbers[-1]}" if len(numbers) > 1 else "")
    if do in ("highwayman", "runner") and action.get("route") in ROUTE_TITLES:
        what = "Highwayman" if do == "highwayman" else "Bow Street Runner"
        return f"{what} on the {ROUTE_TITLES[action['route']]}"
    simple = {"keep": "Keep the card you drew", "end": "End your turn"}
    return simple.get(do, f"The action {action!r}") if isinstance(do, str) else f"The action {action!r}"


# --- The rules summary ----------------------------------------------------------------------------------

RULES_TEXT = """\
Highwayman (Chad Valley). Shed your hand along the coaching routes out of London.

The deck (H1, a table option): each coaching route has a LONDON card and cards 1-10 in its colour; by
default four routes (Bath Road, Dover Road, Great North Road, Portsmouth Road), four Highwaymen and four
Bow Street Runners, 52 cards. Tables may choose 2-6 routes of 6-12 numbers (one Highwayman and one Runner
per route), as long as the deck holds six cards for every player: routes x (numbers + 3) >= players x 6.

Deal (rule 1, H2): six cards each, the rest face down as the pack. The player left of the dealer leads.
Routes (rules 2-3, H3): a route starts only with its own LONDON card, then 1, 2, 3 ... in order.
Your turn (H4): if you can play you must. A numbered card is legal when it is the next number of a started,
unblocked route. A LONDON card is legal only as your first play, when you hold no legal numbered card. A
Highwayman may go on any started, unfinished, unblocked route and blocks it (rule 4); a Bow Street Runner
goes on a blocked route and clears it. After your first play you may play on: the next numbers of the
route your numbers went on this turn (rule 3; not another route's, and no LONDON card), and a Highwayman
or a Runner may follow a play in the same turn (rule 4: "at any time"). So you may lay a run and then a
Highwayman; but no numbers follow a Highwayman, a Runner or a LONDON card played first. End your turn
when you choose, after at least one play; when nothing could follow, play passes left by itself.
No play (H5): you draw the top card (the table does it for you, as there is no choice); you may play it
at once if it is legal (and run on from it, and play on as above), or keep it, which ends your turn.
With no play and an empty pack, you pass.
Scoring (rule 5, H6): the first to empty his hand wins the game; the others score the cards left in hand:
numbers at face value, LONDON 0, Runner 10, Highwayman 20. If the pack is empty and every player passes
in turn, all hands are scored and the lowest wins that game.
Series (H7, a table option, default 3 games): the deal moves one seat left each game; lowest total wins,
equal totals share the win.
Hands and the pack's order are secret (A1); hand sizes are public. At the end everything is shown with
the seed (A2).

Taking back (by consent; the sheet is silent): keeping the card you drew, or ending your turn, may be
taken back until the next player chooses a move, if everyone else agrees (U at the table); a card he drew
by himself meanwhile goes back on the pack. A card laid stays laid: it was hidden in your hand (A1).
"""
