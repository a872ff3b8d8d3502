"""The rules help: the game's rules text with its rulings and table options, in a scrollable modal."""

from __future__ import annotations

import re

from rich.console import Group
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from core.engine import Game, Option
from core.registry import all_games, get_game
from tui import screen_styles
from tui.reflow import reflowed


def option_line(option: Option) -> tuple[str, str]:
    """An option as the set-up form names it ("gold 1", not ``gold_1``), and what it allows and does."""
    if option.kind == "int":
        allowed = f"{option.allowed[0]} to {option.allowed[1]}"
    elif option.kind == "choice":
        allowed = ", ".join(map(str, option.allowed))
    else:
        allowed = "yes or no"
    default = {True: "yes", False: "no"}.get(option.default, option.default) \
        if isinstance(option.default, bool) else option.default
    return option.name.replace("_", " "), f"{option.help} ({allowed}; default {default})"


#: How the rules cite a rule of the sheet or a ruling: T5, Y8, H4, A2.
RULE_MARK = re.compile(r"\b[A-Z]\d{1,2}\b")


def rules_text(game: Game) -> Group:
    """The game's rules, then its table options in two columns: a wrapped option keeps its indent."""
    text = Text()
    text.append(game.title + "\n\n", style="bold")  # the title only (a Text's own style is all of it)
    marks = RULE_MARK.findall(game.rules_text)
    if marks:  # the log and the move lists cite rules by these marks, which a newcomer cannot place
        text.append(f"Marks like ({marks[0]}) in the log and the move lists name the rule below that says "
                    "so; each is in bold where it is told.\n\n", style="dim")
    rules = Text(reflowed(game.rules_text) + "\n\n")
    rules.highlight_regex(RULE_MARK, "bold")
    text.append_text(rules)
    text.append("Table options", style="bold")
    options = Table.grid(padding=(0, 2))
    options.add_column(no_wrap=True, style="bold")
    options.add_column()
    for option in game.options:
        options.add_row(*option_line(option))
    return Group(text, Padding(options, (0, 0, 1, 2)))


class RulesScreen(ModalScreen[None]):
    """``?`` anywhere: the rules of one game (or of each, from the menu, with a key to go to each)."""

    CSS_PATH = screen_styles("rules")
    BINDINGS = [
        Binding("escape,q,question_mark,f1", "close", "close", key_display="esc"),
        # Named in the line above the rules (#rules-keys), not the footer: three titles cut it at 80 columns
        *[Binding(str(number), f"go_to({number - 1})", game.title, id=f"rules-game-{number}", show=False)
          for number, game in enumerate(all_games().values(), 1)],
    ]

    def __init__(self, game_id: str | None = None) -> None:
        super().__init__()
        self.game_id = game_id

    def compose(self) -> ComposeResult:
        games = [get_game(self.game_id)] if self.game_id else list(all_games().values())
        with Vertical(id="rules-box"):
            if len(games) > 1:  # the footer is cut on a narrow terminal: the keys are said here in full
                keys = ", ".join(f"{number} {game.title}" for number, game in enumerate(games, 1))
                yield Static(Text(f"Keys go to each game: {keys}.", style="dim"), id="rules-keys")
            with VerticalScroll(id="rules-scroll"):
                for game in games:
                    yield Static(rules_text(game), classes="rules-game")
            yield Footer()

    def on_mount(self) -> None:
        self.query_one("#rules-box").border_title = "Rules"
        self.query_one("#rules-scroll").focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "go_to":
            return self.game_id is None  # one game's rules need no keys to go between games
        return True

    def action_go_to(self, index: int) -> None:
        shown = list(self.query(".rules-game"))
        if 0 <= index < len(shown):
            self.query_one("#rules-scroll", VerticalScroll).scroll_to_widget(shown[index], top=True, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
