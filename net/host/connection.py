"""One client connection at the host: its reader loop, its bounded send queue and its writer task.

Invariants:

- A slow or stalled client never holds up the others: frames go straight to the transport while it keeps
  up, then wait in a bounded queue; a connection whose queue is full is dropped (it may reconnect for a
  catch-up).
- Any bad frame drops this peer, never the host; a refused request is answered, and a connection that
  keeps earning refusals, or sends too many messages of any kind, is closed and its seat token cools off.
- A lost connection is written no more, and is always handed back to the host (``TableHost.lost``).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import TYPE_CHECKING, Any

from net import protocol
from net.host.budgets import TokenBucket
from net.protocol import ProtocolError, error_message
from net.refusals import Refusal
from net.table.seating import Watcher

if TYPE_CHECKING:
    from net.host.server import TableHost


class Connection:
    """One client connection: its reader loop, its bounded send queue and its writer task."""

    def __init__(self, host: "TableHost", reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.host = host
        self.reader = reader
        self.writer = writer
        peer = writer.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        self.opened = self.last_heard = time.monotonic()
        #: While the host itself makes this connection wait (a room code's turn), silence is not its fault.
        self.held_until = 0.0
        self.watcher: Watcher | None = None
        self.closed = False
        self._queue: deque[bytes] = deque()
        self._ready = asyncio.Event()
        self._close_after_flush = False
        self._writer_task = asyncio.ensure_future(self._write_loop())
        #: Refusals cost the host work (an illegal move is explained on a redrawn state): a connection
        #: that keeps earning them is closed rather than let slow everyone else's table.
        self.refusals = TokenBucket(host.settings.refusal_burst, host.settings.refusals_per_second)
        #: Every message counts here, whatever it is: a flood of cheap ones (``here``, pings) is a flood.
        self.messages = TokenBucket(host.settings.message_burst, host.settings.messages_per_second)

    def send(self, frame: bytes) -> None:
        """Send a frame, or queue it; a connection whose queue is full is too far behind and is dropped.

        While the socket keeps up (nothing queued, little in the transport's buffer) the frame goes
        straight to the transport, in order; otherwise it waits in the bounded queue for the writer task.
        """
        if self.closed or self._close_after_flush or self.writer.transport.is_closing():
            return  # a lost connection is written no more (asyncio would log every attempt)
        if not self._queue and self.writer.transport.get_write_buffer_size() <= self.host.settings.write_buffer:
            self.writer.write(frame)
            return
        if len(self._queue) >= self.host.settings.send_queue:
            self.abort()
            return
        self._queue.append(frame)
        self._ready.set()

    def send_message(self, message: dict[str, Any]) -> None:
        self.send(protocol.encode(message))

    def close_soon(self) -> None:
        """Close once what is queued (a last error, say) has been written."""
        self._close_after_flush = True
        self._ready.set()

    def abort(self) -> None:
        """Drop the connection at once, without flushing (too slow, or frozen)."""
        if not self.closed:
            self.closed = True
            self._queue.clear()
            self._ready.set()
            self.writer.transport.abort()

    async def _write_loop(self) -> None:
        try:
            while not self.closed:
                await self._ready.wait()
                self._ready.clear()
                while self._queue and not self.closed:
                    # Hand the transport everything queued, then wait once for the socket to take it.
                    self.writer.writelines([self._queue.popleft() for _ in range(len(self._queue))])
                    await self.writer.drain()
                if self._close_after_flush and not self.closed:
                    self.closed = True
                    self.writer.close()
        except (ConnectionError, OSError):
            self.abort()

    async def serve(self) -> None:
        """Read frames until the peer goes; any bad frame drops this peer, never the host."""
        try:
            while not self.closed and not self.writer.transport.is_closing():
                try:
                    message = await protocol.read_frame(self.reader, protocol.MAX_CLIENT_FRAME)
                except ProtocolError as error:
                    self.send_message(error_message(error.code, error.message))
                    self.close_soon()
                    return
                self.last_heard = time.monotonic()
                if not self.messages.take():
                    settings = self.host.settings
                    self._close_for("too_many_messages", "messages", "messages", settings.message_burst,
                                    settings.messages_per_second)
                    return
                try:
                    await self.host.handle(self, protocol.validate_client_message(message))
                except (ProtocolError, Refusal) as refused:
                    if not self.refusals.take():
                        settings = self.host.settings
                        self._close_for("too_many_refusals", "requests the table refused", "refused requests",
                                        settings.refusal_burst,
                                        settings.refusals_per_second)
                        return
                    if isinstance(refused, ProtocolError):
                        self.send_message(error_message(refused.code, refused.message))
                        continue
                    self.send_message(refused.as_message())
                    # A refused hello ends the connection too: it would only hold a slot meanwhile.
                    if refused.code in protocol.PERMANENT or (message.get("type") == "hello" and self.watcher is None):
                        self.close_soon()
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            # The peer went: a player leaving, or a LAN browser's probe (connect, then close or reset
            # before a single frame). Neither is worth a word; a probe never joined, so the table is untouched.
            pass
        finally:
            self.host.lost(self)
            if not self._close_after_flush:
                self.abort()


    def _close_for(self, code: str, what: str, short: str, burst: int, per_second: float) -> None:
        """Close a connection that spent its budget of ``what`` (``short`` for the table's log); its seat
        token cools off a while."""
        settings = self.host.settings
        self.send_message(error_message(code, (
            f"this connection sent more than {burst} {what}, faster than {per_second:g} a second, and is closed")))
        self.close_soon()
        seat = self.watcher.seat if self.watcher is not None else None
        token = self.host.table.seats[seat].token if seat is not None else None
        if token:
            self.host.cooling[token] = time.monotonic() + settings.refusal_cooldown
        who = f"seat {seat + 1}'s connection" if seat is not None else "a connection"
        self.host.table.tell(f"Closed {who} from {self.address}: too many {short}")
