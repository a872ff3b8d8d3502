"""Your Money or Your Life: York and its four coaches, your secret dice and the robbery chooser, the sheets.

Every value comes from the seat's view. What a robbery brings is the engine's own answer
(``robbery_options``, from the dice solver); which outcome is "suggested" is the normal bot's own valuation
(``outcome_value``), so nothing here decides a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual.binding import Binding

from core.engine import quantity
from core.games import money_or_life as rules
from core.games import money_or_life_bots as bots
from core.games import money_or_life_solver as solver
from tui.frame import TableFrame
from tui.games.generic import GamePanes
from tui.glyphs import ASCII, Glyphs
from tui.widgets.component import component_style
from tui.widgets.lines import Shown, lines_of_parts
from tui.widgets.pane import Chip, ClickPane, FramePane, card_rows, text_columns

GAME_ID = "money-or-life"
#: A pick's place in words.
PLACE_NAMES = {**rules.DIRECTION_NAMES, "tavern": "the tavern", "market": "the market", "retire": "retirement"}


def _view(frame: TableFrame) -> dict[str, Any]:
    return frame.view or {}


def _me(view: dict[str, Any]) -> dict[str, Any] | None:
    seat = view.get("you")
    players = view.get("players") or []
    return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else None


def money(amount: int, glyphs: Glyphs) -> str:
    return f"{amount} gn" if glyphs is ASCII else f"£{amount}"


def dice(values: list[int] | tuple[int, ...], glyphs: Glyphs) -> str:
    """Dice as faces and numbers ("⚂3 ⚄5"); the ASCII faces ("d3") already carry the number."""
    if not values:
        return "—" if glyphs is not ASCII else "-"
    if glyphs is ASCII:
        return glyphs.dice(list(values))
    return " ".join(f"{glyphs.die[v]}{v}" if 1 <= v <= 6 else str(v) for v in values)


def round_track(view: dict[str, Any], glyphs: Glyphs) -> Text:
    done, rounds = view.get("round", 0), view.get("rounds", 16)
    text = Text("Round ", style="bold")
    text.append(glyphs.filled * done, style="bold")
    text.append(glyphs.empty * max(0, rounds - done), style="dim")
    text.append(f"  {done} of {rounds}")
    return text


# --- hooks the table screen asks --------------------------------------------------------------------------

PHASE_WORDS = {"pick": "pick where to ride", "rob": "robberies", "town": "in town", "over": "game over"}


def status(frame: TableFrame) -> str:
    view = _view(frame)
    if not view:
        return frame.title
    words = PHASE_WORDS.get(view["phase"], view["phase"])
    if view["phase"] == "over":
        return f"{frame.title} · game over after round {view['round']}"
    line = f"Round {view['round']} of {view['rounds']} · {words}"
    if view.get("solo") and view["round"] >= rules.RIVAL_WAKES:
        line += f" · rival £{view['rival']}"
    return line


def waiting_for(frame: TableFrame) -> list[int]:
    return list(_view(frame).get("pending", []))


def seat_summary(frame: TableFrame, seat: int) -> str:
    view = _view(frame)
    if not view or seat >= len(view.get("players", [])):
        return ""
    player = view["players"][seat]
    line = f"{money(player['guineas'], frame.glyphs)} · score {player['score']}"
    if player["status"] != "riding":
        line += f" · {player['status']}"
    return line


def laid_word() -> str:
    """Y4: a rider has chosen where to ride (a secret pick, not a card laid)."""
    return "chosen"


def laid(frame: TableFrame, seat: int) -> bool | None:
    view = _view(frame)
    if not view or view["phase"] != "pick" or seat >= len(view["players"]):
        return None
    player = view["players"][seat]
    if player["status"] != "riding":
        return None
    return bool(player["picked"])


def score_track(view: dict[str, Any]) -> list[float]:
    return [float(player["score"]) for player in view["players"]]


def reveal_item(value: Any) -> str:
    """The results' reveal (A2) in words: a pick "E" is "East"; numbers stay numbers (a coach card's
    number and a die look alike without the key they come under)."""
    if isinstance(value, str):
        return rules.DIRECTION_NAMES.get(value, value)
    return str(value)


def reveal_text(reveal: dict[str, Any], frame: TableFrame) -> Text:
    """A2 in words: the coaches by name (still face down in the pile, next first, then the discards: a
    pile used up is the discards shuffled anew, Y12, so neither is "never dealt"), the last round's secret
    dice and picks by seat, and in solo the rival's money."""
    def coaches(cards: list[int]) -> str:
        return "; ".join(rules.COACHES[card][0] for card in cards) or "none"

    text = Text()
    for label, cards in (("Coaches still in the pile, next first", reveal.get("deck", [])[::-1]),
                         ("Coaches on the discard pile", reveal.get("discards", []))):
        text.append(f"  {label}: ", style="bold")
        text.append(f"{coaches(cards)}\n")
    text.append("  The last round's secret dice and picks\n", style="bold")
    picks = reveal.get("picks", [])
    for seat, dice_values in enumerate(reveal.get("dice", [])):
        pick = picks[seat] if seat < len(picks) else None
        where = PLACE_NAMES.get(pick, str(pick)) if pick else "no pick"
        text.append(f"    {frame.plain_name(seat)}: {dice(dice_values, frame.glyphs) or 'no dice'} · {where}\n")
    if _view(frame).get("solo"):
        text.append("  The rival's money: ", style="bold")
        text.append(f"{money(reveal.get('rival', 0), frame.glyphs)}\n")
    return text


def scoundrel_score_in_words(me: dict[str, Any]) -> str:
    """Y13: what declaring changes, now: "you would score 7 (now −3)", or that it changes nothing yet."""
    as_scoundrel = rules.score({**me, "as_scoundrel": True})
    if as_scoundrel == me["score"]:
        return f"your score stays {rules.signed(as_scoundrel, plus=False)} for now"
    return f"you would score {rules.signed(as_scoundrel, plus=False)} (now {rules.signed(me['score'], plus=False)})"


def confirm_choice(frame: TableFrame, action: dict[str, Any]) -> tuple[str, str, str, str] | None:
    """Moves that cannot be taken back, each on one key, asked first: retiring ends your game (Y14), and
    playing as a scoundrel is for the rest of it (Y13), in every list where a stray key could pick it."""
    me = _me(_view(frame)) or {}
    if action.get("do") == "play_as_scoundrel" and "score" in me:
        return ("Play as a scoundrel for the rest of the game?",
                "Everyone is told, and it cannot be undone: from now on you score guineas + scoundrel − folk "
                f"hero instead of guineas + folk hero − scoundrel; {scoundrel_score_in_words(me)}.",
                "Play as a scoundrel", "Not now")
    if action.get("do") != "pick" or action.get("where") != "retire":
        return None
    score = f" with a score of {me['score']}" if "score" in me else ""
    others = ("the rival rides on alone to the last round, and you win if your score beats his money (Y16)"
              if _view(frame).get("solo") else "the other player rides on without you")
    return ("Retire from the road?", f"You leave the game for good{score}; {others} (Y14).", "Retire", "Ride on")


def result_note(frame: TableFrame, seat: int) -> str:
    """Y11, Y14: a rider who died loses whatever his score (a score of 12 above the rival's 0 read as a
    win), and one who retired kept his score from then."""
    players = _view(frame).get("players") or []
    status = players[seat].get("status") if 0 <= seat < len(players) else None
    if status == "dead" and len(players) > 1 and all(player.get("status") == "dead" for player in players):
        # Y11: when both hang the reputation decides, not the score beside it
        return f" (died, reputation {rules.signed(rules.reputation(players[seat]))})"
    return {"dead": " (died)", "retired": " (retired)"}.get(str(status), "")


def final_tracks(frame: TableFrame, seat: int) -> str:
    """Every rider's tracks at the end (revealed to all with the result): folk hero, scoundrel, health
    and purse, and whether he scored as a scoundrel."""
    players = _view(frame).get("players") or []
    if not 0 <= seat < len(players) or "folk_hero" not in players[seat]:
        return ""
    player = players[seat]
    tracks = (f"folk hero {player['folk_hero']} · scoundrel {player['scoundrel']} · "
              f"health {player['health']} of {rules.MAX_HEALTH} · {money(player['guineas'], frame.glyphs)}")
    return tracks + (" · scored as a scoundrel" if player.get("as_scoundrel") else "")


def others_in_the_result(frame: TableFrame) -> list[tuple[str, int, bool]]:
    """Y16: in solo the rival sits at the table without a seat; his money is his score, and he wins when
    the highwayman does not beat it."""
    result = frame.result or {}
    if not _view(frame).get("solo") or "rival" not in result.get("reveal", {}):
        return []
    return [("the rival", result["reveal"]["rival"], not result.get("winners"))]


def prompt_title(frame: TableFrame) -> str:
    view = _view(frame)
    me = _me(view)
    phase = view.get("phase")
    if phase == "pick":
        if me and me["must_rest"]:
            return "you spurred last round: rest at the tavern (Y5)"
        # Your dice decide where to ride, and at 80 columns the hand that shows them is another tab.
        mine = view.get("my_dice")
        if mine:  # (short enough for one line at 80 columns)
            return f"your dice {dice(mine, frame.glyphs)}: where do you ride? (secret until the reveal)"
        return "where do you ride this round? (secret until the reveal)"
    if phase == "rob" and me and me.get("pick") in rules.DIRECTIONS:
        coach = _coach(view, me["pick"])
        name = coach["name"] if coach else PLACE_NAMES[me["pick"]]
        partners = [seat for seat in robbers_of(view, me["pick"]) if not frame.is_me(seat)]
        # Y8: each line tells the robbery alone; the hand says how a shared one pools.
        shared = ""
        if partners:  # a shared purse is split: say each rider's share, not the whole purse
            each = f", {money(coach['money'] // 2, frame.glyphs)} each" if coach else ""
            shared = (f" (shared with {riders_named(frame, partners)}: outcomes shown alone; if both catch it, "
                      f"wit and combat pool{each})")
        return f"share your dice between speed, wit and combat against {name}{shared}"
    if phase == "town" and me and me.get("pick") in rules.TOWN:
        return f"in {PLACE_NAMES[me['pick']]}: you have {money(me['guineas'], frame.glyphs)}"
    return ""


def choice_matches(action: dict[str, Any], target: str) -> bool:
    """``where:N`` (a coach, the tavern, the market) picks that place; ``assign:KEY`` one robbery."""
    kind, _, value = target.partition(":")
    if kind == "where":
        return action.get("do") == "pick" and action.get("where") == value
    if kind == "assign":
        return action.get("do") == "assign" and assignment_key(action) == value
    return False


def assignment_key(action: dict[str, Any]) -> str:
    """A short, stable name for an assignment action (a chip's target)."""
    return "|".join([str(int(bool(action.get("spur")))),
                     *(",".join(map(str, action.get(part, []))) for part in ("speed", "wit", "combat"))])


def choice_label(frame: TableFrame, choice: dict[str, Any]) -> RenderableType:
    view, action = _view(frame), choice["action"]
    glyphs = frame.glyphs
    kind = action.get("do")
    if kind == "assign":
        return robbery_label(frame, action, glyphs)
    text = Text(str(choice.get("text", "")))
    me = _me(view)
    if kind == "pick":
        where = action["where"]
        if where in rules.DIRECTIONS:
            coach = _coach(view, where)
            if coach:
                text.append(f" — {coach['name']}, {money(coach['money'], glyphs)}", style="dim")
        elif where == "tavern":
            text.append(f" — health at {rules.HEAL_PRICE['tavern']} guineas a point", style="dim")
        elif where == "market":
            text.append(f" — horses, weapons, gear; food at {rules.HEAL_PRICE['market']} guineas a point",
                        style="dim")
        if where in rules.DIRECTIONS or where in rules.TOWN:
            text.append_text(_own_guards_at(view, me, where))
        elif where == "retire" and me:
            text.append(f" — leave the road with a score of {me['score']}", style="dim")
    elif kind == "play_as_scoundrel" and me:
        text.append(f" — for good; {scoundrel_score_in_words(me)}", style="dim")
    elif kind == "heal" and me and me.get("pick") in rules.HEAL_PRICE:
        text.append(f" — {money(rules.HEAL_PRICE[me['pick']], glyphs)} · health {me['health']} → "
                    f"{me['health'] + 1}", style="dim")
    elif kind == "give":
        text.append(f" — {money(rules.GIFT_PRICE, glyphs)} · scoundrel −1, folk hero +1", style="dim")
    elif kind == "buy" and me:
        item = str(action.get("item"))
        price = next((p for offer, p in rules.purchases(me) if offer == action), None)
        kind_, _, bonus = rules.ITEMS.get(item, ("", 0, 0))
        stat = {"horse": "speed", "weapon": "combat", "gear": "wit"}.get(kind_, "")
        # What the stat gains, net of what is traded in, as the price is
        given_up = sum(rules.ITEMS[old][2] for old in rules.traded_in(me, action) if old in rules.ITEMS)
        gain = f"{stat} {bonus - given_up:+d} (+{bonus} in place of +{given_up})" if given_up else f"{stat} +{bonus}"
        if price is not None:
            text.append(f" — {money(price, glyphs)} · {gain}".replace("-", "−"), style="dim")
    elif kind == "leave" and me:
        text.append(f" — keep your {money(me['guineas'], glyphs)}", style="dim")
    return text


# --- robberies: the solver's outcomes, ranked ------------------------------------------------------------

def robbery_label(frame: TableFrame, action: dict[str, Any], glyphs: Glyphs) -> Text:
    """``speed ⚂ · wit ⚄⚀ · combat ⚅ → £7, folk hero +1, scoundrel +3`` (and "★ suggested" on the one the
    normal bot would take)."""
    text = assignment_text(action, glyphs, compact=True)
    ranked = ranked_robberies(frame)
    found = next((entry for entry in ranked if entry["action"] == action), None)
    if found is None:
        return text
    view = _view(frame)
    me = _me(view)
    text.append(" → alone: " if found["shared"] else " → ")
    text.append_text(outcome_text(found["outcome"], glyphs, me, view.get("round", 0) >= view.get("rounds", 16),
                                  alone=found["shared"]))
    if ranked and found is ranked[0]:
        text.append(f"  {glyphs.star} suggested", style="bold")
        # "best" beside a line another beats on the sheet's score would read as a mistake: say what it weighs.
        if me and any(score_change(entry["outcome"], me) > score_change(found["outcome"], me) for entry in ranked):
            text.append(" (counts health and guards too)", style="dim")
    return text


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
                 last_round: bool = False, alone: bool = False) -> Text:
    """What a robbery brings: "£4, folk hero −3 (to 0), scoundrel +2"; a track that does not move is left
    out. ``me`` is the robber before it (for "(to 0)" and a death); an entry of the view's ``last`` carries
    the folk hero it had (``folk_hero_was``) instead. ``alone``: the robbery as it goes if a partner on
    the same coach misses (Y8), so a death is "alone", not a certainty."""
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
        parts.append(f"health {outcome['health']:+d}")
    if outcome["spur"] and not last_round:
        parts.append("tavern next round")  # Y5: the spur's other price (none after the last round)
    text = Text(", ".join(parts).replace("-", "−"))
    if me is not None and me["health"] + outcome["health"] <= 0:
        # On a shared coach the line is the robbery alone, which happens only if the partner misses.
        text.append("  you would die alone" if alone else "  YOU WOULD DIE", style="bold" if alone else "bold reverse")
    return text


def track_change(name: str, change: int, me: dict[str, Any] | None, key: str) -> str:
    """"folk hero −3", and "(to 0)" where the track cannot go that low (Y2: never below 0); nothing at all
    where it is at 0 already, as for a track that does not move."""
    text = f"{name} {change:+d}".replace("-", "−")
    if me is not None and change < 0 and me.get(key, 0) + change < 0:
        if me.get(key, 0) <= 0:
            return ""
        text += " (to 0)"
    return text


#: The last frame ranked and its ranking (the labels of one prompt all ask for it).
_ranked_cache: list[tuple[TableFrame, list[dict[str, Any]]]] = []


def ranked_robberies(frame: TableFrame) -> list[dict[str, Any]]:
    """This seat's robbery choices (the prompt's assign actions) with the solver's outcome, best first.

    Each entry: ``action`` (as the prompt has it), ``index`` (its place in the prompt), ``outcome``,
    ``shared`` and ``value`` (the sharp bot's worth of the outcome in points of score)."""
    view = _view(frame)
    me = _me(view)
    if view.get("phase") != "rob" or me is None or not frame.choices:
        return []
    if _ranked_cache and _ranked_cache[0][0] is frame:  # the move pane and the hand ask of the same frame
        return _ranked_cache[0][1]
    options = rules.robbery_options(view)
    by_description = {text: option for option in options for text in option["assignments"]}
    profile = bots.my_profile(view, view["you"])
    # Y8: on a shared coach the normal bot weighs each line pooled with the partner's every way of sharing
    # his dice.
    shared_value = bots.shared_robbery_values(view, view["you"]) if bots.robbery_partners(view, view["you"]) else None
    ranked = []
    for index, choice in enumerate(frame.choices):
        action = choice["action"]
        if action.get("do") != "assign":
            continue
        option = by_description.get(solver.describe(solver.Assignment.from_action(action)))
        if option is None:
            continue
        outcome = option["outcome"]
        value = shared_value(action) if shared_value else bots.outcome_value(
            outcome["folk_hero"], outcome["scoundrel"], outcome["health"], outcome["money"], outcome["spur"], profile)
        ranked.append({"action": action, "index": index, "outcome": outcome, "shared": option["shared"],
                       "value": value})
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


# --- the coaches ------------------------------------------------------------------------------------------

def _own_guards_at(view: dict[str, Any], me: dict[str, Any] | None, where: str) -> Text:
    """Y6: a scoundrel's own guards follow him wherever he rides, which is certain when he picks: at a coach
    they add to its combat, in town he fights them first (Y9). The sheet showed only the count, and the +5
    came to light only once the pick was made."""
    guards = me["scoundrel"] // rules.GUARD_STEP if me and me.get("status") == "riding" else 0
    if not guards:
        return Text()
    yours = "a guard on your trail" if guards == 1 else f"{guards} guards on your trail"
    if where in rules.TOWN:
        each = "" if guards == 1 else " each"
        return Text(f" · {yours} wait{'s' if guards == 1 else ''}: d6 + weapons against "
                    f"{rules.GUARD_STRENGTH}{each}", style="bold")
    coach = _coach(view, where)
    if coach is None:
        return Text()
    plus, combat = rules.GUARD_STRENGTH * guards, coach["combat"]
    shown = f"{combat + plus} ({combat} + {plus})" if isinstance(combat, int) else f"{combat} + {plus}"
    return Text(f" · {yours}: combat {shown}", style="bold")


def _coach(view: dict[str, Any], where: str) -> dict[str, Any] | None:
    return next((coach for coach in view.get("coaches", []) if coach["at"] == where), None)


def combat_text(coach: dict[str, Any]) -> str:
    """"9", "3+d6", and with guards "9 + 2 guards = 19" (a guard is worth 5, Y6)."""
    guards = coach.get("guards", 0)
    if not guards:
        return str(coach["combat"])
    plus = rules.GUARD_STRENGTH * guards
    noun = "guard" if guards == 1 else "guards"
    if isinstance(coach["combat"], int):
        return f"{coach['combat']} + {guards} {noun} = {coach['combat'] + plus}"
    return f"{coach['combat']} + {plus} ({guards} {noun})"


def coach_stats(coach: dict[str, Any]) -> str:
    return " · ".join(coach_stat_parts(coach))


def coach_stat_parts(coach: dict[str, Any]) -> list[str]:
    return [f"speed {coach['speed']}", f"wit {coach['wit']}", f"combat {combat_text(coach)}"]


def beside(blocks: list[list[Text]], widths: list[int], gap: int = 1) -> list[Text]:
    """Blocks of lines side by side, each ``widths`` wide (a short block is padded with blank lines)."""
    rows = []
    for number in range(max(len(block) for block in blocks)):
        row = Text()
        for column, (block, width) in enumerate(zip(blocks, widths)):
            if column:
                row.append(" " * gap)
            row.append_text(block[number] if number < len(block) else Text(" " * width))
        rows.append(row)
    return rows


def riders_named(frame: TableFrame, seats: list[int]) -> str:
    """Who rides somewhere, as the board says it: "you, Moll Cutpurse" (the players pane says which seat
    is a bot; without it a name stays on its coach's line)."""
    return ", ".join("you" if frame.is_me(seat) else short_name(frame.plain_name(seat)) for seat in seats)


def robbers_of(view: dict[str, Any], where: str) -> list[int]:
    """Who (as the view shows it) rides at ``where`` this round: after the reveal, or yourself before."""
    seats = [p["seat"] for p in view.get("players", []) if p.get("pick") == where]
    if not seats and view.get("my_pick") == where and view.get("you") is not None:
        seats = [view["you"]]
    return seats


class YorkBoard(ClickPane):
    """York and its four roads: each coach a block at its compass point, the town between them, the
    round track, the town guards' rolls, the latest robberies and, in solo, the rival. A click on a
    coach or a place in town picks it.

    Drawn as text: the board changes on every table, and a pane of widgets laid the table out again
    whenever a coach's words grew or shrank (and cut the words of a coach squeezed to the side)."""

    COMPONENT_CLASSES = ClickPane.COMPONENT_CLASSES | {"york--coach", "york--bar", "york--bar-playable"}
    KEEP_TALLEST = True  # the guards and the latest robberies come and go each round

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._blocks: dict[tuple, list[Text]] = {}
        self._bar_styles: dict[bool, Style] = {}

    #: The town's column in the compass, and the most a coach block takes.
    TOWN_WIDTH = 16
    COACH_WIDTH = 36

    #: What the board reads of the view (and of each player, where they rode): a secret pick or an
    #: assignment elsewhere at the table changes none of it.
    SHOWN = ("coaches", "round", "rounds", "solo", "rival", "rival_log", "revealed", "guard_rolls", "guards",
             "last", "my_pick", "you")

    def draw_key(self, frame: TableFrame) -> object:
        view = _view(frame)
        picks = [player.get("pick") for player in view.get("players", [])]
        names = [frame.plain_name(seat) for seat in range(len(picks))]
        return ([view.get(key) for key in self.SHOWN], picks, names, frame.seat, self._choosable(frame),
                self._content_width(), self.hovered, self._cramped(), self.glyphs)

    @staticmethod
    def _choosable(frame: TableFrame) -> dict[str, int]:
        """The places the prompt lets you pick, with the number the move pane shows for each (a robbery's
        many assignments are none of the board's business)."""
        return {choice["action"]["where"]: shown_number(frame, index)
                for index, choice in enumerate(frame.choices) if choice["action"].get("do") == "pick"}

    def draw(self, frame: TableFrame) -> Shown:
        view = _view(frame)
        lines: list[Text] = []
        if view.get("coaches"):
            choosable = self._choosable(frame)
            lines += self._compact(frame, choosable) if self._cramped() else self._compass(frame, choosable)
        lines.append(round_track(view, self.glyphs))
        if view.get("solo"):
            lines.append(self._rival(view))
        # The news lines are always there, so the board keeps its height from round to round.
        lines += [self._guards(view), self._latest(frame)]
        return lines

    #: Below this many rows the compass (up to 22 with its news) leaves the hand two or three lines, too
    #: few for the dice builder: the board folds to a line a coach instead.
    COMPASS_ROWS = 38

    def _cramped(self) -> bool:
        """True when the table is folded into tabs (a narrow terminal) or short: one line a coach, no
        compass."""
        return bool(getattr(self.screen, "narrow", False)) or self.app.size.height < self.COMPASS_ROWS

    # --- the compass

    def _compass(self, frame: TableFrame, choosable: dict[str, int]) -> list[Text]:
        width = self._content_width() or 78
        town = self.TOWN_WIDTH
        side = max(12, min(self.COACH_WIDTH, (width - town - 2) // 2))
        edge_margin = max(0, (width - side) // 2)

        def on_edge(where: str) -> list[Text]:
            return [Text(" " * edge_margin) + line for line in self._coach_block(frame, where, choosable, side)]

        middle = beside([self._coach_block(frame, "W", choosable, side), self._town_block(frame, choosable, town),
                         self._coach_block(frame, "E", choosable, side)], [side, town, side])
        return [*on_edge("N"), *middle, *on_edge("S")]

    def _coach_block(self, frame: TableFrame, where: str, choosable: dict[str, int], width: int) -> list[Text]:
        coach = _coach(_view(frame), where)
        assert coach is not None
        head = self._coach_head(frame, where, coach, choosable)
        # One line, its riders cut short: a head that wrapped (two riders' names) made the board a line
        # taller for good (it keeps its tallest height), above a move list that scrolled.
        head.truncate(width - 2, overflow="ellipsis")
        stats = [Text(line) for line in lines_of_parts(coach_stat_parts(coach), width - 2)]
        words = [head, Text(coach["name"]), *stats]
        return self._block(words, width, f"where:{where}", where in choosable, self.background_of("york--coach"))

    def _town_block(self, frame: TableFrame, choosable: dict[str, int], width: int) -> list[Text]:
        name = Text()
        name.append(" " * ((width - 4) // 2))
        name.append("YORK", style="bold")
        name.pad_right(width - name.cell_len)
        lines = [name]
        for place in rules.TOWN:
            lines += self._block([self._place_label(frame, place, choosable)], width, f"where:{place}",
                                 place in choosable)
        return lines

    def _block(self, words: list[Text], width: int, target: str, playable: bool,
               background: Style | None = None) -> list[Text]:
        """``words`` wrapped to a block ``width`` wide behind a bar (green when a choice picks it).

        Blocks are kept: a coach's words change a few times a round, and wrapping them is most of
        drawing the board on every table."""
        key = (tuple((text.plain, tuple(text.spans), text.style) for text in words), width, target, playable,
               background, target == self.hovered)
        lines = self._blocks.get(key)
        if lines is None:
            if len(self._blocks) >= 64:
                self._blocks.clear()
            lines = self._blocks[key] = self._wrapped_block(words, width, target, playable, background)
        return lines

    def _bar_style(self, playable: bool) -> Style:
        # Looked up once a theme: a component's style walks the stylesheet, and a board has a dozen bars.
        style = self._bar_styles.get(playable)
        if style is None:
            component = component_style(self, "york--bar-playable" if playable else "york--bar")
            style = self._bar_styles[playable] = Style(color=component.color)
        return style

    def forget_styles(self) -> None:
        self._blocks.clear()  # a new theme: new colours for the bars
        self._bar_styles.clear()

    def _wrapped_block(self, words: list[Text], width: int, target: str, playable: bool,
                       background: Style | None) -> list[Text]:
        lines = []
        for text in words:
            for wrapped in text.wrap(self.app.console, max(1, width - 2)):
                line = self._bar(playable)
                line.append_text(wrapped)
                line.pad_right(width - line.cell_len)
                if background is not None:
                    line.stylize(background)
                lines.append(self.part(line, target))
        return lines

    # --- folded: one line a coach, the town on one line

    def _compact(self, frame: TableFrame, choosable: dict[str, int]) -> list[Text]:
        view, glyphs = _view(frame), self.glyphs
        heads = {where: self._coach_head(frame, where, _coach(view, where), choosable, riders=False)
                 for where in rules.DIRECTIONS}
        # The names line up after the widest head: at 80 columns a fixed column left riders no room.
        column = max(head.cell_len for head in heads.values()) + 2
        lines = []
        for where, line in heads.items():
            coach = _coach(view, where)
            line.pad_right(column - line.cell_len)
            line.append(f"{coach['name']}  ")
            line.append(coach_stats(coach), style="dim")
            riders = robbers_of(view, where)
            if riders:
                line.append(f"  {glyphs.turn} " + riders_named(frame, riders), style="italic")
            bar = self._bar(where in choosable)
            bar.append_text(self.part(line, f"where:{where}"))
            lines.append(bar)
        town = Text()
        town.append("York:", style="bold")
        for place in rules.TOWN:
            town.append("  ")
            town.append_text(self._bar(place in choosable))
            town.append_text(self.part(self._place_label(frame, place, choosable), f"where:{place}"))
        lines.append(town)
        return lines

    def _bar(self, playable: bool) -> Text:
        """The edge of a pickable block: green when a choice picks it (and a [n] key beside it)."""
        bar = Text()
        bar.append(self.glyphs.bar, style=self._bar_style(playable))
        bar.append(" ")
        return bar

    # --- words

    def _coach_head(self, frame: TableFrame, where: str, coach: dict[str, Any], choosable: dict[str, int],
                    riders: bool = True) -> Text:
        head = Text()
        if where in choosable:
            head.append(f"[{choosable[where]}] ", style="bold reverse")
        head.append(f"{rules.DIRECTION_NAMES[where]} · {money(coach['money'], self.glyphs)}", style="bold")
        seats = robbers_of(_view(frame), where) if riders else []
        if seats:
            head.append(f"  {self.glyphs.turn} " + riders_named(frame, seats), style="italic")
        return head

    def _place_label(self, frame: TableFrame, place: str, choosable: dict[str, int]) -> Text:
        view = _view(frame)
        label = Text()
        if place in choosable:
            label.append(f"[{choosable[place]}] ", style="bold reverse")
        label.append(place)
        guards = view.get("guards", {}).get(place, 0)
        if guards:
            label.append(f" · {guards} guard{'s' if guards > 1 else ''}", style="bold")
        riders = robbers_of(view, place)
        if riders:
            label.append(f" {self.glyphs.turn} " + riders_named(frame, riders), style="italic")
        return label

    def _rival(self, view: dict[str, Any]) -> Text:
        text = Text("Rival: ", style="bold")
        if view["round"] < rules.RIVAL_WAKES and not view["rival_log"]:
            text.append(f"rides from round {rules.RIVAL_WAKES}; takes the richest coach you leave "
                        "if 2d6 beats its combat")
            return text
        text.append(money(view["rival"], self.glyphs))
        log = view["rival_log"]
        if log:
            text.append(f" · last time {'took ' + money(log[-1], self.glyphs) if log[-1] else 'got nothing'}",
                        style="dim")
        text.append(" · beat his money to win (Y16)", style="dim")
        return text

    def _guards(self, view: dict[str, Any]) -> Text:
        if not view.get("revealed"):
            return Text("Town guards: rolled once the picks are revealed", style="dim")
        rolls = view.get("guard_rolls", [])
        placed = {place: count for place, count in view.get("guards", {}).items() if count}
        if not rolls and not placed:
            return Text("Town guards: none this round", style="dim")
        # Where the guards stand is told at each coach and place above: this line tells how they got there,
        # on one line (a second would take a row from the hand and the sheet below).
        text = Text("Town guards: ", style="bold")
        told = []
        if rolls:
            told.append("rolled " + ", ".join(f"{dice([roll], self.glyphs)} {PLACE_NAMES[rules.GUARD_PLACES[roll]]}"
                                              for roll in rolls))
        hunting = sum(placed.values()) - len(rolls)  # the scoundrels' guards, at their picks (Y6)
        if hunting > 0:
            told.append(f"{quantity(hunting, 'guard')} {'follows a scoundrel' if hunting == 1 else 'follow scoundrels'}")
        text.append("; ".join(told))
        return text

    def _latest(self, frame: TableFrame) -> Text:
        """Each rider's latest robbery, a line each under the first, and a line kept for every rider from
        the start: the board keeps its height as the robberies come (a taller board re-lays the table)."""
        view = _view(frame)
        last = view.get("last") or []
        riders = len(view.get("players") or []) or 1
        if not last:
            return Text("Latest robberies: none yet" + "\n" * (riders - 1), style="dim")
        head = "Latest robberies: "
        text = Text(head, style="bold")
        robberies = latest_each(last)
        # A rider who spent the last round in town still shows his robbery before it: then every line says
        # its round.
        rounds = {entry.get("round") for entry in robberies}
        for number, entry in enumerate(robberies):
            if number:
                text.append("\n" + " " * len(head))
            earlier = f" in round {entry['round']}" if len(rounds) > 1 else ""
            text.append(f"{riders_named(frame, [entry['seat']])} at "
                        f"{rules.DIRECTION_NAMES.get(entry['where'], entry['where'])}{earlier}: ")
            text.append_text(outcome_text(entry, self.glyphs, None))
        text.append("\n" * max(0, riders - len(robberies)))
        return text


def latest_each(robberies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each rider's latest robbery, in the order they happened: a rider who spent the last round in town
    shows his robbery before it once, not twice beside another's."""
    latest = {entry["seat"]: entry for entry in robberies}
    return [entry for entry in robberies if latest[entry["seat"]] is entry]


# --- the hand: your dice, your pick, and the robbery chooser ---------------------------------------------

PARTS = ("speed", "wit", "combat")

#: The columns a die of the builder takes: "▸⚄5 combat" and a gap.
DIE_WIDTH = 12


@dataclass
class DicePlan:
    """The dice builder's state for one robbery: where each die is, the spur, and the die the keys move.
    Kept by the hand across table updates, until the prompt changes."""

    prompt: int | None
    places: list[str]
    spur: bool = False
    selected: int = 0


class YorkHand(ClickPane, can_focus=False):
    """Your two secret dice, your pick, and in a robbery the dice builder: each die with the place it goes
    to (speed, wit or combat) and the solver's outcome of that assignment, live.

    In a robbery the hand takes the focus (Tab): ←/→ choose a die, s/w/c put it on speed, wit or combat,
    x spurs the horse, Enter sends it; a click on a die moves it on. Drawn as text like every pane, so a
    robbery coming or going changes lines, never widgets."""

    BINDINGS = [
        Binding("left", "select(-1)", "die left", show=False),
        Binding("right", "select(1)", "die right", show=False),
        Binding("s", "place('speed')", "speed"),
        Binding("w", "place('wit')", "wit"),
        Binding("c", "place('combat')", "combat"),
        Binding("x", "spur", "spur"),
        Binding("enter", "send", "send"),  # short: the builder's keys and the table's fill the footer
    ]
    COMPONENT_CLASSES = ClickPane.COMPONENT_CLASSES | {"york-hand--die"}
    # Late in a game the board's news leaves the hand seven rows: the builder (eight) and the quieter
    # lines between robberies (four) would show and hide a scrollbar, and lay the table out, each time.
    KEEP_TALLEST = True

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.plan: DicePlan | None = None
        self._keys_note = ""

    # --- drawing

    def draw(self, frame: TableFrame) -> Shown:
        view = _view(frame)
        me = _me(view)
        if me is None:
            return Text("")
        in_robbery = self.plan is not None
        self.plan = self._plan_for(frame)
        if (self.plan is not None) != in_robbery and self.scroll_y:
            # The builder comes or goes: its first line on top, not where the other one was scrolled to.
            self.scroll_to(y=0, animate=False, immediate=True)
        target = self._target_line(view)
        if self.plan is not None:
            # Only the builder, and its keys in the border: a hand that fits its pane never shows or
            # hides a scrollbar (which lays the whole table out again).
            self._note_keys("←→ s w c x Enter" if self.has_focus else "Tab: place the dice")
            # What the dice would bring comes before what the coach asks: it must never fall below the pane.
            return [*self._dice_rows(me), self._outcome(frame), *([target] if target else [])]
        self._note_keys("")
        lines = [*([target] if target else []), self._dice_line(view), self._pick_line(frame)]
        out_of_reach = self._out_of_reach(view, me)
        if out_of_reach is not None:
            lines.append(out_of_reach)
        latest = self._my_latest(frame)
        if latest is not None:
            lines.append(latest)
        return lines

    def keepsake(self) -> object:
        return replace(self.plan, places=list(self.plan.places)) if self.plan is not None else None

    def take_back(self, keepsake: object) -> None:
        if isinstance(keepsake, DicePlan):
            self.plan = keepsake  # kept by _plan_for while its prompt is the table's

    def _note_keys(self, note: str) -> None:
        """The builder's keys in the border, set only when they change (setting it repaints the pane)."""
        if note != self._keys_note:
            self._keys_note = self.border_subtitle = note

    def _plan_for(self, frame: TableFrame) -> DicePlan | None:
        """The builder's plan for this table: kept while the same robbery's prompt stands, else opened on
        the solver's best assignment; None when there is no robbery to assign."""
        view = _view(frame)
        me = _me(view) or {}
        robbing = view["phase"] == "rob" and any(c["action"].get("do") == "assign" for c in frame.choices)
        dice_values = list(me.get("rob_dice") or [])
        self.can_focus = robbing and bool(dice_values)
        if not self.can_focus:
            if self.has_focus:
                self.screen.focus_next("#move-choices")
            return None
        prompt = frame.prompt.get("id") if frame.prompt else None
        plan = self.plan
        if plan is None or plan.prompt != prompt or len(plan.places) != len(dice_values):
            plan = DicePlan(prompt, *best_places(frame, dice_values))
        return plan

    def _dice_rows(self, me: dict[str, Any]) -> list[Text]:
        """Each die with its place, and the spur, as many to a row as fit; each clicks."""
        plan = self.plan
        assert plan is not None
        dice_values = list(me.get("rob_dice") or [])
        cells = [self._die_cell(number, value) for number, value in enumerate(dice_values)]
        cells.append(self._cell(Text(f" spur {'on (+1, −1 health)' if plan.spur else 'off'}"), "spur"))
        return card_rows(cells, self._content_width())

    def _die_cell(self, number: int, value: int) -> Text:
        plan = self.plan
        assert plan is not None
        chosen = number == plan.selected
        cell = Text(f"{'▸' if chosen else ' '}{dice([value], self.glyphs)} {plan.places[number]}")
        if chosen:
            cell.stylize("bold reverse" if self.has_focus else "bold")
        return self._cell(cell, f"die:{number}")

    def _cell(self, words: Text, target: str) -> Text:
        """One of the builder's cells: a tinted block of a die's width that clicks."""
        words.pad_right(DIE_WIDTH - 1 - words.cell_len)
        words.stylize(self.background_of("york-hand--die"))
        return self.part(words, target)

    def _outcome(self, frame: TableFrame) -> Text:
        plan = self.plan
        assert plan is not None
        action, words = try_assignment(frame, plan.places, plan.spur)
        text = Text("→ ")
        text.append_text(words)
        if action is not None:  # (a shared coach is said in the line above: Y8)
            index = next(i for i, c in enumerate(frame.choices) if c["action"] == action)
            text.append(f" · choice [{shown_number(frame, index)}]", style="dim")
        return text

    def watch_has_focus(self, has_focus: bool) -> None:
        super().watch_has_focus(has_focus)
        self.redraw()  # the chosen die lit, and the keys spelled out, only while the keys reach it

    # --- the builder's keys and clicks

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("select", "place", "spur", "send"):
            return self.plan is not None
        return True

    def action_select(self, step: int) -> None:
        if self.plan is not None and self.plan.places:
            self.plan.selected = (self.plan.selected + step) % len(self.plan.places)
            self.redraw()

    def action_place(self, part: str) -> None:
        if self.plan is not None and self.plan.places:
            self.plan.places[self.plan.selected] = part
            self.redraw()

    def action_spur(self) -> None:
        if self.plan is not None:
            self.plan.spur = not self.plan.spur
            self.redraw()

    def action_send(self) -> None:
        if self.plan is None or self.frame is None:
            return
        action, _ = try_assignment(self.frame, self.plan.places, self.plan.spur)
        if action is None:
            self.notify("The rules do not allow that assignment: see why under the dice.", severity="warning")
            return
        self.post_message(Chip.Clicked(f"assign:{assignment_key(action)}"))

    def on_chip_clicked(self, message: Chip.Clicked) -> None:
        """A click on a die moves it on (speed → wit → combat); on the spur, toggles it."""
        kind, _, value = message.target.partition(":")
        plan = self.plan
        if plan is None or kind not in ("die", "spur"):
            return
        message.stop()
        if kind == "spur":
            self.action_spur()
            return
        number = int(value)
        if number < len(plan.places):
            plan.selected = number
            plan.places[number] = PARTS[(PARTS.index(plan.places[number]) + 1) % len(PARTS)]
            self.redraw()

    # --- words

    def _dice_line(self, view: dict[str, Any]) -> Text:
        glyphs = self.glyphs
        me = _me(view)
        text = Text("Your dice: ", style="bold")
        mine = view.get("my_dice")
        if not mine:
            text.append("none this round" if me and me["status"] != "riding" else "none yet")
            return text
        text.append(dice(mine, glyphs))
        rob_dice = me.get("rob_dice") if me else None
        if rob_dice and len(rob_dice) > len(mine):
            text.append("  + rolled to rob: ", style="bold")
            text.append(dice(rob_dice[len(mine):], glyphs))
        elif not view.get("revealed"):
            text.append("   (only you see them until the reveal)", style="dim")
        return text

    def _target_line(self, view: dict[str, Any]) -> Text | None:
        """In a robbery: what the coach asks and what your horse, gear and weapons add."""
        me = _me(view)
        if view.get("phase") != "rob" or me is None or me.get("pick") not in rules.DIRECTIONS:
            return None
        coach = _coach(view, me["pick"])
        if coach is None:
            return None
        targets = rules.shown_coach_targets(view, me["pick"])
        text = Text("To beat: ", style="bold")
        text.append(f"speed {targets['speed']} · wit {targets['wit']} · combat {targets['combat']} "
                    f"for {money(targets['money'], self.glyphs)}")
        bonuses = [f"{stat} +{bonus}" for stat, bonus in (("speed", rules.horse_bonus(me)),
                   ("wit", rules.wit_bonus(me)), ("combat", rules.combat_bonus(me))) if bonus]
        if bonuses:
            text.append(f" · your kit: {', '.join(bonuses)}", style="dim")
        partners = [p for p in view["players"] if p["seat"] != me["seat"] and p.get("pick") == me["pick"]]
        if partners:
            text.append("\nShared (Y8): speed alone; wit and combat pooled; half the money", style="italic")
        return text

    def _pick_line(self, frame: TableFrame) -> Text:
        view = _view(frame)
        me = _me(view)
        text = Text("Your pick: ", style="bold")
        pick = view.get("my_pick")
        if me and me["status"] != "riding":
            text.append(f"none: you are {me['status']}")
        elif pick is None:
            text.append("not yet chosen")
            if me and me["must_rest"]:
                text.append(" · you spurred last round and must rest at the tavern (Y5)", style="bold")
        else:
            if pick in rules.DIRECTIONS:
                coach = _coach(view, pick)
                text.append(f"rob the coach to the {rules.DIRECTION_NAMES[pick]}")
                if coach:
                    text.append(f" ({coach['name']})")
            else:
                text.append(PLACE_NAMES.get(pick, pick))
            if not view.get("revealed"):
                text.append("   (secret until the reveal)", style="dim")
        assigned = view.get("my_assignment")
        if assigned:
            text.append("\nYour dice went: ", style="bold")
            text.append_text(assignment_text(assigned, self.glyphs))
        if me and me.get("town_roll"):
            text.append(f"\nYou fought the guards in town: rolled {dice([me['town_roll']], self.glyphs)}")
        return text

    def _out_of_reach(self, view: dict[str, Any], me: dict[str, Any]) -> Text | None:
        """In the market, what it sells that your purse cannot reach: the move list offers only what you
        can buy, and a poor highwayman saw nothing for sale at all."""
        if view.get("phase") != "town" or me.get("pick") != "market":
            return None
        cheapest: dict[str, int] = {}  # an item may be offered outright and as a trade-in (Y10)
        for offer, price in rules.purchases(me):
            item = str(offer["item"])
            cheapest[item] = min(price, cheapest.get(item, price))
        dear = {item: price for item, price in cheapest.items() if price > me["guineas"]}
        if not dear:
            return None
        text = Text(f"Beyond your {money(me['guineas'], self.glyphs)}: ", style="bold")
        text.append(", ".join(f"{rules.item_name(item)} {money(price, self.glyphs)}"
                              for item, price in dear.items()), style="dim")
        return text

    def _my_latest(self, frame: TableFrame) -> Text | None:
        view = _view(frame)
        mine = [entry for entry in view.get("last") or [] if frame.is_me(entry["seat"])]
        if not mine or view["phase"] == "rob":
            return None
        entry = mine[-1]
        text = Text(f"Your latest robbery ({rules.DIRECTION_NAMES.get(entry['where'], entry['where'])}): ",
                    style="bold")
        text.append_text(outcome_text(entry, self.glyphs, None))
        return text


# --- the dice builder's words: what an assignment brings, or why the rules refuse it -----------------



def placed(dice_values: list[int], places: list[str], spur: bool) -> solver.Assignment:
    """The assignment the builder shows: each die on its place (values sorted, as the solver has them)."""
    return solver.Assignment(spur, *(tuple(sorted(d for d, p in zip(dice_values, places) if p == part))
                                     for part in PARTS))


def try_assignment(frame: TableFrame, places: list[str], spur: bool) -> tuple[dict[str, Any] | None, Text]:
    """What the builder's assignment brings: the prompt action that gives it (None if the rules do not
    allow it) and, in words, the outcome from the solver or why it is not allowed (Y7)."""
    view = _view(frame)
    me = _me(view)
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
    shared = bool(bots.robbery_partners(view, view["you"]))  # Y8: the line is the robbery alone (as the list says)
    text = Text("alone: ") if shared else Text()
    text.append_text(outcome_text(result.as_dict(), glyphs, me, alone=shared))
    return action, text


def why_not(candidate: solver.Assignment, dice_values: list[int], speed: int, horse: int, glyphs: Glyphs) -> str:
    """Why the rules refuse an assignment (Y7), in words."""
    need = speed - horse - candidate.spur
    if sum(dice_values) < need:
        return "the coach is too fast for these dice: every die goes to speed, in vain (Y7)"
    reached = sum(candidate.speed) + horse + candidate.spur
    if reached < speed:
        return f"speed {reached} does not catch the coach's {speed}: put more dice on speed"
    if candidate.spur and reached - 1 >= speed:
        return (f"no spur needed: speed {reached - 1} catches the coach's {speed} without it (Y5); "
                f"x takes the spur off")
    spare = min(candidate.speed)
    return (f"a die too many on speed: without the {dice([spare], glyphs)} it still catches the coach's "
            f"{speed}, and every speed die must be needed (a minimal set, Y7): move it to wit or combat")


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



# --- the sheets -------------------------------------------------------------------------------------------

def guard_note(points: int) -> str:
    """A track with the guards it brings: one per 5 points (Y6)."""
    guards = points // rules.GUARD_STEP
    return f"{points} · {guards} guard{'' if guards == 1 else 's'}" if guards else str(points)


def forced_rest(view: dict[str, Any], player: dict[str, Any]) -> str:
    """Y5: a spur sends you to the tavern the round after."""
    if player["must_rest"]:
        return "tavern now"  # short: the sheet's column must leave room for the others'
    if view.get("phase") == "town" and player.get("pick") in rules.DIRECTIONS:
        robbers = sum(1 for p in view["players"] if p.get("pick") in rules.DIRECTIONS and p.get("rob_dice"))
        this_round = (view.get("last") or [])[-robbers:] if robbers else []
        if any(entry["seat"] == player["seat"] and entry["spur"] for entry in this_round):
            return "tavern next"
    return "—"


def short_name(name: str, width: int = 14) -> str:
    """A seat's name for a narrow column: without "(sharp bot)", cut with an ellipsis."""
    name = name.split(" (")[0] or name
    return name if len(name) <= width else name[:width - 1] + "…"


def kit(items: list[str]) -> str:
    return ", ".join(rules.item_name(item) for item in items) or "—"


class YorkSheet(FramePane):
    """Every highwayman's sheet side by side, yours first and in full."""

    KEEP_TALLEST = True  # a forced rest's row comes and goes: a scrollbar shown once stays

    #: What the sheet shows of each player (the rest, such as who has picked, changes on every table).
    SHOWN = ("seat", "health", "status", "guineas", "folk_hero", "scoundrel", "horse", "weapons", "gear",
             "as_scoundrel", "score")

    def draw_key(self, frame: TableFrame) -> object:
        view = _view(frame)
        players = [{key: player.get(key) for key in self.SHOWN} for player in view.get("players", [])]
        names = [frame.plain_name(seat) for seat in range(len(players))]
        # A pick or the dice matter to the sheet only through the forced rest they may bring (Y5).
        rests = [forced_rest(view, player) for player in view.get("players", [])]
        return frame.seat, names, players, rests, self.glyphs

    def draw(self, frame: TableFrame) -> Shown:
        view = _view(frame)
        players = view.get("players", [])
        if not players:
            return Text("")
        seats = list(range(len(players)))
        if frame.seat is not None and frame.seat in seats:
            seats.remove(frame.seat)
            seats.insert(0, frame.seat)
        header: list[Text | str] = [""] + [Text("you" if frame.is_me(s) else short_name(frame.plain_name(s)),
                                                 style="bold underline") for s in seats]
        rows = [
            ("health", lambda p: f"{p['health']} of {rules.MAX_HEALTH}" + (" · dead" if p["status"] == "dead" else "")),
            ("guineas", lambda p: money(p["guineas"], self.glyphs)),
            ("folk hero", lambda p: guard_note(p["folk_hero"])),
            ("scoundrel", lambda p: guard_note(p["scoundrel"])),
            ("score", lambda p: str(p["score"])),
            ("horse", lambda p: f"{rules.item_name(p['horse'])} +{rules.ITEMS[p['horse']][2]}"
                                if p["horse"] else "—"),
            ("weapons", lambda p: kit(p["weapons"]) + (f" +{rules.combat_bonus(p)}" if p["weapons"] else "")),
            ("gear", lambda p: kit(p["gear"]) + (f" +{rules.wit_bonus(p)}" if p["gear"] else "")),
            ("forced rest", lambda p: forced_rest(view, p)),
            ("scores as", lambda p: "scoundrel (declared)" if p["as_scoundrel"] else "folk hero"),
        ]
        # The score comes before what a seat owns: late in a game at 120×40 the board's news can leave the
        # sheet fewer rows than it has, and what falls below is then kit the hand's "To beat" line counts
        # in. A row nobody has anything in yet (no horse, no weapons, nobody resting, nobody declared a
        # scoundrel) waits until someone does.
        rows = [row for row in rows if row[0] not in UNTIL_SOMEONE_HAS
                or any(row[1](players[seat]) != UNTIL_SOMEONE_HAS[row[0]] for seat in seats)]
        table: list[list[Text | str]] = [header]
        for label, show in rows:
            cells: list[Text | str] = [Text(label, style="bold")]
            for seat in seats:
                cell = Text(show(players[seat]))
                if label == "score" or frame.is_me(seat):
                    cell.stylize("bold")
                cells.append(cell)
            table.append(cells)
        return text_columns(table, gap=2)

    def on_mount(self) -> None:
        # In the border, not a line: at 120×40 the sheet has eight rows, and the score must stay above them.
        self.border_subtitle = f"a guard per {rules.GUARD_STEP} points (Y6)"


#: The sheet's rows that show only once some seat's cell differs from this: something owned, someone
#: resting, someone declared a scoundrel.
UNTIL_SOMEONE_HAS = {"horse": "—", "weapons": "—", "gear": "—", "forced rest": "—", "scores as": "folk hero"}


Board = YorkBoard
Hand = YorkHand
Sheet = YorkSheet


class Panes(GamePanes):
    """This game's panes and its own ways of drawing; the rest are ``GamePanes``' defaults."""

    GAME_ID = GAME_ID
    Board = Board
    Hand = Hand
    Sheet = Sheet
    status = staticmethod(status)
    waiting_for = staticmethod(waiting_for)
    seat_summary = staticmethod(seat_summary)
    laid = staticmethod(laid)
    laid_word = staticmethod(laid_word)
    score_track = staticmethod(score_track)
    choice_label = staticmethod(choice_label)
    choice_matches = staticmethod(choice_matches)
    choice_order = staticmethod(choice_order)
    reveal_text = staticmethod(reveal_text)
    confirm_choice = staticmethod(confirm_choice)
    result_note = staticmethod(result_note)
    others_in_the_result = staticmethod(others_in_the_result)
    reveal_item = staticmethod(reveal_item)
    prompt_title = staticmethod(prompt_title)
    final_tracks = staticmethod(final_tracks)
