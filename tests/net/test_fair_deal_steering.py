"""The fair deal holds against the host that would steer it. Each test is what a dishonest party
runs: a host patched to choose among deals, the host's own seat sharing last, a rematch whose seats the
host picks, a player who never reveals. Either the party cannot hit its target more often than chance,
or every honest client reports a mismatch; the most anyone can do is refuse to go on, which all see."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest

from core.engine import pack
from core.registry import all_games, get_game
from net import protocol
from net.fairness import (
    CHAIN,
    SHARE_SECONDS,
    Evidence,
    FairDeal,
    derive_order,
    derive_seed,
    pledge_of,
    read_evidence,
    verify,
    write_evidence,
)
from net.table import pipeline
from net.table.frames import Frames
from net.table.table import Table
from tests.net_helpers import (
    CLOCKED,
    WAIT,
    ManualClock,
    client,
    close_all,
    give_shares,
    hosting,
    play_one_bot,
    play_randomly,
)

ROOT = Path(__file__).resolve().parents[2]
GAME = get_game("turpin")
OPTIONS = {"players": 2, "rounds": 2}


def _hits(seed: int, bits: int, target: int) -> bool:
    return seed & ((1 << bits) - 1) == target


def _steered(fair: FairDeal, bits: int, target: int) -> FairDeal:
    """A patched host's search: fresh secrets (the chain's last game, so each costs one hash) until the
    seed it can work out from every share it knows hits ``target``. A share not yet revealed it can only
    guess (it takes the host's fixed one)."""
    while True:
        candidate = FairDeal(os.urandom(32), fair.salt, CHAIN, list(fair.pledges), list(fair.nonces),
                             list(fair.replaced), shuffle=fair.shuffle, phase=fair.phase)
        if _hits(derive_seed(candidate.secret, candidate.nonces_used()), bits, target):
            return candidate


def test_a_host_that_draws_secrets_at_the_last_hello_hits_its_target_no_more_often_than_chance():
    """The last player's hello carries no share any more: a host that re-draws its secret then, until the
    seed it can foresee hits a 12-bit target, is dealt the target by chance alone (1 in 4,096), though
    every commitment it sends is honest. On the first protocol it hit it every time."""
    bits, target, trials, hits = 12, 0xABC, 40, 0
    for _ in range(trials):
        seats = GAME.seats(GAME.resolve_options(OPTIONS))
        # steered before the hello is answered: its welcome commits
        table = Table(GAME, OPTIONS, bots={1: "normal"}, fair=_steered(FairDeal.fresh(seats), bits, target))
        table.join(lambda frame: None, {"protocol": protocol.PROTOCOL_VERSION, "role": "player"})
        give_shares(table)
        assert table.started
        hits += _hits(table.seed, bits, target)
    assert hits <= 1, f"{hits} of {trials} deals hit a 1-in-4,096 target"


def _wire(frames: list[bytes]) -> list[dict]:
    return [msgpack.unpackb(frame[4:], raw=False) for frame in frames]


def _evidence_of(frames: list[bytes], seat: int | None, nonce: bytes | None = None) -> Evidence:
    """A client's evidence from the bytes the table sent it, as ``TableClient`` keeps it."""
    messages = [m for m in _wire(frames) if m["type"] == "table"]
    evidence = Evidence(seat, messages[0]["commitment"], nonce)
    for message in messages:
        deal = message.get("deal")
        if deal and deal["phase"] == "reveals" and evidence.pledges is None:
            evidence.pledges, evidence.shuffle = list(deal["pledges"]), deal["shuffle"]
            if nonce is not None:
                evidence.revealed, evidence.share_seat = True, seat
        evidence.keep(message)
    return evidence


def _play_out(table: Table, rng: random.Random) -> None:
    while not table.over:
        if table.stand_ins.next_bot() is not None:
            play_one_bot(table)
            continue
        seat = GAME.pending(table.state)[0]
        pipeline.apply(table, seat, rng.choice(GAME.legal_actions(table.state, seat)))


@pytest.mark.parametrize("game_id", sorted(all_games()))
async def test_a_host_that_re_commits_once_the_shares_are_revealed_is_caught_by_every_client(game_id, monkeypatch):
    """The only moment a host could steer with every share known is after the reveals: a host patched to
    draw a new secret then (until a 12-bit target is hit) deals its target, and both players and a
    spectator say the revealed secret is not the one committed to at the start."""
    original = FairDeal.close_reveals

    def steer_then_deal(fair: FairDeal) -> list[int]:
        steered = _steered(fair, 12, 0x5A5)
        fair.root, fair.game, fair.secret = steered.root, steered.game, steered.secret
        return original(fair)
    monkeypatch.setattr(FairDeal, "close_reveals", steer_then_deal)
    game = get_game(game_id)
    players = 1 if game_id == "money-or-life" else 2
    table = Table(game, {"players": players + 1}, bots={players: "normal"})
    async with hosting(table) as host:
        people = [client(host, name=f"P{seat}") for seat in range(players)]
        watcher = client(host, role="spectator")
        for someone in [watcher, *people]:
            await someone.start()
        await asyncio.gather(*(play_randomly(p, random.Random(seat)) for seat, p in enumerate(people)))
        assert _hits(table.seed, 12, 0x5A5)  # the patched host got the deal it wanted …
        for someone in [*people, watcher]:  # … and everyone at the table knows it
            await someone.wait_for(lambda snap: snap.fair is not None, WAIT)
            assert someone.snapshot.fair.status == "mismatch"
            assert "does not match the commitment sent at the start" in someone.snapshot.fair.words
        await close_all(*people, watcher)


def test_the_hosts_own_seat_cannot_choose_its_share_after_seeing_the_others():
    """The host's program plays a seat too and knows the secret. Joining last, its share is still
    pledged before anyone reveals: swapping in a nonce drawn to hit a target (and a pledge to match)
    once the others' are known is a mismatch for every other player and the spectator."""
    original = FairDeal.close_reveals
    hosts_seat = 1

    def last_share_steered(fair: FairDeal) -> list[int]:
        while True:
            nonce = os.urandom(16)
            nonces = [nonce if seat == hosts_seat else used for seat, used in enumerate(fair.nonces_used())]
            if _hits(derive_seed(fair.secret, nonces), 12, 0x123):
                fair.nonces[hosts_seat], fair.pledges[hosts_seat] = nonce, pledge_of(nonce)
                return original(fair)
    table = Table(GAME, {"players": 3, "rounds": 2}, bots={2: "normal"})
    sent: dict[str, list[bytes]] = {"ann": [], "host": [], "watcher": []}
    ann = table.join(sent["ann"].append, {"protocol": protocol.PROTOCOL_VERSION, "role": "player"})
    table.join(sent["watcher"].append, {"protocol": protocol.PROTOCOL_VERSION, "role": "spectator"})
    table.join(sent["host"].append, {"protocol": protocol.PROTOCOL_VERSION, "role": "player"})
    table.fair.close_reveals = lambda: last_share_steered(table.fair)  # type: ignore[method-assign]
    ann_nonce = give_shares(table)[ann.seat]
    assert table.started and _hits(table.seed, 12, 0x123)
    _play_out(table, random.Random(3))
    for verdict in (verify(GAME, _evidence_of(sent["ann"], ann.seat, ann_nonce)),
                    verify(GAME, _evidence_of(sent["watcher"], None))):
        assert verdict.status == "mismatch"
        assert "the pledges revealed are not the ones shown before anyone revealed" in verdict.words


def test_a_share_that_is_never_revealed_is_replaced_after_the_stated_time_and_everyone_is_told():
    """A player who pledges and then says nothing does not stall the table: after SHARE_SECONDS his
    seat's share is the host's fixed one, the log says so, and the other player's check still passes
    and names it. (This is all a host's own seat can do against a seed it dislikes: refuse, visibly.)"""
    clock = ManualClock()
    table = Table(GAME, {"players": 3, "rounds": 2}, bots={2: "normal"}, now=clock)
    sent: list[bytes] = []
    ann = table.join(sent.append, {"protocol": protocol.PROTOCOL_VERSION, "role": "player"})
    silent = table.join(lambda frame: None, {"protocol": protocol.PROTOCOL_VERSION, "role": "player"})
    ann_nonce = os.urandom(16)
    table.deal.pledge(ann, pledge_of(ann_nonce))
    table.deal.pledge(silent, pledge_of(os.urandom(16)))
    table.deal.reveal(ann, ann_nonce)
    clock.advance(SHARE_SECONDS - 0.5)
    assert not table.deal.time_up() and not table.started
    waiting = [m for m in _wire(sent) if m["type"] == "table"][-1]["deal"]
    assert waiting["phase"] == "reveals" and waiting["seconds"] == SHARE_SECONDS  # told as the pledges froze
    assert table.fair.waiting_for_reveals() == [silent.seat]
    clock.advance(1)
    assert table.deal.time_up() and table.started
    told = [event["text"] for m in _wire(sent) if m["type"] == "table" for event in m["events"]]
    assert f"Seat {silent.seat + 1} did not reveal its share of the deal in time: the host's fixed share " \
           "stands in for it." in " ".join(told).replace("Player 2", "Seat 2")
    assert table.fair.replaced == [False, True, False]
    _play_out(table, random.Random(5))
    verdict = verify(GAME, _evidence_of(sent, ann.seat, ann_nonce))
    assert verdict.status == "verified", verdict.problems
    assert verdict.words == "fair deal: verified (seat 2 did not reveal its share in time)"


def test_a_player_who_never_pledges_is_replaced_too_and_the_table_deals():
    clock = ManualClock()
    table = Table(GAME, OPTIONS, now=clock)
    sent: list[bytes] = []
    ann = table.join(sent.append, {"protocol": protocol.PROTOCOL_VERSION, "role": "player"})
    table.join(lambda frame: None, {"protocol": protocol.PROTOCOL_VERSION, "role": "player"})
    nonce = os.urandom(16)
    table.deal.pledge(ann, pledge_of(nonce))
    clock.advance(SHARE_SECONDS)
    assert table.deal.time_up() and table.fair.phase == "reveals"  # the silent seat's share is replaced
    table.deal.reveal(ann, nonce)
    assert table.started
    _play_out(table, random.Random(6))
    verdict = verify(GAME, _evidence_of(sent, ann.seat, nonce))
    assert verdict.status == "verified" and "seat 2 did not pledge its share in time" in verdict.words


def test_a_host_that_drops_a_reveal_it_was_sent_is_caught_by_that_player():
    """Dropping a reveal that came would give the host a choice between two deals: the player whose
    reveal was sent and replaced reports it."""
    clock = ManualClock()
    table = Table(GAME, OPTIONS, bots={1: "normal"}, now=clock)
    sent: list[bytes] = []
    ann = table.join(sent.append, {"protocol": protocol.PROTOCOL_VERSION, "role": "player"})
    nonce = os.urandom(16)
    table.deal.pledge(ann, pledge_of(nonce))
    # The patched host throws the reveal away (its player sent it) and lets the time run out
    clock.advance(SHARE_SECONDS)
    assert table.deal.time_up() and table.started
    _play_out(table, random.Random(7))
    verdict = verify(GAME, _evidence_of(sent, ann.seat, nonce))
    assert verdict.status == "mismatch"
    assert "this client revealed its share in time, but the host dealt without it" in verdict.words


def test_a_reveal_that_is_not_the_pledged_share_is_refused_and_changes_nothing():
    table = Table(GAME, OPTIONS, bots={1: "normal"})
    ann = table.join(lambda frame: None, {"protocol": protocol.PROTOCOL_VERSION, "role": "player"})
    nonce = os.urandom(16)
    table.deal.pledge(ann, pledge_of(nonce))
    from net.refusals import Refusal
    with pytest.raises(Refusal) as refused:
        table.deal.reveal(ann, os.urandom(16))
    assert refused.value.code == "bad_reveal" and not table.started and table.fair.nonces == [None, None]
    with pytest.raises(Refusal):  # and the pledges are frozen: no second pledge to steer with
        table.deal.pledge(ann, pledge_of(os.urandom(16)))
    table.deal.reveal(ann, nonce)
    assert table.started


async def _a_first_game_played(host):
    """Ann and Bob play a game to its end at ``host``'s table, and both verify its deal."""
    ann, bob = client(host, name="Ann"), client(host, name="Bob")
    for someone in (ann, bob):
        await someone.start()
    await asyncio.gather(play_randomly(ann, random.Random(1)), play_randomly(bob, random.Random(2)))
    for someone in (ann, bob):
        await someone.wait_for(lambda snap: snap.fair is not None, WAIT)
        assert someone.snapshot.fair.status == "verified"
    return ann, bob


@pytest.mark.parametrize("cheat", ["order", "announced"])
async def test_a_rematch_in_new_seats_takes_fresh_shares_and_the_host_cannot_pick_the_seats(cheat, monkeypatch):
    """Play again in new seats: nobody knows the new deal or the seats before every fresh share is in,
    and both come from the shares. A host patched to seat people its way (``order``), or to draw new
    seats after announcing the same ones (``announced``), is caught by every player."""
    table = Table(GAME, {"players": 3, "rounds": 2}, bots={2: "normal"})
    async with hosting(table) as host:
        ann, bob = await _a_first_game_played(host)
        first_seed, first_nonces = table.seed, [ann.evidence.nonce, bob.evidence.nonce]
        original = FairDeal.close_reveals

        def seats_chosen(fair: FairDeal) -> list[int]:
            if cheat == "announced":
                fair.shuffle = True
            missing = original(fair)
            if cheat == "order":
                fair.order = next(order for order in ([1, 0, 2], [0, 2, 1], [2, 1, 0]) if order != fair.order)
            return missing
        monkeypatch.setattr(FairDeal, "close_reveals", seats_chosen)
        host.table.start_again(shuffle=cheat == "order")
        for someone in (ann, bob):
            await someone.wait_for(lambda snap: snap.result is None and snap.started, WAIT)
        assert table.seed != first_seed and ann.nonce not in first_nonces and bob.nonce not in first_nonces
        await asyncio.gather(play_randomly(ann, random.Random(3)), play_randomly(bob, random.Random(4)))
        for someone in (ann, bob):
            await someone.wait_for(lambda snap: snap.fair is not None, WAIT)
            said = someone.snapshot.fair.words
            assert someone.snapshot.fair.status == "mismatch", said
            assert ("the new seats are not the ones the shares draw" if cheat == "order" else
                    "the host drew new seats though it announced the same ones") in said
        await close_all(ann, bob)


async def test_an_honest_rematch_in_new_seats_is_drawn_from_the_shares_and_verifies():
    table = Table(GAME, {"players": 3, "rounds": 2}, bots={2: "normal"})
    async with hosting(table) as host:
        ann, bob = await _a_first_game_played(host)
        names_before = [seat["name"] for seat in table.seating.public()]
        host.table.start_again(shuffle=True)
        for someone in (ann, bob):
            await someone.wait_for(lambda snap: snap.result is None and snap.started, WAIT)
        fair = table.fair
        assert fair.order == derive_order(fair.secret, fair.nonces_used()) and fair.order != [0, 1, 2]
        assert [seat["name"] for seat in table.seating.public()] == [names_before[old] for old in fair.order]
        assert table.seed == derive_seed(fair.secret, fair.nonces_used())
        await asyncio.gather(play_randomly(ann, random.Random(3)), play_randomly(bob, random.Random(4)))
        for someone in (ann, bob):
            await someone.wait_for(lambda snap: snap.fair is not None and snap.result is not None, WAIT)
            assert someone.snapshot.fair.words == "fair deal: verified", someone.snapshot.fair.problems
            assert someone.snapshot.seat == fair.order.index(someone.evidence.share_seat)
        await close_all(ann, bob)


@pytest.mark.parametrize("case", range(4))
async def test_property_every_client_verifies_and_the_seed_comes_from_shares_pledged_blind(case):
    """Random games, seat counts and join orders: every client verifies, and the seed is the derivation
    from shares each player pledged before any share was revealed (its evidence holds the frozen pledges
    it saw before revealing, its own among them)."""
    rng = random.Random(case)
    game_id = sorted(all_games())[case % 3]
    game = get_game(game_id)
    low, high = game.option("players").allowed
    seats = rng.randint(max(low, 2), min(high, 4))
    players = 1 if game_id == "money-or-life" else rng.randint(1, seats)
    bots = {seat: "easy" for seat in range(players, seats)}
    table = Table(game, {"players": seats}, bots=bots, now=ManualClock())
    async with hosting(table, CLOCKED) as host:
        people = [client(host, name=f"P{n}", seat=seat)
                  for n, seat in enumerate(rng.sample(range(players), players))]
        for someone in people:
            await someone.start()
        await asyncio.gather(*(play_randomly(p, random.Random(n)) for n, p in enumerate(people)))
        for someone in people:
            await someone.wait_for(lambda snap: snap.fair is not None, WAIT)
            assert someone.snapshot.fair.words == "fair deal: verified", someone.snapshot.fair.problems
            evidence = someone.evidence
            assert evidence.revealed and evidence.pledges[evidence.seat] == pledge_of(evidence.nonce)
            assert all(evidence.pledges[p.snapshot.seat] is not None for p in people)
        fair = table.fair
        assert fair.nonces == [next((p.evidence.nonce for p in people if p.snapshot.seat == seat), None)
                               for seat in range(seats)]
        assert table.seed == derive_seed(fair.secret, fair.nonces_used())
        await close_all(*people)


def test_old_saved_checks_and_records_still_verify_and_say_their_kind_of_deal(tmp_path):
    """A version-1 deal (the nonce in the hello, ``turpin-seed-v1``): its saved check and its host's
    record still read, and verify, saying the host could have steered that kind of deal."""
    old = FairDeal(os.urandom(32), os.urandom(16), 1, [None, None], [b"o" * 16, None], [False, False],
                   phase="dealt", version=1)
    table = Table(GAME, OPTIONS, bots={1: "normal"}, seed=1, fair=old)
    sent: list[bytes] = []
    table.join(sent.append, {"protocol": protocol.PROTOCOL_VERSION, "role": "player"})
    table.deal.new_game(old.seed(), repeatable_bots=False)  # as the first protocol dealt: with the hello's nonce
    sent.clear()
    for watcher in table.watchers:
        table.frames.send_table(watcher, catch_up=True)
    _play_out(table, random.Random(9))
    frames = [m for m in _wire(sent) if m["type"] == "table"]
    assert "version" not in frames[-1]["record"]["fair"]  # the first protocol's reveal
    saved = tmp_path / "old.turpin-check"
    saved.write_bytes(pack({"format": "turpin-fair-check", "version": 1, "game": "turpin", "seat": 0,
                            "commitment": old.commitment, "nonce": b"o" * 16, "frames": frames,
                            "previous_secret": None, "changed": []}))
    verdict = verify(GAME, read_evidence(saved)[1])
    assert verdict.words == "fair deal: verified (an old kind of deal, which its host could have steered)"
    record = tmp_path / "old.record"
    record.write_bytes(pack(table.record()))
    done = subprocess.run([sys.executable, "-m", "tui.cli", "verify", str(record)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "an old kind of deal" in done.stdout, done.stdout + done.stderr
    # A client of today, shown an old kind of reveal for a game it pledged in, is not fooled by it
    evidence = _evidence_of(sent, 0, b"o" * 16)
    assert verify(GAME, evidence).words.startswith("fair deal: MISMATCH — the host revealed an old kind of deal")


def test_a_saved_check_of_today_round_trips_and_a_huge_flood_of_frames_is_a_mismatch(tmp_path):
    table = Table(GAME, OPTIONS, bots={1: "normal"})
    sent: list[bytes] = []
    ann = table.join(sent.append, {"protocol": protocol.PROTOCOL_VERSION, "role": "player"})
    nonce = give_shares(table)[ann.seat]
    _play_out(table, random.Random(10))
    evidence = _evidence_of(sent, ann.seat, nonce)
    path = tmp_path / "today.turpin-check"
    write_evidence(path, "turpin", evidence)
    again = read_evidence(path)[1]
    assert (again.pledges, again.revealed, again.share_seat) == (evidence.pledges, True, ann.seat)
    assert verify(GAME, again).words == "fair deal: verified"
    from net import fairness
    flooded = Evidence(0, evidence.commitment)
    filler = {"type": "table", "turn": 0, "catch_up": False, "events": [], "padding": b"x" * (1 << 20)}
    for _ in range(fairness.MAX_EVIDENCE_BYTES >> 20):
        flooded.keep(filler)
    assert flooded.overflow and len(flooded.packed) == 1  # what is kept stays bounded
    assert verify(GAME, flooded).status == "mismatch" and "too much to check" in verify(GAME, flooded).words


async def test_a_host_whose_welcome_commits_to_one_secret_and_its_frames_to_another_is_caught(monkeypatch):
    """The commitment a client checks is the first it saw, the welcome's: a host that welcomes with one
    and deals under another (to pick between them later) is a mismatch."""
    original = Frames.welcome

    def two_faced(self: Frames, seat: int | None, role: str) -> bytes:
        message = msgpack.unpackb(original(self, seat, role)[4:], raw=False)
        return protocol.encode({**message, "commitment": os.urandom(32)})
    monkeypatch.setattr(Frames, "welcome", two_faced)
    table = Table(GAME, OPTIONS, bots={1: "normal"})
    async with hosting(table) as host:
        ann = client(host, name="Ann")
        await ann.start()
        await play_randomly(ann, random.Random(1))
        await ann.wait_for(lambda snap: snap.fair is not None, WAIT)
        assert ann.snapshot.fair.status == "mismatch"
        assert "the commitment in the welcome is not the one in the table's frames" in ann.snapshot.fair.words
        await ann.close()


@pytest.mark.parametrize("deal", [
    {"phase": "reveals", "pledges": 7}, {"phase": "reveals", "pledges": [1, "x"]}, {"phase": 3, "pledges": []},
    {"phase": "pledges", "pledges": [None] * 70_000}, {"phase": "reveals", "pledges": [b"p" * 32], "revealed": 5},
    {"phase": "pledges"}, {}])
def test_a_hostile_hosts_deal_field_is_ignored_or_used_safely(deal):
    """Whatever a host puts in ``deal``, the client sends at most its own pledge or reveal and never fails."""
    from net.client import TableClient
    player = TableClient("127.0.0.1", 9, role="player")
    player.snapshot.seat, written = 0, []
    player._write = written.append  # type: ignore[method-assign]
    frame = {"type": "table", "turn": 0, "started": False, "catch_up": True, "view": None, "events": [],
             "prompt": None, "seats": [], "result": None, "commitment": b"c" * 32, "deal": deal}
    assert player._deal.keep_evidence(player.snapshot, player.role, frame) is None
    assert all(message["type"] in ("pledge", "reveal") for message in written) and len(written) <= 1


def test_the_check_of_ten_thousand_tiny_catch_up_frames_costs_what_they_hold():
    """A host that sends thousands of tiny catch-up frames late in a game once made the check
    rebuild the log for each. The work now grows with the frames' bytes: counted here in the events the
    check compares, which stay under what the frames carried plus one whole log."""
    from net.fairness import check as fairness  # where the check looks ``name_seats`` up
    table = Table(GAME, OPTIONS, bots={1: "normal"})
    sent: list[bytes] = []
    ann = table.join(sent.append, {"protocol": protocol.PROTOCOL_VERSION, "role": "player"})
    nonce = give_shares(table)[ann.seat]
    _play_out(table, random.Random(12))
    evidence = _evidence_of(sent, ann.seat, nonce)
    last = msgpack.unpackb(evidence.packed[-1])
    tiny = {**last, "catch_up": True, "events": [], "result": None, "record": None}
    flooded = Evidence(ann.seat, evidence.commitment, nonce, list(evidence.packed[:-1]), pledges=evidence.pledges,
                       revealed=True, share_seat=ann.seat)
    for _ in range(10_000):
        flooded.keep(tiny)
    flooded.keep(last)
    compared = []
    real_name_seats = fairness.name_seats
    fairness.name_seats = lambda text, labels: compared.append(text) or real_name_seats(text, labels)
    try:
        verdict = verify(GAME, flooded)
    finally:
        fairness.name_seats = real_name_seats
    assert verdict.status == "mismatch" and "the events sent at move" in verdict.words
    assert len(compared) <= 2 * sum(len(msgpack.unpackb(frame)["events"]) for frame in evidence.packed)
