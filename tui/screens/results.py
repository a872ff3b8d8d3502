"""The results: winners and scores, the full reveal (A2), each seat's standing over the game, the record.

The chart is drawn by replaying the public record (seed, options, actions) through the game's engine and
reading each seat's standing from the spectator's view after every move: nothing here decides a rule.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.padding import Padding
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Label, Static

from core.registry import get_game
from tui import screen_styles
from tui.frame import TableFrame
from tui.games import panes_for
from tui.widgets.chart import ScoreBars


def standings_over_game(record: dict[str, Any], track) -> list[list[float]]:
    """Each seat's standing after every move, replayed from the public record."""
    try:
        game = get_game(record["game"])
        state = game.setup(game.resolve_options(record["options"]), record["seed"])
        series = [track(game.view(state, None))]
        for seat, action in record["actions"]:
            game.apply(state, seat, action)
            series.append(track(game.view(state, None)))
    except Exception:  # an old or foreign record: no chart rather than no results
        return []
    if not series or series[0] is None:
        return []
    seats = len(series[0])
    return [[float(point[seat]) for point in series if point is not None] for seat in range(seats)]


def _plain(value: Any, name: Any = str) -> str:
    if isinstance(value, list):
        return ", ".join(_plain(item, name) for item in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{key.replace('_', ' ')} {_plain(item, name)}" for key, item in value.items())
    return name(value)


def reveal_text(reveal: Any, frame: TableFrame) -> Text:
    """The reveal (A2) in words: a list with one entry per seat is shown seat by seat, by name."""
    own = panes_for(frame.game).reveal_text(reveal, frame)
    if own is not None:
        return own
    text = Text()
    name = panes_for(frame.game).reveal_item
    items = reveal.items() if isinstance(reveal, dict) else [("hidden", reveal)]
    for key, value in items:
        text.append(f"  {key.replace('_', ' ')}: ", style="bold")
        if isinstance(value, list) and len(value) == len(frame.seats) and any(isinstance(v, list) for v in value):
            text.append("\n")
            for seat, entry in enumerate(value):
                text.append(f"    {frame.name(seat)}: {_plain(entry, name)}\n")
        else:
            text.append(f"{_plain(value, name)}\n")
    return text


def with_hanging_indents(text: Text) -> Group:
    """Each line of ``text`` wrapped under its own first letter, not at the screen's edge (a long
    "Coaches still in the pile" line goes on under its item, not at column 2)."""
    lines = []
    for line in text.split("\n", allow_blank=True):
        indent = len(line.plain) - len(line.plain.lstrip(" "))
        lines.append(Padding(line[indent:], (0, 0, 0, indent)))
    return Group(*lines)


class ResultsScreen(Screen[None]):
    CSS_PATH = screen_styles("results")
    BINDINGS = [
        Binding("p", "play_again", "play again", id="again"),
        Binding("s", "play_again(True)", "new seats", id="again-shuffled"),
        Binding("m", "menu", "menu", id="menu"),
        Binding("escape", "back", "back", show=False),
        Binding("t", "table", "the table", id="table"),
        Binding("v", "review", "review", id="review"),
    ]

    def __init__(self, frame: TableFrame, record_path: str | None = None, replay: bool = False) -> None:
        super().__init__()
        self.frame = frame
        self.panes = panes_for(frame.game)
        #: A replay's results: its own record, no "play again", and "t" goes back to the replay.
        self.replay = replay
        self.record_path = record_path

    def compose(self) -> ComposeResult:
        frame, result = self.frame, self.frame.result or {}
        others = self.panes.others_in_the_result(frame)
        winners = [frame.owner_name(seat) for seat in result.get("winners", [])]
        winners += [name for name, _, won in others if won]
        headline = Text("Game over. ", style="bold")
        headline.append(("Winner: " if len(winners) == 1 else "Winners: ") + ", ".join(winners)
                        if winners else "Nobody wins.")
        with VerticalScroll(id="results"):
            yield Static(headline, id="results-headline")
            if result.get("summary"):
                yield Static(Text(str(result["summary"])), id="results-summary")
            if self.frame.fair is not None:
                fair = self.frame.fair
                yield Static(Text(fair.words), id="results-fair", classes=f"-{fair.status.replace(' ', '-')}")
            yield Static(self._scores(), id="results-scores")
            if self.frame.match and self.frame.match[0]["games"] > 1:
                yield Static(self._running_score(self.frame.match), id="results-match")
            yield from self._chart()
            reveal = Text()
            reveal.append("Everything that was hidden\n", style="bold")  # (A2; a mark the rules help does not explain)
            reveal.append_text(reveal_text(result.get("reveal", {}), frame))
            reveal.append(f"  seed: {result.get('seed')}\n")
            yield Static(with_hanging_indents(reveal), id="results-reveal")
            path = self.record_path or self.app.record_path
            if path:
                yield Static(Text(f"The game record is in {path}"), id="results-record")
            elif not self.replay and self.app.check_path:
                yield Static(Text(f"Kept to check again: turpin verify {self.app.check_path}"), id="results-record")
            if self._at_someone_elses_table():
                yield Static(Text("If the host deals again, the new game opens here by itself.", style="italic"),
                             id="results-next")
            with Horizontal(id="results-buttons"):
                if self.replay:
                    yield Button("Back to the replay", id="table", variant="primary")
                elif self.app.can_play_again:
                    yield Button("Play again (same seats)", id="again", variant="primary")
                    if len(frame.seats) > 1:
                        yield Button("Play again (new seats)", id="again-shuffled")
                if self._record_to_review():
                    yield Button("Review", id="review")
                yield Button("Back to menu", id="menu")
        yield Footer()

    def table_closed(self) -> None:
        """The host has closed the table: no new game will open here (a line that stays, for a player
        and a spectator alike: a toast alone may be gone before anyone looks)."""
        said = Text("The host has closed the table: no new game will open here.", style="italic")
        lines = self.query("#results-next")
        if lines:
            lines.first(Static).update(said)
        else:
            buttons = self.query_one("#results-buttons")
            buttons.parent.mount(Static(said, id="results-next"), before=buttons)

    def _at_someone_elses_table(self) -> bool:
        """A player at a LAN table hosted elsewhere, who is still connected to it."""
        client = self.app.client
        return (not self.replay and self.app.hosted is None and client is not None
                and client.stopped is None and self.frame.seat is not None)

    def _scores(self) -> Text:
        frame, result = self.frame, self.frame.result or {}
        scores = result.get("scores", [])
        text = Text()
        winners = set(result.get("winners", []))
        note = self.panes.result_note
        rows = [(frame.owner_name(seat) + note(frame, seat), score, seat in winners) for seat,
                score in enumerate(scores)]
        tracks = {frame.owner_name(seat) + note(frame, seat): self.panes.final_tracks(frame, seat)
                  for seat in range(len(scores))}
        rows += self.panes.others_in_the_result(frame)
        rows = standings(rows)
        width = max((len(name) for name, _, _ in rows), default=0)
        for name, score, won in rows:
            mark = f"{frame.glyphs.star} " if won else "  "
            text.append(f"{mark}{name:<{width}}  {score:>4}", style="bold" if won else "")
            # Each rider's final tracks beside the score, where the line has room for them (at 80 columns
            # they would push the reveal out of sight)
            if tracks.get(name) and 2 + width + 6 + 3 + len(tracks[name]) <= self.app.size.width - 8:
                text.append(f"   {tracks[name]}", style="dim")
            text.append("\n")
        return text

    def _running_score(self, match: list[dict[str, Any]]) -> Text:
        """The games at this table so far, this one too: each person's wins and score in all, best first
        (the names are the seats' now: a shuffle moved the people, and their scores with them)."""
        frame = self.frame
        text = Text()
        text.append(f"At this table, {match[0]['games']} games\n", style="bold")
        rows = sorted(match, key=lambda row: (-row["wins"], -row["points"], row["seat"]))
        names = [frame.owner_name(row["seat"]) for row in rows]
        width = max((len(name) for name in names), default=0)
        for name, row in zip(names, rows):
            wins = f"{row['wins']} win" + ("" if row["wins"] == 1 else "s")
            text.append(f"  {name:<{width}}  {wins:>8}  {row['points']:>6g} in all\n")
        return text

    def _chart(self) -> ComposeResult:
        record = self.frame.record
        track = self.panes.score_track
        if not record or track is None:
            return
        series = standings_over_game(record, track)
        if not series:
            return
        yield Label(Text(self.panes.chart_title(), style="bold"))
        every_point = [point for points in series for point in points]
        low, high = min(every_point, default=0), max(every_point, default=0)
        # Rows past the seats are whoever else the game is played against (solo's rival), in that order.
        names = [self.frame.plain_name(seat) for seat in range(len(self.frame.seats))]
        names += [name for name, _, _ in self.panes.others_in_the_result(self.frame)]
        for seat, points in enumerate(series):
            with Horizontal(classes="chart-row"):
                name = names[seat] if seat < len(names) else self.frame.plain_name(seat)
                yield Label(Text(_cut(name, 14)), classes="chart-name")
                yield ScoreBars(points, low, high, self.frame.glyphs.bars, classes="chart-line")
                yield Label(Text(f"{points[-1]:g}" if points else ""), classes="chart-last")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "again":
            self.action_play_again()
        elif event.button.id == "again-shuffled":
            self.action_play_again(shuffle=True)
        elif event.button.id == "table":
            self.action_table()
        elif event.button.id == "review":
            self.action_review()
        else:
            self.action_menu()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "play_again":  # only where it can: a game against bots here, not a LAN table's
            shuffle_alone = bool(parameters) and len(self.frame.seats) < 2  # one seat: nowhere else to sit
            return not self.replay and self.app.can_play_again and not shuffle_alone
        if action == "review":
            return self._record_to_review() is not None
        return True

    def _record_to_review(self) -> str | None:
        """The record a review replays: this game's, once it is written whole."""
        path = self.record_path or self.app.record_path
        return str(path) if path else None

    def action_review(self) -> None:
        """The game's replay, its review under way: from a replay's results, that replay's own."""
        path = self._record_to_review()
        if path is None:
            return
        if self.replay:
            self.app.pop_screen()
            self.app.screen.action_review()  # the replay these results were opened from
            return
        self.app.review_game(path)

    def action_play_again(self, shuffle: bool = False) -> None:
        if not self.replay and self.app.can_play_again:
            self.app.play_again(shuffle)

    def action_menu(self) -> None:
        if self.replay:
            self.app.return_to_menu()
        else:
            self.app.leave_table()

    def action_table(self) -> None:
        self.app.pop_screen()

    def action_back(self) -> None:
        """Esc: back where the results were opened from, a replay (kept where it was), or from a game to
        the menu."""
        if self.replay:
            self.app.pop_screen()
        else:
            self.action_menu()


def _cut(name: str, width: int) -> str:
    """``name`` in ``width`` columns: padded, or cut with an ellipsis."""
    return f"{name:<{width}}" if len(name) <= width else name[:width - 1] + "…"


def standings(rows: list[tuple[str, Any, bool]]) -> list[tuple[str, Any, bool]]:
    """(name, score, won) rows as a table of results reads: the winners first, then the others from the
    best score down, in the direction the winners' scores show (the lowest total wins Highwayman); rows
    that tie keep their seat order."""
    if not all(isinstance(score, (int, float)) for _, score, _ in rows):
        return sorted(rows, key=lambda row: not row[2])
    won = [score for _, score, won in rows if won]
    lost = [score for _, score, won in rows if not won]
    lowest_wins = bool(won and lost) and max(won) < min(lost)
    return sorted(rows, key=lambda row: (not row[2], row[1] if lowest_wins else -row[1]))

