"""The log a player reads names the players: "Ann robs 2 passengers", not "Seat 1 robs 2 passengers".

The engines write every seat as ``seat_name`` does ("Seat N"); the table swaps in the names of whoever
sits there as the events go out (``Table.narrate``), for every connection, in every frame. Also here:
T12's "the log is the table's memory", seen by a spectator who arrives late.
"""

from __future__ import annotations

import random

from core.engine import SEAT_IN_TEXT, name_seats, visible_events
from core.registry import get_game
from net import protocol
from net.table import pipeline
from net.table.seating import seat_labels
from net.table.table import Table
from tests.net_helpers import play_one_bot

TURPIN = get_game("turpin")


def hello(role: str = "player", name: str | None = None, seat: int | None = None) -> dict:
    message = {"protocol": protocol.PROTOCOL_VERSION, "role": role}
    if name is not None:
        message["name"] = name
    if seat is not None:
        message["seat"] = seat
    return message


def tables(sent: list[bytes]) -> list[dict]:
    frames = (protocol.decode_body(raw[4:]) for raw in sent)  # after the length
    return [frame for frame in frames if frame["type"] == "table"]


def log_of(sent: list[bytes]) -> list[str]:
    """The log as the connection's client keeps it: a catch-up replaces it, an update adds to it."""
    log: list[str] = []
    for frame in tables(sent):
        texts = [event["text"] for event in frame["events"]]
        log = texts if frame["catch_up"] else log + texts
    return log


def play_out(table: Table, watchers: dict, rng: random.Random, until=lambda table: table.over) -> None:
    """People choose at random through the pipeline's ``act``; bots play as the host plays them."""
    while not until(table):
        if play_one_bot(table):
            continue
        seat = table.game.pending(table.state)[0]
        prompt = table.frames.prompt_for(seat)
        choice = rng.choice(prompt["choices"])
        pipeline.act(table, watchers[seat], choice["action"], prompt["id"])


def test_the_name_of_whoever_sits_there_replaces_seat_n_in_the_log_and_the_result():
    """Events reach each connection with the players' names ("Ann", the bot's name), never
    "Seat N"; the result's summary too; the log kept by the table stays in the engine's words."""
    table = Table(TURPIN, {"players": 3}, seed=7, bots={2: "random"})
    sent_ann, sent_bob, sent_spectator = [], [], []
    watchers = {0: table.join(sent_ann.append, hello(name="Ann")),
                1: table.join(sent_bob.append, hello(name="Bob"))}
    table.join(sent_spectator.append, hello("spectator"))
    bot_name = table.seats[2].name_in_the_log
    assert table.seats[2].name == f"{bot_name} (random bot)"  # the level is said in the players' list
    play_out(table, watchers, random.Random(3))
    for sent in (sent_ann, sent_bob, sent_spectator):
        log = log_of(sent)
        assert log and not any(SEAT_IN_TEXT.search(text) for text in log), [t for t in log if "Seat" in t][:3]
        assert any(text.startswith("Ann ") or " Ann " in text for text in log)
        assert any(bot_name in text for text in log)
        assert "drives" in log[0] and "Ann drives" in log[0]
        result = tables(sent)[-1]["result"]
        assert result["summary"] == name_seats(TURPIN.result(table.state)["summary"], ["Ann", "Bob", bot_name])
        assert not SEAT_IN_TEXT.search(result["summary"])
    assert any(SEAT_IN_TEXT.search(event["text"]) for event in table.log)  # the engine's words, kept
    # A seat's own secret line reaches him in names too, and nobody else.
    assert "You will lie in wait at" in " ".join(log_of(sent_ann))


def test_seat_labels_are_names_that_can_only_mean_that_seat():
    """A name is used as it is when it can mean only that seat; otherwise the seat is added: two seats
    of one name, a name that reads as another seat, a name that reads as someone else; an open seat stays
    "Seat N"."""
    assert seat_labels(["Ann", "Bob", ""]) == ["Ann", "Bob", "Seat 3"]
    assert seat_labels(["Ann", "ann"]) == ["Ann (seat 1)", "ann (seat 2)"]
    assert seat_labels(["Seat 2", "Bob"]) == ["Seat 2 (seat 1)", "Bob"]
    assert seat_labels(["Player 1", "Player 2", "player 1"]) == ["Player 1 (seat 1)", "Player 2",
                                                                 "player 1 (seat 3)"]
    assert seat_labels(["You", "Bob"]) == ["You (seat 1)", "Bob"]


def test_name_seats_replaces_each_seat_once_and_leaves_other_words():
    """``name_seats`` reads back what ``seat_name`` wrote, in one pass: a name that reads "Seat 2" is
    not replaced again; seats past the names and words like "seats" are left alone."""
    assert name_seats("Seat 1 pays Seat 2; Seat 3 waits.", ["Seat 2 (seat 1)", "Bob"]) == \
        "Seat 2 (seat 1) pays Bob; Seat 3 waits."
    assert name_seats("Seats 1 and 2; Seat 10", ["Ann", "Bob"]) == "Seats 1 and 2; Seat 10"


def test_T12_the_log_keeps_revealed_towns_for_a_spectator_who_comes_late():
    """T12: a revealed town stays in the log after another card covers it: a spectator who arrives
    after two journeys reads the first journey's towns in his catch-up, though the piles show only the
    second's."""
    table = Table(TURPIN, {"players": 2}, seed=11)
    watchers = {0: table.join([].append, hello(name="Ann")), 1: table.join([].append, hello(name="Bob"))}
    play_out(table, watchers, random.Random(1), until=lambda table: table.state["journeys_played"] >= 2)
    first_journey = [e["text"] for e in visible_events(table.log, None)]
    first_journey = first_journey[:next(i for i, text in enumerate(first_journey) if "journey 2" in text)]
    revealed = [text for text in first_journey if "Stand and deliver" in text or "shows" in text]
    assert revealed, first_journey
    sent: list[bytes] = []
    table.join(sent.append, hello("spectator"))
    catch_up = tables(sent)[0]
    assert catch_up["catch_up"]
    caught_up = [event["text"] for event in catch_up["events"]]
    for text in revealed:
        assert name_seats(text, ["Ann", "Bob"]) in caught_up
    tops = catch_up["view"]["pile_tops"]
    assert catch_up["view"]["pile_sizes"] == [2, 2] and catch_up["view"]["piles"] is None
    assert any(town not in tops for town in (text.split(":")[0] for text in revealed if ":" in text))
    assert "log is the table's memory" in " ".join(TURPIN.rules_text.split())


def test_every_game_names_seats_in_its_events_only_as_seat_n():
    """The contract ``Table.narrate`` relies on: in every registered game's events and summary, a seat is
    written only as ``seat_name`` writes it, so each one reaches the reader as a name (no "seat 2",
    "player 2" or "Seat2" slipping through unnamed)."""
    import re

    from core.registry import all_games
    from core.simulate import play_bot_game

    other_seat_words = re.compile(r"(?i)\b(?:seat|player)\s*#?\s*\d")
    for game in all_games().values():
        options = game.resolve_options(None)
        seats = game.seats(options)
        for seed in range(4):
            texts: list[str] = []
            played = play_bot_game(game, options, seed, ["random"] * seats,
                                   on_action=lambda state, seat, action, events: texts.extend(
                                       e["text"] for e in events),
                                   on_deal=lambda state, events: texts.extend(e["text"] for e in events))
            texts.append(game.result(played.state)["summary"])
            for text in texts:
                assert not other_seat_words.search(SEAT_IN_TEXT.sub("", text)), (game.id, text)
