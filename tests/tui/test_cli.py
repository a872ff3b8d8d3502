"""The turpin command as a user runs it: a real process, its printed output and exit code."""

import json
import pathlib
import subprocess
import sys

import pytest

from core.registry import all_games

ROOT = pathlib.Path(__file__).resolve().parents[2]
GAME_IDS = sorted(all_games())


def turpin(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tui.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def test_help_lists_every_command():
    out = turpin("--help")
    assert out.returncode == 0
    for command in ("simulate", "rules", "watch", "host", "join", "tables"):
        assert command in out.stdout


@pytest.mark.parametrize("game", GAME_IDS)
def test_simulate_json_counts_every_game_and_seat(game):
    out = turpin("simulate", "--game", game, "--games", "40", "--seed", "7", "--json")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["games"] == 40 and summary["seed"] == 7
    seats = summary["seats"]
    assert [row["bot"] for row in seats][0] == "normal"
    assert sum(row["wins"] for row in seats) >= 40 * (game != "money-or-life")


@pytest.mark.parametrize("game", GAME_IDS)
def test_simulate_is_repeatable_for_a_seed(game):
    first = turpin("simulate", "--game", game, "--games", "15", "--seed", "3", "--json")
    second = turpin("simulate", "--game", game, "--games", "15", "--seed", "3", "--json")
    assert first.stdout == second.stdout


def test_simulate_table_for_turpin_shows_seats_bots_and_figures():
    out = turpin("simulate", "--game", "turpin", "--players", "4", "--games", "30", "--seed", "7",
                 "--bots", "normal,easy,random,random")
    assert out.returncode == 0, out.stderr
    for words in ("seat", "normal", "easy", "random", "win %", "mean score", "duels", "pistols", "journeys"):
        assert words in out.stdout


def test_simulate_takes_the_old_name_sharp_and_shows_normal():
    """``sharp`` was the normal bot's name: old commands still work, and say what it is called now."""
    old = turpin("simulate", "--game", "turpin", "--players", "2", "--games", "5", "--seed", "7",
                 "--bots", "sharp,random", "--json")
    new = turpin("simulate", "--game", "turpin", "--players", "2", "--games", "5", "--seed", "7",
                 "--bots", "normal,random", "--json")
    assert old.returncode == 0, old.stderr
    assert old.stdout == new.stdout and json.loads(old.stdout)["seats"][0]["bot"] == "normal"


def test_simulate_refuses_bad_options_in_words():
    out = turpin("simulate", "--game", "turpin", "--players", "6", "--games", "1")
    assert out.returncode == 2
    assert "players" in out.stderr and "Traceback" not in out.stderr
    out = turpin("simulate", "--game", "turpin", "--players", "4", "--bots", "sharp,random")
    assert out.returncode == 2 and "seats" in out.stderr
    for games in ("0", "-5"):  # refused before any output, not half a table
        out = turpin("simulate", "--games", games)
        assert out.returncode == 2 and "--games is 1 or more" in out.stderr and out.stdout == ""


def test_play_help_names_the_default_bot():
    out = turpin("play", "--help")
    assert out.returncode == 0 and "(default: normal)" in " ".join(out.stdout.split())


@pytest.mark.parametrize("game", GAME_IDS)
def test_rules_prints_our_summary_and_the_options(game):
    out = turpin("rules", game)
    assert out.returncode == 0
    assert "Table options" in out.stdout and "players" in out.stdout


@pytest.mark.parametrize("game", GAME_IDS)
def test_T2_H1_rules_option_ranges_say_what_is_allowed(game):
    """``turpin rules``: every printed range is what the table accepts: both ends are allowed (with the
    other options at their defaults) and one past either end is refused. The booty deck's 0 pistols was
    printed as allowed and refused (T2)."""
    import re

    from core.engine import OptionError

    engine = all_games()[game]
    out = turpin("rules", game)
    ranges = re.findall(r"^  (\w+) \((\d+)-(\d+)\), default", out.stdout, re.M)
    assert ranges
    for name, low, high in ranges:
        for value in (int(low), int(high)):
            engine.resolve_options({name: value})
        for value in (int(low) - 1, int(high) + 1):
            with pytest.raises(OptionError):
                engine.resolve_options({name: value})


def test_watch_narrates_a_whole_game_and_its_end():
    out = turpin("watch", "--game", "turpin", "--seed", "11")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) > 10 and "seed 11" in lines[-1]


def test_watch_into_a_reader_that_stops_early_ends_quietly():
    """``turpin watch | head -1``: the pipe closes after one line; no traceback, no error."""
    process = subprocess.Popen([sys.executable, "-m", "tui.cli", "watch", "--game", "highwayman", "--seed", "2"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout.readline()
    process.stdout.close()
    _, errors = process.communicate(timeout=120)
    assert process.returncode == 0
    assert b"Traceback" not in errors and b"BrokenPipe" not in errors, errors.decode()


@pytest.mark.parametrize("game", GAME_IDS)
def test_watch_prints_the_final_summary_once(game):
    """The game's last event is its summary; ``watch`` used to print it a second time."""
    engine = all_games()[game]
    out = turpin("watch", "--game", game, "--seed", "5")
    assert out.returncode == 0, out.stderr
    from core.simulate import play_bot_game

    options = engine.resolve_options(None)
    bots = ["normal"] + ["random"] * (engine.seats(options) - 1)
    summary = engine.result(play_bot_game(engine, options, 5, bots).state)["summary"]
    assert out.stdout.count(summary) == 1
    assert out.stdout.splitlines()[-2] == summary and "seed 5" in out.stdout.splitlines()[-1]


@pytest.mark.parametrize("game", GAME_IDS)
def test_watch_starts_with_the_deal_before_the_first_move(game):
    """The narration begins with the game's public opening events, before anything a bot did."""
    from core.engine import visible_events

    engine = all_games()[game]
    out = turpin("watch", "--game", game, "--seed", "3")
    assert out.returncode == 0, out.stderr
    state = engine.new_game(None, 3)
    opening = [e["text"] for e in visible_events(engine.opening_events(state), None)]
    assert opening and out.stdout.splitlines()[1:1 + len(opening)] == opening


def test_table_options_typed_as_text_are_checked_in_words():
    out = turpin("simulate", "--game", "turpin", "--games", "1", "--option", "rounds")
    assert out.returncode == 2 and "name=value" in out.stderr
    out = turpin("simulate", "--game", "turpin", "--games", "1", "--option", "rounds=lots")
    assert out.returncode == 2 and "rounds" in out.stderr and "whole number" in out.stderr
    # A whole number out of range says the range, not "must be a whole number, not '9'".
    out = turpin("simulate", "--game", "turpin", "--games", "1", "--option", "rounds=9")
    assert out.returncode == 2 and "must be from 1 to 3, not 9" in out.stderr and "whole number" not in out.stderr
    out = turpin("simulate", "--game", "turpin", "--games", "2", "--option", "rounds=2", "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["options"]["rounds"] == 2


def test_resuming_in_the_table_window_says_how_to_resume_instead_of_starting_a_new_table(tmp_path):
    """`turpin host --resume FILE` without --headless opened a fresh table and left the record alone; it
    now says the command that resumes it, and how its players sit again."""
    done = turpin("host", "--resume", str(tmp_path / "game.turpin-record"))
    assert done.returncode == 2
    assert "turpin host --headless --resume" in done.stderr and "turpin join 127.0.0.1:PORT" in done.stderr


def test_rules_wrap_to_the_terminal_width():
    """`turpin rules` wraps to the terminal's width (at most 100), not at the source's 105 columns; the
    market's price table is printed as it is."""
    import os
    narrow = subprocess.run([sys.executable, "-m", "tui.cli", "rules", "money-or-life"], cwd=ROOT,
                            capture_output=True, text=True, timeout=300, env={**os.environ, "COLUMNS": "60"})
    lines = narrow.stdout.splitlines()
    prose = [line for line in lines if line and not line[0].isspace()]
    assert max(len(line) for line in prose) <= 60 and any(len(line) > 50 for line in prose)
    assert any("retired pit pony" in line for line in lines)
