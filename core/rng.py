"""The game's one seeded generator, kept inside the state so that it serialises and replays.

SplitMix64: a 64-bit counter in ``state["rng"]`` and a mixing function. Small, fast in pure Python, and
the whole generator is one int, so a saved game carries its chance exactly. Only the host's engine reads
it; no view ever includes it.
"""

from __future__ import annotations

import random
from typing import Any, MutableSequence

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def seed_state(state: dict[str, Any], seed: int) -> None:
    """Store ``seed`` (revealed at the end, A2) and start the generator from it."""
    state["seed"] = seed
    state["rng"] = seed & _MASK


def redraw_hidden_generator(state: dict[str, Any], rng: random.Random) -> None:
    """For ``resample_hidden``: the seed and the generator's position are hidden from every seat until
    the end (A2), since either would foretell every card and die; draw both afresh from ``rng``."""
    state["rng"] = rng.getrandbits(64)
    state["seed"] = rng.getrandbits(63)


def mix(z: int) -> int:
    """SplitMix64's output function: the generator's number for counter value ``z``."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def next_u64(state: dict[str, Any]) -> int:
    z = (state["rng"] + _GOLDEN) & _MASK
    state["rng"] = z
    return mix(z)


# The draws below are the hot path of every playout, so each writes ``mix`` out in place (the same
# arithmetic, the constants as literals: one call instead of three). The sequence is SplitMix64's and
# must stay so: a game record is a seed and the actions, and replaying it relies on every draw.

def below(state: dict[str, Any], n: int) -> int:
    """A number from 0 to n - 1 (the bias of 2**64 mod n is far below anything a game could show):
    ``next_u64(state) % n``."""
    z = (state["rng"] + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    state["rng"] = z
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return (z ^ (z >> 31)) % n


def roll_d6(state: dict[str, Any]) -> int:
    """A die: ``next_u64(state) % 6 + 1``."""
    z = (state["rng"] + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    state["rng"] = z
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return (z ^ (z >> 31)) % 6 + 1


def shuffle(state: dict[str, Any], items: MutableSequence[Any]) -> None:
    """Fisher–Yates, in place: the same draws as ``below(state, i + 1)`` for each i from the top down,
    with the counter kept in a local until the end."""
    z = state["rng"]
    for i in range(len(items) - 1, 0, -1):
        z = (z + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        x = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        j = (x ^ (x >> 31)) % (i + 1)
        items[i], items[j] = items[j], items[i]
    state["rng"] = z
