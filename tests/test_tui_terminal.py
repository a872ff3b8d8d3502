"""Issue 8: the app in a real terminal. A headless host, a player's app and a spectator's app, each in
its own tmux window, played to the end with send-keys and read back with capture-pane."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time

import pytest

from tests.terminal_helpers import MAX_POLLS

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


def test_the_your_move_toast_goes_from_a_narrow_terminal_once_its_time_is_up(tmp_path, tmux):
    """At 80×24 the "Your move" toast sits on the tab strip; Textual took it out of the layout without
    repainting there, so in a real terminal it stayed until something else redrew the tabs."""
    env = {"TURPIN_LAN": "off", "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_STATE_HOME": str(tmp_path / "st"),
           "TURPIN_SEATS_FILE": str(tmp_path / "seats.json"), "TERM": "xterm-256color", "LANG": "C.UTF-8",
           "PYTHONPATH": os.getcwd()}
    tmux.open("player", [sys.executable, "-m", "tui", "--name", "Ann", "--no-bell", "play"],
              env, size=(80, 24))

    def toast_shown(screen: str) -> bool:  # the move pane says "Your move" too: only the top rows count
        return "Your move" in "\n".join(screen.splitlines()[:4])

    # The move pane can paint "Your move" a frame before the toast does: wait for the toast itself.
    tmux.wait_until("player", toast_shown, "the 'Your move' toast")
    for _ in range(MAX_POLLS):
        if not toast_shown(tmux.screen("player")):
            break
        time.sleep(0.1)
    else:
        raise AssertionError(f"the toast stayed:\n{tmux.screen('player')}")
    assert "Your move" in tmux.screen("player")  # the prompt itself is still there
