"""The table view: a table for a big screen (the television in the room), only what everyone may see.

The public board, the players and the log, large, with no hand and no moves, drawn from a spectator's
snapshot, live. The host opens one from the lobby or the table (``T``): the view then joins the table as a
spectator of its own, so nothing of the host player's own seat can reach it; a spectator's window (a wall
screen's browser tab, ``serve-web --spectate``) opens one on the connection it watches with.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer

from net.client import ClientError, ClientUpdate, TableClient
from tui import TABLE_STYLES, screen_styles
from tui.frame import TableFrame
from tui.games import panes_for
from tui.table_layout import NARROW_BELOW
from tui.table_words import seats_filling
from tui.widgets.lines import LinePane
from tui.widgets.log import TableLog
from tui.widgets.players import PlayersPane


class TableViewScreen(Screen[None]):
    """What a spectator of ``client``'s table sees, for a big screen. ``own_client``: the view joined as a
    spectator for itself, and leaves the table when it closes."""

    CSS_PATH = [*TABLE_STYLES, screen_styles("table_view")]
    BINDINGS = [Binding("escape,T", "close_view", "close the view", id="close-view", key_display="esc")]

    @dataclass
    class Updated(Message):
        update: ClientUpdate

    def __init__(self, client: TableClient, *, own_client: bool) -> None:
        super().__init__()
        if client.role != "spectator":
            raise ValueError("the table view draws a spectator's snapshot, never a player's")
        self.client = client
        self.own_client = own_client
        self.panes = panes_for(client.snapshot.game)
        self.add_class(f"-game-{client.snapshot.game}")
        self.frame = TableFrame.from_snapshot(client.snapshot)
        self._unsubscribe = None

    def compose(self) -> ComposeResult:
        glyphs = self.app.glyphs
        yield LinePane(id="view-status")
        with Horizontal(id="view-area"):
            board = self.panes.board(glyphs=glyphs, id="view-board", classes="pane", recap=self.panes.recap)
            board.border_title = "Board"
            yield board
            with Vertical(id="view-side"):
                players = PlayersPane(self.panes, glyphs=glyphs, id="view-players")
                log = TableLog(id="view-log")
                players.border_title, log.border_title = "Players", "Log"
                yield players
                yield log
        yield Footer()

    def on_resize(self) -> None:
        self.set_class(self.size.width < NARROW_BELOW, "-narrow")

    def on_mount(self) -> None:
        self.on_resize()
        self._unsubscribe = self.client.subscribe(lambda update: self.post_message(self.Updated(update)))
        self.call_after_refresh(self._draw)

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self.own_client:
            self.app.run_worker(self.client.close(), group="table-view", exit_on_error=False)

    def on_table_view_screen_updated(self, message: Updated) -> None:
        if message.update.kind in ("table", "welcome", "stopped"):
            self._draw()

    def _draw(self) -> None:
        frame = self.frame = TableFrame.from_snapshot(self.client.snapshot, self.app.glyphs)
        self.query_one("#view-board").frame = frame  # type: ignore[attr-defined]
        self.query_one(PlayersPane).frame = frame
        self.query_one(TableLog).show(frame)
        status = Text(f" {self.panes.status(frame) if frame.started else seats_filling(frame)}", style="bold")
        status.append(f"   {frame.table} · table view", style="dim")
        if self.client.stopped is not None:
            status.append(f" · {self.client.stopped}", style="bold red")
        self.query_one("#view-status", LinePane).show(status)

    def action_close_view(self) -> None:
        self.dismiss(None)


async def open_table_view(app: App[object], client: TableClient) -> None:
    """The table view of ``client``'s table: on its own connection if ``client`` watches already, else
    on a spectator's connection of its own (the same address and room code), never a player's."""
    if client.role == "spectator":
        app.push_screen(TableViewScreen(client, own_client=False))
        return
    spectator = TableClient(client.host, client.port, role="spectator", code=client.code)
    try:
        await spectator.start()
    except ClientError as error:
        app.notify(f"No table view: {error}", severity="warning", markup=False)
        return
    app.push_screen(TableViewScreen(spectator, own_client=True))
