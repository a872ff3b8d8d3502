"""The review of a finished game (core.review): the marked decisions are the costliest the scoring found."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from core.registry import all_games, get_game
from core.review import Decision, Effort, Option, Review, costliest, review_game, review_lines
from core.search import Budget
from core.simulate import play_bot_game
from net.protocol import PROTOCOL_VERSION

SMALL = Effort(samples=6, candidates=4, confidence=1.5)


def played_by(game_id: str, bot: str, seed: int):
    game = get_game(game_id)
    options = game.resolve_options({})
    return game, options, play_bot_game(game, options, seed, [bot] * game.seats(options))


@pytest.mark.parametrize("game_id", list(all_games()))
def test_marked_decisions_are_the_costliest_in_order(game_id):
    game, options, played = played_by(game_id, "easy", 11)
    review = review_game(game, options, 11, played.actions, SMALL)
    assert review.decisions, "a random game has decisions with a choice"
    assert any(review.marked), "the easy bot makes some clear mistakes"
    for seat, marked in enumerate(review.marked):
        assert all(d.seat == seat for d in marked)
        costs = [d.cost for d in marked]
        assert costs == sorted(costs, reverse=True)
        clear = [d for d in review.decisions
                 if d.seat == seat and d.significant and d.cost >= SMALL.least and d.cost > SMALL.confidence * d.error]
        if clear:
            assert marked[0].cost == max(d.cost for d in clear)
        assert len(marked) <= SMALL.marks
        for decision in marked:
            assert decision.best != decision.played
            assert decision.cost > 0
        lessons = [d.lesson for d in marked if not d.standing]
        assert len(lessons) == len(set(lessons)), "each marked decision is a lesson of its own"


def test_a_game_the_hard_bot_played_shows_few_marks():
    game = get_game("turpin")
    options = game.resolve_options({"players": 2})
    hard = game.bots["hard"].with_budget(Budget(playouts=400, seconds=None))
    state = game.setup(options, 5)
    actions = []
    rngs = [random.Random(seat) for seat in range(2)]
    while pending := game.pending(state):
        seat = pending[0]
        action = hard(state, seat, rngs[seat])
        actions.append([seat, action])
        game.advance(state, seat, action)
    effort = Effort(samples=8, candidates=4)
    hard_marks = sum(len(m) for m in review_game(game, options, 5, actions, effort).marked)
    assert hard_marks <= 1  # few or none: the review and the bot read the same odds


def test_money_or_life_robberies_are_scored_by_the_solver_exactly():
    game, options, played = played_by("money-or-life", "random", 3)
    review = review_game(game, options, 3, played.actions, SMALL)
    robberies = [d for d in review.decisions if d.played.get("do") == "assign"]
    assert robberies
    assert all(d.error == 0.0 and d.unit == "points of winning chance" for d in robberies)


def test_a_review_is_deterministic_and_reports_progress():
    game, options, played = played_by("turpin", "easy", 2)
    seen = []
    first = review_game(game, options, 2, played.actions, SMALL,
                        progress=lambda done, total: seen.append((done, total)))
    second = review_game(game, options, 2, played.actions, SMALL)
    assert first == second
    assert seen[-1] == (len(played.actions), len(played.actions))
    assert [done for done, _ in seen] == list(range(1, len(played.actions) + 1))
    lines = review_lines(first, ["Ann", "Bob", "Cy", "Di"], bots=[False, True, True, True], effort=SMALL)
    assert lines[0] == (f"The review scored {len(first.decisions)} decisions with a choice and marks at most "
                        f"{SMALL.marks} a seat: the costliest, each a different lesson, where the cost is clear "
                        "of chance.")
    assert lines[2].startswith("Ann (")
    text = "\n".join(lines)
    assert "points of winning chance" in text
    assert sum("(points of winning chance: how much more often you would have won, out of 100)" in line
               for line in lines) == 1, "the unit is explained once, where first used"
    bots_said = lines[lines.index(next(line for line in lines if line.startswith("Bob ("))):]
    assert not any(": you chose" in line for line in bots_said), "a bot's decisions are not the reader's"
    assert any(": Bob chose" in line or ": Cy chose" in line or ": Di chose" in line for line in bots_said)


@pytest.fixture
def record_file(tmp_path):
    """A finished 2-player Dick Turpin: Ann (a person playing at random) against an easy bot."""
    from net.record import write_record
    from net.table import pipeline
    from net.table.table import Table
    from tests.net_helpers import play_one_bot
    game = get_game("turpin")
    table = Table(game, {"players": 2}, name="The Bell", bots={1: "easy"}, seed=11)
    table.join(lambda frame: None, {"protocol": PROTOCOL_VERSION, "role": "player", "name": "Ann"})
    rng = random.Random(3)
    while pending := game.pending(table.state):
        seat = pending[0]
        if table.seats[seat].kind == "bot":
            play_one_bot(table)
        else:
            pipeline.apply(table, seat, rng.choice(game.legal_actions(table.state, seat)))
    path = tmp_path / "bell.turpin-record"
    write_record(path, table.record())
    return path


def turpin(*args: str):
    import pathlib
    import subprocess
    import sys
    root = pathlib.Path(__file__).resolve().parents[2]
    return subprocess.run([sys.executable, "-m", "tui.cli", *args], cwd=root, capture_output=True, text=True,
                          timeout=300)


def test_the_review_command_prints_each_seats_review(record_file):
    done = turpin("review", str(record_file), "--samples", "4")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Review of The Famous Dick Turpin at The Bell (40 moves)"
    assert any(line.startswith("Ann (") for line in lines)
    assert sum(1 for line in lines if line.endswith("decisions with a choice):")) == 2
    assert any(line.startswith("Moll Cutpurse (easy bot) (") for line in lines)
    molls = lines.index(next(line for line in lines if line.startswith("Moll")))
    assert not any("you chose" in line for line in lines[molls:])
    assert "Reviewing" in done.stderr and done.stderr.rstrip().endswith("40/40 moves")


@pytest.mark.parametrize("content, said", [
    (b"\x00\x01garbage", "is not a turpin game record"),
    (None, "cannot read the record"),
])
def test_the_review_command_refuses_a_bad_file_in_one_line(tmp_path, content, said):
    path = tmp_path / "bad.turpin-record"
    if content is not None:
        path.write_bytes(content)
    done = turpin("review", str(path))
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("turpin: ") and said in lines[0], lines


def test_the_review_command_refuses_a_record_whose_moves_break_the_rules(tmp_path, record_file):
    from net.record import read_record, write_record
    record = read_record(record_file)
    record["actions"][3] = [record["actions"][3][0], {"do": "fly"}]
    path = tmp_path / "broken.turpin-record"
    write_record(path, record)
    done = turpin("review", str(path))
    assert done.returncode == 2
    assert "the record's action 4 is not one the rules allow" in done.stderr and len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize("game_id, words", [("turpin", "journey"), ("money-or-life", "round"),
                                            ("highwayman", "in the pack")])
def test_each_decision_is_named_by_its_move_and_where_the_game_stood(game_id, words):
    """"Move 55, round 1, journey 6 at Warwick: you chose …": the game's own ``moment`` says where."""
    game, options, played = played_by(game_id, "easy", 11)
    state = game.setup(options, 11)
    moments = []
    for seat, action in played.actions:
        moments.append(game.moment(state, seat))
        game.advance(state, seat, dict(action))
    review = review_game(game, options, 11, played.actions, SMALL)
    for decision in review.decisions:
        assert decision.where == f"Move {decision.index + 1}, {moments[decision.index]}"
        assert words in decision.where and decision.in_words().startswith(decision.where + ": you chose")


def test_the_review_command_says_when_a_record_stops_before_the_end(tmp_path, record_file):
    from net.record import read_record, write_record
    record = read_record(record_file)
    done = turpin("review", str(record_file), "--samples", "2")
    assert "stops before the end" not in done.stdout
    record["actions"] = record["actions"][:10]
    path = tmp_path / "unfinished.turpin-record"
    write_record(path, record)
    done = turpin("review", str(path), "--samples", "2")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1] == ("This record stops before the end of its game: the review covers its "
                                           "moves so far.")


def scored(index: int, played: str, gains: dict[str, float], seat: int = 0) -> Decision:
    """A decision scored by hand: ``gains`` of each other action over the one played."""
    options = (Option({"do": played}, played, 0.0, 0.5),) + tuple(
        Option({"do": name}, name, gain, 0.5) for name, gain in gains.items())
    best = max(options, key=lambda o: (o.gain, o is options[0]))
    return Decision(index=index, seat=seat, where=f"Move {index + 1}", played=options[0].action, played_text=played,
                    best=best.action, best_text=best.text, cost=best.gain, error=best.error, unit="points",
                    options=options)


def test_standing_advice_is_said_once_where_it_first_applies_then_the_review_goes_on():
    """Declaring was best at every decision from move 3 on: one line at move 3, then the other lessons,
    each decision weighed without the standing advice (a costly coach at move 9 is still found)."""
    decisions = [scored(0, "rob North", {"rob South": 0.2}),
                 scored(2, "rob North", {"declare": 15.0, "rob South": 0.1}),
                 scored(4, "tavern", {"declare": 14.0, "market": 0.3}),
                 scored(6, "leave", {"declare": 12.0}),
                 scored(8, "rob East", {"declare": 20.0, "rob West": 9.0}),
                 scored(10, "rob East", {"declare": 18.0, "rob West": 6.0})]
    marked = costliest(decisions, Effort(marks=3, confidence=3.0))
    assert [d.index for d in marked] == [2, 8]
    assert marked[0].standing and marked[0].best_text == "declare" and marked[0].run == 5
    assert ("from here on \u201cdeclare\u201d was the best choice at every decision that offered it (5 of them)"
            in marked[0].in_words())
    assert not marked[1].standing and marked[1].best_text == "rob West" and marked[1].cost == 9.0
    assert sum("declare" in d.best_text for d in marked) == 1


def test_a_tie_of_exact_values_or_a_cost_under_a_point_is_no_mistake():
    """Exact values (no error) of two actions that end the game alike differ by a rounding error: the
    action played is not marked as costing "+0.0 points"; nor is one that cost less than a point."""
    tie = scored(0, "Play Portsmouth Road 5", {"Play Dover Road 9": 1e-14})
    small = scored(2, "a", {"b": 0.6})
    worth = scored(4, "c", {"d": 1.5})
    exact = [replace(d, error=0.0, options=tuple(replace(o, error=0.0) for o in d.options))
             for d in (tie, small, worth)]
    marked = costliest(exact, Effort(marks=3, confidence=3.0))
    assert [(d.index, d.best_text) for d in marked] == [(4, "d")]
    assert review_lines(Review(game="highwayman", seats=1, decisions=exact, marked=[marked]), ["Ann"])[3] == (
        "  Move 5: you chose \u201cc\u201d; \u201cd\u201d was worth +1.5 points more on average")


def test_an_action_best_only_now_and_then_is_no_standing_advice():
    decisions = [scored(0, "a", {"b": 10.0}), scored(2, "a", {"b": -1.0, "c": 1.0}), scored(4, "c", {"b": 8.0})]
    marked = costliest(decisions, Effort(marks=3, confidence=3.0))
    assert not any(d.standing for d in marked)
    assert [d.index for d in marked] == [0] and marked[0].lesson == "b", "b at move 5 is the same lesson"


def test_a_seat_repeating_one_mistake_is_taught_it_once():
    """Stopping was clearly better twice (not standing advice: at move 7 it was clearly worse): one mark."""
    decisions = [scored(0, "draw", {"stop": 10.0}), scored(2, "draw", {"stop": 12.0}), scored(4, "a", {"b": 5.0}),
                 scored(6, "b", {"draw": 9.0, "stop": 0.1})]
    marked = costliest(decisions, Effort(marks=3, confidence=3.0))
    assert [(d.index, d.lesson) for d in marked] == [(2, "stop"), (6, "draw"), (4, "b")]
    assert not any(d.standing for d in marked)


def test_seats_carry_their_number_where_names_repeat():
    from tui.replay import bot_seats, seat_names
    record = {"seats": [{"kind": "player", "name": "root"}, {"kind": "player", "name": "root"},
                        {"kind": "bot", "name": "Moll Cutpurse (normal bot)", "bot": "normal"}, {"kind": "empty"}]}
    assert seat_names(record) == ["root (seat 1)", "root (seat 2)", "Moll Cutpurse (normal bot)", "Seat 4"]
    assert bot_seats(record) == [False, False, True, False]


def injected_games(game_id: str, count: int):
    """The first ``count`` seeded games with a clearly bad decision injected (bench/review_quality.py)."""
    import pathlib
    import sys
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bench"))
    from review_quality import inject

    from core.simulate import game_seed
    game, found, index = get_game(game_id), [], 0
    while len(found) < count:
        injected = inject(game, game_seed(44, index))
        index += 1
        if injected is not None:
            found.append(injected)
    return game, found


@pytest.mark.parametrize("game_id, samples, count, at_least", [("money-or-life", 16, 5, 4), ("turpin", 32, 4, 3)])
def test_an_injected_clearly_bad_decision_is_marked_as_the_seats_costliest(game_id, samples, count, at_least):
    """The seeded small version of bench/review.py's figures (there: 90% and 70% of many games):
    one decision of one seat replaced by the worst action (the solver's, a search's), the game played on
    by the normal bots; the review of that seat marks it first."""
    game, found = injected_games(game_id, count)
    from review_quality import marked_as_costliest
    effort = Effort(samples=samples, candidates=4)
    hits = [marked_as_costliest(game, injected, effort)[0] for injected in found]
    assert sum(hits) >= at_least, hits


def test_a_review_of_a_money_or_life_duel_by_the_old_normal_bot_says_each_lesson_once():
    """The old normal bot (its BASELINES) never declared early, and its review repeated "Play as
    a scoundrel from now on" at every mark. Now each seat's marks are distinct lessons."""
    from core.games.money_or_life.bots import BASELINES
    game = get_game("money-or-life")
    options = game.resolve_options({"players": 2})
    state, actions = game.setup(options, 7), []
    rngs = [random.Random(1), random.Random(2)]
    while pending := game.pending(state):
        seat = pending[0]
        action = BASELINES["normal-before-44"](state, seat, rngs[seat])
        actions.append([seat, action])
        game.apply(state, seat, action)
    review = review_game(game, options, 7, actions, Effort(samples=16, candidates=5))
    assert any(review.marked)
    for marked in review.marked:
        lessons = [d.best_text for d in marked]
        assert len(lessons) == len(set(lessons)), lessons


def test_an_action_best_at_two_moments_only_is_two_marks_of_one_lesson_not_standing_advice():
    """A robbery's assignment met at two robberies is no standing advice: one mark, its costliest."""
    decisions = [scored(0, "wit 5", {"combat 5": 25.0}), scored(4, "wit 6", {"combat 5": 18.0})]
    marked = costliest(decisions, Effort(marks=3, confidence=3.0))
    assert [(d.index, d.standing) for d in marked] == [(0, False)]
