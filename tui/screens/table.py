"""The table: board, hand, sheet, players, log and the move pane, kept live from the client.

The arrangement follows the terminal's width and height: a wide and short one puts the panes side by side
in columns (``-columns``), a taller one stacks the board over the hand and sheet (``-stacked``), both with
the players and the log beside them; only a small terminal (about 80×24) folds the panes into tabs, with
the move pane always in view.

The screen draws the snapshot each client update carries (the newest, when they come faster than it
draws). It hands a move to the move pane (``MovePane``, the one owner of "this choice → that action"),
the take-back to ``TakeBackTalk``, the host's own switches to ``HostSwitches``, and its own lines to the
log, which keeps them in their places.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Awaitable, Iterable

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive, var
from textual.screen import Screen
from textual.widgets import Footer, Tabs
from textual.widgets._toast import ToastRack

from net.client import ClientUpdate, TableClient, TableSnapshot
from tui import TABLE_STYLES
from tui.collector import RELEASE_AFTER_PAINT, CollectorHold
from tui.frame import TableFrame
from tui.games import panes_for
from tui.screens.table_host_switches import HostSwitches
from tui.screens.table_take_back import TakeBackTalk
from tui.table_layout import PANE_TABS, SNUG_BELOW, arrangement, folds_into_tabs
from tui.table_words import chat_sender, leaving_costs, seat_news, stop_in_words, table_status
from tui.widgets.banner import ConnectionBanner
from tui.widgets.chat import ChatInput
from tui.widgets.clock import TurnClockLine
from tui.widgets.lines import LinePane
from tui.widgets.log import TableLog
from tui.widgets.pane import PartClicked
from tui.widgets.pane_tabs import PaneTabs
from tui.widgets.players import PlayersPane
from tui.widgets.prompt import MovePane


class TableScreen(Screen[None]):
    CSS_PATH = TABLE_STYLES
    AUTO_FOCUS = "#move-choices"
    BINDINGS = [
        *[Binding(str(n), f"choose({n - 1})", f"choose {n}", show=False) for n in range(1, 10)],
        Binding("0", "choose(9)", "choose 10", show=False),  # the tenth, as on a keyboard's number row
        # One footer entry for the two keys: both in full cut "r results" off an 80-column footer
        Binding("left_square_bracket", "pane(-1)", "previous pane", key_display="[", id="pane-previous",
                show=False),
        Binding("right_square_bracket", "pane(1)", "panes", key_display="[ ]", id="pane-next"),
        Binding("t", "chat", "chat", id="chat"),
        Binding("question_mark,f1", "rules", "rules", id="rules", key_display="?"),
        Binding("b", "toggle_bell", "bell on/off", show=False, id="bell"),
        Binding("escape", "leave", "leave table", id="leave", key_display="esc"),
        Binding("r", "results", "results", id="results"),
        Binding("M", "mute_spectators", "mute spectators", show=False, id="mute"),
        Binding("B", "bot_for_the_away", "bot for absent", id="bot-away"),
        Binding("U", "take_back", "take back", id="take-back"),  # (u is a choice key past the tenth)
        Binding("s", "spectate", "watch it", id="spectate"),
        # T, for t is chat and most other lower-case letters pick a choice past the tenth
        Binding("T", "table_view", "table view (TV)", id="table-view", show=False),
    ]

    @dataclass
    class Updated(Message):
        update: ClientUpdate

    frame: reactive[TableFrame] = var(TableFrame, always_update=True)
    narrow: reactive[bool] = reactive(False)

    def __init__(self, client: TableClient) -> None:
        super().__init__()
        self.client = client
        #: The table as the client had it when the screen opened; after that the screen draws the snapshot
        #: each update carries (the newest of those that came while it drew), never the client's own.
        self._newest: TableSnapshot = client.snapshot.as_of_now()
        self.panes = panes_for(self._newest.game)
        # A game's stylesheet may size the shared panes; folded into tabs, the board's shows first.
        self.add_class(f"-game-{self._newest.game}", "-show-board")
        self._unsubscribe = None
        self._told_how_to_mute = False
        self._results_shown = False
        self._stopped = False  # the host has closed the table: leaving then costs nothing
        self._table_pending = False
        self._collector = CollectorHold()
        #: This window has told the host its away player is back (once per time away).
        self._said_here = False
        self._explained: set[str] = set()  # the game's words already explained in this window's log
        self._take_back = TakeBackTalk(self, client, frame=lambda: self.frame, say=self._line,
                                       send=self._send_to_host)
        self._host_switches = HostSwitches(self, client, hosted=lambda: self.app.hosted,  # type: ignore[attr-defined]
                                           frame=lambda: self.frame, stopped=lambda: self._stopped,
                                           send=self._send_to_host)

    # ------------------------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        glyphs = self.app.glyphs
        yield LinePane(id="table-status")
        yield ConnectionBanner(id="banner")
        board = self.panes.board(glyphs=glyphs, id="board", classes="pane", recap=self.panes.recap)
        hand = self.panes.hand(glyphs=glyphs, id="hand", classes="pane")
        sheet = self.panes.sheet(glyphs=glyphs, id="sheet", classes="pane")
        players = PlayersPane(self.panes, glyphs=glyphs, id="players")
        log = TableLog(id="log")
        # Held here so that a table update reaches them without a query of the DOM.
        self._frame_panes = (board, hand, sheet, players)
        self._log = log
        board.border_title, hand.border_title, sheet.border_title = "Board", "Your hand", "Sheet"
        players.border_title, log.border_title = "Players", "Log"
        if self._newest.seat is None:
            hand.display = False
        # One set of panes for every arrangement, laid out by the screen's classes (styles/table.tcss):
        # stacked, the board spans the top and the rest sit in a row under it; in columns (-columns) the
        # board, the hand over the sheet, and the players over the log; folded into tabs (-narrow) the tab
        # strip shows, and only the pane of the active tab (-show-board, -show-hand…).
        yield PaneTabs(spectating=self._newest.seat is None, id="pane-tabs")
        with Vertical(id="table-area"):
            yield board
            with Horizontal(id="table-row"):
                with Horizontal(id="hand-row"):
                    yield hand
                    yield sheet
                with Vertical(id="table-side"):
                    yield players
                    yield log
        yield TurnClockLine(id="turn-clock")
        yield MovePane(self.panes, self.client.act, id="move")
        yield ChatInput(self.client.say, id="chat")
        yield Footer()

    def watch_narrow(self, narrow: bool) -> None:
        self.set_class(narrow, "-narrow")
        self.refresh_bindings()

    @on(Tabs.TabActivated, "#pane-tabs")
    def _show_tab(self) -> None:
        """Folded into tabs, only the active tab's pane shows: a class of the screen says which."""
        shown = self.query_one(PaneTabs).shown
        for name, _title in PANE_TABS:
            self.set_class(name == shown, f"-show-{name}")

    def _arrange(self) -> None:
        """The classes that lay the panes out for this terminal's size."""
        shape = arrangement(*self.size)
        for name in ("phone", "tabs", "columns", "stacked"):
            self.set_class(shape == name, f"-{name}")
        self.set_class(self.size.width < SNUG_BELOW, "-snug")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pane":
            return self.narrow  # the panes are tabs only on a narrow terminal
        if action == "results":
            return self.frame.result is not None  # in the footer once the game is over
        if action == "spectate":
            return self._seat_lost()  # in the footer once this window has lost its seat at a live table
        if action == "bot_for_the_away":
            return bool(self._host_switches.away_seats())  # the host's, while a person is away from a game still on
        if action == "take_back":
            return self.frame.may_take_back and not self._stopped  # in the footer while the host allows it
        return True

    def on_mount(self) -> None:
        self._arrange()
        self.narrow = folds_into_tabs(*self.size)
        self._unsubscribe = self.client.subscribe(self._heard)
        self.frame = TableFrame.from_snapshot(self._newest, self.app.glyphs)
        self._announce_turn()  # a table that opens on your move says so, as later ones do
        self.call_after_refresh(self._redraw_all)
        self.call_after_refresh(self._explain_new_words)  # under the events the log opens with
        self.call_after_refresh(self._hear_what_came_first)
        self.call_after_refresh(self._place_notices)

    def _hear_what_came_first(self) -> None:
        """The notices that came with the welcome, before this screen listened ("While you were away a bot
        played your seat" must reach the log, or it tells the player the bot's moves were theirs)."""
        for update in self.client.take_unheard():
            self.post_message(self.Updated(update))

    def _heard(self, update: ClientUpdate) -> None:
        # Tables that arrive faster than they are drawn are drawn once, from the newest: its snapshot
        # already holds every event, so nothing is lost by skipping the frames in between.
        if update.snapshot is not None:
            self._newest = update.snapshot
        if update.kind == "table":
            self._collector.hold()  # until the update is on screen
            if self._table_pending:
                return
            self._table_pending = True
        self.post_message(self.Updated(update))

    def on_unmount(self) -> None:
        self._collector.release()
        if self._unsubscribe is not None:
            self._unsubscribe()

    def on_resize(self) -> None:
        self._arrange()
        self.call_after_refresh(self._place_notices)
        self.narrow = folds_into_tabs(*self.size)  # the same panes, laid out anew by the classes

    def _place_notices(self) -> None:
        """Notices (toasts) stand at the bottom right, just over the move pane: over the log, or the empty
        foot of a tab, never over the board's coaches, a hand's cards or the choices."""
        moves = self.query(MovePane)
        if moves:
            for rack in self.query(ToastRack):
                rack.styles.margin = (0, 0, max(1, self.size.height - moves.first().region.y), 0)

    def _release_collector(self) -> None:
        self._collector.release(busy=self._table_pending)

    def _redraw_all(self) -> None:
        self._log.rewrite(self.frame)
        self.watch_frame(self.frame)

    # ------------------------------------------------------------------------------- rendering

    def watch_frame(self, frame: TableFrame) -> None:
        if not self.is_mounted:
            return
        for pane in self._frame_panes:
            pane.frame = frame
        self.query_one(MovePane).frame = frame
        self._log.show(frame)
        self.query_one("#table-status", LinePane).show(table_status(frame, self.panes.status))
        self.query_one(TurnClockLine).show(frame)
        self._size_the_move_pane(frame)
        if self.has_class("-spectating") != frame.spectating:
            self.set_class(frame.spectating, "-spectating")

    def _size_the_move_pane(self, frame: TableFrame) -> None:
        """A prompt of more choices than the move pane's usual rows (Your Money or Your Life's pick has
        eight) gives the pane the rows to show them all, and one of a few gives its spare rows to the hand
        and the log (styles/table.tcss: -prompt-few, -prompt-many, -prompt-most).
        Only a prompt changes it: while the table waits the pane keeps its size (no re-layout per move)."""
        if not frame.prompt:
            return
        choices = len(frame.prompt.get("choices") or [])
        for name, wanted in (("-prompt-few", choices <= 3), ("-prompt-many", 7 <= choices <= 8),
                             ("-prompt-most", choices >= 9)):
            if self.has_class(name) != wanted:
                self.set_class(wanted, name)

    # ------------------------------------------------------------------------------ the client

    def on_table_screen_updated(self, message: Updated) -> None:
        """One update from the client, handed to what it is about."""
        update = message.update
        if update.kind == "table":
            self._table_came()
        elif update.kind in ("welcome", "connected"):
            self.query_one(ConnectionBanner).problem = ""
        elif update.kind == "disconnected":
            self.query_one(ConnectionBanner).problem = update.text
        elif update.kind == "stopped":
            self._stopped_playing(update)
        elif update.kind == "error":
            self._refused(update)
        elif update.kind == "notice":
            self._line(update.text, "italic yellow")
            self.notify(update.text, markup=False)
        elif update.kind == "chat":
            self._chat_came(update)

    def _table_came(self) -> None:
        """A table update: the new frame drawn, and what changed told (seats, your move, a new game)."""
        self._table_pending = False
        self.call_after_refresh(self.set_timer, RELEASE_AFTER_PAINT, self._release_collector)
        before = self.frame
        self.frame = TableFrame.from_snapshot(self._newest, self.app.glyphs)
        if before.result is not None and self.frame.result is None:
            self._log.new_game()
        if len(self.frame.log) < len(before.log):  # a take-back cut the log's last lines
            self._log.cut_to(len(self.frame.log))
        if before.catch_ups and self.frame.catch_ups != before.catch_ups:
            # The whole log again (a reconnect, names told anew, a new game): written afresh, chat too.
            self._redraw_all()
        self._announce_seats(before, self.frame)
        if self.frame.seat not in self.frame.away:
            self._said_here = False
        if self._host_switches.away_changed() or before.may_take_back != self.frame.may_take_back:
            self.refresh_bindings()  # the host's "bot for the away" and "take back" come and go
        self._take_back.heard(before, self.frame)
        interlude = self.panes.interlude(before, self.frame)
        if interlude:
            from tui.screens.interlude import InterludeScreen
            self.app.push_screen(InterludeScreen(*interlude))
        self._announce_turn()
        self._explain_new_words()
        if before.result is not None and self.frame.result is None:
            self._new_game_begins()
        if self.frame.result is not None and not self._results_shown:
            self._results_shown = True
            self.app.keep_the_deal_check()
            self.refresh_bindings()
            self.app.clear_notifications()  # a "Your move" of the last prompt is over the results else
            self.set_timer(0.3, self.action_results)

    def _stopped_playing(self, update: ClientUpdate) -> None:
        """The connection is over for good: the seat lost, or the table gone or closed after its game."""
        self._stopped = True
        self.refresh_bindings()
        if (self.client.last_error or {}).get("code") == "bad_token":
            # The host gave the seat to a bot for good: Join no longer offers it
            self.app.forget_seat(self.client)
        over = self.frame.result is not None
        if over and self.app.client is not self.client:
            return  # a table this app has just closed itself: a new private table's game must not open under
            # "The table is closed"
        # Over, and now closed: no new game will come, and the results must say so.
        said = stop_in_words(update.text, self._seat_lost(), game_over=over)
        if not over:
            self.frame = replace(self.frame, prompt=None, out_of_it=said)  # nothing can be sent any more
        banner = self.query_one(ConnectionBanner)
        banner.problem, banner.gone = "", said  # on every tab, until you leave
        self._line(said, "bold" if over else "bold red")
        self.notify(said, severity="information" if over else "error", markup=False)
        from tui.screens.results import ResultsScreen
        if over and isinstance(self.app.screen, ResultsScreen):
            self.app.screen.table_closed()

    def _refused(self, update: ClientUpdate) -> None:
        """An error from the host: a refused move (said in a toast), or the host stopping for now."""
        if update.snapshot is not None:  # the choice refused can be made again
            self.frame = TableFrame.from_snapshot(update.snapshot, self.app.glyphs)
        code = (update.message or {}).get("code")
        if code == "host_closing":  # not a refusal: the host stopped, and may be back (the banner says)
            self._line("The host has stopped the table; it may come back: this window waits for it.",
                       "bold yellow")
        elif not (update.message or {}).get("permanent"):  # one that ends the connection: "stopped" says it
            self.notify(update.text, title="Not allowed", severity="warning", markup=False)

    def _chat_came(self, update: ClientUpdate) -> None:
        chat = update.message or {}
        line = Text(f"{chat_sender(chat, self.frame)}: ", style="bold cyan")
        line.append(str(chat.get("text", update.text)))
        self._log.say(line)
        if not self._log_in_view() and chat.get("seat") != self.frame.seat:
            # Folded into tabs, the log may be behind another: a line said to you came with no sign.
            self.notify(line.plain, title="Chat", timeout=6, markup=False)
        if chat.get("seat") is None and self._host_switches.on_lan() and not self._told_how_to_mute:
            self._told_how_to_mute = True  # said when it matters: the key is not in the footer
            self._line("You host this table: M mutes spectators' chat (and again lets them talk).", "dim")

    def _new_game_begins(self) -> None:
        """The host dealt again at this table: its results close, and the game shows from its start (the
        host's notice says so in the log and a toast)."""
        from tui.screens.results import ResultsScreen
        self._results_shown = False
        self.refresh_bindings()
        self.notify("A new game begins at this table: a fresh deal, and you "
                    + ("watch it." if self.frame.spectating else f"sit in seat {self.frame.seat + 1}."), markup=False)
        while isinstance(self.app.screen, ResultsScreen) and not self.app.screen.replay:
            self.app.pop_screen()

    def _log_in_view(self) -> bool:
        """False when the panes are folded into tabs and another tab than the log's is shown."""
        return not self.narrow or self.query_one(PaneTabs).shown == "log"

    #: The errors that end a window's part in a table that plays on: the seat was handed to a bot, or
    #: another window took it with the same token.
    SEAT_LOST = ("bad_token", "replaced")

    def _seat_lost(self) -> bool:
        """True once this window has lost its seat at a table that plays on (it may still watch it)."""
        if not self._stopped or self.frame.result is not None:
            return False
        return (self.client.last_error or {}).get("code") in self.SEAT_LOST

    def action_spectate(self) -> None:
        """Watch the table this window has lost its seat at, as a spectator (public things only)."""
        client = self.client
        self.app.start_table(self.app.join(f"{client.host}:{client.port}", client.code, spectate=True))

    def _explain_new_words(self) -> None:
        """Each of the game's own words (folk hero, scoundrel…) explained once, the first time it matters to
        this seat: a line in the log, kept in its place like the window's other lines."""
        for word, line in self.panes.glossary(self.frame):
            if word not in self._explained:
                self._explained.add(word)
                self._line(line, "italic")

    def _line(self, text: str, style: str) -> None:
        self._log.say(Text(text, style=style))

    def _announce_seats(self, before: TableFrame, now: TableFrame) -> None:
        """A player newly seated or back: one line in the log and a toast."""
        for news in seat_news(before.seats, now.seats):
            self._line(news, "italic")
            self.notify(news, markup=False, timeout=3)

    def _announce_turn(self) -> None:
        self.query_one(MovePane).announce(self.frame, self.app.bell_on)

    # -------------------------------------------------------------------------------- actions

    def palette_commands(self) -> Iterable[SystemCommand]:
        """Every choice of the prompt, by its words, for the command palette."""
        return self.query_one(MovePane).palette_commands(self.frame)

    def action_choose(self, position: int) -> None:
        self.query_one(MovePane).choose_shown(position)

    @on(PartClicked)
    def pick_by_click(self, message: PartClicked) -> None:
        self.query_one(MovePane).choose_part(message.target)

    @on(MovePane.Sent)
    def show_sent(self, message: MovePane.Sent) -> None:
        """The move pane sent a choice (kept quietly first, shown if no table comes meanwhile), or could not."""
        if not message.at_once:
            self.set_reactive(TableScreen.frame, message.frame)
        elif not message.frame.sent:
            self.frame = message.frame  # the choice can be made again
        elif self.frame is message.frame:  # no table has come since
            self.watch_frame(message.frame)

    @on(MovePane.Told)
    def tell_own_move(self, message: MovePane.Told) -> None:
        self._line(message.text, "italic")

    def action_pane(self, step: int) -> None:
        """The next (or previous) tab of panes on a narrow terminal, round and round."""
        self.query_one(PaneTabs).turn(step)

    def action_chat(self) -> None:
        self.query_one(ChatInput).open()

    def action_mute_spectators(self) -> None:
        """The host's switch: spectators' chat off or on again (only at a table this app hosts)."""
        self._host_switches.mute_spectators()

    def _send_to_host(self, message: Awaitable[Any]) -> None:
        self.run_worker(self._host_says(message), group="host")

    async def _host_says(self, message: Awaitable[Any]) -> None:
        try:
            await message
        except Exception as error:  # the table is gone: the banner says so
            self.notify(f"Not sent: {error}.", severity="warning", markup=False)

    def action_take_back(self) -> None:
        self._take_back.ask()

    def on_key(self, event: events.Key) -> None:
        """A key while a bot plays this seat for its away player: the host is told he is back (the key
        does what it does as well)."""
        if event.key == "U" and not self.check_action("take_back", ()):
            self.action_take_back()  # the key is off the footer now: it still says why nothing happens
        seat = self.frame.seat
        if seat is not None and seat in self.frame.away and not self._said_here:
            self._said_here = True
            self._send_to_host(self.client.here())

    def action_bot_for_the_away(self) -> None:
        """A bot plays each away person's seat until that person joins again (the seat stays theirs)."""
        self._host_switches.bot_for_the_away()

    def action_table_view(self) -> None:
        """The table for a big screen: public things only, from a spectator's snapshot (tui/screens/table_view.py)."""
        from tui.screens.table_view import open_table_view
        self.run_worker(open_table_view(self.app, self.client), group="view", exit_on_error=False)

    def action_rules(self) -> None:
        from tui.screens.rules import RulesScreen
        self.app.push_screen(RulesScreen(self.frame.game))

    def action_toggle_bell(self) -> None:
        self.app.bell_on = not self.app.bell_on
        self.notify(f"Bell {'on' if self.app.bell_on else 'off'}", timeout=1.5)

    def action_results(self) -> None:
        if self.frame.result is None:
            return
        from tui.screens.results import ResultsScreen
        self.app.push_screen(ResultsScreen(self.frame))

    def action_leave(self) -> None:
        from tui.screens.confirm import ask_first
        ask_first(self.app, "Leave the table?", self.what_leaving_does(), "Leave", self.app.leave_table)

    def what_leaving_does(self) -> str | None:
        """What leaving costs, for the question asked first (None: nothing)."""
        hosted = self.app.hosted
        return leaving_costs(
            self.frame, hosted_here=hosted is not None, on_lan=hosted is not None and hosted.plan.on_lan,
            against_bots=hosted is not None and bool(hosted.plan.bots),
            moved=hosted is not None and any(seat == self.frame.seat for seat, _ in hosted.table.actions),
            resumable=bool(self.app.record_path), stopped=self._stopped,
            host_away=self.client.retrying_since is not None)
