"""What a client hands whoever draws it: each update carries the table as that update left it, so a screen
draws the update it is handed and never a copy the client has changed since."""

from __future__ import annotations

import asyncio
import random

from net.table.table import Table
from tests.net_helpers import TOY, WAIT, client, close_all, hosting, play_randomly


async def test_each_update_carries_the_table_as_it_left_it_and_later_frames_change_none_of_them():
    async with hosting(Table(TOY, {"players": 2})) as host:
        tom, bess = client(host, name="Tom"), client(host, name="Bess")
        handed = []
        tom.subscribe(lambda update: handed.append((update, len(tom.snapshot.log), tom.snapshot.turn,
                                                    list(tom.snapshot.chat))))
        await tom.start()
        await bess.start()
        await asyncio.gather(play_randomly(tom, random.Random(1)), play_randomly(bess, random.Random(2)))
        await tom.say("good game")
        await tom.wait_for(lambda snap: len(snap.chat) == 1, WAIT)
        tables = [(update, log, turn, chat) for update, log, turn, chat in handed if update.kind == "table"]
        assert len(tables) > 3 and tom.snapshot.result is not None
        for update, log, turn, chat in tables:
            # as it was when it came, though the game went on to its end and a chat line came after
            assert update.snapshot is not None and update.snapshot is not tom.snapshot
            assert (len(update.snapshot.log), update.snapshot.turn, update.snapshot.chat) == (log, turn, chat)
        assert tables[0][0].snapshot.result is None and tables[-1][0].snapshot.result is not None
        assert all(update.snapshot is None for update, *_ in handed if update.kind in ("chat", "notice"))
        await close_all(tom, bess)
