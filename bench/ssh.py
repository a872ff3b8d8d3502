"""SSH front door benchmark: connect → menu painted, against the same app launched locally on a pty.

    .venv/bin/python bench/ssh.py [--rounds 8] [--concurrent 20]

1. Local baseline: ``python -m tui`` started on a fresh pty (80×24), until its output holds the menu
   ("Play against bots"); median and p95, with the app's memory (RSS) once the menu is up.
2. Over SSH: ``turpin serve-ssh`` (its own process, 127.0.0.1, --open) and an asyncssh client in this
   process; from the start of the TCP connection to the menu in the session's output; median, p95,
   the ratio to (1) and the session app's RSS. Rounds of (1) and (2) alternate so load hits both alike.
3. Concurrency: N sessions opened at once; each one's connect → menu time, the sum of their apps' RSS
   and the server's own RSS, and how long one more session takes while the N sit at their menus.

Goals from issue 11: session start ≤ 1.5× a local launch; memory per session ≤ 1.2× a local app.
Prints figures, asserts nothing. Everything stays on 127.0.0.1; LAN browsing is off in every app.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pathlib
import pty
import re
import signal
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import asyncssh  # noqa: E402

from net.ssh import set_window_size  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
MENU = b"Play against bots"
GUARD = 120.0  # a hung run stops here; not a goal


def _percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def _rss_kib(pid: int) -> int:
    try:
        for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except FileNotFoundError:
        pass
    return 0


def _children(pid: int) -> list[int]:
    try:
        return [int(child) for child in pathlib.Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except FileNotFoundError:
        return []


def _environment(folder: pathlib.Path) -> dict[str, str]:
    """What the door gives a session, for the local launch too; private folders, no LAN browsing."""
    return {"TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": os.environ.get("HOME", "/"),
            "PATH": os.environ.get("PATH", os.defpath), "TURPIN_LAN": "off",
            "XDG_DATA_HOME": str(folder / "data"), "XDG_STATE_HOME": str(folder / "state"),
            "TURPIN_SEATS_FILE": str(folder / "seats.json")}


async def local_launch(folder: pathlib.Path) -> tuple[float, int]:
    """Seconds from starting the app on a new pty to the menu in its output, and its RSS then (KiB)."""
    loop = asyncio.get_running_loop()
    master, slave = pty.openpty()
    set_window_size(slave, 80, 24)
    started = time.perf_counter()
    child = await asyncio.create_subprocess_exec(sys.executable, "-m", "tui", "--name=local", stdin=slave,
                                                 stdout=slave, stderr=slave, env=_environment(folder),
                                                 cwd=ROOT, start_new_session=True)
    os.close(slave)
    seen = b""
    readable = asyncio.Event()
    loop.add_reader(master, readable.set)
    try:
        while MENU not in seen:
            await asyncio.wait_for(readable.wait(), GUARD)
            readable.clear()
            seen += os.read(master, 65536)
        elapsed = time.perf_counter() - started
        memory = _rss_kib(child.pid)
    finally:
        loop.remove_reader(master)
        os.killpg(child.pid, signal.SIGHUP)
        await child.wait()
        os.close(master)
    return elapsed, memory


async def start_server(folder: pathlib.Path) -> tuple[asyncio.subprocess.Process, int]:
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui", "serve-ssh", "--port", "0", "--interface", "127.0.0.1", "--open",
        "--no-name-passphrases", "--max-sessions", "100", "--host-key", str(folder / "host_key"), cwd=ROOT,
        env={**_environment(folder), "PYTHONPATH": str(ROOT)}, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT)
    first = await asyncio.wait_for(server.stdout.readline(), GUARD)
    port = re.search(rb"port (\d+)", first)
    assert port, first
    return server, int(port.group(1))


class Session:
    """One SSH session from connect to its menu, kept open until closed."""

    def __init__(self) -> None:
        self.conn: asyncssh.SSHClientConnection | None = None
        self.seconds = 0.0

    async def open(self, port: int, user: str) -> Session:
        started = time.perf_counter()
        self.conn = await asyncssh.connect("127.0.0.1", port, username=user, known_hosts=None, client_keys=None,
                                           agent_path=None, password=None)
        process = await self.conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        seen = b""
        while MENU not in seen:
            chunk = await asyncio.wait_for(process.stdout.read(65536), GUARD)
            assert chunk, seen
            seen += chunk
        self.seconds = time.perf_counter() - started
        self.process = process
        return self

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            await self.conn.wait_closed()


async def wait_for_sessions(server_pid: int, count: int) -> None:
    async def poll() -> None:
        while len(_children(server_pid)) != count:
            await asyncio.sleep(0.05)
    await asyncio.wait_for(poll(), GUARD)


def _line(label: str, samples: list[float], baseline: list[float] | None = None) -> str:
    text = f"  {label:<34} median {statistics.median(samples) * 1000:7.0f} ms   p95 {_percentile(samples, 95) * 1000:7.0f} ms"
    if baseline:
        text += f"   ({statistics.median(samples) / statistics.median(baseline):.2f}× local)"
    return text


async def main(rounds: int, concurrent: int) -> None:
    folder = pathlib.Path(tempfile.mkdtemp(prefix="turpin-bench-ssh-"))
    server, port = await start_server(folder)
    try:
        local_times, local_memory, ssh_times, ssh_memory = [], [], [], []
        warmup = await Session().open(port, "warmup")  # page the interpreter and asyncssh in for both sides
        await warmup.close()
        await local_launch(folder)
        await wait_for_sessions(server.pid, 0)
        for round_number in range(rounds):
            seconds, memory = await local_launch(folder)
            local_times.append(seconds)
            local_memory.append(memory)
            session = await Session().open(port, f"player{round_number}")
            ssh_times.append(session.seconds)
            [app] = _children(server.pid)
            ssh_memory.append(_rss_kib(app))
            await session.close()
            await wait_for_sessions(server.pid, 0)

        print(f"SSH front door: connect → menu painted, {rounds} rounds each, 80×24, on 127.0.0.1")
        print(_line("local launch on a pty (baseline)", local_times))
        print(_line("ssh session (connect+auth+app)", ssh_times, local_times))
        print(f"  memory per app: local {statistics.median(local_memory) / 1024:.1f} MiB, "
              f"ssh session {statistics.median(ssh_memory) / 1024:.1f} MiB "
              f"({statistics.median(ssh_memory) / statistics.median(local_memory):.2f}× local)")

        idle_server = _rss_kib(server.pid)
        started = time.perf_counter()
        sessions = await asyncio.gather(*(Session().open(port, f"crowd{i}") for i in range(concurrent)))
        all_up = time.perf_counter() - started
        apps = _children(server.pid)
        apps_memory = sum(_rss_kib(pid) for pid in apps)
        crowd_server = _rss_kib(server.pid)
        late = await Session().open(port, "latecomer")
        print(f"{concurrent} sessions opened at once: all menus up in {all_up:.1f} s")
        print(_line("each session's connect → menu", [s.seconds for s in sessions], local_times))
        print(f"  apps' memory: {apps_memory / 1024:.0f} MiB in all, {apps_memory / len(apps) / 1024:.1f} MiB each; "
              f"server {idle_server / 1024:.0f} → {crowd_server / 1024:.0f} MiB "
              f"(+{(crowd_server - idle_server) / concurrent:.0f} KiB a session)")
        print(f"  one more session while {concurrent} sit at their menus: {late.seconds * 1000:.0f} ms "
              f"({late.seconds / statistics.median(local_times):.2f}× a quiet local launch)")
        print(f"  load average now: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
        await asyncio.gather(*(s.close() for s in [*sessions, late]))
    finally:
        server.send_signal(signal.SIGTERM)
        await server.wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--concurrent", type=int, default=20)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.rounds, arguments.concurrent))
