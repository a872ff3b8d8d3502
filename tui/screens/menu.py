"""The main menu: play against bots, host, join, spectate, rules, quit; and the tables on the LAN."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

if TYPE_CHECKING:
    from tui.saved.unfinished import UnfinishedGame

#: What a guest of the SSH front door is not offered (``TurpinApp.guest``): the records are the host's.
NOT_FOR_GUESTS = ("host", "replays")

#: Seconds between looks at a game open in another window, until it is let go.
LOOK_AGAIN_AFTER = 5.0

MENU = [
    ("play", "Play against bots", "enter"),
    ("go_on", "Go on with your game", "c"),  # only while a game against bots is left unfinished
    ("setup", "Set up a game against bots", "g"),
    ("host", "Host a table", "h"),
    ("join", "Join a table", "j"),
    ("spectate", "Spectate", "s"),
    ("replays", "Replays", "r"),
    ("rules", "Rules", "?"),
    ("quit", "Quit", "q"),
]


class MenuScreen(Screen[None]):
    BINDINGS = [
        Binding("c", "pick('go_on')", "go on", id="go_on"),
        Binding("g", "pick('setup')", "set up", id="setup"),
        Binding("h", "pick('host')", "host", id="host"),
        Binding("j", "pick('join')", "join", id="join"),
        Binding("s", "pick('spectate')", "spectate", id="spectate"),
        Binding("r", "pick('replays')", "replays", id="replays"),
        Binding("question_mark,f1", "pick('rules')", "rules", id="rules", key_display="?"),
        Binding("q", "pick('quit')", "quit", id="quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        #: A game against bots left unfinished, which ``c`` goes on with.
        self.unfinished: UnfinishedGame | None = None
        #: The command that serves again the LAN table this app hosted and closed mid-game (None otherwise).
        self.resume_command: str | None = None

    def compose(self) -> ComposeResult:
        title = Text(" turpin", style="bold")
        title.append(" — highwayman games at your table", style="dim")
        yield Static(title, id="menu-title", classes="title")
        with Horizontal(id="menu-body"):
            with Vertical(id="menu-left"):
                yield OptionList(*self._options(), id="menu-list", markup=False)
                yield Static(self._hint(), id="menu-hint")
            yield Vertical(id="menu-lan-slot")
        yield Footer()

    def _options(self) -> list[Option]:
        return [Option(self._item(label, key), id=item) for item, label, key in MENU
                if not (self.app.guest and item in NOT_FOR_GUESTS) and (item != "go_on" or self._can_go_on())]

    def _can_go_on(self) -> bool:
        return self.unfinished is not None and not self.unfinished.in_use

    def _hint(self) -> Text:
        if self.resume_command:  # stays until the next table: the host needs it to copy, not to glimpse
            return Text(f"Your LAN table is closed, its game unfinished. To serve it again: "
                        f"{self.resume_command}", style="bold")
        if self.unfinished and self.unfinished.in_use:
            # (an SSH session whose drop the server has not noticed yet, say: offered here once it lets go)
            return Text(f"Your game of {self.unfinished.title} is being played in another turpin window.",
                        style="dim")  # (not "left at": it is being played)
        if self.unfinished:
            return Text(f"c goes on with {self.unfinished.describe()}.", style="dim")
        return Text("Enter starts 4-player Dick Turpin against bots.", style="dim")

    def on_screen_resume(self) -> None:
        """At the menu (first, or back from a table): the game just left may be one to go on with, or over."""
        self._look_for_an_unfinished_game()

    def on_turpin_app_table_closed(self, message: Message) -> None:
        """The table just left is closed now, its record let go: it may be one to go on with, or (a LAN
        table its host closed mid-game) one to serve again. (``TurpinApp.TableClosed``, typed as a plain
        message: the app imports this screen, and a screen importing the app would make a circle.)"""
        self.resume_command = getattr(message, "resume", None)
        self.query_one("#menu-hint", Static).update(self._hint())
        self._look_for_an_unfinished_game()

    @work(thread=True, exclusive=True, group="unfinished", exit_on_error=False)
    def _look_for_an_unfinished_game(self) -> None:
        """Off the event loop and after the menu shows: it reads a record and replays it (the engines load)."""
        from tui.saved.record_files import records_folder, records_of_your_own
        found = None
        if not self.app.guest or records_of_your_own():  # not the operator's games to an SSH guest
            from tui.saved.unfinished import last_game_against_bots
            found = last_game_against_bots(records_folder())
        if not get_current_worker().is_cancelled:  # a later look (the table closed since) has the say
            self.app.call_from_thread(self._offer, found)

    def _offer(self, found: UnfinishedGame | None) -> None:
        had, self.unfinished = self.unfinished, found
        if found is not None and found.in_use:
            self.set_timer(LOOK_AGAIN_AFTER, self._look_for_an_unfinished_game)  # until the other window lets go
        if (had is not None and had.path, had is not None and had.in_use) != \
                (found is not None and found.path, found is not None and found.in_use):
            menu = self.query_one("#menu-list", OptionList)
            highlighted = menu.highlighted_option.id if menu.highlighted_option else None
            menu.clear_options()
            menu.add_options(self._options())
            ids = [option.id for option in menu.options]
            menu.highlighted = ids.index(highlighted) if highlighted in ids else 0
        self.query_one("#menu-hint", Static).update(self._hint())
        self.refresh_bindings()

    @staticmethod
    def _item(label: str, key: str) -> Text:
        text = Text(f"{label:<28}")
        text.append(f"{key:>5}", style="dim")
        return text

    def on_mount(self) -> None:
        self.query_one("#menu-list").focus()
        # The menu paints first; the LAN list (a DataTable, and the browser behind it) a frame later.
        self.call_after_refresh(self._show_lan_tables)

    def _show_lan_tables(self) -> None:
        from tui.widgets.lan_tables import LanTables
        lan = LanTables(self.app.lan_interfaces, id="menu-lan")
        lan.border_title = "Tables on this network"
        self.query_one("#menu-lan-slot").mount(lan)

    @on(OptionList.OptionSelected, "#menu-list")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.action_pick(event.option.id or "")

    def on_data_table_row_selected(self) -> None:
        """A table chosen in the LAN list (the menu's only DataTable)."""
        from tui.widgets.lan_tables import LanTables
        table = self.query_one(LanTables).selected()
        if table is not None:
            from tui.screens.join import JoinScreen
            # A table with no code (or a full one, to watch) is joined at once; otherwise the code is asked.
            at_once = table.free == 0 or not table.code_needed
            self.app.push_screen(JoinScreen(spectate=table.free == 0, address=table.address,
                                            code_needed=table.code_needed, connect_now=at_once))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick" and self.app.guest and parameters and parameters[0] in NOT_FOR_GUESTS:
            return False  # not in the footer, and the key does nothing
        if action == "pick" and parameters and parameters[0] == "go_on" and not self._can_go_on():
            return False
        return True

    def action_pick(self, item: str) -> None:
        app = self.app
        if app.guest and item in NOT_FOR_GUESTS:
            return
        if item == "play":
            from tui.hosting import plan_against_bots
            app.start_table(app.play(plan_against_bots()))
        elif item == "go_on":
            if self._can_go_on():
                app.start_table(app.go_on_with(self.unfinished))
        elif item in ("setup", "host"):
            from tui.screens.setup import SetupScreen
            app.push_screen(SetupScreen(hosting=item == "host", plan=app.last_setups.get(item == "host")))
        elif item in ("join", "spectate"):
            from tui.screens.join import JoinScreen
            app.push_screen(JoinScreen(spectate=item == "spectate"))
        elif item == "replays":
            from tui.screens.replays import ReplaysScreen
            app.push_screen(ReplaysScreen())
        elif item == "rules":
            from tui.screens.rules import RulesScreen
            app.push_screen(RulesScreen())
        elif item == "quit":
            app.exit(0)
