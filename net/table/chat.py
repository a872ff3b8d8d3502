"""Chat at a table: what a line may hold, how fast one connection may send them, and who hears them.

Invariants: a line is 1 to ``CHAT_MAX_CHARS`` printable characters; each connection has its own burst; a
muted spectator is refused, a player never is. Chat is not game state: it is not in the record, and a
newcomer sees only what is said after him.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from net import protocol
from net.protocol import host_message
from net.refusals import Refusal

if TYPE_CHECKING:
    from net.table.seating import Watcher
    from net.table.table import Table

#: Chat lines one connection may send at once, and how many more it earns per second after that.
CHAT_BURST = 5
CHAT_PER_SECOND = 0.5


@dataclass
class ChatBucket:
    """A token bucket per connection: a burst of ``CHAT_BURST`` lines, then one every two seconds."""

    tokens: float = CHAT_BURST
    last: float = field(default_factory=time.monotonic)

    def take(self, now: float) -> float:
        """Spend one line; 0 if allowed, else the seconds until the next line is."""
        self.tokens = min(CHAT_BURST, self.tokens + (now - self.last) * CHAT_PER_SECOND)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / CHAT_PER_SECOND


def check_chat_text(text: str) -> str:
    """A chat line as others will see it, or ``Refusal("bad_chat")`` saying what is wrong with it."""
    text = text.strip()
    if not text:
        raise Refusal("bad_chat", "a chat line needs some text")
    if len(text) > protocol.CHAT_MAX_CHARS:
        raise Refusal("bad_chat", f"a chat line has at most {protocol.CHAT_MAX_CHARS} characters "
                                  f"(this one has {len(text)})")
    if not text.isprintable():
        raise Refusal("bad_chat", "a chat line may hold only printable characters (no control characters, "
                                  "tabs or line breaks)")
    return text


class TableChat:
    """The chat of ``table``: lines to everyone, and the host's switch for spectators'."""

    def __init__(self, table: Table) -> None:
        self.table = table
        #: Whether spectators' chat lines are refused (the host's choice; players can always talk).
        self.muted = False

    def say(self, watcher: Watcher, text: str) -> None:
        """A chat line from a joined connection, sent to everyone (players and spectators) as ``chat``;
        ``Refusal`` when muted, malformed or too fast (``chat_too_fast``, with ``retry_after``)."""
        table = self.table
        if watcher.seat is None and self.muted:
            raise Refusal("muted", "the host has muted spectators' chat; players can still talk")
        text = check_chat_text(text)
        wait = watcher.chat.take(table.now())
        if wait > 0:
            raise Refusal("chat_too_fast", f"you are chatting too fast; the next line can go in {wait:.1f} s",
                          retry_after=round(wait, 1))
        name = table.seats[watcher.seat].name if watcher.seat is not None else watcher.name
        frame = protocol.encode(host_message("chat", **{"from": name, "seat": watcher.seat, "text": text}))
        for other in list(table.watchers):
            other.send(frame)

    def mute_spectators(self, muted: bool) -> None:
        """The host's switch for spectators' chat; everyone is told when it changes."""
        if muted == self.muted:
            return
        self.muted = muted
        self.table.notice("The host has muted spectators' chat" if muted else "Spectators may chat again")
