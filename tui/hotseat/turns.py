"""Whose view the one keyboard shows next at a hot-seat table."""

from __future__ import annotations

from typing import Iterable


def next_at_the_keyboard(awaited: Iterable[int], showing: int | None) -> int | None:
    """The seat whose view should show next: the person showing while the game still awaits her (no
    curtain between two of her own decisions), else the next awaited seat after hers in seat order, round
    the table (simultaneous secret choices are taken one person at a time); None while the game awaits
    nobody at this keyboard (the bots are moving: what shows stays)."""
    seats = sorted(set(awaited))
    if not seats:
        return None
    if showing in seats:
        return showing
    later = [seat for seat in seats if showing is not None and seat > showing]
    return later[0] if later else seats[0]
