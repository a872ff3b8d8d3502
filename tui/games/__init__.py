"""Each game's panes, keyed by game id: one module per game in this package.

A module here defines ``GAME_ID`` and the game's ``Board``, ``Hand`` and ``Sheet`` panes, plus a few
functions the shared screens ask of it (see ``generic.py``, which every module may lean on and which
draws any game that has no module of its own). Adding a game adds one module here and nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from types import ModuleType

from tui.games import generic


@cache
def _modules() -> dict[str, ModuleType]:
    found: dict[str, ModuleType] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        game_id = getattr(module, "GAME_ID", None)
        if game_id:
            found[game_id] = module
    return found


def panes_for(game_id: str) -> ModuleType:
    """The panes module of a game, or the generic one for a game without its own."""
    return _modules().get(game_id, generic)
