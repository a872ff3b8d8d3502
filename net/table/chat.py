"""Chat at a table: what a line may hold, and how fast one connection may send them."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from net import protocol
from net.refusals import Refusal

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
