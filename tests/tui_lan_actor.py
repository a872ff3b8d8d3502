"""Run by tests/tui/test_lan.py inside a private network namespace (never on a real interface).

Hosts an advertised table on 127.0.0.1 and opens the app with its LAN list pinned to 127.0.0.1; picks the
table from the list by keys and joins it. Prints one JSON line: what the app showed and where it ended.
"""

from __future__ import annotations

import asyncio
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from core.registry import get_game  # noqa: E402
from net.host import HostSettings, TableHost, advertise  # noqa: E402
from net.table.table import Table  # noqa: E402
from tests.tui_helpers import screen_name  # noqa: E402
from tests.waiting import until
from tui.app import Start, TurpinApp  # noqa: E402
from tui.widgets.lan_tables import LanTables  # noqa: E402


async def main() -> dict:
    table = Table(get_game("turpin"), {"players": 2}, name="Lunch league", bots={1: "random"})
    host = TableHost(table, HostSettings(bot_delay=3600))
    await host.start("127.0.0.1", 0)
    advert = await advertise(host, "127.0.0.1")
    app = TurpinApp(Start(), player_name="Ann", lan_interfaces=["127.0.0.1"], bell=False)
    seen: dict = {}
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(lambda: app.screen.query(LanTables), "the LAN list under the menu", pilot=pilot)
            lan = app.screen.query_one(LanTables)
            await until(lambda: lan.row_count > 0, "the table in the LAN list", pilot=pilot)
            listed = lan.selected()
            seen["listed"] = [listed.name, listed.game, listed.taken, listed.free, listed.code_needed]
            lan.focus()
            await pilot.press("enter")
            await until(lambda: screen_name(app) == "TableScreen"
                        and app.screen.frame.view is not None, "the joined table", pilot=pilot)
            seen["seat"] = app.screen.frame.seat
            seen["table"] = app.screen.frame.table
            await until(lambda: lan.tables and next(iter(lan.tables.values())).free == 0,
                        "the list to say the table filled", pilot=pilot)
            seen["free_after"] = next(iter(lan.tables.values())).free
    finally:
        if advert is not None:
            await advert.close()
        await host.close()
    return seen


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main())), flush=True)
