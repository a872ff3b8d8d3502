"""A fair deal anyone can check: the host commits before anyone joins, every player's nonce goes
into the seed, nothing secret leaves before the end, and every client (app, text client, spectator)
checks the reveal and every frame it was sent against a replay."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import io
import random
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest

from core.registry import all_games, get_game
from net import protocol
from net.fairness import (
    CHAIN,
    chain_secret,
    commitment_of,
    derive_order,
    derive_seed,
    host_nonce,
    pledge_of,
    read_evidence,
    verify,
    write_evidence,
)
from net.protocol import ProtocolError
from net.table import pipeline
from net.table.table import Table
from tests.net_helpers import WAIT, client, close_all, give_shares, hosting, play_one_bot, play_randomly
from tests.tui_helpers import play_to_results, screen_text
from tests.waiting import until
from tui.app import Start, TurpinApp
from tui.cli.text_client import play_text

ROOT = Path(__file__).resolve().parents[2]


def test_the_derivation_byte_for_byte():
    """PROTOCOL.md's words, done here with hashlib alone, agree with the code."""
    secret, salt = bytes(range(32)), bytes(range(100, 116))
    nonces = [b"\x01" * 16, b"\x02" * 16]
    assert commitment_of(secret, salt) == hashlib.sha256(salt + secret).digest()
    digest = hashlib.sha256(b"turpin-seed-v2" + secret + nonces[0] + nonces[1]).digest()
    assert derive_seed(secret, nonces) == int.from_bytes(digest[:8], "big") & (2 ** 63 - 1)
    assert host_nonce(secret, 3) == hashlib.sha256(b"turpin-host-nonce-v2" + secret + b"\x03").digest()[:16]
    assert pledge_of(nonces[0]) == hashlib.sha256(b"turpin-pledge-v2" + nonces[0]).digest()
    keys = [hashlib.sha256(b"turpin-seats-v2" + secret + nonces[0] + nonces[1] + bytes([0, seat])).digest()
            for seat in range(2)]
    attempt_0 = sorted(range(2), key=lambda seat: keys[seat])
    assert derive_order(secret, nonces) == (attempt_0 if attempt_0 != [0, 1] else [1, 0])
    # Tables and saved games of protocol version 1 still check, with the first version's tags
    old = hashlib.sha256(b"turpin-seed-v1" + secret + nonces[0] + nonces[1]).digest()
    assert derive_seed(secret, nonces, 1) == int.from_bytes(old[:8], "big") & (2 ** 63 - 1)
    assert host_nonce(secret, 3, 1) == hashlib.sha256(b"turpin-host-nonce-v1" + secret + b"\x03").digest()[:16]
    root = b"r" * 32
    assert chain_secret(root, CHAIN) == root
    assert hashlib.sha256(chain_secret(root, 2)).digest() == chain_secret(root, 1)


def test_a_pledge_is_thirty_two_bytes_a_share_sixteen_and_a_hello_carries_neither():
    protocol.validate_client_message({"type": "pledge", "pledge": b"p" * 32})
    protocol.validate_client_message({"type": "reveal", "nonce": b"n" * 16})
    for bad in (b"short", b"n" * 33, "n" * 32):
        with pytest.raises(ProtocolError):
            protocol.validate_client_message({"type": "pledge", "pledge": bad})
    with pytest.raises(ProtocolError):
        protocol.validate_client_message({"type": "reveal", "nonce": b"n" * 17})
    with pytest.raises(ProtocolError):  # a share sent before the commitment was seen is no share
        protocol.validate_client_message({"type": "hello", "protocol": protocol.PROTOCOL_VERSION,
                                          "role": "player", "nonce": b"n" * 16})


def test_a_table_with_a_chosen_seed_has_no_fair_deal_and_one_without_deals_when_full():
    game = get_game("turpin")
    assert Table(game, {"players": 2}, seed=5).fair is None
    table = Table(game, {"players": 2}, bots={1: "normal"})
    assert table.fair is not None and not table.fair.dealt and not table.started
    table.join(lambda frame: None, {"protocol": protocol.PROTOCOL_VERSION, "role": "player"})
    assert table.full and not table.started  # full, but the player's share is not in yet
    give_shares(table, {0: b"a" * 16})
    assert table.fair.dealt and table.fair.nonces == [b"a" * 16, None] and table.started
    assert table.seed == derive_seed(table.fair.secret, [b"a" * 16, host_nonce(table.fair.secret, 1)])


@pytest.mark.parametrize("game_id", sorted(all_games()))
async def test_every_client_verifies_a_fair_game_and_nothing_secret_leaves_before_the_end(game_id):
    """Two players and a spectator: the commitment is the same in every welcome and frame; the root, the
    secret, the salt and the other player's nonce are in no frame before the result; at the end each
    client says "fair deal: verified" (the property: derivation and replay give every frame it got)."""
    game = get_game(game_id)
    players = 1 if game_id == "money-or-life" else 2  # and a bot in the last seat
    table = Table(game, {"players": players + 1}, bots={players: "normal"})
    frames: dict[str, list] = {"ann": [], "watcher": []}
    async with hosting(table) as host:
        clients = {"ann": client(host, name="Ann", frame_log=frames["ann"])}
        if players == 2:
            frames["bob"] = []
            clients["bob"] = client(host, name="Bob", frame_log=frames["bob"])
        clients["watcher"] = client(host, role="spectator", frame_log=frames["watcher"])
        for someone in clients.values():
            await someone.start()
        secrets_of_the_host = [table.fair.root, table.fair.secret, table.fair.salt]
        commitment = table.fair.commitment
        players_now = [c for name, c in clients.items() if name != "watcher"]
        await asyncio.gather(*(play_randomly(p, random.Random(seat)) for seat, p in enumerate(players_now)))
        for someone in clients.values():
            await someone.wait_for(lambda snap: snap.fair is not None, WAIT)
            assert someone.snapshot.fair.words == "fair deal: verified", someone.snapshot.fair.problems
        await close_all(*clients.values())
    nonces = {name: c.evidence.nonce for name, c in clients.items() if name != "watcher"}
    assert all(nonces.values())
    for name, log in frames.items():
        welcomes = [m for m in log if m["type"] == "welcome"]
        tables = [m for m in log if m["type"] == "table"]
        assert welcomes and all(m["commitment"] == commitment for m in welcomes + tables)
        for message in tables:
            if message["result"] is None:
                wire = protocol.encode(message)
                assert not any(secret in wire for secret in secrets_of_the_host)
                assert not any(nonce in wire for other, nonce in nonces.items() if other != name)
        reveal = tables[-1]["record"]["fair"]
        assert reveal["secret"] == secrets_of_the_host[1] and reveal["salt"] == secrets_of_the_host[2]


def _cheating(game, tamper: str, at: int = 3):
    """The game as a cheating host plays it: at its ``at``-th move it re-seeds its chance (``seed``) or
    rewrites the move's line in the log (``event``); every client checks against the real rules."""
    calls = [0]

    def apply(state, seat, action):
        events = game.apply(state, seat, action)
        calls[0] += 1
        if calls[0] == at:
            if tamper == "seed":
                state["rng"] = state["rng"] ^ 0x5DEECE66D
            else:
                events = [{**events[0], "text": events[0]["text"] + " And pays the host 5 gold."}, *events[1:]]
        return events
    return dataclasses.replace(game, apply=apply, advance=None)


@pytest.mark.parametrize("tamper", ["seed", "event"])
async def test_a_host_that_cheats_mid_game_is_caught_by_every_client(tamper):
    """Players and a spectator, and the text client too, each say exactly what did not match."""
    game = _cheating(get_game("turpin"), tamper)
    table = Table(game, {"players": 2, "rounds": 2})
    async with hosting(table) as host:
        ann, bob = client(host, name="Ann"), client(host, name="Bob")
        watcher = client(host, role="spectator")
        for someone in (ann, bob, watcher):
            await someone.start()
        out = io.StringIO()
        reader = client(host, role="spectator")
        text_client = asyncio.ensure_future(play_text(reader, out))
        await asyncio.gather(play_randomly(ann, random.Random(1)), play_randomly(bob, random.Random(2)))
        for someone in (ann, bob, watcher):
            await someone.wait_for(lambda snap: snap.fair is not None, WAIT)
            assert someone.snapshot.fair.status == "mismatch"
            said = someone.snapshot.fair.words
            assert said.startswith("fair deal: MISMATCH — ") and ("not the replay's" in said), said
        assert await asyncio.wait_for(text_client, WAIT) == 0
        await close_all(ann, bob, watcher)
    assert "Fair deal: MISMATCH — " in out.getvalue()


async def test_the_app_shows_a_cheating_hosts_mismatch_on_the_results_and_keeps_the_check(monkeypatch, tmp_path):
    """At someone else's table: the results say the mismatch, and the check kept beside the records makes
    `turpin verify` exit 1 with the same words; an honest game's check exits 0."""
    monkeypatch.setenv("TURPIN_SEATS_FILE", str(tmp_path / "seats.json"))
    monkeypatch.setenv("TURPIN_RECORDS_DIR", str(tmp_path / "records"))
    paths = {}
    for honest in (True, False):
        game = get_game("highwayman")
        table = Table(game if honest else _cheating(game, "event", at=5),
                      {"players": 2, "series_games": 1, "routes": 2, "route_length": 6}, bots={1: "normal"})
        async with hosting(table) as host:
            address = f"127.0.0.1:{host.address[1]}"
            app = TurpinApp(Start(route="join", address=address), player_name="Ann", lan_interfaces=[], bell=False)
            async with app.run_test(size=(120, 40)) as pilot:
                await play_to_results(pilot, app)
                words = "fair deal: verified" if honest else "fair deal: MISMATCH — the events sent at move"
                await until(lambda: words in screen_text(app), "the fair deal's verdict", pilot=pilot)
                assert "turpin verify" in screen_text(app)
                paths[honest] = app.check_path
                await app.workers.wait_for_complete()
    for honest, path in paths.items():
        done = subprocess.run([sys.executable, "-m", "tui.cli", "verify", path], cwd=ROOT, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == (0 if honest else 1), done.stdout + done.stderr
        assert ("verified" if honest else "MISMATCH") in done.stdout


async def test_resume_keeps_the_commitment_and_play_again_follows_the_chain(tmp_path):
    """A table rebuilt from its record sends the same commitment; a game dealt again commits afresh, its
    secret the one before the last game's in the chain, and the client checks that link."""
    from net.host import record_saver
    from net.record import read_record
    game = get_game("turpin")
    path = tmp_path / "first.record"
    table = Table(game, {"players": 2}, bots={1: "normal"}, save=record_saver(path))
    async with hosting(table) as host:
        ann = client(host, name="Ann")
        await ann.start()
        first = table.deal.commitment
        await play_randomly(ann, random.Random(1), stop_at_turn=4)
        resumed = Table.from_record(game, read_record(path))
        assert resumed.deal.commitment == first and resumed.seed == table.seed
        await play_randomly(ann, random.Random(1))
        await ann.wait_for(lambda snap: snap.fair is not None, WAIT)
        assert ann.snapshot.fair.status == "verified"
        first_secret = table.fair.secret
        host.table.start_again()
        await ann.wait_for(lambda snap: snap.result is None and snap.started, WAIT)
        assert table.deal.commitment != first and hashlib.sha256(table.fair.secret).digest() == first_secret
        await play_randomly(ann, random.Random(2))
        await ann.wait_for(lambda snap: snap.fair is not None and snap.turn == len(table.actions), WAIT)
        assert ann.snapshot.fair.status == "verified" and ann.evidence.previous_secret == first_secret
        await ann.close()


def test_turpin_verify_checks_a_hosts_record_and_refuses_what_is_not_one(tmp_path):
    from net.host import record_saver
    game = get_game("money-or-life")
    table = Table(game, {"players": 1, "rounds": 5}, save=record_saver(tmp_path / "solo.record"))
    table.join(lambda frame: None, {"protocol": protocol.PROTOCOL_VERSION, "role": "player"})
    give_shares(table)
    rng = random.Random(4)
    while not table.over:
        seat = game.pending(table.state)[0]
        pipeline.apply(table, seat, rng.choice(game.legal_actions(table.state, seat)))
    table.save.close()

    def verify_file(path):
        return subprocess.run([sys.executable, "-m", "tui.cli", "verify", str(path)], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
    done = verify_file(tmp_path / "solo.record")
    assert done.returncode == 0 and "fair deal: verified" in done.stdout, done.stdout + done.stderr
    bad = tmp_path / "bad.turpin-check"
    bad.write_bytes(b"\x93garbage")
    done = verify_file(bad)
    assert done.returncode == 2 and done.stdout == "" and len(done.stderr.splitlines()) == 1
    done = verify_file(tmp_path / "missing.record")
    assert done.returncode == 2 and done.stderr.startswith("turpin: ")


def test_a_saved_check_that_was_tampered_with_is_a_mismatch(tmp_path):
    """The saved game checks again the same way; a view changed in the file afterwards is caught."""
    game = get_game("turpin")
    table = Table(game, {"players": 2}, bots={1: "normal"})
    frames: list[bytes] = []
    table.join(frames.append, {"protocol": protocol.PROTOCOL_VERSION, "role": "player"})
    give_shares(table, {0: b"q" * 16})
    rng = random.Random(8)
    while not table.over:
        if table.stand_ins.next_bot() is not None:
            play_one_bot(table)
        else:
            pipeline.apply(table, 0, rng.choice(game.legal_actions(table.state, 0)))
    from net.fairness import Evidence
    messages = [msgpack.unpackb(frame[4:], raw=False) for frame in frames]
    evidence = Evidence(0, table.deal.commitment, b"q" * 16)
    for message in messages:
        if message["type"] == "table":
            evidence.keep(message)
    assert verify(game, evidence).status == "verified"
    path = tmp_path / "good.turpin-check"
    write_evidence(path, "turpin", evidence)
    assert verify(game, read_evidence(path)[1]).status == "verified"
    tampered = msgpack.unpackb(evidence.packed[5])
    evidence.packed[5] = msgpack.packb({**tampered, "view": {**tampered["view"], "gold": [99, 99]}})
    verdict = verify(game, evidence)
    assert verdict.status == "mismatch" and "the view sent at move" in verdict.words
