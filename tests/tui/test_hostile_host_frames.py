"""A hostile host against its players' programs: a real table behind a proxy that breaks the
frames it passes on (seats without a kind or as plain numbers, events as numbers, choices that are not
maps, no ``started``, a final record whose seats are a number, a welcome's heartbeat of −1, 0, NaN, a year
or text). The client says in words what was wrong, drops the connection and tries again, as for any broken
host: it never stops reading in silence, and the app never exits with a traceback. A host that reads
nothing does not hold a client's goodbye up."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from core.registry import all_games
from net.client import ClientUpdate
from net.table.table import Table
from tests.hostile_host import hostile_in_front_of
from tests.net_helpers import TOY, WAIT, client, close_all, hosting, play_randomly
from tests.tui_helpers import screen_text
from tests.waiting import until
from tui.app import Start, TurpinApp

#: What a hostile host does to a table frame, and the words a player is shown for it.
BROKEN_FRAMES = {
    "seats without a kind": (lambda m: {**m, "seats": [{"seat": 0, "name": "Ann", "connected": True}]},
                             "seat 1 without 'kind'"),
    "seats as plain numbers": (lambda m: {**m, "seats": [1, 2]}, "seat 1 that is not a map"),
    "events as numbers": (lambda m: {**m, "events": [1, 2, 3]}, "a log line that is not a map"),
    "choices that are not maps": (lambda m: {**m, "prompt": {"id": 1, "choices": [1, "fold"]}},
                                  "a choice that is not a map"),
    "no started": (lambda m: {k: v for k, v in m.items() if k != "started"}, "without 'started'"),
    "a turn as text": (lambda m: {**m, "turn": "3"}, "'turn' has the wrong type"),
}


def breaking(change: Any, on_connection: int = 1, after: int = 1, only_at_the_end: bool = False):
    """A mutation that lets the first ``after`` table frames of connection ``on_connection`` through and
    breaks the rest of that connection's (or, ``only_at_the_end``, the last one, with the result)."""
    seen: dict[int, int] = {}

    def mutate(message: dict[str, Any], connection: int) -> dict[str, Any]:
        if message["type"] != "table" or connection != on_connection:
            return message
        seen[connection] = seen.get(connection, 0) + 1
        if only_at_the_end:
            return change(message) if message["result"] is not None else message
        return change(message) if seen[connection] > after else message
    return mutate


def lost_with(updates: list[ClientUpdate], words: str) -> list[str]:
    return [u.text for u in updates if u.kind == "disconnected" and "cannot read" in u.text and words in u.text]


@pytest.mark.parametrize("broken", sorted(BROKEN_FRAMES))
async def test_a_frame_the_client_cannot_use_is_said_in_words_and_the_table_is_joined_again(broken):
    change, words = BROKEN_FRAMES[broken]
    table = Table(TOY, {"players": 2}, name="Hostile table", seed=7)
    async with hosting(table) as host, hostile_in_front_of(host.address, breaking(change)) as proxy:
        ann = client(host, name="Ann")
        ann.port = proxy.address[1]
        updates: list[ClientUpdate] = []
        ann.subscribe(updates.append)
        await ann.start()  # the first frame passes; Bob's sitting down is told to Ann in a broken one
        bob = client(host, name="Bob")
        await bob.start()
        await ann.wait_for(lambda snap: proxy.connections >= 2 and ann.connected and snap.started, WAIT)
        await asyncio.gather(play_randomly(ann, random.Random(1)), play_randomly(bob, random.Random(2)))
        await close_all(ann, bob)
    assert lost_with(updates, words), [u.text for u in updates if u.kind == "disconnected"]
    assert "trying again" in lost_with(updates, words)[0]
    assert ann.snapshot.result is not None and ann.snapshot.fair is not None
    assert [u.kind for u in updates].count("stopped") == 1 and updates[-1].kind == "stopped"


async def test_a_final_record_whose_seats_are_a_number_is_refused_and_the_end_is_fetched_again():
    table = Table(TOY, {"players": 2}, name="Hostile table", seed=8)
    change = breaking(lambda m: {**m, "record": {**m["record"], "seats": 2}}, only_at_the_end=True)
    async with hosting(table) as host, hostile_in_front_of(host.address, change) as proxy:
        ann, bob = client(host, name="Ann"), client(host, name="Bob")
        ann.port = proxy.address[1]
        updates: list[ClientUpdate] = []
        ann.subscribe(updates.append)
        await ann.start()
        await bob.start()
        await asyncio.gather(play_randomly(ann, random.Random(3)), play_randomly(bob, random.Random(4)))
        await ann.wait_for(lambda snap: snap.record is not None and snap.fair is not None, WAIT)
        await close_all(ann, bob)
    assert lost_with(updates, "a record's 'seats' has the wrong type") or lost_with(updates, "'seats'"), \
        [u.text for u in updates if u.kind == "disconnected"]
    assert proxy.connections >= 2 and isinstance(ann.snapshot.record["seats"], list)


@pytest.mark.parametrize("heartbeat, words", [(-1, "heartbeat of -1 seconds"), (0, "heartbeat of 0 seconds"),
                                              (float("nan"), "heartbeat of nan"),
                                              (365 * 86400, "heartbeat of 31536000 seconds"),
                                              ("2", "'heartbeat' has the wrong type")])
async def test_a_welcome_whose_heartbeat_a_client_cannot_keep_is_refused_in_words(heartbeat, words):
    """The first connection is dropped by a broken frame; the second's welcome carries the heartbeat; the
    client refuses it (it never pings at it) and the third connection is let in."""
    broken_table = breaking(BROKEN_FRAMES["no started"][0])

    def mutate(message: dict[str, Any], connection: int) -> dict[str, Any]:
        if message["type"] == "welcome" and connection == 2:
            return {**message, "heartbeat": heartbeat}
        return broken_table(message, connection)
    table = Table(TOY, {"players": 2}, name="Hostile table", seed=9)
    async with hosting(table) as host, hostile_in_front_of(host.address, mutate) as proxy:
        ann = client(host, name="Ann")
        ann.port = proxy.address[1]
        updates: list[ClientUpdate] = []
        ann.subscribe(updates.append)
        await ann.start()
        bob = client(host, name="Bob")
        await bob.start()
        await ann.wait_for(lambda snap: proxy.connections >= 3 and ann.connected and snap.started, WAIT)
        await close_all(ann, bob)
    assert lost_with(updates, words), [u.text for u in updates if u.kind == "disconnected"]
    assert ann.heartbeat == host.settings.heartbeat


async def test_closing_does_not_wait_for_a_host_that_reads_nothing():
    table = Table(TOY, {"players": 2}, name="Deaf table", seed=10)
    async with hosting(table) as host, hostile_in_front_of(host.address, lambda m, c: m) as proxy:
        ann = client(host, name="Ann")
        ann.port = proxy.address[1]
        await ann.start()
        proxy.deaf = True
        assert ann._writer is not None
        ann._writer.write(b"\0" * (64 * 1024 * 1024))  # more than any socket buffer: it stays unsent
        await asyncio.wait_for(ann.close(), WAIT)  # (WAIT guards against the hang this test is about)
    assert ann.stopped == "left the table"


async def test_the_app_at_a_host_sending_broken_seats_says_so_and_plays_on(monkeypatch, tmp_path):
    monkeypatch.setenv("TURPIN_RECORDS_DIR", str(tmp_path / "records"))
    fixed = False
    broken = breaking(BROKEN_FRAMES["seats as plain numbers"][0])

    def mutate(message: dict[str, Any], connection: int) -> dict[str, Any]:
        # every connection breaks after its catch-up until the test has seen the words on the screen
        return message if fixed else broken(message, 1)
    game = all_games()["turpin"]
    table = Table(game, {"players": 2}, name="Hostile table", bots={1: "random"}, seed=3)
    async with hosting(table) as host, hostile_in_front_of(host.address, mutate) as proxy:
        app = TurpinApp(Start(route="join", address=f"127.0.0.1:{proxy.address[1]}"), player_name="Ann",
                        lan_interfaces=[], bell=False)
        async with app.run_test(size=(160, 50)) as pilot:
            await until(lambda: "Hostile table" in screen_text(app), "the table drawn", pilot=pilot)
            await until(lambda: "this program cannot read" in screen_text(app), "the words", pilot=pilot)
            shown = screen_text(app)
            fixed = True
            await until(lambda: "cannot read" not in screen_text(app) and proxy.connections >= 2,
                        "the table back", pilot=pilot)
            assert app.is_running and "Hostile table" in screen_text(app)
    assert "seat 1 that is not a map" in shown


@pytest.mark.parametrize("view", [{}, {"stop": "x", "route": 3}, {"stop": 4, "route": [], "northbound": True}])
async def test_the_app_at_a_host_sending_a_view_its_panes_cannot_draw_leaves_that_table_in_words(view, monkeypatch,
                                                                                                   tmp_path):
    """A game's view is the game's own: a host that sends one the panes cannot draw (a field missing, of
    another type) does not end the app with a traceback; the player is told and is back at the menu."""
    monkeypatch.setenv("TURPIN_RECORDS_DIR", str(tmp_path / "records"))
    broken = breaking(lambda m: {**m, "view": view})
    game = all_games()["turpin"]
    table = Table(game, {"players": 2}, name="Hostile table", bots={1: "random"}, seed=3)
    async with hosting(table) as host, hostile_in_front_of(host.address, broken) as proxy:
        app = TurpinApp(Start(route="join", address=f"127.0.0.1:{proxy.address[1]}"), player_name="Ann",
                        lan_interfaces=[], bell=False)
        async with app.run_test(size=(160, 50)) as pilot:
            await until(lambda: any("sent a game this program cannot draw" in notice.message
                                           for notice in app._notifications), "the words, in a notice", pilot=pilot)
            await until(lambda: app.client is None and "Hostile table" not in screen_text(app),
                        "the table left", pilot=pilot)
            await pilot.pause()
            assert app.is_running and "join" in screen_text(app)  # the menu's keys, where he can go on
