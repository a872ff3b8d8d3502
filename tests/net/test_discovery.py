"""Discovery: tables advertised and browsed with zeroconf.

Every zeroconf packet stays inside private network namespaces these tests create (``unshare -rn``;
two namespaces joined by a veth pair stand for two machines). The programs that run in them are in
tests/discovery_actors.py. Where namespaces are unavailable the network tests skip, saying why.
"""

from __future__ import annotations

import json
import os
import pathlib
import queue
import signal
import subprocess
import sys
import threading
from typing import Any, Callable

import ifaddr
import pytest

from net.discovery import DiscoveryUnavailable, TableAd, instance_label, nearest_first, resolve_interface
from tests.net_helpers import LOOPBACK_UP, namespaces_unavailable
from tui.cli.tables import format_tables

ROOT = pathlib.Path(__file__).resolve().parents[2]
ACTORS = ROOT / "tests" / "discovery_actors.py"
HANG_GUARD = 120.0  # seconds: only so a broken test fails instead of hanging; never a speed assertion
TABLES_TRIES = 5    # runs of `turpin tables` before a table it never lists counts as missing
GOOD_TXT = {b"proto": b"1", b"game": b"dick_turpin", b"name": b"The Bell Inn", b"taken": b"2",
            b"free": b"3", b"code": b"1"}


# --- adverts and their TXT, no network -----------------------------------------------------------------

def test_txt_round_trip_keeps_every_field():
    """A table's advert read back from its TXT gives the same table, with the browser's address."""
    ad = TableAd(name="The Bell Inn", game="dick_turpin", protocol=1, seats_taken=2, seats_free=3,
                 code_needed=True)
    txt = {key.encode(): value.encode() for key, value in ad.to_txt().items()}
    back = TableAd.from_txt(txt, host="10.0.0.7", port=4321, instance="The Bell Inn 0a1b2c")
    assert back == TableAd("The Bell Inn", "dick_turpin", 1, 2, 3, True, "10.0.0.7", 4321, "The Bell Inn 0a1b2c")
    assert all(len(key) + 1 + len(value.encode()) <= 255 for key, value in ad.to_txt().items())


@pytest.mark.parametrize("key, value", [
    (b"proto", b"one"), (b"proto", b"-1"), (b"proto", b"999999"), (b"taken", b"99"), (b"free", b"3.5"),
    (b"code", b"yes"), (b"code", None), (b"game", b"Dick Turpin!"), (b"name", b""), (b"name", b"x" * 41),
    (b"name", b"bell\x07inn"), (b"name", b"\xff\xfe"), (b"game", b"a" * 300),
])
def test_bad_txt_value_is_refused(key, value):
    """Every TXT value is checked when read: a malformed one raises ValueError, never a bad TableAd."""
    with pytest.raises(ValueError):
        TableAd.from_txt({**GOOD_TXT, key: value}, host="10.0.0.7", port=4321, instance="x 000000")


@pytest.mark.parametrize("missing", [b"proto", b"game", b"name", b"taken", b"free", b"code"])
def test_txt_missing_a_key_is_refused(missing):
    """An advert lacking any of the six keys is refused."""
    txt = {key: value for key, value in GOOD_TXT.items() if key != missing}
    with pytest.raises(ValueError):
        TableAd.from_txt(txt, host="10.0.0.7", port=4321, instance="x 000000")


def test_advertised_values_are_checked_too():
    """The advertising side cannot build an oversized or malformed advert either."""
    with pytest.raises(ValueError):
        TableAd(name="x" * 41, game="dick_turpin", protocol=1, seats_taken=0, seats_free=2, code_needed=False)
    with pytest.raises(ValueError):
        TableAd(name="ok", game="dick_turpin", protocol=1, seats_taken=0, seats_free=200, code_needed=False)


def test_instance_names_are_unique_and_fit_one_dns_label():
    """Instance name = table name + short id, cut to the 63-byte DNS label limit (multi-byte names too)."""
    assert instance_label("The Bell Inn", "0a1b2c") == "The Bell Inn 0a1b2c"
    long_name = "Ye Olde Highwaymans Tavern by the Great North Road"[:40] + "éééééééééé"
    label = instance_label(long_name, "0a1b2c")
    assert len(label.encode()) <= 63 and label.endswith(" 0a1b2c")


def test_interface_by_address_or_by_name():
    """--interface takes an IPv4 address, or an interface's name resolved to its IPv4 addresses."""
    assert resolve_interface(None) is None
    assert resolve_interface("192.168.1.20") == ["192.168.1.20"]
    adapter = next(a for a in ifaddr.get_adapters() if any(ip.is_IPv4 for ip in a.ips))
    assert resolve_interface(adapter.nice_name) == [str(ip.ip) for ip in adapter.ips if ip.is_IPv4]
    with pytest.raises(DiscoveryUnavailable, match="connect by address"):
        resolve_interface("no-such-interface0")


def test_addresses_on_our_own_subnet_are_probed_first(monkeypatch):
    """A multi-homed host's LAN address is tried before its bridge/VPN addresses we cannot reach."""
    ours = [ifaddr.Adapter("eth0", "eth0", [ifaddr.IP("192.168.1.20", 24, "eth0")])]
    monkeypatch.setattr(ifaddr, "get_adapters", lambda: ours)
    assert nearest_first(["172.17.0.1", "10.8.0.3", "192.168.1.5"]) == ["192.168.1.5", "172.17.0.1", "10.8.0.3"]


def test_tables_listing_shows_name_seats_code_and_address():
    """`turpin tables` prints one line per table with where to connect; an empty LAN says what to do."""
    ads = [TableAd("The Bell Inn", "dick_turpin", 1, 2, 3, True, "10.0.0.7", 4321, "The Bell Inn 0a1b2c"),
           TableAd("Full House", "dick_turpin", 1, 4, 0, False, "10.0.0.8", 5000, "Full House 3d4e5f")]
    text = format_tables(ads, 3)
    assert "The Bell Inn" in text and "2/5" in text and "10.0.0.7:4321" in text
    assert "4/4 full" in text and "10.0.0.8:5000" in text
    assert "connect by address" in format_tables([], 3)
    newer = TableAd("Newer", "dick_turpin", 99, 0, 2, False, "10.0.0.9", 6000, "Newer 777777")
    assert "protocol 99" in format_tables([newer], 3)


# --- private network namespaces -----------------------------------------------------------------------

class Actor:
    """One program from discovery_actors.py running in a namespace; its JSON lines read by a thread."""

    def __init__(self, argv: list[str]) -> None:
        self.process = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        #: What the program wrote on stderr, read as it comes: a full pipe nobody reads would stall it.
        self.errors: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.errors.extend(self.process.stderr), daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, line: str) -> None:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_for(self, predicate: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        """The first event matching predicate; every event seen on the way is kept in self.seen."""
        while True:
            try:
                line = self.lines.get(timeout=HANG_GUARD)
            except queue.Empty:
                pytest.fail(f"never saw {what}; saw {self.seen}; stderr: {''.join(self.errors)[-2000:]}")
            if line is None:
                self.process.wait()
                pytest.fail(f"exited before {what}: {''.join(self.errors)[-2000:]}")
            event = json.loads(line)
            self.seen.append(event)
            if predicate(event):
                return event

    def event(self, name: str, **fields: Any) -> dict[str, Any]:
        return self.wait_for(lambda e: e.get("event") == name and fields.items() <= e.items(),
                             f"{name} {fields}")

    def events_for_each(self, name: str, instances: set[str]) -> None:
        """Wait until event ``name`` has come for every one of ``instances``, in any order."""
        waiting = set(instances)
        while waiting:
            event = self.wait_for(lambda e: e.get("event") == name and e.get("instance") in waiting,
                                  f"{name} for each of {sorted(waiting)}")
            waiting.discard(event["instance"])

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


class Namespace:
    """A private user+network namespace held open by a process that lives as long as its stdin."""

    def __init__(self, holder: subprocess.Popen) -> None:
        self.holder = holder
        self.actors: list[Actor] = []

    @property
    def pid(self) -> int:
        return self.holder.pid

    def enter(self, *argv: str) -> list[str]:
        return ["nsenter", "--preserve-credentials", "-U", "-n", "-t", str(self.pid), *argv]

    def shell(self, script: str) -> None:
        subprocess.run(self.enter("sh", "-c", script), check=True, capture_output=True, timeout=HANG_GUARD)

    def actor(self, *argv: str) -> Actor:
        actor = Actor(self.enter(sys.executable, str(ACTORS), *argv))
        self.actors.append(actor)
        return actor

    def close(self) -> None:
        for actor in self.actors:
            actor.stop()
        self.holder.stdin.close()
        self.holder.wait(timeout=HANG_GUARD)


def _hold_namespace(argv: list[str], setup: str) -> Namespace:
    holder = subprocess.Popen([*argv, "sh", "-c", f"{setup} echo ready && exec cat"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if holder.stdout.readline().strip() != "ready":
        holder.kill()
        pytest.skip(f"cannot create a private network namespace: {holder.stderr.read().strip()}")
    return Namespace(holder)


@pytest.fixture
def netns():
    """A private namespace whose only interface is its own loopback, multicast on."""
    reason = namespaces_unavailable()
    if reason:
        pytest.skip(reason)
    namespace = _hold_namespace(["unshare", "-rn"], LOOPBACK_UP)
    yield namespace
    namespace.close()


@pytest.fixture
def two_machines():
    """Two namespaces joined by a veth pair in the private test subnet 10.253.0.0/24."""
    reason = namespaces_unavailable()
    if reason:
        pytest.skip(reason)
    machine_a = _hold_namespace(["unshare", "-rn"], LOOPBACK_UP)
    machine_b = _hold_namespace(machine_a.enter("unshare", "-n"), LOOPBACK_UP)
    try:
        machine_a.shell(f"ip link add turpin-a type veth peer name turpin-b && "
                        f"ip link set turpin-b netns {machine_b.pid} && "
                        f"ip addr add 10.253.0.1/24 dev turpin-a && ip link set turpin-a multicast on up")
        machine_b.shell("ip addr add 10.253.0.2/24 dev turpin-b && ip link set turpin-b multicast on up")
    except subprocess.CalledProcessError as error:
        machine_b.close()
        machine_a.close()
        pytest.skip(f"cannot join two namespaces with a veth pair: {error.stderr.decode().strip()}")
    yield machine_a, machine_b
    machine_b.close()
    machine_a.close()


def _advertise(ns: Namespace, *argv: str) -> tuple[Actor, dict[str, Any]]:
    advertiser = ns.actor("advertise", *argv)
    return advertiser, advertiser.event("ready")


def test_table_appears_with_its_txt_fields(netns):
    """A host's table appears in a browser's live list with its name, game, protocol, seats and code."""
    browser = netns.actor("browse")
    browser.event("browsing")
    _advertiser, ready = _advertise(netns, "--listen", "--name", "The Bell Inn", "--taken", "1", "--free", "3")
    added = browser.event("added", instance=ready["instance"])
    assert added == {"event": "added", "name": "The Bell Inn", "game": "turpin", "protocol": 1, "taken": 1,
                     "free": 3, "code": True, "host": "127.0.0.1", "port": ready["port"],
                     "instance": ready["instance"]}


def test_table_updates_when_a_seat_fills(netns):
    """When a seat fills the TXT is updated and browsers see the new seat counts."""
    browser = netns.actor("browse")
    browser.event("browsing")
    advertiser, ready = _advertise(netns, "--listen", "--taken", "1", "--free", "3")
    browser.event("added", instance=ready["instance"], taken=1, free=3)
    advertiser.send("update 2 2")
    assert browser.event("updated", instance=ready["instance"])["taken"] == 2
    advertiser.send("update 3 1")
    assert browser.event("updated", instance=ready["instance"])["free"] == 1


@pytest.mark.slow
def test_seat_filled_while_the_advert_starts_is_not_lost(netns):
    """A seat that fills while the advert is still claiming its name is published once it is up."""
    browser = netns.actor("browse")
    browser.event("browsing")
    _advertiser, ready = _advertise(netns, "--listen", "--taken", "1", "--free", "3", "--early-update", "2", "2")
    browser.wait_for(lambda e: e.get("instance") == ready["instance"] and e.get("taken") == 2, "taken 2")


@pytest.mark.slow
def test_table_disappears_when_its_host_closes(netns):
    """Closing the advertiser unregisters the service: browsers drop the table."""
    browser = netns.actor("browse")
    browser.event("browsing")
    advertiser, ready = _advertise(netns, "--listen")
    browser.event("added", instance=ready["instance"])
    advertiser.send("close")
    advertiser.event("closed")
    browser.event("removed", instance=ready["instance"])


@pytest.mark.slow
def test_table_disappears_when_its_host_gets_ctrl_c(netns):
    """Ctrl-C (SIGINT) on the host still unregisters the service on the way out."""
    browser = netns.actor("browse")
    browser.event("browsing")
    advertiser, ready = _advertise(netns, "--listen")
    browser.event("added", instance=ready["instance"])
    advertiser.process.send_signal(signal.SIGINT)
    advertiser.event("closed")
    browser.event("removed", instance=ready["instance"])
    assert advertiser.process.wait(timeout=HANG_GUARD) == 130


@pytest.mark.slow
def test_table_disappears_when_its_host_dies_without_a_goodbye(netns):
    """A host killed outright (SIGKILL: no goodbye packet) is dropped once it stops answering the probe."""
    browser = netns.actor("browse", "--reprobe", "0.3")
    browser.event("browsing")
    advertiser, ready = _advertise(netns, "--listen")
    browser.event("added", instance=ready["instance"])
    advertiser.process.kill()
    advertiser.process.wait(timeout=HANG_GUARD)
    browser.event("removed", instance=ready["instance"])


@pytest.mark.slow
def test_two_tables_with_one_name_are_both_listed(netns):
    """Two hosts choosing the same table name get distinct instance names and both show up."""
    browser = netns.actor("browse")
    browser.event("browsing")
    first, second = (netns.actor("advertise", "--listen", "--name", "Twins") for _ in range(2))
    one, two = first.event("ready"), second.event("ready")
    assert one["instance"] != two["instance"]
    browser.events_for_each("added", {one["instance"], two["instance"]})
    assert {e["name"] for e in browser.seen if e["event"] == "added"} == {"Twins"}


@pytest.mark.slow
def test_bad_txt_is_ignored(netns):
    """Adverts with malformed TXT are never listed; a good one next to them is."""
    browser = netns.actor("browse")
    browser.event("browsing")
    good = dict(item.split("=", 1) for item in
                ["proto=1", "game=turpin", "name=Fine", "taken=1", "free=1", "code=0"])
    bad_adverts = {"Bad proto": {"proto": "one"}, "Bad seats": {"taken": "999"},
                   "Bad code": {"code": "maybe"}, "Bad name": {"name": "x" * 60}}
    bad = [netns.actor("advertise-raw", "--name", instance,
                       *[f"{key}={value}" for key, value in {**good, **change}.items()])
           for instance, change in bad_adverts.items()]
    for advertiser in bad:
        advertiser.event("ready")
    browser.events_for_each("ignored", set(bad_adverts))
    netns.actor("advertise-raw", "--name", "Good", *[f"{k}={v}" for k, v in good.items()]).event("ready")
    browser.event("added", instance="Good")
    assert not [e for e in browser.seen if e["event"] == "added" and e["instance"] in bad_adverts]


@pytest.mark.slow
def test_probe_hides_a_table_whose_port_does_not_answer(netns):
    """A table is shown only after a TCP connection to its address answers."""
    probing = netns.actor("browse")
    trusting = netns.actor("browse", "--no-probe")
    probing.event("browsing")
    trusting.event("browsing")
    _silent, silent = _advertise(netns, "--name", "Silent")    # advertises a port nobody listens on
    trusting.event("added", instance=silent["instance"])
    probing.event("unanswered", instance=silent["instance"])
    _open, opened = _advertise(netns, "--listen", "--name", "Open")
    probing.event("added", instance=opened["instance"])
    assert not [e for e in probing.seen if e["event"] == "added" and e["instance"] == silent["instance"]]


def test_tables_command_prints_the_tables_found(netns):
    """`turpin tables` lists each table that answered, with seats, code and address to connect to."""
    _advertiser, ready = _advertise(netns, "--listen", "--name", "The Bell Inn", "--taken", "2", "--free", "2")
    outputs = []
    # The command listens for a set time; on a busy machine the answer may come after it, and then the
    # user runs it again. So do we, a few times, rather than count on the answer's speed.
    for _ in range(TABLES_TRIES):
        result = subprocess.run(netns.enter(sys.executable, str(ACTORS), "tables", "--interface", "127.0.0.1",
                                            "--seconds", "2"),
                                cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD)
        assert result.returncode == 0, result.stderr
        outputs.append(result.stdout)
        rows = [line for line in result.stdout.splitlines() if line.startswith("The Bell Inn")]
        if rows:
            break
    else:
        pytest.fail(f"the table was never listed: {outputs}")
    assert "2/4" in rows[0] and "yes" in rows[0] and f"127.0.0.1:{ready['port']}" in rows[0]


@pytest.mark.slow
def test_tables_command_on_an_empty_lan_says_to_connect_by_address(netns):
    """With no table around, `turpin tables` says none were found and how to connect instead."""
    result = subprocess.run(netns.enter(sys.executable, str(ACTORS), "tables", "--interface", "lo",
                                        "--seconds", "0.5"),
                            cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD)
    assert result.returncode == 0, result.stderr
    assert "No tables found" in result.stdout and "connect by address" in result.stdout


@pytest.mark.slow
def test_unavailable_when_port_5353_is_taken(netns):
    """Another program holding UDP 5353 exclusively: both sides raise DiscoveryUnavailable, saying so."""
    actor = netns.actor("unavailable", "--take-5353")
    for role in ("advertiser", "browser"):
        message = actor.wait_for(lambda e, role=role: e.get("role") == role, role)["unavailable"]
        assert message and "5353" in message and "connect by address" in message


def test_unavailable_when_multicast_fails():
    """No interface can join the mDNS group (loopback down, nothing else): DiscoveryUnavailable."""
    reason = namespaces_unavailable()
    if reason:
        pytest.skip(reason)
    namespace = _hold_namespace(["unshare", "-rn"], "")
    try:
        actor = namespace.actor("unavailable")
        for role in ("advertiser", "browser"):
            message = actor.wait_for(lambda e, role=role: e.get("role") == role, role)["unavailable"]
            assert message and "connect by address" in message
        lan_on = {name: value for name, value in os.environ.items() if name != "TURPIN_LAN"}  # (its own netns)
        result = subprocess.run(namespace.enter(sys.executable, str(ACTORS), "tables", "--seconds", "0.5"),
                                cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD, env=lan_on)
        assert result.returncode == 1 and "connect by address" in result.stderr
    finally:
        namespace.close()


@pytest.mark.slow
def test_unavailable_on_an_address_this_machine_lacks(netns):
    """--interface naming an address no interface here has: nothing can join the group, so unavailable."""
    actor = netns.actor("unavailable", "--interface", "10.253.9.9")
    for role in ("advertiser", "browser"):
        message = actor.wait_for(lambda e, role=role: e.get("role") == role, role)["unavailable"]
        assert message and "10.253.9.9" in message and "connect by address" in message


@pytest.mark.slow
def test_two_machines_see_each_others_table(two_machines):
    """Across a veth pair (two machines): the table appears, updates when a seat fills, goes when closed."""
    machine_a, machine_b = two_machines
    browser = machine_b.actor("browse", "--interface", "10.253.0.2")
    browser.event("browsing")
    advertiser, ready = _advertise(machine_a, "--interface", "10.253.0.1", "--listen", "--taken", "1")
    added = browser.event("added", instance=ready["instance"])
    assert (added["host"], added["port"]) == ("10.253.0.1", ready["port"])
    advertiser.send("update 2 2")
    assert browser.event("updated", instance=ready["instance"])["taken"] == 2
    advertiser.send("close")
    browser.event("removed", instance=ready["instance"])


# --- the host and the browser's probe ------------------------------------------------------------------

async def test_a_browsers_probe_leaves_the_host_quiet_and_the_table_untouched(caplog, capsys):
    """A browser checks a table by connecting and closing without a word (``tcp_probe``), or by a reset:
    the host shrugs it off — no traceback, no warning, no seat or log line — and a player then sits
    and plays the whole game as usual (real sockets on 127.0.0.1)."""
    import asyncio
    import logging
    import random
    import socket
    import struct

    from net.discovery import tcp_probe
    from net.table.table import Table
    from tests.net_helpers import TOY, WAIT, client, hosting, play_randomly
    from tests.waiting import until

    caplog.set_level(logging.DEBUG)
    table = Table(TOY, {"players": 2}, code="ROOM42", bots={1: "random"})
    async with hosting(table) as host:
        before = (table.seating.public(), list(table.log), table.turn)
        for _ in range(3):
            assert await tcp_probe(*host.address)
        abrupt = socket.create_connection(host.address)
        abrupt.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close = reset
        abrupt.close()
        await until(lambda: not host.connections, "the probes' connections gone")  # in the host's own time
        assert not table.watchers
        assert (table.seating.public(), table.log, table.turn) == before
        player = client(host, code="ROOM42", name="Tom")
        await player.start()
        await asyncio.wait_for(play_randomly(player, random.Random(5)), WAIT)
        assert player.snapshot.result == table.narrated_result() and player.snapshot.seat == 0
        await player.close()
    loud = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert loud == [], [record.getMessage() for record in loud]
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err and captured.err == ""


@pytest.mark.slow
def test_repeated_short_listings_find_every_table_among_several_turpin_processes(netns):
    """On a machine running several turpin processes, one-second `turpin tables` run one
    right after another each find every table. (Before: none at all — the unicast answers to zeroconf's
    first, QU, questions went to port 5353, which the kernel hands to just one of the processes sharing
    it, seldom the one that asked. The browser asks QM questions, answered by multicast to all.)

    Two-second listings: one-second ones still miss tables here when the machine is busy (each responder
    multicasts a record at most once a second, RFC 6762 §6), so the test holds what the fix delivers."""
    browser = netns.actor("browse")   # another turpin process listening on 5353 too
    browser.event("browsing")
    names = ["Bell", "Crown", "Swan"]
    instances = {_advertise(netns, "--listen", "--name", name)[1]["instance"] for name in names}
    browser.events_for_each("added", instances)
    found = []
    for _ in range(6):
        result = subprocess.run(netns.enter(sys.executable, str(ACTORS), "tables", "--interface", "127.0.0.1",
                                            "--seconds", "2"),
                                cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD)
        assert result.returncode == 0, result.stderr
        found.append(sorted(name for name in names if any(line.startswith(name) for line in
                                                           result.stdout.splitlines())))
    assert found == [names] * 6, (found, result.stdout)
