"""The game's one seeded generator, kept inside the state so that it serialises and replays.

SplitMix64: a 64-bit counter in ``state["rng"]`` and a mixing function. Small, fast in pure Python, and
the whole generator is one int, so a saved game carries its chance exactly. Only the host's engine reads
it; no view ever includes it.
"""

from __future__ import annotations

import random
import struct
from functools import lru_cache
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
    """Fisher–Yates, in place: the same draws as ``below(state, i + 1)`` for each i from the top down.

    The draws are made all at once (``draws``), and only the swaps are a Python loop."""
    count = len(items) - 1  # draws to make
    if count <= 0:
        return
    start = state["rng"]
    for i, number in zip(range(count, 0, -1), draws(start, count)):
        j = number % (i + 1)
        items[i], items[j] = items[j], items[i]
    state["rng"] = (start + 0x9E3779B97F4A7C15 * count) & 0xFFFFFFFFFFFFFFFF


def draws(start: int, count: int) -> tuple[int, ...]:
    """The generator's next ``count`` numbers from counter ``start``, worked out side by side.

    SplitMix64's numbers do not depend on each other: number k mixes the counter ``start + k·golden``.
    So every counter goes into one long int, 128 bits apart ("lanes"), and each step of ``mix`` is done
    once on the long int instead of once per number: a shift pulls the next lane's low bits only into
    this lane's upper 64 (empty) bits, which the lane mask clears; a 64-bit product fits in its lane's
    128 bits, and the mask keeps it modulo 2**64. A deck's shuffle is 51 numbers: about a third of the
    time of mixing them one by one, which every deal of every playout pays."""
    ones, ramp, lanes = _lanes(count)
    z = (start * ones + ramp) & lanes  # lane k holds the counter after k + 1 steps
    z = (z ^ z >> 30) & lanes
    z = z * 0xBF58476D1CE4E5B9 & lanes
    z = (z ^ z >> 27) & lanes
    z = z * 0x94D049BB133111EB & lanes
    z = (z ^ z >> 31) & lanes
    # Lane k is the (little-endian) 64-bit word 2k of the long int's bytes; word 2k + 1 is its empty half.
    return struct.unpack(f"<{2 * count}Q", z.to_bytes(16 * count, "little"))[::2]


@lru_cache(maxsize=None)
def _lanes(count: int) -> tuple[int, int, int]:
    """For ``draws`` of ``count`` numbers: 1 in every lane, golden·(k + 1) in lane k, and the lane mask
    (64 ones in every lane). A game shuffles a few sizes of deck, so these are made once per size."""
    ones = sum(1 << 128 * k for k in range(count))
    ramp = sum((0x9E3779B97F4A7C15 * (k + 1)) << 128 * k for k in range(count))
    return ones, ramp, ones * 0xFFFFFFFFFFFFFFFF
