"""The registry of games: every package in ``core/games/`` is a game, whose ``__init__`` builds ``GAME``.

Discovery keeps a new game to its own folder: nothing here or in the simulator, host, TUI or tests
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
    """Game id → Game, in a stable order (by package name)."""
    found: dict[str, Game] = {}
    packages = sorted((info.name for info in pkgutil.iter_modules(_games_package.__path__) if info.ispkg))
    for name in packages:
        package = importlib.import_module(f"{_games_package.__name__}.{name}")
        game = getattr(package, "GAME", None)
        if not isinstance(game, Game):
            raise RuntimeError(f"core/games/{name}/__init__.py builds no GAME")
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
