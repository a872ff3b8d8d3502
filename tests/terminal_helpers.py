"""Programs in real terminals for the tests: a private tmux server, one window per program, read back with
capture-pane; and polling for what no event announces. (The ``tmux`` fixture is in ``conftest.py``.)"""

from __future__ import annotations

import re
import subprocess
import uuid

from tests.waiting import until_returns

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
        def look() -> str | None:
            screen = self.screen(name)
            if "EXITED" in screen and not shows(screen):
                raise AssertionError(f"{name} ended:\n{screen}")
            return screen if shows(screen) else None
        return until_returns(look, f"{name} showing {what}", explain=lambda: self.screen(name))

    def play_to_game_over(self, name: str) -> int:
        """Press 1 at every "Your move" until the window shows "Game over"; returns the moves made."""
        moves = 0
        for _ in range(MAX_POLLS):
            screen = self.wait_for(name, r"Your move|Game over")
            if "Game over" in screen:
                return moves
            self.keys(name, "1")
            moves += 1
            self.wait_until(name, lambda now, before=screen: now != before, "the move taken")
        raise AssertionError(f"{name} never reached the end:\n{self.screen(name)}")

    def close(self) -> None:
        if self.started:
            subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True)


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"

