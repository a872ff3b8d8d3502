"""The live list of tables on the LAN, from ``TableBrowser``: name, game, seats, code needed.

The browser runs in a worker and posts what it hears; rows come and go as tables appear, fill and vanish.
Table names are other people's text: they are shown as plain text, never as markup.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.widgets import DataTable

from core.registry import all_games


@dataclass(frozen=True)
class LanTable:
    instance: str
    name: str
    game: str
    address: str
    taken: int
    free: int
    code_needed: bool
    over: bool = False
    waiting: int = 0  # taken seats held for a player who lost the table: he can come back to them


def table_state(table: LanTable) -> str:
    """One word or two for the list: a table whose seats are all taken, one of them held for a player
    who lost the table, is not "full" to him: he can sit down again."""
    if table.over:
        return "over"
    if table.free == 0:
        return (f"{table.waiting} seat{'s' if table.waiting > 1 else ''} held" if table.waiting else "full")
    return "code" if table.code_needed else "open"


def game_title(game_id: str) -> str:
    game = all_games().get(game_id)
    return game.title if game else game_id


class LanTables(DataTable):
    """Tables heard on the LAN; ``interfaces`` None for every interface, ``[]`` to not browse at all."""

    @dataclass
    class Changed(Message):
        kind: str
        table: LanTable

    @dataclass
    class Status(Message):
        text: str

    def __init__(self, interfaces: list[str] | None, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=False)
        self.interfaces = interfaces
        self.tables: dict[str, LanTable] = {}

    def on_mount(self) -> None:
        self.add_columns("Table", "Game", "Seats", "")
        if self.interfaces == []:
            self.border_subtitle = "LAN browsing is off"
            return
        self.border_subtitle = "searching…"
        self.run_worker(self._browse(), group="lan", exclusive=True)

    async def _browse(self) -> None:
        try:
            from net.discovery import TableBrowser
        except ImportError as error:
            self.post_message(self.Status(f"no LAN list here ({error})"))
            return

        def heard(kind: str, ad) -> None:
            table = LanTable(ad.instance, ad.name, ad.game, ad.address, ad.seats_taken, ad.seats_free,
                             ad.code_needed, bool(getattr(ad, "over", False)), ad.waiting)
            self.post_message(self.Changed(kind, table))

        browser = TableBrowser(on_change=heard, interfaces=self.interfaces)
        try:
            await browser.start()
        except Exception as error:  # DiscoveryUnavailable and friends: joining by address still works
            self.post_message(self.Status(f"no LAN list: {error}"))
            return
        self.post_message(self.Status("listening (live)"))
        try:
            await asyncio.Event().wait()
        finally:
            await browser.close()

    def on_lan_tables_status(self, message: Status) -> None:
        self.border_subtitle = message.text

    def on_lan_tables_changed(self, message: Changed) -> None:
        table = message.table
        if message.kind == "removed":
            self.tables.pop(table.instance, None)
        else:
            self.tables[table.instance] = table
        self._redraw()

    def _redraw(self) -> None:
        cursor = self.cursor_row
        self.clear()
        for table in sorted(self.tables.values(), key=lambda t: (t.name.casefold(), t.instance)):
            seats = f"{table.taken}/{table.taken + table.free}"
            self.add_row(Text(table.name), Text(game_title(table.game)), Text(seats), Text(table_state(table)),
                         key=table.instance)
        if self.row_count:
            self.move_cursor(row=min(cursor, self.row_count - 1))

    def selected(self) -> LanTable | None:
        if not self.row_count:
            return None
        key = self.coordinate_to_cell_key((self.cursor_row, 0)).row_key.value
        return self.tables.get(key)
