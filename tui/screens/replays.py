"""The replays list: every game record in turpin's records folder, newest first; Enter replays one."""

from __future__ import annotations

import pathlib

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static
from textual.worker import get_current_worker

from tui import screen_styles
from tui.replay import RecordFile, list_records, outcome_in_words

#: The widest the Result column gets ("Moll Cutpurse won").
RESULT_WIDTH = 20
#: Columns of the screen the list's cells cannot use: the body's padding and the list's scrollbar.
LIST_MARGINS = 4


def cut(words: str) -> Text:
    """A cell's words, ending in "…" where the column cuts them (never "Hank, Joe, C")."""
    return Text(words, no_wrap=True, overflow="ellipsis")


class ReplaysScreen(Screen[None]):
    CSS_PATH = screen_styles("replays")
    BINDINGS = [Binding("escape,q", "back", "back to menu", key_display="esc")]

    def __init__(self, folder: pathlib.Path | None = None) -> None:
        super().__init__()
        if folder is None:
            from tui.saved.record_files import records_folder
            folder = records_folder()
        self.folder = folder
        self.records: list[RecordFile] = []
        #: Who won each listed game (by row key), as found so far: kept when the list is drawn again.
        self._outcomes: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        yield Static(Text(" Replays", style="bold"), id="replays-title", classes="title")
        with Vertical(id="replays-body"):
            table = DataTable(id="replays-list", cursor_type="row", zebra_stripes=True)
            yield table
            yield Static(Text(f"Reading the records in {self.folder}…", style="italic"), id="replays-note")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#replays-list").focus()
        self.load_records()

    @work(thread=True, exclusive=True)
    def load_records(self) -> None:
        # Each record is read and checked whole: a folder of long series takes a moment, off the screen.
        records = list_records(self.folder)
        self.app.call_from_thread(self._show, records)

    def _show(self, records: list[RecordFile]) -> None:
        self.records = records
        self._fill_list()
        note = (f"{len(records)} game{'s' * (len(records) != 1)} recorded in {self.folder}. "
                "Enter replays one, step by step, as a spectator saw it." if records else
                f"No games recorded yet. Every game you play or host is recorded in {self.folder}.")
        self.query_one("#replays-note", Static).update(Text(note, style="dim"))
        self.find_outcomes(records)

    def on_resize(self) -> None:
        if self.records:
            self._fill_list()

    def _fill_list(self) -> None:
        """The list at this width: every column in view, the players and the table's own name sharing what
        the others leave (cut with "…" when short) rather than running off the right edge."""
        records = self.records
        table = self.query_one("#replays-list", DataTable)
        cursor = table.cursor_row
        table.clear(columns=True)
        # Names without a bot's level: "Moll Cutpurse", not "Moll Cutpurse (normal bot)".
        players = [", ".join(name.split(" (")[0] for name in entry.players) for entry in records]
        own_names = ["" if entry.table == f"{entry.title} table" else entry.table for entry in records]
        # Wide enough from the start for the longest words the outcomes can come to: they fill in later.
        # (At most RESULT_WIDTH: a tie of many names is cut, and the players, who tell games apart, show
        # beside it at 80 columns.)
        result = min(RESULT_WIDTH, max([len("the rival won")] +
                                       [len(names) + len(" tied") for names in players]))
        saved = max([len("Saved")] + [len(entry.when) for entry in records])
        game = max([len("Game")] + [len(entry.title) for entry in records])
        moves = max([len("Moves")] + [len(str(entry.actions)) for entry in records])
        # Who won before who played, and the table's own name last (it is mostly "<game> table"): the
        # result must be on screen at 80 columns, and cut names end in a mark.
        room = self.size.width - LIST_MARGINS - 2 * table.cell_padding * 6 - saved - game - result - moves
        widest_players = max([len("Players")] + [len(names) for names in players])
        widest_table = max([len("Table")] + [len(name) for name in own_names])
        players_width = min(widest_players, max(len("Players"), room - min(widest_table, room // 3)))
        table_width = max(len("Table"), min(widest_table, room - players_width))
        table.add_column("Saved", width=saved)
        table.add_column("Game", width=game)
        table.add_column("Result", key="result", width=result)
        table.add_column("Players", width=players_width)
        table.add_column("Moves", width=moves)
        table.add_column("Table", width=table_width)
        for number, (entry, names, own_name) in enumerate(zip(records, players, own_names)):
            outcome = self._outcomes.get(str(number))
            table.add_row(Text(entry.when), Text(entry.title),
                          cut(outcome) if outcome is not None else Text("…", style="dim"), cut(names),
                          Text(str(entry.actions), justify="right"), cut(own_name), key=str(number))
        if table.row_count:
            table.move_cursor(row=min(cursor, table.row_count - 1))

    @work(thread=True, exclusive=True, group="outcomes")
    def find_outcomes(self, records: list[RecordFile]) -> None:
        # Who won is found by replaying each record to its end: the list is shown first, filled in after.
        worker = get_current_worker()
        for number, entry in enumerate(records):
            if worker.is_cancelled:  # the list was left
                return
            try:
                words = outcome_in_words(entry.path)
            except Exception:  # an old record this turpin cannot replay: the list still shows it
                words = "?"
            self.app.call_from_thread(self._show_outcome, str(number), words)

    def _show_outcome(self, row: str, words: str) -> None:
        if not self.is_attached:
            return
        self._outcomes[row] = words
        self.query_one("#replays-list", DataTable).update_cell(row, "result", cut(words))

    @on(DataTable.RowSelected, "#replays-list")
    def replay_chosen(self, event: DataTable.RowSelected) -> None:
        index = int(event.row_key.value or 0)
        if 0 <= index < len(self.records):
            from net.record import RecordError
            from tui.replay import Replay
            from tui.screens.replay import ReplayScreen
            try:
                replay = Replay(self.records[index].path, self.app.glyphs)
            except (RecordError, OSError) as error:
                self.notify(f"Cannot replay it: {error}", severity="error", markup=False)
                return
            self.app.push_screen(ReplayScreen(replay))

    def action_back(self) -> None:
        self.app.pop_screen()
