"""Your Money or Your Life's board: York and its four coaches at their compass points, the town between
them, the round track, the town guards, the latest robberies and, in solo, the rival."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text

from core.engine import quantity
from core.games.money_or_life import rules
from tui.frame import TableFrame
from tui.games.money_or_life.advice import outcome_text, shown_number
from tui.games.money_or_life.common import (
    PLACE_NAMES,
    coach_at,
    dice,
    money,
    riders_named,
    robbers_of,
    round_track,
    view_of,
)
from tui.widgets.component import component_style
from tui.widgets.lines import Shown, lines_of_parts
from tui.widgets.pane import ClickPane


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
        view = view_of(frame)
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
        view = view_of(frame)
        lines: list[Text] = []
        if view.get("coaches"):
            choosable = self._choosable(frame)
            lines += self._compact(frame, choosable) if self._cramped() else self._compass(frame, choosable)
        track = round_track(view, self.glyphs)
        guards = self._guards(view)
        if self._cramped():
            # Folded, the guards share the round's line: the recap under the board needs the row.
            track = Text.assemble(track, "  ", guards)
        lines.append(track)
        if view.get("solo"):
            lines.append(self._rival(view))
        # The news lines are always there, so the board keeps its height from round to round.
        lines += [*([] if self._cramped() else [guards]), self._latest(frame)]
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
        coach = coach_at(view_of(frame), where)
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
        view, glyphs = view_of(frame), self.glyphs
        heads = {where: self._coach_head(frame, where, coach_at(view, where), choosable, riders=False)
                 for where in rules.DIRECTIONS}
        # The names line up after the widest head: at 80 columns a fixed column left riders no room.
        column = max(head.cell_len for head in heads.values()) + 2
        lines = []
        for where, line in heads.items():
            coach = coach_at(view, where)
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
        seats = robbers_of(view_of(frame), where) if riders else []
        if seats:
            head.append(f"  {self.glyphs.turn} " + riders_named(frame, seats), style="italic")
        return head

    def _place_label(self, frame: TableFrame, place: str, choosable: dict[str, int]) -> Text:
        view = view_of(frame)
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
            following = "follows a scoundrel" if hunting == 1 else "follow scoundrels"
            told.append(f"{quantity(hunting, 'guard')} {following}")
        text.append("; ".join(told))
        return text

    def _latest(self, frame: TableFrame) -> Text:
        """Each rider's latest robbery, a line each under the first, and a line kept for every rider from
        the start: the board keeps its height as the robberies come (a taller board re-lays the table)."""
        view = view_of(frame)
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

