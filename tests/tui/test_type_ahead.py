"""The type-ahead guard refuses a key only when it came before the new move could be seen.
The rule on timings here; its rate in a game played at a person's pace is measured by bench/typeahead.py."""

from __future__ import annotations

import math

import pytest

from tui.type_ahead import HUMAN_PACE, NEW_QUESTION_GUARD, SAME_QUESTION_GUARD, typed_ahead


@pytest.mark.parametrize("new_question", [False, True])
def test_a_key_at_a_persons_pace_is_always_taken(new_question):
    for seconds in (HUMAN_PACE, HUMAN_PACE + 0.001, 1.0, 60.0):
        assert not typed_ahead(seconds, new_question), seconds


@pytest.mark.parametrize("new_question", [False, True])
def test_a_key_before_the_move_was_painted_or_in_the_moment_after_is_typed_ahead(new_question):
    for seconds in (-math.inf, -0.5, math.nan, 0.0, 0.05, 0.1):
        assert typed_ahead(seconds, new_question), seconds


def test_a_new_kind_of_question_is_held_a_little_longer_than_the_same_kind_but_less_than_a_persons_pace():
    between = (SAME_QUESTION_GUARD + NEW_QUESTION_GUARD) / 2
    assert typed_ahead(between, new_question=True) and not typed_ahead(between, new_question=False)
    assert SAME_QUESTION_GUARD < NEW_QUESTION_GUARD < HUMAN_PACE
