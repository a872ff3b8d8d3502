"""Printing that can never block the host's event loop.

A headless host's output may go to a pipe nobody reads; once the pipe is full a plain ``print`` (or
asyncio's own logging to stderr) blocks, and the whole table with it. ``detached_output`` swaps
``sys.stdout`` and ``sys.stderr`` for streams that hand each write to a thread: the thread does the blocking
``os.write``; a write finds room in a bounded queue or is dropped (and counted, said once the output flows
again). The loop never waits for a reader.
"""

from __future__ import annotations

import contextlib
import io
import os
import queue
import sys
import threading
from typing import Iterator, TextIO

#: Writes held for a slow reader before further output is dropped.
QUEUE_WRITES = 2000


class DetachedStream(io.TextIOBase):
    """A text stream whose writes go to a file descriptor from a thread; ``write`` never blocks."""

    def __init__(self, original: TextIO, capacity: int = QUEUE_WRITES) -> None:
        super().__init__()
        self.original = original
        self.fd = original.fileno()
        self.encoding_name = getattr(original, "encoding", None) or "utf-8"
        self.dropped = 0
        self._queue: queue.Queue[bytes] = queue.Queue(capacity)
        self._idle = threading.Event()
        self._idle.set()
        threading.Thread(target=self._pump, name=f"output-fd{self.fd}", daemon=True).start()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.encoding_name

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self.original.isatty()

    def write(self, text: str) -> int:
        if text:
            try:
                self._idle.clear()
                self._queue.put_nowait(text.encode(self.encoding_name, errors="replace"))
            except queue.Full:
                self.dropped += 1
        return len(text)

    def flush(self) -> None:
        """Nothing to do: the thread writes as soon as it can, and a reader may never come."""

    def drain(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for everything queued to be written; False if it was not."""
        return self._idle.wait(timeout)

    def _pump(self) -> None:
        reported = 0
        while True:
            chunk = self._queue.get()
            if self.dropped > reported and self._queue.empty():
                # Said once the backlog is out: where the output has a gap, and how large it was.
                chunk += f"\n({self.dropped - reported} pieces of output were dropped here: nobody was " \
                         f"reading)\n".encode()
                reported = self.dropped
            try:
                # os.write, not the buffered stream: a thread stuck here holds no lock the interpreter
                # needs at exit.
                view = memoryview(chunk)
                while view:
                    view = view[os.write(self.fd, view):]
            except OSError:
                pass  # the reader is gone: nothing more can be shown, and nothing must fail for it
            if self._queue.empty():
                self._idle.set()


@contextlib.contextmanager
def detached_output(drain_seconds: float = 2.0) -> Iterator[None]:
    """Within it, ``print`` and logging never block on stdout or stderr; at the end what is left is
    written (waiting at most ``drain_seconds`` for a reader) and the original streams are back."""
    swapped: list[tuple[str, TextIO, DetachedStream]] = []
    for name in ("stdout", "stderr"):
        original = getattr(sys, name)
        try:
            original.flush()
            stream = DetachedStream(original)
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            continue  # not a real file (a test's capture): leave it as it is
        swapped.append((name, original, stream))
        setattr(sys, name, stream)
    try:
        yield
    finally:
        for name, original, stream in swapped:
            stream.drain(drain_seconds)
            setattr(sys, name, original)
