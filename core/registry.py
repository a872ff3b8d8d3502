"""The registry of games: every module in ``core/games/`` that defines ``GAME`` is a game.

Discovery keeps a new game to its own module: nothing here or in the simulator, host, TUI or tests
changes when one is added.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from core import games as _games_package
from core.engine import Game


@cache
def all_games() -> dict[str, Game]:
    """Game id → Game, in a stable order (by module name)."""
    found: dict[str, Game] = {}
    for module_info in sorted(pkgutil.iter_modules(_games_package.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{_games_package.__name__}.{module_info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            if game.id in found:
                raise RuntimeError(f"two games registered as {game.id!r}")
            found[game.id] = game
    return found


def get_game(game_id: str) -> Game:
    """The game with this id, or a ``KeyError`` that lists the ids there are."""
    games = all_games()
    try:
        return games[game_id]
    except KeyError:
        raise KeyError(f"no game {game_id!r}; the games are {', '.join(games)}") from None
