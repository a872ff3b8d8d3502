"""What goes wrong with a client's connection, said in a player's words.

Invariants:

- Every failure to reach or read a table becomes one sentence naming the address, never a traceback or a
  raw frame size (a port that is not turpin's is said to be so).
"""

from __future__ import annotations

import asyncio

from net.protocol import ProtocolError


def describe_duration(seconds: float) -> str:
    """A wait in the words a status line uses: ``12 s``, ``3 min``, ``2 h 5 min``."""
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min"
    hours, minutes = divmod(seconds // 60, 60)
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


class ClientError(Exception):
    """The client cannot (or can no longer) reach its table; the message says why in plain words."""


def explain_connection_error(error: BaseException, host: str, port: int, ever_welcomed: bool = True) -> str:
    """A connection failure in words a player understands (``ever_welcomed``: that host has taken us in
    before, so it is a turpin table)."""
    where = f"{host}:{port}"
    if isinstance(error, ConnectionRefusedError):
        return f"nobody is hosting a table at {where} (the connection was refused)"
    if isinstance(error, (asyncio.TimeoutError, TimeoutError)):
        return f"the table at {where} did not answer in time"
    if isinstance(error, asyncio.IncompleteReadError):
        return f"the table at {where} closed the connection"
    if isinstance(error, ConnectionResetError):
        return f"the connection to {where} was cut"
    if isinstance(error, OSError) and error.strerror:
        return f"cannot reach {where}: {error.strerror.lower()}"
    if isinstance(error, ProtocolError):
        if not ever_welcomed:
            # Its very first bytes were not turpin's (an SSH port, say): said in words, not as "a frame of
            # 1397966893 bytes"
            return f"{where} is not a turpin table (is the port right?): it answered with something else"
        return f"the table at {where} sent something this program cannot read ({error.message})"
    return f"lost the table at {where} ({type(error).__name__})"
