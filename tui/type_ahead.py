"""The type-ahead guard: a key that came too soon after a new move was painted was typed for the move
before (two presses of 1, the host answering between them), and is not taken.

The rule is a pure function of how long the move had been in view, so it is tested on timings, and
``bench/typeahead.py`` measures it in a game played at a person's pace. What must hold: a key that comes
after a person could have read the move (``HUMAN_PACE``, 0.4 s after the paint) is never refused; a key
that came before the paint always is.
"""

from __future__ import annotations

import math

#: Seconds after a new move is painted in which a choice is not taken, when the move asks the same kind of
#: question as the one last answered: nobody reads a new move and answers it faster than this.
SAME_QUESTION_GUARD = 0.15
#: The same when it asks another kind of question (a robbery over, the next journey's secret card up at
#: once): a second key of a sequence typed ahead ("rob 2, then turn another") lands a little later.
NEW_QUESTION_GUARD = 0.3
#: The pace of a person who reads each new move before answering it: keys this long after the paint are
#: always taken (the bench's scripted player presses at this pace).
HUMAN_PACE = 0.4


def typed_ahead(seconds_in_view: float, new_question: bool, same_guard: float = SAME_QUESTION_GUARD,
                new_guard: float = NEW_QUESTION_GUARD) -> bool:
    """Whether a key that came ``seconds_in_view`` after the move was painted (negative or NaN: before it
    was painted) was typed for the move before."""
    if math.isnan(seconds_in_view) or seconds_in_view < 0:
        return True
    return seconds_in_view < (new_guard if new_question else same_guard)


def question_kinds(prompt: dict | None) -> frozenset[str]:
    """What a prompt asks, as the kinds of its moves ("lay", or "turn" and "stop"): keys typed for one
    question are held longer when another comes up."""
    if not prompt:
        return frozenset()
    return frozenset(str(choice["action"].get("do")) for choice in prompt["choices"])
