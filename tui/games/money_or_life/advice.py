"""Your Money or Your Life's robbery advice: each assignment's outcome from the solver, ranked by the normal
bot's valuation, and the dice builder's words (what an assignment brings, or why the rules refuse it).

What a robbery brings is the engine's own answer (``robbery_options``, from the dice solver); which outcome
is "suggested" is the normal bot's own valuation (``outcome_value``), so nothing here decides a rule.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable

from rich.text import Text

from core.games.money_or_life import reckoning, rules, solver, words
from tui.frame import TableFrame
from tui.games.money_or_life.common import coach_at, dice, money, my_player, view_of
from tui.glyphs import ASCII, Glyphs


def assignment_key(action: dict[str, Any]) -> str:
    """A short, stable name for an assignment action (a chip's target)."""
    return "|".join([str(int(bool(action.get("spur")))),
                     *(",".join(map(str, action.get(part, []))) for part in ("speed", "wit", "combat"))])



def robbery_label(frame: TableFrame, action: dict[str, Any], glyphs: Glyphs) -> Text:
    """``speed ⚂ · wit ⚄⚀ · combat ⚅ → £7, folk hero +1, scoundrel +3`` (and "★ suggested" on the one the
    normal bot would take, with why). On a shared coach (Y8) the line tells the robbery alone and
    together with the partner's likely share."""
    text = assignment_text(action, glyphs, compact=True)
    ranked = ranked_robberies(frame)
    found = next((entry for entry in ranked if entry["action"] == action), None)
    if found is None:
        return text
    view = view_of(frame)
    me = my_player(view)
    last_round = view.get("round", 0) >= view.get("rounds", 16)
    text.append(" → alone: " if found["shared"] else " → ")
    text.append_text(outcome_text(found["outcome"], glyphs, me, last_round, alone=found["shared"]))
    if found["together"] is not None:
        text.append(" · together: ")
        text.append_text(outcome_text(found["together"], glyphs, me, last_round, alone=True, together=True))
    if ranked and found is ranked[0]:
        text.append(f"  {glyphs.star} suggested", style="bold")
        text.append(f" ({star_reason(frame, ranked, found)})", style="dim")
    return text


def star_reason(frame: TableFrame, ranked: list[dict[str, Any]], best: dict[str, Any]) -> str:
    """Why the star is on this line, in a few words: what the normal bot's valuation weighs."""
    if best["shared"]:
        likely = partners_likely_share(view_of(frame))
        ways = f"his {likely[2]} ways" if likely else "every way"
        return f"best on average over {ways} to share his dice"
    me = my_player(view_of(frame))
    if me and any(score_change(entry["outcome"], me) > score_change(best["outcome"], me) for entry in ranked):
        # "best" beside a line another beats on the sheet's score would read as a mistake: say what it weighs.
        return "counts health and guards too"
    return "the most score for what it costs"


def score_change(outcome: dict[str, Any], me: dict[str, Any]) -> int:
    """Y13: what an outcome adds to the score now (guineas and the tracks, as this player scores them)."""
    if not outcome["speed_met"]:
        return 1 if me.get("as_scoundrel") else -1
    reputation = outcome["folk_hero"] - (outcome["scoundrel"] if outcome["combat_met"] else 0)
    return outcome["money"] + (-reputation if me.get("as_scoundrel") else reputation)


def faces(values: list[int], glyphs: Glyphs) -> str:
    """Dice as bare faces, side by side ("⚂⚄"): compact for a list of choices; ASCII "d3 d5"."""
    if not values:
        return "-" if glyphs is ASCII else "–"
    return glyphs.dice(list(values)) if glyphs is ASCII else "".join(glyphs.die[v] for v in values)


def assignment_text(action: dict[str, Any], glyphs: Glyphs, compact: bool = False) -> Text:
    """Where each die goes; ``compact`` shows bare faces (the move pane), else faces and numbers."""
    text = Text()
    for number, part in enumerate(("speed", "wit", "combat")):
        if number:
            text.append(" · ", style="dim")
        text.append(f"{part} ", style="bold")
        values = action.get(part, [])
        text.append(faces(values, glyphs) if compact else dice(values, glyphs))
    if action.get("spur"):
        text.append(" · spurred +1", style="bold")
    return text


def outcome_text(outcome: dict[str, Any], glyphs: Glyphs, me: dict[str, Any] | None,
                 last_round: bool = False, alone: bool = False, together: bool = False) -> Text:
    """What a robbery brings: "£4, folk hero −3 (to 0), scoundrel +2"; a track that does not move is left
    out. ``me`` is the robber before it (for "(to 0)" and a death); an entry of the view's ``last`` carries
    the folk hero it had (``folk_hero_was``) instead. ``alone``: the robbery as it goes if a partner on
    the same coach misses (Y8), so a death is "alone", not a certainty; ``together``: pooled with the
    partner's likely share, as uncertain."""
    tracks = me if me is not None else (
        {"folk_hero": outcome["folk_hero_was"]} if "folk_hero_was" in outcome else None)
    if not outcome["speed_met"]:
        lost = track_change("folk hero", -1, tracks, "folk_hero")
        text = Text(f"the coach gets away: {lost}" if lost else "the coach gets away")
        if outcome["spur"]:
            text.append(", health −1" + ("" if last_round else " and tavern next round") + " (spur)")
        return text
    parts = [money(outcome["money"], glyphs)]
    if outcome["folk_hero"]:
        parts.append(track_change("folk hero", outcome["folk_hero"], tracks, "folk_hero"))
    if outcome["combat_met"] and outcome["scoundrel"]:
        parts.append(track_change("scoundrel", outcome["scoundrel"], tracks, "scoundrel"))
    parts = [part for part in parts if part]
    if outcome["health"]:
        parts.append(f"health {rules.signed(outcome['health'])}")
    if outcome["spur"] and not last_round:
        parts.append("tavern next round")  # Y5: the spur's other price (none after the last round)
    text = Text(", ".join(parts))
    if me is not None and me["health"] + outcome["health"] <= 0:
        # On a shared coach the line is the robbery alone, which happens only if the partner misses.
        words = "  you would die together" if together else "  you would die alone" if alone else "  YOU WOULD DIE"
        text.append(words, style="bold" if alone else "bold reverse")
    return text


def track_change(name: str, change: int, me: dict[str, Any] | None, key: str) -> str:
    """"folk hero −3", and "(to 0)" where the track cannot go that low (Y2: never below 0); nothing at all
    where it is at 0 already, as for a track that does not move."""
    text = f"{name} {rules.signed(change)}"
    if me is not None and change < 0 and me.get(key, 0) + change < 0:
        if me.get(key, 0) <= 0:
            return ""
        text += " (to 0)"
    return text


def partners_likely_share(view: dict[str, Any]) -> tuple[dict[str, Any], solver.Assignment, int] | None:
    """Y8, on a shared coach: the partner, the way of sharing his dice the normal bot would take in his
    place (his dice, gear and tracks are public), and how many ways he has; None when robbing alone."""
    partners = reckoning.robbery_partners(view, view["you"])
    if not partners:
        return None
    partner = partners[0]
    targets = rules.shown_coach_targets(view, partner["pick"])
    his = solver.choices(partner["rob_dice"], targets["speed"], rules.horse_bonus(partner))
    if not his:
        return None
    value = reckoning.shared_robbery_values(view, partner["seat"])
    return partner, max(his, key=lambda choice: value(choice.as_action())), len(his)


def together_with_partner(view: dict[str, Any]) -> Callable[[dict[str, Any]], dict[str, Any]] | None:
    """Y8: what an assignment of yours brings pooled with the partner's likely share (the rules' own
    pooling, ``joint_outcomes``): his missing the speed leaves you alone, as the rules say."""
    likely = partners_likely_share(view)
    if likely is None:
        return None
    partner, his, _ = likely
    me = view["players"][view["you"]]
    targets = rules.shown_coach_targets(view, me["pick"])
    order = [p["seat"] for p in view["players"] if p["pick"] == me["pick"] and p["rob_dice"]]
    pair_players = (me, partner) if order[0] == me["seat"] else (partner, me)
    bonuses = ([rules.horse_bonus(p) for p in pair_players], [rules.wit_bonus(p) for p in pair_players],
               [rules.combat_bonus(p) for p in pair_players])

    def pooled(action: dict[str, Any]) -> dict[str, Any]:
        mine = solver.Assignment.from_action(action)
        pair = (mine, his) if order[0] == me["seat"] else (his, mine)
        results = solver.joint_outcomes(*pair, targets["speed"], targets["wit"], targets["combat"], targets["money"],
                                        *bonuses)
        return results[order.index(me["seat"])].as_dict()

    return pooled


#: The last frame ranked and its ranking (the labels of one prompt all ask for it).
_ranked_cache: list[tuple[TableFrame, list[dict[str, Any]]]] = []


def ranked_robberies(frame: TableFrame) -> list[dict[str, Any]]:
    """This seat's robbery choices (the prompt's assign actions) with the solver's outcome, best first.

    Each entry: ``action`` (as the prompt has it), ``index`` (its place in the prompt), ``outcome``,
    ``shared`` and ``value`` (the sharp bot's worth of the outcome in points of score)."""
    view = view_of(frame)
    me = my_player(view)
    if view.get("phase") != "rob" or me is None or not frame.choices:
        return []
    if _ranked_cache and _ranked_cache[0][0] is frame:  # the move pane and the hand ask of the same frame
        return _ranked_cache[0][1]
    options = rules.robbery_options(view)
    by_description = {text: option for option in options for text in option["assignments"]}
    profile = reckoning.my_profile(view, view["you"])
    # Y8: on a shared coach the normal bot weighs each line pooled with the partner's every way of sharing
    # his dice.
    shared_value = (reckoning.shared_robbery_values(view, view["you"])
                    if reckoning.robbery_partners(view, view["you"]) else None)
    pooling = together_with_partner(view) if shared_value else None
    ranked = []
    for index, choice in enumerate(frame.choices):
        action = choice["action"]
        if action.get("do") != "assign":
            continue
        option = by_description.get(solver.describe(solver.Assignment.from_action(action)))
        if option is None:
            continue
        outcome = option["outcome"]
        value = shared_value(action) if shared_value else reckoning.outcome_value(
            outcome["folk_hero"], outcome["scoundrel"], outcome["health"], outcome["money"], outcome["spur"], profile)
        ranked.append({"action": action, "index": index, "outcome": outcome, "shared": option["shared"],
                       "value": value, "together": pooling(action) if pooling else None})
    ranked.sort(key=lambda entry: (-entry["value"], entry["index"]))
    _ranked_cache[:] = [(frame, ranked)]
    return ranked


def choice_order(frame: TableFrame) -> list[int] | None:
    """The order the move pane lists the prompt's choices in: in a robbery the best outcomes first
    (so keys 1–9 reach the best nine); otherwise the host's order."""
    ranked = ranked_robberies(frame)
    if not ranked:
        return None
    first = [entry["index"] for entry in ranked]
    return first + [index for index in range(len(frame.choices)) if index not in set(first)]


def shown_number(frame: TableFrame, index: int) -> int:
    """The number the move pane shows beside prompt choice ``index`` (its key when 1–9)."""
    order = choice_order(frame)
    return (order.index(index) if order else index) + 1



PARTS = ("speed", "wit", "combat")


def placed(dice_values: list[int], places: list[str], spur: bool) -> solver.Assignment:
    """The assignment the builder shows: each die on its place (values sorted, as the solver has them)."""
    return solver.Assignment(spur, *(tuple(sorted(d for d, p in zip(dice_values, places) if p == part))
                                     for part in PARTS))


def try_assignment(frame: TableFrame, places: list[str], spur: bool) -> tuple[dict[str, Any] | None, Text]:
    """What the builder's assignment brings: the prompt action that gives it (None if the rules do not
    allow it) and, in words, the outcome from the solver or why it is not allowed (Y7)."""
    view = view_of(frame)
    me = my_player(view)
    glyphs = frame.glyphs
    if me is None or not me.get("rob_dice") or me.get("pick") not in rules.DIRECTIONS:
        return None, Text("")
    dice_values = list(me["rob_dice"])
    targets = rules.shown_coach_targets(view, me["pick"])
    horse = rules.horse_bonus(me)
    candidate = placed(dice_values, places, spur)
    if candidate not in solver.assignments(tuple(sorted(dice_values)), targets["speed"] - horse):
        return None, Text(why_not(candidate, dice_values, targets["speed"], horse, glyphs), style="bold")
    contribution = solver.contribution(candidate, targets["speed"], horse)
    action = next((c["action"] for c in frame.choices if c["action"].get("do") == "assign" and solver.contribution(
        solver.Assignment.from_action(c["action"]), targets["speed"], horse) == contribution), None)
    result = solver.outcome(candidate, targets["speed"], targets["wit"], targets["combat"], targets["money"], horse,
                            rules.wit_bonus(me), rules.combat_bonus(me))
    shared = bool(reckoning.robbery_partners(view, view["you"]))  # Y8: the line is the robbery alone (as the list says)
    text = Text("alone: ") if shared else Text()
    text.append_text(outcome_text(result.as_dict(), glyphs, me, alone=shared))
    pooled = together_with_partner(view) if shared else None
    if pooled is not None:
        text.append(" · together: ")
        text.append_text(outcome_text(pooled(candidate.as_action()), glyphs, me, alone=True, together=True))
    return action, text


def why_not(candidate: solver.Assignment, dice_values: list[int], speed: int, horse: int, glyphs: Glyphs) -> str:
    """Why the rules refuse an assignment (Y7), in the core's words, with the builder's key for the spur."""
    return words.assignment_refused(candidate.speed, candidate.spur, dice_values, speed, horse,
                                    die=lambda value: dice([value], glyphs), spur_key="x")


def best_places(frame: TableFrame, dice_values: list[int]) -> tuple[list[str], bool]:
    """The solver's best assignment die by die (each die's place, and the spur): the builder opens on it."""
    ranked = ranked_robberies(frame)
    places = ["speed"] * len(dice_values)
    if not ranked:
        return places, False
    best = ranked[0]["action"]
    left = {part: list(best.get(part, [])) for part in PARTS}
    for number, value in enumerate(dice_values):
        part = next((p for p in PARTS if value in left[p]), "speed")
        if value in left[part]:
            left[part].remove(value)
        places[number] = part
    return places, bool(best.get("spur"))


# --- picking a coach: the worst its robbery can do ---------------------------------------------------------

def worst_robbery(view: dict[str, Any], me: dict[str, Any], where: str) -> int:
    """At a pick (Y7): the health the robbery at ``where`` costs at the worst roll of the dice still to
    come, alone, when you then share your dice to lose the least health; 0 when no roll costs any. A
    stat still to roll counts at its highest, and your own guards follow you (Y6)."""
    return robbery_extremes(view, me, where)[0]


def robbery_extremes(view: dict[str, Any], me: dict[str, Any], where: str) -> tuple[int, int | None]:
    """At a pick (Y7): ``worst_robbery``, and the most money the best roll of the dice to come can take
    (0: your dice cannot win it, whatever comes; None: nothing to reckon)."""
    coach = coach_at(view, where)
    mine = list(view.get("my_dice") or [])
    if coach is None or len(mine) != 2:
        return 0, None
    speed, wit, combat = (max(reckoning.stat_outcomes(coach[stat], (6,))) for stat in ("speed", "wit", "combat"))
    guards = coach.get("guards", 0) + (me["scoundrel"] // rules.GUARD_STEP if me.get("status") == "riding" else 0)
    combat += rules.GUARD_STRENGTH * guards
    worst, best = 0, 0
    for rolled in itertools.combinations_with_replacement(range(1, 7), 2):  # alone: two more dice (Y7)
        entries = solver.solve(mine + list(rolled), speed, wit, combat, coach["money"], rules.horse_bonus(me),
                               rules.wit_bonus(me), rules.combat_bonus(me))
        if entries:
            worst = min(worst, max(entry.outcome.health for entry in entries))
            best = max(best, max(entry.outcome.money for entry in entries))
    return worst, best


def worst_words(view: dict[str, Any], me: dict[str, Any] | None, where: str) -> Text:
    """" · worst −3 health" beside a coach to pick, when its worst robbery costs health (else " · no
    risk"), and in bold with the health you have when it can kill ("worst: −8 health; you have 8").
    Short: at 80 columns a longer line wraps, and the move list shows fewer coaches."""
    if me is None or me.get("status") != "riding":
        return Text()
    worst, best = robbery_extremes(view, me, where)
    if best == 0:  # warned before the pick, not found out in the robbery
        hopeless = Text(" · your dice cannot win it", style="bold")
        return hopeless.append_text(Text(f" · worst {rules.signed(worst)} health", style="dim")) if worst else hopeless
    if not worst:
        # Said, not left to silence: a newcomer reads "no risk", not the absence of a warning
        return Text(" · no risk", style="dim") if coach_at(view, where) is not None else Text()
    if me["health"] + worst <= 0:
        return Text(f" · worst: {rules.signed(worst)} health; you have {me['health']}", style="bold")
    return Text(f" · worst {rules.signed(worst)} health", style="dim")
