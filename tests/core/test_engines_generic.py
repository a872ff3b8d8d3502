"""Every registered game, through the one contract: playouts, replay, round trips, secrecy, bots.

A game added to the registry is tested here with no change to this file.
"""

from __future__ import annotations

import itertools
import random

import pytest

from core.engine import IllegalAction, OptionError, clone, pack, unpack, visible_events
from core.registry import all_games
from core.search import Budget
from core.simulate import MOVE_CAP, game_seed, play_bot_game

GAMES = list(all_games().values())
game_params = pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
CHUNKS = 4  # the playouts are split so that pytest-xdist can spread them over the cores


def _player_counts(game):
    low, high = game.option("players").allowed
    return list(range(low, high + 1))


def random_playout(game, seed, on_step=None):
    """Play a game with uniformly random actions by a random pending seat; returns (state, log)."""
    rng = random.Random(seed)
    players = rng.choice(_player_counts(game))
    options = game.resolve_options({"players": players})
    state = game.setup(options, game_seed(seed, 0))
    log = []
    while pending := game.pending(state):
        assert len(log) < MOVE_CAP, f"{game.id} seed {seed} runs away"
        seat = rng.choice(pending)
        legal = game.legal_actions(state, seat)
        assert legal, f"{game.id}: seat {seat} is pending but has no legal action"
        action = rng.choice(legal)
        events = game.apply(state, seat, action)
        log.append((seat, action))
        if on_step is not None:
            on_step(state, seat, action, events)
    return options, state, log


@game_params
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_playouts_keep_invariants_and_end(game, chunk):
    """1,000 seeded random games per title: invariants hold after every action and every game ends."""

    def check(state, seat, action, events):
        game.check_invariants(state)
        for event in events:
            assert isinstance(event["text"], str) and event["text"]
            assert event["visible_to"] is None or all(isinstance(s, int) for s in event["visible_to"])

    for seed in range(chunk, 1000, CHUNKS):
        options, state, log = random_playout(game, seed, check)
        result = game.result(state)
        assert result is not None, "a game with nobody pending must have a result"
        players = game.seats(options)
        assert len(result["scores"]) == players
        assert all(0 <= w < players for w in result["winners"])
        assert result["seed"] == game_seed(seed, 0), "the seed is revealed at the end (A2)"
        assert result["summary"]
        for seat in range(players):
            assert game.legal_actions(state, seat) == []


@game_params
def test_replay_from_seed_and_log_is_identical(game):
    """The seed plus the action log is the game record: replaying it gives the same state."""
    for seed in range(50):
        options, state, log = random_playout(game, seed)
        replayed = game.setup(options, game_seed(seed, 0))
        for seat, action in log:
            game.apply(replayed, seat, unpack(pack(action)))
        assert replayed == state


@game_params
def test_state_views_and_events_round_trip_through_msgpack(game):
    """State, every view and every event are plain data that msgpack carries exactly."""

    def check(state, seat, action, events):
        assert clone(state) == state
        assert clone(action) == action
        assert clone(events) == events
        for viewer in [None, *range(game.seats(options))]:
            view = game.view(state, viewer)
            assert clone(view) == view
            assert "rng" not in view

    options = None
    for seed in range(100):
        rng = random.Random(seed)
        options = game.resolve_options({"players": rng.choice(_player_counts(game))})
        random_playout(game, seed, check)


@game_params
# The first chunk is in the quick tier; the rest of the sweep is slow.
@pytest.mark.parametrize("chunk", [pytest.param(chunk, marks=[pytest.mark.slow] if chunk else [])
                                   for chunk in range(CHUNKS)])
def test_A1_views_do_not_leak_hidden_information(game, chunk):
    """A1: no seat's view, nor the spectator's, changes when everything hidden from it is redrawn.

    And the redraw depends only on what the seat sees: redrawing from a redrawn state gives the same
    state, so bots reasoning through ``resample_hidden`` cannot learn anything hidden either (A3).
    """

    def check(state, seat, action, events):
        before = clone(state)
        for viewer in [None, *range(players)]:
            resampled = game.resample_hidden(state, viewer, random.Random(7))
            assert game.view(resampled, viewer) == game.view(state, viewer), f"view leaks to {viewer}"
            again = game.resample_hidden(game.resample_hidden(state, viewer, random.Random(8)),
                                         viewer, random.Random(7))
            assert again == resampled, f"resample_hidden for {viewer} depends on hidden information"
            assert game.pending(resampled) == game.pending(state)
            if game.result(state) is None:
                assert resampled["seed"] != state["seed"], "the seed would foretell every hidden card"
            if viewer is not None and viewer in game.pending(state):
                assert game.legal_actions(resampled, viewer) == game.legal_actions(state, viewer)
        assert state == before, "resample_hidden must not change its input"

    for seed in range(chunk, 200, CHUNKS):
        rng = random.Random(seed)
        players = rng.choice(_player_counts(game))
        random_playout(game, seed, check)


def containers(data, found=None):
    """The ids of every list and dict in a plain-data value."""
    found = set() if found is None else found
    if isinstance(data, (list, dict)):
        found.add(id(data))
        for item in data.values() if isinstance(data, dict) else data:
            containers(item, found)
    return found


@game_params
def test_redraws_and_views_share_nothing_with_the_state(game):
    """resample_hidden and view hand out copies: changing them (as a search's playout changes its redrawn
    state) never reaches the real state, however the game copies its data quickly."""

    def check(state, seat, action, events):
        in_state = containers(state)
        for viewer in [None, *range(players)]:
            redrawn = game.resample_hidden(state, viewer, random.Random(1))
            assert not containers(redrawn) & in_state, "a redraw shares a list or dict with the state"
            assert not containers(game.view(state, viewer)) & in_state, "a view shares a list or dict"
            assert clone(redrawn) == redrawn

    for seed in range(12):
        players = random.Random(seed).choice(_player_counts(game))
        random_playout(game, seed, check)


@game_params
def test_spectator_sees_only_public_events(game):
    """Private events reach only the seats they name; the spectator gets only public ones."""

    def check(state, seat, action, events):
        for event in visible_events(events, None):
            assert event["visible_to"] is None
        for viewer in range(players):
            for event in visible_events(events, viewer):
                assert event["visible_to"] is None or viewer in event["visible_to"]

    for seed in range(50):
        players = random.Random(seed).choice(_player_counts(game))
        random_playout(game, seed, check)


@game_params
def test_opening_events_of_the_deal_are_plain_and_private_only_to_their_seat(game):
    """The deal setup made has its own events for the log: well-formed, plain data, private ones only to
    seats of the table and never to the spectator, and the same for a seat when its hidden parts are
    redrawn (so they carry nothing the seat could not see in its view)."""
    for seed in range(60):
        rng = random.Random(seed)
        options = game.resolve_options({"players": rng.choice(_player_counts(game))})
        players = game.seats(options)
        state = game.setup(options, game_seed(seed, 0))
        before = clone(state)
        opening = game.opening_events(state)
        assert state == before, "opening_events only reads the state"
        assert opening, f"{game.id}: the deal has something to say"
        assert clone(opening) == opening
        for event in opening:
            assert isinstance(event["text"], str) and event["text"]
            assert event["visible_to"] is None or (
                event["visible_to"] and all(isinstance(s, int) and 0 <= s < players for s in event["visible_to"]))
        assert all(event["visible_to"] is None for event in visible_events(opening, None))
        for viewer in range(players):
            redrawn = game.resample_hidden(state, viewer, random.Random(seed))
            assert visible_events(game.opening_events(redrawn), viewer) == visible_events(opening, viewer), \
                f"{game.id}: seat {viewer}'s opening events depend on what it cannot see"
        redrawn = game.resample_hidden(state, None, random.Random(seed))
        assert visible_events(game.opening_events(redrawn), None) == visible_events(opening, None)
        first = visible_events(opening, None)
        assert first and first[0] == opening[0], "the log opens with a public line everyone reads"


@game_params
def test_A3_bots_choose_only_from_what_their_seat_sees(game):
    """A3: every bot picks a legal action, and the same one when the hidden information is redrawn."""
    for bot_name, bot in bots_under_test(game).items():
        searched = itertools.count()

        def check(state, seat, action, events):
            if bot_name == "hard" and next(searched) % 25:
                return  # every search plays whole games: a sample of positions is enough
            for pending_seat in game.pending(state):
                choice = bot(state, pending_seat, random.Random(3))
                assert choice in game.legal_actions(state, pending_seat), (bot_name, choice)
                resampled = game.resample_hidden(state, pending_seat, random.Random(4))
                assert bot(resampled, pending_seat, random.Random(3)) == choice, \
                    f"{bot_name} bot reacts to information its seat cannot see"

        for seed in range(2 if bot_name == "hard" else 15):
            random_playout(game, 10_000 + seed, check)


def bots_under_test(game):
    """The game's bots, the hard one with a tiny playout budget and no clock: quick, and repeatable."""
    bots = dict(game.bots.items())
    # The registered hard bot itself (Dick Turpin's is its own), with a budget of its own kind.
    bots["hard"] = game.bots["hard"].with_budget(Budget(playouts=4, seconds=None, candidates=2))
    return bots


@game_params
def test_bot_games_end(game):
    """Every bot kind, in every seat count, finishes games."""
    for players in _player_counts(game):
        options = game.resolve_options({"players": players})
        for bot_name in game.bots:
            if bot_name == "hard":
                continue  # a whole game of searches is slow; tests/core/test_bots.py has hard at every game
            played = play_bot_game(game, options, players * 31, [bot_name] * game.seats(options))
            assert game.result(played.state) is not None


@game_params
def test_illegal_and_out_of_turn_actions_are_refused_and_change_nothing(game):
    """apply refuses what is not legal, naming a rule, and leaves the state as it was."""
    junk = [{}, {"do": "nonsense"}, {"do": None, "x": [1, 2]}, {"card": "no such card"}]
    for seed in range(30):
        rng = random.Random(seed)
        options = game.resolve_options({"players": rng.choice(_player_counts(game))})
        state = game.setup(options, seed)
        steps = rng.randrange(40)
        while (pending := game.pending(state)) and steps:
            seat = rng.choice(pending)
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            steps -= 1
        if not pending:
            continue
        before = clone(state)
        for seat in range(game.seats(options)):
            for action in junk:
                with pytest.raises(IllegalAction) as refused:
                    game.apply(state, seat, action)
                assert refused.value.rule and refused.value.message
                assert state == before
            if seat not in pending:
                other = game.legal_actions(state, pending[0])[0]
                with pytest.raises(IllegalAction):
                    game.apply(state, seat, other)
                assert state == before


@game_params
def test_bad_options_are_refused_with_a_clear_message(game):
    low, high = game.option("players").allowed
    for players in (low - 1, high + 1, "four"):
        with pytest.raises(OptionError, match="players"):
            game.resolve_options({"players": players})
    with pytest.raises(OptionError, match="no option"):
        game.resolve_options({"no_such_option": 1})


@game_params
def test_every_game_describes_itself(game):
    """The registry entry carries what the CLI and TUI show: title, rules, options, bots."""
    assert game.title and len(game.rules_text) > 200
    assert list(game.bots) == ["easy", "normal", "hard", "random"]  # the levels, by the same names everywhere
    assert game.bots["sharp"] is game.bots["normal"]  # the old name still works, unlisted
    assert all(option.help for option in game.options)
    options = game.resolve_options({})
    state = game.setup(options, 1)
    seat = game.pending(state)[0]
    for action in game.legal_actions(state, seat):
        assert game.describe_action(state, seat, action)


@game_params
def test_A2_game_over_reveals_everything_and_the_seed(game):
    """A2: at the end the result carries the seed and the full reveal (the host sends it to everyone).

    And it is checkable: from the revealed seed and the action log anyone can rebuild the final state.
    """
    for seed in range(20):
        options, state, log = random_playout(game, seed)
        result = game.result(state)
        assert result["seed"] == state["seed"] and result["reveal"]
        replayed = game.setup(options, result["seed"])
        for seat, action in log:
            game.apply(replayed, seat, action)
        assert game.result(replayed) == result


def test_every_game_is_registered():
    """The three games turpin is made for are in the registry."""
    assert {"turpin", "money-or-life", "highwayman"} <= set(all_games())


def _scramble(value):
    """Change every list and dict inside ``value`` in place (what a careless caller might do)."""
    if isinstance(value, list):
        for item in value:
            _scramble(item)
        value.append("scrambled")
    elif isinstance(value, dict):
        for item in list(value.values()):
            _scramble(item)
        value["scrambled"] = True


@game_params
def test_a_state_keeps_nothing_of_the_action_it_was_given(game):
    """What ``apply`` and ``advance`` keep of an action is their own copy: a caller (a bot, the host, a
    search) that changes its action object afterwards, or a legal-action list, changes no state."""
    for seed in range(30):
        rng = random.Random(seed)
        options = game.resolve_options({"players": rng.choice(_player_counts(game))})
        for act in (game.apply, game.advance):
            state = game.setup(options, game_seed(seed, 1))
            while pending := game.pending(state):
                seat = rng.choice(pending)
                legal = game.legal_actions(state, seat)
                action = rng.choice(legal)
                act(state, seat, action)
                before = pack(state)
                _scramble(action)
                _scramble(legal)
                assert pack(state) == before, f"{game.id}: changing {action} after playing it changed the state"
