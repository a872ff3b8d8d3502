"""Issue 8: the app in a real terminal. A headless host, a player's app and a spectator's app, each in
its own tmux window, played to the end with send-keys and read back with capture-pane."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed here")

#: Bounds on polling loops (each step sleeps a tenth of a second): a cap on work, not a time limit.
MAX_POLLS = 3000


class Tmux:
    """A private tmux server (its own socket) with one window per program."""

    def __init__(self, tmp_path) -> None:
        self.socket = str(tmp_path / f"tmux-{uuid.uuid4().hex[:8]}")
        self.started = False

    def run(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-S", self.socket, *args], capture_output=True, text=True, check=True)
        return done.stdout

    def open(self, name: str, command: list[str], env: dict[str, str], size=(100, 30)) -> None:
        line = " ".join(_quote(part) for part in command)
        exports = " ".join(f"{key}={_quote(value)}" for key, value in env.items())
        shell = f"env {exports} {line}; echo EXITED $?; sleep 600"
        if not self.started:
            self.run("new-session", "-d", "-s", "turpin", "-n", name, "-x", str(size[0]), "-y", str(size[1]), shell)
            self.started = True
        else:
            self.run("new-window", "-t", "turpin", "-n", name, shell)
            self.run("resize-window", "-t", f"turpin:{name}", "-x", str(size[0]), "-y", str(size[1]))

    def screen(self, name: str) -> str:
        return self.run("capture-pane", "-p", "-t", f"turpin:{name}")

    def keys(self, name: str, *keys: str) -> None:
        self.run("send-keys", "-t", f"turpin:{name}", *keys)

    def wait_for(self, name: str, pattern: str) -> str:
        return self.wait_until(name, lambda screen: re.search(pattern, screen) is not None, pattern)

    def wait_until(self, name: str, shows, what: str) -> str:
        """Poll the window until `shows(screen)` holds; returns that screen."""
        for _ in range(MAX_POLLS):
            screen = self.screen(name)
            if shows(screen):
                return screen
            if "EXITED" in screen:
                raise AssertionError(f"{name} ended:\n{screen}")
            time.sleep(0.1)
        raise AssertionError(f"{name} never showed {what}:\n{self.screen(name)}")

    def play_to_game_over(self, name: str) -> int:
        """Press 1 at every "Your move" until the window shows "Game over"; returns the moves made."""
        moves = 0
        for _ in range(MAX_POLLS):
            screen = self.wait_for(name, r"Your move|Game over")
            if "Game over" in screen:
                return moves
            self.keys(name, "1")
            moves += 1
            time.sleep(0.15)  # let the pending choice show before looking again
        raise AssertionError(f"{name} never reached the end:\n{self.screen(name)}")

    def close(self) -> None:
        if self.started:
            subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True)


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


@pytest.fixture
def tmux(tmp_path):
    session = Tmux(tmp_path)
    yield session
    session.close()


def test_a_player_and_a_spectator_in_real_terminals_play_a_game_to_its_end(tmp_path, tmux):
    env = {"TURPIN_LAN": "off", "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_STATE_HOME": str(tmp_path / "st"),
           "TERM": "xterm-256color", "LANG": "C.UTF-8", "PYTHONPATH": os.getcwd()}
    host = subprocess.Popen(
        [sys.executable, "-m", "tui", "host", "--headless", "--game", "turpin", "--players", "2", "--bots", "1",
         "--no-code", "--no-advertise", "--port", "0", "--bot-delay", "0", "--record", str(tmp_path / "rec")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, **env})
    try:
        first = host.stdout.readline()
        port = re.search(r":(\d+)\b", first).group(1)
        app = [sys.executable, "-m", "tui", "--name", "Ann", "--no-bell"]
        tmux.open("player", app + ["join", f"127.0.0.1:{port}"], env)
        tmux.open("watcher", app + ["spectate", f"127.0.0.1:{port}"], env)
        tmux.wait_for("watcher", "Spectating")
        assert tmux.play_to_game_over("player") > 5
        player = tmux.wait_for("player", "Game over")
        assert "Ann" in player
        watcher = tmux.wait_for("watcher", "Game over")
        assert "Everything that was hidden" in watcher or "Winner" in watcher
        tmux.keys("player", "m")
        tmux.wait_for("player", "Play against bots")
    finally:
        host.terminate()
        host.wait(timeout=10)
