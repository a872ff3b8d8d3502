"""Python's cycle collector held off while a table update is drawn, and let run once it is on screen.

Any allocation may start a collection, and drawing a table update allocates thousands of objects, so
most updates paid for one between arriving and being painted: a few milliseconds for the young
generations, 100–200 ms for a full collection (measured in ``bench/tui.py``'s games). Held from the
update's arrival until just after its frame is painted and written out, the same collections run while
nobody is waiting for the screen. Textual does the same around smooth scrolls (``App.PAUSE_GC_ON_SCROLL``).

Start-up is held the same way, from ``turpin``'s start to its first painted screen.
"""

from __future__ import annotations

import gc
import time

#: How long after a paint the collector may run again: time for Textual's writer thread to put the frame
#: on the terminal first (a collection keeps the interpreter's lock until it is done).
RELEASE_AFTER_PAINT = 0.03
#: The longest a hold lasts while updates keep coming, so that a flood of them cannot put off collecting
#: for ever.
LONGEST_HOLD = 1.0


class CollectorHold:
    """``hold()`` when an update arrives, ``release()`` once it is painted."""

    def __init__(self) -> None:
        self._since: float | None = None

    @property
    def holding(self) -> bool:
        return self._since is not None

    def hold(self) -> None:
        """Keep the collector off until ``release``; a no-op while it is already off (held by us, or by
        Textual during a scroll, which turns it back on itself)."""
        if self._since is None and gc.isenabled():
            gc.disable()
            self._since = time.monotonic()

    def release(self, *, busy: bool = False) -> None:
        """Let the collector run again, unless ``busy`` (another update is on its way, and it will release)
        and the hold is younger than ``LONGEST_HOLD``."""
        if self._since is None:
            return
        if busy and time.monotonic() - self._since < LONGEST_HOLD:
            return
        self._since = None
        gc.enable()


#: Held by ``turpin`` from its start to its first painted screen (``startup_done``).
startup = CollectorHold()


def startup_done() -> None:
    """The first screen is painted. What start-up built (modules, styles, the app and its screens) lives
    as long as the app, so it is set aside from every later collection (``gc.freeze``) rather than walked
    again and again, and collecting resumes. Collections during start-up took about an eighth of it."""
    if startup.holding:
        gc.freeze()
        startup.release()
