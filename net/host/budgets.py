"""What a peer may ask of the host before it is slowed down or closed: room codes and message budgets.

Invariants:

- Room codes are counted per address when they arrive, not when they are checked: codes sent in parallel
  gain nothing, and no code waits longer than half the heartbeat timeout, so the wait never cuts its peer.
- A token bucket never holds more than its burst, and refills at its rate whatever the clock did meanwhile.
"""

from __future__ import annotations

import time
from typing import Callable

from net.host.settings import HostSettings


class WrongCodeThrottle:
    """Slows down guessing: each room code from an address is counted when it arrives (not when it is
    checked), and each one doubles the wait before that address's next code is checked, up to
    ``longest_wait``. A code that would have to wait longer is refused at once (``slow_down``), so
    codes sent in parallel gain nothing and no connection is held past the heartbeat timeout."""

    def __init__(self, settings: HostSettings, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.clock = clock
        #: address → (codes counted in this streak, when the next one may be checked, when the last arrived)
        self._streaks: dict[str, tuple[int, float, float]] = {}

    @property
    def longest_wait(self) -> float:
        """A code never waits longer than this: under half the timeout, so the wait cannot cut the peer."""
        return min(self.settings.wrong_code_cap, self.settings.timeout / 2)

    def penalty(self, codes: int) -> float:
        return min(self.settings.wrong_code_delay * 2 ** (codes - 1), self.longest_wait) if codes else 0.0

    def _streak(self, address: str, now: float) -> tuple[int, float, float]:
        streak = self._streaks.get(address, (0, 0.0, 0.0))
        if streak[0] and now - streak[2] >= self.settings.wrong_code_forget:
            self._streaks.pop(address, None)
            return 0, 0.0, 0.0
        return streak

    def wait_time(self, address: str) -> float:
        """Seconds a code arriving now from this address would wait before it is checked."""
        now = self.clock()
        return max(0.0, self._streak(address, now)[1] - now)

    def arrive(self, address: str) -> float | None:
        """Count a code from ``address`` now: the seconds it must wait before it is checked, or None when
        that would be past ``longest_wait`` (too many codes at once: refuse it without checking)."""
        now = self.clock()
        codes, next_check, _ = self._streak(address, now)
        wait = max(0.0, next_check - now)
        if wait > self.longest_wait:
            return None
        codes += 1
        self._streaks[address] = (codes, now + wait + self.penalty(codes), now)
        return wait

    def wrong(self, address: str) -> float:
        """The code was wrong: the wait before this address's next code is checked (from this check)."""
        return self.penalty(self._streaks.get(address, (0, 0.0, 0.0))[0])

    def succeeded(self, address: str) -> None:
        self._streaks.pop(address, None)


class TokenBucket:
    """``burst`` at once, then ``per_second``: ``take`` is False once the bucket is empty."""

    def __init__(self, burst: float, per_second: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.burst, self.per_second, self.clock = burst, per_second, clock
        self.tokens, self.last = float(burst), clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
