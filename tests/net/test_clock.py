"""The turn clock over real sockets: a silent seat's move is made by the normal bot when its time runs
out, everyone is told, a seat that keeps running out is played by a bot until its player acts again; and
the clock never runs for a bot's seat or after the game. Time is a ``ManualClock`` moved by the test."""

from __future__ import annotations

import asyncio
import contextlib
import io

import pytest

from core.engine import OptionError
from net.record import RecordError, check_record
from net.table.clock import AWAY_AFTER, TurnClock
from net.table.stand_ins import IDLE_AFTER
from net.table.table import Table
from tests.net_helpers import CLOCKED, TOY, WAIT, ManualClock, client, close_all, hosting
from tests.waiting import until
from tui.cli.text_client import play_text

CLOCK = 30.0


def _ran_out(snap, seat):
    return [line for line in snap.log if "time ran out" in line["text"] and line.get("seat") == seat]


async def _clocked_toy(clock, seed=7):
    table = Table(TOY, {"players": 2}, seed=seed, clock=CLOCK, now=clock)
    return table


async def test_a_silent_seat_is_moved_for_by_the_bot_when_its_time_runs_out_and_everyone_is_told():
    clock = ManualClock()
    table = await _clocked_toy(clock)
    async with hosting(table, CLOCKED) as host:
        ann, bob = client(host, name="Ann"), client(host, name="Bob")
        watcher = client(host, role="spectator")
        for someone in (ann, bob, watcher):
            await someone.start()
        await ann.wait_for(lambda snap: snap.prompt is not None, WAIT)
        # Both pick at once (a simultaneous phase): each pending seat has its own full clock
        assert [round(left) for left in ann.snapshot.clocks] == [CLOCK, CLOCK]
        await ann.choose(0)
        await watcher.wait_for(lambda snap: snap.turn == 1, WAIT)
        assert watcher.snapshot.clocks[0] is None and watcher.snapshot.clocks[1] == CLOCK
        assert bob.snapshot.prompt is not None and bob.snapshot.seconds_left(1) is not None
        clock.advance(CLOCK - 1)
        assert table.stand_ins.run_clocks() == []  # a second still to go
        clock.advance(1)
        for someone in (ann, bob, watcher):  # the log says so, in every view, with his name
            await someone.wait_for(lambda snap: _ran_out(snap, 1) and snap.turn >= 2, WAIT)
            told = [line["text"] for line in _ran_out(someone.snapshot, 1)]
            assert told and told[0].startswith("Bob") and "bot makes this move for them" in told[0]
        assert table.actions[1][0] == 1  # the bot's move was his seat's
        assert 1 not in table.turn_clock.away  # one missed turn: he plays on
        await close_all(ann, bob, watcher)


async def test_a_seat_that_runs_out_turn_after_turn_is_played_by_a_bot_until_its_player_is_back():
    clock = ManualClock()
    table = await _clocked_toy(clock)
    async with hosting(table, CLOCKED) as host:
        ann, bob = client(host, name="Ann"), client(host, name="Bob")
        for someone in (ann, bob):
            await someone.start()
        while 1 not in table.turn_clock.away:
            await ann.wait_for(lambda snap: snap.prompt is not None or 0 not in table.game.pending(table.state),
                               WAIT)
            if ann.snapshot.prompt is not None and 0 in table.game.pending(table.state):
                prompt = ann.snapshot.prompt["id"]
                await ann.choose(0)
                await ann.wait_for(lambda snap: snap.prompt is None or snap.prompt["id"] != prompt, WAIT)
                continue
            missed = len(_ran_out(ann.snapshot, 1))
            clock.advance(CLOCK)
            await ann.wait_for(lambda snap: len(_ran_out(snap, 1)) > missed, WAIT)
        await bob.wait_for(lambda snap: snap.away == [1], WAIT)
        assert len(_ran_out(bob.snapshot, 1)) == AWAY_AFTER
        assert any("counts as away" in line["text"] for line in bob.snapshot.log)
        # While he is away the bot plays his turns at once, no clock needed; his clock shows none
        await until(lambda: 1 not in table.game.pending(table.state) or table.over, "the bot playing Bob")
        assert bob.snapshot.clocks[1] is None
        heard = len(bob.take_unheard())
        await bob.say("sorry, back now")  # chat is not being back: the bot goes on playing
        await bob.wait_for(lambda snap: any(line.get("text") == "sorry, back now" for line in snap.chat), WAIT)
        assert 1 in table.turn_clock.away
        await bob.here()  # his app: a key pressed at the table
        await bob.wait_for(lambda snap: snap.away == [], WAIT)
        notices = [update.text for update in bob.take_unheard()[heard:] if update.kind == "notice"]
        assert any(text.startswith("You are back") for text in notices)
        assert any("Bob is back" in line["text"] for line in ann.snapshot.log)
        # Back, but his run of missed turns ends only with a move of his own: a griefer who says "here"
        # every turn cannot use up the whole clock turn after turn
        assert 1 not in table.turn_clock.away and table.turn_clock.missed.get(1) == AWAY_AFTER
        await close_all(ann, bob)


def test_no_clock_is_the_default_and_a_table_clock_is_kept_in_the_record():
    table = Table(TOY, {"players": 2})
    assert not table.turn_clock.on and table.record()["clock"] == 0
    clocked = Table(TOY, {"players": 2}, clock=45)
    record = clocked.record()
    assert record["clock"] == 45
    assert Table.from_record(TOY, record).turn_clock.seconds == 45
    for bad in (-1, True, "30", float("inf"), 5):  # under 10 s nobody can answer in time
        with pytest.raises(RecordError, match="'clock'"):
            check_record({**record, "clock": bad})
        with pytest.raises(OptionError):
            Table(TOY, {"players": 2}, clock=bad)


def test_a_new_prompt_gets_a_full_clock_and_a_seat_counts_as_away_after_two_missed_turns_in_a_row():
    clock = ManualClock()
    turns = TurnClock(10, clock)
    turns.sync({0: 1, 1: 1})
    clock.advance(4)
    turns.sync({0: 2, 1: 1})  # seat 0 has a new question; seat 1 still the old one
    assert turns.seconds_left(2) == [10.0, 6.0]
    clock.advance(6)
    assert turns.run_out() == [1] and turns.run_out() == []  # once per prompt
    turns.moved(1, by_player=False)
    turns.sync({0: 2, 1: 2})
    clock.advance(4)
    turns.moved(0, by_player=True)
    turns.sync({1: 2})
    clock.advance(6)
    assert turns.run_out() == [1] and turns.away == {1}
    assert turns.back(1) and turns.away == set() and not turns.back(1)


async def test_the_clock_never_runs_for_a_bots_seat_nor_after_the_game():
    clock = ManualClock()
    table = Table(TOY, {"players": 2}, seed=11, clock=CLOCK, now=clock, bots={1: "random"})
    async with hosting(table, CLOCKED) as host:
        ann = client(host, name="Ann")
        await ann.start()
        frames: list[list[float | None] | None] = []

        def seen(snap) -> bool:
            frames.append(list(snap.clocks) if snap.clocks is not None else None)
            return snap.result is not None or snap.prompt is not None

        while ann.snapshot.result is None:
            await ann.wait_for(seen, WAIT)
            snap = ann.snapshot
            if snap.result is None and snap.prompt is not None:
                clock.advance(CLOCK - 1)  # she thinks long, never too long: the table's time moves on
                prompt = snap.prompt["id"]
                await ann.choose(0)
                await ann.wait_for(lambda s: seen(s) and (s.result is not None or s.prompt is None
                                                          or s.prompt["id"] != prompt), WAIT)
        clocked = [f for f in frames if f is not None]
        assert clocked and all(f[1] is None for f in clocked)  # the bot's seat never shows a clock
        assert any(f[0] is not None for f in clocked)  # while hers did
        assert not [line for line in ann.snapshot.log if "time ran out" in line["text"]]
        assert table.over and all(left is None for left in ann.snapshot.clocks or [])
        lines = len(table.log)
        clock.advance(CLOCK * 10)  # after the game no clock runs: nobody is moved for or made away
        assert table.stand_ins.run_clocks() == [] and table.turn_clock.away == set()
        assert len(table.log) == lines
        await ann.close()


async def test_the_host_hands_an_idle_connected_seat_to_a_bot_and_its_player_takes_it_back_by_acting():
    clock = ManualClock()
    table = Table(TOY, {"players": 2}, seed=7, clock=0, now=clock)
    async with hosting(table, CLOCKED) as host:
        ann, bob = client(host, name="Ann"), client(host, name="Bob")
        for someone in (ann, bob):
            await someone.start()
        await bob.wait_for(lambda snap: snap.prompt is not None, WAIT)
        heard = len(bob.take_unheard())
        await ann.hand_over(1, table.host_token, until_back=True)  # (Ann is the host here: she has the token)
        await ann.wait_for(lambda snap: any("lets a bot play Bob" in line["text"] for line in snap.log), WAIT)
        await bob.wait_for(lambda snap: any("lets a bot play Bob" in line["text"] for line in snap.log), WAIT)
        assert table.seats[1].kind == "player" and bob.snapshot.seat == 1  # he keeps his seat and connection
        notices = [u.text for u in bob.take_unheard()[heard:] if u.kind == "notice"]
        assert any("let a bot play your seat" in text for text in notices)
        # The bot plays his seat now: his pending choice is made without him
        await until(lambda: 1 not in table.game.pending(table.state) or table.over, "the bot playing Bob's seat")
        await bob.here()  # a key pressed at the table: the seat is his again
        await ann.wait_for(lambda snap: any("Bob is back" in line["text"] for line in snap.log), WAIT)
        assert 1 not in table.turn_clock.away
        await close_all(ann, bob)


def test_an_idle_hand_over_is_only_for_a_players_seat_and_only_before_the_end():
    table = Table(TOY, {"players": 2}, seed=7, bots={1: "random"})
    table.stand_ins.set_away(1)  # a bot's seat: nothing to hand over
    table.stand_ins.set_away(5)  # no such seat
    assert table.turn_clock.away == set()


async def test_the_text_client_prints_the_clocks_log_lines():
    clock = ManualClock()
    table = await _clocked_toy(clock)
    async with hosting(table, CLOCKED) as host:
        ann, bob = client(host, name="Ann"), client(host, name="Bob")
        for someone in (ann, bob):
            await someone.start()
        out = io.StringIO()
        text_client = asyncio.ensure_future(play_text(client(host, role="spectator"), out))
        await ann.wait_for(lambda snap: snap.prompt is not None, WAIT)
        await ann.choose(0)
        await until(lambda: table.turn >= 1, "Ann's move")
        clock.advance(CLOCK)  # Bob says nothing
        await until(lambda: "time ran out" in out.getvalue(),
                    "the text client's line")
        text_client.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await text_client
        assert "bot makes this move for them" in out.getvalue()
        await close_all(ann, bob)


async def test_the_host_says_who_keeps_the_table_waiting_and_stops_once_they_move():
    """A connected player the game has waited for IDLE_AFTER seconds is named idle in everyone's frame
    (the host's screen offers a bot for him); his move ends it. The table's time, not a screen's, decides."""
    clock = ManualClock()
    table = Table(TOY, {"players": 2}, seed=7, now=clock)  # no turn clock: idle is not the clock running out
    async with hosting(table, CLOCKED) as host:
        ann, bob = client(host, name="Ann"), client(host, name="Bob")
        watcher = client(host, role="spectator")
        for someone in (ann, bob, watcher):
            await someone.start()
        await ann.wait_for(lambda snap: snap.prompt is not None, WAIT)
        await ann.choose(0)
        await watcher.wait_for(lambda snap: snap.turn == 1, WAIT)
        clock.advance(IDLE_AFTER - 1)
        assert "idle" not in table.frames.common_fields()  # a second still to go
        clock.advance(1)
        for someone in (ann, watcher):
            await someone.wait_for(lambda snap: snap.idle == [1], WAIT)
        await bob.choose(0)
        await watcher.wait_for(lambda snap: snap.turn == 2 and snap.idle == [], WAIT)
        await close_all(ann, bob, watcher)
