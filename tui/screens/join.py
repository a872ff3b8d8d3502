"""Join (or spectate) a table: pick one from the live LAN list or type its address, give the room code.

Every failure is said in the dialog, which stays open for a correction: a wrong code, a full table (with
an offer to watch instead), nobody at that address, an address that is not one.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Static

from net.client import ClientError
from tui import screen_styles
from tui.saved import seats
from tui.screens import FORM_FOCUS_KEYS
from tui.widgets.lan_tables import LanTables


class JoinScreen(Screen[None]):
    CSS_PATH = screen_styles("forms")
    BINDINGS = [Binding("escape", "back", "back", id="back"), *FORM_FOCUS_KEYS]

    def __init__(self, *, spectate: bool = False, address: str = "", code: str | None = None,
                 code_needed: bool = True, connect_now: bool = False) -> None:
        super().__init__()
        self.spectate = spectate
        self.address = address
        self.code = code or ""
        self.code_needed = code_needed
        self.connect_now = connect_now
        #: Offered when nothing else is: the table this app last sat at, whose seat it holds (a player back
        #: through SSH is told his seat is waiting, without having to remember host:port).
        self.kept_seat = None if spectate or address else seats.last_address()
        if self.kept_seat:
            self.address = self.kept_seat

    def compose(self) -> ComposeResult:
        title = "Spectate a table" if self.spectate else "Join a table"
        yield Static(Text(f" {title}", style="bold"), id="join-title", classes="title")
        with Horizontal(id="join-body"):
            lan = LanTables(self.app.lan_interfaces, id="join-lan")
            lan.border_title = "LAN tables · Enter picks"  # short enough to be whole at 80 columns
            yield lan
            with Vertical(id="join-form"):
                yield Label("Address (host:port)")
                yield Input(self.address, placeholder="e.g. 192.168.1.20:4707", id="join-address")
                # Watching needs no code: no field to fill, not one labelled "(not needed to watch)"
                code_label = Label("Room code")
                code = Input(self.code, placeholder="the code the host shows", max_length=32, id="join-code")
                code_label.display = code.display = not self.spectate
                yield code_label
                yield code
                yield Static(id="join-error")
                with Horizontal(id="join-buttons"):
                    if not self.spectate:
                        yield Button("Join", variant="primary", id="join-go")
                    yield Button("Spectate", variant="default" if not self.spectate else "primary",
                                 id="join-watch")
                    yield Button("Back", id="join-back")
        yield Footer()

    def on_mount(self) -> None:
        if self.spectate:
            self.query_one("#join-watch" if self.address else "#join-address").focus()
        else:
            self.query_one("#join-address" if not self.address else "#join-code", Input).focus()
        if self.kept_seat:
            self.query_one("#join-go", Button).focus()
            self.say(f"You last sat at {self.kept_seat}: Enter takes you back to your seat there, if that "
                     "table is still on (no code needed).", "italic")
        if self.connect_now and self.address:
            self.connect(self.spectate)

    @on(LanTables.RowSelected)
    def lan_table_chosen(self) -> None:
        table = self.query_one(LanTables).selected()
        if table is None:
            return
        self.query_one("#join-address", Input).value = table.address
        if table.free == 0 and table.waiting and not self.spectate:
            self.connect(self.spectate)  # a held seat: the seat kept on this machine, if it is his, is back
        elif table.free == 0 and not self.spectate:
            self.say(f"{table.name} is full; you can spectate it.", "yellow")
            self.query_one("#join-watch", Button).focus()
        elif table.code_needed and not self.spectate:
            self.say("This table needs a room code.", "")
            self.query_one("#join-code", Input).focus()
        else:
            self.connect(self.spectate)

    @on(LanTables.Changed)
    def lan_table_heard(self) -> None:
        """The first table heard takes the focus from an empty address box: most players join what the
        LAN lists. A box with something in it (typed, or a kept seat's address) keeps it."""
        address = self.query_one("#join-address", Input)
        lan = self.query_one(LanTables)
        if self.focused is address and not address.value and lan.row_count:
            lan.focus()

    @on(Input.Submitted)
    def submitted(self) -> None:
        self.connect(self.spectate)

    @on(Button.Pressed, "#join-go")
    def join_pressed(self) -> None:
        self.connect(False)

    @on(Button.Pressed, "#join-watch")
    def watch_pressed(self) -> None:
        self.connect(True)

    @on(Button.Pressed, "#join-back")
    def back_pressed(self) -> None:
        self.action_back()

    def action_back(self) -> None:
        self.app.pop_screen()

    def say(self, text: str, style: str = "bold red") -> None:
        self.query_one("#join-error", Static).update(Text(text, style=style))

    def connect(self, spectate: bool) -> None:
        address = self.query_one("#join-address", Input).value.strip()
        code = self.query_one("#join-code", Input).value.strip()
        if not address:
            self.say("Give the table's address as host:port, or pick a table from the list.")
            return
        self.say("Connecting…", "italic")
        self.run_worker(self._connect(address, code, spectate), exclusive=True, group="join",
                        exit_on_error=False)

    async def _connect(self, address: str, code: str, spectate: bool) -> None:
        try:
            await self.app.join(address, code or None, spectate)
        except ClientError as error:
            self._explain(str(error), getattr(error, "code", None))
        except (OSError, ValueError) as error:
            self._explain(str(error), None)

    def _explain(self, message: str, code: str | None) -> None:
        self.say(message[:1].upper() + message[1:])
        if code == "table_full":
            self.say(message[:1].upper() + message[1:].split("; you can still watch")[0]
                     + ". Press Spectate to watch it instead.", "bold yellow")
            self.query_one("#join-watch", Button).focus()
        elif code == "wrong_code":
            field = self.query_one("#join-code", Input)
            field.focus()
        else:
            self.query_one("#join-address", Input).focus()
