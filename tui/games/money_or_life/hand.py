"""Your Money or Your Life's hand: your secret dice, your pick, and in a robbery the dice builder."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.binding import Binding

from core.games.money_or_life import rules
from tui.frame import TableFrame
from tui.games.money_or_life.advice import (
    PARTS,
    assignment_key,
    assignment_text,
    best_places,
    outcome_text,
    shown_number,
    try_assignment,
)
from tui.games.money_or_life.common import PLACE_NAMES, coach_at, dice, money, my_player, view_of
from tui.widgets.lines import Shown
from tui.widgets.pane import ClickPane, PartClicked, card_rows

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
        view = view_of(frame)
        me = my_player(view)
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

    def _note_keys(self, note: str) -> None:
        """The builder's keys in the border, set only when they change (setting it repaints the pane)."""
        if note != self._keys_note:
            self._keys_note = self.border_subtitle = note

    def _plan_for(self, frame: TableFrame) -> DicePlan | None:
        """The builder's plan for this table: kept while the same robbery's prompt stands, else opened on
        the solver's best assignment; None when there is no robbery to assign."""
        view = view_of(frame)
        me = my_player(view) or {}
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
        self.post_message(PartClicked(f"assign:{assignment_key(action)}"))

    def on_part_clicked(self, message: PartClicked) -> None:
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
        me = my_player(view)
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
        me = my_player(view)
        if view.get("phase") != "rob" or me is None or me.get("pick") not in rules.DIRECTIONS:
            return None
        coach = coach_at(view, me["pick"])
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
        view = view_of(frame)
        me = my_player(view)
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
                coach = coach_at(view, pick)
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
        view = view_of(frame)
        mine = [entry for entry in view.get("last") or [] if frame.is_me(entry["seat"])]
        if not mine or view["phase"] == "rob":
            return None
        entry = mine[-1]
        text = Text(f"Your latest robbery ({rules.DIRECTION_NAMES.get(entry['where'], entry['where'])}): ",
                    style="bold")
        text.append_text(outcome_text(entry, self.glyphs, None))
        return text

