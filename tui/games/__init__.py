"""Each game's panes, keyed by game id: one module per game in this package.

A module here defines ``Panes``, a ``GamePanes`` (``generic.py``) with the game's ``GAME_ID``, its
``Board``, ``Hand`` and ``Sheet`` and the functions it draws its own way; the defaults draw any game
that has no module of its own. Adding a game adds one module here and nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from tui.games.generic import GamePanes


@cache
def _modules() -> dict[str, type[GamePanes]]:
    found: dict[str, type[GamePanes]] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        panes = getattr(module, "Panes", None)
        if isinstance(panes, type) and issubclass(panes, GamePanes) and panes.GAME_ID:
            found[panes.GAME_ID] = panes
    return found


def panes_for(game_id: str) -> type[GamePanes]:
    """A game's panes, or the generic ones for a game without a module of its own."""
    return _modules().get(game_id, GamePanes)
