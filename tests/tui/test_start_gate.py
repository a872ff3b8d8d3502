"""The warm pool's start gate: guests forked together start in turns, first come first let in, a turn
handed back at the guest's first paint or end, or over by the clock (given here, not waited for)."""

from __future__ import annotations

import socket

from tui.startup.start_gate import StartGate, wait_for_turn


def let_in(guest: socket.socket) -> bool:
    """The guest's end has the zygote's byte waiting: it may start."""
    guest.setblocking(False)
    try:
        return guest.recv(1) == b"g"
    except BlockingIOError:
        return False


def test_guests_are_let_in_as_many_at_once_as_there_are_turns_and_in_the_order_they_came():
    gate = StartGate(turns=2, turn_seconds=5.0)
    guests = []
    for _ in range(4):
        ours, theirs = gate.add()
        guests.append((ours, theirs))
        gate.let_in(now=0.0)
    assert [let_in(theirs) for _, theirs in guests] == [True, True, False, False]
    first_ours, first_theirs = guests[0]
    first_theirs.close()  # its first screen is painted
    gate.closed(first_ours, now=1.0)
    assert [let_in(theirs) for _, theirs in guests[2:]] == [True, False]


def test_a_turn_ends_by_the_clock_for_a_guest_that_is_slow_to_paint_and_it_is_watched_until_it_closes():
    gate = StartGate(turns=1, turn_seconds=1.0)
    (slow, slow_end), (next_one, next_end) = gate.add(), gate.add()
    gate.let_in(now=10.0)
    assert let_in(slow_end) and not let_in(next_end)
    assert gate.next_deadline(now=10.25) == 0.75
    gate.let_in(now=11.0)
    assert let_in(next_end)
    assert slow in gate.gates()  # still watched: its end closing is what frees it
    slow_end.close()
    gate.closed(slow, now=11.5)
    assert slow not in gate.gates() and next_one in gate.gates()


def test_a_guest_that_ends_while_waiting_gives_up_its_place():
    gate = StartGate(turns=1, turn_seconds=5.0)
    (first, first_end), (gone, gone_end), (_, last_end) = gate.add(), gate.add(), gate.add()
    gate.let_in(now=0.0)
    gone_end.close()
    gate.closed(gone, now=1.0)
    first_end.close()
    gate.closed(first, now=1.0)
    assert let_in(last_end)


def test_a_guest_whose_zygote_is_gone_starts_without_waiting():
    zygote_end, guest_end = socket.socketpair()
    zygote_end.close()
    wait_for_turn(guest_end)  # returns: no zygote, no turns to keep
