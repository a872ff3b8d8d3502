"""Each game's panes, keyed by game id: one folder per game in this package.

A folder here (``tui/games/<game>/``) builds ``PANES``, a ``GamePanes`` (``generic.py``) with the game's
id, its board, hand and sheet and the hooks it draws its own way, in its ``__init__.py``; the defaults
draw any game that has no folder of its own. Adding a game adds one folder here and nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from tui.games.generic import GENERIC, GamePanes


@cache
def _all_panes() -> dict[str, GamePanes]:
    found: dict[str, GamePanes] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        if not info.ispkg:
            continue
        panes = getattr(importlib.import_module(f"{__name__}.{info.name}"), "PANES", None)
        if not isinstance(panes, GamePanes):
            raise RuntimeError(f"tui/games/{info.name}/__init__.py builds no PANES")
        if panes.game_id in found:
            raise RuntimeError(f"two games' panes registered as {panes.game_id!r}")
        found[panes.game_id] = panes
    return found


def panes_for(game_id: str) -> GamePanes:
    """A game's panes, or the generic ones for a game without a folder of its own."""
    return _all_panes().get(game_id, GENERIC)
