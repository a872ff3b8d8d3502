"""Highwayman (Chad Valley): one test per numbered paragraph of the sheet and per ruling H1–H7.

Most tests lay out a table by hand (``arrange``) and then act through the engine as a player would.
"""

from __future__ import annotations

import hashlib
import pathlib
import random
from collections import Counter

import pytest

from core.engine import IllegalAction, OptionError, clone, pack, visible_events
from core.games.highwayman import GAME
from core.games.highwayman import rules as hw
from core.games.highwayman.rules import HIGHWAYMAN, RUNNER
from core.simulate import play_bot_game


def card(route: str, number: int | str) -> str:
    """``card("bath", 3)`` → "bath:3"; ``card("bath", "L")`` → the Bath Road LONDON card."""
    return f"{route}:{number}"


def arrange(hands: list[list[str]], piles: dict[str, list[str]] | None = None,
            pack: list[str] | None = None, turn: int = 0, **options) -> dict:
    """A game laid out by hand: the given hands and route piles; ``pack`` lists the pack from the top
    down, and every card not placed goes beneath it so that the deck stays whole."""
    resolved = GAME.resolve_options({"players": len(hands), **options})
    state = GAME.setup(resolved, seed=1)
    piles = piles or {}
    pack = pack or []
    placed = [c for hand in hands for c in hand] + [c for pile in piles.values() for c in pile] + pack
    rest = Counter(hw.build_deck(resolved["routes"], resolved["route_length"])) - Counter(placed)
    assert not Counter(placed) - Counter(hw.build_deck(resolved["routes"], resolved["route_length"]))
    state["hands"] = [list(hand) for hand in hands]
    state["pack"] = sorted(rest.elements()) + pack[::-1]  # the list's last card is the top
    state["piles"] = [list(piles.get(hw.ROUTES[r], [])) for r in range(resolved["routes"])]
    state["tops"] = [sum(1 for c in pile if c in hw.ROUTE_AND_NUMBER) - 1 for pile in state["piles"]]
    state["blocked"] = [bool(pile) and pile[-1] == HIGHWAYMAN for pile in state["piles"]]
    state["next_cards"] = [hw.route_takes(top, blocked, resolved["route_length"], route)
                           for route, (top, blocked) in enumerate(zip(state["tops"], state["blocked"]))]
    state["turn"], state["phase"], state["passes"] = turn, "play", 0
    GAME.check_invariants(state)
    return state


def opened(route: str, up_to: int) -> list[str]:
    """A route pile from its LONDON card up to ``up_to``."""
    return [card(route, "L")] + [card(route, k) for k in range(1, up_to + 1)]


def play(*cards: str) -> dict:
    return {"do": "play", "cards": list(cards)}


END = {"do": "end"}


def test_rule_1_six_cards_each_and_the_rest_face_down_as_the_pack():
    """Rule 1: "Shuffle the pack and deal six cards to each player. Place the remainder ... face downwards"."""
    for players in range(2, 7):
        state = GAME.new_game({"players": players}, seed=players)
        leader = GAME.pending(state)[0]
        sizes = GAME.view(state, None)["hand_sizes"]
        drew = state["phase"] == "drawn"  # a leader without a LONDON card has already drawn (rule 2)
        assert sizes == [6 + (drew and seat == leader) for seat in range(players)]
        assert GAME.view(state, None)["pack_size"] == 52 - 6 * players - drew
        assert "pack" not in GAME.view(state, 0) and "hand" not in GAME.view(state, None)
        GAME.check_invariants(state)


def test_rule_2_the_leader_must_open_with_a_london_card():
    """Rule 2: the player left of the dealer "must play a LONDON card"; numbered cards go 1 on LONDON,
    2 on 1 ...; "if any Player does not hold a numbered card he may play a London card instead"."""
    state = arrange([[card("bath", "L"), card("dover", "L"), card("bath", 1), HIGHWAYMAN, RUNNER, card("north", 5)],
                     [card("north", 1)], [card("north", 2)], [card("north", 3)]])
    assert GAME.legal_actions(state, 0) == [play(card("bath", "L")), play(card("dover", "L"))]
    GAME.apply(state, 0, play(card("bath", "L")))
    assert GAME.view(state, None)["routes"][0]["pile"] == [card("bath", "L")]
    # H4: a Highwayman may follow on the route just started; no numbers follow a LONDON card.
    assert GAME.legal_actions(state, 0) == [END, {"do": "highwayman", "route": "bath"}]
    GAME.apply(state, 0, END)
    assert state["turn"] == 1
    # Later the same seat holds the next number, so numbers come before LONDON cards.
    state["turn"], state["phase"] = 0, "play"
    assert play(card("bath", 1)) in GAME.legal_actions(state, 0)
    assert play(card("dover", "L")) not in GAME.legal_actions(state, 0)


def test_rule_2_a_leader_without_london_takes_the_top_card_and_may_lay_a_drawn_london():
    """Rule 2: "If this card is not held then the player must take the top card from the pack. Should this
    card be a LONDON card he places it face up on the centre of the table"."""
    state = arrange([[card("bath", 1), card("bath", 2)], [card("north", 1)]], pack=[card("dover", "L")])
    events = []
    hw.next_turn(state, 0, events)  # the leader's turn begins
    assert state["phase"] == "drawn" and state["hands"][0][-1] == card("dover", "L")
    assert GAME.legal_actions(state, 0) == [{"do": "keep"}, play(card("dover", "L"))]
    assert [e["text"] for e in visible_events(events, None)] == [
        "Seat 1 has no play and draws a card (48 left in the pack)."]
    GAME.apply(state, 0, play(card("dover", "L")))
    assert state["tops"][1] == 0 and state["turn"] == 1


def test_rule_3_a_run_of_consecutive_numbers_on_one_route_in_one_turn():
    """Rule 3: "A Player may continue to place any cards down as long as the numbers run consecutively and
    on the correct route"."""
    state = arrange([[card("bath", 3), card("bath", 4), card("bath", 5), card("dover", 4), card("bath", 7)],
                     [card("north", 9)]], piles={"bath": opened("bath", 2), "dover": opened("dover", 3)})
    legal = GAME.legal_actions(state, 0)
    assert play(card("bath", 3)) in legal and play(card("bath", 3), card("bath", 4), card("bath", 5)) in legal
    for skipping in (play(card("bath", 3), card("bath", 5)), play(card("bath", 5), card("bath", 6), card("bath", 7)),
                     play(card("bath", 3), card("bath", 4), card("bath", 5), card("dover", 4))):
        with pytest.raises(IllegalAction):
            GAME.apply(state, 0, skipping)
    GAME.apply(state, 0, play(card("bath", 3), card("bath", 4), card("bath", 5)))
    assert state["tops"][0] == 5 and state["hands"][0] == [card("dover", 4), card("bath", 7)]
    assert state["turn"] == 1


def test_rule_4_a_highwayman_blocks_a_route_until_a_bow_street_runner_covers_it():
    """Rule 4: a Highwayman may go "on any route after the route has been started, and until that card is
    covered by a Bow Street Runner, it is impossible for any other cards to be played on that route"."""
    state = arrange([[HIGHWAYMAN, card("north", 9)], [RUNNER, card("north", 10)],
                     [card("bath", 3), card("dover", 9)]], piles={"bath": opened("bath", 2)})
    assert GAME.legal_actions(state, 0) == [{"do": "highwayman", "route": "bath"}], "only started routes"
    GAME.apply(state, 0, {"do": "highwayman", "route": "bath"})
    assert GAME.view(state, None)["routes"][0]["blocked"]
    assert not hw.has_legal_play(state, state["hands"][2]), "Bath Road 3 cannot go on a held-up road"
    assert GAME.legal_actions(state, 1) == [{"do": "runner", "route": "bath"}]
    GAME.apply(state, 1, {"do": "runner", "route": "bath"})
    assert state["piles"][0][-2:] == [HIGHWAYMAN, RUNNER] and not state["blocked"][0]
    assert GAME.legal_actions(state, 2) == [play(card("bath", 3))]


def test_rule_5_first_out_wins_and_the_others_count_their_cards():
    """Rule 5: "The Player who gets rid of all his cards first is the Winner, whilst the others total up
    the numbers ... counting 10 points for a Bow Street Runner and 20 points for a Highwayman"."""
    state = arrange([[card("bath", 3)], [card("dover", 7), RUNNER, card("north", "L")],
                     [HIGHWAYMAN, card("bath", 10)]], piles={"bath": opened("bath", 2)})
    events = GAME.apply(state, 0, play(card("bath", 3)))
    first = state["history"][0]
    assert first["winners"] == [0] and first["ended"] == "out"
    assert first["scores"] == [0, 7 + 10 + 0, 20 + 10]
    assert state["totals"] == [0, 17, 30] and state["game_number"] == 2
    assert any("wins game 1" in e["text"] for e in visible_events(events, None))


def test_H1_default_deck_is_four_routes_of_london_and_1_to_10_plus_four_highwaymen_and_four_runners():
    """H1: "four coaching routes ..., each with one LONDON card and cards 1–10 ...; four Highwayman cards;
    four Bow Street Runner cards: 52 cards. Options: 2–6 routes, route length 6–12"."""
    options = GAME.resolve_options({})
    deck = hw.build_deck(options["routes"], options["route_length"])
    assert len(deck) == 52 and deck.count(HIGHWAYMAN) == 4 and deck.count(RUNNER) == 4
    titles = [route["title"] for route in GAME.view(GAME.setup(options, 3), None)["routes"]]
    assert titles == ["Bath Road", "Dover Road", "Great North Road", "Portsmouth Road"]
    for route in ("bath", "dover", "north", "portsmouth"):
        assert [c for c in deck if c.startswith(route + ":")] == opened(route, 10)
    assert len(hw.build_deck(6, 12)) == 6 * 13 + 12
    state = GAME.new_game({"players": 2, "routes": 2, "route_length": 6}, seed=5)
    assert len(GAME.view(state, 0)["routes"]) == 2 and len(state["pack"]) + 12 in (18, 17)
    for bad in ({"routes": 7}, {"routes": 1}, {"route_length": 5}, {"route_length": 13}):
        with pytest.raises(OptionError):
            GAME.resolve_options(bad)
    with pytest.raises(OptionError, match="deck"):
        GAME.resolve_options({"players": 6, "routes": 2, "route_length": 6})  # 36 cards from 18


def test_H2_the_deal_moves_one_seat_left_each_game_and_the_player_left_of_the_dealer_leads():
    """H2: "2–6 players, six cards each; the player left of the dealer starts; the dealer moves one seat
    left each game of a series"."""
    for players in range(2, 7):
        state = GAME.new_game({"players": players, "series_games": 4}, seed=11 * players)
        rng = random.Random(players)
        deals = []
        while GAME.pending(state):
            if not deals or deals[-1][0] != state["game_number"]:
                deals.append((state["game_number"], state["dealer"], state["turn"]))
            seat = GAME.pending(state)[0]
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        assert [dealer for _, dealer, _ in deals] == [(players - 1 + g) % players for g in range(4)]
        assert all(first == (dealer + 1) % players for _, dealer, first in deals), "left of the dealer leads"


def test_H2_the_log_opens_with_the_deal_and_the_leaders_forced_draw_told_to_him_alone(monkeypatch):
    """H2 and H5 at the deal: the log's first line names the dealer and the leader; a leader with no play
    has drawn before his first move (everyone reads that he drew, only he reads the card); with every card
    dealt, the seats with no play have passed. After the first line, these are exactly the events the deal
    made."""
    dealt = []
    deal_game = hw.deal_game
    monkeypatch.setattr(hw, "deal_game", lambda state, events: (deal_game(state, events), dealt.append(events)))
    seen = set()
    for options in ({"players": 4}, {"players": 3, "routes": 2, "route_length": 6}):  # the second: no pack
        for seed in range(40):
            dealt.clear()
            state = GAME.new_game(options, seed)
            opening = GAME.opening_events(state)
            players = options["players"]
            assert opening[1:] == dealt[0], "after the deal's own line, what the deal made"
            assert opening[0] == {"text": f"Game 1 of 3: Seat {players} deals, Seat 1 leads.", "visible_to": None}
            public = [e["text"] for e in visible_events(opening, None)]
            if state["phase"] == "drawn":
                seen.add("draw")
                drawn = state["hands"][0][-1]
                assert public[1:] == [f"Seat 1 has no play and draws a card ({len(state['pack'])} left in the pack)."]
                assert visible_events(opening, 0)[-1] == {"text": f"You draw {hw.CARD_TITLE[drawn]}.",
                                                          "visible_to": [0], "card": drawn}
                assert all(visible_events(opening, seat) == visible_events(opening, None) for seat in range(1, players))
            elif state["turn"] != 0:
                seen.add("pass")
                assert public[1:] == [f"Seat {seat + 1} cannot play and the pack is empty: pass."
                                      for seat in range(state["turn"])]
            else:
                seen.add("play")
                assert opening == opening[:1]
    assert seen == {"draw", "pass", "play"}


def test_H3_a_route_starts_only_with_its_own_london_and_ends_at_its_last_number():
    """H3: "A route is started only by its own LONDON card; then 1, 2, 3 … in order on that route. A route
    whose last number is down is complete."""
    state = arrange([[card("bath", 1), card("dover", 10), HIGHWAYMAN, card("dover", "L"), card("north", 10)],
                     [card("bath", 4)]], piles={"north": opened("north", 9)})
    before = clone(state)
    for wrong in (play(card("bath", 1)), play(card("dover", "L"), card("dover", 10)), play(card("dover", 10))):
        with pytest.raises(IllegalAction) as refused:
            GAME.apply(state, 0, wrong)
        assert refused.value.rule == "H4" and state == before
    GAME.apply(state, 0, play(card("north", 10)))
    assert GAME.view(state, None)["routes"][2]["top"] == 10
    state["turn"], state["phase"] = 0, "play"
    assert GAME.legal_actions(state, 0) == [play(card("dover", "L"))], "no Highwayman on a complete route"


def test_H4_a_player_who_can_play_must_and_london_only_without_a_legal_number():
    """H4: "If you can make a legal play you must ... A LONDON card is legal only when you hold no legal
    numbered card"; a play of a LONDON, Highwayman or Runner ends the turn."""
    hand = [card("bath", 3), card("dover", "L"), card("north", 7)]
    state = arrange([hand, [card("north", 1)]], piles={"bath": opened("bath", 2)})
    assert GAME.legal_actions(state, 0) == [play(card("bath", 3))], "no draw, no LONDON while a number plays"
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, play(card("dover", "L")))
    held_up = arrange([hand, [card("north", 1)]], piles={"bath": opened("bath", 2) + [HIGHWAYMAN]})
    assert GAME.legal_actions(held_up, 0) == [play(card("dover", "L"))]
    GAME.apply(held_up, 0, play(card("dover", "L")))
    assert held_up["turn"] == 1, "nothing can follow that LONDON card, so the turn passes at once"


def test_H4_a_highwayman_may_follow_a_run_in_the_same_turn_and_the_rules_text_says_so():
    """H4: "After a numbered card you may go on playing the next numbers of the same route. A Highwayman
    may be played on your turn on any started, incomplete, unblocked route ... Either counts as a play.
    You end your turn when you choose, after at least one play." ``turpin rules highwayman`` says so."""
    state = arrange([[card("bath", 3), card("bath", 4), HIGHWAYMAN, card("north", 9)], [card("bath", 5)]],
                    piles={"bath": opened("bath", 2), "dover": opened("dover", 3)})
    events = GAME.apply(state, 0, play(card("bath", 3), card("bath", 4)))
    assert state["turn"] == 0 and state["phase"] == "more"
    assert GAME.view(state, 1)["phase"] == "more" and GAME.view(state, None)["turn"] == 0, "public: still on turn"
    assert GAME.pending(state) == [0] and GAME.legal_actions(state, 1) == []
    assert GAME.legal_actions(state, 0) == [END, {"do": "highwayman", "route": "bath"},
                                            {"do": "highwayman", "route": "dover"}]
    assert [e["text"] for e in events] == ["Seat 1 plays Bath Road 3, 4."]
    events = GAME.apply(state, 0, {"do": "highwayman", "route": "dover"})
    assert state["blocked"][1] and state["turn"] == 1, "nothing left to follow: the turn passes by itself"
    assert [e["text"] for e in events] == ["Seat 1 holds up the Dover Road with a Highwayman."]
    assert state["moves"][-2:] == [[0, "play", [card("bath", 3), card("bath", 4)]], [0, "highwayman", "dover"]]
    text = " ".join(GAME.rules_text.split())
    assert "A turn is one play" not in text
    assert "a Highwayman or a Runner may follow a play in the same turn (rule 4" in text
    assert "End your turn when you choose" in text


def test_H4_end_is_offered_first_only_after_a_play_and_ends_the_turn():
    """H4: "You end your turn when you choose, after at least one play": "end" is the first choice once
    the seat has played and could play on, never before; it is public and passes play left."""
    state = arrange([[card("bath", 3), card("bath", 4), RUNNER, card("north", 9)], [HIGHWAYMAN]],
                    piles={"bath": opened("bath", 2), "dover": opened("dover", 3) + [HIGHWAYMAN]})
    assert END not in GAME.legal_actions(state, 0) and not hw.is_legal(state, 0, END)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 0, END)
    assert refused.value.rule == "H4" and "after at least one play" in str(refused.value)
    GAME.apply(state, 0, play(card("bath", 3)))
    legal = GAME.legal_actions(state, 0)
    assert legal == [END, play(card("bath", 4)), {"do": "runner", "route": "dover"}]
    assert GAME.describe_action(state, 0, END) == "End your turn"
    events = GAME.apply(state, 0, END)
    assert [e["text"] for e in events] == ["Seat 1 ends the turn."]
    assert state["turn"] == 1 and state["phase"] == "play" and state["turn_route"] == -1
    assert state["moves"][-1] == [0, "end", None]
    GAME.check_invariants(state)


def test_H4_the_turn_passes_by_itself_when_nothing_can_follow():
    """H4 as the table plays it: no "end" prompt when no play could follow (a run that used up the
    route's held cards, no Highwayman or Runner with a route to go on)."""
    state = arrange([[card("bath", 3), card("bath", 4), card("north", 9), RUNNER], [HIGHWAYMAN]],
                    piles={"bath": opened("bath", 2)})
    GAME.apply(state, 0, play(card("bath", 3), card("bath", 4)))
    assert state["turn"] == 1 and state["phase"] == "play" and state["turn_route"] == -1
    assert [0, "end", None] not in state["moves"]
    GAME.check_invariants(state)


def test_H4_after_a_run_no_numbers_on_another_route_and_no_london():
    """H4: "After a numbered card you may go on playing the next numbers of the same route": not another
    route's, and a LONDON card (legal only without a legal numbered card) only as the turn's first play.
    A refusal names the rule and changes nothing."""
    state = arrange([[card("bath", 3), card("bath", 4), card("dover", 4), card("north", "L"), HIGHWAYMAN],
                     [card("north", 1)]], piles={"bath": opened("bath", 2), "dover": opened("dover", 3)})
    GAME.apply(state, 0, play(card("bath", 3)))
    legal = GAME.legal_actions(state, 0)
    assert legal == [END, play(card("bath", 4)), {"do": "highwayman", "route": "bath"},
                     {"do": "highwayman", "route": "dover"}]
    before = clone(state)
    for other in (play(card("dover", 4)), play(card("north", "L")), play(card("bath", 4), card("dover", 4)),
                  {"do": "keep"}, {"do": "runner", "route": "bath"}):
        assert not hw.is_legal(state, 0, other)
        with pytest.raises(IllegalAction) as refused:
            GAME.apply(state, 0, other)
        assert refused.value.rule == {"play": "H4", "keep": "H5", "runner": "rule 4"}[other["do"]]
        assert state == before, "a refusal changes nothing"
    assert "only the next numbers of the route" in str(pytest.raises(IllegalAction, GAME.apply, state, 0,
                                                                       play(card("dover", 4))).value)
    GAME.apply(state, 0, play(card("bath", 4)))
    assert state["tops"][0] == 4 and GAME.legal_actions(state, 0) == [
        END, {"do": "highwayman", "route": "bath"}, {"do": "highwayman", "route": "dover"}]


def test_H4_rule_4_a_runner_clears_the_runs_route_and_its_numbers_may_follow():
    """Rule 4 ("a Highwayman card at any time") and H4: a Highwayman on this turn's own route shuts its
    numbers off; a Runner that clears it lets "the next numbers of the same route" follow again."""
    state = arrange([[card("bath", 3), card("bath", 4), card("bath", 5), HIGHWAYMAN, RUNNER, card("dover", 4)],
                     [card("north", 1)]], piles={"bath": opened("bath", 2), "dover": opened("dover", 3)})
    GAME.apply(state, 0, play(card("bath", 3)))
    GAME.apply(state, 0, {"do": "highwayman", "route": "bath"})
    assert state["phase"] == "more" and GAME.legal_actions(state, 0) == [END, {"do": "runner", "route": "bath"}]
    GAME.apply(state, 0, {"do": "runner", "route": "bath"})
    assert GAME.legal_actions(state, 0) == [END, play(card("bath", 4)), play(card("bath", 4), card("bath", 5))]
    GAME.apply(state, 0, play(card("bath", 4), card("bath", 5)))
    assert state["turn"] == 1 and state["hands"][0] == [card("dover", 4)]
    GAME.check_invariants(state)


def test_H4_a_runner_first_lets_no_numbers_follow():
    """H4 as our table reads it: numbers follow only "after a numbered card" of this turn, so a Runner
    played first clears the route for a later turn; a Highwayman may still follow (rule 4)."""
    state = arrange([[RUNNER, HIGHWAYMAN, card("bath", 3), card("north", 9)], [card("north", 1)]],
                    piles={"bath": opened("bath", 2) + [HIGHWAYMAN], "dover": opened("dover", 3)})
    assert GAME.legal_actions(state, 0) == [{"do": "highwayman", "route": "dover"},
                                            {"do": "runner", "route": "bath"}]
    GAME.apply(state, 0, {"do": "runner", "route": "bath"})
    assert GAME.legal_actions(state, 0) == [END, {"do": "highwayman", "route": "bath"},
                                            {"do": "highwayman", "route": "dover"}]
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 0, play(card("bath", 3)))
    assert refused.value.rule == "H4"


def test_H6_a_follow_on_that_empties_the_hand_wins_the_game():
    """H4 then H6: a Highwayman after the run sheds the last card, and the game is over at once."""
    state = arrange([[card("bath", 3), HIGHWAYMAN], [card("north", 1), card("north", 2)]],
                    piles={"bath": opened("bath", 2), "dover": opened("dover", 3)}, series_games=1)
    GAME.apply(state, 0, play(card("bath", 3)))
    events = GAME.apply(state, 0, {"do": "highwayman", "route": "dover"})
    assert state["phase"] == "over" and GAME.result(state)["winners"] == [0]
    assert "Seat 1 has played every card and wins game 1." in " ".join(e["text"] for e in events)


def test_H4_is_legal_agrees_with_legal_actions_in_every_phase():
    """The fast check answers as ``legal_actions`` does, over random games (every phase, the "more" one
    included) and actions near the legal ones: each seat's, every card on every route, "end", "keep"."""
    rng = random.Random(7)
    phases = Counter()
    for seed in range(40):
        players = 2 + seed % 5
        state = GAME.new_game({"players": players, "series_games": 1}, seed=seed)
        while GAME.pending(state):
            turn = state["turn"]
            phases[state["phase"]] += 1
            hand = state["hands"][turn]
            candidates = [END, {"do": "keep"}, {"do": "end", "x": 1}, {"do": "play", "cards": []}]
            for route in hw.ROUTES[:state["routes"]]:
                candidates += [{"do": "highwayman", "route": route}, {"do": "runner", "route": route}]
                for k in range(state["length"] + 1):
                    candidates.append(play(hw.CARD[hw.ROUTE_INDEX[route]][k]))
            for held in hand:
                if held in hw.ROUTE_AND_NUMBER:
                    route, k = hw.ROUTE_AND_NUMBER[held]
                    candidates.append(play(*hw.CARD[route][k:k + 3]))
            for seat in range(players):
                legal = GAME.legal_actions(state, seat)
                for action in candidates + legal:
                    assert hw.is_legal(state, seat, action) == (action in legal), (state["phase"], action)
            action = rng.choice(GAME.legal_actions(state, turn))
            GAME.apply(state, turn, action)
            GAME.check_invariants(state)
    assert phases["more"] > 100 and phases["drawn"] > 100


def test_H4_highwayman_on_a_started_open_route_runner_only_on_a_blocked_one():
    """H4: "A Highwayman may be played on your turn on any started, incomplete, unblocked route; a Bow
    Street Runner on any blocked route, which unblocks it. Either counts as a play."""
    state = arrange([[HIGHWAYMAN, RUNNER, card("portsmouth", 9)], [card("portsmouth", 10)]],
                    piles={"bath": opened("bath", 10), "dover": opened("dover", 4) + [HIGHWAYMAN],
                           "north": opened("north", 0)})
    assert GAME.legal_actions(state, 0) == [{"do": "highwayman", "route": "north"},
                                            {"do": "runner", "route": "dover"}]
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 0, {"do": "highwayman", "route": "bath"})
    assert refused.value.rule == "rule 4"
    GAME.apply(state, 0, {"do": "runner", "route": "dover"})
    assert not state["blocked"][1] and state["turn"] == 0, "the Highwayman may follow (H4)"
    assert GAME.legal_actions(state, 0) == [END, {"do": "highwayman", "route": "dover"},
                                            {"do": "highwayman", "route": "north"}]


def test_H5_no_play_means_drawing_and_the_drawn_card_may_be_played_at_once_and_run_on():
    """H5: "With no legal play, draw the top card; if it can be played, you may play it at once (and
    continue as in H4); then play passes left." The drawn card is shown to the drawer only."""
    state = arrange([[card("dover", 9)], [card("bath", 4), card("bath", 5), card("north", 8)],
                     [card("north", 9)]], piles={"bath": opened("bath", 2)}, pack=[card("bath", 3)])
    events = []
    hw.next_turn(state, 1, events)  # Seat 2's turn begins with no play
    assert state["turn"] == 1 and state["phase"] == "drawn"
    assert GAME.view(state, 1)["drawn"] == card("bath", 3) and GAME.view(state, 2)["drawn"] is None
    assert all(card("bath", 3) not in e["text"] for e in visible_events(events, None))
    assert any(card("bath", 3) == e.get("card") for e in visible_events(events, 1))
    assert GAME.legal_actions(state, 1) == [{"do": "keep"}, play(card("bath", 3)),
                                            play(card("bath", 3), card("bath", 4)),
                                            play(card("bath", 3), card("bath", 4), card("bath", 5))]
    GAME.apply(state, 1, play(card("bath", 3), card("bath", 4)))
    assert state["tops"][0] == 4 and sorted(state["hands"][1]) == [card("bath", 5), card("north", 8)]
    # "(and continue as in H4)": Bath Road 5 may still follow; then play passes left.
    assert state["turn"] == 1 and GAME.legal_actions(state, 1) == [END, play(card("bath", 5))]
    GAME.apply(state, 1, play(card("bath", 5)))
    assert state["turn"] == 2


def test_H5_an_unplayable_drawn_card_is_kept_and_an_empty_pack_means_passing():
    """H5: a drawn card that cannot go down is kept; "with no legal play and an empty pack, pass"."""
    state = arrange([[card("north", 9)], [card("bath", 4)], [card("bath", 6)]],
                    piles={"bath": opened("bath", 2)}, pack=[card("dover", 7)])
    # Seat 1 takes the rest of the pack, so the Dover Road 7 is the pack's last card.
    state["hands"][0] += state["pack"][:-1]
    state["pack"] = state["pack"][-1:]
    hw.next_turn(state, 1, [])
    assert GAME.legal_actions(state, 1) == [{"do": "keep"}]
    events = GAME.apply(state, 1, {"do": "keep"})
    assert [e["text"] for e in events] == ["Seat 2 keeps the card.",
                                           "Seat 3 cannot play and the pack is empty: pass."]
    assert state["hands"][1] == [card("bath", 4), card("dover", 7)]
    assert state["turn"] == 0 and state["passes"] == 0, "Seat 1 can play, so the passes stop counting"
    GAME.check_invariants(state)


def test_H6_hands_score_face_value_london_nothing_runner_10_highwayman_20():
    """H6: "face value for numbers, 0 for LONDON, 10 for a Bow Street Runner, 20 for a Highwayman"."""
    assert hw.hand_points([card("bath", 7), card("dover", "L"), RUNNER, HIGHWAYMAN, card("north", 1)]) == 38
    assert hw.hand_points([]) == 0


def test_H6_a_stalled_game_is_scored_as_it_stands_and_the_lowest_hand_wins_it():
    """H6: "If the pack is empty and every player passes in turn, the game ends and all hands are scored;
    the lowest wins that game." Every route is complete, so the Highwaymen and Runners left are stuck."""
    complete = {route: opened(route, 10) for route in ("dover", "north", "portsmouth")}
    complete["bath"] = opened("bath", 2) + [HIGHWAYMAN, RUNNER] + [card("bath", k) for k in range(3, 11)]
    state = arrange([[HIGHWAYMAN], [RUNNER, RUNNER], [HIGHWAYMAN, HIGHWAYMAN, RUNNER]], piles=complete,
                    series_games=1)
    assert state["pack"] == []
    events = []
    hw.next_turn(state, 0, events)
    assert [e["text"] for e in events][:3] == [f"Seat {n} cannot play and the pack is empty: pass."
                                              for n in (1, 2, 3)]
    assert state["phase"] == "over" and state["history"][0]["ended"] == "stalled"
    assert state["history"][0]["scores"] == [20, 20, 50]
    assert state["history"][0]["winners"] == [0, 1], "the lowest hands share the game"
    assert GAME.stats(state)["stalled_games"] == 1 and GAME.result(state)["winners"] == [0, 1]
    # The log names the stalled game's winners and shows the cards left in every hand, not only points.
    assert [e["text"] for e in events][3] == (
        "Nobody can play and the pack is empty: game 1 is scored as it stands, and the lowest hand wins it "
        "(H6): Seat 1 and Seat 2 with 20 points. Left in hand: Seat 1: Highwayman (20 points) | "
        "Seat 2: Bow Street Runner; Bow Street Runner (20 points) | "
        "Seat 3: Highwayman; Highwayman; Bow Street Runner (50 points). Totals: Seat 1 20, Seat 2 20, Seat 3 50.")


def test_H6_the_end_of_a_game_shows_each_hand_by_route():
    """H6: the cards left in hand are shown, grouped by route, with their points."""
    assert hw.hand_in_words([card("bath", "L"), card("bath", 3), card("bath", 7), card("dover", 2), HIGHWAYMAN]) \
        == "Bath Road LONDON, 3, 7; Dover Road 2; Highwayman"
    assert hw.hand_in_words([]) == "no cards"
    assert hw.hands_left([[card("bath", 1)], []], [1, 0]) == \
        "Seat 1: Bath Road 1 (1 point) | Seat 2: no cards (0 points)"


def test_H7_a_series_adds_up_each_game_and_the_lowest_total_wins_ties_share():
    """H7: "number of games, default 3; lowest total wins; equal totals share the win"."""
    assert GAME.resolve_options({})["series_games"] == 3
    played = play_bot_game(GAME, GAME.resolve_options({}), 5, ["random"] * 4)
    result = GAME.result(played.state)
    history = played.state["history"]
    assert len(history) == 3 and [g["game"] for g in history] == [1, 2, 3]
    totals = [sum(g["scores"][seat] for g in history) for seat in range(4)]
    assert result["scores"] == totals
    assert result["winners"] == [seat for seat in range(4) if totals[seat] == min(totals)]
    state = clone(played.state)
    state["totals"] = [5, 9, 5, 12]
    assert hw.series_winners(state) == [0, 2] and "Seat 1 and Seat 3 win" in hw.series_summary(state)
    single = play_bot_game(GAME, GAME.resolve_options({"series_games": 1}), 5, ["random"] * 4)
    assert len(single.state["history"]) == 1 and GAME.result(single.state) is not None


def test_A1_hands_and_pack_order_are_hidden_hand_sizes_public():
    """A1: a seat sees its own hand only; the spectator no hand; everyone the hand sizes and pack size."""
    state = GAME.new_game({}, seed=8)
    spectator = GAME.view(state, None)
    assert "hand" not in spectator and spectator["hand_sizes"] == [len(h) for h in state["hands"]]
    assert sorted(GAME.view(state, 2)["hand"]) == sorted(state["hands"][2])
    assert "pack" not in spectator and "rng" not in spectator and "seed" not in spectator


def test_A2_the_end_reveals_every_hand_the_pack_and_the_seed():
    """A2: "When a game ends, everything hidden is revealed to everyone, together with the seed"."""
    played = play_bot_game(GAME, GAME.resolve_options({"players": 3}), 21, ["random"] * 3)
    reveal = GAME.view(played.state, None)["reveal"]
    assert reveal["seed"] == 21 == GAME.result(played.state)["seed"]
    assert reveal["hands"] == played.state["hands"]
    assert reveal["pack_top_first"] == played.state["pack"][::-1]


def test_A3_normal_bot_decides_from_its_view_keeps_its_runner_blocks_an_empty_route_sheds_high():
    """A3 and the normal bot: it sheds high on a route where it holds the next card too, laying one card
    and keeping the next so the route stays shut to the others (H4 lets it stop after any card), keeps a
    Runner it does not need, holds up the route where it holds nothing and the next player may hold the
    next card; a redraw of what it cannot see does not change its choice."""
    bot = GAME.bots["normal"]
    piles = {"bath": opened("bath", 2), "dover": opened("dover", 7), "north": opened("north", 3),
             "portsmouth": opened("portsmouth", 1) + [HIGHWAYMAN]}
    state = arrange([[RUNNER, card("bath", 3), card("dover", 8), card("dover", 9), card("north", 4)],
                     [card("bath", 4)]], piles=piles)
    assert bot(state, 0, random.Random(1)) == play(card("dover", 8))
    state = arrange([[RUNNER, HIGHWAYMAN, card("bath", 3), card("dover", 8)], [card("bath", 4)]], piles=piles)
    choice = bot(state, 0, random.Random(1))
    assert choice == {"do": "highwayman", "route": "north"}
    for seed in range(5):
        assert bot(GAME.resample_hidden(state, 0, random.Random(seed)), 0, random.Random(1)) == choice
    drew = arrange([[card("north", 9), card("bath", 5)], [card("bath", 4)]],
                   piles={"bath": opened("bath", 2)}, pack=[card("bath", 3)])
    hw.next_turn(drew, 0, [])
    assert GAME.legal_actions(drew, 0)[1:] and bot(drew, 0, random.Random(1)) == {"do": "keep"}, \
        "it sits on a drawn card that could go down: the Bath Road stays shut to the others"


def test_H4_the_normal_bot_goes_out_over_several_plays_and_otherwise_ends_when_playing_on_gives_nothing():
    """H4 and H6 for the normal bot: a run of all its numbers then a Highwayman empties its hand, so it
    lays the whole run first; a spare Runner (a route it does not need) is not worth playing on for,
    and it lays its run before the Runner it valued more, as no numbers may follow a Runner."""
    bot = GAME.bots["normal"]
    piles = {"bath": opened("bath", 2), "dover": opened("dover", 3)}
    state = arrange([[card("bath", 3), card("bath", 4), HIGHWAYMAN], [card("north", 1)]], piles=piles,
                    series_games=1)
    assert bot(state, 0, random.Random(1)) == play(card("bath", 3), card("bath", 4))
    GAME.apply(state, 0, play(card("bath", 3), card("bath", 4)))
    GAME.apply(state, 0, bot(state, 0, random.Random(1)))
    assert state["phase"] == "over" and GAME.result(state)["winners"] == [0]
    state = arrange([[card("bath", 3), card("bath", 5), RUNNER, card("north", 9)], [HIGHWAYMAN]],
                    piles={"bath": opened("bath", 2), "dover": opened("dover", 3) + [HIGHWAYMAN]})
    assert bot(state, 0, random.Random(1)) == play(card("bath", 3))
    GAME.apply(state, 0, play(card("bath", 3)))
    assert GAME.legal_actions(state, 0) == [END, {"do": "runner", "route": "dover"}]
    assert bot(state, 0, random.Random(1)) == END
    for level in ("easy", "random", "hard"):
        assert GAME.bots[level](state, 0, random.Random(1)) in GAME.legal_actions(state, 0)


def test_rule_1_the_invariant_check_notices_a_card_gone_missing():
    """Rule 1's pack is the whole deck: hands + pack + routes always make the 52 cards, and the check
    that the generic playouts run after every action says so when they do not."""
    state = GAME.new_game({}, seed=4)
    GAME.check_invariants(state)
    state["pack"].pop()
    with pytest.raises(AssertionError, match="conserved"):
        GAME.check_invariants(state)


#: What ``playout_digests`` gave when it was recorded: one line a series.
GOLDEN_PLAYOUTS = pathlib.Path(__file__).with_name("highwayman_playouts.golden")
#: Tables for the golden playouts: every table size, and decks other than the default.
GOLDEN_TABLES = [{"players": players} for players in range(2, 7)] + [
    {"players": 2, "routes": 2, "route_length": 6, "series_games": 1},
    {"players": 3, "routes": 6, "route_length": 12, "series_games": 2},
    {"players": 6, "routes": 6, "route_length": 6},
    {"players": 5, "routes": 5, "route_length": 9, "series_games": 1}]


def playout_digests() -> list[str]:
    """Random series played through ``apply``, each step's legal actions, choice, events and whole state
    (as serialised, so the order of its keys counts) hashed together, with views and a redraw now and
    then: one line a series."""
    lines = []
    for options in GOLDEN_TABLES:
        for seed in range(3):
            state = GAME.setup(GAME.resolve_options(options), seed)
            digest = hashlib.sha256(pack([state, GAME.opening_events(state)]))
            choices = random.Random(seed)
            step = 0
            while pending := GAME.pending(state):
                seat = pending[0]
                legal = GAME.legal_actions(state, seat)
                action = choices.choice(legal)
                digest.update(pack([legal, action, GAME.apply(state, seat, action), state]))
                if step % 25 == 0:
                    digest.update(pack([GAME.view(state, seat), GAME.view(state, None),
                                        GAME.resample_hidden(state, seat, random.Random(step))]))
                step += 1
            digest.update(pack([GAME.result(state), GAME.view(state, 0)]))
            lines.append(f"{options} seed {seed}: {step} steps {digest.hexdigest()[:24]}")
    return lines


def test_the_same_seeds_and_choices_play_the_same_series_as_recorded():
    """A game is kept as its seed and its actions, so for the same seed and choices every legal action,
    event, state and view must stay as they were recorded (a speed-up must not change any). A change of
    the rules on purpose records them again: ``python -m tests.core.games.test_highwayman_rules``."""
    assert playout_digests() == GOLDEN_PLAYOUTS.read_text().splitlines()


#: What ``outside_digests`` gave when it was recorded: one line a series.
GOLDEN_OUTSIDE = pathlib.Path(__file__).with_name("highwayman_outside.golden")


def refusal_probes(state: dict, seat: int, legal: list[dict]) -> list[tuple[int, object]]:
    """Actions the engine must refuse now, with the seat that tries them: the legal ones from the seat
    after ``seat``, and from ``seat`` itself one card of each held card, every Highwayman and Runner,
    keep, end, and a few malformed actions, whichever of them are not legal."""
    seen = GAME.view(state, seat)  # not the state itself: its layout is the engine's own
    other = (seat + 1) % seen["players"]
    tries = [(other, action) for action in legal[:2]]
    routes = [route["id"] for route in seen["routes"]] + ["nowhere"]
    tries += [(seat, {"do": "play", "cards": [held]}) for held in seen["hand"]]
    tries += [(seat, {"do": do, "route": route}) for do in ("highwayman", "runner") for route in routes]
    tries += [(seat, {"do": "keep"}), (seat, {"do": "end"}), (seat, {"do": "play", "cards": "bath:1"}),
              (seat, {"do": "play", "cards": []}), (seat, {"do": "fly"}), (seat, ["play"]),
              (seat, {"do": "play", "cards": ["bath:1", "bath:3"]}), (seat, {"do": "end", "extra": 1})]
    return [(who, action) for who, action in tries if who != seat or action not in legal]


def outside_digests() -> list[str]:
    """Random series hashed by what is seen from outside the engine only, never its state: each step's
    pending seats, legal actions, choice and events, every seat's and the spectator's view, what the
    state refuses (rule and words), the words of the legal actions, the normal and easy bots' choices and
    ``resample_hidden``'s redraws as seen by every seat now and then, the same series played through
    ``advance``, and the result and figures at the end. A new layout of the state must leave these
    byte for byte as recorded; ``playout_digests`` above also holds the state to its recorded shape."""
    lines = []
    for options in GOLDEN_TABLES:
        for seed in range(3):
            state = GAME.setup(GAME.resolve_options(options), seed)
            quiet = GAME.setup(GAME.resolve_options(options), seed)  # the same series through advance
            seats = [*range(GAME.view(state, None)["players"]), None]
            digest = hashlib.sha256(pack([GAME.opening_events(state), [GAME.view(state, s) for s in seats]]))
            choices = random.Random(seed)
            step = 0
            while pending := GAME.pending(state):
                seat = pending[0]
                legal = GAME.legal_actions(state, seat)
                assert GAME.legal_actions(quiet, seat) == legal
                digest.update(pack([pending, legal]))
                if step % 3 == 0:
                    refusals = []
                    for who, action in refusal_probes(state, seat, legal):
                        with pytest.raises(IllegalAction) as refused:
                            GAME.apply(state, who, action)
                        refusals.append([refused.value.rule, refused.value.message])
                    digest.update(pack(refusals))
                if step % 5 == 0:
                    digest.update(pack([GAME.describe_action(state, seat, action) for action in legal]))
                if step % 7 == 0:
                    digest.update(pack([GAME.bots[level](state, seat, random.Random(step))
                                        for level in ("normal", "easy")]))
                if step % 11 == 0:
                    redrawn = GAME.resample_hidden(state, seat, random.Random(step))
                    digest.update(pack([GAME.view(redrawn, s) for s in seats] + [GAME.legal_actions(redrawn, seat)]))
                action = choices.choice(legal)
                events = GAME.apply(state, seat, action)
                GAME.advance(quiet, seat, action)
                digest.update(pack([action, events, [GAME.view(state, s) for s in seats]]))
                if step % 13 == 0:
                    assert [GAME.view(quiet, s) for s in seats] == [GAME.view(state, s) for s in seats]
                step += 1
            assert [GAME.view(quiet, s) for s in seats] == [GAME.view(state, s) for s in seats]
            digest.update(pack([GAME.result(state), GAME.stats(state), GAME.pending(state),
                                [GAME.view(state, s) for s in seats]]))
            lines.append(f"{options} seed {seed}: {step} steps {digest.hexdigest()[:24]}")
    return lines


def test_what_the_outside_sees_of_the_same_seeds_and_choices_is_as_recorded():
    """The engine may keep its state as it likes, but everything a player, a bot or the host sees of it
    (``outside_digests``) must stay as recorded. Recorded again with the other golden file:
    ``python -m tests.core.games.test_highwayman_rules``."""
    assert outside_digests() == GOLDEN_OUTSIDE.read_text().splitlines()


if __name__ == "__main__":
    GOLDEN_PLAYOUTS.write_text("\n".join(playout_digests()) + "\n")
    GOLDEN_OUTSIDE.write_text("\n".join(outside_digests()) + "\n")
