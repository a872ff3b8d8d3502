"""Guests of the warm pool start in turns: at most one for each core builds its first screen at a time.

Fifty logins in the same second are fifty guests wanting the CPU at once. Shared out evenly, every one
of them is slow, and all reach their menus together near the end; in turns, the first ones are at their
menus at once and the last no later (each guest's start costs the same CPU either way, and fifty
processes switching over two cores cost more of it). The zygote forks each guest as soon as the door
asks, and the guest waits for its turn before it starts the app; a turn ends when the guest's first
screen is painted, when it ends, or after ``TURN_SECONDS`` (a guest that is slow for its own reasons
holds up nobody for long).

The zygote's end of each guest's gate is a socket it watches until the guest closes its end: the guest
is let in by one byte, and hands its turn back by closing its end (which the kernel also does when it
dies). Only the app waits for its turn and hands it back at its first paint; any other command the
zygote runs is let in in turn and hands it back at once.
"""

from __future__ import annotations

import collections
import os
import socket
import time

#: A guest that has not painted its first screen after this long in its turn lets the next one in all
#: the same (it goes on starting, sharing the CPU as before).
TURN_SECONDS = 1.0


def cores() -> int:
    """How many guests start at once: the cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class StartGate:
    """The zygote's side: guests waiting for their turn, in the order they came, and those in theirs."""

    def __init__(self, turns: int | None = None, turn_seconds: float = TURN_SECONDS) -> None:
        self.turns = turns or cores()
        self.turn_seconds = turn_seconds
        self.waiting: collections.deque[socket.socket] = collections.deque()
        #: The gates of guests in their turn, and when it ends at the latest.
        self.starting: dict[socket.socket, float] = {}
        #: Guests still starting after their turn ended by the clock: watched until they close their end.
        self.overtime: set[socket.socket] = set()

    def add(self) -> tuple[socket.socket, socket.socket]:
        """A new guest's gate: (the zygote's end, to watch; the guest's end, for the child to keep)."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        ours.setblocking(False)
        self.waiting.append(ours)
        return ours, theirs

    def gates(self) -> list[socket.socket]:
        """The zygote's end of every gate still open (a forked guest closes them: not his to hold)."""
        return [*self.waiting, *self.starting, *self.overtime]

    def let_in(self, now: float | None = None) -> None:
        """End the turns that are over, and give the free ones to the guests that came first."""
        now = time.monotonic() if now is None else now
        for gate, deadline in list(self.starting.items()):
            if deadline <= now:
                del self.starting[gate]
                self.overtime.add(gate)
        while self.waiting and len(self.starting) < self.turns:
            gate = self.waiting.popleft()
            try:
                gate.send(b"g")
            except OSError:  # the guest is gone already: its end reads as closed, and ``closed`` follows
                self.overtime.add(gate)
                continue
            self.starting[gate] = now + self.turn_seconds

    def closed(self, gate: socket.socket, now: float | None = None) -> None:
        """The guest closed its end (its first screen is painted, or it ended): its turn, or its place in
        the queue, is over."""
        self.starting.pop(gate, None)
        self.overtime.discard(gate)
        if gate in self.waiting:
            self.waiting.remove(gate)
        gate.close()
        self.let_in(now)

    def next_deadline(self, now: float | None = None) -> float | None:
        """Seconds until the next turn ends by the clock (None while nobody is in a turn)."""
        if not self.starting:
            return None
        now = time.monotonic() if now is None else now
        return max(0.0, min(self.starting.values()) - now)


def wait_for_turn(gate: socket.socket) -> None:
    """In the guest: wait until the zygote lets it in (or is gone: then there are no turns to keep)."""
    gate.setblocking(True)
    try:
        gate.recv(1)
    except OSError:
        pass
