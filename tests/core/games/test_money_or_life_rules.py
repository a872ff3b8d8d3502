"""Your Money or Your Life, rule by rule: one test per numbered round step of the sheet (rules 1–4) and
per ruling Y1–Y16, plus the normal bot's habits.

Where a test needs particular dice it scripts them (``dice``): the next d6 rolls come from a list, and
once it is empty chance takes over again. Coaches and the secret dice are set on the state directly.
"""

from __future__ import annotations

import random

import pytest

from core import rng as real_chance
from core.engine import IllegalAction, OptionError, visible_events
from core.games.money_or_life import GAME, solver
from core.games.money_or_life import rules as mol
from core.games.money_or_life.rules import COACHES

CARD = {coach[0]: number for number, coach in enumerate(COACHES)}
PLUM = "Lady Plum and her groom"            # money 1, combat 3, wit 5, speed 4
SILK = "A silk merchant"                   # money 1, combat 5, wit 4, speed 3
COTTON = "A cotton merchant"               # money 2, combat 5, wit 4, speed 5
WILFRED = "Sir Wilfred and his mistress"   # money 3, combat 6, wit 5, speed 4
SURVEYOR = "A land surveyor"               # money 8, combat 3+d6, wit 8, speed 9
HANCOCK = "Squire Hancock"                 # money 10, combat 7, wit 8, speed 9
DAHLIA = "Schoolmistress Dahlia"           # money 10, combat 9, wit 8, speed 8
BISHOP = "The Bishop of York"              # money 6, combat 3, wit 8, speed 7
TAX = "Tax officials"                      # money 10, combat 3+d6, wit 3+d6, speed 9


class ScriptedDice:
    """Stands in for ``core.rng`` in the engine: the next d6 rolls are the ones given."""

    def __init__(self) -> None:
        self.rolls: list[int] = []

    def __getattr__(self, name):
        return getattr(real_chance, name)

    def roll_d6(self, state):
        return self.rolls.pop(0) if self.rolls else real_chance.roll_d6(state)


@pytest.fixture
def dice(monkeypatch) -> list[int]:
    scripted = ScriptedDice()
    monkeypatch.setattr(mol, "chance", scripted)
    return scripted.rolls


def new_game(players: int = 2, seed: int = 1, **options):
    return GAME.new_game({"players": players, **options}, seed)


def table(players: int = 2, coaches=(PLUM, SILK, COTTON, WILFRED), secret=((4, 1), (3, 3)), seed: int = 1):
    """A game at round 1 with these coaches at N, S, E, W and these secret dice."""
    state = new_game(players, seed)
    set_round(state, coaches, secret)
    return state


def set_round(state, coaches, secret):
    wanted = [CARD[name] for name in coaches]
    everything = state["deck"] + state["coaches"]
    state["deck"] = [card for card in everything if card not in wanted]
    state["coaches"] = wanted
    state["dice"] = [list(pair) for pair in secret[:len(state["players"])]]


def pick(state, seat, where):
    return GAME.apply(state, seat, {"do": "pick", "where": where})


def assign(state, seat, speed=(), wit=(), combat=(), spur=False):
    """Apply the legal assignment with the same contribution as the one described."""
    player = state["players"][seat]
    targets = mol.coach_targets(state, state["picks"][seat])
    wanted = solver.Assignment(spur, tuple(sorted(speed)), tuple(sorted(wit)), tuple(sorted(combat)))
    key = solver.contribution(wanted, targets["speed"], mol.horse_bonus(player))
    for action in GAME.legal_actions(state, seat):
        if action["do"] == "assign" and solver.contribution(
                solver.Assignment.from_action(action), targets["speed"], mol.horse_bonus(player)) == key:
            return GAME.apply(state, seat, action)
    raise AssertionError(f"no legal assignment like {wanted}")


def leave(state, seat):
    return GAME.apply(state, seat, {"do": "leave"})


def texts(events, seat=None):
    return [e["text"] for e in visible_events(events, seat)]


# --- the sheet's numbered round steps ---------------------------------------------------------------

def test_rule_1_four_coaches_dealt_face_up_to_the_compass_each_round():
    """Rule 1: "Deal four cards from the coach deck, one to each compass direction … Turn them over";
    every seat and the spectator see them with their money; next round brings four new ones."""
    state = new_game()
    shown = GAME.view(state, None)["coaches"]
    assert [c["at"] for c in shown] == ["N", "S", "E", "W"]
    assert all(c["money"] == COACHES[c["card"]][1] and c["name"] for c in shown)
    first = list(state["coaches"])
    pick(state, 0, "tavern")
    pick(state, 1, "market")
    leave(state, 0)
    leave(state, 1)
    assert state["round"] == 2
    assert not set(first) & set(state["coaches"]) and set(first) <= set(state["discards"])


def test_rule_1_the_log_opens_with_round_1_coaches_and_each_players_dice_to_him_alone(monkeypatch):
    """Rules 1 and 2 at the deal: the log's first line is round 1's four coaches for everyone; each
    rider's two dice are told to him alone; and these are exactly the events the deal made."""
    dealt = []
    start_round = mol.start_round
    monkeypatch.setattr(mol, "start_round", lambda state, events: (start_round(state, events), dealt.append(events)))
    for players in (1, 2):
        dealt.clear()
        state = new_game(players, seed=3)
        opening = GAME.opening_events(state)
        assert opening == dealt[0]
        coaches = "; ".join(f"{mol.DIRECTION_NAMES[d]}: {COACHES[c][0]} ({COACHES[c][1]} guineas)"
                            for d, c in zip(mol.DIRECTIONS, state["coaches"]))
        assert texts(opening) == [f"Round 1: {coaches}"]
        for seat in range(players):
            dice = state["dice"][seat]
            assert texts(opening, seat) == [f"Round 1: {coaches}", f"Your secret dice: {dice[0]} and {dice[1]}"]


def test_rule_2_each_players_two_dice_are_secret_and_so_is_the_pick():
    """Rule 2: "both players secretly roll two dice behind their hands" and place them on a choice:
    only the owner sees his dice and pick, the other player and the spectator do not."""
    state = table(secret=((6, 5), (2, 1)))
    pick(state, 0, "N")
    own, other, spectator = GAME.view(state, 0), GAME.view(state, 1), GAME.view(state, None)
    assert own["my_dice"] == [6, 5] and own["my_pick"] == "N"
    assert other["my_dice"] == [2, 1] and other["my_pick"] is None
    for seen in (other, spectator):
        assert seen["players"][0]["dice"] is None and seen["players"][0]["pick"] is None
        assert seen["players"][0]["picked"] is True
    assert "my_dice" not in spectator


def test_rule_3_dice_and_choices_are_revealed_together_and_both_go_through(dice):
    """Rule 3: "Both players now reveal their dice rolls and direction choice and must continue
    through with their plans": after the second pick everyone sees both, and each robs his coach."""
    state = table(secret=((6, 5), (2, 1)))
    pick(state, 0, "N")
    assert GAME.view(state, None)["players"][0]["pick"] is None
    dice.extend([1, 1, 6, 6])
    events = pick(state, 1, "S")
    spectator = GAME.view(state, None)
    assert [p["pick"] for p in spectator["players"]] == ["N", "S"]
    assert [p["dice"] for p in spectator["players"]] == [[6, 5], [2, 1]]
    assert any("rolled 6 and 5 and chose North" in text for text in texts(events))
    assert GAME.pending(state) == [0, 1] and state["phase"] == "rob"
    assert [action["do"] for action in GAME.legal_actions(state, 0)][:1] == ["assign"]


def test_rule_4_tracks_updated_then_round_marked_and_new_coaches(dice):
    """Rule 4: after the attack money, health and reputation are updated; if nobody is dead a round
    is marked on the tracker and four new coaches are dealt."""
    state = table(secret=((6, 5), (3, 3)))
    pick(state, 0, "N")
    dice.extend([1, 4])
    pick(state, 1, "tavern")
    assign(state, 0, speed=[6], wit=[5, 1], combat=[4])   # Example A against Lady Plum
    player = state["players"][0]
    assert (player["guineas"], player["folk_hero"], player["scoundrel"]) == (1, 1, 1)
    leave(state, 1)
    assert state["round"] == 2 and state["phase"] == "pick"


# --- rulings ------------------------------------------------------------------------------------------

def test_Y1_two_players_or_solo_and_any_seat_may_be_a_bot():
    """Y1: two players, or one playing solo against the rival; the options refuse anything else and
    every bot can take either seat."""
    assert GAME.resolve_options({})["players"] == 2
    assert GAME.seats(GAME.resolve_options({"players": 1})) == 1
    with pytest.raises(OptionError):
        GAME.resolve_options({"players": 3})
    state = new_game(1)
    assert len(state["players"]) == 1 and GAME.pending(state) == [0]
    state = new_game(2)
    for seat in (0, 1):
        assert GAME.bots["normal"](state, seat, random.Random(1)) in GAME.legal_actions(state, seat)


def test_Y2_start_at_health_12_with_nothing_and_tracks_never_below_zero(dice):
    """Y2: health 12, no guineas, no reputation, no items; folk hero cannot drop below 0 (a missed
    coach at 0 folk hero leaves 0)."""
    state = table(coaches=(HANCOCK, SILK, COTTON, WILFRED), secret=((1, 1), (3, 3)))
    assert state["players"][0] == {**mol.new_player()}
    assert mol.new_player()["health"] == 12 and mol.new_player()["weapons"] == []
    pick(state, 0, "N")
    dice.extend([1, 1])
    pick(state, 1, "tavern")
    assign(state, 0, speed=[1, 1, 1, 1])   # 4 cannot catch Squire Hancock's 9
    assert state["players"][0]["folk_hero"] == 0 and state["players"][0]["health"] == 12


def test_Y3_the_27_coaches_and_rolled_stats_shown_then_rolled_once(dice):
    """Y3: 27 coach cards as printed; an "N+d6" stat shows as text until the coach is attacked, then
    it is rolled once and both attackers face the same value."""
    assert len(COACHES) == 27
    assert COACHES[CARD["Prince Vladimir"]][1:] == (8, 8, 8, 8)
    assert COACHES[CARD["An accountant"]][1:] == (4, 3, 6, [3])
    state = table(coaches=(SURVEYOR, SILK, COTTON, WILFRED), secret=((6, 6), (6, 5)))
    assert GAME.view(state, None)["coaches"][0]["combat"] == "3+d6"
    pick(state, 0, "N")
    dice.extend([4, 6, 6])   # the combat d6, then one more die each (Y8)
    pick(state, 1, "N")
    seen = GAME.view(state, None)["coaches"][0]
    assert seen["combat"] == 7 and mol.coach_targets(state, "N")["combat"] == 7


def test_Y4_both_pick_at_once_from_seven_choices_and_reveal_when_both_have():
    """Y4: both players are asked at the same time; the picks are N, S, E, W, tavern, market, retire;
    the reveal comes only when both have picked."""
    state = new_game()
    assert GAME.pending(state) == [0, 1]
    wheres = [a["where"] for a in GAME.legal_actions(state, 0) if a["do"] == "pick"]
    assert wheres == ["N", "S", "E", "W", "tavern", "market", "retire"]
    pick(state, 1, "tavern")
    assert GAME.pending(state) == [0] and not state["revealed"]
    pick(state, 0, "market")
    assert state["revealed"]


def test_Y5_spurring_adds_one_speed_costs_health_and_forces_the_tavern(dice):
    """Y5: spurring adds +1 speed, costs 1 health, and next round the tavern is the only legal pick."""
    state = table(coaches=(COTTON, SILK, PLUM, WILFRED), secret=((2, 2), (3, 3)))
    pick(state, 0, "N")
    dice.extend([1, 1])
    pick(state, 1, "tavern")
    # 2+2 = 4 cannot catch the cotton merchant's 5 without the spur; with it, it can.
    assert any(a["spur"] and len(a["speed"]) == 2 for a in GAME.legal_actions(state, 0) if a["do"] == "assign")
    assign(state, 0, speed=[2, 2], wit=[1], combat=[1], spur=True)
    assert state["players"][0]["health"] == 12 - 1 - (5 - 1)
    leave(state, 1)
    assert [a["where"] for a in GAME.legal_actions(state, 0) if a["do"] == "pick"] == ["tavern"]
    with pytest.raises(IllegalAction) as refused:
        pick(state, 0, "N")
    assert refused.value.rule == "Y5"


def test_Y5_a_spur_that_still_misses_the_speed_is_never_offered():
    """Y5 (revised): a spur is a choice only where it lets the robber meet the speed. A case seen in play:
    seed 39 solo, North; dice 2, 1, 1, 1 against speed 8 miss with or without the spur, so only the
    plain miss is offered, and a spurred one is refused citing Y5."""
    state = new_game(players=1, seed=39)
    pick(state, 0, "N")
    assert sorted(state["rob_dice"][0]) == [1, 1, 1, 2] and mol.coach_targets(state, "N")["speed"] == 8
    assigns = [a for a in GAME.legal_actions(state, 0) if a["do"] == "assign"]
    assert assigns == [{"do": "assign", "spur": False, "speed": [1, 1, 1, 2], "wit": [], "combat": []}]
    shown = GAME.view(state, 0)
    assert [o["action"]["spur"] for o in mol.robbery_options(shown)] == [False]
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 0, {"do": "assign", "spur": True, "speed": [1, 1, 1, 2], "wit": [], "combat": []})
    assert refused.value.rule == "Y5"
    GAME.apply(state, 0, assigns[0])
    player = state["players"][0]
    assert (player["health"], player["rest_round"]) == (12, 0)  # no health lost, no forced tavern


def test_Y6_random_guards_by_d6_and_targeted_guards_at_the_pick(dice):
    """Y6: ⌊folk hero/5⌋ random guards per player, a d6 each (1 N … 4 W, 5 tavern, 6 market);
    ⌊scoundrel/5⌋ targeted guards wherever their player picked; each guard +5 combat."""
    state = table(secret=((6, 6), (6, 6)))
    state["players"][0]["folk_hero"] = 10     # two random guards
    state["players"][1]["scoundrel"] = 5      # one targeted guard
    pick(state, 0, "market")
    dice.extend([1, 5, 6, 6])                 # guards to North and the tavern, then seat 2's dice
    pick(state, 1, "N")
    assert state["guards"] == {"N": 2, "S": 0, "E": 0, "W": 0, "tavern": 1, "market": 0}
    assert mol.coach_targets(state, "N")["combat"] == 3 + 10
    assert GAME.view(state, None)["coaches"][0]["guards"] == 2


def test_Y7_robbing_alone_minimal_speed_set_and_the_outcomes(dice):
    """Y7: two more dice (four in all); the speed dice must be a minimal set; speed missed costs one
    folk hero and nothing else; wit and combat excess and shortfall as the sheet says; money when
    either is met."""
    state = table(secret=((4, 1), (3, 3)))
    pick(state, 0, "N")
    dice.extend([5, 6])
    pick(state, 1, "market")
    assert state["rob_dice"][0] == [4, 1, 5, 6]
    speeds = {tuple(a["speed"]) for a in GAME.legal_actions(state, 0) if a["do"] == "assign" and not a["spur"]}
    assert speeds == {(4,), (5,), (6,)}     # 4+1 is not minimal: the 1 can go
    assign(state, 0, speed=[5], wit=[6, 1], combat=[4])
    player = state["players"][0]
    assert (player["guineas"], player["folk_hero"], player["scoundrel"], player["health"]) == (1, 2, 1, 12)


def test_Y8_two_attackers_pool_wit_and_combat_share_changes_and_halve_the_purse(dice):
    """Y8: one more die each (three each); each must catch the coach himself; wit dice and combat
    dice pooled with both players' bonuses; same changes for both; half the money each, rounded down."""
    state = table(coaches=(WILFRED, SILK, COTTON, PLUM), secret=((4, 3), (5, 2)))
    state["players"][1]["weapons"] = ["cudgel"]
    pick(state, 0, "N")
    dice.extend([2, 1])
    pick(state, 1, "N")
    assert state["rob_dice"] == [[4, 3, 2], [5, 2, 1]]
    assign(state, 0, speed=[4], wit=[3], combat=[2])
    assert state["players"][0]["folk_hero"] == 0    # nothing happens until both have assigned
    assign(state, 1, speed=[5], wit=[2], combat=[1])
    # wit 3+2 = 5 meets 5 (+0); combat 2+1+2 (cudgel) = 5 misses 6 by 1; money 3 halves to 1 each.
    for player in state["players"]:
        assert (player["guineas"], player["folk_hero"], player["scoundrel"], player["health"]) == (1, 0, 0, 11)


def test_Y8_a_partner_who_misses_speed_leaves_the_other_robbing_alone(dice):
    """Y8: one who misses speed takes the speed penalty alone; the other resolves as a single attacker
    with his three dice and the whole purse."""
    state = table(coaches=(WILFRED, SILK, COTTON, PLUM), secret=((1, 1), (6, 5)))
    state["players"][0]["folk_hero"] = 3
    pick(state, 0, "N")
    dice.extend([1, 6])
    pick(state, 1, "N")
    assign(state, 0, speed=[1, 1, 1])                 # 3 cannot catch speed 4
    assign(state, 1, speed=[5], wit=[6], combat=[6])  # wit 6 vs 5, combat 6 vs 6
    assert state["players"][0]["folk_hero"] == 2 and state["players"][0]["guineas"] == 0
    second = state["players"][1]
    assert (second["guineas"], second["folk_hero"], second["scoundrel"]) == (3, 1, 0)


def test_Y9_town_guard_first_then_meals_capped_at_12_and_gifts(dice):
    """Y9: a guard in town is fought with a fresh d6 plus weapons against 5; then health at 2 guineas
    (tavern) or 3 (market) a point, never above 12; 3 guineas turn a scoundrel point to folk hero."""
    state = table(secret=((6, 6), (6, 6)))
    me = state["players"][0]
    me.update(guineas=20, scoundrel=6, health=10, weapons=["cudgel"])
    pick(state, 0, "tavern")
    dice.extend([6, 6, 1])    # seat 2's two dice, then seat 1's guard fight rolls 1: 1+2 vs 5 → −2 health
    pick(state, 1, "N")
    assign(state, 1, speed=[6], wit=[6], combat=[6, 6])
    assert me["health"] == 8 and state["town_rolls"][0] == 1
    GAME.apply(state, 0, {"do": "give"})
    assert (me["guineas"], me["scoundrel"], me["folk_hero"]) == (17, 5, 1)
    for _ in range(4):
        GAME.apply(state, 0, {"do": "heal"})
    assert me["health"] == 12 and me["guineas"] == 9
    assert {"do": "heal"} not in GAME.legal_actions(state, 0)
    assert not any(a["do"] == "buy" for a in GAME.legal_actions(state, 0))   # items only at the market


def test_Y10_items_part_exchange_two_hands_rifle_and_gear_once(dice):
    """Y10: one horse, upgraded at the old price − 1; two one-handed weapons, or a rifle alone, which
    trades in all carried; gear once each; nothing sold without buying."""
    state = table(secret=((6, 6), (6, 6)))
    me = state["players"][0]
    me.update(guineas=100)
    pick(state, 0, "market")
    pick(state, 1, "tavern")
    buy = lambda **a: GAME.apply(state, 0, {"do": "buy", **a})  # noqa: E731
    buy(item="pit_pony")
    buy(item="farm_horse", trade="pit_pony")
    assert me["horse"] == "farm_horse" and me["guineas"] == 100 - 5 - 6
    buy(item="cudgel")
    buy(item="dagger")
    assert not any(a.get("item") == "pistol" and "trade" not in a for a in GAME.legal_actions(state, 0))
    buy(item="pistol", trade="cudgel")
    assert sorted(me["weapons"]) == ["dagger", "pistol"] and me["guineas"] == 89 - 4 - 6 - 7
    buy(item="rifle")                          # dagger (5) and pistol (9) credited: no change given
    assert me["weapons"] == ["rifle"] and me["guineas"] == 72
    assert not any(a.get("item") in mol.ONE_HANDED for a in GAME.legal_actions(state, 0))
    buy(item="mask")
    assert not any(a.get("item") == "mask" for a in GAME.legal_actions(state, 0))
    assert not any(a["do"] in ("sell", "trade") for a in GAME.legal_actions(state, 0))
    GAME.check_invariants(state)


def test_Y11_robberies_then_town_then_deaths_end_the_game(dice):
    """Y11: reveal, guards, all robberies, then town visits, then deaths: the town visit still happens
    after the other player dies robbing, and then the game ends with the survivor winning."""
    state = table(coaches=(DAHLIA, SILK, COTTON, PLUM), secret=((1, 1), (6, 6)))
    state["players"][0]["health"] = 3
    pick(state, 0, "N")
    dice.extend([6, 6])
    pick(state, 1, "tavern")
    assert state["phase"] == "rob"                            # the robbery comes before the town
    assign(state, 0, speed=[1, 1, 6], wit=[], combat=[6])     # combat 6 vs 9: −3 health, dead
    assert state["players"][0]["status"] == "dead" and state["phase"] == "town"
    leave(state, 1)
    result = GAME.result(state)
    assert result["winners"] == [1] and state["phase"] == "over"
    assert result["summary"].startswith("Seat 2 wins as the one left alive (Y11): ")  # whatever the scores


def test_Y11_both_dead_the_higher_reputation_wins():
    """Y11/Y13: if both hang, the winner is the higher reputation (folk hero − scoundrel); equal is a draw."""
    state = new_game()
    for player, (folk, scoundrel) in zip(state["players"], ((4, 1), (2, 0))):
        player.update(health=0, status="dead", folk_hero=folk, scoundrel=scoundrel, guineas=50 - 40 * folk)
    state["phase"] = "over"
    result = GAME.result(state)
    assert result["winners"] == [0] and result["scores"] == [-107, -28]  # the lower score wins here
    # The line says what decided it: "bob wins: bob 3 (dead), Hank 5 (dead)" would read as a wrong result
    assert "Both highwaymen hanged" in result["summary"] and "Seat 1 wins on reputation, +3 to +2" in result["summary"]
    state["players"][0]["folk_hero"] = 3
    result = GAME.result(state)
    assert result["winners"] == [0, 1] and "a draw on reputation, +2 to +2" in result["summary"]


def test_Y12_the_game_ends_after_the_last_round_and_the_deck_reshuffles():
    """Y12: the game ends after round 16 (the option), and an empty draw pile takes the discards."""
    state = new_game(rounds=16)
    seen = set()
    while state["phase"] != "over":
        seen.update(state["coaches"])
        for seat in GAME.pending(state):
            if state["phase"] == "pick":
                pick(state, seat, "tavern")
            else:
                leave(state, seat)
    assert state["round"] == 16
    assert len(seen) == 27     # 64 coaches dealt from a 27-card deck: it was reshuffled
    short = new_game(rounds=3)
    assert short["rounds"] == 3


def test_Y13_score_and_playing_as_scoundrel():
    """Y13: guineas + folk hero − scoundrel; after the public, irreversible declaration, guineas +
    scoundrel − folk hero."""
    state = new_game()
    me = state["players"][0]
    me.update(guineas=10, folk_hero=3, scoundrel=7)
    assert mol.score(me) == 6
    events = GAME.apply(state, 0, {"do": "play_as_scoundrel"})
    assert mol.score(me) == 14 and texts(events, None)
    assert GAME.view(state, 1)["players"][0]["as_scoundrel"] is True
    assert {"do": "play_as_scoundrel"} not in GAME.legal_actions(state, 0)


def test_Y14_retiring_freezes_the_score_and_the_other_plays_on():
    """Y14: a player who retires takes no further part; his score stays; the other plays on."""
    state = new_game()
    state["players"][0]["guineas"] = 9
    pick(state, 0, "retire")
    pick(state, 1, "tavern")
    leave(state, 1)
    assert state["players"][0]["status"] == "retired"
    assert GAME.pending(state) == [1] and state["round"] == 2
    while state["phase"] != "over":
        seat = GAME.pending(state)[0]
        pick(state, seat, "tavern") if state["phase"] == "pick" else leave(state, seat)
    assert state["round"] == 16 and GAME.result(state)["scores"] == [9, 0]
    assert GAME.result(state)["winners"] == [0]


def test_Y15_both_on_one_coach_both_resolve_before_a_death_counts(dice):
    """Y15: both on the same coach, one dies: both robberies resolve (same changes), deaths after."""
    state = table(coaches=(DAHLIA, SILK, COTTON, PLUM), secret=((6, 3), (6, 3)))
    state["players"][0]["health"] = 2
    pick(state, 0, "N")
    dice.extend([1, 1])
    pick(state, 1, "N")
    assign(state, 0, speed=[6, 3], wit=[1])
    assign(state, 1, speed=[6, 3], wit=[1])
    # wit 2 vs 8 (−6 folk hero); combat 0 vs 9: −9 health for both.
    assert [p["health"] for p in state["players"]] == [0, 3]
    assert GAME.result(state)["winners"] == [1]


def test_Y16_the_solo_rival_wakes_in_round_5_and_takes_the_richest_coach_left(dice):
    """Y16: from round 5 the rival goes for the richest coach the player did not pick, ties to the
    lowest printed combat ("N+d6" as N), and banks it if 2d6 is strictly above its combat."""
    state = new_game(1)
    for _ in range(4):
        pick(state, 0, "tavern")
        leave(state, 0)
    assert state["rival"] == 0 and state["round"] == 5
    set_round(state, (HANCOCK, TAX, DAHLIA, BISHOP), ((6, 6),))
    pick(state, 0, "tavern")
    # Tax officials (10, combat "3+d6" counts as 3) win the tie against Hancock (7) and Dahlia (9):
    # their combat rolls 3 + 3 = 6, the rival's 2d6 are 4 + 6 = 10, above it.
    dice.extend([3, 4, 6])
    events = leave(state, 0)
    assert state["rival"] == 10 and state["rival_log"] == [10]
    assert any("Tax officials" in text for text in texts(events))


def test_Y16_the_rival_must_roll_strictly_above_and_skips_the_players_coach(dice):
    """Y16: the player's pick is not available to the rival; an equal 2d6 banks nothing."""
    state = new_game(1)
    for _ in range(4):
        pick(state, 0, "tavern")
        leave(state, 0)
    set_round(state, (HANCOCK, SILK, DAHLIA, BISHOP), ((1, 1),))
    dice.extend([1, 1, 4, 5])     # the player's two dice, then the rival's 2d6
    pick(state, 0, "N")           # Hancock is the player's, so the rival goes for Dahlia (10, combat 9)
    assign(state, 0, speed=[1, 1, 1, 1])
    assert state["rival"] == 0 and state["rival_log"] == [0]    # 4 + 5 = 9 is not above 9


def test_Y16_the_player_wins_above_the_rival_and_reads_the_epilogue():
    """Y16: the player wins with a score strictly above the rival's money; the sheet's epilogue line
    for his score is shown, bands starting at their lower bound."""
    state = new_game(1, rounds=5)  # the shortest solo game (Y16): the rival rides once, here in vain
    state["players"][0]["guineas"] = 45
    while state["phase"] != "over":
        pick(state, 0, "tavern") if state["phase"] == "pick" else leave(state, 0)
    assert state["rival_log"] == [0]
    result = GAME.result(state)
    assert result["winners"] == [0] and result["scores"] == [45]
    assert result["epilogue"] == "You lived comfortably but in hiding for several years before they found you"
    # One subject, and each sentence ends in a full stop
    assert result["summary"] == ("Seat 1 scored 45 and beats the rival's 0 guineas. The sheet's epilogue: You "
                                 "lived comfortably but in hiding for several years before they found you.")
    assert mol.epilogue(19) == "Who were you again?"
    assert mol.epilogue(20).startswith("It would have been better")
    assert mol.epilogue(80).startswith("Your epic story")
    assert GAME.stats(state)["epilogue"] == "40-49: " + result["epilogue"]
    assert GAME.stats(state)["beat_rival"] == 1
    assert mol.epilogue_band(-3).startswith("..19: Who") and mol.epilogue_band(95).startswith("80+: Your epic")


def test_Y16_a_solo_game_too_short_for_the_rival_is_refused_with_the_reason():
    """Y16 (our reading): the rival rides from round 5, so a solo game of fewer rounds could not be lost;
    the option is refused, saying why (a duel of any length stands)."""
    for rounds in (1, 4):
        with pytest.raises(OptionError, match=r"a solo game needs at least 5 rounds: the rival rides from "
                                              rf"round 5 \(Y16\), and with rounds={rounds} he would never ride"):
            GAME.resolve_options({"players": 1, "rounds": rounds})
    assert GAME.resolve_options({"players": 1, "rounds": 5})["rounds"] == 5
    assert GAME.resolve_options({"players": 2, "rounds": 1})["rounds"] == 1
    assert "A solo game has at least 5 rounds" in GAME.rules_text


def test_Y16_retiring_solo_does_not_stop_the_rival():
    """Y16/Y14 (our reading): a solo player who retires freezes his score, and the rival plays the
    remaining rounds, so retiring before the rival wakes is no sure win."""
    state = new_game(1, seed=3)
    pick(state, 0, "retire")
    assert state["phase"] == "over" and len(state["rival_log"]) == 12


# --- the log: every robbery line lets a reader check the arithmetic ----------------------------

def test_Y7_Y6_robbery_line_shows_dice_items_guards_target_and_changes(dice):
    """Y7 with Y6: the line shows each die, each item's bonus by name, the coach's combat with +5 for the
    guard, what was met or missed by how much, the changes and the money; the tracks agree with it."""
    state = table(coaches=(PLUM, SILK, COTTON, WILFRED), secret=((4, 1), (3, 3)))
    me = state["players"][0]
    me.update(horse="pit_pony", gear=["mask"], weapons=["cudgel"], scoundrel=5)
    pick(state, 0, "N")
    dice.extend([5, 6])
    events = pick(state, 1, "market")
    assert "1 guard is hunting Seat 1 at North (Y6)" in texts(events)
    events = assign(state, 0, speed=[4], wit=[1], combat=[5, 6])
    assert ("Seat 1 robs Lady Plum and her groom (North): speed 4 + retired pit pony 2 = 6 against 4, caught; "
            "wit 1 + mask 2 = 3 against 5, missed by 2: -2 folk hero (to 0); "
            "combat 5+6 + cudgel 2 = 13 against 3 + 5 for 1 guard = 8, met by 5: +5 scoundrel; "
            "takes 1 guinea.") in texts(events)
    assert (me["guineas"], me["folk_hero"], me["scoundrel"], me["health"]) == (1, 0, 10, 12)


def test_Y7_Y5_a_missed_speed_and_a_spur_are_spelled_out(dice):
    """Y7: a coach that gets away costs one folk hero; Y5: the spur's +1 is in the sum, and its health
    point and the tavern next round are said."""
    state = table(coaches=(COTTON, SILK, PLUM, WILFRED), secret=((2, 2), (1, 1)))
    pick(state, 0, "N")
    dice.extend([1, 1, 1, 1])
    pick(state, 1, "S")
    events = assign(state, 0, speed=[2, 2], wit=[1], combat=[1], spur=True)
    assert ("Seat 1 robs A cotton merchant (North): speed 2+2 + spur 1 = 5 against 5, caught; "
            "wit 1 against 4, missed by 3: -3 folk hero (to 0); combat 1 against 5, missed by 4: -4 health; "
            "no money: wit and combat both missed; Seat 1 spurred: -1 health, and rests at the tavern next "
            "round (Y5).") in texts(events)
    events = assign(state, 1, speed=[1, 1, 1], wit=[1])
    assert ("Seat 2 robs A silk merchant (South): speed 1+1+1 = 3 against 3, caught; wit 1 against 4, "
            "missed by 3: -3 folk hero (to 0); combat 0 (no dice) against 5, missed by 5: -5 health; "
            "no money: wit and combat both missed.") in texts(events)
    state = table(coaches=(HANCOCK, SILK, PLUM, WILFRED), secret=((1, 1), (3, 3)))
    pick(state, 0, "N")
    dice.extend([1, 2])
    pick(state, 1, "market")
    state["players"][0]["folk_hero"] = 3  # (at 0 the line says the loss stops there: "(Y7, to 0)", Y8's test)
    events = assign(state, 0, speed=[1, 1, 1, 2])
    assert ("Seat 1 robs Squire Hancock (North): speed 1+1+1+2 = 5 against 9, the coach gets away: "
            "-1 folk hero (Y7).") in texts(events)


def test_Y8_shared_coach_line_shows_each_chase_and_the_pooled_totals(dice):
    """Y8: each robber's own speed, then the pooled wit and combat with both players' items, the changes
    both take, and the purse halved, rounded down."""
    state = table(coaches=(WILFRED, SILK, COTTON, PLUM), secret=((4, 3), (5, 2)))
    state["players"][1]["weapons"] = ["cudgel"]
    pick(state, 0, "N")
    dice.extend([2, 1])
    pick(state, 1, "N")
    assign(state, 0, speed=[4], wit=[3], combat=[2])
    events = assign(state, 1, speed=[5], wit=[2], combat=[1])
    assert texts(events)[:3] == [
        "Seat 1 goes for Sir Wilfred and his mistress (North): speed 4 against 4, caught.",
        "Seat 2 goes for Sir Wilfred and his mistress (North): speed 5 against 4, caught.",
        "Seat 1 and Seat 2 rob Sir Wilfred and his mistress together (Y8), pooling dice and items: "
        "wit 3 (Seat 1) + 2 (Seat 2) = 5 against 5, met by 0: +0 folk hero each; "
        "combat 2 (Seat 1) + 1 (Seat 2) + cudgel 2 (Seat 2) = 5 against 6, missed by 1: -1 health each; "
        "3 guineas shared: 1 guinea each (half, rounded down)."]


def test_Y8_pooled_wit_missed_says_whose_folk_hero_stops_at_0(dice):
    """Y8 with Y2: a pooled wit that misses costs each robber the shortfall, and the line says whose
    track stops at 0, as a lone robber's line does; the board's entry keeps the folk hero each had."""
    state = table(coaches=(WILFRED, SILK, COTTON, PLUM), secret=((4, 1), (5, 1)))
    state["players"][1]["folk_hero"] = 4  # (5 would bring a guard, Y6, and take a scripted die)
    pick(state, 0, "N")
    dice.extend([1, 1])
    pick(state, 1, "N")
    assign(state, 0, speed=[4], wit=[1], combat=[1])
    events = assign(state, 1, speed=[5], wit=[1], combat=[1])
    assert "= 2 against 5, missed by 3: -3 folk hero each (Seat 1: to 0);" in texts(events)[2]
    assert [(entry["seat"], entry["folk_hero_was"]) for entry in state["last"]] == [(0, 0), (1, 4)]
    assert [player["folk_hero"] for player in state["players"]] == [0, 1]


def test_Y8_when_one_misses_the_speed_the_line_says_the_other_robs_alone_with_the_whole_purse(dice):
    """Y8: the one who misses takes the speed penalty alone; the other's line is a lone robbery."""
    state = table(coaches=(WILFRED, SILK, COTTON, PLUM), secret=((1, 1), (6, 5)))
    pick(state, 0, "N")
    dice.extend([1, 6])
    pick(state, 1, "N")
    assign(state, 0, speed=[1, 1, 1])
    events = assign(state, 1, speed=[5], wit=[6], combat=[6])
    assert texts(events)[:2] == [
        "Seat 1 goes for Sir Wilfred and his mistress (North): speed 1+1+1 = 3 against 4, the coach gets "
        "away: -1 folk hero (Y7, to 0).",
        "Seat 2 robs Sir Wilfred and his mistress (North) alone, with the whole purse (Y8): speed 5 against 4, "
        "caught; wit 6 against 5, met by 1: +1 folk hero; combat 6 against 6, met by 0: +0 scoundrel; "
        "takes 3 guineas."]


def test_Y8_the_one_who_missed_the_speed_is_told_before_the_other_robs_alone(dice):
    """Y8: whichever seat missed, its chase is told first and then why the other robs alone: "robs alone,
    with the whole purse" never comes before the miss that caused it."""
    state = table(coaches=(WILFRED, SILK, COTTON, PLUM), secret=((6, 5), (1, 1)))
    pick(state, 0, "N")
    dice.extend([6, 1])
    pick(state, 1, "N")
    assign(state, 0, speed=[5], wit=[6], combat=[6])
    events = assign(state, 1, speed=[1, 1, 1])
    lines = texts(events)[:2]
    assert lines[0].startswith("Seat 2 goes for Sir Wilfred and his mistress (North): speed 1+1+1 = 3 against 4")
    assert lines[1].startswith("Seat 1 robs Sir Wilfred and his mistress (North) alone, with the whole purse")


def test_Y9_town_fight_line_shows_the_weapon_bonus(dice):
    """Y9: the town fight's d6 plus each weapon against 5 a guard, and the health lost."""
    state = table(secret=((6, 6), (6, 6)))
    state["players"][0].update(scoundrel=6, weapons=["cudgel"])
    pick(state, 0, "tavern")
    dice.extend([6, 6, 1])
    said = texts(pick(state, 1, "N"))
    assert "Seat 1 rolled 6 and 6 and chose the tavern" in said
    assert "1 guard is hunting Seat 1 at the tavern (Y6)" in said
    events = assign(state, 1, speed=[6], wit=[6], combat=[6, 6])
    assert "Seat 1 meets 1 guard in the tavern (Y9): rolls 1 + cudgel 2 = 3 against 5, loses 2 health." \
        in texts(events)


def test_Y3_a_rolled_stat_is_announced_with_its_die_and_round_lines_agree_in_number(dice):
    """Y3: "N+d6" is announced as rolled, with the die; a purse of 1 is "1 guinea"."""
    state = table(coaches=(SURVEYOR, PLUM, COTTON, WILFRED), secret=((6, 6), (3, 3)))
    assert "South: Lady Plum and her groom (1 guinea)" in texts(GAME.opening_events(state))[0]
    pick(state, 0, "N")
    dice.extend([4, 1, 1])
    events = pick(state, 1, "market")
    assert "A land surveyor: combat 3+d6 rolled 3+4 = 7 (Y3)" in texts(events)


def test_Y16_the_rivals_rolled_combat_is_announced_and_his_lone_rounds_have_their_round_lines(dice):
    """Y16: the rival's "N+d6" combat is announced as rolled, his 2d6 shown; after a solo retirement
    each of the rival's rounds opens with its "Round N" line and coaches."""
    state = new_game(1)
    for _ in range(4):
        pick(state, 0, "tavern")
        leave(state, 0)
    set_round(state, (HANCOCK, TAX, DAHLIA, BISHOP), ((6, 6),))
    pick(state, 0, "tavern")
    dice.extend([3, 4, 6])
    said = texts(leave(state, 0))
    assert "Tax officials: combat 3+d6 rolled 3+3 = 6 (Y3)" in said
    assert ("The rival goes for Tax officials (South), the richest coach left (Y16): rolls 4+6 = 10 against "
            "combat 6, above it: takes 10 guineas (rival: 10)") in said
    state = new_game(1, seed=3)
    said = texts(pick(state, 0, "retire"))
    for number in range(2, 17):
        assert any(text.startswith(f"Round {number}: North: ") for text in said), number
    assert sum(text.startswith("The rival goes for") for text in said) == 12


def test_Y10_the_rules_text_item_table_is_the_items_the_market_sells():
    """Y10: ``turpin rules money-or-life`` lists every item with the price and bonus the engine uses."""
    import re

    for item, (kind, price, bonus) in mol.ITEMS.items():
        stat = {"horse": "speed", "weapon": "combat", "gear": "wit"}[kind]
        row = re.search(rf"{re.escape(mol.item_name(item))}(?: \(two hands\))?\s+(\d+)\s+\+(\d+) (\w+)",
                        mol.RULES_TEXT)
        assert row and row.groups() == (str(price), str(bonus), stat), item


def test_Y5_Y8_Y14_Y16_the_rules_text_says_what_the_code_does():
    """The rules text covers the spur only where it catches (Y5), the partner who misses leaving the other
    alone with the whole purse and the pooled items (Y8), retiring (Y14) and the rival's tie-break (Y16)."""
    text = " ".join(mol.RULES_TEXT.split())
    for words in ("a spur is offered only where it lets you catch the coach",
                  "the other robs as if alone, with his three dice and the whole purse",
                  "the pooled values add both players' gear and weapons",
                  "Retiring (Y14) ends your game at once with your score frozen",
                  "on equal money, the one with the lowest printed combat, \"N+d6\" counting as N",
                  "If you retire, he plays on alone to the last round"):
        assert words in text, words


# --- the normal bot -----------------------------------------------------------------------------------

def test_normal_bot_gives_to_the_poor_when_guards_hunt_it():
    """The normal bot, playing as a folk hero (a big folk-hero lead: declaring as a scoundrel would cost it,
    Y13), gives to the poor until its scoundrel track drops under the guard line."""
    state = table(secret=((6, 6), (6, 6)))
    state["players"][0].update(guineas=12, scoundrel=6, folk_hero=20)
    pick(state, 0, "tavern")
    pick(state, 1, "tavern")
    while 0 in GAME.pending(state):
        GAME.apply(state, 0, GAME.bots["normal"](state, 0, random.Random(1)))
    assert state["players"][0]["scoundrel"] == 4


def test_normal_bot_retires_to_lock_in_a_win_over_a_retired_rival():
    """With the other player retired on a lower score, the normal bot retires at once (once it has
    declared as a scoundrel, Y13, which it does first from an even start: it costs nothing then)."""
    state = new_game()
    state["players"][1]["status"] = "retired"
    state["players"][0].update(guineas=5, as_scoundrel=True)
    assert GAME.bots["normal"](state, 0, random.Random(1)) == {"do": "pick", "where": "retire"}


def test_normal_bot_prefers_a_rich_easy_coach():
    """With a strong roll it robs rather than idling in town."""
    state = table(coaches=(PLUM, SILK, "A grain merchant", WILFRED), secret=((6, 6), (1, 1)))
    state["players"][0]["as_scoundrel"] = True  # (declared already: Y13 is the bot's first choice otherwise)
    action = GAME.bots["normal"](state, 0, random.Random(1))
    assert action["where"] in mol.DIRECTIONS


def test_the_market_names_what_it_sells_as_people_say_it():
    """Y9's market in words: "Buy a dagger", "Buy riding boots" (never "a riding boots")."""
    assert mol.an_item("dagger") == "a dagger" and mol.an_item("pit_pony") == "a retired pit pony"
    assert mol.an_item("riding_boots") == "riding boots"
    state = GAME.setup(GAME.resolve_options({"players": 1}), 1)
    assert GAME.describe_action(state, 0, {"do": "buy", "item": "riding_boots"}) == "Buy riding boots"
    assert GAME.describe_action(state, 0, {"do": "buy", "item": "dagger"}) == "Buy a dagger"


def test_Y5_a_spur_the_speed_dice_do_not_need_is_refused_citing_Y5():
    """Y5: a spur is a choice only where it lets the robber meet the speed. Whatever the dice, a spurred
    assignment whose speed dice and horse meet the coach without it is not offered, and a client that
    sends one is refused with Y5 and nothing changes."""
    for seed in range(1, 60):
        state = new_game(players=1, seed=seed)
        pick(state, 0, "N")
        speed = mol.coach_targets(state, "N")["speed"] - mol.horse_bonus(state["players"][0])
        dice = sorted(state["rob_dice"][0])
        meets = next((die for die in dice if die >= speed > 0), None)
        if meets is None:
            continue
        offered = [a for a in GAME.legal_actions(state, 0) if a["do"] == "assign"]
        assert not any(a["spur"] and sum(a["speed"]) >= speed for a in offered)
        rest = list(dice)
        rest.remove(meets)
        needless = {"do": "assign", "spur": True, "speed": [meets], "wit": rest, "combat": []}
        before = GAME.view(state, 0)
        with pytest.raises(IllegalAction) as refused:
            GAME.apply(state, 0, needless)
        assert refused.value.rule == "Y5" and GAME.view(state, 0) == before
        return
    raise AssertionError("no robbery where one die meets the speed in these seeds")


def test_Y10_a_rifle_says_it_trades_in_every_weapon_and_a_horse_the_old_one():
    """Y10: a rifle takes both hands, so it trades in every weapon carried; a better horse takes the old
    one. The move and the log say what goes: "Buy a rifle" does not take a cudgel and a dagger unsaid."""
    state = new_game()
    player = state["players"][0]
    player.update(weapons=["cudgel", "dagger"], horse="pit_pony", guineas=30)
    state["phase"], state["picks"][0], state["shopping"] = "town", "market", [True, False]
    rifle = {"do": "buy", "item": "rifle"}
    assert rifle in GAME.legal_actions(state, 0)
    assert GAME.describe_action(state, 0, rifle) == "Buy a rifle, trading in the cudgel and the dagger"
    horse = next(a for a in GAME.legal_actions(state, 0) if a.get("item") == "warhorse")
    assert GAME.describe_action(state, 0, horse) == "Buy a warhorse, trading in the retired pit pony"
    events = GAME.apply(state, 0, rifle)
    assert "buys a rifle for" in texts(events)[0] and texts(events)[0].endswith("trading in the cudgel and the dagger")
    assert player["weapons"] == ["rifle"]


def test_Y4_a_secret_pick_is_told_to_the_others_as_chosen_and_to_the_picker_as_where():
    """The others learn that a rider has chosen (where to ride, not where); the rider reads where."""
    state = table()
    events = pick(state, 0, "N")
    assert texts(events, 1) == ["Seat 1 has chosen where to ride."]
    assert texts(events, None) == ["Seat 1 has chosen where to ride."]
    assert texts(events, 0)[-1] == "You chose North"


def test_Y7_dice_that_can_catch_the_coach_must_catch_it_and_the_rules_say_so():
    """The sheet: "you must assign dice in order to attempt this, even if this leaves you short for wit and
    combat". No assignment that lets a catchable coach escape is offered; the rules summary says so."""
    from core.games.money_or_life import solver
    for dice, speed in (((1, 2, 3, 6), 5), ((4, 4, 1, 1), 8), ((2, 2, 2, 2), 4)):
        offered = solver.choices(dice, speed)
        assert offered and all(sum(choice.speed) + choice.spur >= speed for choice in offered), (dice, speed)
    hopeless = solver.choices((1, 1, 1, 1), 9)  # cannot be caught: every die goes to the attempt, and it escapes
    assert [(choice.speed, choice.wit, choice.combat) for choice in hopeless] == [((1, 1, 1, 1), (), ())]
    summary = " ".join(mol.RULES_TEXT.split())
    assert "you cannot let a coach escape on purpose" in summary


def test_Y10_a_rifle_bought_with_two_pistols_trades_in_both_pistols_in_words():
    """"Trading in both pistols", never "trading in the pistol and the pistol"."""
    assert mol.trading_in(["pistol", "pistol"]) == ", trading in both pistols"
    assert mol.trading_in(["pistol", "dagger"]) == ", trading in the pistol and the dagger"
    assert mol.trading_in([]) == ""
