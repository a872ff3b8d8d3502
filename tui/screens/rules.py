"""The rules help: the game's rules text with its rulings and table options, in a scrollable modal."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from core.engine import Game, Option
from core.registry import get_game
from tui import screen_styles


def option_line(option: Option) -> str:
    if option.kind == "int":
        allowed = f"{option.allowed[0]} to {option.allowed[1]}"
    elif option.kind == "choice":
        allowed = ", ".join(map(str, option.allowed))
    else:
        allowed = "yes or no"
    default = {True: "yes", False: "no"}.get(option.default, option.default) \
        if isinstance(option.default, bool) else option.default
    return f"  {option.name} ({allowed}; default {default}): {option.help}"


def reflowed(rules: str) -> str:
    """The engine's rules text with the line breaks it has for an 80-column file taken out, so the modal
    wraps it to its own width (a break kept from the file left every other line half empty): a line that
    ends a sentence keeps its break (Highwayman's rules put one item to a line), and so does an indented
    line (a table, as the market's price list), any other joins the next."""
    lines: list[str] = []
    for line in rules.strip().splitlines():
        previous = lines[-1] if lines else ""
        if (previous.strip() and line.strip() and not previous[0].isspace() and not line[0].isspace()
                and not previous.rstrip().endswith((".", "!", "?"))):
            lines[-1] = lines[-1].rstrip() + " " + line.strip()
        else:
            lines.append(line)
    return "\n".join(lines)


def rules_text(game: Game) -> Text:
    text = Text(game.title + "\n\n", style="bold")
    text.append(reflowed(game.rules_text) + "\n\n")
    text.append("Table options\n", style="bold")
    text.append("\n".join(option_line(option) for option in game.options) + "\n")
    return text


class RulesScreen(ModalScreen[None]):
    """``?`` anywhere: the rules of one game (or of each, from the menu)."""

    CSS_PATH = screen_styles("rules")
    BINDINGS = [Binding("escape,q,question_mark,f1", "close", "close", key_display="esc")]

    def __init__(self, game_id: str | None = None) -> None:
        super().__init__()
        self.game_id = game_id

    def compose(self) -> ComposeResult:
        from core.registry import all_games
        games = [get_game(self.game_id)] if self.game_id else list(all_games().values())
        with Vertical(id="rules-box"):
            with VerticalScroll(id="rules-scroll"):
                for game in games:
                    yield Static(rules_text(game), classes="rules-game")
            yield Footer()

    def on_mount(self) -> None:
        self.query_one("#rules-box").border_title = "Rules"
        self.query_one("#rules-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)
