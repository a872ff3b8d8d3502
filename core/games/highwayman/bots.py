"""The bots for Highwayman, easy to hard; each reads only its seat's view (A3).

``normal`` plays a card that empties its hand whenever it can (H6: that wins the
game, and the series goes mostly to whoever wins games: against three random bots, the earlier normal bot
won the series 86% of the times it won two games of three, and 28% when it won one). Otherwise it lays its cards so
that it keeps a play for its next turns and the others do not get one: a numbered play is worth its cards
and their points, plus ``OWN_CARD_AHEAD`` for each card of ours further up the route (so it plays one
card where it holds the next, which keeps the route shut to everyone else and its own next turn sure,
and it brings on the routes where most of its hand waits), less ``LEFT_OPEN`` when it hands the route's
next card to whoever holds it. It keeps a card it has just drawn (holding the next card of a route shuts
it to the others and is a sure play next turn; in 1,000-series trials against three random bots, keeping
won 34% of series and playing at once 27%), spends a Bow Street Runner it has no use for when nothing
better is on, and holds up the route the players after it most need. For that it remembers what each
of them has shown this game (the view's public ``moves``): a player who had to draw, or opened a route
with a LONDON card, held none of the next cards of the open routes then, and can hold one now only
through the cards he has drawn since. A route whose next card the next player probably holds is the one
to block.

Once another player is down to ``NEARLY_OUT`` (two) cards it counts each card of ours ahead at 15, not
25: the turns that holding the route would give may never come, and what it holds when he goes out is
scored (a game it lost left it 2.3 cards, 19 points, on average, nearly all of them numbers). Against
three random bots (4 players, series of 3, seat rotated, shared wins counted) it wins 42.0% (41.3-42.7%)
of 20,000 series of run 12, where it won 40.3% (39.7-41.0%) without that (39.0% on the first 4,000), and
32.1% (30.7-33.6%, of 4,000) before it weighed its own cards ahead (it went out first in 36% of games
instead of 28.5%). The two weights were tuned on run 31 (20,000 series a trial, 40.9% without): two
cards and 0, 10, 15 or 20 gave 40.6, 42.2, 42.3 and 41.2%; three cards and 5, 10 or 15, 42.1-42.3%;
one card and 0, 41.8%. Against three easy bots it wins 79.2% of 3,000 2-player series and 42.0% of
3,000 4-player ones (before: 76.6% and 40.2%). What it remembers of the moves makes no measurable
difference against random bots: with ``BLOCK_WEIGHTS`` all nothing it won 40.8% of the same 20,000
series of run 31 (40.9% with them), so guessing better who holds a route's next card could not help.

Its other weights were tuned on run 7 (4,000 series a trial): each card ahead worth 5-20 gave 34-36%,
25-40 gave 38-39%; going out when it can, +1; the Runner and ``LEFT_OPEN``, +0.5 each (within noise
singly). Not worth it: counting cards ahead less the further up they are, dropping the
weight once the pack is empty (37%: holding the next card still shuts the others out when nobody can
draw), a bonus for every route left shut, playing a card just drawn, a Highwayman sooner or later than
the weighed block. Before these weights (tried then without a gain beyond noise, 28-32% in 1,000-series
trials): a Highwayman on a random route instead of the weighed one, weighing blocks by the others' hand
sizes, holding the Highwayman to the last, laying single cards rather than runs (always), and playing a
drawn card that starts a run or when someone is down to two cards.

Since H4 lets a turn go on after its first play, it goes out over several plays when it can (a run with
every numbered card it holds, then its Highwaymen and Runners: ``going_out``), lays a worthwhile run
before a Highwayman or Runner it would play first (numbers cannot follow them, they can follow a run),
and then plays on by the same weights, against ``END_TURN`` for ending: a Highwayman when it blocks
someone, a Runner when it clears a route whose next card it holds, more numbers of the turn's route when
the longer run beats stopping by the reckoning that chose the run. Against three random bots (which now
play on at random too; run 12's seeds, 4,000 series a trial) it won 41.9% (40.4-43.4%); without the run
first 42.3%, without ``going_out`` 41.6%, ending every turn at once unless that empties its hand 42.6%:
all within noise, so playing on gains nothing measurable against random bots (1,000 series of
``bench/bots.py``: 40.2% before H4's follow-ons, 40.1% with them).

``easy`` plays like a beginner: it lays a card whenever it can (the whole run, on whichever route
catches its eye), often a card it has just drawn too, and plays a Highwayman or spends its Runner on any route
now and then, with no thought for who needs which route.

``hard`` searches (``core.search``) with the normal bot as its model of the others and its playouts.
Its guesses of the other hands are drawn evenly among the deals and draws the public moves allow
(``resample_as_moves_show``: at every forced move a player held none of the cards he could have played;
a uniform redeal broke that at 32% of the decisions of normal-bot games). The guess before it kept only
to each player's last forced move and handed out the cards it had skipped as his drawn ones, which put a
card he had shown he lacked back in his hand about as often as a uniform redeal did (see the test of its
odds in ``tests/core/test_bots.py``). In normal-bot games the new guess puts a route's next card where it
really is 54.5% of the time (uniform 35.3%, the earlier guess 42.5%; 656 positions, 40 guesses each),
yet hard plays no better for it: against three normal bots (4 players, run 12's seeds) it won
25.3% (21.2-29.7%) of 400 series, 1.01x the fair share, where the earlier guess won 26.5% (22.4-31.0%)
on the same seeds and the normal bot in its seat 21.5% (17.8-25.8%), at load 2.5-5.2, a median 35-37
samples a decision, p99 250-254 ms. The earlier figures, with the earlier guess: 33.3% (25.5-42.2%) of 120 series
(1.33x) against the normal bot before it weighed its own cards ahead, then 27.0% (19.3-36.4%) of 100,
1.08x (normal in its seat: 25.0%), and 66.0% (56-75%) of 100 2-player series (normal in its seat: 49%).
What holds it back is what it cannot see, not how much it thinks: given the others' real hands it won
43% of 126 series where its guesses won 28.5% (an experiment only; A3 forbids it), and the normal bot's
choices rarely lose by a margin its samples can show. ``bench/hidden_hands.py`` measures both ends: its
guesses put 30.5% of the rivals' cards in the right hand (a uniform redeal 28.2%), and with 100 playouts a
decision it won 25.0% of 100 series over its guesses, 44.0% peeking at the hands. Weighing each guess by
how well the normal bot would have made each rival's plays since his last draw (the rivals modelled as
the normal bot, as Dick Turpin's hard bot does) placed 31.6% right and won 26.7% of 60 series: the public
moves say too little about the hands for a better reading of them to pay.

Issue 44 (2 players, hard v normal, series of 3, the bench's seeds, seat rotated): ``bench/bots.py`` gave
63.3% (51-74%) of seeds 0-59. Seeds 60-100 at load 4.5-22 (nice 19) gave 20 of 41 (48.8%): by the wall
clock its 0.25 s bought a median of 5 samples a decision, too few for the search ever to leave the normal
bot's choice. It now thinks by its thread's CPU time, a second by the wall at most (``core.search.Budget``):
a median of 13 samples at load 12, and 24 of the same 41 series, 58.5% (43-72%); 10 went otherwise, 7 of
them its way. The 60% goal is not shown: a measure of a few hundred series at 2-3 s each, on a quiet
machine, is still to be made.

This module holds the levels and the normal bot's reading of its view (``Reading``, ``remember``); the
hard bot's guesses of the other hands are in ``guessed_hands.py``.
"""

from __future__ import annotations

import math
import random
from functools import cached_property

from core.games.highwayman import rules as highwayman
from core.games.highwayman.guessed_hands import resample_as_moves_show
from core.games.highwayman.rules import (
    CARD,
    HIGHWAYMAN,
    LONDON,
    LONDON_CARDS,
    POINTS,
    ROUTE_AND_NUMBER,
    ROUTE_INDEX,
    ROUTES,
    RUNNER,
    legal_actions,
)
from core.registry import get_game
from core.search import Budget, searching_bot

SHUT_OUT = -60  # holding up a route our own next cards need, with no Runner to clear it
#: What a numbered play gains for each card of ours further up its route: it brings them nearer, and
#: laying one card where we hold the next keeps the route shut to everyone else (see the docstring).
OWN_CARD_AHEAD = 25
#: Once another player is down to this many cards, a card of ours further up the route is worth only
#: ``CARD_AHEAD_NEAR_THE_END``: the turns that holding the route would give us may never come, and what
#: we still hold when he goes out is scored, so longer runs shed more (see the module's docstring).
NEARLY_OUT = 2
CARD_AHEAD_NEAR_THE_END = 15
#: What a numbered play loses when it leaves the route's next card to whoever else holds it.
LEFT_OPEN = 20
#: A Runner no route of ours needs still sheds 10 points: worth a card that gives nothing else.
SPARE_RUNNER = 20
#: How much blocking hurts each player after us, by how soon his turn comes (the next one most).
BLOCK_WEIGHTS = (12.0, 5.0, 2.0, 1.0, 0.5)


def normal(state: dict, seat: int, rng: random.Random) -> dict:
    """The normal bot. The legal actions depend only on what the seat sees, so reading them keeps to A3."""
    legal = legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    hand_size = len(state["hands"][seat])
    for action in legal:
        if cards_laid(action) == hand_size:
            return action  # H6: the first to empty his hand wins the game, whatever else the play gives away
    if legal[0]["do"] == "keep":
        return legal[0]  # "keep" comes first when it is offered, and the normal bot keeps what it draws
    out = going_out(state, seat, legal)
    if out is not None:
        return out  # H6 again, over the several plays of one turn (H4)
    reading = Reading(public_view(state, seat))
    if legal[0]["do"] == "end":  # H4: it has played; "end" comes first, so equals end the turn
        return max(legal, key=lambda action: reading.follow_on_value(action, state["turn_route"]))
    best = max(legal, key=reading.value)  # max keeps the first of equals: legal order is seat-visible
    if best["do"] != "play":
        # A Highwayman or a Runner may follow a play in the same turn, but no numbers follow them (H4):
        # lay a worthwhile run first, and weigh the other card again after it.
        numbered = [action for action in legal
                    if action["do"] == "play" and ROUTE_AND_NUMBER[action["cards"][0]][1] != LONDON]
        if numbered:
            run = max(numbered, key=reading.value)
            if reading.value(run) > 0:
                return run
    return best


#: What ending the turn is worth against playing on (H4): a Highwayman is played on when it blocks
#: someone (``block_value`` above 0), a spare Runner (``SPARE_RUNNER``) is kept.
END_TURN = 30


def going_out(state: dict, seat: int, legal: list[dict]) -> dict | None:
    """A play after which the rest of the hand can follow this turn (H4, H6): every numbered card in this
    one run (or a LONDON card alone), then the Highwaymen and Runners, each on a route it may go on."""
    hand = state["hands"][seat]
    highwaymen, runners = hand.count(HIGHWAYMAN), hand.count(RUNNER)
    numbered = len(hand) - highwaymen - runners
    tops, blocked, length = state["tops"], state["blocked"], state["length"]
    for action in legal:
        do = action["do"]
        if do == "end":
            continue
        if do == "play":
            if len(action["cards"]) != numbered:
                continue
            route, last = ROUTE_AND_NUMBER[action["cards"][-1]]
            after = list(tops)
            after[route] = last
            h, r = highwaymen, runners
        elif numbered:
            continue  # no numbers may follow a Highwayman or a Runner (H4)
        else:
            after = tops
            h, r = highwaymen - (do == "highwayman"), runners - (do == "runner")
        route_changed = ROUTE_INDEX[action["route"]] if do != "play" else -1
        is_blocked = [(b if r_ != route_changed else do == "highwayman") for r_, b in enumerate(blocked)]
        open_routes = sum(1 for r_, top in enumerate(after) if 0 <= top < length and not is_blocked[r_])
        if _specials_fit(h, r, open_routes, sum(is_blocked)):
            return action
    return None


def _specials_fit(highwaymen: int, runners: int, open_routes: int, blocked: int) -> bool:
    """Whether that many Highwaymen (each on an open route, which it blocks) and Runners (each on a
    blocked route, which it opens) can all go down in some order (rule 4)."""
    if not highwaymen and not runners:
        return True
    if highwaymen and open_routes and _specials_fit(highwaymen - 1, runners, open_routes - 1, blocked + 1):
        return True
    return bool(runners and blocked and _specials_fit(highwaymen, runners - 1, open_routes + 1, blocked - 1))


def cards_laid(action: dict) -> int:
    """How many cards an action takes out of the hand: a run's cards, one Highwayman or Runner, none to keep
    or to end the turn."""
    do = action["do"]
    return len(action["cards"]) if do == "play" else 0 if do in ("keep", "end") else 1


def public_view(state: dict, seat: int) -> dict:
    """The parts of ``view(state, seat)`` the normal bot reads, as they are in the state rather than
    copied: every one of them is in the seat's view (A3). The hard bot's playouts ask the normal bot
    for almost every move, and copying the whole view (the game's moves above all) was a fifth of it.
    Read only: the lists are the state's own."""
    return {"seat": seat, "players": state["players"], "route_length": state["length"],
            "routes": [{"id": ROUTES[r], "pile": state["piles"][r], "top": state["tops"][r]}
                       for r in range(state["routes"])],
            "hand": state["hands"][seat], "hand_sizes": [len(hand) for hand in state["hands"]],
            "moves": state["moves"]}


class Reading:
    """What the normal bot makes of its view: its own numbers per route, the numbers it cannot see, and
    what the others' public moves say about their hands."""

    def __init__(self, seen: dict) -> None:
        self.seen = seen
        self.seat, self.players = seen["seat"], seen["players"]
        self.routes = {route["id"]: route for route in seen["routes"]}
        self.have_runner = RUNNER in seen["hand"]
        self.hand_sizes = seen["hand_sizes"]
        self.moves, self.length = seen.get("moves", []), seen["route_length"]

    # Worked out only when an action's value needs them: a numbered run's value does not.
    @cached_property
    def numbers(self) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        """Per route, the numbers we hold, and those neither held nor laid (in the other hands or the pack)."""
        laid = {card for route in self.seen["routes"] for card in route["pile"]}
        held = set(self.seen["hand"])
        numbered = {name: CARD[ROUTE_INDEX[name]][1:self.length + 1] for name in self.routes}
        mine = {name: [k for k, card in enumerate(cards, 1) if card in held] for name, cards in numbered.items()}
        unseen = {name: [k for k, card in enumerate(cards, 1) if card not in held and card not in laid]
                  for name, cards in numbered.items()}
        return mine, unseen

    @property
    def mine(self) -> dict[str, list[int]]:
        return self.numbers[0]

    @property
    def unseen(self) -> dict[str, list[int]]:
        return self.numbers[1]

    @cached_property
    def unseen_count(self) -> int:
        return max(1, sum(len(ks) for ks in self.unseen.values()) + 8)  # + specials, roughly

    @cached_property
    def memory(self) -> tuple[list[set[str]], list[int]]:
        """``remember`` of this game's moves, worked out only when a block is weighed (the hard bot's
        playouts make most decisions without one)."""
        return remember(self.moves, self.players, len(self.routes), self.length)

    def value(self, action: dict) -> float:
        do = action["do"]
        if do == "play":
            cards = action["cards"]
            route_index, first = ROUTE_AND_NUMBER[cards[0]]
            if first == 0:
                # Open a route where our own low cards can follow; an idle LONDON still costs a card.
                return 10 + sum(12 - k for k in self.mine[ROUTES[route_index]] if k <= 3)
            last = first + len(cards) - 1
            ahead = self.own_numbers_above(route_index, last)
            per_card_ahead = CARD_AHEAD_NEAR_THE_END if self.someone_nearly_out else OWN_CARD_AHEAD
            value = sum(10 + POINTS[card] for card in cards) + per_card_ahead * len(ahead)
            if last < self.length and last + 1 not in ahead:
                value -= LEFT_OPEN
            return value
        if do == "highwayman":
            return 30 + self.block_value(action["route"])
        if do == "runner":
            route = action["route"]
            if self.routes[route]["top"] + 1 in self.mine[route]:
                return 25 + sum(self.mine[route])  # clears the way for our own cards
            return SPARE_RUNNER
        return 1000  # "keep" the card just drawn (see the module's docstring)

    def follow_on_value(self, action: dict, turn_route: int) -> float:
        """After a play (H4): ending the turn is worth ``END_TURN``; a Highwayman is worth playing on when it
        blocks someone, a Runner when it clears a route whose next card we hold (nobody else can use it);
        more numbers of this turn's route when the run it makes beats stopping where we are, by the same
        reckoning that chose the run's length (cards shed and kept ahead, the route left open)."""
        do = action["do"]
        if do == "end":
            return END_TURN
        if do == "highwayman":
            return END_TURN + self.block_value(action["route"])
        if do == "runner":
            route = action["route"]
            return END_TURN + 10 if self.routes[route]["top"] + 1 in self.mine[route] else SPARE_RUNNER
        cards = action["cards"]
        route_index, first = ROUTE_AND_NUMBER[cards[0]]
        per_card_ahead = CARD_AHEAD_NEAR_THE_END if self.someone_nearly_out else OWN_CARD_AHEAD
        stop = per_card_ahead * len(self.own_numbers_above(route_index, first - 1))  # we hold ``first``
        return END_TURN + self.value(action) - stop

    @cached_property
    def someone_nearly_out(self) -> bool:
        """Whether another player is down to ``NEARLY_OUT`` cards: the game may end before our next turns."""
        return min(size for other, size in enumerate(self.hand_sizes) if other != self.seat) <= NEARLY_OUT

    def own_numbers_above(self, route_index: int, number: int) -> set[int]:
        """The numbers above ``number`` on the route that we hold (read from the hand: cheaper than
        ``mine``, and every numbered play asks)."""
        above = set()
        for card in self.seen["hand"]:
            place = ROUTE_AND_NUMBER.get(card)
            if place is not None and place[0] == route_index and place[1] > number:
                above.add(place[1])
        return above

    def holds_chance(self, player: int, card: str) -> float:
        """How likely ``player`` holds ``card`` (one we cannot see), from his hand size and his moves."""
        lacks, drawn_since = self.memory
        if card in lacks[player]:  # he had none of it when he last drew; only a later draw brings it
            return min(1.0, drawn_since[player] / self.unseen_count)
        return min(1.0, self.hand_sizes[player] / self.unseen_count)

    def block_value(self, route: str) -> float:
        """The players after us most need a route whose next cards we cannot see; we must not block our own."""
        top = self.routes[route]["top"]
        ours = [k for k in self.mine[route] if k > top]
        if ours and not self.have_runner:
            return SHUT_OUT + ours[0] - top  # worst when our own card comes next
        need = sum(1 for k in self.unseen[route] if k > top)  # cards others may still want to lay there
        near = 0.0
        if top + 1 in self.unseen[route]:
            card = CARD[ROUTE_INDEX[route]][top + 1]
            for step, weight in enumerate(BLOCK_WEIGHTS[:self.players - 1], 1):
                near += weight * self.holds_chance((self.seat + step) % self.players, card)
        return need + near - 3 * len(ours)


def remember(moves: list, players: int, routes: int, length: int) -> tuple[list[set[str]], list[int]]:
    """Replay this game's public moves. For each player: the cards he showed he lacked the last time he
    could not play (he drew, passed, or was allowed a LONDON card, H4/H5), and how many cards he has drawn
    and kept since (any of which may be one of them). Only each player's last such move is read closely."""
    tops, blocked = [-1] * routes, [False] * routes
    lacks: list[set[str]] = [set() for _ in range(players)]
    drawn_since = [0] * players
    last = [-1] * players  # the index of each player's last move that showed what he could not play
    for index, (player, what, detail) in enumerate(moves):
        if what in ("draw", "pass") or (what == "play" and ROUTE_AND_NUMBER[detail[0]][1] == LONDON):
            last[player] = index
    lasts = set(last)

    def cannot_play(player: int, anything: bool = True) -> None:
        """He held no next card of an open route; with ``anything``, no card he could play at all."""
        lacks[player] = {CARD[r][top + 1] for r, top in enumerate(tops) if 0 <= top < length and not blocked[r]}
        if anything:
            lacks[player] |= LONDON_CARDS
            if any(0 <= top < length and not blocked[r] for r, top in enumerate(tops)):
                lacks[player].add(HIGHWAYMAN)
            if any(blocked):
                lacks[player].add(RUNNER)

    for index, (player, what, detail) in enumerate(moves):
        if what in ("draw", "pass"):
            if index in lasts:
                cannot_play(player)
        elif what == "keep":
            if index > last[player]:
                drawn_since[player] += 1
        elif what == "play":
            route, top = ROUTE_AND_NUMBER[detail[-1]]
            if index in lasts:  # a LONDON is allowed only without a numbered play (H4)
                cannot_play(player, anything=False)
            tops[route] = top
        elif what in ("highwayman", "runner"):
            blocked[ROUTE_INDEX[detail]] = what == "highwayman"
        # "end" (a turn ended by choice, H4) shows nothing of the hand
    return lacks, drawn_since


# --- easy ---------------------------------------------------------------------------------------------

#: How often the easy bot keeps a card it has just drawn (the normal bot always does: see above).
KEEP_HABIT = 0.7
#: How often the easy bot, having played, adds a Highwayman or a Runner before ending its turn (H4).
EASY_PLAYS_ON = 0.4


def easy(state: dict, seat: int, rng: random.Random) -> dict:
    """The easy bot: lays what it can at once (the whole run, on whichever route it looks at first), a
    drawn card straight away, a Highwayman or a Runner on any route now and then."""
    legal = legal_actions(state, seat)
    if legal[0]["do"] == "keep" and rng.random() < KEEP_HABIT:
        return legal[0]
    specials = [action for action in legal if action["do"] in ("highwayman", "runner")]
    plays = [action for action in legal if action["do"] == "play"]
    if legal[0]["do"] == "end" and not plays:
        # After a play (H4) it goes on with its run whenever it can, a Highwayman or Runner now and then.
        return rng.choice(specials) if rng.random() < EASY_PLAYS_ON else legal[0]
    if specials and (not plays or rng.random() < 0.4):
        return rng.choice(specials)
    if plays:
        route = ROUTE_AND_NUMBER[rng.choice(plays)["cards"][0]][0]
        return max((action for action in plays if ROUTE_AND_NUMBER[action["cards"][0]][0] == route),
                   key=lambda action: len(action["cards"]))
    return legal[0]


# --- hard ---------------------------------------------------------------------------------------------

#: Playouts end with the game they began in (see ``game_over``): a whole series is three times as long.
#: The time is the limit that binds; the playout cap only keeps a quiet machine from thinking longer.
HARD_BUDGET = Budget(playouts=400, seconds=0.25, candidates=6)
#: How far a series total moves in one game, about: a lead of this many points with one game to play is
#: worth about three wins in four.
GAME_SPREAD = 10.0


def game_over(state: dict, seat: int, start: dict) -> float | None:
    """The hard bot's playout horizon: once the game its search began in is over, the seat's chance of
    winning the series from its lead over the best of the others, the more certain the fewer games are
    left (a logistic, so a lead of 1 and a lead of 30 are not the same thing)."""
    if state["game_number"] == start["game_number"]:
        return None
    totals = state["totals"]
    lead = min(total for other, total in enumerate(totals) if other != seat) - totals[seat]
    games_left = max(1, state["series_games"] - state["game_number"] + 1)
    return 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -lead / (GAME_SPREAD * math.sqrt(games_left))))))


# The game is looked up when the bot first plays: it is built in the package's __init__, from this module.
hard = searching_bot(lambda: get_game("highwayman"), budget=HARD_BUDGET, horizon=game_over,
                     resample=resample_as_moves_show, copy=highwayman.copy_state)
