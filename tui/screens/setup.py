"""Set-up of a table: the game, who sits where (you, a person, or which bot), every table option with
its help line, a seed for a repeatable game; for a hosted table also its name, interface and room code.

Every option comes from the engine's ``Option``s, so a new game's options appear here by themselves.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from core.engine import Game, Option, OptionError
from core.registry import all_games, get_game
from net.protocol import NAME_LIMIT
from net.table.clock import LAN_CLOCK_SECONDS, check_clock_seconds
from net.table.seating import default_bot
from tui import screen_styles
from tui.hosting import TablePlan
from tui.screens import FORM_FOCUS_KEYS
from tui.widgets.tickbox import TickBox

PERSON = "person"


class SetupScreen(Screen[None]):
    CSS_PATH = screen_styles("forms")
    #: The first field, not Start: "set up a game" is for changing something (Enter on the menu already
    #: starts the default game), and a focused Start scrolled a short terminal to the bottom of the form.
    #: Named here so that nothing else (the scrolling form) holds the focus while the game's part is built.
    AUTO_FOCUS = "#setup-game"
    BINDINGS = [
        Binding("escape", "back", "back", id="back"),
        Binding("ctrl+s", "start", "start", id="start"),
        *FORM_FOCUS_KEYS,
    ]

    def __init__(self, *, hosting: bool = False, plan: TablePlan | None = None) -> None:
        super().__init__()
        self.hosting = hosting
        self.plan = plan or TablePlan()
        self.game_id = self.plan.game
        self.values: dict[str, Any] = dict(self.plan.options)
        #: The people the seats were last drawn for (the "At this keyboard" field).
        self._people_seated: list[str] = []

    @property
    def game(self) -> Game:
        return get_game(self.game_id)

    def compose(self) -> ComposeResult:
        title = "Host a table" if self.hosting else "A game against bots"
        yield Static(Text(f" {title}", style="bold"), id="setup-title", classes="title")
        with VerticalScroll(id="setup-form"):
            with Horizontal(classes="setup-row"):
                yield Label("Game", classes="setup-label")
                yield Select([(g.title, g.id) for g in all_games().values()], value=self.game_id,
                             allow_blank=False, compact=True, id="setup-game")
            if not self.hosting:
                with Horizontal(classes="setup-row"):
                    yield Label("Hot seat", classes="setup-label")
                    yield Input(", ".join(self.plan.people), compact=True, id="setup-people",
                                placeholder="blank: you alone; the people here: Ann, Bob")
            if self.hosting:
                with Horizontal(classes="setup-row"):
                    yield Label("Table name", classes="setup-label")
                    yield Input(self.plan.name or "", placeholder="shown on the LAN list", max_length=40,
                                compact=True, id="setup-name")
                with Horizontal(classes="setup-row"):
                    yield Label("Interface", classes="setup-label")
                    yield Input(self.plan.interface or "", placeholder="all (or an address / interface name)",
                                compact=True, id="setup-interface")
                with Horizontal(classes="setup-row"):
                    yield Label("Room code", classes="setup-label")
                    yield TickBox("players need a room code", self.plan.code, compact=True, id="setup-code")
            yield Vertical(id="setup-game-part")
            with Horizontal(classes="setup-row"):
                yield Label("Turn clock", classes="setup-label")
                yield Input("" if self.plan.clock is None else f"{self.plan.clock:g}", type="number",
                            placeholder=(f"blank: {LAN_CLOCK_SECONDS:g} s a move, then a bot moves; 0: none"
                                         if self.hosting else "blank or 0: none; else seconds a move"),
                            compact=True, id="setup-clock")
            with Horizontal(classes="setup-row"):
                yield Label("Seed", classes="setup-label")
                yield Input("" if self.plan.seed is None else str(self.plan.seed), type="integer",
                            placeholder="blank: a fresh game; a number replays the same one",
                            compact=True, id="setup-seed")
            yield Static(id="setup-error")
            with Horizontal(id="setup-buttons"):
                yield Button("Host" if self.hosting else "Start", variant="primary", id="setup-start")
                yield Button("Back", id="setup-back")
        yield Footer()

    async def on_mount(self) -> None:
        await self._build_game_part()
        self.query_one("#setup-game").focus()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._mark_focused_row(event.widget)

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self._mark_focused_row(self.focused)

    def _mark_focused_row(self, focused: object) -> None:
        """The row of the focused field gets ``-focused``, which shows its label in reverse: the compact
        fields' own focus is only a slightly different background. (A class set here, not CSS's
        ``:focus-within``, whose label was repainted only at the next focus change, a field late.)"""
        ancestors = getattr(focused, "ancestors_with_self", [])
        for row in self.query(".setup-row"):
            row.set_class(row in ancestors, "-focused")

    async def _build_game_part(self) -> None:
        part = self.query_one("#setup-game-part", Vertical)
        await part.remove_children()
        game = self.game
        widgets = [Static(Text("Seats", style="bold"), classes="setup-heading")]
        seats = self._seats()
        for seat in range(seats):
            row = Horizontal(classes="setup-row setup-seat-row")
            widgets.append(row)
        await part.mount_all(widgets)
        rows = list(part.query(".setup-row"))
        bot_choices = [(f"bot: {name}", name) for name in game.bots]
        people = self._people_seated = self._people()
        for seat, row in enumerate(rows):
            await row.mount(Label(f"Seat {seat + 1}", classes="setup-label"))
            if seat == 0 or seat < len(people):
                await row.mount(Label(Text(people[seat] if people else "you"), classes="setup-you"))
                continue
            choices = ([("a person (joins over the LAN)", PERSON)] if self.hosting else []) + bot_choices
            current = self.plan.bots.get(seat, PERSON if self.hosting and self.plan.bots else default_bot(game))
            if self.hosting and not self.plan.bots and current != PERSON:
                current = PERSON
            await row.mount(Select(choices, value=current, allow_blank=False, compact=True,
                                   id=f"setup-seat-{seat}", classes="setup-seat"))
        await part.mount(Static(Text("Table options", style="bold"), classes="setup-heading"))
        for option in game.options:
            await part.mount(self._option_row(option))
            await part.mount(Static(Text(option.help), classes="setup-help"))

    def _people(self) -> list[str]:
        """The names given for the people at this keyboard (hot seat), each cut to what a table takes."""
        fields = self.query("#setup-people")
        if not fields:
            return []
        names = [name.strip()[:NAME_LIMIT].rstrip() for name in fields.first(Input).value.split(",")]
        return [name for name in names if name]

    @on(Input.Changed, "#setup-people")
    async def people_changed(self) -> None:
        """The seats say who sits where: each person named in turn, bots after them."""
        if self._people() != self._people_seated:
            await self._build_game_part()

    def _seats(self) -> int:
        try:
            return self.game.seats(self.game.resolve_options(self._options_given(strict=False)))
        except OptionError:
            return self.game.seats(self.game.resolve_options({}))

    def _option_row(self, option: Option) -> Horizontal:
        value = self.values.get(option.name, option.default)
        widget_id = f"option-{option.name}"
        if option.kind == "bool":
            field = TickBox(option.name.replace("_", " "), bool(value), compact=True, id=widget_id)
        elif option.kind == "choice":
            field = Select([(str(v), v) for v in option.allowed], value=value, allow_blank=False,
                           compact=True, id=widget_id)
        else:
            low, high = option.allowed
            if high - low <= 12:
                field = Select([(str(v), v) for v in range(low, high + 1)], value=value, allow_blank=False,
                               compact=True, id=widget_id)
            else:
                field = Input(str(value), type="integer", compact=True, id=widget_id,
                              placeholder=f"{low} to {high}", tooltip=f"a whole number from {low} to {high}")
        return Horizontal(Label(option.name.replace("_", " "), classes="setup-label"), field,
                          classes="setup-row")

    def _options_given(self, strict: bool = True) -> dict[str, Any]:
        given: dict[str, Any] = {}
        for option in self.game.options:
            try:
                widget = self.query_one(f"#option-{option.name}")
            except Exception:
                if option.name in self.values:
                    given[option.name] = self.values[option.name]
                continue
            if isinstance(widget, Input):
                try:
                    given[option.name] = int(widget.value)
                except ValueError:
                    if strict:
                        low, high = option.allowed  # the range is said of anything that is not a number too
                        raise OptionError(f"{option.name.replace('_', ' ')} must be a whole number from {low} "
                                          f"to {high}") from None
            else:
                given[option.name] = widget.value
        return given

    @on(Select.Changed, "#setup-game")
    async def game_changed(self, event: Select.Changed) -> None:
        if event.value != self.game_id:
            self.game_id = str(event.value)
            self.values = {}
            # Another game's seats and options, but what `turpin host` was told of the serving stays
            self.plan = replace(self.plan, game=self.game_id, options={}, bots={}, seed=None)
            await self._build_game_part()

    @on(Select.Changed, "#option-players")
    async def players_changed(self, event: Select.Changed) -> None:
        self.values = self._options_given(strict=False)
        seats = self._seats()
        if seats != len(self.query(".setup-seat-row")):
            await self._build_game_part()
            # The rebuilt part has a new players field: the focus goes back to it, as it stays on any other
            # field after a change (it fell back up the form, and the next keys went to another field).
            self.query_one("#option-players").focus()

    @on(Button.Pressed, "#setup-start")
    def start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#setup-back")
    def back_pressed(self) -> None:
        self.action_back()

    def action_back(self) -> None:
        self.app.pop_screen()

    @on(Input.Changed)
    @on(Select.Changed)
    def recheck_after_a_change(self) -> None:
        """A problem said at Start goes once it is put right (and says what is still wrong, if anything)."""
        error = self.query_one("#setup-error", Static)
        if not str(error.render()):
            return
        try:
            self.read_plan()
        except (OptionError, ValueError) as problem:
            error.update(Text(str(problem), style="bold red"))
        else:
            error.update("")

    def action_start(self) -> None:
        error = self.query_one("#setup-error", Static)
        try:
            plan = self.read_plan()
        except (OptionError, ValueError) as problem:
            error.update(Text(str(problem), style="bold red"))
            return
        error.update("")
        # The next form opens with these choices (the host's interface, say), but a fresh game and code.
        self.app.last_setups[self.hosting] = replace(plan, seed=None, port=0, room_code=None, record=None)
        if self.hosting:
            from tui.screens.lobby import LobbyScreen
            self.app.push_screen(LobbyScreen(plan))
        else:
            self.app.start_table(self.app.play(plan))

    def read_plan(self) -> TablePlan:
        game = self.game
        options = game.resolve_options(self._options_given())
        bots = {}
        for select in self.query(".setup-seat"):
            seat = int(str(select.id).rsplit("-", 1)[1])
            if select.value != PERSON:
                bots[seat] = str(select.value)
        people = self._people()
        if len(people) > game.seats(options):
            raise ValueError(f"{len(people)} people need {len(people)} seats: choose more players")

        seed_text = self.query_one("#setup-seed", Input).value.strip()
        seed = int(seed_text) if seed_text else None
        if seed is not None and not 0 <= seed < 2 ** 63:
            raise ValueError("the seed must be a whole number from 0 to 2^63 - 1")
        clock_text = self.query_one("#setup-clock", Input).value.strip()
        clock = float(clock_text) if clock_text else None
        if clock is not None:
            check_clock_seconds(clock)
        plan = TablePlan(game=game.id, options=options, bots=bots, seed=seed, clock=clock, people=people)
        if self.hosting:
            plan.name = self.query_one("#setup-name", Input).value.strip()
            plan.interface = self.query_one("#setup-interface", Input).value.strip()
            plan.code = self.query_one("#setup-code", TickBox).value
            # From `turpin host`'s own options: kept, or --grace and the rest would do nothing
            for serving in ("port", "room_code", "advertise", "bot_delay", "grace", "max_spectators", "record"):
                setattr(plan, serving, getattr(self.plan, serving))
            if plan.name:
                from net.discovery import check_table_name
                check_table_name(plan.name)
        return plan
