"""A replay: a recorded game's table, step by step, with the panes of the live table (as a spectator)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Static

from tui import TABLE_STYLES
from tui.games import panes_for
from tui.replay import Replay
from tui.table_layout import NARROW_BELOW
from tui.widgets.log import TableLog
from tui.widgets.players import PlayersPane

#: Seconds between steps while the replay plays by itself.
PLAY_EVERY = 0.7


class ReplayScreen(Screen[None]):
    CSS_PATH = TABLE_STYLES
    BINDINGS = [
        Binding("right", "step(1)", "next", key_display="→"),
        Binding("left", "step(-1)", "back", key_display="←"),
        Binding("pagedown", "step(10)", "10 on", show=False),
        Binding("pageup", "step(-10)", "10 back", show=False),
        Binding("home", "go(0)", "start", show=False),
        Binding("end", "go(-1)", "end", show=False),
        Binding("space", "play", "play/pause"),
        Binding("r", "results", "results"),
        Binding("question_mark,f1", "rules", "rules", key_display="?"),
        Binding("escape,q", "back", "back", key_display="esc"),
    ]

    #: How many of the record's actions have been played.
    step: reactive[int] = reactive(0)

    def __init__(self, replay: Replay) -> None:
        super().__init__()
        self.replay = replay
        self.panes = panes_for(replay.game.id)
        self._player: Timer | None = None

    def compose(self) -> ComposeResult:
        glyphs = self.app.glyphs
        yield Static(id="table-status")
        with Horizontal(id="table-wide"):
            with Vertical(id="table-main"):
                board = self.panes.Board(glyphs=glyphs, id="board", classes="pane", recap=self.panes.recap)
                board.border_title = "Board"
                yield board
                sheet = self.panes.Sheet(glyphs=glyphs, id="sheet", classes="pane")
                sheet.border_title = "Sheet"
                yield sheet
            with Vertical(id="table-side"):
                players = PlayersPane(self.panes, glyphs=glyphs, id="players")
                players.border_title = "Players"
                yield players
                log = TableLog(id="log")
                log.border_title = "Log"
                log.can_focus = False  # the arrows step the replay
                yield log
        yield Static(id="replay-bar")
        yield Footer()

    def on_mount(self) -> None:
        self._draw(self.step)

    def on_resize(self) -> None:
        self.set_class(self.size.width < NARROW_BELOW, "-narrow")

    def watch_step(self, step: int) -> None:
        if self.is_mounted:
            self._draw(step)

    def _draw(self, step: int) -> None:
        frame = self.replay.frame(step)
        for pane in self.query("#board, #sheet, #players"):
            pane.frame = frame
        self.query_one(TableLog).show(frame)
        status = Text(f" {self.panes.status(frame)}", style="bold")
        status.append(f"   {frame.table} · replay", style="dim")
        self.query_one("#table-status", Static).update(status, layout=False)
        bar = Text(f" Move {step} of {self.replay.steps}", style="bold")
        if frame.result is not None:
            bar.append("  · game over: r shows the results and everything that was hidden", style="bold")
        elif self._player is not None:
            bar.append("  · playing (space pauses)", style="italic")
        bar.append(f"   {self.replay.path.name}", style="dim")
        self.query_one("#replay-bar", Static).update(bar, layout=False)

    def action_step(self, moves: int) -> None:
        self.step = max(0, min(self.replay.steps, self.step + moves))

    def action_go(self, step: int) -> None:
        self.step = self.replay.steps if step < 0 else step

    def action_play(self) -> None:
        if self._player is not None:
            self._stop_playing()
        else:
            if self.step >= self.replay.steps:
                self.step = 0
            self._player = self.set_interval(PLAY_EVERY, self._play_on)
        self._draw(self.step)

    def _play_on(self) -> None:
        if self.step >= self.replay.steps:
            self._stop_playing()
            self._draw(self.step)
            return
        self.step += 1

    def _stop_playing(self) -> None:
        if self._player is not None:
            self._player.stop()
            self._player = None

    def action_results(self) -> None:
        frame = self.replay.frame(self.replay.steps)
        if frame.result is None:
            self.notify("This record stops before the end of its game: it has no results.", markup=False)
            return
        from tui.screens.results import ResultsScreen
        self.app.push_screen(ResultsScreen(frame, record_path=str(self.replay.path), replay=True))

    def action_rules(self) -> None:
        from tui.screens.rules import RulesScreen
        self.app.push_screen(RulesScreen(self.replay.game.id))

    def action_back(self) -> None:
        self._stop_playing()
        self.app.pop_screen()
