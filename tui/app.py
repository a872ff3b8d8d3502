"""The Textual app: themes, the global keys, and the routes to a table.

Every table is reached through a ``TableClient``: a game against bots starts a private ``TableHost`` on
127.0.0.1 and joins it; hosting starts one on the LAN and joins it; joining and spectating connect to
someone else's. The screens do the rest.
"""

from __future__ import annotations

import contextlib
import pathlib
import shlex
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.filter import LineFilter
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.screen import Screen

from net.client import ClientError, TableClient
from net.protocol import NAME_LIMIT
from tui import STYLES, collector, type_ahead
from tui.ascii_only import AsciiOnly
from tui.glyphs import ASCII, UNICODE, Glyphs
from tui.saved import seats
from tui.startup.start import Start

if TYPE_CHECKING:  # the hosting side (net.host, the engines) loads only when a table is started
    from tui.hosting import HostedTable, TablePlan
    from tui.hotseat.seats import HotSeat
    from tui.saved.unfinished import UnfinishedGame

#: How long after a toast's time is up the screen is repainted where it was (``TurpinApp.notify``).
TOAST_GONE_AFTER = 0.1


#: Tab and shift+tab: every form has them, and the palette is no place to move the focus.
FOCUS_ACTIONS = {"focus_next", "focus_previous", "app.focus_next", "app.focus_previous"}
#: One filter for every app (a strip caches what each filter made of it).
ASCII_ONLY = AsciiOnly()


#: What drawing a game view a host made up can raise in the game's panes (``TurpinApp._handle_exception``).
HOST_DATA_ERRORS = (KeyError, TypeError, IndexError, ValueError, AttributeError)


class TurpinApp(App[int]):
    TITLE = "turpin"
    SUB_TITLE = "highwayman games at your table"
    # The table's sheets come with the table screen: parsing them all would slow every launch.
    CSS_PATH = [STYLES / "app.tcss"]
    BINDINGS = [
        Binding("ctrl+t", "toggle_dark", "light/dark", show=False, id="theme"),
    ]
    #: The type-ahead guard's seconds (``tui/type_ahead.py``), here so that a test can turn them up or off.
    TYPE_AHEAD_GUARD = type_ahead.SAME_QUESTION_GUARD
    NEW_QUESTION_GUARD = type_ahead.NEW_QUESTION_GUARD

    def __init__(self, start: Start | None = None, *, player_name: str = "", glyphs: Glyphs = UNICODE,
                 bell: bool = True, lan_interfaces: list[str] | None = None, guest: bool = False) -> None:
        super().__init__()
        #: A guest's window through the SSH front door, on someone else's machine: it hosts no table (no
        #: port opened on the operator's network), and reads none of the operator's game records (they
        #: hold every hand of his games, running ones too): only his own games against bots, kept where
        #: the front door names a folder for him (``tui.saved.record_files.records_of_your_own``).
        self.guest = guest
        self._said_too_small = False
        #: Where the LAN list listens: None every interface, [] not at all (tests), else these addresses.
        self.lan_interfaces = lan_interfaces
        self.start = start or Start()
        # A hello with a longer name is refused by every table ("field 'name' is too long"), and over SSH
        # the name is the login name, which nobody can change there: it is cut, and the first table says so.
        self.player_name = player_name[:NAME_LIMIT].rstrip()
        self._name_cut = len(player_name) > NAME_LIMIT
        self.glyphs = glyphs
        self.bell_on = bell
        self.client: TableClient | None = None
        #: Set once this table's host sent a game the panes cannot draw (``_handle_exception``).
        self._left_a_broken_table = False
        self.hosted: HostedTable | None = None
        #: The people at this keyboard at a hot-seat table (``self.client`` is its public view).
        self.hot_seat: HotSeat | None = None
        self.last_plan: TablePlan | None = None
        #: The last set-up form sent, by whether it hosted: the next one opens with its choices.
        self.last_setups: dict[bool, TablePlan] = {}
        self.record_path: str | None = None
        #: At someone else's table, the last finished game's saved check (``turpin verify`` reads it).
        self.check_path: str | None = None

    def _handle_exception(self, error: Exception) -> None:
        """Textual's one place for an error no handler caught. At someone else's table a game view the
        panes cannot draw (a field missing, of another type: the host's frame passed the protocol's shape
        check, but a game's view is the game's own) leaves that table, said in words, instead of ending
        the app with a traceback; anything else, and any error at a table this app serves, is ours, and
        ends the app as before."""
        if self.hosted is None and self.client is not None and not self._left_a_broken_table \
                and isinstance(error, HOST_DATA_ERRORS):
            self._left_a_broken_table = True
            address = f"{self.client.host}:{self.client.port}"
            self.leave_table()
            self.notify(f"The table at {address} sent a game this program cannot draw ({type(error).__name__}: "
                        f"{str(error)[:60]}), so you have left it.", severity="error", markup=False, timeout=30)
            return
        super()._handle_exception(error)

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, and under ``--ascii`` the last one: every cell in ASCII (``AsciiOnly``)."""
        filters = super().get_line_filters()
        return [*filters, ASCII_ONLY] if self.glyphs is ASCII else filters

    def on_mount(self) -> None:
        if self.glyphs is ASCII:  # frames in ASCII too (styles/app.tcss)
            self.add_class("-ascii")
        if not self.guest:  # the theme chosen last time, kept from run to run
            from tui.saved import preferences
            theme = preferences.load().get("theme")
            if theme in self.available_themes:
                self.theme = theme
        from tui.screens.menu import MenuScreen
        menu = MenuScreen()
        self.push_screen(menu)
        menu.call_after_refresh(collector.startup_done)
        route = self.start.route
        if route == "play" and self.start.plan is not None:
            self.start_table(self.play(self.start.plan))
        elif route == "host":
            from tui.screens.setup import SetupScreen
            self.push_screen(SetupScreen(hosting=True, plan=self.start.plan))
        elif route in ("join", "spectate"):
            from tui.screens.join import JoinScreen
            self.push_screen(JoinScreen(spectate=route == "spectate", address=self.start.address,
                                        code=self.start.code, connect_now=True))

    #: The smallest terminal every screen is made for; below it panes squeeze and lines are cut.
    SMALLEST = (80, 24)
    #: ... except a phone held upright (40 columns and rows to spare): the table has a layout for it.
    SMALLEST_PHONE = (40, 30)

    def on_resize(self, event: events.Resize) -> None:
        """Say once, each time the terminal becomes smaller than ``SMALLEST``, why things are cut."""
        width, height = event.size
        phone = width >= self.SMALLEST_PHONE[0] and height >= self.SMALLEST_PHONE[1]
        small = not phone and (width < self.SMALLEST[0] or height < self.SMALLEST[1])
        if small and not self._said_too_small:
            width, height = self.SMALLEST
            self.notify(f"This terminal is {event.size.width}×{event.size.height}; turpin is made for "
                        f"{width}×{height} or more, so some lines are cut.", title="Small terminal",
                        severity="warning", timeout=8)
        self._said_too_small = small

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)
        # Textual takes an expired toast out of the layout without repainting where it was (seen on the
        # narrow table: "Your move" stayed on the tabs until something else redrew them), so the screen
        # is repainted once the toast has gone.
        shown_for = self.NOTIFICATION_TIMEOUT if timeout is None else timeout
        self.set_timer(shown_for + TOAST_GONE_AFTER, self._repaint_where_toasts_were)

    def _repaint_where_toasts_were(self) -> None:
        if self.is_running and self.screen.is_current:
            self.screen.refresh()

    def start_table(self, coroutine: Any) -> None:
        """Run a route to a table (``play``, ``join``…) as a worker; a failure is said, never a crash."""
        self.run_worker(self._guarded(coroutine), exclusive=True, group="table", exit_on_error=False)

    async def _guarded(self, coroutine: Any) -> None:
        try:
            await coroutine
        except (ClientError, OSError, ValueError) as error:
            self.notify(f"Could not open the table: {error}", severity="error", markup=False, timeout=8)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The palette lists every key of the screen too (a move, chat, the rules…), not only the app's;
        each once (the menu's "quit" is Textual's "Quit" already)."""
        titles: set[str] = set()
        for command in [*super().get_system_commands(screen),
                        *getattr(screen, "palette_commands", lambda: [])()]:
            if command.title == "Screenshot":
                if self.guest:
                    continue  # it would be saved on the operator's machine, not the SSH guest's
                command = SystemCommand("Screenshot", "Save an SVG of the screen in turpin's screenshots folder",
                                        lambda: self.set_timer(0.1, self.action_screenshot))
            titles.add(command.title.casefold())
            yield command
        seen: set[str] = set()
        for key, active in screen.active_bindings.items():
            binding = active.binding
            if not binding.description or binding.action in seen or not active.enabled \
                    or binding.action.startswith("choose(") or binding.action in FOCUS_ACTIONS \
                    or not isinstance(active.node, (Screen, App)):
                continue  # the moves are listed above; a focused list's or field's keys are its arrows
            seen.add(binding.action)
            label = binding.description[:1].upper() + binding.description[1:]
            if label.casefold() in titles:
                continue
            yield SystemCommand(label, f"key: {binding.key_display or key}",
                                lambda action=binding.action, node=active.node: self._run_action_on(node, action))

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        """The palette's Screenshot: an SVG of the screen in turpin's screenshots folder, and a toast that
        says where, or why not (Textual's own goes to ~/Downloads, and may fail without a word why)."""
        from tui.saved.record_files import screenshots_folder
        folder = pathlib.Path(path) if path else screenshots_folder()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            saved = self.save_screenshot(filename, str(folder))
        except OSError as error:
            self.notify(f"Could not save the screenshot in {folder}: {error.strerror or error}",
                        title="Screenshot", severity="error", markup=False)
            return
        self.notify(f"Saved in {saved}", title="Screenshot", markup=False)

    def _run_action_on(self, node: Any, action: str) -> None:
        self.call_later(self.run_action, action, node)

    async def action_quit(self) -> None:
        """ctrl+q, or Quit in the palette: at a table whose game is on it asks first, as Esc does (a table
        you host would close for everyone, a game against bots end); anywhere else it quits at once."""
        from tui.screens.confirm import ask_first
        # The table may be under a pop-up (the rules, a pause between games): it is still what quitting leaves
        table = next((screen for screen in reversed(self.screen_stack) if hasattr(screen, "what_leaving_does")),
                     None)
        consequence = table.what_leaving_does() if table is not None else None
        ask_first(self, "Quit turpin?", consequence, "Quit", self.exit)

    def action_help_quit(self) -> None:
        """ctrl+c, the key people press first to get out: it copies a selection in Textual, so it says how
        to quit and leave instead (Textual's own line names ctrl+q only)."""
        leave = " · Esc leaves the table" if hasattr(self.screen, "what_leaving_does") else ""
        self.notify(f"ctrl+q quits turpin{leave}", title="Do you want to quit?", markup=False)

    def action_toggle_dark(self) -> None:
        self.theme = "textual-light" if self.theme == "textual-dark" else "textual-dark"

    def watch_theme(self, theme: str) -> None:
        """Any change of theme (ctrl+t, or the palette's theme list) is kept for next time."""
        if self.is_mounted and not self.guest:
            from tui.saved import preferences
            if preferences.load().get("theme") != theme:
                preferences.remember("theme", theme)

    # ------------------------------------------------------------------------------- the routes

    @property
    def can_play_again(self) -> bool:
        """A game against bots is played again at a new private table; a LAN table hosted here deals
        again to the same seats (not once its host has left it)."""
        if self.last_plan is None:
            return False
        return not self.last_plan.on_lan or self.hosted is not None

    async def play(self, plan: TablePlan) -> None:
        """A private table against bots: host it here on 127.0.0.1 and sit at seat 1."""
        await self._close_table()
        from tui.saved.record_files import path_of_your_own
        path = path_of_your_own(plan.game, self.guest)  # a guest's only in a folder of his own
        self.record_path = None if path is None else str(path)
        self.last_plan = plan
        from tui.hosting import HostedTable
        self.hosted = HostedTable(plan, self.record_path)
        host, port = await self._start_hosted(self.hosted)
        if plan.hot_seat:  # each person here at a seat of their own, and the public table on screen
            from tui.hotseat.public_table import HotSeat, PublicTableScreen
            self.hot_seat = await HotSeat.seated(host, port, plan.people, plan.bots)
            self._open(self.hot_seat.public, PublicTableScreen(self.hot_seat))
            return
        client = TableClient(host, port, name=(plan.people or [self.player_name])[0] or None, seat=0)
        await client.start()
        self._open(client)

    async def go_on_with(self, unfinished: UnfinishedGame) -> None:
        """A game against bots left unfinished: its table rebuilt from the record (which it goes on
        writing), hosted here again, and the person back in his seat with its token."""
        await self._close_table()
        from net.host import record_saver
        from tui.hosting import HostedTable, plan_to_go_on_with
        from tui.saved.unfinished import unfinished_game_at
        fresh = unfinished_game_at(unfinished.path)
        if fresh is None:
            self.notify("That game is over now, or open in another turpin window.", title="Go on", severity="warning")
            self.screen.post_message(self.TableClosed())  # the menu looks again
            return
        unfinished = fresh
        plan = plan_to_go_on_with(unfinished.record)
        table = unfinished.table  # rebuilt from the record just read: it goes on writing it
        table.keep_record_in(record_saver(unfinished.path))
        self.record_path, self.last_plan = str(unfinished.path), plan
        self.hosted = HostedTable(plan, self.record_path, table=table)
        host, port = await self._start_hosted(self.hosted)
        client = TableClient(host, port, name=self.player_name or None, token=unfinished.token,
                             seat=unfinished.seat)
        await client.start()
        self._open(client)

    async def host(self, plan: TablePlan) -> HostedTable:
        """A LAN table: serve it, then sit at seat 1; the lobby shows the code and the addresses."""
        await self._close_table()
        from tui.hosting import HostedTable
        from tui.saved.record_files import default_record_path
        self.record_path = plan.record or str(default_record_path(plan.name or plan.game))
        if self.lan_interfaces == []:
            plan.advertise = False  # LAN announcements are off in this app (tests, TURPIN_LAN=off)
        self.last_plan = plan
        self.hosted = HostedTable(plan, self.record_path)
        host, port = await self._start_hosted(self.hosted)
        client = TableClient(host, port, name=self.player_name or None, code=self.hosted.table.code, seat=0)
        await client.start()
        # The host's own seat token, kept as a joining player's is: if this app dies, the table resumed
        # from its record (same port) takes the host back with `turpin join 127.0.0.1:PORT`.
        for address in {f"{host}:{port}", *self.hosted.addresses_to_share()}:
            seats.remember(address, client.token)
        self.client = client
        return self.hosted

    async def _start_hosted(self, hosted: HostedTable) -> tuple[str, int]:
        await hosted.start()
        return hosted.join_address

    async def join(self, address: str, code: str | None, spectate: bool) -> None:
        """Someone else's table; ``ClientError`` says in words why it cannot be joined."""
        from core.engine import OptionError
        from net.addresses import parse_address
        try:
            host, port = parse_address(address.strip())
        except OptionError as error:
            raise ClientError(str(error)) from None
        await self._close_table()
        self.record_path, self.last_plan = None, None
        key = f"{host}:{port}"
        given = self.start.extra if self.start.address == address else {}  # `turpin join --token/--seat`
        token = None if spectate else given.get("token") or seats.token_for(key)
        seat = None if spectate else given.get("seat")
        client = self._client(host, port, code, spectate, token, seat)
        # A token from the seats file does not push out a window playing that seat now (a second
        # `turpin join` on the host's machine must not take the host's own seat); one given with --token does.
        client.take_over = bool(given.get("token"))
        in_use = False
        try:
            await _start(client)
        except ClientError as error:
            code_ = getattr(error, "code", None)
            if token is None or code_ not in ("bad_token", "seat_in_use"):
                raise
            if code_ == "bad_token":
                seats.remember(key, None)  # that seat is gone; join afresh
            in_use = code_ == "seat_in_use"  # the window playing it keeps its claim on the seats file
            client = self._client(host, port, code, spectate, None, seat)
            try:
                await _start(client)
            except ClientError as refused:
                if not in_use or getattr(refused, "code", None) != "table_full":
                    raise
                # No other seat: most likely our own last connection, which the host has not yet seen drop
                failed = ClientError("your seat at this table is still held by another connection (another "
                                     "window, or your last one, which the host lets go within seconds): "
                                     "try again in a moment")
                failed.code = "seat_in_use"  # type: ignore[attr-defined]
                raise failed from None
        if not spectate and not in_use:
            seats.remember(key, client.token)
        self._open(client)

    def forget_seat(self, client: TableClient) -> None:
        """This terminal no longer holds its seat at ``client``'s table (the host handed it to a bot)."""
        key = f"{client.host}:{client.port}"
        if client.token is not None and seats.token_for(key) == client.token:
            seats.remember(key, None)

    def _client(self, host: str, port: int, code: str | None, spectate: bool, token: str | None,
                seat: int | None = None) -> TableClient:
        return TableClient(host, port, role="spectator" if spectate else "player",
                           name=self.player_name or None, code=code or None, token=token, seat=seat)

    def _open(self, client: TableClient, screen: Screen | None = None) -> None:
        from tui.screens.table import TableScreen
        self.client = client
        self._left_a_broken_table = False
        self._to_menu()
        self.push_screen(screen or TableScreen(client))
        if client.role == "spectator" and self.start.extra.get("table_view"):  # a television's wall screen
            from tui.screens.table_view import TableViewScreen
            self.push_screen(TableViewScreen(client, own_client=False))
        if self._name_cut:  # said at the first table, where the name shows
            self._name_cut = False
            self.call_after_refresh(self.notify, f"Names are at most {NAME_LIMIT} characters: at the tables "
                                    f"you are {self.player_name}.", markup=False, timeout=10)

    def open_table(self) -> None:
        """From the host's lobby to the table itself."""
        if self.client is not None:
            self._open(self.client)

    def keep_the_deal_check(self) -> None:
        """A game at someone else's table is over: keep what checks its deal again later, beside the
        records (not for a guest with no folder of his own), written by a worker thread."""
        client = self.client
        self.check_path = None
        if self.hosted is not None or client is None or client.evidence is None:
            return
        from net.fairness import CHECK_SUFFIX, write_evidence
        from tui.saved.record_files import path_of_your_own
        path = path_of_your_own(client.snapshot.table or client.snapshot.game, self.guest, CHECK_SUFFIX)
        if path is None:
            return
        self.check_path = str(path)
        evidence, game = client.evidence, client.snapshot.game
        self.run_worker(lambda: write_evidence(path, game, evidence), thread=True, group="check", exit_on_error=False)

    def play_again(self, shuffle: bool = False) -> None:
        """Another game at the table this app hosts, in the same seats or (``shuffle``) new ones: the
        table stays, so its running score goes on. A game against bots whose table is gone is played
        again at a new one."""
        if self.last_plan is None:
            return
        plan = self.last_plan
        plan.seed = None
        if self.hosted is not None:
            # Everyone at the table is sent the new game; each table screen closes its results on it.
            from tui.saved.record_files import default_record_path, records_of_your_own
            try:
                self.record_path = (None if not plan.on_lan and self.guest and not records_of_your_own()
                                    else str(default_record_path(plan.name or plan.game)))
            except OSError:
                self.record_path = None
            self.hosted.start_again(self.record_path, shuffle=shuffle)
        elif not plan.on_lan:
            self.start_table(self.play(plan))

    @dataclass
    class TableClosed(Message):
        """The table this app served or sat at is closed (its record let go): sent to the menu, with the
        command that serves it again when it was a LAN table closed before its game was over."""

        resume: str | None = None

    def leave_table(self) -> None:
        self._to_menu()
        self.run_worker(self._close_table_then_say_so(), group="close")

    async def _close_table_then_say_so(self) -> None:
        resume = self._resume_command()
        await self._close_table()
        self.screen.post_message(self.TableClosed(resume))  # the menu may offer the game just left

    def _resume_command(self) -> str | None:
        """How the host serves a LAN table again after closing it mid-game: its record goes on from there."""
        hosted = self.hosted
        if hosted is None or not hosted.plan.on_lan or hosted.record_path is None or hosted.table.over:
            return None
        return f"turpin host --headless --resume {shlex.quote(hosted.record_path)}"

    def review_game(self, path: str) -> None:
        """The replay of the game recorded at ``path``, its review under way (the results' Review)."""
        from net.record import RecordError
        from tui.replay import Replay
        from tui.screens.replay import ReplayScreen
        try:
            replay = Replay(path, self.glyphs)
        except RecordError as error:
            self.notify(f"This game's record cannot be read: {error}", severity="error", markup=False)
            return
        self.push_screen(ReplayScreen(replay, review_now=True))

    def return_to_menu(self) -> None:
        """Back to the main menu from anywhere (the replays, say), leaving any table as it is."""
        self._to_menu()

    def _to_menu(self) -> None:
        while len(self.screen_stack) > 2:
            self.pop_screen()

    async def _close_table(self) -> None:
        client, hosted, hot_seat = self.client, self.hosted, self.hot_seat
        self.client, self.hosted, self.hot_seat = None, None, None
        if hosted is not None:  # first: the others are told the table closes, not that its host left it
            with contextlib.suppress(Exception):
                await hosted.close()
        if hot_seat is not None:
            await hot_seat.close()
        if client is not None:
            with contextlib.suppress(Exception):
                await client.close()

    async def on_unmount(self) -> None:
        await self._close_table()


async def _start(client: TableClient) -> None:
    """``client.start()``, with the host's refusal code on the error (``wrong_code``, ``table_full``…)."""
    try:
        await client.start()
    except ClientError as error:
        error.code = (client.last_error or {}).get("code")  # type: ignore[attr-defined]
        raise
