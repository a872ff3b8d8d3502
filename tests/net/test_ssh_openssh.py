"""The SSH door with a real OpenSSH client: ``turpin serve-ssh`` on 127.0.0.1, ``ssh -tt`` in tmux windows.

The server is the real command; the client is the system's ``ssh`` with a throwaway key (the server runs
with ``--authorized-keys``) and a throwaway known_hosts file. What the player sees is read back with
tmux's capture-pane.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pathlib
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import termios
import threading

import pytest

from tests.waiting import until_returns

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not all(shutil.which(tool) for tool in ("tmux", "ssh", "ssh-keygen")),
                                 reason="needs tmux, ssh and ssh-keygen (OpenSSH client)")]


class Door:
    """``turpin serve-ssh`` in a subprocess, with a throwaway client key it lets in."""

    def __init__(self, tmp_path: pathlib.Path, *options: str) -> None:
        self.dir = tmp_path
        self.key = tmp_path / "player_key"
        #: A second player's key: with keys, the key is who a player is, whatever name he logs in under.
        self.other_key = tmp_path / "other_player_key"
        for key in (self.key, self.other_key):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
        (tmp_path / "authorized_keys").write_bytes(b"".join(key.with_suffix(".pub").read_bytes()
                                                            for key in (self.key, self.other_key)))
        self.server = subprocess.Popen(
            [sys.executable, "-m", "tui", "serve-ssh", "--port", "0", "--interface", "127.0.0.1",
             "--authorized-keys", str(tmp_path / "authorized_keys"), "--host-key", str(tmp_path / "host_key"),
             *options],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=dict(os.environ))
        self.banner = []
        while not self.banner or not self.banner[-1].startswith("Ctrl-C"):
            line = self.server.stdout.readline()
            assert line, "".join(self.banner)
            self.banner.append(line)
        self.port = int(re.search(r"port (\d+)", self.banner[0]).group(1))
        self.fingerprint = re.search(r"fingerprint: (\S+)", "".join(self.banner)).group(1)

    def ssh(self, user: str, key: pathlib.Path | None = None) -> list[str]:
        return ["ssh", "-F", "/dev/null", "-tt", "-p", str(self.port), "-i", str(key or self.key), "-o",
                "IdentitiesOnly=yes",
                "-o", f"UserKnownHostsFile={self.dir / 'known_hosts'}", "-o", "StrictHostKeyChecking=accept-new",
                "-o", "PasswordAuthentication=no", "-o", "BatchMode=yes", f"{user}@127.0.0.1"]

    def apps(self) -> list[int]:
        """The session processes the server is running now: its children, or with the warm pool
        the children of its zygote (which is no session's app)."""
        def children(pid: int) -> list[int]:
            with contextlib.suppress(FileNotFoundError):
                return [int(child) for child in
                        pathlib.Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
            return []
        apps = []
        for child in children(self.server.pid):
            with contextlib.suppress(FileNotFoundError):
                if b"tui.startup.zygote" in pathlib.Path(f"/proc/{child}/cmdline").read_bytes():
                    apps += children(child)
                    continue
            apps.append(child)
        return apps

    def stop(self) -> str:
        if self.server.poll() is None:
            self.server.send_signal(signal.SIGTERM)
        out, _ = self.server.communicate(timeout=60)
        return out


def running(pid: int) -> bool:
    try:
        state = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")


def window_size_of(pid: int) -> tuple[int, int]:
    """(columns, rows) of the terminal a process has as its stdin, as the kernel holds it."""
    descriptor = os.open(os.readlink(f"/proc/{pid}/fd/0"), os.O_RDONLY | os.O_NOCTTY)
    try:
        rows, columns, _, _ = struct.unpack("HHHH", fcntl.ioctl(descriptor, termios.TIOCGWINSZ, b"\0" * 8))
    finally:
        os.close(descriptor)
    return columns, rows


@pytest.fixture
def door(tmp_path):
    served = Door(tmp_path)
    yield served
    served.stop()


def test_openssh_player_sees_the_menu_follows_resizes_and_plays_bots_to_the_results(door, tmux):
    tmux.open("ann", door.ssh("Ann"), {"TERM": "xterm-256color", "LANG": "C.UTF-8"}, size=(100, 30))
    menu = tmux.wait_for("ann", "Play against bots")
    assert "Join a table" in menu and "Spectate" in menu and "Quit" in menu
    assert "Host a table" not in menu and "Replays" not in menu  # a guest opens no port, reads no records
    known_hosts = (door.dir / "known_hosts").read_text()
    assert "ssh-ed25519" in known_hosts  # the client met the ed25519 host key the server printed
    [app] = door.apps()
    assert window_size_of(app) == (100, 30)

    tmux.run("resize-window", "-t", "turpin:ann", "-x", "130", "-y", "36")
    until_returns(lambda: window_size_of(app) == (130, 36), "the new window size reaches the app's terminal")
    until_returns(lambda: max(len(line.rstrip()) for line in tmux.screen("ann").splitlines()) > 100,
               "the app redraws to the wider window")

    tmux.keys("ann", "Enter")  # Enter on the menu: a game against bots
    assert tmux.play_to_game_over("ann") > 5
    results = tmux.wait_for("ann", "Game over")
    assert "Ann" in results
    tmux.keys("ann", "m")
    tmux.wait_for("ann", "Play against bots")
    tmux.keys("ann", "q")
    until_returns(lambda: "EXITED" in tmux.screen("ann"), "ssh ends when the app quits")
    until_returns(lambda: not running(app), "the app's process is gone")


def test_a_dropped_openssh_client_ends_its_app_and_stopping_the_server_ends_the_rest(door, tmux):
    env = {"TERM": "xterm-256color", "LANG": "C.UTF-8"}
    tmux.open("bob", door.ssh("bob"), env)
    tmux.open("cat", door.ssh("cat"), env)
    tmux.wait_for("bob", "Play against bots")
    tmux.wait_for("cat", "Play against bots")
    apps = door.apps()
    assert len(apps) == 2
    bob_ssh = int(tmux.run("display-message", "-p", "-t", "turpin:bob", "#{pane_pid}"))
    ssh_client = [int(pid) for pid in pathlib.Path(f"/proc/{bob_ssh}/task/{bob_ssh}/children").read_text().split()]
    for pid in ssh_client:
        os.kill(pid, signal.SIGKILL)  # the connection drops without a goodbye
    until_returns(lambda: len(door.apps()) == 1, "bob's app ends with his connection")
    [cat_app] = door.apps()
    tmux.keys("cat", "?")  # cat's session goes on: it still answers keys
    tmux.wait_for("cat", "(?i)rules")
    output = door.stop()
    assert "Stopping" in output and door.server.returncode == 0
    assert not running(cat_app)
    until_returns(lambda: "EXITED" in tmux.screen("cat"), "cat's ssh is told the session is over")


def test_a_seated_ssh_player_who_drops_gets_his_seat_back_by_connecting_again(door, tmux, tmp_path):
    host = subprocess.Popen(
        [sys.executable, "-m", "tui", "host", "--headless", "--game", "turpin", "--players", "2", "--bots", "1",
         "--no-code", "--no-advertise", "--port", "0", "--bot-delay", "0", "--record", str(tmp_path / "rec")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=dict(os.environ))
    try:
        address = "127.0.0.1:" + re.search(r":(\d+)\b", host.stdout.readline()).group(1)
        env = {"TERM": "xterm-256color", "LANG": "C.UTF-8"}

        def join_as(window: str, user: str, key: pathlib.Path | None = None) -> None:
            tmux.open(window, door.ssh(user, key), env, size=(140, 36))  # wide enough for "you: Ann (seat N)"
            tmux.wait_for(window, "Play against bots")
            tmux.keys(window, "j")
            tmux.wait_for(window, "Address")
            tmux.keys(window, "-l", address)
            tmux.keys(window, "Enter")

        join_as("ann", "Ann")
        seated = tmux.wait_for("ann", r"you: Ann \(seat \d\)")
        seat = re.search(r"you: Ann \(seat (\d)\)", seated).group(1)
        import asyncssh

        from net.ssh import seats_file as seats_file_of
        key = asyncssh.read_public_key(str(door.key.with_suffix(".pub")))
        seats_file = seats_file_of(tmp_path / "data" / "turpin", f"key {key.get_fingerprint('sha256')}")
        assert address in seats_file.read_text()  # the app kept Ann's token in her key's file

        ann_pane = int(tmux.run("display-message", "-p", "-t", "turpin:ann", "#{pane_pid}"))
        for pid in _children(ann_pane):
            os.kill(pid, signal.SIGKILL)  # Ann's connection drops
        until_returns(lambda: door.apps() == [], "Ann's app ends with her connection")

        join_as("bob", "Bob", door.other_key)  # someone else finds the table full: the seat is still Ann's
        tmux.wait_for("bob", "Every seat at this table is taken")
        join_as("mallory", "Ann", door.other_key)  # so does someone else under her name
        tmux.wait_for("mallory", "Every seat at this table is taken")

        join_as("ann-again", "Ann")
        tmux.wait_for("ann-again", rf"you: Ann \(seat {seat}\)")
    finally:
        host.terminate()
        host.wait(timeout=30)


def _children(pid: int) -> list[int]:
    return [int(child) for child in pathlib.Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


class IdleCrowd:
    """TCP connections to the door that never log in, one from each of ``addresses`` (every 127.x.y.z
    reaches loopback), each opened again as soon as the door closes it: they sit on the port all along."""

    def __init__(self, port: int, addresses: list[str]) -> None:
        self.port, self.addresses = port, addresses
        self.opened = 0
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._sit, args=(address,), daemon=True) for address in addresses]
        for thread in self._threads:
            thread.start()

    def _sit(self, address: str) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(OSError), socket.socket() as idle:
                idle.bind((address, 0))
                idle.connect(("127.0.0.1", self.port))
                self.opened += 1
                idle.settimeout(0.2)
                while not self._stop.is_set():
                    try:
                        if not idle.recv(4096):
                            break  # the door closed it: open another
                    except socket.timeout:
                        continue

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join()


def test_a_login_gets_in_while_thirty_idle_connections_sit_on_the_port(tmp_path, tmux):
    """Idle connections have their own slots (a few per address, 10 s each): they never lock the door, not
    even one whose logged-in places are few (five sessions: 21 connections in all before)."""
    served = Door(tmp_path, "--max-sessions", "5")
    crowd = IdleCrowd(served.port, [f"127.0.0.{host}" for host in range(2, 32)])
    try:
        until_returns(lambda: crowd.opened >= 30, "thirty idle connections")
        tmux.open("ann", served.ssh("Ann"), {"TERM": "xterm-256color", "LANG": "C.UTF-8"}, size=(100, 30))
        assert "Join a table" in tmux.wait_for("ann", "Play against bots")
    finally:
        crowd.stop()
        served.stop()


def test_a_window_of_10000_by_10000_is_served_at_500_by_200(door, tmux):
    tmux.open("big", door.ssh("Big"), {"TERM": "xterm-256color", "LANG": "C.UTF-8"}, size=(100, 30))
    tmux.wait_for("big", "Play against bots")
    [app] = door.apps()
    tmux.run("resize-window", "-t", "turpin:big", "-x", "10000", "-y", "10000")
    until_returns(lambda: window_size_of(app) != (100, 30), "the resize reaches the app's terminal")
    assert window_size_of(app) == (500, 200)
