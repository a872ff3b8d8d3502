"""A small game for the network tests: hidden hands, a secret simultaneous pick and a private draw.

"High card": 2–4 players, cards 1–16, three each. Every round each player with cards secretly picks one
(all at once, like T5 and Y4); when all have picked, the picks are revealed and the highest card scores a
point. The round's winner then draws a card privately or passes. The game ends when a player is out of
cards at a reveal or after six rounds; most points win, ties share. It follows the engine contract exactly,
so the host cannot tell it from a registered game.
"""

from __future__ import annotations

import random
from typing import Any

from core import rng
from core.bots import uniform_random
from core.engine import Game, IllegalAction, Option, Seat, event, seat_name

CARDS = 16
HAND = 3
ROUNDS = 6


def setup(options: dict[str, Any], seed: int) -> dict[str, Any]:
    players = options["players"]
    state: dict[str, Any] = {"players": players, "round": 1, "phase": "pick", "points": [0] * players,
                             "picks": [None] * players, "discard": [], "last_winner": None, "over": False}
    rng.seed_state(state, seed)
    deck = list(range(1, CARDS + 1))
    rng.shuffle(state, deck)
    state["hands"] = [sorted(deck[seat * HAND:(seat + 1) * HAND]) for seat in range(players)]
    state["deck"] = deck[players * HAND:]
    return state


def pending(state: dict[str, Any]) -> list[int]:
    if state["over"]:
        return []
    if state["phase"] == "draw":
        return [state["last_winner"]]
    return [seat for seat in range(state["players"]) if state["picks"][seat] is None]


def legal_actions(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    if seat not in pending(state):
        return []
    if state["phase"] == "draw":
        return [{"do": "draw"}, {"do": "pass"}] if state["deck"] else [{"do": "pass"}]
    return [{"do": "pick", "card": card} for card in state["hands"][seat]]


def apply(state: dict[str, Any], seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
    if seat not in pending(state):
        raise IllegalAction("toy 1", f"{seat_name(seat)} is not to play")
    if action not in legal_actions(state, seat):
        raise IllegalAction("toy 2", "that card is not allowed now")
    if state["phase"] == "draw":
        return _draw_or_pass(state, seat, action)
    card = action["card"]
    state["hands"][seat].remove(card)
    state["picks"][seat] = card
    events = [event(f"{seat_name(seat)} has picked a card"),
                event(f"You pick your {card}", [seat], card=card)]
    if all(pick is not None for pick in state["picks"]):
        events += _reveal(state)
    return events


def _reveal(state: dict[str, Any]) -> list[dict[str, Any]]:
    picks = state["picks"]
    winner = max(range(state["players"]), key=lambda s: picks[s])
    state["points"][winner] += 1
    state["discard"] += picks
    state["last_winner"] = winner
    shown = ", ".join(f"{seat_name(s)} {card}" for s, card in enumerate(picks))
    state["picks"] = [None] * state["players"]
    events = [event(f"Revealed: {shown}; {seat_name(winner)} wins the round", revealed=list(picks))]
    if any(not hand for hand in state["hands"]) or state["round"] >= ROUNDS:
        state["over"] = True
        events.append(event("The game is over"))
    else:
        state["phase"] = "draw"
    return events


def _draw_or_pass(state: dict[str, Any], seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
    events = []
    if action["do"] == "draw":
        card = state["deck"].pop()
        state["hands"][seat] = sorted(state["hands"][seat] + [card])
        events += [event(f"{seat_name(seat)} draws a card"), event(f"You draw a {card}", [seat], card=card)]
    else:
        events.append(event(f"{seat_name(seat)} passes"))
    state["phase"] = "pick"
    state["round"] += 1
    return events


def view(state: dict[str, Any], seat: Seat) -> dict[str, Any]:
    """Allow-list: public facts, plus the seat's own hand and pick."""
    public = {"players": state["players"], "round": state["round"], "phase": state["phase"],
              "points": list(state["points"]), "discard": list(state["discard"]),
              "hand_sizes": [len(hand) for hand in state["hands"]], "deck_size": len(state["deck"]),
              "picked": [pick is not None for pick in state["picks"]], "last_winner": state["last_winner"],
              "over": state["over"]}
    if seat is not None:
        public["hand"] = list(state["hands"][seat])
        public["my_pick"] = state["picks"][seat]
    return public


def resample_hidden(state: dict[str, Any], seat: Seat, generator: random.Random) -> dict[str, Any]:
    """Redraw the deck, the other hands and the other picks from the canonical (sorted) unknown pool."""
    new = {**state, "hands": [list(h) for h in state["hands"]], "picks": list(state["picks"])}
    others = [s for s in range(state["players"]) if s != seat]
    pool = list(state["deck"])
    for other in others:
        pool += state["hands"][other]
        if state["picks"][other] is not None:
            pool.append(state["picks"][other])
    pool.sort()
    generator.shuffle(pool)
    for other in others:
        size = len(state["hands"][other])
        new["hands"][other], pool = sorted(pool[:size]), pool[size:]
        if state["picks"][other] is not None:
            new["picks"][other], pool = pool[0], pool[1:]
    new["deck"] = pool
    rng.redraw_hidden_generator(new, generator)
    return new


def result(state: dict[str, Any]) -> dict[str, Any] | None:
    if not state["over"]:
        return None
    best = max(state["points"])
    winners = [s for s, p in enumerate(state["points"]) if p == best]
    return {"winners": winners, "scores": list(state["points"]), "seed": state["seed"],
            "summary": f"{', '.join(seat_name(w) for w in winners)} win{'s' if len(winners) == 1 else ''} "
                       f"with {best} points",
            "reveal": {"hands": [list(h) for h in state["hands"]], "deck": list(state["deck"])}}


def describe_action(state: dict[str, Any], seat: int, action: dict[str, Any]) -> str:
    return {"pick": lambda: f"Play your {action.get('card')}", "draw": lambda: "Draw a card",
            "pass": lambda: "Pass"}[action["do"]]()


GAME = Game(
    id="net-toy", title="High card (network test toy)",
    options=(Option("players", "int", 3, "number of players", (2, 4)),),
    setup=setup, pending=pending, legal_actions=legal_actions, apply=apply, view=view,
    resample_hidden=resample_hidden, result=result, describe_action=describe_action,
    bots={"random": uniform_random(legal_actions)},
    rules_text="High card: pick a card secretly, highest scores; the winner may draw.",
)
