"""Replays: the records folder listed on the menu's Replays screen, and a recorded game stepped through
with the live table's panes, as a spectator saw it, to its results and full reveal."""

from __future__ import annotations

import os
import random

import pytest

from core.registry import get_game
from net import protocol
from net.record import RecordLog
from net.table import pipeline
from net.table.table import Table
from tests.net_helpers import play_one_bot
from tests.tui_helpers import flat, menu_app, record_a_game, region_text, screen_name, screen_text
from tests.waiting import until
from tui.replay import Replay, list_records, outcome_in_words
from tui.screens.replays import ReplaysScreen


def test_the_list_has_every_record_newest_first_and_passes_over_what_is_not_one(tmp_path):
    older = record_a_game(tmp_path / "first.turpin-record", seed=1)
    newer = record_a_game(tmp_path / "second.turpin-record", "highwayman", seed=2, moves=30)
    os.utime(tmp_path / "first.turpin-record", (1_700_000_000, 1_700_000_000))
    (tmp_path / "broken.turpin-record").write_bytes(b"not a record at all")
    record_a_game(tmp_path / "never-started.turpin-record", seed=4, moves=0)  # a lobby closed: nothing to see
    (tmp_path / "notes.txt").write_text("hello")
    found = list_records(tmp_path)
    assert [entry.path.name for entry in found] == ["second.turpin-record", "first.turpin-record"]
    assert found[0].title == "Highwayman" and found[0].actions == len(newer.actions) == 30
    assert found[1].players == ["Ann", "Bob", "Cat"] and found[1].actions == len(older.actions)
    assert outcome_in_words(found[0].path) == "unfinished"
    winners = [older.seats[seat].name for seat in older.narrated_result()["winners"]]
    assert outcome_in_words(found[1].path) == f"{' and '.join(winners)} won"


def test_a_game_left_before_its_player_made_a_move_is_not_listed(tmp_path):
    """A `turpin play` left at once, with only the bots' moves, is not in Replays as "unfinished"."""
    game = get_game("turpin")
    table = Table(game, {"players": 2}, bots={1: "random"}, seed=8, save=RecordLog(tmp_path / "left.turpin-record"))
    hello = {"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "role": "player", "name": "Ann"}
    table.join(lambda frame: None, hello)
    turn = table.bot_turn()
    assert turn is not None and table.play_bot_action(turn, random.Random(1).choice(game.legal_actions(
        turn.state, turn.seat)))
    table.save.close()
    assert len(table.actions) == 1 and table.actions[0][0] == 1
    record_a_game(tmp_path / "played.turpin-record", seed=2, moves=3)
    assert [entry.path.name for entry in list_records(tmp_path)] == ["played.turpin-record"]


def test_the_list_names_the_rival_when_he_wins_a_solo_game(tmp_path):
    """Y16: the rival has no seat, yet the list says he won, as the results screen does."""
    table = record_a_game(tmp_path / "solo.turpin-record", "money-or-life", seed=1, names=("Ann",))
    assert table.narrated_result()["winners"] == []  # a random highwayman does not beat him
    assert outcome_in_words(tmp_path / "solo.turpin-record") == "the rival won"


def test_each_step_of_a_replay_is_the_table_a_spectator_saw_then(tmp_path):
    """Frame by frame: the public view and the named log of a table rebuilt to that many actions, in
    any order of steps (back and forth), and the result with the full reveal only at the end (A1, A2)."""
    game = get_game("turpin")
    table = record_a_game(tmp_path / "game.turpin-record")
    replay = Replay(tmp_path / "game.turpin-record")
    assert replay.steps == len(table.actions)
    for step in (0, 5, replay.steps, 2, 7, 7, replay.steps - 1):
        frame = replay.frame(step)
        again = Table.from_record(game, {**table.record(), "actions": table.actions[:step]})
        assert frame.seat is None and frame.prompt is None
        assert frame.view == game.view(again.state, None)
        public = again.narrate([event for event in again.log if event["visible_to"] is None])
        assert [event["text"] for event in frame.log] == [event["text"] for event in public]
        secret = {event["text"] for event in again.narrate(again.log) if event["visible_to"] is not None}
        assert not secret & {event["text"] for event in frame.log}, "a seat's own news stays its own"
        if step >= 5:
            assert secret, "the game has private news by now (your card, your dice): the check means something"
        over = step == replay.steps
        assert (frame.result is not None) == over and (frame.record is not None) == over
    final = replay.frame(replay.steps)
    assert final.result == table.narrated_result() and final.result["reveal"]
    assert final.record["actions"] == table.actions and "host_token" not in final.record


async def test_from_the_menu_a_replay_steps_plays_and_ends_at_the_results(tmp_path):
    table = record_a_game(tmp_path / "game.turpin-record", seed=5)
    app = menu_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
        app.push_screen(ReplaysScreen(tmp_path))
        await until(lambda: "Ann, Bob, Cat" in screen_text(app), "the record listed", pilot=pilot)
        winner = table.seats[table.narrated_result()["winners"][0]].name
        await until(lambda: f"{winner} won" in screen_text(app), "who won, in the list", pilot=pilot)
        await pilot.press("enter")
        await until(lambda: screen_name(app) == "ReplayScreen", "the replay", pilot=pilot)
        replay_screen = app.screen
        await until(lambda: f"Move 0 of {len(table.actions)}" in screen_text(app), "the first move", pilot=pilot)
        await pilot.press("right", "right", "right")
        await until(lambda: f"Move 3 of {len(table.actions)}" in screen_text(app), "three moves on", pilot=pilot)
        await pilot.press("left")
        await until(lambda: replay_screen.step == 2, "one back", pilot=pilot)
        await pilot.press("end")
        await until(lambda: "game over" in screen_text(app), "the end of the game", pilot=pilot)
        await pilot.press("r")
        await until(lambda: screen_name(app) == "ResultsScreen" and winner in screen_text(app)
                    and "Everything that was hidden" in screen_text(app), "the results drawn", pilot=pilot)
        assert "Play again" not in screen_text(app)
        await pilot.press("escape")  # back to the replay, as t (not the menu: the replay kept)
        await until(lambda: screen_name(app) == "ReplayScreen", "back to the replay by Esc", pilot=pilot)
        await pilot.press("r")
        await until(lambda: screen_name(app) == "ResultsScreen", "the results again", pilot=pilot)
        await pilot.press("t")
        await until(lambda: screen_name(app) == "ReplayScreen", "back to the replay", pilot=pilot)
        await pilot.press("home", "space")
        await until(lambda: replay_screen.step >= 2, "the replay playing by itself", pilot=pilot)
        await pilot.press("space")
        await pilot.press("escape")
        await until(lambda: screen_name(app) == "ReplaysScreen", "the list again", pilot=pilot)
        await pilot.press("escape")
        await until(lambda: screen_name(app) == "MenuScreen", "the menu again", pilot=pilot)


async def test_the_replays_list_shows_who_won_at_80_columns(tmp_path):
    """Who won comes before who played, in view at 80×24 (not off screen behind the players' names)."""
    table = record_a_game(tmp_path / "game.turpin-record", seed=5)
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
        app.push_screen(ReplaysScreen(tmp_path))
        winner = table.seats[table.narrated_result()["winners"][0]].name
        await until(lambda: f"{winner} won" in screen_text(app), "who won, in view", pilot=pilot)


async def test_the_replays_show_names_literally_and_an_empty_folder_says_where_games_go(tmp_path):
    record_a_game(tmp_path / "game.turpin-record", names=("[@click=app.quit]x[/]", "Bob", "[b]Cat[/b]"))
    app = menu_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(ReplaysScreen(tmp_path))
        await until(lambda: "[@click=app.quit]x[/]" in screen_text(app), "the names as typed", pilot=pilot)
        await pilot.press("enter")
        await until(lambda: screen_name(app) == "ReplayScreen", "the replay", pilot=pilot)
        await pilot.press("end")
        await until(lambda: "[b]Cat[/b]" in flat(region_text(app, "#players")), "the players pane", pilot=pilot)
        assert app.is_running
        await pilot.press("escape", "escape")
        empty = tmp_path / "none"
        empty.mkdir()
        app.push_screen(ReplaysScreen(empty))
        await until(lambda: "No games recorded yet" in screen_text(app), "the empty list", pilot=pilot)


def test_a_dick_turpin_reveal_names_every_seats_cards_and_the_booty_in_words(tmp_path):
    """A2 on the results screen: laid cards seat by seat, face-down cards, the booty never turned."""
    from tui.screens.results import reveal_text
    table = record_a_game(tmp_path / "game.turpin-record", seed=9)
    frame = Replay(tmp_path / "game.turpin-record").frame(len(table.actions))
    reveal = frame.result["reveal"]
    words = reveal_text(reveal, frame).plain
    for seat, name in enumerate(("Ann", "Bob", "Cat")):
        assert f"{name}: {', '.join(reveal['piles'][seat])}" in words
    kinds = ("pistols", "1s", "2s", "3s", "4s")
    assert " · ".join(f"{kind} {count}" for kind, count in zip(kinds, reveal["booty_left"])) in words
    assert "None" not in words and "Face-down cards not turned up" in words


async def test_the_replays_list_names_bots_plainly_and_marks_what_it_cuts(tmp_path):
    """Bots are named without their level ("Claude Duval won", never "Claude Duval (normal b"), and
    whatever the columns cut ends in a mark (never "Hank, Joe, C")."""
    game = get_game("turpin")
    bots_only = Table(game, {"players": 2}, bots={0: "random", 1: "random"}, seed=4,
                      save=RecordLog(tmp_path / "bots.turpin-record"))
    while play_one_bot(bots_only):
        pass
    bots_only.save.close()
    words = outcome_in_words(tmp_path / "bots.turpin-record")
    assert words.endswith(" won") and "bot" not in words and "(" not in words, words
    record_a_game(tmp_path / "long.turpin-record", names=("Alexandra the Great", "Bartholomew Roberts",
                                                           "Cornelius Fudge"))
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
        app.push_screen(ReplaysScreen(tmp_path))
        await until(lambda: "Alexandra" in screen_text(app), "the list", pilot=pilot)
        row = next(line for line in screen_text(app).splitlines() if "Alexandra" in line)
        assert "…" in row, row


def test_a_long_reveal_line_wraps_under_its_own_first_letter():
    """"Coaches still in the pile, next first: …" goes on under its item's column 4, not at column 2."""
    from rich.console import Console
    from rich.text import Text

    from tui.screens.results import with_hanging_indents
    reveal = Text("Everything that was hidden\n  Ann: none\n    Coaches still in the pile, next first: A land "
                  "surveyor; The Bishop of York; The Earl of Ripon; A lawyer\n")
    console = Console(width=40, record=True, color_system=None)
    console.print(with_hanging_indents(reveal))
    lines = [line.rstrip() for line in console.export_text().splitlines()]
    start = lines.index("    Coaches still in the pile, next")
    assert lines[:2] == ["Everything that was hidden", "  Ann: none"]
    assert len(lines) > start + 2
    assert all(line.startswith("    ") and line[4] != " " for line in lines[start + 1:start + 3])


def record_a_game_against_a_bot(path, person_moves: int, finish: bool = False, keep_open: bool = False) -> Table:
    """A game of one person and a random bot, recorded as the app records its games against bots."""
    from tui.saved.unfinished import AGAINST_BOTS
    game = get_game("turpin")
    table = Table(game, {"players": 2}, bots={1: "random"}, seed=6, save=RecordLog(path))
    table.meta[AGAINST_BOTS] = True
    hello = {"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "role": "player", "name": "Ann"}
    person = table.join(lambda frame: None, hello)
    rng, moved = random.Random(2), 0
    while not table.over:
        turn = table.bot_turn()
        if turn is not None:
            table.play_bot_action(turn, rng.choice(game.legal_actions(turn.state, turn.seat)))
            continue
        if moved >= person_moves and not finish:
            break
        prompt = table.prompts[0]
        pipeline.act(table, person, rng.choice(prompt.legal), prompt.id)
        moved += 1
    if not keep_open:  # (kept open: the table is still being served, its record held)
        table.save.close()
    return table


def test_go_on_offers_the_newest_game_its_player_moved_in_and_never_a_stale_one(tmp_path):
    """A newer game left before the player's first move does not push aside the one he played; and an
    offer taken after its game was played to the end elsewhere does not write the old position over its
    record."""
    from tui.saved.unfinished import last_game_against_bots, unfinished_game_at
    played = tmp_path / "played.turpin-record"
    record_a_game_against_a_bot(played, person_moves=2)
    untouched = tmp_path / "untouched.turpin-record"
    record_a_game_against_a_bot(untouched, person_moves=0)
    os.utime(played, (1_700_000_000, 1_700_000_000))
    offer = last_game_against_bots(tmp_path)
    assert offer is not None and offer.path == played
    record_a_game_against_a_bot(played, person_moves=0, finish=True)  # played to its end in another window
    assert unfinished_game_at(offer.path) is None


async def test_a_game_open_in_another_window_is_named_not_offered_until_it_is_let_go(monkeypatch):
    """An SSH session whose drop the server has not noticed yet still holds the game: the new session's
    menu says where it is, and offers it (c) once the other lets it go (never two live copies of one game)."""
    from tui.saved.record_files import records_folder
    from tui.screens import menu
    monkeypatch.setattr(menu, "LOOK_AGAIN_AFTER", 0.2)
    folder = records_folder()
    folder.mkdir(parents=True)
    elsewhere = record_a_game_against_a_bot(folder / "held.turpin-record", person_moves=1, keep_open=True)
    app = menu_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await until(lambda: "is being played in another" in screen_text(app), "the word", pilot=pilot)
        assert "Go on with your game" not in screen_text(app)
        await pilot.press("c")
        assert screen_name(app) == "MenuScreen"
        elsewhere.save.close()
        await until(lambda: "Go on with your game" in screen_text(app), "the offer", pilot=pilot)


@pytest.mark.parametrize("size", [(100, 30), (120, 36)])
async def test_the_replays_list_keeps_every_column_in_view_at_100_and_120_columns(tmp_path, size):
    """Long names once pushed the moves and the table's name off the right edge. The players
    and the table's name now share what the other columns leave, cut with a mark."""
    table = record_a_game(tmp_path / "long.turpin-record", names=("Alexandra the Great", "Bartholomew Roberts",
                                                                  "Cornelius Fudge"))
    app = menu_app()
    async with app.run_test(size=size) as pilot:
        await until(lambda: screen_name(app) == "MenuScreen", "the menu", pilot=pilot)
        app.push_screen(ReplaysScreen(tmp_path))
        await until(lambda: "Alexandra" in screen_text(app), "the list", pilot=pilot)
        lines = screen_text(app).splitlines()
        header = next(line for line in lines if "Saved" in line)
        row = next(line for line in lines if "Alexandra" in line)
        assert header.split() == ["Saved", "Game", "Result", "Players", "Moves", "Table"], header
        assert f" {len(table.actions)} " in row and row.rstrip().endswith(("turpin table", "…")), row
        assert "…" in row  # the names were cut to make room, with a mark
