"""The app in a real terminal. A headless host, a player's app and a spectator's app, each in
its own tmux window, played to the end with send-keys and read back with capture-pane."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed here")]


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
