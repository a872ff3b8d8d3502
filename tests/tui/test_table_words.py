"""The table screen's own words (tui/table_words.py): seats filling, people sitting down or coming back,
who said a chat line, and why the table is gone for this window."""

from __future__ import annotations

from tui.frame import TableFrame
from tui.table_words import chat_sender, seat_news, seats_filling, stop_in_words


def seat(number: int, kind: str, name: str = "", connected: bool = True) -> dict:
    return {"seat": number, "kind": kind, "name": name, "connected": connected}


def test_seats_filling_counts_the_taken_seats():
    frame = TableFrame(seats=[seat(0, "player", "Ann"), seat(1, "open"), seat(2, "bot", "Tom King")])
    assert seats_filling(frame) == "Waiting for players: 2 of 3 seats taken"


def test_seat_news_tells_who_sat_down_or_came_back_and_leaves_bots_taking_over_to_the_host():
    before = [seat(0, "open"), seat(1, "bot", "Tom King"), seat(2, "player", "Cat", connected=False),
              seat(3, "player", "Dan")]
    now = [seat(0, "player", "Ann"), seat(1, "player", "Bob"), seat(2, "player", "Cat"),
           seat(3, "bot", "Swift Nick")]
    assert seat_news(before, now) == ["Ann sits down in seat 1", "Bob is back in seat 2; the bot steps aside",
                                      "Cat is back"]
    assert seat_news([], now) == [] and seat_news(before[:2], now) == []


def test_a_chat_line_names_a_spectator_as_one_and_two_people_of_one_name_by_their_seats():
    frame = TableFrame(seats=[seat(0, "player", "Ann"), seat(1, "player", "Ann"), seat(2, "player", "Cat")])
    assert chat_sender({"from": "Sam", "seat": None}, frame) == "Sam (spectator)"
    assert chat_sender({"from": "Ann", "seat": 1}, frame) == "Ann (seat 2)"
    assert chat_sender({"from": "Cat", "seat": 2}, frame) == "Cat"
    assert chat_sender({"seat": 7}, frame) == "someone"


def test_out_of_a_game_that_plays_on_is_said_apart_from_a_table_gone():
    assert "s watches it" in stop_in_words("the host gave your seat to a bot", seat_lost=True)
    assert stop_in_words("the host closed the table", seat_lost=False).startswith("The table is gone")
