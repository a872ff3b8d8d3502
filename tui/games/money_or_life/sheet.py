"""Your Money or Your Life's sheet: every highwayman's tracks side by side, yours first."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from core.games.money_or_life import rules
from tui.frame import TableFrame
from tui.games.money_or_life.common import money, short_name, view_of
from tui.widgets.lines import Shown
from tui.widgets.pane import FramePane, text_columns


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



def kit(items: list[str]) -> str:
    return ", ".join(rules.item_name(item) for item in items) or "—"


class YorkSheet(FramePane):
    """Every highwayman's sheet side by side, yours first and in full."""

    KEEP_TALLEST = True  # a forced rest's row comes and goes: a scrollbar shown once stays

    #: What the sheet shows of each player (the rest, such as who has picked, changes on every table).
    SHOWN = ("seat", "health", "status", "guineas", "folk_hero", "scoundrel", "horse", "weapons", "gear",
             "as_scoundrel", "score")

    def draw_key(self, frame: TableFrame) -> object:
        view = view_of(frame)
        players = [{key: player.get(key) for key in self.SHOWN} for player in view.get("players", [])]
        names = [frame.plain_name(seat) for seat in range(len(players))]
        # A pick or the dice matter to the sheet only through the forced rest they may bring (Y5).
        rests = [forced_rest(view, player) for player in view.get("players", [])]
        return frame.seat, names, players, rests, self.glyphs

    def draw(self, frame: TableFrame) -> Shown:
        view = view_of(frame)
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
            ("scores as", lambda p: "scoundrel" if p["as_scoundrel"] else "folk hero"),  # (the row says declared)
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
