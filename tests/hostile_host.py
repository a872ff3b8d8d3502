"""A hostile host for the tests: a real table behind a proxy on 127.0.0.1 that writes escape sequences into
every string of every frame the table sends (map keys too), so the game still works once a client has
taken out what is not printable, and shows what a client would print if it did not.

Machine words (map keys, a seat's ``kind``, an action's fields) get only characters a client takes out
whole (ESC, BEL, NUL, C1 CSI, bidi and zero-width marks). Text a person reads (names, log lines, notices,
chat, choices, errors) gets whole sequences too, as in the attack: a clipboard write (OSC 52), a window
title (OSC 0), a hyperlink (OSC 8) and a screen clear, of which a cleaning client shows only harmless
leftovers (``]0;pwned``).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, AsyncIterator, Callable

from net import protocol

#: Control characters a client removes entirely: what is left is the original string.
INVISIBLE = ("\x1b", "\x07\x00", "\x9b", "\u202e", "\u200b\u2066")
#: Whole sequences, as in the attack on a player's terminal.
CLIPBOARD = "\x1b]52;c;cHduZWQ=\x07"
TITLE = "\x1b]0;pwned\x07"
LINK = "\x1b]8;;http://evil.example/\x1b\\"
CLEAR = "\x1b[2J\x1b[H"
#: The fields a person reads: their strings carry the whole sequences.
TEXT_FIELDS = frozenset({"table", "title", "text", "name", "from", "message", "summary", "away_name"})
#: Byte strings that must never reach a terminal from a client of this host.
FORBIDDEN_OUTPUT = (b"\x1b]52;", b"\x1b]0;pwned", b"\x1b]8;;http", "\u202e".encode(), "\u200b".encode(),
                    "\x9b".encode(), b"\x1b[2J\x1b[H\x1b")


def salted(text: str) -> str:
    """``text`` with control characters a client takes out whole, so its meaning survives the cleaning."""
    return INVISIBLE[0] + text[:1] + INVISIBLE[1] + text[1:2] + INVISIBLE[2] + text[2:] + INVISIBLE[3] + INVISIBLE[4]


def poisoned(text: str) -> str:
    """Text a person reads, with the attack's sequences around it."""
    return f"{CLIPBOARD}{TITLE}{salted(text)}{LINK}{CLEAR}"


def hostile(value: Any, key: str | None = None) -> Any:
    """``value`` with escapes in every string, keys included."""
    if isinstance(value, str):
        return poisoned(value) if key in TEXT_FIELDS else salted(value)
    if isinstance(value, dict):
        return {salted(name) if isinstance(name, str) else name: hostile(item, name)
                for name, item in value.items()}
    if isinstance(value, list):
        return [hostile(item, key) for item in value]
    return value


#: What a proxy does to each frame from the host: ``mutate(message, connection)`` (``connection`` counts
#: the proxy's connections from 1) returns the frame to pass on.
Mutate = Callable[[dict[str, Any], int], dict[str, Any]]


class HostileProxy:
    """Listens on 127.0.0.1; each connection is passed to the real host at ``target``, and every frame
    back from it is made ``hostile`` (or whatever ``mutate`` makes of it). ``frames`` counts the frames it
    has passed on, ``connections`` the connections it took, ``upstream`` the bytes clients sent."""

    def __init__(self, target: tuple[str, int], mutate: Mutate | None = None) -> None:
        self.target = target
        self.mutate: Mutate = mutate or (lambda message, connection: hostile(message))
        self.frames = 0
        self.connections = 0
        self.upstream = 0
        #: True: the proxy reads nothing more from its clients (a host that has stopped reading).
        self.deaf = False
        self.server: asyncio.AbstractServer | None = None
        self.address: tuple[str, int] = ("", 0)
        self._tasks: set[asyncio.Task[Any]] = set()

    async def start(self) -> tuple[str, int]:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.address = self.server.sockets[0].getsockname()[:2]
        return self.address

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        host_reader, host_writer = await asyncio.open_connection(*self.target)
        self.connections += 1
        upstream = asyncio.ensure_future(self._copy(reader, host_writer))
        downstream = asyncio.ensure_future(self._poison(host_reader, writer, self.connections))
        self._tasks |= {upstream, downstream}
        try:
            await asyncio.wait({upstream, downstream}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (upstream, downstream):
                task.cancel()
                self._tasks.discard(task)
            for end in (writer, host_writer):
                end.close()

    async def _copy(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError, OSError):
            while data := await reader.read(65536):
                while self.deaf:
                    await asyncio.sleep(0.05)
                self.upstream += len(data)
                writer.write(data)
                await writer.drain()

    async def _poison(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, connection: int) -> None:
        with contextlib.suppress(ConnectionError, OSError, asyncio.IncompleteReadError):
            while True:
                message = await protocol.read_frame(reader, protocol.MAX_HOST_FRAME)
                writer.write(protocol.encode(self.mutate(message, connection)))
                self.frames += 1
                await writer.drain()


@contextlib.asynccontextmanager
async def hostile_in_front_of(address: tuple[str, int], mutate: Mutate | None = None) -> AsyncIterator[HostileProxy]:
    proxy = HostileProxy(address, mutate)
    await proxy.start()
    try:
        yield proxy
    finally:
        await proxy.close()


def unprintable_in(value: Any, path: str = "") -> list[str]:
    """Where in ``value`` a string holds a character that is neither printable nor a line break."""
    if isinstance(value, str):
        return [f"{path}: {value!r}"] if not value.replace("\n", "").isprintable() else []
    if isinstance(value, dict):
        return [where for name, item in value.items()
                for where in unprintable_in(name, f"{path}/key") + unprintable_in(item, f"{path}/{name}")]
    if isinstance(value, (list, tuple)):
        return [where for index, item in enumerate(value) for where in unprintable_in(item, f"{path}[{index}]")]
    return []
