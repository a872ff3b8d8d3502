"""The hard Highwayman bot's guesses of the other hands (A3: from its own view and the public moves).

A guess is drawn evenly among the deals and draws the public moves allow (``resample_as_moves_show``):
at every forced move a player held none of the cards he could have played (``ForcedMoves`` counts the
ways each hand could have come about). ``bots.py`` says what the guesses were measured to be worth.
"""

from __future__ import annotations

import random

from core.games.highwayman.rules import (
    CARD,
    HIGHWAYMAN,
    LONDON,
    LONDON_CARDS,
    ROUTE_AND_NUMBER,
    ROUTE_INDEX,
    RUNNER,
    resample_hidden,
)


class ForcedMoves:
    """What one player's public moves this game say about the cards he holds.

    A forced move (a draw, a pass, or a LONDON card laid for want of a numbered one, H4/H5) shows he then
    held none of the cards he could have played (``remember``). (A turn that passed by itself after a play
    shows he could not follow it, H4, but counting those as forced moves too made the counts of ways grow
    past any time budget: a hard decision took up to 13 s.) Every card that was ever in his hand took
    a place: one of the six dealt, or a draw he kept. A card lacked at his i-th forced move can only have
    come with a draw kept at that move or later (its *level* is i); a card he laid can only have come
    before he laid it. How many ways his dealt and drawn cards can be given out so that all this holds,
    for a hand he might hold now, is ``ways``: a guess of the hands is as likely as that number (each way
    is one history of the deal and the draws, all equally likely)."""

    def __init__(self, moves: list, player: int, routes: int, length: int) -> None:
        tops, blocked = [-1] * routes, [False] * routes
        self.level: dict[str, int] = {}  # card -> the last forced move that showed he lacked it (1, 2 ...)
        self.draw_slots: list[int] = []  # the forced moves at which he drew a card and kept it
        laid: list[tuple[int, int]] = []  # per card he laid from his hand: (its level then, draws kept before)
        forced = 0
        drawn_at_once = False  # the next play is of the card he has just drawn: public, no place of his hand
        for index, (who, what, detail) in enumerate(moves):
            if who == player:
                london = what == "play" and ROUTE_AND_NUMBER[detail[0]][1] == LONDON
                if what in ("draw", "pass") or london:
                    forced += 1
                    shown = {CARD[r][top + 1] for r, top in enumerate(tops) if 0 <= top < length and not blocked[r]}
                    if not london:
                        shown |= LONDON_CARDS
                        if shown - LONDON_CARDS:
                            shown.add(HIGHWAYMAN)
                        if any(blocked):
                            shown.add(RUNNER)
                    for card in shown:
                        self.level[card] = forced
                if what == "keep":
                    self.draw_slots.append(forced)
                elif what in ("play", "highwayman", "runner"):
                    cards = laid_cards(what, detail)
                    if drawn_at_once:
                        cards = cards[1:]
                    laid += [(self.level.get(card, 0), len(self.draw_slots)) for card in cards]
                drawn_at_once = what == "draw"
            if what == "play":
                route, top = ROUTE_AND_NUMBER[detail[-1]]
                tops[route] = top
            elif what in ("highwayman", "runner"):
                blocked[ROUTE_INDEX[detail]] = what == "highwayman"
        self.forced = forced
        # The cards that may fill the kept draws, by kind: (level, draws kept before it left his hand), a
        # card of his hand now having left after every draw. The laid cards' kinds are fixed; the hand's
        # are counted afresh for each guess (``levels``).
        slots = len(self.draw_slots)
        self.kinds = [(level, slots) for level in range(forced + 1)]
        laid_counts = [0] * len(self.kinds)
        for kind in laid:
            if kind not in self.kinds:
                self.kinds.append(kind)
                laid_counts.append(0)
            laid_counts[self.kinds.index(kind)] += 1
        self.laid_counts = laid_counts
        self._ways: dict[tuple[int, ...], int] = {}
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        #: The counting outgrew MAX_COUNTED: guesses of this hand are dealt uniformly instead.
        self.too_many = False

    def levels(self, hand: list[str]) -> list[int]:
        """How many cards of the hand have each level (0: never shown lacking, so any place fits)."""
        counts = [0] * (self.forced + 1)
        for card in hand:
            counts[self.level.get(card, 0)] += 1
        return counts

    def ways(self, counts: list[int]) -> int:
        """The number of ways to give his kept draws their cards (of his hand, counted by ``levels``, and
        of those he laid) so that every card lacked at a forced move came by a draw kept at it or later,
        and every card he laid came before he laid it; the rest, never shown lacking, were dealt (their
        order among the six is the same for every hand, so it is left out)."""
        key = tuple(counts)
        found = self._ways.get(key)
        if found is None:
            everything = list(self.laid_counts)
            for level, count in enumerate(counts):
                everything[level] += count
            found = self._ways[key] = self._count(0, tuple(everything))
        return found

    def ways_or_penalty(self, counts: list[int]) -> float:
        """``ways``, or for a hand no history gives a weight far below any that one does, the lower the more
        of its lacked cards the kept draws could not have brought (so the swaps mend such a start)."""
        found = self.ways(counts)
        if found:
            return found
        must_laid = [level for (level, _), count in zip(self.kinds, self.laid_counts)
                     for _ in range(count) if level]
        excess = max((sum(counts[level:]) + sum(laid >= level for laid in must_laid)
                      - sum(at >= level for at in self.draw_slots) for level in range(1, len(counts))), default=0)
        return WAYS_RULED_OUT ** max(1, excess)

    def _count(self, slot: int, counts: tuple[int, ...]) -> int:
        key = (slot, counts)
        found = self._memo.get(key)
        if found is not None:
            return found
        if len(self._memo) >= MAX_COUNTED:
            self.too_many = True
            raise TooManyWays(f"more than {MAX_COUNTED} partial counts")
        must = sum(count for (level, _), count in zip(self.kinds, counts) if level)
        if slot == len(self.draw_slots) or must > len(self.draw_slots) - slot:
            total = int(must == 0)  # no card lacked at a forced move may be left over for the deal
        else:
            at, total = self.draw_slots[slot], 0
            for index, ((level, before), count) in enumerate(zip(self.kinds, counts)):
                if count and level <= at and slot < before:
                    total += count * self._count(slot + 1, counts[:index] + (count - 1,) + counts[index + 1:])
        self._memo[key] = total
        return total


#: Partial counts a ``ForcedMoves`` keeps before it gives up: a long game with many draws kept made the
#: count of ways take seconds for one guess (13 s once), far past the hard bot's 0.25 s a decision.
MAX_COUNTED = 8_000


class TooManyWays(Exception):
    """The count of ways for a hand outgrew ``MAX_COUNTED``."""


def forced_moves_of(state: dict, others: list[int]) -> dict[int, ForcedMoves]:
    """``ForcedMoves`` of each of ``others``, kept from the last call while the state's moves are the same
    list at the same length: a search guesses the same position's hands for every sample, and the counts
    of ways it works out for one guess serve the next."""
    moves = state["moves"]
    cached_moves, length, key, found = _FORCED_CACHE.get("last", (None, -1, None, None))
    wanted = (tuple(others), state["routes"], state["length"], state["players"])
    if cached_moves is moves and length == len(moves) and key == wanted:
        return found
    found = {other: ForcedMoves(moves, other, state["routes"], state["length"]) for other in others}
    # The cache holds the moves list itself, so its id cannot be given to another list while it is kept;
    # its one entry is read and replaced whole, so bots searching other tables in other threads only miss.
    _FORCED_CACHE["last"] = (moves, len(moves), wanted, found)
    return found


_FORCED_CACHE: dict[str, tuple] = {}

#: Swaps tried per card in the hands whose moves constrain them (see ``resample_as_moves_show``). Ten
#: since H4's follow-ons were first read as forced moves too (with six, 3 of 2,533 guesses broke what the
#: moves showed); that reading is gone again (``ForcedMoves``), and ten costs little beside the count.
SWAPS_PER_CARD = 10


def resample_as_moves_show(state: dict, seat: int, rng: random.Random) -> dict:
    """Redeal what ``seat`` cannot see, drawn evenly among the deals and draws the public moves allow: at
    each forced move a player held none of the cards he could have played (``ForcedMoves``).

    Each arrangement of the unknown cards is as likely as the number of histories that give it
    (``ForcedMoves.ways``). A start deals each constrained hand cards it may hold, then Metropolis swaps
    (a card of a constrained hand with any unknown card elsewhere, made with the ratio of the ways) bring
    the guess to that distribution; the hands nothing constrains and the pack are shuffled together
    last. The earlier guess (each hand dealt from the cards it did not lack at its last forced move, then
    its drawn card from the front of the rest) was about as far from the distribution the moves allow as a
    uniform redeal was: the lacked cards it skipped were the next ones handed out.
    """
    guess = resample_hidden(state, seat, rng)
    if guess["phase"] == "over":
        return guess
    others = [other for other in range(guess["players"]) if other != seat]
    shown = forced_moves_of(state, others)
    constrained = [other for other in others if shown[other].forced]
    if not constrained or any(shown[other].too_many for other in constrained):
        return guess  # nothing ruled out (the uniform redeal is the right one), or too much to count
    try:
        return _deal_as_moves_show(guess, seat, rng, shown, constrained)
    except TooManyWays:
        return guess


def _deal_as_moves_show(guess: dict, seat: int, rng: random.Random, shown: dict[int, "ForcedMoves"],
                        constrained: list[int]) -> dict:
    """``resample_as_moves_show`` once the constrained hands are known: the start, then the swaps."""
    others = [other for other in range(guess["players"]) if other != seat]
    free = [other for other in others if not shown[other].forced]
    left = [card for other in others for card in guess["hands"][other]] + guess["pack"]
    rng.shuffle(left)
    hands: dict[int, list[str]] = {}
    # The start: the hands that need the most cards never shown lacking are dealt first, each taking in
    # turn the cards that leave it a way to be completed with such cards; it is short only when those run
    # out, and then takes whatever comes (the swaps mend it: see ``ways_or_penalty``).
    for other in sorted(constrained, key=lambda other: len(shown[other].draw_slots) - len(guess["hands"][other])):
        size, forced_moves = len(guess["hands"][other]), shown[other]
        hand: list[str] = []
        rest: list[str] = []
        hand_counts = [0] * (forced_moves.forced + 1)
        for card in left:
            if len(hand) < size:
                level = forced_moves.level.get(card, 0)
                trial = list(hand_counts)
                trial[level] += 1
                trial[0] += size - len(hand) - 1  # the rest of the hand as cards never shown lacking
                if forced_moves.ways(trial):
                    hand.append(card)
                    hand_counts[level] += 1
                    continue
            rest.append(card)
        missing = size - len(hand)
        hands[other], left = hand + rest[:missing], rest[missing:]
    counts = {other: shown[other].levels(hands[other]) for other in constrained}
    ways = {other: shown[other].ways_or_penalty(counts[other]) for other in constrained}
    slots = [(other, i) for other in constrained for i in range(len(hands[other]))]
    random_number = rng.random
    total = len(slots) + len(left)
    for _ in range(SWAPS_PER_CARD * len(slots)):
        other, i = slots[int(random_number() * len(slots))]
        j = int(random_number() * total)
        if j < len(slots):
            mate, k = slots[j]
            if mate == other:
                continue
            there = hands[mate][k]
        else:
            mate, k = None, j - len(slots)
            there = left[k]
        here = hands[other][i]
        level_here, level_there = shown[other].level.get(here, 0), shown[other].level.get(there, 0)
        if here == there:
            continue
        new_counts = counts[other]
        if level_here != level_there:
            new_counts = list(new_counts)
            new_counts[level_here] -= 1
            new_counts[level_there] += 1
        new_ways = shown[other].ways_or_penalty(new_counts)
        ratio = new_ways / ways[other]
        if mate is not None:
            mate_counts = list(counts[mate])
            mate_counts[shown[mate].level.get(there, 0)] -= 1
            mate_counts[shown[mate].level.get(here, 0)] += 1
            mate_ways = shown[mate].ways_or_penalty(mate_counts)
            ratio *= mate_ways / ways[mate]
        if ratio >= 1.0 or random_number() < ratio:
            hands[other][i] = there
            counts[other], ways[other] = new_counts, new_ways
            if mate is None:
                left[k] = here
            else:
                hands[mate][k] = here
                counts[mate], ways[mate] = mate_counts, mate_ways
    rng.shuffle(left)
    for other in free:
        size = len(guess["hands"][other])
        hands[other], left = left[:size], left[size:]
    for other in others:
        guess["hands"][other] = hands[other]
    guess["pack"] = left
    return guess


#: The weight of a hand no history gives, per lacked card too many (``ForcedMoves.ways_or_penalty``).
WAYS_RULED_OUT = 1e-9


def laid_cards(what: str, detail: list[str] | str | None) -> list[str]:
    """The cards a public move took out of its player's hand."""
    if what == "play" and isinstance(detail, list):
        return list(detail)
    return [HIGHWAYMAN] if what == "highwayman" else [RUNNER] if what == "runner" else []
