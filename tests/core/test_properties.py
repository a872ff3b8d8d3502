"""Property tests (hypothesis): whatever bytes or values arrive, the answer is a clear refusal or a
correct result, never a crash and never a changed game.

These complement the seeded fuzzing of ``test_net_fuzz.py`` (which drives a live host) by searching the
input space of the two gates every client byte passes: the frame decoder and the engine's ``apply``.
"""

from __future__ import annotations

import random

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.engine import IllegalAction, clone
from core.registry import all_games
from net.protocol import PROTOCOL_VERSION, ProtocolError, decode_body, encode, validate_client_message

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**63), max_value=2**64 - 1),
                    st.floats(allow_nan=False), st.text(max_size=20), st.binary(max_size=20))
plain_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=5)), max_leaves=25)
client_types = st.sampled_from(["hello", "act", "hand_over", "ping", "pong", "bye", "nonsense", ""])
message_like = st.builds(lambda kind, rest: {"type": kind, **rest}, client_types,
                         st.dictionaries(st.sampled_from(["protocol", "role", "name", "code", "token", "seat",
                                                          "action", "prompt", "host_token", "t", "x"]),
                                         plain_values, max_size=5))


@SETTINGS
@given(st.binary(max_size=300))
def test_any_bytes_decode_to_a_map_or_a_protocol_error(body):
    try:
        message = decode_body(body)
    except ProtocolError as error:
        assert error.code in ("bad_frame", "bad_message") and error.message
    else:
        assert isinstance(message, dict)


@SETTINGS
@given(st.one_of(plain_values, message_like))
def test_any_decoded_value_is_validated_or_refused_in_words(value):
    """Whatever a client packs, the host either gets a message of a known shape or a refusal."""
    body = msgpack.packb(value, use_bin_type=True)
    try:
        message = validate_client_message(decode_body(body))
    except ProtocolError as error:
        assert error.code in ("bad_frame", "bad_message") and error.message
    else:
        assert message["type"] in ("hello", "act", "hand_over", "ping", "pong", "bye")


@SETTINGS
@given(st.text(max_size=40), st.integers(min_value=0, max_value=5), st.sampled_from(["player", "spectator"]))
def test_a_well_formed_hello_survives_the_wire_exactly(name, seat, role):
    hello = {"type": "hello", "protocol": PROTOCOL_VERSION, "role": role, "name": name, "seat": seat}
    frame = encode(hello)
    assert validate_client_message(decode_body(frame[4:])) == hello


GAMES = list(all_games().values())


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_any_action_value_is_applied_only_if_legal(game):
    """apply takes exactly the legal actions; any other value is refused naming a rule, state unchanged."""

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seed=st.integers(min_value=0, max_value=10_000), steps=st.integers(min_value=0, max_value=60),
           action=st.one_of(plain_values, st.dictionaries(st.sampled_from(["do", "card", "town", "passengers",
                                                                           "pick", "item", "route", "to"]),
                                                          plain_values, max_size=3)))
    def check(seed, steps, action):
        rng = random.Random(seed)
        state = game.new_game({}, seed)
        while (pending := game.pending(state)) and steps:
            seat = rng.choice(pending)
            game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            steps -= 1
        for seat in range(game.seats(game.resolve_options({}))):
            before = clone(state)
            legal = game.legal_actions(state, seat)
            if action in legal:
                continue
            with pytest.raises(IllegalAction) as refused:
                game.apply(state, seat, action)
            assert refused.value.rule and refused.value.message
            assert state == before

    check()
