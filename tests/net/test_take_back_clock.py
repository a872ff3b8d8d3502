"""Take-back and the turn clock together. While a take-back question is open nothing moves
(people, a bot that was already thinking, the clock's stand-in) and every clock stands still; each goes on
from where it stood; a take-back undoes the move asked about or nothing; the question closes for everyone
with a line saying how; only a move ends a run of missed turns; a resumed table keeps who was away.

T5 (Dick Turpin: the town chosen while others still choose) is the move taken back throughout; the
rules of taking back are in docs/rules.md ("Taking back", by consent: the sheet is silent)."""

from __future__ import annotations

import pytest

from core.registry import get_game
from net import protocol
from net.refusals import Refusal
from net.table import pipeline
from net.table.clock import AWAY_AFTER
from net.table.table import Table
from tests.net_helpers import ManualClock

HELLO = {"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "role": "player"}
CLOCK = 60.0


def _table(players: int = 3, bots: dict[int, str] | None = None, clock: float = CLOCK):
    """A Dick Turpin table on a hand-driven clock, its people seated (Ann seat 1, Bob 2, …)."""
    now = ManualClock()
    table = Table(get_game("turpin"), {"players": players}, seed=11, clock=clock, now=now, bots=bots)
    people = [table.join(lambda frame: None, {**HELLO, "name": name})
              for name, seat in zip(("Ann", "Bob", "Cat"), range(players)) if seat not in (bots or {})]
    return table, now, people


def _choose(table: Table, watcher) -> None:
    """The seat's first choice of town (T5), by its player."""
    prompt = table.frames.prompt_for(watcher.seat)
    pipeline.act(table, watcher, prompt["choices"][0]["action"], prompt["id"])


def test_every_clock_stands_still_while_a_take_back_is_asked_and_goes_on_from_where_it_stood():
    table, now, (ann, bob, cat) = _table()
    _choose(table, ann)  # T5: Bob and Cat still choose, each on his own clock
    now.advance(10)
    before = table.turn_clock.seconds_left(3)
    assert before[1] == before[2] == CLOCK - 10
    table.take_backs.ask(ann)
    now.advance(CLOCK * 5)  # far past every deadline: the question is open, play waits
    assert table.stand_ins.run_clocks() == [] and table.turn_clock.seconds_left(3) == before
    assert table.turn_clock.missed == {} and not table.turn_clock.standing_in
    table.take_backs.answer(bob, False)
    assert table.turn_clock.seconds_left(3) == before  # resumed where it stood
    now.advance(CLOCK - 10)
    assert table.stand_ins.run_clocks() == [1, 2]


def test_a_granted_take_back_gives_the_asker_the_time_he_had_not_a_fresh_clock():
    table, now, (ann, bob, cat) = _table()
    now.advance(25)
    _choose(table, ann)
    table.take_backs.ask(ann)
    now.advance(20)
    table.take_backs.answer(bob, True)
    table.take_backs.answer(cat, True)
    assert table.actions == [] and table.turn_clock.seconds_left(3)[0] == CLOCK - 25
    assert table.turn_clock.seconds_left(3)[1] == CLOCK - 25  # Bob's clock went on from where it stood


def test_a_bot_still_thinking_when_the_question_came_does_not_move_and_the_take_back_undoes_the_asked_move():
    table, now, (ann, bob) = _table(bots={2: "normal"})
    thinking = table.bot_turn()  # the bot (seat 3) began to think before Ann's move
    assert thinking is not None and thinking.seat == 2
    decided = table.game.bots["normal"](thinking.state, thinking.seat, thinking.rng)
    _choose(table, ann)
    table.take_backs.ask(ann)
    assert table.stand_ins.next_bot() is None and table.bot_turn() is None
    assert not table.play_bot_action(thinking, decided)  # it comes back while the question is open
    assert [seat for seat, _ in table.actions] == [0]
    table.take_backs.answer(bob, True)
    assert table.actions == [] and table.taken_back[0]["seat"] == 0  # Ann's move, not the bot's
    assert not table.play_bot_action(thinking, decided)  # asked before the question: out of date
    again = table.bot_turn()
    assert again is not None and table.play_bot_action(again, decided)


def test_the_clocks_stand_in_does_not_move_while_the_question_is_open():
    table, now, (ann, bob, cat) = _table()
    _choose(table, ann)
    now.advance(CLOCK - 1)
    table.take_backs.ask(ann)
    now.advance(CLOCK)
    assert table.stand_ins.run_clocks() == [] and table.stand_ins.next_bot() is None  # no stand-in for Bob or Cat
    table.take_backs.answer(bob, False)
    assert table.stand_ins.run_clocks() == []  # a second still to go for each
    now.advance(1)
    assert table.stand_ins.run_clocks() == [1, 2]


def test_the_question_closes_for_everyone_with_a_line_saying_how():
    table, now, (ann, bob, cat) = _table()
    _choose(table, ann)
    table.take_backs.ask(ann)
    asked = table.frames.common_fields()["take_back"]
    assert asked == {"seat": 0, "waiting": [1, 2], "seconds": 30.0}
    now.advance(6)
    assert table.frames.common_fields()["take_back"]["seconds"] == 24.0  # "waiting for an answer, 0:24"
    table.take_backs.answer(cat, False)
    assert "take_back" not in table.frames.common_fields()
    assert table.log[-1]["take_back"] == "kept" and "keeps the move" in table.log[-1]["text"]
    with pytest.raises(Refusal):
        table.take_backs.answer(bob, True)  # decided: there is no question to answer


def test_only_a_move_ends_a_run_of_missed_turns_and_a_resumed_table_keeps_who_was_away():
    table, now, (ann, bob, cat) = _table()
    clock = table.turn_clock
    for _ in range(AWAY_AFTER):  # Bob lets his clock run out twice in a row (the stand-in's move between)
        clock.sync({1: table.prompts[1].id})
        now.advance(CLOCK)
        assert clock.run_out() == [1]
        clock.moved(1, by_player=False)
        table.prompts[1].id += 1
    assert clock.away == {1} and clock.missed[1] == AWAY_AFTER
    table.chat.say(bob, "back in a minute")  # chat is not being back
    assert clock.away == {1}
    resumed = Table.from_record(table.game, table.record())
    assert resumed.turn_clock.away == {1} and resumed.turn_clock.missed == {1: AWAY_AFTER}
    table.stand_ins.heard_from(bob)  # his app says he is at the keys: the seat is his, the run of misses goes on
    assert clock.away == set() and clock.missed[1] == AWAY_AFTER
    _choose(table, bob)  # a move of his own ends it
    assert 1 not in clock.missed


def test_the_seat_whose_time_ran_out_is_told_so_in_his_own_words():
    """"Your time ran out", not his name in the third person; the others read his name."""
    from core.engine import visible_events
    table, now, (ann, bob, cat) = _table()
    _choose(table, ann)
    now.advance(CLOCK)
    assert table.stand_ins.run_clocks() == [1, 2]
    bobs = [line for line in visible_events(table.log, 1) if line.get("clock") == "ran_out"]
    anns = [line["text"] for line in visible_events(table.log, 0) if line.get("clock") == "ran_out"]
    assert [line["text"] for line in bobs if line.get("told_privately") != 1][0].startswith("Your time ran out")
    assert anns and all(not text.startswith("Your") for text in anns)
