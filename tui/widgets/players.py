"""The players pane: every seat, who sits there, whether they are here, and whose move it is."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

from tui.frame import TableFrame
from tui.games.generic import GamePanes
from tui.glyphs import UNICODE, Glyphs
from tui.widgets.component import component_style
from tui.widgets.pane import FramePane, text_columns

TO_MOVE = "to move"
#: The fewest cells a name is cut to ("Mo…"): past that the pane is too narrow for any row.
MIN_NAME = 3


class PlayersPane(FramePane):
    #: The marks' colours, from the stylesheet: a theme's own text colours read on its background (Rich's
    #: yellow ▶ is 2:1 on the light theme's grey).
    COMPONENT_CLASSES = {"players--turn", "players--laid", "players--choosing", "players--away"}

    def __init__(self, panes: GamePanes, *, glyphs: Glyphs = UNICODE, id: str | None = None) -> None:
        super().__init__(glyphs=glyphs, id=id)
        self.panes = panes

    def draw(self, frame: TableFrame) -> RenderableType:
        playing = frame.started and frame.result is None
        waiting = set(self.panes.waiting_for(frame)) if playing else set()
        width = max(self.content_region.width, 24)
        rows = [self._row(frame, seat, waiting, playing) for seat in frame.seats]
        # Each part of the summary ("4 cards · 38 pts") right-aligned in a column of its own, then what
        # the seat is doing: the numbers of a seat still choosing and of one that has laid line up.
        parts = max((len(row) - 3 for row in rows), default=0)
        for row in rows:  # a shorter summary (no "· dead") is filled at its end: money under money
            row[-1:-1] = [Text("") for _ in range(parts - (len(row) - 3))]
        room = self._room_for_names(rows, width, parts)
        if any(row[1].cell_len > room for row in rows) and any(row[-1].plain == TO_MOVE for row in rows):
            # Short of room, "to move" goes first: the ▶ beside the name says it too, and a name or a
            # score cut short ("score 5…") said less.
            for row in rows:
                if row[-1].plain == TO_MOVE:
                    row[-1] = Text("")
            room = self._room_for_names(rows, width, parts)
        bots = [seat["seat"] for seat in frame.seats if seat["kind"] == "bot"]
        levels = {self._level(frame, seat) for seat in bots}
        subtitle = ""
        if any(row[1].cell_len > room for row in rows) and len(levels) == 1 and "" not in levels:
            # Still short, and every bot plays at one level: it is said once, under the pane, and each
            # bot keeps its mark.
            level = levels.pop()
            for row in rows:
                if row[1].plain.endswith(f" {self.glyphs.bot} {level}"):
                    row[1].truncate(row[1].cell_len - len(level) - 1)
            subtitle = f"{self.glyphs.bot} {level} bot{'s' if len(bots) > 1 else ''}"
            room = self._room_for_names(rows, width, parts)
        if any(row[1].cell_len > room for row in rows):
            # Still short (five seats, two still choosing): "✓ laid" and "… choosing" keep their marks only
            for row in rows:
                row[-1] = self._mark_only(row[-1])
            room = self._room_for_names(rows, width, parts)
        if any(row[1].cell_len > room for row in rows):
            # Still short (six seats of Highwayman): the summary's parts lose the "·" between them
            rows = without_separators(rows)
            parts = len(rows[0]) - 3 if rows else 0
            room = self._room_for_names(rows, width, parts)
        if subtitle != self.border_subtitle:
            self.border_subtitle = subtitle
        for row in rows:  # a name may be cut (to its first letters at the least), a figure never
            name = row[1]
            if name.cell_len > max(room, MIN_NAME):
                name.truncate(max(room, MIN_NAME) - 1)
                name.append("…")
        if rows and not any(row[-1].plain for row in rows):
            rows = [row[:-1] for row in rows]  # nobody is doing anything: no gap kept for it at the end
        return text_columns(rows, "ll" + "r" * parts + "l", gap=1)

    def on_resize(self) -> None:
        # The names are cut to the room the figures leave at this width: a new width is a new drawing, or a
        # row drawn for a wider pane had its figures cut at the edge.
        self.redraw()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.call_after_refresh(self.redraw)  # the marks are drawn in the theme's colours: a new theme came

    def _mark_only(self, doing: Text) -> Text:
        for glyph in (self.glyphs.laid, self.glyphs.choosing):
            if doing.plain.startswith(f"{glyph} "):
                return Text(glyph, style=doing.style)
        return doing

    @staticmethod
    def _level(frame: TableFrame, seat: int) -> str:
        """A bot's level, as its name at the table carries it ("Moll Cutpurse (normal bot)")."""
        name = frame.name(seat)
        return name.rsplit(" (", 1)[1].removesuffix(" bot)") if name.endswith(" bot)") else ""

    def _room_for_names(self, rows: list[list[Text]], width: int, parts: int) -> int:
        after_name = sum(max((row[column].cell_len for row in rows), default=0) + 1 for column in range(2, 3 + parts)
                         if column < 2 + parts or any(row[column].plain for row in rows))
        return width - len(self.glyphs.turn) - after_name - 1

    def _row(self, frame: TableFrame, seat: dict, waiting: set[int], playing: bool) -> list[Text]:
        number = seat["seat"]
        name = Text(frame.plain_name(number), style="bold" if frame.is_me(number) else "")
        if frame.is_me(number):
            name.append(" (you)", style="dim")
        if seat["kind"] == "bot":
            # "Moll Cutpurse ⚙ normal": the name first, so that a cut leaves it whole and the mark.
            level = self._level(frame, number)
            name.append(f" {self.glyphs.bot} {level}".rstrip(), style="dim")
        elif seat["kind"] == "open":
            name = Text(f"Seat {number + 1}: empty seat", style="dim italic")
        elif not seat["connected"]:
            name.append(f" {self.glyphs.away} away", style=component_style(self, "players--away"))
        summary: list[Text] = []
        for part in self.panes.seat_summary(frame, number).split(" · "):
            summary += [Text("·", style="dim"), Text(part)] if summary else [Text(part)]
        doing = Text()
        laid = self.panes.laid(frame, number) if playing else None
        if laid is True:
            doing.append(f"{self.glyphs.laid} {self.panes.laid_word()}",
                         style=component_style(self, "players--laid"))
        elif laid is False:
            doing.append(f"{self.glyphs.choosing} choosing", style=component_style(self, "players--choosing"))
        elif number in waiting:
            doing.append(TO_MOVE, style=component_style(self, "players--choosing"))
        marker = Text(self.glyphs.turn if number in waiting else " " * len(self.glyphs.turn),
                      style=component_style(self, "players--turn"))
        return [marker, name, *summary, doing]


def without_separators(rows: list[list[Text]]) -> list[list[Text]]:
    """The rows without the summary's columns that hold only "·" (or nothing, in a shorter row)."""
    columns = range(2, len(rows[0]) - 1) if rows else range(0)
    dots = {column for column in columns
            if all(row[column].plain in ("·", "") for row in rows) and any(row[column].plain for row in rows)}
    return [[cell for column, cell in enumerate(row) if column not in dots] for row in rows]
