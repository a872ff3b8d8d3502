"""Your Money or Your Life: York and its four coaches, your secret dice and the robbery chooser, the sheets.

Every value comes from the seat's view. What a robbery brings is the engine's own answer
(``robbery_options``, from the dice solver); which outcome is "best" is the sharp bot's own valuation
(``outcome_value``), so nothing here decides a rule.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from core.games import money_or_life as rules
from core.games import money_or_life_bots as bots
from core.games import money_or_life_solver as solver
from tui.frame import TableFrame
from tui.glyphs import ASCII, Glyphs, UNICODE
from tui.widgets.lines import LinePane
from tui.widgets.pane import Chip, ChipPane, ClickPane, FramePane, text_columns

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


def score_label() -> str:
    return "Score"


def reveal_item(value: Any) -> str:
    """The results' reveal (A2) in words: a pick "E" is "East"; numbers stay numbers (a coach card's
    number and a die look alike without the key they come under)."""
    if isinstance(value, str):
        return rules.DIRECTION_NAMES.get(value, value)
    return str(value)


def prompt_title(frame: TableFrame) -> str:
    view = _view(frame)
    me = _me(view)
    phase = view.get("phase")
    if phase == "pick":
        if me and me["must_rest"]:
            return "you spurred last round: rest at the tavern (Y5)"
        return "where do you ride this round? (secret until the reveal)"
    if phase == "rob" and me and me.get("pick") in rules.DIRECTIONS:
        coach = _coach(view, me["pick"])
        name = coach["name"] if coach else PLACE_NAMES[me["pick"]]
        return f"share your dice between speed, wit and combat against {name}"
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
            text.append(f" — horses, weapons, gear; food at {rules.HEAL_PRICE['market']}", style="dim")
        elif where == "retire" and me:
            text.append(f" — leave the road with a score of {me['score']}", style="dim")
    elif kind == "play_as_scoundrel" and me:
        as_scoundrel = rules.score({**me, "as_scoundrel": True})
        text.append(f" — score guineas + scoundrel − folk hero: {as_scoundrel} instead of {me['score']}",
                    style="dim")
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
        if price is not None:
            text.append(f" — {money(price, glyphs)} · {stat} +{bonus}", style="dim")
    elif kind == "leave" and me:
        text.append(f" — keep your {money(me['guineas'], glyphs)}", style="dim")
    return text


# --- robberies: the solver's outcomes, ranked ------------------------------------------------------------

def robbery_label(frame: TableFrame, action: dict[str, Any], glyphs: Glyphs) -> Text:
    """``speed ⚂ · wit ⚄⚀ · combat ⚅ → £7, folk hero +1, scoundrel +3`` (and "★ best" on the best)."""
    text = assignment_text(action, glyphs, compact=True)
    ranked = ranked_robberies(frame)
    found = next((entry for entry in ranked if entry["action"] == action), None)
    if found is None:
        return text
    text.append(" → ")
    text.append_text(outcome_text(found["outcome"], glyphs, _me(_view(frame))))
    if found["shared"]:
        text.append("  (alone; pooled if you both catch it, Y8)", style="dim")
    if ranked and found is ranked[0]:
        text.append("  ★ best", style="bold")
    return text


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


def outcome_text(outcome: dict[str, Any], glyphs: Glyphs, me: dict[str, Any] | None) -> Text:
    if not outcome["speed_met"]:
        text = Text("the coach gets away: folk hero −1")
        if outcome["spur"]:
            text.append(", health −1 (spur)")
        return text
    parts = [money(outcome["money"], glyphs), track_change("folk hero", outcome["folk_hero"], me, "folk_hero")]
    if outcome["combat_met"]:
        parts.append(track_change("scoundrel", outcome["scoundrel"], me, "scoundrel"))
    if outcome["health"]:
        parts.append(f"health {outcome['health']:+d}")
    text = Text(", ".join(parts).replace("-", "−"))
    if me is not None and me["health"] + outcome["health"] <= 0:
        text.append("  YOU WOULD DIE", style="bold reverse")
    return text


def track_change(name: str, change: int, me: dict[str, Any] | None, key: str) -> str:
    """"folk hero −3", and "(to 0)" where the track cannot go that low (Y2: never below 0)."""
    text = f"{name} {change:+d}"
    if me is not None and change < 0 and me.get(key, 0) + change < 0:
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
    ranked = []
    for index, choice in enumerate(frame.choices):
        action = choice["action"]
        if action.get("do") != "assign":
            continue
        option = by_description.get(solver.describe(solver.Assignment.from_action(action)))
        if option is None:
            continue
        outcome = option["outcome"]
        value = bots.outcome_value(outcome["folk_hero"], outcome["scoundrel"], outcome["health"],
                                   outcome["money"], outcome["spur"], profile)
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
    return f"speed {coach['speed']} · wit {coach['wit']} · combat {combat_text(coach)}"


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

    #: The town's column in the compass, and the most a coach block takes.
    TOWN_WIDTH = 16
    COACH_WIDTH = 36

    def draw(self, frame: TableFrame) -> RenderableType:
        view = _view(frame)
        lines: list[Text] = []
        if view.get("coaches"):
            choosable = {choice["action"]["where"]: shown_number(frame, index)
                         for index, choice in enumerate(frame.choices) if choice["action"].get("do") == "pick"}
            lines += self._compact(frame, choosable) if self._cramped() else self._compass(frame, choosable)
        lines.append(round_track(view, self.glyphs))
        if view.get("solo"):
            lines.append(self._rival(view))
        for news in (self._guards(view), self._latest(frame)):
            if news is not None:
                lines.append(news)
        return Text("\n").join(lines)

    def _cramped(self) -> bool:
        """True when the table is folded into tabs (a narrow terminal): one line a coach, no compass."""
        return bool(getattr(self.screen, "narrow", False)) or self.app.size.height < 30

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
        words = [head, Text(coach["name"]), Text(coach_stats(coach))]
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
        """``words`` wrapped to a block ``width`` wide behind a bar (green when a choice picks it)."""
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
        lines = []
        for where in rules.DIRECTIONS:
            coach = _coach(view, where)
            assert coach is not None
            line = self._coach_head(frame, where, coach, choosable, riders=False)
            line.pad_right(max(0, 19 - line.cell_len))
            line.append(f"{coach['name']}  ")
            line.append(coach_stats(coach), style="dim")
            riders = robbers_of(view, where)
            if riders:
                line.append(f"  {glyphs.turn} " + ", ".join(
                    "you" if frame.is_me(seat) else frame.name(seat) for seat in riders), style="italic")
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
        style = self.get_component_rich_style("york--bar-playable" if playable else "york--bar")
        bar = Text()
        bar.append(self.glyphs.bar, style=Style(color=style.color))
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
            head.append(f"  {self.glyphs.turn} " + ", ".join(
                "you" if frame.is_me(seat) else frame.name(seat) for seat in seats), style="italic")
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
            label.append(f" {self.glyphs.turn} " + ", ".join(
                "you" if frame.is_me(seat) else frame.name(seat) for seat in riders), style="italic")
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

    def _guards(self, view: dict[str, Any]) -> Text | None:
        if not view.get("revealed"):
            return None
        rolls = view.get("guard_rolls", [])
        placed = {place: count for place, count in view.get("guards", {}).items() if count}
        if not rolls and not placed:
            return Text("Town guards: none this round", style="dim")
        text = Text("Town guards: ", style="bold")
        if rolls:
            text.append("rolled " + ", ".join(f"{dice([roll], self.glyphs)} {PLACE_NAMES[rules.GUARD_PLACES[roll]]}"
                                              for roll in rolls))
        if placed:
            text.append("; " if rolls else "")
            text.append("at " + ", ".join(f"{PLACE_NAMES[place]} {count}" for place, count in placed.items()))
        return text

    def _latest(self, frame: TableFrame) -> Text | None:
        last = _view(frame).get("last") or []
        if not last:
            return None
        riders = len(_view(frame).get("players", []))
        text = Text("Latest robberies: ", style="bold")
        for number, entry in enumerate(last[-riders:]):
            if number:
                text.append(" · ")
            who = "you" if frame.is_me(entry["seat"]) else frame.name(entry["seat"])
            text.append(f"{who} at {rules.DIRECTION_NAMES.get(entry['where'], entry['where'])}: ")
            text.append_text(outcome_text(entry, self.glyphs, None))
        return text


# --- the hand: your dice, your pick, the robbery chooser -------------------------------------------------

class YorkHand(ChipPane):
    """Your two secret dice (and the ones rolled for a robbery), your pick, and in a robbery the solver's
    best few as one-click chips with their keys."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: The dice builder's places and spur for the prompt it was made for, kept across redraws.
        self.builder_state: dict[str, Any] = {}

    def build(self, frame: TableFrame) -> ComposeResult:
        view = _view(frame)
        me = _me(view)
        if me is None:
            return
        robbing = view["phase"] == "rob" and any(c["action"].get("do") == "assign" for c in frame.choices)
        target = self._target_line(view)
        if robbing:
            # The dice first: on a short terminal they may be all that shows of the hand.
            yield DiceBuilder(frame, self.glyphs, self.builder_state, target, classes="york-builder")
        # One pane of lines, the same widget every time: a new table changes its words in place.
        lines = [None if robbing else target, self._dice_line(view), self._pick_line(frame), self._my_latest(frame)]
        yield _lines([line for line in lines if line is not None], "york-lines")

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
        text.append(f" · your kit: {', '.join(bonuses) if bonuses else 'none'}", style="dim")
        partners = [p for p in view["players"] if p["seat"] != me["seat"] and p.get("pick") == me["pick"]]
        if partners:
            text.append("\nShared coach (Y8): each must catch it alone; then wit and combat dice are pooled "
                        "and the money halved", style="italic")
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


def _lines(lines: list[Text], classes: str) -> LinePane:
    pane = LinePane(classes=classes)
    pane.show(Text("\n").join(lines))
    return pane


def _update_if_changed(static: Static, text: Text) -> None:
    """New words for a line that may wrap differently: a layout only if they are new at all."""
    if static.content != text:
        static.update(text)


# --- the dice builder: put each die where you like and see what it brings -------------------------------

PARTS = ("speed", "wit", "combat")


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
    return action, outcome_text(result.as_dict(), glyphs, me)


def why_not(candidate: solver.Assignment, dice_values: list[int], speed: int, horse: int, glyphs: Glyphs) -> str:
    """Why the rules refuse an assignment (Y7), in words."""
    need = speed - horse - candidate.spur
    if sum(dice_values) < need:
        return "the coach is too fast for these dice: every die goes to speed, in vain (Y7)"
    reached = sum(candidate.speed) + horse + candidate.spur
    if reached < speed:
        return f"speed {reached} does not catch the coach's {speed}: put more dice on speed"
    spare = min(candidate.speed)
    return (f"speed dice must be a minimal set (Y7): {reached} without need of the "
            f"{dice([spare], glyphs)}; move a die off speed")


class DiceBuilder(Vertical, can_focus=True):
    """Your robbery die by die: ←/→ choose a die, s/w/c put it on speed, wit or combat, x spurs the
    horse, Enter sends it. A click on a die moves it on. The outcome is the solver's, live."""

    BINDINGS = [
        Binding("left", "select(-1)", "die left", show=False),
        Binding("right", "select(1)", "die right", show=False),
        Binding("s", "place('speed')", "speed"),
        Binding("w", "place('wit')", "wit"),
        Binding("c", "place('combat')", "combat"),
        Binding("x", "spur", "spur"),
        Binding("enter", "send", "send dice"),
    ]

    def __init__(self, frame: TableFrame, glyphs: Glyphs, state: dict[str, Any], target: Text | None = None,
                 classes: str = "") -> None:
        super().__init__(classes=classes)
        self.table_frame = frame
        self.target = target
        self.glyphs = glyphs
        me = _me(_view(frame)) or {}
        self.dice_values: list[int] = list(me.get("rob_dice") or [])
        prompt = frame.prompt.get("id") if frame.prompt else None
        if state.get("prompt") != prompt or len(state.get("places", [])) != len(self.dice_values):
            state.clear()
            state.update(prompt=prompt, selected=0, **self._start_from_best())
        self.state = state

    def _start_from_best(self) -> dict[str, Any]:
        """The solver's best assignment, die by die, so the builder opens on it."""
        ranked = ranked_robberies(self.table_frame)
        places = ["speed"] * len(self.dice_values)
        if not ranked:
            return {"places": places, "spur": False}
        best = ranked[0]["action"]
        left = {part: list(best.get(part, [])) for part in PARTS}
        for number, value in enumerate(self.dice_values):
            part = next((p for p in PARTS if value in left[p]), "speed")
            if value in left[part]:
                left[part].remove(value)
            places[number] = part
        return {"places": places, "spur": bool(best.get("spur"))}

    def compose(self) -> ComposeResult:
        with Horizontal(classes="york-builder-dice"):
            for number in range(len(self.dice_values)):
                yield Chip(self._die_label(number), f"die:{number}", classes="york-die")
            yield Chip(self._spur_label(), "spur", classes="york-die")
        if self.target is not None:
            yield Static(self.target, classes="york-line york-builder-target")
        yield Static(self._outcome(), classes="york-line york-builder-outcome")
        yield Static(Text("Tab here to place the dice yourself: ←→ s w c x Enter", style="dim italic"),
                     classes="york-line")

    def on_resize(self) -> None:
        # As many dice to a row as fit (a die's chip needs about 12 columns: "▸⚄5 combat").
        columns = max(1, min(len(self.dice_values) + 1, self.content_region.width // 12))
        grid = self.query_one(".york-builder-dice")
        if grid.styles.grid_size_columns != columns:  # setting it at all lays the table out again
            grid.styles.grid_size_columns = columns

    def _die_label(self, number: int) -> Text:
        value, place = self.dice_values[number], self.state["places"][number]
        chosen = number == self.state["selected"]
        text = Text(f"{'▸' if chosen else ' '}{dice([value], self.glyphs)} {place}",
                    style="bold reverse" if chosen and self.has_focus else ("bold" if chosen else ""))
        return text

    def _spur_label(self) -> Text:
        return Text(f"spur {'on (+1, −1 health)' if self.state['spur'] else 'off'}")

    def _outcome(self) -> Text:
        action, words = try_assignment(self.table_frame, self.state["places"], self.state["spur"])
        text = Text("→ ")
        text.append_text(words)
        if action is not None:
            ranked = ranked_robberies(self.table_frame)
            if ranked and ranked[0]["shared"]:
                text.append("  (alone; pooled if you both catch it, Y8)", style="dim")
            index = next(i for i, c in enumerate(self.table_frame.choices) if c["action"] == action)
            text.append(f"   Enter sends it (choice [{shown_number(self.table_frame, index)}])", style="dim")
        return text

    def carry_from(self, fresh: "DiceBuilder") -> None:
        """Take a newer table's builder in place (see ``carry_over``): the same robbery, new words."""
        reshaped = fresh.dice_values != self.dice_values or (fresh.target is None) != (self.target is None)
        self.table_frame, self.target, self.state = fresh.table_frame, fresh.target, fresh.state
        self.dice_values = fresh.dice_values
        if reshaped:
            self.refresh(recompose=True)
            return
        if self.target is not None:
            _update_if_changed(self.query_one(".york-builder-target", Static), self.target)
        self._redraw()

    def _redraw(self) -> None:
        for number, chip in enumerate(self.query(".york-die")):
            label = self._die_label(number) if number < len(self.dice_values) else self._spur_label()
            if chip.content != label:
                chip.update(label, layout=False)  # a die's cell is one line of a grid: its size stands
        _update_if_changed(self.query_one(".york-builder-outcome", Static), self._outcome())

    def on_focus(self) -> None:
        self._redraw()

    def on_blur(self) -> None:
        self._redraw()

    def action_select(self, step: int) -> None:
        if self.dice_values:
            self.state["selected"] = (self.state["selected"] + step) % len(self.dice_values)
            self._redraw()

    def action_place(self, part: str) -> None:
        if self.dice_values:
            self.state["places"][self.state["selected"]] = part
            self._redraw()

    def action_spur(self) -> None:
        self.state["spur"] = not self.state["spur"]
        self._redraw()

    def action_send(self) -> None:
        action, _ = try_assignment(self.table_frame, self.state["places"], self.state["spur"])
        if action is None:
            self.notify("The rules do not allow that assignment: see why under the dice.", severity="warning")
            return
        self.post_message(Chip.Clicked(f"assign:{assignment_key(action)}"))

    def on_chip_clicked(self, message: Chip.Clicked) -> None:
        """A click on a die moves it on (speed → wit → combat); on the spur, toggles it."""
        kind, _, value = message.target.partition(":")
        if kind == "die":
            message.stop()
            number = int(value)
            self.state["selected"] = number
            place = self.state["places"][number]
            self.state["places"][number] = PARTS[(PARTS.index(place) + 1) % len(PARTS)]
            self._redraw()
        elif kind == "spur":
            message.stop()
            self.action_spur()


# --- the sheets -------------------------------------------------------------------------------------------

def guard_note(points: int) -> str:
    """A track with the guards it brings: one per 5 points (Y6)."""
    guards = points // rules.GUARD_STEP
    return f"{points} · {guards} guard{'' if guards == 1 else 's'}" if guards else str(points)


def forced_rest(view: dict[str, Any], player: dict[str, Any]) -> str:
    """Y5: a spur sends you to the tavern the round after."""
    if player["must_rest"]:
        return "tavern this round (spurred)"
    if view.get("phase") == "town" and player.get("pick") in rules.DIRECTIONS:
        robbers = sum(1 for p in view["players"] if p.get("pick") in rules.DIRECTIONS and p.get("rob_dice"))
        this_round = (view.get("last") or [])[-robbers:] if robbers else []
        if any(entry["seat"] == player["seat"] and entry["spur"] for entry in this_round):
            return "tavern next round (spurred)"
    return "—"


def short_name(name: str, width: int = 14) -> str:
    """A seat's name for a narrow column: without "(sharp bot)", cut with an ellipsis."""
    name = name.split(" (")[0] or name
    return name if len(name) <= width else name[:width - 1] + "…"


def kit(items: list[str]) -> str:
    return ", ".join(rules.item_name(item) for item in items) or "—"


class YorkSheet(FramePane):
    """Every highwayman's sheet side by side, yours first and in full."""

    def draw(self, frame: TableFrame) -> RenderableType:
        view = _view(frame)
        players = view.get("players", [])
        if not players:
            return Text("")
        seats = list(range(len(players)))
        if frame.seat is not None and frame.seat in seats:
            seats.remove(frame.seat)
            seats.insert(0, frame.seat)
        header: list[Text | str] = [""] + [Text("you" if frame.is_me(s) else short_name(frame.name(s)),
                                                 style="bold underline") for s in seats]
        rows = [
            ("health", lambda p: f"{p['health']} of {rules.MAX_HEALTH}" + (" · dead" if p["status"] == "dead" else "")),
            ("guineas", lambda p: money(p["guineas"], self.glyphs)),
            ("folk hero", lambda p: guard_note(p["folk_hero"])),
            ("scoundrel", lambda p: guard_note(p["scoundrel"])),
            ("horse", lambda p: f"{rules.item_name(p['horse'])} +{rules.ITEMS[p['horse']][2]}"
                                if p["horse"] else "—"),
            ("weapons", lambda p: kit(p["weapons"]) + (f" +{rules.combat_bonus(p)}" if p["weapons"] else "")),
            ("gear", lambda p: kit(p["gear"]) + (f" +{rules.wit_bonus(p)}" if p["gear"] else "")),
            ("forced rest", lambda p: forced_rest(view, p)),
            ("scores as", lambda p: "scoundrel (declared)" if p["as_scoundrel"] else "folk hero"),
            ("score", lambda p: str(p["score"])),
        ]
        if all(forced_rest(view, players[seat]) == "—" for seat in seats):
            rows = [row for row in rows if row[0] != "forced rest"]
        table: list[list[Text | str]] = [header]
        for label, show in rows:
            cells: list[Text | str] = [Text(label, style="bold")]
            for seat in seats:
                cell = Text(show(players[seat]))
                if label == "score" or frame.is_me(seat):
                    cell.stylize("bold")
                cells.append(cell)
            table.append(cells)
        note = Text(f"A guard per {rules.GUARD_STEP} points; a scoundrel's guards follow you (Y6)", style="dim")
        grid = text_columns(table, gap=2)
        grid.append("\n")
        grid.append_text(note)
        return grid


Board = YorkBoard
Hand = YorkHand
Sheet = YorkSheet
