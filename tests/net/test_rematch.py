"""Rematch: "play again" keeps the seats or shuffles them, and the results show a running score
over the games played at that table, kept per person through a shuffle and in the record."""

from __future__ import annotations

import asyncio
import random

import pytest

from core.engine import visible_events
from net.record import RecordError, check_record
from net.table.match import Match, standing_sent
from net.table.table import Table
from tests.net_helpers import TOY, WAIT, client, close_all, hosting, play_randomly
from tests.tui_helpers import play_to_results, quick_app, screen_name, screen_text
from tests.waiting import until


def test_the_running_score_follows_each_person_through_a_shuffle():
    match = Match.new(3)
    match.finish({"winners": [0], "scores": [5, 2, 1]})
    order = match.shuffle(random.Random(1))
    assert order != [0, 1, 2] and sorted(order) == [0, 1, 2]
    # The second game: whoever now sits in seat 1 wins with 9.
    standing = match.standing({"winners": [1], "scores": [1, 9, 0]})
    person_in = {seat: match.people[seat] for seat in range(3)}
    first_game_scores = [5, 2, 1]
    for row in standing:
        person = person_in[row["seat"]]
        assert row["games"] == 2
        assert row["wins"] == (person == 0) + (row["seat"] == 1)
        assert row["points"] == first_game_scores[person] + [1, 9, 0][row["seat"]]


def test_a_shuffle_always_moves_someone():
    for seed in range(20):
        match = Match.new(2)
        assert match.shuffle(random.Random(seed)) == [1, 0]


def test_a_damaged_match_in_a_record_is_refused_in_words():
    table = Table(TOY, {"players": 2}, seed=1)
    record = table.record()
    check_record(record)
    for damaged in ({"people": [0, 0], "games": []}, {"people": [0, 1], "games": [{"people": [0, 1]}]},
                    {"people": [0, 1], "games": [{"people": [1, 0], "winners": [5], "scores": []}]}, "nope"):
        with pytest.raises(RecordError, match="'match'"):
            check_record({**record, "match": damaged})


def test_a_hosts_malformed_standing_is_not_shown():
    good = [{"seat": 0, "games": 2, "wins": 1, "points": 3.0}, {"seat": 1, "games": 2, "wins": 1, "points": 4}]
    assert standing_sent(good, 2) == good
    for bad in (good[:1], [{**good[0], "wins": 3}, good[1]], [{**good[0], "points": "\x1b[2J"}, good[1]],
                [good[1], good[0]], "x", None):
        assert standing_sent(bad, 2) is None


async def test_play_again_with_new_seats_moves_everyone_and_keeps_the_score(tmp_path):
    """At a LAN table: after a shuffle every player is welcomed to his new seat with his own token, sees
    only that seat's view, and the running score at the end counts both games by person; the record keeps
    the match, so a table rebuilt from it shows the same score."""
    from net.host import record_saver
    from net.record import read_record
    table = Table(TOY, {"players": 2}, seed=5)
    async with hosting(table) as host:
        frames: dict[int, list] = {0: [], 1: []}
        players = [client(host, name=name, frame_log=frames[seat]) for seat, name in enumerate(("Ann", "Bob"))]
        for player in players:
            await player.start()
        await asyncio.gather(*(play_randomly(player, random.Random(seat)) for seat, player in enumerate(players)))
        first = TOY.result(table.state)
        tokens = [player.token for player in players]
        await players[0].wait_for(lambda snap: snap.match is not None, WAIT)
        assert [row["games"] for row in players[0].snapshot.match] == [1, 1]

        second_path = tmp_path / "second.record"
        host.table.start_again(seed=8, save=record_saver(second_path), shuffle=True)
        for player in players:
            await player.wait_for(lambda snap: snap.result is None and snap.turn == 0, WAIT)
        assert [player.snapshot.seat for player in players] == [1, 0]
        assert [info.name for info in table.seats] == ["Bob", "Ann"]
        assert [info.token for info in table.seats] == tokens[::-1]
        assert [player.token for player in players] == tokens  # each keeps his own token
        for player in players:
            seat = player.snapshot.seat
            assert player.snapshot.view == TOY.view(table.state, seat)
            assert player.snapshot.log == visible_events(table.narrate(table.log), seat)
            assert player.snapshot.log[0]["text"] == "A new game begins at this table: new seats, a fresh deal."

        await asyncio.gather(*(play_randomly(player, random.Random(seat + 7)) for seat, player in enumerate(players)))
        second = TOY.result(table.state)
        await players[0].wait_for(lambda snap: snap.match is not None, WAIT)
        standing = players[0].snapshot.match
        # Ann sat in seat 0, then seat 1; Bob the other way round.
        ann_wins = (0 in first["winners"]) + (1 in second["winners"])
        ann_points = first["scores"][0] + second["scores"][1]
        assert standing[1] == {"seat": 1, "games": 2, "wins": ann_wins, "points": ann_points}
        record = read_record(second_path)
        assert record["match"]["people"] == [1, 0] and len(record["match"]["games"]) == 1
        rebuilt = Table.from_record(TOY, record)
        assert rebuilt.match.standing(TOY.result(rebuilt.state)) == standing
        await close_all(*players)


async def test_the_results_show_the_running_score_and_new_seats_moves_you():
    """In the app, against bots: "new seats" (s) deals again with Ann in another seat, her status line says
    where, and the second game's results show the games at this table."""
    app = quick_app("highwayman", players=2, series_games=1, routes=2, route_length=6)
    async with app.run_test(size=(120, 40)) as pilot:
        await play_to_results(pilot, app)
        await until(lambda: "Play again (new seats)" in screen_text(app), "the results", pilot=pilot)
        assert "At this table" not in screen_text(app)  # one game: its own scores say it all
        await pilot.press("s")
        await until(lambda: screen_name(app) == "TableScreen" and app.screen.frame.result is None
                    and app.screen.frame.view is not None, "the new game", pilot=pilot)
        assert app.screen.frame.seat == 1
        assert "you: Ann (seat 2)" in screen_text(app)
        await play_to_results(pilot, app)
        await until(lambda: "At this table, 2 games" in screen_text(app), "the running score", pilot=pilot)
