"""The Famous Dick Turpin, rule by rule: one test per numbered rule of the sheet and per ruling T1–T14.

Booty cards are random; where a test needs particular cards it rigs the draws (``rig``), which only
picks which card of the pile comes up next, never one that is not in the pile.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import rng as real_chance
from core.engine import IllegalAction, OptionError, clone, visible_events
from core.games.dick_turpin import GAME
from core.games.dick_turpin import rules as dt
from core.games.dick_turpin.rules import PISTOL, TOWNS, claim_shares, duel_order

NORTH = TOWNS
SOUTH = TOWNS[::-1]


def new_game(players: int = 4, seed: int = 1, **options):
    return GAME.new_game({"players": players, **options}, seed)


class RiggedBooty:
    """Stands in for ``core.rng`` in the engine: the booty cards come up in the order given."""

    def __init__(self, cards):
        self.cards = list(cards)

    def __getattr__(self, name):
        return getattr(real_chance, name)

    def below(self, state, n):
        if not self.cards:
            return real_chance.below(state, n)  # what follows the rigged cards is left to chance
        card = self.cards.pop(0)
        assert state["booty"][card] > 0, f"no {card} card left to rig"
        return sum(state["booty"][:card])


@pytest.fixture
def rig(monkeypatch):
    def rig_cards(*cards):
        rigged = RiggedBooty(cards)
        monkeypatch.setattr(dt, "chance", rigged)
        return rigged
    return rig_cards


def choose(state, towns):
    """Every seat still to choose picks its town from ``towns`` (seat order); returns all events."""
    events = []
    for seat, town in enumerate(towns):
        if state["waiting"][seat] is None and state["phase"] == "choose":
            events += GAME.apply(state, seat, {"do": "choose", "town": town})
    return events


def act(state, seat, action):
    return GAME.apply(state, seat, action)


def texts(events):
    return [e["text"] for e in events]


def play_out_robberies(state):
    """Robbers rob one passenger each until the journey ends."""
    journey = state["journeys_played"]
    while state["phase"] in ("declare", "draw") and state["journeys_played"] == journey:
        seat = state["robber"]
        action = {"do": "declare", "passengers": 1} if state["phase"] == "declare" else {"do": "stop"}
        act(state, seat, action)


def play_journey(state, towns):
    choose(state, towns)
    play_out_robberies(state)


# --- the numbered rules of the sheet -----------------------------------------------------------------

def test_rule_1_highwaymen_rob_the_coach_to_and_from_edinburgh_for_gold():
    """Rule 1: the coach journeys London–Edinburgh and back; highwaymen end the game with their gold."""
    state = new_game(seed=5)
    directions = []
    rng = random.Random(5)
    while pending := GAME.pending(state):
        if state["journey"] > len(directions):
            directions.append(state["northbound"])
        seat = pending[0]
        act(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert directions == [True, False, True, False, True, False]
    assert GAME.result(state)["scores"] == state["gold"]
    assert sum(state["gold"]) == 60


def test_rule_2_set_up_coach_in_london_six_passengers_six_towns_each_gold_shared():
    """Rule 2: coach on London, marker at 6, a face-down set of the six towns each, the gold divided."""
    for players in range(2, 6):
        state = new_game(players)
        seen = GAME.view(state, 0)
        assert seen["northbound"] and seen["stop"] == -1 and seen["route"][0] == "Oxford"
        assert seen["passengers"] == 6
        assert seen["hand"] == TOWNS
        assert seen["gold"] == [60 // players] * players
        assert sum(seen["booty_left"]) == 30 and seen["face_up"] == []
        assert GAME.view(state, None)["hand"] is None  # the sets are face down to onlookers


def test_rule_2_the_log_opens_with_the_first_journey_leaving_london(monkeypatch):
    """Rule 2 and T1/T4 at the deal: the log's first line is the Silver Flyer leaving London for
    Edinburgh with Seat 1 driving, public, and it is exactly what the first journey's start made."""
    started = []
    start_journey = dt.start_journey
    monkeypatch.setattr(dt, "start_journey",
                        lambda state, events: (start_journey(state, events), started.append(events)))
    for players in range(2, 6):
        started.clear()
        opening = GAME.opening_events(new_game(players))
        assert opening == started[0]
        assert opening == [{"text": "Round 1, journey 1: the Silver Flyer leaves London for Edinburgh; Seat 1 drives.",
                            "visible_to": None}]


def test_rule_3_the_driver_is_also_a_highwayman():
    """Rule 3: the driver still chooses a town and robs like everyone else."""
    state = new_game()
    driver = state["driver"]
    assert driver in GAME.pending(state)
    choose(state, ["Oxford" if seat == driver else "Carlisle" for seat in range(4)])
    assert state["phase"] == "declare" and state["robber"] == driver


def test_rule_4_a_round_is_six_journeys_and_a_game_one_to_three_rounds():
    """Rule 4: each round is six journeys; the game is 1, 2 or 3 rounds (4 is refused)."""
    for rounds in (1, 2, 3):
        state = new_game(rounds=rounds, seed=rounds)
        rng = random.Random(rounds)
        while pending := GAME.pending(state):
            act(state, pending[0], rng.choice(GAME.legal_actions(state, pending[0])))
        if state["outright"] is None:
            assert state["journeys_played"] == 6 * rounds
    with pytest.raises(OptionError, match="rounds"):
        GAME.resolve_options({"rounds": 4})


def test_rule_5_cards_are_revealed_as_the_coach_reaches_each_town(rig):
    """Rule 5: chosen cards stay face down until the driver calls their town, in the route's order."""
    state = new_game()
    rig(PISTOL, PISTOL)
    events = choose(state, ["York", "Bath", "Carlisle", "Warwick"])
    # Bath comes first: Seat 2 is revealed and robs; the others are still face down.
    assert state["robber"] == 1 and state["piles"][1] == ["Bath"]
    assert GAME.view(state, None)["chosen"] == [True, False, True, True]
    act(state, 1, {"do": "declare", "passengers": 1})  # a pistol
    act(state, 3, {"do": "declare", "passengers": 1})  # Warwick next; a pistol
    assert state["robber"] == 0  # then York
    called = [e["town"] for e in events if "town" in e]
    assert called == ["Bath"]


def test_rule_6_the_robber_declares_passengers_and_may_stop_after_a_gold_card(rig):
    """Rule 6: rob 1 to 6 passengers, at least one card, at most one per passenger, stop to take the gold."""
    state = new_game()
    choose(state, ["Oxford", "Carlisle", "Carlisle", "Carlisle"])
    legal = GAME.legal_actions(state, 0)
    assert legal == [{"do": "declare", "passengers": n} for n in range(1, 7)]
    rig(2, 3)
    act(state, 0, {"do": "declare", "passengers": 2})
    assert state["turned"] == [2] and GAME.legal_actions(state, 0) == [{"do": "draw"}, {"do": "stop"}]
    events = act(state, 0, {"do": "draw"})  # the second and last card allowed: taken at once
    assert state["gold"][0] == 15 + 5
    assert any("takes 5 gold" in text for text in texts(events))


def test_rule_7_claim_is_taken_from_the_others_in_equal_portions():
    """Rule 7: 'he takes 4 gold from 2 players and then 3 gold from the other 2 – making a total of 14'."""
    assert claim_shares(14, [12, 12, 12, 12, 12], 0) == [0, 4, 4, 3, 3]
    # 'If any player has no gold left, the highwayman must be given the required amount from the rest.'
    assert claim_shares(14, [12, 24, 0, 12, 12], 0) == [0, 5, 0, 5, 4]


def test_rule_8_the_passenger_marker_drops_by_the_cards_drawn(rig):
    """Rule 8: stopping after two cards leaves four passengers for the rest of the journey."""
    state = new_game()
    choose(state, ["Oxford", "Bath", "Carlisle", "Carlisle"])
    rig(1, 1)
    act(state, 0, {"do": "declare", "passengers": 6})
    act(state, 0, {"do": "draw"})
    act(state, 0, {"do": "stop"})
    assert state["passengers"] == 4
    assert GAME.view(state, None)["passengers"] == 4
    assert state["robber"] == 1 and GAME.legal_actions(state, 1)[-1] == {"do": "declare", "passengers": 4}


def test_rule_9_a_pistol_gets_nothing_and_turned_cards_stay_face_up_till_the_journey_ends(rig):
    """Rule 9: a pistol scares the robber off with nothing; turned cards lie face up until the journey ends."""
    state = new_game()
    choose(state, ["Oxford", "Bath", "Carlisle", "Carlisle"])
    rig(3, 4, PISTOL)
    act(state, 0, {"do": "declare", "passengers": 6})
    act(state, 0, {"do": "draw"})
    act(state, 0, {"do": "draw"})
    assert state["gold"] == [15, 15, 15, 15]
    assert state["passengers"] == 6
    assert GAME.view(state, 3)["face_up"] == [3, 4, PISTOL]
    assert sum(state["booty"]) == 27


def test_rule_10_a_duel_the_first_pistol_flees_and_the_survivor_robs_with_new_cards(rig):
    """Rule 10: duellists turn cards in turn; the first pistol drops out, with three the rest go on."""
    state = new_game()  # Seat 1 drives journey 1
    rig(1, PISTOL, 2, PISTOL, 4)
    events = choose(state, ["Carlisle", "Oxford", "Oxford", "Oxford"])
    duel = [(e["seat"], e["card"]) for e in events if e["text"].startswith("Duel")]
    # Seats 2, 3, 4 in order: 2 turns gold, 3 a pistol (out), 4 gold, 2 a pistol (out): Seat 4 robs.
    assert duel == [(1, 1), (2, PISTOL), (3, 2), (1, PISTOL)]
    assert state["robber"] == 3 and state["phase"] == "declare"
    act(state, 3, {"do": "declare", "passengers": 1})
    assert state["face_up"] == [1, PISTOL, 2, PISTOL, 4]  # the robbery's card on top of the duel's
    assert state["gold"][3] == 15 + 4


def test_rule_11_the_journey_continues_and_an_empty_coach_robs_no_more(rig):
    """Rule 11: after a hold-up the coach goes on; the next robber is limited to the passengers left."""
    state = new_game()
    choose(state, ["Oxford", "Bath", "York", "Carlisle"])
    rig(1, PISTOL)
    act(state, 0, {"do": "declare", "passengers": 1})  # takes one passenger
    assert state["robber"] == 1
    assert len(GAME.legal_actions(state, 1)) == 5
    act(state, 1, {"do": "declare", "passengers": 5})  # a pistol: Bath's robber gets nothing
    assert state["robber"] == 2 and state["passengers"] == 5


def test_rule_12_no_gold_plays_on_and_all_the_gold_ends_the_game(rig):
    """Rule 12: a player with no gold keeps playing; one who holds all the gold wins at once."""
    state = new_game()
    state["gold"] = [30, 0, 15, 15]
    assert 1 in GAME.pending(state)
    choose(state, ["Carlisle", "Oxford", "York", "York"])
    assert state["robber"] == 1
    rig(2)
    act(state, 1, {"do": "declare", "passengers": 1})
    assert state["gold"][1] == 2
    broke = new_game()
    broke["gold"] = [57, 1, 1, 1]
    choose(broke, ["Oxford", "Carlisle", "Carlisle", "Carlisle"])
    rig(4)
    act(broke, 0, {"do": "declare", "passengers": 1})
    assert GAME.result(broke)["winners"] == [0] and GAME.pending(broke) == []


def test_rule_13_next_journey_travels_back_played_cards_stay_and_the_sixth_is_forced():
    """Rule 13: the coach comes back with six passengers; played towns can't be chosen again this round;
    the sixth journey plays the last card; after six journeys everyone has all six again."""
    state = new_game(rounds=2)
    play_journey(state, ["Oxford", "Bath", "Warwick", "York"])
    assert not state["northbound"] and state["passengers"] == 6
    assert GAME.view(state, 1)["pile_tops"] == ["Oxford", "Bath", "Warwick", "York"]
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, {"do": "choose", "town": "Oxford"})
    assert refused.value.rule == "rule 13"
    for towns in (["Bath", "Oxford", "York", "Warwick"], ["Warwick", "York", "Oxford", "Bath"],
                  ["York", "Warwick", "Bath", "Oxford"], ["Lancaster"] * 4):
        play_journey(state, towns)
    # Journey six needs no choice: everyone's Carlisle is played for him, straight to the duel there.
    assert state["journey"] == 6 and all(town == "Carlisle" for town in state["piles"][state["robber"]][-1:])
    play_out_robberies(state)
    assert state["round"] == 2 and state["journey"] == 1
    assert all(hand == TOWNS for hand in state["hands"]) and state["piles"] == [[], [], [], []]


def test_rule_14_most_gold_after_the_agreed_rounds_wins():
    """Rule 14: after the last round the player with most gold is the winner."""
    for seed in range(20):
        state = new_game(seed=seed)
        rng = random.Random(seed)
        while pending := GAME.pending(state):
            act(state, pending[0], rng.choice(GAME.legal_actions(state, pending[0])))
        result = GAME.result(state)
        assert result["winners"] == [s for s, gold in enumerate(state["gold"]) if gold == max(state["gold"])]
        assert result["scores"] == state["gold"]


# --- the rulings ---------------------------------------------------------------------------------------

def test_T1_route_oxford_first_from_london_and_reversed_coming_back():
    """T1: London, Oxford, Bath, Warwick, Lancaster, York, Carlisle, Edinburgh; back the other way."""
    state = new_game()
    assert GAME.view(state, None)["route"] == NORTH
    play_journey(state, ["Oxford", "Bath", "Warwick", "York"])
    assert GAME.view(state, None)["route"] == SOUTH and state["journey"] == 2


def test_T2_booty_deck_default_mix_options_and_refusals():
    """T2: 6 pistols and 24 gold (eight 1s, eight 2s, five 3s, three 4s); a deck with no gold or no
    pistol is refused in words; another mix is used as set."""
    state = new_game()
    assert state["booty"] == [6, 8, 8, 5, 3]
    with pytest.raises(OptionError, match="gold card"):
        GAME.resolve_options({"gold_1": 0, "gold_2": 0, "gold_3": 0, "gold_4": 0})
    with pytest.raises(OptionError, match="pistol"):
        GAME.resolve_options({"pistols": 0})
    assert new_game(pistols=2, gold_4=10)["booty"] == [2, 8, 8, 5, 10]


def test_T3_sixty_sovereigns_split_equally():
    """T3: 60 gold shared exactly among 2 to 5 players."""
    for players in range(2, 6):
        assert new_game(players)["gold"] == [60 // players] * players
        assert 60 % players == 0


def test_T4_seat_1_drives_first_and_the_role_passes_clockwise():
    """T4: Seat 1 drives journey 1; the next seat clockwise drives each following journey."""
    state = new_game(3, rounds=2)
    drivers = []
    rng = random.Random(2)
    while pending := GAME.pending(state):
        if state["journeys_played"] == len(drivers):
            drivers.append(state["driver"])
        act(state, pending[0], rng.choice(GAME.legal_actions(state, pending[0])))
    assert drivers[:12] == [0, 1, 2] * 4


def test_T5_secret_simultaneous_choice_shows_only_chosen_or_not():
    """T5 (revised ruling): all choose at once; nobody learns another's card, but, as at a real table,
    everyone sees who has laid a card face down; a single card is played for its holder."""
    state = new_game()
    assert GAME.pending(state) == [0, 1, 2, 3]
    oxford, york = clone(state), clone(state)
    events_oxford = act(oxford, 2, {"do": "choose", "town": "Oxford"})
    events_york = act(york, 2, {"do": "choose", "town": "York"})
    assert "Seat 3 has chosen a town." in texts(visible_events(events_oxford, None))
    for viewer in (None, 0, 1, 3):
        assert GAME.view(oxford, viewer) == GAME.view(york, viewer)
        assert visible_events(events_oxford, viewer) == visible_events(events_york, viewer)
    assert GAME.view(oxford, 2)["my_card"] == "Oxford"
    assert GAME.view(oxford, None)["chosen"] == [False, False, True, False]
    assert GAME.pending(oxford) == [0, 1, 3]
    for towns in (["Oxford", "Bath", "Warwick", "York"], ["Bath", "Oxford", "York", "Warwick"],
                  ["Warwick", "York", "Oxford", "Bath"], ["York", "Warwick", "Bath", "Oxford"],
                  ["Lancaster"] * 4):
        play_journey(state, towns)
    # Journey six: one card each, played for everyone; nobody was asked, and the log says so.
    assert state["journey"] == 6 and GAME.pending(state) == [state["robber"]]
    play_out_robberies(state)
    assert state["journeys_played"] == 6 and GAME.result(state) is not None


def test_T5_the_log_says_the_last_cards_are_played_for_everyone():
    """T5: at journey 6 the single cards are played for their holders; the public log says so, and each
    player is told (alone) which of his cards went down."""
    state = new_game()
    for towns in (["Oxford", "Bath", "Warwick", "York"], ["Bath", "Oxford", "York", "Warwick"],
                  ["Warwick", "York", "Oxford", "Bath"], ["York", "Warwick", "Bath", "Oxford"]):
        play_journey(state, towns)
    choose(state, ["Lancaster"] * 4)
    events = []
    journey = state["journeys_played"]
    while state["journeys_played"] == journey:
        seat = state["robber"]
        events += act(state, seat, {"do": "declare", "passengers": 1} if state["phase"] == "declare"
                      else {"do": "stop"})
    public = texts(visible_events(events, None))
    assert "The last journey of the round: every highwayman's last card is played for him, face down (T5); " \
           "the coach sets off." in public
    assert not any("Carlisle" in text for text in public if "last card" in text)  # not which card
    assert "Your last card, Carlisle, is played for you." in texts(visible_events(events, 2))


def test_T1_T6_narration_says_for_edinburgh_and_agrees_its_numbers(rig):
    """T1: the coach leaves London *for* Edinburgh; T6: one passenger is "1 passenger", not "1 passengers"."""
    state = new_game()
    assert texts(GAME.opening_events(state)) == [
        "Round 1, journey 1: the Silver Flyer leaves London for Edinburgh; Seat 1 drives."]
    choose(state, ["Oxford", "Carlisle", "Carlisle", "Carlisle"])
    rig(1, 1, 1, 1, 1)
    events = act(state, 0, {"do": "declare", "passengers": 5})
    for _ in range(4):
        events += act(state, 0, {"do": "draw"})
    said = texts(events)
    assert "Seat 1 robs 5 passengers." in said
    assert any(text.endswith("; 1 passenger left.") for text in said), said
    assert GAME.describe_action(state, state["robber"], {"do": "declare", "passengers": 1}) == "rob 1 passenger"
    events = play_out_journey_events(state)
    assert "Round 1, journey 2: the Silver Flyer leaves Edinburgh for London; Seat 2 drives." in texts(events)


def play_out_journey_events(state):
    events = []
    journey = state["journeys_played"]
    while state["journeys_played"] == journey:
        seat = state["robber"]
        events += act(state, seat, {"do": "declare", "passengers": 1} if state["phase"] == "declare"
                      else {"do": "stop"})
    return events


def test_T6_robbery_declare_then_turn_at_most_one_card_per_passenger(rig):
    """T6: declare 1..passengers left; at least one card; stop only after gold; a pistol claims nothing
    and leaves the marker alone; stopping drops it by the cards turned."""
    state = new_game()
    choose(state, ["Oxford", "Bath", "Carlisle", "Carlisle"])
    with pytest.raises(IllegalAction, match="T6"):
        act(state, 0, {"do": "stop"})  # he must turn at least one card
    with pytest.raises(IllegalAction, match="T6"):
        act(state, 0, {"do": "declare", "passengers": 7})
    rig(1, 1, 1, PISTOL)
    act(state, 0, {"do": "declare", "passengers": 3})
    act(state, 0, {"do": "draw"})
    act(state, 0, {"do": "draw"})  # the third card ends the robbery: three passengers robbed
    assert state["gold"][0] == 18 and state["passengers"] == 3
    act(state, 1, {"do": "declare", "passengers": 3})  # a pistol
    assert state["gold"][1] == 14 and state["passengers"] == 3


def test_T7_claim_split_is_water_filling():
    """T7 (revised): every payer pays the same level, one with less pays all he has, odd coins come one
    each from the richest who can still pay (ties clockwise from the robber); everything if the others
    hold no more than the claim. The ruling's own examples, then the sheet's example both ways."""
    assert claim_shares(22, [0, 4, 28, 14], 0) == [0, 4, 9, 9]  # T7: 4 + 9 + 9, not 4 + 10 + 8
    assert claim_shares(7, [43, 10, 1, 0, 6], 1) == [3, 0, 1, 0, 3]  # a random-play case
    assert claim_shares(14, [12] * 5, 0) == [0, 4, 4, 3, 3]  # the sheet's arithmetic: 4 others
    assert claim_shares(14, [15] * 4, 0) == [0, 5, 5, 4]  # 3 others
    assert claim_shares(5, [10, 20, 5, 25], 0) == [0, 2, 1, 2]  # odd coins from the richest
    assert claim_shares(5, [15] * 4, 2) == [2, 1, 0, 2]  # ties clockwise from Seat 3: Seats 4, 1, 2
    assert claim_shares(10, [20, 1, 0, 39], 0) == [0, 1, 0, 9]  # Seat 2 short: Seat 4 pays the rest
    assert claim_shares(14, [50, 4, 3, 3], 0) == [0, 4, 3, 3]  # the others hold less: all of it
    assert claim_shares(10, [0, 4, 3, 3], 0) == [0, 4, 3, 3]  # exactly the claim: all of it too


@given(st.lists(st.integers(min_value=0, max_value=60), min_size=2, max_size=5), st.integers(0, 24),
       st.data())
@settings(max_examples=500, deadline=None)
def test_T7_claim_split_property_nobody_pays_more_than_a_payer_who_could_afford_more(gold, claim, data):
    """T7 as a property: the total is the claim (or everything the others hold); nobody pays more
    than another payer who could still have paid more; shares differ by at most one coin, and the
    extra coin is paid by the richer (ties: the first clockwise from the robber)."""
    robber = data.draw(st.integers(0, len(gold) - 1))
    paid = claim_shares(claim, gold, robber)
    players = len(gold)
    payers = [seat for seat in range(players) if seat != robber]
    assert paid[robber] == 0
    assert all(0 <= paid[seat] <= gold[seat] for seat in payers)
    assert sum(paid) == min(claim, sum(gold[seat] for seat in payers))
    rank = {seat: (-gold[seat], (seat - robber) % players) for seat in payers}
    for a in payers:
        for b in payers:
            if paid[a] > paid[b] and paid[b] < gold[b]:  # b could have paid more than he did
                assert paid[a] == paid[b] + 1 and rank[a] < rank[b], (gold, claim, robber, paid)


def test_T7_the_rules_text_examples_are_what_the_code_pays():
    """T7: every "N gold from ..." example in ``turpin rules turpin`` is what ``claim_shares`` pays."""
    text = " ".join(GAME.rules_text.split())
    assert "22 gold from players holding 4, 28 and 14 is 4 + 9 + 9" in text
    assert claim_shares(22, [0, 4, 28, 14], 0) == [0, 4, 9, 9]
    assert "14 gold from four others is 4 + 4 + 3 + 3, and from three others 5 + 5 + 4" in text
    assert sorted(claim_shares(14, [15] * 5, 0))[1:] == [3, 3, 4, 4]
    assert sorted(claim_shares(14, [15] * 4, 0))[1:] == [4, 5, 5]
    assert "split the shortfall" not in text and "shared out again" not in text  # the old reading


def test_T8_duel_order_clockwise_from_the_driver_who_draws_last(rig):
    """T8: the first duellist clockwise from the driver turns first, the driver last; gold in a duel
    counts for nothing; duel cards join the face-up pile."""
    state = new_game()  # Seat 1 drives
    assert duel_order(state, [0, 2]) == [2, 0]
    state["driver"] = 1
    assert duel_order(state, [0, 1, 3]) == [3, 0, 1]
    state = new_game()
    rig(4, PISTOL)
    events = choose(state, ["Oxford", "Carlisle", "Oxford", "Carlisle"])
    duel = [(e["seat"], e["card"]) for e in events if e["text"].startswith("Duel")]
    assert duel == [(2, 4), (0, PISTOL)]  # Seat 3 first, the driver Seat 1 last
    assert state["gold"] == [15, 15, 15, 15] and state["face_up"] == [4, PISTOL]
    assert state["robber"] == 2


def test_T9_empty_booty_pile_is_remade_from_the_face_up_cards(rig):
    """T9: when the pile runs out mid-journey the face-up cards are shuffled into a new pile."""
    state = new_game(pistols=1, gold_1=2, gold_2=0, gold_3=0, gold_4=0)
    rig(1, 1, PISTOL, 1)
    choose(state, ["Oxford", "Oxford", "Carlisle", "Carlisle"])  # the duel uses all three cards
    assert sum(state["booty"]) == 0 and state["face_up"] == [1, 1, PISTOL]
    events = act(state, state["robber"], {"do": "declare", "passengers": 2})
    assert any("used up" in text for text in texts(events))
    assert state["face_up"] == [1] and state["booty"] == [1, 1, 0, 0, 0]


def test_T10_once_six_passengers_are_robbed_the_rest_reveal_and_nobody_robs(rig):
    """T10: the coach emptied, every face-down card is shown and the journey ends."""
    state = new_game()
    choose(state, ["Oxford", "Bath", "York", "Carlisle"])
    rig(1, 1, 1, 1, 1, 1)
    act(state, 0, {"do": "declare", "passengers": 6})
    for _ in range(5):
        act(state, 0, {"do": "draw"})
    assert state["gold"][0] == 21
    assert state["journey"] == 2 and state["phase"] == "choose"
    assert [pile[-1] for pile in state["piles"]] == ["Oxford", "Bath", "York", "Carlisle"]
    assert state["robberies"] == 1


def test_T11_between_journeys_booty_together_six_passengers_coach_reversed_driver_on(rig):
    """T11: all booty shuffled back, marker at 6, the coach turned, the driver passed on."""
    state = new_game()
    choose(state, ["Oxford", "Carlisle", "Carlisle", "Carlisle"])
    rig(3, 2, 4, 4)
    act(state, 0, {"do": "declare", "passengers": 2})
    act(state, 0, {"do": "stop"})
    assert state["robber"] == 1  # Carlisle: a duel among three
    play_out_robberies(state)
    assert state["journey"] == 2
    assert state["booty"] == [6, 8, 8, 5, 3] and state["face_up"] == []
    assert state["passengers"] == 6 and not state["northbound"] and state["driver"] == 1


def test_T12_played_piles_show_only_their_top_card_even_to_the_owner():
    """T12: everyone, the owner too, sees only the top of each played pile; his own hand he sees;
    with open piles the whole piles show."""
    state = new_game()
    play_journey(state, ["Oxford", "Bath", "Warwick", "York"])
    play_journey(state, ["Bath", "Oxford", "York", "Warwick"])
    for viewer in (None, 0, 1):
        seen = GAME.view(state, viewer)
        assert seen["piles"] is None
        assert seen["pile_tops"] == ["Bath", "Oxford", "York", "Warwick"]
        assert seen["pile_sizes"] == [2, 2, 2, 2]
    assert GAME.view(state, 0)["hand"] == ["Warwick", "Lancaster", "York", "Carlisle"]
    swapped = clone(state)
    swapped["piles"][0] = ["Warwick", "Bath"]  # what lies beneath is not seen
    swapped["hands"][0] = ["Oxford", "Lancaster", "York", "Carlisle"]
    assert GAME.view(swapped, None) == GAME.view(state, None)
    assert GAME.view(swapped, 1) == GAME.view(state, 1)
    opened = new_game(open_piles=True)
    play_journey(opened, ["Oxford", "Bath", "Warwick", "York"])
    play_journey(opened, ["Bath", "Oxford", "York", "Warwick"])
    assert GAME.view(opened, None)["piles"][0] == ["Oxford", "Bath"]


def test_T13_all_sixty_sovereigns_win_outright_at_once(rig):
    """T13: the moment one player holds all 60 gold the game ends with him the winner."""
    state = new_game()
    state["gold"] = [50, 4, 3, 3]
    choose(state, ["Oxford", "Carlisle", "Carlisle", "York"])
    rig(4, 4, 3, 3)
    act(state, 0, {"do": "declare", "passengers": 4})
    for _ in range(3):
        act(state, 0, {"do": "draw"})
    assert state["gold"] == [60, 0, 0, 0]  # the others pay 10 of the 14: all they have
    result = GAME.result(state)
    assert result["winners"] == [0] and "outright" in result["summary"]
    assert GAME.pending(state) == [] and state["journeys_played"] == 0
    assert result["reveal"]["waiting"] == [None, "Carlisle", "Carlisle", "York"]


def test_T7_T13_the_stop_choice_says_what_it_takes_when_the_others_have_less_than_the_claim(rig):
    """T7 cuts a claim to what the others hold, and taking all they hold is all the gold (T13). The stop
    choice says the coins that will be taken (6 when the others hold 6, not the 8 turned), and that they
    win the game outright."""
    state = new_game()
    state["gold"] = [54, 3, 3, 0]
    choose(state, ["Oxford", "Carlisle", "Carlisle", "York"])
    rig(4, 4, 3, 3)
    act(state, 0, {"do": "declare", "passengers": 4})
    act(state, 0, {"do": "draw"})
    stop = {"do": "stop"}
    assert stop in GAME.legal_actions(state, 0)
    assert GAME.describe_action(state, 0, stop) == (
        "stop and take 6 gold, all the others have (8 turned): all the gold wins outright (T13)")
    state["gold"] = [45, 6, 6, 3]
    assert GAME.describe_action(state, 0, stop) == "stop and take 8 gold"


def test_T14_length_option_and_equal_gold_shares_the_win():
    """T14: 1, 2 or 3 rounds (default 1); the most gold wins; equal gold shares the win."""
    assert GAME.resolve_options({})["rounds"] == 1
    with pytest.raises(OptionError, match="rounds"):
        GAME.resolve_options({"rounds": 0})
    state = new_game(seed=3)
    rng = random.Random(3)
    while pending := GAME.pending(state):
        act(state, pending[0], rng.choice(GAME.legal_actions(state, pending[0])))
    assert state["journeys_played"] == 6 or state["outright"] is not None
    state["gold"], state["outright"] = [20, 20, 10, 10], None
    result = GAME.result(state)
    assert result["winners"] == [0, 1] and "share the win" in result["summary"]


# --- what the bots may know, and how well the normal one plays -----------------------------------------

def test_resample_hidden_is_a_state_the_rules_allow():
    """A3: a redrawn state keeps every rule: each face-down card lies at a town the coach has still to
    reach, every player still holds each town once, and the seat's own cards stay as they are."""
    for seed in range(30):
        state = new_game(players=2 + seed % 4, seed=seed)
        rng = random.Random(seed)
        while pending := GAME.pending(state):
            for viewer in [None, *range(state["players"])]:
                redrawn = GAME.resample_hidden(state, viewer, random.Random(seed))
                dt.check_invariants(redrawn)
                ahead = dt.journey_route(state)[state["stop"] + 1:]
                assert all(town is None or town in ahead for town in redrawn["waiting"])
                if viewer is not None:
                    assert redrawn["hands"][viewer] == state["hands"][viewer]
                    assert redrawn["waiting"][viewer] == state["waiting"][viewer]
            act(state, pending[0], rng.choice(GAME.legal_actions(state, pending[0])))


def test_normal_bot_beats_three_random_bots():
    """The normal bot wins clearly more than its 25% share against three random bots."""
    from core.simulate import simulate

    options = GAME.resolve_options({"players": 4})
    for summary in simulate(GAME, options, 300, 7, ["normal", "random", "random", "random"]):
        pass
    assert summary.kind_wins["normal"] / summary.games > 0.4
