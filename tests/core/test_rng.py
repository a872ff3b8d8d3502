"""The game generator's sequence is part of every game record: a record is a seed and the actions, and a
replay draws the same cards and dice only if every draw is the same. These pin it to SplitMix64."""

from __future__ import annotations

from core import rng as chance


def seeded(seed):
    state = {}
    chance.seed_state(state, seed)
    return state


def test_the_generator_is_splitmix64():
    """The published SplitMix64 outputs for seed 0."""
    state = seeded(0)
    assert [chance.next_u64(state) for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4,
                                                           0x06C45D188009454F]


def test_below_roll_and_shuffle_draw_the_recorded_sequence():
    """The draws games make, against values recorded before the draws were written out for speed."""
    state = seeded(2**64 + 5)  # the seed is kept whole, the generator starts from its low 64 bits
    assert [chance.below(state, n) for n in (1, 2, 3, 6, 27, 52, 1000)] == [0, 0, 2, 5, 4, 16, 609]
    assert [chance.roll_d6(state) for _ in range(12)] == [4, 5, 6, 4, 5, 4, 6, 6, 5, 6, 4, 4]
    assert state["rng"] == 13699396756335703444 and state["seed"] == 2**64 + 5
    state = seeded(1)
    deck = list(range(52))
    chance.shuffle(state, deck)
    assert deck == [19, 8, 16, 33, 20, 43, 23, 18, 47, 10, 17, 25, 2, 14, 36, 30, 32, 29, 1, 13, 44, 12, 38,
                    35, 48, 49, 22, 46, 11, 42, 5, 6, 39, 4, 26, 51, 31, 50, 37, 24, 21, 15, 41, 0, 3, 27, 7, 9,
                    28, 40, 34, 45]
    assert state["rng"] == 9587389500487022640


def test_the_written_out_draws_agree_with_next_u64():
    """``below``, ``roll_d6`` and ``shuffle`` are ``next_u64`` modulo n, draw for draw."""
    for seed in range(200):
        fast, slow = seeded(seed * 7919), seeded(seed * 7919)
        for n in range(1, 60):
            assert chance.below(fast, n) == chance.next_u64(slow) % n
            assert chance.roll_d6(fast) == chance.next_u64(slow) % 6 + 1
        items = list(range(seed % 100))  # up to past the largest Highwayman deck (90 cards)
        expected = list(items)
        for i in range(len(expected) - 1, 0, -1):
            j = chance.next_u64(slow) % (i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        chance.shuffle(fast, items)
        assert items == expected and fast == slow


def test_draws_side_by_side_are_next_u64_in_turn_even_where_the_counter_wraps():
    """``draws`` (the shuffle's numbers, worked out at once) against ``next_u64`` one by one, from
    counters near 2**64 where adding the golden step wraps."""
    for start in (0, 1, 2**63, 2**64 - 1, 2**64 - 0x9E3779B97F4A7C15, 0xDEADBEEFCAFEF00D):
        for count in (1, 2, 3, 51, 89, 120):
            state = {"rng": start}
            assert list(chance.draws(start, count)) == [chance.next_u64(state) for _ in range(count)]
