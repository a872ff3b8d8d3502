"""A replay: a recorded game's table, step by step, with the panes of the live table (as a spectator)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, ProgressBar, Static
from textual.worker import Worker, WorkerState, get_current_worker

from core.review import UNIT_MEANINGS, Decision, Effort, Review, review_record
from tui import TABLE_STYLES
from tui.games import panes_for
from tui.replay import Replay, seat_names
from tui.table_layout import NARROW_BELOW
from tui.widgets.log import TableLog
from tui.widgets.players import PlayersPane

#: Seconds between steps while the replay plays by itself.
PLAY_EVERY = 0.7
#: How hard the app's review looks at each decision (``bench/review.py`` holds a whole game under a minute).
REVIEW_EFFORT = Effort()


class ReviewStopped(Exception):
    """The screen that asked for a review has gone: the worker's thread stops where it is."""


class ReplayScreen(Screen[None]):
    CSS_PATH = TABLE_STYLES
    BINDINGS = [
        Binding("right", "step(1)", "next", key_display="→"),
        Binding("left", "step(-1)", "back", key_display="←"),
        Binding("pagedown", "step(10)", "10 on", show=False),
        Binding("pageup", "step(-10)", "10 back", show=False),
        Binding("home", "go(0)", "start", show=False),
        Binding("end", "go(-1)", "end", show=False),
        Binding("space", "play", "play"),
        Binding("r", "results", "results"),
        Binding("v", "review", "review"),
        Binding("n", "mark(1)", "next mark"),
        Binding("b", "mark(-1)", "last mark"),
        Binding("o", "point_of_view", "seen by"),
        Binding("question_mark,f1", "rules", "rules", key_display="?"),
        Binding("escape,q", "back", "back", key_display="esc"),
    ]

    #: How many of the record's actions have been played.
    step: reactive[int] = reactive(0)

    #: Whose view the replay shows: None for the spectator's, else a seat (only once the game is over).
    point_of_view: reactive[int | None] = reactive(None)

    def __init__(self, replay: Replay, review_now: bool = False, effort: Effort | None = None) -> None:
        super().__init__()
        self.replay = replay
        self.panes = panes_for(replay.game.id)
        self._player: Timer | None = None
        self.review_now = review_now
        self.effort = effort or REVIEW_EFFORT
        self.review: Review | None = None
        self._reviewing: Worker[Review] | None = None
        self.names = seat_names(replay.record)

    def compose(self) -> ComposeResult:
        glyphs = self.app.glyphs
        yield Static(id="table-status")
        with Horizontal(id="table-wide"):
            with Vertical(id="table-main"):
                board = self.panes.board(glyphs=glyphs, id="board", classes="pane", recap=self.panes.recap)
                board.border_title = "Board"
                yield board
                sheet = self.panes.sheet(glyphs=glyphs, id="sheet", classes="pane")
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
        yield Static(id="review-mark")
        yield ProgressBar(id="review-progress", show_eta=False)
        yield Footer()

    def on_mount(self) -> None:
        if self.replay.seat is not None and self.replay.finished:
            self.point_of_view = self.replay.seat  # a player's saved check: his game as he saw it
        self._draw(self.step)
        if self.review_now:
            self.action_review()

    def on_resize(self) -> None:
        narrow = self.size.width < NARROW_BELOW
        self.set_class(narrow, "-narrow")
        # Below the narrow width the full footer cuts off its last keys (rules, esc): spacing and the
        # palette's reminder go first (ctrl+p still opens it).
        footer = self.query_one(Footer)
        footer.compact = narrow
        footer.show_command_palette = not narrow

    def watch_step(self, step: int) -> None:
        if self.is_mounted:
            self._draw(step)

    def watch_point_of_view(self, seat: int | None) -> None:
        if self.is_mounted:
            self._draw(self.step)

    def _draw(self, step: int) -> None:
        frame = self.replay.frame(step, self.point_of_view)
        for pane in self.query("#board, #sheet, #players"):
            pane.frame = frame
        self.query_one(TableLog).show(frame)
        status = Text(f" {self.panes.status(frame)}", style="bold")
        status.append(f"   {frame.table} · replay", style="dim")
        if self.point_of_view is not None:  # (the spectator's, as every replay was before, goes unsaid)
            status.append(" · seen by ", style="dim")
            status.append(Text(self.names[self.point_of_view], style="dim"))
        self.query_one("#table-status", Static).update(status, layout=False)
        bar = Text(f" Move {step} of {self.replay.steps}", style="bold")
        if frame.result is not None:
            bar.append("  · game over: r shows the results and everything that was hidden", style="bold")
        elif self._player is not None:
            bar.append("  · playing (space pauses)", style="italic")
        if self.review is not None:
            marks = self.review.marked_steps()
            bar.append(f"  · marked moves (n/b): {', '.join(str(index + 1) for index in marks) or 'none'}"
                       if marks else "  · the review marked no move", style="italic")
        elif self._reviewing is not None and self._reviewing.state in (WorkerState.PENDING, WorkerState.RUNNING):
            bar.append("  · Reviewing\u2026", style="italic")
        bar.append(f"   {self.replay.path.name}", style="dim")
        self.query_one("#replay-bar", Static).update(bar, layout=False)
        self._draw_mark(step)

    def _draw_mark(self, step: int) -> None:
        """The marked move that comes next at this step, in words; nothing where none does."""
        line = self.query_one("#review-mark", Static)
        marked = [d for d in self.marked() if d.index == step]
        line.display = bool(marked)
        if marked:
            text = Text(f" {self.app.glyphs.star} {marked[0].where} \N{EM DASH} ", style="bold")
            name = self.names[marked[0].seat]  # a person's name: plain text, never markup
            said = marked[0].in_words(name).split(": ", 1)[1]  # "Ann chose …", never "you" for a bot
            text.append(Text(f"{name}: {said}" if marked[0].standing else said))
            first = next(d for d in self.marked() if d.unit == marked[0].unit)
            if first is marked[0] and marked[0].unit in UNIT_MEANINGS:  # a unit explained where first used
                text.append(f" ({marked[0].unit}: {UNIT_MEANINGS[marked[0].unit]})", style="dim")
            line.update(text, layout=False)

    def marked(self) -> list[Decision]:
        """Every marked decision of the review, in the game's order."""
        if self.review is None:
            return []
        return sorted((d for seat in self.review.marked for d in seat), key=lambda d: d.index)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "mark":
            return bool(self.marked())  # in the footer once a review marked a move
        if action == "point_of_view":
            return self.replay.finished  # a seat's view shows its secrets: only once the end revealed them
        return True

    def action_review(self) -> None:
        """Review the game in a worker thread, a progress bar below the replay."""
        if self._reviewing is not None and self._reviewing.state in (WorkerState.PENDING, WorkerState.RUNNING):
            return
        if self.review is not None:
            self.action_mark(1)
            return
        progress = self.query_one("#review-progress", ProgressBar)
        progress.update(total=max(self.replay.steps, 1), progress=0)
        progress.display = True
        self._reviewing = self.run_worker(self._review, thread=True, exclusive=True, group="review",
                                          exit_on_error=False)
        self._draw(self.step)

    def _review(self) -> Review:
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:
                raise ReviewStopped
            self.app.call_from_thread(self._progress, done)

        return review_record(self.replay.game, self.replay.record, self.effort, progress)

    def _progress(self, done: int) -> None:
        self.query_one("#review-progress", ProgressBar).update(progress=done)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self._reviewing:
            return
        if event.state == WorkerState.SUCCESS:
            self.review = event.worker.result
            self.query_one("#review-progress", ProgressBar).display = False
            self.refresh_bindings()
            marks = self.marked()
            scored = f"of {len(self.review.decisions)} decisions scored (at most {self.effort.marks} a seat)"
            self.notify(f"The review marked {len(marks)} move{'s' if len(marks) != 1 else ''} {scored}: n goes to "
                        f"the next one" if marks else f"The review found no move that clearly cost its player, "
                        f"{scored}.", markup=False)
            self._draw(self.step)
        elif event.state == WorkerState.ERROR and not event.worker.is_cancelled:
            self.query_one("#review-progress", ProgressBar).display = False
            self.notify(f"This record could not be reviewed: {event.worker.error}", severity="error", markup=False)

    def action_mark(self, direction: int) -> None:
        """Step to the next (or the last) marked move: the table just before it is played."""
        marks = [d.index for d in self.marked()]
        if not marks:
            return
        later = [index for index in marks if (index > self.step if direction > 0 else index < self.step)]
        self._stop_playing()
        self.step = (later[0] if direction > 0 else later[-1]) if later else (marks[0] if direction > 0 else marks[-1])

    def action_point_of_view(self) -> None:
        """Spectator, then each seat in turn, then the spectator again."""
        if not self.replay.finished:
            return
        seats = len(self.replay.record["seats"])
        current = self.point_of_view
        self.point_of_view = 0 if current is None else (current + 1 if current + 1 < seats else None)

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
        if self._reviewing is not None:
            self._reviewing.cancel()
        self.app.pop_screen()
