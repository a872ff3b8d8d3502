"""Undo with consent: a player may ask to take back his last move while nothing hidden has been
shown and no chance drawn since; the others are asked, bots agree, one "no" keeps it; the record keeps the
take-back, so resume, replays and the fair deal's check agree."""

from __future__ import annotations

import asyncio
import random

import pytest

from core.engine import clone
from core.registry import get_game
from net.refusals import Refusal
from net.table.table import Table
from tests.net_helpers import WAIT, client, close_all, hosting, play_randomly
from tests.tui_helpers import screen_name, screen_text
from tests.waiting import until
from tui.app import Start, TurpinApp


def _first(game, state, seat, do):
    return next(action for action in game.legal_actions(state, seat) if action.get("do") == do)


def _may(game, state, seat, action) -> bool:
    before = clone(state)
    game.apply(state, seat, action)
    return game.can_take_back(before, state, seat, action)


def test_t5_a_town_chosen_while_others_choose_may_be_taken_back_but_not_the_last_one():
    game = get_game("turpin")
    state = game.setup(game.resolve_options({"players": 3}), 4)
    choosers = game.pending(state)
    assert _may(game, state, choosers[0], _first(game, state, choosers[0], "choose"))
    assert _may(game, state, choosers[1], _first(game, state, choosers[1], "choose"))
    assert not _may(game, state, choosers[2], _first(game, state, choosers[2], "choose"))  # all shown now


def test_t6_drawing_a_booty_card_cannot_be_taken_back():
    game = get_game("turpin")
    state = game.setup(game.resolve_options({"players": 2}), 4)
    rng = random.Random(1)
    while not any(a.get("do") == "draw" for s in game.pending(state) for a in game.legal_actions(state, s)):
        seat = game.pending(state)[0]
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    seat = next(s for s in game.pending(state) if any(a.get("do") == "draw" for a in game.legal_actions(state, s)))
    assert not _may(game, state, seat, _first(game, state, seat, "draw"))


def test_y4_a_pick_may_be_taken_back_until_both_are_shown():
    game = get_game("money-or-life")
    state = game.setup(game.resolve_options({"players": 2}), 6)
    assert _may(game, state, 0, _first(game, state, 0, "pick"))
    assert not _may(game, state, 1, _first(game, state, 1, "pick"))  # the picks are shown together


def test_a1_a_card_laid_stays_laid_but_ending_the_turn_may_be_taken_back():
    """Highwayman: a card laid was hidden in the hand (A1): it cannot be taken back; ending the turn (or
    keeping the card drawn) shows nothing, and may be. Decided from the move alone, so the offer
    never tells the asker whether the next seat had a play (the same yes whether or not he drew by himself)."""
    game = get_game("highwayman")
    rng = random.Random(3)
    seen: dict[str, list[bool]] = {"play": [], "highwayman": [], "runner": [], "end": [], "keep": []}
    next_seat_drew: set[bool] = set()
    for seed in range(10):
        state = game.setup(game.resolve_options({"players": 2}), seed)
        while game.result(state) is None:
            seat = game.pending(state)[0]
            action = rng.choice(game.legal_actions(state, seat))
            pack = len(state["pack"])
            may = _may(game, state, seat, action)
            seen.setdefault(action["do"], []).append(may)
            if action["do"] in ("keep", "end") and game.result(state) is None:
                next_seat_drew.add(len(state["pack"]) < pack)
    assert not any(seen["play"] + seen["highwayman"] + seen["runner"])
    assert all(seen["end"] + seen["keep"]) and seen["end"] and seen["keep"]
    assert next_seat_drew == {True, False}


async def test_a_take_back_is_asked_of_the_others_and_one_no_keeps_the_move():
    game = get_game("turpin")
    table = Table(game, {"players": 2}, seed=11)
    async with hosting(table) as host:
        ann, bob = client(host, name="Ann"), client(host, name="Bob")
        for someone in (ann, bob):
            await someone.start()
        await ann.wait_for(lambda snap: snap.prompt is not None, WAIT)
        await ann.choose(0)
        await ann.wait_for(lambda snap: snap.may_take_back, WAIT)
        assert not bob.snapshot.may_take_back
        with pytest.raises(Refusal):
            table.take_backs.ask(next(w for w in table.watchers if w.seat == 1))  # not his move
        await ann.take_back()
        await bob.wait_for(lambda snap: snap.take_back is not None, WAIT)
        asked = bob.snapshot.take_back
        assert asked["seat"] == 0 and asked["waiting"] == [1] and 0 < asked["seconds"] <= 30
        await bob.answer_take_back(False)
        await ann.wait_for(lambda snap: snap.take_back is None and not snap.may_take_back, WAIT)
        assert len(table.actions) == 1 and table.taken_back == []
        assert any("keeps the move" in line["text"] for line in ann.snapshot.log)
        await close_all(ann, bob)


async def test_an_agreed_take_back_undoes_the_move_and_resume_replay_and_the_fair_deal_agree(tmp_path):
    from net.host import record_saver
    from net.record import read_record
    game = get_game("turpin")
    path = tmp_path / "t.record"
    table = Table(game, {"players": 2}, save=record_saver(path))
    async with hosting(table) as host:
        ann, bob = client(host, name="Ann"), client(host, name="Bob")
        for someone in (ann, bob):
            await someone.start()
        await ann.wait_for(lambda snap: snap.prompt is not None, WAIT)
        before = clone(table.state)
        await ann.choose(0)
        await ann.wait_for(lambda snap: snap.may_take_back, WAIT)
        await ann.take_back()
        await bob.wait_for(lambda snap: snap.take_back is not None, WAIT)
        await bob.answer_take_back(True)
        await ann.wait_for(lambda snap: snap.turn == 0 and snap.prompt is not None, WAIT)
        assert table.actions == [] and table.state == before
        assert table.taken_back[0]["seat"] == 0 and table.taken_back[0]["turn"] == 0
        assert any("took back their last move" in line["text"] for line in bob.snapshot.log)
        record = read_record(path)
        assert record["actions"] == [] and record["taken_back"] == table.taken_back
        assert Table.from_record(game, record).state == table.state
        await asyncio.gather(play_randomly(ann, random.Random(1)), play_randomly(bob, random.Random(2)))
        for someone in (ann, bob):
            await someone.wait_for(lambda snap: snap.fair is not None, WAIT)
            assert someone.snapshot.fair.words == "fair deal: verified", someone.snapshot.fair.problems
        await close_all(ann, bob)


async def test_only_the_people_are_asked_bots_agree():
    """Ann asks while Bob (a person) and a bot are at the table: only Bob is asked."""
    game = get_game("turpin")
    table = Table(game, {"players": 3}, seed=11, bots={2: "normal"})
    async with hosting(table) as host:
        ann, bob = client(host, name="Ann"), client(host, name="Bob")
        for someone in (ann, bob):
            await someone.start()
        await ann.wait_for(lambda snap: snap.prompt is not None, WAIT)
        await ann.choose(0)
        await ann.wait_for(lambda snap: snap.may_take_back, WAIT)
        await ann.take_back()
        await bob.wait_for(lambda snap: snap.take_back is not None, WAIT)
        assert bob.snapshot.take_back["waiting"] == [1] and bob.snapshot.take_back["seat"] == 0
        await bob.answer_take_back(True)
        await ann.wait_for(lambda snap: snap.take_back is None and not snap.may_take_back, WAIT)
        assert [seat for seat, _ in table.actions] == [2] and table.taken_back[0]["seat"] == 0
        await close_all(ann, bob)


async def test_the_app_asks_with_u_and_answers_the_others_question(monkeypatch, tmp_path):
    """Ann in the app: U asks (Bob agrees, her choice comes back); when Bob asks, she is asked and says no."""
    monkeypatch.setenv("TURPIN_SEATS_FILE", str(tmp_path / "seats.json"))
    monkeypatch.setenv("TURPIN_RECORDS_DIR", str(tmp_path / "records"))
    game = get_game("turpin")
    table = Table(game, {"players": 2}, seed=11)
    async with hosting(table) as host:
        app = TurpinApp(Start(route="join", address=f"127.0.0.1:{host.address[1]}"), player_name="Ann",
                        lan_interfaces=[], bell=False)
        bob = client(host, name="Bob")
        async with app.run_test(size=(120, 40)) as pilot:
            await until(lambda: screen_name(app) == "TableScreen" and app.screen.frame.view is not None,
                        "the table", pilot=pilot)
            await bob.start()
            await until(lambda: bool(app.screen.frame.choices), "Ann's choices", pilot=pilot)
            await pilot.pause(2 * app.NEW_QUESTION_GUARD)  # a key as a new question shows is not taken
            await pilot.press("1")
            await until(lambda: app.screen.check_action("take_back", ()) is True, "the key allowed", pilot=pilot)
            await pilot.press("U")
            await bob.wait_for(lambda snap: snap.take_back is not None, WAIT)
            await bob.answer_take_back(True)
            await until(lambda: table.actions == [] and bool(app.screen.frame.choices), "the choice back", pilot=pilot)
            await bob.choose(0)
            await bob.wait_for(lambda snap: snap.may_take_back, WAIT)
            await bob.take_back()
            await until(lambda: "Bob asks to take back their last move" in screen_text(app), "asked", pilot=pilot)
            await pilot.press("n")
            await until(lambda: table.take_backs.asked is None, "the answer")
            assert len(table.actions) == 1 and table.taken_back and len(table.taken_back) == 1
        await bob.close()


async def test_everyone_is_told_while_the_last_move_may_be_taken_back_and_no_longer_once_the_next_is_made():
    """``take_back_open`` goes to every seat (whether a move may be taken back is decided from the move
    alone, so nothing hidden is told), while ``may_take_back`` goes to the mover alone; the next move made
    closes the window for all."""
    game = get_game("turpin")
    table = Table(game, {"players": 2}, seed=11)
    async with hosting(table) as host:
        ann, bob = client(host, name="Ann"), client(host, name="Bob")
        for someone in (ann, bob):
            await someone.start()
        await ann.wait_for(lambda snap: snap.prompt is not None, WAIT)
        assert not bob.snapshot.take_back_open
        await ann.choose(0)
        await bob.wait_for(lambda snap: snap.take_back_open, WAIT)
        assert ann.snapshot.may_take_back and not bob.snapshot.may_take_back
        await bob.wait_for(lambda snap: snap.prompt is not None, WAIT)
        await bob.choose(0)
        await ann.wait_for(lambda snap: len(table.actions) == 2 and not snap.may_take_back, WAIT)
        await bob.wait_for(lambda snap: snap.turn == 2, WAIT)
        assert not table.take_backs.open() or table.actions[-1][0] == 1  # Bob's move, his window now
        await close_all(ann, bob)


def test_a_host_cannot_stretch_a_one_choice_beat_past_the_clients_own_grace():
    """``take_back_open`` is the host's word, so untrusted: only a true boolean turns it on, and what it
    turns on is the client's own grace (``MovePane.TAKE_BACK_GRACE``), never a length the host sends."""
    from net.client import TableSnapshot
    from tui.widgets.prompt import MovePane
    base = {"turn": 1, "started": True, "view": {}, "prompt": None, "seats": [], "result": None,
            "events": [], "catch_up": False}
    for sent, taken in ((True, True), ("yes", False), (1, False), (3600, False), ({"seconds": 3600}, False)):
        snapshot = TableSnapshot()
        snapshot.take_table({**base, "take_back_open": sent})
        assert snapshot.take_back_open is taken, sent
    assert MovePane.TAKE_BACK_GRACE == 4.0
