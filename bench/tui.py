"""The app's speed and size, each against a baseline measured in the same run.

1. Launch → first painted menu, on a real pseudo-terminal, against a bare Textual app that paints one
   line (goal ≤ 1.5×); the resident memory of each once painted (goal ≤ 1.5×).
2. Table update received → screen repainted, per game, while bots and the player play whole games
   through the app (goal: median < 16 ms); against a bare app repainting one Static. Beside it, the CPU
   time an update costs the app's thread (handler and screen updates), which a busy machine moves less.

    python bench/tui.py [--launches 7] [--games 3] [--skip-launch] [--skip-updates]
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import os
import pathlib
import pty
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BARE_APP = """
from textual.app import App
from textual.widgets import Static
class Bare(App):
    def compose(self):
        yield Static("bare textual app ready")
Bare().run()
"""


def launch_once(command: list[str], marker: bytes, env: dict[str, str]) -> tuple[float, int]:
    """Seconds from start until ``marker`` is painted on the pty, and the process's RSS (KiB) then."""
    master, slave = pty.openpty()
    started = time.perf_counter()
    process = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env,
                               start_new_session=True, cwd=ROOT)
    os.close(slave)
    seen = b""
    elapsed = float("nan")
    try:
        while time.perf_counter() - started < 30:
            ready, _, _ = select.select([master], [], [], 0.5)
            if not ready:
                continue
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
            if marker in seen.replace(b"\x1b", b""):
                elapsed = time.perf_counter() - started
                break
        time.sleep(0.3)  # settled: what it holds once the first screen is up
        rss = resident_kib(process.pid)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        os.close(master)
    return elapsed, rss


def resident_kib(pid: int) -> int:
    try:
        for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def bench_launch(launches: int) -> None:
    # Both apps start from bytecode, as an installed program does from its second launch on (Textual's
    # was compiled when pip installed it; turpin's own modules are compiled here, in case the machine
    # sets PYTHONDONTWRITEBYTECODE and nothing has written them yet).
    for package in ("core", "net", "tui"):
        compileall.compile_dir(ROOT / package, quiet=1)
    env = {**os.environ, "TURPIN_LAN": "off", "TERM": "xterm-256color", "LANG": "C.UTF-8",
           "COLUMNS": "100", "LINES": "30", "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as home:
        env.update(XDG_DATA_HOME=home, XDG_STATE_HOME=home)
        app_times, bare_times, app_rss, bare_rss = [], [], [], []
        for _ in range(launches):  # alternate, so both meet the same machine
            seconds, rss = launch_once([sys.executable, "-m", "tui"], b"Play against bots", env)
            app_times.append(seconds)
            app_rss.append(rss)
            seconds, rss = launch_once([sys.executable, "-c", BARE_APP], b"bare textual app ready", env)
            bare_times.append(seconds)
            bare_rss.append(rss)
    app_ms, bare_ms = statistics.median(app_times) * 1000, statistics.median(bare_times) * 1000
    print(f"launch → first painted screen, median of {launches} (pty, 100×30):")
    print(f"  bare Textual app   {bare_ms:7.0f} ms")
    print(f"  turpin menu        {app_ms:7.0f} ms   ratio {app_ms / bare_ms:.2f}× (goal ≤ 1.5×)")
    app_mib, bare_mib = statistics.median(app_rss) / 1024, statistics.median(bare_rss) / 1024
    print("resident memory once painted:")
    print(f"  bare Textual app   {bare_mib:7.1f} MiB")
    print(f"  turpin menu        {app_mib:7.1f} MiB   ratio {app_mib / bare_mib:.2f}× (goal ≤ 1.5×)")


class PaintClock:
    """Times from a mark to the next frame the app composites (``App._display``)."""

    def __init__(self, app) -> None:
        self.marked: float | None = None
        self.samples: list[float] = []
        original = app._display

        def display(screen, renderable):
            original(screen, renderable)
            if renderable is not None and self.marked is not None:
                self.samples.append(time.perf_counter() - self.marked)
                self.marked = None

        app._display = display

    def mark(self) -> None:
        if self.marked is None:
            self.marked = time.perf_counter()


class CpuClock:
    """CPU time (this thread's) spent turning table updates into the screen: the table screen's handler
    and Textual's screen updates (layout, render). Unlike the latency it hardly moves with the machine's
    load, so two runs on a busy machine can still be compared."""

    def __init__(self) -> None:
        from textual.screen import Screen

        from tui.screens.table import TableScreen
        self.handler = self.screen = 0.0
        self.updates = 0
        self._patched = [(TableScreen, "on_table_screen_updated"), (Screen, "_on_timer_update")]
        self._originals = [getattr(owner, name) for owner, name in self._patched]
        handle, update = self._originals

        def timed_handler(screen, message):
            started = time.thread_time()
            handle(screen, message)
            self.handler += time.thread_time() - started
            self.updates += message.update.kind == "table"

        def timed_update(screen):
            started = time.thread_time()
            update(screen)
            if isinstance(screen, TableScreen):  # not the menu, nor the results and their chart
                self.screen += time.thread_time() - started

        TableScreen.on_table_screen_updated = timed_handler
        Screen._on_timer_update = timed_update

    def restore(self) -> None:
        for (owner, name), original in zip(self._patched, self._originals):
            setattr(owner, name, original)

    def describe(self) -> str:
        per = 1000 / max(1, self.updates)
        return (f"CPU an update: handler {self.handler * per:5.2f} ms + screen {self.screen * per:5.2f} ms "
                f"(mean, n={self.updates})")


#: The terminal sizes the repaint is measured at: the common one, and a big one (the layouts' extremes).
SIZES = ((120, 40), (200, 50))


async def bench_game_updates(game: str, games: int, size: tuple[int, int] = (120, 40)) -> list[float]:
    from tests.tui_helpers import play_to_results, quick_app
    samples: list[float] = []
    for number in range(games):
        app = quick_app(game, seed=1000 + number)
        app.start.plan.bot_delay = 0.05  # a brisk table, not a flood
        async with app.run_test(size=size) as pilot:
            clock = PaintClock(app)
            await pilot.pause(0.2)
            client = app.client
            while client is None:
                await pilot.pause(0.05)
                client = app.client
            client.subscribe(lambda update: clock.mark() if update.kind == "table" else None)
            await play_to_results(pilot, app)
        samples += clock.samples
    return samples


async def bench_bare_updates(count: int, size: tuple[int, int] = (120, 40)) -> list[float]:
    from textual.app import App
    from textual.widgets import Static

    class Bare(App):
        def compose(self):
            yield Static("0", id="line")

    app = Bare()
    async with app.run_test(size=size) as pilot:
        clock = PaintClock(app)
        static = app.query_one("#line", Static)
        for number in range(count):
            clock.mark()
            static.update(f"update {number} " * 20)
            await pilot.pause(0.002)
    return clock.samples


def describe(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(ordered) * 1000:6.2f} ms  p95 {p95 * 1000:6.2f} ms  (n={len(ordered)})"


def bench_updates(games: int) -> None:
    from core.registry import all_games
    for width, height in SIZES:
        bare = asyncio.run(bench_bare_updates(200, (width, height)))
        print(f"table update received → screen repainted ({width}×{height}, headless compositor):")
        print(f"  bare Static update           {describe(bare)}")
        for game in all_games():
            cpu = CpuClock()
            try:
                samples = asyncio.run(bench_game_updates(game, games, (width, height)))
            finally:
                cpu.restore()
            ratio = statistics.median(samples) / statistics.median(bare)
            print(f"  {game:<28} {describe(samples)}  ratio {ratio:.1f}× bare (goal: median < 16 ms)")
            print(f"  {'':<28} {cpu.describe()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, default=7)
    parser.add_argument("--games", type=int, default=3,
                        help="whole games a title (one gives too few updates for a steady median)")
    parser.add_argument("--skip-launch", action="store_true")
    parser.add_argument("--skip-updates", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("TURPIN_LAN", "off")
    with tempfile.TemporaryDirectory() as home:
        os.environ["XDG_DATA_HOME"] = os.environ["XDG_STATE_HOME"] = home
        os.environ["TURPIN_SEATS_FILE"] = os.path.join(home, "seats.json")
        if not args.skip_launch:
            bench_launch(args.launches)
        if not args.skip_updates:
            bench_updates(args.games)


if __name__ == "__main__":
    main()
