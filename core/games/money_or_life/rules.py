"""Your Money or Your Life: a risky roll-and-write for two highway robbers, or one against a rival.

Read it next to the rule sheet and rulings Y1–Y16 (written out in docs/rules.md). The module follows the round:
the game's facts (coaches, items, guards), set-up, the secret pick and its reveal (Y4, Y6), robberies
(Y7, Y8, through ``solver.py``), the town (Y9, Y10), the end of a round (Y11, Y12, Y16),
then scoring and the views. ``__init__.py`` builds the ``GAME`` from these functions.

State, as plain data: ``players`` (one dict per seat), the four ``coaches`` (card numbers, N S E W), the
face-down ``deck`` and the face-up ``discards``, and per round the secret ``dice`` and ``picks``, the
``guards`` by place, each robber's ``rob_dice`` and the stats rolled for "N+d6" coaches.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from core import rng as chance
from core.engine import (
    Action,
    Event,
    IllegalAction,
    Narration,
    Option,
    OptionError,
    State,
    View,
    clone,
    event,
    no_chance_drawn,
    quantity,
    seat_name,
)
from core.games.money_or_life import solver, words

# --- The game's facts ---------------------------------------------------------------------------------

#: The 27 coach cards printed on the sheet (Y3): name, money, combat, wit, speed. A stat given as
#: ``[n]`` is printed "n + roll d6" and is rolled once when that coach is attacked.
COACHES: tuple[tuple[str, int, Any, Any, Any], ...] = (
    ("Sir Wilfred and his mistress", 3, 6, 5, 4),
    ("A cotton merchant", 2, 5, 4, 5),
    ("Lady Plum and her groom", 1, 3, 5, 4),
    ("The Earl of Trumpton", 2, 4, 5, 5),
    ("A grain merchant", 6, 6, 7, 6),
    ("Squire Hancock", 10, 7, 8, 9),
    ("Baroness Johnson", 2, 5, 4, 5),
    ("Lord and Lady Green's gamekeeper", 7, 7, 7, 6),
    ("A silk merchant", 1, 5, 4, 3),
    ("Graphite delivery", 5, 5, 6, 6),
    ("A livestock merchant", 4, 5, 5, 6),
    ("Prince Vladimir", 8, 8, 8, 8),
    ("Government advisors", 2, 4, 5, 6),
    ("A town official", 8, 8, 7, 8),
    ("Schoolmistress Dahlia", 10, 9, 8, 8),
    ("The Earl of Ripon", 3, 6, 5, 6),
    ("A wealthy trader", 7, 5, 8, 7),
    ("Captain Farrell", 6, 8, 6, 7),
    ("Postal carriage", 8, 8, 6, 7),
    ("A land surveyor", 8, [3], 8, 9),
    ("A wealthy landowner", 7, [3], 5, 7),
    ("Tax officials", 10, [3], [3], 9),
    ("A mine owner", 3, 5, 6, 4),
    ("A lawyer", 4, 3, [5], 5),
    ("The Bishop of York", 6, 3, 8, 7),
    ("Lord and Lady Heath", 8, [4], 7, 8),
    ("An accountant", 4, 3, 6, [3]),
)
STATS = ("combat", "wit", "speed")

DIRECTIONS = ("N", "S", "E", "W")
DIRECTION_INDEX = {where: index for index, where in enumerate(DIRECTIONS)}
DIRECTION_NAMES = {"N": "North", "S": "South", "E": "East", "W": "West"}
TOWN = ("tavern", "market")
PICKS = (*DIRECTIONS, *TOWN, "retire")
#: Y6: where a random guard goes, by its d6.
GUARD_PLACES = {1: "N", 2: "S", 3: "E", 4: "W", 5: "tavern", 6: "market"}
#: Every place a guard may stand, in the order the state lists them.
GUARDED = (*DIRECTIONS, *TOWN)
GUARD_STRENGTH = 5
GUARD_STEP = 5  # a guard per 5 points on a track

MAX_HEALTH = 12
HEAL_PRICE = {"tavern": 2, "market": 3}
GIFT_PRICE = 3
RIVAL_WAKES = 5

#: Y10: name → (kind, price, bonus). One-handed weapons may be carried two at once; the rifle alone.
ITEMS: dict[str, tuple[str, int, int]] = {
    "pit_pony": ("horse", 5, 2), "farm_horse": ("horse", 10, 4), "warhorse": ("horse", 15, 6),
    "cudgel": ("weapon", 4, 2), "dagger": ("weapon", 6, 3), "rapier": ("weapon", 8, 4),
    "pistol": ("weapon", 10, 5), "rifle": ("weapon", 12, 6),
    "mask": ("gear", 6, 2), "black_cloak": ("gear", 6, 2), "riding_boots": ("gear", 8, 3),
}
ITEM_NAMES = {"pit_pony": "retired pit pony", "farm_horse": "farm horse", "warhorse": "warhorse",
              "black_cloak": "black cloak", "riding_boots": "riding boots"}
ONE_HANDED = ("cudgel", "dagger", "rapier", "pistol")
HORSES = ("pit_pony", "farm_horse", "warhorse")
GEAR = ("mask", "black_cloak", "riding_boots")

#: The sheet's epilogue table for a final score (solo, Y16).
EPILOGUE = (
    (20, "Who were you again?"),
    (30, "It would have been better to take that job with the miller"),
    (40, "You had to live life permanently on the run, always looking over your shoulder"),
    (50, "You lived comfortably but in hiding for several years before they found you"),
    (60, "You managed to live in wealth and comfort for many years before they found you"),
    (70, "You lived in freedom for years. When you were captured, there was a popular outcry."),
    (80, "Your public hanging draws one of the biggest crowds ever seen at the scaffold"),
    (None, "Your epic story is immortalised in songs performed for many years to come"),
)


def item_name(item: str) -> str:
    return ITEM_NAMES.get(item, item)


def an_item(item: str) -> str:
    """The item as a purchase is said: "a dagger", "an ...", and riding boots without an article."""
    name = item_name(item)
    if name.endswith("boots"):
        return name
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def epilogue(score: int) -> str:
    """The sheet's line for a final score: "<20", "20-30", … "80+" (a boundary starts the next band)."""
    for below, line in EPILOGUE:
        if below is None or score < below:
            return line
    raise AssertionError("unreachable")


def epilogue_band(score: int) -> str:
    """The epilogue line with its band of scores, "..19: Who were you again?", "40-49: …", "80+: …"
    (so the simulator's counts sort in score order)."""
    low = None
    for below, line in EPILOGUE:
        if below is None or score < below:
            if below is None:
                return f"{low}+: {line}"
            return f"{'..' if low is None else f'{low}-'}{below - 1}: {line}"
        low = below
    raise AssertionError("unreachable")


def coach_money(card: int) -> int:
    return COACHES[card][1]


#: Per card, each stat as printed, an "N+d6" counting as N (Y16's tie-break), in ``STATS`` order.
PRINTED_STATS = tuple({stat: value[0] if isinstance(value, list) else value for stat, value in zip(STATS, coach[2:])}
                      for coach in COACHES)
#: Per card, the stats printed "N+d6" (Y3), in ``STATS`` order.
ROLLED_STATS = tuple(tuple(stat for stat, value in zip(STATS, coach[2:]) if isinstance(value, list))
                     for coach in COACHES)


def coach_stat_text(card: int, stat: str) -> str:
    value = COACHES[card][2 + STATS.index(stat)]
    return f"{value[0]}+d6" if isinstance(value, list) else str(value)


def printed_stat(card: int, stat: str) -> int:
    """The stat as printed, an "N+d6" counting as N (Y16's tie-break)."""
    return PRINTED_STATS[card][stat]


def stat_is_rolled(card: int, stat: str) -> bool:
    return stat in ROLLED_STATS[card]


# --- Players ------------------------------------------------------------------------------------------

def new_player() -> dict[str, Any]:
    """Y2: health 12, nothing else."""
    return {"health": MAX_HEALTH, "guineas": 0, "folk_hero": 0, "scoundrel": 0, "horse": None,
            "weapons": [], "gear": [], "as_scoundrel": False, "status": "riding", "rest_round": 0,
            "robberies": 0, "attempts": 0}


def score(player: dict[str, Any]) -> int:
    """Y13: guineas + folk hero − scoundrel, or + scoundrel − folk hero when playing as scoundrel."""
    return player["guineas"] + reputation(player)


def signed(number: int, plus: bool = True) -> str:
    """+3, 0, −2: a reputation as the results say it (3, 0, −2 without ``plus``: a score), with a true
    minus sign, not a hyphen."""
    return f"{number:+d}".replace("-", "−") if number < 0 or plus and number else str(number)


def reputation(player: dict[str, Any]) -> int:
    """Y13: the score without the guineas (decides who wins when both hang)."""
    if player["as_scoundrel"]:
        return player["scoundrel"] - player["folk_hero"]
    return player["folk_hero"] - player["scoundrel"]


#: Y10: each item's bonus, to add up a player's items in one call.
BONUS = {item: bonus for item, (_, _, bonus) in ITEMS.items()}


def horse_bonus(player: dict[str, Any]) -> int:
    return ITEMS[player["horse"]][2] if player["horse"] else 0


def wit_bonus(player: dict[str, Any]) -> int:
    return sum(map(BONUS.__getitem__, player["gear"]))


def combat_bonus(player: dict[str, Any]) -> int:
    return sum(map(BONUS.__getitem__, player["weapons"]))


# The lists of seats asked at every action or round (who rides, who is to move) are built by loops, not
# comprehensions: on Python 3.11 a comprehension is a function call of its own, and for two seats that call
# costs more than the loop.

def riding(state: State) -> list[int]:
    seats = []
    for seat, player in enumerate(state["players"]):
        if player["status"] == "riding":
            seats.append(seat)
    return seats


def must_rest(state: State, seat: int) -> bool:
    """Y5: a player who spurred last round must go to the tavern this round."""
    return state["players"][seat]["rest_round"] == state["round"]


def change_tracks(player: dict[str, Any], folk_hero: int = 0, scoundrel: int = 0, health: int = 0) -> None:
    """Y2: folk hero and scoundrel never below 0; health between 0 (dead) and 12."""
    # Conditionals rather than max and min: every robbery, fight and meal comes here, and on Python 3.11
    # a call of the builtin max costs several times the comparison.
    value = player["folk_hero"] + folk_hero
    player["folk_hero"] = value if value > 0 else 0
    value = player["scoundrel"] + scoundrel
    player["scoundrel"] = value if value > 0 else 0
    value = player["health"] + health
    player["health"] = value = MAX_HEALTH if value > MAX_HEALTH else value if value > 0 else 0
    if value == 0 and player["status"] != "dead":
        player["status"] = "dead"


# --- Set-up and the deal ------------------------------------------------------------------------------

def setup(options: dict[str, Any], seed: int) -> State:
    state: State = {"game": "money-or-life", "options": dict(options), "solo": options["players"] == 1}
    chance.seed_state(state, seed)
    deck = list(range(len(COACHES)))
    chance.shuffle(state, deck)
    state.update(players=[new_player() for _ in range(options["players"])], round=0, rounds=options["rounds"],
                 deck=deck, discards=[], coaches=[], phase="pick", rival=0, rival_log=[], stats_clashes=0,
                 stats_town_guards=0, last=[])
    start_round(state, [])
    return state


def draw_coach(state: State) -> int:
    """Y12: when the pile runs out mid-deal, the discards are shuffled into a new one."""
    if not state["deck"]:
        state["deck"] = sorted(state["discards"])
        state["discards"] = []
        chance.shuffle(state, state["deck"])
    return state["deck"].pop()


def deal_coaches(state: State) -> None:
    """Rule 1: a coach for each of N, S, E, W, in that order, from the top of the pile (the end of ``deck``)."""
    state["discards"].extend(state["coaches"])
    deck = state["deck"]
    if len(deck) >= len(DIRECTIONS):  # the usual deal: the top four cards, as four draws would take them
        state["coaches"] = deck[:-len(DIRECTIONS) - 1:-1]
        del deck[-len(DIRECTIONS):]
    else:
        state["coaches"] = [draw_coach(state) for _ in DIRECTIONS]


def start_round(state: State, events: Narration) -> None:
    """Rule 1 and 2 (Y4): four coaches face up, then each riding player's two secret dice."""
    state["round"] += 1
    deal_coaches(state)
    seats = len(state["players"])
    dice: list[list[int] | None] = [None] * seats
    state.update(phase="pick", revealed=False, picks=[None] * seats, dice=dice,
                 guards={}, guard_rolls=[], rolled={}, rob_dice=[None] * seats,
                 assigned=[None] * seats, shopping=[False] * seats, town_rolls=[None] * seats)
    for seat, player in enumerate(state["players"]):
        if player["status"] == "riding":
            dice[seat] = [chance.roll_d6(state), chance.roll_d6(state)]
    if events is not None:
        events.extend(round_opening_events(state))


#: Each card as the round's opening line names it: "A cotton merchant (2 guineas)".
COACH_AND_PURSE = tuple(f"{coach[0]} ({quantity(coach[1], 'guinea')})" for coach in COACHES)


def round_event(state: State) -> Event:
    """The public line that opens a round: the four coaches and their purses."""
    return event(f"Round {state['round']}: " + "; ".join(
        f"{DIRECTION_NAMES[d]}: {COACH_AND_PURSE[c]}" for d, c in zip(DIRECTIONS, state["coaches"])))


def round_opening_events(state: State) -> list[Event]:
    """The deal of the round just started: the coaches for all, each rider's dice for him alone."""
    events = [round_event(state)]
    for seat, dice in enumerate(state["dice"]):
        if dice is not None:
            events.append(event(f"Your secret dice: {dice[0]} and {dice[1]}", [seat]))
    return events


# --- Picks (rules 2 and 3, Y4, Y5, Y14) -----------------------------------------------------------------

def legal_picks(state: State, seat: int) -> list[str]:
    if must_rest(state, seat):
        return ["tavern"]
    return list(PICKS)


def reveal(state: State, events: Narration) -> None:
    """Rule 3 (Y4, Y6, Y14): dice and picks shown together; retirements; guards placed; robbers roll."""
    state["revealed"] = True
    players = state["players"]
    riders = riding(state)
    if events is not None:
        for seat in riders:
            where = state["picks"][seat]
            dice = state["dice"][seat]
            events.append(event(f"{seat_name(seat)} rolled {dice[0]} and {dice[1]} and chose {place_name(where)}"))
    picks = state["picks"]
    if "retire" in picks:
        for seat in riders:
            if picks[seat] == "retire":
                players[seat]["status"] = "retired"
                if events is not None:
                    events.append(event(f"{seat_name(seat)} retires to live on the loot, with a score of "
                                        f"{score(players[seat])}"))
        riders = [seat for seat in riders if picks[seat] != "retire"]
    place_guards(state, riders, events)
    robbers = []
    for seat in riders:
        if picks[seat] in DIRECTION_INDEX:
            robbers.append(seat)
    for where in DIRECTIONS:
        if where not in picks:
            continue  # the common case: nobody went this way
        here = []
        for seat in robbers:
            if picks[seat] == where:
                here.append(seat)
        if not here:
            continue
        card = state["coaches"][DIRECTION_INDEX[where]]
        state["rolled"][where] = {stat: printed_stat(card, stat) + chance.roll_d6(state)
                                  for stat in ROLLED_STATS[card]} if ROLLED_STATS[card] else {}
        if events is not None:
            for stat, value in state["rolled"][where].items():
                events.append(event(rolled_stat_text(card, stat, value)))
        alone = len(here) == 1  # Y7: two more dice; Y8: one more each
        if not alone:
            state["stats_clashes"] += 1
            if events is not None:
                events.append(event(f"Both highwaymen go for {COACHES[card][0]}: one more die each (Y8)"))
        for seat in here:
            rob_dice = state["dice"][seat] + [chance.roll_d6(state)]
            if alone:
                rob_dice.append(chance.roll_d6(state))
            state["rob_dice"][seat] = rob_dice
            players[seat]["attempts"] += 1
            if events is not None:
                dice = ", ".join(map(str, rob_dice))
                events.append(event(f"{seat_name(seat)} rolls on: dice {dice}"))
    state["phase"] = "rob"
    if not robbers:  # the robbers are the seats now to assign their dice (pending_robbers)
        start_town(state, events)


def rolled_stat_text(card: int, stat: str, value: int) -> str:
    """Y3: ``A land surveyor: combat 3+d6 rolled 3+4 = 7``."""
    base = printed_stat(card, stat)
    return f"{COACHES[card][0]}: {stat} {base}+d6 rolled {base}+{value - base} = {value} (Y3)"


def place_name(where: str | None) -> str:
    """A pick in words: "North", "the tavern", "to retire"."""
    if not where:
        return "nothing yet"
    return DIRECTION_NAMES.get(where) or ("to retire" if where == "retire" else f"the {where}")


def place_guards(state: State, riders: list[int], events: Narration) -> None:
    """Y6: ⌊folk hero/5⌋ random guards per player (a d6 each for the place), ⌊scoundrel/5⌋ targeted
    guards at that player's pick. Counted at the reveal, for the ``riders`` riding on: a player retiring
    now brings none."""
    guards = dict.fromkeys(GUARDED, 0)
    rolls = []
    for seat in riders:
        for _ in range(state["players"][seat]["folk_hero"] // GUARD_STEP):
            roll = chance.roll_d6(state)
            rolls.append(roll)
            guards[GUARD_PLACES[roll]] += 1
    for seat in riders:
        targeted = state["players"][seat]["scoundrel"] // GUARD_STEP
        if targeted:
            guards[state["picks"][seat]] += targeted
            if events is not None:
                events.append(event(f"{quantity(targeted, 'guard')} {'is' if targeted == 1 else 'are'} "
                                    f"hunting {seat_name(seat)} at {place_name(state['picks'][seat])} (Y6)"))
    if events is not None:
        for roll in rolls:
            events.append(event(f"A random guard rolls {roll}: {place_name(GUARD_PLACES[roll])} (Y6)"))
    state["guards"] = guards
    state["guard_rolls"] = rolls


# --- Robbing a coach (Y7, Y8) ---------------------------------------------------------------------------

def coach_targets(state: State, where: str) -> dict[str, int]:
    """The coach's targets now: rolled stats as rolled, combat +5 per guard there (Y6)."""
    card = state["coaches"][DIRECTION_INDEX[where]]
    targets = {**PRINTED_STATS[card], **state["rolled"].get(where, {})}
    targets["combat"] += GUARD_STRENGTH * state["guards"].get(where, 0)
    targets["money"] = coach_money(card)
    return targets


def coach_speed(state: State, where: str) -> int:
    """``coach_targets(state, where)["speed"]`` without the rest: guards add to combat only (Y6)."""
    rolled = state["rolled"].get(where)
    if rolled and "speed" in rolled:
        return rolled["speed"]
    return PRINTED_STATS[state["coaches"][DIRECTION_INDEX[where]]]["speed"]


def robbers_at(state: State, where: str) -> list[int]:
    picks, rob_dice = state["picks"], state["rob_dice"]
    seats = []
    for seat in range(len(state["players"])):
        if picks[seat] == where and rob_dice[seat] is not None:
            seats.append(seat)
    return seats


def pending_robbers(state: State) -> list[int]:
    rob_dice, assigned = state["rob_dice"], state["assigned"]
    seats = []
    for seat in range(len(state["players"])):
        if rob_dice[seat] is not None and assigned[seat] is None:
            seats.append(seat)
    return seats


def assignment_choices(state: State, seat: int) -> tuple[solver.Assignment, ...]:
    where = state["picks"][seat]
    targets = coach_targets(state, where)
    return solver.choices(state["rob_dice"][seat], targets["speed"], horse_bonus(state["players"][seat]))


def resolve_robbery(state: State, where: str, seats: list[int], events: Narration) -> None:
    """Apply a robbery once every robber at this coach (``seats``) has assigned: alone (Y7) or together (Y8)."""
    targets = coach_targets(state, where)
    players = state["players"]
    if len(seats) == 1:
        player = players[seats[0]]
        outcomes = [solver.action_outcome(state["assigned"][seats[0]], targets["speed"], targets["wit"],
                                          targets["combat"], targets["money"], horse_bonus(player),
                                          wit_bonus(player), combat_bonus(player))]
        # The log alone needs the assignment as an ``Assignment``: a playout's lone robbery makes none.
        picks = [] if events is None else [solver.Assignment.from_action(state["assigned"][seats[0]])]
    else:
        picks = [solver.Assignment.from_action(state["assigned"][seat]) for seat in seats]
        outcomes = list(solver.joint_outcomes(
            picks[0], picks[1], targets["speed"], targets["wit"], targets["combat"], targets["money"],
            [horse_bonus(players[s]) for s in seats], [wit_bonus(players[s]) for s in seats],
            [combat_bonus(players[s]) for s in seats]))
    if events is not None:
        events.extend(robbery_events(state, where, seats, picks))
    for seat, result in zip(seats, outcomes):
        # The track before the robbery, so that whoever reads it later can tell a loss that stopped at 0.
        folk_hero_was = players[seat]["folk_hero"]
        apply_outcome(state, seat, result)
        # ``vars(result)``: an Outcome's fields, in order, as ``as_dict`` gives them, without the call.
        state["last"].append({"seat": seat, "where": where, "round": state["round"], **vars(result),
                              "folk_hero_was": folk_hero_was})


def robbery_events(state: State, where: str, seats: list[int], picks: list[solver.Assignment]) -> list[Event]:
    """The public lines of a robbery, every sum shown (before the outcome changes any item or track)."""
    targets = coach_targets(state, where)
    card = state["coaches"][DIRECTION_INDEX[where]]
    guards = state["guards"].get(where, 0)
    coach = words.Coach(COACHES[card][0], DIRECTION_NAMES[where], targets["speed"], targets["wit"],
                        targets["combat"] - GUARD_STRENGTH * guards, guards, targets["combat"], targets["money"])
    robbers = [robber_words(state, seat, pick) for seat, pick in zip(seats, picks)]
    if len(seats) == 1:
        return [event(words.lone_robbery(robbers[0], coach))]
    caught = [solver.catches_coach(pick, targets["speed"], horse_bonus(state["players"][seat]))
              for seat, pick in zip(seats, picks)]
    if all(caught):
        return [event(words.speed_only(robber, coach)) for robber in robbers] + \
            [event(words.pooled_robbery(robbers, coach))]
    # Y8: the one who missed the speed is told first, then why the other robs alone with the whole purse:
    # the cause comes before its effect.
    in_order = sorted(zip(robbers, caught), key=lambda robber_caught: robber_caught[1])
    return [event(words.lone_robbery(robber, coach, whole_purse=True) if got else words.speed_only(robber, coach))
            for robber, got in in_order]


def robber_words(state: State, seat: int, pick: solver.Assignment) -> words.Robber:
    player = state["players"][seat]
    named = [(item_name(item), ITEMS[item][2]) for item in [player["horse"]] if item]
    return words.Robber(seat_name(seat), pick.speed, pick.wit, pick.combat, pick.spur, tuple(named),
                        tuple((item_name(item), ITEMS[item][2]) for item in player["gear"]),
                        weapon_bonuses(player), player["folk_hero"])


def weapon_bonuses(player: dict[str, Any]) -> tuple[tuple[str, int], ...]:
    return tuple((item_name(item), ITEMS[item][2]) for item in player["weapons"])


def apply_outcome(state: State, seat: int, result: solver.Outcome) -> None:
    player = state["players"][seat]
    player["guineas"] += result.money
    if result.speed_met and (result.wit_met or result.combat_met):
        player["robberies"] += 1
    if result.spur:
        player["rest_round"] = state["round"] + 1  # Y5
    change_tracks(player, result.folk_hero, result.scoundrel, result.health)


def assign(state: State, seat: int, action: Action, events: Narration) -> None:
    assigned = state["assigned"]
    assigned[seat] = copy_assignment(action)  # the state's own lists: the caller may go on using its action
    where = state["picks"][seat]
    seats = robbers_at(state, where)
    if len(seats) == 1 or None not in [assigned[s] for s in seats]:
        resolve_robbery(state, where, seats, events)
    elif events is not None:
        events.append(event(f"{seat_name(seat)} has assigned the dice"))
    if not pending_robbers(state):
        start_town(state, events)


# --- The town (Y9, Y10) ---------------------------------------------------------------------------------

def start_town(state: State, events: Narration) -> None:
    """Y11: town visits after every robbery. Y9: a guard there is fought first, with a fresh die."""
    state["phase"] = "town"
    for seat, where in enumerate(state["picks"]):
        if where not in TOWN or state["players"][seat]["status"] != "riding":
            continue
        guards = state["guards"].get(where, 0)
        if guards:
            state["stats_town_guards"] += 1
            player = state["players"][seat]
            roll = chance.roll_d6(state)
            state["town_rolls"][seat] = roll
            shortfall = max(0, GUARD_STRENGTH * guards - roll - combat_bonus(player))
            change_tracks(player, health=-shortfall)
            if events is not None:
                events.append(event(words.town_fight(seat_name(seat), guards, where, roll, weapon_bonuses(player),
                                                 GUARD_STRENGTH * guards)))
        if state["players"][seat]["status"] == "riding":
            state["shopping"][seat] = True
    if not any(state["shopping"]):  # nobody is left to shop (``pending_shoppers``)
        end_round(state, events)


def pending_shoppers(state: State) -> list[int]:
    seats = []
    for seat, shopping in enumerate(state["shopping"]):
        if shopping:
            seats.append(seat)
    return seats


def trade_in(item: str) -> int:
    """Y10: an item traded in is credited at its price − 1."""
    return ITEMS[item][1] - 1


def purchases(player: dict[str, Any]) -> list[tuple[dict[str, Any], int]]:
    """Every item purchase open to this player in the market, with its price after trade-ins (Y10)."""
    return [(dict(offer), price) for offer, price in player_offers(player)]


@lru_cache(maxsize=None)  # a few hundred sets of items at most
def market_offers(current: str | None, weapons: tuple[str, ...],
                  gear: tuple[str, ...]) -> tuple[tuple[Action, int], ...]:
    """``purchases`` for a player carrying this horse, these weapons and this gear, worked out once per set
    of items: read-only, to compare with or copy (the market lists them at every visit)."""
    found: list[tuple[dict[str, Any], int]] = []
    for horse in HORSES:
        if current is None:
            found.append(({"do": "buy", "item": horse}, ITEMS[horse][1]))
        elif ITEMS[horse][1] > ITEMS[current][1]:
            found.append(({"do": "buy", "item": horse, "trade": current}, ITEMS[horse][1] - trade_in(current)))
    if "rifle" not in weapons:
        for weapon in ONE_HANDED:
            if len(weapons) < 2:
                found.append(({"do": "buy", "item": weapon}, ITEMS[weapon][1]))
            for old in sorted(set(weapons)):
                if ITEMS[weapon][1] > ITEMS[old][1]:
                    found.append(({"do": "buy", "item": weapon, "trade": old},
                                  ITEMS[weapon][1] - trade_in(old)))
        # The rifle takes both hands: every weapon carried is traded in; no change is given.
        credit = sum(trade_in(old) for old in weapons)
        found.append(({"do": "buy", "item": "rifle"}, max(0, ITEMS["rifle"][1] - credit)))
    for item in GEAR:
        if item not in gear:
            found.append(({"do": "buy", "item": item}, ITEMS[item][1]))
    return tuple(found)


def player_offers(player: dict[str, Any]) -> tuple[tuple[Action, int], ...]:
    """``market_offers`` for this player's items: read-only."""
    return market_offers(player["horse"], tuple(player["weapons"]), tuple(player["gear"]))


def traded_in(player: dict[str, Any], action: Action) -> list[str]:
    """Y10: what a purchase gives up: the horse a better one takes, every weapon a rifle takes (two hands),
    or the one weapon named."""
    item = action.get("item")
    category = ITEMS[item][0] if item in ITEMS else ""
    if category == "horse":
        return [player["horse"]] if player["horse"] else []
    if item == "rifle":
        return list(player["weapons"])
    return [action["trade"]] if "trade" in action else []


def trading_in(items: list[str]) -> str:
    """", trading in the cudgel and the dagger" (nothing for no items)."""
    if not items:
        return ""
    if len(items) == 2 and items[0] == items[1]:  # "both pistols", never "the pistol and the pistol"
        return f", trading in both {item_name(items[0])}s"
    return ", trading in the " + " and the ".join(item_name(item) for item in items)


def buy_price(player: dict[str, Any], action: Action) -> int:
    for offer, price in player_offers(player):
        if offer == action:
            return price
    raise IllegalAction("Y10", "that item cannot be bought")


def can_heal(player: dict[str, Any], where: str) -> bool:
    """Y9/Y10: a meal for 1 health, for a player not at full health who can pay the place's price."""
    return player["health"] < MAX_HEALTH and player["guineas"] >= HEAL_PRICE[where]


def can_give(player: dict[str, Any]) -> bool:
    """Y10: 3 guineas to the poor turn a scoundrel point into a folk hero point."""
    return player["scoundrel"] > 0 and player["guineas"] >= GIFT_PRICE


def town_actions(state: State, seat: int) -> list[Action]:
    player = state["players"][seat]
    where = state["picks"][seat]
    actions: list[Action] = [{"do": "leave"}]
    if can_heal(player, where):
        actions.append({"do": "heal"})
    if can_give(player):
        actions.append({"do": "give"})
    if where == "market":
        guineas = player["guineas"]
        actions.extend(offer.copy() for offer, price in player_offers(player) if price <= guineas)
    return actions


LEAVE = {"do": "leave"}
HEAL = {"do": "heal"}
GIVE = {"do": "give"}


def is_town_action(state: State, seat: int, action: Action) -> bool:
    """``action in town_actions(state, seat)``, the market's offers listed only for a purchase."""
    if action == LEAVE:
        return True
    player = state["players"][seat]
    where = state["picks"][seat]
    if action == HEAL:
        return can_heal(player, where)
    if action == GIVE:
        return can_give(player)
    return where == "market" and any(offer == action and price <= player["guineas"]
                                     for offer, price in player_offers(player))


def shop(state: State, seat: int, action: Action, events: Narration) -> None:
    player = state["players"][seat]
    where = state["picks"][seat]
    kind = action["do"]
    if kind == "leave":
        state["shopping"][seat] = False
        if events is not None:
            events.append(event(f"{seat_name(seat)} leaves the {where}"))
    elif kind == "heal":
        player["guineas"] -= HEAL_PRICE[where]
        change_tracks(player, health=1)
        if events is not None:
            events.append(event(f"{seat_name(seat)} pays {HEAL_PRICE[where]} guineas for 1 health "
                            f"({'a meal and a rest' if where == 'tavern' else 'food'})"))
    elif kind == "give":
        player["guineas"] -= GIFT_PRICE
        player["scoundrel"] -= 1
        player["folk_hero"] += 1
        if events is not None:
            events.append(event(f"{seat_name(seat)} gives {GIFT_PRICE} guineas to the poor: "
                            "one scoundrel point becomes a folk hero point"))
    elif kind == "buy":
        price = buy_price(player, action)
        traded = traded_in(player, action) if events is not None else []
        player["guineas"] -= price
        item = action["item"]
        category = ITEMS[item][0]
        if category == "horse":
            player["horse"] = item
        elif category == "gear":
            player["gear"].append(item)
        elif item == "rifle":
            player["weapons"] = ["rifle"]
        else:
            if "trade" in action:
                player["weapons"].remove(action["trade"])
            player["weapons"].append(item)
            player["weapons"].sort(key=lambda w: ITEMS[w][1])
        if events is not None:
            events.append(event(f"{seat_name(seat)} buys {an_item(item)} for {quantity(price, 'guinea')}"
                                f"{trading_in(traded)}"))
    if not any(state["shopping"]):  # nobody is left to shop (``pending_shoppers``)
        end_round(state, events)


# --- The end of a round and of the game (Y11, Y12, Y14, Y16) -------------------------------------------

def rival_turn(state: State, taken: str | None, events: Narration) -> None:
    """Y16: from round 5, the rival goes for the richest coach the player did not pick (ties: lowest
    printed combat) and banks its money if 2d6 beats its combat."""
    if state["round"] < RIVAL_WAKES:
        return
    open_coaches = [(where, card) for where, card in zip(DIRECTIONS, state["coaches"]) if where != taken]
    where, card = min(open_coaches, key=lambda wc: (-coach_money(wc[1]), printed_stat(wc[1], "combat")))
    combat = state["rolled"].get(where, {}).get("combat")
    if combat is None:
        combat = printed_stat(card, "combat")
        if stat_is_rolled(card, "combat"):
            combat += chance.roll_d6(state)
            if events is not None:
                events.append(event(rolled_stat_text(card, "combat", combat)))
    first, second = chance.roll_d6(state), chance.roll_d6(state)
    roll = first + second
    won = roll > combat
    if won:
        state["rival"] += coach_money(card)
    state["rival_log"].append(coach_money(card) if won else 0)
    if events is None:
        return
    name = f"{COACHES[card][0]} ({DIRECTION_NAMES[where]})"
    outcome = (f"above it: takes {quantity(coach_money(card), 'guinea')} (rival: {state['rival']})" if won
               else f"not above it: gets nothing (rival: {state['rival']})")
    events.append(event(f"The rival goes for {name}, the richest coach left (Y16): rolls {first}+{second} = "
                        f"{roll} against combat {combat}, {outcome}"))


def end_round(state: State, events: Narration) -> None:
    """Rule 4: tracks updated; a death ends the game (Y11); otherwise the next round, up to the last."""
    players = state["players"]
    dead = []
    for seat, player in enumerate(players):
        if player["status"] == "dead":
            dead.append(seat)
    if state["solo"] and not dead:
        player_pick = state["picks"][0]
        rival_turn(state, player_pick if player_pick in DIRECTIONS else None, events)
    if dead:
        if events is not None:
            events.extend(event(f"{seat_name(seat)} is dead") for seat in dead)
        return finish(state, events)
    if state["round"] >= state["rounds"] or not riding(state):
        if state["solo"]:
            rival_plays_out(state, events)
        return finish(state, events)
    start_round(state, events)


def rival_plays_out(state: State, events: Narration) -> None:
    """Solo, after the player retires: the rival plays on to the last round (the sheet lets the other
    player continue to beat a retired score; without this, retiring before round 5 always wins)."""
    while state["round"] < state["rounds"]:
        state["round"] += 1
        deal_coaches(state)
        state["rolled"] = {}
        if events is not None:
            events.append(round_event(state))
        rival_turn(state, None, events)


def finish(state: State, events: Narration) -> None:
    state["phase"] = "over"
    state["discards"].extend(state["coaches"])
    state["coaches"] = []
    if events is not None:
        events.append(event(final_result(state)["summary"]))


def winners(state: State) -> list[int]:
    """Y11/Y13: the living player with the higher score; if both hang, the higher reputation; ties
    share. Solo (Y16): the player wins alive with a score above the rival's money."""
    players = state["players"]
    if state["solo"]:
        player = players[0]
        return [0] if player["status"] != "dead" and score(player) > state["rival"] else []
    alive = [seat for seat, player in enumerate(players) if player["status"] != "dead"]
    measure = score
    if not alive:
        alive, measure = list(range(len(players))), reputation
    best = max(measure(players[seat]) for seat in alive)
    return [seat for seat in alive if measure(players[seat]) == best]


def result(state: State) -> dict[str, Any] | None:
    if state["phase"] != "over":
        return None
    players = state["players"]
    scores = [score(player) for player in players]
    won = winners(state)
    if state["solo"]:
        player = players[0]
        fate = "died on the road" if player["status"] == "dead" else f"scored {scores[0]}"
        verdict = "beats" if won else "does not beat"
        line = epilogue(scores[0])  # the sheet's words, to "you"; one of them ends in its own full stop
        summary = (f"{seat_name(0)} {fate} and {verdict} the rival's {quantity(state['rival'], 'guinea')}. "
                   f"The sheet's epilogue: {line}{'' if line.endswith(('.', '?', '!')) else '.'}")
    else:
        described = ", ".join(f"{seat_name(s)} {scores[s]}{' (dead)' if players[s]['status'] == 'dead' else ''}"
                              for s in range(len(players)))
        if all(player["status"] == "dead" for player in players):
            # Y11: the scores do not decide it, so the line says what does (a lower score "winning" read
            # as a wrong result)
            reputations = " to ".join(signed(reputation(players[s])) for s in sorted(
                range(len(players)), key=lambda s: -reputation(players[s])))
            decided = (f"{seat_name(won[0])} wins on reputation, {reputations}" if len(won) == 1
                       else f"a draw on reputation, {reputations}")
            summary = (f"Both highwaymen hanged, so the higher reputation (folk hero and scoundrel, the score "
                       f"without guineas, Y13) wins: {decided}. Scores: {described}")
        elif len(won) == 1 and any(player["status"] == "dead" for player in players):
            # Y11: the one left alive wins, whatever the scores: the summary says so, or a lower score
            # winning would read as a mistake
            summary = f"{seat_name(won[0])} wins as the one left alive (Y11): {described}"
        elif len(won) == 1:
            summary = f"{seat_name(won[0])} wins: {described}"
        else:
            summary = f"A draw: {described}"
    return {"winners": won, "scores": scores, "seed": state["seed"], "summary": summary,
            "epilogue": epilogue(scores[0]) if state["solo"] else None,
            "reveal": {"deck": list(state["deck"]), "discards": list(state["discards"]),
                       "dice": clone(state["dice"]), "picks": list(state["picks"]),
                       "rival": state["rival"]}}


def final_result(state: State) -> dict[str, Any]:
    """``result`` of a game known to be over."""
    outcome = result(state)
    assert outcome is not None, "the game is over"
    return outcome


# --- The contract ---------------------------------------------------------------------------------------

def pending(state: State) -> list[int]:
    phase = state["phase"]
    if phase == "pick":
        picks = state["picks"]
        seats = []
        for seat, player in enumerate(state["players"]):
            if player["status"] == "riding" and picks[seat] is None:
                seats.append(seat)
        return seats
    if phase == "rob":
        return pending_robbers(state)
    if phase == "town":
        return pending_shoppers(state)
    return []


def everyone_has_picked(state: State) -> bool:
    """``not pending(state)`` in the pick phase, without the list: asked after every pick."""
    picks = state["picks"]
    for seat, player in enumerate(state["players"]):
        if picks[seat] is None and player["status"] == "riding":
            return False
    return True


def is_pending(state: State, seat: int) -> bool:
    """``seat in pending(state)``, asked of one seat."""
    phase = state["phase"]
    if not isinstance(seat, int) or not 0 <= seat < len(state["players"]):
        return False
    if phase == "pick":
        return state["players"][seat]["status"] == "riding" and state["picks"][seat] is None
    if phase == "rob":
        return state["rob_dice"][seat] is not None and state["assigned"][seat] is None
    if phase == "town":
        return state["shopping"][seat]
    return False


PLAY_AS_SCOUNDREL = {"do": "play_as_scoundrel"}
#: The pick actions, by whether the seat must rest (Y5): read-only, ``legal_actions`` hands out copies.
PICK_ACTIONS = {must: tuple({"do": "pick", "where": where} for where in (("tavern",) if must else PICKS))
                for must in (False, True)}


def legal_actions(state: State, seat: int) -> list[Action]:
    if not is_pending(state, seat):
        return []
    phase = state["phase"]
    player = state["players"][seat]
    if phase == "pick":
        actions = list(map(dict.copy, PICK_ACTIONS[player["rest_round"] == state["round"]]))  # must_rest (Y5)
    elif phase == "rob":
        actions = solver.choice_actions(*robbery_key(state, seat))
    else:
        actions = town_actions(state, seat)
    if not player["as_scoundrel"]:
        actions.append(PLAY_AS_SCOUNDREL.copy())
    return actions


def robbery_key(state: State, seat: int) -> tuple[list[int], int, int]:
    """What a robber's legal assignments depend on: his dice, the coach's speed and his horse."""
    return (state["rob_dice"][seat], coach_speed(state, state["picks"][seat]),
            horse_bonus(state["players"][seat]))


RULE_OF_PHASE = {"pick": "Y4", "rob": "Y7", "town": "Y9"}


def apply(state: State, seat: int, action: Action) -> list[Event]:
    """Carry out one legal action of ``seat``; refuse anything else and leave the state untouched."""
    events: list[Event] = []
    carry_out(state, seat, action, events)
    return events


def carry_out(state: State, seat: int, action: Action, events: Narration = None) -> None:
    """The one path of ``apply`` and ``advance``: play ``action`` out if it is one of
    ``legal_actions(state, seat)``, else refuse it. With no ``events`` list nobody listens.

    Each phase checks its own kind of action without building that list (an assignment by one set look-up
    among the solver's choices), and goes straight on to play it: playouts pay for this at every action."""
    if not isinstance(action, dict) or not is_pending(state, seat):
        raise IllegalAction("Y4", f"{seat_name(seat)} has nothing to do now")
    player = state["players"][seat]
    phase = state["phase"]
    if action == PLAY_AS_SCOUNDREL:
        if not player["as_scoundrel"]:
            player["as_scoundrel"] = True
            if events is not None:
                events.append(event(f"{seat_name(seat)} now plays as a scoundrel: guineas + scoundrel − folk hero "
                                    "(Y13)"))
            return
    elif phase == "pick":
        if action in PICK_ACTIONS[player["rest_round"] == state["round"]]:  # must_rest (Y5)
            state["picks"][seat] = action["where"]
            if events is not None:
                events.append(event(f"{seat_name(seat)} has chosen where to ride.", told_privately=seat))
                events.append(event(f"You chose {place_name(action['where'])}", [seat]))
            if everyone_has_picked(state):
                reveal(state, events)
            return
    elif phase == "rob":
        if solver.is_offered(action, *robbery_key(state, seat)):
            assign(state, seat, action, events)
            return
    elif is_town_action(state, seat, action):
        shop(state, seat, action, events)
        return
    raise refusal(state, seat, action)


#: ``apply`` with nobody listening: the same check and change of state, no event built. It is the one
#: path itself rather than a function that calls it, as playouts call it at every action.
advance = carry_out


def refusal(state: State, seat: int, action: Action) -> IllegalAction:
    """Why a pending seat's action is refused, naming the rule: Y5 for a rest or a spur in vain."""
    rule = RULE_OF_PHASE[state["phase"]]
    if (state["phase"] == "pick" and must_rest(state, seat)) or is_spur_in_vain(state, seat, action):
        rule = "Y5"
    return IllegalAction(rule, f"{describe_action(state, seat, action)} is not allowed now")


def is_spur_in_vain(state: State, seat: int, action: Action) -> bool:
    """Y5: a spurred assignment whose dice, horse and spur still miss the coach's speed, or whose speed
    dice and horse meet it without the spur."""
    if state["phase"] != "rob" or action.get("do") != "assign" or action.get("spur") is not True:
        return False
    dice = state["rob_dice"][seat]
    speed = coach_targets(state, state["picks"][seat])["speed"]
    horse = horse_bonus(state["players"][seat])
    speed_dice = action.get("speed")
    needless = isinstance(speed_dice, list) and all(isinstance(die, int) for die in speed_dice) \
        and sum(speed_dice) + horse >= speed
    return sum(dice) + horse + 1 < speed or needless


def can_take_back(before: State, after: State, seat: int, action: Action) -> bool:
    """Where to ride, picked while the other rider is still picking (Y4: the picks are shown together),
    or a purchase, a heal or a gift in town while the town phase goes on (Y9); never a move that rolled a
    die or turned a coach card."""
    if after["phase"] != before["phase"] or not no_chance_drawn(before, after, ("deck", "coaches")):
        return False
    if action.get("do") == "pick":
        return not after["revealed"]
    return action.get("do") in ("buy", "heal", "give")


MOMENT_WORDS = {"pick": "choosing a coach", "rob": "the robbery", "town": "in town"}


def moment(state: State, seat: int) -> str:
    """The round and its phase."""
    return f"round {state['round']}, {MOMENT_WORDS.get(state['phase'], state['phase'])}"


def describe_action(state: State, seat: int, action: Action) -> str:
    kind = action.get("do") if isinstance(action, dict) else None
    if kind == "pick":
        where = action.get("where")
        return {"tavern": "Go to the tavern", "market": "Go to the market", "retire": "Retire"}.get(
            str(where), f"Rob the coach to the {place_name(where)}")
    if kind == "assign":
        try:
            return solver.describe(solver.Assignment.from_action(action))
        except (KeyError, TypeError):
            return "an assignment"
    if kind == "play_as_scoundrel":
        return "Play as a scoundrel from now on"
    if kind == "leave":
        return "Leave town"
    if kind == "heal":
        return "Buy a meal (1 health)"
    if kind == "give":
        return "Give 3 guineas to the poor"
    if kind == "buy":
        item = str(action.get("item"))
        try:
            traded = traded_in(state["players"][seat], action)
        except (KeyError, IndexError, TypeError):  # an action from outside, described to refuse it
            traded = []
        return f"Buy {an_item(item)}{trading_in([str(t) for t in traded])}"
    return f"{action!r}"


def public_player(state: State, seat: int) -> dict[str, Any]:
    player = state["players"][seat]
    revealed = state["revealed"] or state["phase"] == "over"
    return {"seat": seat, "health": player["health"], "guineas": player["guineas"],
            "folk_hero": player["folk_hero"], "scoundrel": player["scoundrel"], "horse": player["horse"],
            "weapons": list(player["weapons"]), "gear": list(player["gear"]),
            "as_scoundrel": player["as_scoundrel"], "status": player["status"], "score": score(player),
            "must_rest": must_rest(state, seat) and state["phase"] == "pick",
            "robberies": player["robberies"],
            "picked": state["picks"][seat] is not None,
            "pick": state["picks"][seat] if revealed else None,
            "dice": list(state["dice"][seat]) if revealed and state["dice"][seat] else None,
            "rob_dice": list(state["rob_dice"][seat]) if state["rob_dice"][seat] else None,
            "assigned": state["assigned"][seat] is not None,
            "town_roll": state["town_rolls"][seat], "shopping": state["shopping"][seat]}


#: Per card, the stats as a view shows them before any roll: "3+d6" for a rolled one, else the number.
SHOWN_STATS = tuple({stat: coach_stat_text(card, stat) if stat_is_rolled(card, stat) else printed_stat(card, stat)
                     for stat in STATS} for card in range(len(COACHES)))


def public_coach(state: State, where: str, card: int) -> dict[str, Any]:
    return {"at": where, "card": card, "name": COACHES[card][0], "money": coach_money(card),
            **SHOWN_STATS[card], **state["rolled"].get(where, {}),  # a rolled stat shows its roll
            "guards": state["guards"].get(where, 0)}


def view(state: State, seat: int | None) -> View:
    """A1: what a seat may know. Secret dice and picks are the owner's until the reveal; a partner's
    assignment on a shared coach stays hidden until both have assigned; the deck order is nobody's."""
    over = state["phase"] == "over"
    shown: View = {
        "game": "money-or-life", "round": state["round"], "rounds": state["rounds"], "phase": state["phase"],
        "solo": state["solo"], "revealed": state["revealed"],
        "coaches": [public_coach(state, where, card) for where, card in zip(DIRECTIONS, state["coaches"])],
        "deck_left": len(state["deck"]), "discards": sorted(state["discards"]),
        "guards": dict(state["guards"]), "guard_rolls": list(state["guard_rolls"]),
        "players": [public_player(state, s) for s in range(len(state["players"]))],
        "rival": state["rival"], "rival_log": list(state["rival_log"]),
        "last": [dict(entry) for entry in state["last"][-4:]], "you": seat, "pending": pending(state),
    }
    if seat is not None:
        shown["my_dice"] = list(state["dice"][seat]) if state["dice"][seat] else None
        shown["my_pick"] = state["picks"][seat]
        shown["my_assignment"] = copy_action(state["assigned"][seat])
    if over:
        shown["result"] = result(state)
    return shown


def resample_hidden(state: State, seat: int, rng: random.Random) -> State:
    """Everything ``seat`` cannot see drawn afresh from what it can: the deck order, the future dice,
    the other player's secret dice and pick, a partner's hidden assignment."""
    sampled = copy_state(state)
    if sampled["phase"] == "over":
        return sampled
    sampled["deck"] = sorted(sampled["deck"])
    rng.shuffle(sampled["deck"])
    chance.redraw_hidden_generator(sampled, rng)
    for other in range(len(sampled["players"])):
        if other == seat:
            continue
        if not sampled["revealed"] and sampled["dice"][other] is not None:
            sampled["dice"][other] = [rng.randint(1, 6), rng.randint(1, 6)]
            if sampled["picks"][other] is not None:
                sampled["picks"][other] = rng.choice(legal_picks(sampled, other))
        if sampled["phase"] == "rob" and sampled["assigned"][other] is not None and any(
                partner in pending_robbers(sampled) for partner in robbers_at(sampled, sampled["picks"][other])):
            sampled["assigned"][other] = rng.choice(assignment_choices(sampled, other)).as_action()
    return sampled


def copy_action(action: Action | None) -> Action | None:
    """A deep copy of an action (an assignment holds lists of dice)."""
    if action is None:
        return None
    return {key: list(value) if isinstance(value, list) else value for key, value in action.items()}


def copy_assignment(action: Action) -> Action:
    """``copy_action`` of an offered assignment (``solver.is_offered``), whose three dice lists are known:
    no look at each key's value, as the engine copies one at every robbery."""
    copied = action.copy()
    copied["speed"], copied["wit"], copied["combat"] = [*action["speed"]], [*action["wit"]], [*action["combat"]]
    return copied


def copy_state(state: State) -> State:
    """A deep copy of the state's plain data, several times quicker than ``clone``'s msgpack round trip:
    the search copies a state for every sample it draws."""
    new = dict(state)
    new["options"] = dict(state["options"])
    new["players"] = [{**player, "weapons": list(player["weapons"]), "gear": list(player["gear"])}
                      for player in state["players"]]
    for key in ("deck", "discards", "coaches", "rival_log", "picks", "guard_rolls", "shopping", "town_rolls"):
        new[key] = list(state[key])
    for key in ("dice", "rob_dice"):
        new[key] = [None if dice is None else list(dice) for dice in state[key]]
    new["assigned"] = [copy_action(action) for action in state["assigned"]]
    new["guards"] = dict(state["guards"])
    new["rolled"] = {where: dict(stats) for where, stats in state["rolled"].items()}
    new["last"] = [dict(entry) for entry in state["last"]]
    return new


def shown_coach_targets(shown: View, where: str) -> dict[str, int]:
    """``coach_targets`` as a seat's view shows them once the stats are rolled: combat +5 per guard (Y6)."""
    coach = next(c for c in shown["coaches"] if c["at"] == where)
    return {"speed": coach["speed"], "wit": coach["wit"],
            "combat": coach["combat"] + GUARD_STRENGTH * coach["guards"], "money": coach["money"]}


def robbery_options(shown: View) -> list[dict[str, Any]]:
    """For the UI: the viewing seat's choices in its robbery, from its view alone, one per distinct
    outcome (the solver's collapsed entries): the action to send, every assignment that gives it, and
    the outcome. On a shared coach (Y8) the outcome depends on the partner too, so ``outcome`` is the
    result if the partner misses the speed and ``shared`` is True."""
    seat = shown["you"]
    if shown["phase"] != "rob" or seat is None or seat not in shown["pending"]:
        return []
    me = shown["players"][seat]
    targets = shown_coach_targets(shown, me["pick"])
    partners = [p for p in shown["players"] if p["seat"] != seat and p["pick"] == me["pick"] and p["rob_dice"]]
    entries = solver.solve(me["rob_dice"], targets["speed"], targets["wit"], targets["combat"], targets["money"],
                           horse_bonus(me), wit_bonus(me), combat_bonus(me))
    return [{"action": entry.assignments[0].as_action(), "shared": bool(partners),
             "assignments": [solver.describe(a) for a in entry.assignments],
             "outcome": entry.outcome.as_dict(), "text": solver.describe_outcome(entry.outcome)}
            for entry in entries]


def stats(state: State) -> dict[str, Any]:
    """Per game: robberies, deaths, retirements, shared coaches, town fights; solo adds the score, the
    rival's money, whether he was beaten and the epilogue line (counted by the simulator)."""
    players = state["players"]
    figures: dict[str, Any] = {
        "robberies": sum(p["robberies"] for p in players),
        "robbery_attempts": sum(p["attempts"] for p in players),
        "deaths": sum(p["status"] == "dead" for p in players),
        "retirements": sum(p["status"] == "retired" for p in players),
        "rounds_played": state["round"],
        "shared_coaches": state["stats_clashes"],
        "town_guard_fights": state["stats_town_guards"],
    }
    if state["solo"]:
        final = score(players[0])
        figures.update(solo_score=final, rival_money=state["rival"],
                       beat_rival=int(bool(winners(state))) if state["phase"] == "over" else 0,
                       epilogue=epilogue_band(final))
    return figures


def check_invariants(state: State) -> None:
    for player in state["players"]:
        assert 0 <= player["health"] <= MAX_HEALTH, player
        assert player["folk_hero"] >= 0 and player["scoundrel"] >= 0, player
        assert player["guineas"] >= 0, player
        assert (player["health"] == 0) == (player["status"] == "dead"), player
        assert player["horse"] is None or player["horse"] in HORSES
        weapons = player["weapons"]
        assert all(w in ITEMS and ITEMS[w][0] == "weapon" for w in weapons)
        assert weapons == ["rifle"] or ("rifle" not in weapons and len(weapons) <= 2), weapons
        assert len(set(player["gear"])) == len(player["gear"]) and set(player["gear"]) <= set(GEAR)
    cards = state["deck"] + state["discards"] + state["coaches"]
    assert sorted(cards) == list(range(len(COACHES))), "every coach card is somewhere, once"
    assert state["round"] <= state["rounds"]


RULES_TEXT = """\
Your Money or Your Life - two highway robbers (or one against a rival, Y16) over 16 rounds (Y12; the
rounds option may make a table's game shorter or longer).

Each round four coaches leave York, one to each of North, South, East and West, with their money, speed,
wit and combat (Y3; a stat shown "N+d6" is rolled when the coach is attacked, once, for everyone). You see
your own two dice (Y4), then secretly pick a coach, the tavern, the market, or retiring (Y14). Picks and
dice are shown together. Guards come with fame (Y6): every 5 folk hero points brings a random guard (a d6
picks North, South, East, West, tavern or market), every 5 scoundrel points a guard that follows you
wherever you go. Each guard adds 5 to a coach's combat.

Robbing alone (Y7): roll two more dice and give each die to speed, wit or combat. Speed is your speed dice
plus your horse; the speed dice must be a minimal set (no die among them could be dropped), and the horse
alone may be enough. If your dice can meet the speed you must put them there, even if that leaves you
short for wit and combat (the sheet: "you must assign dice in order to attempt this"): you cannot let a
coach escape on purpose. If you cannot meet the speed the coach escapes: you lose a folk hero point and
nothing else happens. You may spur for +1 speed, at 1 health and a forced rest at the tavern next round
(Y5); a spur is offered only where it lets you catch the coach: never when the coach escapes anyway, and
never beside speed dice that catch it without the spur (our reading: like a die, the spur is not added to
a speed already met, Y7). Once caught: wit (dice + gear) met gains
the excess as folk hero points, missed loses the shortfall; combat (dice + weapons) met gains the excess
as scoundrel points, missed costs the shortfall in health. Meeting either takes the coach's money.

Two on one coach (Y8): one more die each (three each). Each must catch the coach alone, with his own dice,
horse and spur. If one misses, he alone loses the folk hero point and the other robs as if alone, with
his three dice and the whole purse. If both catch it, their wit dice and their combat dice are pooled,
and the pooled values add both players' gear and weapons; both take the same changes and half the money
each, rounded down.

Town (Y9, Y10): fight any guard there first (a fresh d6 plus your weapons against 5 a guard; the
shortfall comes off your health). Tavern: health at 2 guineas a point. Market: food at 3 guineas a point,
and items. Anywhere in town, 3 guineas given to the poor turn a scoundrel point into a folk hero point.
Health never tops 12; you may visit and buy nothing.

  Item             price  bonus        Item             price  bonus
  retired pit pony     5  +2 speed     cudgel               4  +2 combat
  farm horse          10  +4 speed     dagger               6  +3 combat
  warhorse            15  +6 speed     rapier               8  +4 combat
  mask                 6  +2 wit       pistol              10  +5 combat
  black cloak          6  +2 wit       rifle (two hands)   12  +6 combat
  riding boots         8  +3 wit

One horse at a time; a better horse takes the old one at its price less 1. Two one-handed weapons, or a
rifle alone: a rifle trades in every weapon you carry, a better one-handed weapon trades in one, each at
its price less 1; a trade-in worth more than the rifle gives no change, and a rifle is kept (nothing is an
upgrade on it). Mask, cloak and boots once each, never traded in.

Retiring (Y14) ends your game at once with your score frozen: you take no further part, and the other
player may ride on to the last round. Health 0 is death and ends the game after the round (Y11, Y15). Score
(Y13): guineas + folk hero - scoundrel, or + scoundrel - folk hero once you declare you play as a
scoundrel. The living player with the higher score wins; if both hang, the higher reputation wins: the
score without the guineas (folk hero - scoundrel, or the reverse for a declared scoundrel).

Solo (Y16): from round 5 the rival goes for the richest coach you did not pick (on equal money, the one
with the lowest printed combat, "N+d6" counting as N) and banks its money if his 2d6 is strictly above its
combat (rolled if "N+d6"). If you retire, he plays on alone to the last round. Beat his money to win,
and read your epilogue. A solo game has at least 5 rounds: a shorter one (--option rounds=3) is refused,
as the rival would never ride and the game could not be lost.

Taking back (by consent; the sheet is silent): where you ride may be taken back while the other rider is
still picking (Y4), and a purchase, healing or gift in town while the town phase goes on (Y9), if
everyone else agrees (U at the table). Dice and robberies cannot be.
"""

#: The table options (Y1, Y12, Y16).
OPTIONS = (
    Option("players", "int", 2, "1 plays solo against the sheet's rival (Y16), 2 is a duel (Y1)", (1, 2)),
    Option("rounds", "int", 16, "rounds in a game (the sheet plays 16, Y12); solo, at least 5: the rival "
                                "rides from round 5 on (Y16)", (1, 40)),
)


def check_options(options: dict[str, Any]) -> None:
    """Y16: solo, the rival rides from round 5; a shorter solo game would leave him at home and could not
    be lost, so it is refused (rather than the rule scaled to the game's length)."""
    if options["players"] == 1 and options["rounds"] < RIVAL_WAKES:
        raise OptionError(f"a solo game needs at least {RIVAL_WAKES} rounds: the rival rides from round "
                          f"{RIVAL_WAKES} (Y16), and with rounds={options['rounds']} he would never ride")
