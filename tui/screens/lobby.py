"""The host's lobby: the room code large, the addresses to give people, the seats filling live.

The host's own client joined seat 1 already; people join the others over the LAN, and the host can put a
bot in any empty seat. The table opens by itself once every seat is filled.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from tui import screen_styles
from tui.hosting import HostedTable, TablePlan
from tui.table_words import clock_in_words


class LobbyScreen(Screen[None]):
    CSS_PATH = screen_styles("forms")
    BINDINGS = [
        # Short words: every key's words must fit the footer at 80 columns ("esc close the table" did not)
        Binding("b", "seat_bot", "seat bot", id="bot"),
        Binding("f", "fill_bots", "fill bots", id="fill"),
        Binding("s", "ssh_door", "SSH door", id="ssh"),
        Binding("w", "web_door", "web door", id="web"),
        # Off the footer, which is full at 80 columns: the web door's lines say it, and the palette lists it
        Binding("T", "table_view", "table view (TV)", id="table-view", show=False),
        Binding("enter", "open_table", "go to the table", id="open", show=False),
        Binding("escape", "close", "close table", id="close"),
    ]

    class Changed(Message):
        pass

    def __init__(self, plan: TablePlan) -> None:
        super().__init__()
        self.plan = plan
        self.hosted: HostedTable | None = None
        self._unsubscribe = None
        self._opened = False
        self._following: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text(" Hosting a table", style="bold"), id="lobby-title", classes="title")
        with Vertical(id="lobby-body"):
            yield Static(Text("Starting the table…", style="italic"), id="lobby-code")
            yield Static(id="lobby-where")
            yield Static(id="lobby-ssh")
            with Horizontal(id="lobby-web-row"):
                yield Static(id="lobby-web")
                yield Static(id="lobby-qr")
            yield OptionList(id="lobby-seats", markup=False)
            yield Static(Text("b puts a bot in the highlighted empty seat, f fills every empty seat, s opens "
                              "an SSH door, w a web door; the table opens when every seat is taken.", style="dim"),
                         id="lobby-help")
        yield Footer()

    def on_mount(self) -> None:
        self.run_worker(self._start(), exclusive=True, group="lobby", exit_on_error=False)

    async def _start(self) -> None:
        try:
            self.hosted = await self.app.host(self.plan)
        except (OSError, ValueError) as error:
            self.query_one("#lobby-code", Static).update(Text(f"Could not host the table: {error}",
                                                              style="bold red"))
            return
        client = self.app.client
        self._unsubscribe = client.subscribe(lambda update: self.post_message(self.Changed()))
        self._draw()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    def on_lobby_screen_changed(self) -> None:
        self._draw()

    def _draw(self) -> None:
        hosted, client = self.hosted, self.app.client
        if hosted is None or client is None:
            return
        code = hosted.table.code
        big = Text("Room code  ", style="bold")
        big.append(" ".join(code) if code else "none: anyone may sit", style="bold reverse" if code else "")
        self.query_one("#lobby-code", Static).update(big)
        where = Text("Give people this address: ", style="bold")
        where.append("  ".join(hosted.addresses_to_share()))
        where.append(f"\n{hosted.table.game.title} · \"{hosted.table.name}\" · ")
        where.append("on the LAN list" if hosted.advertised else "not on the LAN list (join by address)")
        where.append(f"\n{clock_in_words(hosted.table.turn_clock.seconds)}")
        if hosted.not_advertised_because:
            where.append(f"\n{hosted.not_advertised_because}", style="dim")
        self.query_one("#lobby-where", Static).update(where)
        seats = self.query_one("#lobby-seats", OptionList)
        highlighted = seats.highlighted
        seats.clear_options()
        # Once this window's client has stopped (another window took the seat) it hears nothing more: the
        # seats are read from the table this process serves, once a second (``_follow_the_table``).
        for seat in client.snapshot.seats if client.stopped is None else hosted.table.seating.public():
            label = Text(f"Seat {seat['seat'] + 1}: ")
            if seat["kind"] == "open":
                label.append("empty", style="italic dim")
            else:
                label.append(str(seat["name"]))
                if seat["kind"] != "bot":  # a bot's name says it is one: "Moll Cutpurse (normal bot)"
                    label.append(f"  ({'connected' if seat['connected'] else 'away'})", style="dim")
            seats.add_option(Option(label))
        if seats.option_count:
            seats.highlighted = min(highlighted or 0, seats.option_count - 1)
        if client.stopped is not None:
            # Another window took this seat with its token (or the connection failed for good): the table
            # is still served from this process, and only Esc here closes it.
            self._follow_the_table()
            self.query_one("#lobby-help", Static).update(Text(
                f"This window has lost its seat: {client.stopped}. The table is still served from here, "
                "and Esc closes it for everyone.", style="bold"))
        if client.snapshot.started and not self._opened:
            self._opened = True
            self.action_open_table()

    def action_seat_bot(self) -> None:
        seats = self.query_one("#lobby-seats", OptionList)
        client = self.app.client
        if self.hosted is None or client is None or seats.highlighted is None:
            return
        seat = seats.highlighted
        if client.snapshot.seats[seat]["kind"] != "open":
            self.notify("Only an empty seat can take a bot here.", severity="warning")
            return
        self.hosted.seat_bot(seat)

    def action_fill_bots(self) -> None:
        client = self.app.client
        if self.hosted is None or client is None:
            return
        for seat in client.snapshot.seats:
            if seat["kind"] == "open":
                self.hosted.seat_bot(seat["seat"])

    def action_ssh_door(self) -> None:
        """Open an SSH front door to this table: people with only an ssh client can sit down too."""
        if self.hosted is None:
            return
        self.query_one("#lobby-ssh", Static).update(Text("Opening the SSH door…", style="italic"))
        self.run_worker(self._open_ssh_door(), group="ssh", exclusive=True, exit_on_error=False)

    async def _open_ssh_door(self) -> None:
        try:
            lines = await self.hosted.open_ssh_door()
        except Exception as error:  # no asyncssh, the port taken…: said, and the table goes on
            self.query_one("#lobby-ssh", Static).update(Text(f"No SSH door: {error}", style="bold red"))
            return
        text = Text("Over SSH (no turpin needed): ", style="bold")
        text.append("\n".join(lines))
        self.query_one("#lobby-ssh", Static).update(text)

    def action_web_door(self) -> None:
        """Open a web door to this table: people with only a browser can sit down too."""
        if self.hosted is None:
            return
        self.query_one("#lobby-web", Static).add_class("-open")
        self.query_one("#lobby-web", Static).update(Text("Opening the web door…", style="italic"))
        self.run_worker(self._open_web_door(), group="web", exclusive=True, exit_on_error=False)

    async def _open_web_door(self) -> None:
        try:
            links = await self.hosted.open_web_door()
        except Exception as error:  # the port taken, no textual-serve…: said, and the table goes on
            self.query_one("#lobby-web", Static).update(Text(f"No web door: {error}", style="bold red"))
            return
        text = Text("In a browser (give the link only to your players): ", style="bold")
        text.append("\n".join(links))
        if links:  # a phone joins by its camera: the code of the first link, with its token
            text.append("\n\nOn a phone: point its camera at the code. For the television, T shows the table "
                        "as everyone may see it.", style="italic")
            from tui.qr_picture import qr_picture
            self.query_one("#lobby-qr", Static).update(qr_picture(links[0]))
            self.query_one("#lobby-qr", Static).add_class("-open")
        self.query_one("#lobby-web", Static).update(text)

    def action_table_view(self) -> None:
        """The table as a television in the room shows it: public things only, on a spectator's seat."""
        if self.hosted is not None and self.app.client is not None:
            from tui.screens.table_view import open_table_view
            self.run_worker(open_table_view(self.app, self.app.client), group="view", exit_on_error=False)

    def _follow_the_table(self) -> None:
        if self._following is None:
            self._following = self.set_interval(1.0, self._draw)

    def action_open_table(self) -> None:
        if self.app.client is not None and self.app.client.snapshot.started:
            self.app.open_table()
        else:
            self.notify("The table opens once every seat is taken (b or f seats bots).")

    def action_close(self) -> None:
        from tui.screens.confirm import ask_first
        ask_first(self.app, "Close the table?", self.what_leaving_does(), "Close", self.app.leave_table)

    def what_leaving_does(self) -> str | None:
        """What closing the table costs, for the question asked first (Esc, or quitting turpin): None while
        nobody else has sat down."""
        client = self.app.client
        if client is None:
            return None
        if self.hosted is not None and self.hosted.table.started and not self.hosted.table.over:
            return "The game has begun at this table: closing it ends the game for everyone."
        others = [str(seat["name"]) for seat in client.snapshot.seats
                  if seat["kind"] == "player" and seat["seat"] != client.snapshot.seat]
        if not others:
            return None
        seated = others[0] if len(others) == 1 else ", ".join(others[:-1]) + " and " + others[-1]
        return f"{seated} {'has' if len(others) == 1 else 'have'} sat down: closing the table sends them away."
