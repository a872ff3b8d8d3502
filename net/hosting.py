"""Serving one table: the one way both hosts (``turpin host --headless`` and the app's own tables) build a
``Table``, start its ``TableHost``, keep where it listens in its record, advertise it and close it.

It prints nothing: each host says what it likes about what happened (errors are raised, news goes to
``Table.on_event``).
"""

from __future__ import annotations

import contextlib
from typing import Any

from core.bots import chosen_bot
from core.engine import Game, OptionError
from net.host import HostSettings, TableHost, advertise, bind_address, record_saver
from net.table.seating import default_bot, new_room_code
from net.table.table import Table


def bots_in_last_seats(game: Game, options: dict[str, Any], count: int, bot: str | None = None,
                       people: int = 0) -> dict[int, str]:
    """Seat → bot for the last ``count`` seats, each the bot named (the game's default if none); at least
    ``people`` seats stay for people (the app's own player takes seat 1). ``OptionError`` in words
    otherwise: a count the table cannot hold is refused, never cut down to fit."""
    seats = game.seats(game.resolve_options(options))
    most = seats - people
    if not 0 <= count <= most:
        yours = " (seat 1 is yours)" if people == 1 else f" ({people} seats are for people)" if people else ""
        raise OptionError(f"--bots must be from 0 to {most} at a table of {seats}{yours}")
    name = chosen_bot(game, bot or default_bot(game))
    return {seat: name for seat in range(seats - count, seats)}


def new_table(game: Game, options: dict[str, Any], *, name: str = "", code_needed: bool = False,
              room_code: str | None = None, bots: dict[int, str] | None = None, seed: int | None = None,
              grace: float | None = None, record_path: str | None = None, clock: float = 0.0) -> Table:
    """A fresh table: named after its game unless ``name`` is given, with ``room_code`` (a fresh one if
    none) when a code is needed, its record written to ``record_path`` if there is one, and a turn clock of
    ``clock`` seconds (0: none)."""
    checked = {seat: chosen_bot(game, bot) for seat, bot in (bots or {}).items()}
    code = (room_code or new_room_code()) if code_needed else None
    return Table(game, options, name=name or f"{game.title} table", code=code, bots=checked, seed=seed,
                 grace=grace, save=record_saver(record_path) if record_path is not None else None, clock=clock)


class ServedTable:
    """A ``Table`` served on the network: ``start`` it, ``advertise`` it if it is wanted on the LAN list,
    and ``close`` it."""

    def __init__(self, table: Table, settings: HostSettings | None = None) -> None:
        self.table = table
        self.host = TableHost(table, settings or HostSettings())
        #: Where it listens: the bound address and port (the port 0 asked for is the real one once started).
        self.address: tuple[str, int] = ("127.0.0.1", 0)
        #: The ``--interface`` it was served on (None: every interface).
        self.interface: str | None = None
        self._advert: Any = None

    async def start(self, interface: str | None, port: int) -> tuple[str, int]:
        """Listen on ``interface`` (an address or an interface name; None for all) at ``port`` (0 for any
        free one), and keep both in the record: a table resumed after a crash comes back on the port its
        players' apps are trying again, and only where it was served. ``ValueError`` if the interface is
        not here, ``OSError`` if the port cannot be had."""
        self.interface = interface
        self.address = (bind_address(interface), port)
        self.address = await self.host.start(*self.address)
        self.table.meta["port"], self.table.meta["interface"] = self.address[1], interface
        if self.table.save is not None:
            self.table.save(self.table.record())
        return self.address

    async def advertise(self) -> bool:
        """Announce the table on the LAN where it is served; False (and why, in the table's news) if not."""
        self._advert = await advertise(self.host, self.interface)
        return self._advert is not None

    @property
    def advertised(self) -> bool:
        return self._advert is not None

    async def close(self, for_good: bool = True) -> None:
        """Stop advertising and serving. ``for_good``: the players' windows stop waiting for the table to
        come back; otherwise (a signal, which ``--resume`` may follow) they wait for it. The record is let
        go (and its lock)."""
        if self._advert is not None:
            with contextlib.suppress(Exception):
                await self._advert.close()
            self._advert = None
        await self.host.close(for_good=for_good)
        close_record = getattr(self.table.save, "close", None)
        if close_record is not None:
            close_record()
