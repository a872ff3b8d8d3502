"""Your Money or Your Life: York and its four coaches, your secret dice and the robbery chooser, the sheets.

Every value comes from the seat's view. What a robbery brings is the engine's own answer
(``robbery_options``, from the dice solver); which outcome is "best" is the sharp bot's own valuation
(``outcome_value``), so nothing here decides a rule.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from core.games import money_or_life as rules
from core.games import money_or_life_bots as bots
from core.games import money_or_life_solver as solver
from tui.frame import TableFrame
from tui.glyphs import ASCII, Glyphs, UNICODE
from tui.widgets.pane import Chip, ChipPane, FramePane

GAME_ID = "money-or-life"
#: How many of the solver's best robberies the hand pane offers as one-click chips.
BEST_FEW = 4
#: Where a compass point sits in the board's three rows around York.
PLACE_NAMES = {**rules.DIRECTION_NAMES, "tavern": "the tavern", "market": "the market", "retire": "retirement"}


def _view(frame: TableFrame) -> dict[str, Any]:
    return frame.view or {}


def _me(view: dict[str, Any]) -> dict[str, Any] | None:
    seat = view.get("you")
    players = view.get("players") or []
    return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else None


def _glyphs() -> Glyphs:
    """The app's glyphs for hooks that are not widgets (the move pane's labels): ASCII under ``--ascii``."""
    try:
        from textual._context import active_app
        return getattr(active_app.get(), "glyphs", UNICODE)
    except Exception:  # no app running (a unit test of a hook)
        return UNICODE


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
        line += f" · rival {view['rival']} guineas"
    return line


def waiting_for(frame: TableFrame) -> list[int]:
    return list(_view(frame).get("pending", []))


def seat_summary(frame: TableFrame, seat: int) -> str:
    view = _view(frame)
    if not view or seat >= len(view.get("players", [])):
        return ""
    player = view["players"][seat]
    line = f"£{player['guineas']} · score {player['score']}"
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


def prompt_title(frame: TableFrame) -> str:
    view = _view(frame)
    me = _me(view)
    phase = view.get("phase")
    if phase == "pick":
        if me and me["must_rest"]:
            return "you spurred last round: rest at the tavern (Y5)"
        return "where do you ride this round? (secret until both have chosen)"
    if phase == "rob" and me and me.get("pick") in rules.DIRECTIONS:
        coach = _coach(view, me["pick"])
        name = coach["name"] if coach else PLACE_NAMES[me["pick"]]
        return f"share your dice between speed, wit and combat against {name}"
    if phase == "town" and me and me.get("pick") in rules.TOWN:
        return f"in {PLACE_NAMES[me['pick']]}: you have {money(me['guineas'], _glyphs())}"
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
    glyphs = _glyphs()
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
                text.append(f" — {coach['name']} · {money(coach['money'], glyphs)} · {coach_stats(coach)}",
                            style="dim")
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
    """``speed ⚂3 · wit ⚄5 ⚀1 · combat ⚅6 → £7, folk hero +1, scoundrel +3``."""
    text = assignment_text(action, glyphs)
    ranked = ranked_robberies(frame)
    found = next((entry for entry in ranked if entry["action"] == action), None)
    if found is None:
        return text
    text.append(" → ")
    text.append_text(outcome_text(found["outcome"], glyphs, _me(_view(frame))))
    if found["shared"]:
        text.append("  (if your partner misses the speed; if not, the dice are pooled, Y8)", style="dim")
    if ranked and found is ranked[0]:
        text.append("  ★ best", style="bold")
    return text


def assignment_text(action: dict[str, Any], glyphs: Glyphs) -> Text:
    text = Text()
    for number, part in enumerate(("speed", "wit", "combat")):
        if number:
            text.append(" · ", style="dim")
        text.append(f"{part} ", style="bold")
        text.append(dice(action.get(part, []), glyphs))
    if action.get("spur"):
        text.append(" · spurred +1", style="bold")
    return text


def outcome_text(outcome: dict[str, Any], glyphs: Glyphs, me: dict[str, Any] | None) -> Text:
    if not outcome["speed_met"]:
        text = Text("the coach gets away: folk hero −1")
        if outcome["spur"]:
            text.append(", health −1 (spur)")
        return text
    parts = [money(outcome["money"], glyphs) if outcome["money"] else "no money",
             f"folk hero {outcome['folk_hero']:+d}"]
    if outcome["combat_met"]:
        parts.append(f"scoundrel {outcome['scoundrel']:+d}")
    if outcome["health"]:
        parts.append(f"health {outcome['health']:+d}")
    text = Text(", ".join(parts).replace("-", "−"))
    if me is not None and me["health"] + outcome["health"] <= 0:
        text.append("  YOU WOULD DIE", style="bold reverse")
    return text


_ranked_cache: dict[tuple[Any, ...], list[dict[str, Any]]] = {}


def ranked_robberies(frame: TableFrame) -> list[dict[str, Any]]:
    """This seat's robbery choices (the prompt's assign actions) with the solver's outcome, best first.

    Each entry: ``action`` (as the prompt has it), ``index`` (its place in the prompt), ``outcome``,
    ``shared`` and ``value`` (the sharp bot's worth of the outcome in points of score)."""
    view = _view(frame)
    me = _me(view)
    if view.get("phase") != "rob" or me is None or not frame.choices:
        return []
    key = (frame.prompt.get("id") if frame.prompt else None, frame.turn, frame.seat, frame.sent)
    if key in _ranked_cache:
        return _ranked_cache[key]
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
    _ranked_cache.clear()
    _ranked_cache[key] = ranked
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


def robbers_of(view: dict[str, Any], where: str) -> list[int]:
    """Who (as the view shows it) rides at ``where`` this round: after the reveal, or yourself before."""
    seats = [p["seat"] for p in view.get("players", []) if p.get("pick") == where]
    if not seats and view.get("my_pick") == where and view.get("you") is not None:
        seats = [view["you"]]
    return seats


class YorkBoard(ChipPane):
    """York and its four roads: each coach a chip at its compass point, the town between them, the
    round track, the town guards' rolls, the latest robberies and, in solo, the rival."""

    def build(self, frame: TableFrame) -> ComposeResult:
        view, glyphs = _view(frame), self.glyphs
        if view.get("coaches"):
            choosable = {choice["action"]["where"]: shown_number(frame, index)
                         for index, choice in enumerate(frame.choices) if choice["action"].get("do") == "pick"}
            with Vertical(classes="york-compass"):
                with Horizontal(classes="york-row york-row--edge"):
                    yield self._coach_chip(frame, "N", choosable)
                with Horizontal(classes="york-row"):
                    yield self._coach_chip(frame, "W", choosable)
                    yield self._town(frame, choosable)
                    yield self._coach_chip(frame, "E", choosable)
                with Horizontal(classes="york-row york-row--edge"):
                    yield self._coach_chip(frame, "S", choosable)
        lines: list[RenderableType] = [round_track(view, glyphs)]
        if view.get("solo"):
            lines.append(self._rival(view))
        guards = self._guards(view)
        if guards is not None:
            lines.append(guards)
        latest = self._latest(frame)
        if latest is not None:
            lines.append(latest)
        yield Static(Group(*lines), classes="york-news")

    def _coach_chip(self, frame: TableFrame, where: str, choosable: dict[str, int]) -> Chip:
        view, glyphs = _view(frame), self.glyphs
        coach = _coach(view, where)
        assert coach is not None
        head = Text()
        if where in choosable:
            head.append(f"[{choosable[where]}] ", style="bold reverse")
        head.append(f"{rules.DIRECTION_NAMES[where]} · {money(coach['money'], glyphs)}", style="bold")
        riders = robbers_of(view, where)
        if riders:
            head.append(f"  {glyphs.turn} " + ", ".join(
                "you" if frame.is_me(seat) else frame.name(seat) for seat in riders), style="italic")
        body = Text("\n").join([head, Text(coach["name"]), Text(coach_stats(coach))])
        return Chip(body, f"where:{where}", marked=where in choosable, classes="york-coach")

    def _town(self, frame: TableFrame, choosable: dict[str, int]) -> Vertical:
        view = _view(frame)
        places: list[Static] = [Static(Text("YORK", style="bold"), classes="york-name")]
        for place in rules.TOWN:
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
            places.append(Chip(label, f"where:{place}", marked=place in choosable, classes="york-place"))
        return Vertical(*places, classes="york-town")

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

    def build(self, frame: TableFrame) -> ComposeResult:
        view, glyphs = _view(frame), self.glyphs
        me = _me(view)
        if me is None:
            return
        yield Static(self._dice_line(view), classes="york-line")
        yield Static(self._pick_line(frame), classes="york-line")
        target = self._target_line(view)
        if target is not None:
            yield Static(target, classes="york-line")
        if view["phase"] == "rob" and frame.choices:
            ranked = ranked_robberies(frame)
            if ranked:
                best = ranked[0]
                label = Text(f"[{shown_number(frame, best['index'])}] best of {len(ranked)} ways: ", style="bold")
                label.append_text(assignment_text(best["action"], glyphs))
                label.append(" → ")
                label.append_text(outcome_text(best["outcome"], glyphs, me))
                yield Chip(label, f"assign:{assignment_key(best['action'])}", marked=True, classes="york-best")
        mine = self._my_latest(frame)
        if mine is not None:
            yield Static(mine, classes="york-line")

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
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="bold", no_wrap=True)
        for _ in seats:
            grid.add_column(ratio=1)
        grid.add_row("", *[Text("you" if frame.is_me(s) else frame.name(s), style="bold underline",
                               overflow="ellipsis", no_wrap=True) for s in seats])
        rows = [
            ("health", lambda p: f"{p['health']} of {rules.MAX_HEALTH}" + (" · dead" if p["status"] == "dead" else "")),
            ("guineas", lambda p: money(p["guineas"], self.glyphs)),
            ("folk hero", lambda p: guard_note(p["folk_hero"])),
            ("scoundrel", lambda p: guard_note(p["scoundrel"])),
            ("horse", lambda p: f"{rules.item_name(p['horse'])} (+{rules.ITEMS[p['horse']][2]} speed)"
                                if p["horse"] else "—"),
            ("weapons", lambda p: kit(p["weapons"]) + (f" (+{rules.combat_bonus(p)})" if p["weapons"] else "")),
            ("gear", lambda p: kit(p["gear"]) + (f" (+{rules.wit_bonus(p)} wit)" if p["gear"] else "")),
            ("forced rest", lambda p: forced_rest(view, p)),
            ("score", lambda p: f"{p['score']} " + ("(as a scoundrel)" if p["as_scoundrel"] else "(as a folk hero)")),
        ]
        if all(forced_rest(view, players[seat]) == "—" for seat in seats):
            rows = [row for row in rows if row[0] != "forced rest"]
        for label, show in rows:
            cells = []
            for seat in seats:
                cell = Text(show(players[seat]))
                if label == "score" or frame.is_me(seat):
                    cell.stylize("bold")
                cells.append(cell)
            grid.add_row(label, *cells)
        note = Text(f"A guard per {rules.GUARD_STEP} points: folk hero's go anywhere, scoundrel's follow you (Y6)",
                    style="dim")
        return Group(grid, note)


Board = YorkBoard
Hand = YorkHand
Sheet = YorkSheet
