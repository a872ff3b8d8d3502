"""What the warm pool's zygote (``tui/startup/zygote.py``) does once, before any fork, so that no guest
has to: parse the style sheets, and draw the menu once, headless, in an empty folder of nobody's.

A guest forked from the zygote used to spend its first 55 ms of CPU on work that is the same for every
guest: Textual parses the app's and every widget's style sheet anew for each app (its cache is the
app's own), and the first draw fills Rich's and Textual's caches (cell widths, parsed colours and
styles) and specialises the interpreter's bytecode of every function it runs, writing into pages the
guest then copies from the zygote. Done here, those are shared, copy-on-write, by every guest.

The menu drawn here is a guest's menu in a folder made for it and removed after: the zygote reads no
preferences, seats, records or names, and keeps nothing of that app but the caches it filled.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import tempfile
import threading
import time
from typing import Any

#: The size the menu is drawn at once here (the commonest terminal); a guest's own size only changes
#: the layout, which every guest works out for itself anyway.
WARM_UP_SIZE = (80, 24)
#: At most this many frames are waited for the menu's LAN list (it comes one after the menu).
WARM_UP_FRAMES = 50
#: How long the zygote waits for the warm-up's threads to end before it gives up (and the door starts
#: its guests afresh): forking while another thread holds a lock would leave the lock held in every guest.
THREADS_END_SECONDS = 10.0


def share_parsed_style_sheets() -> None:
    """Make Textual's parse of a style sheet one per process instead of one per app: the same source,
    place and CSS variables give the same rules, so the guests forked after this find every sheet the
    zygote parsed already parsed. (Textual keeps the rules of a sheet as they were parsed, and reuses
    them within one app in just this way; this key adds the variables, which its own cache leaves out
    because it is emptied when they change.)"""
    from textual.css.stylesheet import Stylesheet

    parse_rules = Stylesheet._parse_rules
    if getattr(parse_rules, "shared", False):
        return
    parsed: dict[tuple[Any, ...], Any] = {}

    def shared_parse_rules(self: Stylesheet, css: str, read_from: Any, is_default_rules: bool = False,
                           tie_breaker: int = 0, scope: str = "") -> Any:
        key = (css, read_from, is_default_rules, tie_breaker, scope, tuple(self._variables.items()))
        rules = parsed.get(key)
        if rules is None:
            rules = parsed[key] = parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
        return rules

    shared_parse_rules.shared = True  # type: ignore[attr-defined]
    Stylesheet._parse_rules = shared_parse_rules  # type: ignore[method-assign]


def draw_the_menu_once() -> None:
    """Run the app headless to its guest's menu (and the LAN list beside it, turned off) and quit, with
    every folder the app could read or write pointing into an empty one removed afterwards; then wait
    until the threads it started have ended."""
    folder = tempfile.mkdtemp(prefix="turpin-zygote-")
    saved = dict(os.environ)
    try:
        os.environ.update({
            "TURPIN_GUEST": "ssh", "TURPIN_LAN": "off", "HOME": folder, "XDG_CONFIG_HOME": folder,
            "XDG_DATA_HOME": folder, "XDG_STATE_HOME": folder, "TURPIN_RECORDS_DIR": os.path.join(folder, "records"),
            "TURPIN_SEATS_FILE": os.path.join(folder, "seats.json")})
        asyncio.run(_menu_headless())
    finally:
        os.environ.clear()
        os.environ.update(saved)
        shutil.rmtree(folder, ignore_errors=True)
    deadline = time.monotonic() + THREADS_END_SECONDS
    while threading.active_count() > 1:
        if time.monotonic() > deadline:
            names = ", ".join(thread.name for thread in threading.enumerate() if thread is not threading.main_thread())
            raise RuntimeError(f"the warm-up left threads running: {names}")
        time.sleep(0.01)


async def _menu_headless() -> None:
    from tui.app import TurpinApp
    from tui.startup.start import Start
    from tui.widgets.lan_tables import LanTables

    app = TurpinApp(Start(), guest=True, lan_interfaces=[])
    async with app.run_test(size=WARM_UP_SIZE) as pilot:
        for _ in range(WARM_UP_FRAMES):  # the LAN list comes a frame after the menu
            await pilot.pause()
            if app.screen.query(LanTables):
                break
        await pilot.pause()
        with contextlib.suppress(Exception):
            await app.workers.wait_for_complete()
