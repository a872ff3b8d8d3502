"""Seat tokens this app was given, kept in a small JSON file so a player can come back to his seat.

``TURPIN_SEATS_FILE`` names the file (the SSH front door gives each SSH user his own); otherwise it lives
in turpin's folder of the user's state. A token is a key to a seat: the file is written readable by its
owner only.
"""

from __future__ import annotations

import os
import pathlib

import platformdirs

from tui.saved.string_map_file import read_string_map, write_string_map

MAX_KEPT = 50


def seats_file() -> pathlib.Path:
    named = os.environ.get("TURPIN_SEATS_FILE")
    if named:
        return pathlib.Path(named)
    return pathlib.Path(platformdirs.user_state_dir("turpin")) / "seats.json"


def _load() -> dict[str, str]:
    return read_string_map(seats_file())


def token_for(address: str) -> str | None:
    """The seat token this app holds for the table at ``host:port``, if any."""
    return _load().get(address)


def last_address() -> str | None:
    """The table this app was last seated at (``host:port``), whose seat it may still hold."""
    tokens = _load()
    return next(reversed(tokens), None) if tokens else None


def remember(address: str, token: str | None) -> None:
    """Keep (or, with None, forget) the token for the table at ``address``."""
    tokens = _load()
    tokens.pop(address, None)
    if token:
        tokens[address] = token
    # Nowhere to keep it: the seat still works, it just cannot be found again after a restart
    write_string_map(seats_file(), dict(list(tokens.items())[-MAX_KEPT:]), owner_only=True)
