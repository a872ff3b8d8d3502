"""Bots that every game can use as they are, and the table of bot names a game offers.

Every game offers the same levels, by the same names: ``easy`` (plays like a beginner), ``normal`` (a
careful player that reads the odds), ``hard`` (searches: ``core.search``), and ``random`` (any legal
action, for tests and the simulator). ``sharp`` was the old name of ``normal``: it still works in records
and commands but is never listed or shown.
"""

from __future__ import annotations

import random
from typing import Callable, Iterator, Mapping

from core.engine import Action, Bot, Game, OptionError, State

#: The levels a person picks from, easiest first; every registered game offers all of them.
LEVELS = ("easy", "normal", "hard", "random")
#: Old names that still resolve, to the level they now mean.
ALIASES = {"sharp": "normal"}
#: The bot for a seat nobody chose a bot for (an empty seat, a player gone past the grace period).
DEFAULT_BOT = "normal"


class BotTable(Mapping[str, Bot]):
    """A game's bots by name. Iterating lists the levels only; looking up an old name (``sharp``) gives
    the level it became, so saved records and old commands still work."""

    def __init__(self, bots: Mapping[str, Bot], aliases: Mapping[str, str] | None = None) -> None:
        self._bots = dict(bots)
        self._aliases = dict(ALIASES if aliases is None else aliases)

    def canonical(self, name: str) -> str:
        """The name to show for ``name``: an alias becomes its level; a name we lack raises KeyError."""
        name = self._aliases.get(name, name)
        if name not in self._bots:
            raise KeyError(name)
        return name

    def __getitem__(self, name: str) -> Bot:
        return self._bots[self.canonical(name)]

    def __iter__(self) -> Iterator[str]:
        return iter(self._bots)

    def __len__(self) -> int:
        return len(self._bots)

    def __repr__(self) -> str:
        return f"BotTable({', '.join(self._bots)})"


def canonical_bot(bots: Mapping[str, Bot], name: str) -> str:
    """``name`` as it should be shown (``sharp`` → ``normal``) for any mapping of bots."""
    return bots.canonical(name) if isinstance(bots, BotTable) else name


def chosen_bot(game: Game, name: str) -> str:
    """``name`` as one of ``game``'s bots (an old name as the level it became), or ``OptionError`` naming
    the bots the game has: the one check of a bot's name, for the commands, the hosts and the table."""
    if name not in game.bots:
        raise OptionError(f"{game.title} has no bot {name!r}; it has {', '.join(game.bots)}")
    return canonical_bot(game.bots, name)


def uniform_random(legal_actions: Callable[[State, int], list[Action]]) -> Bot:
    """The ``random`` bot: any legal action, each as likely as the others."""

    def choose(state: State, seat: int, rng: random.Random) -> Action:
        return rng.choice(legal_actions(state, seat))

    return choose

